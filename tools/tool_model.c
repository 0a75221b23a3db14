/* tilerast-render: models through assimp, the import half (tool_model.h).
 *
 * aiImportFile -> checked meshes (indexed vertices with tangents, 48 bytes
 * each) and materials (glTF's metallic-roughness: factors, five textures,
 * alpha mode, double-sidedness) -> one draw per mesh instance of the node
 * tree, its world matrix the product of the node transforms -> a camera
 * (the file's or an automatic one) and the lights (the file's
 * KHR_lights_punctual ones or the default light) -> each draw's uniform
 * block, and the drawing order: opaque and masked draws in node order,
 * blended ones after them, back to front. */
#define _POSIX_C_SOURCE 200809L

#include "tool_model.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"
#include "tool_shader.h"

/* The linear clear colour (sRGB-encoded when stored). */
const float tool_model_clear[4] = {0.18f, 0.18f, 0.2f, 1.0f};

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

int tool_model_load(tr_context *ctx, const char *path, int camera, uint32_t width, uint32_t height,
                    tool_model **out, char *msg, size_t msg_size)
{
    (void)ctx, (void)camera, (void)width, (void)height;
    *out = NULL;
    snprintf(msg, msg_size,
             "%s: this program was built without assimp, so it reads no models "
             "(install libassimp-dev, scripts/deps.sh does, and configure again)", path);
    return -1;
}

uint32_t tool_model_draws(const tool_model *m, const tool_model_draw **draws)
{
    (void)m;
    *draws = NULL;
    return 0;
}

uint32_t tool_model_mesh_count(const tool_model *m) { return (void)m, 0; }
uint32_t tool_model_texture_count(const tool_model *m) { return (void)m, 0; }
uint32_t tool_model_light_count(const tool_model *m) { return (void)m, 0; }
void tool_model_free(tool_model *m) { (void)m; }

#else

#include <assimp/GltfMaterial.h>
#include <assimp/cimport.h>
#include <assimp/light.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "tool_stb.h" /* embedded (compressed) textures: tr_image_load reads files only */

/* Limits that turn a hostile file into an error instead of a huge
 * allocation or a deep recursion: a node tree deeper than this, or more
 * mesh instances, is refused (real scenes are far below both). */
#define MODEL_MAX_DEPTH 256u
#define MODEL_MAX_DRAWS (1u << 20)
/* Embedded textures larger than this (either side) are refused: the
 * library's largest image side (TR_MAX_IMAGE_SIZE) is the real limit. */
#define MODEL_MAX_TEXTURE_SIDE 16384u

/* The automatic camera and the default light (README.md, "Models"). */
#define MODEL_FOVY_DEG 45.0         /* vertical field of view */
#define MODEL_ELEVATION_DEG 20.0    /* the eye's angle above the horizontal plane through the centre */
#define MODEL_MARGIN 1.05           /* the sphere fills 1/1.05 of the narrower field */
static const float model_light_dir[3] = {-0.3f, 0.8f, 0.52f}; /* towards the light, normalised below */
/* The default light's colour x intensity: a white Lambertian surface
 * facing it reflects 3 / pi = 0.95 (the BRDF's diffuse term is c / pi). */
static const float model_light_intensity = 3.0f;
static const float model_ambient = 0.2f; /* x base colour x occlusion: the indirect light */

/* The import steps (assimp/postprocess.h): triangles only, shared vertices
 * merged for indexed draws, smooth normals where the file has none,
 * tangents where the file has none (from the normals and texture
 * coordinates: a normal map needs them), one primitive type a mesh (so
 * lines and points come apart and are skipped), assimp's own structure
 * checks, and texture coordinates with t = 0 at the image's first row
 * (Vulkan's, and tr_image_load's, order). */
#define MODEL_IMPORT_FLAGS                                                                          \
    (aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |        \
     aiProcess_CalcTangentSpace | aiProcess_SortByPType | aiProcess_ValidateDataStructure |        \
     aiProcess_FlipUVs)

typedef struct model_mesh {
    tool_model_vertex *vertices;
    uint32_t *indices;
    uint32_t vertex_count, index_count; /* index_count 0: not drawn (lines, points) */
    double lo[3], hi[3];                /* bounds in the mesh's space */
    uint32_t material;
} model_mesh;

enum { MODEL_OPAQUE = 0, MODEL_MASK = 1, MODEL_BLEND = 2 };

typedef struct model_material {
    float base_color[4];
    float emissive[3];
    float metallic, roughness, normal_scale, occlusion_strength, alpha_cutoff;
    int alpha_mode; /* MODEL_OPAQUE, _MASK, _BLEND */
    int two_sided;
    tr_image *textures[TOOL_MODEL_TEXTURES]; /* NULL: the default */
} model_material;

typedef struct model_instance {
    uint32_t mesh;
    double world[16]; /* column-major */
} model_instance;

struct tool_model {
    const char *path;
    const struct aiScene *scene;
    model_mesh *meshes;
    model_material *materials;
    model_instance *instances;
    uint32_t mesh_count, material_count, instance_count, instance_capacity;
    tool_model_draw *draws; /* instance_count of them, in drawing order */
    /* Loaded textures by resolved path and format, so that materials
     * sharing one load it once; and the 1x1 defaults. */
    char **texture_keys;
    tr_image **texture_images;
    uint32_t texture_count;
    tr_image *white;
    /* --camera: the file's camera and the world matrix of the node that
     * carries it (found by name during the walk). */
    const struct aiCamera *camera;
    int camera_found;
    double camera_world[16];
    /* The file's lights (KHR_lights_punctual) with their nodes' world
     * matrices, the first TOOL_MODEL_MAX_LIGHTS found in the node tree. */
    const struct aiLight *lights[TOOL_MODEL_MAX_LIGHTS];
    double light_world[TOOL_MODEL_MAX_LIGHTS][16];
    uint32_t light_count;
};
typedef struct tool_model model;


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
/* ---- meshes -------------------------------------------------------------------------------- */

static int finite3(const struct aiVector3D *v)
{
    return isfinite(v->x) && isfinite(v->y) && isfinite(v->z);
}

/* The tangent of vertex v: assimp's (the file's, else aiProcess_CalcTangentSpace's)
 * with glTF's handedness, w = the sign of (N x T) . B; without tangents
 * (no texture coordinates) or with ones that are not finite, (1, 0, 0, 1):
 * only a normal map reads it. */
static void model_tangent(const struct aiMesh *am, uint32_t v, float out[4])
{
    out[0] = 1.0f, out[1] = 0.0f, out[2] = 0.0f, out[3] = 1.0f;
    if (am->mTangents == NULL || !finite3(&am->mTangents[v]))
        return;
    const struct aiVector3D *t = &am->mTangents[v];
    out[0] = t->x, out[1] = t->y, out[2] = t->z;
    if (am->mBitangents == NULL || am->mNormals == NULL || !finite3(&am->mBitangents[v]) ||
        !finite3(&am->mNormals[v]))
        return;
    const struct aiVector3D *n = &am->mNormals[v], *b = &am->mBitangents[v];
    const double c[3] = {(double)n->y * t->z - (double)n->z * t->y, (double)n->z * t->x - (double)n->x * t->z,
                         (double)n->x * t->y - (double)n->y * t->x};
    out[3] = c[0] * b->x + c[1] * b->y + c[2] * b->z < 0.0 ? -1.0f : 1.0f;
}

/* The vertices of one mesh: a position that is not finite is an error
 * (it would poison the bounds and so the camera); a normal, tangent or
 * texture coordinate that is not finite becomes 0 (it only shades). */
static int model_read_vertices(model *m, uint32_t mi, const struct aiMesh *am, model_mesh *mesh, char *msg,
                               size_t msg_size)
{
    mesh->vertices = calloc(am->mNumVertices, sizeof *mesh->vertices);
    if (mesh->vertices == NULL)
        return tool_fail(msg, msg_size, "%s: mesh %u: out of memory for %u vertices", m->path, mi, am->mNumVertices);
    mesh->vertex_count = am->mNumVertices;
    for (int c = 0; c < 3; c++) {
        mesh->lo[c] = INFINITY;
        mesh->hi[c] = -INFINITY;
    }
    const struct aiVector3D *uv = am->mTextureCoords[0];
    for (uint32_t v = 0; v < am->mNumVertices; v++) {
        const struct aiVector3D *p = &am->mVertices[v];
        if (!finite3(p))
            return tool_fail(msg, msg_size, "%s: mesh %u '%s': vertex %u has a position that is not finite (%g, %g, %g)",
                        m->path, mi, am->mName.data, v, (double)p->x, (double)p->y, (double)p->z);
        tool_model_vertex *o = &mesh->vertices[v];
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
        model_tangent(am, v, o->tangent);
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
        return tool_fail(msg, msg_size, "%s: mesh %u: out of memory for %u faces", m->path, mi, am->mNumFaces);
    uint32_t n = 0;
    for (uint32_t f = 0; f < am->mNumFaces; f++) {
        const struct aiFace *face = &am->mFaces[f];
        if (face->mNumIndices != 3)
            continue; /* a point or line left in a triangle mesh */
        for (int k = 0; k < 3; k++) {
            const uint32_t idx = face->mIndices[k];
            if (idx >= am->mNumVertices)
                return tool_fail(msg, msg_size, "%s: mesh %u '%s': face %u index %d is %u, past its %u vertices",
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
        return tool_fail(msg, msg_size, "%s: out of memory for %u meshes", m->path, s->mNumMeshes);
    m->mesh_count = s->mNumMeshes;
    for (uint32_t i = 0; i < s->mNumMeshes; i++) {
        const struct aiMesh *am = s->mMeshes[i];
        model_mesh *mesh = &m->meshes[i];
        if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || am->mNumVertices == 0 || am->mVertices == NULL)
            continue; /* points and lines are skipped (index_count 0) */
        if (am->mMaterialIndex >= s->mNumMaterials)
            return tool_fail(msg, msg_size, "%s: mesh %u '%s': material %u, past the file's %u materials", m->path, i,
                        am->mName.data, am->mMaterialIndex, s->mNumMaterials);
        mesh->material = am->mMaterialIndex;
        if (model_read_vertices(m, i, am, mesh, msg, msg_size) != 0 ||
            model_read_indices(m, i, am, mesh, msg, msg_size) != 0)
            return -1;
    }
    return 0;
}

/* ---- textures and materials ---------------------------------------------------------------- */

/* An embedded texture as an image of `format` with its mip chain: compressed
 * (mHeight 0: mWidth bytes of PNG or JPEG) decoded with stb_image, or raw
 * BGRA texels. */
static int model_embedded_texture(tr_context *ctx, model *m, uint32_t ti, tr_format format, tr_image **out, char *msg,
                                  size_t msg_size)
{
    const struct aiTexture *t = m->scene->mTextures[ti];
    int w = 0, h = 0;
    uint8_t *rgba = NULL;
    if (t->mHeight == 0) {
        if (t->mWidth > (uint32_t)INT32_MAX)
            return tool_fail(msg, msg_size, "%s: embedded texture %u: %u bytes is too large", m->path, ti, t->mWidth);
        int comp = 0;
        rgba = stbi_load_from_memory((const stbi_uc *)t->pcData, (int)t->mWidth, &w, &h, &comp, 4);
        if (rgba == NULL) {
            /* stb's reason may quote the file's bytes, or be empty */
            const char *why = stbi_failure_reason();
            if (why == NULL || why[0] == '\0')
                why = "no reason given";
            return tool_fail(msg, msg_size, "%s: embedded texture %u ('%s', %s): cannot decode: %s", m->path, ti,
                             t->mFilename.data, t->achFormatHint, why);
        }
    } else {
        if (t->mWidth > MODEL_MAX_TEXTURE_SIDE || t->mHeight > MODEL_MAX_TEXTURE_SIDE)
            return tool_fail(msg, msg_size, "%s: embedded texture %u: %ux%u texels is too large", m->path, ti,
                        t->mWidth, t->mHeight);
        w = (int)t->mWidth;
        h = (int)t->mHeight;
        rgba = malloc((size_t)w * h * 4);
        if (rgba == NULL)
            return tool_fail(msg, msg_size, "%s: embedded texture %u: out of memory", m->path, ti);
        for (size_t i = 0; i < (size_t)w * h; i++) {
            rgba[4 * i + 0] = t->pcData[i].r;
            rgba[4 * i + 1] = t->pcData[i].g;
            rgba[4 * i + 2] = t->pcData[i].b;
            rgba[4 * i + 3] = t->pcData[i].a;
        }
    }
    const tr_image_desc d = {.format = format, .width = (uint32_t)w, .height = (uint32_t)h,
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
        return tool_fail(msg, msg_size, "%s: embedded texture %u (%dx%d): %s (%s)", m->path, ti, w, h,
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


/* The texture a material names for `role` (messages: "base colour", ...),
 * as an image of `format` with its mip chain, loaded once per path and
 * format. */
static int model_texture(tr_context *ctx, model *m, uint32_t mi, const char *role, const char *tex_path,
                         tr_format format, tr_image **out, char *msg, size_t msg_size)
{
    const int64_t e = model_embedded_index(m->scene, tex_path);
    if (e == -2)
        return tool_fail(msg, msg_size, "%s: material %u: %s texture '%s' names no embedded texture (the file has %u)",
                    m->path, mi, role, tex_path, m->scene->mNumTextures);
    /* Files written on Windows name textures with backslashes ('.\\a.jpg'). */
    char rel[1024];
    snprintf(rel, sizeof rel, "%s", tex_path);
    for (char *p = rel; *p; p++)
        if (*p == '\\')
            *p = '/';
    char file[4096], key[4200];
    if (e >= 0)
        snprintf(file, sizeof file, "*%lld", (long long)e);
    else if (strlen(tex_path) >= sizeof rel || tool_shader_resolve(m->path, rel, file, sizeof file) != 0)
        return tool_fail(msg, msg_size, "%s: material %u: %s texture '%s': path too long", m->path, mi, role, tex_path);
    snprintf(key, sizeof key, "%d:%s", (int)format, file);
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
        return tool_fail(msg, msg_size, "%s: material %u: out of memory", m->path, mi);
    if (e >= 0) {
        if (model_embedded_texture(ctx, m, (uint32_t)e, format, out, msg, msg_size) != 0) {
            free(k);
            return -1;
        }
    } else {
        tr_result r = tr_image_load(ctx, file, format, TR_LEVELS_ALL, out);
        if (r != TR_OK) {
            free(k);
            return tool_fail(msg, msg_size, "%s: material %u: %s texture '%s' (%s): %s", m->path, mi, role, tex_path,
                        file, r == TR_ERROR_IO ? "cannot open the file" : tr_result_string(r));
        }
    }
    m->texture_keys[m->texture_count] = k;
    m->texture_images[m->texture_count++] = *out;
    return 0;
}

/* A float material property, or `dflt` when absent or not finite. */
static float model_float(const struct aiMaterial *am, const char *key, unsigned type, unsigned index, float dflt)
{
    ai_real v = 0;
    unsigned one = 1;
    if (aiGetMaterialFloatArray(am, key, type, index, &v, &one) != aiReturn_SUCCESS || !isfinite(v))
        return dflt;
    return (float)v;
}

/* The texture of `type` (the first of two types that has one; type2 < 0:
 * only one), or NULL. */
static int model_material_texture(tr_context *ctx, model *m, uint32_t mi, const char *role, int type, int type2,
                                  tr_format format, tr_image **out, char *msg, size_t msg_size)
{
    const struct aiMaterial *am = m->scene->mMaterials[mi];
    struct aiString tex;
    tex.length = 0;
    if (aiGetMaterialTexture(am, (enum aiTextureType)type, 0, &tex, NULL, NULL, NULL, NULL, NULL, NULL) !=
            aiReturn_SUCCESS &&
        (type2 < 0 || aiGetMaterialTexture(am, (enum aiTextureType)type2, 0, &tex, NULL, NULL, NULL, NULL, NULL,
                                           NULL) != aiReturn_SUCCESS))
        return 0;
    if (tex.length == 0)
        return 0;
    return model_texture(ctx, m, mi, role, tex.data, format, out, msg, msg_size);
}

/* glTF's metallic-roughness material as assimp 5.2 gives it (pbrmaterial.h,
 * GltfMaterial.h); other formats fall back to the diffuse colour and
 * texture, a dielectric (metallic 0) of roughness 1.  Two-sidedness:
 * glTF's doubleSided; formats without it draw both sides. */
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
    if (aiGetMaterialColor(am, AI_MATKEY_COLOR_EMISSIVE, &c) == aiReturn_SUCCESS) {
        const float v[3] = {c.r, c.g, c.b};
        for (int i = 0; i < 3; i++)
            mat->emissive[i] = isfinite(v[i]) && v[i] > 0.0f ? v[i] : 0.0f;
    }
    mat->metallic = model_float(am, AI_MATKEY_METALLIC_FACTOR, 0.0f);
    mat->roughness = model_float(am, AI_MATKEY_ROUGHNESS_FACTOR, 1.0f);
    mat->normal_scale = model_float(am, AI_MATKEY_GLTF_TEXTURE_SCALE(aiTextureType_NORMALS, 0), 1.0f);
    mat->occlusion_strength = model_float(am, AI_MATKEY_GLTF_TEXTURE_STRENGTH(aiTextureType_LIGHTMAP, 0), 1.0f);
    mat->alpha_cutoff = model_float(am, AI_MATKEY_GLTF_ALPHACUTOFF, 0.5f);
    struct aiString mode;
    mat->alpha_mode = MODEL_OPAQUE;
    if (aiGetMaterialString(am, AI_MATKEY_GLTF_ALPHAMODE, &mode) == aiReturn_SUCCESS)
        mat->alpha_mode = strcmp(mode.data, "MASK") == 0 ? MODEL_MASK : strcmp(mode.data, "BLEND") == 0 ? MODEL_BLEND
                                                                                                        : MODEL_OPAQUE;
    int two_sided = 0;
    mat->two_sided = aiGetMaterialIntegerArray(am, AI_MATKEY_TWOSIDED, &two_sided, NULL) == aiReturn_SUCCESS
                         ? two_sided != 0
                         : 1; /* unknown: cull nothing */
    const tr_format srgb = TR_FORMAT_R8G8B8A8_SRGB, unorm = TR_FORMAT_R8G8B8A8_UNORM;
    tr_image **t = mat->textures;
    if (model_material_texture(ctx, m, mi, "base colour", aiTextureType_BASE_COLOR, aiTextureType_DIFFUSE, srgb,
                               &t[TOOL_MODEL_TEX_BASE_COLOR], msg, msg_size) != 0 ||
        model_material_texture(ctx, m, mi, "metallic-roughness", aiTextureType_UNKNOWN, -1, unorm,
                               &t[TOOL_MODEL_TEX_METALLIC_ROUGHNESS], msg, msg_size) != 0 ||
        model_material_texture(ctx, m, mi, "normal", aiTextureType_NORMALS, -1, unorm, &t[TOOL_MODEL_TEX_NORMAL],
                               msg, msg_size) != 0 ||
        model_material_texture(ctx, m, mi, "occlusion", aiTextureType_LIGHTMAP, -1, unorm,
                               &t[TOOL_MODEL_TEX_OCCLUSION], msg, msg_size) != 0 ||
        model_material_texture(ctx, m, mi, "emissive", aiTextureType_EMISSIVE, -1, srgb,
                               &t[TOOL_MODEL_TEX_EMISSIVE], msg, msg_size) != 0)
        return -1;
    return 0;
}

static int model_read_materials(tr_context *ctx, model *m, char *msg, size_t msg_size)
{
    const uint32_t n = m->scene->mNumMaterials;
    m->materials = calloc(n ? n : 1, sizeof *m->materials);
    if (m->materials == NULL)
        return tool_fail(msg, msg_size, "%s: out of memory for %u materials", m->path, n);
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

static int model_add_instance(model *m, uint32_t mesh, const double world[16], char *msg, size_t msg_size)
{
    if (m->instance_count == MODEL_MAX_DRAWS)
        return tool_fail(msg, msg_size, "%s: more than %u mesh instances in the node tree", m->path, MODEL_MAX_DRAWS);
    if (m->instance_count == m->instance_capacity) {
        const uint32_t cap = m->instance_capacity ? m->instance_capacity * 2 : 64;
        model_instance *d = realloc(m->instances, cap * sizeof *d);
        if (d == NULL)
            return tool_fail(msg, msg_size, "%s: out of memory for %u mesh instances", m->path, cap);
        m->instances = d;
        m->instance_capacity = cap;
    }
    m->instances[m->instance_count].mesh = mesh;
    memcpy(m->instances[m->instance_count].world, world, sizeof m->instances[0].world);
    m->instance_count++;
    return 0;
}

/* The file's lights that this node carries (assimp names a light after
 * its node): the first TOOL_MODEL_MAX_LIGHTS found in the walk are used. */
static void model_node_lights(model *m, const struct aiNode *node, const double world[16])
{
    const struct aiScene *s = m->scene;
    for (uint32_t i = 0; i < s->mNumLights && m->light_count < TOOL_MODEL_MAX_LIGHTS; i++) {
        const struct aiLight *l = s->mLights[i];
        if (l->mType != aiLightSource_DIRECTIONAL && l->mType != aiLightSource_POINT &&
            l->mType != aiLightSource_SPOT)
            continue;
        int taken = 0;
        for (uint32_t k = 0; k < m->light_count; k++)
            taken |= m->lights[k] == l;
        if (taken || strcmp(l->mName.data, node->mName.data) != 0)
            continue;
        m->lights[m->light_count] = l;
        memcpy(m->light_world[m->light_count], world, sizeof m->light_world[0]);
        m->light_count++;
    }
}

/* Depth-first: the node's world matrix is its parent's times its own
 * transformation.  The depth limit also stops a cycle, should a file
 * ever make one. */
static int model_walk(model *m, const struct aiNode *node, const double parent[16], uint32_t depth, char *msg,
                      size_t msg_size)
{
    if (depth > MODEL_MAX_DEPTH)
        return tool_fail(msg, msg_size, "%s: node '%s': the node tree is deeper than %u (a cycle?)", m->path,
                    node->mName.data, MODEL_MAX_DEPTH);
    double local[16], world[16];
    mat_from_ai(local, &node->mTransformation);
    mat_mul(world, parent, local);
    for (int i = 0; i < 16; i++)
        if (!isfinite(world[i]))
            return tool_fail(msg, msg_size, "%s: node '%s': its transformation is not finite", m->path, node->mName.data);
    if (m->camera != NULL && !m->camera_found && strcmp(node->mName.data, m->camera->mName.data) == 0) {
        memcpy(m->camera_world, world, sizeof m->camera_world);
        m->camera_found = 1;
    }
    model_node_lights(m, node, world);
    for (uint32_t i = 0; i < node->mNumMeshes; i++) {
        const uint32_t mesh = node->mMeshes[i];
        if (mesh >= m->mesh_count)
            return tool_fail(msg, msg_size, "%s: node '%s': mesh %u, past the file's %u meshes", m->path,
                        node->mName.data, mesh, m->mesh_count);
        if (m->meshes[mesh].index_count > 0 && model_add_instance(m, mesh, world, msg, msg_size) != 0)
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
    for (uint32_t d = 0; d < m->instance_count; d++) {
        const model_mesh *mesh = &m->meshes[m->instances[d].mesh];
        const double *w = m->instances[d].world;
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

/* OpenGL's clip space as glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE)
 * takes it (and tilerast's TR_PASS_ORIGIN_LOWER_LEFT): y up, depth 0 at
 * the near plane and 1 at the far one; the camera looks down its -Z. */
static void perspective(double yfov, double aspect, double near, double far, double proj[16])
{
    const double f = 1.0 / tan(0.5 * yfov);
    memset(proj, 0, 16 * sizeof *proj);
    proj[0] = f / aspect;
    proj[5] = f;
    proj[10] = far / (near - far);
    proj[11] = -1.0;
    proj[14] = near * far / (near - far);
}

static void orthographic(double xmag, double ymag, double near, double far, double proj[16])
{
    memset(proj, 0, 16 * sizeof *proj);
    proj[0] = 1.0 / xmag;
    proj[5] = 1.0 / ymag;
    proj[10] = -1.0 / (far - near);
    proj[14] = -near / (far - near);
    proj[15] = 1.0;
}

/* What a draw needs of the camera: clip_from_world, and the eye and the
 * unit vector from the scene towards it (world space), for the
 * specular term and for sorting blended draws. */
typedef struct model_view {
    double clip_from_world[16];
    double eye[3], back[3];
} model_view;

/* The automatic camera: a perspective one on the +Z side of the centre,
 * MODEL_ELEVATION_DEG above it, looking at the centre, far enough that
 * the bounding sphere fits the narrower field of view. */
static void model_camera(const model *m, uint32_t width, uint32_t height, model_view *out)
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
    mat_mul(out->clip_from_world, proj, view);
    memcpy(out->eye, eye, sizeof out->eye);
    memcpy(out->back, back, sizeof out->back);
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
static int model_file_camera(const model *m, uint32_t width, uint32_t height, model_view *out, char *msg,
                             size_t msg_size)
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
        return tool_fail(msg, msg_size, "%s: camera '%s': its look-at and up directions are zero or parallel", m->path,
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
            return tool_fail(msg, msg_size, "%s: camera '%s': a field of view of %g radians", m->path, cam->mName.data,
                        yfov);
        perspective(yfov, aspect, near, far, proj);
    }
    mat_mul(out->clip_from_world, proj, view);
    memcpy(out->eye, eye, sizeof out->eye);
    memcpy(out->back, back, sizeof out->back);
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

/* ---- lights, uniforms and the drawing order ------------------------------------------------ */

static void xform_point(const double w[16], const double p[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = w[r] * p[0] + w[4 + r] * p[1] + w[8 + r] * p[2] + w[12 + r];
}

static void xform_dir(const double w[16], const double d[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = w[r] * d[0] + w[4 + r] * d[1] + w[8 + r] * d[2];
}

/* The lights' four vec4s each (tool_model_uniforms.light): the file's,
 * placed by their nodes, else the default directional light. */
static uint32_t model_lights(const model *m, float out[TOOL_MODEL_MAX_LIGHTS][4][4])
{
    memset(out, 0, sizeof(float) * TOOL_MODEL_MAX_LIGHTS * 16);
    if (m->light_count == 0) {
        double d[3] = {model_light_dir[0], model_light_dir[1], model_light_dir[2]};
        norm3(d);
        for (int i = 0; i < 3; i++) {
            out[0][0][i] = (float)d[i];
            out[0][1][i] = model_light_intensity;
        }
        return 1;
    }
    for (uint32_t i = 0; i < m->light_count; i++) {
        const struct aiLight *l = m->lights[i];
        const double *w = m->light_world[i];
        const double p[3] = {l->mPosition.x, l->mPosition.y, l->mPosition.z};
        const double dl[3] = {l->mDirection.x, l->mDirection.y, l->mDirection.z};
        double pos[3], dir[3];
        xform_point(w, p, pos);
        xform_dir(w, dl, dir);
        if (!(norm3(dir) > 0.0)) /* a point light, or no direction */
            dir[0] = 0.0, dir[1] = 0.0, dir[2] = -1.0;
        const float color[3] = {l->mColorDiffuse.r, l->mColorDiffuse.g, l->mColorDiffuse.b};
        for (int c = 0; c < 3; c++) {
            out[i][0][c] = (float)(l->mType == aiLightSource_DIRECTIONAL ? -dir[c] : pos[c]);
            out[i][1][c] = isfinite(color[c]) && color[c] > 0.0f ? color[c] : 0.0f;
            out[i][2][c] = (float)dir[c];
        }
        out[i][0][3] = l->mType == aiLightSource_DIRECTIONAL ? 0.0f : l->mType == aiLightSource_POINT ? 1.0f : 2.0f;
        if (l->mType == aiLightSource_SPOT) {
            /* KHR_lights_punctual's cone: the angles are from the axis. */
            const double ci = cos(l->mAngleInnerCone), co = cos(l->mAngleOuterCone);
            const double scale = 1.0 / fmax(0.001, ci - co);
            out[i][2][3] = (float)scale;
            out[i][3][0] = (float)(-co * scale);
        }
    }
    return m->light_count;
}

static void model_uniforms(const model *m, const model_instance *d, const model_view *view,
                           tool_model_uniforms *u)
{
    memset(u, 0, sizeof *u);
    double clip[16];
    mat_mul(clip, view->clip_from_world, d->world);
    for (int i = 0; i < 16; i++) {
        u->clip_from_model[i] = (float)clip[i];
        u->world_from_model[i] = (float)d->world[i];
    }
    normal_matrix(d->world, u->world_normal);
    const model_material *mat = &m->materials[m->meshes[d->mesh].material];
    memcpy(u->base_color, mat->base_color, sizeof u->base_color);
    memcpy(u->emissive, mat->emissive, sizeof mat->emissive);
    u->emissive[3] = mat->alpha_cutoff;
    u->material[0] = mat->metallic;
    u->material[1] = mat->roughness;
    u->material[2] = mat->normal_scale;
    u->material[3] = mat->occlusion_strength;
    u->mode[0] = (float)mat->alpha_mode;
    uint32_t present = 0; /* bit t: the material has texture t (model.frag samples only those) */
    for (int t = 0; t < TOOL_MODEL_TEXTURES; t++)
        present |= mat->textures[t] != NULL ? 1u << t : 0u;
    u->mode[1] = (float)present;
    u->mode[2] = (float)model_lights(m, u->light);
    u->mode[3] = model_ambient;
    for (int i = 0; i < 3; i++)
        u->eye[i] = (float)view->eye[i];
    u->eye[3] = 1.0f;
}

/* Blended draws are drawn after the others, furthest first: by the depth
 * along the view axis of their world box's centre (ties keep node order). */
typedef struct model_sort_key {
    double depth;
    uint32_t instance;
} model_sort_key;

static int model_sort_far_first(const void *a, const void *b)
{
    const model_sort_key *x = a, *y = b;
    if (x->depth != y->depth)
        return x->depth < y->depth ? 1 : -1;
    return (x->instance > y->instance) - (x->instance < y->instance);
}

static double model_instance_depth(const model *m, const model_instance *d, const model_view *view)
{
    const model_mesh *mesh = &m->meshes[d->mesh];
    const double c[3] = {0.5 * (mesh->lo[0] + mesh->hi[0]), 0.5 * (mesh->lo[1] + mesh->hi[1]),
                         0.5 * (mesh->lo[2] + mesh->hi[2])};
    double w[3];
    xform_point(d->world, c, w);
    /* The distance in front of the eye: (eye - p) . back. */
    return (view->eye[0] - w[0]) * view->back[0] + (view->eye[1] - w[1]) * view->back[1] +
           (view->eye[2] - w[2]) * view->back[2];
}

static int model_make_draws(model *m, const model_view *view, char *msg, size_t msg_size)
{
    m->draws = calloc(m->instance_count, sizeof *m->draws);
    model_sort_key *keys = calloc(m->instance_count, sizeof *keys);
    if (m->draws == NULL || keys == NULL) {
        free(keys);
        return tool_fail(msg, msg_size, "%s: out of memory for %u draws", m->path, m->instance_count);
    }
    uint32_t n = 0, blended = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < m->instance_count; i++) {
            const model_instance *d = &m->instances[i];
            const int blend = m->materials[m->meshes[d->mesh].material].alpha_mode == MODEL_BLEND;
            if (blend != pass)
                continue;
            if (blend)
                keys[n + blended++] = (model_sort_key){model_instance_depth(m, d, view), i};
            else
                keys[n++] = (model_sort_key){0.0, i};
        }
    qsort(keys + n, blended, sizeof *keys, model_sort_far_first);
    for (uint32_t k = 0; k < m->instance_count; k++) {
        const model_instance *d = &m->instances[keys[k].instance];
        const model_mesh *mesh = &m->meshes[d->mesh];
        const model_material *mat = &m->materials[mesh->material];
        tool_model_draw *out = &m->draws[k];
        out->vertices = mesh->vertices;
        out->indices = mesh->indices;
        out->vertex_count = mesh->vertex_count;
        out->index_count = mesh->index_count;
        out->mesh = d->mesh;
        model_uniforms(m, d, view, &out->uniforms);
        for (int t = 0; t < TOOL_MODEL_TEXTURES; t++)
            out->textures[t] = mat->textures[t] != NULL ? mat->textures[t] : m->white;
        const double *w = d->world;
        const double det = w[0] * (w[5] * w[10] - w[9] * w[6]) - w[4] * (w[1] * w[10] - w[9] * w[2]) +
                           w[8] * (w[1] * w[6] - w[5] * w[2]);
        out->cull_back = !mat->two_sided;
        /* glTF's front faces wind counter-clockwise; a mirroring world
         * matrix (negative determinant) turns them round. */
        out->front_ccw = det >= 0.0;
        out->blend = mat->alpha_mode == MODEL_BLEND;
    }
    free(keys);
    return 0;
}

/* ---- import -------------------------------------------------------------------------------- */

void tool_model_free(tool_model *m)
{
    if (m == NULL)
        return;
    for (uint32_t i = 0; i < m->mesh_count; i++) {
        free(m->meshes[i].vertices);
        free(m->meshes[i].indices);
    }
    free(m->meshes);
    free(m->materials);
    free(m->instances);
    free(m->draws);
    for (uint32_t i = 0; i < m->texture_count; i++) {
        free(m->texture_keys[i]);
        tr_image_destroy(m->texture_images[i]);
    }
    free(m->texture_keys);
    free(m->texture_images);
    tr_image_destroy(m->white);
    if (m->scene != NULL)
        aiReleaseImport(m->scene);
    free(m);
}

static int model_white(tr_context *ctx, model *m, char *msg, size_t msg_size)
{
    const tr_image_desc d = {.format = TR_FORMAT_R8G8B8A8_SRGB, .width = 1, .height = 1};
    const uint8_t white[4] = {255, 255, 255, 255};
    tr_result r = tr_image_create(ctx, &d, &m->white);
    if (r == TR_OK)
        r = tr_image_upload(m->white, NULL, white, 0);
    if (r != TR_OK)
        return tool_fail(msg, msg_size, "creating the default texture: %s (%s)", tr_result_string(r),
                    tr_context_last_error(ctx));
    return 0;
}

/* Import and check: meshes, the node tree's instances, the materials
 * they use, the camera, then the draws. */
int tool_model_load(tr_context *ctx, const char *path, int camera, uint32_t width, uint32_t height,
                    tool_model **out, char *msg, size_t msg_size)
{
    *out = NULL;
    model *m = calloc(1, sizeof *m);
    if (m == NULL)
        return tool_fail(msg, msg_size, "%s: out of memory", path);
    m->path = path;
    int status = -1;
    model_view view;
    memset(&view, 0, sizeof view);
    m->scene = aiImportFile(path, MODEL_IMPORT_FLAGS);
    if (m->scene == NULL) {
        tool_fail(msg, msg_size, "%s: assimp: %s", path, aiGetErrorString());
        goto done;
    }
    if (m->scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE || m->scene->mRootNode == NULL) {
        tool_fail(msg, msg_size, "%s: assimp imported an incomplete scene (no node tree)", path);
        goto done;
    }
    if (camera >= 0) {
        if ((uint32_t)camera >= m->scene->mNumCameras) {
            tool_fail(msg, msg_size, "%s: --camera %d: the file has %u camera%s", path, camera, m->scene->mNumCameras,
                 m->scene->mNumCameras == 1 ? "" : "s");
            goto done;
        }
        m->camera = m->scene->mCameras[camera];
    }
    static const double identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (model_read_meshes(m, msg, msg_size) != 0 || model_walk(m, m->scene->mRootNode, identity, 0, msg, msg_size) != 0)
        goto done;
    if (m->camera != NULL && !m->camera_found) {
        tool_fail(msg, msg_size, "%s: camera %d '%s': no node carries it", path, camera, m->camera->mName.data);
        goto done;
    }
    if (m->instance_count == 0) {
        tool_fail(msg, msg_size, "%s: no triangle mesh to draw (%u meshes, none with triangles in the node tree)", path,
             m->mesh_count);
        goto done;
    }
    if (model_read_materials(ctx, m, msg, msg_size) != 0 || model_white(ctx, m, msg, msg_size) != 0)
        goto done;
    if (m->camera == NULL)
        model_camera(m, width, height, &view);
    else if (model_file_camera(m, width, height, &view, msg, msg_size) != 0)
        goto done;
    status = model_make_draws(m, &view, msg, msg_size);
done:
    if (status != 0) {
        /* Names and reasons quoted from the file may hold control bytes:
         * a message must print as one line. */
        for (char *c = msg; msg_size > 0 && *c != '\0'; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        tool_model_free(m);
    }
    else
        *out = m;
    return status;
}

uint32_t tool_model_draws(const tool_model *m, const tool_model_draw **draws)
{
    *draws = m->draws;
    return m->instance_count;
}

uint32_t tool_model_mesh_count(const tool_model *m)
{
    return m->mesh_count;
}

uint32_t tool_model_texture_count(const tool_model *m)
{
    return m->texture_count;
}

uint32_t tool_model_light_count(const tool_model *m)
{
    return m->light_count;
}

#endif /* TILERAST_HAVE_ASSIMP */
