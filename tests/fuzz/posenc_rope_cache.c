/* posenc_rope_cache: cos_out, sin_out [n][half] = attn * cos/sin(positions[r] * inv_freq[i]). */
#include "fuzz.h"

FZ_HARNESS(posenc_rope_cache) {
  fz_call c = {.fn = "posenc_rope_cache"};
  int32_t n = fz_size(in), half = fz_size(in);
  double attn = fz_bool(in) ? 1.0 : fz_double(in);
  uint8_t nulls = fz_u8(in);
  int64_t ne = fz_elems(n, half, 1);
  if (ne > FZ_MAX_ELEMS) return 0;
  int64_t np = ne ? n : 0, nh = ne ? half : 0; /* array lengths, 0 when the sizes are bad */
  float *cs = fz_new(&c, "cos_out", (size_t)ne * sizeof(float));
  float *sn = fz_new(&c, "sin_out", (size_t)ne * sizeof(float));
  double *pos = fz_new(&c, "positions", (size_t)np * sizeof(double));
  double *w = fz_new(&c, "inv_freq", (size_t)nh * sizeof(double));
  fz_fill_f64(in, pos, (size_t)np);
  fz_fill_f64(in, w, (size_t)nh);
  double pmax = 0, wmax = 0;
  int valid = ne && !fz_any_null(nulls, 4) && isfinite(attn) && fz_nonneg(pos, (size_t)np, &pmax) &&
              fz_nonneg(w, (size_t)nh, &wmax) && pmax * wmax < 1e300;
  fz_snapshot(&c);
  int rc = posenc_rope_cache(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), fz_ptr(&c, 2, nulls), n,
                             fz_ptr(&c, 3, nulls), half, attn);
  fz_after(&c, rc, valid, 4u | 8u);
  if (rc == POSENC_OK && fabs(attn) < 1e30) {
    double lim = fabs(attn) * (1 + 1e-7) + 1e-45;
    FZ_CHECK(&c, fz_bounded_f32(cs, (size_t)ne, lim) && fz_bounded_f32(sn, (size_t)ne, lim),
             "a value larger than attn");
    for (int64_t r = 0; r < n; r++)
      for (int64_t i = 0; i < half; i++) {
        double a = pos[r] * w[i], tol = 4e-7 * fabs(attn) + 1e-45; /* float32 kernels: 2e-7 bound */
        FZ_CHECK(&c, fabs(cs[r * half + i] - attn * cos(a)) <= tol && fabs(sn[r * half + i] - attn * sin(a)) <= tol,
                 "a value off attn * cos/sin");
      }
  }
  fz_free(&c);
  return 0;
}
