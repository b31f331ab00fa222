/* rope_table.c: RoPE's inverse frequencies and its cos/sin: the cache (posenc_rope_cache), and the
 * rows c/rope.c's fused kernels form as they rotate (rope_table.h).
 *
 * cos/sin: every value is (float)(attn * ps_sincos(fl(position * theta))), four pairs per step in
 * the SIMD form, whichever path forms it. Positions in exact arithmetic progression
 * (0..n-1, start..start+n-1; at least PR_MIN of them, angles up to 2^18 rad) take a float64
 * rotation recurrence along the positions, re-anchored every 64 rows (progression.h): four
 * multiplies and two adds per pair and row, and a test that the float32 rounding is certain;
 * where it is not (0.2% to 1% of values) the direct formula. So a row's cos/sin, and its
 * rotation, are the same bits whether its position comes alone or with any others (the dynamic
 * NTK KV cache relies on it: a cached key equals a freshly rotated one) and in both builds.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "rope_table.h"
#include "sincos.h"

int posenc_rope_inv_freq(double *out, int32_t rotary_dim, double base) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(rotary_dim, 1, 1), POSENC_E_SIZE);
  CHECK(rotary_dim % 2 == 0, POSENC_E_ROTARY);
  CHECK_BASE(base);
  for (int32_t i = 0; i < rotary_dim / 2; i++) out[i] = pow(base, -(2.0 * i) / rotary_dim);
  return POSENC_OK;
}

/* ---- cos/sin of one position for a run of pairs ---- */

/* check = 0: the caller knows pos * w_j < PS_REDUCE_MAX for every j (the SIMD form then
 * skips its per-vector range test); pos * w_j < PS_NEAR_SC for every j >= near (the SIMD
 * form skips the reduction there: a quarter of the pairs at 512x1x64). */
MAYBE_UNUSED static void cache_row_scalar(float *cs, float *sn, double pos, const double *w,
                                          int32_t np, double attn, int check, int32_t near) {
  (void)check, (void)near;
  for (int32_t j = 0; j < np; j++) {
    double s, c;
    ps_sincos(pos * w[j], &s, &c);
    cs[j] = (float)(c * attn);
    sn[j] = (float)(s * attn);
  }
}

#ifdef __wasm_simd128__
/* Pairs [j, j+4): two independent vectors, so the two sincos chains overlap. check, scale
 * and near are constants at each call, so every loop below compiles without the branches it
 * skips. */
static inline __attribute__((always_inline)) void cache4_simd(const ps_consts_t *K, float *cs,
                                                              float *sn, v128_t p, v128_t at,
                                                              const double *w, int check,
                                                              int scale, int near) {
  v128_t s, c;
  ps_sincos4_f32(K, wasm_f64x2_mul(p, wasm_v128_load(w)), wasm_f64x2_mul(p, wasm_v128_load(w + 2)),
                 check, scale, near, at, &s, &c);
  wasm_v128_store(cs, c);
  wasm_v128_store(sn, s);
}

static void cache_row_simd(float *cs, float *sn, double pos, const double *w, int32_t np,
                           double attn, int check, int32_t near) {
  const ps_consts_t *K = ps_consts();
  v128_t p = wasm_f64x2_splat(pos), at = wasm_f64x2_splat(attn);
  int32_t j = 0;
  /* x * 1.0 is exact: skipping the scale when attn is 1 changes no bit */
#define STEPS(cond, check, scale, near) \
  for (; j + 4 <= np && (cond); j += 4) cache4_simd(K, cs + j, sn + j, p, at, w + j, check, scale, near);
  if (check) STEPS(1, 1, 1, 0)
  else if (attn == 1.0) STEPS(j < near, 0, 0, 0)
  else STEPS(j < near, 0, 1, 0)
  if (attn == 1.0) STEPS(1, 0, 0, 1)
  else STEPS(1, 0, 1, 1)
#undef STEPS
  if (j < np) cache_row_scalar(cs + j, sn + j, pos, w + j, np - j, attn, check, near);
}
#define cache_row_impl cache_row_simd
#else
#define cache_row_impl cache_row_scalar
#endif

void ps_rope_row(float *cs, float *sn, double pos, const double *w, int32_t np, double attn,
                 int check, int32_t near) {
  cache_row_impl(cs, sn, pos, w, np, attn, check, near);
}


/* ---- the cos/sin table of positions in arithmetic progression (see progression.h) ---- */
/* The direct path's value of pair j at row r (the recurrence's fallback). */
static inline void pr_direct_scalar(const pr_run_t *R, int32_t r, int32_t j, float *fc, float *fs) {
  double s, c;
  ps_sincos(pr_at(R->x0, R->dx, R->r0 + r) * R->w[j], &s, &c);
  *fc = (float)(c * R->attn);
  *fs = (float)(s * R->attn);
}

/* float32 of v when v - win and v + win round alike (else *ok = 0). */
static inline float pr_round(double v, double win, int *ok) {
  float lo = (float)(v - win), hi = (float)(v + win);
  uint32_t a, b;
  memcpy(&a, &lo, sizeof a);
  memcpy(&b, &hi, sizeof b);
  *ok &= a == b;
  return lo;
}

/* s[j], c[j] = ps_sincos(x w[j]), j < np: the anchor row of a run. */
MAYBE_UNUSED static void pr_anchors_scalar(double *s, double *c, double x, const double *w,
                                           int32_t np) {
  for (int32_t j = 0; j < np; j++) ps_sincos(x * w[j], &s[j], &c[j]);
}

/* s[j], c[j] = sin, cos of the real product dx w[j], j < np: the steps. */
MAYBE_UNUSED static void pr_steps_scalar(double *s, double *c, double dx, const double *w,
                                         int32_t np) {
  for (int32_t j = 0; j < np; j++) pr_step_scalar(dx, w[j], &s[j], &c[j]);
}

/* Rows [0, nr) of a cos/sin table (row stride ld) for pairs [0, np) of R, whose state leaves
 * turned nr times. */
MAYBE_UNUSED static void pr_rows_scalar(float *cs, float *sn, size_t ld, int32_t nr, int32_t np,
                                        const pr_run_t *R) {
  for (int32_t j = 0; j < np; j++) {
    double sj = R->s[j], cj = R->c[j], cd = R->wc[j], sd = R->ws[j];
    for (int32_t r = 0; r < nr; r++) {
      int ok = 1;
      float fc = pr_round(cj * R->attn, R->win, &ok), fs = pr_round(sj * R->attn, R->win, &ok);
      if (!ok) pr_direct_scalar(R, r, j, &fc, &fs);
      cs[(size_t)r * ld + j] = fc;
      sn[(size_t)r * ld + j] = fs;
      double t = sj * cd + cj * sd;
      cj = cj * cd - sj * sd;
      sj = t;
    }
    R->s[j] = sj, R->c[j] = cj;
  }
}

#ifdef __wasm_simd128__
static void pr_anchors_simd(double *s, double *c, double x, const double *w, int32_t np) {
  const ps_consts_t *K = ps_consts();
  v128_t xv = wasm_f64x2_splat(x), sv, cv;
  int32_t j = 0;
  for (; j + 2 <= np; j += 2) {
    ps_sincos2(K, wasm_f64x2_mul(xv, wasm_v128_load(w + j)), 0, &sv, &cv);
    wasm_v128_store(s + j, sv), wasm_v128_store(c + j, cv);
  }
  if (j < np) ps_sincos(x * w[j], &s[j], &c[j]);
}

static void pr_steps_simd(double *s, double *c, double dx, const double *w, int32_t np) {
  const ps_consts_t *K = ps_consts();
  v128_t xv = wasm_f64x2_splat(dx), t = wasm_f64x2_mul(xv, wasm_f64x2_splat(PR_SPLIT));
  v128_t xh = wasm_f64x2_sub(t, wasm_f64x2_sub(t, xv)), xl = wasm_f64x2_sub(xv, xh), sv, cv;
  int32_t j = 0;
  for (; j + 2 <= np; j += 2) {
    pr_step_simd(K, xv, xh, xl, wasm_v128_load(w + j), 0, &sv, &cv);
    wasm_v128_store(s + j, sv), wasm_v128_store(c + j, cv);
  }
  if (j < np) pr_step_scalar(dx, w[j], &s[j], &c[j]);
}

/* Four pairs of row r by the direct path (out of line: 2% of rows at most). */
__attribute__((noinline)) static void pr_direct4_simd(const pr_run_t *R, int32_t r, int32_t j,
                                                      float *cs, float *sn) {
  const ps_consts_t *K = ps_consts();
  v128_t p = wasm_f64x2_splat(pr_at(R->x0, R->dx, R->r0 + r)), at = wasm_f64x2_splat(R->attn);
  if (R->attn == 1.0) cache4_simd(K, cs, sn, p, at, R->w + j, 0, 0, 0);
  else cache4_simd(K, cs, sn, p, at, R->w + j, 0, 1, 0);
}

/* Two f64x2 of attn * (cos or sin) rounded to four float32 lanes, and whether the window around
 * each rounds alike (all ones in that lane). */
PS_INLINE v128_t pr_round4(v128_t v0, v128_t v1, v128_t win, v128_t *same) {
  v128_t lo = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(v0, win)),
                                 wasm_f32x4_demote_f64x2_zero(wasm_f64x2_sub(v1, win)), 0, 1, 4, 5);
  v128_t hi = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(v0, win)),
                                 wasm_f32x4_demote_f64x2_zero(wasm_f64x2_add(v1, win)), 0, 1, 4, 5);
  *same = wasm_i32x4_eq(lo, hi);
  return lo;
}

/* pr_rows_scalar for pairs [j, j+4), their state in registers (two f64x2 each of s and c). */
PS_INLINE void pr_group_simd(float *cs, float *sn, size_t ld, int32_t r0, int32_t nr, int32_t j,
                             const pr_run_t *R, int scale) {
  v128_t s0 = wasm_v128_load(R->s + j), s1 = wasm_v128_load(R->s + j + 2);
  v128_t c0 = wasm_v128_load(R->c + j), c1 = wasm_v128_load(R->c + j + 2);
  v128_t sd0 = wasm_v128_load(R->ws + j), sd1 = wasm_v128_load(R->ws + j + 2);
  v128_t cd0 = wasm_v128_load(R->wc + j), cd1 = wasm_v128_load(R->wc + j + 2);
  v128_t at = wasm_f64x2_splat(R->attn), win = wasm_f64x2_splat(R->win);
  cs += (size_t)r0 * ld + j, sn += (size_t)r0 * ld + j;
  for (int32_t r = r0; r < r0 + nr; r++, cs += ld, sn += ld) {
    v128_t oc0 = c0, oc1 = c1, os0 = s0, os1 = s1, same_c, same_s;
    if (scale) {
      oc0 = wasm_f64x2_mul(oc0, at), oc1 = wasm_f64x2_mul(oc1, at);
      os0 = wasm_f64x2_mul(os0, at), os1 = wasm_f64x2_mul(os1, at);
    }
    v128_t fc = pr_round4(oc0, oc1, win, &same_c), fs = pr_round4(os0, os1, win, &same_s);
    if (wasm_i32x4_all_true(wasm_v128_and(same_c, same_s))) {
      wasm_v128_store(cs, fc);
      wasm_v128_store(sn, fs);
    } else {
      pr_direct4_simd(R, r, j, cs, sn);
    }
    v128_t n0 = wasm_f64x2_add(wasm_f64x2_mul(s0, cd0), wasm_f64x2_mul(c0, sd0));
    v128_t n1 = wasm_f64x2_add(wasm_f64x2_mul(s1, cd1), wasm_f64x2_mul(c1, sd1));
    c0 = wasm_f64x2_sub(wasm_f64x2_mul(c0, cd0), wasm_f64x2_mul(s0, sd0));
    c1 = wasm_f64x2_sub(wasm_f64x2_mul(c1, cd1), wasm_f64x2_mul(s1, sd1));
    s0 = n0, s1 = n1;
  }
  wasm_v128_store(R->s + j, s0), wasm_v128_store(R->s + j + 2, s1);
  wasm_v128_store(R->c + j, c0), wasm_v128_store(R->c + j + 2, c1);
}

static void pr_rows_simd(float *cs, float *sn, size_t ld, int32_t nr, int32_t np,
                         const pr_run_t *R) {
  int32_t n4 = np & ~3;
  for (int32_t r0 = 0; r0 < nr; r0 += PR_SUB) {
    int32_t nb = nr - r0 < PR_SUB ? nr - r0 : PR_SUB;
    if (R->attn == 1.0) /* x * 1.0 is exact: the same bits without the multiply */
      for (int32_t j = 0; j < n4; j += 4) pr_group_simd(cs, sn, ld, r0, nb, j, R, 0);
    else
      for (int32_t j = 0; j < n4; j += 4) pr_group_simd(cs, sn, ld, r0, nb, j, R, 1);
  }
  if (n4 < np) {
    pr_run_t T = *R;
    T.s += n4, T.c += n4, T.ws += n4, T.wc += n4, T.w += n4;
    pr_rows_scalar(cs + n4, sn + n4, ld, nr, np - n4, &T);
  }
}
#define pr_anchors pr_anchors_simd
#define pr_steps_impl pr_steps_simd
#define pr_rows_impl pr_rows_simd
#else
#define pr_anchors pr_anchors_scalar
#define pr_steps_impl pr_steps_scalar
#define pr_rows_impl pr_rows_scalar
#endif

void pr_steps(double *s, double *c, double dx, const double *w, int32_t np) { pr_steps_impl(s, c, dx, w, np); }

void pr_rows(float *cs, float *sn, size_t ld, int32_t nr, int32_t np, const pr_run_t *R) {
  pr_rows_impl(cs, sn, ld, nr, np, R);
}

/* inv_freq all finite and >= 0, and no angle max(position) * max(theta) can overflow.
 * *pmax, *wmax: the largest position and theta, so that a row can tell whether its angles
 * need the range test, and a call which pairs' angles are all small. */
int ps_rope_check_angles(const double *positions, int32_t n, const double *w, int32_t half,
                        double *pmax, double *wmax) {
  CHECK(nonneg_finite(positions, n, pmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(w, half, wmax), POSENC_E_VALUE);
  CHECK(*pmax * *wmax < 1e300, POSENC_E_VALUE);
  return POSENC_OK;
}

/* Angles pos * theta_j of a row may pass the reduction's range (see sincos.h). */
int ps_rope_far_row(double pos, double wmax) { return !(pos * wmax < PS_REDUCE_MAX); }

/* The first pair from which every angle pos * w_j (pos <= pmax) stays below PS_NEAR_SC: the
 * SIMD cache skips the reduction there. One bound a call: a search per row cost more than it
 * saved at 512x1x64. */
int32_t ps_rope_near_from(const double *w, int32_t half, double pmax) {
  int32_t j = half;
  while (j > 0 && pmax * w[j - 1] < PS_NEAR_SC) j--;
  return j;
}
/* positions[0..n) an exact arithmetic progression the recurrence serves: long enough to pay
 * for its anchors and steps, every angle at most PR_MAX_ANGLE (within the reduction's range;
 * Dekker's product of the steps stays exact), and an attention factor whose window neither
 * underflows nor overflows. */
int pr_serves(const double *positions, int32_t n, double pmax, double wmax, double attn,
                     double *x0, double *dx) {
  return n >= PR_MIN && pmax * wmax <= PR_MAX_ANGLE && pmax <= 0x1p53 && wmax <= 0x1p53 &&
         fabs(attn) >= 0x1p-900 && fabs(attn) <= 0x1p64 && pr_progression(positions, n, x0, dx);
}

/* Run state for pairs [p0, p0+np): anchors at row r0 (positions x0 + r dx). */
void pr_start(pr_run_t *R, double x0, double dx, int32_t r0, int32_t nr, const double *w,
                     int32_t np, double attn, double wmax) {
  double xa = pr_at(x0, dx, r0), xb = pr_at(x0, dx, r0 + nr - 1);
  R->x0 = x0, R->dx = dx, R->r0 = r0, R->w = w, R->attn = attn;
  R->win = pr_window(attn, (xa > xb ? xa : xb) * wmax);
  pr_anchors(R->s, R->c, xa, w, np);
}

/* The cache of a progression: chunk by chunk of pairs, run by run of PR_RUN rows. */
static void pr_cache(float *cos_out, float *sin_out, int32_t n, double x0, double dx,
                     const double *w, int32_t half, double attn, double wmax) {
  double s[PR_CHUNK], c[PR_CHUNK], ws[PR_CHUNK], wc[PR_CHUNK];
  pr_run_t R = {.s = s, .c = c, .ws = ws, .wc = wc};
  for (int32_t p0 = 0; p0 < half; p0 += PR_CHUNK) {
    int32_t np = half - p0 < PR_CHUNK ? half - p0 : PR_CHUNK;
    pr_steps(ws, wc, dx, w + p0, np);
    for (int32_t r0 = 0; r0 < n; r0 += PR_RUN) {
      int32_t nr = n - r0 < PR_RUN ? n - r0 : PR_RUN;
      pr_start(&R, x0, dx, r0, nr, w + p0, np, attn, wmax);
      pr_rows(cos_out + (size_t)r0 * half + p0, sin_out + (size_t)r0 * half + p0, half, nr, np, &R);
    }
  }
}

int posenc_rope_cache(float *cos_out, float *sin_out, const double *positions, int32_t n,
                      const double *inv_freq, int32_t half, double attn) {
  CHECK(cos_out && sin_out && positions && inv_freq, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  double pmax, wmax;
  int rc = ps_rope_check_angles(positions, n, inv_freq, half, &pmax, &wmax);
  if (rc) return rc;
  double x0, dx;
  if (pr_serves(positions, n, pmax, wmax, attn, &x0, &dx)) {
    pr_cache(cos_out, sin_out, n, x0, dx, inv_freq, half, attn, wmax);
    return POSENC_OK;
  }
  int32_t near = ps_rope_near_from(inv_freq, half, pmax);
  for (int32_t r = 0; r < n; r++)
    ps_rope_row(cos_out + (size_t)r * half, sin_out + (size_t)r * half, positions[r], inv_freq, half,
              attn, ps_rope_far_row(positions[r], wmax), near);
  return POSENC_OK;
}
