/* The shader-heavy bench scene (bench_heavy.h): a tessellated, gently
 * waved plane filling a 16:9 view, lit per pixel with a normal map, drawn
 * through shaders/bench/heavy.{vert,frag} (compiled here by shaderc) or
 * through their C twins heavy_vs / heavy_fs below.
 *
 * The twins do the GLSL's operations in its order, with GLSL.std.450 calls
 * spelt as tilerast evaluates them (src/shader/spirv_math.h): dot left to
 * right, length = sqrt(dot), normalize = x / length, cross, mix =
 * x * (1 - a) + y * a, max / min with NMax / NMin semantics, clamp =
 * min(max()), inversesqrt = 1 / sqrt.  No libm transcendental is used by
 * the shaders, so the two pipelines give the same bits.  The scene data
 * itself (mesh, textures, matrices) is built once with plain float
 * arithmetic (and libm's sinf / cosf / tanf, which only place the
 * vertices: both pipelines read the same data).
 *
 * The GLSL files are found through BENCH_HEAVY_SHADER_DIR (a compile
 * definition naming shaders/bench), else TILERAST_SHADERS_DIR (naming
 * shaders/, as tilerast-bench defines it), else next to this file:
 * <dir of __FILE__>/../shaders/bench.  Built with BENCH_HEAVY_NO_SHADERC
 * (for a program that does not link shaderc, e.g. an OpenGL runner that
 * only wants the data) the SPIR-V pipeline is not made and a SPIR-V draw
 * fails with TR_ERROR_UNSUPPORTED_FORMAT.
 *
 * Compile with -ffp-contract=off (the top-level CMakeLists.txt adds it):
 * an FMA in heavy_vs / heavy_fs would break the identity with SPIR-V. */
#include "bench_heavy.h"

#include <math.h>
#ifndef BENCH_HEAVY_NO_SHADERC
#include "bench_glsl.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAVY_GRID_X 64u /* quads across: 64 x 36 x 2 = 4608 triangles */
#define HEAVY_GRID_Y 36u
#define HEAVY_LEVELS 10u /* 512 .. 1 */
#define HEAVY_PI 3.14159265358979f

struct bench_heavy {
    bench_heavy_vertex *verts;
    uint32_t *indices;
    uint32_t vertex_count, index_count;
    bench_heavy_uniforms u;
    uint8_t *texels[BENCH_HEAVY_TEXTURES][HEAVY_LEVELS];
    tr_image *images[BENCH_HEAVY_TEXTURES];
    tr_sampler *sampler;
    tr_pipeline *pipe[2]; /* [0] C, [1] SPIR-V */
    char *glsl[2];
};

/* ---- the C twins ----------------------------------------------------------------------------- */

/* GLSL.std.450 NMax / NMin as tilerast computes FMax / FMin: a NaN operand
 * gives the other; max(-0, +0) = +0, min(-0, +0) = -0 in either order. */
static inline float heavy_max(float a, float b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

static inline float heavy_min(float a, float b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

static inline float heavy_clamp(float x, float lo, float hi)
{
    return heavy_min(heavy_max(x, lo), hi);
}

static inline float heavy_dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void heavy_normalize3(float d[3], const float x[3])
{
    const float len = sqrtf(heavy_dot3(x, x));
    d[0] = x[0] / len;
    d[1] = x[1] / len;
    d[2] = x[2] / len;
}

/* mix(x, y, a) = x * (1 - a) + y * a */
static inline float heavy_mix(float x, float y, float a)
{
    return x * (1.0f - a) + y * a;
}

/* heavy.vert */
static void heavy_vs(tr_vs_batch *b)
{
    const bench_heavy_uniforms *u = b->uniforms;
    const float *mvp = u->mvp, *m = u->model;
    for (uint32_t i = 0; i < b->count; i++) {
        const float p[3] = {b->attrib.f[0][0][i], b->attrib.f[0][1][i], b->attrib.f[0][2][i]};
        const float n[3] = {b->attrib.f[1][0][i], b->attrib.f[1][1][i], b->attrib.f[1][2][i]};
        const float t[4] = {b->attrib.f[2][0][i], b->attrib.f[2][1][i], b->attrib.f[2][2][i], b->attrib.f[2][3][i]};
        const float uv[2] = {b->attrib.f[3][0][i], b->attrib.f[3][1][i]};
        for (int r = 0; r < 4; r++) {
            b->position[r][i] = mvp[r] * p[0] + mvp[4 + r] * p[1] + mvp[8 + r] * p[2] + mvp[12 + r] * 1.0f;
            b->varyings[0][r][i] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] * 1.0f;
        }
        for (int r = 0; r < 3; r++) {
            b->varyings[1][r][i] = m[r] * n[0] + m[4 + r] * n[1] + m[8 + r] * n[2];
            b->varyings[2][r][i] = m[r] * t[0] + m[4 + r] * t[1] + m[8 + r] * t[2];
        }
        b->varyings[1][3][i] = 0.0f;
        b->varyings[2][3][i] = t[3];
        b->varyings[3][0][i] = uv[0];
        b->varyings[3][1][i] = uv[1];
        b->varyings[3][2][i] = uv[0] * u->params[0];
        b->varyings[3][3][i] = uv[1] * u->params[0];
    }
}

/* heavy.frag, statement by statement */
static void heavy_fs(tr_fs_block *b)
{
    const bench_heavy_uniforms *u = b->uniforms;
    float base[4][TR_FS_LANES], detail[4][TR_FS_LANES], nm[4][TR_FS_LANES], dn[4][TR_FS_LANES],
        mat[4][TR_FS_LANES];
    tr_fs_texture(b, 0, b->varyings[3][0], b->varyings[3][1], base);
    tr_fs_texture(b, 0, b->varyings[3][2], b->varyings[3][3], detail);
    tr_fs_texture(b, 1, b->varyings[3][0], b->varyings[3][1], nm);
    tr_fs_texture(b, 1, b->varyings[3][2], b->varyings[3][3], dn);
    tr_fs_texture(b, 2, b->varyings[3][0], b->varyings[3][1], mat);
    const float *lc = u->light_color, *pc = u->point_color;
    static const float amb_lo[3] = {0.08f, 0.07f, 0.06f}, amb_hi[3] = {0.20f, 0.24f, 0.30f};
    for (uint32_t i = 0; i < b->count; i++) {
        float tn[3], n0[3], t0[3], b0[3], n[3], toeye[3], v[3], albedo[3], tmp[3];
        for (int c = 0; c < 3; c++)
            tn[c] = nm[c][i] * 2.0f - 1.0f;
        for (int c = 0; c < 2; c++)
            tn[c] = tn[c] + (dn[c][i] * 2.0f - 1.0f) * u->params[1];
        const float vn[3] = {b->varyings[1][0][i], b->varyings[1][1][i], b->varyings[1][2][i]};
        const float vt[3] = {b->varyings[2][0][i], b->varyings[2][1][i], b->varyings[2][2][i]};
        const float tw = b->varyings[2][3][i];
        const float world[3] = {b->varyings[0][0][i], b->varyings[0][1][i], b->varyings[0][2][i]};
        heavy_normalize3(n0, vn);
        const float d = heavy_dot3(n0, vt);
        for (int c = 0; c < 3; c++)
            tmp[c] = vt[c] - n0[c] * d;
        heavy_normalize3(t0, tmp);
        /* cross(x, y) = (x1*y2 - y1*x2, x2*y0 - y2*x0, x0*y1 - y0*x1) */
        b0[0] = (n0[1] * t0[2] - t0[1] * n0[2]) * tw;
        b0[1] = (n0[2] * t0[0] - t0[2] * n0[0]) * tw;
        b0[2] = (n0[0] * t0[1] - t0[0] * n0[1]) * tw;
        for (int c = 0; c < 3; c++)
            tmp[c] = t0[c] * tn[0] + b0[c] * tn[1] + n0[c] * tn[2];
        heavy_normalize3(n, tmp);
        for (int c = 0; c < 3; c++)
            toeye[c] = u->eye[c] - world[c];
        heavy_normalize3(v, toeye);
        for (int c = 0; c < 3; c++)
            albedo[c] = base[c][i] * (detail[c][i] * 0.5f + 0.5f);

        /* the sun */
        const float *l = u->light_dir;
        float h[3];
        for (int c = 0; c < 3; c++)
            tmp[c] = l[c] + v[c];
        heavy_normalize3(h, tmp);
        const float ndl = heavy_max(heavy_dot3(n, l), 0.0f);
        float s2 = heavy_max(heavy_dot3(n, h), 0.0f);
        s2 = s2 * s2;
        float s8 = s2 * s2;
        s8 = s8 * s8;
        float s64 = s8 * s8;
        s64 = s64 * s64;
        s64 = s64 * s64;
        const float spec = heavy_mix(s64, s8, mat[0][i]);
        const float f = 1.0f - heavy_max(heavy_dot3(v, h), 0.0f);
        const float f2 = f * f;
        const float fres = 0.04f + 0.96f * (f2 * f2 * f);
        float col[3];
        for (int c = 0; c < 3; c++)
            col[c] = albedo[c] * (lc[c] * ndl) + lc[c] * (spec * fres * mat[2][i]);

        /* the point light */
        float lp[3];
        for (int c = 0; c < 3; c++)
            lp[c] = u->point_pos[c] - world[c];
        const float d2 = heavy_dot3(lp, lp);
        const float att = 1.0f / (1.0f + d2 * u->point_pos[3]);
        const float isq = 1.0f / sqrtf(d2);
        for (int c = 0; c < 3; c++)
            lp[c] = lp[c] * isq;
        const float ndlp = heavy_max(heavy_dot3(n, lp), 0.0f);
        float hp[3];
        for (int c = 0; c < 3; c++)
            tmp[c] = lp[c] + v[c];
        heavy_normalize3(hp, tmp);
        float sp = heavy_clamp(heavy_dot3(n, hp), 0.0f, 1.0f);
        sp = sp * sp;
        sp = sp * sp;
        sp = sp * sp;
        const float spm = sp * mat[2][i];
        for (int c = 0; c < 3; c++)
            col[c] = col[c] + (albedo[c] * ndlp + spm) * (pc[c] * att);

        /* hemisphere ambient, rim */
        const float hemi = n[1] * 0.5f + 0.5f;
        const float ao = lc[3] * mat[1][i];
        for (int c = 0; c < 3; c++)
            col[c] = col[c] + albedo[c] * (heavy_mix(amb_lo[c], amb_hi[c], hemi) * ao);
        const float rim = 1.0f - heavy_max(heavy_dot3(n, v), 0.0f);
        const float rimc = rim * rim * rim * 0.25f * mat[1][i];
        for (int c = 0; c < 3; c++)
            col[c] = col[c] + rimc;

        /* fog */
        const float fog = heavy_clamp(sqrtf(heavy_dot3(toeye, toeye)) * u->fog[3], 0.0f, 1.0f);
        for (int c = 0; c < 3; c++)
            b->color[0][c][i] = sqrtf(heavy_clamp(heavy_mix(col[c], u->fog[c], fog), 0.0f, 1.0f));
        b->color[0][3][i] = 1.0f;
    }
}

/* ---- the scene data ---------------------------------------------------------------------------- */

/* A 32-bit integer hash (lowbias32), for the procedural textures. */
static uint32_t heavy_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static float heavy_unit(uint32_t x) /* [0, 1) */
{
    return (float)(heavy_hash(x) >> 8) * (1.0f / 16777216.0f);
}

enum { HEAVY_TILES = 8 }; /* tiles on a side of each texture */

/* The height of texel (x, y) of level 0: a bevelled tile with a little noise. */
static float heavy_height(int x, int y)
{
    const int s = (int)BENCH_HEAVY_TEX_SIZE, tile = s / HEAVY_TILES;
    x = (x % s + s) % s;
    y = (y % s + s) % s;
    const int tx = x % tile, ty = y % tile;
    const int edge = tx < ty ? tx : ty, edge2 = (tile - 1 - tx) < (tile - 1 - ty) ? tile - 1 - tx : tile - 1 - ty;
    const int e = edge < edge2 ? edge : edge2;
    const float bevel = e < 3 ? 0.0f : e < 10 ? (float)(e - 3) / 7.0f : 1.0f;
    return bevel + 0.04f * heavy_unit((uint32_t)(y * s + x) * 3u + 1u);
}

/* Level 0 of the three textures. */
static void heavy_make_level0(uint8_t *albedo, uint8_t *normal, uint8_t *material)
{
    const int s = (int)BENCH_HEAVY_TEX_SIZE, tile = s / HEAVY_TILES;
    for (int y = 0; y < s; y++)
        for (int x = 0; x < s; x++) {
            const size_t o = ((size_t)y * (size_t)s + (size_t)x) * 4;
            const uint32_t id = (uint32_t)((y / tile) * HEAVY_TILES + x / tile);
            const float h = heavy_height(x, y);
            const int mortar = h < 0.05f;
            const float noise = heavy_unit((uint32_t)(y * s + x) * 3u + 2u);
            float rgb[3] = {0.55f + 0.35f * heavy_unit(id * 7u + 1u), 0.35f + 0.3f * heavy_unit(id * 7u + 2u),
                            0.25f + 0.25f * heavy_unit(id * 7u + 3u)};
            for (int c = 0; c < 3; c++) {
                const float v = mortar ? 0.42f + 0.1f * noise : rgb[c] * (0.85f + 0.3f * noise);
                albedo[o + (size_t)c] = (uint8_t)lrintf(fminf(v, 1.0f) * 255.0f);
            }
            albedo[o + 3] = 255;
            /* the normal from central differences of the height */
            const float dx = (heavy_height(x - 1, y) - heavy_height(x + 1, y)) * 4.0f;
            const float dy = (heavy_height(x, y - 1) - heavy_height(x, y + 1)) * 4.0f;
            const float len = sqrtf(dx * dx + dy * dy + 1.0f);
            const float nv[3] = {dx / len, dy / len, 1.0f / len};
            for (int c = 0; c < 3; c++)
                normal[o + (size_t)c] = (uint8_t)lrintf((nv[c] * 0.5f + 0.5f) * 255.0f);
            normal[o + 3] = 255;
            const float rough = mortar ? 1.0f : 0.15f + 0.7f * heavy_unit(id * 7u + 4u);
            const float ao = mortar ? 0.45f : 0.6f + 0.4f * h;
            material[o + 0] = (uint8_t)lrintf(rough * 255.0f);
            material[o + 1] = (uint8_t)lrintf(ao * 255.0f);
            material[o + 2] = (uint8_t)(mortar ? 40 : 230);
            material[o + 3] = 255;
        }
}

/* Level l from level l - 1: the rounded mean of each 2 x 2 block. */
static void heavy_downsample(uint8_t *dst, const uint8_t *src, uint32_t size)
{
    const uint32_t ss = size * 2;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++)
            for (int c = 0; c < 4; c++) {
                const uint32_t sum = (uint32_t)src[((2 * y) * ss + 2 * x) * 4 + (uint32_t)c] +
                                     src[((2 * y) * ss + 2 * x + 1) * 4 + (uint32_t)c] +
                                     src[((2 * y + 1) * ss + 2 * x) * 4 + (uint32_t)c] +
                                     src[((2 * y + 1) * ss + 2 * x + 1) * 4 + (uint32_t)c];
                dst[(y * size + x) * 4 + (uint32_t)c] = (uint8_t)((sum + 2) / 4);
            }
}

/* The plane: x in [-3.4, 3.4], y in [-2.2, 2.2], z a gentle wave; its
 * tangent along +x, uv 3 repeats across. */
static void heavy_make_mesh(bench_heavy *h)
{
    const uint32_t nx = HEAVY_GRID_X + 1, ny = HEAVY_GRID_Y + 1;
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            const float fx = (float)i / (float)HEAVY_GRID_X, fy = (float)j / (float)HEAVY_GRID_Y;
            const float x = -3.4f + 6.8f * fx, y = 2.2f - 4.4f * fy;
            const float a = 0.06f, kx = 2.1f, ky = 1.7f;
            const float z = a * sinf(kx * x) * cosf(ky * y);
            const float zx = a * kx * cosf(kx * x) * cosf(ky * y), zy = -a * ky * sinf(kx * x) * sinf(ky * y);
            bench_heavy_vertex *v = &h->verts[j * nx + i];
            const float nl = sqrtf(zx * zx + zy * zy + 1.0f), tl = sqrtf(1.0f + zx * zx);
            *v = (bench_heavy_vertex){{x, y, z}, {-zx / nl, -zy / nl, 1.0f / nl}, {1.0f / tl, 0.0f, zx / tl, 1.0f},
                                      {fx * 3.0f * (6.8f / 4.4f), fy * 3.0f}};
        }
    uint32_t k = 0;
    for (uint32_t j = 0; j < HEAVY_GRID_Y; j++)
        for (uint32_t i = 0; i < HEAVY_GRID_X; i++) {
            const uint32_t a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
            h->indices[k++] = a, h->indices[k++] = c, h->indices[k++] = b;
            h->indices[k++] = b, h->indices[k++] = c, h->indices[k++] = d;
        }
}

/* r = a * b, column-major 4 x 4 */
static void heavy_mat_mul(float r[16], const float a[16], const float b[16])
{
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
}

static void heavy_make_uniforms(bench_heavy_uniforms *u)
{
    /* model: tilted back 0.35 rad about x; camera at (0, 0, 3.2) looking down -z;
       Vulkan projection (depth 0..1, y down), 50 degrees, 16:9 */
    const float c = cosf(0.35f), s = sinf(0.35f);
    const float model[16] = {1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1};
    const float view[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -3.2f, 1};
    const float f = 1.0f / tanf(50.0f * HEAVY_PI / 360.0f), aspect = 16.0f / 9.0f, zn = 0.1f, zf = 50.0f;
    const float proj[16] = {f / aspect, 0, 0, 0, 0, -f, 0, 0, 0, 0, zf / (zn - zf), -1, 0, 0, zn * zf / (zn - zf), 0};
    float vp[16];
    heavy_mat_mul(vp, proj, view);
    heavy_mat_mul(u->mvp, vp, model);
    memcpy(u->model, model, sizeof model);
    const float eye[4] = {0, 0, 3.2f, 1}, l[3] = {-0.45f, 0.6f, 0.66f};
    const float ll = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    memcpy(u->eye, eye, sizeof eye);
    for (int i = 0; i < 3; i++)
        u->light_dir[i] = l[i] / ll;
    u->light_dir[3] = 0;
    const float lc[4] = {1.0f, 0.95f, 0.85f, 1.0f}, pp[4] = {1.2f, -0.4f, 0.9f, 0.6f},
                pc[4] = {0.9f, 0.55f, 0.3f, 1.0f}, fog[4] = {0.55f, 0.6f, 0.7f, 0.05f}, par[4] = {5.0f, 0.35f, 0, 0};
    memcpy(u->light_color, lc, sizeof lc);
    memcpy(u->point_pos, pp, sizeof pp);
    memcpy(u->point_color, pc, sizeof pc);
    memcpy(u->fog, fog, sizeof fog);
    memcpy(u->params, par, sizeof par);
}

/* ---- GLSL ---------------------------------------------------------------------------------------- */

static char *heavy_read(const char *name)
{
    char path[2048];
#if defined(BENCH_HEAVY_SHADER_DIR)
    snprintf(path, sizeof path, "%s/%s", BENCH_HEAVY_SHADER_DIR, name);
#elif defined(TILERAST_SHADERS_DIR)
    snprintf(path, sizeof path, "%s/bench/%s", TILERAST_SHADERS_DIR, name);
#else
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    snprintf(path, sizeof path, "%s/../shaders/bench/%s", dir, name);
#endif
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_heavy: cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) == (size_t)n)
        s[n] = 0;
    else {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

/* GLSL to a module: shaderc, Vulkan 1.1 target, no optimisation. */
static tr_result heavy_module(tr_context *ctx, const char *src, int fragment, tr_shader_module **out)
{
#ifdef BENCH_HEAVY_NO_SHADERC
    (void)ctx, (void)src, (void)fragment, (void)out;
    return TR_ERROR_UNSUPPORTED_FORMAT;
#else
    char msg[1024];
    size_t words = 0;
    uint32_t *code = bench_glsl_spirv(src, fragment ? "heavy.frag" : "heavy.vert", fragment, &words, msg, sizeof msg);
    if (!code) {
        fprintf(stderr, "bench_heavy: shaderc: %s\n", msg);
        return TR_ERROR_INVALID_ARGUMENT;
    }
    const tr_shader_module_desc d = {code, words * 4};
    const tr_result res = tr_shader_module_create(ctx, &d, out);
    free(code);
    return res;
#endif
}

/* ---- the API ----------------------------------------------------------------------------------- */

#define HEAVY_TRY(call)                                                                                  \
    do {                                                                                                 \
        r = (call);                                                                                      \
        if (r != TR_OK)                                                                                  \
            goto fail;                                                                                   \
    } while (0)

tr_result bench_heavy_create(tr_context *ctx, bench_heavy **out)
{
    tr_result r = TR_ERROR_OUT_OF_MEMORY;
    tr_shader_module *vm = NULL, *fm = NULL;
    if (!out)
        return TR_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    bench_heavy *h = calloc(1, sizeof *h);
    if (!h)
        return TR_ERROR_OUT_OF_MEMORY;
    h->vertex_count = (HEAVY_GRID_X + 1) * (HEAVY_GRID_Y + 1);
    h->index_count = HEAVY_GRID_X * HEAVY_GRID_Y * 6;
    h->verts = calloc(h->vertex_count, sizeof *h->verts);
    h->indices = calloc(h->index_count, sizeof *h->indices);
    if (!h->verts || !h->indices)
        goto fail;
    heavy_make_mesh(h);
    heavy_make_uniforms(&h->u);

    /* textures: level 0 procedurally, the rest box-filtered */
    for (uint32_t t = 0; t < BENCH_HEAVY_TEXTURES; t++)
        for (uint32_t l = 0; l < HEAVY_LEVELS; l++) {
            const size_t s = BENCH_HEAVY_TEX_SIZE >> l;
            if (!(h->texels[t][l] = malloc(s * s * 4)))
                goto fail;
        }
    heavy_make_level0(h->texels[0][0], h->texels[1][0], h->texels[2][0]);
    for (uint32_t t = 0; t < BENCH_HEAVY_TEXTURES; t++)
        for (uint32_t l = 1; l < HEAVY_LEVELS; l++)
            heavy_downsample(h->texels[t][l], h->texels[t][l - 1], BENCH_HEAVY_TEX_SIZE >> l);
    r = TR_ERROR_INVALID_ARGUMENT;
    if (!(h->glsl[0] = heavy_read("heavy.vert")) || !(h->glsl[1] = heavy_read("heavy.frag")))
        goto fail;
    if (!ctx) { /* the data alone */
        *out = h;
        return TR_OK;
    }
    for (uint32_t t = 0; t < BENCH_HEAVY_TEXTURES; t++) {
        HEAVY_TRY(tr_image_create(ctx,
                                  &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = BENCH_HEAVY_TEX_SIZE,
                                                   .height = BENCH_HEAVY_TEX_SIZE, .levels = HEAVY_LEVELS},
                                  &h->images[t]));
        for (uint32_t l = 0; l < HEAVY_LEVELS; l++)
            HEAVY_TRY(tr_image_upload(h->images[t], &(tr_subresource){.level = l}, h->texels[t][l], 0));
    }
    HEAVY_TRY(tr_sampler_create(ctx,
                                &(tr_sampler_desc){.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                                   .mipmap_mode = TR_MIPMAP_LINEAR},
                                &h->sampler));

    /* pipelines: the fixed-function state and vertex layout shared */
    tr_pipeline_desc d = {.vertex_shader = heavy_vs, .fragment_shader = heavy_fs, .varying_count = 4,
                          .texture_mask = 7, .fs_flags = TR_FS_NO_FRAG_COORD};
    d.bindings[0] = (tr_vertex_binding){.stride = sizeof(bench_heavy_vertex)};
    d.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32_SFLOAT, 0, 0};
    d.attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32_SFLOAT, 0, 12};
    d.attributes[2] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 24};
    d.attributes[3] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 40};
    HEAVY_TRY(tr_pipeline_create(ctx, &d, &h->pipe[0]));
#ifdef BENCH_HEAVY_NO_SHADERC
    *out = h;
    return TR_OK;
#endif
    HEAVY_TRY(heavy_module(ctx, h->glsl[0], 0, &vm));
    HEAVY_TRY(heavy_module(ctx, h->glsl[1], 1, &fm));
    d.vertex_shader = NULL;
    d.fragment_shader = NULL;
    d.varying_count = 0;
    d.texture_mask = 0;
    d.fs_flags = 0;
    d.vertex_module = vm;
    d.fragment_module = fm;
    HEAVY_TRY(tr_pipeline_create(ctx, &d, &h->pipe[1]));
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    *out = h;
    return TR_OK;
fail:
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    bench_heavy_destroy(h);
    return r;
}

tr_result bench_heavy_draw(tr_context *ctx, bench_heavy *h, bool spirv)
{
    tr_result r;
    if (!h)
        return TR_ERROR_INVALID_ARGUMENT;
    if (!h->pipe[spirv ? 1 : 0])
        return spirv && h->pipe[0] ? TR_ERROR_UNSUPPORTED_FORMAT : TR_ERROR_INVALID_STATE;
    HEAVY_TRY(tr_cmd_bind_pipeline(ctx, h->pipe[spirv ? 1 : 0]));
    for (uint32_t t = 0; t < BENCH_HEAVY_TEXTURES; t++)
        HEAVY_TRY(tr_cmd_bind_texture(ctx, t, h->images[t], h->sampler));
    HEAVY_TRY(tr_cmd_set_uniforms(ctx, &h->u, sizeof h->u));
    HEAVY_TRY(tr_cmd_bind_vertex_buffer(ctx, 0, h->verts, (size_t)h->vertex_count * sizeof *h->verts, 0));
    HEAVY_TRY(tr_cmd_bind_index_buffer(ctx, h->indices, (size_t)h->index_count * sizeof *h->indices, 0, TR_INDEX_U32));
    HEAVY_TRY(tr_cmd_draw_indexed(ctx, h->index_count, 1, 0, 0, 0));
fail:
    return r;
}

void bench_heavy_destroy(bench_heavy *h)
{
    if (!h)
        return;
    for (int i = 0; i < 2; i++) {
        if (h->pipe[i])
            tr_pipeline_destroy(h->pipe[i]);
        free(h->glsl[i]);
    }
    for (uint32_t t = 0; t < BENCH_HEAVY_TEXTURES; t++) {
        if (h->images[t])
            tr_image_destroy(h->images[t]);
        for (uint32_t l = 0; l < HEAVY_LEVELS; l++)
            free(h->texels[t][l]);
    }
    if (h->sampler)
        tr_sampler_destroy(h->sampler);
    free(h->verts);
    free(h->indices);
    free(h);
}

const bench_heavy_vertex *bench_heavy_vertices(const bench_heavy *h, uint32_t *count)
{
    *count = h->vertex_count;
    return h->verts;
}

const uint32_t *bench_heavy_indices(const bench_heavy *h, uint32_t *count)
{
    *count = h->index_count;
    return h->indices;
}

const bench_heavy_uniforms *bench_heavy_uniform_data(const bench_heavy *h)
{
    return &h->u;
}

uint32_t bench_heavy_levels(const bench_heavy *h)
{
    (void)h;
    return HEAVY_LEVELS;
}

const uint8_t *bench_heavy_texels(const bench_heavy *h, uint32_t slot, uint32_t level, uint32_t *size)
{
    if (slot >= BENCH_HEAVY_TEXTURES || level >= HEAVY_LEVELS)
        return NULL;
    *size = BENCH_HEAVY_TEX_SIZE >> level;
    return h->texels[slot][level];
}

const char *bench_heavy_glsl(const bench_heavy *h, int stage)
{
    return h->glsl[stage ? 1 : 0];
}
