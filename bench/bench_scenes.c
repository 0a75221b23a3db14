/* bench: generating the standard scenes (see bench_scenes.h, SCENES.md).
 *
 * Positions are clip space.  The 2D scenes use w = 1 and place triangles in
 * pixels first (x_clip = px / (W/2) - 1), so sizes such as "10-50 px²" are
 * what they say; the mesh scene has a real perspective projection.  The
 * numbers below (seeds, sizes, layouts) are part of the benchmark's
 * definition: changing one changes every published figure. */
#define _POSIX_C_SOURCE 200809L

#include "bench_scenes.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_obj.h"

/* ---- PCG32 (O'Neill, pcg-random.org: the minimal "pcg32_random_r") ------ */

typedef struct bench_rng {
    uint64_t state, inc;
} bench_rng;

static uint32_t rng_u32(bench_rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ULL + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

static void rng_seed(bench_rng *r, uint64_t seed, uint64_t sequence)
{
    r->state = 0;
    r->inc = (sequence << 1u) | 1u;
    (void)rng_u32(r);
    r->state += seed;
    (void)rng_u32(r);
}

/* In [0, 1): 24 random bits, exact in a float. */
static float rng_unit(bench_rng *r)
{
    return (float)(rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}

/* In (0, 1), never 0 or 1: (2k + 1) / 2^24 with k < 2^23, exact in a float.
 * Depths drawn from it never tie with a clear depth of 1 or reach 0. */
static float rng_open(bench_rng *r)
{
    return (float)(2u * (rng_u32(r) >> 9) + 1u) * (1.0f / 16777216.0f);
}

static float rng_range(bench_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * rng_unit(r);
}

static uint8_t rng_byte(bench_rng *r)
{
    return (uint8_t)(rng_u32(r) >> 24);
}

/* ---- helpers ------------------------------------------------------------ */

static void gen_message(char *msg, size_t msg_size, const char *fmt, ...)
{
    if (msg == NULL || msg_size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_size, fmt, ap);
    va_end(ap);
}

static tr_result scene_init(tr_scene *s, uint32_t flags, uint32_t triangles, char *msg,
                            size_t msg_size)
{
    memset(s, 0, sizeof *s);
    s->width = BENCH_SCENE_WIDTH;
    s->height = BENCH_SCENE_HEIGHT;
    s->flags = flags;
    s->clear_color[3] = 255;
    s->clear_depth = 1.0f;
    s->triangle_count = triangles;
    s->vertices = calloc(3u * (size_t)triangles, sizeof(tr_scene_vertex));
    if (s->vertices == NULL) {
        gen_message(msg, msg_size, "out of memory for %u triangles", triangles);
        return TR_ERROR_OUT_OF_MEMORY;
    }
    return TR_OK;
}

static void set_vertex(tr_scene_vertex *v, float x, float y, float z, float w,
                       const uint8_t rgba[4])
{
    v->x = x;
    v->y = y;
    v->z = z;
    v->w = w;
    v->r = rgba[0];
    v->g = rgba[1];
    v->b = rgba[2];
    v->a = rgba[3];
}

static void random_opaque_color(bench_rng *r, uint8_t rgba[4])
{
    rgba[0] = rng_byte(r);
    rgba[1] = rng_byte(r);
    rgba[2] = rng_byte(r);
    rgba[3] = 255;
}

/* A well-shaped random triangle of the given area (in px²), in pixels
 * around the origin: an equilateral triangle with a random rotation (a
 * random unit vector, no sin/cos), each corner moved by up to `jitter` times
 * the circumradius, then scaled to the exact area.  Counter-clockwise (y up)
 * unless the random winding swaps two corners. */
static void random_triangle(bench_rng *r, float area, float jitter, float p[3][2])
{
    float ux, uy, d2;
    do {
        ux = 2.0f * rng_unit(r) - 1.0f;
        uy = 2.0f * rng_unit(r) - 1.0f;
        d2 = ux * ux + uy * uy;
    } while (d2 < 0.0625f || d2 > 1.0f);
    float inv = 1.0f / sqrtf(d2);
    ux *= inv;
    uy *= inv;
    /* cos and sin of 120 degrees */
    const float c = -0.5f, s = 0.8660254037844386f;
    p[0][0] = ux;
    p[0][1] = uy;
    p[1][0] = ux * c - uy * s;
    p[1][1] = ux * s + uy * c;
    p[2][0] = ux * c + uy * s;
    p[2][1] = uy * c - ux * s;
    for (int i = 0; i < 3; i++) {
        p[i][0] += jitter * (2.0f * rng_unit(r) - 1.0f);
        p[i][1] += jitter * (2.0f * rng_unit(r) - 1.0f);
    }
    float ex0 = p[1][0] - p[0][0], ey0 = p[1][1] - p[0][1];
    float ex1 = p[2][0] - p[0][0], ey1 = p[2][1] - p[0][1];
    float a = 0.5f * fabsf(ex0 * ey1 - ey0 * ex1);
    /* jitter <= 0.3 of the circumradius keeps a well above 0 (>= ~0.6) */
    float k = sqrtf(area / a);
    for (int i = 0; i < 3; i++) {
        p[i][0] *= k;
        p[i][1] *= k;
    }
    if (rng_u32(r) & 1u) {
        float t0 = p[1][0], t1 = p[1][1];
        p[1][0] = p[2][0];
        p[1][1] = p[2][1];
        p[2][0] = t0;
        p[2][1] = t1;
    }
}

/* Moves a triangle (pixels) to a uniformly random place where it lies
 * wholly on screen (centred where it cannot), then converts to clip space. */
static void place_triangle(bench_rng *r, float p[3][2], float clip[3][2])
{
    const float W = (float)BENCH_SCENE_WIDTH, H = (float)BENCH_SCENE_HEIGHT;
    float minx = p[0][0], maxx = p[0][0], miny = p[0][1], maxy = p[0][1];
    for (int i = 1; i < 3; i++) {
        minx = fminf(minx, p[i][0]);
        maxx = fmaxf(maxx, p[i][0]);
        miny = fminf(miny, p[i][1]);
        maxy = fmaxf(maxy, p[i][1]);
    }
    float lo_x = -minx, hi_x = W - maxx, lo_y = -miny, hi_y = H - maxy;
    float tx = lo_x <= hi_x ? rng_range(r, lo_x, hi_x) : 0.5f * (lo_x + hi_x);
    float ty = lo_y <= hi_y ? rng_range(r, lo_y, hi_y) : 0.5f * (lo_y + hi_y);
    for (int i = 0; i < 3; i++) {
        clip[i][0] = (p[i][0] + tx) / (0.5f * W) - 1.0f;
        clip[i][1] = (p[i][1] + ty) / (0.5f * H) - 1.0f;
    }
}

/* ---- the 2D scenes ------------------------------------------------------ */

static tr_result gen_tri_small(tr_scene *s, char *msg, size_t msg_size)
{
    enum { N = 200000 };
    tr_result res = scene_init(s, TR_SCENE_DEPTH | TR_SCENE_FLAT, N, msg, msg_size);
    if (res != TR_OK)
        return res;
    bench_rng r;
    rng_seed(&r, 0x7472695f736d616cULL /* "tri_smal" */, 1);
    for (uint32_t t = 0; t < N; t++) {
        float p[3][2], c[3][2];
        random_triangle(&r, rng_range(&r, 10.0f, 50.0f), 0.2f, p);
        place_triangle(&r, p, c);
        float z = rng_open(&r); /* one depth per triangle: they overlap, never cross */
        uint8_t col[4];
        random_opaque_color(&r, col);
        for (int i = 0; i < 3; i++)
            set_vertex(&s->vertices[3 * t + i], c[i][0], c[i][1], z, 1.0f, col);
    }
    return TR_OK;
}

static tr_result gen_tri_large(tr_scene *s, char *msg, size_t msg_size)
{
    enum { N = 2000 };
    tr_result res = scene_init(s, TR_SCENE_DEPTH, N, msg, msg_size);
    if (res != TR_OK)
        return res;
    bench_rng r;
    rng_seed(&r, 0x7472695f6c617267ULL /* "tri_larg" */, 2);
    const float eighth = (float)(BENCH_SCENE_WIDTH * BENCH_SCENE_HEIGHT) / 8.0f;
    for (uint32_t t = 0; t < N; t++) {
        float p[3][2], c[3][2];
        random_triangle(&r, eighth * rng_range(&r, 0.85f, 1.15f), 0.3f, p);
        place_triangle(&r, p, c);
        for (int i = 0; i < 3; i++) {
            /* a depth per corner: triangles pierce each other */
            uint8_t col[4];
            random_opaque_color(&r, col);
            set_vertex(&s->vertices[3 * t + i], c[i][0], c[i][1], rng_open(&r), 1.0f, col);
        }
    }
    return TR_OK;
}

/* A full-screen quad as two triangles sharing the diagonal (the fill rule
 * covers each pixel once), one colour, one depth. */
static void fullscreen_quad(tr_scene_vertex *v, float z, const uint8_t col[4])
{
    set_vertex(&v[0], -1.0f, -1.0f, z, 1.0f, col);
    set_vertex(&v[1], 1.0f, -1.0f, z, 1.0f, col);
    set_vertex(&v[2], 1.0f, 1.0f, z, 1.0f, col);
    set_vertex(&v[3], -1.0f, -1.0f, z, 1.0f, col);
    set_vertex(&v[4], 1.0f, 1.0f, z, 1.0f, col);
    set_vertex(&v[5], -1.0f, 1.0f, z, 1.0f, col);
}

static tr_result gen_overdraw_blend(tr_scene *s, char *msg, size_t msg_size)
{
    enum { QUADS = 32 };
    tr_result res = scene_init(s, TR_SCENE_BLEND_ALPHA | TR_SCENE_FLAT, 2 * QUADS, msg,
                               msg_size);
    if (res != TR_OK)
        return res;
    s->clear_color[0] = s->clear_color[1] = s->clear_color[2] = 16;
    bench_rng r;
    rng_seed(&r, 0x6f76657264726177ULL /* "overdraw" */, 3);
    for (uint32_t q = 0; q < QUADS; q++) {
        uint8_t col[4];
        random_opaque_color(&r, col);
        col[3] = (uint8_t)(51u + rng_u32(&r) % 103u); /* 51..153: alpha 0.2..0.6 */
        fullscreen_quad(&s->vertices[6 * q], 0.5f, col);
    }
    return TR_OK;
}

/* 64 full-screen quads at depths 64/65 (quad 0, farthest) .. 1/65 (quad 63),
 * the same colours in both orders: both scenes end with quad 63's colour. */
static tr_result gen_depth_quads(tr_scene *s, int front_to_back, char *msg, size_t msg_size)
{
    enum { QUADS = 64 };
    tr_result res = scene_init(s, TR_SCENE_DEPTH | TR_SCENE_FLAT, 2 * QUADS, msg, msg_size);
    if (res != TR_OK)
        return res;
    bench_rng r;
    rng_seed(&r, 0x6465707468717561ULL /* "depthqua" */, 4);
    for (uint32_t k = 0; k < QUADS; k++) {
        uint8_t col[4];
        random_opaque_color(&r, col);
        float z = (float)(QUADS - k) / (float)(QUADS + 1);
        uint32_t slot = front_to_back ? QUADS - 1 - k : k;
        fullscreen_quad(&s->vertices[6 * slot], z, col);
    }
    return TR_OK;
}

/* ---- the mesh scene ----------------------------------------------------- */

typedef struct vec3 {
    float x, y, z;
} vec3;

static vec3 v3(float x, float y, float z)
{
    vec3 v = { x, y, z };
    return v;
}
static vec3 v3_sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static vec3 v3_add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static float v3_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec3 v3_cross(vec3 a, vec3 b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static vec3 v3_normalize(vec3 a, vec3 fallback)
{
    float l2 = v3_dot(a, a);
    if (!(l2 > 0.0f))
        return fallback;
    float inv = 1.0f / sqrtf(l2);
    return v3(a.x * inv, a.y * inv, a.z * inv);
}

static uint8_t unorm8(float v)
{
    v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    return (uint8_t)(v * 255.0f + 0.5f);
}

/* Bunny placement: two rows of four, the back row higher and farther, each
 * turned about y by an angle given as t = tan(angle/2), so that cos and sin
 * are exact rational expressions (no libm). */
typedef struct bunny_place {
    float x, y, z, scale, t;
    uint8_t rgb[3];
} bunny_place;

static const bunny_place bench_bunnies[8] = {
    { -3.30f, -1.05f, -6.0f, 1.0f, -0.60f, { 230, 90, 80 } },
    { -1.10f, -1.05f, -6.0f, 1.0f, -0.20f, { 240, 180, 60 } },
    { 1.10f, -1.05f, -6.0f, 1.0f, 0.20f, { 120, 210, 90 } },
    { 3.30f, -1.05f, -6.0f, 1.0f, 0.60f, { 80, 200, 210 } },
    { -4.50f, 0.95f, -9.5f, 1.25f, 1.00f, { 90, 130, 240 } },
    { -1.50f, 0.95f, -9.5f, 1.25f, 0.40f, { 170, 100, 230 } },
    { 1.50f, 0.95f, -9.5f, 1.25f, -0.40f, { 235, 110, 180 } },
    { 4.50f, 0.95f, -9.5f, 1.25f, -1.00f, { 220, 220, 220 } },
};

/* Area-weighted vertex normals, outward (flipped if the mesh's faces wind
 * inward, judged by the sign of its volume). */
static tr_result bunny_normals(const bench_obj *o, vec3 **out, char *msg, size_t msg_size)
{
    vec3 *n = calloc(o->vertex_count, sizeof *n);
    if (n == NULL) {
        gen_message(msg, msg_size, "out of memory");
        return TR_ERROR_OUT_OF_MEMORY;
    }
    double volume = 0.0;
    for (uint32_t t = 0; t < o->triangle_count; t++) {
        const uint32_t *idx = &o->indices[3 * (size_t)t];
        vec3 p[3];
        for (int i = 0; i < 3; i++) {
            const float *q = &o->positions[3 * (size_t)idx[i]];
            p[i] = v3(q[0], q[1], q[2]);
        }
        vec3 fn = v3_cross(v3_sub(p[1], p[0]), v3_sub(p[2], p[0]));
        volume += (double)v3_dot(p[0], v3_cross(p[1], p[2]));
        for (int i = 0; i < 3; i++)
            n[idx[i]] = v3_add(n[idx[i]], fn);
    }
    float sign = volume < 0.0 ? -1.0f : 1.0f;
    for (uint32_t v = 0; v < o->vertex_count; v++)
        n[v] = v3_normalize(v3(sign * n[v].x, sign * n[v].y, sign * n[v].z), v3(0, 0, 1));
    *out = n;
    return TR_OK;
}

static tr_result gen_mesh(tr_scene *s, char *msg, size_t msg_size)
{
    const char *path = getenv(BENCH_BUNNY_ENV);
    if (path == NULL || path[0] == '\0')
        path = BENCH_BUNNY_PATH;
    bench_obj obj;
    char omsg[256];
    tr_result res = bench_obj_load(path, &obj, omsg, sizeof omsg);
    if (res != TR_OK) {
        gen_message(msg, msg_size, "%s: %s%s", path, omsg,
                    res == TR_ERROR_IO ? " (install Debian's glmark2-data or set "
                                         BENCH_BUNNY_ENV ")" : "");
        return res;
    }
    vec3 *normals = NULL;
    res = bunny_normals(&obj, &normals, msg, msg_size);
    if (res != TR_OK) {
        bench_obj_free(&obj);
        return res;
    }
    const uint32_t copies = (uint32_t)(sizeof bench_bunnies / sizeof bench_bunnies[0]);
    if ((uint64_t)obj.triangle_count * copies > TR_SCENE_MAX_TRIANGLES) {
        gen_message(msg, msg_size, "%s: too many triangles", path);
        free(normals);
        bench_obj_free(&obj);
        return TR_ERROR_LIMIT_EXCEEDED;
    }
    res = scene_init(s, TR_SCENE_DEPTH, obj.triangle_count * copies, msg, msg_size);
    if (res != TR_OK) {
        free(normals);
        bench_obj_free(&obj);
        return res;
    }
    s->clear_color[0] = 24;
    s->clear_color[1] = 28;
    s->clear_color[2] = 40;

    /* Projection: OpenGL's perspective for a [0,1] depth range, looking down
     * -z; fovy 45 degrees, so 1/tan(22.5°) = 1 + sqrt(2) exactly. */
    const float focal = 2.41421356237309505f;
    const float aspect = (float)BENCH_SCENE_WIDTH / (float)BENCH_SCENE_HEIGHT;
    const float near = 1.0f, far = 50.0f;
    const float sx = focal / aspect, sy = focal;
    const float za = far / (near - far), zb = near * far / (near - far);
    /* Light and shading in view space (the camera sits at the origin). */
    const vec3 light = v3_normalize(v3(-0.45f, 0.70f, 0.55f), v3(0, 0, 1));

    tr_scene_vertex *out = s->vertices;
    for (uint32_t b = 0; b < copies; b++) {
        const bunny_place *bp = &bench_bunnies[b];
        float t2 = bp->t * bp->t;
        float cs = (1.0f - t2) / (1.0f + t2), sn = 2.0f * bp->t / (1.0f + t2);
        for (uint32_t t = 0; t < obj.triangle_count; t++) {
            for (int i = 0; i < 3; i++) {
                uint32_t vi = obj.indices[3 * (size_t)t + i];
                const float *q = &obj.positions[3 * (size_t)vi];
                /* world = R_y * (scale * p) + offset; normal = R_y * n */
                float px = bp->scale * q[0], py = bp->scale * q[1], pz = bp->scale * q[2];
                vec3 pos = v3(cs * px + sn * pz + bp->x, py + bp->y, cs * pz - sn * px + bp->z);
                vec3 nn = normals[vi];
                vec3 nw = v3(cs * nn.x + sn * nn.z, nn.y, cs * nn.z - sn * nn.x);

                /* Gouraud: ambient + Lambert + Blinn-Phong (exponent 32 as
                 * five squarings), baked into the vertex colour. */
                float diff = v3_dot(nw, light);
                diff = diff > 0.0f ? diff : 0.0f;
                vec3 view = v3_normalize(v3(-pos.x, -pos.y, -pos.z), v3(0, 0, 1));
                vec3 half = v3_normalize(v3_add(light, view), v3(0, 0, 1));
                float sp = v3_dot(nw, half);
                sp = sp > 0.0f && diff > 0.0f ? sp : 0.0f;
                for (int k = 0; k < 5; k++)
                    sp *= sp;
                uint8_t col[4];
                for (int c = 0; c < 3; c++) {
                    float base = (float)bp->rgb[c] / 255.0f;
                    col[c] = unorm8(base * (0.12f + 0.88f * diff) + 0.35f * sp);
                }
                col[3] = 255;
                set_vertex(out, sx * pos.x, sy * pos.y, za * pos.z + zb, -pos.z, col);
                out++;
            }
        }
    }
    free(normals);
    bench_obj_free(&obj);
    return TR_OK;
}

/* ---- the table ---------------------------------------------------------- */

static const char *const bench_scene_names[BENCH_SCENE_COUNT] = {
    "tri_small", "tri_large", "overdraw_blend", "mesh", "depth_b2f", "depth_f2b",
};

const char *bench_scene_name(bench_scene_id id)
{
    if ((int)id < 0 || id >= BENCH_SCENE_COUNT)
        return NULL;
    return bench_scene_names[id];
}

int bench_scene_find(const char *name)
{
    for (int i = 0; i < BENCH_SCENE_COUNT; i++)
        if (strcmp(name, bench_scene_names[i]) == 0)
            return i;
    return -1;
}

tr_result bench_scene_generate(bench_scene_id id, tr_scene *out, char *msg, size_t msg_size)
{
    gen_message(msg, msg_size, "%s", "");
    if (out == NULL)
        return TR_ERROR_INVALID_ARGUMENT;
    tr_result r;
    switch (id) {
    case BENCH_SCENE_TRI_SMALL: r = gen_tri_small(out, msg, msg_size); break;
    case BENCH_SCENE_TRI_LARGE: r = gen_tri_large(out, msg, msg_size); break;
    case BENCH_SCENE_OVERDRAW_BLEND: r = gen_overdraw_blend(out, msg, msg_size); break;
    case BENCH_SCENE_MESH: memset(out, 0, sizeof *out); r = gen_mesh(out, msg, msg_size); break;
    case BENCH_SCENE_DEPTH_B2F: r = gen_depth_quads(out, 0, msg, msg_size); break;
    case BENCH_SCENE_DEPTH_F2B: r = gen_depth_quads(out, 1, msg, msg_size); break;
    default: return TR_ERROR_INVALID_ARGUMENT;
    }
    if (r != TR_OK)
        tr_scene_free(out);
    return r;
}
