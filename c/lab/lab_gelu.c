/* lab_gelu.c: GELU y = x Phi(x) (the exact erf form, nn.GELU()) and its derivative
 * dy = Phi(x) + x phi(x), in one pass.
 * - float64 build: libm's erf and exp.
 * - float build: Phi from erfc by Abramowitz and Stegun 7.1.26 (|error| <= 1.5e-7), whose
 *   factor exp(-x^2/2) is also phi's, so one exp serves both; exp by Cephes' expf (range
 *   reduction by ln 2 in two parts, degree-7 polynomial, 2^n through the exponent bits).
 *   For x < 0, Phi = erfc/2 directly (no 1 - erf cancellation). The scalar and WASM SIMD forms
 *   run the same float operations in the same order, so the two wasm builds agree bit for bit.
 *   musl's erff and expf were a fifth of a WASM SIMD training step. */
#include <math.h>
#include <string.h>

#include "lab_layers.h"

#define SQRT1_2 0.70710678118654752440
#define INV_SQRT_2PI 0.39894228040143267794

#ifdef LAB_F64
void lab_gelu(lab_real *y, lab_real *dy, const lab_real *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i], cdf = 0.5 * (1.0 + erf(v * SQRT1_2));
    y[i] = v * cdf;
    if (dy) dy[i] = cdf + v * INV_SQRT_2PI * exp(-0.5 * v * v);
  }
}
#else

#define AS_P 0.3275911f
#define AS_A1 0.254829592f
#define AS_A2 -0.284496736f
#define AS_A3 1.421413741f
#define AS_A4 -1.453152027f
#define AS_A5 1.061405429f
#define EXP_LOG2E 1.44269504088896341f
#define EXP_C1 0.693359375f /* ln 2 = C1 - C2, C1 exact in 9 bits */
#define EXP_C2 -2.12194440e-4f
#define EXP_P0 1.9875691500e-4f
#define EXP_P1 1.3981999507e-3f
#define EXP_P2 8.3334519073e-3f
#define EXP_P3 4.1665795894e-2f
#define EXP_P4 1.6666665459e-1f
#define EXP_P5 5.0000001201e-1f
#define EXP_MIN -87.0f /* exp(-87) is still a normal float; below it phi, erfc ~ 0 */

/* exp(a) for a in [EXP_MIN, 0] */
static inline float exp_neg(float a) {
  float nf = floorf(a * EXP_LOG2E + 0.5f);
  float r = a - nf * EXP_C1;
  r = r - nf * EXP_C2;
  float z = r * r;
  float p = ((((EXP_P0 * r + EXP_P1) * r + EXP_P2) * r + EXP_P3) * r + EXP_P4) * r + EXP_P5;
  float e = p * z + r + 1.0f;
  int32_t bits = ((int32_t)nf + 127) << 23;
  float two_n;
  memcpy(&two_n, &bits, sizeof two_n);
  return e * two_n;
}

MAYBE_UNUSED_LAB static void gelu_scalar(float *y, float *dy, const float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    float v = x[i], u = fabsf(v) * (float)SQRT1_2;
    float h = -0.5f * v * v;
    float e = exp_neg(h > EXP_MIN ? h : EXP_MIN);
    float t = 1.0f / (1.0f + AS_P * u);
    float q = 0.5f * ((((AS_A5 * t + AS_A4) * t + AS_A3) * t + AS_A2) * t + AS_A1) * t * e; /* erfc(u)/2 */
    float cdf = v >= 0.0f ? 1.0f - q : q;
    y[i] = v * cdf;
    if (dy) dy[i] = cdf + v * (float)INV_SQRT_2PI * e;
  }
}

#if LAB_SIMD
#define SPLAT wasm_f32x4_splat
static void gelu_simd(float *y, float *dy, const float *x, size_t n) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    v128_t v = wasm_v128_load(x + i), u = wasm_f32x4_mul(wasm_f32x4_abs(v), SPLAT((float)SQRT1_2));
    v128_t h = wasm_f32x4_mul(wasm_f32x4_mul(SPLAT(-0.5f), v), v);
    v128_t a = wasm_f32x4_max(h, SPLAT(EXP_MIN)); /* h > MIN ? h : MIN, with h never NaN here */
    v128_t nf = wasm_f32x4_floor(wasm_f32x4_add(wasm_f32x4_mul(a, SPLAT(EXP_LOG2E)), SPLAT(0.5f)));
    v128_t r = wasm_f32x4_sub(a, wasm_f32x4_mul(nf, SPLAT(EXP_C1)));
    r = wasm_f32x4_sub(r, wasm_f32x4_mul(nf, SPLAT(EXP_C2)));
    v128_t z = wasm_f32x4_mul(r, r);
#define MA(acc, c) wasm_f32x4_add(wasm_f32x4_mul(acc, r), SPLAT(c))
    v128_t p = MA(MA(MA(MA(MA(SPLAT(EXP_P0), EXP_P1), EXP_P2), EXP_P3), EXP_P4), EXP_P5);
#undef MA
    v128_t e = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(p, z), r), SPLAT(1.0f));
    v128_t two_n = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(nf), wasm_i32x4_splat(127)), 23);
    e = wasm_f32x4_mul(e, two_n);
    v128_t t = wasm_f32x4_div(SPLAT(1.0f), wasm_f32x4_add(SPLAT(1.0f), wasm_f32x4_mul(SPLAT(AS_P), u)));
#define MT(acc, c) wasm_f32x4_add(wasm_f32x4_mul(acc, t), SPLAT(c))
    v128_t q = MT(MT(MT(MT(SPLAT(AS_A5), AS_A4), AS_A3), AS_A2), AS_A1);
#undef MT
    q = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_mul(SPLAT(0.5f), q), t), e);
    v128_t cdf = wasm_v128_bitselect(wasm_f32x4_sub(SPLAT(1.0f), q), q, wasm_f32x4_ge(v, SPLAT(0.0f)));
    wasm_v128_store(y + i, wasm_f32x4_mul(v, cdf));
    if (dy) wasm_v128_store(dy + i, wasm_f32x4_add(cdf, wasm_f32x4_mul(wasm_f32x4_mul(v, SPLAT((float)INV_SQRT_2PI)), e)));
  }
  if (i < n) gelu_scalar(y + i, dy ? dy + i : 0, x + i, n - i);
}
#endif

void lab_gelu(lab_real *y, lab_real *dy, const lab_real *x, size_t n) {
#if LAB_SIMD
  gelu_simd(y, dy, x, n);
#else
  gelu_scalar(y, dy, x, n);
#endif
}
#endif
