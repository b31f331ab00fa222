/* posenc.h: the whole C API of posenc's kernels.
 *
 * Conventions (every function below follows them):
 * - Tensors are float32, row-major. Angles (position x frequency) are formed and
 *   range-reduced in float64, so position 1e6 is as exact as position 1.
 * - RoPE cos/sin (caches and fused kernels) depend only on the position, theta and attn: a
 *   row is the same bits whichever other positions share its call.
 * - Sinusoidal layouts: POSENC_LAYOUT_INTERLEAVED puts sin(p*w_i) at 2i and cos(p*w_i)
 *   at 2i+1 (the "Attention Is All You Need" paper and the seeds); POSENC_LAYOUT_CONCAT
 *   puts [sin_0..sin_{d/2-1}, cos_0..cos_{d/2-1}] with the same w_i = base^(-2i/d)
 *   (GPT-NeoX's table).
 * - RoPE pair styles: POSENC_STYLE_INTERLEAVED rotates pairs (2i, 2i+1) (RoFormer paper,
 *   GPT-J, Meta LLaMA, ggml NORMAL); POSENC_STYLE_HALF rotates pairs (i, i + rotary_dim/2)
 *   (HF rotate_half, GPT-NeoX, ggml NEOX). Pair i turns by angle p*theta_i with the
 *   paper's sign: (x0, x1) -> (x0 cos - x1 sin, x0 sin + x1 cos). Dims at or past
 *   rotary_dim pass through unchanged.
 * - x for RoPE and attention is laid out [seq][heads][head_dim]; one position per seq row.
 * - Arithmetic, where rounding order decides the bits (both builds give the same bits unless a
 *   function says otherwise; the fuzz harnesses check these exact results):
 *   - A RoPE rotation is x0 cos - x1 sin and x0 sin + x1 cos in float32: each product rounded
 *     to float32, no fused multiply-add.
 *   - A dot product of two float32 rows (posenc_gram, posenc_row_dots, posenc_row_cosines,
 *     posenc_linear, the scores of posenc_attention and of the kernels built on them) sums the
 *     exact float64 products in one fixed order: eight partial sums s_j over the elements
 *     d = j (mod 8), combined as ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)), then the
 *     remaining dim % 8 terms in order. Not left to right: with cancellation the two differ.
 *     posenc_linear rounds that float64 sum once to float32; a cosine is ab / sqrt(aa * bb)
 *     of three such sums.
 *   - Attention: score = float32(dot / sqrt(head_dim)), clamped to float32's range; softmax in
 *     float64 with the row maximum subtracted (one exp per key, summed in key order), each
 *     weight rounded to float32; out[d] = the float64 sum over keys in order of
 *     weight * v[d], rounded once to float32.
 * - Every function checks its arguments first and returns a negative posenc_status
 *   without writing anything when one is bad. Sizes are checked for overflow. The RoPE
 *   rotations (posenc_rope_apply, posenc_rope_apply_table) return POSENC_NONFINITE after
 *   rotating when x (or the table) held a NaN or an infinity: the JS API's check of x, cos
 *   and sin, in the same pass.
 */
#ifndef POSENC_H
#define POSENC_H

#include <stdint.h>

typedef enum {
  POSENC_NONFINITE = 1,    /* RoPE rotations only: done, but x or the cos/sin table held a NaN
                              or an infinity (or a rotation overflowed float32) */
  POSENC_OK = 0,
  POSENC_E_NULL = -1,      /* a required pointer is NULL */
  POSENC_E_SIZE = -2,      /* a count is zero, negative or too large (overflow) */
  POSENC_E_ODD = -3,       /* a dimension that must be even is odd */
  POSENC_E_ROTARY = -4,    /* rotary_dim is odd, zero or greater than head_dim */
  POSENC_E_BASE = -5,      /* base is not finite or is below 1 */
  POSENC_E_POSITION = -6,  /* a position or distance is NaN, infinite or negative */
  POSENC_E_STYLE = -7,     /* unknown RoPE style */
  POSENC_E_LAYOUT = -8,    /* unknown sinusoidal layout */
  POSENC_E_VALUE = -9,     /* another value is NaN, infinite or out of range */
  POSENC_E_KIND = -10      /* unknown mode or kind */
} posenc_status;

enum { POSENC_LAYOUT_INTERLEAVED = 0, POSENC_LAYOUT_CONCAT = 1 };
enum { POSENC_STYLE_INTERLEAVED = 0, POSENC_STYLE_HALF = 1 };
enum { POSENC_ENC_NONE = 0, POSENC_ENC_SINUSOIDAL = 1, POSENC_ENC_ROPE = 2 };

/* Largest element count any single output may have (2^28 floats = 1 GiB). */
#define POSENC_MAX_ELEMS (1u << 28)

/* ==== Module (heap.c, scan.c, simd.c) ==== */

/* Bytes the allocator has handed out and not had back (malloc's own accounting). */
int32_t posenc_heap_in_use(void);

/* Index of the first element of a[0..n) that is NaN, infinite or outside [lo, hi]; n when
 * there is none (n >= 1). The JS API's check of every number it is handed (after copying them in). */
int32_t posenc_first_invalid_f32(const float *a, int32_t n, double lo, double hi);
int32_t posenc_first_invalid_f64(const double *a, int32_t n, double lo, double hi);

/* Which build this is: 1 when the kernels use WASM SIMD (or another vector ISA). */
int posenc_simd(void);

/* ==== Sinusoidal tables (sinusoidal.c) ==== */

/* Sinusoidal table, out[length][dim]; w_i = base^(-2i/dim); row r is position start + r. */
int posenc_sinusoidal(float *out, int32_t length, int32_t dim, double base, double start,
                      int32_t layout);

/* The same table in float64, for exact printed values (scalar; not a hot path). */
int posenc_sinusoidal_f64(double *out, int32_t length, int32_t dim, double base, double start,
                          int32_t layout);

/* The tensor2tensor / fairseq table: [sin | cos] with w_i = base^(-i/(d/2 - 1)). */
int posenc_sinusoidal_t2t(float *out, int32_t length, int32_t dim, double base, double start);

/* The relative-position map of sinusoidal PE: out = R(k) . in for rows of sinusoidal vectors, where
 * R(k) turns each (sin a, cos a) pair into (sin(a + k w_i), cos(a + k w_i)); k may be negative. */
int posenc_sinusoidal_shift(float *out, const float *in, int32_t rows, int32_t dim, double base,
                            double k, int32_t layout);

/* ==== Binary codes (binary.c) ==== */

/* Binary position codes, out[length][bits]; column j holds bit j of the position (LSB first). */
int posenc_binary(float *out, int32_t length, int32_t bits);

/* ==== RoPE (rope_table.c: frequencies and caches; rope.c: the rotations) ==== */

/* RoPE inverse frequencies theta_i = base^(-2i/rotary_dim), i < rotary_dim/2. */
int posenc_rope_inv_freq(double *out, int32_t rotary_dim, double base);

/* cos/sin cache: cos_out[n][half], sin_out[n][half] with half = len(inv_freq), both
 * multiplied by attn (the attention factor of scaled variants; 1 for plain RoPE). */
int posenc_rope_cache(float *cos_out, float *sin_out, const double *positions, int32_t n,
                      const double *inv_freq, int32_t half, double attn);

/* RoPE with a given cos/sin table (row r of the table serves seq row r).
 * out may equal x (in place); otherwise the two must not overlap. Returns POSENC_NONFINITE,
 * the rotation done, when some value of x is NaN or infinite or some pair's x0 cos - x1 sin
 * is not finite (an overflow, or a cos or sin that is not finite); else POSENC_OK. */
int posenc_rope_apply_table(float *out, const float *x, int32_t seq, int32_t heads,
                            int32_t head_dim, int32_t rotary_dim, int32_t style,
                            const float *cos_t, const float *sin_t);

/* RoPE fused: cos/sin formed on the fly from positions[seq] and inv_freq[rotary_dim/2].
 * Returns as posenc_rope_apply_table. */
int posenc_rope_apply(float *out, const float *x, int32_t seq, int32_t heads, int32_t head_dim,
                      int32_t rotary_dim, int32_t style, const double *positions,
                      const double *inv_freq, double attn);

/* ==== Multimodal RoPE (mrope.c) ==== */

/* mRoPE cos/sin table, cos_out[n][half], sin_out[n][half] (as posenc_rope_cache, times attn):
 * positions[3][n] holds the t, h and w streams one after the other; pair i takes its angle
 * positions[k][r] * inv_freq[i] from stream k. section (s_t, s_h, s_w) sums to half.
 * interleaved 0 (Qwen2-VL): pairs [0, s_t) read t, the next s_h read h, the rest w.
 * interleaved 1 (Qwen3-VL): pairs i = 1 mod 3 with i < 3 s_h read h, i = 2 mod 3 with
 * i < 3 s_w read w, every other pair t. Rotate with posenc_rope_apply_table. */
int posenc_mrope_cache(float *cos_out, float *sin_out, const double *positions, int32_t n,
                       const double *inv_freq, int32_t half, double attn, int32_t s_t, int32_t s_h,
                       int32_t s_w, int32_t interleaved);

/* ==== RoPE scaling variants (scaling.c) ==== */

/* RoPE scaling variants (Hugging Face modeling_rope_utils.py semantics; formulas in README).
 * Every field is a float64 so that JS can write the struct as one Float64Array, in this order.
 * attention_factor NaN = derive it; mscale / mscale_all_dim 0 = unset. */
enum {
  POSENC_SCALING_NONE = 0, POSENC_SCALING_LINEAR = 1, POSENC_SCALING_NTK = 2,
  POSENC_SCALING_DYNAMIC = 3, POSENC_SCALING_YARN = 4, POSENC_SCALING_LLAMA3 = 5,
  POSENC_SCALING_LONGROPE = 6, POSENC_SCALING_PROPORTIONAL = 7
};
typedef struct {
  double type;             /* POSENC_SCALING_* */
  double factor;           /* s */
  double original_max_pos; /* L0: yarn, llama3, longrope */
  double max_pos;          /* dynamic, longrope */
  double seq_len;          /* dynamic, longrope */
  double beta_fast, beta_slow, attention_factor, mscale, mscale_all_dim, truncate; /* yarn */
  double low_freq_factor, high_freq_factor;                                         /* llama3 */
  double partial_rotary_factor; /* proportional (Gemma 4's p-RoPE): p in (0, 1] */
} posenc_rope_scaling;

/* llama3: wavelength w_i = 2 pi / theta_i; w_i < L0/high keeps theta_i, w_i > L0/low gets
 * theta_i / factor, the band between is interpolated; high = low is a step (w_i >= L0/low is
 * divided); high < low and low <= 0 give POSENC_E_VALUE.
 * Proportional: rotary_dim is the whole head D; pairs i < floor(p*D/2) get base^(-2i/D), the
 * rest 0 (they do not turn), all divided by factor; attention factor 1.
 * inv_out[rotary_dim/2] = the variant's theta_i, *attn_out = its attention factor.
 * short_factor/long_factor (rotary_dim/2 each) are read for longrope only. */
int posenc_rope_scaled_freq(double *inv_out, double *attn_out, int32_t rotary_dim, double base,
                            const posenc_rope_scaling *scaling, const double *short_factor,
                            const double *long_factor);

/* ==== llama.cpp's RoPE (llamacpp.c) ==== */

/* The cos/sin llama.cpp's CPU backend uses (ggml_rope_ext / ggml_rope_multi), float32 step for step
 * as ggml computes them: cos_out[n][n_dims/2], sin_out likewise, per pair, already multiplied by
 * the magnitude (attn_factor, times YaRN's 1 + 0.1 ln(1/freq_scale) when ext_factor != 0).
 * positions: ggml's int32 positions (>= 0). freq_factors: NULL or n_dims/2 divisors (rope_freqs or
 * the LongRoPE factors, each finite and > 0). mode: 0 NORM, 2 NEOX, 8 MROPE, 40 IMROPE (the pairing
 * does not change the table; MROPE and IMROPE read sections[4] and treat every position as a text
 * token: streams t = h = w = p, e = 0). Scalar in both builds. */
int posenc_llamacpp_cache(float *cos_out, float *sin_out, const int32_t *positions, int32_t n,
                          int32_t n_dims, float freq_base, float freq_scale, float ext_factor,
                          float attn_factor, float beta_fast, float beta_slow, int32_t n_ctx_orig,
                          const float *freq_factors, int32_t mode, const int32_t *sections);

/* ==== Precision emulation (precision.c) ==== */

/* cos/sin as an implementation working in narrower types computes them.
 * The position, the inverse frequency, their product and the final cos/sin (times attn) are
 * each rounded to nearest-even into their POSENC_F* type; cos/sin of the rounded angle are
 * taken in float64. A value that would overflow its type is refused (POSENC_E_POSITION/VALUE). */
enum { POSENC_F64 = 0, POSENC_F32 = 1, POSENC_BF16 = 2, POSENC_F16 = 3 };
int posenc_rope_cache_emulated(double *cos_out, double *sin_out, const double *positions, int32_t n,
                               const double *inv_freq, int32_t half, double attn,
                               int32_t position_type, int32_t inv_type, int32_t angle_type,
                               int32_t out_type);

/* ==== Attention temperature (temperature.c) ==== */

/* out[i] = 1 + scale * ln(floor((positions[i] + offset) / floor_scale) + 1), float64: Llama 4's
 * query temperature on NoPE layers (scale 0.1, floor_scale 8192, offset 1). */
int posenc_attention_temperature(double *out, const double *positions, int32_t n, double scale,
                                 double floor_scale, double offset);

/* ==== Attention (attention.c) ==== */

/* 6. Attention of q [seq_q][heads][head_dim] over k, v [seq_k][heads][head_dim]:
 * weights[heads][seq_q][seq_k] = softmax(q.k / sqrt(head_dim)), out = weights.v.
 * The query rows are the last seq_q of the seq_k positions (a KV cache when seq_q < seq_k),
 * so with causal set, query row i sees keys j <= i + seq_k - seq_q. */
int posenc_attention(float *out, float *weights, const float *q, const float *k, const float *v,
                     int32_t seq_q, int32_t seq_k, int32_t heads, int32_t head_dim, int32_t causal);

/* ==== Dot products (dot.c) ==== */

/* out[n][m] = a[n][dim] . b[m][dim]^T, summed in float64 in the order of "Arithmetic" above. */
int posenc_gram(double *out, const float *a, int32_t n, const float *b, int32_t m, int32_t dim);
/* out[i] = a[i] . b[i], row by row (the diagonal of the Gram matrix without the rest). */
int posenc_row_dots(double *out, const float *a, const float *b, int32_t n, int32_t dim);
/* out[i] = cosine of the angle between rows a[i] and b[i] (0 when either row is zero). */
int posenc_row_cosines(double *out, const float *a, const float *b, int32_t n, int32_t dim);

/* ==== The word-order experiment (order.c) ==== */

/* The word-order experiment's building blocks: embedding rows of table[vocab][dim] by token. */
int posenc_embed(float *out, const int32_t *tokens, int32_t n, const float *table, int32_t vocab,
                 int32_t dim);
/* y[n][out_dim] = x[n][in_dim] . W^T with W[out_dim][in_dim] (torch.nn.Linear, no bias): each
 * output the float64 dot product of "Arithmetic" above, rounded once to float32. */
int posenc_linear(float *y, const float *x, int32_t n, int32_t in_dim, const float *w,
                  int32_t out_dim);
/* The whole experiment: tokens -> embedding (vocab x dim, seed) -> [+ sinusoidal PE] ->
 * Q/K/V projections (seeded) -> [RoPE on q, k, interleaved pairs per head] -> attention.
 * Positions are 0..n-1. out[n][dim], weights[heads][n][n]. */
int posenc_order_demo(float *out, float *weights, const int32_t *tokens, int32_t n, int32_t vocab,
                      int32_t dim, int32_t heads, double seed, int32_t encoding, int32_t causal,
                      double base);

/* ==== Decay curves (decay.c, decay_grid.c) ==== */

/* Curves over distances[n]; out[n] in float64; half = len(inv_freq). */
/* g(x) = 2 * sum_i cos(x theta_i): q = k = all ones. */
int posenc_rope_decay_ones(double *out, const double *distances, int32_t n,
                           const double *inv_freq, int32_t half);
/* RoFormer bound: (1/half) * sum_{j=1..half} | sum_{k<j} e^{i x theta_k} |. */
int posenc_rope_decay_bound(double *out, const double *distances, int32_t n,
                            const double *inv_freq, int32_t half);
/* q . R(x) k for q, k of length 2*half, pairs as in style. */
int posenc_rope_decay_vectors(double *out, const double *distances, int32_t n,
                              const double *inv_freq, int32_t half, const float *q, const float *k,
                              int32_t style);
/* (q + PE(0)) . (k + PE(x)) with interleaved PE of width dim; q = k = NULL gives PE(0).PE(x). */
int posenc_sinusoidal_decay(double *out, const double *distances, int32_t n, int32_t dim,
                            double base, const float *q, const float *k);

/* ==== ALiBi (alibi.c) ==== */

/* Per-head slopes (the paper's rule, interleaved for non-powers of two), and the
 * bias out[heads][seq][seq] = -(i - j) m_h for j <= i, 0 above the diagonal. */
int posenc_alibi_slopes(double *out, int32_t heads);
int posenc_alibi_bias(float *out, int32_t heads, int32_t seq);

/* ==== Dynamic NTK and the KV cache (kv_cache.c) ==== */

/* Dynamic NTK with a KV cache (transformers#25104): q, k [length][head_dim], all rotated
 * (rotary_dim = head_dim, pairs as in style). Key j is cached at step j + 1, rotated with
 * dynamic NTK (factor, max_pos) at sequence length j + 1; the query of step t is q row t - 1,
 * rotated with the base of length t. For each step t = steps[i] (1 <= t <= length): score_diff[i]
 * = max_j |q_t . k_j(cached) - q_t . k_j(rotated with step t's base)| over j < t, and
 * weight_diff[i] the same for posenc_attention's softmax weights of the two score rows.
 * cached_scores[length] and fresh_scores[length] are step length's two score rows.
 * Valid: head_dim even and > 2 (dynamic NTK's exponent d/(d-2)), every |q|, |k| <= FLT_MAX/2
 * (so that no rotated value overflows), base, factor and max_pos as posenc_rope_scaled_freq takes them for
 * dynamic scaling, and the dynamic base finite and >= 1 at every length in (max_pos, length]. */
int posenc_dynamic_kv_cache(double *score_diff, double *weight_diff, double *cached_scores,
                            double *fresh_scores, const float *q, const float *k, int32_t length,
                            int32_t head_dim, int32_t style, double base, double factor,
                            double max_pos, const int32_t *steps, int32_t n_steps);

/* ==== Seeded normal samples (random.c) ==== */

/* Seeded standard normal samples (splitmix64 + Box-Muller, all in float64). */
int posenc_random_normal(float *out, int32_t n, double seed);

/* ==== Relative positions: T5 buckets, xPos scales (relative.c) ==== */

/* Hugging Face T5's _relative_position_bucket, in float64: out[i] = the bucket of relative[i]
 * (memory - query, as HF passes it). bidirectional 0 or 1; num_buckets in [2, 65536] (>= 4 when
 * bidirectional); max_distance > the exact range (num_buckets / 2, halved again when
 * bidirectional) and <= 2^30; every |relative[i]| < 2^30 (else POSENC_E_POSITION). */
int posenc_t5_bucket(int32_t *out, const int32_t *relative, int32_t n, int32_t bidirectional,
                     int32_t num_buckets, int32_t max_distance);
/* xPos scales (lucidrains rotary-embedding-torch use_xpos): out[n][dim/2], row r pair i =
 * zeta_i^(positions[r] / scale_base), zeta_i = (2i + 0.4 dim) / (1.4 dim). The caller centres
 * the positions (any finite value); q takes the factor, k its inverse. A factor past the float64
 * range is 0 or +Inf. */
int posenc_xpos_scale(double *out, const double *positions, int32_t n, int32_t dim, double scale_base);

/* ==== The length-generalisation lab ====
 * Its API (posenc_lab_*, a tiny transformer trained in the module) is c/lab/lab.h, with its own
 * conventions; exports.txt lists its functions after the ones above, in lab.h's order. */

#endif
