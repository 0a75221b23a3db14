/* tilerast: the standard sample positions (multisample.h).
 *
 * Kept in sixteenths of a pixel from the pixel's top-left corner: every
 * standard position is a multiple of 1/16, so a sample's offset from the
 * pixel centre is a whole number of the raster's 1/256 subpixels
 * (16 subpixels per sixteenth) and per-sample edge functions stay exact. */
#include "raster_internal.h"

/* Vulkan's standard sample locations (the Direct3D standard patterns):
 * [log2(samples)][index] = {x, y} in 1/16 pixel. */
const uint8_t tr__sample_pos16[4][TR_MAX_SAMPLES][2] = {
    {{8, 8}},
    {{12, 12}, {4, 4}},
    {{6, 2}, {14, 6}, {2, 10}, {10, 14}},
    {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}},
};

tr_result tr_sample_position(uint32_t samples, uint32_t index, float pos[2])
{
    tr__api_enter(NULL);
    if (!pos)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_sample_position: pos is NULL");
    if (!tr_sample_count_valid(samples))
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_sample_position: samples = %u is not 1, 2, 4 or 8",
                         samples);
    if (index >= samples)
        return tr__error(NULL, TR_ERROR_OUT_OF_RANGE, "tr_sample_position: index = %u but there are %u samples",
                         index, samples);
    const uint32_t log2n = (uint32_t)__builtin_ctz(samples);
    pos[0] = (float)tr__sample_pos16[log2n][index][0] / 16.0f;
    pos[1] = (float)tr__sample_pos16[log2n][index][1] / 16.0f;
    return TR_OK;
}
