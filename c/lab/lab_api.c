/* lab_api.c: the lab's entry points besides create/free: training steps, evaluation at any
 * length with RoPE scaling, the attention readout, examples, and the loss-and-gradient call of
 * the gradient check. Every argument is checked before anything is written. */
#include <math.h>
#include <string.h>

#include "lab_internal.h"

static int is_seed(double s) { return s >= 0.0 && s <= 9007199254740991.0 && s == floor(s); }

static int check_scaling(const struct lab_model *m, int32_t scaling, double factor) {
  LAB_CHECK(scaling == POSENC_SCALING_NONE || scaling == POSENC_SCALING_LINEAR ||
                scaling == POSENC_SCALING_NTK || scaling == POSENC_SCALING_YARN,
            POSENC_E_KIND);
  if (scaling == POSENC_SCALING_NONE) return POSENC_OK;
  LAB_CHECK(m->enc == POSENC_LAB_ENC_ROPE || m->enc == POSENC_LAB_ENC_XPOS, POSENC_E_KIND);
  LAB_CHECK(isfinite(factor) && factor >= 1.0 && factor <= 1e6, POSENC_E_VALUE);
  LAB_CHECK(scaling != POSENC_SCALING_NTK || m->hd > 2, POSENC_E_ROTARY);
  return POSENC_OK;
}

/* One training batch of B sequences at a task length drawn uniformly from the lengths up to len
 * that carry loss (lo..len, lo = lab_task_min_len <= len), into m->tokens / m->targets; returns T.
 * Drawing only such lengths means every step has a gradient: a batch with nothing to score would
 * still move the weights through AdamW's momentum and decay, and log a loss of 0. */
static int32_t make_batch(struct lab_model *m, int32_t len, int32_t B) {
  int32_t lo = lab_task_min_len(m->task, m->k);
  int32_t n = lo + lab_rng_below(&m->data_rng, len - lo + 1), T = lab_task_tokens(m->task, n);
  for (int32_t b = 0; b < B; b++)
    lab_task_make(m->task, m->k, n, &m->data_rng, m->tokens + (size_t)b * T, m->targets + (size_t)b * T);
  return T;
}

/* Steps of forward (with the given scaling), backward, clip and AdamW on batches from make_batch. */
static void train_loop(struct lab_model *m, int32_t n_steps, int32_t len, int32_t B, int32_t scaling,
                       double factor, float *loss_out) {
  for (int32_t s = 0; s < n_steps; s++) {
    int32_t T = make_batch(m, len, B), count;
    double loss = lab_forward(m, m->tokens, m->targets, B, T, scaling, factor, &count);
    lab_backward(m, m->tokens, m->targets, count);
    if (m->clip > 0) {
      double norm = lab_grad_norm(m), c = m->clip / (norm + 1e-6); /* torch clip_grad_norm_ */
      if (c < 1.0)
        for (int32_t i = 0; i < m->n_params; i++) m->grads[i] = (lab_real)(m->grads[i] * c);
    }
    lab_adamw_update(m, posenc_lab_lr_at(m, m->step));
    if (loss_out) loss_out[s] = (float)loss;
  }
}

int posenc_lab_train_steps(posenc_lab_model *m, int32_t n_steps, float *loss_out) {
  LAB_CHECK(m, POSENC_E_NULL);
  LAB_CHECK(n_steps >= 1 && n_steps <= 100000, POSENC_E_SIZE);
  train_loop(m, n_steps, m->train_len, m->B, POSENC_SCALING_NONE, 1.0, loss_out);
  return POSENC_OK;
}

int posenc_lab_adamw_step(posenc_lab_model *m) {
  LAB_CHECK(m, POSENC_E_NULL);
  lab_adamw_update(m, posenc_lab_lr_at(m, m->step));
  return POSENC_OK;
}

int posenc_lab_sequence_length(int32_t task, int32_t n, int32_t *tokens_out) {
  LAB_CHECK(tokens_out, POSENC_E_NULL);
  LAB_CHECK(task >= 0 && task <= 3, POSENC_E_KIND);
  int32_t T = lab_task_tokens(task, n);
  LAB_CHECK(T > 0, POSENC_E_SIZE);
  *tokens_out = T;
  return POSENC_OK;
}

int posenc_lab_example(const posenc_lab_model *m, int32_t n, double seed, int32_t *tokens, int32_t *targets) {
  LAB_CHECK(m && tokens && targets, POSENC_E_NULL);
  LAB_CHECK(n >= 1 && n <= m->eval_len, POSENC_E_SIZE);
  LAB_CHECK(is_seed(seed), POSENC_E_VALUE);
  lab_rng r = {(uint64_t)seed};
  lab_task_make(m->task, m->k, n, &r, tokens, targets);
  return POSENC_OK;
}

int posenc_lab_evaluate(posenc_lab_model *m, int32_t n, int32_t n_sequences, double seed, int32_t scaling,
                        double factor, double *summary, double *pos_acc, double *pos_loss) {
  LAB_CHECK(m && summary, POSENC_E_NULL);
  LAB_CHECK(n >= 1 && n <= m->eval_len, POSENC_E_SIZE);
  LAB_CHECK(n_sequences >= 1 && n_sequences <= 1000000, POSENC_E_SIZE);
  LAB_CHECK(is_seed(seed), POSENC_E_VALUE);
  int rc = check_scaling(m, scaling, factor);
  if (rc) return rc;
  int32_t T = lab_task_tokens(m->task, n);
  /* sequences per forward: as many as the activation and attention buffers hold (>= 1) */
  int32_t chunk = m->n_cap / T;
  size_t per_seq = (size_t)m->H * T * T;
  if ((size_t)chunk * per_seq > m->att_cap) chunk = (int32_t)(m->att_cap / per_seq);
  if (pos_acc) for (int32_t t = 0; t < T; t++) pos_acc[t] = 0;
  if (pos_loss) for (int32_t t = 0; t < T; t++) pos_loss[t] = 0;
  lab_rng r = {(uint64_t)seed};
  double loss = 0;
  int64_t count = 0, ok = 0, seq_ok = 0, seq_n = 0;
  for (int32_t done = 0; done < n_sequences;) {
    int32_t B = n_sequences - done < chunk ? n_sequences - done : chunk, c;
    for (int32_t b = 0; b < B; b++)
      lab_task_make(m->task, m->k, n, &r, m->tokens + (size_t)b * T, m->targets + (size_t)b * T);
    loss += lab_forward(m, m->tokens, m->targets, B, T, scaling, factor, &c) * c;
    count += c;
    for (int32_t b = 0; b < B; b++) {
      int32_t all = 1, any = 0;
      for (int32_t t = 0; t < T; t++) {
        size_t i = (size_t)b * T + t;
        if (m->targets[i] < 0) continue;
        any = 1, all &= m->row_ok[i], ok += m->row_ok[i];
        if (pos_acc) pos_acc[t] += m->row_ok[i];
        if (pos_loss) pos_loss[t] += m->row_loss[i];
      }
      seq_n += any, seq_ok += any && all;
    }
    done += B;
  }
  /* every sequence of a task at n carries loss at the same positions: the last batch's show them */
  for (int32_t t = 0; t < T; t++) {
    int has = m->targets[t] >= 0;
    if (pos_acc) pos_acc[t] = has ? pos_acc[t] / n_sequences : NAN;
    if (pos_loss) pos_loss[t] = has ? pos_loss[t] / n_sequences : NAN;
  }
  summary[0] = count ? (double)ok / count : NAN;
  summary[1] = seq_n ? (double)seq_ok / seq_n : NAN;
  summary[2] = count ? loss / count : NAN;
  return POSENC_OK;
}

static int check_tokens(const struct lab_model *m, const int32_t *tokens, const int32_t *targets, size_t n) {
  for (size_t i = 0; i < n; i++) {
    LAB_CHECK(tokens[i] >= 0 && tokens[i] < m->V, POSENC_E_VALUE);
    LAB_CHECK(!targets || (targets[i] >= -1 && targets[i] < m->V), POSENC_E_VALUE);
  }
  return POSENC_OK;
}

int posenc_lab_attention(posenc_lab_model *m, const int32_t *tokens, int32_t T, int32_t scaling,
                         double factor, float *weights) {
  LAB_CHECK(m && tokens && weights, POSENC_E_NULL);
  LAB_CHECK(T >= 1 && T <= m->t_max, POSENC_E_SIZE);
  int rc = check_scaling(m, scaling, factor);
  if (rc) return rc;
  rc = check_tokens(m, tokens, 0, (size_t)T);
  if (rc) return rc;
  for (int32_t t = 0; t < T; t++) m->targets[t] = -1;
  int32_t c;
  lab_forward(m, tokens, m->targets, 1, T, scaling, factor, &c);
  size_t per_layer = (size_t)m->H * T * T;
  for (int32_t l = 0; l < m->L; l++)
    for (size_t i = 0; i < per_layer; i++) weights[l * per_layer + i] = (float)m->act[l].att[i];
  return POSENC_OK;
}

int posenc_lab_loss_and_grad(posenc_lab_model *m, const int32_t *tokens, const int32_t *targets, int32_t B,
                             int32_t T, int32_t scaling, double factor, int32_t want_grad, double *loss_out) {
  LAB_CHECK(m && tokens && targets && loss_out, POSENC_E_NULL);
  LAB_CHECK(B >= 1 && T >= 1 && T <= m->t_max, POSENC_E_SIZE);
  LAB_CHECK((int64_t)B * T <= m->n_cap && (uint64_t)B * m->H * T * T <= m->att_cap, POSENC_E_SIZE);
  LAB_CHECK(want_grad == 0 || want_grad == 1, POSENC_E_VALUE);
  int rc = check_scaling(m, scaling, factor);
  if (rc) return rc;
  rc = check_tokens(m, tokens, targets, (size_t)B * T);
  if (rc) return rc;
  int32_t c;
  double loss = lab_forward(m, tokens, targets, B, T, scaling, factor, &c);
  if (want_grad) lab_backward(m, tokens, targets, c);
  *loss_out = loss;
  return POSENC_OK;
}

int posenc_lab_hidden(posenc_lab_model *m, const int32_t *tokens, int32_t T, float *out) {
  LAB_CHECK(m && tokens && out, POSENC_E_NULL);
  LAB_CHECK(T >= 1 && T <= m->t_max, POSENC_E_SIZE);
  int rc = check_tokens(m, tokens, 0, (size_t)T);
  if (rc) return rc;
  for (int32_t t = 0; t < T; t++) m->targets[t] = -1;
  int32_t c;
  lab_forward(m, tokens, m->targets, 1, T, POSENC_SCALING_NONE, 1.0, &c);
  size_t per = (size_t)T * m->D;
  for (int32_t l = 0; l <= m->L; l++) {
    const lab_real *x = l < m->L ? m->act[l].x : m->xf;
    for (size_t i = 0; i < per; i++) out[l * per + i] = (float)x[i];
  }
  return POSENC_OK;
}

int posenc_lab_finetune_batch(const posenc_lab_model *m, int32_t n, int32_t *batch_out) {
  LAB_CHECK(m && batch_out, POSENC_E_NULL);
  LAB_CHECK(n >= 1 && n <= m->eval_len, POSENC_E_SIZE);
  int32_t T = lab_task_tokens(m->task, n), B = m->n_cap / T;
  size_t per_seq = (size_t)m->H * T * T;
  if ((size_t)B * per_seq > m->att_cap) B = (int32_t)(m->att_cap / per_seq);
  *batch_out = B < m->B ? B : m->B;
  return POSENC_OK;
}

int posenc_lab_finetune_steps(posenc_lab_model *m, int32_t n_steps, int32_t n, int32_t scaling,
                              double factor, float *loss_out) {
  LAB_CHECK(m, POSENC_E_NULL);
  LAB_CHECK(n_steps >= 1 && n_steps <= 100000, POSENC_E_SIZE);
  LAB_CHECK(n >= lab_task_min_len(m->task, m->k), POSENC_E_SIZE);
  int32_t B;
  int rc = posenc_lab_finetune_batch(m, n, &B);
  if (rc) return rc;
  rc = check_scaling(m, scaling, factor);
  if (rc) return rc;
  train_loop(m, n_steps, n, B, scaling, factor, loss_out);
  return POSENC_OK;
}
