/* rope.c: RoPE inverse frequencies, the cos/sin cache, and the rotation itself.
 *
 * One row routine serves both pair styles, as ggml's rotate_pairs does: pair i of a row is
 * (2i, 2i+1) for POSENC_STYLE_INTERLEAVED and (i, i + rotary_dim/2) for POSENC_STYLE_HALF.
 * Each pair is read whole before it is written, so out == x (in place) is safe.
 *
 * SIMD forms: `half` is a plain complex multiply on contiguous halves (4 pairs a vector);
 * `interleaved` gathers the pairs' two elements of 8 floats into two vectors, does the same
 * complex multiply with cos/sin loaded as they are, and interleaves the results back (clang's
 * auto-vectoriser handles the stride-2 pairing worse than scalar code). So both styles read x,
 * cos and sin and write out in the same pattern, and interleaved adds four shuffles per 8
 * floats (shufps / unpck patterns). An earlier form duplicated cos and signed sin into a stack
 * table per row and shared it between two heads: 10% faster in place on Intel (2048x32x128
 * 1.34 against 1.48 ms), but 1.5-3x slower than half on AMD EPYC, where nothing in this one
 * depends on a table written just before it is read.
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
#include "progression.h"
#include "sincos.h"

#define CHUNK 1024 /* pairs of cos/sin formed at once by the fused kernel */

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
#define cache_row cache_row_simd
#else
#define cache_row cache_row_scalar
#endif

/* ---- the cos/sin table of positions in arithmetic progression (see progression.h) ---- */

#define PR_CHUNK 256  /* pairs at once (their state and steps on the stack: 8 KiB) */
#define PR_SUB 8      /* rows a group of pairs runs before the next group: the row segments it
                         writes stay in L1 (sinusoidal.c's SUB_ROWS) */
#define PR_BLOCK 4096 /* floats of cos (and of sin) the fused kernel forms at once (16 KiB each) */
#define PR_MIN 24     /* fewer positions take the direct path: the anchors, the steps and the
                         first rows' fallbacks (small sines near position 0) cost about as much
                         as the rows they save (at 64 pairs: 16 rows 0.92x, 32 rows 1.1x) */

/* Rows of the table from row r0 of a progression (positions x0 + r dx) for pairs at theta w:
 * the recurrence's state s, c (turned by the steps ws, wc) and what its rounding test needs. */
typedef struct {
  double *s, *c;
  const double *ws, *wc, *w;
  double x0, dx, attn, win;
  int32_t r0;
} pr_run_t;

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
#define pr_steps pr_steps_simd
#define pr_rows pr_rows_simd
#else
#define pr_anchors pr_anchors_scalar
#define pr_steps pr_steps_scalar
#define pr_rows pr_rows_scalar
#endif

/* ---- rotation of pairs [p0, p0+np) of one head's row ---- */

/* Every rotation also reports whether x held a NaN or an infinity, for two operations a pair
 * (scalar) or a vector of four pairs (SIMD): a pair's x0 cos - x1 sin is NaN or infinite
 * whenever x0 or x1 is (whatever cos and sin are: inf * 0 and inf - inf are NaN), and otherwise
 * only when the rotation overflows float32 or cos or sin is not finite. The rotate functions
 * return 1 when some pair's first output is not finite; the scalar form sums r - r (0 for
 * finite r, NaN else: at 1x32x128 a third of the cost of an isfinite test), the SIMD form keeps
 * the largest of the outputs' bits shifted left by one. pass_through tests the dims it does not
 * rotate. */
MAYBE_UNUSED static int rotate_scalar(float *o, const float *x, int32_t rot, int32_t style,
                                      int32_t p0, int32_t np, const float *cs, const float *sn) {
  int32_t stride = style == POSENC_STYLE_INTERLEAVED ? 2 : 1;
  int32_t off = style == POSENC_STYLE_INTERLEAVED ? 1 : rot / 2;
  float acc = 0.0f; /* r - r is 0 for every finite r, NaN for NaN and inf */
  for (int32_t j = 0; j < np; j++) {
    int32_t i0 = (p0 + j) * stride;
    float a = x[i0], b = x[i0 + off], c = cs[j], s = sn[j];
    float r = a * c - b * s;
    o[i0] = r;
    o[i0 + off] = a * s + b * c;
    acc += r - r;
  }
  return acc != 0.0f;
}

/* Every head of one seq row (heads rows of head_dim floats), pairs [p0, p0+np). */
MAYBE_UNUSED static int rotate_row_scalar(float *o, const float *x, int32_t heads,
                                          int32_t head_dim, int32_t rot, int32_t style,
                                          int32_t p0, int32_t np, const float *cs,
                                          const float *sn) {
  int bad = 0;
  for (int32_t h = 0; h < heads; h++)
    bad |= rotate_scalar(o + (size_t)h * head_dim, x + (size_t)h * head_dim, rot, style, p0, np, cs, sn);
  return bad;
}

/* A [seq][rot] tensor (one head, every dim rotated) with its [seq][rot/2] tables: rows follow
 * each other in x, out and the tables with nothing between, so interleaved pairs form one long
 * row and half pairs need no per-row call. */
MAYBE_UNUSED static int rotate_rows_scalar(float *o, const float *x, int32_t seq, int32_t rot,
                                           int32_t style, const float *cs, const float *sn) {
  int32_t half = rot / 2;
  if (style == POSENC_STYLE_INTERLEAVED) return rotate_scalar(o, x, rot, style, 0, seq * half, cs, sn);
  int bad = 0;
  for (int32_t r = 0; r < seq; r++)
    bad |= rotate_scalar(o + (size_t)r * rot, x + (size_t)r * rot, rot, style, 0, half,
                         cs + (size_t)r * half, sn + (size_t)r * half);
  return bad;
}

#ifdef __wasm_simd128__
/* acc: the largest of the first outputs' bits shifted left by one (the sign out, the exponent
 * field on top, no constant in the loop); those of NaN and inf are at least 0xff000000 */
#define KEEP_EXP(acc, r) ((acc) = wasm_u32x4_max((acc), wasm_i32x4_shl((r), 1)))
#define ANY_NONFINITE(acc) wasm_v128_any_true(wasm_u32x4_ge((acc), wasm_i32x4_splat((int32_t)0xff000000)))

#define HALF_STEP(j)                                                                    \
  do {                                                                                  \
    v128_t a = wasm_v128_load(xa + (j)), b = wasm_v128_load(xb + (j));                 \
    v128_t c = wasm_v128_load(cs + (j)), s = wasm_v128_load(sn + (j));                 \
    v128_t r = wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s));             \
    wasm_v128_store(oa + (j), r);                                                       \
    wasm_v128_store(ob + (j), wasm_f32x4_add(wasm_f32x4_mul(a, s), wasm_f32x4_mul(b, c))); \
    KEEP_EXP(*acc, r);                                                                  \
  } while (0)

/* (tails: 1 from rotate_scalar becomes 0xff000000 in *acc) */
#define KEEP_SCALAR(acc, bad) ((acc) = wasm_v128_or((acc), wasm_i32x4_splat((bad) ? (int32_t)0xff000000 : 0)))

static inline __attribute__((always_inline)) void rotate_half_simd(float *o, const float *x, int32_t rot, int32_t p0, int32_t np,
                             const float *cs, const float *sn, v128_t *acc) {
  const float *xa = x + p0, *xb = x + p0 + rot / 2;
  float *oa = o + p0, *ob = o + p0 + rot / 2;
  int32_t j = 0;
  for (; j + 8 <= np; j += 8) {
    HALF_STEP(j);
    HALF_STEP(j + 4);
  }
  if (j + 4 <= np) {
    HALF_STEP(j);
    j += 4;
  }
  if (j < np) KEEP_SCALAR(*acc, rotate_scalar(o, x, rot, POSENC_STYLE_HALF, p0 + j, np - j, cs + j, sn + j));
}

/* Interleaved pairs of one head from cos/sin as they are: the pairs' first and second elements
 * are gathered into two vectors (shufps patterns 0,2,4,6 and 1,3,5,7), rotated as in the half
 * form and interleaved back (unpcklps / unpckhps). Its loads and stores are the half form's one
 * for one, with four shuffles per 8 floats on top; a*s + b*c is b*c + a*s, so the bits are
 * those of x*[c c] + swap(x)*[-s s]. Pointers are bumped (V8 folds constant offsets into each
 * access); unrolling by two changed nothing measurable. */
#define IL_DIRECT(k)                                                                            \
  do {                                                                                          \
    v128_t c = wasm_v128_load(cp + (k)), s = wasm_v128_load(sp + (k));                          \
    v128_t v0 = wasm_v128_load(xp + 2 * (k)), v1 = wasm_v128_load(xp + 2 * (k) + 4);            \
    v128_t a = wasm_i32x4_shuffle(v0, v1, 0, 2, 4, 6), b = wasm_i32x4_shuffle(v0, v1, 1, 3, 5, 7); \
    v128_t oa = wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s));                     \
    v128_t ob = wasm_f32x4_add(wasm_f32x4_mul(a, s), wasm_f32x4_mul(b, c));                     \
    wasm_v128_store(op + 2 * (k), wasm_i32x4_shuffle(oa, ob, 0, 4, 1, 5));                       \
    wasm_v128_store(op + 2 * (k) + 4, wasm_i32x4_shuffle(oa, ob, 2, 6, 3, 7));                   \
    KEEP_EXP(*acc, oa);                                                                         \
  } while (0)

static inline __attribute__((always_inline)) void rotate_il_direct_simd(float *o, const float *x, int32_t p0, int32_t n4,
                                  const float *cs, const float *sn, v128_t *acc) {
  const float *xp = x + 2 * p0, *cp = cs, *sp = sn, *end = cs + n4;
  float *op = o + 2 * p0;
  for (; cp < end; cp += 4, sp += 4, xp += 8, op += 8) IL_DIRECT(0);
}

static inline __attribute__((always_inline)) int rotate_row_simd(float *o, const float *x, int32_t heads, int32_t head_dim,
                            int32_t rot, int32_t style, int32_t p0, int32_t np, const float *cs,
                            const float *sn) {
  v128_t acc = wasm_i32x4_splat(0);
  if (style == POSENC_STYLE_HALF) {
    for (int32_t h = 0; h < heads; h++)
      rotate_half_simd(o + (size_t)h * head_dim, x + (size_t)h * head_dim, rot, p0, np, cs, sn, &acc);
  } else {
    int32_t n4 = np & ~3;
    for (int32_t h = 0; h < heads; h++) {
      float *oh = o + (size_t)h * head_dim;
      const float *xh = x + (size_t)h * head_dim;
      rotate_il_direct_simd(oh, xh, p0, n4, cs, sn, &acc);
      if (n4 < np)
        KEEP_SCALAR(acc, rotate_scalar(oh, xh, rot, POSENC_STYLE_INTERLEAVED, p0 + n4, np - n4, cs + n4, sn + n4));
    }
  }
  return ANY_NONFINITE(acc);
}
/* One head per row, all dims rotated (see rotate_rows_scalar). Half pairs bump their pointers
 * across rows and reach the second half by a fixed offset. At 512x1x64, out of place: 10.8 ->
 * 8.1 us interleaved, 9.9 -> 9.0 us half; in place 10.6 -> 7.5 and 8.7 -> 7.1. */
static int rotate_rows_simd(float *o, const float *x, int32_t seq, int32_t rot, int32_t style,
                            const float *cs, const float *sn) {
  int32_t half = rot / 2;
  v128_t acc = wasm_i32x4_splat(0);
  if (style == POSENC_STYLE_INTERLEAVED) {
    int32_t np = seq * half, n4 = np & ~3;
    rotate_il_direct_simd(o, x, 0, n4, cs, sn, &acc);
    if (n4 < np) KEEP_SCALAR(acc, rotate_scalar(o, x, rot, style, n4, np - n4, cs + n4, sn + n4));
  } else if (half % 4) { /* each row needs its own tail */
    for (int32_t r = 0; r < seq; r++)
      rotate_half_simd(o + (size_t)r * rot, x + (size_t)r * rot, rot, 0, half,
                       cs + (size_t)r * half, sn + (size_t)r * half, &acc);
  } else {
    for (const float *end = x + (size_t)seq * rot; x < end; x += half, o += half) {
      for (const float *row_end = x + half; x < row_end; x += 4, o += 4, cs += 4, sn += 4) {
        v128_t a = wasm_v128_load(x), b = wasm_v128_load(x + half);
        v128_t c = wasm_v128_load(cs), s = wasm_v128_load(sn);
        v128_t r = wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s));
        wasm_v128_store(o, r);
        wasm_v128_store(o + half, wasm_f32x4_add(wasm_f32x4_mul(a, s), wasm_f32x4_mul(b, c)));
        KEEP_EXP(acc, r);
      }
    }
  }
  return ANY_NONFINITE(acc);
}
#define rotate_row rotate_row_simd
#define rotate_rows rotate_rows_simd
#else
#define rotate_row rotate_row_scalar
#define rotate_rows rotate_rows_scalar
#endif

/* ---- public entry points ---- */

static int check_shape(const float *out, const float *x, int32_t seq, int32_t heads,
                       int32_t head_dim, int32_t rotary_dim, int32_t style, size_t *n_out) {
  CHECK(out && x, POSENC_E_NULL);
  size_t n = elems3(seq, heads, head_dim);
  CHECK(n, POSENC_E_SIZE);
  CHECK(rotary_dim >= 2 && rotary_dim % 2 == 0 && rotary_dim <= head_dim, POSENC_E_ROTARY);
  CHECK(style == POSENC_STYLE_INTERLEAVED || style == POSENC_STYLE_HALF, POSENC_E_STYLE);
  CHECK(!partial_overlap(out, n * sizeof(float), x, n * sizeof(float)), POSENC_E_VALUE);
  *n_out = n;
  return POSENC_OK;
}

/* inv_freq all finite and >= 0, and no angle max(position) * max(theta) can overflow.
 * *pmax, *wmax: the largest position and theta, so that a row can tell whether its angles
 * need the range test, and a call which pairs' angles are all small. */
static int check_angles(const double *positions, int32_t n, const double *w, int32_t half,
                        double *pmax, double *wmax) {
  CHECK(nonneg_finite(positions, n, pmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(w, half, wmax), POSENC_E_VALUE);
  CHECK(*pmax * *wmax < 1e300, POSENC_E_VALUE);
  return POSENC_OK;
}

/* Angles pos * theta_j of a row may pass the reduction's range (see sincos.h). */
static int far_row(double pos, double wmax) { return !(pos * wmax < PS_REDUCE_MAX); }

/* The first pair from which every angle pos * w_j (pos <= pmax) stays below PS_NEAR_SC: the
 * SIMD cache skips the reduction there. One bound a call: a search per row cost more than it
 * saved at 512x1x64. */
static int32_t near_from(const double *w, int32_t half, double pmax) {
  int32_t j = half;
  while (j > 0 && pmax * w[j - 1] < PS_NEAR_SC) j--;
  return j;
}

/* Dims [rot, head_dim) of one head copied when out is not x; 1 when one of them is NaN or
 * infinite (the largest exponent field, without a branch a value: vectorised where it may be). */
static int pass_through(float *o, const float *x, int32_t rot, int32_t head_dim) {
  if (rot == head_dim) return 0;
  if (o != x) memcpy(o + rot, x + rot, (size_t)(head_dim - rot) * sizeof(float));
  uint32_t m = 0;
  for (int32_t i = rot; i < head_dim; i++) {
    uint32_t u;
    memcpy(&u, &x[i], sizeof u);
    u &= 0x7f800000u;
    m = u > m ? u : m;
  }
  return m == 0x7f800000u;
}

/* positions[0..n) an exact arithmetic progression the recurrence serves: long enough to pay
 * for its anchors and steps, every angle at most PR_MAX_ANGLE (within the reduction's range;
 * Dekker's product of the steps stays exact), and an attention factor whose window neither
 * underflows nor overflows. */
static int pr_serves(const double *positions, int32_t n, double pmax, double wmax, double attn,
                     double *x0, double *dx) {
  return n >= PR_MIN && pmax * wmax <= PR_MAX_ANGLE && pmax <= 0x1p53 && wmax <= 0x1p53 &&
         fabs(attn) >= 0x1p-900 && fabs(attn) <= 0x1p64 && pr_progression(positions, n, x0, dx);
}

/* Run state for pairs [p0, p0+np): anchors at row r0 (positions x0 + r dx). */
static void pr_start(pr_run_t *R, double x0, double dx, int32_t r0, int32_t nr, const double *w,
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

/* Fused RoPE of a progression: blocks of up to PR_RUN rows of the table formed as the cache
 * forms them, then rotated as posenc_rope_apply_table rotates. Out of line: its 40 KiB of
 * stack only when it runs. 1 when x held a NaN or an infinity (see rotate_scalar). */
__attribute__((noinline)) static int pr_apply(float *out, const float *x, int32_t seq,
                                               int32_t heads, int32_t head_dim, int32_t rot,
                                               int32_t style, double x0, double dx,
                                               const double *w, double attn, double wmax) {
  double s[PR_CHUNK], c[PR_CHUNK], ws[PR_CHUNK], wc[PR_CHUNK];
  float cs[PR_BLOCK], sn[PR_BLOCK];
  pr_run_t R = {.s = s, .c = c, .ws = ws, .wc = wc};
  int32_t half = rot / 2;
  int bad = 0;
  for (int32_t p0 = 0; p0 < half; p0 += PR_CHUNK) {
    int32_t np = half - p0 < PR_CHUNK ? half - p0 : PR_CHUNK;
    int32_t rows = PR_BLOCK / np < PR_RUN ? PR_BLOCK / np : PR_RUN;
    pr_steps(ws, wc, dx, w + p0, np);
    for (int32_t r0 = 0; r0 < seq; r0 += PR_RUN) {
      int32_t nr = seq - r0 < PR_RUN ? seq - r0 : PR_RUN;
      for (int32_t rb = r0; rb < r0 + nr; rb += rows) {
        int32_t nb = r0 + nr - rb < rows ? r0 + nr - rb : rows;
        if (rb == r0) pr_start(&R, x0, dx, r0, nr, w + p0, np, attn, wmax);
        R.r0 = rb; /* the fallback's row numbers count from the block */
        pr_rows(cs, sn, np, nb, np, &R);
        if (heads == 1 && rot == head_dim && np == half) { /* rows follow each other */
          bad |= rotate_rows(out + (size_t)rb * rot, x + (size_t)rb * rot, nb, rot, style, cs, sn);
          continue;
        }
        for (int32_t i = 0; i < nb; i++) {
          size_t at = (size_t)(rb + i) * heads * head_dim;
          bad |= rotate_row(out + at, x + at, heads, head_dim, rot, style, p0, np,
                            cs + (size_t)i * np, sn + (size_t)i * np);
        }
      }
    }
  }
  for (size_t h = 0; h < (size_t)seq * heads; h++)
    bad |= pass_through(out + h * head_dim, x + h * head_dim, rot, head_dim);
  return bad;
}

int posenc_rope_cache(float *cos_out, float *sin_out, const double *positions, int32_t n,
                      const double *inv_freq, int32_t half, double attn) {
  CHECK(cos_out && sin_out && positions && inv_freq, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  double pmax, wmax;
  int rc = check_angles(positions, n, inv_freq, half, &pmax, &wmax);
  if (rc) return rc;
  double x0, dx;
  if (pr_serves(positions, n, pmax, wmax, attn, &x0, &dx)) {
    pr_cache(cos_out, sin_out, n, x0, dx, inv_freq, half, attn, wmax);
    return POSENC_OK;
  }
  int32_t near = near_from(inv_freq, half, pmax);
  for (int32_t r = 0; r < n; r++)
    cache_row(cos_out + (size_t)r * half, sin_out + (size_t)r * half, positions[r], inv_freq, half,
              attn, far_row(positions[r], wmax), near);
  return POSENC_OK;
}

int posenc_rope_apply_table(float *out, const float *x, int32_t seq, int32_t heads,
                            int32_t head_dim, int32_t rotary_dim, int32_t style,
                            const float *cos_t, const float *sin_t) {
  size_t n;
  int rc = check_shape(out, x, seq, heads, head_dim, rotary_dim, style, &n);
  if (rc) return rc;
  CHECK(cos_t && sin_t, POSENC_E_NULL);
  int32_t half = rotary_dim / 2;
  if (heads == 1 && rotary_dim == head_dim)
    return rotate_rows(out, x, seq, rotary_dim, style, cos_t, sin_t) ? POSENC_NONFINITE : POSENC_OK;
  int bad = 0;
  for (int32_t r = 0; r < seq; r++) {
    size_t at = (size_t)r * heads * head_dim;
    bad |= rotate_row(out + at, x + at, heads, head_dim, rotary_dim, style, 0, half,
                      cos_t + (size_t)r * half, sin_t + (size_t)r * half);
    for (int32_t h = 0; h < heads; h++)
      bad |= pass_through(out + at + (size_t)h * head_dim, x + at + (size_t)h * head_dim, rotary_dim, head_dim);
  }
  return bad ? POSENC_NONFINITE : POSENC_OK;
}

int posenc_rope_apply(float *out, const float *x, int32_t seq, int32_t heads, int32_t head_dim,
                      int32_t rotary_dim, int32_t style, const double *positions,
                      const double *inv_freq, double attn) {
  size_t n;
  int rc = check_shape(out, x, seq, heads, head_dim, rotary_dim, style, &n);
  if (rc) return rc;
  CHECK(positions && inv_freq, POSENC_E_NULL);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  int32_t half = rotary_dim / 2;
  double pmax, wmax;
  rc = check_angles(positions, seq, inv_freq, half, &pmax, &wmax);
  if (rc) return rc;
  double x0, dx;
  if (pr_serves(positions, seq, pmax, wmax, attn, &x0, &dx))
    return pr_apply(out, x, seq, heads, head_dim, rotary_dim, style, x0, dx, inv_freq, attn, wmax)
               ? POSENC_NONFINITE : POSENC_OK;
  int32_t near = near_from(inv_freq, half, pmax);
  float cs[CHUNK], sn[CHUNK];
  int bad = 0;
  for (int32_t r = 0; r < seq; r++) {
    for (int32_t p0 = 0; p0 < half; p0 += CHUNK) {
      int32_t np = half - p0 < CHUNK ? half - p0 : CHUNK;
      cache_row(cs, sn, positions[r], inv_freq + p0, np, attn, far_row(positions[r], wmax), near - p0);
      size_t at = (size_t)r * heads * head_dim;
      bad |= rotate_row(out + at, x + at, heads, head_dim, rotary_dim, style, p0, np, cs, sn);
    }
    for (int32_t h = 0; h < heads; h++) {
      size_t at = ((size_t)r * heads + h) * head_dim;
      bad |= pass_through(out + at, x + at, rotary_dim, head_dim);
    }
  }
  return bad ? POSENC_NONFINITE : POSENC_OK;
}
