/* The lab's readouts of a model: posenc_lab_evaluate, posenc_lab_attention, posenc_lab_hidden,
 * posenc_lab_example (with posenc_lab_sequence_length) and posenc_lab_loss_and_grad, on a small
 * model, sometimes after a training step: lengths, counts, seeds, scalings and factors at and past
 * their limits, token and target arrays with entries out of range, NULL outputs. Every output
 * buffer has exactly the documented size (ASan sees any access past it); a rejected call writes
 * nothing and leaves the model as it was; a valid one gives finite, well-formed results. */
#include "lab_fuzz.h"

/* A model for a readout: small and valid, sometimes trained one step first. */
static posenc_lab_model *model(fz *in, posenc_lab_config *cfg, fzl_plan *p) {
  posenc_lab_model *m = fzl_small_model(in, cfg, p);
  if (fz_u8(in) & 1) {
    fz_call c = {.fn = "posenc_lab_train_steps"};
    FZ_CHECK(&c, posenc_lab_train_steps(m, 1, NULL) == POSENC_OK, "one step refused");
  }
  return m;
}

/* A length argument: mostly within 1..hi + 1, sometimes anything. */
static int32_t length_arg(fz *in, int64_t hi) {
  uint8_t s = fz_u8(in);
  return s < 216 ? (int32_t)(s % (hi + 2)) : fz_size(in);
}

static double seed_arg(fz *in) {
  static const double s[] = {0, 1, 9007199254740991.0, 9007199254740992.0, -1, 0.5, NAN, INFINITY, -0.0};
  uint8_t b = fz_u8(in);
  return b < 128 ? (double)b : b < 224 ? s[b % 9] : fz_double(in);
}

FZ_HARNESS(posenc_lab_evaluate) {
  fz_call c = {.fn = "posenc_lab_evaluate"};
  posenc_lab_config cfg;
  fzl_plan p;
  posenc_lab_model *m = model(in, &cfg, &p);
  int32_t n = length_arg(in, p.eval_len), seqs = fz_u8(in) < 224 ? fz_u8(in) % (FZL_MAX_SEQUENCES + 1) : fz_size(in);
  double seed = seed_arg(in), factor = fzl_factor(in);
  int32_t scaling = fzl_scaling(in);
  uint8_t nulls = fz_u8(in);
  int valid = n >= 1 && n <= p.eval_len && seqs >= 1 && seqs <= 1000000 && seed >= 0 &&
              seed <= 9007199254740991.0 && seed == floor(seed) && fzl_scaling_ok(&p, scaling, factor) &&
              !fz_null(nulls, 0);
  if (valid && seqs > FZL_MAX_SEQUENCES) goto done;
  int64_t T = fzl_tokens(p.task, n);
  double *summary = fz_new(&c, "summary", 3 * sizeof(double));
  double *acc = fz_new(&c, "pos_acc", (size_t)T * sizeof(double));
  double *loss = fz_new(&c, "pos_loss", (size_t)T * sizeof(double));
  fzl_state before = fzl_save(m);
  fz_snapshot(&c);
  int rc = posenc_lab_evaluate(m, n, seqs, seed, scaling, factor, fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls),
                               fz_ptr(&c, 2, nulls));
  fz_after(&c, rc, valid, 0);
  FZ_CHECK(&c, fzl_unchanged(&before, m), "evaluate changed the parameters or gradients");
  if (rc == POSENC_OK) {
    /* which positions carry loss: those of any example at n (the same for every sequence) */
    int32_t *tok = malloc(sizeof(int32_t) * (size_t)T), *tgt = malloc(sizeof(int32_t) * (size_t)T);
    if (!tok || !tgt) fz_fail(&c, "malloc failed");
    FZ_CHECK(&c, posenc_lab_example(m, n, 0, tok, tgt) == POSENC_OK, "example refused a length evaluate took");
    int any = 0;
    for (int64_t t = 0; t < T; t++) any |= tgt[t] >= 0;
    if (any) {
      FZ_CHECK(&c, summary[0] >= 0 && summary[0] <= 1 && summary[1] >= 0 && summary[1] <= 1,
               "an accuracy outside [0, 1]");
      FZ_CHECK(&c, !(p.finite && p.stable) || (isfinite(summary[2]) && summary[2] >= 0), "a mean loss not finite and >= 0");
    } else {
      FZ_CHECK(&c, isnan(summary[0]) && isnan(summary[1]) && isnan(summary[2]), "a summary without loss positions not NaN");
    }
    for (int64_t t = 0; t < T; t++) {
      if (!fz_null(nulls, 1))
        FZ_CHECK(&c, tgt[t] < 0 ? isnan(acc[t]) : acc[t] >= 0 && acc[t] <= 1, "a position's accuracy is wrong in kind");
      if (!fz_null(nulls, 2))
        FZ_CHECK(&c, tgt[t] < 0 ? isnan(loss[t]) : !(p.finite && p.stable) || (isfinite(loss[t]) && loss[t] >= 0),
                 "a position's loss is wrong in kind");
    }
    free(tok);
    free(tgt);
  }
  fzl_drop(&before);
  fz_free(&c);
done:
  posenc_lab_free(m);
  return 0;
}

/* attention (weights[L][H][T][T]) and hidden (out[L + 1][T][D]) take one sequence of tokens. */
static int sequence_readout(fz *in, int hidden) {
  fz_call c = {.fn = hidden ? "posenc_lab_hidden" : "posenc_lab_attention"};
  posenc_lab_config cfg;
  fzl_plan p;
  posenc_lab_model *m = model(in, &cfg, &p);
  int32_t T = length_arg(in, p.t_max), scaling = hidden ? 0 : fzl_scaling(in);
  double factor = hidden ? 1 : fzl_factor(in);
  uint8_t nulls = fz_u8(in);
  int t_ok = T >= 1 && T <= p.t_max, tokens_ok = 0;
  int64_t nt = t_ok ? T : 0, nout = !t_ok ? 0 : hidden ? (int64_t)(p.L + 1) * T * p.D : (int64_t)p.L * p.H * T * T;
  float *out = fz_new(&c, hidden ? "out" : "weights", (size_t)nout * sizeof(float));
  int32_t *tok = fz_new(&c, "tokens", (size_t)nt * sizeof(int32_t));
  fzl_fill_tokens(in, tok, nt, p.V, 0, &tokens_ok);
  int valid = t_ok && tokens_ok && fzl_scaling_ok(&p, scaling, factor) && !fz_any_null(nulls, 2);
  fzl_state before = fzl_save(m);
  fz_snapshot(&c);
  int rc = hidden ? posenc_lab_hidden(m, fz_ptr(&c, 1, nulls), T, fz_ptr(&c, 0, nulls))
                  : posenc_lab_attention(m, fz_ptr(&c, 1, nulls), T, scaling, factor, fz_ptr(&c, 0, nulls));
  fz_after(&c, rc, valid, 2u);
  FZ_CHECK(&c, fzl_unchanged(&before, m), "a readout changed the parameters or gradients");
  if (rc == POSENC_OK && hidden && p.finite && p.stable) {
    for (int64_t i = 0; i < nout; i++) FZ_CHECK(&c, isfinite(out[i]), "a hidden state not finite");
    /* layer 0 is the embedding (+ an added encoding): token rows of the table for none */
    if (p.enc == POSENC_LAB_ENC_NONE)
      for (int64_t t = 0; t < T; t++)
        for (int64_t d = 0; d < p.D; d++)
          FZ_CHECK(&c, out[t * p.D + d] == (float)posenc_lab_params(m)[(int64_t)tok[t] * p.D + d],
                   "layer 0 is not the token's embedding row");
  }
  if (rc == POSENC_OK && !hidden && p.finite && p.stable)
    for (int64_t lh = 0; lh < (int64_t)p.L * p.H; lh++)
      for (int64_t i = 0; i < T; i++) {
        const float *row = out + (lh * T + i) * T;
        double sum = 0;
        for (int64_t j = 0; j < T; j++) {
          FZ_CHECK(&c, row[j] >= 0 && row[j] <= 1, "a weight outside [0, 1] (or NaN)");
          if (j > i) FZ_CHECK(&c, row[j] == 0, "a weight above the diagonal");
          sum += row[j];
        }
        FZ_CHECK(&c, fabs(sum - 1) <= 1e-5, "a weight row does not sum to 1");
      }
  fzl_drop(&before);
  fz_free(&c);
  posenc_lab_free(m);
  return 0;
}

FZ_HARNESS(posenc_lab_attention) { return sequence_readout(in, 0); }
FZ_HARNESS(posenc_lab_hidden) { return sequence_readout(in, 1); }

FZ_HARNESS(posenc_lab_example) {
  fz_call c = {.fn = "posenc_lab_example"};
  posenc_lab_config cfg;
  fzl_plan p;
  posenc_lab_model *m = fzl_small_model(in, &cfg, &p);
  /* sequence_length: any task and n */
  int32_t task = fz_small_int(in, -1, 4), sn = fz_u8(in) < 200 ? fz_small_int(in, -1, 1025) : fz_size(in), T = -7;
  int64_t want = task >= 0 && task <= 3 ? fzl_tokens(task, sn) : 0;
  int to_null = fz_u8(in) % 8 == 0;
  int rs = posenc_lab_sequence_length(task, sn, to_null ? NULL : &T);
  if (to_null) FZ_CHECK(&c, rs < 0, "sequence_length took a NULL output");
  else if (want > 0) FZ_CHECK(&c, rs == POSENC_OK && T == want, "sequence_length is not lab.h's T");
  else FZ_CHECK(&c, rs < 0 && T == -7, "sequence_length took a bad task or length, or wrote when it refused");

  int32_t n = length_arg(in, p.eval_len);
  double seed = seed_arg(in);
  uint8_t nulls = fz_u8(in);
  int n_ok = n >= 1 && n <= p.eval_len;
  int64_t nt = n_ok ? fzl_tokens(p.task, n) : 0;
  int32_t *tok = fz_new(&c, "tokens", (size_t)nt * sizeof(int32_t)), *tgt = fz_new(&c, "targets", (size_t)nt * sizeof(int32_t));
  int valid = n_ok && seed >= 0 && seed <= 9007199254740991.0 && seed == floor(seed) && !fz_any_null(nulls, 2);
  fz_snapshot(&c);
  int rc = posenc_lab_example(m, n, seed, fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls));
  fz_after(&c, rc, valid, 0);
  if (rc == POSENC_OK) {
    int loss = 0;
    for (int64_t t = 0; t < nt; t++) {
      FZ_CHECK(&c, tok[t] >= 0 && tok[t] < 18, "a token outside the task's 18 symbols");
      FZ_CHECK(&c, tgt[t] >= -1 && tgt[t] < 18, "a target outside -1..17");
      loss += tgt[t] >= 0;
      if (t + 1 < nt && tgt[t] >= 0 && p.task != POSENC_LAB_TASK_KBACK && p.task != POSENC_LAB_TASK_RECALL)
        FZ_CHECK(&c, tgt[t] == tok[t + 1], "copy / reverse: a target is not the next token");
    }
    int64_t want_loss = p.task == POSENC_LAB_TASK_KBACK ? (n >= p.k ? n - p.k + 1 : 0) : p.task == POSENC_LAB_TASK_RECALL ? 1 : n;
    FZ_CHECK(&c, loss == want_loss, "not lab.h's count of loss positions");
  }
  fz_free(&c);
  posenc_lab_free(m);
  return 0;
}

/* loss_and_grad: tokens and targets [B][T] within the model's buffers (lab.h: B T tokens and
 * B H T^2 weights, restated in fzl_plan as n_cap and att_cap). */
FZ_HARNESS(posenc_lab_loss_and_grad) {
  fz_call c = {.fn = "posenc_lab_loss_and_grad"};
  posenc_lab_config cfg;
  fzl_plan p;
  posenc_lab_model *m = model(in, &cfg, &p);
  int32_t B = length_arg(in, p.B + 1), T = length_arg(in, p.t_max), scaling = fzl_scaling(in);
  int32_t want_grad = fz_small_int(in, 0, 2);
  double factor = fzl_factor(in);
  uint8_t nulls = fz_u8(in);
  int shape = B >= 1 && T >= 1 && T <= p.t_max && (int64_t)B * T <= p.n_cap && (int64_t)B * p.H * T * T <= p.att_cap;
  int64_t nt = shape ? (int64_t)B * T : 0;
  int32_t *tok = fz_new(&c, "tokens", (size_t)nt * sizeof(int32_t)), *tgt = fz_new(&c, "targets", (size_t)nt * sizeof(int32_t));
  double *loss = fz_new(&c, "loss_out", sizeof(double));
  int tok_ok, tgt_ok;
  fzl_fill_tokens(in, tok, nt, p.V, 0, &tok_ok);
  fzl_fill_tokens(in, tgt, nt, p.V, 1, &tgt_ok);
  int valid = shape && tok_ok && tgt_ok && (want_grad == 0 || want_grad == 1) && fzl_scaling_ok(&p, scaling, factor) &&
              !fz_any_null(nulls, 3);
  fzl_state before = fzl_save(m);
  fz_snapshot(&c);
  int rc = posenc_lab_loss_and_grad(m, fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), B, T, scaling, factor, want_grad,
                                    fz_ptr(&c, 2, nulls));
  fz_after(&c, rc, valid, 1u | 2u);
  if (rc != POSENC_OK || !want_grad) FZ_CHECK(&c, fzl_unchanged(&before, m), "the model changed without a gradient asked");
  if (rc == POSENC_OK)
    FZ_CHECK(&c, !memcmp(before.params, posenc_lab_params(m), sizeof(lab_real) * (size_t)p.n_params), "the parameters changed");
  if (rc == POSENC_OK && p.finite && p.stable) {
    FZ_CHECK(&c, isfinite(*loss) && *loss >= 0, "a loss not finite and >= 0");
    FZ_CHECK(&c, fzl_finite(posenc_lab_grads(m), p.n_params), "a gradient not finite");
  }
  fzl_drop(&before);
  fz_free(&c);
  posenc_lab_free(m);
  return 0;
}
