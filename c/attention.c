/* attention.c: multi-head scaled dot-product attention, optionally causal, with a KV cache's
 * shape (fewer query rows than key rows). Every dot product of two rows is dot.h's ps_dot
 * (float64 sums, the same bits in both builds); the rest are plain loops with float64
 * accumulation. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dot.h"
#include "softmax.h"

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

