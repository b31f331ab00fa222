/* random.c: seeded standard normal samples, identical in every engine and in both builds.
 * splitmix64 gives 53-bit uniforms; Box-Muller turns pairs of them into normals, all in
 * float64 (log_unit below for the radius, sincos.h's ps_sincos for the angle; the SIMD forms
 * of both give the same bits), so Node and every browser print the same numbers for the same
 * seed. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "sincos.h"

#define TWO_PI 6.28318530717958647692

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in (0, 1]: never 0, so log_unit below stays finite */
static double uniform(uint64_t *state) {
  /* converted as signed (the value is below 2^53): wasm's unsigned i64 -> f64 is a slow sequence */
  return (double)(int64_t)((splitmix64(state) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* log_unit: the natural log of a uniform, u = j 2^-53 with j in 1 .. 2^53: u in [2^-53, 1],
 * never 0, never subnormal, never above 1. Outside that domain it is wrong (no special cases).
 *
 * Method (fdlibm's e_log.c, without its branches): u = 2^k m with m in [sqrt(1/2), sqrt(2))
 * (to 2^-20) straight from the bits: adding 0x95f62 to the high word carries into the
 * exponent exactly when the mantissa passes sqrt(2)'s high word. f = m - 1, s = f / (2 + f),
 * log m = f - (f^2/2 - s (f^2/2 + R(s^2))) with fdlibm's Lg1..Lg7 (|s| <= 0.1716, polynomial
 * error < 2^-58.45); then log u = k ln2_hi + (f - (f^2/2 - (s (f^2/2 + R) + k ln2_lo))), where
 * ln2_hi has 32 significant bits, so k ln2_hi is exact.
 *
 * Error, measured against a 40-digit decimal log over 4M uniform u, 4M log-uniform u (every
 * exponent), 1M u in [0.6, sqrt(1/2)) (where it is worst: m near sqrt(2), k = -1) and 31k
 * edges (2^-k and its neighbours, 100 ulps either side of the switch at every k, j and
 * 2^53 - j for j <= 10^4): at most 0.85 ulp (float64), so always within 1 ulp. libm's log
 * (musl's tables) was within 0.52 ulp; V8's Math.log differs from this one on 1% of uniform u,
 * by 1 ulp. Rounded to float32, no normal changed: 0 of 2^20 for each of 20 seeds.
 *
 * The scalar and SIMD forms run the same operations in the same order (WASM has no FMA, so
 * clang's -ffp-contract has nothing to fuse), so the two builds give the same bits. k as a
 * double: the SIMD form ors the exponent field into 2^52 and subtracts 2^52 + 1023 (f64x2 has
 * no int64 conversion), the scalar form converts; both are exact. In the scalar build the
 * division makes log_unit a little slower than libm's table-driven log: the price of equal bits.
 *
 * The coefficients and the reduction are fdlibm's: Copyright (C) 1993 by Sun Microsystems,
 * Inc. All rights reserved. Developed at SunSoft, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this software is freely granted, provided
 * that this notice is preserved. */
#define LOG_LN2_HI 6.93147180369123816490e-01 /* 3fe62e42 fee00000 */
#define LOG_LN2_LO 1.90821492927058770002e-10 /* 3dea39ef 35793c76 */
#define LOG_LG1 6.666666666666735130e-01      /* 3fe55555 55555593 */
#define LOG_LG2 3.999999999940941908e-01      /* 3fd99999 9997fa04 */
#define LOG_LG3 2.857142874366239149e-01      /* 3fd24924 94229359 */
#define LOG_LG4 2.222219843214978396e-01      /* 3fcc71c5 1d8e78af */
#define LOG_LG5 1.818357216161805012e-01      /* 3fc74664 96cb03de */
#define LOG_LG6 1.531383769920937332e-01      /* 3fc39a09 d078c69f */
#define LOG_LG7 1.479819860511658591e-01      /* 3fc2f112 df3e5244 */
#define LOG_SHIFT 0x00095f6200000000ll        /* high words: 1.0's - sqrt(1/2)'s */
#define LOG_MANT 0x000fffffffffffffll
#define LOG_BASE 0x3fe6a09e00000000ll         /* sqrt(1/2)'s high word */

static inline double log_unit(double u) {
  int64_t ix;
  memcpy(&ix, &u, sizeof ix);
  ix += LOG_SHIFT;
  double k = (double)((ix >> 52) - 1023), m;
  ix = (ix & LOG_MANT) + LOG_BASE;
  memcpy(&m, &ix, sizeof m);
  double f = m - 1.0, hfsq = 0.5 * f * f, s = f / (2.0 + f), z = s * s, w = z * z;
  double t1 = w * (LOG_LG2 + w * (LOG_LG4 + w * LOG_LG6));
  double t2 = z * (LOG_LG1 + w * (LOG_LG3 + w * (LOG_LG5 + w * LOG_LG7)));
  return k * LOG_LN2_HI + (f - (hfsq - (s * (hfsq + (t2 + t1)) + k * LOG_LN2_LO)));
}

/* sqrt(-2 log u): the Box-Muller radius. */
static inline double radius(double u) { return sqrt(-2.0 * log_unit(u)); }

#ifdef __wasm_simd128__
/* Constants as lane pairs behind a volatile pointer, for the reasons in sincos.h. */
typedef struct {
  int64_t shift[2], mant[2], base[2], k_bits[2];
  ps_pair k_sub, one, half, two, lg[7], ln2_hi, ln2_lo, minus_two;
} log_consts_t;
static const log_consts_t log_table = {
    {LOG_SHIFT, LOG_SHIFT}, {LOG_MANT, LOG_MANT}, {LOG_BASE, LOG_BASE},
    {0x4330000000000000ll, 0x4330000000000000ll} /* 2^52 */, PS_PAIR(4503599627371519.0) /* 2^52 + 1023 */,
    PS_PAIR(1.0), PS_PAIR(0.5), PS_PAIR(2.0),
    {PS_PAIR(LOG_LG1), PS_PAIR(LOG_LG2), PS_PAIR(LOG_LG3), PS_PAIR(LOG_LG4), PS_PAIR(LOG_LG5),
     PS_PAIR(LOG_LG6), PS_PAIR(LOG_LG7)},
    PS_PAIR(LOG_LN2_HI), PS_PAIR(LOG_LN2_LO), PS_PAIR(-2.0)};
static const log_consts_t *const volatile log_table_ptr = &log_table;

/* Two lanes of log_unit, bit for bit. */
PS_INLINE v128_t log_unit2(const log_consts_t *L, v128_t u) {
  v128_t ix = wasm_i64x2_add(u, PS_LD(L->shift));
  v128_t k = wasm_f64x2_sub(wasm_v128_or(wasm_u64x2_shr(ix, 52), PS_LD(L->k_bits)), PS_LD(L->k_sub));
  v128_t m = wasm_i64x2_add(wasm_v128_and(ix, PS_LD(L->mant)), PS_LD(L->base));
  v128_t f = wasm_f64x2_sub(m, PS_LD(L->one));
  v128_t hfsq = wasm_f64x2_mul(wasm_f64x2_mul(PS_LD(L->half), f), f);
  v128_t s = wasm_f64x2_div(f, wasm_f64x2_add(PS_LD(L->two), f));
  v128_t z = wasm_f64x2_mul(s, s), w = wasm_f64x2_mul(z, z);
#define MADD(acc, c) wasm_f64x2_add(PS_LD(c), wasm_f64x2_mul(w, acc))
  v128_t t1 = wasm_f64x2_mul(w, MADD(MADD(PS_LD(L->lg[5]), L->lg[3]), L->lg[1]));
  v128_t t2 = wasm_f64x2_mul(z, MADD(MADD(MADD(PS_LD(L->lg[6]), L->lg[4]), L->lg[2]), L->lg[0]));
#undef MADD
  v128_t p = wasm_f64x2_mul(s, wasm_f64x2_add(hfsq, wasm_f64x2_add(t2, t1)));
  p = wasm_f64x2_add(p, wasm_f64x2_mul(k, PS_LD(L->ln2_lo)));
  p = wasm_f64x2_sub(f, wasm_f64x2_sub(hfsq, p));
  return wasm_f64x2_add(wasm_f64x2_mul(k, PS_LD(L->ln2_hi)), p);
}

/* Two radii, bit for bit radius(u0), radius(u1). */
PS_INLINE v128_t radius2(const log_consts_t *L, double u0, double u1) {
  return wasm_f64x2_sqrt(wasm_f64x2_mul(PS_LD(L->minus_two), log_unit2(L, wasm_f64x2_make(u0, u1))));
}

/* out[0..3] = r0 c0, r0 s0, r1 c1, r1 s1 in float32: the scalar loop's order. */
PS_INLINE void store_pairs(float *out, v128_t r, v128_t s, v128_t c) {
  v128_t rc = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(r, c));
  v128_t rs = wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(r, s));
  wasm_v128_store(out, wasm_i32x4_shuffle(rc, rs, 0, 4, 1, 5));
}
#endif

int posenc_random_normal(float *out, int32_t n, double seed) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(n, 1, 1), POSENC_E_SIZE);
  CHECK(seed >= 0.0 && seed <= 9007199254740991.0 && seed == floor(seed), POSENC_E_VALUE);
  uint64_t state = (uint64_t)seed;
  int32_t i = 0;
#ifdef __wasm_simd128__
  /* Four pairs a step, as two vectors of two (two chains for the CPU to overlap): radii through
   * log_unit2, sines and cosines through ps_sincos2, bit for bit log_unit and ps_sincos. libm's
   * log (scalar) and the scalar form's quadrant switch (it mispredicts on random angles) cost
   * more than everything else. */
  const ps_consts_t *K = ps_consts();
  const log_consts_t *L = log_table_ptr;
  for (; i + 8 <= n; i += 8) {
    double u0 = uniform(&state), t0 = TWO_PI * uniform(&state);
    double u1 = uniform(&state), t1 = TWO_PI * uniform(&state);
    double u2 = uniform(&state), t2 = TWO_PI * uniform(&state);
    double u3 = uniform(&state), t3 = TWO_PI * uniform(&state);
    v128_t r0 = radius2(L, u0, u1), r1 = radius2(L, u2, u3), s0, c0, s1, c1;
    ps_sincos2(K, wasm_f64x2_make(t0, t1), 0, &s0, &c0);
    ps_sincos2(K, wasm_f64x2_make(t2, t3), 0, &s1, &c1);
    store_pairs(out + i, r0, s0, c0);
    store_pairs(out + i + 4, r1, s1, c1);
  }
#endif
  for (; i < n; i += 2) {
    double r = radius(uniform(&state)), t = TWO_PI * uniform(&state), s, c;
    ps_sincos(t, &s, &c);
    out[i] = (float)(r * c);
    if (i + 1 < n) out[i + 1] = (float)(r * s);
  }
  return POSENC_OK;
}
