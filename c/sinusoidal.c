/* sinusoidal.c: the sinusoidal position table and binary position codes.
 *
 * Scalar reference form: every element is sin/cos of the float64 angle (start + r) * w_i.
 * SIMD form: a float64 rotation recurrence. PE(p+1) = R(w_i) PE(p) per pair, re-anchored
 * from the exact angle every BLOCK_ROWS rows. Each step adds at most a few float64 ulp
 * (plus the 3e-14 error of the step's own cos/sin), so after 64 steps the state is within
 * 3e-12 of the truth; results are then rounded to float32, where they match the reference
 * to within 1 ulp. It needs ~8 f64x2 operations per 4 outputs against ~25 for a polynomial.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "sincos.h"

#define CHUNK 256      /* pairs handled at once (stack arrays) */
#define BLOCK_ROWS 64  /* rows between exact re-anchors in the recurrence */

static void store_pair(float *row, int32_t half, int32_t i, int32_t layout, double s, double c) {
  if (layout == POSENC_LAYOUT_INTERLEAVED) {
    row[2 * i] = (float)s;
    row[2 * i + 1] = (float)c;
  } else {
    row[i] = (float)s;
    row[half + i] = (float)c;
  }
}

MAYBE_UNUSED static void chunk_scalar(float *out, int32_t length, int32_t dim, const double *w, int32_t p0,
                         int32_t np, double start, int32_t layout) {
  int32_t half = dim / 2;
  for (int32_t r = 0; r < length; r++) {
    float *row = out + (size_t)r * dim;
    for (int32_t j = 0; j < np; j++) {
      double s, c;
      ps_sincos((start + r) * w[j], &s, &c);
      store_pair(row, half, p0 + j, layout, s, c);
    }
  }
}

#ifdef __wasm_simd128__
static void chunk_simd(float *out, int32_t length, int32_t dim, const double *w, int32_t p0,
                       int32_t np, double start, int32_t layout) {
  int32_t half = dim / 2;
  double s[CHUNK], c[CHUNK], ws[CHUNK], wc[CHUNK];
  int32_t nv = np & ~1; /* pairs done two at a time; an odd last pair goes scalar */
  /* The step rotation comes from libm (1 ulp), not the polynomial: any error in it is
   * multiplied by the number of steps since the last anchor. */
  for (int32_t j = 0; j < np; j++) ws[j] = sin(w[j]), wc[j] = cos(w[j]);
  for (int32_t r0 = 0; r0 < length; r0 += BLOCK_ROWS) {
    int32_t nr = length - r0 < BLOCK_ROWS ? length - r0 : BLOCK_ROWS;
    for (int32_t j = 0; j < nv; j += 2) {
      v128_t sv, cv;
      ps_sincos2(wasm_f64x2_mul(wasm_f64x2_splat(start + r0), wasm_v128_load(w + j)), &sv, &cv);
      wasm_v128_store(s + j, sv);
      wasm_v128_store(c + j, cv);
    }
    if (nv < np) ps_sincos((start + r0) * w[nv], &s[nv], &c[nv]);
    for (int32_t r = 0; r < nr; r++) {
      float *row = out + (size_t)(r0 + r) * dim;
      for (int32_t j = 0; j < nv; j += 2) {
        v128_t sv = wasm_v128_load(s + j), cv = wasm_v128_load(c + j);
        v128_t s32 = wasm_f32x4_demote_f64x2_zero(sv), c32 = wasm_f32x4_demote_f64x2_zero(cv);
        if (layout == POSENC_LAYOUT_INTERLEAVED) {
          wasm_v128_store(row + 2 * (p0 + j), wasm_i32x4_shuffle(s32, c32, 0, 4, 1, 5));
        } else {
          wasm_v128_store64_lane(row + p0 + j, s32, 0);
          wasm_v128_store64_lane(row + half + p0 + j, c32, 0);
        }
        v128_t stc = wasm_v128_load(wc + j), sts = wasm_v128_load(ws + j);
        wasm_v128_store(s + j, wasm_f64x2_add(wasm_f64x2_mul(sv, stc), wasm_f64x2_mul(cv, sts)));
        wasm_v128_store(c + j, wasm_f64x2_sub(wasm_f64x2_mul(cv, stc), wasm_f64x2_mul(sv, sts)));
      }
      if (nv < np) {
        store_pair(row, half, p0 + nv, layout, s[nv], c[nv]);
        double sn = s[nv] * wc[nv] + c[nv] * ws[nv];
        c[nv] = c[nv] * wc[nv] - s[nv] * ws[nv];
        s[nv] = sn;
      }
    }
  }
}
#endif

static int check_table(const void *out, int32_t length, int32_t dim, double base, double start,
                       int32_t layout) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(length, dim, 1), POSENC_E_SIZE);
  CHECK(dim % 2 == 0, POSENC_E_ODD);
  CHECK_BASE(base);
  /* start + length must stay an exactly representable run of float64 positions */
  CHECK(start >= 0.0 && start <= 9007199254740992.0 - length, POSENC_E_POSITION);
  CHECK(layout == POSENC_LAYOUT_INTERLEAVED || layout == POSENC_LAYOUT_CONCAT, POSENC_E_LAYOUT);
  return POSENC_OK;
}

int posenc_sinusoidal(float *out, int32_t length, int32_t dim, double base, double start,
                      int32_t layout) {
  int rc = check_table(out, length, dim, base, start, layout);
  if (rc) return rc;
  int32_t half = dim / 2;
  double w[CHUNK];
  for (int32_t p0 = 0; p0 < half; p0 += CHUNK) {
    int32_t np = half - p0 < CHUNK ? half - p0 : CHUNK;
    for (int32_t j = 0; j < np; j++) w[j] = pow(base, -(2.0 * (p0 + j)) / dim);
#ifdef __wasm_simd128__
    chunk_simd(out, length, dim, w, p0, np, start, layout);
#else
    chunk_scalar(out, length, dim, w, p0, np, start, layout);
#endif
  }
  return POSENC_OK;
}

int posenc_sinusoidal_f64(double *out, int32_t length, int32_t dim, double base, double start,
                          int32_t layout) {
  int rc = check_table(out, length, dim, base, start, layout);
  if (rc) return rc;
  int32_t half = dim / 2;
  for (int32_t i = 0; i < half; i++) {
    double w = pow(base, -(2.0 * i) / dim);
    int32_t a = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i : i;
    int32_t b = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i + 1 : i + half;
    for (int32_t r = 0; r < length; r++) ps_sincos((start + r) * w, &out[(size_t)r * dim + a], &out[(size_t)r * dim + b]);
  }
  return POSENC_OK;
}

int posenc_sinusoidal_shift(float *out, const float *in, int32_t rows, int32_t dim, double base,
                            double k, int32_t layout) {
  CHECK(out && in, POSENC_E_NULL);
  size_t n = elems3(rows, dim, 1);
  CHECK(n, POSENC_E_SIZE);
  CHECK(dim % 2 == 0, POSENC_E_ODD);
  CHECK_BASE(base);
  CHECK(isfinite(k) && fabs(k) <= 9007199254740992.0, POSENC_E_POSITION);
  CHECK(layout == POSENC_LAYOUT_INTERLEAVED || layout == POSENC_LAYOUT_CONCAT, POSENC_E_LAYOUT);
  CHECK(!partial_overlap(out, n * sizeof(float), in, n * sizeof(float)), POSENC_E_VALUE);
  int32_t half = dim / 2;
  for (int32_t i = 0; i < half; i++) {
    double s, c;
    ps_sincos(k * pow(base, -(2.0 * i) / dim), &s, &c);
    int32_t a = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i : i;
    int32_t b = layout == POSENC_LAYOUT_INTERLEAVED ? 2 * i + 1 : i + half;
    for (int32_t r = 0; r < rows; r++) {
      const float *x = in + (size_t)r * dim;
      float *y = out + (size_t)r * dim;
      double sa = x[a], ca = x[b]; /* (sin a, cos a) -> (sin(a+t), cos(a+t)) */
      y[a] = (float)(sa * c + ca * s);
      y[b] = (float)(ca * c - sa * s);
    }
  }
  return POSENC_OK;
}

int posenc_binary(float *out, int32_t length, int32_t bits) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(length, bits, 1), POSENC_E_SIZE);
  CHECK(bits <= 31, POSENC_E_SIZE);
  for (int32_t p = 0; p < length; p++)
    for (int32_t j = 0; j < bits; j++) out[(size_t)p * bits + j] = (float)((p >> j) & 1);
  return POSENC_OK;
}
