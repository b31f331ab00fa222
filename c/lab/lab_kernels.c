/* lab_kernels.c: the lab's dense kernels. One GEMM form serves every product of the model:
 * C[m][0..n) (+)= sum_k A(m,k) B[k][0..n), with A read through two strides (so A may be a
 * transpose) and B, C row-major. Its inner step is an axpy along contiguous rows of B and C,
 * which vectorises without horizontal sums. Linear layers keep W as [in][out], so the forward
 * (X W) and the weight gradient (X^T dY) are this form directly, and the input gradient
 * (dY W^T) is this form over a transposed copy of W.
 *
 * tri limits the work to a causal triangle (the attention products): LAB_TRI_COLS computes
 * columns n <= m only, LAB_TRI_KLE sums k <= m only, LAB_TRI_KGE k >= m only. Entries of C
 * outside the triangle are left as they were.
 *
 * Two forms with one signature: gemm_scalar (the reference; also the float64 build's) and
 * gemm_simd (WASM SIMD, float32): 16, 8 or 4 columns of C in vector accumulators, two rows of C
 * at a time so that each load of B serves both, and a scalar tail. Both sum over k in the same
 * order, so each element of C is the same sequence of float operations in both forms (wasm has
 * no FMA to fuse). */
#include <stddef.h>
#include <string.h>

#include "lab_kernels.h"

/* Columns [0, w) of one row of C, k in [k0, k1), summed in w local accumulators: the same sums
 * in the same order as the plain loop c[j] += a b[j], without a load and a store of C per k.
 * Full blocks have a constant width, so that the compiler keeps them in vector registers. */
#define SCALAR_BLOCK 16
#define BLOCK_SCALAR(name, W)                                                                  \
  static inline void name(lab_real *c, const lab_real *a, int32_t sak, const lab_real *B,      \
                          int32_t ldb, int32_t k0, int32_t k1, int32_t w, int mode,            \
                          const lab_real *bias) {                                              \
    lab_real acc[SCALAR_BLOCK];                                                                \
    for (int32_t j = 0; j < W; j++) acc[j] = bias ? bias[j] : mode == LAB_SET ? (lab_real)0 : c[j]; \
    for (int32_t k = k0; k < k1; k++) {                                                        \
      lab_real av = a[(size_t)k * sak];                                                        \
      const lab_real *b = B + (size_t)k * ldb;                                                 \
      for (int32_t j = 0; j < W; j++) acc[j] += av * b[j];                                     \
    }                                                                                          \
    for (int32_t j = 0; j < W; j++) c[j] = acc[j];                                             \
    (void)w;                                                                                   \
  }
BLOCK_SCALAR(block_full, SCALAR_BLOCK)
BLOCK_SCALAR(block_tail, w)

MAYBE_UNUSED_LAB static void gemm_scalar(lab_real *C, int32_t ldc, const lab_real *A, int32_t sam,
                                         int32_t sak, const lab_real *B, int32_t ldb, int32_t M,
                                         int32_t K, int32_t N, int mode, const lab_real *bias, int tri) {
  for (int32_t m = 0; m < M; m++) {
    int32_t n = tri == LAB_TRI_COLS ? m + 1 : N;
    int32_t k0 = tri == LAB_TRI_KGE ? m : 0, k1 = tri == LAB_TRI_KLE ? m + 1 : K;
    lab_real *c = C + (size_t)m * ldc;
    const lab_real *a = A + (size_t)m * sam;
    int32_t j = 0;
    for (; j + SCALAR_BLOCK <= n; j += SCALAR_BLOCK)
      block_full(c + j, a, sak, B + j, ldb, k0, k1, SCALAR_BLOCK, mode, bias ? bias + j : 0);
    if (j < n) block_tail(c + j, a, sak, B + j, ldb, k0, k1, n - j, mode, bias ? bias + j : 0);
  }
}

#if LAB_SIMD
#define LD(p) wasm_v128_load(p)
#define ST(p, v) wasm_v128_store(p, v)
#define MADD(acc, a, b) acc = wasm_f32x4_add(acc, wasm_f32x4_mul(a, b))

static inline v128_t init4(const float *c, const float *bias, int mode) {
  if (bias) return LD(bias);
  return mode == LAB_SET ? wasm_f32x4_splat(0.0f) : LD(c);
}

/* Columns [j, j + 4V) of rows m and (when two) m + 1, over k in [k0, k1). V = 4, 2 or 1. */
#define BLOCK(V)                                                                          \
  static inline __attribute__((always_inline)) void block##V(                            \
      float *c0, float *c1, const float *a0, const float *a1, int32_t sak, const float *B, \
      int32_t ldb, int32_t k0, int32_t k1, int mode, const float *bias, int two) {        \
    v128_t x[V], y[V];                                                                    \
    for (int v = 0; v < V; v++) {                                                         \
      x[v] = init4(c0 + 4 * v, bias ? bias + 4 * v : 0, mode);                            \
      y[v] = two ? init4(c1 + 4 * v, bias ? bias + 4 * v : 0, mode) : x[v];               \
    }                                                                                     \
    for (int32_t k = k0; k < k1; k++) {                                                   \
      const float *b = B + (size_t)k * ldb;                                               \
      v128_t p = wasm_f32x4_splat(a0[(size_t)k * sak]);                                   \
      if (two) {                                                                          \
        v128_t q = wasm_f32x4_splat(a1[(size_t)k * sak]);                                 \
        for (int v = 0; v < V; v++) {                                                     \
          v128_t bv = LD(b + 4 * v);                                                      \
          MADD(x[v], p, bv);                                                              \
          MADD(y[v], q, bv);                                                              \
        }                                                                                 \
      } else {                                                                            \
        for (int v = 0; v < V; v++) MADD(x[v], p, LD(b + 4 * v));                        \
      }                                                                                   \
    }                                                                                     \
    for (int v = 0; v < V; v++) {                                                         \
      ST(c0 + 4 * v, x[v]);                                                               \
      if (two) ST(c1 + 4 * v, y[v]);                                                      \
    }                                                                                     \
  }
BLOCK(4)
BLOCK(2)
BLOCK(1)

/* Rows m (and m + 1 when two) over columns [0, n), k in [k0, k1). */
static inline __attribute__((always_inline)) void rows_simd(float *c0, float *c1, const float *a0,
                                                            const float *a1, int32_t sak,
                                                            const float *B, int32_t ldb, int32_t k0,
                                                            int32_t k1, int32_t n, int mode,
                                                            const float *bias, int two) {
  int32_t j = 0;
#define AT(j) (bias ? bias + (j) : 0)
  for (; j + 16 <= n; j += 16) block4(c0 + j, c1 + j, a0, a1, sak, B + j, ldb, k0, k1, mode, AT(j), two);
  if (j + 8 <= n) block2(c0 + j, c1 + j, a0, a1, sak, B + j, ldb, k0, k1, mode, AT(j), two), j += 8;
  if (j + 4 <= n) block1(c0 + j, c1 + j, a0, a1, sak, B + j, ldb, k0, k1, mode, AT(j), two), j += 4;
#undef AT
  for (; j < n; j++) { /* tail columns: the scalar form's order */
    for (int r = 0; r < 1 + two; r++) {
      float *c = r ? c1 : c0;
      const float *a = r ? a1 : a0;
      float acc = bias ? bias[j] : mode == LAB_SET ? 0.0f : c[j];
      for (int32_t k = k0; k < k1; k++) acc += a[(size_t)k * sak] * B[(size_t)k * ldb + j];
      c[j] = acc;
    }
  }
}

static void gemm_simd(float *C, int32_t ldc, const float *A, int32_t sam, int32_t sak, const float *B,
                      int32_t ldb, int32_t M, int32_t K, int32_t N, int mode, const float *bias, int tri) {
  int32_t m = 0;
  if (tri == LAB_TRI_NONE) /* two rows at a time share their loads of B */
    for (; m + 2 <= M; m += 2)
      rows_simd(C + (size_t)m * ldc, C + (size_t)(m + 1) * ldc, A + (size_t)m * sam,
                A + (size_t)(m + 1) * sam, sak, B, ldb, 0, K, N, mode, bias, 1);
  for (; m < M; m++) {
    int32_t n = tri == LAB_TRI_COLS ? m + 1 : N;
    int32_t k0 = tri == LAB_TRI_KGE ? m : 0, k1 = tri == LAB_TRI_KLE ? m + 1 : K;
    /* one row: the second row's pointers go unused, but are this row's rather than NULL, since
     * rows_simd offsets them (NULL + j is undefined behaviour even when never dereferenced) */
    rows_simd(C + (size_t)m * ldc, C + (size_t)m * ldc, A + (size_t)m * sam, A + (size_t)m * sam, sak, B, ldb, k0,
              k1, n, mode, bias, 0);
  }
}
#endif

void lab_gemm(lab_real *C, int32_t ldc, const lab_real *A, int32_t sam, int32_t sak, const lab_real *B,
              int32_t ldb, int32_t M, int32_t K, int32_t N, int mode, const lab_real *bias, int tri) {
#if LAB_SIMD
  gemm_simd(C, ldc, A, sam, sak, B, ldb, M, K, N, mode, bias, tri);
#else
  gemm_scalar(C, ldc, A, sam, sak, B, ldb, M, K, N, mode, bias, tri);
#endif
}

void lab_colsum_acc(lab_real *db, const lab_real *dy, int32_t n, int32_t w) {
  for (int32_t r = 0; r < n; r++) {
    const lab_real *row = dy + (size_t)r * w;
    for (int32_t j = 0; j < w; j++) db[j] += row[j];
  }
}

void lab_transpose(lab_real *out, const lab_real *in, int32_t rows, int32_t cols) {
  for (int32_t r = 0; r < rows; r++)
    for (int32_t c = 0; c < cols; c++) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
