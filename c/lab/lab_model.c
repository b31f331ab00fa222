/* lab_model.c: the model object: configuration checks, one allocation for every buffer, the
 * flat parameter vector and its groups, and the seeded initialisation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../relative.h"
#include "lab_internal.h"

#define LAB_MAX_REALS (1u << 28)

int posenc_lab_config_default(posenc_lab_config *c) {
  LAB_CHECK(c, POSENC_E_NULL);
  memset(c, 0, sizeof *c);
  c->task = POSENC_LAB_TASK_KBACK;
  c->task_k = 3;
  c->encoding = POSENC_LAB_ENC_ROPE;
  c->rope_style = POSENC_STYLE_HALF;
  c->rope_base = 10000;
  c->xpos_scale_base = 512;
  c->vocab = 18;
  c->d_model = 32, c->n_heads = 4, c->n_layers = 2, c->d_ff = 128;
  c->max_positions = 512;
  c->train_len = 16, c->max_eval_len = 128, c->batch = 32;
  c->lr = 3e-3, c->warmup_steps = 100, c->schedule = POSENC_LAB_SCHEDULE_CONSTANT, c->total_steps = 0;
  c->weight_decay = 0.01, c->beta1 = 0.9, c->beta2 = 0.999, c->eps = 1e-8, c->clip_norm = 0;
  return POSENC_OK;
}

/* an integer-valued double in [lo, hi] */
static int is_int(double v, double lo, double hi) { return v >= lo && v <= hi && v == floor(v); }
static int finite_in(double v, double lo, double hi) { return isfinite(v) && v >= lo && v <= hi; }

/* Checks cfg and fills the model's configuration fields (defaults for the 0 fields). */
static int configure(struct lab_model *m, const posenc_lab_config *c) {
  LAB_CHECK(is_int(c->seed, 0, 9007199254740991.0), POSENC_E_VALUE);
  LAB_CHECK(is_int(c->task, 0, 3), POSENC_E_KIND);
  LAB_CHECK(is_int(c->encoding, 0, 6), POSENC_E_KIND);
  LAB_CHECK(c->rope_style == POSENC_STYLE_INTERLEAVED || c->rope_style == POSENC_STYLE_HALF, POSENC_E_STYLE);
  LAB_CHECK(c->rope_base == 0 || finite_in(c->rope_base, 1.0 + 1e-9, 1e12), POSENC_E_BASE);
  LAB_CHECK(c->xpos_scale_base == 0 || finite_in(c->xpos_scale_base, 1e-3, 1e9), POSENC_E_VALUE);
  LAB_CHECK(is_int(c->task_k, 0, 64), POSENC_E_VALUE);
  LAB_CHECK(c->vocab == 0 || is_int(c->vocab, 18, 64), POSENC_E_SIZE);
  LAB_CHECK(is_int(c->d_model, 2, 256) && is_int(c->n_heads, 1, LAB_MAX_HEADS), POSENC_E_SIZE);
  LAB_CHECK(is_int(c->n_layers, 1, LAB_MAX_LAYERS) && is_int(c->d_ff, 0, 1024), POSENC_E_SIZE);
  LAB_CHECK(is_int(c->max_positions, 0, 4096), POSENC_E_SIZE);
  LAB_CHECK(is_int(c->train_len, 1, 256) && is_int(c->max_eval_len, 0, 1024), POSENC_E_SIZE);
  LAB_CHECK(is_int(c->batch, 1, 256), POSENC_E_SIZE);
  LAB_CHECK(finite_in(c->lr, 0, 10) && finite_in(c->warmup_steps, 0, 1e9), POSENC_E_VALUE);
  LAB_CHECK(c->schedule == POSENC_LAB_SCHEDULE_CONSTANT || c->schedule == POSENC_LAB_SCHEDULE_COSINE, POSENC_E_KIND);
  LAB_CHECK(finite_in(c->total_steps, 0, 1e9) && finite_in(c->weight_decay, 0, 10), POSENC_E_VALUE);
  LAB_CHECK(finite_in(c->beta1, 0, 0.999999) && finite_in(c->beta2, 0, 0.999999999), POSENC_E_VALUE);
  LAB_CHECK(finite_in(c->eps, 1e-30, 1) && finite_in(c->clip_norm, 0, 1e9), POSENC_E_VALUE);
  LAB_CHECK(is_int(c->finetune_len, 0, 1024), POSENC_E_SIZE);
  m->task = (int32_t)c->task, m->enc = (int32_t)c->encoding, m->style = (int32_t)c->rope_style;
  m->k = c->task_k == 0 ? 3 : (int32_t)c->task_k;
  m->base = c->rope_base == 0 ? 10000.0 : c->rope_base;
  m->xpos_base = c->xpos_scale_base == 0 ? 512.0 : c->xpos_scale_base;
  m->V = c->vocab == 0 ? 18 : (int32_t)c->vocab;
  m->D = (int32_t)c->d_model, m->H = (int32_t)c->n_heads, m->L = (int32_t)c->n_layers;
  m->F = c->d_ff == 0 ? 4 * m->D : (int32_t)c->d_ff;
  LAB_CHECK(m->F >= 1 && m->F <= 1024, POSENC_E_SIZE);
  LAB_CHECK(m->D % m->H == 0, POSENC_E_VALUE);
  m->hd = m->D / m->H;
  LAB_CHECK(m->hd % 2 == 0 || (m->enc != POSENC_LAB_ENC_ROPE && m->enc != POSENC_LAB_ENC_XPOS), POSENC_E_ROTARY);
  LAB_CHECK(m->D % 2 == 0 || m->enc != POSENC_LAB_ENC_SINUSOIDAL, POSENC_E_ODD);
  m->train_len = (int32_t)c->train_len;
  m->eval_len = c->max_eval_len == 0 ? 8 * m->train_len : (int32_t)c->max_eval_len;
  LAB_CHECK(m->eval_len <= 1024, POSENC_E_SIZE);
  m->B = (int32_t)c->batch;
  LAB_CHECK(m->train_len >= lab_task_min_len(m->task, m->k), POSENC_E_VALUE); /* some length trains */
  m->t_train = lab_task_tokens(m->task, m->train_len);
  int32_t ft = c->finetune_len == 0 ? m->train_len : (int32_t)c->finetune_len;
  LAB_CHECK(ft <= m->train_len || ft <= m->eval_len, POSENC_E_SIZE);
  int32_t t_batch = lab_task_tokens(m->task, ft > m->train_len ? ft : m->train_len); /* longest full batch */
  int32_t te = lab_task_tokens(m->task, m->eval_len > m->train_len ? m->eval_len : m->train_len);
  LAB_CHECK(m->t_train > 0 && te > 0, POSENC_E_SIZE);
  m->t_max = te;
  /* xPos scales q and k by zeta^(+-(p - T/2)/scale_base), zeta >= 2/7: past e^15 a factor, and the
   * products and squares training forms from it (Adam's squared gradients among them), leave what
   * float32 holds finite: e^15 leaves room for them. */
  LAB_CHECK(m->enc != POSENC_LAB_ENC_XPOS || (double)(te / 2 + 1) / m->xpos_base * log(3.5) <= 15.0, POSENC_E_VALUE);
  m->P = c->max_positions == 0 ? 512 : (int32_t)c->max_positions;
  LAB_CHECK(m->enc != POSENC_LAB_ENC_LEARNED || m->P >= m->t_max, POSENC_E_SIZE);
  m->lr = c->lr, m->warmup = c->warmup_steps, m->schedule = c->schedule, m->total = c->total_steps;
  m->wd = c->weight_decay, m->beta1 = c->beta1, m->beta2 = c->beta2, m->eps = c->eps, m->clip = c->clip_norm;
  /* token capacity: a full batch (training or fine-tuning), or one evaluation sequence of the
   * longest length */
  int64_t train_tokens = (int64_t)m->B * t_batch;
  m->n_cap = (int32_t)(train_tokens > m->t_max ? train_tokens : m->t_max);
  int64_t att_train = (int64_t)m->B * m->H * t_batch * t_batch, att_eval = (int64_t)m->H * m->t_max * m->t_max;
  /* checked here, before size_t (32 bits in wasm) could wrap them; the total is checked at create */
  LAB_CHECK(train_tokens <= LAB_MAX_REALS && att_train <= LAB_MAX_REALS && att_eval <= LAB_MAX_REALS, POSENC_E_SIZE);
  m->att_cap = (size_t)(att_train > att_eval ? att_train : att_eval);
  return POSENC_OK;
}

static void add_group(struct lab_model *m, lab_real **p, const char *name, int32_t layer, int32_t size,
                      int32_t decay) {
  lab_group *g = &m->group[m->n_groups];
  char *dst = m->names[m->n_groups];
  size_t n = strlen(name); /* at most 7 characters */
  memcpy(dst, name, n);
  if (layer >= 0) dst[n++] = '.', dst[n++] = (char)('0' + layer); /* layer < 8 */
  dst[n] = 0;
  g->off = m->n_params, g->size = size, g->decay = decay;
  *p = (lab_real *)(uintptr_t)(size_t)m->n_params; /* an offset until the vector exists */
  m->n_groups++;
  m->n_params += size;
}

/* Lays out the parameter groups; pointers hold offsets until bind_params. */
static void layout_params(struct lab_model *m) {
  int32_t D = m->D, F = m->F;
  m->n_params = 0, m->n_groups = 0;
  add_group(m, &m->tok_emb, "tok_emb", -1, m->V * D, 1);
  if (m->enc == POSENC_LAB_ENC_LEARNED) add_group(m, &m->pos_emb, "pos_emb", -1, m->P * D, 1);
  if (m->enc == POSENC_LAB_ENC_T5) add_group(m, &m->t5_bias, "t5_bias", -1, POSENC_LAB_T5_BUCKETS * m->H, 0);
  for (int32_t l = 0; l < m->L; l++) {
    lab_layer *w = &m->layer[l];
    add_group(m, &w->ln1_g, "ln1_g", l, D, 0);
    add_group(m, &w->ln1_b, "ln1_b", l, D, 0);
    add_group(m, &w->wqkv, "wqkv", l, D * 3 * D, 1);
    add_group(m, &w->bqkv, "bqkv", l, 3 * D, 0);
    add_group(m, &w->wo, "wo", l, D * D, 1);
    add_group(m, &w->bo, "bo", l, D, 0);
    add_group(m, &w->ln2_g, "ln2_g", l, D, 0);
    add_group(m, &w->ln2_b, "ln2_b", l, D, 0);
    add_group(m, &w->w1, "w1", l, D * F, 1);
    add_group(m, &w->b1, "b1", l, F, 0);
    add_group(m, &w->w2, "w2", l, F * D, 1);
    add_group(m, &w->b2, "b2", l, D, 0);
  }
  add_group(m, &m->lnf_g, "lnf_g", -1, D, 0);
  add_group(m, &m->lnf_b, "lnf_b", -1, D, 0);
  add_group(m, &m->wh, "wh", -1, D * m->V, 1);
  add_group(m, &m->bh, "bh", -1, m->V, 0);
}

#define BIND(p) ((p) = m->params + (size_t)(uintptr_t)(p))
static void bind_params(struct lab_model *m) {
  BIND(m->tok_emb);
  if (m->enc == POSENC_LAB_ENC_LEARNED) BIND(m->pos_emb);
  if (m->enc == POSENC_LAB_ENC_T5) BIND(m->t5_bias);
  for (int32_t l = 0; l < m->L; l++) {
    lab_layer *w = &m->layer[l];
    BIND(w->ln1_g), BIND(w->ln1_b), BIND(w->wqkv), BIND(w->bqkv), BIND(w->wo), BIND(w->bo);
    BIND(w->ln2_g), BIND(w->ln2_b), BIND(w->w1), BIND(w->b1), BIND(w->w2), BIND(w->b2);
  }
  BIND(m->lnf_g), BIND(m->lnf_b), BIND(m->wh), BIND(m->bh);
}

static void fill_normal(lab_real *p, size_t n, double std, lab_rng *r) {
  for (size_t i = 0; i < n; i++) p[i] = (lab_real)(std * lab_rng_normal(r));
}
static void fill_const(lab_real *p, size_t n, lab_real v) {
  for (size_t i = 0; i < n; i++) p[i] = v;
}

/* Embeddings and the learned position table N(0, 1) (nn.Embedding); linear weights N(0,
 * 1/(3 fan_in)) (the variance of nn.Linear's default uniform init); biases 0; LayerNorm gains 1;
 * the T5 table N(0, 1/D) (HF T5's std d_model^-0.5). */
static void init_params(struct lab_model *m, lab_rng *r) {
  int32_t D = m->D, F = m->F;
  double sd = 1.0 / sqrt(3.0 * D), sf = 1.0 / sqrt(3.0 * F);
  memset(m->params, 0, sizeof(lab_real) * (size_t)m->n_params);
  fill_normal(m->tok_emb, (size_t)m->V * D, 1.0, r);
  if (m->enc == POSENC_LAB_ENC_LEARNED) fill_normal(m->pos_emb, (size_t)m->P * D, 1.0, r);
  if (m->enc == POSENC_LAB_ENC_T5) fill_normal(m->t5_bias, (size_t)POSENC_LAB_T5_BUCKETS * m->H, 1.0 / sqrt((double)D), r);
  for (int32_t l = 0; l < m->L; l++) {
    lab_layer *w = &m->layer[l];
    fill_const(w->ln1_g, D, 1), fill_const(w->ln2_g, D, 1);
    fill_normal(w->wqkv, (size_t)D * 3 * D, sd, r);
    fill_normal(w->wo, (size_t)D * D, sd, r);
    fill_normal(w->w1, (size_t)D * F, sd, r);
    fill_normal(w->w2, (size_t)F * D, sf, r);
  }
  fill_const(m->lnf_g, D, 1);
  fill_normal(m->wh, (size_t)D * m->V, sd, r);
}

/* The next n lab_reals of the arena, rounded up to 16 bytes. */
static lab_real *take(char **p, size_t n) {
  lab_real *r = (lab_real *)*p;
  *p += (n * sizeof(lab_real) + 15) & ~(size_t)15;
  return r;
}

/* Checks cfg into tmp and sizes the arena: the one rule for create and model_bytes. */
static int plan(struct lab_model *tmp, const posenc_lab_config *cfg, uint64_t *bytes_out) {
  memset(tmp, 0, sizeof *tmp);
  int rc = configure(tmp, cfg);
  if (rc) return rc;
  layout_params(tmp);
  int32_t D = tmp->D, F = tmp->F, V = tmp->V, L = tmp->L, T = tmp->t_max, hd = tmp->hd;
  uint64_t N = (uint64_t)tmp->n_cap, np = (uint64_t)tmp->n_params;
  uint64_t per_layer = N * (6u * D + 3u * D + 4 + 2u * F) + tmp->att_cap;
  uint64_t wt = (uint64_t)D * (3u * D > (uint32_t)F ? 3u * D : (uint32_t)F);
  if (wt < (uint64_t)D * V) wt = (uint64_t)D * V;
  uint64_t reals = 4 * np + L * per_layer + N * (3u * D + 2 + V) /* xf lnf muf rsf logits */
                   + N * (4u * D + 3u * D + F + V) /* dx dtmp dqkv dao dh dlog */ + wt
                   + (uint64_t)2 * hd * T + (uint64_t)T * T /* attention scratch */
                   + (uint64_t)T * D + (uint64_t)4 * T * (hd / 2 + 1) + (uint64_t)tmp->H * T
                   + 64 * (uint64_t)(L * 16 + 40); /* alignment slack */
  LAB_CHECK(reals <= LAB_MAX_REALS, POSENC_E_SIZE);
  *bytes_out = reals * sizeof(lab_real) + (3 * N + T) * sizeof(int32_t) + N * sizeof(double) + 64;
  return POSENC_OK;
}

int posenc_lab_model_bytes(const posenc_lab_config *cfg, double *bytes_out) {
  LAB_CHECK(cfg && bytes_out, POSENC_E_NULL);
  struct lab_model tmp;
  uint64_t bytes;
  int rc = plan(&tmp, cfg, &bytes);
  if (rc) return rc;
  *bytes_out = (double)(bytes + sizeof(struct lab_model));
  return POSENC_OK;
}

int posenc_lab_create(const posenc_lab_config *cfg, posenc_lab_model **out) {
  LAB_CHECK(cfg && out, POSENC_E_NULL);
  struct lab_model tmp;
  uint64_t bytes;
  int rc = plan(&tmp, cfg, &bytes);
  if (rc) return rc;
  int32_t D = tmp.D, F = tmp.F, V = tmp.V, L = tmp.L, T = tmp.t_max, hd = tmp.hd;
  uint64_t N = (uint64_t)tmp.n_cap, np = (uint64_t)tmp.n_params;
  uint64_t wt = (uint64_t)D * (3u * D > (uint32_t)F ? 3u * D : (uint32_t)F);
  if (wt < (uint64_t)D * V) wt = (uint64_t)D * V;
  struct lab_model *m = malloc(sizeof *m);
  void *arena = malloc((size_t)bytes);
  if (!m || !arena) {
    free(m);
    free(arena);
    return POSENC_E_SIZE;
  }
  *m = tmp;
  m->arena = arena;
  /* carve the arena: doubles first, then reals (each block rounded to 16 bytes), then ints */
  char *p = arena;
  m->row_loss = (double *)p, p += N * sizeof(double);
#define TAKE(n) take(&p, (size_t)(n))
  m->params = TAKE(np), m->grads = TAKE(np), m->adam_m = TAKE(np), m->adam_v = TAKE(np);
  for (int32_t l = 0; l < L; l++) {
    lab_acts *a = &m->act[l];
    a->x = TAKE(N * D), a->ln1 = TAKE(N * D), a->mu1 = TAKE(N), a->rs1 = TAKE(N);
    a->qkv = TAKE(N * 3 * D), a->att = TAKE(tmp.att_cap), a->ao = TAKE(N * D), a->xm = TAKE(N * D);
    a->ln2 = TAKE(N * D), a->mu2 = TAKE(N), a->rs2 = TAKE(N), a->h = TAKE(N * F), a->g = TAKE(N * F);
  }
  m->xf = TAKE(N * D), m->lnf = TAKE(N * D), m->muf = TAKE(N), m->rsf = TAKE(N), m->logits = TAKE(N * V);
  m->dx = TAKE(N * D), m->dtmp = TAKE(N * D), m->dqkv = TAKE(N * 3 * D), m->dao = TAKE(N * D);
  m->dh = TAKE(N * F), m->dlog = TAKE(N * V), m->wt = TAKE(wt);
  m->attn_scratch = TAKE((uint64_t)2 * hd * T + (uint64_t)T * T);
  m->pe = TAKE((uint64_t)T * D), m->cs = TAKE(T * (hd / 2 + 1)), m->sn = TAKE(T * (hd / 2 + 1));
  m->xq = TAKE(T * (hd / 2 + 1)), m->xk = TAKE(T * (hd / 2 + 1)), m->bias = TAKE(tmp.H * T);
#undef TAKE
  m->tokens = (int32_t *)p, m->targets = m->tokens + N, m->row_ok = m->targets + N, m->bucket = m->row_ok + N;

  bind_params(m);
  for (int32_t d = 0; d < T; d++)
    m->bucket[d] = ps_t5_bucket(-d, 0, POSENC_LAB_T5_BUCKETS, POSENC_LAB_T5_MAX_DISTANCE);
  posenc_alibi_slopes(m->slopes, m->H);
  if (m->enc == POSENC_LAB_ENC_SINUSOIDAL) lab_sinusoidal_table(m->pe, T, D, m->base);
  lab_rng master = {(uint64_t)cfg->seed}, init;
  init.s = lab_rng_next(&master);
  m->data_rng.s = lab_rng_next(&master);
  init_params(m, &init);
  memset(m->grads, 0, sizeof(lab_real) * (size_t)np);
  memset(m->adam_m, 0, sizeof(lab_real) * (size_t)np);
  memset(m->adam_v, 0, sizeof(lab_real) * (size_t)np);
  m->step = 0;
  *out = m;
  return POSENC_OK;
}

void posenc_lab_free(posenc_lab_model *m) {
  if (!m) return;
  free(m->arena);
  free(m);
}

int32_t posenc_lab_n_params(const posenc_lab_model *m) { return m ? m->n_params : POSENC_E_NULL; }
lab_real *posenc_lab_params(posenc_lab_model *m) { return m ? m->params : 0; }
lab_real *posenc_lab_grads(posenc_lab_model *m) { return m ? m->grads : 0; }
int32_t posenc_lab_n_groups(const posenc_lab_model *m) { return m ? m->n_groups : POSENC_E_NULL; }

int posenc_lab_group(const posenc_lab_model *m, int32_t g, const char **name, int32_t *offset,
                     int32_t *size, int32_t *decayed) {
  LAB_CHECK(m && name && offset && size && decayed, POSENC_E_NULL);
  LAB_CHECK(g >= 0 && g < m->n_groups, POSENC_E_SIZE);
  *name = m->names[g], *offset = m->group[g].off, *size = m->group[g].size, *decayed = m->group[g].decay;
  return POSENC_OK;
}
