/* tilerast raster stage: drawing one triangle inside one bin.
 *
 * The triangle is walked in 8x8-pixel blocks aligned to the framebuffer (the
 * LRZ block size).  Each block is first tested against the three edge
 * functions at its corners: blocks wholly outside one edge are skipped,
 * blocks wholly inside all three skip the per-pixel edge tests.  Covered
 * pixels are grouped in 2x2 quads; quads with any coverage are packed into a
 * fragment block (helper lanes included) for the fragment shader.
 *
 * Every per-pixel value is computed from the pixel's own coordinates with a
 * fixed order of float operations, never by stepping from a neighbour, so a
 * pixel's result does not depend on the bin, the block or the thread. */
#include "lrz/lrz_internal.h"
#include "raster/raster_internal.h"

#include <simde/x86/sse2.h>

#define BLOCK 8

/* Depth and stencil tests for the lanes in `live`; returns the survivors. */
/* After an early depth test (no stencil) that failed `fail` of `live`
 * (ln's lanes): the rejections counted, the depth blocks of a depth write
 * invalidated; returns the survivors. */
static inline uint64_t depth_tested(tr__raster_bin *rb, const tr_pipeline_desc *pd, const tr__lanes *ln,
                                    uint64_t live, uint64_t fail)
{
    rb->worker->stats.fragments_depth_rejected += (uint64_t)tr__popcount64(fail);
    live &= ~fail;
    if (pd->depth_write)
        tr__zblocks_invalidate(rb, ln, live);
    return live;
}

/* Depth and stencil are tested before the shader: forced, or the shader
 * can neither discard, write depth or the sample mask nor write memory
 * (then testing first is invisible), or there is no shader. */
static inline bool tests_early(const tr_pipeline_desc *pd)
{
    const uint32_t flags = pd->fs_flags;
    return (flags & TR_FS_EARLY_TESTS) ||
           !(flags & (TR_FS_MAY_DISCARD | TR_FS_WRITES_DEPTH | TR_FS_SIDE_EFFECTS | TR_FS_WRITES_SAMPLE_MASK)) ||
           !pd->fragment_shader;
}

static uint64_t depth_stencil(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, uint64_t live,
                              tr__lanes *ln)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    bool dtest = pd->depth_test && p->depth_att >= 0;
    bool stest = pd->stencil_test && p->stencil_att >= 0;
    if (!dtest && !stest)
        return live;
    if (dtest)
        tr__lanes_quantise(ln, d->depth_qmax); /* D16 / D24: test and write the codes */
    tr_pass_stats *st = &rb->worker->stats;
    if (!stest && rb->ctx->simd != TR_SIMD_SCALAR) {
        /* Depth only: a quad at a time (raster_quad.c). */
        const uint64_t fail = rb->ctx->kernels->depth_quads((float *)rb->gmem[p->depth_att], rb->gmem_pitch,
                                                            rb->origin, ln, live, pd->depth_compare,
                                                            pd->depth_write != 0);
        return depth_tested(rb, pd, ln, live, fail);
    }
    /* Stencil (and depth): raster_quad.c, the reference under TR_SIMD_SCALAR. */
    tr__ds_state ds;
    ds.dbuf = dtest ? (float *)rb->gmem[p->depth_att] : NULL;
    ds.sbuf = stest ? rb->gmem[p->stencil_att] : NULL;
    ds.pitch = rb->gmem_pitch;
    ds.origin[0] = rb->origin[0];
    ds.origin[1] = rb->origin[1];
    ds.depth_compare = pd->depth_compare;
    ds.depth_write = pd->depth_write != 0;
    ds.face = t->front_facing ? &pd->stencil_front : &pd->stencil_back;
    ds.ref = (uint8_t)(d->stencil_ref[t->front_facing ? 0 : 1] & 0xff);
    const uint64_t pass = rb->ctx->kernels->depth_stencil_quads(&ds, ln, live, &st->fragments_stencil_rejected,
                                                                &st->fragments_depth_rejected);
    if (ds.dbuf && ds.depth_write)
        tr__zblocks_invalidate(rb, ln, pass);
    return pass;
}

/* Shading a uniform block (shade_quads): the flat varyings of one quad,
 * the only inputs such a block's shader reads. */
static void uniform_inputs(const tr__tri *t, uint32_t varying_count, tr_fs_block *fs)
{
    for (uint32_t v = 0; v < varying_count; v++)
        for (uint32_t c = 0; c < 4; c++) {
            const float x = t->attr[8 + 3 * (4 * v + c)];
            for (uint32_t i = 0; i < 4; i++)
                fs->varyings[v][c][i] = x;
        }
}

/* The fragment block's fields of triangle t of draw d in rb's view, for
 * `count` lanes of which `live` are covered. */
static inline void fs_begin(const tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, tr_fs_block *fs,
                            uint32_t count, uint64_t live)
{
    fs->count = count;
    fs->live = live;
    fs->view_index = rb->rp->view_ids[rb->view_slot];
    fs->frag_size_x = rb->frag_w;
    fs->frag_size_y = rb->frag_h;
    fs->primitive_id = t->primitive;
    fs->front_facing = t->front_facing;
    fs->uniforms = d->uniforms;
    fs->textures = d->textures;
    fs->feedback_maps = d->feedback_maps;
    fs->discard = 0;
}

/* The window paths' shader run: one uniform quad of triangle t's flat
 * inputs (as run_shader shades a uniform block's), in the worker's
 * fragment block. */
static tr_fs_block *shade_uniform_quad(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d)
{
    tr_fs_block *fs = rb->worker->fs;
    fs_begin(rb, t, d, fs, 4, 0xfu);
    uniform_inputs(t, d->pipeline->desc.varying_count, fs);
    fs->sample_index = -1;
    tr__shade_fragments(d->pipeline, d->spv, fs);
    return fs;
}

/* Are lanes 0-3 of colour output a (and of output 1, `dual`) all alike?
 * Bits, not values. */
static bool quad0_uniform(const tr_fs_block *fs, uint32_t a, bool dual)
{
    for (uint32_t k = 0; k < (dual ? 2u : 1u); k++) {
        const uint32_t o = k ? 1u : a;
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t w[4];
            memcpy(w, fs->color[o][c], sizeof w);
            if ((w[0] ^ w[1]) | (w[0] ^ w[2]) | (w[0] ^ w[3]))
                return false;
        }
    }
    return true;
}

/* A uniform block's outputs, quad 0's, copied to all nq quads. */
static void replicate_quad0(tr_fs_block *fs, uint32_t nq, uint32_t outputs)
{
    for (uint32_t a = 0; a < outputs; a++)
        for (uint32_t c = 0; c < 4; c++)
            for (uint32_t j = 1; j < nq; j++)
                memcpy(&fs->color[a][c][4 * j], fs->color[a][c], 4 * sizeof(float));
}

static bool blend_is_dual(const tr_blend_state *bs)
{
    return bs->enable && (bs->src_color >= TR_BLEND_SRC1_COLOR || bs->dst_color >= TR_BLEND_SRC1_COLOR ||
                          bs->src_alpha >= TR_BLEND_SRC1_COLOR || bs->dst_alpha >= TR_BLEND_SRC1_COLOR);
}

/* What shade_quads needs of a triangle's draw and bin view
 * (raster_internal.h), and the triangle's shaded uniform quad. */
typedef tr__shade_state shade_state;

/* May draw d's small triangles take the window path (raster_window) in
 * rb's bin view?  A uniform shader (ss, made up to `uniform`) with early
 * tests, no discard or sample mask, depth alone tested as block_depth
 * tests it (or nothing), every colour attachment it writes RGBA8 UNORM
 * without blending and with all four channels, at full scale, one sample
 * per pixel, with the AVX2 kernels. */
static bool window_mode(const tr__raster_bin *rb, const tr__draw *d, const shade_state *ss)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const tr__kernels *K = rb->ctx->kernels;
    if (!ss->uniform || !K->window_raster || !K->window_fill || !pd->fragment_shader ||
        !ss->early || (ss->flags & (TR_FS_MAY_DISCARD | TR_FS_WRITES_SAMPLE_MASK)) ||
        (pd->stencil_test && p->stencil_att >= 0) || rb->fdm)
        return false;
    if (ss->depth && !(ss->block_depth && (pd->depth_compare == TR_COMPARE_LESS ||
                                           pd->depth_compare == TR_COMPARE_LESS_OR_EQUAL ||
                                           pd->depth_compare == TR_COMPARE_GREATER ||
                                           pd->depth_compare == TR_COMPARE_GREATER_OR_EQUAL)))
        return false;
    for (uint32_t a = 0; a < p->color_count; a++) {
        const uint32_t wm = pd->blend[a].write_mask & 0xfu;
        if (p->color_att[a] < 0 || !wm)
            continue;
        if (wm != 0xfu || pd->blend[a].enable || p->att[p->color_att[a]].format != TR_FORMAT_R8G8B8A8_UNORM)
            return false;
    }
    return true;
}

/* shade_quads' state for draw d's pipeline (and depth format) in rb's bin
 * view, with no uniform quad shaded yet. */
static void shade_mode(const tr__raster_bin *rb, const tr__draw *d, shade_state *ss)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const uint32_t flags = pd->fs_flags;
    const uint32_t all = pd->varying_count ? (uint32_t)((1ull << pd->varying_count) - 1) : 0;
    ss->flags = flags;
    ss->simd = rb->ctx->simd != TR_SIMD_SCALAR;
    ss->frag_coord = pd->fragment_shader && !(flags & TR_FS_NO_FRAG_COORD);
    ss->shader_depth = pd->fragment_shader && (flags & TR_FS_WRITES_DEPTH);
    /* (a point's fragments differ in their point coordinate, made from the
     * barycentrics: as a smooth varying) */
    ss->smooth = pd->fragment_shader && ((pd->flat_mask & all) != all || pd->topology == TR_TOPOLOGY_POINT_LIST);
    ss->early = tests_early(pd);
    ss->depth = pd->depth_test && p->depth_att >= 0;
    /* (not for D16 / D24: the block kernel compares unquantised depths) */
    ss->lanes_depth = rb->ctx->kernels->depth_block && ss->early && ss->depth && !(pd->stencil_test && p->stencil_att >= 0) &&
                      !ss->frag_coord && !ss->shader_depth && !d->depth_qmax;
    ss->block_depth = ss->lanes_depth && !ss->smooth;
    /* (gl_SampleMaskIn differs between lanes whose other inputs do not) */
    ss->uniform = ss->simd && !ss->smooth && !ss->frag_coord && !ss->shader_depth &&
                  !(flags & (TR_FS_SIDE_EFFECTS | TR_FS_READS_SAMPLE_MASK));
    /* (multisampled: the shader once per pixel, its colour every covered
     * sample's, the tests early: no alpha to coverage or one) */
    const tr_multisample_state *ms = &pd->multisample;
    const bool ms_window = window_mode(rb, d, ss);
    ss->window = ms_window && p->samples == 1;
    ss->untested = ss->uniform && ss->early && !ss->depth && !(pd->stencil_test && p->stencil_att >= 0) &&
                   pd->fragment_shader && !(flags & (TR_FS_MAY_DISCARD | TR_FS_WRITES_SAMPLE_MASK)) && !rb->fdm;
    ss->window_ms = ms_window && p->samples > 1 && !ms->alpha_to_coverage && !ms->alpha_to_one &&
                    !(ms->sample_shading && ms->min_sample_shading * (float)p->samples > 1.0f) &&
                    !(flags & TR_FS_SAMPLE_RATE);
    ss->shaded = false;
    ss->uni_known = ss->uni_value = 0;
    ss->blend_ready = ss->fill_ready = false;
}

/* shade_quads' state for a triangle of draw d: shade_mode worked out once
 * per pipeline (and depth format) in a bin view, kept in rb. */
static void shade_begin(tr__raster_bin *rb, const tr__draw *d, shade_state *ss)
{
    if (rb->shade_pipeline != d->pipeline || rb->shade_qmax != d->depth_qmax) {
        shade_mode(rb, d, &rb->shade);
        rb->shade_pipeline = d->pipeline;
        rb->shade_qmax = d->depth_qmax;
    }
    *ss = rb->shade;
}

/* Runs the fragment shader for the lanes `live` of ln (their inputs at
 * the lanes' pixel centres; centroid varyings at lc's barycentrics when lc
 * is not NULL, centroid_lanes) and drops the lanes it discards; returns
 * the rest.  `uniform`: one quad is shaded for the block (below; ss->uniform
 * and more than one quad).  sample_index: tr_fs_block's; frag_offset (or
 * NULL): added to frag_x / frag_y, the sample's offset from the centre.
 * cover (or NULL), n: per sample, the lanes whose pixel covers it before
 * any test, gl_SampleMaskIn of a call that shades whole multisampled
 * pixels; without it a live lane's mask is 1 (single-sampled) or the bit
 * of sample_index. */
static inline __attribute__((always_inline)) uint64_t run_shader(tr__raster_bin *rb, const tr__tri *t,
                                                                 const tr__draw *d, const tr_pipeline_desc *pd,
                                                                 tr_fs_block *fs, tr_pass_stats *st, tr__lanes *ln,
                                                                 const tr__lanes *lc, uint64_t live,
                                                                 shade_state *ss, bool uniform,
                                                                 int32_t sample_index, const float *frag_offset,
                                                                 const uint64_t *cover, uint32_t n)
{
    const uint32_t nq = ln->nq;
    const uint32_t flags = ss->flags;
    const bool frag_coord = ss->frag_coord, shader_depth = ss->shader_depth;
    /* A uniform block: flat varyings only, and none of frag coord, shader
     * depth or side effects.  Every lane sees the same inputs, so by the
     * shader contract (pipeline.h: a lane's outputs depend on its own
     * inputs and its quad's) every quad's outputs are quad 0's: one quad is
     * shaded and stands for all.  The blend kernels read lane 0; any other
     * path gets the outputs copied to every quad first.  The scalar
     * reference shades every lane, so the equality tests check this. */

    /* Every uniform block of a triangle has the same inputs, hence (the
     * shader contract) the same outputs: the quad shaded for its first one
     * stands for the rest, and the shader runs once per triangle and bin. */
    const bool reuse = uniform && ss->shaded;
    if (!reuse) {
        ss->uni_known = 0;
        ss->blend_ready = ss->fill_ready = false;
    }
    ss->shaded = uniform;
    if (reuse)
        goto shaded;

    /* Fragment shader inputs. */
    fs_begin(rb, t, d, fs, uniform ? 4u : 4 * nq, uniform ? 0xfu : live);
    if (uniform)
        uniform_inputs(t, pd->varying_count, fs);
    else
        rb->ctx->kernels->fs_inputs(t, pd->varying_count, pd->flat_mask, pd->noperspective_mask, pd->centroid_mask,
                                    ln, lc, fs, frag_coord, frag_coord || shader_depth);
    if (!uniform && ln->zq && (frag_coord || shader_depth))
        for (uint32_t i = 0; i < fs->count; i++) {
            /* frag_z (and the depth output's preset) unquantised, as Vulkan's FragCoord.z */
            if (frag_coord)
                fs->frag_z[i] = ln->zraw[i];
            fs->depth[i] = ln->zraw[i];
        }
    fs->sample_index = sample_index;
    if (frag_offset && frag_coord && !uniform)
        for (uint32_t i = 0; i < fs->count; i++) {
            fs->frag_x[i] += frag_offset[0];
            fs->frag_y[i] += frag_offset[1];
        }
    if (rb->fdm) {
        /* FragCoord in framebuffer space: (x' + 0.5 - o) * f, the centre of
         * the coarse fragment's area (turnip's tu_nir_lower_fdm); exact. */
        if (frag_coord && !uniform) {
            const float ox = (float)rb->fdm->o[0], oy = (float)rb->fdm->o[1];
            const float fx = (float)rb->frag_w, fy = (float)rb->frag_h;
            for (uint32_t i = 0; i < fs->count; i++) {
                fs->frag_x[i] = (fs->frag_x[i] - ox) * fx;
                fs->frag_y[i] = (fs->frag_y[i] - oy) * fy;
            }
        }
    }
    if (d->flip_y && frag_coord && !uniform) {
        /* GL's lower-left origin: gl_FragCoord.y counts up from the bottom */
        const float h = (float)d->flip_y;
        for (uint32_t i = 0; i < fs->count; i++)
            fs->frag_y[i] = h - fs->frag_y[i];
    }
    if (flags & TR_FS_READS_SAMPLE_MASK) {
        /* (never uniform: shade_begin) */
        const uint32_t bit = sample_index >= 0 ? 1u << (sample_index & 31) : 1u;
        for (uint32_t i = 0; i < fs->count; i++) {
            uint32_t v = 0;
            if (cover)
                for (uint32_t s = 0; s < n; s++)
                    v |= (uint32_t)((cover[s] >> i) & 1u) << s;
            else
                v = bit;
            fs->sample_mask_in[i] = (live >> i) & 1u ? v : 0u;
        }
    }
    if (flags & TR_FS_WRITES_SAMPLE_MASK)
        for (uint32_t i = 0; i < fs->count; i++)
            fs->sample_mask[i] = ~0u;
    tr__shade_fragments(d->pipeline, d->spv, fs);
shaded:
    if (rb->fdm) {
        const uint64_t n = (uint64_t)tr__popcount64(live);
        st->fdm_fragments_shaded_scaled += n;
        st->fdm_pixels_shaded_scaled += n * rb->frag_w * rb->frag_h;
    }
    st->fragments_shaded += (uint64_t)tr__popcount64(live);

    if (flags & TR_FS_MAY_DISCARD) {
        const uint64_t discard = uniform ? (fs->discard & 0xfu) * 0x1111111111111111ull : fs->discard;
        uint64_t killed = live & discard;
        st->fragments_discarded += (uint64_t)tr__popcount64(killed);
        live &= ~killed;
    }
    return live;
}

/* Blends and writes the colour outputs of the lanes `live` of ln to every
 * colour attachment (`uniform`: run_shader shaded one quad for all). */
static inline __attribute__((always_inline)) void write_colors(tr__raster_bin *rb, const tr__raster_pass *p,
                                                               const tr__draw *d, const tr_pipeline_desc *pd,
                                                               tr_fs_block *fs, const tr__lanes *ln, uint64_t live,
                                                               bool uniform, shade_state *ss)
{
    const uint32_t nq = ln->nq;
    /* Blend and write each colour attachment. */
    uint32_t texel_index[TR_FS_LANES];
    bool have_index = false, replicated = !uniform;
    const uint32_t outputs = TR_MIN(TR_MAX(p->color_count, 2u), TR_MAX_COLOR_ATTACHMENTS);
    for (uint32_t a = 0; a < p->color_count; a++) {
        int ai = p->color_att[a];
        if (ai < 0 || !pd->blend[a].write_mask)
            continue;
        const tr__attachment_state *as = &p->att[ai];
        uint8_t *g = rb->gmem[ai];
        bool uni = false;
        if (!replicated) {
            if (!((ss->uni_known >> a) & 1)) {
                ss->uni_value = (ss->uni_value & ~(1u << a)) |
                                (uint32_t)quad0_uniform(fs, a, blend_is_dual(&pd->blend[a])) << a;
                ss->uni_known |= 1u << a;
            }
            uni = (ss->uni_value >> a) & 1;
        }
        if (!replicated && !uni) {
            replicate_quad0(fs, nq, outputs); /* (a shader whose quad lanes differ) */
            replicated = true;
        }
        /* A triangle's uniform whole blocks after the first (one
         * attachment): its texel stored, or straight through the blend
         * table that blended the first, as tr__blend_quads does them. */
        const bool whole = uni && ln->block && live == ~0ull && p->color_count == 1;
        if (whole && (ss->fill_ready || ss->blend_ready)) {
            uint8_t *row = g + ((size_t)(ln->qy[0] - rb->origin[1]) * rb->gmem_pitch +
                                (size_t)(ln->qx[0] - rb->origin[0])) * 4;
            const size_t pitch = (size_t)rb->gmem_pitch * 4;
            if (ss->blend_ready) {
                rb->ctx->kernels->blend_block_affine(row, pitch, &rb->worker->lut, pd->blend[a].write_mask & 0xfu);
                continue;
            }
            const simde__m128i px = simde_mm_set1_epi32((int32_t)ss->fill_texel);
            for (uint32_t y = 0; y < BLOCK; y++, row += pitch) {
                simde_mm_storeu_si128((void *)row, px);
                simde_mm_storeu_si128((void *)(row + 16), px);
            }
            continue;
        }
        if (tr__blend_quads(rb->ctx, as->format, &pd->blend[a], fs, a, live, uni, ln, rb->origin, rb->gmem_pitch,
                            d->blend_constants, &rb->worker->lut, g)) {
            if (whole && as->format == TR_FORMAT_R8G8B8A8_UNORM) {
                if (!pd->blend[a].enable && (pd->blend[a].write_mask & 0xfu) == 0xfu) {
                    ss->fill_texel = tr__rgba8_texel(fs, a);
                    ss->fill_ready = true;
                } else if (pd->blend[a].enable) {
                    ss->blend_ready = tr__blend_lut_holds(&rb->worker->lut, &pd->blend[a], fs, a, d->blend_constants);
                }
            }
            continue;
        }
        if (!replicated) {
            replicate_quad0(fs, nq, outputs);
            replicated = true;
        }
        if (!have_index) {
            for (uint32_t i = 0; i < 4 * nq; i++)
                texel_index[i] =
                    (uint32_t)((tr__lane_y(ln, i) - rb->origin[1]) * (int32_t)rb->gmem_pitch +
                               (tr__lane_x(ln, i) - rb->origin[0]));
            have_index = true;
        }
        if (tr__blend_block(rb->ctx, as->format, &pd->blend[a], fs, a, live, texel_index, d->blend_constants, g))
            continue;
        for (uint64_t m = live; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m);
            float src[4], src1[4];
            for (int c = 0; c < 4; c++) {
                src[c] = fs->color[a][c][i];
                src1[c] = fs->color[1][c][i];
            }
            tr__blend_write(rb->ctx, as->format, &pd->blend[a], src, src1, d->blend_constants,
                            g + (size_t)texel_index[i] * as->cpp);
        }
    }
}

/* Shades the packed quads of ln (one triangle; from one block or gathered
 * from several), `live` their covered lanes.  lrz_dir: the direction of the
 * LRZ fragment test for quads whose lrz_test is set.  ss: the triangle's
 * shade_begin, and its uniform quad once shaded. */
static void shade_quads(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, tr__lanes *ln, uint64_t live,
                        tr_lrz_direction lrz_dir, shade_state *ss)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    tr_pass_stats *st = &rb->worker->stats;
    tr_fs_block *fs = rb->worker->fs;
    const uint32_t nq = ln->nq;
    /* Only what this block's tests and shader inputs read. */
    const uint32_t flags = ss->flags;
    const bool frag_coord = ss->frag_coord, shader_depth = ss->shader_depth, smooth = ss->smooth;
    const bool need_z = ss->depth || lrz_dir != TR_LRZ_DIRECTION_UNKNOWN || frag_coord || shader_depth;
    const bool early = ss->early;
    bool tested = false; /* the early depth test is done */
    /* Quads of a triangle whose uniform quad is shaded already, with no
     * test to make and nothing but colour coming from the shader
     * (shade_state.untested): the fragments counted and written as
     * run_shader and write_colors count and write them. */
    if (ss->untested && ss->shaded && nq > 1 && lrz_dir == TR_LRZ_DIRECTION_UNKNOWN) {
        const uint64_t n = (uint64_t)tr__popcount64(live);
        st->fragments_shaded += n;
        st->fragments_written += n;
        write_colors(rb, p, d, pd, fs, ln, live, true, ss);
        return;
    }
    /* A whole block whose depths only the depth test reads (no LRZ lane
     * test, no stencil, no frag coord, shader depth or smooth varying):
     * depth computed and tested row by row against GMEM, without the
     * lanes (the same values and compares as the two steps below). */
    if (ss->block_depth && ln->block && live == ~0ull && lrz_dir == TR_LRZ_DIRECTION_UNKNOWN) {
        float *dbuf = (float *)rb->gmem[p->depth_att] + (size_t)(ln->qy[0] - rb->origin[1]) * rb->gmem_pitch +
                      (size_t)(ln->qx[0] - rb->origin[0]);
        uint64_t pass;
        if (rb->ctx->kernels->depth_block(t, d->depth_min, d->depth_max, dbuf, rb->gmem_pitch, ln->qx[0], ln->qy[0],
                                          pd->depth_compare, pd->depth_write != 0, &pass)) {
            live = depth_tested(rb, pd, ln, live, ~pass);
            tested = true;
            if (!live)
                return;
        }
    }
    /* Any other quads under the same conditions, or with smooth varyings:
     * their depths made and tested in one step, the lanes' depths
     * unwritten (nothing after the test reads them), their barycentrics
     * made only for smooth varyings. */
    if (!tested && ss->lanes_depth && lrz_dir == TR_LRZ_DIRECTION_UNKNOWN) {
        uint64_t fail;
        if (rb->ctx->kernels->depth_lanes(t, d->depth_min, d->depth_max, (float *)rb->gmem[p->depth_att],
                                          rb->gmem_pitch, rb->origin, ln, live, pd->depth_compare,
                                          pd->depth_write != 0, smooth, &fail)) {
            live = depth_tested(rb, pd, ln, live, fail);
            tested = true;
            if (!live)
                return;
        }
    }
    if (!tested)
        rb->ctx->kernels->lanes_setup(t, d->depth_min, d->depth_max, ln,
                                      need_z ? TR__LANES_Z : smooth ? TR__LANES_BARY : 0u);
    else
        ln->zq = false; /* (the lanes hold no depths, quantised or not) */

    /* LRZ, per fragment: strictly beyond the block's bound (exact: the same z
     * the depth test would see, quantised for D16 / D24 as the bounds are,
     * lrz_internal.h).  Before stencil, depth and shading. */
    if (lrz_dir != TR_LRZ_DIRECTION_UNKNOWN) {
        tr__lanes_quantise(ln, d->depth_qmax);
        uint64_t rej = rb->ctx->kernels->lanes_lrz_reject(ln, live, lrz_dir);
        if (rej) {
            st->fragments_lrz_rejected += tr__popcount64(rej);
            for (uint32_t j = 0; j < nq; j++) {
                uint32_t n = (uint32_t)tr__popcount64((rej >> (4 * j)) & 0xfu);
                if (n)
                    tr__lrz_count_rejected(rb->lrz_pass, rb->lrz_view, ln->qx[j] & ~(BLOCK - 1), ln->qy[j] & ~(BLOCK - 1), n);
            }
            live &= ~rej;
            if (!live)
                return;
        }
    }

    if (early && !tested) {
        live = depth_stencil(rb, t, d, live, ln);
        if (!live)
            return;
    }
    if (!pd->fragment_shader) {
        st->fragments_written += (uint64_t)tr__popcount64(live);
        return;
    }

    const bool uniform = ss->uniform && nq > 1;
    live = run_shader(rb, t, d, pd, fs, st, ln, NULL, live, ss, uniform, -1, NULL, NULL, 1);
    if (flags & TR_FS_WRITES_SAMPLE_MASK) {
        /* single-sampled: the fragment is its sample 0 */
        uint64_t killed = 0;
        for (uint64_t m = live; m; m &= m - 1) {
            const uint32_t i = (uint32_t)__builtin_ctzll(m);
            if (!(fs->sample_mask[uniform ? (i & 3u) : i] & 1u))
                killed |= 1ull << i;
        }
        st->fragments_discarded += (uint64_t)tr__popcount64(killed);
        live &= ~killed;
    }
    if (!early) {
        if (flags & TR_FS_WRITES_DEPTH) {
            for (uint32_t i = 0; i < fs->count; i++)
                ln->z[i] = tr__clamp_depth(fs->depth[i], d->depth_min, d->depth_max);
            ln->zq = false;
        }
        live = depth_stencil(rb, t, d, live, ln);
    }
    if (!live)
        return;
    st->fragments_written += (uint64_t)tr__popcount64(live);

    write_colors(rb, p, d, pd, fs, ln, live, uniform, ss);
}

/* tr_cmd_clear_attachments: writes the clear texels over rectangle r of the
 * bin (r is already cut to the bin and the cleared rectangle). */
static void clear_rect(tr__raster_bin *rb, const tr__draw *d, const int32_t r[4])
{
    const tr__raster_pass *p = rb->rp;
    for (uint32_t i = 0; i < p->att_count; i++) {
        if (!((d->clear_atts >> i) & 1))
            continue;
        const uint32_t cpp = p->att[i].cpp;
        for (uint32_t s = 0; s < p->samples; s++) /* every sample's plane */
            for (int32_t y = r[1]; y < r[3]; y++) {
                uint8_t *row = rb->gmem[i] + (size_t)s * p->plane_texels * cpp +
                               ((size_t)(y - rb->origin[1]) * rb->gmem_pitch + (size_t)(r[0] - rb->origin[0])) * cpp;
                for (int32_t x = r[0]; x < r[2]; x++, row += cpp)
                    memcpy(row, d->clear_texel[i], cpp);
            }
        rb->worker->stats.gmem_bytes_cleared += (uint64_t)(r[2] - r[0]) * (uint64_t)(r[3] - r[1]) * cpp * p->samples;
        if ((int)i == p->depth_att)
            tr__zblocks_invalidate(rb, NULL, 0);
    }
}

/* The depth test inside GMEM, per 8x8 block: which way a draw's block test
 * rejects (LESS: fragments beyond the block's farthest stored depth fail
 * LESS and LESS_OR_EQUAL; GREATER: nearer than its nearest fail GREATER and
 * GREATER_OR_EQUAL), or UNKNOWN when it may not be used: no depth test,
 * stencil (its depth-fail ops write), tests after the shader (the shader
 * would still run: statistics and side effects), another compare op, a
 * scaled bin view, or the scalar reference path (which stays per fragment,
 * so the equality tests check the block test). */
static tr_lrz_direction gmem_block_direction(const tr__raster_bin *rb, const tr__draw *d)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const bool early = tests_early(pd);
    if (!pd->depth_test || p->depth_att < 0 || (pd->stencil_test && p->stencil_att >= 0) || !early || rb->fdm ||
        rb->ctx->simd == TR_SIMD_SCALAR)
        return TR_LRZ_DIRECTION_UNKNOWN;
    switch (pd->depth_compare) {
    case TR_COMPARE_LESS: /* (DEFAULT is LESS by now: tr_pipeline_create) */
    case TR_COMPARE_LESS_OR_EQUAL:
        return TR_LRZ_DIRECTION_LESS;
    case TR_COMPARE_GREATER:
    case TR_COMPARE_GREATER_OR_EQUAL:
        return TR_LRZ_DIRECTION_GREATER;
    default:
        return TR_LRZ_DIRECTION_UNKNOWN;
    }
}

static inline size_t zblock_index(const tr__raster_bin *rb, int32_t x, int32_t y)
{
    return (size_t)((y >> 3) - (rb->origin[1] >> 3)) * rb->zstride + (size_t)((x >> 3) - (rb->origin[0] >> 3));
}

void tr__zblocks_invalidate(tr__raster_bin *rb, const tr__lanes *ln, uint64_t wrote)
{
    if (!rb->zblocks)
        return;
    if (!ln) {
        memset(rb->zvalid, 0, tr__zblock_rows(rb) * rb->zstride);
        return;
    }
    if (ln->block) {
        if (wrote)
            rb->zvalid[zblock_index(rb, ln->qx[0], ln->qy[0])] = 0;
        return;
    }
    /* (the bin's fields in locals: the stores could alias them) */
    uint8_t *zvalid = rb->zvalid;
    const int32_t ox = rb->origin[0] >> 3, oy = rb->origin[1] >> 3;
    const size_t stride = rb->zstride;
    for (uint64_t q = wrote; q; ) {
        const uint32_t j = (uint32_t)__builtin_ctzll(q) >> 2;
        zvalid[(size_t)((ln->qy[j] >> 3) - oy) * stride + (size_t)((ln->qx[j] >> 3) - ox)] = 0;
        q &= ~(0xfull << (4 * j));
    }
}

/* The depth range stored in the 8x8 GMEM block at (bx, by), which lies
 * inside the bin: kept until a depth write in the block.  NaN texels are
 * left out (every compare fails against them anyway); a block of NaNs
 * reads (+inf, -inf). */
static const tr__zblock *gmem_block(tr__raster_bin *rb, int32_t bx, int32_t by)
{
    const size_t i = zblock_index(rb, bx, by);
    tr__zblock *zb = &rb->zblocks[i];
    if (rb->zvalid[i])
        return zb;
    const float *z = (const float *)rb->gmem[rb->rp->depth_att] +
                     (size_t)(by - rb->origin[1]) * rb->gmem_pitch + (size_t)(bx - rb->origin[0]);
    /* minps (a < b ? a : b) and maxps (a > b ? a : b) with the texel
     * first: a NaN texel keeps the running value */
    simde__m128 lo0 = simde_mm_set1_ps(INFINITY), lo1 = lo0;
    simde__m128 hi0 = simde_mm_set1_ps(-INFINITY), hi1 = hi0;
    for (uint32_t y = 0; y < BLOCK; y++) {
        const float *row = z + (size_t)y * rb->gmem_pitch;
        const simde__m128 a = simde_mm_loadu_ps(row), b = simde_mm_loadu_ps(row + 4);
        lo0 = simde_mm_min_ps(a, lo0);
        lo1 = simde_mm_min_ps(b, lo1);
        hi0 = simde_mm_max_ps(a, hi0);
        hi1 = simde_mm_max_ps(b, hi1);
    }
    float lo[8], hi[8];
    simde_mm_storeu_ps(lo, lo0);
    simde_mm_storeu_ps(lo + 4, lo1);
    simde_mm_storeu_ps(hi, hi0);
    simde_mm_storeu_ps(hi + 4, hi1);
    zb->lo = lo[0], zb->hi = hi[0];
    for (uint32_t x = 1; x < 8; x++) {
        zb->lo = lo[x] < zb->lo ? lo[x] : zb->lo;
        zb->hi = hi[x] > zb->hi ? hi[x] : zb->hi;
    }
    rb->zvalid[i] = 1;
    return zb;
}

/* Whether every depth in [zmin, zmax] fails against every texel of the
 * block.  An unknown block's range is worked out only when the triangle
 * lies beyond its first texel (the farthest is at least as far): a scene
 * drawn back to front, whose every block was just written, reads one texel
 * a block, not 64. */
static inline __attribute__((always_inline)) bool gmem_block_rejects(tr__raster_bin *rb, int32_t bx, int32_t by,
                                                                     tr_lrz_direction dir, double zmin, double zmax)
{
    if (!rb->zvalid[zblock_index(rb, bx, by)]) {
        const float first = ((const float *)rb->gmem[rb->rp->depth_att])[
            (size_t)(by - rb->origin[1]) * rb->gmem_pitch + (size_t)(bx - rb->origin[0])];
        if (dir == TR_LRZ_DIRECTION_LESS ? zmin <= (double)first : zmax >= (double)first)
            return false;
    }
    const tr__zblock *zb = gmem_block(rb, bx, by);
    return dir == TR_LRZ_DIRECTION_LESS ? zmin > (double)zb->hi : zmax < (double)zb->lo;
}

/* The fewest covered pixels for which a block takes the GMEM block depth
 * test while the triangle's depth plane is not made yet: below, testing
 * the few quads one by one costs less than making the plane (the result
 * is the same).  Small triangles rarely make it; large ones make it at
 * their first larger block, and then every block takes the test. */
#ifndef GMEM_BLOCK_MIN
#define GMEM_BLOCK_MIN 32
#endif

/* The triangle's depth plane over region, made on first use (through a
 * local, so that after inlining the plane's address never escapes and it
 * stays in registers). */
static inline __attribute__((always_inline)) void plane_once(const tr__tri *t, const tr__draw *d,
                                                             const int32_t region[4], tr__lrz_plane_t *plane,
                                                             bool *have)
{
    if (*have)
        return;
    tr__lrz_plane_t made;
    tr__lrz_plane(t, d, region, &made);
    *plane = made;
    *have = true;
}

/* Is the whole triangle beyond the bin's farthest bound (rb->lrz_far,
 * direction lrz)?  Then every block or texel test would reject it, so none
 * need read its bound.  A farthest bound that passes the viewport's whole
 * depth range rejects nothing: then the plane is left to the blocks that
 * need it; else it is made (plane_once).  Single-sampled, the plane's range
 * over r's blocks is taken at its corner blocks, less a margin far above
 * the rounding between blocks, clamped as the block test clamps; with
 * `samples`, over the area of r's blocks' pixels (where samples lie),
 * widened far beyond the rounding that separates it from a texel's. */
static inline __attribute__((always_inline)) bool beyond_far_bound(const tr__raster_bin *rb, const tr__tri *t,
                                                                   const tr__draw *d, tr_lrz_direction lrz,
                                                                   const int32_t r[4], const int32_t region[4],
                                                                   bool samples, tr__lrz_plane_t *plane, bool *have)
{
    if (!(lrz == TR_LRZ_DIRECTION_LESS ? rb->lrz_far < d->depth_max
                                       : lrz == TR_LRZ_DIRECTION_GREATER && rb->lrz_far > d->depth_min))
        return false;
    plane_once(t, d, region, plane, have);
    double lo, hi;
    if (!samples) {
        tr__lrz_plane_region_range(plane, r, &lo, &hi);
        return plane->finite && (lrz == TR_LRZ_DIRECTION_LESS ? lo > (double)rb->lrz_far : hi < (double)rb->lrz_far);
    }
    const int32_t x0 = r[0] & ~(BLOCK - 1), y0 = r[1] & ~(BLOCK - 1);
    const int32_t x1 = (r[2] + BLOCK - 1) & ~(BLOCK - 1), y1 = (r[3] + BLOCK - 1) & ~(BLOCK - 1);
    tr__lrz_plane_area_range(plane, x0, y0, x1 - x0, y1 - y0, &lo, &hi);
    const double slack = 0x1p-40 * (fabs(plane->a) + fabs(plane->bx) * (double)x1 + fabs(plane->by) * (double)y1 + 1.0);
    return plane->finite && (lrz == TR_LRZ_DIRECTION_LESS ? lo - slack > (double)rb->lrz_far
                                                          : hi + slack < (double)rb->lrz_far);
}

/* A block's quads (tr__lanes order): the top-left pixel's offsets. */
static const int32_t quad_dx[16] = {0, 2, 4, 6, 0, 2, 4, 6, 0, 2, 4, 6, 0, 2, 4, 6};
static const int32_t quad_dy[16] = {0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6};

/* ---- multisampled passes (multisample.h) ------------------------------------------------------------ */

/* Room for a triangle's set-up struct and its depth plane (attr 0-2; 8
 * floats kept): what coverage and tr__lanes_setup read. */
#define MOVED_TRI_BYTES TR_ALIGN(sizeof(tr__tri) + 8 * sizeof(float), 16)

/* Sample s's y in the pixel, in sixteenths from the top of its image row:
 * the standard position, which GL's lower-left origin gives from the
 * bottom (TR_PASS_ORIGIN_LOWER_LEFT). */
static inline uint32_t sample_y16(const tr__draw *d, uint32_t log2n, uint32_t s)
{
    const uint32_t y = tr__sample_pos16[log2n][s][1];
    return d->flip_y ? 16u - y : y;
}

/* rb with every attachment's GMEM at sample s's plane: out, a copy of rb
 * made once (nothing below writes a raster bin's fields), gets the
 * planes' addresses. */
static inline void sample_planes(const tr__raster_bin *rb, uint32_t s, tr__raster_bin *out)
{
    for (uint32_t i = 0; i < rb->rp->att_count; i++)
        out->gmem[i] = rb->gmem[i] + (size_t)s * rb->rp->plane_texels * rb->rp->att[i].cpp;
}

/* The window (walk_internal.h) of a box r (cut to the bin) that lies in
 * 2 x 2 blocks, its pixels those of r inside `cut` (in tr__lanes' quad
 * order: `quads`); false when r reaches further. */
static inline bool window_of(const int32_t r[4], const int32_t cut[4], bool quads, tr__window *w)
{
    w->x = r[0] & ~(BLOCK - 1);
    w->y = r[1] & ~(BLOCK - 1);
    if (r[2] - w->x > 2 * BLOCK || r[3] - w->y > 2 * BLOCK)
        return false;
    const int32_t x0 = TR_MAX(r[0], cut[0]), x1 = TR_MIN(r[2], cut[2]);
    const int32_t y0 = TR_MAX(r[1], cut[1]), y1 = TR_MIN(r[3], cut[3]);
    w->l[0] = (uint32_t)TR_MIN(TR_MAX(x0 - w->x, 0), 2 * BLOCK);
    w->l[1] = (uint32_t)TR_MIN(TR_MAX(y0 - w->y, 0), 2 * BLOCK);
    w->l[2] = (uint32_t)TR_MAX(TR_MIN(x1 - w->x, 2 * BLOCK), (int32_t)w->l[0]);
    w->l[3] = (uint32_t)TR_MAX(TR_MIN(y1 - w->y, 2 * BLOCK), (int32_t)w->l[1]);
    w->quads = quads;
    return true;
}

/* The blocks of window w that hold pixels of it (bit k: block k), and
 * those of them whose columns lie inside the bin (tr__window_tests.inside). */
static inline uint32_t window_blocks(const tr__window *w)
{
    const uint32_t cols = (w->l[0] < BLOCK ? 1u : 0u) | (w->l[2] > BLOCK ? 2u : 0u);
    return (w->l[0] < w->l[2] && w->l[1] < w->l[3])
               ? (w->l[1] < BLOCK ? cols : 0u) | (w->l[3] > BLOCK ? cols << 2 : 0u)
               : 0u;
}

static inline uint32_t window_inside(const tr__raster_bin *rb, const tr__window *w)
{
    return (w->x >= rb->rect[0] && w->x + BLOCK <= rb->rect[2] ? 5u : 0u) |
           (w->x + BLOCK >= rb->rect[0] && w->x + 2 * BLOCK <= rb->rect[2] ? 10u : 0u);
}

/* The pixels of each LRZ texel of a block, texels row by row, as
 * row-major block masks (the window's; ms_lrz_rejects' texel_px in
 * tr__lanes order): [log2(samples)][texel]. */
static const uint64_t texel_rows[4][8] = {
    {~0ull},
    {0x00000000ffffffffull, 0xffffffff00000000ull},                                                   /* 8x4 */
    {0x000000000f0f0f0full, 0x00000000f0f0f0f0ull, 0x0f0f0f0f00000000ull, 0xf0f0f0f000000000ull},   /* 4x4 */
    {0x0000000000000f0full, 0x000000000000f0f0ull, 0x000000000f0f0000ull, 0x00000000f0f00000ull,
     0x00000f0f00000000ull, 0x0000f0f000000000ull, 0x0f0f000000000000ull, 0xf0f0000000000000ull},   /* 4x2 */
};

/* Alpha to coverage: a lane with colour output 0's alpha a keeps samples
 * 0 .. k-1, k = floor(a * n + 1/2) with a clamped to [0, 1] (NaN: 0); no
 * dithering.  Returns, per sample s, the lanes that keep it in cov[s]. */
static void alpha_coverage(const tr_fs_block *fs, uint32_t n, uint64_t lanes, bool uniform, uint64_t cov[])
{
    for (uint32_t s = 0; s < n; s++)
        cov[s] = 0;
    for (uint64_t m = lanes; m; m &= m - 1) {
        const uint32_t i = (uint32_t)__builtin_ctzll(m);
        const float a = fs->color[0][3][uniform ? (i & 3u) : i];
        const float c = a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
        const uint32_t k = (uint32_t)floorf(c * (float)n + 0.5f);
        for (uint32_t s = 0; s < k; s++)
            cov[s] |= 1ull << i;
    }
}

/* What the shader's outputs do to coverage: alpha to coverage (cov[s]:
 * the lanes that keep sample s; every lane without it), ANDed with the
 * shader's sample mask (TR_FS_WRITES_SAMPLE_MASK in fs_flags), then alpha
 * to one. */
static void shader_coverage(tr_fs_block *fs, const tr_multisample_state *ms, uint32_t fs_flags, uint32_t n,
                            uint64_t live, bool uniform, uint64_t cov[])
{
    if (ms->alpha_to_coverage)
        alpha_coverage(fs, n, live, uniform, cov);
    else
        for (uint32_t s = 0; s < n; s++)
            cov[s] = ~0ull;
    if (fs_flags & TR_FS_WRITES_SAMPLE_MASK)
        for (uint64_t m = live; m; m &= m - 1) {
            const uint32_t i = (uint32_t)__builtin_ctzll(m);
            const uint32_t k = fs->sample_mask[uniform ? (i & 3u) : i];
            for (uint32_t s = 0; s < n; s++)
                if (!((k >> s) & 1u))
                    cov[s] &= ~(1ull << i);
        }
    if (ms->alpha_to_one)
        for (uint32_t a = 0; a < TR_MAX_COLOR_ATTACHMENTS; a++)
            for (uint32_t i = 0; i < fs->count; i++)
                fs->color[a][3][i] = 1.0f;
}

/* The tests after the shader, in a sample's planes (rbs): lns holds the
 * sample's depths, which a shader that writes depth replaces for every
 * sample of its pixel. */
static uint64_t sample_late_tests(tr__raster_bin *rbs, const tr__tri *t, const tr__draw *d, const shade_state *ss,
                                  const tr_fs_block *fs, tr__lanes *lns, uint64_t live)
{
    if (ss->shader_depth) {
        for (uint32_t i = 0; i < fs->count; i++)
            lns->z[i] = tr__clamp_depth(fs->depth[i], d->depth_min, d->depth_max);
        lns->zq = false;
    }
    return depth_stencil(rbs, t, d, live, lns);
}

/* Shading per sample (sample shading, TR_FS_SAMPLE_RATE): each sample s
 * with lanes in m[s] is tested, shaded at its position (the varyings
 * interpolated there: moved[s]'s barycentrics at the pixel centres), and
 * written, on its own; lns holds the block's quads. */
static void shade_samples(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, const tr__tri *const moved[],
                          uint32_t n, const uint64_t m[], bool early, tr__lanes *lns, shade_state *ss)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const tr_multisample_state *ms = &pd->multisample;
    tr_pass_stats *st = &rb->worker->stats;
    tr_fs_block *fs = rb->worker->fs;
    const uint32_t log2n = (uint32_t)__builtin_ctz(n);
    tr__raster_bin rbs = *rb; /* (sample_planes) */
    for (uint32_t s = 0; s < n; s++) {
        uint64_t live = m[s];
        if (!live)
            continue;
        sample_planes(rb, s, &rbs);
        rb->ctx->kernels->lanes_setup(moved[s], d->depth_min, d->depth_max, lns, TR__LANES_Z);
        if (early) {
            live = depth_stencil(&rbs, t, d, live, lns);
            if (!live)
                continue;
        }
        const float off[2] = {(float)tr__sample_pos16[log2n][s][0] / 16.0f - 0.5f,
                              (float)sample_y16(d, log2n, s) / 16.0f - 0.5f};
        live = run_shader(rb, t, d, pd, fs, st, lns, NULL, live, ss, false, (int32_t)s, off, NULL, 1);
        uint64_t cov[TR_MAX_SAMPLES];
        shader_coverage(fs, ms, pd->fs_flags, n, live, false, cov);
        live &= cov[s];
        if (!early)
            live = sample_late_tests(&rbs, t, d, ss, fs, lns, live);
        if (!live)
            continue;
        st->fragments_written += (uint64_t)tr__popcount64(live);
        write_colors(&rbs, p, d, pd, fs, lns, live, false, ss);
    }
}

/* Centroid interpolation (pipeline.h, centroid_mask) in a block shaded
 * once per pixel, lanes ln, cover[s] the lanes whose pixel has sample s
 * covered before any test: lc gets each lane's barycentrics at its
 * centroid.  A lane with every sample, or none (a helper), keeps ln's (the
 * centre); another takes those of its lowest covered sample s, which are
 * moved[s]'s at the centre (moved[s] is the triangle moved by minus the
 * sample's offset), made by the same lane set-up.  Returns false, lc
 * unused, when every lane keeps the centre. */
static bool centroid_lanes(const tr__tri *const moved[], uint32_t n, const uint64_t cover[], const tr__lanes *ln,
                           tr__lanes *lc, const tr__kernels *k)
{
    uint64_t full = ~0ull, any = 0;
    for (uint32_t s = 0; s < n; s++) {
        full &= cover[s];
        any |= cover[s];
    }
    uint64_t partial = any & ~full;
    if (!partial)
        return false;
    const uint32_t count = 4 * ln->nq;
    float l1[TR_FS_LANES], l2[TR_FS_LANES];
    memcpy(l1, ln->l1, count * sizeof(float));
    memcpy(l2, ln->l2, count * sizeof(float));
    lc->nq = ln->nq;
    memcpy(lc->qx, ln->qx, ln->nq * sizeof ln->qx[0]);
    memcpy(lc->qy, ln->qy, ln->nq * sizeof ln->qy[0]);
    for (uint32_t s = 0; s < n && partial; s++) {
        const uint64_t take = partial & cover[s];
        if (!take)
            continue;
        k->lanes_setup(moved[s], 0.0f, 0.0f, lc, TR__LANES_BARY);
        for (uint64_t m = take; m; m &= m - 1) {
            const uint32_t i = (uint32_t)__builtin_ctzll(m);
            l1[i] = lc->l1[i];
            l2[i] = lc->l2[i];
        }
        partial &= ~take;
    }
    memcpy(lc->l1, l1, count * sizeof(float));
    memcpy(lc->l2, l2, count * sizeof(float));
    return true;
}

/* LRZ in a multisampled pass, for block (bx, by) whose samples m[] the
 * triangle covers: the pixels of the block's LRZ texels (an 8x8 block of
 * the supersampled footprint each, tr__lrz_texel_shape) where every depth
 * the triangle can give a sample lies beyond the texel's bound.  Counts
 * the texels tested and rejected and the samples rejected. */
static uint64_t ms_lrz_rejects(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, tr_lrz_direction dir,
                               bool reject_all, int32_t bx, int32_t by, const uint64_t m[], uint32_t n,
                               const int32_t region[4], tr__lrz_plane_t *plane, bool *have_plane)
{
    tr__lrz_buffer *b = rb->lrz_pass->buf;
    const int32_t tw = 1 << b->tw_log2, th = 1 << b->th_log2;
    const bool less = dir == TR_LRZ_DIRECTION_LESS;
    tr_pass_stats *st = &rb->worker->stats;
    uint64_t any = 0, rej = 0;
    for (uint32_t s = 0; s < n; s++)
        any |= m[s];
    /* the lanes (tr__lanes order) of texel k of a block, texels row by
     * row: the same for every block */
    static const uint64_t texel_px[4][8] = {
        {~0ull},
        {0x00000000ffffffffull, 0xffffffff00000000ull}, /* 2x: 8x4 pixels */
        {0x0000000000ff00ffull, 0x00000000ff00ff00ull, 0x00ff00ff00000000ull, 0xff00ff0000000000ull}, /* 4x: 4x4 */
        {0x00000000000000ffull, 0x000000000000ff00ull, 0x0000000000ff0000ull, 0x00000000ff000000ull,
         0x000000ff00000000ull, 0x0000ff0000000000ull, 0x00ff000000000000ull, 0xff00000000000000ull}, /* 8x: 4x2 */
    };
    const uint64_t *tpx = texel_px[__builtin_ctz(n)];
    uint32_t k = 0;
    for (int32_t y = by; y < by + BLOCK; y += th)
        for (int32_t x = bx; x < bx + BLOCK; x += tw, k++) {
            const uint64_t px = tpx[k];
            if (!(any & px))
                continue;
            uint32_t tx, ty;
            tr__lrz_texel(b, x, y, &tx, &ty);
            st->lrz_blocks_tested++;
            if (!reject_all) {
                const float bound = tr__lrz_bound_at(b, rb->lrz_view, tx, ty);
                /* depths are clamped to [depth_min, depth_max]: when that
                 * whole range passes, so does the texel */
                if (less ? d->depth_max <= bound : d->depth_min >= bound)
                    continue;
                plane_once(t, d, region, plane, have_plane);
                double zmin, zmax;
                tr__lrz_plane_area_range(plane, x, y, tw, th, &zmin, &zmax);
                if (!(less ? zmin > (double)bound : zmax < (double)bound))
                    continue;
            }
            uint32_t c = 0;
            for (uint32_t s = 0; s < n; s++)
                c += (uint32_t)tr__popcount64(m[s] & px);
            rej |= px;
            st->lrz_blocks_rejected++;
            st->fragments_lrz_rejected += c;
            b->rejected[tr__lrz_texel_index(b, rb->lrz_view, tx, ty)] += c;
        }
    return rej;
}

/* A triangle of a multisampled pass.  Sample s of a pixel is covered when
 * the pixel's centre is covered by the triangle moved by minus the
 * sample's offset from the centre: a whole number of subpixels (the
 * standard positions are sixteenths), so the moved copy has exact edge
 * functions, the same tie rule, and at the pixel centres the block
 * coverage and the depth plane the sample sees.  The fragment shader runs
 * once per pixel with a covered sample, at the pixel centre (centroid
 * varyings of partly covered pixels at a covered sample: centroid_lanes);
 * depth, stencil and colour are tested and written per covered sample,
 * each in its sample's GMEM plane.  r: the triangle's box in the bin and
 * scissor. */
/* The early depth and stencil tests of a multisampled block, sample by
 * sample in its plane (rbs: a copy of rb, sample_planes), of the lanes of
 * m[] (lns: the block's quads), which keep the survivors; returns their
 * union.  A sample whose depths only the depth test reads (block_depth)
 * takes one step: a whole block row by row (`whole`: lns is the whole
 * block at (bx, by)), else its quads with a live lane. */
static uint64_t samples_early_tests(tr__raster_bin *rb, tr__raster_bin *rbs, const tr__tri *t,
                                    const tr__tri *const moved[], const tr__draw *d, uint32_t n, bool block_depth,
                                    bool whole, int32_t bx, int32_t by, tr__lanes *lns, uint64_t m[])
{
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const tr__kernels *K = rb->ctx->kernels;
    const int depth_att = rb->rp->depth_att;
    uint64_t any = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (!m[s])
            continue;
        sample_planes(rb, s, rbs);
        uint64_t pass, fail;
        if (block_depth && whole && m[s] == ~0ull &&
            K->depth_block(moved[s], d->depth_min, d->depth_max,
                           (float *)rbs->gmem[depth_att] + (size_t)(by - rb->origin[1]) * rb->gmem_pitch +
                               (size_t)(bx - rb->origin[0]),
                           rb->gmem_pitch, bx, by, pd->depth_compare, pd->depth_write != 0, &pass))
            m[s] = depth_tested(rbs, pd, lns, m[s], ~pass);
        else if (block_depth && K->depth_lanes(moved[s], d->depth_min, d->depth_max, (float *)rbs->gmem[depth_att],
                                               rbs->gmem_pitch, rbs->origin, lns, m[s], pd->depth_compare,
                                               pd->depth_write != 0, false, &fail))
            m[s] = depth_tested(rbs, pd, lns, m[s], fail);
        else {
            K->lanes_setup(moved[s], d->depth_min, d->depth_max, lns, TR__LANES_Z);
            m[s] = depth_stencil(rbs, t, d, m[s], lns);
        }
        any |= m[s];
    }
    return any;
}

/* The window path of a multisampled pass (shade_state.window_ms): a
 * triangle whose box rs (cut to the bin and scissor: a multisampled box
 * holds every pixel whose area meets it) lies in a window of 2 x 2
 * blocks, each kept sample's coverage and early depth test at once
 * (window_raster of the triangle moved to the sample, in the sample's
 * planes), the shader once, its colour to each sample's planes.  LRZ's
 * per-texel test of ms_lrz_rejects is made for the window's texels first
 * (the same plane and bounds) and its rejected pixels dropped in every
 * sample; the statistics are the block path's.  false, nothing done,
 * where a kernel declines. */
static bool raster_window_ms(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, const int32_t rs[4],
                             const tr__tri *const moved[], uint32_t n, tr_lrz_direction lrz, bool reject_all,
                             const int32_t region[4], tr__lrz_plane_t *plane, bool *have_plane, shade_state *ss)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const tr__kernels *K = rb->ctx->kernels;
    tr__window w;
    if (!window_of(rs, rs, false, &w) || !tr__window_edges_ok(t))
        return false;
    for (uint32_t s = 0; s < n; s++)
        if (!tr__window_offsets_ok(moved[s], w.x, w.y))
            return false;
    const uint32_t blocks = window_blocks(&w);
    /* LRZ, per texel (tw x th pixels) of the window's blocks: its pixels
     * rejected in every sample where ms_lrz_rejects would reject it */
    const tr__lrz_buffer *lb = lrz != TR_LRZ_DIRECTION_UNKNOWN ? rb->lrz_pass->buf : NULL;
    const int32_t tw = lb ? 1 << lb->tw_log2 : BLOCK, th = lb ? 1 << lb->th_log2 : BLOCK;
    const uint64_t *tpx = texel_rows[__builtin_ctz(n)];
    uint64_t rej_m[4] = {0, 0, 0, 0};
    /* (only texels that meet the window's pixels: the others have no
     * coverage, and may lie past the buffer's edge) */
    const int32_t px0 = w.x + (int32_t)w.l[0], px1 = w.x + (int32_t)w.l[2];
    const int32_t py0 = w.y + (int32_t)w.l[1], py1 = w.y + (int32_t)w.l[3];
    if (lb)
        for (uint32_t k = 0; k < 4; k++) {
            if (!((blocks >> k) & 1))
                continue;
            const int32_t bx = tr__window_bx(&w, k), by = tr__window_by(&w, k);
            uint32_t i = 0;
            for (int32_t y = by; y < by + BLOCK; y += th)
                for (int32_t x = bx; x < bx + BLOCK; x += tw, i++) {
                    if (x + tw <= px0 || x >= px1 || y + th <= py0 || y >= py1)
                        continue;
                    bool rej = reject_all;
                    if (!rej) {
                        uint32_t tx, ty;
                        tr__lrz_texel(lb, x, y, &tx, &ty);
                        const float bound = tr__lrz_bound_at(lb, rb->lrz_view, tx, ty);
                        if (lrz == TR_LRZ_DIRECTION_LESS ? d->depth_max <= bound : d->depth_min >= bound)
                            continue;
                        plane_once(t, d, region, plane, have_plane);
                        double zmin, zmax;
                        tr__lrz_plane_area_range(plane, x, y, tw, th, &zmin, &zmax);
                        rej = lrz == TR_LRZ_DIRECTION_LESS ? zmin > (double)bound : zmax < (double)bound;
                    }
                    if (rej)
                        rej_m[k] |= tpx[i];
                }
        }
    tr__window_tests wt = {.pitch = rb->gmem_pitch,
                           .origin = {rb->origin[0], rb->origin[1]},
                           .op = pd->depth_compare,
                           .write = pd->depth_write != 0,
                           .reject_m = (rej_m[0] | rej_m[1] | rej_m[2] | rej_m[3]) ? rej_m : NULL,
                           .lrz_dir = lrz};
    wt.inside = window_inside(rb, &w);
    /* each kept sample's coverage and tests, in its planes */
    const uint32_t keep = pd->multisample.sample_mask;
    uint64_t cov[TR_MAX_SAMPLES][4], pass[TR_MAX_SAMPLES][4];
    tr__window_counts cnt[TR_MAX_SAMPLES];
    for (uint32_t s = 0; s < n; s++) {
        if (!((keep >> s) & 1)) {
            memset(cov[s], 0, sizeof cov[s]);
            memset(pass[s], 0, sizeof pass[s]);
            memset(&cnt[s], 0, sizeof cnt[s]);
            continue;
        }
        wt.dbuf = ss->depth ? (float *)(void *)(rb->gmem[p->depth_att] + (size_t)s * p->plane_texels * 4) : NULL;
        tr__window ws = w;
        /* (the samples share the edges' a and b, checked above: none declines) */
        K->window_raster(moved[s], d->depth_min, d->depth_max, &wt, &ws, &cnt[s], cov[s]);
        memcpy(pass[s], ws.m, sizeof pass[s]);
    }
    /* the statistics of the block path (raster_triangle_ms, ms_lrz_rejects, samples_early_tests) */
    tr_pass_stats *st = &rb->worker->stats;
    uint64_t live_n = 0;
    for (uint32_t k = 0; k < 4; k++) {
        uint64_t any = 0, alive = 0, covered = 0, passed = 0, tested = 0;
        for (uint32_t s = 0; s < n; s++) {
            any |= cov[s][k];
            alive |= pass[s][k];
            covered += cnt[s].covered[k];
            passed += cnt[s].passed[k];
            tested += rej_m[k] ? (uint64_t)tr__popcount64(cov[s][k] & ~rej_m[k]) : cnt[s].covered[k];
        }
        if (!any)
            continue;
        st->fragments_rasterized += covered;
        if (lb) {
            const int32_t bx = tr__window_bx(&w, k), by = tr__window_by(&w, k);
            uint32_t i = 0;
            for (int32_t y = by; y < by + BLOCK; y += th)
                for (int32_t x = bx; x < bx + BLOCK; x += tw, i++) {
                    const uint64_t px = tpx[i];
                    if (!(any & px))
                        continue;
                    st->lrz_blocks_tested++;
                    if (!(rej_m[k] & px))
                        continue;
                    uint32_t c = 0;
                    for (uint32_t s = 0; s < n; s++)
                        c += (uint32_t)tr__popcount64(cov[s][k] & px);
                    uint32_t tx, ty;
                    tr__lrz_texel(lb, x, y, &tx, &ty);
                    st->lrz_blocks_rejected++;
                    st->fragments_lrz_rejected += c;
                    lb->rejected[tr__lrz_texel_index(lb, rb->lrz_view, tx, ty)] += c;
                }
        }
        if (wt.dbuf)
            st->fragments_depth_rejected += tested - passed;
        live_n += (uint64_t)tr__popcount64(alive);
        st->fragments_written += passed;
    }
    if (!live_n)
        return true;
    st->fragments_shaded += live_n;
    tr_fs_block *fs = shade_uniform_quad(rb, t, d);
    for (uint32_t a = 0; a < p->color_count; a++) {
        const int ai = p->color_att[a];
        if (ai < 0 || !(pd->blend[a].write_mask & 0xfu))
            continue;
        const uint32_t texel = tr__rgba8_texel(fs, a);
        for (uint32_t s = 0; s < n; s++) {
            tr__window ws = w;
            memcpy(ws.m, pass[s], sizeof ws.m);
            if (ws.m[0] | ws.m[1] | ws.m[2] | ws.m[3])
                K->window_fill(rb->gmem[ai] + (size_t)s * p->plane_texels * 4, rb->gmem_pitch, rb->origin, wt.inside,
                               &ws, texel);
        }
    }
    return true;
}

/* Triangle t moved to each of a pass's n samples (its edges and origin
 * offset so that the sample's position is the pixel centre's), into
 * bytes[s]; moved[s] points there. */
static void move_to_samples(const tr__tri *t, const tr__draw *d, uint32_t n,
                            unsigned char bytes[][MOVED_TRI_BYTES], const tr__tri *moved[])
{
    const uint32_t log2n = (uint32_t)__builtin_ctz(n);
    for (uint32_t s = 0; s < n; s++) {
        tr__tri *m = (tr__tri *)(void *)bytes[s];
        memcpy(m, t, MOVED_TRI_BYTES);
        const int64_t dx = (int64_t)tr__sample_pos16[log2n][s][0] * (TR_SUBPIXEL_ONE / 16) - TR_SUBPIXEL_HALF;
        const int64_t dy = (int64_t)sample_y16(d, log2n, s) * (TR_SUBPIXEL_ONE / 16) - TR_SUBPIXEL_HALF;
        for (int k = 0; k < 3; k++)
            m->edge_c[k] += m->edge_a[k] * dx + m->edge_b[k] * dy;
        m->x0 -= (int32_t)dx;
        m->y0 -= (int32_t)dy;
        moved[s] = m;
    }
}

/* The block (bx, by)'s area against each edge of t at its corners: every
 * sample lies strictly inside it, so an edge positive at all four corners
 * has every sample inside (whatever the tie rule), and one negative at all
 * four has none.  Returns true when some edge has none; else *inside:
 * every edge has every sample. */
static inline bool block_area_outside(const tr__tri *t, int32_t bx, int32_t by, bool *inside)
{
    const int64_t x0 = (int64_t)bx * TR_SUBPIXEL_ONE, x1 = x0 + BLOCK * TR_SUBPIXEL_ONE;
    const int64_t y0 = (int64_t)by * TR_SUBPIXEL_ONE, y1 = y0 + BLOCK * TR_SUBPIXEL_ONE;
    bool in = true;
    for (int k = 0; k < 3; k++) {
        const int64_t a = t->edge_a[k], b = t->edge_b[k], c = t->edge_c[k];
        const int64_t hi = c + a * (a > 0 ? x1 : x0) + b * (b > 0 ? y1 : y0);
        const int64_t lo = c + a * (a > 0 ? x0 : x1) + b * (b > 0 ? y0 : y1);
        if (hi < 0)
            return true;
        in = in && lo > 0;
    }
    *inside = in;
    return false;
}

/* A whole block (bx, by) of a multisampled triangle beyond the bin's
 * farthest bound: what ms_lrz_rejects would find, without the masks, for
 * its `kept` samples a pixel, counted. */
static void lrz_block_rejected_ms(tr__raster_bin *rb, int32_t bx, int32_t by, uint32_t kept)
{
    tr_pass_stats *st = &rb->worker->stats;
    const tr__lrz_pass *lz = rb->lrz_pass;
    const uint32_t tw = 1u << lz->buf->tw_log2, th = 1u << lz->buf->th_log2;
    const uint32_t texels = (BLOCK / tw) * (BLOCK / th), per = tw * th * kept;
    st->fragments_rasterized += (uint64_t)BLOCK * BLOCK * kept;
    st->fragments_lrz_rejected += (uint64_t)BLOCK * BLOCK * kept;
    st->lrz_blocks_tested += texels;
    st->lrz_blocks_rejected += texels;
    for (int32_t y = by; y < by + BLOCK; y += (int32_t)th)
        for (int32_t x = bx; x < bx + BLOCK; x += (int32_t)tw) {
            uint32_t tx, ty;
            tr__lrz_texel(lz->buf, x, y, &tx, &ty);
            lz->buf->rejected[tr__lrz_texel_index(lz->buf, rb->lrz_view, tx, ty)] += per;
        }
}

/* Block (bx, by)'s quads with a covered sample (`any`, the union of the n
 * masks m[]) into ln and lns, packed (the whole block in order when every
 * quad has one); the masks m[] follow them.  Returns their union. */
static inline uint64_t pack_block_quads(int32_t bx, int32_t by, uint32_t n, uint64_t any, uint64_t m[],
                                        tr__lanes *ln, tr__lanes *lns)
{
    uint64_t quads = any | (any >> 1) | (any >> 2) | (any >> 3);
    quads &= 0x1111111111111111ull;
    const uint32_t nq = (uint32_t)tr__popcount64(quads);
    ln->nq = lns->nq = nq;
    ln->block = lns->block = nq == 16;
    if (nq == 16) {
        for (uint32_t j = 0; j < 16; j++) {
            ln->qx[j] = lns->qx[j] = bx + quad_dx[j];
            ln->qy[j] = lns->qy[j] = by + quad_dy[j];
        }
        return any;
    }
    uint64_t packed[TR_MAX_SAMPLES] = {0};
    uint32_t j = 0;
    for (uint64_t q = quads; q; q &= q - 1, j++) {
        const uint32_t k = (uint32_t)__builtin_ctzll(q) >> 2;
        ln->qx[j] = lns->qx[j] = bx + quad_dx[k];
        ln->qy[j] = lns->qy[j] = by + quad_dy[k];
        for (uint32_t s = 0; s < n; s++)
            packed[s] |= ((m[s] >> (4 * k)) & 0xfu) << (4 * j);
    }
    any = 0;
    for (uint32_t s = 0; s < n; s++) {
        m[s] = packed[s];
        any |= m[s];
    }
    return any;
}

/* (kept out of tr__raster_triangle, whose single-sample path it would slow) */
static __attribute__((noinline)) void raster_triangle_ms(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d,
                                                         const int32_t r[4])
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const tr_multisample_state *ms = &pd->multisample;
    const uint32_t n = p->samples;
    tr_pass_stats *st = &rb->worker->stats;
    tr_fs_block *fs = rb->worker->fs;
    const tr__kernels *K = rb->ctx->kernels;
    _Alignas(16) unsigned char moved_bytes[TR_MAX_SAMPLES][MOVED_TRI_BYTES];
    const tr__tri *moved[TR_MAX_SAMPLES];
    move_to_samples(t, d, n, moved_bytes, moved);
    shade_state ss;
    shade_begin(rb, d, &ss);
    /* alpha to coverage reads the shader's output: tests after it unless
     * the shader forces them early */
    const bool early = ss.early && (!ms->alpha_to_coverage || (pd->fs_flags & TR_FS_EARLY_TESTS));
    /* Sample shading: every covered sample shaded on its own (the most
     * Vulkan allows for any fraction above one sample's worth) */
    const bool per_sample = pd->fragment_shader && ((ms->sample_shading && ms->min_sample_shading * (float)n > 1.0f) ||
                                                    (pd->fs_flags & TR_FS_SAMPLE_RATE));
    if (per_sample)
        ss.uniform = false; /* sample_index may differ where the inputs do not */
    /* the AVX2 block depth test for whole blocks of a sample (the shading
     * lanes are the pixel centres', so smooth varyings do not matter) */
    const bool block_depth = K->depth_block && early && ss.depth && !(pd->stencil_test && p->stencil_att >= 0) &&
                             !d->depth_qmax;
    const bool need_z = ss.frag_coord || ss.shader_depth;
    /* LRZ, per texel of each block (ms_lrz_rejects); the depth plane made
     * on first use, over the triangle's blocks and half a pixel around */
    const tr_lrz_direction lrz = rb->lrz && tr__lrz_tests(rb->lrz_pass, d) ? (tr_lrz_direction)d->lrz_test_dir
                                                                           : TR_LRZ_DIRECTION_UNKNOWN;
    tr__lrz_plane_t plane = {0};
    bool have_plane = false;
    const int32_t region[4] = {(r[0] & ~(BLOCK - 1)) - 1, (r[1] & ~(BLOCK - 1)) - 1, r[2] + BLOCK + 1,
                               r[3] + BLOCK + 1};
    /* The whole triangle beyond the bin's farthest bound (worth its plane
     * for boxes of a few blocks and more). */
    const bool few_blocks = (int64_t)(r[2] - r[0]) * (r[3] - r[1]) < 4 * BLOCK * BLOCK;
    const bool reject_all = !few_blocks && beyond_far_bound(rb, t, d, lrz, r, region, true, &plane, &have_plane);
    if (ss.window_ms && !per_sample &&
        raster_window_ms(rb, t, d, r, moved, n, lrz, reject_all, region, &plane, &have_plane, &ss))
        return;
    /* every sample the sample mask keeps */
    const uint32_t kept = (uint32_t)tr__popcount64((ms->sample_mask ? ms->sample_mask : ~0u) & ((1u << n) - 1u));
    tr__lanes ln, lns; /* the quads of a block (set per block): shading's and a sample's */
    tr__lanes lcs;     /* shading's at the centroids (centroid_lanes) */
    /* centroid varyings that are not flat: only they read lcs */
    const bool centroid = (pd->centroid_mask & ~pd->flat_mask) != 0;
    memset(ln.lrz_test, 0, sizeof ln.lrz_test);
    memset(lns.lrz_test, 0, sizeof lns.lrz_test);
    tr__raster_bin rbs = *rb; /* (sample_planes) */
    uint64_t m[TR_MAX_SAMPLES];
    for (int32_t by = r[1] & ~(BLOCK - 1); by < r[3]; by += BLOCK)
        for (int32_t bx = r[0] & ~(BLOCK - 1); bx < r[2]; bx += BLOCK) {
            bool inside;
            if (block_area_outside(t, bx, by, &inside))
                continue;
            const bool whole = inside && bx >= r[0] && by >= r[1] && bx + BLOCK <= r[2] && by + BLOCK <= r[3];
            if (reject_all && whole) {
                lrz_block_rejected_ms(rb, bx, by, kept);
                continue;
            }
            uint64_t any = 0, covered = 0;
            if (whole)
                for (uint32_t s = 0; s < n; s++)
                    m[s] = (ms->sample_mask >> s) & 1u ? ~0ull : 0;
            else
                K->walk->samples_mask(moved, n, ms->sample_mask, bx, by, r, m);
            for (uint32_t s = 0; s < n; s++) {
                any |= m[s];
                covered += (uint64_t)tr__popcount64(m[s]);
            }
            if (!any)
                continue;
            st->fragments_rasterized += covered;
            if (lrz != TR_LRZ_DIRECTION_UNKNOWN) {
                const uint64_t rej =
                    ms_lrz_rejects(rb, t, d, lrz, reject_all, bx, by, m, n, region, &plane, &have_plane);
                if (rej) {
                    any = 0;
                    for (uint32_t s = 0; s < n; s++) {
                        m[s] &= ~rej;
                        any |= m[s];
                    }
                    if (!any)
                        continue;
                }
            }
            any = pack_block_quads(bx, by, n, any, m, &ln, &lns);
            /* gl_SampleMaskIn: the coverage before the depth and stencil tests */
            uint64_t cover[TR_MAX_SAMPLES];
            memcpy(cover, m, n * sizeof *m);
            if (early && !per_sample) {
                any = samples_early_tests(rb, &rbs, t, moved, d, n, block_depth, ln.block, bx, by, &lns, m);
                if (!any)
                    continue;
            }
            if (per_sample) {
                shade_samples(rb, t, d, moved, n, m, early, &lns, &ss);
            } else if (pd->fragment_shader) {
                K->lanes_setup(t, d->depth_min, d->depth_max, &ln, need_z ? TR__LANES_Z : ss.smooth ? TR__LANES_BARY : 0u);
                const bool uniform = ss.uniform;
                const tr__lanes *lc = centroid && !uniform && centroid_lanes(moved, n, cover, &ln, &lcs, K)
                                          ? &lcs
                                          : NULL;
                const uint64_t live =
                    run_shader(rb, t, d, pd, fs, st, &ln, lc, any, &ss, uniform, -1, NULL, cover, n);
                uint64_t cov[TR_MAX_SAMPLES];
                shader_coverage(fs, ms, pd->fs_flags, n, live, uniform, cov);
                for (uint32_t s = 0; s < n; s++) {
                    m[s] &= live & cov[s];
                    if (!m[s])
                        continue;
                    sample_planes(rb, s, &rbs);
                    if (!early) {
                        if (!ss.shader_depth)
                            K->lanes_setup(moved[s], d->depth_min, d->depth_max, &lns, TR__LANES_Z);
                        m[s] = sample_late_tests(&rbs, t, d, &ss, fs, &lns, m[s]);
                        if (!m[s])
                            continue;
                    }
                    st->fragments_written += (uint64_t)tr__popcount64(m[s]);
                    write_colors(&rbs, p, d, pd, fs, &ln, m[s], uniform, &ss);
                }
            } else {
                for (uint32_t s = 0; s < n; s++)
                    st->fragments_written += (uint64_t)tr__popcount64(m[s]);
            }
        }
}

/* ---- tr__raster_triangle's steps ------------------------------------------------------------------ */

/* A row's run of whole blocks [bx, span1) under LRZ (direction lrz): is
 * the triangle's depth over all of them beyond the farthest bound among
 * them?  Then every block test would reject.  The plane is made only
 * where the viewport's depth range does not already pass that bound. */
static inline __attribute__((always_inline)) bool run_beyond_bound(const tr__tri *t, const tr__draw *d,
                                                                   tr_lrz_direction lrz, const tr__lrz_row *lrow,
                                                                   int32_t bx, int32_t by, int32_t span1,
                                                                   const int32_t region[4], tr__lrz_plane_t *plane,
                                                                   bool *have)
{
    const bool less = lrz == TR_LRZ_DIRECTION_LESS;
    const float far = tr__lrz_row_far(lrow, bx, span1, less);
    if (!(less ? d->depth_max > far : d->depth_min < far))
        return false;
    plane_once(t, d, region, plane, have);
    const int32_t span[4] = {bx, by, span1, by + BLOCK};
    double lo, hi;
    tr__lrz_plane_region_range(plane, span, &lo, &hi);
    return plane->finite && (less ? lo > (double)far : hi < (double)far);
}

/* LRZ's class of block (bx, by) against its bound: -1 every fragment
 * fails, 0 every one passes, 1 they are tested one by one.  Depths are
 * clamped to [depth_min, depth_max]: when that whole range passes, the
 * answer is 0 without the plane. */
static inline __attribute__((always_inline)) int lrz_block_class(const tr__tri *t, const tr__draw *d,
                                                                 tr_lrz_direction lrz, float bound, int32_t bx,
                                                                 int32_t by, const int32_t region[4],
                                                                 tr__lrz_plane_t *plane, bool *have)
{
    if (lrz == TR_LRZ_DIRECTION_LESS ? d->depth_max <= bound : d->depth_min >= bound)
        return 0;
    plane_once(t, d, region, plane, have);
    return tr__lrz_block_classify(plane, bx, by, bound, lrz);
}

/* The depth test per block against GMEM (direction gdir, UNKNOWN: none),
 * for a block inside the bin with coverage m: does every fragment the
 * triangle can make there lie beyond every stored depth, so that all
 * would fail as depth_stencil would find one by one?  Blocks of few
 * fragments are left to the fragments unless the plane exists already. */
static inline __attribute__((always_inline)) bool gmem_block_beyond(tr__raster_bin *rb, const tr__tri *t,
                                                                    const tr__draw *d, tr_lrz_direction gdir,
                                                                    int32_t bx, int32_t by, uint64_t m,
                                                                    const int32_t region[4], tr__lrz_plane_t *plane,
                                                                    bool *have)
{
    if (gdir == TR_LRZ_DIRECTION_UNKNOWN || !rb->zblocks || bx < rb->rect[0] || by < rb->rect[1] ||
        bx + BLOCK > rb->rect[2] || by + BLOCK > rb->rect[3] || !(*have || tr__popcount64(m) >= GMEM_BLOCK_MIN))
        return false;
    plane_once(t, d, region, plane, have);
    double zmin, zmax;
    tr__lrz_plane_block_range(plane, bx, by, &zmin, &zmax);
    return gmem_block_rejects(rb, bx, by, gdir, zmin, zmax);
}

/* A whole block's lanes without LRZ tests (bound 0). */
static inline void whole_begin(tr__lanes *whole)
{
    whole->nq = 16;
    whole->block = true;
    for (uint32_t q = 0; q < 16; q++) {
        whole->lrz_test[q] = false;
        whole->lrz_bound[q] = 0.0f;
    }
}

/* The lanes of the whole block (bx, by) in `whole`, with LRZ's test and
 * bound for all its quads (loops the compiler turns into a few vector
 * stores; the LRZ fields only when they change from *test, *bound). */
static inline __attribute__((always_inline)) void whole_block_lanes(tr__lanes *whole, int32_t bx, int32_t by,
                                                                    bool lane_test, float bound, bool *test,
                                                                    float *last_bound)
{
    for (uint32_t q = 0; q < 16; q++) {
        whole->qx[q] = bx + quad_dx[q];
        whole->qy[q] = by + quad_dy[q];
    }
    if (lane_test != *test || memcmp(&bound, last_bound, sizeof bound)) {
        for (uint32_t q = 0; q < 16; q++) {
            whole->lrz_test[q] = lane_test;
            whole->lrz_bound[q] = bound;
        }
        *test = lane_test;
        *last_bound = bound;
    }
}

/* Bit 4q of the result: quad q of a block's mask m has coverage. */
static inline uint64_t covered_quads(uint64_t m)
{
    const uint64_t any = m | (m >> 1);
    return (any | (any >> 2)) & 0x1111111111111111ull;
}

/* Appends block (bx, by)'s covered quads (`any`, covered_quads(m)) to the
 * batch with LRZ's test and bound; returns their live lanes at their
 * places in the batch. */
static inline __attribute__((always_inline)) uint64_t batch_add(tr__lanes *batch, int32_t bx, int32_t by, uint64_t m,
                                                                uint64_t any, bool lane_test, float bound)
{
    uint64_t live = 0;
    for (; any; any &= any - 1) {
        const uint32_t q = (uint32_t)__builtin_ctzll(any) >> 2, j = batch->nq++;
        batch->qx[j] = bx + (int32_t)(q & 3) * 2;
        batch->qy[j] = by + (int32_t)(q >> 2) * 2;
        batch->lrz_test[j] = lane_test;
        batch->lrz_bound[j] = bound;
        live |= ((m >> (4 * q)) & 0xfu) << (4 * j);
    }
    return live;
}

/* The rectangle a single-sampled triangle's blocks are cut to: the bin and
 * the scissor (the draw's, rb->tri_cut: the bounding box holds every pixel
 * the triangle covers), and a Bresenham line's box, whose ends are its
 * box's. */
static void triangle_cut(const tr__raster_bin *rb, const tr__tri *t, int32_t cut[4])
{
    memcpy(cut, rb->tri_cut, 4 * sizeof cut[0]);
    if (t->flags & TR__TRI_BOX_CLIP) {
        cut[0] = TR_MAX(cut[0], t->bbox[0]);
        cut[1] = TR_MAX(cut[1], t->bbox[1]);
        cut[2] = TR_MIN(cut[2], t->bbox[2]);
        cut[3] = TR_MIN(cut[3], t->bbox[3]);
    }
}

/* The window path: a single-sampled triangle whose box r (cut to the
 * bin) lies in a window of 2 x 2 blocks, of a pipeline shade_mode found
 * fit (shade_state.window), drawn row by row: the window's coverage, then
 * per block LRZ's block test as the walk makes it (below), then the LRZ
 * per-fragment and depth tests of every row, the shader once (a uniform
 * quad), its colour written to each attachment's rows.  The same pixels,
 * bits and statistics as the block walk: a pixel's result depends on
 * neither its quad's batch nor the order of a triangle's blocks, and the
 * GMEM block test the walk makes for blocks of many pixels only spares
 * per-pixel tests that would all fail.  false, nothing done, where a
 * kernel declines (edges or offsets beyond their range): then the walk
 * draws it.  lrz_counted (lrz UNKNOWN): the blocks are counted as LRZ
 * tested (ss_walk.lrz_counted). */
static bool raster_window(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, const int32_t r[4],
                          const int32_t cut[4], tr_lrz_direction lrz, bool lrz_counted, const shade_state *ss)
{
    const tr__raster_pass *p = rb->rp;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const tr__kernels *K = rb->ctx->kernels;
    tr__window w;
    if (!window_of(r, cut, false, &w) || !tr__window_offsets_ok(t, w.x, w.y))
        return false;
    tr__window_tests wt = {.dbuf = ss->depth ? (float *)rb->gmem[p->depth_att] : NULL,
                           .pitch = rb->gmem_pitch,
                           .origin = {rb->origin[0], rb->origin[1]},
                           .op = pd->depth_compare,
                           .write = pd->depth_write != 0,
                           .lrz_dir = lrz};
    /* The blocks of the window's pixels, and which of them lie inside the
     * bin's columns. */
    const uint32_t blocks = window_blocks(&w);
    wt.inside = window_inside(rb, &w);
    /* LRZ's block test, as the walk makes it (below, for the blocks the
     * triangle covers): the whole triangle beyond the bin's farthest
     * bound, or per block its depth range against the block's bound. */
    tr__lrz_plane_t plane = {0};
    bool have_plane = false;
    const int32_t region[4] = {w.x, w.y, r[2] + BLOCK, r[3] + BLOCK};
    tr__lrz_row lrow[2] = {{0}, {0}};
    if (lrz != TR_LRZ_DIRECTION_UNKNOWN) {
        if (blocks & 3u)
            tr__lrz_row_at(rb->lrz_pass, rb->lrz_view, w.y, &lrow[0]);
        if (blocks & 12u)
            tr__lrz_row_at(rb->lrz_pass, rb->lrz_view, w.y + BLOCK, &lrow[1]);
        if (beyond_far_bound(rb, t, d, lrz, r, region, false, &plane, &have_plane)) {
            wt.reject = blocks;
        } else {
            for (uint32_t k = 0; k < 4; k++) {
                if (!((blocks >> k) & 1))
                    continue;
                const int32_t bx = tr__window_bx(&w, k), by = tr__window_by(&w, k);
                const float bound = tr__lrz_row_bound(&lrow[k >> 1], bx);
                const int c = lrz_block_class(t, d, lrz, bound, bx, by, region, &plane, &have_plane);
                wt.reject |= (uint32_t)(c < 0) << k;
                wt.lrz_test |= (uint32_t)(c > 0) << k;
                wt.lrz_bound[k] = bound;
            }
        }
    }
    tr__window_counts cnt;
    if (!K->window_raster(t, d->depth_min, d->depth_max, &wt, &w, &cnt, NULL))
        return false;
    const uint32_t *covered = cnt.covered, *lrz_rej = cnt.lrz_rejected;

    /* The statistics the walk keeps, of the blocks with covered pixels. */
    tr_pass_stats *st = &rb->worker->stats;
    uint64_t rasterized = 0, rejected_frags = 0, lrz_n = 0, live = 0;
    for (uint32_t k = 0; k < 4; k++) {
        if (!covered[k])
            continue;
        const int32_t bx = tr__window_bx(&w, k), by = tr__window_by(&w, k);
        if (lrz != TR_LRZ_DIRECTION_UNKNOWN || lrz_counted)
            st->lrz_blocks_tested++;
        if ((wt.reject >> k) & 1) {
            st->lrz_blocks_rejected++;
            rejected_frags += covered[k];
            tr__lrz_row_rejected(&lrow[k >> 1], bx, covered[k]);
            continue;
        }
        rasterized += covered[k];
        if (lrz_rej[k]) {
            tr__lrz_count_rejected(rb->lrz_pass, rb->lrz_view, bx, by, lrz_rej[k]);
            lrz_n += lrz_rej[k];
        }
        if (cnt.passed[k]) {
            live += cnt.passed[k];
            if (wt.dbuf && wt.write && rb->zblocks)
                rb->zvalid[zblock_index(rb, bx, by)] = 0;
        }
    }
    st->fragments_rasterized += rasterized + rejected_frags;
    st->fragments_lrz_rejected += rejected_frags + lrz_n;
    if (wt.dbuf)
        st->fragments_depth_rejected += rasterized - lrz_n - live;
    if (!live)
        return true;

    /* The shader once (a uniform quad), its colour to every attachment. */
    st->fragments_shaded += live;
    st->fragments_written += live;
    const tr_fs_block *fs = shade_uniform_quad(rb, t, d);
    for (uint32_t a = 0; a < p->color_count; a++) {
        const int ai = p->color_att[a];
        if (ai >= 0 && (pd->blend[a].write_mask & 0xfu))
            K->window_fill(rb->gmem[ai], rb->gmem_pitch, rb->origin, wt.inside, &w, tr__rgba8_texel(fs, a));
    }
    return true;
}

/* What the single-sampled path keeps while it draws one triangle's
 * blocks (ss_block): the LRZ and GMEM block tests' state and the
 * statistics it sums. */
typedef struct ss_walk {
    tr_lrz_direction lrz;         /* the LRZ test's direction; UNKNOWN: none */
    uint32_t lrz_counted;         /* 1: none made, but each block counted as tested and passed */
    tr_lrz_direction gdir;        /* the GMEM block test's (gmem_block_direction) */
    bool reject_all;              /* the whole triangle lies beyond the bin's farthest bound */
    int32_t region[4];            /* where the depth plane is made for (plane_once) */
    uint64_t tested, rejected, rejected_frags, gmem_rejected, rasterized;
    /* the batch of partly covered blocks' quads (shade_quads) */
    uint64_t batch_live;
    bool batch_tests;
    bool whole_ready;             /* whole is begun (whole_begin, at the first whole block) */
    bool whole_test;              /* whole's LRZ fields (whole_block_lanes) */
    float whole_bound;
} ss_walk;

/* One covered block (bx, by) of a single-sampled triangle, its coverage m
 * (tr__lanes order, not 0): LRZ's block test (lrow: its row), GMEM's,
 * then a whole block shaded alone or the covered quads into the batch.
 * Covered quads of partly covered blocks are gathered into one batch (up
 * to 16 quads, from any blocks of this triangle) before shading, so that
 * a small triangle straddling blocks is shaded in one go; a whole block
 * is shaded alone, in order (the whole-block kernels).  A pixel's result
 * does not depend on which lanes it shares a batch with. */
static inline __attribute__((always_inline)) void ss_block(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d,
                                                           ss_walk *w, tr__lrz_row *lrow, int32_t bx, int32_t by,
                                                           uint64_t m, tr__lrz_plane_t *plane, bool *have_plane,
                                                           tr__lanes *batch, tr__lanes *whole, shade_state *ss)
{
    const tr_lrz_direction lrz = w->lrz;
    float bound = 0.0f;
    bool lane_test = false;
    if (w->reject_all) {
        const uint32_t n = m == ~0ull ? 64u : tr__popcount64(m);
        w->tested++;
        w->rejected++;
        w->rejected_frags += n;
        tr__lrz_row_rejected(lrow, bx, n);
        return;
    }
    w->tested += w->lrz_counted;
    if (lrz != TR_LRZ_DIRECTION_UNKNOWN) {
        /* LRZ, per block: the triangle's whole depth range in the block
         * against the bound, before any per-pixel work; the fragments are
         * tested one by one only when the range straddles the bound. */
        bound = tr__lrz_row_bound(lrow, bx);
        w->tested++;
        /* Depths are clamped to [depth_min, depth_max]: when that whole
         * range passes, tr__lrz_block_classify would say 0. */
        const int c = lrz_block_class(t, d, lrz, bound, bx, by, w->region, plane, have_plane);
        if (c < 0) {
            uint32_t n = tr__popcount64(m);
            w->rejected++;
            w->rejected_frags += n;
            tr__lrz_row_rejected(lrow, bx, n);
            return;
        }
        lane_test = c > 0;
    }
    if (!lane_test && gmem_block_beyond(rb, t, d, w->gdir, bx, by, m, w->region, plane, have_plane)) {
        const uint64_t n = (uint64_t)tr__popcount64(m);
        w->rasterized += n;
        w->gmem_rejected += n;
        return;
    }
    w->rasterized += tr__popcount64(m);
    if (m == ~0ull) {
        if (!w->whole_ready) {
            whole_begin(whole);
            w->whole_ready = true;
        }
        whole_block_lanes(whole, bx, by, lane_test, bound, &w->whole_test, &w->whole_bound);
        shade_quads(rb, t, d, whole, ~0ull, lane_test ? lrz : TR_LRZ_DIRECTION_UNKNOWN, ss);
        return;
    }
    const uint64_t any = covered_quads(m);
    if (batch->nq + tr__popcount64(any) > 16) {
        shade_quads(rb, t, d, batch, w->batch_live, w->batch_tests ? lrz : TR_LRZ_DIRECTION_UNKNOWN, ss);
        batch->nq = 0;
        w->batch_live = 0;
        w->batch_tests = false;
    }
    w->batch_live |= batch_add(batch, bx, by, m, any, lane_test, bound);
    w->batch_tests |= lane_test;
}

/* The blocks of a single-sampled triangle whose box r lies in a window
 * (walk_internal.h): their coverage at once (window_mask, in tr__lanes
 * order), each covered one drawn by ss_block, in the walk's order.  false
 * (nothing done) where the kernel declines. */
static inline __attribute__((always_inline)) bool ss_window(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d,
                                                            const int32_t r[4], const int32_t cut[4], ss_walk *w,
                                                            tr__lrz_plane_t *plane, bool *have_plane,
                                                            tr__lanes *batch, tr__lanes *whole, shade_state *ss)
{
    tr__window win;
    if (!window_of(r, cut, true, &win) || !rb->ctx->kernels->walk->window_mask(t, &win))
        return false;
    tr__lrz_row lrow = {0};
    for (uint32_t k = 0; k < 4; k++) {
        if (!win.m[k])
            continue;
        const int32_t bx = tr__window_bx(&win, k), by = tr__window_by(&win, k);
        if (w->lrz != TR_LRZ_DIRECTION_UNKNOWN && (k == 0 || k == 2 || !win.m[k - 1]))
            tr__lrz_row_at(rb->lrz_pass, rb->lrz_view, by, &lrow);
        ss_block(rb, t, d, w, &lrow, bx, by, win.m[k], plane, have_plane, batch, whole, ss);
    }
    return true;
}

/* tr__raster_triangle single-sampled, over r (the box cut to the bin):
 * block by block along the walk (or, for a box in a window, its blocks at
 * once), with LRZ's and GMEM's block tests. */
static void raster_triangle_ss(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d, const int32_t r[4])
{
    /* The draw's state in this bin view, worked out at its first triangle. */
    if (rb->tri_draw != t->draw) {
        rb->tri_draw = t->draw;
        rb->tri_lrz = rb->lrz && tr__lrz_tests(rb->lrz_pass, d) ? (tr_lrz_direction)d->lrz_test_dir
                                                                : TR_LRZ_DIRECTION_UNKNOWN;
        /* (the nearest bound is the pass direction's: the draw's must be it;
         * the scalar reference makes every block test, so that the equality
         * tests check this) */
        const bool pass_less = rb->lrz && rb->lrz_pass->dir != TR_LRZ_DIRECTION_GREATER;
        rb->tri_lrz_pass = rb->ctx->simd != TR_SIMD_SCALAR &&
                           (rb->tri_lrz == TR_LRZ_DIRECTION_LESS      ? pass_less && d->depth_max <= rb->lrz_near
                            : rb->tri_lrz == TR_LRZ_DIRECTION_GREATER ? !pass_less && d->depth_min >= rb->lrz_near
                                                                      : false);
        rb->tri_gdir = gmem_block_direction(rb, d);
        rb->tri_cut[0] = TR_MAX(rb->rect[0], d->scissor[0]);
        rb->tri_cut[1] = TR_MAX(rb->rect[1], d->scissor[1]);
        rb->tri_cut[2] = TR_MIN(rb->rect[2], d->scissor[2]);
        rb->tri_cut[3] = TR_MIN(rb->rect[3], d->scissor[3]);
    }
    /* Where the draw passes every LRZ block test of the bin view, the
     * tests are counted, not made: no bound is read, no plane made (what
     * lrz_block_class's first test would find in every block). */
    ss_walk w;
    w.lrz = rb->tri_lrz_pass ? TR_LRZ_DIRECTION_UNKNOWN : rb->tri_lrz;
    w.lrz_counted = rb->tri_lrz_pass;
    const tr_lrz_direction lrz = w.lrz;
    int32_t cut[4];
    triangle_cut(rb, t, cut);
    shade_state ss;
    shade_begin(rb, d, &ss);
    if (ss.window && raster_window(rb, t, d, r, cut, lrz, rb->tri_lrz_pass, &ss))
        return;
    tr_pass_stats *st = &rb->worker->stats;
    w.tested = w.rejected = w.rejected_frags = w.gmem_rejected = w.rasterized = w.batch_live = 0;
    w.batch_tests = w.whole_ready = w.whole_test = false;
    w.whole_bound = 0.0f;
    /* The depth plane for the LRZ block test, made on first use: blocks
     * whose bound passes every depth of the viewport's range need none. */
    tr__lrz_plane_t plane = {0}; /* its address never escapes: stays in registers */
    bool have_plane = false;
    const int32_t region[4] = {r[0] & ~(BLOCK - 1), r[1] & ~(BLOCK - 1), r[2] + BLOCK, r[3] + BLOCK};
    memcpy(w.region, region, sizeof region);
    /* The whole triangle beyond the bin's farthest bound. */
    w.reject_all = beyond_far_bound(rb, t, d, lrz, r, region, false, &plane, &have_plane);
    const tr__walk_kernels *wk = rb->ctx->kernels->walk;
    /* The depth test per block against GMEM (gmem_block_direction); blocks
     * inside the bin only, so that every texel read is the bin's. */
    w.gdir = rb->tri_gdir;
    const int32_t bx0 = r[0] & ~(BLOCK - 1);
    /* An empty batch; `whole` made at the first whole block. */
    tr__lanes batch, whole;
    batch.nq = 0;
    batch.block = false;
    if (!(wk->window_mask && ss_window(rb, t, d, r, cut, &w, &plane, &have_plane, &batch, &whole, &ss))) {
        /* A box inside one block needs no walk: the block's per-pixel
         * tests give what the walk's class would (0 outside an edge; all
         * of the block inside r and the cut when inside all three, as the
         * box holds every covered centre). */
        const bool one_block = (r[2] - 1 - bx0) < BLOCK && ((r[3] - 1) & ~(BLOCK - 1)) == (r[1] & ~(BLOCK - 1));
        tr__block_walk walk;
        if (!one_block)
            tr__block_walk_begin(t, &walk);
        /* Rows of many blocks find their covered blocks by division
         * (tr__block_walk_ranges), not block by block; with LRZ, the run
         * of whole blocks inside the cut is then tested at once first. */
        const bool ranges = r[2] - bx0 > 4 * BLOCK;
        const int32_t cut_x0 = (cut[0] + BLOCK - 1) & ~(BLOCK - 1), cut_x1 = cut[2] & ~(BLOCK - 1);
        for (int32_t by = r[1] & ~(BLOCK - 1); by < r[3]; by += BLOCK) {
            int32_t xs = bx0, xe = r[2], in[2] = {0, 0};
            if (!one_block && !tr__block_walk_row_span(t, &walk, bx0, r[2], by, ranges, &xs, &xe, in))
                continue;
            int32_t span0 = 0, span1 = 0;
            if (lrz != TR_LRZ_DIRECTION_UNKNOWN && by >= cut[1] && by + BLOCK <= cut[3]) {
                span0 = TR_MAX(in[0], cut_x0);
                span1 = TR_MIN(in[1], cut_x1);
            }
            tr__lrz_row lrow = {0};
            if (lrz != TR_LRZ_DIRECTION_UNKNOWN)
                tr__lrz_row_at(rb->lrz_pass, rb->lrz_view, by, &lrow);
            for (int32_t bx = xs; bx < xe; bx += BLOCK) {
                if (bx == span0 && span1 - span0 >= 2 * BLOCK) {
                    /* Whole blocks [span0, span1): when the triangle's
                     * depths over all of them lie beyond the farthest bound
                     * among them, every block test would reject, and they
                     * are counted so at once.  Else the blocks go one by
                     * one. */
                    if (w.reject_all ||
                        run_beyond_bound(t, d, lrz, &lrow, bx, by, span1, region, &plane, &have_plane)) {
                        const uint64_t k = (uint64_t)(span1 - bx) / BLOCK;
                        w.tested += k;
                        w.rejected += k;
                        w.rejected_frags += 64 * k;
                        for (int32_t x = bx; x < span1; x += BLOCK)
                            tr__lrz_row_rejected(&lrow, x, 64);
                        tr__block_walk_advance(&walk, (int64_t)k);
                        bx = span1 - BLOCK;
                        continue;
                    }
                }
                const int cls = one_block ? 1 : tr__block_walk_step(&walk);
                if (!cls)
                    continue;
                const uint64_t m = tr__walk_block_mask(t, bx, by, r, cut, cls == 2, wk);
                if (m)
                    ss_block(rb, t, d, &w, &lrow, bx, by, m, &plane, &have_plane, &batch, &whole, &ss);
            }
        }
    }
    if (batch.nq)
        shade_quads(rb, t, d, &batch, w.batch_live, w.batch_tests ? lrz : TR_LRZ_DIRECTION_UNKNOWN, &ss);
    st->fragments_rasterized += w.rasterized;
    st->fragments_depth_rejected += w.gmem_rejected;
    st->lrz_blocks_tested += w.tested;
    st->lrz_blocks_rejected += w.rejected;
    st->fragments_rasterized += w.rejected_frags;
    st->fragments_lrz_rejected += w.rejected_frags;
}

void tr__raster_triangle(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d)
{
    /* A clear's rectangle (its box) is in framebuffer space: in a scaled
     * bin view it covers every coarse fragment it touches. */
    const int32_t *box = t->bbox;
    int32_t scaled_box[4];
    if (d->clear_atts && rb->fdm) {
        tr__fdm_rect(rb->fdm, t->bbox, scaled_box);
        box = scaled_box;
    }
    int32_t r[4] = {TR_MAX(box[0], rb->rect[0]), TR_MAX(box[1], rb->rect[1]), TR_MIN(box[2], rb->rect[2]),
                    TR_MIN(box[3], rb->rect[3])};
    if (r[0] >= r[2] || r[1] >= r[3])
        return;
    if (d->clear_atts) {
        clear_rect(rb, d, r);
        return;
    }
    if (rb->rp->samples > 1) {
        /* the scissor too: with a density map set-up cut the box only to
         * the widened bin_scissor (the single-sampled path cuts it below) */
        const int32_t rs[4] = {TR_MAX(r[0], d->scissor[0]), TR_MAX(r[1], d->scissor[1]), TR_MIN(r[2], d->scissor[2]),
                               TR_MIN(r[3], d->scissor[3])};
        if (rs[0] < rs[2] && rs[1] < rs[3])
            raster_triangle_ms(rb, t, d, rs);
        return;
    }
    raster_triangle_ss(rb, t, d, r);
}
