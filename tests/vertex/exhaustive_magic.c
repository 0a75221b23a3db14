/* Opt-in exhaustive check of the magic divisors: tr_magic_divide(x, d) must
 * equal x / d for every 32-bit x.  Not part of ctest (minutes on 2 cores);
 * run it with
 *     cmake --build build --target check-exhaustive
 * or build/tests/instancing_exhaustive [DIVISOR ...]
 * Parallel over x with OpenMP.  Exit status 0 when every divisor passes. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <tilerast/instancing.h>

/* Small, odd, even, prime, the hardware divisors of common draws (padded
 * count x API divisor), near 2^31 and near 2^32. */
static const uint32_t default_divisors[] = {
    3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 17, 18, 24, 25, 27, 28, 36, 72, 100, 216, 641, 1000,
    6700417, 65537, 1000003, 16777217, 0x55555555u, 0x7FFFFFFFu, 0x80000001u, 0xAAAAAAAAu,
    0xFFFFFFFDu, 0xFFFFFFFEu, 0xFFFFFFFFu,
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Returns the number of x where the magic division is wrong (0 = exact). */
static uint64_t check_all(uint32_t d, uint32_t *first_bad)
{
    tr_magic_divisor m = tr_compute_magic_divisor(d);
    uint64_t bad = 0;
    uint32_t first = UINT32_MAX;
    /* 2^16 chunks of 2^16 values: each thread walks quotients incrementally. */
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : bad) reduction(min : first)
    for (int64_t hi = 0; hi < 65536; hi++) {
        uint32_t x0 = (uint32_t)hi << 16;
        for (uint32_t lo = 0; lo < 65536; lo++) {
            uint32_t x = x0 | lo;
            if (tr_magic_divide(x, m) != x / d) {
                bad++;
                if (x < first)
                    first = x;
            }
        }
    }
    *first_bad = first;
    return bad;
}

int main(int argc, char **argv)
{
    uint32_t list[256];
    size_t n = 0;
    if (argc > 1) {
        for (int i = 1; i < argc && n < 256; i++) {
            char *end;
            unsigned long long v = strtoull(argv[i], &end, 0);
            if (*end || v < 3 || v > UINT32_MAX || !(v & (v - 1))) {
                fprintf(stderr, "instancing_exhaustive: %s is not a 32-bit non-power-of-two divisor >= 3\n",
                        argv[i]);
                return 2;
            }
            list[n++] = (uint32_t)v;
        }
    } else {
        for (size_t i = 0; i < sizeof default_divisors / sizeof default_divisors[0]; i++)
            list[n++] = default_divisors[i];
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    printf("checking every 32-bit x for %zu divisors on %d threads\n", n, threads);
    double t0 = now_s();
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        double t = now_s();
        uint32_t first;
        uint64_t bad = check_all(list[i], &first);
        printf("d = %10" PRIu32 " (0x%08" PRIx32 "): %s", list[i], list[i], bad ? "WRONG" : "exact");
        if (bad)
            printf(" for %" PRIu64 " values of x, first x = %" PRIu32, bad, first);
        printf("  (%.1f s)\n", now_s() - t);
        fflush(stdout);
        failed |= bad != 0;
    }
    printf("%s: %zu divisors x 2^32 values in %.1f s\n", failed ? "FAILED" : "all exact", n, now_s() - t0);
    return failed;
}
