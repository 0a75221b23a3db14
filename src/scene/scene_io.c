/* The neutral scene file "SRSCENE1" / "SRSCENE2" / "SRSCENE3" (README.md,
 * "The scene file"; bench/SCENES.md): reading, writing.  Version 2 adds
 * lines and points: a 40-byte header (the 32 of version 1, then the line
 * width or point size and a reserved word) and the flags LINES, POINTS,
 * RECT_LINES.  Version 3 is version 2 followed by two length-prefixed
 * paths, the vertex and fragment shader files (tr_scene.vertex_shader,
 * fragment_shader), before the vertices.  A scene of triangles without
 * shaders is written as version 1 and one of lines or points as version 2,
 * so that older readers still read them (and files stay byte for byte what
 * they were before version 3).
 *
 * Consumes bytes (a buffer or a file); produces a validated tr_scene.  The
 * file is little-endian whatever the host: every field is assembled from
 * bytes, never read through a struct cast, so alignment and padding of
 * tr_scene_vertex do not matter.  Everything a renderer relies on is checked
 * here (sizes, flags, counts); vertex positions are passed through as they
 * are, NaN included, because rejecting them is the renderer's job. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SCENE_MAGIC "SRSCENE1"
#define SCENE_MAGIC2 "SRSCENE2"
#define SCENE_MAGIC3 "SRSCENE3"
#define SCENE_HEADER_BYTES 32u
#define SCENE_HEADER2_BYTES 40u
#define SCENE_VERTEX_BYTES 20u
#define SCENE_KNOWN_FLAGS \
    (TR_SCENE_DEPTH | TR_SCENE_BLEND_ALPHA | TR_SCENE_BLEND_ADD | TR_SCENE_FLAT)
#define SCENE_KNOWN_FLAGS2 (SCENE_KNOWN_FLAGS | TR_SCENE_LINES | TR_SCENE_POINTS | TR_SCENE_RECT_LINES)
#define SCENE_V2_FLAGS (TR_SCENE_LINES | TR_SCENE_POINTS | TR_SCENE_RECT_LINES)

/* Vertices decoded per chunk when streaming from a file: bounded memory for
 * the raw bytes whatever the scene size (a multiple of 3: whole triangles). */
#define SCENE_CHUNK_VERTICES 3072u

/* A message for the caller's buffer (when given) and the thread's last
 * error (result.h: tr_last_error), which callers without a buffer read. */
static void scene_message(char *msg, size_t msg_size, const char *fmt, ...)
{
    char text[TR__ERROR_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (text[0])
        tr__error(NULL, TR_ERROR_BAD_FILE, "%s", text);
    if (msg != NULL && msg_size != 0)
        snprintf(msg, msg_size, "%s", text);
}

static uint32_t scene_read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static float scene_read_f32(const uint8_t *p)
{
    uint32_t bits = scene_read_u32(p);
    float f;
    memcpy(&f, &bits, sizeof f); /* the bit pattern as is: NaN payloads survive */
    return f;
}

static void scene_write_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void scene_write_f32(uint8_t *p, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    scene_write_u32(p, bits);
}

uint32_t tr_scene_prim_vertices(uint32_t flags)
{
    return flags & TR_SCENE_POINTS ? 1u : flags & TR_SCENE_LINES ? 2u : 3u;
}

/* The file version tr_scene_save writes: 3 when the scene names a shader,
 * else 2 when it draws lines or points, else 1. */
static uint32_t scene_write_version(const tr_scene *scene)
{
    if (scene->vertex_shader[0] || scene->fragment_shader[0])
        return 3;
    return scene->flags & SCENE_V2_FLAGS ? 2 : 1;
}

/* The header's size (the path section of version 3 not included). */
static uint32_t scene_version_header_bytes(uint32_t version)
{
    return version == 1 ? SCENE_HEADER_BYTES : SCENE_HEADER2_BYTES;
}

/* The exact file size a primitive count needs.  In 64 bits: 60 * ntris
 * overflows 32 bits from ntris = 71,582,789 on, and a wrapped size could make
 * a short file look right. */
static uint64_t scene_file_size(uint64_t header_bytes, uint32_t flags, uint32_t count)
{
    return header_bytes + (uint64_t)SCENE_VERTEX_BYTES * tr_scene_prim_vertices(flags) * count;
}

/* The version from the magic (the first 8 bytes); 0: not a scene. */
static uint32_t scene_magic_version(const uint8_t *h)
{
    return memcmp(h, SCENE_MAGIC, 8) == 0    ? 1
           : memcmp(h, SCENE_MAGIC2, 8) == 0 ? 2
           : memcmp(h, SCENE_MAGIC3, 8) == 0 ? 3
                                             : 0;
}

/* The header's size from its magic; 0: not a scene. */
static uint32_t scene_magic_header_bytes(const uint8_t *h)
{
    const uint32_t v = scene_magic_version(h);
    return v ? scene_version_header_bytes(v) : 0;
}

/* Validates the header (32 or 40 bytes, by its magic) and fills every
 * field of *out but vertices and the shader paths. */
static tr_result scene_parse_header(const uint8_t *h, tr_scene *out, char *msg, size_t msg_size)
{
    const uint32_t hb = scene_magic_header_bytes(h);
    if (!hb) {
        scene_message(msg, msg_size, "wrong magic: not an SRSCENE1, SRSCENE2 or SRSCENE3 scene file");
        return TR_ERROR_BAD_FILE;
    }
    uint32_t width = scene_read_u32(h + 8);
    uint32_t height = scene_read_u32(h + 12);
    uint32_t flags = scene_read_u32(h + 16);
    float clear_depth = scene_read_f32(h + 24);
    uint32_t triangle_count = scene_read_u32(h + 28);

    if (width == 0 || height == 0) {
        scene_message(msg, msg_size, "%s is 0", width == 0 ? "width" : "height");
        return TR_ERROR_BAD_FILE;
    }
    if (width > TR_MAX_IMAGE_SIZE || height > TR_MAX_IMAGE_SIZE) {
        scene_message(msg, msg_size, "%s %u exceeds TR_MAX_IMAGE_SIZE (%u)",
                      width > TR_MAX_IMAGE_SIZE ? "width" : "height",
                      width > TR_MAX_IMAGE_SIZE ? width : height, TR_MAX_IMAGE_SIZE);
        return TR_ERROR_LIMIT_EXCEEDED;
    }
    const uint32_t known = hb == SCENE_HEADER2_BYTES ? SCENE_KNOWN_FLAGS2 : SCENE_KNOWN_FLAGS;
    if (flags & ~known) {
        scene_message(msg, msg_size, "unknown flag bits 0x%x in flags 0x%x%s", flags & ~known, flags,
                      hb == SCENE_HEADER_BYTES && (flags & SCENE_V2_FLAGS) ? " (lines and points need SRSCENE2 or 3)" : "");
        return TR_ERROR_BAD_FILE;
    }
    if ((flags & TR_SCENE_LINES) && (flags & TR_SCENE_POINTS)) {
        scene_message(msg, msg_size, "flags ask for both LINES and POINTS");
        return TR_ERROR_BAD_FILE;
    }
    if ((flags & TR_SCENE_RECT_LINES) && !(flags & TR_SCENE_LINES)) {
        scene_message(msg, msg_size, "flags ask for RECT_LINES without LINES");
        return TR_ERROR_BAD_FILE;
    }
    float size = 1.0f;
    if (hb == SCENE_HEADER2_BYTES) {
        size = scene_read_f32(h + 32);
        if (!(size >= 1.0f && size <= 64.0f)) {
            scene_message(msg, msg_size, "line width / point size %g is outside [1, 64]", (double)size);
            return TR_ERROR_LIMIT_EXCEEDED;
        }
        if (scene_read_u32(h + 36) != 0) {
            scene_message(msg, msg_size, "reserved header word (offset 36) is not 0");
            return TR_ERROR_BAD_FILE;
        }
    }
    if ((flags & TR_SCENE_BLEND_ALPHA) && (flags & TR_SCENE_BLEND_ADD)) {
        scene_message(msg, msg_size, "flags ask for both BLEND_ALPHA and BLEND_ADD");
        return TR_ERROR_BAD_FILE;
    }
    if (!isfinite(clear_depth)) {
        scene_message(msg, msg_size, "clear depth is not finite");
        return TR_ERROR_BAD_FILE;
    }
    if (triangle_count > TR_SCENE_MAX_TRIANGLES) {
        scene_message(msg, msg_size, "triangle count %u exceeds TR_SCENE_MAX_TRIANGLES (%u)",
                      triangle_count, TR_SCENE_MAX_TRIANGLES);
        return TR_ERROR_LIMIT_EXCEEDED;
    }

    out->width = width;
    out->height = height;
    out->flags = flags;
    memcpy(out->clear_color, h + 20, 4);
    out->clear_depth = clear_depth;
    out->triangle_count = triangle_count;
    out->size = size;
    out->vertices = NULL;
    out->vertex_shader[0] = out->fragment_shader[0] = '\0';
    return TR_OK;
}

/* Whether bytes[0, len) are well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF). */
static int scene_utf8_valid(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len;) {
        const uint8_t c = p[i];
        size_t n;
        uint32_t cp, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xe0) == 0xc0) {
            n = 1, cp = c & 0x1fu, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2, cp = c & 0x0fu, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            n = 3, cp = c & 0x07u, min = 0x10000;
        } else {
            return 0;
        }
        if (len - i - 1 < n)
            return 0;
        for (size_t k = 1; k <= n; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[i + k] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += n + 1;
    }
    return 1;
}

/* The two shader paths of version 3, in file order. */
static const char *const scene_path_fields[2] = {"vertex_shader", "fragment_shader"};

static char *scene_path_field(tr_scene *scene, int i)
{
    return i == 0 ? scene->vertex_shader : scene->fragment_shader;
}

/* Checks a path's length word (offset: where it is in the file). */
static tr_result scene_check_path_length(int i, uint32_t len, uint64_t offset, char *msg, size_t msg_size)
{
    if (len >= TR_SCENE_MAX_PATH) {
        scene_message(msg, msg_size, "%s path length %u (at byte %llu) exceeds TR_SCENE_MAX_PATH - 1 (%u)",
                      scene_path_fields[i], len, (unsigned long long)offset, TR_SCENE_MAX_PATH - 1);
        return TR_ERROR_BAD_FILE;
    }
    return TR_OK;
}

/* Checks a path's bytes and copies them, NUL-terminated, into *scene. */
static tr_result scene_take_path(tr_scene *scene, int i, const uint8_t *bytes, uint32_t len, char *msg,
                                 size_t msg_size)
{
    const uint8_t *nul = len ? memchr(bytes, 0, len) : NULL;
    if (nul != NULL) {
        scene_message(msg, msg_size, "%s path holds a NUL byte (at %u of its %u bytes)", scene_path_fields[i],
                      (unsigned)(nul - bytes), len);
        return TR_ERROR_BAD_FILE;
    }
    if (!scene_utf8_valid(bytes, len)) {
        scene_message(msg, msg_size, "%s path is not UTF-8", scene_path_fields[i]);
        return TR_ERROR_BAD_FILE;
    }
    char *dst = scene_path_field(scene, i);
    if (len)
        memcpy(dst, bytes, len);
    dst[len] = '\0';
    return TR_OK;
}

static tr_result scene_path_truncated(int i, const char *what, uint64_t need, uint64_t have, char *msg,
                                      size_t msg_size)
{
    scene_message(msg, msg_size, "truncated: %s path %s needs %llu bytes, the file has %llu", scene_path_fields[i],
                  what, (unsigned long long)need, (unsigned long long)have);
    return TR_ERROR_BAD_FILE;
}

/* Refuses a file whose size does not match its triangle count. */
/* What the scene's primitives are called in messages. */
static const char *scene_prim_name(uint32_t flags)
{
    return flags & TR_SCENE_POINTS ? "points" : flags & TR_SCENE_LINES ? "lines" : "triangles";
}

/* data_offset: where the vertices start (the header and, in version 3,
 * the paths). */
static tr_result scene_check_size(uint64_t actual, uint64_t data_offset, const tr_scene *sc, char *msg,
                                  size_t msg_size)
{
    uint64_t expected = scene_file_size(data_offset, sc->flags, sc->triangle_count);
    if (actual < expected) {
        scene_message(msg, msg_size,
                      "truncated: %llu bytes, %u %s need %llu (%llu missing)",
                      (unsigned long long)actual, sc->triangle_count, scene_prim_name(sc->flags),
                      (unsigned long long)expected, (unsigned long long)(expected - actual));
        return TR_ERROR_BAD_FILE;
    }
    if (actual > expected) {
        scene_message(msg, msg_size,
                      "trailing bytes: %llu bytes, %u %s need %llu (%llu extra)",
                      (unsigned long long)actual, sc->triangle_count, scene_prim_name(sc->flags),
                      (unsigned long long)expected, (unsigned long long)(actual - expected));
        return TR_ERROR_BAD_FILE;
    }
    return TR_OK;
}

static tr_result scene_alloc_vertices(tr_scene *scene, char *msg, size_t msg_size)
{
    uint64_t count = (uint64_t)tr_scene_prim_vertices(scene->flags) * scene->triangle_count;
    if (count == 0)
        return TR_OK;
    /* Only a 32-bit size_t can be too small (TR_SCENE_MAX_TRIANGLES * 60 bytes). */
    if (count > SIZE_MAX / sizeof(tr_scene_vertex)) {
        scene_message(msg, msg_size, "%u %s do not fit in memory", scene->triangle_count,
                      scene_prim_name(scene->flags));
        return TR_ERROR_OUT_OF_MEMORY;
    }
    scene->vertices = malloc((size_t)count * sizeof(tr_scene_vertex));
    if (scene->vertices == NULL) {
        scene_message(msg, msg_size, "out of memory for %u %s", scene->triangle_count,
                      scene_prim_name(scene->flags));
        return TR_ERROR_OUT_OF_MEMORY;
    }
    return TR_OK;
}

static void scene_decode_vertices(const uint8_t *src, size_t count, tr_scene_vertex *dst)
{
    for (size_t i = 0; i < count; i++, src += SCENE_VERTEX_BYTES) {
        dst[i].x = scene_read_f32(src + 0);
        dst[i].y = scene_read_f32(src + 4);
        dst[i].z = scene_read_f32(src + 8);
        dst[i].w = scene_read_f32(src + 12);
        dst[i].r = src[16];
        dst[i].g = src[17];
        dst[i].b = src[18];
        dst[i].a = src[19];
    }
}

static void scene_encode_vertices(const tr_scene_vertex *src, size_t count, uint8_t *dst)
{
    for (size_t i = 0; i < count; i++, dst += SCENE_VERTEX_BYTES) {
        scene_write_f32(dst + 0, src[i].x);
        scene_write_f32(dst + 4, src[i].y);
        scene_write_f32(dst + 8, src[i].z);
        scene_write_f32(dst + 12, src[i].w);
        dst[16] = src[i].r;
        dst[17] = src[i].g;
        dst[18] = src[i].b;
        dst[19] = src[i].a;
    }
}

static tr_result scene_short_header(size_t size, char *msg, size_t msg_size)
{
    if (size == 0)
        scene_message(msg, msg_size, "empty file");
    else
        scene_message(msg, msg_size, "%zu bytes, shorter than the %u-byte header", size,
                      SCENE_HEADER_BYTES);
    return TR_ERROR_BAD_FILE;
}

tr_result tr_scene_parse(const void *data, size_t size, tr_scene *out, char *msg, size_t msg_size)
{
    tr__api_enter(NULL);
    scene_message(msg, msg_size, "%s", "");
    if (out == NULL || (data == NULL && size != 0)) {
        scene_message(msg, msg_size, "%s is NULL", out == NULL ? "out" : "data");
        return TR_ERROR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out); /* a failed parse leaves a scene tr_scene_free accepts */
    if (size < SCENE_HEADER_BYTES)
        return scene_short_header(size, msg, msg_size);

    const uint8_t *bytes = data;
    if (scene_magic_header_bytes(bytes) == SCENE_HEADER2_BYTES && size < SCENE_HEADER2_BYTES)
        return scene_short_header(size, msg, msg_size);
    tr_scene scene_value, *scene = &scene_value; /* *out is written on success only */
    tr_result r = scene_parse_header(bytes, scene, msg, msg_size);
    size_t offset = scene_magic_header_bytes(bytes);
    for (int i = 0; r == TR_OK && i < 2 && scene_magic_version(bytes) == 3; i++) {
        if (size - offset < 4) {
            r = scene_path_truncated(i, "length", offset + 4, size, msg, msg_size);
            break;
        }
        const uint32_t len = scene_read_u32(bytes + offset);
        r = scene_check_path_length(i, len, offset, msg, msg_size);
        offset += 4;
        if (r == TR_OK && size - offset < len)
            r = scene_path_truncated(i, "string", (uint64_t)offset + len, size, msg, msg_size);
        if (r == TR_OK)
            r = scene_take_path(scene, i, bytes + offset, len, msg, msg_size);
        offset += len;
    }
    if (r == TR_OK)
        r = scene_check_size((uint64_t)size, offset, scene, msg, msg_size);
    if (r == TR_OK)
        r = scene_alloc_vertices(scene, msg, msg_size);
    if (r == TR_OK) {
        scene_decode_vertices(bytes + offset, (size_t)tr_scene_prim_vertices(scene->flags) * scene->triangle_count,
                              scene->vertices);
        *out = *scene;
    }
    return r;
}

/* Reads up to n bytes; returns how many were read (fewer only at end of file
 * or on an error, which the caller tells apart with ferror). */
static size_t scene_read_fully(FILE *f, uint8_t *dst, size_t n)
{
    size_t got = 0;
    while (got < n) {
        size_t k = fread(dst + got, 1, n - got, f);
        if (k == 0)
            break;
        got += k;
    }
    return got;
}

/* Streams the file instead of reading it whole: the header says how many
 * bytes to expect, so a huge or endless input (a wrong path to a device) is
 * refused after at most one byte past the expected end. */
tr_result tr_scene_load(const char *path, tr_scene *out, char *msg, size_t msg_size)
{
    tr__api_enter(NULL);
    scene_message(msg, msg_size, "%s", "");
    if (out == NULL || path == NULL) {
        scene_message(msg, msg_size, "%s is NULL", out == NULL ? "out" : "path");
        return TR_ERROR_INVALID_ARGUMENT;
    }
    memset(out, 0, sizeof *out);

    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        scene_message(msg, msg_size, "cannot open: %s", strerror(errno));
        return TR_ERROR_IO;
    }

    tr_scene scene;
    memset(&scene, 0, sizeof scene);
    uint8_t header[SCENE_HEADER2_BYTES];
    uint8_t *chunk = NULL;
    tr_result r = TR_OK;
    uint64_t data_offset = 0; /* where the vertices start */

    size_t got = scene_read_fully(f, header, SCENE_HEADER_BYTES);
    if (!ferror(f) && got == SCENE_HEADER_BYTES && scene_magic_header_bytes(header) == SCENE_HEADER2_BYTES)
        got += scene_read_fully(f, header + SCENE_HEADER_BYTES, SCENE_HEADER2_BYTES - SCENE_HEADER_BYTES);
    if (ferror(f)) {
        scene_message(msg, msg_size, "read error: %s", strerror(errno));
        r = TR_ERROR_IO;
        goto done;
    }
    if (got < SCENE_HEADER_BYTES || (got < SCENE_HEADER2_BYTES && scene_magic_header_bytes(header) == SCENE_HEADER2_BYTES)) {
        r = scene_short_header(got, msg, msg_size);
        goto done;
    }
    r = scene_parse_header(header, &scene, msg, msg_size);
    if (r != TR_OK)
        goto done;
    data_offset = scene_magic_header_bytes(header);
    for (int i = 0; i < 2 && scene_magic_version(header) == 3; i++) {
        uint8_t bytes[TR_SCENE_MAX_PATH];
        got = scene_read_fully(f, bytes, 4);
        if (got == 4) {
            const uint32_t len = scene_read_u32(bytes);
            r = scene_check_path_length(i, len, data_offset, msg, msg_size);
            if (r != TR_OK)
                goto done;
            data_offset += 4;
            got = scene_read_fully(f, bytes, len);
            if (got == len && !ferror(f)) {
                r = scene_take_path(&scene, i, bytes, len, msg, msg_size);
                if (r != TR_OK)
                    goto done;
                data_offset += len;
                continue;
            }
            if (!ferror(f)) {
                r = scene_path_truncated(i, "string", data_offset + len, data_offset + got, msg, msg_size);
                goto done;
            }
        }
        if (ferror(f)) {
            scene_message(msg, msg_size, "read error: %s", strerror(errno));
            r = TR_ERROR_IO;
            goto done;
        }
        r = scene_path_truncated(i, "length", data_offset + 4, data_offset + got, msg, msg_size);
        goto done;
    }
    r = scene_alloc_vertices(&scene, msg, msg_size);
    if (r != TR_OK)
        goto done;

    size_t total = (size_t)tr_scene_prim_vertices(scene.flags) * scene.triangle_count;
    if (total > 0) {
        chunk = malloc((size_t)SCENE_CHUNK_VERTICES * SCENE_VERTEX_BYTES);
        if (chunk == NULL) {
            scene_message(msg, msg_size, "out of memory");
            r = TR_ERROR_OUT_OF_MEMORY;
            goto done;
        }
    }
    for (size_t done_vertices = 0; done_vertices < total;) {
        size_t n = total - done_vertices;
        if (n > SCENE_CHUNK_VERTICES)
            n = SCENE_CHUNK_VERTICES;
        size_t want = n * SCENE_VERTEX_BYTES;
        size_t k = scene_read_fully(f, chunk, want);
        if (ferror(f)) {
            scene_message(msg, msg_size, "read error: %s", strerror(errno));
            r = TR_ERROR_IO;
            goto done;
        }
        if (k < want) {
            uint64_t actual = data_offset + (uint64_t)done_vertices * SCENE_VERTEX_BYTES + k;
            r = scene_check_size(actual, data_offset, &scene, msg, msg_size);
            goto done;
        }
        scene_decode_vertices(chunk, n, scene.vertices + done_vertices);
        done_vertices += n;
    }
    if (fgetc(f) != EOF) {
        /* Count what follows, but only to a limit: the message does not need
         * the exact size of an enormous file. */
        uint64_t extra = 1;
        while (extra < (1u << 20) && fgetc(f) != EOF)
            extra++;
        const uint64_t need = scene_file_size(data_offset, scene.flags, scene.triangle_count);
        if (extra >= (1u << 20))
            scene_message(msg, msg_size,
                          "trailing bytes: %u %s need %llu bytes, the file has at "
                          "least 1 MiB more",
                          scene.triangle_count, scene_prim_name(scene.flags), (unsigned long long)need);
        else
            (void)scene_check_size(need + extra, data_offset, &scene, msg, msg_size);
        r = TR_ERROR_BAD_FILE;
        goto done;
    }
    if (ferror(f)) {
        scene_message(msg, msg_size, "read error: %s", strerror(errno));
        r = TR_ERROR_IO;
        goto done;
    }

done:
    free(chunk);
    fclose(f); /* read-only: a close error loses nothing */
    if (r != TR_OK) {
        free(scene.vertices);
        return r;
    }
    *out = scene;
    return TR_OK;
}

/* Which field of a scene tr_scene_save cannot write; NULL: none. */
static const char *scene_invalid_field(const tr_scene *scene)
{
    const uint32_t fl = scene->flags;
    if (scene->width == 0 || scene->height == 0)
        return "scene->width/height is 0";
    if (fl & ~SCENE_KNOWN_FLAGS2)
        return "scene->flags has unknown bits";
    if ((fl & TR_SCENE_BLEND_ALPHA) && (fl & TR_SCENE_BLEND_ADD))
        return "scene->flags ask for both BLEND_ALPHA and BLEND_ADD";
    if ((fl & TR_SCENE_LINES) && (fl & TR_SCENE_POINTS))
        return "scene->flags ask for both LINES and POINTS";
    if ((fl & TR_SCENE_RECT_LINES) && !(fl & TR_SCENE_LINES))
        return "scene->flags ask for RECT_LINES without LINES";
    if ((fl & SCENE_V2_FLAGS) && !(scene->size >= 1.0f && scene->size <= 64.0f))
        return "scene->size is outside [1, 64]";
    if (!isfinite(scene->clear_depth))
        return "scene->clear_depth is not finite";
    for (int i = 0; i < 2; i++) {
        const char *p = i == 0 ? scene->vertex_shader : scene->fragment_shader;
        const char *nul = memchr(p, 0, TR_SCENE_MAX_PATH);
        if (nul == NULL)
            return i == 0 ? "scene->vertex_shader is not NUL-terminated within TR_SCENE_MAX_PATH bytes"
                          : "scene->fragment_shader is not NUL-terminated within TR_SCENE_MAX_PATH bytes";
        if (!scene_utf8_valid((const uint8_t *)p, (size_t)(nul - p)))
            return i == 0 ? "scene->vertex_shader is not UTF-8" : "scene->fragment_shader is not UTF-8";
    }
    if (scene->triangle_count > 0 && scene->vertices == NULL)
        return "scene->vertices is NULL";
    return NULL;
}

tr_result tr_scene_save(const tr_scene *scene, const char *path)
{
    tr__api_enter(NULL);
    if (scene == NULL || path == NULL)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_scene_save: %s is NULL", scene ? "path" : "scene");
    /* Write only what tr_scene_parse accepts, so a saved scene always loads. */
    const uint32_t fl = scene->flags;
    const char *invalid = scene_invalid_field(scene);
    if (invalid != NULL)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_scene_save: %s", invalid);
    if (scene->width > TR_MAX_IMAGE_SIZE || scene->height > TR_MAX_IMAGE_SIZE ||
        scene->triangle_count > TR_SCENE_MAX_TRIANGLES)
        return tr__error(NULL, TR_ERROR_LIMIT_EXCEEDED, "tr_scene_save: %s",
                         scene->triangle_count > TR_SCENE_MAX_TRIANGLES
                             ? "scene->triangle_count exceeds TR_SCENE_MAX_TRIANGLES"
                             : "scene->width/height exceeds TR_MAX_IMAGE_SIZE");

    /* The header and, in version 3, the paths: 4 + 255 bytes each at most. */
    uint8_t header[SCENE_HEADER2_BYTES + 2 * (4 + TR_SCENE_MAX_PATH)];
    const uint32_t version = scene_write_version(scene);
    uint32_t hb = scene_version_header_bytes(version);
    memcpy(header, version == 3 ? SCENE_MAGIC3 : version == 2 ? SCENE_MAGIC2 : SCENE_MAGIC, 8);
    scene_write_u32(header + 8, scene->width);
    scene_write_u32(header + 12, scene->height);
    scene_write_u32(header + 16, fl);
    memcpy(header + 20, scene->clear_color, 4);
    scene_write_f32(header + 24, scene->clear_depth);
    scene_write_u32(header + 28, scene->triangle_count);
    /* A triangle scene's size means nothing (version 1 reads 1): written
     * when a reader accepts it, else 1. */
    const int size_ok = scene->size >= 1.0f && scene->size <= 64.0f;
    scene_write_f32(header + 32, size_ok ? scene->size : 1.0f);
    scene_write_u32(header + 36, 0);
    for (int i = 0; version == 3 && i < 2; i++) {
        const char *p = i == 0 ? scene->vertex_shader : scene->fragment_shader;
        const uint32_t len = (uint32_t)strlen(p); /* < TR_SCENE_MAX_PATH: checked above */
        scene_write_u32(header + hb, len);
        memcpy(header + hb + 4, p, len);
        hb += 4 + len;
    }

    size_t total = (size_t)tr_scene_prim_vertices(fl) * scene->triangle_count;
    uint8_t *chunk = NULL;
    if (total > 0) {
        chunk = malloc((size_t)SCENE_CHUNK_VERTICES * SCENE_VERTEX_BYTES);
        if (chunk == NULL)
            return tr__error(NULL, TR_ERROR_OUT_OF_MEMORY, "tr_scene_save: out of memory for a write buffer");
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        const int e = errno;
        free(chunk);
        return tr__error(NULL, TR_ERROR_IO, "tr_scene_save: path '%s': cannot open: %s", path, strerror(e));
    }
    int ok = fwrite(header, 1, hb, f) == hb;
    for (size_t done_vertices = 0; ok && done_vertices < total;) {
        size_t n = total - done_vertices;
        if (n > SCENE_CHUNK_VERTICES)
            n = SCENE_CHUNK_VERTICES;
        scene_encode_vertices(scene->vertices + done_vertices, n, chunk);
        ok = fwrite(chunk, SCENE_VERTEX_BYTES, n, f) == n;
        done_vertices += n;
    }
    free(chunk);
    /* fclose flushes: a full disk may only show here. */
    if (fclose(f) != 0)
        ok = 0;
    if (!ok) {
        remove(path); /* never leave a truncated scene behind */
        return tr__error(NULL, TR_ERROR_IO, "tr_scene_save: path '%s': write failed", path);
    }
    return TR_OK;
}

void tr_scene_free(tr_scene *scene)
{
    if (scene == NULL)
        return;
    free(scene->vertices);
    memset(scene, 0, sizeof *scene);
}
