/* Coverage by hand: which pixel centres a triangle covers under the Vulkan
 * rules (centres at +0.5, 1/256 px snapping, top-left or bottom-left ties),
 * for triangles small enough to check on paper, then random triangles
 * against the reference rasterizer in tests/common. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

#define W 8
#define H 8

/* Hit counts of the given triangles (pixel coordinates) on an 8x8 target. */
static void counts8(tr_tie_rule tie, const float (*xy)[2], uint32_t points, uint8_t *counts)
{
    trt_hit_opts o = {0};
    o.tie_rule = tie;
    trt_hit_counts(&o, W, H, xy, points, counts, NULL);
}

static void expect_rows(tr_tie_rule tie, const float (*xy)[2], uint32_t points,
                        const char *const rows[H], const char *what)
{
    uint8_t got[W * H], want[W * H];
    counts8(tie, xy, points, got);
    trt_map_from_rows(rows, W, H, want);
    trt_assert_maps_eq(got, want, W, H, what);
}

static void expect_both_rules(const float (*xy)[2], uint32_t points, const char *const rows[H],
                              const char *what)
{
    expect_rows(TR_TIE_TOP_LEFT, xy, points, rows, what);
    expect_rows(TR_TIE_BOTTOM_LEFT, xy, points, rows, what);
}

/* The reference rasterizer must agree with the hand-written maps too; it is
 * what the random tests trust. */
static void expect_ref(tr_tie_rule tie, const float (*xy)[2], uint32_t points,
                       const char *const rows[H], const char *what)
{
    uint8_t got[W * H] = {0}, want[W * H];
    for (uint32_t t = 0; t + 2 < points; t += 3)
        trt_ref_triangle((const float(*)[2])xy[t], tie, W, H, got);
    trt_map_from_rows(rows, W, H, want);
    trt_assert_maps_eq(got, want, W, H, what);
}

/* ---- vertices on pixel corners --------------------------------------------- */

Test(raster, right_triangle_on_pixel_corners)
{
    /* Centres (x+.5, y+.5) with x+y+1 < 4 are inside; x+y == 3 lies on the
     * hypotenuse, which is a right edge (not owned). No horizontal edge
     * passes through centres, so both rules agree. */
    static const float tri[3][2] = {{0, 0}, {4, 0}, {0, 4}};
    static const char *const rows[H] = {
        "###.....", "##......", "#.......", "........",
        "........", "........", "........", "........"};
    expect_both_rules(tri, 3, rows, "corner right triangle");
    expect_ref(TR_TIE_TOP_LEFT, tri, 3, rows, "reference, corner right triangle");
}

Test(raster, winding_does_not_change_coverage)
{
    /* Same triangle, other winding, culling off. */
    static const float tri[3][2] = {{0, 0}, {0, 4}, {4, 0}};
    static const char *const rows[H] = {
        "###.....", "##......", "#.......", "........",
        "........", "........", "........", "........"};
    expect_both_rules(tri, 3, rows, "corner right triangle, reversed winding");
}

Test(raster, axis_aligned_rectangle_on_pixel_corners)
{
    static const float quad[6][2] = {{1, 2}, {6, 2}, {6, 5}, {1, 2}, {6, 5}, {1, 5}};
    static const char *const rows[H] = {
        "........", "........", ".#####..", ".#####..",
        ".#####..", "........", "........", "........"};
    expect_both_rules(quad, 6, rows, "rectangle (1,2)-(6,5)");
}

/* ---- vertices on pixel centres: the tie rules ---------------------------------- */

Test(raster, top_edge_through_centres_top_left)
{
    /* Top edge y = 0.5 and left edge x = 0.5 pass through centres; the
     * hypotenuse x + y = 5 passes through centres with x + y = 4. */
    static const float tri[3][2] = {{0.5f, 0.5f}, {4.5f, 0.5f}, {0.5f, 4.5f}};
    static const char *const rows[H] = {
        "####....", "###.....", "##......", "#.......",
        "........", "........", "........", "........"};
    expect_rows(TR_TIE_TOP_LEFT, tri, 3, rows, "top edge, TOP_LEFT");
    expect_ref(TR_TIE_TOP_LEFT, tri, 3, rows, "reference, top edge, TOP_LEFT");
}

Test(raster, top_edge_through_centres_bottom_left)
{
    /* BOTTOM_LEFT does not own the top edge: row 0 is lost. */
    static const float tri[3][2] = {{0.5f, 0.5f}, {4.5f, 0.5f}, {0.5f, 4.5f}};
    static const char *const rows[H] = {
        "........", "###.....", "##......", "#.......",
        "........", "........", "........", "........"};
    expect_rows(TR_TIE_BOTTOM_LEFT, tri, 3, rows, "top edge, BOTTOM_LEFT");
    expect_ref(TR_TIE_BOTTOM_LEFT, tri, 3, rows, "reference, top edge, BOTTOM_LEFT");
}

Test(raster, bottom_edge_through_centres_top_left)
{
    /* Bottom edge y = 4.5, left edge x = 0.5, diagonal x = y (a right edge):
     * covered iff y > x and y < 4 (the bottom edge is not owned). */
    static const float tri[3][2] = {{0.5f, 0.5f}, {4.5f, 4.5f}, {0.5f, 4.5f}};
    static const char *const rows[H] = {
        "........", "#.......", "##......", "###.....",
        "........", "........", "........", "........"};
    expect_rows(TR_TIE_TOP_LEFT, tri, 3, rows, "bottom edge, TOP_LEFT");
    expect_ref(TR_TIE_TOP_LEFT, tri, 3, rows, "reference, bottom edge, TOP_LEFT");
}

Test(raster, bottom_edge_through_centres_bottom_left)
{
    /* BOTTOM_LEFT owns the bottom edge: row 4 is added, including the
     * vertex (0.5, 4.5) where the owned left and bottom edges meet. */
    static const float tri[3][2] = {{0.5f, 0.5f}, {4.5f, 4.5f}, {0.5f, 4.5f}};
    static const char *const rows[H] = {
        "........", "#.......", "##......", "###.....",
        "####....", "........", "........", "........"};
    expect_rows(TR_TIE_BOTTOM_LEFT, tri, 3, rows, "bottom edge, BOTTOM_LEFT");
    expect_ref(TR_TIE_BOTTOM_LEFT, tri, 3, rows, "reference, bottom edge, BOTTOM_LEFT");
}

Test(raster, left_edge_through_centres_same_for_both_rules)
{
    /* Vertical left edge x = 0.5 (owned by both rules), two sloped right
     * edges: covered iff x/2 < y < 6 - x/2.  The vertices (0.5,0.5) and
     * (0.5,6.5) lie on a right edge too, so they are not covered. */
    static const float tri[3][2] = {{0.5f, 0.5f}, {6.5f, 3.5f}, {0.5f, 6.5f}};
    static const char *const rows[H] = {
        "........", "##......", "####....", "######..",
        "####....", "##......", "........", "........"};
    expect_both_rules(tri, 3, rows, "vertical left edge");
    expect_ref(TR_TIE_TOP_LEFT, tri, 3, rows, "reference, vertical left edge");
    expect_ref(TR_TIE_BOTTOM_LEFT, tri, 3, rows, "reference, vertical left edge");
}

Test(raster, right_edge_through_centres_same_for_both_rules)
{
    /* Vertical right edge x = 6.5 (never owned) and two sloped left edges
     * (both owned): covered iff 3 - x/2 <= y <= 3 + x/2 and x <= 5. */
    static const float tri[3][2] = {{6.5f, 0.5f}, {6.5f, 6.5f}, {0.5f, 3.5f}};
    static const char *const rows[H] = {
        "........", "....##..", "..####..", "######..",
        "..####..", "....##..", "........", "........"};
    expect_both_rules(tri, 3, rows, "vertical right edge");
    expect_ref(TR_TIE_TOP_LEFT, tri, 3, rows, "reference, vertical right edge");
}

Test(raster, single_pixel_square_on_centre_grid)
{
    /* A square with corners on four centres: only the top-left centre under
     * TOP_LEFT, only the bottom-left under BOTTOM_LEFT. */
    static const float quad[6][2] = {{2.5f, 2.5f}, {3.5f, 2.5f}, {3.5f, 3.5f},
                                     {2.5f, 2.5f}, {3.5f, 3.5f}, {2.5f, 3.5f}};
    static const char *const tl[H] = {
        "........", "........", "..#.....", "........",
        "........", "........", "........", "........"};
    static const char *const bl[H] = {
        "........", "........", "........", "..#.....",
        "........", "........", "........", "........"};
    expect_rows(TR_TIE_TOP_LEFT, quad, 6, tl, "unit square on centres, TOP_LEFT");
    expect_rows(TR_TIE_BOTTOM_LEFT, quad, 6, bl, "unit square on centres, BOTTOM_LEFT");
}

/* ---- shared edges ---------------------------------------------------------------- */

Test(raster, shared_diagonal_through_centres_counts_once)
{
    /* Square (0.5,0.5)-(4.5,4.5) split along the anti-diagonal, which runs
     * through the centres with x + y = 4: each pixel exactly once. */
    static const float quad[6][2] = {{0.5f, 0.5f}, {4.5f, 0.5f}, {0.5f, 4.5f},
                                     {4.5f, 0.5f}, {4.5f, 4.5f}, {0.5f, 4.5f}};
    static const char *const tl[H] = {
        "####....", "####....", "####....", "####....",
        "........", "........", "........", "........"};
    static const char *const bl[H] = {
        "........", "####....", "####....", "####....",
        "####....", "........", "........", "........"};
    expect_rows(TR_TIE_TOP_LEFT, quad, 6, tl, "split square, TOP_LEFT");
    expect_rows(TR_TIE_BOTTOM_LEFT, quad, 6, bl, "split square, BOTTOM_LEFT");
}

Test(raster, shared_main_diagonal_counts_once)
{
    /* The other diagonal (x == y through centres). */
    static const float quad[6][2] = {{0.5f, 0.5f}, {4.5f, 0.5f}, {4.5f, 4.5f},
                                     {0.5f, 0.5f}, {4.5f, 4.5f}, {0.5f, 4.5f}};
    static const char *const tl[H] = {
        "####....", "####....", "####....", "####....",
        "........", "........", "........", "........"};
    static const char *const bl[H] = {
        "........", "####....", "####....", "####....",
        "####....", "........", "........", "........"};
    expect_rows(TR_TIE_TOP_LEFT, quad, 6, tl, "split square (main diagonal), TOP_LEFT");
    expect_rows(TR_TIE_BOTTOM_LEFT, quad, 6, bl, "split square (main diagonal), BOTTOM_LEFT");
}

Test(raster, shared_vertical_edge_owned_by_right_triangle)
{
    /* Two triangles meeting on x = 3.5 (centres of column 3): the column
     * belongs to the right triangle, whose left edge it is. */
    static const float left[3][2] = {{0, 1}, {3.5f, 0}, {3.5f, 7}};
    static const float right[3][2] = {{3.5f, 0}, {7, 1}, {3.5f, 7}};
    uint8_t l[W * H], r[W * H], both[W * H];
    float pts[6][2];
    counts8(TR_TIE_TOP_LEFT, left, 3, l);
    counts8(TR_TIE_TOP_LEFT, right, 3, r);
    memcpy(pts[0], left, sizeof left);
    memcpy(pts[3], right, sizeof right);
    counts8(TR_TIE_TOP_LEFT, (const float(*)[2])pts, 6, both);
    for (uint32_t y = 1; y < 7; y++) {
        cr_expect_eq(l[y * W + 3], 0, "column 3 row %u drawn by the left triangle", y);
        cr_expect_eq(r[y * W + 3], 1, "column 3 row %u not drawn by the right triangle", y);
    }
    for (uint32_t i = 0; i < W * H; i++)
        cr_assert_eq(both[i], l[i] + r[i], "pixel %u: %u != %u + %u", i, both[i], l[i], r[i]);
    for (uint32_t i = 0; i < W * H; i++)
        cr_assert_leq(both[i], 1, "pixel (%u,%u) drawn twice", i % W, i / W);
}

/* ---- snapping to 1/256 px -------------------------------------------------------- */

static void rect(float x0, float y0, float x1, float y1, float out[6][2])
{
    const float q[6][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y0}, {x1, y1}, {x0, y1}};
    memcpy(out, q, sizeof q);
}

Test(raster, snapping_moves_left_edge_onto_centres)
{
    /* x = 0.5 + 1/1024 snaps to 0.5: column 0's centres lie on the owned
     * left edge and are covered (unsnapped they would be outside). */
    float q[6][2];
    rect(0.5f + 1.0f / 1024, 0, 4.25f, 4, q);
    static const char *const rows[H] = {
        "####....", "####....", "####....", "####....",
        "........", "........", "........", "........"};
    expect_both_rules((const float(*)[2])q, 6, rows, "left edge at 0.5+1/1024");
}

Test(raster, snapping_keeps_left_edge_off_centres)
{
    /* x = 0.5 + 3/1024 snaps to 0.5 + 1/256: column 0 stays outside. */
    float q[6][2];
    rect(0.5f + 3.0f / 1024, 0, 4.25f, 4, q);
    static const char *const rows[H] = {
        ".###....", ".###....", ".###....", ".###....",
        "........", "........", "........", "........"};
    expect_both_rules((const float(*)[2])q, 6, rows, "left edge at 0.5+3/1024");
}

Test(raster, snapping_moves_right_edge_onto_centres)
{
    /* x = 4.5 + 1/1024 snaps to 4.5, a right edge: column 4 is not covered
     * (unsnapped its centres would be inside). */
    float q[6][2];
    rect(0.25f, 0, 4.5f + 1.0f / 1024, 4, q);
    static const char *const rows[H] = {
        "####....", "####....", "####....", "####....",
        "........", "........", "........", "........"};
    expect_both_rules((const float(*)[2])q, 6, rows, "right edge at 4.5+1/1024");
}

Test(raster, snapping_moves_top_edge_onto_centres)
{
    /* y = 0.5 + 1/1024 snaps to 0.5: row 0 lies on the top edge. */
    float q[6][2];
    rect(0, 0.5f + 1.0f / 1024, 4, 4, q);
    static const char *const tl[H] = {
        "####....", "####....", "####....", "####....",
        "........", "........", "........", "........"};
    static const char *const bl[H] = {
        "........", "####....", "####....", "####....",
        "........", "........", "........", "........"};
    expect_rows(TR_TIE_TOP_LEFT, (const float(*)[2])q, 6, tl, "top edge at 0.5+1/1024, TOP_LEFT");
    expect_rows(TR_TIE_BOTTOM_LEFT, (const float(*)[2])q, 6, bl,
                "top edge at 0.5+1/1024, BOTTOM_LEFT");
}

Test(raster, snapping_moves_bottom_edge_onto_centres)
{
    /* y = 3.5 - 1/1024 snaps to 3.5: row 3 lies on the bottom edge. */
    float q[6][2];
    rect(0, 0, 4, 3.5f - 1.0f / 1024, q);
    static const char *const tl[H] = {
        "####....", "####....", "####....", "........",
        "........", "........", "........", "........"};
    static const char *const bl[H] = {
        "####....", "####....", "####....", "####....",
        "........", "........", "........", "........"};
    expect_rows(TR_TIE_TOP_LEFT, (const float(*)[2])q, 6, tl,
                "bottom edge at 3.5-1/1024, TOP_LEFT");
    expect_rows(TR_TIE_BOTTOM_LEFT, (const float(*)[2])q, 6, bl,
                "bottom edge at 3.5-1/1024, BOTTOM_LEFT");
}

Test(raster, triangle_smaller_than_a_snap_step_covers_nothing)
{
    /* Every vertex snaps to (2.5, 2.5): zero area, although that point is a
     * pixel centre. */
    const float d = 1.0f / 1024;
    const float tri[3][2] = {{2.5f, 2.5f}, {2.5f + d, 2.5f}, {2.5f, 2.5f + d}};
    static const char *const none[H] = {
        "........", "........", "........", "........",
        "........", "........", "........", "........"};
    expect_both_rules(tri, 3, none, "sub-snap triangle");
}

Test(raster, sliver_that_snaps_flat_covers_nothing)
{
    /* A long sliver whose y extent is below one snap step. */
    const float tri[3][2] = {{0, 2.5f}, {8, 2.5f + 1.0f / 1024}, {0, 2.5f + 1.0f / 1024}};
    static const char *const none[H] = {
        "........", "........", "........", "........",
        "........", "........", "........", "........"};
    expect_both_rules(tri, 3, none, "flat sliver");
}

/* ---- degenerate triangles ---------------------------------------------------------- */

Test(raster, zero_area_and_collinear_cover_nothing)
{
    static const float tris[][3][2] = {
        {{0.5f, 0.5f}, {3.5f, 3.5f}, {6.5f, 6.5f}}, /* collinear through centres */
        {{0.5f, 2.5f}, {7.5f, 2.5f}, {3.5f, 2.5f}}, /* horizontal line of centres */
        {{2.5f, 0.5f}, {2.5f, 7.5f}, {2.5f, 4.5f}}, /* vertical line of centres */
        {{1.0f, 1.0f}, {6.0f, 6.0f}, {1.0f, 1.0f}}, /* repeated vertex */
        {{3.5f, 3.5f}, {3.5f, 3.5f}, {3.5f, 3.5f}}, /* a point on a centre */
    };
    static const char *const none[H] = {
        "........", "........", "........", "........",
        "........", "........", "........", "........"};
    for (size_t i = 0; i < sizeof tris / sizeof tris[0]; i++) {
        trt_hit_opts o = {0};
        tr_pass_stats st;
        uint8_t got[W * H], want[W * H];
        trt_map_from_rows(none, W, H, want);
        for (int rule = 0; rule < 2; rule++) {
            o.tie_rule = (tr_tie_rule)rule;
            memset(&st, 0xff, sizeof st);
            trt_hit_counts(&o, W, H, tris[i], 3, got, &st);
            trt_assert_maps_eq(got, want, W, H, "degenerate triangle");
            cr_expect_eq(st.fragments_rasterized, 0, "degenerate triangle %zu rasterized %llu",
                         i, (unsigned long long)st.fragments_rasterized);
        }
    }
}

/* ---- fragment counts ----------------------------------------------------------------- */

Test(raster, fragments_rasterized_matches_coverage)
{
    /* Triangle (0,0),(64,0),(0,64) on 64x64: x + y < 63, i.e. 63*64/2 pixels. */
    static const float tri[3][2] = {{0, 0}, {64, 0}, {0, 64}};
    uint8_t counts[64 * 64];
    tr_pass_stats st;
    trt_hit_counts(NULL, 64, 64, tri, 3, counts, &st);
    uint32_t n = 0;
    for (int i = 0; i < 64 * 64; i++)
        n += counts[i];
    cr_expect_eq(n, 2016);
    cr_expect_eq(st.fragments_rasterized, 2016, "fragments_rasterized = %llu",
                 (unsigned long long)st.fragments_rasterized);
    cr_expect_eq(st.fragments_shaded, 2016);
    cr_expect_eq(st.fragments_written, 2016);
}

/* ---- random triangles against the reference ---------------------------------------------- */

static void random_vs_reference(tr_tie_rule tie, uint64_t seed, int half_pixel_grid)
{
    enum { RW = 64, RH = 48, N = 60 };
    trt_rng rng = {seed};
    float (*pts)[2] = malloc(sizeof(float[2]) * 3 * N);
    uint8_t *want = calloc(RW * RH, 1), *got = malloc(RW * RH);
    cr_assert(pts && want && got);
    for (int t = 0; t < N; t++) {
        float cx = trt_rand_coord(&rng, -4, RW + 4), cy = trt_rand_coord(&rng, -4, RH + 4);
        for (int k = 0; k < 3; k++) {
            float x, y;
            if (half_pixel_grid) {
                /* Vertices on centres and corners: many centres on edges. */
                x = cx + (float)((int)(trt_rand_u32(&rng) % 25) - 12) * 0.5f;
                y = cy + (float)((int)(trt_rand_u32(&rng) % 25) - 12) * 0.5f;
                x = (float)(int)(x * 2) * 0.5f;
                y = (float)(int)(y * 2) * 0.5f;
            } else {
                x = trt_untie(cx + trt_rand_coord(&rng, -10, 10));
                y = trt_untie(cy + trt_rand_coord(&rng, -10, 10));
            }
            pts[t * 3 + k][0] = x;
            pts[t * 3 + k][1] = y;
        }
        trt_ref_triangle((const float(*)[2])pts[t * 3], tie, RW, RH, want);
    }
    trt_hit_opts o = {0};
    o.tie_rule = tie;
    o.threads = 2;
    trt_hit_counts(&o, RW, RH, (const float(*)[2])pts, 3 * N, got, NULL);
    trt_assert_maps_eq(got, want, RW, RH, "random triangles vs reference");
    free(pts);
    free(want);
    free(got);
}

Test(raster, random_triangles_match_reference_top_left)
{
    random_vs_reference(TR_TIE_TOP_LEFT, 1, 0);
    random_vs_reference(TR_TIE_TOP_LEFT, 2, 1);
}

Test(raster, random_triangles_match_reference_bottom_left)
{
    random_vs_reference(TR_TIE_BOTTOM_LEFT, 3, 0);
    random_vs_reference(TR_TIE_BOTTOM_LEFT, 4, 1);
}

Test(raster, far_from_the_origin_matches_reference)
{
    /* Precision at the largest framebuffer coordinates: a 16384 x 8 and an
     * 8 x 16384 target, triangles near the far end. */
    enum { N = 40 };
    trt_rng rng = {31};
    for (int tall = 0; tall < 2; tall++) {
        uint32_t w = tall ? 8 : TR_MAX_IMAGE_SIZE, h = tall ? TR_MAX_IMAGE_SIZE : 8;
        float pts[3 * N][2];
        uint8_t *want = calloc((size_t)w * h, 1), *got = malloc((size_t)w * h);
        cr_assert(want && got);
        for (int t = 0; t < N; t++) {
            float c = trt_rand_coord(&rng, 16200, 16390);
            for (int k = 0; k < 3; k++) {
                float along = trt_untie(c + trt_rand_coord(&rng, -12, 12));
                float across = trt_rand_coord(&rng, -3, 11);
                if (k == 0 && (t & 1)) /* half of them with a vertex on a centre */
                    along = (float)(int)along + 0.5f, across = 3.5f;
                pts[3 * t + k][0] = tall ? across : along;
                pts[3 * t + k][1] = tall ? along : across;
            }
            trt_ref_triangle((const float(*)[2])pts[3 * t], TR_TIE_TOP_LEFT, w, h, want);
        }
        trt_hit_counts(NULL, w, h, (const float(*)[2])pts, 3 * N, got, NULL);
        trt_assert_maps_eq(got, want, w, h, tall ? "8 x 16384" : "16384 x 8");
        free(want);
        free(got);
    }
}
