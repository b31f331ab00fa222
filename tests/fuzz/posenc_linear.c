/* posenc_linear: y[n][out_dim] = x[n][in_dim] . W^T, W [out_dim][in_dim]; y may not overlap x.
 * Each output is the float64 dot product in c/dot.h's documented order (fz_dot), rounded once
 * to float32: the kernel must give those bits. */
#include "fuzz.h"

FZ_HARNESS(posenc_linear) {
  fz_call c = {.fn = "posenc_linear"};
  int32_t n = fz_size(in), in_dim = fz_size(in), out_dim = fz_size(in);
  uint8_t nulls = fz_u8(in), alias = fz_u8(in) % 4; /* 0, 1: apart; 2: y == x; 3: overlapping */
  int sizes = fz_elems(n, in_dim, 1) && fz_elems(n, out_dim, 1) && fz_elems(in_dim, out_dim, 1);
  int64_t nx = sizes ? (int64_t)n * in_dim : 0, ny = sizes ? (int64_t)n * out_dim : 0;
  int64_t nw = sizes ? (int64_t)in_dim * out_dim : 0;
  if (nx > FZ_MAX_ELEMS || ny > FZ_MAX_ELEMS || nw > FZ_MAX_ELEMS || ny * (sizes ? in_dim : 0) > FZ_MAX_WORK) return 0;
  if (alias >= 2 && nx < 2) alias = 0;
  float *y, *x;
  if (alias < 2) {
    y = fz_new(&c, "y", (size_t)ny * sizeof(float));
    x = fz_new(&c, "x", (size_t)nx * sizeof(float));
  } else {
    size_t off = alias == 2 ? 0 : 1 + fz_bytes(in, 4) % (size_t)(nx - 1);
    size_t len = off + (size_t)ny > (size_t)nx ? off + (size_t)ny : (size_t)nx;
    x = fz_new(&c, "x and y", len * sizeof(float));
    y = x + off;
    fz_new(&c, "(unused)", 0);
  }
  float *w = fz_new(&c, "w", (size_t)nw * sizeof(float));
  fz_fill_f32(in, x, (size_t)nx);
  fz_fill_f32(in, w, (size_t)nw);
  int valid = sizes && !fz_any_null(nulls, 3) && alias < 2;
  fz_snapshot(&c);
  int rc = posenc_linear(fz_null(nulls, 0) ? NULL : y, fz_null(nulls, 1) ? NULL : x, n, in_dim,
                         fz_null(nulls, 2) ? NULL : w, out_dim);
  fz_after(&c, rc, valid, (alias < 2 ? 2u : 0u) | 4u);
  if (rc == POSENC_OK)
    for (int64_t r = 0; r < n; r++)
      for (int64_t o = 0; o < out_dim; o++) {
        float want = (float)fz_dot(x + r * in_dim, w + o * in_dim, in_dim), got = y[r * out_dim + o];
        FZ_CHECK(&c, got == want || (isnan(got) && isnan(want)),
                 "an output differs from the float64 sum in c/dot.h's order, rounded to float32");
      }
  fz_free(&c);
  return 0;
}
