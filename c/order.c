/* order.c: the source post's experiment on word order, end to end in C: token ids, a seeded
 * embedding table, optional sinusoidal PE, seeded Q/K/V projections, optional RoPE, then
 * attention. The page's "why order matters" numbers come from here. Its building blocks
 * (embedding lookup, a linear layer) are exported too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dot.h"

#define DEMO_MAX 4096 /* tokens, dim and vocab of the experiment */

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
    /* head_dim may be odd (the source post's experiment: 10 dims / 2 heads); its last dim then passes through */
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
