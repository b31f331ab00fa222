/* dot.h: the float64 dot product of two float32 rows, shared by attention.c's kernels.
 *
 * Eight partial sums s_j over the elements d = j (mod 8), combined as
 * ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)), then the tail in order. Each product of
 * two floats is exact in float64, so the scalar form below and the SIMD form (four f64x2
 * accumulators: four independent add chains instead of one, so the loop runs at the adder's
 * throughput rather than its latency) give the same bits. */
#ifndef POSENC_DOT_H
#define POSENC_DOT_H

#include <stdint.h>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

static inline double ps_dot(const float *a, const float *b, int32_t n) {
  int32_t k = 0;
  double acc = 0.0;
#ifdef __wasm_simd128__
  v128_t s01 = wasm_f64x2_splat(0.0), s23 = s01, s45 = s01, s67 = s01;
  for (; k + 8 <= n; k += 8) {
    v128_t a0 = wasm_v128_load(a + k), a1 = wasm_v128_load(a + k + 4);
    v128_t b0 = wasm_v128_load(b + k), b1 = wasm_v128_load(b + k + 4);
#define LO(v) wasm_f64x2_promote_low_f32x4(v)
#define HI(v) wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(v, v, 2, 3, 2, 3))
    s01 = wasm_f64x2_add(s01, wasm_f64x2_mul(LO(a0), LO(b0)));
    s23 = wasm_f64x2_add(s23, wasm_f64x2_mul(HI(a0), HI(b0)));
    s45 = wasm_f64x2_add(s45, wasm_f64x2_mul(LO(a1), LO(b1)));
    s67 = wasm_f64x2_add(s67, wasm_f64x2_mul(HI(a1), HI(b1)));
#undef LO
#undef HI
  }
  v128_t s = wasm_f64x2_add(wasm_f64x2_add(s01, s45), wasm_f64x2_add(s23, s67));
  acc = wasm_f64x2_extract_lane(s, 0) + wasm_f64x2_extract_lane(s, 1);
#else
  double s[8] = {0};
  for (; k + 8 <= n; k += 8)
    for (int j = 0; j < 8; j++) s[j] += (double)a[k + j] * b[k + j];
  acc = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
#endif
  for (; k < n; k++) acc += (double)a[k] * b[k];
  return acc;
}

#endif
