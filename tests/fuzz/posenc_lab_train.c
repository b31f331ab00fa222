/* posenc_lab_train_steps (with posenc_lab_adamw_step and posenc_lab_lr_at) and
 * posenc_lab_finetune_steps (with posenc_lab_finetune_batch), on a small model whose
 * hyperparameters lie anywhere in their ranges: step counts at, past and far past 1..100000,
 * fine-tuning lengths and scalings past theirs, NULL loss arrays. A valid call runs at most
 * FZL_MAX_STEPS steps (more are only checked for rejection); its losses, parameters and
 * gradients must be finite, and the learning rate must follow the schedule of lab.h. */
#include "lab_fuzz.h"

static int32_t steps_arg(fz *in) {
  uint8_t s = fz_u8(in);
  return s < 160 ? 1 + s % FZL_MAX_STEPS : s < 192 ? (s & 1 ? 100000 : 100001) : fz_size(in);
}

/* What a short run must leave: finite non-negative losses (cross-entropy), finite parameters. */
static void check_run(fz_call *c, posenc_lab_model *m, const fzl_plan *p, const float *loss, int32_t n) {
  if (!p->finite || !p->stable) return;
  for (int32_t s = 0; loss && s < n; s++) FZ_CHECK(c, isfinite(loss[s]) && loss[s] >= 0, "a loss not finite and >= 0");
  FZ_CHECK(c, fzl_finite(posenc_lab_params(m), p->n_params), "a parameter not finite after training");
  FZ_CHECK(c, fzl_finite(posenc_lab_grads(m), p->n_params), "a gradient not finite after training");
}

/* lab.h's schedule: linear warm-up over warmup_steps (min(1, (t + 1) / warmup) of lr), then lr, or the
 * cosine from lr down to 0 at total_steps (when total_steps > warmup_steps) and 0 after. */
static void check_schedule(fz_call *c, posenc_lab_model *m, const posenc_lab_config *cfg, int32_t t) {
  double got = posenc_lab_lr_at(m, t), lr = cfg->lr, w = cfg->warmup_steps, want;
  if (t < 0) {
    FZ_CHECK(c, isnan(got), "lr_at of a negative step is not NaN");
    return;
  }
  if (t < w) want = lr * fmin(1.0, (t + 1.0) / w);
  else if (cfg->schedule == POSENC_LAB_SCHEDULE_COSINE && cfg->total_steps > w)
    want = lr * 0.5 * (1.0 + cos(3.14159265358979323846 * fmin(1.0, (t - w) / (cfg->total_steps - w))));
  else want = lr;
  FZ_CHECK(c, fabs(got - want) <= 1e-15 * lr && got >= 0, "lr_at off lab.h's schedule");
}

FZ_HARNESS(posenc_lab_train_steps) {
  fz_call c = {.fn = "posenc_lab_train_steps"};
  posenc_lab_config cfg;
  fzl_plan p;
  posenc_lab_model *m = fzl_small_model(in, &cfg, &p);
  for (int round = 0; round < 2; round++) {
    int32_t n = steps_arg(in);
    int with_loss = fz_u8(in) % 4 != 0;
    int valid = n >= 1 && n <= 100000;
    if (valid && n > FZL_MAX_STEPS) continue;
    float loss[FZL_MAX_STEPS + 1];
    for (int i = 0; i <= FZL_MAX_STEPS; i++) loss[i] = -7.0f;
    fzl_state before = fzl_save(m);
    int rc = posenc_lab_train_steps(m, n, with_loss ? loss : NULL);
    FZ_CHECK(&c, (rc == POSENC_OK) == valid && rc <= 0, valid ? "a valid step count refused" : "a bad step count taken");
    if (rc != POSENC_OK) FZ_CHECK(&c, fzl_unchanged(&before, m) && loss[0] == -7.0f, "a rejected call changed the model");
    else {
      FZ_CHECK(&c, loss[n] == -7.0f, "a loss written past n_steps");
      check_run(&c, m, &p, with_loss ? loss : NULL, n);
    }
    fzl_drop(&before);
  }
  /* one more update from the last gradient, then the schedule at a few steps */
  FZ_CHECK(&c, posenc_lab_adamw_step(m) == POSENC_OK, "adamw_step failed");
  check_run(&c, m, &p, NULL, 0);
  int32_t ts[] = {0, 1, (int32_t)fmin(cfg.warmup_steps, 1e9), fz_size(in), fz_size(in), INT32_MAX, -1, INT32_MIN};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; i++) check_schedule(&c, m, &cfg, ts[i]);
  posenc_lab_free(m);
  return 0;
}

FZ_HARNESS(posenc_lab_finetune_steps) {
  fz_call c = {.fn = "posenc_lab_finetune_steps"};
  posenc_lab_config cfg;
  fzl_plan p;
  posenc_lab_model *m = fzl_small_model(in, &cfg, &p);
  int32_t n_steps = steps_arg(in), n = fz_u8(in) < 200 ? 1 + fz_u8(in) % (p.eval_len + 1) : fz_size(in);
  int32_t scaling = fzl_scaling(in);
  double factor = fzl_factor(in);
  int with_loss = fz_u8(in) % 4 != 0;

  /* the batch: at most the model's, all of it up to finetune_len, at least one sequence */
  int32_t B = -7;
  int rb = posenc_lab_finetune_batch(m, n, &B);
  int n_ok = n >= 1 && n <= p.eval_len;
  FZ_CHECK(&c, (rb == POSENC_OK) == n_ok, n_ok ? "finetune_batch refused a length" : "finetune_batch took a bad length");
  if (rb != POSENC_OK) FZ_CHECK(&c, B == -7, "a rejected finetune_batch wrote");
  else {
    FZ_CHECK(&c, B >= 1 && B <= p.B, "a fine-tuning batch outside 1..batch");
    if (n <= p.ft || n <= p.train_len) FZ_CHECK(&c, B == p.B, "a batch smaller than the model's up to finetune_len");
  }
  FZ_CHECK(&c, posenc_lab_finetune_batch(m, 1, NULL) == POSENC_E_NULL, "finetune_batch took NULL");

  int valid = n_ok && n_steps >= 1 && n_steps <= 100000 && fzl_scaling_ok(&p, scaling, factor) &&
              !(fzl_kback_min_len() && p.task == POSENC_LAB_TASK_KBACK && n < p.k);
  if (!(valid && n_steps > FZL_MAX_STEPS)) {
    float loss[FZL_MAX_STEPS + 1];
    for (int i = 0; i <= FZL_MAX_STEPS; i++) loss[i] = -7.0f;
    fzl_state before = fzl_save(m);
    int rc = posenc_lab_finetune_steps(m, n_steps, n, scaling, factor, with_loss ? loss : NULL);
    FZ_CHECK(&c, (rc == POSENC_OK) == valid && rc <= 0, valid ? "valid arguments refused" : "bad arguments taken");
    if (rc != POSENC_OK) FZ_CHECK(&c, fzl_unchanged(&before, m) && loss[0] == -7.0f, "a rejected call changed the model");
    else {
      FZ_CHECK(&c, loss[n_steps] == -7.0f, "a loss written past n_steps");
      check_run(&c, m, &p, with_loss ? loss : NULL, n_steps);
    }
    fzl_drop(&before);
  }
  posenc_lab_free(m);
  return 0;
}
