/* decay.c: attention-score curves over relative distance x.
 *
 * Every curve but the RoFormer bound has the form c0 + sum_i (A_i cos(x theta_i) +
 * B_i sin(x theta_i)), with A, B, c0 fixed by the kind:
 *   all-ones q = k (the long-range decay of RoPE):  A_i = 2, B_i = 0
 *   q . R(x) k, pair (a, b) of each:                A_i = qa ka + qb kb, B_i = qb ka - qa kb
 *   (q + PE(0)) . (k + PE(x)):                      A_i = q_{2i+1} + 1, B_i = q_{2i}, c0 = q.k + sum k_{2i+1}
 * so one accumulation loop serves them. Sums run in float64.
 *
 * Uniform grids (every chart's linear axis) go to decay_grid.c's rotation recurrence, which
 * follows the real angle at a rotation's cost per term. Every other grid (log-spaced axes,
 * angles past the reduction's range) takes the direct path here: every term from the float64
 * angle. When every B_i is 0 (the all-ones curve, PE(0).PE(x)) only cosines are formed, by
 * ps_cos (sincos.h), a third cheaper than sincos; in the SIMD form the pairs whose angles all
 * stay below PS_NEAR also skip ps_cos's reduction, with the same bits. The SIMD form takes four
 * distances a step in two f64x2 vectors, whose independent sincos chains the CPU overlaps.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "decay.h"
#include "sincos.h"


static int check_dist(const double *out, const double *distances, int32_t n,
                      const double *w, int32_t half) {
  CHECK(out && distances && w, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  double dmax, wmax;
  CHECK(nonneg_finite(distances, n, &dmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(w, half, &wmax), POSENC_E_VALUE);
  CHECK(dmax * wmax < 1e300, POSENC_E_VALUE);
  return POSENC_OK;
}

/* ---- Direct path: every term from its float64 angle ---- */

MAYBE_UNUSED static double linear_scalar(double x, const double *w, const double *A,
                                         const double *B, int32_t half, int cos_only) {
  double acc = 0.0;
  if (cos_only) {
    for (int32_t i = 0; i < half; i++) acc += A[i] * ps_cos(x * w[i]);
    return acc;
  }
  for (int32_t i = 0; i < half; i++) {
    double s, c;
    ps_sincos(x * w[i], &s, &c);
    acc += A[i] * c + B[i] * s;
  }
  return acc;
}

MAYBE_UNUSED static double bound_scalar(double x, const double *w, int32_t half) {
  double re = 0.0, im = 0.0, acc = 0.0;
  for (int32_t i = 0; i < half; i++) {
    double s, c;
    ps_sincos(x * w[i], &s, &c);
    re += c;
    im += s;
    acc += sqrt(re * re + im * im);
  }
  return acc / half;
}

#ifdef __wasm_simd128__
/* The first pair from which every angle x w_i (0 <= x <= xmax) stays below PS_NEAR, given
 * wsuf, w's suffix maxima (non-increasing): rounding keeps fl(x w_i) <= fl(xmax wsuf[i]). */
static int32_t near_from(const double *wsuf, int32_t half, double xmax) {
  const double *b = wsuf; /* a search with selects, not branches: groups differ at random */
  for (int32_t len = half; len > 1; len -= len / 2) b += xmax * b[len / 2 - 1] < PS_NEAR ? 0 : len / 2;
  return (int32_t)(b - wsuf) + !(xmax * *b < PS_NEAR);
}

/* Distances x (two lanes) and, when `two`, x2 as well. Called with constant two, cos_only
 * and check, so that each loop compiles without the branches it skips. wsuf (cos_only, may be
 * NULL): w's suffix maxima, to find the pairs whose cosines skip the reduction. */
static inline __attribute__((always_inline)) void linear_simd(v128_t x, v128_t x2, int two, const double *w, const double *A,
                        const double *B, const double *wsuf, int32_t half, int cos_only, int check,
                        v128_t *out, v128_t *out2) {
  const ps_consts_t *K = ps_consts();
  v128_t acc = wasm_f64x2_splat(0.0), acc2 = acc;
  if (cos_only) {
    v128_t xm = two ? wasm_f64x2_pmax(x, x2) : x;
    double xmax = fmax(wasm_f64x2_extract_lane(xm, 0), wasm_f64x2_extract_lane(xm, 1));
    int32_t i = 0, i0 = wsuf ? near_from(wsuf, half, xmax) : half;
#define COS_TERMS(end, cos2)                                                                     \
  for (; i < (end); i++) {                                                                      \
    v128_t wi = wasm_v128_load64_splat(w + i), a = wasm_v128_load64_splat(A + i);               \
    acc = wasm_f64x2_add(acc, wasm_f64x2_mul(a, cos2(wasm_f64x2_mul(x, wi))));                 \
    if (two) acc2 = wasm_f64x2_add(acc2, wasm_f64x2_mul(a, cos2(wasm_f64x2_mul(x2, wi))));     \
  }
#define FAR(v) ps_cos2(K, v, check)
#define NEAR(v) ps_cos2_near(K, v)
    COS_TERMS(i0, FAR)
    COS_TERMS(half, NEAR)
#undef FAR
#undef NEAR
#undef COS_TERMS
    *out = acc;
    *out2 = acc2;
    return;
  }
  for (int32_t i = 0; i < half; i++) {
    v128_t wi = wasm_v128_load64_splat(w + i), a = wasm_v128_load64_splat(A + i);
    v128_t b = wasm_v128_load64_splat(B + i), s, c;
    ps_sincos2(K, wasm_f64x2_mul(x, wi), check, &s, &c);
    acc = wasm_f64x2_add(acc, wasm_f64x2_add(wasm_f64x2_mul(a, c), wasm_f64x2_mul(b, s)));
    if (two) {
      ps_sincos2(K, wasm_f64x2_mul(x2, wi), check, &s, &c);
      acc2 = wasm_f64x2_add(acc2, wasm_f64x2_add(wasm_f64x2_mul(a, c), wasm_f64x2_mul(b, s)));
    }
  }
  *out = acc;
  *out2 = acc2;
}


/* Two vectors of distances a step (independent chains); check as in linear_simd. */
static inline __attribute__((always_inline)) void bound_simd(v128_t x, v128_t x2, const double *w,
                                                             int32_t half, int check,
                                                             v128_t *out, v128_t *out2) {
  const ps_consts_t *K = ps_consts();
  v128_t re = wasm_f64x2_splat(0.0), im = re, acc = re, re2 = re, im2 = re, acc2 = re;
  for (int32_t i = 0; i < half; i++) {
    v128_t wi = wasm_v128_load64_splat(w + i), s, c, s2, c2;
    ps_sincos2(K, wasm_f64x2_mul(x, wi), check, &s, &c);
    ps_sincos2(K, wasm_f64x2_mul(x2, wi), check, &s2, &c2);
    bound_add(c, s, &re, &im, &acc);
    bound_add(c2, s2, &re2, &im2, &acc2);
  }
  v128_t h = wasm_f64x2_splat((double)half);
  *out = wasm_f64x2_div(acc, h);
  *out2 = wasm_f64x2_div(acc2, h);
}
#endif



/* out[j] = c0 + sum_i A_i cos(d_j w_i) + B_i sin(d_j w_i) */
static void linear_curve(double *out, const double *d, int32_t n, const double *w,
                         const double *A, const double *B, int32_t half, double c0) {
  int32_t j = 0, cos_only = 1;
  for (int32_t i = 0; i < half; i++) cos_only &= B[i] == 0.0;
  double x0, dx;
  if (decay_grid(d, n, w, half, &x0, &dx)) {
    decay_grid_linear(out, n, x0, dx, w, A, B, half, c0, cos_only);
    return;
  }
#ifdef __wasm_simd128__
  int check = !decay_in_range(d, n, w, half, 0);
  double *wsuf = cos_only ? malloc(sizeof(double) * (size_t)half) : NULL; /* NULL: no skipping */
  double m = 0.0;
  for (int32_t i = half - 1; wsuf && i >= 0; i--) wsuf[i] = m = fmax(m, w[i]);
  v128_t c = wasm_f64x2_splat(c0), s, s2;
#define LINEAR4(cos_only, check)                                                                \
  for (; j + 4 <= n; j += 4) {                                                                  \
    linear_simd(wasm_v128_load(d + j), wasm_v128_load(d + j + 2), 1, w, A, B, wsuf, half,       \
                cos_only, check, &s, &s2);                                                      \
    wasm_v128_store(out + j, wasm_f64x2_add(c, s));                                             \
    wasm_v128_store(out + j + 2, wasm_f64x2_add(c, s2));                                        \
  }
  if (check) LINEAR4(cos_only, 1)
  else if (cos_only) LINEAR4(1, 0)
  else LINEAR4(0, 0)
#undef LINEAR4
  for (; j + 2 <= n; j += 2) {
    linear_simd(wasm_v128_load(d + j), c, 0, w, A, B, wsuf, half, cos_only, check, &s, &s2);
    wasm_v128_store(out + j, wasm_f64x2_add(c, s));
  }
  free(wsuf);
#endif
  for (; j < n; j++) out[j] = c0 + linear_scalar(d[j], w, A, B, half, cos_only);
}

/* The per-pair coefficients live in caller-sized heap buffers: half has no small bound. */
static int with_coeffs(double **A, double **B, int32_t half) {
  *A = malloc(sizeof(double) * (size_t)half);
  *B = malloc(sizeof(double) * (size_t)half);
  if (*A && *B) return POSENC_OK;
  free(*A);
  free(*B);
  return POSENC_E_SIZE;
}

int posenc_rope_decay_ones(double *out, const double *distances, int32_t n,
                           const double *inv_freq, int32_t half) {
  int rc = check_dist(out, distances, n, inv_freq, half);
  if (rc) return rc;
  double *A, *B;
  if ((rc = with_coeffs(&A, &B, half))) return rc;
  for (int32_t i = 0; i < half; i++) A[i] = 2.0, B[i] = 0.0;
  linear_curve(out, distances, n, inv_freq, A, B, half, 0.0);
  free(A);
  free(B);
  return POSENC_OK;
}

int posenc_rope_decay_bound(double *out, const double *distances, int32_t n,
                            const double *inv_freq, int32_t half) {
  int rc = check_dist(out, distances, n, inv_freq, half);
  if (rc) return rc;
  double x0, dx;
  if (decay_grid(distances, n, inv_freq, half, &x0, &dx) && decay_grid_bound(out, n, x0, dx, inv_freq, half))
    return POSENC_OK;
  int32_t j = 0;
#ifdef __wasm_simd128__
  v128_t a, b;
#define BOUND4(check)                                                                          \
  for (; j + 4 <= n; j += 4) {                                                                 \
    bound_simd(wasm_v128_load(distances + j), wasm_v128_load(distances + j + 2), inv_freq, half, \
               check, &a, &b);                                                                 \
    wasm_v128_store(out + j, a);                                                               \
    wasm_v128_store(out + j + 2, b);                                                           \
  }
  if (decay_in_range(distances, n, inv_freq, half, 0)) BOUND4(0)
  else BOUND4(1)
#undef BOUND4
  if (j + 2 <= n) {
    v128_t x = wasm_v128_load(distances + j);
    bound_simd(x, x, inv_freq, half, 1, &a, &b);
    wasm_v128_store(out + j, a);
    j += 2;
  }
#endif
  for (; j < n; j++) out[j] = bound_scalar(distances[j], inv_freq, half);
  return POSENC_OK;
}

int posenc_rope_decay_vectors(double *out, const double *distances, int32_t n,
                              const double *inv_freq, int32_t half, const float *q, const float *k,
                              int32_t style) {
  int rc = check_dist(out, distances, n, inv_freq, half);
  if (rc) return rc;
  CHECK(q && k, POSENC_E_NULL);
  CHECK(style == POSENC_STYLE_INTERLEAVED || style == POSENC_STYLE_HALF, POSENC_E_STYLE);
  CHECK(all_finite_f32(q, 2 * (size_t)half) && all_finite_f32(k, 2 * (size_t)half), POSENC_E_VALUE);
  double *A, *B;
  if ((rc = with_coeffs(&A, &B, half))) return rc;
  for (int32_t i = 0; i < half; i++) {
    int32_t a = style == POSENC_STYLE_INTERLEAVED ? 2 * i : i;
    int32_t b = style == POSENC_STYLE_INTERLEAVED ? 2 * i + 1 : i + half;
    A[i] = (double)q[a] * k[a] + (double)q[b] * k[b];
    B[i] = (double)q[b] * k[a] - (double)q[a] * k[b];
  }
  linear_curve(out, distances, n, inv_freq, A, B, half, 0.0);
  free(A);
  free(B);
  return POSENC_OK;
}

int posenc_sinusoidal_decay(double *out, const double *distances, int32_t n, int32_t dim,
                            double base, const float *q, const float *k) {
  CHECK(out && distances, POSENC_E_NULL);
  CHECK(elems3(n, dim, 1), POSENC_E_SIZE);
  CHECK(dim % 2 == 0, POSENC_E_ODD);
  CHECK_BASE(base);
  CHECK((q == 0) == (k == 0), POSENC_E_NULL);
  CHECK(!q || (all_finite_f32(q, (size_t)dim) && all_finite_f32(k, (size_t)dim)), POSENC_E_VALUE);
  int32_t half = dim / 2;
  double *A, *B, *w = malloc(sizeof(double) * (size_t)half);
  if (!w) return POSENC_E_SIZE;
  int rc = with_coeffs(&A, &B, half);
  if (rc) {
    free(w);
    return rc;
  }
  double c0 = 0.0;
  for (int32_t i = 0; i < half; i++) {
    w[i] = pow(base, -(2.0 * i) / dim);
    /* PE(0) = (sin 0, cos 0) = (0, 1) in every pair */
    A[i] = q ? (double)q[2 * i + 1] + 1.0 : 1.0;
    B[i] = q ? (double)q[2 * i] : 0.0;
    if (q) c0 += (double)q[2 * i] * k[2 * i] + ((double)q[2 * i + 1] + 1.0) * k[2 * i + 1];
  }
  rc = check_dist(out, distances, n, w, half);
  if (!rc) linear_curve(out, distances, n, w, A, B, half, c0);
  free(w);
  free(A);
  free(B);
  return rc;
}
