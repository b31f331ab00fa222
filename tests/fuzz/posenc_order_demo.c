/* posenc_order_demo: the source post's word-order experiment end to end; out[n][dim], weights[heads][n][n]. */
#include "fuzz.h"

#define DEMO_MAX 4096

FZ_HARNESS(posenc_order_demo) {
  fz_call c = {.fn = "posenc_order_demo"};
  int32_t n = fz_size(in), vocab = fz_size(in), dim = fz_size(in), heads = fz_size(in);
  double seed = fz_bool(in) ? (double)fz_u8(in) : fz_double(in), base = fz_double(in);
  int32_t encoding = fz_small_int(in, 0, 2), causal = fz_small_int(in, 0, 1);
  uint8_t nulls = fz_u8(in);
  int n_ok = n >= 1 && n <= DEMO_MAX, dims_ok = dim >= 2 && dim <= DEMO_MAX && heads >= 1 && heads <= dim;
  int64_t head_dim = dims_ok ? dim / heads : 0, rot = head_dim & ~1;
  int64_t nw = n_ok && dims_ok ? fz_elems(heads, n, n) : 0; /* weights must fit the output cap */
  int shape = n_ok && dims_ok && vocab >= 1 && vocab <= DEMO_MAX && dim % heads == 0;
  int valid = shape && nw && !fz_any_null(nulls, 3) && encoding >= 0 && encoding <= 2 &&
              (encoding != 1 || dim % 2 == 0) && (encoding != 2 || rot >= 2) && (causal == 0 || causal == 1) &&
              fz_base_ok(base) && seed >= 0.0 && seed <= 9007199254740991.0 - 3 && seed == floor(seed);
  if (valid) {
    int64_t work = (int64_t)vocab * dim + 3 * (int64_t)dim * dim * (1 + n) + nw * head_dim * 2;
    if ((int64_t)n * dim > FZ_MAX_ELEMS || nw > FZ_MAX_ELEMS || work > FZ_MAX_WORK) return 0;
  }
  /* a rejected call gets no room to write in; tokens are read only when n is in range */
  int64_t no = valid ? (int64_t)n * dim : 0, nt = n_ok ? n : 0;
  float *out = fz_new(&c, "out", (size_t)no * sizeof(float));
  float *wt = fz_new(&c, "weights", (size_t)(valid ? nw : 0) * sizeof(float));
  int32_t *tok = fz_new(&c, "tokens", (size_t)nt * sizeof(int32_t));
  for (int64_t i = 0; i < nt; i++) {
    uint8_t s = fz_u8(in);
    tok[i] = s < 248 ? (int32_t)(s % (uint32_t)(vocab > 0 ? vocab : 1)) : fz_size(in);
    valid &= tok[i] >= 0 && tok[i] < vocab;
  }
  if (!valid) no = nw = 0;
  fz_snapshot(&c);
  int rc = posenc_order_demo(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), fz_ptr(&c, 2, nulls), n, vocab, dim, heads,
                             seed, encoding, causal, base);
  fz_after(&c, rc, valid, 4u);
  if (rc == POSENC_OK) {
    for (int64_t h = 0; h < heads; h++)
      for (int64_t i = 0; i < n; i++) {
        const float *row = wt + (h * n + i) * n;
        double sum = 0;
        for (int64_t j = 0; j < n; j++) {
          FZ_CHECK(&c, row[j] >= 0.0f && row[j] <= 1.0f, "a weight outside [0, 1] (or NaN)");
          if (causal && j > i) FZ_CHECK(&c, row[j] == 0.0f, "a masked key has weight");
          sum += row[j];
        }
        FZ_CHECK(&c, fabs(sum - 1.0) <= 1e-5, "a weight row does not sum to 1");
      }
    FZ_CHECK(&c, fz_finite_f32(out, (size_t)no), "an output is not finite");
  }
  fz_free(&c);
  return 0;
}
