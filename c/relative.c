/* relative.c: relative-position rules in float64. T5's bucketed relative position (Hugging Face
 * modeling_t5.py _relative_position_bucket) and xPos's per-pair scale (Sun et al., as in
 * lucidrains' rotary-embedding-torch use_xpos). The lab (c/lab) uses the same element rules. */
#include "check.h"
#include "relative.h"

#define T5_MAX_BUCKETS 65536
#define T5_MAX_REL (1 << 30)

int32_t ps_t5_bucket(int32_t rel, int32_t bidirectional, int32_t num_buckets, int32_t max_distance) {
  int32_t n = num_buckets, bucket = 0;
  if (bidirectional) {
    n /= 2;
    if (rel > 0) bucket = n; /* memory after the query: the upper half */
    rel = rel < 0 ? -rel : rel;
  } else {
    rel = rel < 0 ? -rel : 0; /* memory after the query: bucket 0 */
  }
  int32_t exact = n / 2;
  if (rel < exact) return bucket + rel;
  /* logarithmic buckets from exact to max_distance; .to(torch.long) truncates; capped at n - 1 */
  double f = log((double)rel / exact) / log((double)max_distance / exact) * (n - exact);
  int32_t large = exact + (int32_t)f;
  return bucket + (large < n - 1 ? large : n - 1);
}

double ps_xpos_scale(int32_t pair, int32_t dim, double p, double scale_base) {
  double zeta = (2.0 * pair + 0.4 * dim) / (1.4 * dim);
  return pow(zeta, p / scale_base);
}

int posenc_t5_bucket(int32_t *out, const int32_t *relative, int32_t n, int32_t bidirectional,
                     int32_t num_buckets, int32_t max_distance) {
  CHECK(out && relative, POSENC_E_NULL);
  CHECK(n >= 1 && (uint32_t)n <= POSENC_MAX_ELEMS, POSENC_E_SIZE);
  CHECK(bidirectional == 0 || bidirectional == 1, POSENC_E_VALUE);
  CHECK(num_buckets >= (bidirectional ? 4 : 2) && num_buckets <= T5_MAX_BUCKETS, POSENC_E_SIZE);
  int32_t exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
  CHECK(max_distance > exact && max_distance <= T5_MAX_REL, POSENC_E_VALUE);
  for (int32_t i = 0; i < n; i++) CHECK(relative[i] > -T5_MAX_REL && relative[i] < T5_MAX_REL, POSENC_E_POSITION);
  for (int32_t i = 0; i < n; i++) out[i] = ps_t5_bucket(relative[i], bidirectional, num_buckets, max_distance);
  return POSENC_OK;
}

int posenc_xpos_scale(double *out, const double *positions, int32_t n, int32_t dim, double scale_base) {
  CHECK(out && positions, POSENC_E_NULL);
  CHECK(dim >= 1, POSENC_E_SIZE);
  CHECK(dim % 2 == 0, POSENC_E_ODD);
  CHECK(elems3(n, dim / 2, 1), POSENC_E_SIZE);
  CHECK(isfinite(scale_base) && scale_base > 0.0, POSENC_E_VALUE);
  for (int32_t r = 0; r < n; r++) CHECK(isfinite(positions[r]), POSENC_E_POSITION);
  int32_t half = dim / 2;
  for (int32_t r = 0; r < n; r++)
    for (int32_t i = 0; i < half; i++) out[(size_t)r * half + i] = ps_xpos_scale(i, dim, positions[r], scale_base);
  return POSENC_OK;
}
