/* lab_tasks.c: the seeded generator and the synthetic tasks (layouts in lab.h). */
#include <math.h>

#include "lab_internal.h"

#define LAB_TWO_PI 6.28318530717958647692
#define LAB_MAX_TOKENS 4096

uint64_t lab_rng_next(lab_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double lab_rng_uniform(lab_rng *r) {
  /* the value is below 2^53: converted as signed (wasm's unsigned i64 -> f64 is slow) */
  return (double)(int64_t)(lab_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

int32_t lab_rng_below(lab_rng *r, int32_t n) {
  /* multiply-shift on the top 32 bits: bias below 2^-25 for n <= 128, none that matters here */
  return (int32_t)(((lab_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

double lab_rng_normal(lab_rng *r) {
  double u = 1.0 - lab_rng_uniform(r); /* (0, 1]: log stays finite */
  double t = LAB_TWO_PI * lab_rng_uniform(r);
  return sqrt(-2.0 * log(u)) * cos(t);
}

int32_t lab_task_tokens(int32_t task, int32_t n) {
  if (n < 1 || n > 1024) return 0;
  int32_t t;
  switch (task) {
    case POSENC_LAB_TASK_KBACK: t = n; break;
    case POSENC_LAB_TASK_COPY:
    case POSENC_LAB_TASK_REVERSE: t = 2 * n + 1; break;
    case POSENC_LAB_TASK_RECALL: t = 2 * n + 3; break;
    default: return 0;
  }
  return t <= LAB_MAX_TOKENS ? t : 0;
}

int32_t lab_task_min_len(int32_t task, int32_t k) { return task == POSENC_LAB_TASK_KBACK ? k : 1; }

static int32_t symbol(lab_rng *r) { return lab_rng_below(r, POSENC_LAB_SYMBOLS); }

void lab_task_make(int32_t task, int32_t k, int32_t n, lab_rng *r, int32_t *tok, int32_t *tgt) {
  int32_t T = lab_task_tokens(task, n);
  for (int32_t i = 0; i < T; i++) tgt[i] = -1;
  switch (task) {
    case POSENC_LAB_TASK_KBACK:
      for (int32_t i = 0; i < n; i++) tok[i] = symbol(r);
      for (int32_t i = k - 1; i < n; i++) tgt[i] = tok[i + 1 - k];
      break;
    case POSENC_LAB_TASK_COPY:
    case POSENC_LAB_TASK_REVERSE: {
      int rev = task == POSENC_LAB_TASK_REVERSE;
      tok[0] = POSENC_LAB_BOS;
      for (int32_t i = 0; i < n; i++) tok[1 + i] = symbol(r);
      tok[n + 1] = POSENC_LAB_SEP;
      /* answer j (0-based) is x_j (copy) or x_{n-1-j} (reverse); it is predicted at n+1+j and,
       * except the last, fed back at n+2+j */
      for (int32_t j = 0; j < n; j++) {
        int32_t a = tok[1 + (rev ? n - 1 - j : j)];
        tgt[n + 1 + j] = a;
        if (j < n - 1) tok[n + 2 + j] = a;
      }
      break;
    }
    case POSENC_LAB_TASK_RECALL: {
      tok[0] = POSENC_LAB_BOS;
      for (int32_t i = 0; i < n; i++) {
        tok[1 + 2 * i] = lab_rng_below(r, POSENC_LAB_SYMBOLS / 2);
        tok[2 + 2 * i] = POSENC_LAB_SYMBOLS / 2 + lab_rng_below(r, POSENC_LAB_SYMBOLS / 2);
      }
      tok[2 * n + 1] = POSENC_LAB_SEP;
      int32_t q = tok[1 + 2 * lab_rng_below(r, n)], v = -1;
      for (int32_t i = 0; i < n; i++)
        if (tok[1 + 2 * i] == q) v = tok[2 + 2 * i];
      tok[2 * n + 2] = q;
      tgt[2 * n + 2] = v;
      break;
    }
    default:
      break;
  }
}
