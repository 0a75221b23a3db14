/* LD_PRELOAD helper for scripts/test-tsan.sh: lets Criterion start under
 * ThreadSanitizer.
 *
 * Criterion's sandboxing library, BoxFort (linked into libcriterion.so),
 * puts each of its shared-memory arenas at a random address chosen with
 * rand_r(): base = 0x200000000000 + (rand_r(&seed) & 0x3fffff) << 24.  It
 * probes at most 10 such addresses with mincore() and gives up when none is
 * free.  ThreadSanitizer (LLVM 14, x86-64) has already mapped its shadow and
 * reserved everything in that range except its "mid" application window,
 * 0x550000000000-0x568000000000 (where PIE binaries load): a probe hits it
 * 2.3% of the time, so most runs die with "criterion: Could not initialize
 * inheritable arena" or, when a later arena fails, with a SEGV inside
 * libcriterion ("Could not initialize test context").  Upstream:
 * https://github.com/Snaipe/Criterion/issues/274 (open).
 *
 * This rand_r() keeps the C library's sequence but, for BoxFort's own seed
 * (a static variable inside libcriterion.so, found with dladdr), folds the
 * value into that window, so BoxFort probes only addresses it can map.  Any
 * other caller gets glibc's rand_r() unchanged.  Nothing in tilerast or its
 * tests calls rand_r().  Built and preloaded by scripts/test-tsan.sh only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#define BOXFORT_BASE 0x200000000000ull
#define BOXFORT_STEP (1ull << 24)
#define TSAN_MID_APP_BEG 0x550000000000ull
#define TSAN_MID_APP_END 0x568000000000ull

int rand_r(unsigned int *seed)
{
    static int (*real_rand_r)(unsigned int *);
    if (!real_rand_r)
        real_rand_r = (int (*)(unsigned int *))dlsym(RTLD_NEXT, "rand_r");
    int r = real_rand_r(seed);
    Dl_info info;
    if (dladdr(seed, &info) && info.dli_fname && strstr(info.dli_fname, "libcriterion")) {
        const unsigned lo = (unsigned)((TSAN_MID_APP_BEG - BOXFORT_BASE) / BOXFORT_STEP);
        const unsigned n = (unsigned)((TSAN_MID_APP_END - TSAN_MID_APP_BEG) / BOXFORT_STEP);
        r = (int)(lo + (unsigned)r % n);
    }
    return r;
}
