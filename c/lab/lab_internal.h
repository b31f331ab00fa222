/* lab_internal.h: the model object and the functions the lab's files share (not exported). */
#ifndef POSENC_LAB_INTERNAL_H
#define POSENC_LAB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "lab.h"
#include "lab_kernels.h"

/* Argument checks return a status: no assert or printf (the wasm module imports nothing for them). */
#define LAB_CHECK(cond, status) \
  do {                          \
    if (!(cond)) return (status); \
  } while (0)

#define LAB_MAX_LAYERS 8
#define LAB_MAX_HEADS 16
#define LAB_MAX_GROUPS (8 + 12 * LAB_MAX_LAYERS)
#define LAB_LN_EPS 1e-5

/* ---- seeded generator: splitmix64 (c/random.c keeps its own static, so the lab has its own) ---- */
typedef struct {
  uint64_t s;
} lab_rng;
uint64_t lab_rng_next(lab_rng *r);
double lab_rng_uniform(lab_rng *r); /* [0, 1), 53 bits */
int32_t lab_rng_below(lab_rng *r, int32_t n); /* uniform in 0..n-1 */
double lab_rng_normal(lab_rng *r);  /* N(0, 1), Box-Muller in double */

/* ---- encodings (lab_encodings.c) ---- */
void lab_sinusoidal_table(lab_real *pe, int32_t T, int32_t D, double base);
/* cos/sin tables [T][hd/2] for rope/xpos (times the scaling's attention factor), and xPos factors
 * xq[T][hd/2] for q (k uses 1/xq, stored in xk); xq = xk = NULL for plain rope. */
int lab_rope_tables(lab_real *cs, lab_real *sn, lab_real *xq, lab_real *xk, int32_t T, int32_t hd,
                    double base, int32_t scaling, double factor, double original_len, double xpos_base);
/* rotate (and xPos-scale) q or k rows in place: x[T][row stride] with H heads of hd from col0.
 * inverse: the transpose (backward): R^T and the same scale. */
void lab_rope_apply(lab_real *x, int32_t rows, int32_t T, int32_t stride, int32_t H, int32_t hd,
                    int32_t style, const lab_real *cs, const lab_real *sn, const lab_real *scale,
                    int inverse);

/* ---- the model ---- */
typedef struct {
  lab_real *ln1_g, *ln1_b, *wqkv, *bqkv, *wo, *bo, *ln2_g, *ln2_b, *w1, *b1, *w2, *b2;
} lab_layer;

typedef struct {
  lab_real *x;        /* [N][D] the layer's input (residual stream) */
  lab_real *ln1;      /* [N][D] */
  lab_real *mu1, *rs1; /* [N] mean and 1/std */
  lab_real *qkv;      /* [N][3D], q and k after rotation */
  lab_real *att;      /* [B][H][T][T] softmax weights */
  lab_real *ao;       /* [N][D] attention output, heads concatenated */
  lab_real *xm;       /* [N][D] after the attention residual */
  lab_real *ln2, *mu2, *rs2;
  lab_real *h, *g;    /* [N][F]: GELU'(pre-activation) and GELU(pre-activation) */
} lab_acts;

typedef struct {
  int32_t off, size, decay; /* its name is names[] at the same index */
} lab_group;

struct lab_model {
  /* configuration */
  int32_t task, k, enc, style, V, D, H, L, F, hd, P, train_len, eval_len, B;
  double base, xpos_base, lr, warmup, schedule, total, wd, beta1, beta2, eps, clip;
  int32_t t_train;  /* longest training sequence (tokens) */
  int32_t t_max;    /* longest sequence any call may pass */
  int32_t n_cap;    /* tokens the activation buffers hold */
  size_t att_cap;   /* softmax weights per layer */
  /* parameters, gradients, AdamW moments */
  int32_t n_params, n_groups, step;
  lab_real *params, *grads, *adam_m, *adam_v;
  lab_group group[LAB_MAX_GROUPS];
  lab_real *tok_emb, *pos_emb, *t5_bias, *lnf_g, *lnf_b, *wh, *bh;
  lab_layer layer[LAB_MAX_LAYERS];
  /* activations of the last forward */
  int32_t cur_B, cur_T;
  lab_acts act[LAB_MAX_LAYERS];
  lab_real *xf, *lnf, *muf, *rsf, *logits; /* xf [N][D] final stream; logits [N][V] -> probs */
  /* scratch */
  lab_real *dx, *dtmp, *dqkv, *dao, *dh, *dlog, *wt, *attn_scratch;
  lab_real *pe, *cs, *sn, *xq, *xk, *bias; /* bias [H][t_max] by distance i - j */
  double slopes[LAB_MAX_HEADS];
  int32_t *bucket;                          /* [t_max] T5 bucket of distance i - j */
  int32_t *tokens, *targets;                /* [n_cap] */
  double *row_loss;                         /* [n_cap] */
  int32_t *row_ok;                          /* [n_cap] */
  char names[LAB_MAX_GROUPS][16];
  lab_rng data_rng;
  void *arena;
};

/* lab_model.c */
/* Forward of tokens/targets [B][T] with the given RoPE scaling; returns the mean loss over the
 * positions with targets >= 0 (0 when there are none), leaves the probabilities in m->logits
 * and the count of loss positions in *count_out. Arguments are checked by the callers. */
double lab_forward(struct lab_model *m, const int32_t *tokens, const int32_t *targets, int32_t B,
                   int32_t T, int32_t scaling, double factor, int32_t *count_out);
/* Gradient of the last forward's mean loss into m->grads (overwritten). */
void lab_backward(struct lab_model *m, const int32_t *tokens, const int32_t *targets, int32_t count);

/* lab_attention.c: one layer's attention; bias [H][t_max] by distance (NULL: none); dt5 [32][H]
 * accumulates the T5 table's gradient (NULL: none). */
void lab_attention_forward(struct lab_model *m, int32_t l, int32_t B, int32_t T, const lab_real *bias);
void lab_attention_backward(struct lab_model *m, int32_t l, int32_t B, int32_t T, lab_real *dt5);

/* lab_tasks.c */
/* Tokens of one sequence of task at n; 0 when task or n is out of range. */
int32_t lab_task_tokens(int32_t task, int32_t n);
/* The shortest task length whose sequences carry loss: k for kback, 1 for the others. */
int32_t lab_task_min_len(int32_t task, int32_t k);
/* One sequence: tokens[T], targets[T] (-1 where no loss). */
void lab_task_make(int32_t task, int32_t k, int32_t n, lab_rng *r, int32_t *tokens, int32_t *targets);

/* lab_adamw.c */
double lab_grad_norm(const struct lab_model *m);
void lab_adamw_update(struct lab_model *m, double lr);

#endif
