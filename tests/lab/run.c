/* run.c: trains one lab model natively and prints one JSON line: the loss of the first steps,
 * the final loss, a hash of the parameters' bits, seconds, and the evaluation at multiples of
 * the training length. Used by tests/lab-model.test.js (float32 against float64, determinism)
 * and for the training tables.
 *   run [task] [encoding] [steps] [seed] [multiples, e.g. 1,2,4,8] [sequences] [scaling] [factor]
 * task: kback copy reverse recall; encoding: none learned sinusoidal rope rope-interleaved alibi
 * t5 xpos; scaling: none pi ntk yarn (factor 0 = the multiple). Defaults: kback rope 400 1
 * 1,2,4,8 256 none 0. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../c/lab/lab.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int lookup(const char *s, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (!strcmp(s, names[i])) return i;
  fprintf(stderr, "run: unknown name %s\n", s);
  exit(2);
}

int main(int argc, char **argv) {
  static const char *const tasks[] = {"kback", "copy", "reverse", "recall"};
  static const char *const encs[] = {"none", "learned", "sinusoidal", "rope", "alibi", "t5", "xpos", "rope-interleaved"};
  static const char *const scalings[] = {"none", "pi", "ntk", "dynamic", "yarn"};
  const char *task = argc > 1 ? argv[1] : "kback", *enc = argc > 2 ? argv[2] : "rope";
  int steps = argc > 3 ? atoi(argv[3]) : 400;
  double seed = argc > 4 ? atof(argv[4]) : 1;
  const char *mults = argc > 5 ? argv[5] : "1,2,4,8";
  int nseq = argc > 6 ? atoi(argv[6]) : 256;
  int scaling = argc > 7 ? lookup(argv[7], scalings, 5) : 0;
  double factor = argc > 8 ? atof(argv[8]) : 0;

  posenc_lab_config c;
  posenc_lab_config_default(&c);
  c.seed = seed;
  c.task = lookup(task, tasks, 4);
  int e = lookup(enc, encs, 8);
  c.encoding = e == 7 ? 3 : e;
  c.rope_style = e == 7 ? POSENC_STYLE_INTERLEAVED : POSENC_STYLE_HALF;
  posenc_lab_model *m;
  int rc = posenc_lab_create(&c, &m);
  if (rc) {
    fprintf(stderr, "run: create failed (%d)\n", rc);
    return 1;
  }
  float *loss = malloc(sizeof(float) * (steps > 0 ? steps : 1));
  double t0 = now();
  if (steps > 0 && (rc = posenc_lab_train_steps(m, steps, loss))) return fprintf(stderr, "run: train %d\n", rc), 1;
  double t1 = now();
  /* FNV-1a over the parameters' bytes */
  uint64_t hash = 1469598103934665603ull;
  const unsigned char *b = (const unsigned char *)posenc_lab_params(m);
  for (size_t i = 0; i < (size_t)posenc_lab_n_params(m) * sizeof(lab_real); i++) hash = (hash ^ b[i]) * 1099511628211ull;
  printf("{\"task\":\"%s\",\"encoding\":\"%s\",\"scaling\":\"%s\",\"steps\":%d,\"seed\":%.0f,\"f64\":%d,"
         "\"train_seconds\":%.3f,", task, enc, scalings[scaling], steps, seed, (int)(sizeof(lab_real) == 8), t1 - t0);
  printf("\"hash\":\"%016llx\",\"losses\":[", (unsigned long long)hash);
  int shown = steps < 50 ? steps : 50;
  for (int i = 0; i < shown; i++) printf("%s%.9g", i ? "," : "", loss[i]);
  double tail = 0;
  int nt = steps < 20 ? steps : 20;
  for (int i = steps - nt; i < steps; i++) tail += loss[i] / nt;
  printf("],\"final_loss\":%.9g,\"eval\":[", steps ? tail : NAN);
  char *list = strdup(mults);
  int first = 1;
  for (char *tok = strtok(list, ","); tok; tok = strtok(0, ",")) {
    int mult = atoi(tok), n = (int)c.train_len * mult;
    double s[3];
    double f = factor > 0 ? factor : mult;
    rc = posenc_lab_evaluate(m, n, nseq, 1000 + mult, mult == 1 ? 0 : scaling, f, s, 0, 0);
    if (rc) return fprintf(stderr, "run: evaluate %d\n", rc), 1;
    printf("%s{\"mult\":%d,\"n\":%d,\"token_acc\":%.6f,\"seq_acc\":%.6f,\"loss\":%.6f}", first ? "" : ",", mult, n, s[0],
           s[1], s[2]);
    first = 0;
  }
  printf("],\"eval_seconds\":%.3f}\n", now() - t1);
  free(list);
  free(loss);
  posenc_lab_free(m);
  return 0;
}
