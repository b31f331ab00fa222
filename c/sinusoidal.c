/* sinusoidal.c: sinusoidal position tables (the paper's, interleaved or concatenated; the
 * tensor2tensor one), and the relative-position map R(k) on them.
 *
 * Scalar reference form: every element is sin/cos of the float64 angle (start + r) * w_i.
 * SIMD form: a float64 rotation recurrence. PE(p+1) = R(w_i) PE(p) per pair, re-anchored
 * from the exact angle every BLOCK_ROWS rows. Each step adds at most a few float64 ulp plus
 * the error of the step's own cos/sin (< 3e-14, repeated every step), so the bound after 63
 * steps is 63 * 4e-14 < 3e-12, four orders below float32's rounding: the results, rounded to
 * float32, match the scalar reference within 2 ulp (tests/builds.test.js). It needs ~8 f64x2
 * operations per 4 outputs against ~25 for a polynomial. Four pairs' state lives in registers
 * while they run SUB_ROWS rows (rows inner), so each step is 8 multiplies, 4 adds, 4 demotes,
 * 2 shuffles and 2 stores for 8 outputs; a large table is bound by its writes.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "sincos.h"

#define CHUNK 256      /* pairs handled at once (stack arrays) */
#define BLOCK_ROWS 64  /* rows between exact re-anchors in the recurrence */
#define SUB_ROWS 8     /* rows a group of pairs runs before the next group: the 8 row segments
                          stay in L1 even when dim is a power of two (same cache set) */

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
/* Four pairs over SUB_ROWS rows with the state in registers: s, c hold sin/cos of pairs
 * [j, j+4) for the current row and are stored back for the next sub-block. */
static void group_simd(float *row, int32_t nr, int32_t dim, int32_t half, int32_t p, int32_t layout,
                       double *s, double *c, const double *ws, const double *wc) {
  v128_t s0 = wasm_v128_load(s), s1 = wasm_v128_load(s + 2);
  v128_t c0 = wasm_v128_load(c), c1 = wasm_v128_load(c + 2);
  v128_t ws0 = wasm_v128_load(ws), ws1 = wasm_v128_load(ws + 2);
  v128_t wc0 = wasm_v128_load(wc), wc1 = wasm_v128_load(wc + 2);
  for (int32_t r = 0; r < nr; r++, row += dim) {
    v128_t fs0 = wasm_f32x4_demote_f64x2_zero(s0), fs1 = wasm_f32x4_demote_f64x2_zero(s1);
    v128_t fc0 = wasm_f32x4_demote_f64x2_zero(c0), fc1 = wasm_f32x4_demote_f64x2_zero(c1);
    if (layout == POSENC_LAYOUT_INTERLEAVED) {
      wasm_v128_store(row + 2 * p, wasm_i32x4_shuffle(fs0, fc0, 0, 4, 1, 5));
      wasm_v128_store(row + 2 * p + 4, wasm_i32x4_shuffle(fs1, fc1, 0, 4, 1, 5));
    } else {
      wasm_v128_store(row + p, wasm_i32x4_shuffle(fs0, fs1, 0, 1, 4, 5));
      wasm_v128_store(row + half + p, wasm_i32x4_shuffle(fc0, fc1, 0, 1, 4, 5));
    }
    v128_t n0 = wasm_f64x2_add(wasm_f64x2_mul(s0, wc0), wasm_f64x2_mul(c0, ws0));
    v128_t n1 = wasm_f64x2_add(wasm_f64x2_mul(s1, wc1), wasm_f64x2_mul(c1, ws1));
    c0 = wasm_f64x2_sub(wasm_f64x2_mul(c0, wc0), wasm_f64x2_mul(s0, ws0));
    c1 = wasm_f64x2_sub(wasm_f64x2_mul(c1, wc1), wasm_f64x2_mul(s1, ws1));
    s0 = n0;
    s1 = n1;
  }
  wasm_v128_store(s, s0), wasm_v128_store(s + 2, s1);
  wasm_v128_store(c, c0), wasm_v128_store(c + 2, c1);
}

static void chunk_simd(float *out, int32_t length, int32_t dim, const double *w, int32_t p0,
                       int32_t np, double start, int32_t layout) {
  const ps_consts_t *K = ps_consts();
  int32_t half = dim / 2, n4 = np & ~3; /* pairs past n4 take the scalar form */
  double s[CHUNK], c[CHUNK], ws[CHUNK], wc[CHUNK];
  for (int32_t j = 0; j < n4; j++) ps_sincos(w[j], &ws[j], &wc[j]);
  for (int32_t r0 = 0; r0 < length; r0 += BLOCK_ROWS) {
    int32_t nr = length - r0 < BLOCK_ROWS ? length - r0 : BLOCK_ROWS;
    v128_t pos = wasm_f64x2_splat(start + r0);
    for (int32_t j = 0; j < n4; j += 2) {
      v128_t sv, cv;
      ps_sincos2(K, wasm_f64x2_mul(pos, wasm_v128_load(w + j)), 1, &sv, &cv);
      wasm_v128_store(s + j, sv);
      wasm_v128_store(c + j, cv);
    }
    for (int32_t rb = 0; rb < nr; rb += SUB_ROWS) {
      float *row = out + (size_t)(r0 + rb) * dim;
      int32_t nb = nr - rb < SUB_ROWS ? nr - rb : SUB_ROWS;
      for (int32_t j = 0; j < n4; j += 4)
        group_simd(row, nb, dim, half, p0 + j, layout, s + j, c + j, ws + j, wc + j);
    }
  }
  if (n4 < np) chunk_scalar(out, length, dim, w + n4, p0 + n4, np - n4, start, layout);
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

/* tensor2tensor's timing signal (get_timing_signal_1d, also fairseq's): [sin | cos] with
 * w_i = base^(-i/(d/2 - 1)), the other common sinusoidal table. Scalar: libm per element. */
int posenc_sinusoidal_t2t(float *out, int32_t length, int32_t dim, double base, double start) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(length, dim, 1), POSENC_E_SIZE);
  CHECK(dim % 2 == 0, POSENC_E_ODD);
  CHECK_BASE(base);
  CHECK(start >= 0.0 && start <= 9007199254740992.0 - length, POSENC_E_POSITION);
  int32_t n = dim / 2;
  /* get_timing_signal_1d: inv_i = exp(-i ln(max/min) / max(n - 1, 1)), [sin | cos] */
  double inc = log(base) / (n > 1 ? n - 1 : 1);
  for (int32_t i = 0; i < n; i++) {
    double w = exp(-i * inc);
    for (int32_t r = 0; r < length; r++) {
      double a = (start + r) * w;
      out[(size_t)r * dim + i] = (float)sin(a);
      out[(size_t)r * dim + n + i] = (float)cos(a);
    }
  }
  return POSENC_OK;
}
