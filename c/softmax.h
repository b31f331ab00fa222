/* softmax.h: one attention row's scores and weights, shared by posenc_attention and
 * posenc_dynamic_kv_cache so that the weights the experiment compares are the very weights
 * posenc_attention gives. */
#ifndef POSENC_SOFTMAX_H
#define POSENC_SOFTMAX_H

#include <float.h>
#include <math.h>
#include <stdint.h>

/* q.k * scale as the float32 the softmax reads, clamped to float32's range: a score past it
 * would be stored as inf, and the softmax would turn inf - inf into NaN weights for finite
 * inputs. */
static inline float ps_score(double dot, double scale) {
  double sc = dot * scale;
  return (float)(sc > FLT_MAX ? FLT_MAX : sc < -FLT_MAX ? -FLT_MAX : sc);
}

/* w[0..n) (n >= 1): scores in, weights out, in float64 with the row maximum subtracted so
 * that exp never overflows. */
static inline void ps_softmax(float *w, int32_t n) {
  double mx = -INFINITY, sum = 0.0;
  for (int32_t j = 0; j < n; j++)
    if (w[j] > mx) mx = w[j];
  for (int32_t j = 0; j < n; j++) sum += exp((double)w[j] - mx);
  for (int32_t j = 0; j < n; j++) w[j] = (float)(exp((double)w[j] - mx) / sum);
}

#endif
