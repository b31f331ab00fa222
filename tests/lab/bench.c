/* bench.c: tokens per second of a training step of the default lab model, natively, with the
 * protocol of tests/lab/bench-wasm.mjs:
 *   fixed: one kback batch at n = train_len (32 x 16 tokens): loss_and_grad + adamw_step;
 *   train: posenc_lab_train_steps (a fresh batch of random n each step).
 * Each figure is the minimum over repeats of the mean of a run of steps. Prints one JSON line.
 *   bench [repeats] [steps]         (build: see tests/lab-model.test.js) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../c/lab/lab.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static posenc_lab_model *model;
static int32_t *tok, *tgt, B, T;

static void step_fixed(void) {
  double loss;
  if (posenc_lab_loss_and_grad(model, tok, tgt, B, T, 0, 1, 1, &loss) || posenc_lab_adamw_step(model)) exit(1);
}
static void step_train(void) {
  float loss;
  if (posenc_lab_train_steps(model, 1, &loss)) exit(1);
}

static double best(void (*fn)(void), int repeats, int steps) {
  double b = 1e30;
  fn();
  for (int r = 0; r < repeats; r++) {
    double t0 = now_ms();
    for (int s = 0; s < steps; s++) fn();
    double t = (now_ms() - t0) / steps;
    if (t < b) b = t;
  }
  return b;
}

int main(int argc, char **argv) {
  int repeats = argc > 1 ? atoi(argv[1]) : 7, steps = argc > 2 ? atoi(argv[2]) : 20;
  posenc_lab_config c;
  posenc_lab_config_default(&c);
  if (posenc_lab_create(&c, &model)) return 1;
  B = (int32_t)c.batch, T = (int32_t)c.train_len; /* kback: T = n */
  tok = malloc(sizeof(int32_t) * B * T), tgt = malloc(sizeof(int32_t) * B * T);
  for (int b = 0; b < B; b++) posenc_lab_example(model, T, b + 1, tok + b * T, tgt + b * T);
  double fixed = best(step_fixed, repeats, steps), train = best(step_train, repeats, steps);
  printf("{\"file\":\"native\",\"fixed_ms\":%.4f,\"fixed_tokens_per_s\":%.0f,\"train_ms\":%.4f}\n", fixed,
         B * T / fixed * 1000, train);
  posenc_lab_free(model);
  return 0;
}
