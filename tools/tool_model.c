/* tilerast-render: models through assimp (tool_model.h).
 *
 * Import (aiImportFile) -> checked meshes (indexed vertices, 32 bytes
 * each) and materials (base colour factor, base colour texture as sRGB
 * with mipmaps) -> one draw per mesh instance of the node tree, its world
 * matrix the product of the node transforms -> an automatic camera and a
 * fixed light -> one render pass into an R8G8B8A8_SRGB image. */
#define _POSIX_C_SOURCE 200809L

#include "tool_model.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_shader.h"

static int model_ext_is(const char *path, const char *const *list)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot == NULL || (slash != NULL && dot < slash) || strlen(dot) > 15)
        return 0;
    char ext[16];
    size_t i = 0;
    for (; dot[i] != '\0'; i++)
        ext[i] = (char)tolower((unsigned char)dot[i]);
    ext[i] = '\0';
    for (; *list != NULL; list++)
        if (strcmp(ext, *list) == 0)
            return 1;
    return 0;
}

#ifndef TILERAST_HAVE_ASSIMP

int tool_model_is_model(const char *path)
{
    static const char *const known[] = {".gltf", ".glb", ".obj", ".fbx", ".dae", ".ply", ".stl", ".3ds", NULL};
    return model_ext_is(path, known);
}

int tool_model_render(tr_context *ctx, const char *path, const tool_model_options *o, tr_image **out,
                      tr_pass_stats *stats, tool_model_info *info, char *msg, size_t msg_size)
{
    (void)ctx, (void)o, (void)out, (void)stats, (void)info;
    snprintf(msg, msg_size,
             "%s: this tilerast-render was built without assimp, so it reads no models "
             "(install libassimp-dev, scripts/deps.sh does, and configure again)", path);
    return -1;
}

#else

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "tool_stb.h" /* embedded (compressed) textures: tr_image_load reads files only */

#ifndef TILERAST_MODEL_SHADER_DIR
#define TILERAST_MODEL_SHADER_DIR "shaders"
#endif
#ifndef TILERAST_MODEL_INSTALLED_SHADERS
#define TILERAST_MODEL_INSTALLED_SHADERS "../share/tilerast/shaders"
#endif

/* Limits that turn a hostile file into an error instead of a huge
 * allocation or a deep recursion: a node tree deeper than this, or more
 * mesh instances, is refused (real scenes are far below both). */
#define MODEL_MAX_DEPTH 256u
#define MODEL_MAX_DRAWS (1u << 20)
/* Embedded textures larger than this (either side) are refused: the
 * library's largest image side (TR_MAX_IMAGE_SIZE) is the real limit. */
#define MODEL_MAX_TEXTURE_SIDE 16384u

/* The camera and light (README.md, "Models (glTF, OBJ)"). */
#define MODEL_FOVY_DEG 45.0         /* vertical field of view */
#define MODEL_ELEVATION_DEG 20.0    /* the eye's angle above the horizontal plane through the centre */
#define MODEL_MARGIN 1.05           /* the sphere fills 1/1.05 of the narrower field */
static const float model_light_dir[3] = {-0.3f, 0.8f, 0.52f}; /* towards the light, normalised below */
static const float model_ambient = 0.25f;
static const float model_clear[4] = {0.18f, 0.18f, 0.2f, 1.0f}; /* linear; sRGB-encoded when stored */

/* The import steps (assimp/postprocess.h): triangles only, shared vertices
 * merged for indexed draws, smooth normals where the file has none, one
 * primitive type a mesh (so lines and points come apart and are skipped),
 * assimp's own structure checks, and texture coordinates with t = 0 at
 * the image's first row (Vulkan's, and tr_image_load's, order). */
#define MODEL_IMPORT_FLAGS                                                                          \
    (aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |        \
     aiProcess_SortByPType | aiProcess_ValidateDataStructure | aiProcess_FlipUVs)

typedef struct model_vertex {
    float position[3];
    float normal[3];
    float uv[2];
} model_vertex;

/* The push constants of shaders/model.* (std430: mat4 then vec4s). */
typedef struct model_constants {
    float clip_from_model[16]; /* column-major */
    float world_normal[16];
    float base_color[4];
    float light_dir[4];
    float light_color[4];
} model_constants;

typedef struct model_mesh {
    model_vertex *vertices;
    uint32_t *indices;
    uint32_t vertex_count, index_count; /* index_count 0: not drawn (lines, points) */
    double lo[3], hi[3];                /* bounds in the mesh's space */
    uint32_t material;
} model_mesh;

typedef struct model_material {
    float base_color[4];
    tr_image *texture; /* NULL: the white texture */
    int two_sided;
} model_material;

typedef struct model_draw {
    uint32_t mesh;
    double world[16]; /* column-major */
} model_draw;

typedef struct model {
    const char *path;
    const struct aiScene *scene;
    model_mesh *meshes;
    model_material *materials;
    model_draw *draws;
    uint32_t mesh_count, material_count, draw_count, draw_capacity;
    /* Loaded textures by resolved path, so that materials sharing one load it once. */
    char **texture_keys;
    tr_image **texture_images;
    uint32_t texture_count;
    /* --camera: the file's camera and the world matrix of the node that
     * carries it (found by name during the walk). */
    const struct aiCamera *camera;
    int camera_found;
    double camera_world[16];
} model;

static int fail(char *msg, size_t msg_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_size, fmt, ap);
    va_end(ap);
    return -1;
}

int tool_model_is_model(const char *path)
{
    static const char *const scn[] = {".scn", NULL};
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot == NULL || (slash != NULL && dot < slash) || model_ext_is(path, scn))
        return 0;
    return aiIsExtensionSupported(dot) == AI_TRUE;
}

/* ---- meshes -------------------------------------------------------------------------------- */

static int finite3(const struct aiVector3D *v)
{
    return isfinite(v->x) && isfinite(v->y) && isfinite(v->z);
}

/* The vertices of one mesh: a position that is not finite is an error
 * (it would poison the bounds and so the camera); a normal or texture
 * coordinate that is not finite becomes 0 (it only shades). */
static int model_read_vertices(model *m, uint32_t mi, const struct aiMesh *am, model_mesh *mesh, char *msg,
                               size_t msg_size)
{
    mesh->vertices = calloc(am->mNumVertices, sizeof *mesh->vertices);
    if (mesh->vertices == NULL)
        return fail(msg, msg_size, "%s: mesh %u: out of memory for %u vertices", m->path, mi, am->mNumVertices);
    mesh->vertex_count = am->mNumVertices;
    for (int c = 0; c < 3; c++) {
        mesh->lo[c] = INFINITY;
        mesh->hi[c] = -INFINITY;
    }
    const struct aiVector3D *uv = am->mTextureCoords[0];
    for (uint32_t v = 0; v < am->mNumVertices; v++) {
        const struct aiVector3D *p = &am->mVertices[v];
        if (!finite3(p))
            return fail(msg, msg_size, "%s: mesh %u '%s': vertex %u has a position that is not finite (%g, %g, %g)",
                        m->path, mi, am->mName.data, v, (double)p->x, (double)p->y, (double)p->z);
        model_vertex *o = &mesh->vertices[v];
        const float pos[3] = {p->x, p->y, p->z};
        for (int c = 0; c < 3; c++) {
            o->position[c] = pos[c];
            mesh->lo[c] = fmin(mesh->lo[c], pos[c]);
            mesh->hi[c] = fmax(mesh->hi[c], pos[c]);
        }
        if (am->mNormals != NULL && finite3(&am->mNormals[v])) {
            o->normal[0] = am->mNormals[v].x;
            o->normal[1] = am->mNormals[v].y;
            o->normal[2] = am->mNormals[v].z;
        }
        if (uv != NULL && isfinite(uv[v].x) && isfinite(uv[v].y)) {
            o->uv[0] = uv[v].x;
            o->uv[1] = uv[v].y;
        }
    }
    return 0;
}

/* The triangles of one mesh as 32-bit indices, each checked against the
 * mesh's vertex count (assimp's validation should catch these; a draw
 * must never depend on it). */
static int model_read_indices(model *m, uint32_t mi, const struct aiMesh *am, model_mesh *mesh, char *msg,
                              size_t msg_size)
{
    mesh->indices = malloc((size_t)am->mNumFaces * 3 * sizeof *mesh->indices);
    if (mesh->indices == NULL && am->mNumFaces > 0)
        return fail(msg, msg_size, "%s: mesh %u: out of memory for %u faces", m->path, mi, am->mNumFaces);
    uint32_t n = 0;
    for (uint32_t f = 0; f < am->mNumFaces; f++) {
        const struct aiFace *face = &am->mFaces[f];
        if (face->mNumIndices != 3)
            continue; /* a point or line left in a triangle mesh */
        for (int k = 0; k < 3; k++) {
            const uint32_t idx = face->mIndices[k];
            if (idx >= am->mNumVertices)
                return fail(msg, msg_size, "%s: mesh %u '%s': face %u index %d is %u, past its %u vertices",
                            m->path, mi, am->mName.data, f, k, idx, am->mNumVertices);
            mesh->indices[n++] = idx;
        }
    }
    mesh->index_count = n;
    return 0;
}

static int model_read_meshes(model *m, char *msg, size_t msg_size)
{
    const struct aiScene *s = m->scene;
    m->meshes = calloc(s->mNumMeshes ? s->mNumMeshes : 1, sizeof *m->meshes);
    if (m->meshes == NULL)
        return fail(msg, msg_size, "%s: out of memory for %u meshes", m->path, s->mNumMeshes);
    m->mesh_count = s->mNumMeshes;
    for (uint32_t i = 0; i < s->mNumMeshes; i++) {
        const struct aiMesh *am = s->mMeshes[i];
        model_mesh *mesh = &m->meshes[i];
        if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || am->mNumVertices == 0 || am->mVertices == NULL)
            continue; /* points and lines are skipped (index_count 0) */
        if (am->mMaterialIndex >= s->mNumMaterials)
            return fail(msg, msg_size, "%s: mesh %u '%s': material %u, past the file's %u materials", m->path, i,
                        am->mName.data, am->mMaterialIndex, s->mNumMaterials);
        mesh->material = am->mMaterialIndex;
        if (model_read_vertices(m, i, am, mesh, msg, msg_size) != 0 ||
            model_read_indices(m, i, am, mesh, msg, msg_size) != 0)
            return -1;
    }
    return 0;
}

/* ---- textures and materials ---------------------------------------------------------------- */

/* An embedded texture as an sRGB image with its mip chain: compressed
 * (mHeight 0: mWidth bytes of PNG or JPEG) decoded with stb_image, or raw
 * BGRA texels. */
static int model_embedded_texture(tr_context *ctx, model *m, uint32_t ti, tr_image **out, char *msg,
                                  size_t msg_size)
{
    const struct aiTexture *t = m->scene->mTextures[ti];
    int w = 0, h = 0;
    uint8_t *rgba = NULL;
    if (t->mHeight == 0) {
        if (t->mWidth > (uint32_t)INT32_MAX)
            return fail(msg, msg_size, "%s: embedded texture %u: %u bytes is too large", m->path, ti, t->mWidth);
        int comp = 0;
        rgba = stbi_load_from_memory((const stbi_uc *)t->pcData, (int)t->mWidth, &w, &h, &comp, 4);
        if (rgba == NULL)
            return fail(msg, msg_size, "%s: embedded texture %u ('%s', %s): cannot decode: %s", m->path, ti,
                        t->mFilename.data, t->achFormatHint, stbi_failure_reason());
    } else {
        if (t->mWidth > MODEL_MAX_TEXTURE_SIDE || t->mHeight > MODEL_MAX_TEXTURE_SIDE)
            return fail(msg, msg_size, "%s: embedded texture %u: %ux%u texels is too large", m->path, ti,
                        t->mWidth, t->mHeight);
        w = (int)t->mWidth;
        h = (int)t->mHeight;
        rgba = malloc((size_t)w * h * 4);
        if (rgba == NULL)
            return fail(msg, msg_size, "%s: embedded texture %u: out of memory", m->path, ti);
        for (size_t i = 0; i < (size_t)w * h; i++) {
            rgba[4 * i + 0] = t->pcData[i].r;
            rgba[4 * i + 1] = t->pcData[i].g;
            rgba[4 * i + 2] = t->pcData[i].b;
            rgba[4 * i + 3] = t->pcData[i].a;
        }
    }
    const tr_image_desc d = {.format = TR_FORMAT_R8G8B8A8_SRGB, .width = (uint32_t)w, .height = (uint32_t)h,
                             .levels = TR_LEVELS_ALL};
    tr_result r = tr_image_create(ctx, &d, out);
    if (r == TR_OK)
        r = tr_image_upload(*out, NULL, rgba, 0);
    if (r == TR_OK)
        r = tr_image_generate_mips(*out);
    if (t->mHeight == 0)
        stbi_image_free(rgba);
    else
        free(rgba);
    if (r != TR_OK)
        return fail(msg, msg_size, "%s: embedded texture %u (%dx%d): %s (%s)", m->path, ti, w, h,
                    tr_result_string(r), tr_context_last_error(ctx));
    return 0;
}

/* The embedded texture a material path names: "*N", or (glTF binary in
 * assimp 5) the texture whose mFilename is the path; -1 for none. */
static int64_t model_embedded_index(const struct aiScene *s, const char *path)
{
    if (path[0] == '*') {
        char *end = NULL;
        unsigned long n = strtoul(path + 1, &end, 10);
        return end != path + 1 && *end == '\0' && n < s->mNumTextures ? (int64_t)n : -2;
    }
    for (uint32_t i = 0; i < s->mNumTextures; i++)
        if (s->mTextures[i]->mFilename.length > 0 && strcmp(s->mTextures[i]->mFilename.data, path) == 0)
            return i;
    return -1;
}

/* The material's base colour texture, loaded once per path. */
static int model_texture(tr_context *ctx, model *m, uint32_t mi, const char *tex_path, tr_image **out, char *msg,
                         size_t msg_size)
{
    const int64_t e = model_embedded_index(m->scene, tex_path);
    if (e == -2)
        return fail(msg, msg_size, "%s: material %u: base colour texture '%s' names no embedded texture (the file has %u)",
                    m->path, mi, tex_path, m->scene->mNumTextures);
    /* Files written on Windows name textures with backslashes ('.\\a.jpg'). */
    char rel[1024];
    snprintf(rel, sizeof rel, "%s", tex_path);
    for (char *p = rel; *p; p++)
        if (*p == '\\')
            *p = '/';
    char key[4096];
    if (e >= 0)
        snprintf(key, sizeof key, "*%lld", (long long)e);
    else if (strlen(tex_path) >= sizeof rel || tool_shader_resolve(m->path, rel, key, sizeof key) != 0)
        return fail(msg, msg_size, "%s: material %u: base colour texture '%s': path too long", m->path, mi, tex_path);
    for (uint32_t i = 0; i < m->texture_count; i++)
        if (strcmp(m->texture_keys[i], key) == 0) {
            *out = m->texture_images[i];
            return 0;
        }
    char **keys = realloc(m->texture_keys, (m->texture_count + 1) * sizeof *keys);
    if (keys != NULL)
        m->texture_keys = keys;
    tr_image **imgs = keys ? realloc(m->texture_images, (m->texture_count + 1) * sizeof *imgs) : NULL;
    if (imgs != NULL)
        m->texture_images = imgs;
    char *k = imgs ? strdup(key) : NULL;
    if (k == NULL)
        return fail(msg, msg_size, "%s: material %u: out of memory", m->path, mi);
    if (e >= 0) {
        if (model_embedded_texture(ctx, m, (uint32_t)e, out, msg, msg_size) != 0) {
            free(k);
            return -1;
        }
    } else {
        tr_result r = tr_image_load(ctx, key, TR_FORMAT_R8G8B8A8_SRGB, TR_LEVELS_ALL, out);
        if (r != TR_OK) {
            free(k);
            return fail(msg, msg_size, "%s: material %u: base colour texture '%s' (%s): %s", m->path, mi, tex_path,
                        key, r == TR_ERROR_IO ? "cannot open the file" : tr_result_string(r));
        }
    }
    m->texture_keys[m->texture_count] = k;
    m->texture_images[m->texture_count++] = *out;
    return 0;
}

/* Base colour factor (glTF's, else the diffuse colour OBJ and others
 * give), base colour texture (likewise), two-sidedness (glTF's
 * doubleSided; formats without it draw both sides). */
static int model_read_material(tr_context *ctx, model *m, uint32_t mi, char *msg, size_t msg_size)
{
    const struct aiMaterial *am = m->scene->mMaterials[mi];
    model_material *mat = &m->materials[mi];
    struct aiColor4D c;
    if (aiGetMaterialColor(am, AI_MATKEY_BASE_COLOR, &c) == aiReturn_SUCCESS ||
        aiGetMaterialColor(am, AI_MATKEY_COLOR_DIFFUSE, &c) == aiReturn_SUCCESS) {
        const float v[4] = {c.r, c.g, c.b, c.a};
        for (int i = 0; i < 4; i++)
            mat->base_color[i] = isfinite(v[i]) ? v[i] : 1.0f;
    } else {
        for (int i = 0; i < 4; i++)
            mat->base_color[i] = 1.0f;
    }
    int two_sided = 0;
    mat->two_sided = aiGetMaterialIntegerArray(am, AI_MATKEY_TWOSIDED, &two_sided, NULL) == aiReturn_SUCCESS
                         ? two_sided != 0
                         : 1; /* unknown: cull nothing */
    struct aiString tex;
    if (aiGetMaterialTexture(am, aiTextureType_BASE_COLOR, 0, &tex, NULL, NULL, NULL, NULL, NULL, NULL) !=
            aiReturn_SUCCESS &&
        aiGetMaterialTexture(am, aiTextureType_DIFFUSE, 0, &tex, NULL, NULL, NULL, NULL, NULL, NULL) !=
            aiReturn_SUCCESS)
        return 0;
    if (tex.length == 0)
        return 0;
    return model_texture(ctx, m, mi, tex.data, &mat->texture, msg, msg_size);
}

static int model_read_materials(tr_context *ctx, model *m, char *msg, size_t msg_size)
{
    const uint32_t n = m->scene->mNumMaterials;
    m->materials = calloc(n ? n : 1, sizeof *m->materials);
    if (m->materials == NULL)
        return fail(msg, msg_size, "%s: out of memory for %u materials", m->path, n);
    m->material_count = n;
    /* Only materials a drawn mesh uses: an unused one with a missing
     * texture does not stop the render. */
    for (uint32_t i = 0; i < n; i++) {
        int used = 0;
        for (uint32_t k = 0; k < m->mesh_count && !used; k++)
            used = m->meshes[k].index_count > 0 && m->meshes[k].material == i;
        if (used && model_read_material(ctx, m, i, msg, msg_size) != 0)
            return -1;
    }
    return 0;
}

/* ---- the node tree ------------------------------------------------------------------------- */

/* out = a * b, column-major 4x4 in double. */
static void mat_mul(double out[16], const double a[16], const double b[16])
{
    double r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double s = 0.0;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = s;
        }
    memcpy(out, r, sizeof r);
}

/* assimp's aiMatrix4x4 is row-major (a1..a4 the first row, translation in
 * a4, b4, c4) for column vectors; ours is column-major for column vectors:
 * the same matrix, element (row, col) moved to col * 4 + row. */
static void mat_from_ai(double out[16], const struct aiMatrix4x4 *t)
{
    const float rows[4][4] = {{t->a1, t->a2, t->a3, t->a4},
                              {t->b1, t->b2, t->b3, t->b4},
                              {t->c1, t->c2, t->c3, t->c4},
                              {t->d1, t->d2, t->d3, t->d4}};
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            out[c * 4 + r] = rows[r][c];
}

static int model_add_draw(model *m, uint32_t mesh, const double world[16], char *msg, size_t msg_size)
{
    if (m->draw_count == MODEL_MAX_DRAWS)
        return fail(msg, msg_size, "%s: more than %u mesh instances in the node tree", m->path, MODEL_MAX_DRAWS);
    if (m->draw_count == m->draw_capacity) {
        const uint32_t cap = m->draw_capacity ? m->draw_capacity * 2 : 64;
        model_draw *d = realloc(m->draws, cap * sizeof *d);
        if (d == NULL)
            return fail(msg, msg_size, "%s: out of memory for %u mesh instances", m->path, cap);
        m->draws = d;
        m->draw_capacity = cap;
    }
    m->draws[m->draw_count].mesh = mesh;
    memcpy(m->draws[m->draw_count].world, world, sizeof m->draws[0].world);
    m->draw_count++;
    return 0;
}

/* Depth-first: the node's world matrix is its parent's times its own
 * transformation.  The depth limit also stops a cycle, should a file
 * ever make one. */
static int model_walk(model *m, const struct aiNode *node, const double parent[16], uint32_t depth, char *msg,
                      size_t msg_size)
{
    if (depth > MODEL_MAX_DEPTH)
        return fail(msg, msg_size, "%s: node '%s': the node tree is deeper than %u (a cycle?)", m->path,
                    node->mName.data, MODEL_MAX_DEPTH);
    double local[16], world[16];
    mat_from_ai(local, &node->mTransformation);
    mat_mul(world, parent, local);
    for (int i = 0; i < 16; i++)
        if (!isfinite(world[i]))
            return fail(msg, msg_size, "%s: node '%s': its transformation is not finite", m->path, node->mName.data);
    if (m->camera != NULL && !m->camera_found && strcmp(node->mName.data, m->camera->mName.data) == 0) {
        memcpy(m->camera_world, world, sizeof m->camera_world);
        m->camera_found = 1;
    }
    for (uint32_t i = 0; i < node->mNumMeshes; i++) {
        const uint32_t mesh = node->mMeshes[i];
        if (mesh >= m->mesh_count)
            return fail(msg, msg_size, "%s: node '%s': mesh %u, past the file's %u meshes", m->path,
                        node->mName.data, mesh, m->mesh_count);
        if (m->meshes[mesh].index_count > 0 && model_add_draw(m, mesh, world, msg, msg_size) != 0)
            return -1;
    }
    for (uint32_t i = 0; i < node->mNumChildren; i++)
        if (model_walk(m, node->mChildren[i], world, depth + 1, msg, msg_size) != 0)
            return -1;
    return 0;
}

/* ---- camera and constants ------------------------------------------------------------------ */

/* The bounding sphere of every drawn instance: the centre and half
 * diagonal of the world box around the transformed corners of each
 * mesh's box. */
static void model_bounds(const model *m, double centre[3], double *radius)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t d = 0; d < m->draw_count; d++) {
        const model_mesh *mesh = &m->meshes[m->draws[d].mesh];
        const double *w = m->draws[d].world;
        for (int corner = 0; corner < 8; corner++) {
            const double p[3] = {corner & 1 ? mesh->hi[0] : mesh->lo[0], corner & 2 ? mesh->hi[1] : mesh->lo[1],
                                 corner & 4 ? mesh->hi[2] : mesh->lo[2]};
            for (int r = 0; r < 3; r++) {
                const double v = w[r] * p[0] + w[4 + r] * p[1] + w[8 + r] * p[2] + w[12 + r];
                lo[r] = fmin(lo[r], v);
                hi[r] = fmax(hi[r], v);
            }
        }
    }
    double r2 = 0.0;
    for (int r = 0; r < 3; r++) {
        centre[r] = 0.5 * (lo[r] + hi[r]);
        r2 += 0.25 * (hi[r] - lo[r]) * (hi[r] - lo[r]);
    }
    *radius = sqrt(r2) > 0.0 ? sqrt(r2) : 1.0; /* a single point still gets a view */
}

/* A view matrix from the camera's axes in world space and its eye. */
static void view_from_basis(const double right[3], const double up[3], const double back[3], const double eye[3],
                            double view[16])
{
    memset(view, 0, 16 * sizeof *view);
    for (int i = 0; i < 3; i++) {
        view[i * 4 + 0] = right[i];
        view[i * 4 + 1] = up[i];
        view[i * 4 + 2] = back[i];
    }
    view[12] = -(right[0] * eye[0] + right[1] * eye[1] + right[2] * eye[2]);
    view[13] = -(up[0] * eye[0] + up[1] * eye[1] + up[2] * eye[2]);
    view[14] = -(back[0] * eye[0] + back[1] * eye[1] + back[2] * eye[2]);
    view[15] = 1.0;
}

/* Vulkan's clip space: y points down the image, depth 0 at the near
 * plane and 1 at the far one; the camera looks down its -Z. */
static void perspective(double yfov, double aspect, double near, double far, double proj[16])
{
    const double f = 1.0 / tan(0.5 * yfov);
    memset(proj, 0, 16 * sizeof *proj);
    proj[0] = f / aspect;
    proj[5] = -f;
    proj[10] = far / (near - far);
    proj[11] = -1.0;
    proj[14] = near * far / (near - far);
}

static void orthographic(double xmag, double ymag, double near, double far, double proj[16])
{
    memset(proj, 0, 16 * sizeof *proj);
    proj[0] = 1.0 / xmag;
    proj[5] = -1.0 / ymag;
    proj[10] = -1.0 / (far - near);
    proj[14] = -near / (far - near);
    proj[15] = 1.0;
}

/* clip_from_world: a perspective camera on the +Z side of the centre,
 * MODEL_ELEVATION_DEG above it, looking at the centre, far enough that
 * the bounding sphere fits the narrower field of view; Vulkan's clip
 * space (y down, depth 0 at the near plane, 1 at the far one). */
static void model_camera(const model *m, uint32_t width, uint32_t height, double clip_from_world[16])
{
    double c[3], radius;
    model_bounds(m, c, &radius);
    const double pi = 3.14159265358979323846;
    const double aspect = (double)width / height;
    const double half_fovy = MODEL_FOVY_DEG * pi / 360.0;
    const double half_fovx = atan(tan(half_fovy) * aspect);
    const double half_min = fmin(half_fovy, half_fovx);
    const double dist = MODEL_MARGIN * radius / sin(half_min);
    const double el = MODEL_ELEVATION_DEG * pi / 180.0;
    /* The camera's axes in world space: back (towards the eye), right, up. */
    const double back[3] = {0.0, sin(el), cos(el)};
    const double right[3] = {1.0, 0.0, 0.0};
    const double up[3] = {0.0, cos(el), -sin(el)};
    const double eye[3] = {c[0] + dist * back[0], c[1] + dist * back[1], c[2] + dist * back[2]};
    double view[16], proj[16];
    view_from_basis(right, up, back, eye, view);
    /* Near and far hug the sphere, so that depth keeps its precision. */
    const double near = fmax(dist - radius * 1.01, dist * 1e-3), far = dist + radius * 1.01;
    perspective(2.0 * half_fovy, aspect, near, far, proj);
    mat_mul(clip_from_world, proj, view);
}

static double norm3(double v[3])
{
    const double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0 && isfinite(l))
        for (int i = 0; i < 3; i++)
            v[i] /= l;
    return l;
}

/* --camera N: the file's camera at its node.  assimp gives position,
 * look-at direction and up in the node's space.  The vertical field of
 * view: glTF's yfov, which assimp 5.2's glTF importer stores as
 * mHorizontalFOV = yfov * aspectRatio (aspect 0 read as 1); other formats
 * follow assimp's documentation (mHorizontalFOV is half the horizontal
 * angle, kept for the image's aspect).  Orthographic cameras
 * (mOrthographicWidth > 0: half the width; half height = that / mAspect)
 * stretch to the image as glTF's xmag / ymag do.  A far plane at or
 * before the near one (glTF's infinite projection) becomes 1e6 x near. */
static int model_file_camera(const model *m, uint32_t width, uint32_t height, double clip_from_world[16],
                             char *msg, size_t msg_size)
{
    const struct aiCamera *cam = m->camera;
    const double *w = m->camera_world;
    /* glTF's camera sits at its node's origin looking down -Z, +Y up (the
     * spec's): assimp 5.2 also copies the node's translation into
     * mPosition, which would count it twice. */
    const int gltf = model_ext_is(m->path, (const char *const[]){".gltf", ".glb", NULL});
    double p[3] = {cam->mPosition.x, cam->mPosition.y, cam->mPosition.z};
    double l[3] = {cam->mLookAt.x, cam->mLookAt.y, cam->mLookAt.z};
    double u[3] = {cam->mUp.x, cam->mUp.y, cam->mUp.z};
    if (gltf) {
        const double gp[3] = {0, 0, 0}, gl[3] = {0, 0, -1}, gu[3] = {0, 1, 0};
        memcpy(p, gp, sizeof p);
        memcpy(l, gl, sizeof l);
        memcpy(u, gu, sizeof u);
    }
    double eye[3], back[3], up[3], right[3];
    for (int r = 0; r < 3; r++) {
        eye[r] = w[r] * p[0] + w[4 + r] * p[1] + w[8 + r] * p[2] + w[12 + r];
        back[r] = -(w[r] * l[0] + w[4 + r] * l[1] + w[8 + r] * l[2]);
        up[r] = w[r] * u[0] + w[4 + r] * u[1] + w[8 + r] * u[2];
    }
    right[0] = up[1] * back[2] - up[2] * back[1];
    right[1] = up[2] * back[0] - up[0] * back[2];
    right[2] = up[0] * back[1] - up[1] * back[0];
    if (!(norm3(back) > 0.0) || !(norm3(right) > 0.0))
        return fail(msg, msg_size, "%s: camera '%s': its look-at and up directions are zero or parallel", m->path,
                    cam->mName.data);
    up[0] = back[1] * right[2] - back[2] * right[1];
    up[1] = back[2] * right[0] - back[0] * right[2];
    up[2] = back[0] * right[1] - back[1] * right[0];
    double near = cam->mClipPlaneNear, far = cam->mClipPlaneFar;
    if (!(near > 0.0) || !isfinite(near))
        near = 0.01;
    if (!(far > near) || !isfinite(far))
        far = near * 1e6;
    const double aspect = (double)width / height;
    double view[16], proj[16];
    view_from_basis(right, up, back, eye, view);
    if (cam->mOrthographicWidth > 0.0f) {
        const double xmag = cam->mOrthographicWidth;
        const double ymag = cam->mAspect > 0.0f ? xmag / cam->mAspect : xmag;
        orthographic(xmag, ymag, near, far, proj);
    } else {
        double yfov;
        if (gltf)
            yfov = cam->mHorizontalFOV / (cam->mAspect > 0.0f ? cam->mAspect : 1.0f);
        else
            yfov = 2.0 * atan(tan(cam->mHorizontalFOV) / aspect);
        if (!(yfov > 0.0 && yfov < 3.14))
            return fail(msg, msg_size, "%s: camera '%s': a field of view of %g radians", m->path, cam->mName.data,
                        yfov);
        perspective(yfov, aspect, near, far, proj);
    }
    mat_mul(clip_from_world, proj, view);
    return 0;
}

/* The inverse transpose of the world matrix's 3x3 (cofactors over the
 * determinant), for normals; a singular matrix gives its cofactors alone
 * (the shader normalises, so only the direction matters). */
static void normal_matrix(const double w[16], float out[16])
{
    const double a = w[0], b = w[4], c = w[8], d = w[1], e = w[5], f = w[9], g = w[2], h = w[6], i = w[10];
    /* cof[row][col] of the matrix [[a b c][d e f][g h i]]: the inverse
     * transpose is cof / det. */
    const double cof[3][3] = {{e * i - f * h, f * g - d * i, d * h - e * g},
                              {c * h - b * i, a * i - c * g, b * g - a * h},
                              {b * f - c * e, c * d - a * f, a * e - b * d}};
    const double det = a * cof[0][0] + b * cof[0][1] + c * cof[0][2];
    const double s = det != 0.0 ? 1.0 / det : 1.0;
    memset(out, 0, 16 * sizeof *out);
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++)
            out[col * 4 + r] = (float)(cof[r][col] * s);
    out[15] = 1.0f;
}

static model_constants model_draw_constants(const model *m, const model_draw *d, const double clip_from_world[16])
{
    model_constants u;
    memset(&u, 0, sizeof u);
    double clip[16];
    mat_mul(clip, clip_from_world, d->world);
    for (int i = 0; i < 16; i++)
        u.clip_from_model[i] = (float)clip[i];
    normal_matrix(d->world, u.world_normal);
    memcpy(u.base_color, m->materials[m->meshes[d->mesh].material].base_color, sizeof u.base_color);
    const float *l = model_light_dir;
    const float len = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    for (int i = 0; i < 3; i++) {
        u.light_dir[i] = l[i] / len;
        u.light_color[i] = 1.0f;
    }
    u.light_dir[3] = model_ambient;
    u.light_color[3] = 1.0f;
    return u;
}

/* ---- drawing ------------------------------------------------------------------------------- */

typedef struct model_gpu {
    tr_shader_module *vs, *fs;
    tr_pipeline *cull_back, *cull_back_mirrored, *cull_none;
    tr_sampler *sampler;
    tr_image *white, *depth;
} model_gpu;

/* Where shaders/model.* are, as tilerast-bench finds scene.*:
 * $TILERAST_SHADERS, else the installed copy (TILERAST_MODEL_INSTALLED_SHADERS
 * from this executable's folder, so that the prefix may move), else the
 * source tree's. */
static void model_shader_path(const char *name, char *out, size_t cap)
{
    const char *env = getenv("TILERAST_SHADERS");
    if (env != NULL && env[0] != '\0') {
        snprintf(out, cap, "%s/%s", env, name);
        return;
    }
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            const int k = snprintf(out, cap, "%.3800s/" TILERAST_MODEL_INSTALLED_SHADERS "/%s", self, name);
            if (k > 0 && (size_t)k < cap && access(out, R_OK) == 0)
                return;
        }
    }
    snprintf(out, cap, "%s/%s", TILERAST_MODEL_SHADER_DIR, name);
}

static int model_module(tr_context *ctx, const char *given, const char *name, int fragment, tr_shader_module **out,
                        char *msg, size_t msg_size)
{
    char path[4096];
    if (given != NULL)
        snprintf(path, sizeof path, "%s", given);
    else
        model_shader_path(name, path, sizeof path);
    char err[4096];
    size_t words = 0;
    uint32_t *code = tool_shader_spirv(path, fragment, 0, &words, err, sizeof err);
    if (code == NULL)
        return fail(msg, msg_size, "%s shader: %s", fragment ? "fragment" : "vertex", err);
    const tr_shader_module_desc d = {.code = code, .code_size = words * 4};
    tr_result r = tr_shader_module_create(ctx, &d, out);
    free(code);
    if (r != TR_OK)
        return fail(msg, msg_size, "%s: %s (%s)", path, tr_result_string(r), tr_context_last_error(ctx));
    return 0;
}

static int model_pipeline(tr_context *ctx, const model_gpu *g, tr_cull_mode cull, tr_front_face front,
                          tr_pipeline **out, char *msg, size_t msg_size)
{
    tr_pipeline_desc d;
    memset(&d, 0, sizeof d);
    d.vertex_module = g->vs;
    d.fragment_module = g->fs;
    d.topology = TR_TOPOLOGY_TRIANGLE_LIST;
    d.cull_mode = cull;
    /* glTF's front faces wind counter-clockwise in GL's y-up window; the
     * projection's y flip keeps them counter-clockwise as Vulkan counts.
     * A mirroring world matrix (negative determinant) turns them round. */
    d.front_face = front;
    d.depth_test = 1;
    d.depth_write = 1;
    d.depth_compare = TR_COMPARE_LESS;
    d.bindings[0].stride = (uint32_t)sizeof(model_vertex);
    d.attributes[0].format = TR_VERTEX_FORMAT_R32G32B32_SFLOAT;
    d.attributes[0].offset = (uint32_t)offsetof(model_vertex, position);
    d.attributes[1].format = TR_VERTEX_FORMAT_R32G32B32_SFLOAT;
    d.attributes[1].offset = (uint32_t)offsetof(model_vertex, normal);
    d.attributes[2].format = TR_VERTEX_FORMAT_R32G32_SFLOAT;
    d.attributes[2].offset = (uint32_t)offsetof(model_vertex, uv);
    tr_result r = tr_pipeline_create(ctx, &d, out);
    if (r != TR_OK)
        return fail(msg, msg_size, "creating the model pipeline: %s (%s)", tr_result_string(r),
                    tr_context_last_error(ctx));
    return 0;
}

static int model_gpu_create(tr_context *ctx, const tool_model_options *o, uint32_t w, uint32_t h, model_gpu *g,
                            char *msg, size_t msg_size)
{
    if (model_module(ctx, o->vertex_shader, "model.vert", 0, &g->vs, msg, msg_size) != 0 ||
        model_module(ctx, o->fragment_shader, "model.frag", 1, &g->fs, msg, msg_size) != 0 ||
        model_pipeline(ctx, g, TR_CULL_BACK, TR_FRONT_FACE_CCW, &g->cull_back, msg, msg_size) != 0 ||
        model_pipeline(ctx, g, TR_CULL_BACK, TR_FRONT_FACE_CW, &g->cull_back_mirrored, msg, msg_size) != 0 ||
        model_pipeline(ctx, g, TR_CULL_NONE, TR_FRONT_FACE_CCW, &g->cull_none, msg, msg_size) != 0)
        return -1;
    /* Trilinear, repeating: glTF's default sampler. */
    const tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .mipmap_mode = TR_MIPMAP_LINEAR};
    const tr_image_desc wd = {.format = TR_FORMAT_R8G8B8A8_SRGB, .width = 1, .height = 1};
    const tr_image_desc dd = {.format = TR_FORMAT_D32_SFLOAT, .width = w, .height = h};
    const uint8_t white[4] = {255, 255, 255, 255};
    tr_result r = tr_sampler_create(ctx, &sd, &g->sampler);
    if (r == TR_OK)
        r = tr_image_create(ctx, &wd, &g->white);
    if (r == TR_OK)
        r = tr_image_upload(g->white, NULL, white, 0);
    if (r == TR_OK)
        r = tr_image_create(ctx, &dd, &g->depth);
    if (r != TR_OK)
        return fail(msg, msg_size, "creating the sampler and images: %s (%s)", tr_result_string(r),
                    tr_context_last_error(ctx));
    return 0;
}

static void model_gpu_destroy(model_gpu *g)
{
    tr_pipeline_destroy(g->cull_back);
    tr_pipeline_destroy(g->cull_back_mirrored);
    tr_pipeline_destroy(g->cull_none);
    tr_shader_module_destroy(g->vs);
    tr_shader_module_destroy(g->fs);
    tr_sampler_destroy(g->sampler);
    tr_image_destroy(g->white);
    tr_image_destroy(g->depth);
}

/* One draw: its pipeline (culling per material), constants, texture and
 * buffers.  Returns the first failing call's result. */
static tr_result model_record_draw(tr_context *ctx, const model *m, const model_gpu *g, const model_draw *d,
                                   const double clip_from_world[16])
{
    const model_mesh *mesh = &m->meshes[d->mesh];
    const model_material *mat = &m->materials[mesh->material];
    const model_constants u = model_draw_constants(m, d, clip_from_world);
    const double *w = d->world;
    const double det = w[0] * (w[5] * w[10] - w[9] * w[6]) - w[4] * (w[1] * w[10] - w[9] * w[2]) +
                       w[8] * (w[1] * w[6] - w[5] * w[2]);
    tr_result r = tr_cmd_bind_pipeline(ctx, mat->two_sided ? g->cull_none
                                            : det < 0.0     ? g->cull_back_mirrored
                                                            : g->cull_back);
    if (r == TR_OK)
        r = tr_cmd_set_uniforms(ctx, &u, sizeof u);
    if (r == TR_OK)
        r = tr_cmd_bind_texture(ctx, 0, mat->texture ? mat->texture : g->white, g->sampler);
    if (r == TR_OK)
        r = tr_cmd_bind_vertex_buffer(ctx, 0, mesh->vertices, (size_t)mesh->vertex_count * sizeof(model_vertex), 0);
    if (r == TR_OK)
        r = tr_cmd_bind_index_buffer(ctx, mesh->indices, (size_t)mesh->index_count * sizeof(uint32_t), 0,
                                     TR_INDEX_U32);
    if (r == TR_OK)
        r = tr_cmd_draw_indexed(ctx, mesh->index_count, 1, 0, 0, 0);
    return r;
}

static int model_draw_all(tr_context *ctx, const model *m, const model_gpu *g, tr_image *color, uint32_t w,
                          uint32_t h, tr_pass_stats *stats, char *msg, size_t msg_size)
{
    double clip_from_world[16] = {0};
    if (m->camera == NULL)
        model_camera(m, w, h, clip_from_world);
    else if (model_file_camera(m, w, h, clip_from_world, msg, msg_size) != 0)
        return -1;
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    memcpy(rp.color[0].clear_color, model_clear, sizeof model_clear);
    rp.depth.image = g->depth;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.depth_store_op = TR_STORE_OP_DONT_CARE;
    rp.depth.stencil_load_op = TR_LOAD_OP_DONT_CARE;
    rp.depth.stencil_store_op = TR_STORE_OP_DONT_CARE;
    rp.depth.clear_depth = 1.0f;
    tr_result r = tr_cmd_begin_render_pass(ctx, &rp);
    if (r != TR_OK)
        return fail(msg, msg_size, "%s: beginning the pass: %s (%s)", m->path, tr_result_string(r),
                    tr_context_last_error(ctx));
    const tr_viewport vp = {0.0f, 0.0f, (float)w, (float)h, 0.0f, 1.0f};
    tr_result rec = tr_cmd_set_viewport(ctx, &vp);
    uint32_t failed = 0;
    for (uint32_t i = 0; i < m->draw_count && rec == TR_OK; i++) {
        rec = model_record_draw(ctx, m, g, &m->draws[i], clip_from_world);
        failed = i;
    }
    if (rec != TR_OK) {
        /* Keep the draw's message: ending the pass clears it. */
        fail(msg, msg_size, "%s: mesh %u (draw %u): %s (%s)", m->path, m->draws[failed].mesh, failed,
             tr_result_string(rec), tr_context_last_error(ctx));
        tr_cmd_end_render_pass(ctx, NULL);
        return -1;
    }
    r = tr_cmd_end_render_pass(ctx, stats);
    if (r != TR_OK)
        return fail(msg, msg_size, "%s: rendering: %s (%s)", m->path, tr_result_string(r),
                    tr_context_last_error(ctx));
    return 0;
}

static void model_free(model *m)
{
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        free(m->meshes[i].vertices);
        free(m->meshes[i].indices);
    }
    free(m->meshes);
    free(m->materials);
    free(m->draws);
    for (uint32_t i = 0; i < m->texture_count; i++) {
        free(m->texture_keys[i]);
        tr_image_destroy(m->texture_images[i]);
    }
    free(m->texture_keys);
    free(m->texture_images);
    if (m->scene != NULL)
        aiReleaseImport(m->scene);
}

/* Import and check: meshes, the node tree's instances, then the
 * materials they use. */
static int model_import(tr_context *ctx, model *m, int camera, char *msg, size_t msg_size)
{
    m->scene = aiImportFile(m->path, MODEL_IMPORT_FLAGS);
    if (m->scene == NULL)
        return fail(msg, msg_size, "%s: assimp: %s", m->path, aiGetErrorString());
    if (m->scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE || m->scene->mRootNode == NULL)
        return fail(msg, msg_size, "%s: assimp imported an incomplete scene (no node tree)", m->path);
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (camera >= 0) {
        if ((uint32_t)camera >= m->scene->mNumCameras)
            return fail(msg, msg_size, "%s: --camera %d: the file has %u camera%s", m->path, camera,
                        m->scene->mNumCameras, m->scene->mNumCameras == 1 ? "" : "s");
        m->camera = m->scene->mCameras[camera];
    }
    if (model_read_meshes(m, msg, msg_size) != 0 || model_walk(m, m->scene->mRootNode, identity, 0, msg, msg_size) != 0)
        return -1;
    if (m->camera != NULL && !m->camera_found)
        return fail(msg, msg_size, "%s: camera %d '%s': no node carries it", m->path, camera, m->camera->mName.data);
    if (m->draw_count == 0)
        return fail(msg, msg_size, "%s: no triangle mesh to draw (%u meshes, none with triangles in the node tree)",
                    m->path, m->mesh_count);
    return model_read_materials(ctx, m, msg, msg_size);
}

int tool_model_render(tr_context *ctx, const char *path, const tool_model_options *o, tr_image **out,
                      tr_pass_stats *stats, tool_model_info *info, char *msg, size_t msg_size)
{
    const uint32_t w = o->width ? o->width : TOOL_MODEL_WIDTH, h = o->height ? o->height : TOOL_MODEL_HEIGHT;
    model m;
    memset(&m, 0, sizeof m);
    m.path = path;
    model_gpu g;
    memset(&g, 0, sizeof g);
    *out = NULL;
    int status = model_import(ctx, &m, o->camera - 1, msg, msg_size);
    if (status == 0)
        status = model_gpu_create(ctx, o, w, h, &g, msg, msg_size);
    if (status == 0) {
        const tr_image_desc cd = {.format = TR_FORMAT_R8G8B8A8_SRGB, .width = w, .height = h};
        tr_result r = tr_image_create(ctx, &cd, out);
        if (r != TR_OK)
            status = fail(msg, msg_size, "creating the %ux%u image: %s", w, h, tr_result_string(r));
    }
    if (status == 0)
        status = model_draw_all(ctx, &m, &g, *out, w, h, stats, msg, msg_size);
    if (status == 0 && info != NULL) {
        memset(info, 0, sizeof *info);
        info->width = w;
        info->height = h;
        info->draws = m.draw_count;
        info->meshes = m.mesh_count;
        info->textures = m.texture_count;
        for (uint32_t i = 0; i < m.draw_count; i++)
            info->triangles += m.meshes[m.draws[i].mesh].index_count / 3;
    }
    model_gpu_destroy(&g);
    model_free(&m);
    if (status != 0 && *out != NULL) {
        tr_image_destroy(*out);
        *out = NULL;
    }
    return status;
}

#endif /* TILERAST_HAVE_ASSIMP */
