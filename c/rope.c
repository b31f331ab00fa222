/* rope.c: RoPE inverse frequencies, the cos/sin cache, and the rotation itself.
 *
 * One row routine serves both pair styles, as ggml's rotate_pairs does: pair i of a row is
 * (2i, 2i+1) for POSENC_STYLE_INTERLEAVED and (i, i + rotary_dim/2) for POSENC_STYLE_HALF.
 * Each pair is read whole before it is written, so out == x (in place) is safe.
 *
 * SIMD forms: `half` is a plain complex multiply on contiguous halves (4 pairs a vector);
 * `interleaved` rotates [a0 b0 a1 b1] as x*[c0 c0 c1 c1] + swap(x)*[-s0 s0 -s1 s1], since
 * clang's auto-vectoriser handles the stride-2 pairing worse than scalar code. The
 * duplicated cos and signed sin are built once per row and chunk, then serve every head:
 * the per-head loop is loads, one swap, two multiplies and an add per vector, which keeps
 * in-place interleaved RoPE within 1.05x of half (2.30 -> 2.07 ms at 2048x32x128). Both
 * loops take 8 pairs per step. cos/sin are float32 results, so the cache and the fused
 * kernel use ps_sincos_f32 (see sincos.h), four pairs per step.
 */
#include <math.h>
#include <string.h>

#include "check.h"
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
    ps_sincos_f32(pos * w[j], &s, &c);
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

/* ---- rotation of pairs [p0, p0+np) of one head's row ---- */

MAYBE_UNUSED static void rotate_scalar(float *o, const float *x, int32_t rot, int32_t style,
                                       int32_t p0, int32_t np, const float *cs, const float *sn) {
  int32_t stride = style == POSENC_STYLE_INTERLEAVED ? 2 : 1;
  int32_t off = style == POSENC_STYLE_INTERLEAVED ? 1 : rot / 2;
  for (int32_t j = 0; j < np; j++) {
    int32_t i0 = (p0 + j) * stride;
    float a = x[i0], b = x[i0 + off], c = cs[j], s = sn[j];
    o[i0] = a * c - b * s;
    o[i0 + off] = a * s + b * c;
  }
}

/* Every head of one seq row (heads rows of head_dim floats), pairs [p0, p0+np). */
MAYBE_UNUSED static void rotate_row_scalar(float *o, const float *x, int32_t heads,
                                           int32_t head_dim, int32_t rot, int32_t style,
                                           int32_t p0, int32_t np, const float *cs,
                                           const float *sn) {
  for (int32_t h = 0; h < heads; h++)
    rotate_scalar(o + (size_t)h * head_dim, x + (size_t)h * head_dim, rot, style, p0, np, cs, sn);
}

/* A [seq][rot] tensor (one head, every dim rotated) with its [seq][rot/2] tables: rows follow
 * each other in x, out and the tables with nothing between, so interleaved pairs form one long
 * row and half pairs need no per-row call. */
MAYBE_UNUSED static void rotate_rows_scalar(float *o, const float *x, int32_t seq, int32_t rot,
                                            int32_t style, const float *cs, const float *sn) {
  int32_t half = rot / 2;
  if (style == POSENC_STYLE_INTERLEAVED) {
    rotate_scalar(o, x, rot, style, 0, seq * half, cs, sn);
    return;
  }
  for (int32_t r = 0; r < seq; r++)
    rotate_scalar(o + (size_t)r * rot, x + (size_t)r * rot, rot, style, 0, half,
                  cs + (size_t)r * half, sn + (size_t)r * half);
}

#ifdef __wasm_simd128__
#define EXPAND 256 /* pairs of duplicated cos / signed sin built at once (2 KiB each) */

#define HALF_STEP(j)                                                                    \
  do {                                                                                  \
    v128_t a = wasm_v128_load(xa + (j)), b = wasm_v128_load(xb + (j));                 \
    v128_t c = wasm_v128_load(cs + (j)), s = wasm_v128_load(sn + (j));                 \
    wasm_v128_store(oa + (j), wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s))); \
    wasm_v128_store(ob + (j), wasm_f32x4_add(wasm_f32x4_mul(a, s), wasm_f32x4_mul(b, c))); \
  } while (0)

static inline __attribute__((always_inline)) void rotate_half_simd(float *o, const float *x, int32_t rot, int32_t p0, int32_t np,
                             const float *cs, const float *sn) {
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
  if (j < np) rotate_scalar(o, x, rot, POSENC_STYLE_HALF, p0 + j, np - j, cs + j, sn + j);
}

/* Duplicates cos and signs sin for pairs [0, n4), n4 a multiple of 4. */
static void expand_simd(float *ce, float *se, const float *cs, const float *sn, int32_t n4) {
  const v128_t neg_even = wasm_i32x4_make((int32_t)0x80000000, 0, (int32_t)0x80000000, 0);
  for (int32_t j = 0; j < n4; j += 4) {
    v128_t c = wasm_v128_load(cs + j), s = wasm_v128_load(sn + j);
    wasm_v128_store(ce + 2 * j, wasm_i32x4_shuffle(c, c, 0, 0, 1, 1));
    wasm_v128_store(ce + 2 * j + 4, wasm_i32x4_shuffle(c, c, 2, 2, 3, 3));
    wasm_v128_store(se + 2 * j, wasm_v128_xor(wasm_i32x4_shuffle(s, s, 0, 0, 1, 1), neg_even));
    wasm_v128_store(se + 2 * j + 4, wasm_v128_xor(wasm_i32x4_shuffle(s, s, 2, 2, 3, 3), neg_even));
  }
}

/* [a0 b0 a1 b1] -> x*[c0 c0 c1 c1] + [b0 a0 b1 a1]*[-s0 s0 -s1 s1], ce/se already duplicated.
 * This loop bumps pointers and addresses with constant offsets, which V8 folds into each
 * instruction, instead of an index it must add per access (clang's form for x[j + k]): 9%
 * faster in place at 2048x32x128. (The half loop keeps the index: six pointers spill.) */
#define IL_HEAD(xq, oq, k)                                                              \
  do {                                                                                  \
    v128_t v = wasm_v128_load((xq) + (k)), w = wasm_i32x4_shuffle(v, v, 1, 0, 3, 2);    \
    wasm_v128_store((oq) + (k), wasm_f32x4_add(wasm_f32x4_mul(v, c), wasm_f32x4_mul(w, s))); \
  } while (0)
#define IL_AT(k)                                                                        \
  do {                                                                                  \
    v128_t c = wasm_v128_load(ce + (k)), s = wasm_v128_load(se + (k));                  \
    IL_HEAD(xp, op, k);                                                                 \
    if (two) IL_HEAD(xp + hd, op + hd, k);                                              \
  } while (0)

/* Pairs [p0, p0+n4) of one head from expanded ce/se (n4 a multiple of 4); two: of the head hd
 * floats on as well, sharing each load of ce/se (7 operations a vector instead of 8). The
 * caller pairs heads in place only: in-place calls are bound by issue, out-of-place ones by
 * memory, where the two heads' four streams made them 8% slower. */
static inline __attribute__((always_inline)) void rotate_il_simd(float *o, const float *x,
                                                                 int32_t hd, int two, int32_t p0,
                                                                 int32_t n4, const float *ce,
                                                                 const float *se) {
  const float *xp = x + 2 * p0, *end = xp + 2 * n4;
  float *op = o + 2 * p0;
  for (; end - xp >= 16; xp += 16, op += 16, ce += 16, se += 16) {
    IL_AT(0);
    IL_AT(4);
    IL_AT(8);
    IL_AT(12);
  }
  if (xp < end) {
    IL_AT(0);
    IL_AT(4);
  }
}

/* One head from cos/sin as they are: the pairs' first and second elements are gathered into
 * two vectors, rotated as in the half form and interleaved back. Four shuffles per 8 floats
 * where duplicating cos and sin and swapping x takes six (x64 runs shuffles on one port, and
 * with few heads they bound the loop). a*s + b*c is b*c + a*s, so the bits are the expanded
 * form's. */
static inline __attribute__((always_inline)) void rotate_il_direct_simd(float *o, const float *x, int32_t p0, int32_t n4,
                                  const float *cs, const float *sn) {
  const float *xi = x + 2 * p0;
  float *oi = o + 2 * p0;
  for (int32_t j = 0; j < n4; j += 4) {
    v128_t c = wasm_v128_load(cs + j), s = wasm_v128_load(sn + j);
    v128_t v0 = wasm_v128_load(xi + 2 * j), v1 = wasm_v128_load(xi + 2 * j + 4);
    v128_t a = wasm_i32x4_shuffle(v0, v1, 0, 2, 4, 6), b = wasm_i32x4_shuffle(v0, v1, 1, 3, 5, 7);
    v128_t oa = wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s));
    v128_t ob = wasm_f32x4_add(wasm_f32x4_mul(a, s), wasm_f32x4_mul(b, c));
    wasm_v128_store(oi + 2 * j, wasm_i32x4_shuffle(oa, ob, 0, 4, 1, 5));
    wasm_v128_store(oi + 2 * j + 4, wasm_i32x4_shuffle(oa, ob, 2, 6, 3, 7));
  }
}

/* Interleaved pairs of many heads: duplicated cos / signed sin built once per chunk. Kept out
 * of line so that its 4 KiB of stack is set up only when it runs. */
__attribute__((noinline)) static void rotate_row_expanded_simd(float *o, const float *x,
                                                              int32_t heads, int32_t head_dim,
                                                              int32_t rot, int32_t p0, int32_t np,
                                                              const float *cs, const float *sn) {
  float ce[2 * EXPAND], se[2 * EXPAND];
  for (int32_t q0 = 0; q0 < np; q0 += EXPAND) {
    int32_t nq = np - q0 < EXPAND ? np - q0 : EXPAND, n4 = nq & ~3;
    expand_simd(ce, se, cs + q0, sn + q0, n4);
    int32_t h = 0;
    for (; o == x && h + 2 <= heads; h += 2)
      rotate_il_simd(o + (size_t)h * head_dim, x + (size_t)h * head_dim, head_dim, 1, p0 + q0, n4, ce, se);
    for (; h < heads; h++)
      rotate_il_simd(o + (size_t)h * head_dim, x + (size_t)h * head_dim, head_dim, 0, p0 + q0, n4, ce, se);
    for (h = 0; n4 < nq && h < heads; h++)
      rotate_scalar(o + (size_t)h * head_dim, x + (size_t)h * head_dim, rot, POSENC_STYLE_INTERLEAVED,
                    p0 + q0 + n4, nq - n4, cs + q0 + n4, sn + q0 + n4);
  }
}

static inline __attribute__((always_inline)) void rotate_row_simd(float *o, const float *x, int32_t heads, int32_t head_dim,
                            int32_t rot, int32_t style, int32_t p0, int32_t np, const float *cs,
                            const float *sn) {
  if (style == POSENC_STYLE_HALF) {
    for (int32_t h = 0; h < heads; h++)
      rotate_half_simd(o + (size_t)h * head_dim, x + (size_t)h * head_dim, rot, p0, np, cs, sn);
  } else if (heads >= 4) {
    rotate_row_expanded_simd(o, x, heads, head_dim, rot, p0, np, cs, sn);
  } else { /* too few heads to pay for the expansion */
    int32_t n4 = np & ~3;
    for (int32_t h = 0; h < heads; h++) {
      float *oh = o + (size_t)h * head_dim;
      const float *xh = x + (size_t)h * head_dim;
      rotate_il_direct_simd(oh, xh, p0, n4, cs, sn);
      if (n4 < np)
        rotate_scalar(oh, xh, rot, POSENC_STYLE_INTERLEAVED, p0 + n4, np - n4, cs + n4, sn + n4);
    }
  }
}
/* One head per row, all dims rotated (see rotate_rows_scalar). Half pairs bump their pointers
 * across rows and reach the second half by a fixed offset. At 512x1x64, out of place: 10.8 ->
 * 8.1 us interleaved, 9.9 -> 9.0 us half; in place 10.6 -> 7.5 and 8.7 -> 7.1. */
static void rotate_rows_simd(float *o, const float *x, int32_t seq, int32_t rot, int32_t style,
                             const float *cs, const float *sn) {
  int32_t half = rot / 2;
  if (style == POSENC_STYLE_INTERLEAVED) {
    int32_t np = seq * half, n4 = np & ~3;
    rotate_il_direct_simd(o, x, 0, n4, cs, sn);
    if (n4 < np) rotate_scalar(o, x, rot, style, n4, np - n4, cs + n4, sn + n4);
  } else if (half % 4) { /* each row needs its own tail */
    for (int32_t r = 0; r < seq; r++)
      rotate_half_simd(o + (size_t)r * rot, x + (size_t)r * rot, rot, 0, half,
                       cs + (size_t)r * half, sn + (size_t)r * half);
  } else {
    for (const float *end = x + (size_t)seq * rot; x < end; x += half, o += half) {
      for (const float *row_end = x + half; x < row_end; x += 4, o += 4, cs += 4, sn += 4) {
        v128_t a = wasm_v128_load(x), b = wasm_v128_load(x + half);
        v128_t c = wasm_v128_load(cs), s = wasm_v128_load(sn);
        wasm_v128_store(o, wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s)));
        wasm_v128_store(o + half, wasm_f32x4_add(wasm_f32x4_mul(a, s), wasm_f32x4_mul(b, c)));
      }
    }
  }
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

static void pass_through(float *o, const float *x, int32_t rot, int32_t head_dim) {
  if (o != x && rot < head_dim) memcpy(o + rot, x + rot, (size_t)(head_dim - rot) * sizeof(float));
}

int posenc_rope_cache(float *cos_out, float *sin_out, const double *positions, int32_t n,
                      const double *inv_freq, int32_t half, double attn) {
  CHECK(cos_out && sin_out && positions && inv_freq, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  double pmax, wmax;
  int rc = check_angles(positions, n, inv_freq, half, &pmax, &wmax);
  if (rc) return rc;
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
  if (heads == 1 && rotary_dim == head_dim) {
    rotate_rows(out, x, seq, rotary_dim, style, cos_t, sin_t);
    return POSENC_OK;
  }
  for (int32_t r = 0; r < seq; r++) {
    size_t at = (size_t)r * heads * head_dim;
    rotate_row(out + at, x + at, heads, head_dim, rotary_dim, style, 0, half,
               cos_t + (size_t)r * half, sin_t + (size_t)r * half);
    for (int32_t h = 0; h < heads; h++)
      pass_through(out + at + (size_t)h * head_dim, x + at + (size_t)h * head_dim, rotary_dim, head_dim);
  }
  return POSENC_OK;
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
  int32_t near = near_from(inv_freq, half, pmax);
  float cs[CHUNK], sn[CHUNK];
  for (int32_t r = 0; r < seq; r++) {
    for (int32_t p0 = 0; p0 < half; p0 += CHUNK) {
      int32_t np = half - p0 < CHUNK ? half - p0 : CHUNK;
      cache_row(cs, sn, positions[r], inv_freq + p0, np, attn, far_row(positions[r], wmax), near - p0);
      size_t at = (size_t)r * heads * head_dim;
      rotate_row(out + at, x + at, heads, head_dim, rotary_dim, style, p0, np, cs, sn);
    }
    for (int32_t h = 0; h < heads; h++) {
      size_t at = ((size_t)r * heads + h) * head_dim;
      pass_through(out + at, x + at, rotary_dim, head_dim);
    }
  }
  return POSENC_OK;
}
