/* posenc_rope_apply_table and posenc_rope_apply: x, out [seq][heads][head_dim]; pairs of the
 * first rotary_dim dims turn, the rest pass through; out may equal x but not partly overlap it;
 * POSENC_NONFINITE says x held a NaN or an infinity. */
#include "fuzz.h"

typedef struct {
  int32_t seq, heads, head_dim, rot, style;
  int64_t n;      /* seq * heads * head_dim, 0 when bad */
  int rot_ok;     /* rotary_dim even, in [2, head_dim] */
  size_t off;     /* out - x in floats when they share a block (alias) */
  int alias;      /* 0: apart, 1: in place, 2: partly overlapping */
  float *x, *out; /* what the kernel gets before NULLs */
  const float *x0; /* x before the call */
} shape;

/* Reads the shape and makes buffers 0 (out) and 1 (x), or one shared block 0. Returns 0 when
 * the call is valid-sized but too big to run. */
static int read_shape(fz *in, fz_call *c, shape *s) {
  s->seq = fz_size(in), s->heads = fz_size(in), s->head_dim = fz_size(in);
  uint8_t r = fz_u8(in);
  /* rotary_dim: mostly head_dim or a smaller even value, sometimes anything */
  int64_t below = ((int64_t)s->head_dim & ~1) - 2 * (r % 4);
  s->rot = r < 96 ? s->head_dim : r < 192 ? (int32_t)(below < INT32_MIN ? INT32_MIN : below) : fz_size(in);
  s->style = fz_small_int(in, 0, 1);
  s->n = fz_elems(s->seq, s->heads, s->head_dim);
  s->rot_ok = s->rot >= 2 && s->rot % 2 == 0 && s->rot <= s->head_dim;
  if (s->n > FZ_MAX_ELEMS) return 0;
  uint8_t a = fz_u8(in) % 4;
  s->alias = a < 2 || s->n < 2 ? 0 : a - 1;
  s->off = 0;
  if (!s->alias) {
    s->out = fz_new(c, "out", (size_t)s->n * sizeof(float));
    s->x = fz_new(c, "x", (size_t)s->n * sizeof(float));
  } else {
    s->off = s->alias == 1 ? 0 : 1 + fz_bytes(in, 4) % (size_t)(s->n - 1);
    s->x = fz_new(c, "x and out", (size_t)(s->n + s->off) * sizeof(float));
    s->out = s->x + s->off;
    fz_new(c, "(unused)", 0); /* keeps the buffer numbering of the apart case */
  }
  fz_fill_f32(in, s->x, (size_t)s->n);
  return 1;
}

static int shape_ok(const shape *s) {
  return s->n && s->rot_ok && (s->style == 0 || s->style == 1) && s->alias != 2;
}

/* Dims past rotary_dim are x's, bit for bit. */
static void check_pass_through(fz_call *c, const shape *s) {
  for (int64_t row = 0; row < (int64_t)s->seq * s->heads; row++)
    for (int32_t d = s->rot; d < s->head_dim; d++) {
      float a = s->out[row * s->head_dim + d], b = s->x0[row * s->head_dim + d];
      FZ_CHECK(c, memcmp(&a, &b, sizeof a) == 0, "a dim past rotary_dim changed");
    }
}

/* POSENC_NONFINITE (the rotation done) exactly when it should be: whenever x holds a NaN or an
 * infinity, and otherwise only when some output is not finite (an overflow, or a cos or sin
 * that is not finite). Returns the status the contract checks see (POSENC_OK for it). */
static int check_nonfinite(fz_call *c, const shape *s, int rc) {
  if (rc < 0) return rc;
  int bad_x = 0, bad_out = 0;
  for (int64_t i = 0; i < s->n; i++) bad_x |= !isfinite(s->x0[i]), bad_out |= !isfinite(s->out[i]);
  FZ_CHECK(c, rc == POSENC_OK || rc == POSENC_NONFINITE, "a positive status other than POSENC_NONFINITE");
  FZ_CHECK(c, !bad_x || rc == POSENC_NONFINITE, "x held a NaN or an infinity and the status did not say so");
  FZ_CHECK(c, rc == POSENC_OK || bad_out, "POSENC_NONFINITE with every value of x and of out finite");
  return POSENC_OK;
}

/* out is x rotated by the cos/sin table [seq][rot/2], computed as rotate_scalar does. */
static void check_rotation(fz_call *c, const shape *s, const float *cs, const float *sn) {
  int32_t half = s->rot / 2;
  for (int64_t r = 0; r < s->seq; r++)
    for (int64_t h = 0; h < s->heads; h++) {
      const float *x = s->x0 + (r * s->heads + h) * s->head_dim;
      const float *o = s->out + (r * s->heads + h) * s->head_dim;
      for (int32_t i = 0; i < half; i++) {
        int32_t i0 = s->style == POSENC_STYLE_HALF ? i : 2 * i, i1 = s->style == POSENC_STYLE_HALF ? i + half : 2 * i + 1;
        float co = cs[r * half + i], si = sn[r * half + i];
        float want0 = x[i0] * co - x[i1] * si, want1 = x[i0] * si + x[i1] * co;
        FZ_CHECK(c, (o[i0] == want0 || (isnan(o[i0]) && isnan(want0))) && (o[i1] == want1 || (isnan(o[i1]) && isnan(want1))),
                 "a rotated pair differs from (x0 cos - x1 sin, x0 sin + x1 cos)");
      }
    }
}

FZ_HARNESS(posenc_rope_apply_table) {
  fz_call c = {.fn = "posenc_rope_apply_table"};
  shape s;
  if (!read_shape(in, &c, &s)) return 0;
  int64_t nt = s.n && s.rot_ok ? (int64_t)s.seq * (s.rot / 2) : 0;
  float *cs = fz_new(&c, "cos_t", (size_t)nt * sizeof(float));
  float *sn = fz_new(&c, "sin_t", (size_t)nt * sizeof(float));
  fz_fill_f32(in, cs, (size_t)nt);
  fz_fill_f32(in, sn, (size_t)nt);
  uint8_t nulls = fz_u8(in);
  int valid = shape_ok(&s) && !fz_any_null(nulls, 4);
  fz_snapshot(&c);
  s.x0 = (const float *)c.b[s.alias ? 0 : 1].copy;
  int rc = posenc_rope_apply_table(fz_null(nulls, 0) ? NULL : s.out, fz_null(nulls, 1) ? NULL : s.x, s.seq, s.heads,
                                   s.head_dim, s.rot, s.style, fz_ptr(&c, 2, nulls), fz_ptr(&c, 3, nulls));
  rc = check_nonfinite(&c, &s, rc);
  fz_after(&c, rc, valid, (s.alias ? 0u : 2u) | 4u | 8u);
  if (rc == POSENC_OK) {
    check_pass_through(&c, &s);
    check_rotation(&c, &s, cs, sn);
  }
  fz_free(&c);
  return 0;
}

FZ_HARNESS(posenc_rope_apply) {
  fz_call c = {.fn = "posenc_rope_apply"};
  shape s;
  if (!read_shape(in, &c, &s)) return 0;
  int64_t np = s.n ? s.seq : 0, nh = s.n && s.rot_ok ? s.rot / 2 : 0;
  double *pos = fz_new(&c, "positions", (size_t)np * sizeof(double));
  double *w = fz_new(&c, "inv_freq", (size_t)nh * sizeof(double));
  fz_fill_f64(in, pos, (size_t)np);
  fz_fill_f64(in, w, (size_t)nh);
  double attn = fz_bool(in) ? 1.0 : fz_double(in);
  uint8_t nulls = fz_u8(in);
  double pmax = 0, wmax = 0;
  int valid = shape_ok(&s) && !fz_any_null(nulls, 4) && isfinite(attn) && fz_nonneg(pos, (size_t)np, &pmax) &&
              fz_nonneg(w, (size_t)nh, &wmax) && pmax * wmax < 1e300;
  fz_snapshot(&c);
  s.x0 = (const float *)c.b[s.alias ? 0 : 1].copy;
  int rc = posenc_rope_apply(fz_null(nulls, 0) ? NULL : s.out, fz_null(nulls, 1) ? NULL : s.x, s.seq, s.heads,
                             s.head_dim, s.rot, s.style, fz_ptr(&c, 2, nulls), fz_ptr(&c, 3, nulls), attn);
  rc = check_nonfinite(&c, &s, rc);
  fz_after(&c, rc, valid, (s.alias ? 0u : 2u) | 4u | 8u);
  if (rc == POSENC_OK) {
    check_pass_through(&c, &s);
    /* the fused kernel turns x exactly as the cos/sin cache plus the table kernel would */
    size_t nt = (size_t)s.seq * (size_t)(s.rot / 2);
    float *cs = malloc(nt * sizeof(float)), *sn = malloc(nt * sizeof(float));
    FZ_CHECK(&c, cs && sn, "malloc failed");
    FZ_CHECK(&c, posenc_rope_cache(cs, sn, pos, s.seq, w, s.rot / 2, attn) == POSENC_OK,
             "posenc_rope_cache rejected what posenc_rope_apply took");
    check_rotation(&c, &s, cs, sn);
    free(cs);
    free(sn);
  }
  fz_free(&c);
  return 0;
}
