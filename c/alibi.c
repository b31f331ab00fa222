/* alibi.c: ALiBi (Press et al., "Train Short, Test Long"): per-head slopes and the linear
 * bias they add to attention scores, the non-rotary way to encode distance. */
#include <math.h>

#include "check.h"

int posenc_alibi_slopes(double *out, int32_t heads) {
  CHECK(out, POSENC_E_NULL);
  CHECK(heads >= 1 && heads <= 65536, POSENC_E_SIZE);
  /* the paper's rule for a power of two n: m_h = 2^(-8h/n), h = 1..n; otherwise the slopes of
   * the nearest lower power of two, then every other slope of twice that power */
  int32_t p = 1;
  while (p * 2 <= heads) p *= 2;
  for (int32_t h = 0; h < p; h++) out[h] = pow(2.0, -8.0 * (h + 1) / p);
  for (int32_t h = 0; h < heads - p; h++) out[p + h] = pow(2.0, -8.0 * (2 * h + 1) / (2 * p));
  return POSENC_OK;
}

int posenc_alibi_bias(float *out, int32_t heads, int32_t seq) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(heads, seq, seq) && heads <= 1024, POSENC_E_SIZE);
  double slopes[1024];
  posenc_alibi_slopes(slopes, heads);
  for (int32_t h = 0; h < heads; h++)
    for (int32_t i = 0; i < seq; i++)
      for (int32_t j = 0; j < seq; j++)
        /* (j - i) m, not -(i - j) m: the diagonal must be +0, not -0 */
        out[((size_t)h * seq + i) * seq + j] = j <= i ? (float)((double)(j - i) * slopes[h]) : 0.0f;
  return POSENC_OK;
}
