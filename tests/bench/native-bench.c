/* native-bench.c: times posenc's C kernels compiled natively (-O3 -march=native), the ceiling
 * the WASM builds are compared with. node-bench.js compiles it with c/*.c into a temp dir and
 * runs it as a child process.
 *
 *   native-bench REPS MIN_MS SPEC...     prints "SPEC MS" per spec: the median over REPS of
 *                                        the time per call, each repetition >= MIN_MS long.
 * SPEC: rope:SEQ:HEADS:HEAD_DIM:STYLE:table|fused:out|in   (STYLE interleaved|half)
 *       sin:LENGTH:DIM   decay:N:DIM:lin|log   copy:BYTES   fill:BYTES
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../c/posenc.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Everything one spec needs; run() calls the kernel once. */
typedef struct {
  char kind;
  int seq, heads, hd, style, fused, inplace, n, dim;
  size_t bytes;
  float *x, *y, *cs, *sn;
  double *pos, *w, *d, *out;
} bench;

static volatile float sink;

static int run(bench *b) {
  switch (b->kind) {
    case 'r': {
      float *o = b->inplace ? b->x : b->y;
      if (b->fused)
        return posenc_rope_apply(o, b->x, b->seq, b->heads, b->hd, b->hd, b->style, b->pos, b->w, 1.0);
      return posenc_rope_apply_table(o, b->x, b->seq, b->heads, b->hd, b->hd, b->style, b->cs, b->sn);
    }
    case 's': return posenc_sinusoidal(b->y, b->n, b->dim, 10000.0, 0.0, POSENC_LAYOUT_INTERLEAVED);
    case 'd': return posenc_rope_decay_ones(b->out, b->d, b->n, b->w, b->dim / 2);
    case 'c': memcpy(b->y, b->x, b->bytes); sink = b->y[b->bytes / 8]; return 0;
    case 'f': memset(b->y, 0, b->bytes); sink = b->y[b->bytes / 8]; return 0;
  }
  return -100;
}

static int setup(bench *b, const char *spec) {
  char style[32] = "", mode[32] = "", place[32] = "";
  memset(b, 0, sizeof *b);
  if (sscanf(spec, "rope:%d:%d:%d:%31[a-z]:%31[a-z]:%31[a-z]", &b->seq, &b->heads, &b->hd, style, mode, place) == 6) {
    b->kind = 'r';
    b->style = strcmp(style, "half") == 0 ? POSENC_STYLE_HALF : POSENC_STYLE_INTERLEAVED;
    b->fused = strcmp(mode, "fused") == 0;
    b->inplace = strcmp(place, "in") == 0;
    size_t n = (size_t)b->seq * b->heads * b->hd, half = b->hd / 2;
    b->x = malloc(n * 4);
    b->y = malloc(n * 4);
    b->cs = malloc(b->seq * half * 4);
    b->sn = malloc(b->seq * half * 4);
    b->pos = malloc(b->seq * 8);
    b->w = malloc(half * 8);
    for (size_t i = 0; i < n; i++) b->x[i] = (float)((i * 2654435761u % 2001) / 1000.0 - 1.0);
    memset(b->y, 0, n * 4);
    for (int i = 0; i < b->seq; i++) b->pos[i] = i;
    posenc_rope_inv_freq(b->w, b->hd, 10000.0);
    return posenc_rope_cache(b->cs, b->sn, b->pos, b->seq, b->w, (int)half, 1.0);
  }
  if (sscanf(spec, "sin:%d:%d", &b->n, &b->dim) == 2) {
    b->kind = 's';
    b->y = malloc((size_t)b->n * b->dim * 4);
    memset(b->y, 0, (size_t)b->n * b->dim * 4);
    return 0;
  }
  if (sscanf(spec, "decay:%d:%d:%31[a-z]", &b->n, &b->dim, mode) == 3) {
    b->kind = 'd';
    b->d = malloc(b->n * 8);
    b->out = malloc(b->n * 8);
    b->w = malloc(b->dim / 2 * 8);
    for (int i = 0; i < b->n; i++) b->d[i] = strcmp(mode, "log") == 0 ? pow(10.0, 6.0 * i / (b->n - 1)) : i;
    return posenc_rope_inv_freq(b->w, b->dim, 10000.0);
  }
  if (sscanf(spec, "copy:%zu", &b->bytes) == 1 || sscanf(spec, "fill:%zu", &b->bytes) == 1) {
    b->kind = spec[0];
    b->x = malloc(b->bytes);
    b->y = malloc(b->bytes);
    memset(b->x, 1, b->bytes);
    memset(b->y, 0, b->bytes);
    return 0;
  }
  return -100;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: native-bench REPS MIN_MS SPEC...\n");
    return 2;
  }
  int reps = atoi(argv[1]);
  double min_ms = atof(argv[2]);
  for (int a = 3; a < argc; a++) {
    bench b;
    int rc = setup(&b, argv[a]);
    if (rc == 0) rc = run(&b); /* warm-up, and touches every page */
    if (rc) {
      printf("%s error %d\n", argv[a], rc);
      continue;
    }
    /* calls per repetition: enough to last min_ms */
    double t0 = now_ms();
    run(&b);
    double one = now_ms() - t0;
    int calls = one >= min_ms ? 1 : (int)(min_ms / (one > 1e-4 ? one : 1e-4)) + 1;
    double *t = malloc(sizeof(double) * reps);
    for (int r = 0; r < reps; r++) {
      t0 = now_ms();
      for (int c = 0; c < calls; c++) run(&b);
      t[r] = (now_ms() - t0) / calls;
    }
    qsort(t, reps, sizeof(double), cmp);
    printf("%s %.6f\n", argv[a], t[reps / 2]);
    fflush(stdout);
    free(t);
    free(b.x), free(b.y), free(b.cs), free(b.sn), free(b.pos), free(b.w), free(b.d), free(b.out);
  }
  return 0;
}
