/* lab_forward.c: the model's forward pass (with the loss) and its backward pass. Shapes and
 * the layer order are in lab.h; N = B T rows of the residual stream, one per token. */
#include <math.h>
#include <string.h>

#include "lab_layers.h"

static int rotates(const struct lab_model *m) {
  return m->enc == POSENC_LAB_ENC_ROPE || m->enc == POSENC_LAB_ENC_XPOS;
}

/* The attention bias by distance, bias[h][d] for d = i - j < T, or NULL when there is none. */
static const lab_real *fill_bias(struct lab_model *m, int32_t T) {
  if (m->enc == POSENC_LAB_ENC_ALIBI) {
    for (int32_t h = 0; h < m->H; h++)
      for (int32_t d = 0; d < T; d++) m->bias[(size_t)h * m->t_max + d] = (lab_real)(-m->slopes[h] * d);
    return m->bias;
  }
  if (m->enc == POSENC_LAB_ENC_T5) {
    for (int32_t h = 0; h < m->H; h++)
      for (int32_t d = 0; d < T; d++)
        m->bias[(size_t)h * m->t_max + d] = m->t5_bias[(size_t)m->bucket[d] * m->H + h];
    return m->bias;
  }
  return 0;
}

static void add_rows(lab_real *y, const lab_real *b, int32_t n, int32_t w) {
  for (int32_t r = 0; r < n; r++)
    for (int32_t j = 0; j < w; j++) y[(size_t)r * w + j] += b[j];
}

double lab_forward(struct lab_model *m, const int32_t *tokens, const int32_t *targets, int32_t B,
                   int32_t T, int32_t scaling, double factor, int32_t *count_out) {
  int32_t D = m->D, F = m->F, V = m->V, N = B * T;
  m->cur_B = B, m->cur_T = T;
  /* embeddings (+ the added position encodings) */
  lab_real *x = m->act[0].x;
  for (int32_t r = 0; r < N; r++) {
    int32_t t = r % T;
    lab_real *xr = x + (size_t)r * D;
    const lab_real *e = m->tok_emb + (size_t)tokens[r] * D;
    const lab_real *pe = m->enc == POSENC_LAB_ENC_LEARNED ? m->pos_emb + (size_t)t * D
                         : m->enc == POSENC_LAB_ENC_SINUSOIDAL ? m->pe + (size_t)t * D
                                                               : 0;
    for (int32_t j = 0; j < D; j++) xr[j] = pe ? e[j] + pe[j] : e[j];
  }
  if (rotates(m))
    lab_rope_tables(m->cs, m->sn, m->enc == POSENC_LAB_ENC_XPOS ? m->xq : 0, m->xk, T, m->hd,
                    m->base, scaling, factor, m->t_train, m->xpos_base);
  const lab_real *bias = fill_bias(m, T);
  const lab_real *xq = m->enc == POSENC_LAB_ENC_XPOS ? m->xq : 0, *xk = xq ? m->xk : 0;

  for (int32_t l = 0; l < m->L; l++) {
    lab_layer *w = &m->layer[l];
    lab_acts *a = &m->act[l];
    lab_real *xnext = l + 1 < m->L ? m->act[l + 1].x : m->xf;
    lab_layernorm(a->ln1, a->mu1, a->rs1, a->x, w->ln1_g, w->ln1_b, N, D);
    lab_gemm(a->qkv, 3 * D, a->ln1, D, 1, w->wqkv, 3 * D, N, D, 3 * D, LAB_SET, w->bqkv, LAB_TRI_NONE);
    if (rotates(m)) {
      lab_rope_apply(a->qkv, N, T, 3 * D, m->H, m->hd, m->style, m->cs, m->sn, xq, 0);
      lab_rope_apply(a->qkv + D, N, T, 3 * D, m->H, m->hd, m->style, m->cs, m->sn, xk, 0);
    }
    lab_attention_forward(m, l, B, T, bias);
    memcpy(a->xm, a->x, sizeof(lab_real) * (size_t)N * D);
    lab_gemm(a->xm, D, a->ao, D, 1, w->wo, D, N, D, D, LAB_ACC, 0, LAB_TRI_NONE);
    add_rows(a->xm, w->bo, N, D);
    lab_layernorm(a->ln2, a->mu2, a->rs2, a->xm, w->ln2_g, w->ln2_b, N, D);
    lab_gemm(a->h, F, a->ln2, D, 1, w->w1, F, N, D, F, LAB_SET, w->b1, LAB_TRI_NONE);
    lab_gelu(a->g, a->h, a->h, (size_t)N * F); /* h becomes GELU'(h): the backward needs no more */
    memcpy(xnext, a->xm, sizeof(lab_real) * (size_t)N * D);
    lab_gemm(xnext, D, a->g, F, 1, w->w2, D, N, F, D, LAB_ACC, 0, LAB_TRI_NONE);
    add_rows(xnext, w->b2, N, D);
  }
  lab_layernorm(m->lnf, m->muf, m->rsf, m->xf, m->lnf_g, m->lnf_b, N, D);
  lab_gemm(m->logits, V, m->lnf, D, 1, m->wh, V, N, D, V, LAB_SET, m->bh, LAB_TRI_NONE);
  int32_t count = 0;
  double loss = lab_cross_entropy(m->logits, targets, N, V, m->row_loss, m->row_ok, &count, 0);
  *count_out = count;
  return count ? loss / count : 0.0;
}

/* grad of row-major W [in][out] from X [N][in] and dY [N][out]: dW += X^T dY, db += colsum dY,
 * and dX = dY W^T (into dx, overwritten) through the transposed copy in m->wt. */
static void linear_backward(struct lab_model *m, lab_real *dx, lab_real *dw, lab_real *db,
                            const lab_real *x, const lab_real *dy, const lab_real *w, int32_t N,
                            int32_t in, int32_t out) {
  lab_gemm(dw, out, x, 1, in, dy, out, in, N, out, LAB_ACC, 0, LAB_TRI_NONE);
  lab_colsum_acc(db, dy, N, out);
  lab_transpose(m->wt, w, in, out);
  lab_gemm(dx, in, dy, out, 1, m->wt, in, N, out, in, LAB_SET, 0, LAB_TRI_NONE);
}

/* the gradient buffer's view of a parameter pointer */
#define G(p) (m->grads + ((p) - m->params))

void lab_backward(struct lab_model *m, const int32_t *tokens, const int32_t *targets, int32_t count) {
  int32_t D = m->D, F = m->F, V = m->V, B = m->cur_B, T = m->cur_T, N = B * T;
  memset(m->grads, 0, sizeof(lab_real) * (size_t)m->n_params);
  lab_real *dx = m->dx, *dtmp = m->dtmp;
  const lab_real *xq = m->enc == POSENC_LAB_ENC_XPOS ? m->xq : 0, *xk = xq ? m->xk : 0;
  lab_real *dt5 = m->enc == POSENC_LAB_ENC_T5 ? G(m->t5_bias) : 0;

  lab_cross_entropy_backward(m->dlog, m->logits, targets, N, V, count);
  linear_backward(m, dtmp, G(m->wh), G(m->bh), m->lnf, m->dlog, m->wh, N, D, V);
  lab_layernorm_backward(dx, G(m->lnf_g), G(m->lnf_b), dtmp, m->xf, m->muf, m->rsf, m->lnf_g, N, D, 0);

  for (int32_t l = m->L - 1; l >= 0; l--) {
    lab_layer *w = &m->layer[l];
    lab_acts *a = &m->act[l];
    /* MLP: dx is dL/d(x_{l+1}); the residual passes it to xm unchanged */
    linear_backward(m, m->dh, G(w->w2), G(w->b2), a->g, dx, w->w2, N, F, D);
    lab_mul(m->dh, a->h, (size_t)N * F);
    linear_backward(m, dtmp, G(w->w1), G(w->b1), a->ln2, m->dh, w->w1, N, D, F);
    lab_layernorm_backward(dx, G(w->ln2_g), G(w->ln2_b), dtmp, a->xm, a->mu2, a->rs2, w->ln2_g, N, D, 1);
    /* attention: dx is now dL/dxm, which the residual passes to x */
    linear_backward(m, m->dao, G(w->wo), G(w->bo), a->ao, dx, w->wo, N, D, D);
    lab_attention_backward(m, l, B, T, dt5);
    if (m->enc == POSENC_LAB_ENC_ROPE || m->enc == POSENC_LAB_ENC_XPOS) {
      lab_rope_apply(m->dqkv, N, T, 3 * D, m->H, m->hd, m->style, m->cs, m->sn, xq, 1);
      lab_rope_apply(m->dqkv + D, N, T, 3 * D, m->H, m->hd, m->style, m->cs, m->sn, xk, 1);
    }
    linear_backward(m, dtmp, G(w->wqkv), G(w->bqkv), a->ln1, m->dqkv, w->wqkv, N, D, 3 * D);
    lab_layernorm_backward(dx, G(w->ln1_g), G(w->ln1_b), dtmp, a->x, a->mu1, a->rs1, w->ln1_g, N, D, 1);
  }
  /* embeddings */
  for (int32_t r = 0; r < N; r++) {
    const lab_real *d = dx + (size_t)r * D;
    lab_real *ge = G(m->tok_emb) + (size_t)tokens[r] * D;
    for (int32_t j = 0; j < D; j++) ge[j] += d[j];
    if (m->enc == POSENC_LAB_ENC_LEARNED) {
      lab_real *gp = G(m->pos_emb) + (size_t)(r % T) * D;
      for (int32_t j = 0; j < D; j++) gp[j] += d[j];
    }
  }
}
