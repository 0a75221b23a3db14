/* libFuzzer target: bench's Wavefront OBJ reader.  Accepted meshes must
 * have every index below the vertex count; refusals must name a reason. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_obj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bench_obj obj;
    char msg[256];
    msg[0] = 0;
    const tr_result r = bench_obj_parse((const char *)data, size, &obj, msg, sizeof msg);
    if (r != TR_OK) {
        if (!memchr(msg, 0, sizeof msg) || !msg[0])
            __builtin_trap();
        bench_obj_free(&obj); /* documented as safe on error */
        return 0;
    }
    for (uint32_t i = 0; i < 3 * obj.triangle_count; i++)
        if (obj.indices[i] >= obj.vertex_count)
            __builtin_trap();
    volatile float sink = 0.0f; /* touch every position: ASan checks the array's extent */
    for (uint32_t i = 0; i < 3 * obj.vertex_count; i++)
        sink += obj.positions[i];
    (void)sink;
    bench_obj_free(&obj);
    return 0;
}
