/* posenc_rope_cache_emulated: cos_out, sin_out [n][half] in float64 as an implementation in
 * narrower types computes them; a value that would overflow its type is refused. */
#include "fuzz.h"

/* Smallest magnitude that rounds (to nearest even) past each type's largest finite value. */
static double overflow_at(int32_t type) {
  switch (type) {
    case POSENC_F32: return 3.4028235677973366e38;  /* FLT_MAX + half an ulp */
    case POSENC_BF16: return 3.3961775292304516e38; /* (2 - 2^-8) 2^127 */
    case POSENC_F16: return 65520.0;                /* 65504 + 16 */
    default: return INFINITY;
  }
}

FZ_HARNESS(posenc_rope_cache_emulated) {
  fz_call c = {.fn = "posenc_rope_cache_emulated"};
  int32_t n = fz_size(in), half = fz_size(in);
  double attn = fz_bool(in) ? 1.0 : fz_double(in);
  int32_t types[4];
  for (int k = 0; k < 4; k++) types[k] = fz_small_int(in, 0, 3);
  uint8_t nulls = fz_u8(in);
  int64_t ne = fz_elems(n, half, 1);
  if (ne > FZ_MAX_ELEMS) return 0;
  int64_t np = ne ? n : 0, nh = ne ? half : 0;
  double *cs = fz_new(&c, "cos_out", (size_t)ne * sizeof(double));
  double *sn = fz_new(&c, "sin_out", (size_t)ne * sizeof(double));
  double *pos = fz_new(&c, "positions", (size_t)np * sizeof(double));
  double *w = fz_new(&c, "inv_freq", (size_t)nh * sizeof(double));
  fz_fill_f64(in, pos, (size_t)np);
  fz_fill_f64(in, w, (size_t)nh);
  int types_ok = 1;
  for (int k = 0; k < 4; k++) types_ok &= types[k] >= 0 && types[k] <= 3;
  double pmax = 0, wmax = 0;
  int basic = ne && !fz_any_null(nulls, 4) && isfinite(attn) && types_ok && fz_nonneg(pos, (size_t)np, &pmax) &&
              fz_nonneg(w, (size_t)nh, &wmax);
  int valid;
  if (!basic || pmax >= overflow_at(types[0]) || wmax >= overflow_at(types[1]) || fabs(attn) >= overflow_at(types[3]))
    valid = 0;
  else if (pmax * wmax * 1.02 < overflow_at(types[2]) && pmax * wmax < 1e299)
    valid = 1; /* every rounded angle fits with room to spare */
  else
    valid = -1; /* at the edge: rounding decides */
  fz_snapshot(&c);
  int rc = posenc_rope_cache_emulated(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), fz_ptr(&c, 2, nulls), n,
                                      fz_ptr(&c, 3, nulls), half, attn, types[0], types[1], types[2], types[3]);
  fz_after(&c, rc, valid, 4u | 8u);
  if (rc == POSENC_OK) {
    /* "a value that would overflow its type is refused": nothing Inf or NaN comes out */
    double lim = fabs(attn) * (1 + 1.0 / 128);
    FZ_CHECK(&c, fz_bounded_f64(cs, (size_t)ne, -lim, lim) && fz_bounded_f64(sn, (size_t)ne, -lim, lim),
             "an output that is not finite or exceeds |attn|");
  }
  fz_free(&c);
  return 0;
}
