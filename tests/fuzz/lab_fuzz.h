/* lab_fuzz.h: what the lab's harnesses share (c/lab/lab.h, the length-generalisation lab).
 *
 * The configuration's 26 fields with their documented ranges; a hostile configuration (each
 * field kept, or set at, just past or far past a limit, to NaN, ±Inf, -0, a fraction, a value
 * that wraps int32, raw bits); the contract's own verdict on it (fzl_plan, restated from lab.h
 * alone: field ranges, the derived rules, the capacities); and a small valid model for the
 * harnesses of the calls that take one, with hyperparameters anywhere in their ranges.
 */
#ifndef POSENC_LAB_FUZZ_H
#define POSENC_LAB_FUZZ_H

#include "fuzz.h"
#include "lab/lab.h"

#define FZL_FIELDS 26
_Static_assert(sizeof(posenc_lab_config) == FZL_FIELDS * sizeof(double), "posenc_lab_config is 26 doubles");

/* A valid model's allocation the harnesses still create (bytes); larger valid configurations
 * are only planned (posenc_lab_model_bytes). */
#define FZL_MAX_BYTES (24u << 20)
/* Training steps a harness runs at most on one input. */
#define FZL_MAX_STEPS 3
/* Sequences an evaluate call generates at most on one input. */
#define FZL_MAX_SEQUENCES 6

typedef struct {
  const char *name;
  double lo, hi;    /* the range, both ends included */
  int integer;      /* integer-valued */
  int zero_default; /* 0 also allowed: the default */
} fzl_field;

/* lab.h's ranges, in the struct's order. */
static const fzl_field fzl_fields[FZL_FIELDS] = {
    {"seed", 0, 9007199254740991.0, 1, 0},   {"task", 0, 3, 1, 0},
    {"task_k", 0, 64, 1, 0},                 {"encoding", 0, 6, 1, 0},
    {"rope_style", 0, 1, 1, 0},              {"rope_base", 1.0 + 1e-9, 1e12, 0, 1},
    {"xpos_scale_base", 1e-3, 1e9, 0, 1},    {"vocab", 18, 64, 1, 1},
    {"d_model", 2, 256, 1, 0},               {"n_heads", 1, 16, 1, 0},
    {"n_layers", 1, 8, 1, 0},                {"d_ff", 0, 1024, 1, 0},
    {"max_positions", 0, 4096, 1, 0},        {"train_len", 1, 256, 1, 0},
    {"max_eval_len", 0, 1024, 1, 0},         {"batch", 1, 256, 1, 0},
    {"lr", 0, 10, 0, 0},                     {"warmup_steps", 0, 1e9, 0, 0},
    {"schedule", 0, 1, 1, 0},                {"total_steps", 0, 1e9, 0, 0},
    {"weight_decay", 0, 10, 0, 0},           {"beta1", 0, 0.999999, 0, 0},
    {"beta2", 0, 0.999999999, 0, 0},         {"eps", 1e-30, 1, 0, 0},
    {"clip_norm", 0, 1e9, 0, 0},             {"finetune_len", 0, 1024, 1, 0},
};

static inline double *fzl_field_of(posenc_lab_config *c, int i) { return (double *)c + i; }

static inline int fzl_field_ok(const fzl_field *f, double v) {
  if (f->zero_default && v == 0) return 1;
  return v >= f->lo && v <= f->hi && (!f->integer || v == floor(v));
}

/* A value for field f: at, just past or far past a limit, a special, or anywhere in range. */
static inline double fzl_value(fz *in, const fzl_field *f, double keep) {
  uint8_t s = fz_u8(in);
  double span = f->hi - f->lo;
  switch (s % 16) {
    case 0: return f->lo;
    case 1: return f->hi;
    case 2: return f->integer ? f->lo - 1 : nextafter(f->lo, -INFINITY);
    case 3: return f->integer ? f->hi + 1 : nextafter(f->hi, INFINITY);
    case 4: return f->lo - 1e6 - 2 * span;
    case 5: return f->hi * 1e6 + 1e9;
    case 6: return s & 16 ? NAN : -NAN;
    case 7: return INFINITY;
    case 8: return -INFINITY;
    case 9: return s & 16 ? -0.0 : 0.0;
    case 10: return f->lo + 0.5;
    case 11: { /* past int32 and uint32: a cast would wrap them into range */
      static const double wrap[] = {2147483648.0, 4294967296.0 + 18, -2147483649.0, 4294967296.0 + 1,
                                    18446744073709551616.0 + 1e5, -4294967296.0 + 32, 1e300, 4294967296.0 * 65536.0 + 64};
      return wrap[(s >> 4) % 8];
    }
    case 12: return fz_double(in);
    case 13: return f->integer ? f->lo + (double)(fz_bytes(in, 2) % ((uint64_t)fmin(span, 65534) + 1))
                               : f->lo + span * (double)fz_bytes(in, 2) / 65535.0;
    default: return keep;
  }
}

/* Tokens of one sequence of task at task length n (lab.h "Tasks"); 0 outside 1..1024. */
static inline int64_t fzl_tokens(int32_t task, int64_t n) {
  if (n < 1 || n > 1024) return 0;
  return task == POSENC_LAB_TASK_KBACK ? n : task == POSENC_LAB_TASK_RECALL ? 2 * n + 3 : 2 * n + 1;
}

/* Whether k-back refuses task lengths below k (train_len at create, n when fine-tuning), so that
 * every training step scores a token: read from the build once (a default configuration with
 * train_len 1 < k = 3); every call must then follow the same rule. */
static inline int fzl_kback_min_len(void) {
  static int rule = -1;
  if (rule < 0) {
    posenc_lab_config c;
    double bytes;
    posenc_lab_config_default(&c);
    c.task = POSENC_LAB_TASK_KBACK, c.task_k = 3, c.train_len = 1;
    rule = posenc_lab_model_bytes(&c, &bytes) != POSENC_OK;
  }
  return rule;
}

/* xPos scales q and k of pair i by zeta_i^(+-(p - c)/scale_base), zeta_0 = 2/7, stored as
 * lab_reals. lab.h refuses (POSENC_E_VALUE) a scale_base whose largest factor over the model's
 * longest sequence passes e^15, where float32 training could turn to NaN; every model it accepts
 * is held to finite results. */
#define FZL_XPOS_MAX_LOG 15.0

/* What lab.h says of a configuration. */
typedef struct {
  int fields_ok;        /* every field in range, and the derived rules hold */
  int finite;           /* and its results are representable (FZL_XPOS_MAX_LOG) */
  int stable;           /* and its AdamW cannot overflow float32 on its own (see fzl_plan_of) */
  int bad_field;        /* the first field out of range (-1: none) */
  int32_t task, k, enc, V, D, H, L, F, P, hd, train_len, eval_len, B, ft;
  int64_t t_train, t_max, t_batch; /* longest training, any, and full-batch sequence (tokens) */
  int64_t n_cap, att_cap;          /* tokens and softmax weights per layer the buffers hold */
  int64_t n_params;
  double reals_lo;                 /* a lower bound of all buffers together (lab_reals) */
} fzl_plan;

static inline int64_t fzl_max(int64_t a, int64_t b) { return a > b ? a : b; }

static inline fzl_plan fzl_plan_of(const posenc_lab_config *cfg) {
  fzl_plan p = {0};
  p.bad_field = -1;
  const double *v = (const double *)cfg;
  for (int i = 0; i < FZL_FIELDS; i++)
    if (!fzl_field_ok(&fzl_fields[i], v[i])) {
      p.bad_field = i;
      return p;
    }
  p.task = (int32_t)cfg->task, p.enc = (int32_t)cfg->encoding;
  p.k = cfg->task_k == 0 ? 3 : (int32_t)cfg->task_k;
  p.V = cfg->vocab == 0 ? 18 : (int32_t)cfg->vocab;
  p.D = (int32_t)cfg->d_model, p.H = (int32_t)cfg->n_heads, p.L = (int32_t)cfg->n_layers;
  p.F = cfg->d_ff == 0 ? 4 * p.D : (int32_t)cfg->d_ff;
  p.P = cfg->max_positions == 0 ? 512 : (int32_t)cfg->max_positions;
  p.train_len = (int32_t)cfg->train_len, p.B = (int32_t)cfg->batch;
  p.eval_len = cfg->max_eval_len == 0 ? 8 * p.train_len : (int32_t)cfg->max_eval_len;
  p.ft = cfg->finetune_len == 0 ? p.train_len : (int32_t)cfg->finetune_len;
  int rotary = p.enc == POSENC_LAB_ENC_ROPE || p.enc == POSENC_LAB_ENC_XPOS;
  if (p.D % p.H) return p;
  p.hd = p.D / p.H;
  if (rotary && p.hd % 2) return p;
  if (p.enc == POSENC_LAB_ENC_SINUSOIDAL && p.D % 2) return p;
  if (p.eval_len > 1024) return p;
  if (p.ft > p.train_len && p.ft > p.eval_len) return p;
  if (fzl_kback_min_len() && p.task == POSENC_LAB_TASK_KBACK && p.train_len < p.k) return p;
  p.t_train = fzl_tokens(p.task, p.train_len);
  p.t_max = fzl_tokens(p.task, p.eval_len > p.train_len ? p.eval_len : p.train_len);
  p.t_batch = fzl_tokens(p.task, p.ft > p.train_len ? p.ft : p.train_len);
  if (p.enc == POSENC_LAB_ENC_LEARNED && p.P < p.t_max) return p;
  int64_t train_tokens = (int64_t)p.B * p.t_batch, att_train = (int64_t)p.B * p.H * p.t_batch * p.t_batch;
  int64_t att_eval = (int64_t)p.H * p.t_max * p.t_max, cap = (int64_t)1 << 28;
  if (train_tokens > cap || att_train > cap || att_eval > cap) return p;
  p.n_cap = fzl_max(train_tokens, p.t_max), p.att_cap = fzl_max(att_train, att_eval);
  /* lab.h's model: embeddings, [learned table], [T5 table], L layers, final LayerNorm, head */
  int64_t D = p.D, F = p.F, layer = 2 * D + 3 * D * D + 3 * D + D * D + D + 2 * D + D * F + F + F * D + D;
  p.n_params = p.V * D + (p.enc == POSENC_LAB_ENC_LEARNED ? p.P * D : 0) +
               (p.enc == POSENC_LAB_ENC_T5 ? POSENC_LAB_T5_BUCKETS * p.H : 0) + p.L * layer + 2 * D + D * p.V + p.V;
  /* parameters, gradients and two moments; per layer the stream, LN, q|k|v, attention output, the
   * residual, LN again, the MLP's two [N][F]; the softmax weights; the logits */
  p.reals_lo = 4.0 * p.n_params + (double)p.L * ((double)p.att_cap + (double)p.n_cap * (8 * D + 2 * F)) +
               (double)p.n_cap * p.V;
  double sb = cfg->xpos_scale_base == 0 ? 512 : cfg->xpos_scale_base;
  p.finite = p.enc != POSENC_LAB_ENC_XPOS || (double)(p.t_max / 2 + 1) / sb * log(3.5) <= FZL_XPOS_MAX_LOG;
  /* AdamW overflows float32 for some hyperparameters lab.h accepts, as torch's would: beta2 near 0
   * with a tiny eps divides a remembered first moment by eps once a gradient is 0, and
   * lr·weight_decay > 1 grows every decayed weight geometrically. Such runs are held to no crash,
   * no undefined behaviour and rejections as documented, not to finite results. */
  p.stable = !(cfg->beta2 < 0.5 && cfg->eps < 1e-8) && cfg->lr * cfg->weight_decay <= 1;
  p.fields_ok = 1;
  return p;
}

/* A small valid configuration (what the model harnesses train): sizes a few units, every
 * hyperparameter anywhere in its range, extremes included. */
static inline void fzl_small_config(fz *in, posenc_lab_config *c) {
  static const double bases[] = {0, 1.0 + 1e-9, 2, 10000, 1e12}, xbases[] = {0, 1e-3, 0.05, 0.5, 1, 512, 1e9};
  static const double lrs[] = {0, 3e-3, 0.1, 1, 10}, warm[] = {0, 1, 2.5, 100, 1e9}, totals[] = {0, 2, 5, 1e9};
  static const double wds[] = {0, 0.01, 1, 10}, b1s[] = {0, 0.9, 0.999999}, b2s[] = {0, 0.999, 0.999999999};
  static const double epss[] = {1e-30, 1e-8, 1}, clips[] = {0, 1e-9, 1, 1e9};
#define FZL_PICK(a) a[fz_u8(in) % (sizeof a / sizeof *a)]
  posenc_lab_config_default(c);
  c->seed = (double)fz_bytes(in, 2);
  c->task = fz_u8(in) % 4;
  c->task_k = fz_u8(in) % 6;
  c->encoding = fz_u8(in) % 7;
  c->rope_style = fz_u8(in) & 1;
  c->rope_base = FZL_PICK(bases);
  c->xpos_scale_base = FZL_PICK(xbases);
  c->vocab = fz_u8(in) & 1 ? 0 : 18 + fz_u8(in) % 47;
  int32_t H = 1 + fz_u8(in) % 4, hd = 1 + fz_u8(in) % 8;
  int rotary = c->encoding == POSENC_LAB_ENC_ROPE || c->encoding == POSENC_LAB_ENC_XPOS;
  if (rotary && hd % 2) hd++;
  if (H * hd < 2) hd = 2;
  if (c->encoding == POSENC_LAB_ENC_SINUSOIDAL && (H * hd) % 2) hd++;
  c->n_heads = H, c->d_model = H * hd;
  c->n_layers = 1 + fz_u8(in) % 2;
  c->d_ff = fz_u8(in) % 3 == 0 ? 0 : 1 + fz_u8(in) % 24;
  c->max_positions = 0;
  c->train_len = 1 + fz_u8(in) % 6;
  if (c->task == POSENC_LAB_TASK_KBACK && c->train_len < (c->task_k == 0 ? 3 : c->task_k)) /* a length that trains */
    c->task_k = c->train_len;
  c->max_eval_len = fz_u8(in) % 4 == 0 ? 0 : 1 + fz_u8(in) % 12;
  c->batch = 1 + fz_u8(in) % 4;
  uint8_t ft = fz_u8(in);
  double longest = c->max_eval_len == 0 ? 8 * c->train_len : fmax(c->max_eval_len, c->train_len);
  c->finetune_len = ft % 3 == 0 ? 0 : 1 + ft % (int)longest;
  c->lr = FZL_PICK(lrs), c->warmup_steps = FZL_PICK(warm), c->schedule = fz_u8(in) & 1;
  c->total_steps = FZL_PICK(totals), c->weight_decay = FZL_PICK(wds);
  c->beta1 = FZL_PICK(b1s), c->beta2 = FZL_PICK(b2s), c->eps = FZL_PICK(epss), c->clip_norm = FZL_PICK(clips);
#undef FZL_PICK
  /* xPos at the edge of FZL_XPOS_MAX_LOG (the smallest scale_base create accepts), and wherever
   * the pick is below it */
  int64_t t_max = fzl_tokens((int32_t)c->task, (int64_t)fmax(longest, c->train_len));
  double edge = fmax(1e-3, (double)(t_max / 2 + 1) * log(3.5) / FZL_XPOS_MAX_LOG * (1 + 1e-12));
  double sb = c->xpos_scale_base == 0 ? 512 : c->xpos_scale_base;
  if (fz_u8(in) % 4 == 0 || sb < edge) c->xpos_scale_base = edge;
}

/* A model from fzl_small_config (its plan in *p); aborts when create refuses it. */
static inline posenc_lab_model *fzl_small_model(fz *in, posenc_lab_config *cfg, fzl_plan *p) {
  fzl_small_config(in, cfg);
  if (getenv("POSENC_FUZZ_VERBOSE")) /* the model behind a failure */
    for (int i = 0; i < FZL_FIELDS; i++)
      fprintf(stderr, "%s=%.17g%s", fzl_fields[i].name, *fzl_field_of(cfg, i), i == FZL_FIELDS - 1 ? "\n" : " ");
  *p = fzl_plan_of(cfg);
  if (!p->fields_ok) fz_fail(NULL, "lab_fuzz.h made a configuration lab.h refuses");
  posenc_lab_model *m = NULL;
  int rc = posenc_lab_create(cfg, &m);
  if (rc != POSENC_OK || !m) fz_fail(NULL, "posenc_lab_create refused a small valid configuration");
  return m;
}

/* The scaling argument of evaluate, attention, fine-tuning and loss_and_grad: the four kinds,
 * the others of posenc.h, anything. */
static inline int32_t fzl_scaling(fz *in) {
  static const int32_t kinds[] = {POSENC_SCALING_NONE, POSENC_SCALING_LINEAR, POSENC_SCALING_NTK, POSENC_SCALING_YARN};
  uint8_t s = fz_u8(in);
  return s < 192 ? kinds[s % 4] : fz_small_int(in, -2, 9);
}

/* A factor for those: mostly in [1, 1e6], sometimes at or past its ends or special. */
static inline double fzl_factor(fz *in) {
  static const double f[] = {1, 2, 4, 8, 1e6, 0.999999, 1e6 + 1, 0, -1, NAN, INFINITY, -INFINITY, 1.0000001};
  uint8_t s = fz_u8(in);
  return s < 208 ? f[s % 13] : fz_double(in);
}

/* lab.h's rule for them: a kind of the four; any but NONE only for rope and xpos, with a
 * finite factor in [1, 1e6]; NTK only with head_dim > 2. */
static inline int fzl_scaling_ok(const fzl_plan *p, int32_t scaling, double factor) {
  if (scaling == POSENC_SCALING_NONE) return 1;
  if (scaling != POSENC_SCALING_LINEAR && scaling != POSENC_SCALING_NTK && scaling != POSENC_SCALING_YARN) return 0;
  if (p->enc != POSENC_LAB_ENC_ROPE && p->enc != POSENC_LAB_ENC_XPOS) return 0;
  if (!(isfinite(factor) && factor >= 1.0 && factor <= 1e6)) return 0;
  return scaling != POSENC_SCALING_NTK || p->hd > 2;
}

/* A token array of n entries for a model of vocabulary V: in range, or with one or many
 * entries out of it (-1, V, INT32_MIN, INT32_MAX, anything). *ok says whether all are in range;
 * targets (with_minus_one) also take -1. */
static inline void fzl_fill_tokens(fz *in, int32_t *t, int64_t n, int32_t V, int with_minus_one, int *ok) {
  uint8_t mode = fz_u8(in) % 4;
  *ok = 1;
  for (int64_t i = 0; i < n; i++) {
    int32_t v;
    if (mode == 0) { /* element by element */
      uint8_t s = fz_u8(in);
      v = s < 200 ? (int32_t)(s % (uint32_t)(V + 1)) - (with_minus_one ? 1 : 0) : fz_size(in);
    } else {
      v = (int32_t)((i * 7 + 3) % V);
      if (with_minus_one && i % 3 == 0) v = -1;
    }
    t[i] = v;
  }
  if (mode == 2 && n) { /* one bad entry */
    static const int32_t bad[] = {-1, -2, INT32_MIN, INT32_MAX, 64, 65, 1 << 30};
    uint8_t s = fz_u8(in);
    int32_t b = s & 1 ? bad[(s >> 1) % 7] : V;
    if (with_minus_one && b == -1) b = -2;
    t[fz_bytes(in, 4) % (uint64_t)n] = b;
  }
  for (int64_t i = 0; i < n; i++) *ok &= t[i] >= (with_minus_one ? -1 : 0) && t[i] < V;
}

/* The model's parameters, gradients as a snapshot (for "a rejected call changed nothing"). */
typedef struct {
  lab_real *params, *grads;
  int32_t n;
} fzl_state;

static inline fzl_state fzl_save(posenc_lab_model *m) {
  fzl_state s = {NULL, NULL, posenc_lab_n_params(m)};
  if (s.n < 1) fz_fail(NULL, "posenc_lab_n_params of a live model is not positive");
  s.params = malloc(sizeof(lab_real) * (size_t)s.n);
  s.grads = malloc(sizeof(lab_real) * (size_t)s.n);
  if (!s.params || !s.grads) fz_fail(NULL, "malloc failed");
  memcpy(s.params, posenc_lab_params(m), sizeof(lab_real) * (size_t)s.n);
  memcpy(s.grads, posenc_lab_grads(m), sizeof(lab_real) * (size_t)s.n);
  return s;
}

static inline int fzl_unchanged(const fzl_state *s, posenc_lab_model *m) {
  return !memcmp(s->params, posenc_lab_params(m), sizeof(lab_real) * (size_t)s->n) &&
         !memcmp(s->grads, posenc_lab_grads(m), sizeof(lab_real) * (size_t)s->n);
}

static inline void fzl_drop(fzl_state *s) {
  free(s->params);
  free(s->grads);
}

static inline int fzl_finite(const lab_real *v, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (!isfinite(v[i])) return 0;
  return 1;
}

/* The calls that take a model reject a NULL one (what a caller holds after posenc_lab_free:
 * the JS API zeroes its handle) with POSENC_E_NULL, and posenc_lab_free(NULL) does nothing. */
static inline void fzl_null_model(void) {
  float f[4] = {7, 7, 7, 7};
  double d[4] = {7, 7, 7, 7};
  int32_t t[4] = {1, 1, 1, 1}, b = 7;
  const char *name = NULL;
  fz_call c = {.fn = "a lab call on a NULL model"};
  posenc_lab_free(NULL);
  FZ_CHECK(&c, posenc_lab_train_steps(NULL, 1, f) == POSENC_E_NULL, "train_steps");
  FZ_CHECK(&c, posenc_lab_finetune_steps(NULL, 1, 1, 0, 1, f) == POSENC_E_NULL, "finetune_steps");
  FZ_CHECK(&c, posenc_lab_finetune_batch(NULL, 1, &b) == POSENC_E_NULL, "finetune_batch");
  FZ_CHECK(&c, posenc_lab_evaluate(NULL, 1, 1, 0, 0, 1, d, d, d) == POSENC_E_NULL, "evaluate");
  FZ_CHECK(&c, posenc_lab_attention(NULL, t, 1, 0, 1, f) == POSENC_E_NULL, "attention");
  FZ_CHECK(&c, posenc_lab_hidden(NULL, t, 1, f) == POSENC_E_NULL, "hidden");
  FZ_CHECK(&c, posenc_lab_example(NULL, 1, 0, t, t + 2) == POSENC_E_NULL, "example");
  FZ_CHECK(&c, posenc_lab_loss_and_grad(NULL, t, t, 1, 1, 0, 1, 1, d) == POSENC_E_NULL, "loss_and_grad");
  FZ_CHECK(&c, posenc_lab_adamw_step(NULL) == POSENC_E_NULL, "adamw_step");
  FZ_CHECK(&c, posenc_lab_n_params(NULL) == POSENC_E_NULL && posenc_lab_n_groups(NULL) == POSENC_E_NULL, "n_params, n_groups");
  FZ_CHECK(&c, !posenc_lab_params(NULL) && !posenc_lab_grads(NULL), "params, grads");
  FZ_CHECK(&c, posenc_lab_group(NULL, 0, &name, t, t + 1, t + 2) == POSENC_E_NULL, "group");
  FZ_CHECK(&c, isnan(posenc_lab_lr_at(NULL, 0)), "lr_at");
  FZ_CHECK(&c, f[0] == 7 && d[0] == 7 && t[0] == 1 && t[2] == 1 && b == 7 && !name, "a rejected call wrote");
}

#endif
