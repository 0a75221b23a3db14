/* The program's one copy of stb_image and stb_image_write (Debian's
 * libstb-dev): tool_compare.c reads golden PNGs and writes diff pictures,
 * tool_model.c decodes the PNG and JPEG textures embedded in models.  The
 * library keeps static copies of its own (src/texture/texture_image.c,
 * src/image.c), so these are the only external stbi_ symbols; the two
 * users include tool_stb.h, the declarations alone. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
