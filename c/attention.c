/* attention.c: multi-head scaled dot-product attention, and seed 001's order experiment
 * built from it (embedding lookup, projections, position encodings, attention), so the
 * page's "why order matters" numbers come from C end to end. Every dot product of two rows
 * is dot.h's ps_dot (float64 sums, the same bits in both builds); the rest are plain loops
 * with float64 accumulation. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dot.h"
#include "softmax.h"

#define DEMO_MAX 4096 /* tokens, dim and vocab of the order experiment */
#define OUT_BLOCK 128 /* float64 accumulators of attention's output row, on the stack */

int posenc_attention(float *out, float *weights, const float *q, const float *k, const float *v,
                     int32_t seq_q, int32_t seq_k, int32_t heads, int32_t head_dim, int32_t causal) {
  CHECK(out && weights && q && k && v, POSENC_E_NULL);
  CHECK(elems3(seq_k, heads, head_dim) && elems3(heads, seq_q, seq_k), POSENC_E_SIZE);
  CHECK(seq_q <= seq_k, POSENC_E_SIZE);
  CHECK(causal == 0 || causal == 1, POSENC_E_VALUE);
  size_t nq = (size_t)seq_q * heads * head_dim, nk = (size_t)seq_k * heads * head_dim;
  CHECK(all_finite_f32(q, nq) && all_finite_f32(k, nk) && all_finite_f32(v, nk), POSENC_E_VALUE);
  double scale = 1.0 / sqrt((double)head_dim);
  int32_t offset = seq_k - seq_q; /* query row i stands at position offset + i */
  for (int32_t h = 0; h < heads; h++) {
    for (int32_t i = 0; i < seq_q; i++) {
      float *wrow = weights + ((size_t)h * seq_q + i) * seq_k;
      const float *qi = q + ((size_t)i * heads + h) * head_dim;
      int32_t last = causal ? offset + i : seq_k - 1; /* keys after `last` are masked out */
      for (int32_t j = 0; j <= last; j++)
        wrow[j] = ps_score(ps_dot(qi, k + ((size_t)j * heads + h) * head_dim, head_dim), scale);
      ps_softmax(wrow, last + 1);
      for (int32_t j = last + 1; j < seq_k; j++) wrow[j] = 0.0f;
      /* out = weights . v, key by key over a block of dimensions: each out[d] is the same sum in
       * the same order as a column walk, but v is read along its rows (contiguous, so the SIMD
       * build vectorises the inner loop) instead of one stride per term. */
      float *oi = out + ((size_t)i * heads + h) * head_dim;
      for (int32_t d0 = 0; d0 < head_dim; d0 += OUT_BLOCK) {
        int32_t nd = head_dim - d0 < OUT_BLOCK ? head_dim - d0 : OUT_BLOCK;
        double acc[OUT_BLOCK] = {0};
        for (int32_t j = 0; j <= last; j++) {
          double wj = wrow[j];
          const float *vj = v + ((size_t)j * heads + h) * head_dim + d0;
          for (int32_t d = 0; d < nd; d++) acc[d] += wj * vj[d];
        }
        for (int32_t d = 0; d < nd; d++) oi[d0 + d] = (float)acc[d];
      }
    }
  }
  return POSENC_OK;
}

int posenc_gram(double *out, const float *a, int32_t n, const float *b, int32_t m, int32_t dim) {
  CHECK(out && a && b, POSENC_E_NULL);
  CHECK(elems3(n, m, 1) && elems3(n, dim, 1) && elems3(m, dim, 1), POSENC_E_SIZE);
  for (int32_t i = 0; i < n; i++)
    for (int32_t j = 0; j < m; j++) out[(size_t)i * m + j] = ps_dot(a + (size_t)i * dim, b + (size_t)j * dim, dim);
  return POSENC_OK;
}

int posenc_row_dots(double *out, const float *a, const float *b, int32_t n, int32_t dim) {
  CHECK(out && a && b, POSENC_E_NULL);
  CHECK(elems3(n, dim, 1), POSENC_E_SIZE);
  for (int32_t i = 0; i < n; i++) out[i] = ps_dot(a + (size_t)i * dim, b + (size_t)i * dim, dim);
  return POSENC_OK;
}

int posenc_row_cosines(double *out, const float *a, const float *b, int32_t n, int32_t dim) {
  CHECK(out && a && b, POSENC_E_NULL);
  CHECK(elems3(n, dim, 1), POSENC_E_SIZE);
  for (int32_t i = 0; i < n; i++) {
    const float *ai = a + (size_t)i * dim, *bi = b + (size_t)i * dim;
    double ab = ps_dot(ai, bi, dim), aa = ps_dot(ai, ai, dim), bb = ps_dot(bi, bi, dim);
    out[i] = aa > 0.0 && bb > 0.0 ? ab / sqrt(aa * bb) : 0.0;
  }
  return POSENC_OK;
}

int posenc_embed(float *out, const int32_t *tokens, int32_t n, const float *table, int32_t vocab,
                 int32_t dim) {
  CHECK(out && tokens && table, POSENC_E_NULL);
  CHECK(elems3(n, dim, 1) && elems3(vocab, dim, 1), POSENC_E_SIZE);
  for (int32_t i = 0; i < n; i++) CHECK(tokens[i] >= 0 && tokens[i] < vocab, POSENC_E_VALUE);
  for (int32_t i = 0; i < n; i++)
    memcpy(out + (size_t)i * dim, table + (size_t)tokens[i] * dim, sizeof(float) * (size_t)dim);
  return POSENC_OK;
}

int posenc_linear(float *y, const float *x, int32_t n, int32_t in_dim, const float *w,
                  int32_t out_dim) {
  CHECK(y && x && w, POSENC_E_NULL);
  CHECK(elems3(n, in_dim, 1) && elems3(n, out_dim, 1) && elems3(in_dim, out_dim, 1), POSENC_E_SIZE);
  CHECK(!partial_overlap(y, sizeof(float) * (size_t)n * out_dim, x, sizeof(float) * (size_t)n * in_dim) && y != x,
        POSENC_E_VALUE);
  for (int32_t r = 0; r < n; r++)
    for (int32_t o = 0; o < out_dim; o++) {
      y[(size_t)r * out_dim + o] = (float)ps_dot(x + (size_t)r * in_dim, w + (size_t)o * in_dim, in_dim);
    }
  return POSENC_OK;
}

int posenc_order_demo(float *out, float *weights, const int32_t *tokens, int32_t n, int32_t vocab,
                      int32_t dim, int32_t heads, double seed, int32_t encoding, int32_t causal,
                      double base) {
  CHECK(out && weights && tokens, POSENC_E_NULL);
  CHECK(n >= 1 && n <= DEMO_MAX && vocab >= 1 && vocab <= DEMO_MAX, POSENC_E_SIZE);
  CHECK(dim >= 2 && dim <= DEMO_MAX && heads >= 1 && heads <= dim, POSENC_E_SIZE);
  CHECK(dim % heads == 0, POSENC_E_VALUE);
  /* weights[heads][n][n] must fit the output cap: found out here, not after all the work */
  CHECK(elems3(heads, n, n), POSENC_E_SIZE);
  CHECK(encoding >= POSENC_ENC_NONE && encoding <= POSENC_ENC_ROPE, POSENC_E_KIND);
  CHECK(encoding != POSENC_ENC_SINUSOIDAL || dim % 2 == 0, POSENC_E_ODD);
  int32_t head_dim = dim / heads, rot = head_dim & ~1;
  CHECK(encoding != POSENC_ENC_ROPE || rot >= 2, POSENC_E_ROTARY);
  CHECK(causal == 0 || causal == 1, POSENC_E_VALUE);
  CHECK_BASE(base);
  CHECK(seed >= 0.0 && seed <= 9007199254740991.0 - 3 && seed == floor(seed), POSENC_E_VALUE);
  for (int32_t i = 0; i < n; i++) CHECK(tokens[i] >= 0 && tokens[i] < vocab, POSENC_E_VALUE);

  size_t nd = (size_t)n * dim, dd = (size_t)dim * dim;
  float *buf = malloc(sizeof(float) * ((size_t)vocab * dim + 3 * dd + 5 * nd + (size_t)n * dim));
  double *pos = malloc(sizeof(double) * ((size_t)n + (size_t)rot / 2 + 1));
  if (!buf || !pos) {
    free(buf);
    free(pos);
    return POSENC_E_SIZE;
  }
  float *table = buf, *wq = table + (size_t)vocab * dim, *wk = wq + dd, *wv = wk + dd;
  float *x = wv + dd, *q = x + nd, *k = q + nd, *v = k + nd, *tmp = v + nd, *pe = tmp + nd;
  double *inv = pos + n;
  /* Weights: N(0,1) embeddings as nn.Embedding; projections N(0, 1/dim), the scale of
   * nn.Linear's default init, each from its own seed so changing one changes only it. */
  posenc_random_normal(table, vocab * dim, seed);
  posenc_random_normal(wq, dim * dim, seed + 1);
  posenc_random_normal(wk, dim * dim, seed + 2);
  posenc_random_normal(wv, dim * dim, seed + 3);
  float ws = (float)(1.0 / sqrt((double)dim));
  for (size_t i = 0; i < 3 * dd; i++) wq[i] *= ws;

  posenc_embed(x, tokens, n, table, vocab, dim);
  if (encoding == POSENC_ENC_SINUSOIDAL) {
    posenc_sinusoidal(pe, n, dim, base, 0.0, POSENC_LAYOUT_INTERLEAVED);
    for (size_t i = 0; i < nd; i++) x[i] += pe[i];
  }
  posenc_linear(q, x, n, dim, wq, dim);
  posenc_linear(k, x, n, dim, wk, dim);
  posenc_linear(v, x, n, dim, wv, dim);
  if (encoding == POSENC_ENC_ROPE) {
    /* head_dim may be odd (seed 001: 10 dims / 2 heads); its last dim then passes through */
    for (int32_t i = 0; i < n; i++) pos[i] = i;
    posenc_rope_inv_freq(inv, rot, base);
    posenc_rope_apply(q, q, n, heads, head_dim, rot, POSENC_STYLE_INTERLEAVED, pos, inv, 1.0);
    posenc_rope_apply(k, k, n, heads, head_dim, rot, POSENC_STYLE_INTERLEAVED, pos, inv, 1.0);
  }
  int rc = posenc_attention(out, weights, q, k, v, n, n, heads, head_dim, causal);
  free(buf);
  free(pos);
  return rc;
}
