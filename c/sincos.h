/* sincos.h: sin and cos of a float64 angle, accurate at any angle a kernel can form.
 *
 * Method: k = nearest(a * 2/pi); r = a - k*pi/2 by a three-part Cody-Waite reduction in
 * float64 whose first two parts carry 33 significant bits, so k*P1 and k*P2 are exact for
 * |k| < 2^20 (|a| < 1.6e6 rad: position 1e6 at theta 1) with no FMA (WASM SIMD has none);
 * |r| <= pi/4 then goes through polynomials to r^11 (sin) and r^12 (cos).
 *
 * Polynomials: near-minimax, by Chebyshev interpolation in z = r^2 at n+1 Chebyshev nodes
 * of [0, (pi/4)^2], solved in exact rational arithmetic from the Taylor series and rounded
 * to float64 (tests/bench/sincos-coefficients.py prints them and their errors). The leading
 * r (sin) and 1 - z/2 (cos) stay exact. Measured against a 60-digit reference over 2001
 * points of [0, pi/4], float64 evaluation included: sin 1.4e-14, cos 8e-16. With the
 * reduction's ~1e-16 the result is within 2e-14 of the true value: far below float32's half
 * ulp (3e-8 near 1) where outputs are rounded. (Taylor needs one more term each for this.)
 * Angles past the reduction's range fall back to libm's sin/cos (also float64).
 *
 * ps_sincos4_f32 (the RoPE cache and fused RoPE) rounds four lanes of ps_sincos to float32.
 * Its results are within 2e-14 of the truth before that rounding, so they are the float32
 * nearest cos/sin of the float64 angle except where that value lies within 2e-14 of a rounding
 * midpoint: which is what lets rope.c's recurrence for positions in progression give the same
 * bits (progression.h). (Shorter polynomials to r^7 and r^8, within 1e-8, were 25% faster
 * there; their rounding could not be reproduced by any other way of forming cos/sin.)
 *
 * ps_cos / ps_cos2 (decay curves that need only cosines): a = m pi + r, |r| <= pi/2, by the
 * first two parts doubled (m has at most 19 bits below 1.5e6 rad, so the products stay
 * exact; the third part would add < 2e-15), and cos a = (-1)^m cos r with one even
 * polynomial to r^14 (same construction on [0, (pi/2)^2]; error 3.1e-14, so a sum of 2048
 * terms stays within 1e-10): 7 multiply-adds instead of 11 and no quadrant swap; cos 0 is
 * exactly 1. The sinusoidal table's re-anchors and the other decay curves use the full forms.
 *
 * The scalar and SIMD forms run the same operations in the same order (WASM has no FMA to
 * contract them), so the two builds give the same bits. k = nearest(a * 2/pi) comes from
 * adding and subtracting 1.5 * 2^52 (round to nearest even, as nearbyint), which also leaves
 * k's low bits in the sum's mantissa for the quadrant: no float-to-int conversion, which
 * clang 14 splits into per-lane scalar code. The SIMD forms read their constants from
 * memory through ps_consts() (a volatile pointer): as literals, clang rebuilds each splat
 * inside the loop and V8 materialises every v128.const from general registers (three
 * instructions each); a load is one. The SIMD forms are always inlined and take `check` = 0
 * when the caller knows every angle is in range, so hot loops carry no fallback code.
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

#define PS_INV_PI 3.18309886183790671538e-01
#define PS_Q1 (2.0 * PS_P1) /* pi in two parts (the third is below ps_cos's error) */
#define PS_Q2 (2.0 * PS_P2)

/* Full forms on |r| <= pi/4: sin r = r + r z S(z), cos r = 1 - z/2 + z^2 C(z) */
#define PS_S3 (-0.16666666666663885)
#define PS_S5 (0.008333333331079223)
#define PS_S7 (-0.00019841266916985966)
#define PS_S9 (2.755599092956532e-06)
#define PS_S11 (-2.4805636241834762e-08)
#define PS_C2 (-0.5)
#define PS_C4 (0.04166666666666468)
#define PS_C6 (-0.0013888888887277342)
#define PS_C8 (2.4801585210990515e-05)
#define PS_C10 (-2.7556369695573007e-07)
#define PS_C12 (2.0700600483433117e-09)
/* cos r = 1 - z/2 + z^2 H(z) on |r| <= pi/2, for ps_cos */
#define PS_H4 (0.04166666666666153)
#define PS_H6 (-0.001388888888738877)
#define PS_H8 (2.480158659186993e-05)
#define PS_H10 (-2.75571963507759e-07)
#define PS_H12 (2.0867130847358268e-09)
#define PS_H14 (-1.1122255716215114e-11)

static inline void ps_sincos(double a, double *s, double *c) {
  if (!(fabs(a) < PS_REDUCE_MAX)) {
    *s = sin(a);
    *c = cos(a);
    return;
  }
  double k = nearbyint(a * PS_TWO_OVER_PI);
  double r = ((a - k * PS_P1) - k * PS_P2) - k * PS_P3;
  double z = r * r;
  double sr = r + r * z * (PS_S3 + z * (PS_S5 + z * (PS_S7 + z * (PS_S9 + z * PS_S11))));
  double cr = 1.0 + z * (PS_C2 + z * (PS_C4 + z * (PS_C6 + z * (PS_C8 + z * (PS_C10 + z * PS_C12)))));
  switch ((int64_t)k & 3) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
  }
}

/* cos a alone (see the header). */
static inline double ps_cos(double a) {
  if (!(fabs(a) < PS_REDUCE_MAX)) return cos(a);
  double m = nearbyint(a * PS_INV_PI);
  double r = (a - m * PS_Q1) - m * PS_Q2; /* m * Q3 < 2e-15, against the polynomial's 3.1e-14 */
  double z = r * r;
  double v = 1.0 + z * (PS_C2 + z * (PS_H4 + z * (PS_H6 + z * (PS_H8 + z * (PS_H10 + z * (PS_H12 + z * PS_H14))))));
  return ((int64_t)m & 1) ? -v : v;
}

/* Small angles need no reduction: below PS_NEAR_SC, a * 2/pi < 0.5 rounds to k = 0, so r = a
 * exactly and the quadrant changes nothing; below PS_NEAR, a / pi rounds to m = 0 (ps_cos).
 * A SIMD form may skip those steps there and give the same bits. */
#define PS_NEAR_SC 0.78
#define PS_NEAR 1.5

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* Every constant stored twice, as the two lanes it is used as: V8 turns a v128.load into one
 * instruction, a load64_splat into two. */
typedef double ps_pair[2];
#define PS_PAIR(v) {v, v}
typedef struct {
  ps_pair two_over_pi, shifter, p1, p2, p3, one, reduce_max;
  ps_pair s[5]; /* S3 .. S11 */
  ps_pair c[6]; /* C2 .. C12 */
  ps_pair inv_pi, q1, q2;
  ps_pair h[7]; /* C2, H4 .. H14 */
  int64_t i_one[2], i_sign[2]; /* integer masks */
  int32_t i_one4[4], i_sign4[4]; /* the same, for float32 lanes */
} ps_consts_t;

static const ps_consts_t ps_table = {
    PS_PAIR(PS_TWO_OVER_PI), PS_PAIR(6755399441055744.0) /* 1.5 * 2^52 */, PS_PAIR(PS_P1),
    PS_PAIR(PS_P2), PS_PAIR(PS_P3), PS_PAIR(1.0), PS_PAIR(PS_REDUCE_MAX),
    {PS_PAIR(PS_S3), PS_PAIR(PS_S5), PS_PAIR(PS_S7), PS_PAIR(PS_S9), PS_PAIR(PS_S11)},
    {PS_PAIR(PS_C2), PS_PAIR(PS_C4), PS_PAIR(PS_C6), PS_PAIR(PS_C8), PS_PAIR(PS_C10), PS_PAIR(PS_C12)},
    PS_PAIR(PS_INV_PI), PS_PAIR(PS_Q1), PS_PAIR(PS_Q2),
    {PS_PAIR(PS_C2), PS_PAIR(PS_H4), PS_PAIR(PS_H6), PS_PAIR(PS_H8), PS_PAIR(PS_H10), PS_PAIR(PS_H12),
     PS_PAIR(PS_H14)},
    {1, 1}, {INT64_MIN, INT64_MIN}, {1, 1, 1, 1}, {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN}};
static const ps_consts_t *const volatile ps_table_ptr = &ps_table;

/* The constants, behind a pointer clang cannot see through: read it once per kernel call. */
static inline const ps_consts_t *ps_consts(void) { return ps_table_ptr; }

#define PS_LD(x) wasm_v128_load(x)
/* Inlined always: outlined, each call passes its results through the stack. */
#define PS_INLINE static inline __attribute__((always_inline))
/* c[0] + z (c[1] + z (... + z c[n-1])), Horner's order (n is a constant at each use: unrolled). */
PS_INLINE v128_t ps_horner2(v128_t z, const ps_pair *c, int n) {
  v128_t p = PS_LD(c[n - 1]);
  for (int i = n - 2; i >= 0; i--) p = wasm_f64x2_add(PS_LD(c[i]), wasm_f64x2_mul(z, p));
  return p;
}

/* Reduction of two lanes: r = a - k pi/2 with |r| <= pi/4; *t keeps k in its low bits. */
PS_INLINE v128_t ps_reduce2(const ps_consts_t *K, v128_t a, v128_t *t) {
  v128_t sh = PS_LD(K->shifter);
  *t = wasm_f64x2_add(wasm_f64x2_mul(a, PS_LD(K->two_over_pi)), sh);
  v128_t k = wasm_f64x2_sub(*t, sh);
  v128_t r = wasm_f64x2_sub(a, wasm_f64x2_mul(k, PS_LD(K->p1)));
  r = wasm_f64x2_sub(r, wasm_f64x2_mul(k, PS_LD(K->p2)));
  return wasm_f64x2_sub(r, wasm_f64x2_mul(k, PS_LD(K->p3)));
}

/* Quadrant q = k mod 4: odd q swaps sin and cos; q in {2,3} negates sin, q in {1,2} cos. */
PS_INLINE void ps_quadrant2(const ps_consts_t *K, v128_t t, v128_t sr, v128_t cr, v128_t *s,
                            v128_t *c) {
  v128_t one = wasm_v128_load(K->i_one), sign = wasm_v128_load(K->i_sign);
  v128_t swap = wasm_i64x2_eq(wasm_v128_and(t, one), one);
  v128_t d = wasm_v128_and(wasm_v128_xor(sr, cr), swap); /* swap by xor: 3 ops, not 6 */
  v128_t sneg = wasm_v128_and(wasm_i64x2_shl(t, 62), sign);
  v128_t cneg = wasm_v128_and(wasm_i64x2_shl(wasm_i64x2_add(t, one), 62), sign);
  *s = wasm_v128_xor(wasm_v128_xor(sr, d), sneg);
  *c = wasm_v128_xor(wasm_v128_xor(cr, d), cneg);
}

/* Lanes past the reduction's range take the scalar path (returns 1 when it did). */
PS_INLINE int ps_far2(const ps_consts_t *K, v128_t a, v128_t *s, v128_t *c) {
  if (wasm_i64x2_all_true(wasm_f64x2_lt(wasm_f64x2_abs(a), PS_LD(K->reduce_max)))) return 0;
  double s0, c0, s1, c1;
  ps_sincos(wasm_f64x2_extract_lane(a, 0), &s0, &c0);
  ps_sincos(wasm_f64x2_extract_lane(a, 1), &s1, &c1);
  *s = wasm_f64x2_make(s0, s1);
  *c = wasm_f64x2_make(c0, c1);
  return 1;
}

/* Two lanes of ps_sincos, bit for bit. */
/* check = 0 when the caller knows every |a| < PS_REDUCE_MAX (the test then costs nothing). */
PS_INLINE void ps_sincos2(const ps_consts_t *K, v128_t a, int check, v128_t *s, v128_t *c) {
  if (check && ps_far2(K, a, s, c)) return;
  v128_t t, r = ps_reduce2(K, a, &t);
  v128_t z = wasm_f64x2_mul(r, r);
  v128_t ps = ps_horner2(z, K->s, 5);
  v128_t sr = wasm_f64x2_add(r, wasm_f64x2_mul(wasm_f64x2_mul(r, z), ps));
  v128_t pc = ps_horner2(z, K->c, 6);
  v128_t cr = wasm_f64x2_add(PS_LD(K->one), wasm_f64x2_mul(z, pc));
  ps_quadrant2(K, t, sr, cr, s, c);
}

/* Four lanes of ps_sincos (angles a0, a1), times `at` when scale, rounded to float32, bit for
 * bit (float)(s * at) of the scalar form; near: every angle in [0, PS_NEAR_SC). The quadrant's
 * swap and sign flips commute with the scaling and the rounding, so they run once on four
 * float32 lanes instead of twice on two float64 lanes: k's low bits are the low words of t. */
PS_INLINE void ps_sincos4_f32(const ps_consts_t *K, v128_t a0, v128_t a1, int check, int scale,
                              int near, v128_t at, v128_t *s, v128_t *c) {
  v128_t lim = PS_LD(K->reduce_max);
  if (!near && check && !wasm_i64x2_all_true(wasm_v128_and(wasm_f64x2_lt(wasm_f64x2_abs(a0), lim),
                                                           wasm_f64x2_lt(wasm_f64x2_abs(a1), lim)))) {
    float fs[4], fc[4];
    double a[4] = {wasm_f64x2_extract_lane(a0, 0), wasm_f64x2_extract_lane(a0, 1),
                   wasm_f64x2_extract_lane(a1, 0), wasm_f64x2_extract_lane(a1, 1)};
    double m = wasm_f64x2_extract_lane(at, 0);
    for (int i = 0; i < 4; i++) {
      double si, ci;
      ps_sincos(a[i], &si, &ci);
      fs[i] = (float)(scale ? si * m : si);
      fc[i] = (float)(scale ? ci * m : ci);
    }
    *s = wasm_v128_load(fs);
    *c = wasm_v128_load(fc);
    return;
  }
  v128_t t0 = a0, t1 = a1, r[2] = {a0, a1}, sr[2], cr[2];
  if (!near) r[0] = ps_reduce2(K, a0, &t0), r[1] = ps_reduce2(K, a1, &t1);
  for (int h = 0; h < 2; h++) {
    v128_t z = wasm_f64x2_mul(r[h], r[h]);
    v128_t ps = ps_horner2(z, K->s, 5);
    sr[h] = wasm_f64x2_add(r[h], wasm_f64x2_mul(wasm_f64x2_mul(r[h], z), ps));
    v128_t pc = ps_horner2(z, K->c, 6);
    cr[h] = wasm_f64x2_add(PS_LD(K->one), wasm_f64x2_mul(z, pc));
    if (scale) sr[h] = wasm_f64x2_mul(sr[h], at), cr[h] = wasm_f64x2_mul(cr[h], at);
  }
  v128_t sf = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(sr[0]),
                                 wasm_f32x4_demote_f64x2_zero(sr[1]), 0, 1, 4, 5);
  v128_t cf = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(cr[0]),
                                 wasm_f32x4_demote_f64x2_zero(cr[1]), 0, 1, 4, 5);
  if (near) { /* every angle below PS_NEAR_SC: k = 0 */
    *s = sf, *c = cf;
    return;
  }
  v128_t k = wasm_i32x4_shuffle(t0, t1, 0, 2, 4, 6);
  v128_t one = wasm_v128_load(K->i_one4), sign = wasm_v128_load(K->i_sign4);
  v128_t swap = wasm_i32x4_eq(wasm_v128_and(k, one), one);
  v128_t d = wasm_v128_and(wasm_v128_xor(sf, cf), swap);
  v128_t sneg = wasm_v128_and(wasm_i32x4_shl(k, 30), sign);
  v128_t cneg = wasm_v128_and(wasm_i32x4_shl(wasm_i32x4_add(k, one), 30), sign);
  *s = wasm_v128_xor(wasm_v128_xor(sf, d), sneg);
  *c = wasm_v128_xor(wasm_v128_xor(cf, d), cneg);
}

/* cos r = 1 - z/2 + z^2 H(z) of ps_cos, on two lanes. */
PS_INLINE v128_t ps_cos2_poly(const ps_consts_t *K, v128_t r) {
  v128_t z = wasm_f64x2_mul(r, r);
  v128_t p = ps_horner2(z, K->h, 7);
  return wasm_f64x2_add(PS_LD(K->one), wasm_f64x2_mul(z, p));
}

/* Two lanes of ps_cos, bit for bit. */
PS_INLINE v128_t ps_cos2(const ps_consts_t *K, v128_t a, int check) {
  if (check && !wasm_i64x2_all_true(wasm_f64x2_lt(wasm_f64x2_abs(a), PS_LD(K->reduce_max))))
    return wasm_f64x2_make(ps_cos(wasm_f64x2_extract_lane(a, 0)), ps_cos(wasm_f64x2_extract_lane(a, 1)));
  v128_t sh = PS_LD(K->shifter);
  v128_t t = wasm_f64x2_add(wasm_f64x2_mul(a, PS_LD(K->inv_pi)), sh);
  v128_t m = wasm_f64x2_sub(t, sh);
  v128_t r = wasm_f64x2_sub(a, wasm_f64x2_mul(m, PS_LD(K->q1)));
  r = wasm_f64x2_sub(r, wasm_f64x2_mul(m, PS_LD(K->q2)));
  return wasm_v128_xor(ps_cos2_poly(K, r), wasm_i64x2_shl(t, 63)); /* m odd (low bit of t): negate */
}

/* ps_cos2 of angles in [0, PS_NEAR): the same bits, with 9 of its 25 operations left out. */
PS_INLINE v128_t ps_cos2_near(const ps_consts_t *K, v128_t a) { return ps_cos2_poly(K, a); }

#endif

#endif
