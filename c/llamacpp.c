/* llamacpp.c: the cos/sin that llama.cpp's CPU backend computes for ggml_rope_ext and
 * ggml_rope_multi, step for step in float32, as ggml's ggml-cpu/ops.cpp does (rope_yarn_ramp,
 * rope_yarn, ggml_rope_cache_init, ggml_mrope_cache_init) with ggml.c's ggml_rope_yarn_corr_dims.
 * Followed: ggml-org/ggml d99724f (the same files are ggml/src/... in ggml-org/llama.cpp).
 *
 * Per pair i (ggml's i0 = 2i) at integer position p:
 *   theta_scale = base^(-2/n_dims)                    (float32)
 *   t_ext = ((float)p * theta_scale^i, a running float32 product) / ff[i]
 *   t_int = freq_scale * t_ext
 *   with ext != 0: ramp = 1 - clamp((i - low) / max(0.001, high - low), 0, 1) (low, high: the
 *   floored / ceiled correction dims), mix = ramp * ext, theta = t_int (1 - mix) + t_ext mix,
 *   magnitude = attn (1 + 0.1 ln(1 / freq_scale)); else theta = t_int, magnitude = attn.
 *   cos = (float)cos(theta) * magnitude, sin likewise.
 * The float32 steps are ggml's; powf, logf, cosf and sinf are taken as float64 results rounded to
 * float32 (what a correctly rounded libm returns; glibc's are within an ulp of it). No step is
 * fused: wasm has no fused multiply-add, whereas a GCC build of ggml with -march=native may fuse
 * the ramp's theta, an ulp of the angle apart on the ramp pairs.
 * mRoPE for text tokens: the t, h and w streams all hold p and the fourth stream e holds 0, so a
 * pair reads p, or 0 where ggml's sector rule sends it to e. Scalar in both builds: the running
 * product is sequential, and this is a reference, not a hot path. */
#include <math.h>

#include "check.h"

#define PI_F32 3.14159265358979323846f /* (float)M_PI: std=c11 has no M_PI */

enum { MODE_NORM = 0, MODE_NEOX = 2, MODE_MROPE = 8, MODE_IMROPE = 40 };

/* ggml_rope_yarn_corr_dim: the pair index (in dims) where `turns` rotations fit in n_ctx_orig. */
static float corr_dim(int32_t n_dims, int32_t n_ctx_orig, float turns, float base) {
  float denom = turns * 2.0f * PI_F32;
  float l = (float)log((double)((float)n_ctx_orig / denom));
  float lb = (float)log((double)base);
  return (float)n_dims * l / (2.0f * lb);
}

/* Whether pair i of an mRoPE head reads the e stream (0 for text) under ggml's sector rule. */
static int reads_e(int32_t i, int32_t mode, const int32_t *s) {
  int32_t sum = s[0] + s[1] + s[2] + s[3];
  int32_t sector = i % sum;
  if (mode == MODE_IMROPE) {
    if (sector % 3 == 1 && sector < 3 * s[1]) return 0;
    if (sector % 3 == 2 && sector < 3 * s[2]) return 0;
    if (sector % 3 == 0 && sector < 3 * s[0]) return 0;
    return 1;
  }
  return sector >= s[0] + s[1] + s[2];
}

int posenc_llamacpp_cache(float *cos_out, float *sin_out, const int32_t *positions, int32_t n,
                          int32_t n_dims, float freq_base, float freq_scale, float ext_factor,
                          float attn_factor, float beta_fast, float beta_slow, int32_t n_ctx_orig,
                          const float *freq_factors, int32_t mode, const int32_t *sections) {
  CHECK(cos_out && sin_out && positions, POSENC_E_NULL);
  CHECK(n_dims >= 2 && n_dims <= 65536, POSENC_E_SIZE);
  CHECK(n_dims % 2 == 0, POSENC_E_ODD);
  int32_t half = n_dims / 2;
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  CHECK(mode == MODE_NORM || mode == MODE_NEOX || mode == MODE_MROPE || mode == MODE_IMROPE, POSENC_E_KIND);
  CHECK(isfinite(freq_base) && freq_base > 1.0f, POSENC_E_BASE);
  CHECK(isfinite(freq_scale) && freq_scale > 0.0f && isfinite(ext_factor) && isfinite(attn_factor), POSENC_E_VALUE);
  CHECK(isfinite(beta_fast) && beta_fast > 0.0f && isfinite(beta_slow) && beta_slow > 0.0f && n_ctx_orig >= 1,
        POSENC_E_VALUE);
  if (freq_factors)
    for (int32_t i = 0; i < half; i++) CHECK(isfinite(freq_factors[i]) && freq_factors[i] > 0.0f, POSENC_E_VALUE);
  if (mode == MODE_MROPE || mode == MODE_IMROPE) {
    CHECK(sections, POSENC_E_NULL);
    int64_t sum = 0;
    for (int k = 0; k < 4; k++) {
      CHECK(sections[k] >= 0 && sections[k] <= 65536, POSENC_E_VALUE);
      sum += sections[k];
    }
    CHECK(sum >= 1, POSENC_E_VALUE);
  }
  for (int32_t r = 0; r < n; r++) CHECK(positions[r] >= 0, POSENC_E_POSITION);

  const float theta_scale = (float)pow((double)freq_base, (double)(-2.0f / (float)n_dims));
  float low = floorf(corr_dim(n_dims, n_ctx_orig, beta_fast, freq_base));
  float high = ceilf(corr_dim(n_dims, n_ctx_orig, beta_slow, freq_base));
  low = 0.0f > low ? 0.0f : low; /* ggml's MAX(0, start) and MIN(n_dims - 1, end), operands in its order */
  high = (float)(n_dims - 1) < high ? (float)(n_dims - 1) : high;
  const float mscale_yarn = attn_factor * (1.0f + 0.1f * (float)log((double)(1.0f / freq_scale)));
  const float span = high - low > 0.001f ? high - low : 0.001f;
  const int mrope = mode == MODE_MROPE || mode == MODE_IMROPE;

  for (int32_t r = 0; r < n; r++) {
    float *cs = cos_out + (size_t)r * half, *sn = sin_out + (size_t)r * half;
    float theta_p = (float)positions[r];
    for (int32_t i = 0; i < half; i++) {
      float ff = freq_factors ? freq_factors[i] : 1.0f;
      float t_ext = (mrope && reads_e(i, mode, sections) ? 0.0f : theta_p) / ff;
      float t_int = freq_scale * t_ext;
      float theta = t_int, mscale = attn_factor;
      if (ext_factor != 0.0f) {
        float y = ((float)i - low) / span;
        float ramp = 1.0f - (y > 1.0f ? 1.0f : (y > 0.0f ? y : 0.0f));
        float mix = ramp * ext_factor;
        float a = t_int * (1.0f - mix), b = t_ext * mix; /* two roundings, then the sum: no fusion */
        theta = a + b;
        mscale = mscale_yarn;
      }
      float c = (float)cos((double)theta), s = (float)sin((double)theta);
      cs[i] = c * mscale;
      sn[i] = s * mscale;
      theta_p *= theta_scale;
    }
  }
  return POSENC_OK;
}
