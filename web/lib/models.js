// models.js: a gallery of real models' position settings, for readRopeConfig() (rope-config.js).
// Each entry names one checkpoint (a Hugging Face repository id) and holds only the
// position-relevant keys of that checkpoint's config.json, with the key names and values of the
// source named beside it; nothing here is recalled or rounded. A key the file itself leaves out
// stays out: readRopeConfig then takes transformers' class default and says so in a warning.
//
// Sources used most:
//   MLC = mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py (config.json files copied verbatim;
//         commented-out presets count: they are the same verbatim copies)
//   HF  = huggingface/transformers src/transformers/models/<model>/configuration_<model>.py
//         (class defaults, documented there as the configuration of the checkpoint named)
//
// An entry's `zh` holds its name and source as the Chinese page shows them, where the English
// ones have words to translate (repository, file and key names stay as they are).

const PHI3_5_LONG = [
  1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
  1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
  4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
  17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
  32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
  50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
  62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
  63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
  64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
  64.51000213623047, 64.52999877929688, 64.83999633789062,
];
const PHI3_5_SHORT = [
  1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842,
  1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979,
  1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662,
  1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083,
  1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
  2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
  2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
  2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
  2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533,
  2.729999542236328, 2.749999523162842, 2.8399994373321533,
];
const PHI4_MINI_LONG = [
  1, 1.118320672, 1.250641126, 1.398617824, 1.564103225, 1.74916897, 1.956131817, 2.187582649,
  2.446418898, 2.735880826, 3.059592084, 3.421605075, 3.826451687, 4.279200023, 4.785517845,
  5.351743533, 5.984965424, 6.693110555, 7.485043894, 8.370679318, 9.36110372, 10.4687158,
  11.70738129, 13.09260651, 14.64173252, 16.37415215, 18.31155283, 20.47818807, 22.90118105,
  25.61086418, 28.64115884, 32.03, 32.1, 32.13, 32.23, 32.6, 32.61, 32.64, 32.66, 32.7, 32.71,
  32.93, 32.97, 33.28, 33.49, 33.5, 44.16, 47.77,
];
const PHI4_MINI_SHORT = Array(48).fill(1.0);

export const MODELS = [
  {
    id: 'llama-2-7b', name: 'Llama 2 7B', family: 'Llama', year: 2023,
    checkpoint: 'meta-llama/Llama-2-7b-hf',
    config: { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 4096, rope_scaling: null },
    source: 'Lightning-AI/litgpt litgpt/config.py Llama-2-7b-hf (block_size 4096, mirroring the hub file); widths as MLC llama2_7b',
    zh: { source: 'Lightning-AI/litgpt 的 litgpt/config.py 中的 Llama-2-7b-hf（block_size 4096，与 Hub 上的文件一致）；各宽度取自 MLC llama2_7b' },
    note: 'No rope_theta in the file: LlamaConfig\'s default 10000. MLC\'s copy (an early revision, transformers 4.31.0.dev0) still says 2048.',
  },
  {
    id: 'codellama-7b', name: 'CodeLlama 7B', family: 'Llama', year: 2023,
    checkpoint: 'codellama/CodeLlama-7b-hf',
    config: { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 16384, rope_scaling: null, rope_theta: 1000000 },
    source: 'MLC codellama_7b (codellama/CodeLlama-7b-hf)',
  },
  {
    id: 'llama-3-8b', name: 'Llama 3 8B', family: 'Llama', year: 2024,
    checkpoint: 'meta-llama/Meta-Llama-3-8B',
    config: { model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 8192, rope_scaling: null, rope_theta: 500000.0 },
    source: 'MLC llama3_8b (commented-out preset)',
    zh: { source: 'MLC llama3_8b（注释掉的预设）' },
  },
  {
    id: 'llama-3.1-8b', name: 'Llama 3.1 8B', family: 'Llama', year: 2024,
    checkpoint: 'meta-llama/Llama-3.1-8B',
    config: {
      model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 131072,
      rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
      rope_theta: 500000.0,
    },
    source: 'MLC llama3_1_8b',
  },
  {
    id: 'llama-3.2-1b', name: 'Llama 3.2 1B', family: 'Llama', year: 2024,
    checkpoint: 'meta-llama/Llama-3.2-1B',
    config: {
      model_type: 'llama', head_dim: 64, hidden_size: 2048, num_attention_heads: 32, num_hidden_layers: 16, max_position_embeddings: 131072,
      rope_scaling: { factor: 32.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
      rope_theta: 500000.0,
    },
    source: 'MLC llama3_2_1b',
  },
  {
    id: 'llama-4-scout', name: 'Llama 4 Scout 17B-16E (text)', family: 'Llama', year: 2025,
    checkpoint: 'meta-llama/Llama-4-Scout-17B-16E',
    config: {
      model_type: 'llama4',
      text_config: {
        model_type: 'llama4_text', hidden_size: 5120, num_attention_heads: 40, head_dim: 128, num_hidden_layers: 48,
        max_position_embeddings: 262144, no_rope_layers: [], attention_chunk_size: 8192,
        rope_scaling: { factor: 16.0, high_freq_factor: 1.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
        rope_theta: 500000.0,
      },
    },
    source: 'meta-llama/Llama-4-Scout-17B-16E config.json text_config as quoted in AMD-AGI/Primus#165; factor 16 and high_freq_factor 1 also in meta-llama/llama-models models/llama4/args.py (llama-models#322)',
    zh: { name: 'Llama 4 Scout 17B-16E（纯文本部分）', source: 'meta-llama/Llama-4-Scout-17B-16E 的 config.json 中的 text_config，引自 AMD-AGI/Primus#165；factor 16 和 high_freq_factor 1 也见于 meta-llama/llama-models 的 models/llama4/args.py（llama-models#322）' },
    note: 'llama3 scaling with low_freq_factor = high_freq_factor = 1: a step, not a ramp. Wavelengths under 8192 keep θ_i, longer ones are divided by 16. no_rope_layers is empty, so Llama4TextConfig\'s defaults apply: every 4th layer is NoPE, with attention temperature tuning (scale 0.1, floor 8192).',
  },
  {
    id: 'tinyllama-1.1b', name: 'TinyLlama 1.1B Chat v1.0', family: 'Llama', year: 2024,
    checkpoint: 'TinyLlama/TinyLlama-1.1B-Chat-v1.0',
    config: { model_type: 'llama', hidden_size: 2048, num_attention_heads: 32, num_hidden_layers: 22, max_position_embeddings: 2048, rope_scaling: null, rope_theta: 10000.0 },
    source: 'MLC tinyllama_1b_chat_v1.0',
  },
  {
    id: 'mistral-7b-v0.1', name: 'Mistral 7B v0.1', family: 'Mistral', year: 2023,
    checkpoint: 'mistralai/Mistral-7B-v0.1',
    config: { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 32768, rope_theta: 10000.0 },
    source: 'MLC mistral_7b',
    note: 'Sliding window 4096 (attention, not position).',
  },
  {
    id: 'mistral-7b-v0.3', name: 'Mistral 7B v0.3', family: 'Mistral', year: 2024,
    checkpoint: 'mistralai/Mistral-7B-v0.3',
    config: { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 32768, rope_theta: 1000000.0 },
    source: 'MLC mistral_7b_v03',
  },
  {
    id: 'mixtral-8x7b', name: 'Mixtral 8x7B v0.1', family: 'Mistral', year: 2023,
    checkpoint: 'mistralai/Mixtral-8x7B-v0.1',
    config: { model_type: 'mixtral', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 32768, rope_theta: 1000000.0 },
    source: 'MLC Mixtral-8x7B-v0.1',
  },
  {
    id: 'ministral-3-3b', name: 'Ministral 3 3B Reasoning 2512', family: 'Mistral', year: 2025,
    checkpoint: 'mistralai/Ministral-3-3B-Reasoning-2512',
    config: {
      model_type: 'mistral3',
      text_config: {
        head_dim: 128, hidden_size: 3072, max_position_embeddings: 262144, model_type: 'ministral3', num_attention_heads: 32, num_hidden_layers: 26,
        rope_parameters: {
          beta_fast: 32.0, beta_slow: 1.0, factor: 16.0, llama_4_scaling_beta: 0.1, mscale: 1.0, mscale_all_dim: 1.0,
          original_max_position_embeddings: 16384, rope_theta: 1000000.0, rope_type: 'yarn', type: 'yarn',
        },
      },
    },
    source: 'MLC ministral3_3b_reasoning_2512 (transformers 5 layout)',
    zh: { source: 'MLC ministral3_3b_reasoning_2512（transformers 5 的格式）' },
    note: 'YaRN ×16 with mscale = mscale_all_dim (attention factor 1), plus Llama-4-style query temperature with beta 0.1 over 16384-token buckets.',
  },
  {
    id: 'qwen2-7b', name: 'Qwen2 7B Instruct', family: 'Qwen', year: 2024,
    checkpoint: 'Qwen/Qwen2-7B-Instruct',
    config: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 32768, rope_theta: 1000000.0 },
    source: 'MLC qwen2_7b (the Instruct config: eos_token_id 151645)',
    zh: { source: 'MLC qwen2_7b（Instruct 版的配置：eos_token_id 151645）' },
    note: 'The Instruct model is set to 32768 on purpose; its model card adds YaRN ×4 for longer inputs (next entry).',
  },
  {
    id: 'qwen2-7b-base', name: 'Qwen2 7B (base)', family: 'Qwen', year: 2024,
    checkpoint: 'Qwen/Qwen2-7B',
    config: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 131072, rope_theta: 1000000.0 },
    source: 'QwenLM/Qwen3#663 (Qwen2-7B vs Qwen2-7B-Instruct config screenshots) and a Qwen maintainer in QwenLM/Qwen3#679: "All base models support the context length of 131072"; widths as Qwen2-7B-Instruct',
    zh: { name: 'Qwen2 7B（基座）', source: 'QwenLM/Qwen3#663（Qwen2-7B 与 Qwen2-7B-Instruct 配置的截图），以及 Qwen 维护者在 QwenLM/Qwen3#679 中的原话：“All base models support the context length of 131072”；各宽度同 Qwen2-7B-Instruct' },
    note: 'Same RoPE as the Instruct model, read to 131072 with no scaling block.',
  },
  {
    id: 'qwen2-7b-yarn4', name: 'Qwen2 7B Instruct + YaRN ×4 (128K recipe)', family: 'Qwen', year: 2024,
    checkpoint: 'Qwen/Qwen2-7B-Instruct',
    config: {
      model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 32768, rope_theta: 1000000.0,
      rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' },
    },
    source: 'MLC qwen2_7b, with the rope_scaling block the Qwen2/Qwen2.5 Instruct model cards tell users to add (quoted in ggml-org/llama.cpp#10698, turboderp-org/exllamav2#642)',
    zh: { name: 'Qwen2 7B Instruct + YaRN ×4（128K 方案）', source: 'MLC qwen2_7b，加上 Qwen2/Qwen2.5 Instruct 模型卡让用户自行添加的 rope_scaling 配置段（引自 ggml-org/llama.cpp#10698、turboderp-org/exllamav2#642）' },
    note: 'Static YaRN: applies at every length once added. transformers before #40320 replaced factor by max_position_embeddings / original_max_position_embeddings = 1 here, so the recipe did nothing there unless max_position_embeddings was raised to 131072 (transformers#38224).',
  },
  {
    id: 'qwen2.5-3b', name: 'Qwen2.5 3B', family: 'Qwen', year: 2024,
    checkpoint: 'Qwen/Qwen2.5-3B',
    config: { model_type: 'qwen2', hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 36, max_position_embeddings: 32768, rope_theta: 1000000.0 },
    source: 'MLC qwen2.5_3b',
  },
  {
    id: 'qwen3-8b', name: 'Qwen3 8B', family: 'Qwen', year: 2025,
    checkpoint: 'Qwen/Qwen3-8B',
    config: { model_type: 'qwen3', head_dim: 128, hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 36, max_position_embeddings: 40960, rope_scaling: null, rope_theta: 1000000 },
    source: 'MLC qwen3_8b (commented-out preset)',
    zh: { source: 'MLC qwen3_8b（注释掉的预设）' },
  },
  {
    id: 'qwen2-vl', name: 'Qwen2-VL 7B Instruct (text part)', family: 'Qwen', year: 2024,
    checkpoint: 'Qwen/Qwen2-VL-7B-Instruct',
    config: {
      model_type: 'qwen2_vl', hidden_size: 3584, num_attention_heads: 28, num_hidden_layers: 28, max_position_embeddings: 32768, rope_theta: 1000000.0,
      rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] },
    },
    source: 'Qwen/Qwen2-VL-7B-Instruct config.json as quoted in huggingface/transformers#33401 (an exported copy in modelscope/ms-swift#2340)',
    zh: { name: 'Qwen2-VL 7B Instruct（纯文本部分）', source: 'Qwen/Qwen2-VL-7B-Instruct 的 config.json，引自 huggingface/transformers#33401（modelscope/ms-swift#2340 中有一份导出的副本）' },
    note: 'head_dim 3584 / 28 = 128: 16 + 24 + 24 = 64 pairs in three streams (t, h, w). transformers reads the mrope type as default RoPE.',
  },
  {
    id: 'deepseek-v3', name: 'DeepSeek-V3', family: 'DeepSeek', year: 2024,
    checkpoint: 'deepseek-ai/DeepSeek-V3',
    config: {
      model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, num_hidden_layers: 61, max_position_embeddings: 163840,
      qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' },
    },
    source: 'HF deepseek-ai/DeepSeek-V3 config.json (same values in deepseek-ai/DeepSeek-V3 inference/model.py ModelArgs: qk_rope_head_dim 64, rope_theta 10000, rope_factor 40, original_seq_len 4096, beta 32/1, mscale 1)',
    zh: { source: 'HF deepseek-ai/DeepSeek-V3 的 config.json（deepseek-ai/DeepSeek-V3 的 inference/model.py 中 ModelArgs 的取值相同：qk_rope_head_dim 64、rope_theta 10000、rope_factor 40、original_seq_len 4096、beta 32/1、mscale 1）' },
    note: 'MLA: RoPE on the 64-dim rope part only, adjacent pairs. mscale = mscale_all_dim gives attention factor 1; the softmax scale is multiplied by (0.1·ln 40 + 1)² instead.',
  },
  {
    id: 'deepseek-v2-lite', name: 'DeepSeek-V2-Lite', family: 'DeepSeek', year: 2024,
    checkpoint: 'deepseek-ai/DeepSeek-V2-Lite',
    config: {
      model_type: 'deepseek_v2', hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 27, max_position_embeddings: 163840,
      qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 0.707, mscale_all_dim: 0.707, original_max_position_embeddings: 4096, type: 'yarn' },
    },
    source: 'MLC deepseek_v2_lite',
  },
  {
    id: 'gemma-2-9b', name: 'Gemma 2 9B', family: 'Gemma', year: 2024,
    checkpoint: 'google/gemma-2-9b',
    config: { model_type: 'gemma2', head_dim: 256, hidden_size: 3584, num_attention_heads: 16, num_hidden_layers: 42, max_position_embeddings: 8192, query_pre_attn_scalar: 256, rope_theta: 10000.0, sliding_window: 4096 },
    source: 'MLC gemma2_9b',
    note: 'Sliding (4096) and global layers alternate with the same RoPE.',
  },
  {
    id: 'gemma-2-27b', name: 'Gemma 2 27B', family: 'Gemma', year: 2024,
    checkpoint: 'google/gemma-2-27b',
    config: { model_type: 'gemma2', head_dim: 128, hidden_size: 4608, num_attention_heads: 32, num_hidden_layers: 46, max_position_embeddings: 8192, query_pre_attn_scalar: 144, rope_theta: 10000.0, sliding_window: 4096 },
    source: 'MLC gemma2_27b',
    note: 'query_pre_attn_scalar 144 ≠ head_dim 128: scores are scaled by 1/√144, i.e. √(128/144) times 1/√128.',
  },
  {
    id: 'gemma-3-1b', name: 'Gemma 3 1B', family: 'Gemma', year: 2025,
    checkpoint: 'google/gemma-3-1b-it',
    config: {
      model_type: 'gemma3_text', head_dim: 256, hidden_size: 1152, num_attention_heads: 4, num_hidden_layers: 26, max_position_embeddings: 32768,
      query_pre_attn_scalar: 256, rope_local_base_freq: 10000, rope_scaling: null, rope_theta: 1000000, sliding_window: 512, sliding_window_pattern: 6,
    },
    source: 'MLC gemma3_1b_it',
  },
  {
    id: 'gemma-3-4b', name: 'Gemma 3 4B', family: 'Gemma', year: 2025,
    checkpoint: 'google/gemma-3-4b-it',
    config: {
      model_type: 'gemma3',
      text_config: {
        model_type: 'gemma3_text', head_dim: 256, hidden_size: 2560, num_attention_heads: 8, num_hidden_layers: 34,
        rope_theta: 1000000.0, rope_local_base_freq: 10000.0, sliding_window: 1024, sliding_window_pattern: 6,
        rope_scaling: { factor: 8.0, rope_type: 'linear' },
      },
    },
    source: 'google/gemma-3-4b-it config.json text_config rope_scaling as quoted in Blaizzy/mlx-vlm#1709; widths, layers, window and both bases from AI-Hypercomputer/maxtext MaxText/configs/models/gemma3-4b.yml',
    zh: { source: 'google/gemma-3-4b-it 的 config.json 中 text_config 的 rope_scaling，引自 Blaizzy/mlx-vlm#1709；各宽度、层数、滑动窗口和两个底数取自 AI-Hypercomputer/maxtext 的 MaxText/configs/models/gemma3-4b.yml' },
    note: 'Linear ×8 on the global layers only; the sliding layers keep base 10000 unscaled. The hub file leaves out the keys equal to Gemma3TextConfig\'s defaults (head_dim 256 among them); the sources above write most of them out. max_position_embeddings and query_pre_attn_scalar are not in them: the class defaults 131072 and 256 apply.',
  },
  {
    id: 'gemma-4', name: 'Gemma 4 E2B', family: 'Gemma', year: 2026,
    checkpoint: 'google/gemma-4-e2b',
    config: {
      model_type: 'gemma4',
      text_config: {
        model_type: 'gemma4_text', hidden_size: 1536, num_attention_heads: 8, num_hidden_layers: 35, head_dim: 256, global_head_dim: 512,
        max_position_embeddings: 131072, sliding_window: 512, num_kv_shared_layers: 20,
        layer_types: Array.from({ length: 35 }, (_, i) => (i % 5 === 4 ? 'full_attention' : 'sliding_attention')),
        rope_parameters: {
          sliding_attention: { rope_type: 'default', rope_theta: 10000.0 },
          full_attention: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000.0 },
        },
      },
    },
    source: 'google/gemma-4-e2b config.json as copied in AI-Hypercomputer/maxtext hf_model_configs.py, gemma4_e2b_dict (transformers 5.5.0.dev0)',
    zh: { source: 'google/gemma-4-e2b 的 config.json，照录自 AI-Hypercomputer/maxtext 的 hf_model_configs.py 中的 gemma4_e2b_dict（transformers 5.5.0.dev0）' },
    note: 'p-RoPE on the global layers: the 512-wide head rotates with frequencies past int(0.25·512/2) = 64 pairs set to 0. Four sliding layers to one global (layers 4, 9, …, 34); the last 20 layers reuse earlier layers\' keys and values.',
  },
  {
    id: 'phi-2', name: 'Phi-2', family: 'Phi', year: 2023,
    checkpoint: 'microsoft/phi-2',
    config: { model_type: 'phi-msft', n_embd: 2560, n_head: 32, n_layer: 32, n_positions: 2048, rotary_dim: 32 },
    source: 'MLC phi-2 (microsoft/phi-2, custom-code config)',
    zh: { source: 'MLC phi-2（microsoft/phi-2，使用自定义代码的配置）' },
    note: 'Rotates 32 of 80 dims per head; no base in the config: 10000.',
  },
  {
    id: 'phi-3.5-mini', name: 'Phi-3.5 mini instruct', family: 'Phi', year: 2024,
    checkpoint: 'microsoft/Phi-3.5-mini-instruct',
    config: {
      model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 131072, original_max_position_embeddings: 4096,
      rope_scaling: { long_factor: PHI3_5_LONG, short_factor: PHI3_5_SHORT, type: 'longrope' }, rope_theta: 10000.0,
    },
    source: 'MLC phi-3_5 (Phi-3.5-mini-instruct)',
    note: 'LongRoPE: short factors up to 4096 tokens, long factors past it (transformers switches at seq_len > 4096); attention factor √(1 + ln 32 / ln 4096).',
  },
  {
    id: 'phi-4-mini', name: 'Phi-4 mini instruct', family: 'Phi', year: 2025,
    checkpoint: 'microsoft/Phi-4-mini-instruct',
    config: {
      model_type: 'phi3', hidden_size: 3072, num_attention_heads: 24, num_hidden_layers: 32, max_position_embeddings: 131072, original_max_position_embeddings: 4096,
      partial_rotary_factor: 0.75, rope_scaling: { long_factor: PHI4_MINI_LONG, short_factor: PHI4_MINI_SHORT, type: 'longrope' }, rope_theta: 10000.0,
    },
    source: 'MLC phi-4 (Phi-4-mini-instruct)',
    note: 'Partial rotary: 96 of 128 dims, so 48 factors per list.',
  },
  {
    id: 'gpt-j-6b', name: 'GPT-J 6B', family: 'GPT-J', year: 2021,
    checkpoint: 'EleutherAI/gpt-j-6b',
    config: { model_type: 'gptj', n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64 },
    source: 'MLC gpt_j (EleutherAI/gpt-j-6b)',
    note: 'Rotates 64 of 256 dims, adjacent pairs (rotate_every_two). The preset\'s rope_scaling {"rope_type": "gptj"} is MLC\'s own marker, not part of the model\'s config.json, and is left out.',
  },
  {
    id: 'redpajama-incite-3b', name: 'RedPajama-INCITE 3B v1 (GPT-NeoX)', family: 'GPT-NeoX', year: 2023,
    checkpoint: 'togethercomputer/RedPajama-INCITE-Chat-3B-v1',
    config: { model_type: 'gpt_neox', hidden_size: 2560, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 2048, rotary_emb_base: 10000, rotary_pct: 1.0 },
    source: 'MLC redpajama_3b_v1',
    zh: { name: 'RedPajama-INCITE 3B v1（GPT-NeoX）' },
    note: 'GPT-NeoX architecture with full rotary (rotary_pct 1.0). Pythia (rotary_pct 0.25) is not listed: its config was not found in a readable public file.',
  },
  {
    id: 'stablelm-3b-4e1t', name: 'StableLM 3B', family: 'StableLM', year: 2023,
    checkpoint: 'stabilityai/stablelm-3b-4e1t',
    config: { model_type: 'stablelm', hidden_size: 2560, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 4096, partial_rotary_factor: 0.25, rope_theta: 10000 },
    source: 'MLC stablelm',
    note: 'Rotates 20 of 80 dims per head.',
  },
  {
    id: 'stablelm-2-1.6b', name: 'StableLM 2 Zephyr 1.6B', family: 'StableLM', year: 2024,
    checkpoint: 'stabilityai/stablelm-2-zephyr-1_6b',
    config: { model_type: 'stablelm', hidden_size: 2048, num_attention_heads: 32, num_hidden_layers: 24, max_position_embeddings: 4096, partial_rotary_factor: 0.25, rope_theta: 10000 },
    source: 'MLC stablelm-2-zephyr-1_6b',
  },
  {
    id: 'glm-4-9b', name: 'GLM-4 9B Chat', family: 'GLM', year: 2024,
    checkpoint: 'THUDM/glm-4-9b-chat',
    config: { model_type: 'glm', hidden_size: 4096, num_attention_heads: 32, head_dim: 128, num_hidden_layers: 40, max_position_embeddings: 131072, partial_rotary_factor: 0.5, rope_theta: 5000000.0 },
    source: 'THUDM/glm-4-9b-chat config.json (rope_ratio 500, seq_length 131072, kv_channels 128, num_layers 40) mapped as transformers glm/convert_glm_weights_to_hf.py maps it: rope_theta = 10000 × rope_ratio (llama.cpp does the same, ggml-org/llama.cpp#8031)',
    zh: { source: 'THUDM/glm-4-9b-chat 的 config.json（rope_ratio 500、seq_length 131072、kv_channels 128、num_layers 40），按 transformers 的 glm/convert_glm_weights_to_hf.py 的方式换算：rope_theta = 10000 × rope_ratio（llama.cpp 也这样换算，ggml-org/llama.cpp#8031）' },
    note: 'Rotates 64 of 128 dims, adjacent pairs (modeling_glm.py). The ChatGLM file says rope_ratio 500, not rope_theta: a reader that looks only for rope_theta falls back to 10000.',
  },
  {
    id: 'gpt-oss-20b', name: 'gpt-oss-20b', family: 'gpt-oss', year: 2025,
    checkpoint: 'openai/gpt-oss-20b',
    config: {
      model_type: 'gpt_oss', hidden_size: 2880, num_attention_heads: 64, head_dim: 64, num_hidden_layers: 24, max_position_embeddings: 131072, sliding_window: 128,
      rope_parameters: { rope_type: 'yarn', rope_theta: 150000.0, factor: 32.0, beta_fast: 32.0, beta_slow: 1.0, truncate: false, original_max_position_embeddings: 4096 },
    },
    source: 'HF gpt_oss/configuration_gpt_oss.py defaults (checkpoint openai/gpt-oss-20b: rope_parameters, default_theta 150000.0); 24 layers from AI-Hypercomputer/maxtext MaxText/configs/models/gpt-oss-20b.yml (which mirrors openai/gpt-oss-20b config.json)',
    zh: { source: 'HF gpt_oss/configuration_gpt_oss.py 中的默认值（检查点 openai/gpt-oss-20b：rope_parameters，default_theta 150000.0）；24 层取自 AI-Hypercomputer/maxtext 的 MaxText/configs/models/gpt-oss-20b.yml（它照搬 openai/gpt-oss-20b 的 config.json）' },
    note: 'YaRN ×32 without rounding the ramp bounds (truncate false); sliding (128) and full layers alternate with the same RoPE.',
  },
  {
    id: 'smollm2-135m', name: 'SmolLM2 135M', family: 'SmolLM', year: 2024,
    checkpoint: 'HuggingFaceTB/SmolLM2-135M',
    config: { model_type: 'llama', hidden_size: 576, num_attention_heads: 9, num_hidden_layers: 30, max_position_embeddings: 8192, rope_interleaved: false, rope_scaling: null, rope_theta: 100000 },
    source: 'MLC smollm2_135m',
  },
  {
    id: 'smollm2-360m', name: 'SmolLM2 360M', family: 'SmolLM', year: 2024,
    checkpoint: 'HuggingFaceTB/SmolLM2-360M',
    config: { model_type: 'llama', hidden_size: 960, num_attention_heads: 15, num_hidden_layers: 32, max_position_embeddings: 8192, rope_interleaved: false, rope_scaling: null, rope_theta: 100000 },
    source: 'MLC smollm2_360m',
  },
  {
    id: 'smollm3', name: 'SmolLM3 3B', family: 'SmolLM', year: 2025,
    checkpoint: 'HuggingFaceTB/SmolLM3-3B',
    config: { model_type: 'smollm3', hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 36, max_position_embeddings: 65536, rope_theta: 5000000.0, no_rope_layer_interval: 4 },
    source: 'huggingface/smollm, SmolLM3 pretraining config long_context_32k_to_64.yaml, the last training stage (rope_theta 5000000.0, max_position_embeddings 65536, no_rope_layer 4); widths from smollm3/configuration_smollm3.py, whose defaults are this checkpoint\'s',
    zh: { source: 'huggingface/smollm 中 SmolLM3 的预训练配置 long_context_32k_to_64.yaml，即最后一个训练阶段（rope_theta 5000000.0、max_position_embeddings 65536、no_rope_layer 4）；各宽度取自 smollm3/configuration_smollm3.py，它的默认值就是这个检查点的值' },
    note: 'NoPE every 4th layer. The class defaults (base 2e6, 32768) are the stage before, long_context_4k_to_32k.yaml.',
  },
  {
    id: 'internlm2.5-7b', name: 'InternLM2.5 7B', family: 'InternLM', year: 2024,
    checkpoint: 'internlm/internlm2_5-7b-chat',
    config: { model_type: 'internlm2', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 32, max_position_embeddings: 32768, rope_scaling: { type: 'dynamic', factor: 2.0 }, rope_theta: 1000000 },
    source: 'MLC internlm2_5_7b',
  },
  {
    id: 'minicpm-2b', name: 'MiniCPM 2B', family: 'MiniCPM', year: 2024,
    checkpoint: 'openbmb/MiniCPM-2B-sft-bf16',
    config: { model_type: 'minicpm', hidden_size: 2304, num_attention_heads: 36, num_hidden_layers: 40, max_position_embeddings: 65536, rope_scaling: { type: 'dynamic', factor: 4.0 }, rope_theta: 1000000.0 },
    source: 'MLC minicpm_2b',
  },
];
