// Every public header must compile as C++ (strict, warnings as errors) and
// link against the C library.
#include <tilerast/tilerast.h>
#include <cstdio>

int main()
{
    tr_context *ctx = nullptr;
    if (tr_context_create(nullptr, &ctx) != TR_OK)
        return 1;
    tr_image_desc d = {};
    d.format = TR_FORMAT_R8G8B8A8_UNORM;
    d.width = d.height = 8;
    tr_image *img = nullptr;
    tr_result r = tr_image_create(ctx, &d, &img);
    std::printf("%s\n", tr_result_string(r));
    tr_context_destroy(ctx);
    return r == TR_OK ? 0 : 1;
}
