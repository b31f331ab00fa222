/* posenc_mrope_cache: cos_out, sin_out [n][half] = attn * cos/sin(positions[k(i)][r] * inv_freq[i]),
 * k(i) the stream (t, h, w) of pair i under section (s_t, s_h, s_w) and the layout flag. */
#include "fuzz.h"

/* The stream of pair i, written from the header's description. */
static int stream(int64_t i, int32_t st, int32_t sh, int32_t sw, int32_t il) {
  if (il) return (i % 3 == 1 && i < 3 * (int64_t)sh) ? 1 : (i % 3 == 2 && i < 3 * (int64_t)sw) ? 2 : 0;
  return i < st ? 0 : i < (int64_t)st + sh ? 1 : 2;
}

FZ_HARNESS(posenc_mrope_cache) {
  fz_call c = {.fn = "posenc_mrope_cache"};
  int32_t n = fz_size(in), half = fz_size(in);
  double attn = fz_bool(in) ? 1.0 : fz_double(in);
  uint8_t nulls = fz_u8(in), mode = fz_u8(in);
  int32_t il = mode & 1 ? 1 : (mode & 2 ? 0 : fz_small_int(in, -1, 2));
  /* a section that sums to half, or any three values */
  int32_t st, sh, sw;
  if (mode & 4) {
    st = fz_small_int(in, -2, 40), sh = fz_small_int(in, -2, 40), sw = fz_small_int(in, -2, 40);
  } else {
    int64_t h = half > 0 ? half : 0;
    st = (int32_t)(h / 4), sh = (int32_t)((h - st) / 2), sw = (int32_t)(h - st - sh);
  }
  int64_t ne = fz_elems(n, half, 1);
  if (ne > FZ_MAX_ELEMS || (ne && 3 * (int64_t)n > FZ_MAX_ELEMS)) return 0;
  int64_t np = ne ? 3 * (int64_t)n : 0, nh = ne ? half : 0;
  float *cs = fz_new(&c, "cos_out", (size_t)ne * sizeof(float));
  float *sn = fz_new(&c, "sin_out", (size_t)ne * sizeof(float));
  double *pos = fz_new(&c, "positions", (size_t)np * sizeof(double));
  double *w = fz_new(&c, "inv_freq", (size_t)nh * sizeof(double));
  fz_fill_f64(in, pos, (size_t)np);
  fz_fill_f64(in, w, (size_t)nh);
  double pmax = 0, wmax = 0;
  int valid = ne && !fz_any_null(nulls, 4) && isfinite(attn) && (il == 0 || il == 1) && st >= 0 && sh >= 0 &&
              sw >= 0 && (int64_t)st + sh + sw == half && fz_nonneg(pos, (size_t)np, &pmax) &&
              fz_nonneg(w, (size_t)nh, &wmax) && pmax * wmax < 1e300;
  fz_snapshot(&c);
  int rc = posenc_mrope_cache(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), fz_ptr(&c, 2, nulls), n,
                              fz_ptr(&c, 3, nulls), half, attn, st, sh, sw, il);
  fz_after(&c, rc, valid, 4u | 8u);
  if (rc == POSENC_OK && fabs(attn) < 1e30) {
    for (int64_t r = 0; r < n; r++)
      for (int64_t i = 0; i < half; i++) {
        int k = stream(i, st, sh, sw, il);
        double a = pos[k * n + r] * w[i], tol = 4e-7 * fabs(attn) + 1e-45;
        FZ_CHECK(&c, fabs(cs[r * half + i] - attn * cos(a)) <= tol && fabs(sn[r * half + i] - attn * sin(a)) <= tol,
                 "a value off attn * cos/sin of its stream's angle");
      }
  }
  fz_free(&c);
  return 0;
}
