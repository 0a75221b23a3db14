/* stb_image and stb_image_write's declarations; tool_stb.c holds their one
 * implementation in tilerast-render (PNG and JPEG reading, PNG writing). */
#ifndef TILERAST_TOOL_STB_H
#define TILERAST_TOOL_STB_H

#if defined(__GNUC__)
/* Debian's stb_image.h declares a static function it never defines; the
 * warning comes at the end of the including file, so it stays off there
 * (as in src/texture/texture_image.c). */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#endif
