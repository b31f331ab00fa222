/* gradcheck.c: checks of the lab model in float64 (build with -DLAB_F64; see tests/lab-model.test.js):
 *  1. every parameter group's analytic gradient against central finite differences, for every
 *     encoding, on a tiny model (d_model 8, 2 heads, 2 layers, batch 2, 6 tokens): relative L2
 *     error |g - g_fd| / max(|g|, |g_fd|) <= 1e-6 per group;
 *  2. AdamW (decay mask, bias correction) and the schedule against a float64 reference here;
 *  3. determinism: two models of one seed give the same bits after 20 steps, run interleaved;
 *     gradient clipping;
 *  4. a tiny model's loss halves within 300 steps; every step trains on the batch an independent
 *     splitmix64 reproduction of the data stream draws, at a length that carries loss;
 *  5. T5 buckets against a transcription of HF's formula over relative positions -300..300;
 *  6. xPos factors, ALiBi slopes (c/alibi.c), and RoPE scaling frequencies (c/scaling.c); shift
 *     invariance of the relative encodings' attention; the evaluation and attention readouts;
 *  7. bad arguments: a negative status and nothing written.
 * Prints one line per check and exits 1 when any fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../c/lab/lab.h"

#ifndef LAB_F64
#error "gradcheck needs the float64 build: -DLAB_F64"
#endif

static int failures = 0, checks = 0;

static void report(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void report(int ok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("%s ", ok ? "ok  " : "FAIL");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  checks++;
  failures += !ok;
}

static uint64_t rs = 12345;
static double urand(void) { /* xorshift64*, for test data only */
  rs ^= rs >> 12, rs ^= rs << 25, rs ^= rs >> 27;
  return (double)((rs * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}
static double nrand(void) { return sqrt(-2 * log(1 - urand())) * cos(6.283185307179586 * urand()); }

static posenc_lab_config tiny(int enc, int style) {
  posenc_lab_config c;
  posenc_lab_config_default(&c);
  c.seed = 7, c.encoding = enc, c.rope_style = style;
  c.d_model = 8, c.n_heads = 2, c.n_layers = 2, c.d_ff = 0;
  c.train_len = 6, c.max_eval_len = 6, c.batch = 2, c.max_positions = 8;
  c.xpos_scale_base = 8; /* far from 1, so that xPos's factors matter in the check */
  return c;
}

/* ---- 1. gradients ---- */
static void check_gradients(const char *label, int enc, int style, int scaling, double factor) {
  posenc_lab_config c = tiny(enc, style);
  posenc_lab_model *m;
  if (posenc_lab_create(&c, &m)) {
    report(0, "grad %s: create", label);
    return;
  }
  int32_t np = posenc_lab_n_params(m), B = 2, T = 6;
  double *p = posenc_lab_params(m), *g = posenc_lab_grads(m);
  for (int32_t i = 0; i < np; i++) p[i] += 0.1 * nrand(); /* LN gains off 1, biases off 0 */
  int32_t tok[12], tgt[12];
  for (int i = 0; i < B * T; i++) tok[i] = (int32_t)(urand() * 18), tgt[i] = (int32_t)(urand() * 18);
  tgt[0] = -1, tgt[7] = -1; /* positions without loss */
  double loss, lp, lm;
  posenc_lab_loss_and_grad(m, tok, tgt, B, T, scaling, factor, 1, &loss);
  double *ga = malloc(sizeof(double) * np);
  memcpy(ga, g, sizeof(double) * np);
  int32_t ng = posenc_lab_n_groups(m);
  for (int32_t k = 0; k < ng; k++) {
    const char *name;
    int32_t off, size, dec;
    posenc_lab_group(m, k, &name, &off, &size, &dec);
    double e2 = 0, a2 = 0, f2 = 0, emax = 0;
    for (int32_t i = off; i < off + size; i++) {
      double keep = p[i], h = 1e-5;
      p[i] = keep + h;
      posenc_lab_loss_and_grad(m, tok, tgt, B, T, scaling, factor, 0, &lp);
      p[i] = keep - h;
      posenc_lab_loss_and_grad(m, tok, tgt, B, T, scaling, factor, 0, &lm);
      p[i] = keep;
      double fd = (lp - lm) / (2 * h), d = ga[i] - fd;
      e2 += d * d, a2 += ga[i] * ga[i], f2 += fd * fd;
      if (fabs(d) > emax) emax = fabs(d);
    }
    double scale = fmax(sqrt(a2), sqrt(f2)), rel = scale > 0 ? sqrt(e2) / scale : 0;
    report(rel <= 1e-6 && scale > 0, "grad %-14s %-8s n=%-4d |g|=%.3e rel=%.2e maxabs=%.2e", label, name,
           (int)size, sqrt(a2), rel, emax);
  }
  free(ga);
  posenc_lab_free(m);
}

/* ---- 2. AdamW ---- */
static void check_adamw(void) {
  posenc_lab_config c = tiny(POSENC_LAB_ENC_T5, 0);
  c.lr = 0.01, c.warmup_steps = 2, c.weight_decay = 0.1, c.beta1 = 0.8, c.beta2 = 0.95, c.eps = 1e-6;
  posenc_lab_model *m;
  posenc_lab_create(&c, &m);
  int32_t np = posenc_lab_n_params(m), ng = posenc_lab_n_groups(m);
  double *p = posenc_lab_params(m), *g = posenc_lab_grads(m);
  double *rp = malloc(sizeof(double) * np), *rm = calloc(np, sizeof(double)), *rv = calloc(np, sizeof(double));
  char *decay = malloc(np);
  for (int32_t k = 0; k < ng; k++) {
    const char *name;
    int32_t off, size, dec;
    posenc_lab_group(m, k, &name, &off, &size, &dec);
    memset(decay + off, dec, size);
  }
  memcpy(rp, p, sizeof(double) * np);
  double worst = 0;
  for (int t = 1; t <= 4; t++) {
    for (int32_t i = 0; i < np; i++) g[i] = nrand() * (i % 7 == 0 ? 1e-3 : 1.0);
    double lr = 0.01 * (t <= 2 ? t / 2.0 : 1.0); /* warm-up over 2 steps */
    for (int32_t i = 0; i < np; i++) {
      rm[i] = 0.8 * rm[i] + 0.2 * g[i];
      rv[i] = 0.95 * rv[i] + 0.05 * g[i] * g[i];
      double mhat = rm[i] / (1 - pow(0.8, t)), vhat = rv[i] / (1 - pow(0.95, t));
      rp[i] = rp[i] - lr * (decay[i] ? 0.1 : 0.0) * rp[i] - lr * mhat / (sqrt(vhat) + 1e-6);
    }
    posenc_lab_adamw_step(m);
    for (int32_t i = 0; i < np; i++) {
      double e = fabs(p[i] - rp[i]) / fmax(fabs(rp[i]), 1e-3);
      if (e > worst) worst = e;
    }
  }
  report(worst <= 1e-12, "adamw: 4 steps against the float64 reference, worst rel error %.2e (<= 1e-12)", worst);
  posenc_lab_free(m);
  c.schedule = POSENC_LAB_SCHEDULE_COSINE, c.warmup_steps = 10, c.total_steps = 110, c.lr = 1.0;
  posenc_lab_create(&c, &m);
  double a = posenc_lab_lr_at(m, 0), b = posenc_lab_lr_at(m, 9), mid = posenc_lab_lr_at(m, 60),
         end = posenc_lab_lr_at(m, 110);
  report(fabs(a - 0.1) < 1e-15 && fabs(b - 1) < 1e-15 && fabs(mid - 0.5) < 1e-12 && fabs(end) < 1e-15,
         "schedule: warm-up 0.1 -> 1, cosine 0.5 at mid, 0 at the end (%g %g %g %g)", a, b, mid, end);
  posenc_lab_free(m);
  free(rp), free(rm), free(rv), free(decay);
}

/* ---- 3. determinism, 4. learning ---- */
static void check_determinism(void) {
  posenc_lab_config c = tiny(POSENC_LAB_ENC_ROPE, 1);
  c.seed = 99;
  posenc_lab_model *a, *b, *d;
  posenc_lab_create(&c, &a);
  posenc_lab_create(&c, &b);
  c.seed = 100;
  posenc_lab_create(&c, &d);
  float la[20], lb[20];
  for (int s = 0; s < 20; s++) posenc_lab_train_steps(a, 1, la + s), posenc_lab_train_steps(b, 1, lb + s);
  posenc_lab_train_steps(d, 20, 0);
  size_t bytes = sizeof(double) * posenc_lab_n_params(a);
  int same = !memcmp(posenc_lab_params(a), posenc_lab_params(b), bytes) && !memcmp(la, lb, sizeof la);
  int differ = memcmp(posenc_lab_params(a), posenc_lab_params(d), bytes) != 0;
  report(same && differ, "determinism: one seed, same bits after 20 interleaved steps; another seed differs");
  posenc_lab_free(a), posenc_lab_free(b), posenc_lab_free(d);
}

/* Clipping: a bound above the gradient norm changes no bit; a bound of 1e-12 scales the gradient
 * down to where AdamW's eps dominates, so the first step moves the weights far less. */
static double first_step_move(double clip, const double **params_out, posenc_lab_model **keep) {
  posenc_lab_config c = tiny(POSENC_LAB_ENC_ROPE, 1);
  c.clip_norm = clip, c.weight_decay = 0, c.warmup_steps = 0;
  posenc_lab_model *m;
  posenc_lab_create(&c, &m);
  int32_t np = posenc_lab_n_params(m);
  double *p = posenc_lab_params(m), *p0 = malloc(sizeof(double) * np), move = 0;
  memcpy(p0, p, sizeof(double) * np);
  posenc_lab_train_steps(m, 1, 0);
  for (int32_t i = 0; i < np; i++) move += fabs(p[i] - p0[i]);
  free(p0);
  *params_out = p, *keep = m;
  return move;
}

static void check_clipping(void) {
  const double *a, *b, *c;
  posenc_lab_model *ma, *mb, *mc;
  double none = first_step_move(0, &a, &ma), loose = first_step_move(1e6, &b, &mb), tight = first_step_move(1e-12, &c, &mc);
  int same = !memcmp(a, b, sizeof(double) * posenc_lab_n_params(ma));
  report(same && loose == none && tight < none / 100,
         "clipping: a loose bound changes no bit; clip 1e-12 moves the weights %.2e in all vs %.2e", tight, none);
  posenc_lab_free(ma), posenc_lab_free(mb), posenc_lab_free(mc);
}

static void check_learning(void) {
  posenc_lab_config c;
  posenc_lab_config_default(&c);
  c.seed = 1, c.d_model = 16, c.n_heads = 2, c.batch = 16, c.train_len = 8, c.max_eval_len = 8;
  c.encoding = POSENC_LAB_ENC_ROPE, c.warmup_steps = 20;
  posenc_lab_model *m;
  posenc_lab_create(&c, &m);
  float loss[300];
  posenc_lab_train_steps(m, 300, loss);
  double first = 0, last = 0;
  for (int i = 0; i < 10; i++) first += loss[i] / 10, last += loss[290 + i] / 10;
  report(last <= first / 2, "learning: kback, rope, d_model 16: loss %.3f (first 10 steps) -> %.3f (last 10 of 300), needs <= half",
         first, last);
  posenc_lab_free(m);
}

/* ---- 4b. the training draws, reproduced: splitmix64 (Steele, Lea, Flood), the seed's second
 * output seeding the data stream; below(n) = ((next >> 32) * n) >> 32. Each step's length is
 * uniform over the lengths that carry loss (kback: k..len), then the batch's symbols follow. ---- */
static uint64_t sm_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static int32_t sm_below(uint64_t *s, int32_t n) { return (int32_t)(((sm_next(s) >> 32) * (uint64_t)n) >> 32); }

/* kback batches of B sequences at a length drawn from k..len; returns n. */
static int32_t kback_batch(uint64_t *s, int32_t k, int32_t len, int32_t B, int32_t *tok, int32_t *tgt) {
  int32_t n = k + sm_below(s, len - k + 1);
  for (int32_t b = 0; b < B; b++)
    for (int32_t i = 0; i < n; i++) tok[b * n + i] = sm_below(s, 16);
  for (int32_t b = 0; b < B; b++)
    for (int32_t i = 0; i < n; i++) tgt[b * n + i] = i >= k - 1 ? tok[b * n + i + 1 - k] : -1;
  return n;
}

static void check_training_draws(void) {
  int ok = 1, seen_lo = 1, seen_hi = 1, k_checked = 0;
  for (int32_t k = 1; k <= 5; k += 2) {
    posenc_lab_config c = tiny(POSENC_LAB_ENC_ROPE, 1);
    c.task_k = k, c.seed = 40 + k;
    posenc_lab_model *m;
    if (posenc_lab_create(&c, &m)) {
      report(0, "training draws: create at k %d", k);
      return;
    }
    uint64_t master = (uint64_t)c.seed, data;
    sm_next(&master), data = sm_next(&master);
    int32_t tok[2 * 6], tgt[2 * 6], lo = 99, hi = 0;
    for (int step = 0; step < 40; step++) {
      /* steps 30.. fine-tune at length 5: the same draw with 5 in place of train_len */
      int32_t len = step < 30 ? 6 : 5, B;
      posenc_lab_finetune_batch(m, len, &B);
      int32_t n = kback_batch(&data, k, len, B, tok, tgt);
      double want;
      float got = -1;
      posenc_lab_loss_and_grad(m, tok, tgt, B, n, 0, 1, 0, &want);
      if (step < 30) posenc_lab_train_steps(m, 1, &got);
      else posenc_lab_finetune_steps(m, 1, len, 0, 1, &got);
      ok = ok && got == (float)want && got > 0;
      if (step < 30) lo = n < lo ? n : lo, hi = n > hi ? n : hi;
    }
    seen_lo = seen_lo && lo == k, seen_hi = seen_hi && hi == 6;
    k_checked++;
    posenc_lab_free(m);
  }
  report(ok && seen_lo && seen_hi && k_checked == 3,
         "training draws: 40 steps each at k 1, 3, 5 (30 training at train_len 6, 10 fine-tuning at 5) train on the "
         "reproduced batches (%s), lengths k..6 from k (%s) to 6 (%s)",
         ok ? "yes" : "NO", seen_lo ? "yes" : "NO", seen_hi ? "yes" : "NO");
}

/* ---- 5. T5 buckets: HF's _relative_position_bucket, line by line, in float64 ---- */
static int hf_bucket(int relative_position, int bidirectional, int num_buckets, int max_distance) {
  int relative_buckets = 0;
  if (bidirectional) {
    num_buckets /= 2;
    relative_buckets += (relative_position > 0) * num_buckets;
    relative_position = abs(relative_position);
  } else {
    relative_position = -(relative_position < 0 ? relative_position : 0);
  }
  int max_exact = num_buckets / 2;
  int is_small = relative_position < max_exact;
  double large_f = log((double)relative_position / max_exact) / log((double)max_distance / max_exact) *
                   (num_buckets - max_exact);
  long large = max_exact + (long)large_f; /* .to(torch.long) truncates */
  if (large > num_buckets - 1) large = num_buckets - 1;
  return relative_buckets + (is_small ? relative_position : (int)large);
}

/* posenc_t5_bucket (c/relative.c, the rule the lab's T5 bias uses) for one relative position */
static int t5_bucket(int32_t rel, int32_t bidirectional, int32_t num_buckets, int32_t max_distance) {
  int32_t out = -1;
  return posenc_t5_bucket(&out, &rel, 1, bidirectional, num_buckets, max_distance) == POSENC_OK ? out : -1;
}

static void check_t5(void) {
  int bad = 0, near = 0;
  for (int bi = 0; bi <= 1; bi++)
    for (int r = -300; r <= 300; r++) {
      int want = hf_bucket(r, bi, 32, 128), got = t5_bucket(r, bi, 32, 128);
      bad += want != got;
      int n = bi ? 16 : 32, me = n / 2, a = bi ? abs(r) : (r < 0 ? -r : 0);
      if (a >= me) { /* distances whose bucket before truncation lies within 1e-9 of a positive integer: exact in
                    * float64 here, but a float32 log (torch) may land either side */
        double f = log((double)a / me) / log(128.0 / me) * (n - me);
        if (f > 0.5 && fabs(f - nearbyint(f)) < 1e-9 && me + nearbyint(f) <= n - 1) near++, printf("     t5 near-tie: bidirectional=%d rel=%d f=%.17g\n", bi, r, f);
      }
    }
  /* hand values (unidirectional): j > i -> 0; distances 0..15 exact; 16 -> 16; 128 and past -> 31 */
  int hand = t5_bucket(5, 0, 32, 128) == 0 && t5_bucket(-15, 0, 32, 128) == 15 &&
             t5_bucket(-16, 0, 32, 128) == 16 && t5_bucket(-128, 0, 32, 128) == 31 &&
             t5_bucket(-300, 0, 32, 128) == 31 && t5_bucket(3, 1, 32, 128) == 19 &&
             t5_bucket(-3, 1, 32, 128) == 3;
  report(!bad && hand, "t5 buckets: %d of 1202 differ from the transcription (-300..300, both directions); hand values %s; %d near-ties",
         bad, hand ? "right" : "WRONG", near);
}

/* ---- 6. xPos, ALiBi, scaling ---- */
int posenc_rope_scaled_freq(double *inv_out, double *attn_out, int32_t rotary_dim, double base,
                            const posenc_rope_scaling *s, const double *short_factor, const double *long_factor);

static void check_encodings(void) {
  double worst = 0;
  for (int hd = 2; hd <= 16; hd += 2)
    for (int i = 0; i < hd / 2; i++)
      for (int p = 0; p < 40; p += 3) {
        double zeta = (2.0 * i + 0.4 * hd) / (1.4 * hd), c = 20, want = exp((p - c) / 512.0 * log(zeta));
        double centred = p - c, row[8] = {0};
        posenc_xpos_scale(row, &centred, 1, hd, 512); /* c/relative.c: the lab's xPos factors */
        double got = row[i];
        double e = fabs(got - want) / want;
        if (e > worst) worst = e;
      }
  report(worst < 1e-14, "xpos: zeta_i^((p - c)/512) against exp(log form), worst rel %.1e", worst);

  double s4[4], s8[8], want4[4] = {0.25, 0.0625, 0.015625, 0.00390625}, ok = 1;
  posenc_alibi_slopes(s4, 4); /* c/alibi.c: the lab's slopes */
  posenc_alibi_slopes(s8, 8);
  for (int h = 0; h < 4; h++) ok = ok && s4[h] == want4[h];
  for (int h = 0; h < 8; h++) ok = ok && s8[h] == ldexp(1.0, -(h + 1));
  report(ok, "alibi slopes (c/alibi.c's, which the lab uses): 2^(-8h/H) for H = 4, 8");

  double wmax = 0;
  int kinds[3] = {POSENC_SCALING_LINEAR, POSENC_SCALING_NTK, POSENC_SCALING_YARN};
  for (int k = 0; k < 3; k++)
    for (int hd = 4; hd <= 64; hd *= 2)
      for (double s = 1; s <= 16; s *= 2)
        for (double l0 = 16; l0 <= 4096; l0 *= 4) {
          posenc_rope_scaling sc = {kinds[k], s, l0, 0, 0, 32, 1, NAN, 0, 0, 1, 0, 0, 0};
          double a[32], b[32], fa, fb;
          posenc_lab_rope_freqs(a, &fa, hd, 10000, kinds[k], s, l0);
          posenc_rope_scaled_freq(b, &fb, hd, 10000, &sc, 0, 0);
          for (int i = 0; i < hd / 2; i++) wmax = fmax(wmax, fabs(a[i] - b[i]) / b[i]);
          wmax = fmax(wmax, fabs(fa - fb));
        }
  report(wmax < 1e-15, "rope scaling: linear, ntk, yarn frequencies and factors against posenc_rope_scaled_freq, worst %.1e", wmax);
}

/* Relative encodings: in layer 0 of a sequence of one repeated token, w[i][j] / w[i][i] depends
 * on i - j only (a shift by s leaves it alone); absolute encodings must break this. */
static double shift_error(int enc, int style) {
  posenc_lab_config c = tiny(enc, style);
  c.max_eval_len = 12, c.max_positions = 16;
  posenc_lab_model *m;
  posenc_lab_create(&c, &m);
  int32_t tok[12];
  for (int i = 0; i < 12; i++) tok[i] = 5;
  float w[2 * 2 * 12 * 12];
  posenc_lab_attention(m, tok, 12, 0, 1, w);
  double worst = 0;
  for (int h = 0; h < 2; h++)
    for (int i = 0; i < 6; i++)
      for (int j = 0; j <= i; j++)
        for (int s = 1; s <= 5; s++) {
          const float *a = w + h * 144, *b = a;
          double r0 = (double)a[i * 12 + j] / a[i * 12 + i], r1 = (double)b[(i + s) * 12 + j + s] / b[(i + s) * 12 + i + s];
          worst = fmax(worst, fabs(r0 - r1) / r0);
        }
  posenc_lab_free(m);
  return worst;
}

static void check_relative(void) {
  double e[6] = {shift_error(POSENC_LAB_ENC_ROPE, 0), shift_error(POSENC_LAB_ENC_ROPE, 1),
                 shift_error(POSENC_LAB_ENC_XPOS, 0), shift_error(POSENC_LAB_ENC_XPOS, 1),
                 shift_error(POSENC_LAB_ENC_ALIBI, 0), shift_error(POSENC_LAB_ENC_T5, 0)};
  double worst = 0;
  for (int i = 0; i < 6; i++) worst = fmax(worst, e[i]);
  double learned = shift_error(POSENC_LAB_ENC_LEARNED, 0), sinus = shift_error(POSENC_LAB_ENC_SINUSOIDAL, 0);
  report(worst < 1e-5 && learned > 1e-2 && sinus > 1e-2,
         "shift invariance of layer-0 attention: rope, xpos, alibi, t5 worst rel %.1e (< 1e-5); learned %.2f and sinusoidal %.2f break it (> 0.01)",
         worst, learned, sinus);
}

/* Evaluation's per-position figures agree with its summary; the attention readout's rows are
 * distributions over the keys j <= i. */
static void check_readouts(void) {
  posenc_lab_config c = tiny(POSENC_LAB_ENC_ALIBI, 0);
  c.task = POSENC_LAB_TASK_COPY, c.max_eval_len = 5;
  posenc_lab_model *m;
  posenc_lab_create(&c, &m);
  posenc_lab_train_steps(m, 30, 0);
  int32_t T;
  posenc_lab_sequence_length(POSENC_LAB_TASK_COPY, 5, &T); /* 11 */
  double s[3], acc[11], loss[11], sa = 0, sl = 0;
  posenc_lab_evaluate(m, 5, 37, 3, 0, 1, s, acc, loss);
  int nan_ok = 1, counted = 0;
  for (int t = 0; t < T; t++) {
    int carries = t >= 6 && t <= 10; /* SEP at 6 predicts x1 ... position 10 predicts x5 */
    nan_ok = nan_ok && (carries ? !isnan(acc[t]) && !isnan(loss[t]) : isnan(acc[t]) && isnan(loss[t]));
    if (carries) sa += acc[t], sl += loss[t], counted++;
  }
  int agree = counted == 5 && fabs(sa / 5 - s[0]) < 1e-12 && fabs(sl / 5 - s[2]) < 1e-12;
  int32_t tok[11], tgt[11];
  posenc_lab_example(m, 5, 9, tok, tgt);
  float w[2 * 2 * 11 * 11];
  posenc_lab_attention(m, tok, 11, 0, 1, w);
  double worst = 0;
  int upper_zero = 1;
  for (int lh = 0; lh < 4; lh++)
    for (int i = 0; i < 11; i++) {
      double sum = 0;
      for (int j = 0; j < 11; j++) {
        float v = w[(lh * 11 + i) * 11 + j];
        if (j > i) upper_zero = upper_zero && v == 0;
        else sum += v;
      }
      worst = fmax(worst, fabs(sum - 1));
    }
  report(nan_ok && agree && upper_zero && worst < 1e-6 && tok[0] == POSENC_LAB_BOS && tok[6] == POSENC_LAB_SEP,
         "readouts: per-position accuracy and loss average to the summary (NaN off the loss positions); attention rows sum to 1 (worst %.1e), zero above the diagonal",
         worst);
  posenc_lab_free(m);
}

/* ---- 7. bad arguments ---- */
static void check_bad_args(void) {
  posenc_lab_config c = tiny(POSENC_LAB_ENC_ROPE, 0), b;
  posenc_lab_model *m = (posenc_lab_model *)&c, *sentinel = m;
  int rcs = 0;
  b = c, b.d_model = 9, rcs += posenc_lab_create(&b, &m) < 0;        /* not divisible by heads */
  b = c, b.d_model = 6, rcs += posenc_lab_create(&b, &m) < 0;        /* head_dim 3: odd for rope */
  b = c, b.encoding = 7, rcs += posenc_lab_create(&b, &m) < 0;
  b = c, b.seed = 1.5, rcs += posenc_lab_create(&b, &m) < 0;
  b = c, b.lr = NAN, rcs += posenc_lab_create(&b, &m) < 0;
  b = c, b.encoding = POSENC_LAB_ENC_LEARNED, b.max_positions = 5, rcs += posenc_lab_create(&b, &m) < 0;
  b = c, b.n_layers = 9, rcs += posenc_lab_create(&b, &m) < 0;
  rcs += posenc_lab_create(0, &m) == POSENC_E_NULL;
  int untouched = m == sentinel;
  posenc_lab_create(&c, &m);
  double summary[3] = {-7, -7, -7};
  rcs += posenc_lab_evaluate(m, 7, 4, 1, 0, 1, summary, 0, 0) == POSENC_E_SIZE; /* past max_eval_len */
  rcs += posenc_lab_evaluate(m, 3, 4, 1, POSENC_SCALING_YARN, 0.5, summary, 0, 0) == POSENC_E_VALUE;
  rcs += posenc_lab_evaluate(m, 3, 4, 1, 3, 2, summary, 0, 0) == POSENC_E_KIND; /* dynamic: not offered */
  int32_t tok[6] = {0, 1, 2, 18, 0, 0}, tgt[6] = {-1, -1, -1, -1, -1, -1};
  double loss = -7;
  rcs += posenc_lab_loss_and_grad(m, tok, tgt, 1, 6, 0, 1, 1, &loss) == POSENC_E_VALUE; /* token 18 */
  rcs += posenc_lab_train_steps(m, 0, 0) == POSENC_E_SIZE;
  float step_loss = -7;
  rcs += posenc_lab_finetune_steps(m, 1, 2, 0, 1, &step_loss) == POSENC_E_SIZE; /* kback k 3 at length 2 */
  posenc_lab_model *m2 = sentinel;
  b = c, b.task_k = 7, rcs += posenc_lab_create(&b, &m2) == POSENC_E_VALUE;     /* k past train_len 6 */
  untouched = untouched && m2 == sentinel && step_loss == -7 && summary[0] == -7 && summary[2] == -7 && loss == -7;
  report(rcs == 15 && untouched, "bad arguments: %d of 15 refused, outputs untouched: %s", rcs, untouched ? "yes" : "NO");
  posenc_lab_free(m);
}

int main(void) {
  struct {
    const char *label;
    int enc, style, scaling;
    double factor;
  } encs[] = {{"none", POSENC_LAB_ENC_NONE, 0, 0, 1},           {"learned", POSENC_LAB_ENC_LEARNED, 0, 0, 1},
              {"sinusoidal", POSENC_LAB_ENC_SINUSOIDAL, 0, 0, 1}, {"rope-interl", POSENC_LAB_ENC_ROPE, 0, 0, 1},
              {"rope-half", POSENC_LAB_ENC_ROPE, 1, 0, 1},        {"alibi", POSENC_LAB_ENC_ALIBI, 0, 0, 1},
              {"t5", POSENC_LAB_ENC_T5, 0, 0, 1},                 {"xpos-interl", POSENC_LAB_ENC_XPOS, 0, 0, 1},
              {"xpos-half", POSENC_LAB_ENC_XPOS, 1, 0, 1},
              /* the fine-tuning passes: scaled tables (YaRN's cos and sin carry its factor) */
              {"rope-yarn", POSENC_LAB_ENC_ROPE, 1, POSENC_SCALING_YARN, 3},
              {"rope-pi", POSENC_LAB_ENC_ROPE, 0, POSENC_SCALING_LINEAR, 2},
              {"xpos-ntk", POSENC_LAB_ENC_XPOS, 1, POSENC_SCALING_NTK, 4}};
  for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++)
    check_gradients(encs[i].label, encs[i].enc, encs[i].style, encs[i].scaling, encs[i].factor);
  check_adamw();
  check_determinism();
  check_clipping();
  check_t5();
  check_encodings();
  check_relative();
  check_readouts();
  check_bad_args();
  check_learning();
  check_training_draws();
  printf("gradcheck: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
