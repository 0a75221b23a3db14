/* Tests of the neutral scene file reader and writer (src/scene/scene_io.c).
 *
 * Every malformed buffer is built here byte by byte, so each test names the
 * exact defect it feeds the parser and the code it must get back. */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tilerast/tilerast.h"

#define HDR 32u
#define VTX 20u

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put_f32(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(p, u);
}

static void put_header(uint8_t *b, uint32_t w, uint32_t h, uint32_t flags, float clear_depth,
                       uint32_t ntris)
{
    memcpy(b, "SRSCENE1", 8);
    put_u32(b + 8, w);
    put_u32(b + 12, h);
    put_u32(b + 16, flags);
    b[20] = 10;
    b[21] = 20;
    b[22] = 30;
    b[23] = 255;
    put_f32(b + 24, clear_depth);
    put_u32(b + 28, ntris);
}

/* A valid 2-triangle scene (152 bytes) with distinctive values, a NaN
 * position and a negative w among them (both legal in the file). */
#define GOOD_SIZE (HDR + 6u * VTX)
static void good_scene(uint8_t b[GOOD_SIZE])
{
    memset(b, 0, GOOD_SIZE);
    put_header(b, 64, 32, TR_SCENE_DEPTH | TR_SCENE_FLAT, 0.75f, 2);
    for (uint32_t i = 0; i < 6; i++) {
        uint8_t *v = b + HDR + VTX * i;
        put_f32(v + 0, 0.25f * (float)i - 0.5f);
        put_f32(v + 4, i == 4 ? NAN : -0.125f * (float)i);
        put_f32(v + 8, 0.1f * (float)i);
        put_f32(v + 12, i == 5 ? -2.0f : 1.0f);
        v[16] = (uint8_t)(40 * i);
        v[17] = (uint8_t)(255 - i);
        v[18] = (uint8_t)(7 * i + 1);
        v[19] = (uint8_t)(200 + i);
    }
}

static tr_result parse(const uint8_t *b, size_t n, tr_scene *s, char *msg, size_t msg_size)
{
    memset(s, 0xAB, sizeof *s); /* garbage: parse must reset it */
    return tr_scene_parse(b, n, s, msg, msg_size);
}

/* Parses a buffer that must fail with `code` and a message containing `word`. */
static void expect_refused(const uint8_t *b, size_t n, tr_result code, const char *word)
{
    tr_scene s;
    char msg[256] = "";
    tr_result r = parse(b, n, &s, msg, sizeof msg);
    cr_assert_eq(r, code, "got %s (%s), want %s", tr_result_string(r), msg,
                 tr_result_string(code));
    cr_assert_gt(strlen(msg), 0, "no message");
    cr_assert(strstr(msg, word) != NULL, "message '%s' does not mention '%s'", msg, word);
    /* A refused parse leaves an empty scene that is safe to free. */
    cr_assert_null(s.vertices);
    cr_assert_eq(s.triangle_count, 0);
    tr_scene_free(&s);
}

static char *temp_path(void)
{
    static const char tmpl[] = "/tmp/tilerast_scene_XXXXXX";
    char *p = malloc(sizeof tmpl);
    cr_assert_not_null(p);
    memcpy(p, tmpl, sizeof tmpl);
    int fd = mkstemp(p);
    cr_assert_geq(fd, 0);
    close(fd);
    return p;
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(b, 1, n, f), n);
    cr_assert_eq(fclose(f), 0);
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    uint8_t *b = malloc(1 << 16);
    cr_assert_not_null(b);
    *n = fread(b, 1, 1 << 16, f);
    fclose(f);
    return b;
}

/* ---- valid files ---------------------------------------------------------- */

Test(scene, parse_decodes_every_field)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    tr_scene s;
    char msg[128];
    cr_assert_eq(parse(b, sizeof b, &s, msg, sizeof msg), TR_OK, "%s", msg);
    cr_assert_eq(s.width, 64);
    cr_assert_eq(s.height, 32);
    cr_assert_eq(s.flags, TR_SCENE_DEPTH | TR_SCENE_FLAT);
    cr_assert_eq(s.clear_color[0], 10);
    cr_assert_eq(s.clear_color[1], 20);
    cr_assert_eq(s.clear_color[2], 30);
    cr_assert_eq(s.clear_color[3], 255);
    cr_assert_eq(s.clear_depth, 0.75f);
    cr_assert_eq(s.triangle_count, 2);
    cr_assert_not_null(s.vertices);
    cr_assert_eq(s.vertices[3].x, 0.25f);
    cr_assert_eq(s.vertices[3].y, -0.375f);
    cr_assert_eq(s.vertices[2].w, 1.0f);
    cr_assert(isnan(s.vertices[4].y), "NaN positions pass through");
    cr_assert_eq(s.vertices[5].w, -2.0f);
    cr_assert_eq(s.vertices[5].r, 200);
    cr_assert_eq(s.vertices[5].g, 250);
    cr_assert_eq(s.vertices[5].b, 36);
    cr_assert_eq(s.vertices[5].a, 205);
    tr_scene_free(&s);
    cr_assert_null(s.vertices);
    cr_assert_eq(s.triangle_count, 0);
}

Test(scene, round_trip_save_parse_is_byte_exact)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    tr_scene s;
    char msg[128];
    cr_assert_eq(parse(b, sizeof b, &s, msg, sizeof msg), TR_OK, "%s", msg);
    char *path = temp_path();
    cr_assert_eq(tr_scene_save(&s, path), TR_OK);
    size_t n;
    uint8_t *back = read_file(path, &n);
    cr_assert_eq(n, sizeof b);
    cr_assert_eq(memcmp(back, b, sizeof b), 0, "saved bytes differ from the original");

    /* tr_scene_load of the saved file gives the same scene, bit for bit. */
    tr_scene l;
    cr_assert_eq(tr_scene_load(path, &l, msg, sizeof msg), TR_OK, "%s", msg);
    cr_assert_eq(l.triangle_count, 2);
    cr_assert_eq(memcmp(l.vertices, s.vertices, 6 * sizeof *s.vertices), 0);
    cr_assert_eq(l.clear_depth, 0.75f);
    tr_scene_free(&l);
    tr_scene_free(&s);
    free(back);
    remove(path);
    free(path);
}

Test(scene, zero_triangles_is_a_valid_scene)
{
    uint8_t b[HDR];
    put_header(b, 8, 8, 0, 1.0f, 0);
    tr_scene s;
    cr_assert_eq(parse(b, sizeof b, &s, NULL, 0), TR_OK);
    cr_assert_eq(s.triangle_count, 0);
    cr_assert_null(s.vertices);
    cr_assert_eq(s.width, 8);
    tr_scene_free(&s);
}

Test(scene, largest_image_size_is_accepted)
{
    uint8_t b[HDR];
    put_header(b, TR_MAX_IMAGE_SIZE, TR_MAX_IMAGE_SIZE, TR_SCENE_BLEND_ADD, 0.0f, 0);
    tr_scene s;
    cr_assert_eq(parse(b, sizeof b, &s, NULL, 0), TR_OK);
    cr_assert_eq(s.width, TR_MAX_IMAGE_SIZE);
    tr_scene_free(&s);
}

/* ---- malformed buffers ------------------------------------------------------ */

Test(scene, rejects_empty_file)
{
    expect_refused((const uint8_t *)"", 0, TR_ERROR_BAD_FILE, "empty");
}

Test(scene, rejects_31_bytes)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    expect_refused(b, 31, TR_ERROR_BAD_FILE, "header");
}

Test(scene, rejects_bad_magic)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    b[7] = 'X'; /* "SRSCENEX": no such version */
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "magic");
}

Test(scene, rejects_zero_width)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_u32(b + 8, 0);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "width");
}

Test(scene, rejects_zero_height)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_u32(b + 12, 0);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "height");
}

Test(scene, rejects_too_large_width)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_u32(b + 8, TR_MAX_IMAGE_SIZE + 1);
    expect_refused(b, sizeof b, TR_ERROR_LIMIT_EXCEEDED, "width");
}

Test(scene, rejects_too_large_height)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_u32(b + 12, 0xFFFFFFFFu);
    expect_refused(b, sizeof b, TR_ERROR_LIMIT_EXCEEDED, "height");
}

Test(scene, rejects_unknown_flag_bits)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_u32(b + 16, TR_SCENE_DEPTH | 0x10u);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "flag");
}

Test(scene, rejects_both_blend_flags)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_u32(b + 16, TR_SCENE_BLEND_ALPHA | TR_SCENE_BLEND_ADD);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "BLEND");
}

Test(scene, rejects_truncated_by_one_byte)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    expect_refused(b, sizeof b - 1, TR_ERROR_BAD_FILE, "truncated");
}

Test(scene, rejects_header_only_with_triangles)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    expect_refused(b, HDR, TR_ERROR_BAD_FILE, "truncated");
}

Test(scene, rejects_one_trailing_byte)
{
    uint8_t b[GOOD_SIZE + 1];
    good_scene(b);
    b[GOOD_SIZE] = 0;
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "trailing");
}

Test(scene, rejects_triangle_count_over_the_limit)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_u32(b + 28, TR_SCENE_MAX_TRIANGLES + 1);
    expect_refused(b, sizeof b, TR_ERROR_LIMIT_EXCEEDED, "triangle");
}

/* ntris = 2^30 + 1: 60 * ntris = 15 * 2^32 + 60, so a 32-bit size computation
 * would wrap to 32 + 60 = 92 and accept a 92-byte file claiming a billion
 * triangles. */
Test(scene, rejects_triangle_count_whose_size_overflows_32_bits)
{
    uint8_t b[HDR + 3 * VTX];
    memset(b, 0, sizeof b);
    put_header(b, 16, 16, 0, 1.0f, (1u << 30) + 1u);
    cr_assert_eq((uint32_t)(HDR + 60u * ((1u << 30) + 1u)), (uint32_t)sizeof b);
    expect_refused(b, sizeof b, TR_ERROR_LIMIT_EXCEEDED, "triangle");
}

Test(scene, rejects_nan_clear_depth)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_f32(b + 24, NAN);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "clear depth");
}

Test(scene, rejects_infinite_clear_depth)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    put_f32(b + 24, -INFINITY);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "clear depth");
}

Test(scene, parse_rejects_null_arguments)
{
    tr_scene s;
    cr_assert_eq(tr_scene_parse(NULL, 10, &s, NULL, 0), TR_ERROR_INVALID_ARGUMENT);
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    cr_assert_eq(tr_scene_parse(b, sizeof b, NULL, NULL, 0), TR_ERROR_INVALID_ARGUMENT);
}

Test(scene, message_is_truncated_safely)
{
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    char msg[8];
    memset(msg, 'x', sizeof msg);
    tr_scene s;
    cr_assert_eq(parse(b, sizeof b - 1, &s, msg, sizeof msg), TR_ERROR_BAD_FILE);
    cr_assert_eq(msg[7], '\0');
    cr_assert_eq(strlen(msg), 7);
}

/* ---- files ---------------------------------------------------------------- */

Test(scene, load_missing_file_is_an_io_error)
{
    tr_scene s;
    char msg[256] = "";
    cr_assert_eq(tr_scene_load("/nonexistent/dir/scene.scn", &s, msg, sizeof msg), TR_ERROR_IO);
    cr_assert(strstr(msg, "No such file") != NULL, "message: %s", msg);
    cr_assert_null(s.vertices);
}

/* tr_scene_load streams the file rather than calling tr_scene_parse on it:
 * check it refuses the size defects the same way. */
Test(scene, load_refuses_truncated_and_trailing_files)
{
    uint8_t b[GOOD_SIZE + 1];
    good_scene(b);
    b[GOOD_SIZE] = 0x55;
    char *path = temp_path();
    tr_scene s;
    char msg[256];

    write_file(path, b, GOOD_SIZE - 1);
    cr_assert_eq(tr_scene_load(path, &s, msg, sizeof msg), TR_ERROR_BAD_FILE);
    cr_assert(strstr(msg, "truncated") != NULL, "message: %s", msg);
    cr_assert_null(s.vertices);

    write_file(path, b, GOOD_SIZE + 1);
    cr_assert_eq(tr_scene_load(path, &s, msg, sizeof msg), TR_ERROR_BAD_FILE);
    cr_assert(strstr(msg, "trailing") != NULL, "message: %s", msg);

    write_file(path, b, 0);
    cr_assert_eq(tr_scene_load(path, &s, msg, sizeof msg), TR_ERROR_BAD_FILE);
    cr_assert(strstr(msg, "empty") != NULL, "message: %s", msg);

    write_file(path, b, 31);
    cr_assert_eq(tr_scene_load(path, &s, msg, sizeof msg), TR_ERROR_BAD_FILE);
    cr_assert(strstr(msg, "header") != NULL, "message: %s", msg);

    put_u32(b + 28, (1u << 30) + 1u);
    write_file(path, b, HDR + 3 * VTX);
    cr_assert_eq(tr_scene_load(path, &s, msg, sizeof msg), TR_ERROR_LIMIT_EXCEEDED);

    remove(path);
    free(path);
}

Test(scene, save_refuses_invalid_scenes)
{
    tr_scene_vertex v[3];
    memset(v, 0, sizeof v);
    tr_scene s = { .width = 4, .height = 4, .flags = 0, .clear_depth = 1.0f,
                   .triangle_count = 1, .vertices = v };
    char *path = temp_path();
    cr_assert_eq(tr_scene_save(NULL, path), TR_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(tr_scene_save(&s, NULL), TR_ERROR_INVALID_ARGUMENT);
    s.flags = TR_SCENE_BLEND_ALPHA | TR_SCENE_BLEND_ADD;
    cr_assert_eq(tr_scene_save(&s, path), TR_ERROR_INVALID_ARGUMENT);
    s.flags = 0;
    s.vertices = NULL;
    cr_assert_eq(tr_scene_save(&s, path), TR_ERROR_INVALID_ARGUMENT);
    s.vertices = v;
    s.width = TR_MAX_IMAGE_SIZE + 1;
    cr_assert_eq(tr_scene_save(&s, path), TR_ERROR_LIMIT_EXCEEDED);
    s.width = 4;
    cr_assert_eq(tr_scene_save(&s, "/nonexistent/dir/x.scn"), TR_ERROR_IO);
    cr_assert_eq(tr_scene_save(&s, path), TR_OK);
    size_t n;
    uint8_t *back = read_file(path, &n);
    cr_assert_eq(n, HDR + 3 * VTX);
    free(back);
    remove(path);
    free(path);
}

/* ---- version 2: lines and points ------------------------------------------------------------- */

/* A line scene (SRSCENE2): header, size, reserved word, 2 lines. */
#define V2_HDR 40u
#define LINES_SIZE (V2_HDR + 4u * VTX)
static void line_scene(uint8_t b[LINES_SIZE], uint32_t flags, float size)
{
    memset(b, 0, LINES_SIZE);
    put_header(b, 64, 32, flags, 1.0f, 2);
    memcpy(b, "SRSCENE2", 8);
    put_f32(b + 32, size);
    for (uint32_t i = 0; i < 4; i++) {
        uint8_t *v = b + V2_HDR + VTX * i;
        put_f32(v + 0, 0.2f * (float)i - 0.4f);
        put_f32(v + 4, 0.1f * (float)i);
        put_f32(v + 12, 1.0f);
        v[16] = (uint8_t)(50 * i);
        v[19] = 255;
    }
}

Test(scene, version2_lines_and_points_parse_and_round_trip)
{
    const uint32_t flags[3] = {TR_SCENE_LINES, TR_SCENE_LINES | TR_SCENE_RECT_LINES | TR_SCENE_DEPTH, TR_SCENE_POINTS};
    for (int k = 0; k < 3; k++) {
        uint8_t b[LINES_SIZE];
        line_scene(b, flags[k], 3.5f);
        /* points: 2 primitives of 1 vertex; the file holds 2 vertices */
        const size_t n = flags[k] & TR_SCENE_POINTS ? V2_HDR + 2u * VTX : LINES_SIZE;
        tr_scene s;
        char msg[256];
        cr_assert_eq(parse(b, n, &s, msg, sizeof msg), TR_OK, "%s", msg);
        cr_expect_eq(s.flags, flags[k]);
        cr_expect_eq(s.size, 3.5f);
        cr_expect_eq(s.triangle_count, 2u);
        cr_expect_eq(tr_scene_prim_vertices(s.flags), flags[k] & TR_SCENE_POINTS ? 1u : 2u);
        cr_expect_eq(s.vertices[1].r, 50);
        char *path = temp_path();
        cr_assert_eq(tr_scene_save(&s, path), TR_OK);
        FILE *f = fopen(path, "rb");
        uint8_t back[LINES_SIZE + 8];
        const size_t got = fread(back, 1, sizeof back, f);
        fclose(f);
        cr_expect_eq(got, n, "saved %zu bytes, want %zu", got, n);
        cr_expect_eq(memcmp(back, b, n), 0, "saved bytes differ");
        tr_scene_free(&s);
        remove(path);
        free(path);
    }
    /* a triangle scene is still saved as version 1 */
    uint8_t b[GOOD_SIZE];
    good_scene(b);
    tr_scene s;
    cr_assert_eq(parse(b, sizeof b, &s, NULL, 0), TR_OK);
    cr_expect_eq(s.size, 1.0f);
    char *path = temp_path();
    cr_assert_eq(tr_scene_save(&s, path), TR_OK);
    FILE *f = fopen(path, "rb");
    char magic[8];
    cr_assert_eq(fread(magic, 1, 8, f), 8u);
    fclose(f);
    cr_expect_eq(memcmp(magic, "SRSCENE1", 8), 0);
    tr_scene_free(&s);
    remove(path);
    free(path);
}

Test(scene, version2_rejects_bad_headers)
{
    uint8_t b[LINES_SIZE];
    line_scene(b, TR_SCENE_LINES, 0.5f);
    expect_refused(b, sizeof b, TR_ERROR_LIMIT_EXCEEDED, "size");
    line_scene(b, TR_SCENE_LINES, 65);
    expect_refused(b, sizeof b, TR_ERROR_LIMIT_EXCEEDED, "size");
    line_scene(b, TR_SCENE_LINES | TR_SCENE_POINTS, 1);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "LINES and POINTS");
    line_scene(b, TR_SCENE_RECT_LINES, 1);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "RECT_LINES");
    line_scene(b, TR_SCENE_LINES, 1);
    put_u32(b + 36, 1);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "reserved");
    line_scene(b, TR_SCENE_LINES, 1);
    expect_refused(b, sizeof b - 1, TR_ERROR_BAD_FILE, "lines");
    expect_refused(b, 36, TR_ERROR_BAD_FILE, "header");
    /* version 1 does not know the new flags */
    line_scene(b, TR_SCENE_LINES, 1);
    memcpy(b, "SRSCENE1", 8);
    expect_refused(b, sizeof b, TR_ERROR_BAD_FILE, "SRSCENE2");
}
