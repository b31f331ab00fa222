/* lab_layers.h: row-wise layers of the lab model (lab_layers.c). */
#ifndef POSENC_LAB_LAYERS_H
#define POSENC_LAB_LAYERS_H

#include "lab_internal.h"

/* y[n][w] = (x - mean) / sqrt(var + eps) * g + b per row; mu, rs [n] keep mean and 1/std. */
void lab_layernorm(lab_real *y, lab_real *mu, lab_real *rs, const lab_real *x, const lab_real *g,
                   const lab_real *b, int32_t n, int32_t w);
/* dx (= or +=, by accumulate) from dy; dg, db accumulate. */
void lab_layernorm_backward(lab_real *dx, lab_real *dg, lab_real *db, const lab_real *dy,
                            const lab_real *x, const lab_real *mu, const lab_real *rs,
                            const lab_real *g, int32_t n, int32_t w, int accumulate);
/* y = x Phi(x) (the exact erf form) and, when dy is not NULL, dy = GELU'(x). */
void lab_gelu(lab_real *y, lab_real *dy, const lab_real *x, size_t n);
/* dx[i] *= d[i] */
void lab_mul(lab_real *dx, const lab_real *d, size_t n);
/* p[T][T] holds raw scores q.k on and below the diagonal; becomes softmax_j<=i(score * scale +
 * bias[i - j]) with zeros above the diagonal. bias (by distance) may be NULL. */
void lab_softmax_causal(lab_real *p, int32_t T, double scale, const lab_real *bias);
/* ds[T][T] holds dL/dp on and below the diagonal; becomes dL/dscore there. */
void lab_softmax_causal_backward(lab_real *ds, const lab_real *p, int32_t T);
/* logits[n][V] -> probabilities in place; returns the summed loss over rows with targets >= 0.
 * row_loss[n], row_ok[n] (may be NULL) are written on those rows only. Argmax ties: lowest. */
double lab_cross_entropy(lab_real *probs, const int32_t *targets, int32_t n, int32_t V,
                         double *row_loss, int32_t *row_ok, int32_t *count, int32_t *correct);
/* dz = (p - onehot(target)) / count on rows with a target, 0 elsewhere. */
void lab_cross_entropy_backward(lab_real *dz, const lab_real *probs, const int32_t *targets,
                                int32_t n, int32_t V, int32_t count);

#endif
