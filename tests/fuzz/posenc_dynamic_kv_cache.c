/* posenc_dynamic_kv_cache: dynamic NTK with a KV cache. q, k [length][head_dim], every dim
 * rotated (rotary_dim = head_dim); steps[n_steps] in [1, length]; score_diff, weight_diff
 * [n_steps]; cached_scores, fresh_scores [length]. Seven pointers, buffers 0..6 in argument
 * order (score_diff, weight_diff, cached_scores, fresh_scores, q, k, steps). */
#include "fuzz.h"

/* The dynamic base of sequence length s (rotary_dim d), written as posenc_rope_scaled_freq
 * writes it, so that the harness's verdict matches the kernel's bit for bit. */
static double dyn_base(double base, double sf, double max_pos, double s, int32_t d) {
  double b = base;
  if (s > max_pos) b = base * pow(sf * s / max_pos - (sf - 1.0), (double)d / (d - 2));
  return b;
}

/* base, factor and max_pos as dynamic NTK takes them, and every base the call forms finite and
 * >= 1. The kernel rotates key j with the base of length j + 1 and the query of step t with
 * the base of length t, so every length in (max_pos, length] gets its base formed: the
 * longest gives the largest base (each operation is monotonic), but not the smallest, so a
 * shorter one can still fall below 1 where sf * s / max_pos and sf - 1 nearly cancel. */
static int scalars_ok(int32_t length, int32_t d, double base, double sf, double max_pos) {
  if (!fz_base_ok(base)) return 0;
  if (!(isfinite(sf) && sf > 0.0 && isfinite(1.0 / sf))) return 0;
  if (!(isfinite(max_pos) && max_pos >= 1.0)) return 0;
  for (int64_t s = length; s >= 1 && (double)s > max_pos; s--) {
    double b = dyn_base(base, sf, max_pos, (double)s, d);
    if (!(isfinite(b) && b >= 1.0)) return 0;
  }
  return 1;
}

/* One step: mostly in [1, length], sometimes at its edges or anything. */
static int32_t step_value(fz *in, int32_t length) {
  uint8_t s = fz_u8(in);
  if (s < 208) return 1 + (int32_t)(fz_bytes(in, 2) % (uint32_t)length);
  if (s < 240) return length - 4 + (s & 7); /* length - 4 .. length + 3 */
  return fz_size(in);
}

/* Mode 0: step by step from the input; 1: length, descending evenly towards 1; 2: that, but
 * for one element from the input. */
static void fill_steps(fz *in, int32_t *v, size_t n, int32_t length) {
  uint8_t mode = fz_u8(in) % 3;
  if (!n || length < 1) return;
  if (mode == 0) {
    for (size_t i = 0; i < n; i++) v[i] = step_value(in, length);
    return;
  }
  for (size_t i = 0; i < n; i++) v[i] = length - (int32_t)((int64_t)i * length / (int64_t)n);
  if (mode == 2) v[fz_bytes(in, 4) % n] = step_value(in, length);
}

/* Every |v[i]| <= lim (NaN fails). */
static int f32_within(const float *v, size_t n, float lim) {
  for (size_t i = 0; i < n; i++)
    if (!(fabsf(v[i]) <= lim)) return 0;
  return 1;
}

FZ_HARNESS(posenc_dynamic_kv_cache) {
  fz_call c = {.fn = "posenc_dynamic_kv_cache"};
  int32_t length = fz_size(in), head_dim = fz_size(in), n_steps = fz_size(in);
  int32_t style = fz_small_int(in, 0, 1);
  double base = fz_bool(in) ? 10000.0 : fz_double(in);
  double factor = fz_double(in), max_pos = fz_double(in);
  /* seven pointers: fz_null's one byte leaves room for five, so a second byte names the last two */
  uint8_t nb = fz_u8(in);
  unsigned nulls = (nb & 0xE0) == 0xE0 ? (nb & 0x1Fu) | (unsigned)(fz_u8(in) & 3) << 5 : 0;
  int64_t n = fz_elems(length, head_dim, 1);
  int sizes = n && fz_elems(n_steps, 1, 1);
  if (sizes) {
    if (n > FZ_MAX_ELEMS || n_steps > FZ_MAX_ELEMS) return 0;
  } else {
    n = 0;
  }
  int64_t ns = sizes ? n_steps : 0, nl = sizes ? length : 0;
  double *sd = fz_new(&c, "score_diff", (size_t)ns * sizeof(double));
  double *wd = fz_new(&c, "weight_diff", (size_t)ns * sizeof(double));
  double *cs = fz_new(&c, "cached_scores", (size_t)nl * sizeof(double));
  double *fs = fz_new(&c, "fresh_scores", (size_t)nl * sizeof(double));
  float *q = fz_new(&c, "q", (size_t)n * sizeof(float));
  float *k = fz_new(&c, "k", (size_t)n * sizeof(float));
  int32_t *steps = fz_new(&c, "steps", (size_t)ns * sizeof(int32_t));
  fz_fill_f32(in, q, (size_t)n);
  fz_fill_f32(in, k, (size_t)n);
  fill_steps(in, steps, (size_t)ns, length);

  int steps_ok = 1;
  int64_t work = 2 * nl; /* the cache and the last step */
  for (int64_t i = 0; i < ns; i++) {
    steps_ok &= steps[i] >= 1 && steps[i] <= length;
    if (steps[i] >= 1 && steps[i] <= length) work += steps[i];
  }
  int shape = sizes && head_dim % 2 == 0 && head_dim > 2 && (style == 0 || style == 1) && steps_ok;
  /* a call that gets past the shape checks does the work: skip it when too big */
  if (shape && work * head_dim > FZ_MAX_WORK) {
    fz_free(&c);
    return 0;
  }
  /* values up to FLT_MAX / 2: a rotated pair (at most |x0| + |x1|, attn = 1) stays finite */
  int valid = shape && !nulls && f32_within(q, (size_t)n, FLT_MAX / 2) && f32_within(k, (size_t)n, FLT_MAX / 2) &&
              scalars_ok(length, head_dim, base, factor, max_pos);
  fz_snapshot(&c);
  void *p[7];
  for (int i = 0; i < 7; i++) p[i] = nulls >> i & 1 ? NULL : c.b[i].p;
  int rc = posenc_dynamic_kv_cache(p[0], p[1], p[2], p[3], p[4], p[5], length, head_dim, style, base, factor,
                                   max_pos, p[6], n_steps);
  fz_after(&c, rc, valid, 16u | 32u | 64u);
  if (rc == POSENC_OK) {
    /* the last step's largest score difference, as the kernel takes it (fmax from 0, in order) */
    double last = 0.0;
    for (int64_t j = 0; j < length; j++) last = fmax(last, fabs(cs[j] - fs[j]));
    for (int64_t i = 0; i < ns; i++) {
      FZ_CHECK(&c, sd[i] >= 0.0 && wd[i] >= 0.0, "a difference below 0 (or NaN)");
      FZ_CHECK(&c, wd[i] <= 1.0, "a weight difference above 1");
      FZ_CHECK(&c, isfinite(sd[i]), "a score difference that is not finite");
      /* up to max_pos dynamic NTK keeps the base: cached and fresh keys are the same keys */
      if ((double)steps[i] <= max_pos) FZ_CHECK(&c, sd[i] == 0.0 && wd[i] == 0.0, "a step <= max_pos with a difference");
      if (steps[i] == length)
        FZ_CHECK(&c, memcmp(&sd[i], &last, sizeof last) == 0, "step length's score difference is not that of the score rows");
    }
    FZ_CHECK(&c, fz_bounded_f64(cs, (size_t)nl, -DBL_MAX, DBL_MAX) && fz_bounded_f64(fs, (size_t)nl, -DBL_MAX, DBL_MAX),
               "a score that is not finite");
    if ((double)length <= max_pos)
      FZ_CHECK(&c, memcmp(cs, fs, (size_t)nl * sizeof(double)) == 0, "length <= max_pos but the score rows differ");
  }
  fz_free(&c);
  return 0;
}
