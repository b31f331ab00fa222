/* relative.h: the element rules of relative.c, shared with the lab (c/lab), which calls them for
 * its T5 bias and xPos factors: one implementation of each. Arguments are not checked here. */
#ifndef POSENC_RELATIVE_H
#define POSENC_RELATIVE_H

#include <stdint.h>

/* Hugging Face T5's bucket of one relative position (memory - query). Needs num_buckets >= 2
 * (>= 4 when bidirectional), max_distance > the exact half, |rel| < 2^30. */
int32_t ps_t5_bucket(int32_t rel, int32_t bidirectional, int32_t num_buckets, int32_t max_distance);
/* xPos factor zeta_i^(p / scale_base) of pair i of a dim-wide vector at (centred) position p. */
double ps_xpos_scale(int32_t pair, int32_t dim, double p, double scale_base);

#endif
