/* posenc_sinusoidal_shift: out[rows][dim] = R(k) in[rows][dim]; out may equal in (in place)
 * but may not partly overlap it. */
#include "fuzz.h"

FZ_HARNESS(posenc_sinusoidal_shift) {
  fz_call c = {.fn = "posenc_sinusoidal_shift"};
  int32_t rows = fz_size(in), dim = fz_size(in);
  double base = fz_double(in), k = fz_double(in);
  int32_t layout = fz_small_int(in, 0, 1);
  uint8_t nulls = fz_u8(in), alias = fz_u8(in) % 4; /* 0, 1: apart; 2: in place; 3: overlapping */
  int64_t n = fz_elems(rows, dim, 1);
  if (n > FZ_MAX_ELEMS) return 0;
  size_t off = 0;
  float *x, *out;
  const float *before; /* in's values before the call */
  if (alias < 2 || n < 2) {
    out = fz_new(&c, "out", (size_t)n * sizeof(float));
    x = fz_new(&c, "in", (size_t)n * sizeof(float));
  } else {
    /* one block holding both: in at 0, out at off (0: in place) */
    off = alias == 2 ? 0 : 1 + fz_bytes(in, 4) % (size_t)(n - 1);
    x = fz_new(&c, "in and out", (size_t)(n + off) * sizeof(float));
    out = x + off;
  }
  fz_fill_f32(in, x, (size_t)n);
  int valid = n && dim % 2 == 0 && fz_base_ok(base) && isfinite(k) && fabs(k) <= FZ_MAX_POS &&
              (layout == 0 || layout == 1) && off == 0 && !fz_any_null(nulls, 2);
  fz_snapshot(&c);
  before = (const float *)c.b[c.n - 1].copy;
  int rc = posenc_sinusoidal_shift(fz_null(nulls, 0) ? NULL : out, fz_null(nulls, 1) ? NULL : x, rows, dim,
                                   base, k, layout);
  fz_after(&c, rc, valid, c.n == 2 ? 2u : 0u);
  if (rc == POSENC_OK) {
    /* a rotation: each pair keeps its length (to float32 rounding) */
    int32_t half = dim / 2;
    for (int64_t r = 0; r < rows; r++)
      for (int32_t i = 0; i < half; i++) {
        int32_t a = layout ? i : 2 * i, b = layout ? i + half : 2 * i + 1;
        double sa = before[r * dim + a], ca = before[r * dim + b];
        if (!(fabs(sa) < 1e18 && fabs(ca) < 1e18)) continue;
        double n0 = hypot(sa, ca), n1 = hypot(out[r * dim + a], out[r * dim + b]);
        FZ_CHECK(&c, fabs(n1 - n0) <= 1e-6 * n0 + 1e-37, "a pair changed length");
      }
  }
  fz_free(&c);
  return 0;
}
