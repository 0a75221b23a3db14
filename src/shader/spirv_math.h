/* GLSL.std.450's extended instructions as lane-array kernels (issue 30).
 *
 * Consumes: the operands of one component of an extended instruction for up
 * to 64 lanes, as arrays.  Produces: d[l] = f(a[l], ...) for l < n.  Every
 * function is tilerast's own code (no libm transcendental is called), built
 * from IEEE binary32 operations in the fixed order written here, so a
 * result is the same bits on every machine, for every n and whether or not
 * the compiler vectorises the lane loop.  Outputs may be the very arrays of
 * the inputs (same index only); n <= 64.
 *
 * ---- Conventions ----------------------------------------------------------
 * - NaN results are the canonical quiet NaN 0x7fc00000, except where a
 *   function only moves bits (FAbs clears the sign, FSign, Trunc, Floor,
 *   Ceil, Round, RoundEven, Modf's whole part, Frexp, Ldexp, the min / max /
 *   clamp family): those return a NaN operand's bits unchanged.
 * - Denormals are inputs and results like any other value (no flush).
 * - "ULP" is measured against the double-precision result: |got - ref| /
 *   2^(max(floor(log2 |ref|), -126) - 23).
 * - Composite formulas are evaluated left to right as written, each
 *   operation rounded on its own (no contraction).
 *
 * ---- Edge cases the SPIR-V spec leaves undefined: what we return ----------
 * - FMin / FMax behave as NMin / NMax (IEEE minNum / maxNum): a NaN operand
 *   gives the other operand, two NaNs give the first; min(-0, +0) = -0 and
 *   max(-0, +0) = +0 in either order.  FClamp = NClamp =
 *   min(max(x, minVal), maxVal) with those semantics (x NaN: minVal, or
 *   maxVal if smaller); minVal > maxVal is computed by the same formula.
 * - FSign: 1.0 or -1.0; +-0 and NaN return the operand.
 * - Round: halves away from zero; RoundEven: halves to even.  Fract(x) =
 *   x - floor(x) exactly as written (so fract(-tiny) = 1.0, fract(inf) =
 *   NaN).  Modf: whole = trunc(x), frac = x - whole carrying x's sign;
 *   modf(+-inf) = (+-inf, +-0), modf(NaN) = (NaN, NaN).
 * - Frexp: |mant| in [0.5, 1); frexp(+-0) = (+-0, 0), frexp(+-inf or NaN) =
 *   (x, 0); denormals are normalised.  Ldexp(x, e) is x * 2^e rounded once
 *   (any int e; overflow gives +-inf, underflow rounds to a denormal or 0).
 * - Sqrt(x < 0) = NaN, sqrt(-0) = -0.  InverseSqrt(+-0) = +inf,
 *   inversesqrt(x < 0) = NaN, inversesqrt(inf) = 0.
 * - Log / Log2: (+-0) = -inf, (x < 0) = NaN, (inf) = inf.  Exp / Exp2:
 *   (-inf) = 0, (inf) = inf.
 * - Pow(x, y), in order: a NaN operand gives NaN; x < 0 (incl. -inf) gives
 *   NaN (even for integer y: the spec's exp2(y * log2(x)) has no sign);
 *   y = +-0 gives 1; x = 1 gives 1; x = +-0 gives +0 for y > 0, +inf for
 *   y < 0; otherwise exp2(y * log2(x)) (so inf and 0 follow IEEE limits).
 * - Asin / Acos of |x| > 1 = NaN; Acosh(x < 1) = NaN; Atanh(+-1) = +-inf,
 *   atanh(|x| > 1) = NaN.  Sin / Cos / Tan of +-inf = NaN.
 * - Atan2(y, x) follows C's atan2 for zeros and infinities: atan2(+-0, +0)
 *   = +-0, atan2(+-0, -0) = +-pi, atan2(+-inf, +-inf) = +-pi/4 or +-3pi/4.
 * - Step(edge, x) = x < edge ? 0 : 1 (x or edge NaN: 1).  SmoothStep with
 *   edge0 >= edge1 is computed by the formula anyway (division by 0: NaN or
 *   the clamp's end).
 * - Integer: SAbs(INT_MIN) = INT_MIN; FindILsb(0) = FindUMsb(0) = -1;
 *   FindSMsb(0) = FindSMsb(-1) = -1, and for negative x it is the most
 *   significant 0 bit.
 * - Packing rounds to nearest even (GLSL leaves halves to the
 *   implementation) after the clamp; a NaN component packs as 0.
 *   PackHalf2x16 rounds to nearest even, overflows to +-inf (|x| >= 65520),
 *   keeps NaN payload's top 10 bits (quieted), makes half denormals.
 *
 * ---- Precision, measured (tests/shader/test_spirv_math.c) ------------------
 * "all finite" = every 1021st float bit pattern (4.19 million, both signs)
 * plus special values; "x > 0", "[-1, 1]" ...: the same patterns in that
 * range.  Each bound is what the test asserts; the measured maximum (GCC 12
 * and clang 14, -O0 to -O3 -mavx2: the same bits) is in parentheses.
 *
 * function    | asserted bound (measured max)          | sweep                 | Vulkan requirement
 * ------------+----------------------------------------+-----------------------+------------------------------
 * exp2        | 1.1 ULP (1.09)                         | all finite            | 3 + 2|x| ULP
 * exp         | 1.1 ULP (1.04)                         | all finite            | 3 + 2|x| ULP
 * log2        | 2 ULP (1.77); abs 2^-23 (8.5e-8)       | x > 0; every float in | 3 ULP outside [0.5, 2];
 *             |   in [0.5, 2]                          |   [0.5, 2] / 64       |   abs 2^-21 inside
 * log         | 1 ULP (0.82); abs 2^-24 in [0.5, 2]    | x > 0                 | same as log2
 * pow         | 2 + 2.5 |t| ULP, t = y log2 x (1.51 ULP | x every 10007th       | inherited: exp2(y*log2(x)),
 *             |   for |t| <= 1; 2.42 |t| at worst)     |   pattern x 27 y      |   about 3 + 4.4 |t| ULP
 * inversesqrt | 1.5 ULP (1.48)                         | x > 0                 | 2 ULP
 * sqrt        | correctly rounded (sqrtf)              | -                     | inherited: 1/inversesqrt
 * sin, cos    | 3 ULP (2.49, 2.55); abs 2^-23 in       | all finite; 40000     | abs 2^-11 in [-pi, pi]
 *             |   [-pi, pi] (8.3e-8, 8.7e-8)           |   floats around 2^17  |
 * tan         | 5 ULP (4.66)                           | all finite            | inherited: sin / cos
 * asin        | 2 ULP (1.73)                           | [-1, 1]               | inherited: atan2(x, sqrt(1-x^2))
 * acos        | 2 ULP (1.24)                           | [-1, 1]               | inherited: atan2(sqrt(1-x^2), x)
 * atan        | 2 ULP (1.98)                           | all finite            | 4096 ULP
 * atan2       | 3 ULP (2.13)                           | 700^2 grid, 4 signs   | 4096 ULP
 * sinh        | 2 ULP (1.48)                           | all finite            | inherited: (e^x - e^-x) / 2
 * cosh        | 2 ULP (1.37)                           | all finite            | inherited: (e^x + e^-x) / 2
 * tanh        | 2 ULP (1.28)                           | all finite            | inherited: sinh / cosh
 * asinh       | 2 ULP (1.86)                           | all finite            | inherited: log(x + sqrt(x^2+1))
 * acosh       | 2 ULP (1.95)                           | [1, inf)              | inherited: log(x + sqrt(x^2-1))
 * atanh       | 3 ULP (2.25)                           | [-1, 1]               | inherited: log((1+x)/(1-x)) / 2
 * radians     | 1 ULP (0.63) vs x * pi/180 exactly     | all finite            | inherited: x * pi / 180
 * degrees     | 1 ULP (0.70) vs x * 180/pi exactly     | all finite            | inherited: x * 180 / pi
 * the rest    | exact: correctly rounded single ops,   | special cases, round  | correctly rounded / inherited
 *             |   bit moves, or the formulas above     |   trips               |   from the formulas
 * Pow's error is that of rounding t = y * log2(x) to a float, magnified by
 * exp2; a double-float log2 would remove it (not done: Vulkan's inherited
 * bound is met with room).
 *
 * Sin, cos and tan reduce |x| < 2^17 with an 8-part Cody-Waite pi/2 (7-bit
 * parts, so k * part is exact for k < 2^17) and larger finite |x| with an
 * exact integer product against 256 bits of 2/pi (Payne-Hanek), so the
 * bounds above hold for every finite x. */
#ifndef TILERAST_SPIRV_MATH_H
#define TILERAST_SPIRV_MATH_H

#include <stdint.h>

/* The most lanes one call handles. */
#define TR__M_MAX_LANES 64u

/* ---- unary float: d[l] = f(a[l]) ------------------------------------------ */
#define TR__M_UNARY(name) void tr__m_##name(float *d, const float *a, uint32_t n);
TR__M_UNARY(round)       /* halves away from zero */
TR__M_UNARY(roundeven)   /* halves to even */
TR__M_UNARY(trunc)
TR__M_UNARY(fabs)
TR__M_UNARY(fsign)
TR__M_UNARY(floor)
TR__M_UNARY(ceil)
TR__M_UNARY(fract)       /* x - floor(x) */
TR__M_UNARY(radians)     /* x * 0x1.1df46ap-6f (pi/180 rounded) */
TR__M_UNARY(degrees)     /* x * 0x1.ca5dc2p+5f (180/pi rounded) */
TR__M_UNARY(sin)
TR__M_UNARY(cos)
TR__M_UNARY(tan)
TR__M_UNARY(asin)
TR__M_UNARY(acos)
TR__M_UNARY(atan)
TR__M_UNARY(sinh)
TR__M_UNARY(cosh)
TR__M_UNARY(tanh)
TR__M_UNARY(asinh)
TR__M_UNARY(acosh)
TR__M_UNARY(atanh)
TR__M_UNARY(exp)
TR__M_UNARY(log)
TR__M_UNARY(exp2)
TR__M_UNARY(log2)
TR__M_UNARY(sqrt)
TR__M_UNARY(inversesqrt) /* 1 / sqrt(x): one sqrtf, one division */
#undef TR__M_UNARY

/* ---- binary float: d[l] = f(a[l], b[l]) ------------------------------------ */
void tr__m_atan2(float *d, const float *a /* y */, const float *b /* x */, uint32_t n);
void tr__m_pow(float *d, const float *a, const float *b, uint32_t n);
void tr__m_fmin(float *d, const float *a, const float *b, uint32_t n);
void tr__m_fmax(float *d, const float *a, const float *b, uint32_t n);
void tr__m_nmin(float *d, const float *a, const float *b, uint32_t n);
void tr__m_nmax(float *d, const float *a, const float *b, uint32_t n);
void tr__m_step(float *d, const float *a /* edge */, const float *b /* x */, uint32_t n);
void tr__m_ldexp(float *d, const float *a, const int32_t *b, uint32_t n);

/* ---- ternary float: d[l] = f(a[l], b[l], c[l]) ----------------------------- */
/* fclamp / nclamp(x, minVal, maxVal) = min(max(x, minVal), maxVal) */
void tr__m_fclamp(float *d, const float *a, const float *b, const float *c, uint32_t n);
void tr__m_nclamp(float *d, const float *a, const float *b, const float *c, uint32_t n);
/* fmix(x, y, a) = x * (1 - a) + y * a */
void tr__m_fmix(float *d, const float *a, const float *b, const float *c, uint32_t n);
/* smoothstep(edge0, edge1, x): t = clamp((x - edge0) / (edge1 - edge0), 0, 1)
 * (FClamp semantics, so t NaN gives 0); result (t * t) * (3 - 2 * t) */
void tr__m_smoothstep(float *d, const float *a, const float *b, const float *c, uint32_t n);
/* a * b + c rounded once (fmaf: correctly rounded, so the same everywhere) */
void tr__m_fma(float *d, const float *a, const float *b, const float *c, uint32_t n);

/* ---- integer ----------------------------------------------------------------- */
void tr__m_sabs(int32_t *d, const int32_t *a, uint32_t n);
void tr__m_ssign(int32_t *d, const int32_t *a, uint32_t n);
void tr__m_umin(uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t n);
void tr__m_smin(int32_t *d, const int32_t *a, const int32_t *b, uint32_t n);
void tr__m_umax(uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t n);
void tr__m_smax(int32_t *d, const int32_t *a, const int32_t *b, uint32_t n);
/* clamp(x, lo, hi) = min(max(x, lo), hi) */
void tr__m_uclamp(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t n);
void tr__m_sclamp(int32_t *d, const int32_t *a, const int32_t *b, const int32_t *c, uint32_t n);
void tr__m_findilsb(int32_t *d, const uint32_t *a, uint32_t n);
void tr__m_findsmsb(int32_t *d, const int32_t *a, uint32_t n);
void tr__m_findumsb(int32_t *d, const uint32_t *a, uint32_t n);

/* ---- two results ------------------------------------------------------------ */
void tr__m_modf(float *whole, float *frac, const float *a, uint32_t n);
void tr__m_frexp(float *mant, int32_t *exp, const float *a, uint32_t n);

/* ---- packing (component 0 in the low bits) ------------------------------------
 * packUnorm: roundeven(clamp(c, 0, 1) * 255 or 65535); packSnorm:
 * roundeven(clamp(c, -1, 1) * 127 or 32767); unpackUnorm: f / 255 or 65535;
 * unpackSnorm: clamp(f / 127 or 32767, -1, 1) (each one division). */
void tr__m_packsnorm4x8(uint32_t *d, const float *const *v, uint32_t n);
void tr__m_packunorm4x8(uint32_t *d, const float *const *v, uint32_t n);
void tr__m_packsnorm2x16(uint32_t *d, const float *const *v, uint32_t n);
void tr__m_packunorm2x16(uint32_t *d, const float *const *v, uint32_t n);
void tr__m_packhalf2x16(uint32_t *d, const float *const *v, uint32_t n);
void tr__m_unpacksnorm4x8(float *const *d, const uint32_t *a, uint32_t n);
void tr__m_unpackunorm4x8(float *const *d, const uint32_t *a, uint32_t n);
void tr__m_unpacksnorm2x16(float *const *d, const uint32_t *a, uint32_t n);
void tr__m_unpackunorm2x16(float *const *d, const uint32_t *a, uint32_t n);
void tr__m_unpackhalf2x16(float *const *d, const uint32_t *a, uint32_t n);

/* ---- vectors: x[c] is component c's lane array, comps 2..4 ----------------------
 * dot(x, y)      = ((x0*y0 + x1*y1) + x2*y2) + x3*y3, left to right
 * length(x)      = sqrt(dot(x, x))
 * distance(x, y) = length(x - y), the differences taken per component first
 * cross(x, y)    = (x1*y2 - y1*x2, x2*y0 - y2*x0, x0*y1 - y0*x1)
 * normalize(x)   = x[c] / length(x) (a division per component; 0 gives NaN)
 * faceforward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N
 * reflect(I, N)  = I[c] - (2 * dot(N, I)) * N[c]
 * refract(I, N, eta): d = dot(N, I); k = 1 - (eta * eta) * (1 - d * d);
 *                  k < 0 ? 0 : (eta * I[c]) - ((eta * d) + sqrt(k)) * N[c] */
void tr__m_dot(float *d, const float *const *x, const float *const *y, uint32_t comps, uint32_t n);
void tr__m_length(float *d, const float *const *x, uint32_t comps, uint32_t n);
void tr__m_distance(float *d, const float *const *x, const float *const *y, uint32_t comps, uint32_t n);
void tr__m_cross(float *const *d, const float *const *x, const float *const *y, uint32_t n);
void tr__m_normalize(float *const *d, const float *const *x, uint32_t comps, uint32_t n);
void tr__m_faceforward(float *const *d, const float *const *N, const float *const *I,
                       const float *const *Nref, uint32_t comps, uint32_t n);
void tr__m_reflect(float *const *d, const float *const *I, const float *const *N, uint32_t comps,
                   uint32_t n);
void tr__m_refract(float *const *d, const float *const *I, const float *const *N, const float *eta,
                   uint32_t comps, uint32_t n);

/* ---- matrices: square, dim 2..4, column-major: m[col * dim + row] ---------------
 * With M(r, c) = m[c * dim + r]:
 * det2 = M00*M11 - M01*M10
 * det3 = (M00*m00 - M10*m10) + M20*m20, det4 = ((M00*m00 - M10*m10) + M20*m20)
 *        - M30*m30, where m_r0 is the determinant (det2 / det3) of the matrix
 *        left when row r and column 0 are removed (rows, columns in order).
 * inverse: d[j * dim + i] = C(j, i) / det, C(j, i) = +-(minor of row j,
 *        column i), computed as above, negated when i + j is odd (a division
 *        per element; a singular matrix gives infinities or NaNs). */
void tr__m_determinant(float *d, const float *const *m, uint32_t dim, uint32_t n);
void tr__m_inverse(float *const *d, const float *const *m, uint32_t dim, uint32_t n);

#endif
