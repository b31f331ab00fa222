/* lab_kernels.h: the lab's dense kernels (lab_kernels.c) and the build switches they follow. */
#ifndef POSENC_LAB_KERNELS_H
#define POSENC_LAB_KERNELS_H

#include <stdint.h>

#include "lab.h"

/* SIMD forms only in a float build for WASM SIMD; the float64 build always runs the scalar forms. */
#if defined(__wasm_simd128__) && !defined(LAB_F64)
#define LAB_SIMD 1
#include <wasm_simd128.h>
#else
#define LAB_SIMD 0
#endif

/* The SIMD build leaves the scalar forms unused. */
#define MAYBE_UNUSED_LAB __attribute__((unused))

enum { LAB_SET = 0, LAB_ACC = 1 };
enum { LAB_TRI_NONE = 0, LAB_TRI_COLS = 1, LAB_TRI_KLE = 2, LAB_TRI_KGE = 3 };

/* C[m][0..n) = (bias, or 0 for LAB_SET, or C for LAB_ACC) + sum_k A(m,k) B[k][0..n) for m < M,
 * A(m,k) = A[m*sam + k*sak], rows of B ldb apart and of C ldc apart. tri: see lab_kernels.c. */
void lab_gemm(lab_real *C, int32_t ldc, const lab_real *A, int32_t sam, int32_t sak, const lab_real *B,
              int32_t ldb, int32_t M, int32_t K, int32_t N, int mode, const lab_real *bias, int tri);
/* db[j] += sum_r dy[r][j] over rows r < n of width w. */
void lab_colsum_acc(lab_real *db, const lab_real *dy, int32_t n, int32_t w);
/* out[c][r] = in[r][c] for in[rows][cols]. */
void lab_transpose(lab_real *out, const lab_real *in, int32_t rows, int32_t cols);

#endif
