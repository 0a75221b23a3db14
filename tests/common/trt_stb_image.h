/* Debian's stb_image.h for reading PNGs back in a test (one translation
 * unit per test executable includes it): its implementation, static, with
 * the warnings it raises under the project's flags turned off. */
#ifndef TRT_STB_IMAGE_H
#define TRT_STB_IMAGE_H

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#endif
