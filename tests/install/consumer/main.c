/* Uses an installed tilerast: clears a 64x64 RGBA8 image in a render pass
 * and checks every byte it downloads.  Exits 0 on success. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <tilerast/tilerast.h>

#define SIZE 64

int main(void)
{
    tr_context *ctx = NULL;
    tr_image *image = NULL;
    tr_result r;
    static uint8_t pixels[SIZE * SIZE * 4];
    /* Values whose UNORM8 conversion is exact: round(255 * c). */
    static const uint8_t expect[4] = {51, 153, 255, 255};

    if ((r = tr_context_create(&(tr_context_desc){ .threads = 1 }, &ctx)) != TR_OK) {
        fprintf(stderr, "tr_context_create: %s\n", tr_result_string(r));
        return 1;
    }
    if ((r = tr_image_create(ctx, &(tr_image_desc){
             .format = TR_FORMAT_R8G8B8A8_UNORM, .width = SIZE, .height = SIZE }, &image)) != TR_OK)
        goto fail;
    if ((r = tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
             .color = {{ .image = image, .load_op = TR_LOAD_OP_CLEAR,
                         .clear_color = {0.2f, 0.6f, 1.0f, 1.0f} }},
             .color_count = 1 })) != TR_OK)
        goto fail;
    if ((r = tr_cmd_end_render_pass(ctx, NULL)) != TR_OK)
        goto fail;
    if ((r = tr_image_download(image, NULL, pixels, 0)) != TR_OK)
        goto fail;

    for (int i = 0; i < SIZE * SIZE; i++)
        for (int c = 0; c < 4; c++)
            if (pixels[i * 4 + c] != expect[c]) {
                fprintf(stderr, "pixel (%d,%d) channel %d is %u, expected %u\n", i % SIZE,
                        i / SIZE, c, pixels[i * 4 + c], expect[c]);
                tr_context_destroy(ctx);
                return 1;
            }
    printf("tilerast %d.%d.%d: cleared %dx%d image OK\n", TILERAST_VERSION_MAJOR,
           TILERAST_VERSION_MINOR, TILERAST_VERSION_PATCH, SIZE, SIZE);
    tr_context_destroy(ctx);
    return 0;
fail:
    fprintf(stderr, "%s: %s\n", tr_result_string(r), tr_context_last_error(ctx));
    tr_context_destroy(ctx);
    return 1;
}
