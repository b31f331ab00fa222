/* kv_cache.c: dynamic NTK meets the KV cache (transformers#25104, "Inconsistent rotation base").
 *
 * Generation writes key j at step j + 1, rotated with the dynamic base of that step's sequence
 * length; the cache keeps it so. The query of step t (position t - 1) is rotated with the base
 * of length t. A model without a cache would rotate every key with that base too: the
 * experiment scores the query on both sets of keys, step by step.
 *
 * Everything is composed of the public kernels (posenc_rope_scaled_freq, posenc_rope_apply)
 * and attention's row (ps_dot, ps_score, ps_softmax), so each number is bit for bit what the
 * same calls made one by one from JS give: the tests hold the two side by side. One call
 * instead of a few hundred is the point: the page redraws this while a slider moves. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "dot.h"
#include "softmax.h"

typedef struct {
  const float *q, *k, *cache;
  float *fresh, *qt, *wc, *wf;
  double *pos, *inv, *dc, *df;
  int32_t head_dim, style;
  double base;
  posenc_rope_scaling s;
} kv_t;

/* theta_i and the attention factor of dynamic NTK at sequence length seq_len. */
static int dyn_freq(kv_t *c, double seq_len, double *attn) {
  c->s.seq_len = seq_len;
  return posenc_rope_scaled_freq(c->inv, attn, c->head_dim, c->base, &c->s, NULL, NULL);
}

/* Step t: the query at position t - 1 scored on the t cached keys (dc) and on the t keys
 * rotated afresh with step t's base (df); the largest differences of scores and of weights. */
static int step(kv_t *c, int32_t t, double *score_diff, double *weight_diff) {
  int32_t hd = c->head_dim;
  double attn;
  int rc = dyn_freq(c, t, &attn);
  if (rc) return rc;
  /* (POSENC_NONFINITE: NaN or inf in q or k rotates to NaN or inf, as any other value) */
  rc = posenc_rope_apply(c->qt, c->q + (size_t)(t - 1) * hd, 1, 1, hd, hd, c->style, c->pos + t - 1, c->inv, attn);
  if (rc < 0) return rc;
  rc = posenc_rope_apply(c->fresh, c->k, t, 1, hd, hd, c->style, c->pos, c->inv, attn);
  if (rc < 0) return rc;
  double scale = 1.0 / sqrt((double)hd), ds = 0.0, dw = 0.0;
  for (int32_t j = 0; j < t; j++) {
    c->dc[j] = ps_dot(c->qt, c->cache + (size_t)j * hd, hd);
    c->df[j] = ps_dot(c->qt, c->fresh + (size_t)j * hd, hd);
    c->wc[j] = ps_score(c->dc[j], scale);
    c->wf[j] = ps_score(c->df[j], scale);
    ds = fmax(ds, fabs(c->dc[j] - c->df[j]));
  }
  ps_softmax(c->wc, t);
  ps_softmax(c->wf, t);
  for (int32_t j = 0; j < t; j++) dw = fmax(dw, fabs((double)c->wc[j] - (double)c->wf[j]));
  *score_diff = ds;
  *weight_diff = dw;
  return POSENC_OK;
}

int posenc_dynamic_kv_cache(double *score_diff, double *weight_diff, double *cached_scores,
                            double *fresh_scores, const float *q, const float *k, int32_t length,
                            int32_t head_dim, int32_t style, double base, double factor,
                            double max_pos, const int32_t *steps, int32_t n_steps) {
  CHECK(score_diff && weight_diff && cached_scores && fresh_scores && q && k && steps, POSENC_E_NULL);
  size_t n = elems3(length, head_dim, 1);
  CHECK(n && elems3(n_steps, 1, 1), POSENC_E_SIZE);
  CHECK(head_dim % 2 == 0, POSENC_E_ROTARY);
  CHECK(style == POSENC_STYLE_INTERLEAVED || style == POSENC_STYLE_HALF, POSENC_E_STYLE);
  for (int32_t i = 0; i < n_steps; i++) CHECK(steps[i] >= 1 && steps[i] <= length, POSENC_E_VALUE);
  /* a rotated pair is at most |x0| + |x1|: up to FLT_MAX / 2 every rotated row, and so every
   * score, stays finite (past it a score could be NaN, and a NaN difference would read as 0) */
  CHECK(within_f32(q, n, FLT_MAX / 2) && within_f32(k, n, FLT_MAX / 2), POSENC_E_VALUE);

  kv_t c = {.q = q, .k = k, .head_dim = head_dim, .style = style, .base = base};
  c.s = (posenc_rope_scaling){.type = POSENC_SCALING_DYNAMIC, .factor = factor, .max_pos = max_pos,
                              .attention_factor = NAN, .truncate = 1.0};
  float *fbuf = malloc(sizeof(float) * (2 * n + (size_t)head_dim + 2 * (size_t)length));
  double *dbuf = malloc(sizeof(double) * (3 * (size_t)length + (size_t)head_dim / 2));
  int rc = fbuf && dbuf ? POSENC_OK : POSENC_E_SIZE;
  if (rc) goto done;
  float *cache = fbuf;
  c.cache = cache, c.fresh = cache + n, c.qt = c.fresh + n, c.wc = c.qt + head_dim, c.wf = c.wc + length;
  c.pos = dbuf, c.dc = c.pos + length, c.df = c.dc + length, c.inv = c.df + length;
  for (int32_t j = 0; j < length; j++) c.pos[j] = j;

  /* The cache: key j rotated with the base of length j + 1. Up to max_pos that is the
   * original base (dynamic NTK leaves it alone), one call for them all; past it, a base each.
   * So every length a step can use has its base formed here, before any output is written: a
   * base that overflows, or falls below 1 where factor * s / max_pos and factor - 1 cancel, is
   * refused with nothing written. */
  double attn;
  if ((rc = dyn_freq(&c, 1, &attn))) goto done;
  int32_t early = max_pos < length ? (int32_t)max_pos : length;
  if ((rc = posenc_rope_apply(cache, k, early, 1, head_dim, head_dim, style, c.pos, c.inv, attn)) < 0) goto done;
  for (int32_t j = early; j < length; j++) {
    size_t at = (size_t)j * head_dim;
    if ((rc = dyn_freq(&c, j + 1, &attn))) goto done;
    if ((rc = posenc_rope_apply(cache + at, k + at, 1, 1, head_dim, head_dim, style, c.pos + j, c.inv, attn)) < 0) goto done;
  }

  for (int32_t i = 0; i < n_steps; i++)
    if ((rc = step(&c, steps[i], &score_diff[i], &weight_diff[i]))) goto done;
  /* step length's two score rows are the output's: still in dc, df when it was the last step asked */
  if (steps[n_steps - 1] != length) {
    double ds, dw;
    if ((rc = step(&c, length, &ds, &dw))) goto done;
  }
  for (int32_t j = 0; j < length; j++) cached_scores[j] = c.dc[j], fresh_scores[j] = c.df[j];
done:
  free(fbuf);
  free(dbuf);
  return rc;
}
