/* rope_table.h: what c/rope.c's fused kernels take from c/rope_table.c, which forms RoPE's
 * cos/sin: one position's row for a run of pairs, and the runs of the arithmetic-progression
 * recurrence (progression.h). Private to c/: the public API is posenc.h. */
#ifndef POSENC_ROPE_TABLE_H
#define POSENC_ROPE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "progression.h"

#define PR_CHUNK 256  /* pairs at once (their state and steps on the stack: 8 KiB) */
#define PR_SUB 8      /* rows a group of pairs runs before the next group: the row segments it
                         writes stay in L1 (sinusoidal.c's SUB_ROWS) */
#define PR_BLOCK 4096 /* floats of cos (and of sin) the fused kernel forms at once (16 KiB each) */
#define PR_MIN 24     /* fewer positions take the direct path: the anchors, the steps and the
                         first rows' fallbacks (small sines near position 0) cost about as much
                         as the rows they save (at 64 pairs: 16 rows 0.92x, 32 rows 1.1x) */

/* Rows of the table from row r0 of a progression (positions x0 + r dx) for pairs at theta w:
 * the recurrence's state s, c (turned by the steps ws, wc) and what its rounding test needs. */
typedef struct {
  double *s, *c;
  const double *ws, *wc, *w;
  double x0, dx, attn, win;
  int32_t r0;
} pr_run_t;

/* cos/sin of position pos for pairs [0, np) at theta w (times attn). check = 0: the caller
 * knows pos * w_j < PS_REDUCE_MAX for every j; pos * w_j < PS_NEAR_SC for every j >= near. */
void ps_rope_row(float *cs, float *sn, double pos, const double *w, int32_t np, double attn,
                 int check, int32_t near);
/* Positions and theta finite and >= 0 and no angle overflowing; their largest values. */
int ps_rope_check_angles(const double *positions, int32_t n, const double *w, int32_t half,
                         double *pmax, double *wmax);
/* Whether a row's angles may pass the reduction's range, and the pair from which every angle
 * of a call stays below PS_NEAR_SC (sincos.h). */
int ps_rope_far_row(double pos, double wmax);
int32_t ps_rope_near_from(const double *w, int32_t half, double pmax);

/* The recurrence: whether it serves positions[0..n) (then *x0, *dx), the steps of pairs at
 * theta w, a run's start at row r0 and the rows it forms (row stride ld). */
int pr_serves(const double *positions, int32_t n, double pmax, double wmax, double attn,
              double *x0, double *dx);
void pr_steps(double *s, double *c, double dx, const double *w, int32_t np);
void pr_start(pr_run_t *R, double x0, double dx, int32_t r0, int32_t nr, const double *w,
              int32_t np, double attn, double wmax);
void pr_rows(float *cs, float *sn, size_t ld, int32_t nr, int32_t np, const pr_run_t *R);

#endif
