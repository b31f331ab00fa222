/* posenc_rope_scaled_freq: inv_out[rotary_dim / 2] and *attn_out for a scaling variant;
 * short_factor / long_factor [rotary_dim / 2] are read for longrope only. */
#include "fuzz.h"

/* A plausible configuration of each variant, for the fuzzer to bend a few fields of. */
static void defaults(posenc_rope_scaling *s) {
  *s = (posenc_rope_scaling){.factor = 4, .original_max_pos = 4096, .max_pos = 8192, .seq_len = 10000,
                             .beta_fast = 32, .beta_slow = 1, .attention_factor = NAN, .truncate = 1,
                             .low_freq_factor = 1, .high_freq_factor = 4, .partial_rotary_factor = 0.25};
}

FZ_HARNESS(posenc_rope_scaled_freq) {
  fz_call c = {.fn = "posenc_rope_scaled_freq"};
  int32_t rot = fz_size(in);
  double base = fz_bool(in) ? 10000.0 : fz_double(in);
  posenc_rope_scaling sc;
  double *field = (double *)&sc;
  const int nfields = (int)(sizeof sc / sizeof(double));
  uint8_t mode = fz_u8(in);
  defaults(&sc);
  if (mode & 1) {
    for (int i = 0; i < nfields; i++) field[i] = fz_double(in);
  } else {
    for (int k = (mode >> 1) % 4; k > 0; k--) field[fz_u8(in) % nfields] = fz_double(in);
  }
  uint8_t ts = fz_u8(in);
  if (ts < 224) sc.type = ts % 8; /* else keep whatever double the fields gave it */
  uint8_t nulls = fz_u8(in);
  int rot_ok = rot >= 1 && rot <= (int32_t)POSENC_MAX_ELEMS && rot % 2 == 0;
  int64_t half = rot_ok ? rot / 2 : 0;
  if (half > FZ_MAX_ELEMS) return 0;
  double *inv = fz_new(&c, "inv_out", (size_t)half * sizeof(double));
  double *attn = fz_new(&c, "attn_out", sizeof(double));
  posenc_rope_scaling *s = fz_new(&c, "scaling", sizeof sc);
  double *sf = fz_new(&c, "short_factor", (size_t)half * sizeof(double));
  double *lf = fz_new(&c, "long_factor", (size_t)half * sizeof(double));
  memcpy(s, &sc, sizeof sc);
  for (int k = 0; k < 2; k++) {
    double *f = k ? lf : sf;
    uint8_t m = fz_u8(in) % 3;
    for (int64_t i = 0; i < half; i++) f[i] = m == 1 ? fz_double(in) : 1.0 + (double)(i % 7) / 4;
    if (m == 2 && half) f[fz_bytes(in, 4) % half] = fz_double(in);
  }
  int longrope = sc.type == POSENC_SCALING_LONGROPE, factors_ok = 1;
  for (int64_t i = 0; longrope && i < half; i++)
    factors_ok &= isfinite(sf[i]) && sf[i] > 0 && isfinite(lf[i]) && lf[i] > 0;
  /* what acceptance needs at least; the variants' own ranges are the kernel's to judge */
  int needed = !fz_any_null(nulls, 3) && rot_ok && fz_base_ok(base) && sc.type >= 0 && sc.type <= 7 &&
               sc.type == floor(sc.type) && (!longrope || (!fz_null(nulls, 3) && !fz_null(nulls, 4) && factors_ok));
  fz_snapshot(&c);
  int rc = posenc_rope_scaled_freq(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), rot, base, fz_ptr(&c, 2, nulls),
                                   fz_ptr(&c, 3, nulls), fz_ptr(&c, 4, nulls));
  fz_after(&c, rc, needed ? -1 : 0, 4u | 8u | 16u);
  if (rc == POSENC_OK) {
    FZ_CHECK(&c, isfinite(*attn) && *attn > 0, "an attention factor that is not finite and > 0");
    FZ_CHECK(&c, fz_bounded_f64(inv, (size_t)half, 0.0, DBL_MAX), "a frequency that is not finite and >= 0");
    if (sc.type == POSENC_SCALING_NONE) {
      FZ_CHECK(&c, *attn == 1.0, "no scaling but attn != 1");
      for (int64_t i = 0; i < half; i++) FZ_CHECK(&c, inv[i] == pow(base, -(2.0 * i) / rot), "no scaling but theta_i moved");
    }
  }
  fz_free(&c);
  return 0;
}
