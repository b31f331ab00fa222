/* lab_adamw.c: AdamW (decoupled weight decay, bias-corrected moments, in the order of
 * torch.optim.AdamW), the learning-rate schedule, and the global gradient norm for clipping. */
#include <math.h>

#include "lab_internal.h"

#define LAB_PI 3.14159265358979323846

double posenc_lab_lr_at(const posenc_lab_model *m, int32_t t) {
  if (!m || t < 0) return NAN;
  /* linear warm-up over the first `warmup` steps: step t uses (t + 1) / warmup of the peak, never
   * more than the peak (a fractional warm-up's last step would pass it) */
  if (t < m->warmup) return m->lr * fmin(1.0, (t + 1.0) / m->warmup);
  if (m->schedule == POSENC_LAB_SCHEDULE_COSINE && m->total > m->warmup) {
    double prog = (t - m->warmup) / (m->total - m->warmup);
    if (prog > 1.0) prog = 1.0;
    return m->lr * 0.5 * (1.0 + cos(LAB_PI * prog)); /* down to 0 at total_steps, then 0 */
  }
  return m->lr;
}

double lab_grad_norm(const struct lab_model *m) {
  double s = 0;
  for (int32_t i = 0; i < m->n_params; i++) s += (double)m->grads[i] * m->grads[i];
  return sqrt(s);
}

/* One update with learning rate lr: for each parameter p with gradient g,
 *   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
 *   p = p (1 - lr wd) - (lr / (1 - b1^t)) m / (sqrt(v) / sqrt(1 - b2^t) + eps),
 * with wd = weight_decay for the groups marked decayed and 0 for the others; t counts updates
 * from 1. */
void lab_adamw_update(struct lab_model *m, double lr) {
  m->step++;
  double b1 = m->beta1, b2 = m->beta2;
  double bc1 = 1.0 - pow(b1, m->step), bc2s = sqrt(1.0 - pow(b2, m->step));
  double step = lr / bc1;
  for (int32_t g = 0; g < m->n_groups; g++) {
    const lab_group *gr = &m->group[g];
    double keep = 1.0 - lr * (gr->decay ? m->wd : 0.0);
    for (int32_t i = gr->off; i < gr->off + gr->size; i++) {
      double gi = m->grads[i];
      double mi = b1 * m->adam_m[i] + (1.0 - b1) * gi;
      double vi = b2 * m->adam_v[i] + (1.0 - b2) * gi * gi;
      m->adam_m[i] = (lab_real)mi;
      m->adam_v[i] = (lab_real)vi;
      m->params[i] = (lab_real)(m->params[i] * keep - step * mi / (sqrt(vi) / bc2s + m->eps));
    }
  }
}
