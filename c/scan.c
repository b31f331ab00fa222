/* scan.c: finds the first element of an array that is not finite or lies outside [lo, hi].
 *
 * The JS API checks every number a caller hands it. Done in JS that scan costs 2-3 ns per
 * element (V8 neither vectorises it nor overlaps the comparisons); here it runs at memory
 * speed over the copy already made into the heap, and the JS side only reports the index.
 * NaN fails every comparison, so (x >= lo && x <= hi) rejects it; infinities are rejected
 * separately because lo and hi may themselves be infinite.
 */
#include <math.h>

#include "check.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#define BLOCK 64 /* elements tested per branch: one any_true per block keeps the loop branch-light */

/* The float32 bounds that select exactly the floats in [lo, hi]: lo rounded up, hi down. */
static void f32_bounds(double lo, double hi, float *flo, float *fhi) {
  float a = (float)lo, b = (float)hi;
  if ((double)a < lo) a = nextafterf(a, INFINITY);
  if ((double)b > hi) b = nextafterf(b, -INFINITY);
  *flo = a;
  *fhi = b;
}

static int32_t first_bad_f32_scalar(const float *a, int32_t from, int32_t n, float lo, float hi) {
  for (int32_t i = from; i < n; i++) {
    float x = a[i];
    if (!(x >= lo && x <= hi && isfinite(x))) return i;
  }
  return n;
}

static int32_t first_bad_f64_scalar(const double *a, int32_t from, int32_t n, double lo, double hi) {
  for (int32_t i = from; i < n; i++) {
    double x = a[i];
    if (!(x >= lo && x <= hi && isfinite(x))) return i;
  }
  return n;
}

/* Index of the first bad element of a[0..n), or n when every one is good. */
int32_t posenc_first_invalid_f32(const float *a, int32_t n, double lo, double hi) {
  CHECK(a, POSENC_E_NULL);
  CHECK(elems3(n, 1, 1), POSENC_E_SIZE);
  CHECK(!isnan(lo) && !isnan(hi), POSENC_E_VALUE);
  float flo, fhi;
  f32_bounds(lo, hi, &flo, &fhi);
  int32_t i = 0;
#ifdef __wasm_simd128__
  if (flo <= -FLT_MAX && fhi >= FLT_MAX) {
    /* any finite float passes (the common case: tensor values): only the exponent field
     * decides, all ones for Inf and NaN, so three integer operations a vector suffice */
    const v128_t ones = wasm_i32x4_splat(0x7f800000);
    for (; i + BLOCK <= n; i += BLOCK) {
      /* the largest exponent field of the block reaches all ones only if some value is bad:
       * two operations a vector, in four independent chains */
      v128_t m0 = wasm_i32x4_splat(0), m1 = m0, m2 = m0, m3 = m0;
      for (int32_t j = 0; j < BLOCK; j += 16) {
        m0 = wasm_u32x4_max(m0, wasm_v128_and(wasm_v128_load(a + i + j), ones));
        m1 = wasm_u32x4_max(m1, wasm_v128_and(wasm_v128_load(a + i + j + 4), ones));
        m2 = wasm_u32x4_max(m2, wasm_v128_and(wasm_v128_load(a + i + j + 8), ones));
        m3 = wasm_u32x4_max(m3, wasm_v128_and(wasm_v128_load(a + i + j + 12), ones));
      }
      v128_t m = wasm_u32x4_max(wasm_u32x4_max(m0, m1), wasm_u32x4_max(m2, m3));
      if (wasm_v128_any_true(wasm_i32x4_eq(m, ones))) return first_bad_f32_scalar(a, i, i + BLOCK, flo, fhi);
    }
    return first_bad_f32_scalar(a, i, n, flo, fhi);
  }
  const v128_t vlo = wasm_f32x4_splat(flo), vhi = wasm_f32x4_splat(fhi);
  const v128_t vmax = wasm_f32x4_splat(FLT_MAX);
  for (; i + BLOCK <= n; i += BLOCK) {
    v128_t bad = wasm_i32x4_splat(0);
    for (int32_t j = 0; j < BLOCK; j += 4) {
      v128_t x = wasm_v128_load(a + i + j);
      v128_t ok = wasm_v128_and(wasm_v128_and(wasm_f32x4_ge(x, vlo), wasm_f32x4_le(x, vhi)),
                                wasm_f32x4_le(wasm_f32x4_abs(x), vmax));
      bad = wasm_v128_or(bad, wasm_v128_not(ok));
    }
    if (wasm_v128_any_true(bad)) return first_bad_f32_scalar(a, i, i + BLOCK, flo, fhi);
  }
#endif
  return first_bad_f32_scalar(a, i, n, flo, fhi);
}

int32_t posenc_first_invalid_f64(const double *a, int32_t n, double lo, double hi) {
  CHECK(a, POSENC_E_NULL);
  CHECK(elems3(n, 1, 1), POSENC_E_SIZE);
  CHECK(!isnan(lo) && !isnan(hi), POSENC_E_VALUE);
  int32_t i = 0;
#ifdef __wasm_simd128__
  const v128_t vlo = wasm_f64x2_splat(lo), vhi = wasm_f64x2_splat(hi);
  const v128_t vmax = wasm_f64x2_splat(DBL_MAX);
  for (; i + BLOCK <= n; i += BLOCK) {
    v128_t bad = wasm_i32x4_splat(0);
    for (int32_t j = 0; j < BLOCK; j += 2) {
      v128_t x = wasm_v128_load(a + i + j);
      v128_t ok = wasm_v128_and(wasm_v128_and(wasm_f64x2_ge(x, vlo), wasm_f64x2_le(x, vhi)),
                                wasm_f64x2_le(wasm_f64x2_abs(x), vmax));
      bad = wasm_v128_or(bad, wasm_v128_not(ok));
    }
    if (wasm_v128_any_true(bad)) return first_bad_f64_scalar(a, i, i + BLOCK, lo, hi);
  }
#endif
  return first_bad_f64_scalar(a, i, n, lo, hi);
}
