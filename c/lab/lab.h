/* lab.h: the length-generalisation lab's C API. A tiny decoder-only transformer with a choice
 * of position encodings, trained in C (forward, backward, AdamW) on synthetic tasks and
 * evaluated at lengths past the training length.
 *
 * Conventions
 * - Status: every function returns POSENC_OK (0) or a negative posenc_status (c/posenc.h) and
 *   writes nothing when an argument is bad. Out-of-memory at create is POSENC_E_SIZE.
 * - Precision: parameters, activations and gradients are lab_real: float, or double in a build
 *   with -DLAB_F64 (the gradient-check build; it always uses the scalar kernels). Softmax,
 *   LayerNorm and loss reductions accumulate in double; angles p * theta are formed in double.
 * - Model (pre-LayerNorm GPT): x = E[token] (+ P[pos] for learned / sinusoidal), then L layers of
 *     x += Wo . attn(LN1(x)) + bo ;  x += W2 . gelu(W1 . LN2(x) + b1) + b2
 *   then logits = LNf(x) . Wh + bh (untied head). GELU is the exact erf form (nn.GELU()): libm's
 *   erf in the float64 build, erfc within 1.5e-7 (Abramowitz-Stegun 7.1.26) in the float build.
 *   Linear weights are stored [in][out] (y = x W + b; the transpose of torch's nn.Linear).
 *   The fused projection Wqkv [D][3D] gives q | k | v, each [heads][head_dim]. LN eps 1e-5.
 *   Attention is causal: query i sees keys j <= i; scores are q.k / sqrt(head_dim) + bias.
 * - Positions are 0 .. T-1 within each sequence (one sequence length T per batch).
 * - Encodings (POSENC_LAB_ENC_*):
 *   none        no position signal; only the causal mask orders tokens (NoPE).
 *   learned     a table P[max_positions][D] added to the token embedding. Rows training never
 *               reaches get no gradient, but the table is a decayed group: they shrink by
 *               prod_t (1 - lr_t weight_decay), 0.9895 (about 1%) after 400 steps at the defaults.
 *   sinusoidal  added, interleaved: P[p][2i] = sin(p w_i), P[p][2i+1] = cos(p w_i),
 *               w_i = base^(-2i/D), base = rope_base (10000).
 *   rope        q and k of every head rotated per pair i with theta_i = base^(-2i/hd):
 *               (x0, x1) -> (x0 cos - x1 sin, x0 sin + x1 cos), angle p theta_i. rope_style
 *               POSENC_STYLE_INTERLEAVED pairs (2i, 2i+1); POSENC_STYLE_HALF pairs (i, i+hd/2).
 *   alibi       bias -m_h (i - j) for j <= i; m_h = 2^(-8h/H), h = 1..H for H a power of two;
 *               otherwise c/alibi.c's rule (the nearest lower power of two p, then every
 *               other slope of 2p). The bias is <= 0: farther keys are penalised.
 *   t5          a learned scalar per (bucket, head), shared by all layers, added to the score;
 *               bucket = Hugging Face T5 _relative_position_bucket(j - i, bidirectional=false,
 *               32 buckets, max_distance 128) (c/relative.c). Stored [32][H].
 *   xpos        rope plus xPos (lucidrains rotary-embedding-torch use_xpos): pair i of q is
 *               multiplied by zeta_i^((p - c)/scale_base) and of k by zeta_i^(-(p - c)/
 *               scale_base), zeta_i = (2i + 0.4 hd)/(1.4 hd), scale_base 512, centre
 *               c = floor(T/2) (lucidrains' len(t)//2). In q.k the centre cancels: the score
 *               carries zeta_i^((i_q - j_k)/scale_base), so the centre only keeps the factors
 *               near 1.
 * - RoPE scaling (rope and xpos only), at evaluation and when fine-tuning, with factor s and
 *   L0 = train_len tokens of the task (the longest training sequence):
 *   linear (PI)  theta_i / s (the same as positions / s);
 *   ntk          base' = base s^(hd/(hd-2));
 *   yarn         Hugging Face _compute_yarn_parameters: beta_fast 32, beta_slow 1, ramp over the
 *                pair index between floor/ceil of the correction dims (clamped to [0, hd-1]),
 *                theta_i' = theta_i/s * ramp + theta_i * (1 - ramp); cos and sin times
 *                0.1 ln s + 1.
 *   xPos magnitudes always use the unscaled positions.
 * - Tasks (POSENC_LAB_TASK_*): 16 symbols 0..15, BOS = 16, SEP = 17 (vocab >= 18). Training
 *   draws one n per batch, uniformly from the task lengths up to train_len that carry loss
 *   (kback k..train_len, the others 1..train_len); all sequences of a batch have length n. So
 *   every step scores at least one token per sequence: no step logs a loss of 0 or moves the
 *   weights without a gradient.
 *   kback    x1..xn (T = n): position i predicts token i+1-k (k = task_k, default 3); loss on
 *            i >= k-1, so a sequence with n < k carries none (evaluate gives NaN there).
 *   copy     BOS x1..xn SEP x1..xn; the input drops the last token (T = 2n+1); loss on the n
 *            positions from SEP on, each predicting the next token.
 *   reverse  BOS x1..xn SEP xn..x1, likewise.
 *   recall   BOS k1 v1 .. kn vn SEP q (T = 2n+3): keys from 0..7, values from 8..15, both drawn
 *            with replacement; q is one of the keys shown; the last position predicts the value
 *            bound to q at its last occurrence. Loss on that one position.
 * - Loss: mean cross-entropy over the positions that carry loss (targets >= 0).
 * - Sizes (caps): vocab 18..64; d_model <= 256; heads <= 16 with d_model % heads == 0 and
 *   head_dim even; layers 1..8; d_ff <= 1024; batch <= 256; train_len <= 256; max_eval_len <= 1024
 *   and its task length <= 4096 tokens; learned table rows <= 4096 and >= the longest sequence
 *   evaluate may see; all buffers together <= 2^28 lab_reals. A model is one object: every
 *   buffer is allocated at create, nothing is allocated per step, nothing is global.
 */
#ifndef POSENC_LAB_H
#define POSENC_LAB_H

#include <stdint.h>

#include "../posenc.h"

#ifdef LAB_F64
typedef double lab_real;
#else
typedef float lab_real;
#endif

enum {
  POSENC_LAB_ENC_NONE = 0, POSENC_LAB_ENC_LEARNED = 1, POSENC_LAB_ENC_SINUSOIDAL = 2,
  POSENC_LAB_ENC_ROPE = 3, POSENC_LAB_ENC_ALIBI = 4, POSENC_LAB_ENC_T5 = 5, POSENC_LAB_ENC_XPOS = 6
};
enum { POSENC_LAB_TASK_KBACK = 0, POSENC_LAB_TASK_COPY = 1, POSENC_LAB_TASK_REVERSE = 2, POSENC_LAB_TASK_RECALL = 3 };
/* Scaling kinds reuse posenc_rope_scaling's numbers: POSENC_SCALING_NONE, _LINEAR, _NTK, _YARN. */
enum { POSENC_LAB_SCHEDULE_CONSTANT = 0, POSENC_LAB_SCHEDULE_COSINE = 1 };

#define POSENC_LAB_SYMBOLS 16
#define POSENC_LAB_BOS 16
#define POSENC_LAB_SEP 17
#define POSENC_LAB_T5_BUCKETS 32
#define POSENC_LAB_T5_MAX_DISTANCE 128

/* Every field a double, so that JS writes the struct as one Float64Array in this order.
 * posenc_lab_config_default fills the defaults; 0 in a field marked "0 = default" means that. */
typedef struct {
  double seed;            /* integer in [0, 2^53): initialisation and training data */
  double task;            /* POSENC_LAB_TASK_* */
  double task_k;          /* kback's k (1..64 and <= train_len; 0 = 3) */
  double encoding;        /* POSENC_LAB_ENC_* */
  double rope_style;      /* POSENC_STYLE_INTERLEAVED or POSENC_STYLE_HALF */
  double rope_base;       /* rope, xpos and sinusoidal base ((1 + 1e-9, 1e12]; 0 = 10000) */
  double xpos_scale_base; /* ([1e-3, 1e9]; 0 = 512); with xpos, (T/2 + 1)·ln 3.5 / scale_base <= 15
                           * for T the longest sequence (max_eval_len, train_len), else POSENC_E_VALUE */
  double vocab;           /* 18..64 (0 = 18) */
  double d_model, n_heads, n_layers;
  double d_ff;            /* 0 = 4 d_model */
  double max_positions;   /* learned table rows (0 = 512) */
  double train_len;       /* L_train: training draws n up to train_len (Tasks above) */
  double max_eval_len;    /* largest n posenc_lab_evaluate takes (0 = 8 train_len) */
  double batch;
  double lr, warmup_steps, schedule, total_steps; /* total_steps: the cosine's length */
  /* AdamW overflows float32 for some accepted values, as any AdamW does: beta2 near 0 with a tiny
   * eps (a zero gradient divides the remembered first moment by eps), lr·weight_decay > 1. */
  double weight_decay, beta1, beta2, eps;
  double clip_norm;       /* global gradient-norm clip; 0 = off */
  double finetune_len;    /* longest fine-tuning task length whose batches hold `batch` sequences
                             (<= max_eval_len; 0 = train_len): it sizes the buffers */
} posenc_lab_config;

typedef struct lab_model posenc_lab_model;

/* Defaults: kback k 3, rope half, base 10000, vocab 18, d_model 32, 4 heads, 2 layers, d_ff 128,
 * 512 positions, train_len 16, max_eval_len 128, batch 32, lr 3e-3, 100 warm-up steps, constant,
 * weight decay 0.01 (matrices, token embeddings and the learned position table; not the T5 bias
 * table, LayerNorm or biases), betas 0.9 / 0.999, eps 1e-8, no clipping. */
int posenc_lab_config_default(posenc_lab_config *cfg);

/* Checks cfg, allocates the model and initialises its parameters from cfg->seed. */
int posenc_lab_create(const posenc_lab_config *cfg, posenc_lab_model **out);
/* Bytes posenc_lab_create would allocate for cfg (the model object and its one arena), after the
 * same checks, so that a caller can budget them first. */
int posenc_lab_model_bytes(const posenc_lab_config *cfg, double *bytes_out);
/* Frees everything the model holds; NULL is fine. Afterwards m is dangling, as after free(): no
 * call may be given it (the JS API zeroes its handle and throws on use). A NULL model is what
 * every call checks for: POSENC_E_NULL (posenc_lab_params and _grads return NULL,
 * posenc_lab_lr_at NaN). */
void posenc_lab_free(posenc_lab_model *m);

/* n_steps training steps (1..100000): a fresh batch each, forward, backward, clip, AdamW.
 * loss_out[n_steps] (may be NULL) receives each step's loss. */
int posenc_lab_train_steps(posenc_lab_model *m, int32_t n_steps, float *loss_out);

/* Tokens of one sequence of the model's task at n (the T above); POSENC_E_SIZE past the caps. */
int posenc_lab_sequence_length(int32_t task, int32_t n, int32_t *tokens_out);

/* One example of the model's task at n from seed: tokens[T], targets[T] (-1 = no loss). */
int posenc_lab_example(const posenc_lab_model *m, int32_t n, double seed, int32_t *tokens,
                       int32_t *targets);

/* n_sequences fresh sequences at n (1..max_eval_len) from seed, with RoPE scaling `scaling`
 * (POSENC_SCALING_NONE / LINEAR / NTK / YARN) and factor (>= 1). summary[3] = token accuracy,
 * whole-sequence accuracy, mean loss over the loss positions. pos_acc[T], pos_loss[T] (each may
 * be NULL) = the same per position, NaN where no position carries loss. Argmax ties go to the
 * lowest token. */
int posenc_lab_evaluate(posenc_lab_model *m, int32_t n, int32_t n_sequences, double seed,
                        int32_t scaling, double factor, double *summary, double *pos_acc,
                        double *pos_loss);

/* Attention weights of every layer and head for one sequence: weights[L][H][T][T] (row = query,
 * zero above the diagonal). tokens[T], T <= the model's longest evaluation sequence. */
int posenc_lab_attention(posenc_lab_model *m, const int32_t *tokens, int32_t T, int32_t scaling,
                         double factor, float *weights);

/* The residual stream of one sequence: out[L + 1][T][D], the embedding (with any added position
 * encoding) and the output of each layer; no scaling. tokens[T], T <= the longest evaluation
 * sequence. */
int posenc_lab_hidden(posenc_lab_model *m, const int32_t *tokens, int32_t T, float *out);

/* Fine-tuning at a longer length: n_steps more training steps (1..100000) whose task lengths are
 * drawn as training draws them with n in place of train_len (k <= n <= max_eval_len for kback,
 * 1 <= n for the others; else POSENC_E_SIZE), with RoPE scaling `scaling` and `factor` applied in the
 * forward and backward passes (as posenc_lab_evaluate applies them), and AdamW and its schedule
 * carried on. A batch holds as many sequences of task length n as the buffers do, at most the
 * model's batch (all of it up to the config's finetune_len): posenc_lab_finetune_batch tells. */
int posenc_lab_finetune_steps(posenc_lab_model *m, int32_t n_steps, int32_t n, int32_t scaling,
                              double factor, float *loss_out);
int posenc_lab_finetune_batch(const posenc_lab_model *m, int32_t n, int32_t *batch_out);

/* ---- for tests and the gradient check ---- */

/* The flat parameter vector and its gradient (both n_params lab_reals, owned by the model). */
int32_t posenc_lab_n_params(const posenc_lab_model *m);
lab_real *posenc_lab_params(posenc_lab_model *m);
lab_real *posenc_lab_grads(posenc_lab_model *m);
/* Parameter groups in the flat vector, in order: name, offset, size, and whether AdamW decays it. */
int32_t posenc_lab_n_groups(const posenc_lab_model *m);
int posenc_lab_group(const posenc_lab_model *m, int32_t g, const char **name, int32_t *offset,
                     int32_t *size, int32_t *decayed);

/* Loss of a given batch (tokens[B][T], targets[B][T], -1 = no loss; B <= batch and B T within
 * the model's buffers) under RoPE scaling `scaling` and `factor` (as evaluate takes them) and,
 * when want_grad, its gradient into posenc_lab_grads (overwritten). */
int posenc_lab_loss_and_grad(posenc_lab_model *m, const int32_t *tokens, const int32_t *targets,
                             int32_t B, int32_t T, int32_t scaling, double factor, int32_t want_grad,
                             double *loss_out);

/* One AdamW update from the current gradient (what train_steps does after the backward). */
int posenc_lab_adamw_step(posenc_lab_model *m);
/* The learning rate of step t (0-based) under the model's schedule. */
double posenc_lab_lr_at(const posenc_lab_model *m, int32_t t);

/* Encodings' building blocks, exposed for tests. (T5 buckets, xPos factors and ALiBi slopes are
 * posenc_t5_bucket, posenc_xpos_scale and posenc_alibi_slopes of c/posenc.h: the lab calls the
 * same rules.) */
/* theta_i' of a scaling kind (inv[head_dim/2]) and its cos/sin factor. */
int posenc_lab_rope_freqs(double *inv, double *attn, int32_t head_dim, double base, int32_t scaling,
                          double factor, double original_len);

#endif
