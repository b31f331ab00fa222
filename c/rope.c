/* rope.c: the RoPE rotation, with cos/sin as a table (posenc_rope_apply_table) or formed as it
 * rotates (posenc_rope_apply; c/rope_table.c forms them).
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
 * floats (shufps / unpck patterns). Nothing reads a table written just before it (a per-row
 * table of duplicated cos and signed sin is faster on some cores and much slower on others).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "rope_table.h"

#define CHUNK 1024 /* pairs of cos/sin formed at once by the fused kernel */

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
 * access), and the loop is unrolled by two: V8 leaves it rolled where it is inlined into
 * rotate_rows_simd, and there its counter and stack check per 8 floats made it 1.2-1.4x half's
 * loop in llvm-mca's Skylake and Zen models (tests/bench/uarch-model.js). */
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
  for (; cp + 8 <= end; cp += 8, sp += 8, xp += 16, op += 16) {
    IL_DIRECT(0);
    IL_DIRECT(4);
  }
  if (cp < end) IL_DIRECT(0);
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
 * across rows and reach the second half by a fixed offset: a call per row made 512x1x64 up to
 * a third slower. */
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
  rc = ps_rope_check_angles(positions, seq, inv_freq, half, &pmax, &wmax);
  if (rc) return rc;
  double x0, dx;
  if (pr_serves(positions, seq, pmax, wmax, attn, &x0, &dx))
    return pr_apply(out, x, seq, heads, head_dim, rotary_dim, style, x0, dx, inv_freq, attn, wmax)
               ? POSENC_NONFINITE : POSENC_OK;
  int32_t near = ps_rope_near_from(inv_freq, half, pmax);
  float cs[CHUNK], sn[CHUNK];
  int bad = 0;
  for (int32_t r = 0; r < seq; r++) {
    for (int32_t p0 = 0; p0 < half; p0 += CHUNK) {
      int32_t np = half - p0 < CHUNK ? half - p0 : CHUNK;
      ps_rope_row(cs, sn, positions[r], inv_freq + p0, np, attn, ps_rope_far_row(positions[r], wmax), near - p0);
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
