/* sincos.h: sin and cos of a float64 angle, accurate at any angle a kernel can form.
 *
 * Method: k = nearest(a * 2/pi); r = a - k*pi/2 by a three-part Cody-Waite reduction in
 * float64 whose first two parts carry 33 significant bits, so k*P1 and k*P2 are exact for
 * |k| < 2^20 (|a| < 1.6e6 rad: position 1e6 at theta 1) with no FMA (WASM SIMD has none);
 * |r| <= pi/4 then goes through Taylor polynomials to r^13 (sin) and r^14 (cos).
 * Error bound: reduction ~1e-16 absolute, truncation < 2.1e-14, so the result is within
 * 3e-14 of the true value: far below float32's half ulp (3e-8 near 1) where outputs are
 * rounded. Angles past the reduction's range fall back to libm's sin/cos (also float64).
 */
#ifndef POSENC_SINCOS_H
#define POSENC_SINCOS_H

#include <math.h>
#include <stdint.h>

#define PS_TWO_OVER_PI 6.36619772367581382433e-01
#define PS_P1 1.57079632673412561417e+00 /* first 33 bits of pi/2 */
#define PS_P2 6.07710050630396597660e-11 /* next 33 bits */
#define PS_P3 2.02226624871116645580e-21 /* the rest */
#define PS_REDUCE_MAX 1.5e6               /* keeps |k| < 2^20 */

/* Taylor coefficients (-1)^n / (2n+1)! and (-1)^n / (2n)! */
#define PS_S3 (-1.0 / 6.0)
#define PS_S5 (1.0 / 120.0)
#define PS_S7 (-1.0 / 5040.0)
#define PS_S9 (1.0 / 362880.0)
#define PS_S11 (-1.0 / 39916800.0)
#define PS_S13 (1.0 / 6227020800.0)
#define PS_C2 (-0.5)
#define PS_C4 (1.0 / 24.0)
#define PS_C6 (-1.0 / 720.0)
#define PS_C8 (1.0 / 40320.0)
#define PS_C10 (-1.0 / 3628800.0)
#define PS_C12 (1.0 / 479001600.0)
#define PS_C14 (-1.0 / 87178291200.0)

static inline void ps_sincos(double a, double *s, double *c) {
  if (!(fabs(a) < PS_REDUCE_MAX)) {
    *s = sin(a);
    *c = cos(a);
    return;
  }
  double k = nearbyint(a * PS_TWO_OVER_PI);
  double r = ((a - k * PS_P1) - k * PS_P2) - k * PS_P3;
  double z = r * r;
  double sr = r + r * z * (PS_S3 + z * (PS_S5 + z * (PS_S7 + z * (PS_S9 + z * (PS_S11 + z * PS_S13)))));
  double cr = 1.0 + z * (PS_C2 + z * (PS_C4 + z * (PS_C6 + z * (PS_C8 + z * (PS_C10 + z * (PS_C12 + z * PS_C14))))));
  switch ((int64_t)k & 3) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
  }
}

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* Two lanes of ps_sincos; lanes past the reduction's range take the scalar path. */
static inline void ps_sincos2(v128_t a, v128_t *s, v128_t *c) {
  v128_t in_range = wasm_f64x2_lt(wasm_f64x2_abs(a), wasm_f64x2_splat(PS_REDUCE_MAX));
  if (!wasm_i64x2_all_true(in_range)) {
    double s0, c0, s1, c1;
    ps_sincos(wasm_f64x2_extract_lane(a, 0), &s0, &c0);
    ps_sincos(wasm_f64x2_extract_lane(a, 1), &s1, &c1);
    *s = wasm_f64x2_make(s0, s1);
    *c = wasm_f64x2_make(c0, c1);
    return;
  }
  v128_t k = wasm_f64x2_nearest(wasm_f64x2_mul(a, wasm_f64x2_splat(PS_TWO_OVER_PI)));
  v128_t r = wasm_f64x2_sub(a, wasm_f64x2_mul(k, wasm_f64x2_splat(PS_P1)));
  r = wasm_f64x2_sub(r, wasm_f64x2_mul(k, wasm_f64x2_splat(PS_P2)));
  r = wasm_f64x2_sub(r, wasm_f64x2_mul(k, wasm_f64x2_splat(PS_P3)));
  v128_t z = wasm_f64x2_mul(r, r);
#define PS_MADD(acc, coef) wasm_f64x2_add(wasm_f64x2_splat(coef), wasm_f64x2_mul(z, acc))
  v128_t ps = wasm_f64x2_splat(PS_S13);
  ps = PS_MADD(ps, PS_S11);
  ps = PS_MADD(ps, PS_S9);
  ps = PS_MADD(ps, PS_S7);
  ps = PS_MADD(ps, PS_S5);
  ps = PS_MADD(ps, PS_S3);
  v128_t sr = wasm_f64x2_add(r, wasm_f64x2_mul(wasm_f64x2_mul(r, z), ps));
  v128_t pc = wasm_f64x2_splat(PS_C14);
  pc = PS_MADD(pc, PS_C12);
  pc = PS_MADD(pc, PS_C10);
  pc = PS_MADD(pc, PS_C8);
  pc = PS_MADD(pc, PS_C6);
  pc = PS_MADD(pc, PS_C4);
  pc = PS_MADD(pc, PS_C2);
  v128_t cr = wasm_f64x2_add(wasm_f64x2_splat(1.0), wasm_f64x2_mul(z, pc));
#undef PS_MADD
  /* Quadrant q = k mod 4: odd q swaps sin and cos; q in {2,3} negates sin, q in {1,2} cos. */
  v128_t q = wasm_i64x2_extend_low_i32x4(wasm_i32x4_trunc_sat_f64x2_zero(k));
  v128_t swap = wasm_i64x2_eq(wasm_v128_and(q, wasm_i64x2_splat(1)), wasm_i64x2_splat(1));
  v128_t sv = wasm_v128_bitselect(cr, sr, swap);
  v128_t cv = wasm_v128_bitselect(sr, cr, swap);
  v128_t sneg = wasm_i64x2_shl(wasm_v128_and(q, wasm_i64x2_splat(2)), 62);
  v128_t cneg = wasm_i64x2_shl(wasm_v128_and(wasm_i64x2_add(q, wasm_i64x2_splat(1)), wasm_i64x2_splat(2)), 62);
  *s = wasm_v128_xor(sv, sneg);
  *c = wasm_v128_xor(cv, cneg);
}
#endif

#endif
