/* posenc_llamacpp_cache: cos_out, sin_out [n][n_dims/2], ggml's float32 RoPE per pair; every pair of
 * a valid call has cos^2 + sin^2 = magnitude^2 (attn, times YaRN's 1 + 0.1 ln(1/freq_scale)). */
#include "fuzz.h"

FZ_HARNESS(posenc_llamacpp_cache) {
  fz_call c = {.fn = "posenc_llamacpp_cache"};
  int32_t n = fz_size(in), n_dims = fz_size(in);
  uint8_t flags = fz_u8(in), nulls = fz_u8(in);
  int32_t mode = (int32_t[]){0, 2, 8, 40, 1, 24, -1, 3}[flags & 7];
  float base = (flags & 8) ? fz_float(in) : 10000.0f, scale = (flags & 16) ? fz_float(in) : 0.25f;
  float ext = (flags & 32) ? fz_float(in) : (float)(flags >> 7);
  float attn = fz_bool(in) ? 1.0f : fz_float(in), bf = fz_bool(in) ? 32.0f : fz_float(in), bs = fz_bool(in) ? 1.0f : fz_float(in);
  int32_t n_ctx_orig = fz_bool(in) ? 4096 : fz_size(in);
  int with_ff = fz_bool(in);
  int32_t half = n_dims / 2;
  int64_t ne = fz_elems(n, half, 1);
  if (ne > FZ_MAX_ELEMS || (ne && n > FZ_MAX_ELEMS)) return 0;
  int64_t np = ne ? n : 0, nf = ne && with_ff ? half : 0;
  float *cs = fz_new(&c, "cos_out", (size_t)ne * sizeof(float));
  float *sn = fz_new(&c, "sin_out", (size_t)ne * sizeof(float));
  int32_t *pos = fz_new(&c, "positions", (size_t)np * sizeof(int32_t));
  float *ff = fz_new(&c, "freq_factors", (size_t)nf * sizeof(float));
  int32_t *sec = fz_new(&c, "sections", 4 * sizeof(int32_t));
  for (int64_t i = 0; i < np; i++) pos[i] = fz_bool(in) ? (int32_t)fz_u8(in) * 997 : fz_size(in);
  fz_fill_f32(in, ff, (size_t)nf);
  for (int k = 0; k < 4; k++) sec[k] = fz_small_int(in, 0, 24);
  int positions_ok = 1, ff_ok = 1;
  for (int64_t i = 0; i < np; i++) positions_ok &= pos[i] >= 0;
  for (int64_t i = 0; i < nf; i++) ff_ok &= isfinite(ff[i]) && ff[i] > 0.0f;
  int mrope = mode == 8 || mode == 40;
  int64_t sum = (int64_t)sec[0] + sec[1] + sec[2] + sec[3];
  int sec_ok = !mrope || (!fz_null(nulls, 4) && sec[0] >= 0 && sec[1] >= 0 && sec[2] >= 0 && sec[3] >= 0 && sec[0] <= 65536 &&
                          sec[1] <= 65536 && sec[2] <= 65536 && sec[3] <= 65536 && sum >= 1);
  int valid = ne && n_dims % 2 == 0 && n_dims <= 65536 && !fz_any_null(nulls, 3) &&
              (mode == 0 || mode == 2 || mrope) && isfinite(base) && base > 1.0f && isfinite(scale) && scale > 0.0f &&
              isfinite(ext) && isfinite(attn) && isfinite(bf) && bf > 0.0f && isfinite(bs) && bs > 0.0f && n_ctx_orig >= 1 &&
              (!with_ff || fz_null(nulls, 3) || ff_ok) && sec_ok && positions_ok;
  fz_snapshot(&c);
  int rc = posenc_llamacpp_cache(fz_ptr(&c, 0, nulls), fz_ptr(&c, 1, nulls), fz_ptr(&c, 2, nulls), n, n_dims, base, scale, ext,
                                 attn, bf, bs, n_ctx_orig, with_ff ? fz_ptr(&c, 3, nulls) : NULL, mode, fz_ptr(&c, 4, nulls));
  fz_after(&c, rc, valid, 4u | 8u | 16u);
  if (rc == POSENC_OK) {
    double mag = ext != 0.0f ? (double)attn * (1.0 + 0.1 * log(1.0 / (double)scale)) : (double)attn;
    if (isfinite(mag) && fabs(mag) < 1e30 && fabs(mag) > 1e-30)
      for (int64_t k = 0; k < ne; k++) {
        double x = cs[k], y = sn[k];
        if (!isfinite(x) || !isfinite(y)) continue; /* an angle past float32 (huge positions over tiny factors) */
        FZ_CHECK(&c, fabs(x * x + y * y - mag * mag) <= 1e-5 * mag * mag, "cos^2 + sin^2 is not the magnitude squared");
      }
  }
  fz_free(&c);
  return 0;
}
