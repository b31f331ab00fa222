/* main.c: one libFuzzer binary for every harness; POSENC_FUZZ_TARGET names the entry point
 * to fuzz (each keeps its own corpus directory under tests/fuzz/corpus/). */
#include "fuzz.h"

#define HARNESSES(X)                                                                           \
  X(posenc_info) X(posenc_sinusoidal) X(posenc_sinusoidal_f64) X(posenc_sinusoidal_shift)      \
  X(posenc_binary) X(posenc_rope_inv_freq) X(posenc_rope_cache) X(posenc_rope_apply_table)     \
  X(posenc_rope_apply) X(posenc_attention) X(posenc_gram) X(posenc_row_cosines) X(posenc_row_dots) X(posenc_embed) \
  X(posenc_linear) X(posenc_order_demo) X(posenc_rope_decay_ones) X(posenc_rope_decay_bound)    \
  X(posenc_rope_decay_vectors) X(posenc_sinusoidal_decay) X(posenc_random_normal)              \
  X(posenc_rope_scaled_freq) X(posenc_rope_cache_emulated) X(posenc_alibi_slopes)               \
  X(posenc_alibi_bias) X(posenc_sinusoidal_t2t) X(posenc_first_invalid_f32) X(posenc_first_invalid_f64)    \
  X(posenc_dynamic_kv_cache) X(posenc_mrope_cache) X(posenc_attention_temperature)              \
  X(posenc_t5_bucket) X(posenc_xpos_scale) X(posenc_llamacpp_cache)

/* The lab's (c/lab/lab.h; lab_fuzz.h), each covering the calls its comment names. */
#define LAB_HARNESSES(X)                                                                            \
  X(posenc_lab_create) X(posenc_lab_train_steps) X(posenc_lab_finetune_steps) X(posenc_lab_evaluate) \
  X(posenc_lab_attention) X(posenc_lab_hidden) X(posenc_lab_example) X(posenc_lab_loss_and_grad)   \
  X(posenc_lab_group) X(posenc_lab_rope_freqs)

#define DECLARE(name) FZ_HARNESS(name);
HARNESSES(DECLARE)
LAB_HARNESSES(DECLARE)

static const struct {
  const char *name;
  int (*fn)(fz *);
} targets[] = {
#define ENTRY(name) {#name, fuzz_##name},
    HARNESSES(ENTRY) LAB_HARNESSES(ENTRY)
};

static int (*target)(fz *);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  const char *want = getenv("POSENC_FUZZ_TARGET");
  size_t count = sizeof targets / sizeof *targets;
  if (want && !strcmp(want, "list")) {
    for (size_t i = 0; i < count; i++) puts(targets[i].name);
    exit(0);
  }
  for (size_t i = 0; want && i < count; i++)
    if (!strcmp(want, targets[i].name)) target = targets[i].fn;
  if (!target) {
    fprintf(stderr, "posenc fuzz: set POSENC_FUZZ_TARGET to one of (or to \"list\"):");
    for (size_t i = 0; i < count; i++) fprintf(stderr, " %s", targets[i].name);
    fputc('\n', stderr);
    exit(2);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz in = {data, size};
  return target(&in);
}
