/* tilerast: running a lane program (spirv_prog.h) over a vertex batch or a
 * fragment block.  Every instruction works on the lanes [0, n) of its
 * registers at once; the mask of the running block decides only which
 * lanes branches move and which lanes masked writes touch. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include <simde/x86/sse2.h>
#include <spirv/unified1/GLSL.std.450.h>

#include "shader/spirv_math.h"
#include "shader/spirv_prog.h"

/* ---- per-thread scratch ---------------------------------------------------------------------
 * The register file of the program a thread last ran: its constant
 * registers are filled once per program, not per run. */

typedef struct frame {
    uint32_t *regs;
    uint64_t *pending;
    size_t reg_bytes, pending_count;
    uint64_t program;      /* tr__spv_program.id the constants are for; 0: none */
    tr_fs_block *stub;     /* a block for a vertex program's texture calls */
} frame;

static pthread_key_t frame_key;
static pthread_once_t frame_once = PTHREAD_ONCE_INIT;
static _Thread_local frame *thread_frame; /* the key's value, without the lookup per run */

static void frame_free(void *v)
{
    frame *f = v;
    if (!f)
        return;
    free(f->regs);
    free(f->pending);
    free(f->stub);
    free(f);
}

static void frame_key_make(void)
{
    (void)pthread_key_create(&frame_key, frame_free);
}

/* The thread's frame, ready for a run of p over lanes [0, n): constants
 * filled, variables zeroed on the lanes a run can read (the quads of
 * [0, n): derivatives and a vertex batch's texture stub read whole quads). */
static frame *frame_for(const tr__spv_program *p, uint32_t n)
{
    frame *f = thread_frame;
    if (!f) {
        pthread_once(&frame_once, frame_key_make);
        f = calloc(1, sizeof *f);
        if (!f || pthread_setspecific(frame_key, f) != 0) {
            free(f);
            return NULL;
        }
        thread_frame = f;
    }
    const size_t bytes = (size_t)p->reg_count * p->lanes * sizeof(uint32_t);
    if (bytes > f->reg_bytes) {
        uint32_t *r = calloc(1, bytes);
        if (!r)
            return NULL;
        free(f->regs);
        f->regs = r;
        f->reg_bytes = bytes;
        f->program = 0;
    }
    if (p->block_count > f->pending_count) {
        uint64_t *q = calloc(p->block_count, sizeof *q);
        if (!q)
            return NULL;
        free(f->pending);
        f->pending = q;
        f->pending_count = p->block_count;
    }
    if (f->program != p->id) {
        for (uint32_t k = 0; k < p->const_count; k++)
            for (uint32_t l = 0; l < p->lanes; l++)
                f->regs[(size_t)k * p->lanes + l] = p->const_bits[k];
        f->program = p->id;
    }
    const uint32_t lanes = TR_MIN(p->lanes, (n + 3) & ~3u);
    if (lanes == p->lanes) /* a full batch or block: the registers are one span */
        memset(f->regs + (size_t)p->zero_begin * p->lanes, 0,
               (size_t)(p->zero_end - p->zero_begin) * p->lanes * sizeof(uint32_t));
    else
        for (uint32_t r = p->zero_begin; r < p->zero_end; r++)
            memset(f->regs + (size_t)r * p->lanes, 0, lanes * sizeof(uint32_t));
    memset(f->pending, 0, p->block_count * sizeof *f->pending);
    return f;
}

/* ---- lane arithmetic ---------------------------------------------------------------------- */

static inline float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* float -> int32 / uint32, saturating, NaN -> 0 (shader.h) */
static inline uint32_t f2s(float x)
{
    if (x != x)
        return 0;
    if (x >= 2147483648.0f)
        return 0x7fffffffu;
    if (x <= -2147483648.0f)
        return 0x80000000u;
    return (uint32_t)(int32_t)x;
}

static inline uint32_t f2u(float x)
{
    if (!(x > 0.0f))
        return 0;
    if (x >= 4294967296.0f)
        return 0xffffffffu;
    return (uint32_t)x;
}

static inline uint32_t bfe(uint32_t v, uint32_t off, uint32_t cnt, bool sign)
{
    if (off >= 32 || cnt == 0)
        return 0;
    if (cnt > 32 - off)
        cnt = 32 - off;
    uint32_t x = v >> off;
    if (cnt < 32) {
        x &= (1u << cnt) - 1u;
        if (sign && (x >> (cnt - 1)) & 1u)
            x |= ~((1u << cnt) - 1u);
    }
    return x;
}

static inline uint32_t bfi(uint32_t base, uint32_t ins, uint32_t off, uint32_t cnt)
{
    if (off >= 32 || cnt == 0)
        return base;
    if (cnt > 32 - off)
        cnt = 32 - off;
    const uint32_t m = (cnt == 32 ? 0xffffffffu : (1u << cnt) - 1u) << off;
    return (base & ~m) | ((ins << off) & m);
}

static inline uint32_t brev(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

#define LANES for (uint32_t l = 0; l < n; l++)
#define FBIN(expr)                                                                                                \
    LANES {                                                                                                       \
        const float x = f32(A[l]), y = f32(B[l]);                                                                 \
        D[l] = u32(expr);                                                                                         \
    }                                                                                                             \
    break
#define FCMP(expr)                                                                                                \
    LANES {                                                                                                       \
        const float x = f32(A[l]), y = f32(B[l]);                                                                 \
        D[l] = (expr) ? ~0u : 0u;                                                                                 \
    }                                                                                                             \
    break
#define IBIN(expr)                                                                                                \
    LANES {                                                                                                       \
        const uint32_t x = A[l], y = B[l];                                                                        \
        D[l] = (expr);                                                                                            \
    }                                                                                                             \
    break
#define SBIN(expr)                                                                                                \
    LANES {                                                                                                       \
        const int32_t x = (int32_t)A[l], y = (int32_t)B[l];                                                       \
        D[l] = (uint32_t)(expr);                                                                                  \
    }                                                                                                             \
    break

/* ---- GLSL.std.450 ------------------------------------------------------------------------- */

#define REGF(r) ((float *)(R + (size_t)(r) * L))
#define REGU(r) (R + (size_t)(r) * L)
#define REGI(r) ((int32_t *)(R + (size_t)(r) * L))

static void ext_call(const tr__spv_ext *e, uint32_t *R, uint32_t L, uint32_t n)
{
    const uint32_t c = e->comps;
    float *d[16];
    const float *a[16], *b[16], *cc[16];
    for (uint32_t k = 0; k < 16; k++) {
        d[k] = e->res[k] != TR__NOREG ? REGF(e->res[k]) : NULL;
        a[k] = e->arg[0][k] != TR__NOREG ? REGF(e->arg[0][k]) : NULL;
        b[k] = e->arg[1][k] != TR__NOREG ? REGF(e->arg[1][k]) : NULL;
        cc[k] = e->arg[2][k] != TR__NOREG ? REGF(e->arg[2][k]) : NULL;
    }
#define EACH1(fn) for (uint32_t k = 0; k < c; k++) fn(d[k], a[k], n); return
#define EACH2(fn) for (uint32_t k = 0; k < c; k++) fn(d[k], a[k], b[k], n); return
#define EACH3(fn) for (uint32_t k = 0; k < c; k++) fn(d[k], a[k], b[k], cc[k], n); return
#define EACHI1(fn) for (uint32_t k = 0; k < c; k++) fn((int32_t *)d[k], (const int32_t *)a[k], n); return
#define EACHI2(fn) for (uint32_t k = 0; k < c; k++) fn((int32_t *)d[k], (const int32_t *)a[k], (const int32_t *)b[k], n); return
#define EACHU2(fn) for (uint32_t k = 0; k < c; k++) fn((uint32_t *)d[k], (const uint32_t *)a[k], (const uint32_t *)b[k], n); return
#define EACHI3(fn) for (uint32_t k = 0; k < c; k++) fn((int32_t *)d[k], (const int32_t *)a[k], (const int32_t *)b[k], (const int32_t *)cc[k], n); return
#define EACHU3(fn) for (uint32_t k = 0; k < c; k++) fn((uint32_t *)d[k], (const uint32_t *)a[k], (const uint32_t *)b[k], (const uint32_t *)cc[k], n); return
    switch (e->inst) {
    case GLSLstd450Round: EACH1(tr__m_round);
    case GLSLstd450RoundEven: EACH1(tr__m_roundeven);
    case GLSLstd450Trunc: EACH1(tr__m_trunc);
    case GLSLstd450FAbs: EACH1(tr__m_fabs);
    case GLSLstd450SAbs: EACHI1(tr__m_sabs);
    case GLSLstd450FSign: EACH1(tr__m_fsign);
    case GLSLstd450SSign: EACHI1(tr__m_ssign);
    case GLSLstd450Floor: EACH1(tr__m_floor);
    case GLSLstd450Ceil: EACH1(tr__m_ceil);
    case GLSLstd450Fract: EACH1(tr__m_fract);
    case GLSLstd450Radians: EACH1(tr__m_radians);
    case GLSLstd450Degrees: EACH1(tr__m_degrees);
    case GLSLstd450Sin: EACH1(tr__m_sin);
    case GLSLstd450Cos: EACH1(tr__m_cos);
    case GLSLstd450Tan: EACH1(tr__m_tan);
    case GLSLstd450Asin: EACH1(tr__m_asin);
    case GLSLstd450Acos: EACH1(tr__m_acos);
    case GLSLstd450Atan: EACH1(tr__m_atan);
    case GLSLstd450Sinh: EACH1(tr__m_sinh);
    case GLSLstd450Cosh: EACH1(tr__m_cosh);
    case GLSLstd450Tanh: EACH1(tr__m_tanh);
    case GLSLstd450Asinh: EACH1(tr__m_asinh);
    case GLSLstd450Acosh: EACH1(tr__m_acosh);
    case GLSLstd450Atanh: EACH1(tr__m_atanh);
    case GLSLstd450Atan2: EACH2(tr__m_atan2);
    case GLSLstd450Pow: EACH2(tr__m_pow);
    case GLSLstd450Exp: EACH1(tr__m_exp);
    case GLSLstd450Log: EACH1(tr__m_log);
    case GLSLstd450Exp2: EACH1(tr__m_exp2);
    case GLSLstd450Log2: EACH1(tr__m_log2);
    case GLSLstd450Sqrt: EACH1(tr__m_sqrt);
    case GLSLstd450InverseSqrt: EACH1(tr__m_inversesqrt);
    case GLSLstd450Determinant: tr__m_determinant(d[0], a, e->dim, n); return;
    case GLSLstd450MatrixInverse: tr__m_inverse(d, a, e->dim, n); return;
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct:
        for (uint32_t k = 0; k < c; k++)
            tr__m_modf(REGF(e->res2[k]), d[k], a[k], n); /* res: the fraction, res2: the whole part */
        return;
    case GLSLstd450FMin: EACH2(tr__m_fmin);
    case GLSLstd450UMin: EACHU2(tr__m_umin);
    case GLSLstd450SMin: EACHI2(tr__m_smin);
    case GLSLstd450FMax: EACH2(tr__m_fmax);
    case GLSLstd450UMax: EACHU2(tr__m_umax);
    case GLSLstd450SMax: EACHI2(tr__m_smax);
    case GLSLstd450FClamp: EACH3(tr__m_fclamp);
    case GLSLstd450UClamp: EACHU3(tr__m_uclamp);
    case GLSLstd450SClamp: EACHI3(tr__m_sclamp);
    case GLSLstd450FMix: EACH3(tr__m_fmix);
    case GLSLstd450Step: EACH2(tr__m_step);
    case GLSLstd450SmoothStep: EACH3(tr__m_smoothstep);
    case GLSLstd450Fma: EACH3(tr__m_fma);
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct:
        for (uint32_t k = 0; k < c; k++)
            tr__m_frexp(d[k], REGI(e->res2[k]), a[k], n);
        return;
    case GLSLstd450Ldexp:
        for (uint32_t k = 0; k < c; k++)
            tr__m_ldexp(d[k], a[k], (const int32_t *)b[k], n);
        return;
    case GLSLstd450PackSnorm4x8: tr__m_packsnorm4x8((uint32_t *)d[0], a, n); return;
    case GLSLstd450PackUnorm4x8: tr__m_packunorm4x8((uint32_t *)d[0], a, n); return;
    case GLSLstd450PackSnorm2x16: tr__m_packsnorm2x16((uint32_t *)d[0], a, n); return;
    case GLSLstd450PackUnorm2x16: tr__m_packunorm2x16((uint32_t *)d[0], a, n); return;
    case GLSLstd450PackHalf2x16: tr__m_packhalf2x16((uint32_t *)d[0], a, n); return;
    case GLSLstd450UnpackSnorm2x16: tr__m_unpacksnorm2x16(d, (const uint32_t *)a[0], n); return;
    case GLSLstd450UnpackUnorm2x16: tr__m_unpackunorm2x16(d, (const uint32_t *)a[0], n); return;
    case GLSLstd450UnpackHalf2x16: tr__m_unpackhalf2x16(d, (const uint32_t *)a[0], n); return;
    case GLSLstd450UnpackSnorm4x8: tr__m_unpacksnorm4x8(d, (const uint32_t *)a[0], n); return;
    case GLSLstd450UnpackUnorm4x8: tr__m_unpackunorm4x8(d, (const uint32_t *)a[0], n); return;
    case GLSLstd450Length: tr__m_length(d[0], a, e->dim, n); return;
    case GLSLstd450Distance: tr__m_distance(d[0], a, b, e->dim, n); return;
    case GLSLstd450Cross: tr__m_cross(d, a, b, n); return;
    case GLSLstd450Normalize: tr__m_normalize(d, a, e->dim, n); return;
    case GLSLstd450FaceForward: tr__m_faceforward(d, a, b, cc, e->dim, n); return;
    case GLSLstd450Reflect: tr__m_reflect(d, a, b, e->dim, n); return;
    case GLSLstd450Refract: tr__m_refract(d, a, b, cc[0], e->dim, n); return;
    case GLSLstd450FindILsb: for (uint32_t k = 0; k < c; k++) tr__m_findilsb((int32_t *)d[k], (const uint32_t *)a[k], n); return;
    case GLSLstd450FindSMsb: for (uint32_t k = 0; k < c; k++) tr__m_findsmsb((int32_t *)d[k], (const int32_t *)a[k], n); return;
    case GLSLstd450FindUMsb: for (uint32_t k = 0; k < c; k++) tr__m_findumsb((int32_t *)d[k], (const uint32_t *)a[k], n); return;
    case GLSLstd450NMin: EACH2(tr__m_nmin);
    case GLSLstd450NMax: EACH2(tr__m_nmax);
    case GLSLstd450NClamp: EACH3(tr__m_nclamp);
    default:
        return; /* refused by the translator, or (InterpolateAt*) made of lane instructions there */
    }
}

/* ---- sampling ----------------------------------------------------------------------------- */

static void tex_call(const tr__spv_tex *t, uint32_t *R, uint32_t L, uint32_t n, const tr_fs_block *blk)
{
    float out[4][TR_FS_LANES];
    float proj_s[TR_FS_LANES], proj_t[TR_FS_LANES], proj_dref[TR_FS_LANES];
    uint32_t slot = t->slot;
    if (t->slot_reg != TR__NOREG) { /* a dynamically indexed array of samplers: lane 0's index (uniform) */
        const uint32_t i = REGU(t->slot_reg)[0];
        slot += i < t->slot_limit ? i : t->slot_limit - 1;
    }
    if (slot >= TR_MAX_TEXTURES)
        slot = TR_MAX_TEXTURES - 1;
    switch (t->kind) {
    case TR__TEX_SAMPLE: {
        tr_sample_args a;
        memset(&a, 0, sizeof a);
        a.s = REGF(t->coord[0]);
        a.t = REGF(t->coord[1]);
        a.layer = t->arrayed ? REGF(t->coord[2]) : NULL;
        a.dref = t->dref != TR__NOREG ? REGF(t->dref) : NULL;
        if (t->proj != TR__NOREG) {
            const float *q = REGF(t->proj);
            for (uint32_t l = 0; l < n; l++) {
                proj_s[l] = a.s[l] / q[l];
                proj_t[l] = a.t[l] / q[l];
                if (a.dref)
                    proj_dref[l] = a.dref[l] / q[l];
            }
            a.s = proj_s;
            a.t = proj_t;
            if (a.dref)
                a.dref = proj_dref;
        }
        a.bias = t->bias != TR__NOREG ? REGF(t->bias) : NULL;
        a.lod = t->lod != TR__NOREG ? REGF(t->lod) : NULL;
        if (t->grad[0] != TR__NOREG) {
            a.dsdx = REGF(t->grad[0]);
            a.dtdx = REGF(t->grad[1]);
            a.dsdy = REGF(t->grad[2]);
            a.dtdy = REGF(t->grad[3]);
        }
        a.lod_clamp = t->min_lod != TR__NOREG ? REGF(t->min_lod) : NULL;
        a.offset[0] = t->const_offset[0];
        a.offset[1] = t->const_offset[1];
        if (t->offset[0] != TR__NOREG) { /* a non-constant offset: per lane, one call per distinct value */
            const int32_t *ox = REGI(t->offset[0]), *oy = REGI(t->offset[1]);
            bool same = true;
            for (uint32_t l = 1; l < n; l++)
                same &= ox[l] == ox[0] && oy[l] == oy[0];
            a.offset[0] = ox[0];
            a.offset[1] = oy[0];
            if (!same) {
                float part[4][TR_FS_LANES];
                for (uint32_t l = 0; l < n; l++) {
                    a.offset[0] = ox[l];
                    a.offset[1] = oy[l];
                    tr_fs_sample(blk, slot, &a, part);
                    for (uint32_t k = 0; k < 4; k++)
                        out[k][l] = part[k][l];
                }
                break;
            }
        }
        tr_fs_sample(blk, slot, &a, out);
        break;
    }
    case TR__TEX_FETCH: {
        const int32_t *layer = t->arrayed ? REGI(t->coord[2]) : NULL;
        const int32_t *level = t->lod != TR__NOREG ? REGI(t->lod) : NULL;
        int32_t zero[TR_FS_LANES] = {0};
        if (t->offset[0] != TR__NOREG) {
            const int32_t *ox = REGI(t->offset[0]), *oy = REGI(t->offset[1]);
            float part[4][TR_FS_LANES];
            for (uint32_t l = 0; l < n; l++) {
                const int32_t o[2] = {ox[l], oy[l]};
                tr_fs_texel_fetch_offset(blk, slot, REGI(t->coord[0]), REGI(t->coord[1]), layer,
                                         level ? level : zero, o, part);
                for (uint32_t k = 0; k < 4; k++)
                    out[k][l] = part[k][l];
            }
        } else {
            tr_fs_texel_fetch_offset(blk, slot, REGI(t->coord[0]), REGI(t->coord[1]), layer, level ? level : zero,
                                     t->const_offset, out);
        }
        break;
    }
    case TR__TEX_SIZE: {
        const int32_t *level = t->lod != TR__NOREG ? REGI(t->lod) : NULL;
        for (uint32_t l = 0; l < n; l++) {
            uint32_t w = 0, h = 0, layers = 0;
            const int32_t lv = level ? level[l] : 0;
            tr_fs_texture_size(blk, slot, lv < 0 ? UINT32_MAX : (uint32_t)lv, &w, &h, &layers);
            uint32_t v[3] = {w, h, layers};
            for (uint32_t k = 0; k < 3; k++)
                memcpy(&out[k][l], &v[k], 4);
        }
        break;
    }
    case TR__TEX_LEVELS: {
        uint32_t w, h, layers;
        const uint32_t levels = tr_fs_texture_size(blk, slot, 0, &w, &h, &layers);
        for (uint32_t l = 0; l < n; l++)
            memcpy(&out[0][l], &levels, 4);
        break;
    }
    case TR__TEX_QUERY_LOD: {
        float q[2][TR_FS_LANES];
        tr_fs_query_lod(blk, slot, REGF(t->coord[0]), REGF(t->coord[1]), q);
        for (uint32_t l = 0; l < n; l++) {
            out[0][l] = q[0][l];
            out[1][l] = q[1][l];
        }
        break;
    }
    }
    for (uint32_t k = 0; k < t->nout; k++)
        memcpy(REGU(t->out[k]), out[k], n * sizeof(float));
}

/* ---- the loop ----------------------------------------------------------------------------- */

/* Bit l: lane l of r is non-zero (a bool is 0 or ~0). */
static uint64_t lane_bits(const uint32_t *r, uint32_t n)
{
    uint64_t bits = 0;
    uint32_t l = 0;
    for (; l + 4 <= n; l += 4) {
        const simde__m128i v = simde_mm_loadu_si128((const simde__m128i *)(r + l));
        const simde__m128i z = simde_mm_cmpeq_epi32(v, simde_mm_setzero_si128());
        bits |= (uint64_t)(~simde_mm_movemask_ps(simde_mm_castsi128_ps(z)) & 0xf) << l;
    }
    for (; l < n; l++)
        bits |= (uint64_t)(r[l] != 0) << l;
    return bits;
}

typedef struct run_state {
    uint64_t discard;      /* lanes killed or demoted */
    uint64_t live;         /* fragment: covered lanes (others are helpers) */
    bool over_budget;
} run_state;

static void run(const tr__spv_program *p, const tr__spv_resources *res, frame *f, uint32_t n,
                const tr_fs_block *blk, run_state *st)
{
    const uint32_t L = p->lanes;
    uint32_t *R = f->regs;
    uint64_t *pending = f->pending;
    uint32_t M[TR_FS_LANES];       /* the running block's mask, per lane: 0 or ~0 */
    bool full = true;              /* M is all ones (before the first block: every lane) */
    uint64_t base = 0;             /* SPIR-V instructions every lane executed ... */
    uint32_t extra[TR_FS_LANES], max_extra = 0; /* ... and each lane's beside them */
    const uint64_t all = n >= 64 ? ~0ull : (1ull << n) - 1;
    /* Only lanes [0, n) of M and extra are ever read. */
    memset(M, 0xff, n * sizeof *M);
    memset(extra, 0, n * sizeof *extra);
    uint64_t active = 0;
    pending[p->entry_block] = all;
    for (uint32_t pc = 0;;) {
        const tr__ins *in = &p->code[pc++];
        uint32_t *D = in->d != TR__NOREG ? REGU(in->d) : NULL;
        const uint32_t *A = in->a != TR__NOREG && in->op > TR__OP_END ? REGU(in->a) : NULL;
        const uint32_t *B = in->b != TR__NOREG && in->op > TR__OP_END ? REGU(in->b) : NULL;
        switch (in->op) {
        case TR__OP_BLOCK: {
            active = pending[in->a];
            pending[in->a] = 0;
            if (!active) {
                pc = in->b;
                break;
            }
            /* The budget, per lane: every lane of a full block adds the same
             * (base); a partial block adds to its lanes' own counts (extra). */
            if (active == all) {
                if (!full) {
                    memset(M, 0xff, n * sizeof *M);
                    full = true;
                }
                base += in->c;
            } else {
                full = false;
                LANES {
                    M[l] = 0u - (uint32_t)((active >> l) & 1u);
                    extra[l] += in->c & M[l];
                    max_extra = extra[l] > max_extra ? extra[l] : max_extra;
                }
            }
            if (base + max_extra > res->budget) {
                st->over_budget = true;
                return;
            }
            break;
        }
        case TR__OP_BRANCH: {
            uint64_t take = active;
            if (in->b != TR__NOREG) {
                const uint64_t bits = lane_bits(REGU(in->b), n);
                take &= in->aux ? ~bits : bits;
            }
            pending[in->a] |= take;
            break;
        }
        case TR__OP_LOOP_BACK:
            if (pending[in->a])
                pc = in->b;
            break;
        case TR__OP_KILL:
            st->discard |= active;
            active = 0;
            memset(M, 0, n * sizeof *M);
            full = false;
            pc = in->b;
            break;
        case TR__OP_DEMOTE:
            st->discard |= active;
            break;
        case TR__OP_END:
            return;
        case TR__OP_MOV:
            memcpy(D, A, n * sizeof(uint32_t));
            break;
        case TR__OP_MOVM:
            if (full)
                memcpy(D, A, n * sizeof(uint32_t));
            else
                LANES D[l] = (A[l] & M[l]) | (D[l] & ~M[l]);
            break;
        case TR__OP_MOVC: {
            const uint32_t *C = REGU(in->c), inv = in->aux ? ~0u : 0u;
            LANES {
                const uint32_t m = M[l] & ((C[l] != 0 ? ~0u : 0u) ^ inv);
                D[l] = (A[l] & m) | (D[l] & ~m);
            }
            break;
        }
        case TR__OP_LOAD_IDX:
            LANES {
                const uint32_t i = B[l] < in->c ? B[l] : in->c - 1;
                D[l] = R[(size_t)(in->a + i) * L + l];
            }
            break;
        case TR__OP_STORE_IDX:
            LANES {
                const uint32_t i = B[l] < in->c ? B[l] : in->c - 1;
                uint32_t *t = &R[(size_t)(in->d + i) * L + l];
                *t = (A[l] & M[l]) | (*t & ~M[l]);
            }
            break;
        case TR__OP_LOAD_BUF: {
            const uint8_t *buf = res->buf[in->aux];
            const uint32_t size = res->buf_size[in->aux];
            LANES {
                const uint64_t at = (uint64_t)in->c + (B ? B[l] : 0);
                uint32_t v = 0;
                if (at + 4 <= size)
                    memcpy(&v, buf + at, 4);
                D[l] = v;
            }
            break;
        }
        case TR__OP_HELPER:
            LANES D[l] = ((st->live >> l) & 1u) && !((st->discard >> l) & 1u) ? 0u : ~0u;
            break;
        case TR__OP_FADD: FBIN(x + y);
        case TR__OP_FSUB: FBIN(x - y);
        case TR__OP_FMUL: FBIN(x * y);
        case TR__OP_FDIV: FBIN(x / y);
        case TR__OP_FNEG: LANES D[l] = A[l] ^ 0x80000000u; break;
        case TR__OP_FMOD: FBIN(x - y * floorf(x / y));
        case TR__OP_FREM: FBIN(x - y * truncf(x / y));
        case TR__OP_FEQ: FCMP(x == y);
        case TR__OP_FNE: FCMP(x < y || x > y);
        case TR__OP_FLT: FCMP(x < y);
        case TR__OP_FLE: FCMP(x <= y);
        case TR__OP_FGT: FCMP(x > y);
        case TR__OP_FGE: FCMP(x >= y);
        case TR__OP_FUEQ: FCMP(!(x < y || x > y));
        case TR__OP_FUNE: FCMP(x != y);
        case TR__OP_FULT: FCMP(!(x >= y));
        case TR__OP_FULE: FCMP(!(x > y));
        case TR__OP_FUGT: FCMP(!(x <= y));
        case TR__OP_FUGE: FCMP(!(x < y));
        case TR__OP_ISNAN: LANES D[l] = (A[l] & 0x7fffffffu) > 0x7f800000u ? ~0u : 0u; break;
        case TR__OP_ISINF: LANES D[l] = (A[l] & 0x7fffffffu) == 0x7f800000u ? ~0u : 0u; break;
        case TR__OP_F2S: LANES D[l] = f2s(f32(A[l])); break;
        case TR__OP_F2U: LANES D[l] = f2u(f32(A[l])); break;
        case TR__OP_S2F: LANES D[l] = u32((float)(int32_t)A[l]); break;
        case TR__OP_U2F: LANES D[l] = u32((float)A[l]); break;
        case TR__OP_IADD: IBIN(x + y);
        case TR__OP_ISUB: IBIN(x - y);
        case TR__OP_IMUL: IBIN(x * y);
        case TR__OP_SDIV: SBIN(y == 0 ? 0 : (x == INT32_MIN && y == -1) ? INT32_MIN : x / y);
        case TR__OP_UDIV: IBIN(y == 0 ? 0u : x / y);
        case TR__OP_SREM: SBIN(y == 0 || y == -1 ? 0 : x % y);
        case TR__OP_SMOD: SBIN(y == 0 || y == -1 ? 0 : (x % y != 0 && ((x % y < 0) != (y < 0))) ? x % y + y : x % y);
        case TR__OP_UMOD: IBIN(y == 0 ? 0u : x % y);
        case TR__OP_INEG: LANES D[l] = 0u - A[l]; break;
        case TR__OP_SHL: IBIN(y >= 32 ? 0u : x << y);
        case TR__OP_SHR: IBIN(y >= 32 ? 0u : x >> y);
        case TR__OP_SAR: SBIN(y < 0 || y >= 32 ? (x < 0 ? -1 : 0) : x >> y);
        case TR__OP_AND: IBIN(x & y);
        case TR__OP_OR: IBIN(x | y);
        case TR__OP_XOR: IBIN(x ^ y);
        case TR__OP_NOT: LANES D[l] = ~A[l]; break;
        case TR__OP_IEQ: IBIN(x == y ? ~0u : 0u);
        case TR__OP_INE: IBIN(x != y ? ~0u : 0u);
        case TR__OP_SLT: SBIN(x < y ? -1 : 0);
        case TR__OP_SLE: SBIN(x <= y ? -1 : 0);
        case TR__OP_SGT: SBIN(x > y ? -1 : 0);
        case TR__OP_SGE: SBIN(x >= y ? -1 : 0);
        case TR__OP_ULT: IBIN(x < y ? ~0u : 0u);
        case TR__OP_ULE: IBIN(x <= y ? ~0u : 0u);
        case TR__OP_UGT: IBIN(x > y ? ~0u : 0u);
        case TR__OP_UGE: IBIN(x >= y ? ~0u : 0u);
        case TR__OP_BFI: {
            const uint32_t *C = REGU(in->c), *E = REGU(in->e);
            LANES D[l] = bfi(A[l], B[l], C[l], E[l]);
            break;
        }
        case TR__OP_BFE_S:
        case TR__OP_BFE_U: {
            const uint32_t *C = REGU(in->c);
            const bool sign = in->op == TR__OP_BFE_S;
            LANES D[l] = bfe(A[l], B[l], C[l], sign);
            break;
        }
        case TR__OP_BREV: LANES D[l] = brev(A[l]); break;
        case TR__OP_SAMPLE_OFFSET:
            LANES {
                float pos[2] = {0.5f, 0.5f};
                if (A[l] < res->samples)
                    (void)tr_sample_position(res->samples, A[l], pos);
                D[l] = u32(pos[in->aux] - 0.5f);
            }
            break;
        case TR__OP_UMUL_HI: LANES D[l] = (uint32_t)(((uint64_t)A[l] * B[l]) >> 32); break;
        case TR__OP_SMUL_HI:
            LANES D[l] = (uint32_t)((uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32);
            break;
        case TR__OP_BCNT: LANES D[l] = (uint32_t)__builtin_popcount(A[l]); break;
        case TR__OP_SELECT: {
            const uint32_t *C = REGU(in->c);
            LANES D[l] = (A[l] & C[l]) | (B[l] & ~C[l]);
            break;
        }
        case TR__OP_MIN_CLAMP: LANES D[l] = A[l] < in->c ? A[l] : in->c; break;
        case TR__OP_DDX_FINE:
            for (uint32_t q = 0; q < n; q += 4) {
                const float d0 = f32(A[q + 1]) - f32(A[q]), d1 = f32(A[q + 3]) - f32(A[q + 2]);
                D[q] = D[q + 1] = u32(d0);
                D[q + 2] = D[q + 3] = u32(d1);
            }
            break;
        case TR__OP_DDY_FINE: /* with y up (lower-left origin) the quad's upper row is lanes 0, 1 still */
            for (uint32_t q = 0; q < n; q += 4) {
                const uint32_t lo = res->flip_y ? q : q + 2, hi = res->flip_y ? q + 2 : q;
                const float d0 = f32(A[lo]) - f32(A[hi]), d1 = f32(A[lo + 1]) - f32(A[hi + 1]);
                D[q] = D[q + 2] = u32(d0);
                D[q + 1] = D[q + 3] = u32(d1);
            }
            break;
        case TR__OP_DDX_COARSE:
            for (uint32_t q = 0; q < n; q += 4)
                D[q] = D[q + 1] = D[q + 2] = D[q + 3] = u32(f32(A[q + 1]) - f32(A[q]));
            break;
        case TR__OP_DDY_COARSE:
            for (uint32_t q = 0; q < n; q += 4)
                D[q] = D[q + 1] = D[q + 2] = D[q + 3] =
                    u32(res->flip_y ? f32(A[q]) - f32(A[q + 2]) : f32(A[q + 2]) - f32(A[q]));
            break;
        case TR__OP_EXT:
            ext_call(&p->ext[in->a], R, L, n);
            break;
        case TR__OP_TEX:
            tex_call(&p->tex[in->a], R, L, n, blk);
            break;
        default:
            break;
        }
    }
}

/* ---- the stages --------------------------------------------------------------------------- */

/* The batch's array an input is copied from (input_is_array in
 * spirv_forward.c), else NULL. */
static const uint32_t *vs_input_array(const tr__spv_io *io, const tr_vs_batch *b)
{
    switch (io->kind) {
    case TR__IN_ATTRIB: return b->attrib.u[io->index][io->comp];
    case TR__IN_VERTEX_INDEX: return b->vertex_index;
    case TR__IN_INSTANCE_INDEX: return b->instance_index;
    default: return NULL;
    }
}

tr_result tr__spv_run_vertex(const tr__spv_program *p, const tr__spv_resources *res, tr_vs_batch *b)
{
    const uint32_t L = p->lanes, n = b->count;
    frame *f = frame_for(p, n);
    if (!f)
        return TR_ERROR_OUT_OF_MEMORY;
    if (!f->stub && p->texture_mask) {
        f->stub = calloc(1, sizeof *f->stub);
        if (!f->stub)
            return TR_ERROR_OUT_OF_MEMORY;
    }
    uint32_t *R = f->regs;
    for (uint32_t i = 0; i < p->input_count; i++) {
        const tr__spv_io *io = &p->inputs[i];
        uint32_t *d = REGU(io->reg);
        if (io->unread)
            continue;
        const uint32_t *src = vs_input_array(io, b);
        if (src)
            memcpy(d, src, n * 4);
        else if (io->kind == TR__IN_VIEW_INDEX)
            for (uint32_t l = 0; l < n; l++)
                d[l] = b->view_index;
    }
    if (f->stub) {
        f->stub->count = (n + 3) & ~3u;
        f->stub->textures = res->textures;
    }
    run_state st = {0, 0, false};
    run(p, res, f, n, f->stub, &st);
    if (st.over_budget)
        return TR_ERROR_LIMIT_EXCEEDED;
    for (uint32_t i = 0; i < p->output_count; i++) {
        const tr__spv_io *io = &p->outputs[i];
        const uint32_t *s = io->source ? vs_input_array(&p->inputs[io->source - 1], b) : REGU(io->reg);
        switch (io->kind) {
        case TR__OUT_POSITION: memcpy(b->position[io->comp], s, n * 4); break;
        case TR__OUT_POINT_SIZE: memcpy(b->point_size, s, n * 4); break;
        case TR__OUT_VARYING: memcpy(b->varyings[io->index][io->comp], s, n * 4); break;
        default: break;
        }
    }
    return TR_OK;
}

/* The block's array an input is copied from (input_is_array in
 * spirv_forward.c), else NULL. */
static const uint32_t *fs_input_array(const tr__spv_io *io, const tr_fs_block *b)
{
    switch (io->kind) {
    case TR__IN_VARYING: return (const uint32_t *)b->varyings[io->index][io->comp];
    case TR__IN_FRAG_COORD: {
        const float *src = io->comp == 0 ? b->frag_x : io->comp == 1 ? b->frag_y : io->comp == 2 ? b->frag_z
                                                                                                    : b->frag_w;
        return (const uint32_t *)src;
    }
    case TR__IN_POINT_COORD: return (const uint32_t *)b->point_coord[io->comp];
    case TR__IN_SAMPLE_MASK: return b->sample_mask_in;
    default: return NULL;
    }
}

/* Fills the fragment program's input registers from the block. */
static void fs_inputs(const tr__spv_program *p, const tr__spv_resources *res, const tr_fs_block *b, uint32_t *R)
{
    const uint32_t L = p->lanes, n = b->count;
    for (uint32_t i = 0; i < p->input_count; i++) {
        const tr__spv_io *io = &p->inputs[i];
        uint32_t *d = REGU(io->reg);
        float *df = (float *)d;
        if (io->unread)
            continue;
        const uint32_t *src = fs_input_array(io, b);
        if (src) {
            memcpy(d, src, n * 4);
            continue;
        }
        switch (io->kind) {
        case TR__IN_FRONT_FACING: for (uint32_t l = 0; l < n; l++) d[l] = b->front_facing ? ~0u : 0u; break;
        case TR__IN_PRIMITIVE_ID: for (uint32_t l = 0; l < n; l++) d[l] = b->primitive_id; break;
        case TR__IN_VIEW_INDEX: for (uint32_t l = 0; l < n; l++) d[l] = b->view_index; break;
        case TR__IN_HELPER: for (uint32_t l = 0; l < n; l++) d[l] = (b->live >> l) & 1u ? 0u : ~0u; break;
        case TR__IN_SAMPLE_ID:
            for (uint32_t l = 0; l < n; l++)
                d[l] = b->sample_index >= 0 ? (uint32_t)b->sample_index : 0u;
            break;
        case TR__IN_SAMPLE_POSITION: {
            const float *src = io->comp == 0 ? b->frag_x : b->frag_y;
            for (uint32_t l = 0; l < n; l++)
                df[l] = src[l] - floorf(src[l]);
            break;
        }
        case TR__IN_FRAG_SIZE:
            for (uint32_t l = 0; l < n; l++)
                d[l] = io->comp == 0 ? b->frag_size_x : b->frag_size_y;
            break;
        case TR__IN_FRAG_INVOCATION_COUNT:
            for (uint32_t l = 0; l < n; l++)
                d[l] = b->sample_index >= 0 ? res->samples : 1u;
            break;
        default: break;
        }
    }
}

tr_result tr__spv_run_fragment(const tr__spv_program *p, const tr__spv_resources *res, tr_fs_block *b)
{
    const uint32_t L = p->lanes, n = b->count;
    run_state st = {0, b->live, false};
    uint32_t *R = NULL;
    if (p->straight) { /* nothing to run: the outputs copy the block's arrays */
        st.over_budget = p->straight_cost > res->budget;
    } else {
        frame *f = frame_for(p, n);
        if (!f)
            return TR_ERROR_OUT_OF_MEMORY;
        R = f->regs;
        fs_inputs(p, res, b, R);
        run(p, res, f, n, b, &st);
    }
    if (st.over_budget)
        return TR_ERROR_LIMIT_EXCEEDED;
    for (uint32_t i = 0; i < p->output_count; i++) {
        const tr__spv_io *io = &p->outputs[i];
        const uint32_t *s = io->source ? fs_input_array(&p->inputs[io->source - 1], b) : REGU(io->reg);
        switch (io->kind) {
        case TR__OUT_COLOR: memcpy(b->color[io->index][io->comp], s, n * 4); break;
        case TR__OUT_DEPTH: memcpy(b->depth, s, n * 4); break;
        case TR__OUT_SAMPLE_MASK: memcpy(b->sample_mask, s, n * 4); break;
        default: break;
        }
    }
    b->discard = st.discard;
    return TR_OK;
}
