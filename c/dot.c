/* dot.c: dot products of rows: every pair of rows (a Gram matrix), row i with row i, and the
 * cosine of row i with row i. All are dot.h's ps_dot: float64 sums, the same bits in both
 * builds. */
#include <math.h>

#include "check.h"
#include "dot.h"

int posenc_gram(double *out, const float *a, int32_t n, const float *b, int32_t m, int32_t dim) {
  CHECK(out && a && b, POSENC_E_NULL);
  CHECK(elems3(n, m, 1) && elems3(n, dim, 1) && elems3(m, dim, 1), POSENC_E_SIZE);
  for (int32_t i = 0; i < n; i++)
    for (int32_t j = 0; j < m; j++) out[(size_t)i * m + j] = ps_dot(a + (size_t)i * dim, b + (size_t)j * dim, dim);
  return POSENC_OK;
}

int posenc_row_dots(double *out, const float *a, const float *b, int32_t n, int32_t dim) {
  CHECK(out && a && b, POSENC_E_NULL);
  CHECK(elems3(n, dim, 1), POSENC_E_SIZE);
  for (int32_t i = 0; i < n; i++) out[i] = ps_dot(a + (size_t)i * dim, b + (size_t)i * dim, dim);
  return POSENC_OK;
}

int posenc_row_cosines(double *out, const float *a, const float *b, int32_t n, int32_t dim) {
  CHECK(out && a && b, POSENC_E_NULL);
  CHECK(elems3(n, dim, 1), POSENC_E_SIZE);
  for (int32_t i = 0; i < n; i++) {
    const float *ai = a + (size_t)i * dim, *bi = b + (size_t)i * dim;
    double ab = ps_dot(ai, bi, dim), aa = ps_dot(ai, ai, dim), bb = ps_dot(bi, bi, dim);
    out[i] = aa > 0.0 && bb > 0.0 ? ab / sqrt(aa * bb) : 0.0;
  }
  return POSENC_OK;
}
