/* posenc_attention: q [seq_q][heads][head_dim] over k, v [seq_k][heads][head_dim];
 * out like q, weights [heads][seq_q][seq_k]. The documented arithmetic (posenc.h, "Dot products
 * and sums"), followed step by step: score = q.k (c/dot.h's order, fz_dot) / sqrt(head_dim),
 * rounded to float32 and clamped to its range; the softmax in float64 with the row maximum
 * subtracted, rounded to float32; out[d] = the float64 sum over keys in order of
 * weight x v[d], rounded once. The kernel must give those bits in both builds. */
#include "fuzz.h"

FZ_HARNESS(posenc_attention) {
  fz_call c = {.fn = "posenc_attention"};
  int32_t seq_q = fz_size(in), seq_k = fz_size(in), heads = fz_size(in), head_dim = fz_size(in);
  int32_t causal = fz_small_int(in, 0, 1);
  uint8_t nulls = fz_u8(in);
  int64_t nk = fz_elems(seq_k, heads, head_dim), nw = fz_elems(heads, seq_q, seq_k);
  int sizes = nk && nw && seq_q <= seq_k;
  int64_t nq = sizes ? (int64_t)seq_q * heads * head_dim : 0;
  if (sizes) {
    if (nk > FZ_MAX_ELEMS || nw > FZ_MAX_ELEMS) return 0;
    if (nw * head_dim > FZ_MAX_WORK) return 0;
  } else {
    nk = nw = 0;
  }
  float *out = fz_new(&c, "out", (size_t)nq * sizeof(float));
  float *wt = fz_new(&c, "weights", (size_t)nw * sizeof(float));
  float *q = fz_new(&c, "q", (size_t)nq * sizeof(float));
  float *k = fz_new(&c, "k", (size_t)nk * sizeof(float));
  float *v = fz_new(&c, "v", (size_t)nk * sizeof(float));
  fz_fill_f32(in, q, (size_t)nq);
  fz_fill_f32(in, k, (size_t)nk);
  fz_fill_f32(in, v, (size_t)nk);
  int valid = sizes && !fz_any_null(nulls, 5) && (causal == 0 || causal == 1) && fz_finite_f32(q, (size_t)nq) &&
              fz_finite_f32(k, (size_t)nk) && fz_finite_f32(v, (size_t)nk);
  fz_snapshot(&c);
  int rc = posenc_attention(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), fz_ptr(&c, 2, nulls), fz_ptr(&c, 3, nulls),
                            fz_ptr(&c, 4, nulls), seq_q, seq_k, heads, head_dim, causal);
  fz_after(&c, rc, valid, 4u | 8u | 16u);
  if (rc == POSENC_OK) {
    /* every weight row is a softmax: in [0, 1], masked keys exactly 0, summing to 1 */
    for (int64_t h = 0; h < heads; h++)
      for (int64_t i = 0; i < seq_q; i++) {
        const float *row = wt + (h * seq_q + i) * seq_k;
        int64_t last = causal ? seq_k - seq_q + i : seq_k - 1;
        double sum = 0;
        for (int64_t j = 0; j < seq_k; j++) {
          FZ_CHECK(&c, row[j] >= 0.0f && row[j] <= 1.0f, "a weight outside [0, 1] (or NaN)");
          if (j > last) FZ_CHECK(&c, row[j] == 0.0f, "a masked key has weight");
          sum += row[j];
        }
        FZ_CHECK(&c, fabs(sum - 1.0) <= 1e-5, "a weight row does not sum to 1");
      }
    /* the same bits as the documented arithmetic */
    double scale = 1.0 / sqrt((double)head_dim), *acc = malloc(sizeof(double) * (size_t)head_dim);
    if (!acc) fz_fail(&c, "malloc failed");
    float *wref = malloc(sizeof(float) * (size_t)seq_k);
    if (!wref) fz_fail(&c, "malloc failed");
    for (int64_t h = 0; h < heads; h++)
      for (int64_t i = 0; i < seq_q; i++) {
        const float *qi = q + (i * heads + h) * head_dim;
        int64_t last = causal ? seq_k - seq_q + i : seq_k - 1;
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j <= last; j++) {
          double sc = fz_dot(qi, k + (j * heads + h) * head_dim, head_dim) * scale;
          wref[j] = (float)(sc > FLT_MAX ? FLT_MAX : sc < -FLT_MAX ? -FLT_MAX : sc);
          if (wref[j] > mx) mx = wref[j];
        }
        for (int64_t j = 0; j <= last; j++) sum += exp((double)wref[j] - mx);
        for (int64_t j = 0; j <= last; j++) wref[j] = (float)(exp((double)wref[j] - mx) / sum);
        FZ_CHECK(&c, memcmp(wref, wt + (h * seq_q + i) * seq_k, sizeof(float) * (size_t)(last + 1)) == 0,
                 "a weight differs from the documented softmax of c/dot.h's scores");
        for (int64_t d = 0; d < head_dim; d++) acc[d] = 0;
        for (int64_t j = 0; j <= last; j++)
          for (int64_t d = 0; d < head_dim; d++) acc[d] += (double)wref[j] * v[(j * heads + h) * head_dim + d];
        for (int64_t d = 0; d < head_dim; d++)
          FZ_CHECK(&c, out[(i * heads + h) * head_dim + d] == (float)acc[d],
                   "an output differs from the float64 sum over keys in order");
      }
    free(acc);
    free(wref);
    /* outputs are convex combinations of v rows */
    float vmax = 0;
    for (int64_t i = 0; i < nk; i++) vmax = fabsf(v[i]) > vmax ? fabsf(v[i]) : vmax;
    FZ_CHECK(&c, fz_bounded_f32(out, (size_t)nq, (double)vmax * (1 + 1e-5)), "an output outside the range of v");
  }
  fz_free(&c);
  return 0;
}
