/* Guards the build flags against a GCC 12.2 miscompile: with its SLP
 * vectoriser on, two adjacent (double)(float)x round trips are packed into
 * one vector of doubles and the float rounding disappears.  tilerast rounds
 * to float on purpose (vertex positions, clipped depth and 1/w), so the
 * project turns SLP off; this program fails if the rounding is lost again.
 * Built with the project's compile options, like the library. */
#include <stdio.h>

/* External linkage and a volatile input keep GCC from constant-folding the
 * whole computation, which would hide the bug. */
void report(const double *px, double *sink);
void two_round_trips(double s, double *sink);
volatile double scale = 1e6;

__attribute__((noinline)) void report(const double *px, double *sink)
{
    sink[0] = px[0];
    sink[1] = px[1];
}

__attribute__((noinline)) void two_round_trips(double s, double *sink)
{
    double ndc[2] = {-s, -0.3 * s + 0.1};
    float v[2];
    double px[2];
    v[0] = (float)ndc[0];
    v[1] = (float)ndc[1];
    px[0] = ((double)v[0] + 1) * 16;
    px[1] = ((double)v[1] + 1) * 16;
    report(px, sink);
}

int main(void)
{
    double got[2];
    two_round_trips(scale, got);
    /* (float)(-299999.9) is -299999.90625; (that + 1) * 16 = -4799982.5 */
    if (got[0] != -15999984.0 || got[1] != -4799982.5) {
        fprintf(stderr, "float rounding lost: got %.17g %.17g, want -15999984 -4799982.5\n", got[0],
                got[1]);
        return 1;
    }
    return 0;
}
