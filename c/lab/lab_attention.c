/* lab_attention.c: causal multi-head attention of one layer, forward and backward, over the
 * fused q | k | v rows [N][3D] (q and k already rotated when the encoding rotates). Each
 * (sequence, head) pair runs as lab_gemm products restricted to the causal triangle:
 *   S = Q K^T (j <= i), P = softmax(S / sqrt(hd) + bias), O = P V;
 *   dP = dO V^T, dS = P (dP - rowsum(P dP)), dQ = dS K / sqrt(hd), dK = dS^T Q / sqrt(hd),
 *   dV = P^T dO; the T5 table's gradient is the sum of dS over the pairs of each bucket.
 * K^T and V^T are gathered into scratch (the gemm's B must have contiguous rows); everything
 * else is read and written in place through strides. */
#include <math.h>

#include "lab_layers.h"

static void gather_t(lab_real *out, const lab_real *rows, int32_t T, int32_t stride, int32_t hd) {
  for (int32_t t = 0; t < T; t++)
    for (int32_t d = 0; d < hd; d++) out[(size_t)d * T + t] = rows[(size_t)t * stride + d];
}

void lab_attention_forward(struct lab_model *m, int32_t l, int32_t B, int32_t T, const lab_real *bias) {
  int32_t D = m->D, H = m->H, hd = m->hd, s3 = 3 * D;
  lab_acts *a = &m->act[l];
  lab_real *kt = m->attn_scratch;
  double scale = 1.0 / sqrt((double)hd);
  for (int32_t b = 0; b < B; b++)
    for (int32_t h = 0; h < H; h++) {
      const lab_real *q = a->qkv + (size_t)b * T * s3 + (size_t)h * hd;
      const lab_real *k = q + D, *v = q + 2 * D;
      lab_real *p = a->att + ((size_t)b * H + h) * T * T;
      gather_t(kt, k, T, s3, hd);
      lab_gemm(p, T, q, s3, 1, kt, T, T, hd, T, LAB_SET, 0, LAB_TRI_COLS);
      lab_softmax_causal(p, T, scale, bias ? bias + (size_t)h * m->t_max : 0);
      lab_real *o = a->ao + (size_t)b * T * D + (size_t)h * hd;
      lab_gemm(o, D, p, T, 1, v, s3, T, T, hd, LAB_SET, 0, LAB_TRI_KLE);
    }
}

void lab_attention_backward(struct lab_model *m, int32_t l, int32_t B, int32_t T, lab_real *dt5) {
  int32_t D = m->D, H = m->H, hd = m->hd, s3 = 3 * D;
  lab_acts *a = &m->act[l];
  lab_real *vt = m->attn_scratch, *ds = vt + (size_t)hd * m->t_max;
  lab_real scale = (lab_real)(1.0 / sqrt((double)hd));
  for (int32_t b = 0; b < B; b++)
    for (int32_t h = 0; h < H; h++) {
      size_t row0 = (size_t)b * T;
      const lab_real *q = a->qkv + row0 * s3 + (size_t)h * hd, *k = q + D, *v = q + 2 * D;
      const lab_real *p = a->att + ((size_t)b * H + h) * T * T;
      const lab_real *dout = m->dao + row0 * D + (size_t)h * hd;
      lab_real *dq = m->dqkv + row0 * s3 + (size_t)h * hd, *dk = dq + D, *dv = dq + 2 * D;
      gather_t(vt, v, T, s3, hd);
      lab_gemm(ds, T, dout, D, 1, vt, T, T, hd, T, LAB_SET, 0, LAB_TRI_COLS); /* dP */
      lab_softmax_causal_backward(ds, p, T);
      for (int32_t i = 0; i < T; i++) {
        lab_real *row = ds + (size_t)i * T;
        if (dt5)
          for (int32_t j = 0; j <= i; j++) dt5[(size_t)m->bucket[i - j] * H + h] += row[j];
        for (int32_t j = 0; j <= i; j++) row[j] *= scale;
      }
      lab_gemm(dq, s3, ds, T, 1, k, s3, T, T, hd, LAB_SET, 0, LAB_TRI_KLE);
      lab_gemm(dk, s3, ds, 1, T, q, s3, T, T, hd, LAB_SET, 0, LAB_TRI_KGE);
      lab_gemm(dv, s3, p, 1, T, dout, D, T, T, hd, LAB_SET, 0, LAB_TRI_KGE);
    }
}
