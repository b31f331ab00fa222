/* scaling.c: RoPE scaling variants for long context, with Hugging Face transformers'
 * semantics (modeling_rope_utils.py): each turns the default theta_i = base^(-2i/d) into the
 * variant's frequencies and an attention factor that multiplies cos and sin. Also the
 * precision emulation of the precision lab, and ALiBi as the non-rotary comparison.
 * Every formula is written out in README.md with its source. */
#define _GNU_SOURCE /* sincos */
#include <math.h>
#include <string.h>

#include "check.h"

#define PI 3.14159265358979323846

/* YaRN's and the paper's magnitude correction: 0.1 * m * ln(s) + 1, or 1 when s <= 1. */
static double get_mscale(double s, double m) { return s <= 1.0 ? 1.0 : 0.1 * m * log(s) + 1.0; }

/* The pair index whose wavelength turns num_rotations times over L0 positions. */
static double yarn_corr_dim(double num_rotations, int32_t d, double base, double l0) {
  return d * log(l0 / (num_rotations * 2.0 * PI)) / (2.0 * log(base));
}

static int check_scaling(const posenc_rope_scaling *s, int32_t half, const double *short_f,
                         const double *long_f) {
  /* range first: converting a NaN or out-of-range double to int32_t is undefined behaviour */
  CHECK(s->type >= POSENC_SCALING_NONE && s->type <= POSENC_SCALING_LONGROPE, POSENC_E_KIND);
  int32_t t = (int32_t)s->type;
  CHECK(s->type == t, POSENC_E_KIND);
  if (t == POSENC_SCALING_NONE) return POSENC_OK;
  /* theta_i <= 1 is divided by the factor: 1/factor must be finite too, or Inf comes out */
  if (t != POSENC_SCALING_LONGROPE) CHECK(isfinite(s->factor) && s->factor > 0.0 && isfinite(1.0 / s->factor), POSENC_E_VALUE);
  else CHECK(isfinite(s->factor) && s->factor >= 0.0, POSENC_E_VALUE); /* 0: unset */
  CHECK(isnan(s->attention_factor) || (isfinite(s->attention_factor) && s->attention_factor > 0.0), POSENC_E_VALUE);
  switch (t) {
    case POSENC_SCALING_DYNAMIC:
      CHECK(isfinite(s->max_pos) && s->max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->seq_len) && s->seq_len >= 0.0, POSENC_E_VALUE);
      break;
    case POSENC_SCALING_YARN:
      CHECK(isfinite(s->original_max_pos) && s->original_max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->beta_fast) && s->beta_fast > 0.0 && isfinite(s->beta_slow) && s->beta_slow > 0.0, POSENC_E_VALUE);
      /* the ramp's ends take log(L0 / (2 pi beta)): a denormal beta overflows it, and the ramp
       * then computes (i - Inf) / (high - Inf) = NaN */
      for (int k = 0; k < 2; k++) {
        double r = s->original_max_pos / (2.0 * PI * (k ? s->beta_slow : s->beta_fast));
        CHECK(r > 0.0 && isfinite(r), POSENC_E_VALUE);
      }
      CHECK(s->mscale >= 0.0 && isfinite(s->mscale) && s->mscale_all_dim >= 0.0 && isfinite(s->mscale_all_dim), POSENC_E_VALUE);
      CHECK(s->truncate == 0.0 || s->truncate == 1.0, POSENC_E_VALUE);
      break;
    case POSENC_SCALING_LLAMA3:
      CHECK(isfinite(s->original_max_pos) && s->original_max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->low_freq_factor) && isfinite(s->high_freq_factor), POSENC_E_VALUE);
      CHECK(s->low_freq_factor > 0.0 && s->high_freq_factor > s->low_freq_factor, POSENC_E_VALUE);
      break;
    case POSENC_SCALING_LONGROPE:
      CHECK(short_f && long_f, POSENC_E_NULL);
      CHECK(isfinite(s->original_max_pos) && s->original_max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->max_pos) && s->max_pos >= 1.0, POSENC_E_VALUE);
      CHECK(isfinite(s->seq_len) && s->seq_len >= 0.0, POSENC_E_VALUE);
      for (int32_t i = 0; i < half; i++)
        CHECK(isfinite(short_f[i]) && short_f[i] > 0.0 && isfinite(1.0 / short_f[i]) && isfinite(long_f[i]) &&
              long_f[i] > 0.0 && isfinite(1.0 / long_f[i]), POSENC_E_VALUE);
      break;
    default:
      break;
  }
  return POSENC_OK;
}

/* The variant's attention factor: attention_factor when given, else yarn's mscale ratio or
 * longrope's sqrt(1 + ln(scale) / ln(L0)); 1 for the rest. */
static double scaled_attn(const posenc_rope_scaling *s, int32_t t) {
  double sf = s->factor;
  if (t == POSENC_SCALING_NONE) return 1.0;
  if (!isnan(s->attention_factor)) return s->attention_factor;
  if (t == POSENC_SCALING_YARN) {
    if (s->mscale > 0.0 && s->mscale_all_dim > 0.0) return get_mscale(sf, s->mscale) / get_mscale(sf, s->mscale_all_dim);
    return get_mscale(sf, 1.0);
  }
  if (t == POSENC_SCALING_LONGROPE) {
    /* the scale behind the default attention factor: factor when given, else maxPos / L0 */
    double scale = sf > 0.0 ? sf : s->max_pos / s->original_max_pos;
    return scale <= 1.0 ? 1.0 : sqrt(1.0 + log(scale) / log(s->original_max_pos));
  }
  return 1.0;
}

int posenc_rope_scaled_freq(double *inv_out, double *attn_out, int32_t rotary_dim, double base,
                            const posenc_rope_scaling *s, const double *short_factor,
                            const double *long_factor) {
  CHECK(inv_out && attn_out && s, POSENC_E_NULL);
  CHECK(elems3(rotary_dim, 1, 1), POSENC_E_SIZE);
  CHECK(rotary_dim % 2 == 0, POSENC_E_ROTARY);
  CHECK_BASE(base);
  int32_t d = rotary_dim, half = d / 2;
  int rc = check_scaling(s, half, short_factor, long_factor);
  if (rc) return rc;
  int32_t t = (int32_t)s->type; /* an integer in range: check_scaling saw to it */
  /* NTK-style variants raise the base by x^(d/(d-2)); with d = 2 that exponent is undefined */
  CHECK(!(t == POSENC_SCALING_NTK || t == POSENC_SCALING_DYNAMIC) || d > 2, POSENC_E_ROTARY);
  /* the yarn ramp and llama3 bands divide by log(base) and by wavelengths: base 1 has none */
  CHECK(!(t == POSENC_SCALING_YARN) || base > 1.0, POSENC_E_BASE);

  double b = base, attn = 1.0, sf = s->factor;
  if (t == POSENC_SCALING_NTK) b = base * pow(sf, (double)d / (d - 2));
  if (t == POSENC_SCALING_DYNAMIC && s->seq_len > s->max_pos)
    b = base * pow(sf * s->seq_len / s->max_pos - (sf - 1.0), (double)d / (d - 2));
  CHECK(isfinite(b) && b >= 1.0, POSENC_E_BASE);
  /* before anything is written: huge mscales give Inf / Inf, longrope with L0 = 1 divides by 0 */
  attn = scaled_attn(s, t);
  CHECK(isfinite(attn) && attn > 0.0, POSENC_E_VALUE);
  for (int32_t i = 0; i < half; i++) inv_out[i] = pow(b, -(2.0 * i) / d);

  switch (t) {
    case POSENC_SCALING_LINEAR:
      for (int32_t i = 0; i < half; i++) inv_out[i] /= sf;
      break;
    case POSENC_SCALING_YARN: {
      double l0 = s->original_max_pos;
      double low = yarn_corr_dim(s->beta_fast, d, base, l0), high = yarn_corr_dim(s->beta_slow, d, base, l0);
      if (s->truncate != 0.0) low = floor(low), high = ceil(high);
      if (low < 0.0) low = 0.0;
      if (high > d - 1) high = d - 1;
      if (low == high) high += 0.001; /* the ramp would divide by zero */
      for (int32_t i = 0; i < half; i++) {
        double ramp = (i - low) / (high - low);
        ramp = ramp < 0.0 ? 0.0 : ramp > 1.0 ? 1.0 : ramp;
        /* ramp 0: fast pairs keep theta_i (extrapolate); ramp 1: slow pairs get theta_i / s */
        inv_out[i] = inv_out[i] / sf * ramp + inv_out[i] * (1.0 - ramp);
      }
      break;
    }
    case POSENC_SCALING_LLAMA3: {
      double l0 = s->original_max_pos, lo = s->low_freq_factor, hi = s->high_freq_factor;
      double low_wl = l0 / lo, high_wl = l0 / hi;
      for (int32_t i = 0; i < half; i++) {
        double th = inv_out[i], wl = 2.0 * PI / th;
        if (wl < high_wl) continue; /* high frequency: unchanged */
        if (wl > low_wl) {
          inv_out[i] = th / sf; /* low frequency: interpolated */
        } else {
          double smooth = (l0 / wl - lo) / (hi - lo);
          inv_out[i] = (1.0 - smooth) * th / sf + smooth * th;
        }
      }
      break;
    }
    case POSENC_SCALING_LONGROPE: {
      const double *ext = s->seq_len > s->original_max_pos ? long_factor : short_factor;
      for (int32_t i = 0; i < half; i++) inv_out[i] /= ext[i];
      break;
    }
    default:
      break;
  }
  *attn_out = attn;
  return POSENC_OK;
}

/* ---- precision emulation ---- */

/* Round x to nearest (ties to even) into a binary float with `bits` significant bits, the
 * smallest normal exponent emin (x = m 2^e, m in [0.5, 1) normal when e > emin) and the
 * largest finite value maxv; +-Inf past it, as a cast would give. */
static double round_to(double x, int bits, int emin, double maxv) {
  if (x == 0.0 || !isfinite(x)) return x;
  /* frexp's exponent and ldexp's power of two, read and written as bits: both are libm calls
   * in wasm, and this runs four times a pair. A float64 subnormal reads as e = -1022, below
   * every emin here, so the clamp gives it the type's subnormal quantum as frexp's e would. */
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  int e = (int)((u >> 52) & 0x7ff) - 1022;
  if (e < emin + 1) e = emin + 1; /* subnormal: fixed quantum */
  uint64_t qb = (uint64_t)(e - bits + 1023) << 52;
  double q;
  memcpy(&q, &qb, sizeof q);
  double r = nearbyint(x / q) * q;
  return fabs(r) > maxv ? copysign(INFINITY, x) : r;
}

static double to_type(double x, int32_t type) {
  switch (type) {
    case POSENC_F32: return (double)(float)x;
    case POSENC_BF16: return round_to(x, 8, -126, 3.3895313892515355e38);
    case POSENC_F16: return round_to(x, 11, -14, 65504.0);
    default: return x;
  }
}

int posenc_rope_cache_emulated(double *cos_out, double *sin_out, const double *positions, int32_t n,
                               const double *inv_freq, int32_t half, double attn,
                               int32_t position_type, int32_t inv_type, int32_t angle_type,
                               int32_t out_type) {
  CHECK(cos_out && sin_out && positions && inv_freq, POSENC_E_NULL);
  CHECK(elems3(n, half, 1), POSENC_E_SIZE);
  CHECK(isfinite(attn), POSENC_E_VALUE);
  int32_t types[4] = {position_type, inv_type, angle_type, out_type};
  for (int k = 0; k < 4; k++) CHECK(types[k] >= POSENC_F64 && types[k] <= POSENC_F16, POSENC_E_KIND);
  double pmax, wmax;
  CHECK(nonneg_finite(positions, n, &pmax), POSENC_E_POSITION);
  CHECK(nonneg_finite(inv_freq, half, &wmax), POSENC_E_VALUE);
  /* a value that overflows its type would turn into Inf and then NaN: refuse it instead.
   * Rounding is monotonic, so the rounded largest position times the rounded largest
   * frequency bounds every rounded angle, and |attn| bounds every output. */
  double pr = to_type(pmax, position_type), wr = to_type(wmax, inv_type);
  CHECK(isfinite(pr), POSENC_E_POSITION);
  CHECK(isfinite(wr) && isfinite(to_type(pr * wr, angle_type)) && pr * wr < 1e300, POSENC_E_VALUE);
  CHECK(isfinite(to_type(fabs(attn), out_type)), POSENC_E_VALUE);
  for (int32_t r = 0; r < n; r++) {
    double p = to_type(positions[r], position_type);
    for (int32_t i = 0; i < half; i++) {
      double a = to_type(p * to_type(inv_freq[i], inv_type), angle_type);
      /* cos/sin of the rounded angle in float64 (libm's sincos: one range reduction for both,
       * and bit for bit its sin and cos, which are fdlibm's, as JS engines' Math.sin/cos are),
       * then the attention factor, then the cast */
      double sn, cs;
      sincos(a, &sn, &cs);
      cos_out[(size_t)r * half + i] = to_type(cs * attn, out_type);
      sin_out[(size_t)r * half + i] = to_type(sn * attn, out_type);
    }
  }
  return POSENC_OK;
}

/* ---- ALiBi ---- */

int posenc_alibi_slopes(double *out, int32_t heads) {
  CHECK(out, POSENC_E_NULL);
  CHECK(heads >= 1 && heads <= 65536, POSENC_E_SIZE);
  /* the paper's rule for a power of two n: m_h = 2^(-8h/n), h = 1..n; otherwise the slopes of
   * the nearest lower power of two, then every other slope of twice that power */
  int32_t p = 1;
  while (p * 2 <= heads) p *= 2;
  for (int32_t h = 0; h < p; h++) out[h] = pow(2.0, -8.0 * (h + 1) / p);
  for (int32_t h = 0; h < heads - p; h++) out[p + h] = pow(2.0, -8.0 * (2 * h + 1) / (2 * p));
  return POSENC_OK;
}

int posenc_alibi_bias(float *out, int32_t heads, int32_t seq) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(heads, seq, seq) && heads <= 1024, POSENC_E_SIZE);
  double slopes[1024];
  posenc_alibi_slopes(slopes, heads);
  for (int32_t h = 0; h < heads; h++)
    for (int32_t i = 0; i < seq; i++)
      for (int32_t j = 0; j < seq; j++)
        /* (j - i) m, not -(i - j) m: the diagonal must be +0, not -0 */
        out[((size_t)h * seq + i) * seq + j] = j <= i ? (float)((double)(j - i) * slopes[h]) : 0.0f;
  return POSENC_OK;
}

/* ---- tensor2tensor's timing signal ---- */

int posenc_sinusoidal_t2t(float *out, int32_t length, int32_t dim, double base, double start) {
  CHECK(out, POSENC_E_NULL);
  CHECK(elems3(length, dim, 1), POSENC_E_SIZE);
  CHECK(dim % 2 == 0, POSENC_E_ODD);
  CHECK_BASE(base);
  CHECK(start >= 0.0 && start <= 9007199254740992.0 - length, POSENC_E_POSITION);
  int32_t n = dim / 2;
  /* get_timing_signal_1d: inv_i = exp(-i ln(max/min) / max(n - 1, 1)), [sin | cos] */
  double inc = log(base) / (n > 1 ? n - 1 : 1);
  for (int32_t i = 0; i < n; i++) {
    double w = exp(-i * inc);
    for (int32_t r = 0; r < length; r++) {
      double a = (start + r) * w;
      out[(size_t)r * dim + i] = (float)sin(a);
      out[(size_t)r * dim + n + i] = (float)cos(a);
    }
  }
  return POSENC_OK;
}
