/* rope.c: RoPE inverse frequencies, the cos/sin cache, and the rotation itself.
 *
 * One row routine serves both pair styles, as ggml's rotate_pairs does: pair i of a row is
 * (2i, 2i+1) for POSENC_STYLE_INTERLEAVED and (i, i + rotary_dim/2) for POSENC_STYLE_HALF.
 * Each pair is read whole before it is written, so out == x (in place) is safe.
 *
 * SIMD forms: `half` is a plain complex multiply on contiguous halves (4 pairs a vector);
 * `interleaved` rotates [a0 b0 a1 b1] as x*[c0 c0 c1 c1] + swap(x)*[-s0 s0 -s1 s1], since
 * clang's auto-vectoriser handles the stride-2 pairing worse than scalar code.
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

MAYBE_UNUSED static void cache_row_scalar(float *cs, float *sn, double pos, const double *w,
                                          int32_t np, double attn) {
  for (int32_t j = 0; j < np; j++) {
    double s, c;
    ps_sincos(pos * w[j], &s, &c);
    cs[j] = (float)(c * attn);
    sn[j] = (float)(s * attn);
  }
}

#ifdef __wasm_simd128__
static void cache_row_simd(float *cs, float *sn, double pos, const double *w, int32_t np,
                           double attn) {
  v128_t p = wasm_f64x2_splat(pos), at = wasm_f64x2_splat(attn);
  int32_t j = 0;
  for (; j + 2 <= np; j += 2) {
    v128_t s, c;
    ps_sincos2(wasm_f64x2_mul(p, wasm_v128_load(w + j)), &s, &c);
    wasm_v128_store64_lane(cs + j, wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(c, at)), 0);
    wasm_v128_store64_lane(sn + j, wasm_f32x4_demote_f64x2_zero(wasm_f64x2_mul(s, at)), 0);
  }
  if (j < np) cache_row_scalar(cs + j, sn + j, pos, w + j, np - j, attn);
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

#ifdef __wasm_simd128__
static void rotate_simd(float *o, const float *x, int32_t rot, int32_t style, int32_t p0,
                        int32_t np, const float *cs, const float *sn) {
  int32_t j = 0;
  if (style == POSENC_STYLE_HALF) {
    const float *xa = x + p0, *xb = x + p0 + rot / 2;
    float *oa = o + p0, *ob = o + p0 + rot / 2;
    for (; j + 4 <= np; j += 4) {
      v128_t a = wasm_v128_load(xa + j), b = wasm_v128_load(xb + j);
      v128_t c = wasm_v128_load(cs + j), s = wasm_v128_load(sn + j);
      wasm_v128_store(oa + j, wasm_f32x4_sub(wasm_f32x4_mul(a, c), wasm_f32x4_mul(b, s)));
      wasm_v128_store(ob + j, wasm_f32x4_add(wasm_f32x4_mul(a, s), wasm_f32x4_mul(b, c)));
    }
  } else {
    const v128_t neg_even = wasm_i32x4_make((int32_t)0x80000000, 0, (int32_t)0x80000000, 0);
    const float *xi = x + 2 * p0;
    float *oi = o + 2 * p0;
    for (; j + 4 <= np; j += 4) {
      v128_t c = wasm_v128_load(cs + j), s = wasm_v128_load(sn + j);
      v128_t v0 = wasm_v128_load(xi + 2 * j), v1 = wasm_v128_load(xi + 2 * j + 4);
      v128_t c0 = wasm_i32x4_shuffle(c, c, 0, 0, 1, 1), c1 = wasm_i32x4_shuffle(c, c, 2, 2, 3, 3);
      v128_t s0 = wasm_v128_xor(wasm_i32x4_shuffle(s, s, 0, 0, 1, 1), neg_even);
      v128_t s1 = wasm_v128_xor(wasm_i32x4_shuffle(s, s, 2, 2, 3, 3), neg_even);
      v128_t w0 = wasm_i32x4_shuffle(v0, v0, 1, 0, 3, 2), w1 = wasm_i32x4_shuffle(v1, v1, 1, 0, 3, 2);
      wasm_v128_store(oi + 2 * j, wasm_f32x4_add(wasm_f32x4_mul(v0, c0), wasm_f32x4_mul(w0, s0)));
      wasm_v128_store(oi + 2 * j + 4, wasm_f32x4_add(wasm_f32x4_mul(v1, c1), wasm_f32x4_mul(w1, s1)));
    }
  }
  if (j < np) rotate_scalar(o, x, rot, style, p0 + j, np - j, cs + j, sn + j);
}
#define rotate rotate_simd
#else
#define rotate rotate_scalar
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

/* inv_freq all finite and >= 0, and no angle max(position) * max(theta) can overflow. */
static int check_angles(const double *positions, int32_t n, const double *w, int32_t half) {
  double pmax, wmax;
  CHECK(nonneg_finite(positions, n, &pmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(w, half, &wmax), POSENC_E_VALUE);
  CHECK(pmax * wmax < 1e300, POSENC_E_VALUE);
  return POSENC_OK;
}

static void pass_through(float *o, const float *x, int32_t rot, int32_t head_dim) {
  if (o != x && rot < head_dim) memcpy(o + rot, x + rot, (size_t)(head_dim - rot) * sizeof(float));
}

int posenc_rope_cache(float *cos_out, float *sin_out, const double *positions, int32_t n,
                      const double *inv_freq, int32_t half, double attn) {
  CHECK(cos_out && sin_out && positions && inv_freq, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  int rc = check_angles(positions, n, inv_freq, half);
  if (rc) return rc;
  for (int32_t r = 0; r < n; r++)
    cache_row(cos_out + (size_t)r * half, sin_out + (size_t)r * half, positions[r], inv_freq, half,
              attn);
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
  for (int32_t r = 0; r < seq; r++) {
    const float *c = cos_t + (size_t)r * half, *s = sin_t + (size_t)r * half;
    for (int32_t h = 0; h < heads; h++) {
      size_t at = ((size_t)r * heads + h) * head_dim;
      rotate(out + at, x + at, rotary_dim, style, 0, half, c, s);
      pass_through(out + at, x + at, rotary_dim, head_dim);
    }
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
  rc = check_angles(positions, seq, inv_freq, half);
  if (rc) return rc;
  float cs[CHUNK], sn[CHUNK];
  for (int32_t r = 0; r < seq; r++) {
    for (int32_t p0 = 0; p0 < half; p0 += CHUNK) {
      int32_t np = half - p0 < CHUNK ? half - p0 : CHUNK;
      cache_row(cs, sn, positions[r], inv_freq + p0, np, attn);
      for (int32_t h = 0; h < heads; h++) {
        size_t at = ((size_t)r * heads + h) * head_dim;
        rotate(out + at, x + at, rotary_dim, style, p0, np, cs, sn);
      }
    }
    for (int32_t h = 0; h < heads; h++) {
      size_t at = ((size_t)r * heads + h) * head_dim;
      pass_through(out + at, x + at, rotary_dim, head_dim);
    }
  }
  return POSENC_OK;
}
