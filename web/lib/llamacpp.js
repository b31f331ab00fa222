// llamacpp.js: what llama.cpp passes to ggml_rope_ext for a GGUF file and a command line
// (llamaCppRope), and the cos/sin ggml computes from it (llamaCppCache, the C kernel in
// c/llamacpp.c).
//
// Followed: ggml-org/llama.cpp ec98e2002 (December 2025, after #17945 and #18006, which set the
// YaRN magnitude rules below): src/llama-model.cpp (load_hparams, get_rope_freq_base,
// get_rope_factors, llama_model_rope_type), src/llama-context.cpp (the cparams block),
// src/llama-hparams.cpp (set_swa_pattern), src/models/*.cpp (which graphs pass factors and
// per-layer bases), common/arg.cpp (the flags); plus #18553 (January 2026), which reads
// {arch}.rope.freq_base_swa for Gemma 3, and #21309 (April 2026, after the pinned commit), which
// adds Gemma 4 (src/models/gemma4.cpp; load_hparams's gemma4 case; rope.dimension_count_swa and
// attention.key_length_swa). Values are float32 where llama.cpp keeps them in floats.
import * as A from './args.js';

export const LLAMA_CPP_COMMIT = 'ec98e2002';

// convert_hf_to_gguf.py's model classes, by config model_type → general.architecture
const ARCH = {
  llama: 'llama', mistral: 'llama', mixtral: 'llama', llama4: 'llama4', llama4_text: 'llama4', qwen2: 'qwen2', qwen3: 'qwen3',
  qwen2_vl: 'qwen2vl', deepseek_v2: 'deepseek2', deepseek_v3: 'deepseek2', gemma2: 'gemma2', gemma3: 'gemma3',
  gemma3_text: 'gemma3', gemma4: 'gemma4', gemma4_text: 'gemma4', phi3: 'phi3', phi: 'phi2', 'phi-msft': 'phi2', gpt_neox: 'gptneox', stablelm: 'stablelm',
  stablelm_epoch: 'stablelm', glm: 'chatglm', chatglm: 'chatglm', gpt_oss: 'gpt-oss', smollm3: 'smollm3',
  internlm2: 'internlm2', minicpm: 'minicpm', gptj: 'gptj',
};

/** The general.architecture convert_hf_to_gguf.py writes for a config, or null. */
export function ggufArch(config) {
  const c = config?.text_config ?? config;
  return ARCH[c?.model_type ?? config?.model_type] ?? null;
}

const f32 = Math.fround;

// llama_model_rope_type, by general.architecture (LLM_ARCH_NAMES)
const NORM = ['llama', 'llada', 'llama4', 'deci', 'baichuan', 'starcoder', 'internlm2', 'minicpm', 'xverse', 'command-r',
  'cohere2', 'olmo', 'arctic', 'deepseek', 'deepseek2', 'plm', 'chatglm', 'granite', 'granitemoe', 'granitehybrid',
  'chameleon', 'solar', 'bailingmoe', 'neo-bert', 'smollm3', 'arcee', 'ernie4_5', 'ernie4_5-moe', 'mistral3'];
const NEOX = ['falcon', 'falcon-h1', 'grok', 'dbrx', 'bert', 'jina-bert-v3', 'nomic-bert', 'nomic-bert-moe', 'stablelm', 'bitnet',
  'qwen', 'qwen2', 'dream', 'qwen2moe', 'qwen3', 'qwen3moe', 'llada-moe', 'rnd1', 'olmo2', 'olmoe', 'phi2', 'phi3', 'phimoe',
  'plamo', 'plamo2', 'gemma', 'gemma2', 'gemma3', 'gemma3n', 'gemma4', 'gemma-embedding', 'starcoder2', 'openelm', 'gptneox', 'codeshell',
  'orion', 'nemotron', 'exaone', 'exaone4', 'minicpm3', 'bailingmoe2', 'dots1', 'hunyuan-moe', 'gpt-oss', 'hunyuan-dense', 'lfm2',
  'lfm2moe', 'smallthinker', 'seed_oss', 'grovemoe', 'apertus', 'minimax-m2', 'cogvlm', 'pangu-embedded', 'afmoe', 'qwen3next'];
const NO_ROPE = ['clip', 'gpt2', 'gptj', 'mpt', 'refact', 'bloom', 'mamba', 'mamba2', 'jamba', 'jina-bert-v2', 't5', 't5encoder',
  'jais', 'rwkv6', 'rwkv6qwen2', 'rwkv7', 'arwkv7', 'wavtokenizer-dec', 'nemotron_h', 'nemotron_h_moe'];
const MODE = Object.fromEntries([...NORM.map((a) => [a, 'norm']), ...NEOX.map((a) => [a, 'neox']),
  ['qwen2vl', 'mrope'], ['qwen3vl', 'imrope'], ['qwen3vlmoe', 'imrope']]);
export const MODE_CODES = { norm: 0, neox: 2, mrope: 8, imrope: 40 };

// Graphs that pass a factor tensor (rope_freqs, or LongRoPE's long/short) to ggml_rope_ext
// (model.get_rope_factors in src/models/*.cpp); the other graphs pass none.
const FACTOR_ARCHS = new Set(['apertus', 'arcee', 'bailingmoe', 'cohere2', 'deci', 'deepseek', 'exaone', 'exaone4', 'granitehybrid',
  'granite', 'granitemoe', 'hunyuan-dense', 'hunyuan-moe', 'llama4', 'llama', 'minicpm3', 'mistral3', 'phi3', 'phimoe', 'solar']);

// Sliding-window layers: every `pattern`-th layer is full (set_swa_pattern: layer il slides when
// il % pattern < pattern - 1). ownRope: the graph gives sliding layers the hparams' SWA base and
// scale (get_rope_freq_base), 10000 and 1 unless the file says otherwise; the other graphs pass
// the context's base and scale to every layer.
const SWA = {
  gemma2: { pattern: 2, ownRope: false }, gemma3: { pattern: 6, ownRope: true, needsWindow: true },
  gemma3n: { pattern: 5, ownRope: true }, 'gemma-embedding': { pattern: 6, ownRope: true },
  'gpt-oss': { pattern: 2, ownRope: false }, cohere2: { pattern: 4, ownRope: false },
  // Gemma 4 (llama.cpp#21309): the per-layer pattern, the window and the SWA head size are
  // required keys; its sliding layers have their own rotary width (gemma4Rope)
  gemma4: { pattern: null, ownRope: true },
};

// Per-arch hparams of the YaRN tuning keys (load_hparams): only these archs read them.
const YARN_KEYS = {
  grok: { ext: true, attn: true, beta: true, betaFast: 8 },
  mistral3: { beta: true, logMul: 'as-is' },
  deepseek2: { logMul: 'divide' }, // [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX]: the converter stores 0.1 × mscale_all_dim
};

const SCALING_TYPES = ['none', 'linear', 'yarn', 'longrope'];
export const FLAG_KEYS = A.optionKeys('llamaCppRope flags', ['ropeScaling', 'ropeScale', 'ropeFreqBase', 'ropeFreqScale', 'yarnOrigCtx',
  'yarnExtFactor', 'yarnAttnFactor', 'yarnBetaFast', 'yarnBetaSlow']);
const ROPE_KEYS = A.optionKeys('llamaCppRope', ['flags', 'ctx']);
/** The command-line spelling of each flag, for messages. */
export const FLAG_NAMES = {
  ropeScaling: '--rope-scaling', ropeScale: '--rope-scale', ropeFreqBase: '--rope-freq-base', ropeFreqScale: '--rope-freq-scale',
  yarnOrigCtx: '--yarn-orig-ctx', yarnExtFactor: '--yarn-ext-factor', yarnAttnFactor: '--yarn-attn-factor',
  yarnBetaFast: '--yarn-beta-fast', yarnBetaSlow: '--yarn-beta-slow',
};
/** Flag `k` of `flags` as a command line shows it ('--rope-scale 4'). */
export const shownFlag = (flags, k) => `${FLAG_NAMES[k]} ${flags[k]}`;

/** A metadata value of the file, checked to be a number (any GGUF number type) when present. */
function numKey(meta, key, { int = false, min = -Infinity } = {}) {
  let v = meta[key];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) v = v[0]; // a per-layer array (head counts): llama.cpp's n_head() is layer 0's
  if (typeof v === 'bigint') throw new RangeError(`GGUF key ${key} = ${v} is out of range`);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`GGUF key ${key} must be a number, got ${A.show(v)}`);
  if ((int && !Number.isInteger(v)) || v < min) throw new RangeError(`GGUF key ${key} must be ${int ? 'an integer ' : ''}>= ${min}, got ${v}`);
  return v;
}

/** Checks flags and turns them into llama.cpp's common_params values (0 or -1 = from the model). */
function readFlags(flags) {
  const f = A.options('flags', flags, FLAG_KEYS, 'llamaCppRope');
  const out = { given: Object.keys(f).filter((k) => f[k] !== undefined) };
  // each flag given as a command line shows it, for the notes
  out.shown = Object.fromEntries(out.given.map((k) => [k, shownFlag(f, k)]));
  out.ropeScaling = f.ropeScaling === undefined ? undefined : A.oneOf('flags.ropeScaling', f.ropeScaling, ['none', 'linear', 'yarn']);
  if (f.ropeScale !== undefined && f.ropeFreqScale !== undefined) {
    throw new TypeError('flags.ropeScale and flags.ropeFreqScale set the same value (--rope-scale N is --rope-freq-scale 1/N); give one');
  }
  const pos = (k) => (f[k] === undefined ? undefined : A.num(`flags.${k}`, f[k], Number.MIN_VALUE));
  out.freqScale = f.ropeScale !== undefined ? f32(1 / pos('ropeScale')) : f.ropeFreqScale !== undefined ? f32(pos('ropeFreqScale')) : 0;
  out.freqBase = f.ropeFreqBase === undefined ? 0 : f32(pos('ropeFreqBase'));
  out.origCtx = f.yarnOrigCtx === undefined ? 0 : A.int('flags.yarnOrigCtx', f.yarnOrigCtx, 1, 2 ** 31 - 1);
  const opt = (k) => (f[k] === undefined ? -1 : f32(A.num(`flags.${k}`, f[k], 0)));
  out.extFactor = opt('yarnExtFactor');
  out.attnFactor = opt('yarnAttnFactor');
  out.betaFast = f.yarnBetaFast === undefined ? -1 : f32(pos('yarnBetaFast'));
  out.betaSlow = f.yarnBetaSlow === undefined ? -1 : f32(pos('yarnBetaSlow'));
  return out;
}

/**
 * What llama.cpp passes to ggml_rope_ext for each layer type of a GGUF file under a command line.
 * gguf: what readGguf returns (metadata and ropeTensors are read). options.flags: the RoPE flags
 * of llama-cli / llama-server in camelCase (ropeScaling, ropeScale, ropeFreqBase, ropeFreqScale,
 * yarnOrigCtx, yarnExtFactor, yarnAttnFactor, yarnBetaFast, yarnBetaSlow); options.ctx: -c (0 or
 * absent: the model's context_length), the context of one sequence.
 */
const unknownArch = (arch) => new RangeError(`general.architecture ${JSON.stringify(arch)} is unknown: posenc does not know how llama.cpp ${LLAMA_CPP_COMMIT} pairs dimensions for architecture ${JSON.stringify(arch)}`);

export function llamaCppRope(gguf, options) {
  const o = A.options('options', options, ROPE_KEYS, 'llamaCppRope');
  if (gguf === null || typeof gguf !== 'object' || gguf.metadata === null || typeof gguf.metadata !== 'object') {
    throw new TypeError(`gguf must be what readGguf returns ({ metadata, ropeTensors, ... }), got ${A.show(gguf)}`);
  }
  const meta = gguf.metadata, tensors = gguf.ropeTensors ?? {};
  const arch = meta['general.architecture'];
  if (typeof arch !== 'string') throw new TypeError(`GGUF key general.architecture must be a string, got ${A.show(arch)}`);
  if (NO_ROPE.includes(arch)) throw new RangeError(`architecture ${JSON.stringify(arch)} uses no RoPE in llama.cpp`);
  let mode = MODE[arch];
  // (said before any key of the architecture is found missing: an unknown one is the first thing wrong)
  if (mode === undefined && arch !== 'glm4' && arch !== 'glm4moe') throw unknownArch(arch);
  const key = (s) => `${arch}.${s}`;
  const flags = readFlags(o.flags);
  const ctxFlag = o.ctx === undefined ? 0 : A.int('options.ctx', o.ctx, 0, 2 ** 31 - 1);

  // load_hparams
  const nCtxTrain = numKey(meta, key('context_length'), { int: true, min: 1 });
  if (nCtxTrain === undefined) throw new TypeError(`GGUF key ${key('context_length')} is missing (llama.cpp requires it)`);
  const nLayer = numKey(meta, key('block_count'), { int: true, min: 1 });
  const nEmbd = numKey(meta, key('embedding_length'), { int: true, min: 1 });
  const nHead = numKey(meta, key('attention.head_count'), { int: true, min: 1 });
  const keyLength = numKey(meta, key('attention.key_length'), { int: true, min: 1 }) ??
    (nEmbd !== undefined && nHead !== undefined ? Math.floor(nEmbd / nHead) : undefined);
  const nRot = numKey(meta, key('rope.dimension_count'), { int: true, min: 0 }) ?? keyLength;
  if (nRot === undefined) throw new TypeError(`GGUF keys ${key('rope.dimension_count')} and ${key('attention.key_length')} are missing, and so is ${key('embedding_length')} or ${key('attention.head_count')} to derive them`);
  if (nRot < 2 || nRot % 2 || nRot > 65536) throw new RangeError(`the rotary width n_rot = ${nRot} must be even and in [2, 65536]`);
  const nCtxOrigTrain = numKey(meta, key('rope.scaling.original_context_length'), { int: true, min: 0 }) ?? nCtxTrain;
  const freqBaseTrain = f32(numKey(meta, key('rope.freq_base'), { min: Number.MIN_VALUE }) ?? 10000);
  const typeTrain = meta[key('rope.scaling.type')] ?? 'linear';
  if (!SCALING_TYPES.includes(typeTrain)) throw new RangeError(`GGUF key ${key('rope.scaling.type')} must be one of ${SCALING_TYPES.join(', ')} (llama.cpp asserts), got ${A.show(typeTrain)}`);
  const factor = numKey(meta, key('rope.scaling.factor'), { min: 0 }) ?? numKey(meta, key('rope.scale_linear'), { min: 0 }) ?? 0;
  const freqScaleTrain = factor === 0 ? 1 : f32(1 / f32(factor));
  const ropeAttnFactor = f32(numKey(meta, key('rope.scaling.attn_factor'), { min: 0 }) ?? 1);
  const yk = YARN_KEYS[arch] ?? {};
  const hp = { ext: -1, attn: 1, betaFast: yk.betaFast ?? 32, betaSlow: 1, logMul: 0 };
  if (yk.ext) hp.ext = f32(numKey(meta, key('rope.scaling.yarn_ext_factor')) ?? hp.ext);
  if (yk.attn) hp.attn = f32(numKey(meta, key('rope.scaling.yarn_attn_factor')) ?? hp.attn);
  if (yk.beta) {
    hp.betaFast = f32(numKey(meta, key('rope.scaling.yarn_beta_fast')) ?? hp.betaFast);
    hp.betaSlow = f32(numKey(meta, key('rope.scaling.yarn_beta_slow')) ?? hp.betaSlow);
  }
  if (yk.logMul) {
    const m = numKey(meta, key('rope.scaling.yarn_log_multiplier'));
    if (m !== undefined) hp.logMul = yk.logMul === 'divide' ? f32(f32(m) / f32(0.1)) : f32(m);
  }
  let sections = null;
  if (mode === 'mrope' || mode === 'imrope' || arch === 'glm4' || arch === 'glm4moe') {
    const s = meta[key('rope.dimension_sections')];
    if (s !== undefined) {
      if (!Array.isArray(s) || s.length < 1 || s.length > 4 || !s.every((x) => Number.isInteger(x) && x >= 0 && x <= 65536)) {
        throw new TypeError(`GGUF key ${key('rope.dimension_sections')} must be up to 4 section sizes, got ${A.show(s)}`);
      }
      sections = Object.freeze([0, 1, 2, 3].map((i) => s[i] ?? 0));
    }
    if (arch === 'glm4' || arch === 'glm4moe') {
      const use = sections !== null && sections.some((x) => x > 0);
      mode = use ? 'mrope' : arch === 'glm4' ? 'norm' : 'neox';
      if (!use) sections = null;
    } else if (sections === null || sections.every((x) => x === 0)) {
      throw new TypeError(`GGUF key ${key('rope.dimension_sections')} is required for ${arch} (llama.cpp refuses the file without it)`);
    }
  }

  // llama_context: the cparams block
  const notes = [];
  // a note names the flag it is about, as given, first in its message too
  const note = (code, flag, rest) => notes.push(Object.freeze({ code, flag, message: `${flag} ${rest}` }));
  const type = flags.ropeScaling ?? typeTrain;
  const freqBase = flags.freqBase !== 0 ? flags.freqBase : freqBaseTrain;
  let freqScale = flags.freqScale !== 0 ? flags.freqScale : freqScaleTrain;
  if (type === 'none') {
    if (flags.freqScale !== 0) note('flag-no-op', flags.shown.ropeScale ?? flags.shown.ropeFreqScale, `does nothing with --rope-scaling none (or a file of scaling type none): llama.cpp never scales then`);
    freqScale = 1;
  }
  const nCtxOrig = flags.origCtx || nCtxOrigTrain || nCtxTrain;
  let ext = flags.extFactor >= 0 ? flags.extFactor : hp.ext;
  if (ext < 0) ext = type === 'yarn' ? 1 : 0;
  const betaFast = flags.betaFast >= 0 ? flags.betaFast : hp.betaFast;
  const betaSlow = flags.betaSlow >= 0 ? flags.betaSlow : hp.betaSlow;
  let attn = flags.attnFactor >= 0 ? flags.attnFactor : hp.attn;
  if (ext !== 0) {
    const f = f32(1 / freqScale);
    const mscale = (s, m) => (s <= 1 ? 1 : f32(f32(f32(f32(0.1) * f32(m)) * f32(Math.log(s))) + 1));
    if (hp.logMul !== 0) {
      const all = hp.logMul, m = arch === 'deepseek2' && all !== 1 ? all : 1;
      attn = f32(mscale(f, m) / mscale(f, all));
    } else attn = mscale(f, 1);
    attn = f32(attn * f32(1 / f32(1 + f32(f32(0.1) * f32(Math.log(f))))));
    if (flags.attnFactor >= 0) note('flag-overridden', flags.shown.yarnAttnFactor, `is overwritten: with YaRN active (ext_factor ${ext}) llama.cpp recomputes the attention factor (llama-context.cpp, since llama.cpp#17945)`);
    if (flags.ropeScaling === 'yarn' && freqScale === 1) note('flag-no-op', flags.shown.ropeScaling, 'without --rope-scale (and no factor in the file) changes nothing: the scale is 1, so YaRN interpolates by 1; add --rope-scale N');
  } else {
    for (const k of ['yarnOrigCtx', 'yarnBetaFast', 'yarnBetaSlow']) {
      if (flags.given.includes(k)) note('flag-no-op', flags.shown[k], `does nothing without YaRN (ext_factor is 0): it only places YaRN's ramp`);
    }
  }
  attn = f32(attn * ropeAttnFactor);

  // the context one sequence sees (n_ctx padded to 256), which picks LongRoPE's factors
  const nCtx = Math.ceil((ctxFlag || nCtxTrain) / 256) * 256;
  let freqFactors = null, factorsName = null;
  if (FACTOR_ARCHS.has(arch)) {
    if (tensors.rope_freqs) factorsName = 'rope_freqs';
    else if (tensors.rope_factors_long || tensors.rope_factors_short) factorsName = nCtx > nCtxOrigTrain ? 'rope_factors_long' : 'rope_factors_short';
    freqFactors = factorsName && tensors[factorsName] ? tensors[factorsName] : null;
    if (freqFactors && freqFactors.length < nRot / 2) throw new RangeError(`${factorsName} has ${freqFactors.length} values; n_rot/2 = ${nRot / 2} are needed`);
    if (freqFactors) freqFactors = Float32Array.from(freqFactors.subarray(0, nRot / 2));
    if (factorsName && !freqFactors) factorsName = null;
  }

  const g4 = arch === 'gemma4' ? gemma4Rope(meta, tensors, key, nLayer, keyLength, nRot) : null;
  if (g4) ({ freqFactors, factorsName } = g4);
  const full = {
    nDims: nRot, mode, nCtxOrig, freqBase, freqScale, extFactor: ext, attnFactor: attn, betaFast, betaSlow,
    freqFactors, factorsName, sections,
  };
  const layerTypes = {};
  const swa = SWA[arch];
  const window = numKey(meta, key('attention.sliding_window'), { int: true, min: 0 }) ?? 0;
  let slides = null;
  if (g4) slides = g4.slides;
  else if (swa && nLayer !== undefined && (!swa.needsWindow || window > 0)) {
    const pat = meta[key('attention.sliding_window_pattern')];
    if (Array.isArray(pat) && pat.length >= nLayer) slides = pat.slice(0, nLayer).map((x) => !!x);
    else {
      const p = numKey(meta, key('attention.sliding_window_pattern'), { int: true, min: 0 }) ?? swa.pattern;
      slides = Array.from({ length: nLayer }, (_, il) => p === 0 || il % p < p - 1);
    }
  }
  const indices = (want) => (slides === null ? (nLayer === undefined ? null : Array.from({ length: nLayer }, (_, i) => i)) : slides.flatMap((s, i) => (s === want ? [i] : [])));
  layerTypes.full_attention = freezeParams({ ...full, layers: indices(false) });
  if (slides !== null && slides.some((s) => s)) {
    let sliding = { ...full };
    if (swa.ownRope) {
      const swaBase = numKey(meta, key('rope.freq_base_swa'), { min: Number.MIN_VALUE });
      sliding = { ...full, freqBase: f32(swaBase ?? 10000), freqScale: 1 };
      // Gemma 4's sliding layers: their own width, and no factors (rope_freqs is the full layers')
      if (g4) sliding = { ...sliding, nDims: g4.nRotSwa, freqFactors: null, factorsName: null };
      for (const k of ['ropeFreqBase', 'ropeScale', 'ropeFreqScale']) {
        if (flags.given.includes(k)) note('flag-no-op', flags.shown[k], `does not reach the sliding-window layers: llama.cpp gives them the file's SWA base and scale (get_rope_freq_base)`);
      }
    }
    layerTypes.sliding_attention = freezeParams({ ...sliding, layers: indices(true) });
  }
  return Object.freeze({
    llamaCpp: LLAMA_CPP_COMMIT, arch, mode, nCtxTrain, nCtx, layerTypes: Object.freeze(layerTypes), notes: Object.freeze(notes),
  });
}

/**
 * Gemma 4 as llama.cpp#21309 loads it (load_hparams's gemma4 case, llama_model::load_tensors):
 * the sliding pattern (get_key_or_arr: an array of exactly block_count flags, or one value for
 * every layer), the window and the sliding layers' head size are required; n_rot_swa is
 * rope.dimension_count_swa, else n_rot; rope_freqs (f32[key_length/2]) is a required tensor of
 * the full-attention layers, which alone pass it to ggml_rope_ext. A file llama.cpp refuses, or
 * one whose rope ggml's CPU backend would abort on (GGML_ASSERT(n_dims <= ne0)), throws.
 */
function gemma4Rope(meta, tensors, key, nLayer, keyLength, nRot) {
  const reconvert = 'convert it again with a convert_hf_to_gguf.py that has Gemma 4 (llama.cpp#21309)';
  const need = (k) => {
    if (meta[key(k)] === undefined) throw new TypeError(`GGUF key ${key(k)} is missing: llama.cpp requires it for gemma4 and refuses the file; ${reconvert}`);
  };
  need('attention.sliding_window_pattern');
  need('attention.sliding_window');
  need('attention.key_length_swa');
  if (nLayer === undefined) throw new TypeError(`GGUF key ${key('block_count')} is missing (llama.cpp requires it)`);
  numKey(meta, key('attention.sliding_window'), { int: true, min: 0 });
  const pat = meta[key('attention.sliding_window_pattern')];
  let slides;
  if (Array.isArray(pat)) {
    if (pat.length !== nLayer) throw new RangeError(`GGUF key ${key('attention.sliding_window_pattern')} has ${pat.length} entries, not one per layer (${nLayer}): llama.cpp refuses it (wrong array length); ${reconvert}`);
    slides = pat.map((x, i) => {
      if (typeof x !== 'boolean' && !(Number.isInteger(x) && x >= 0)) throw new TypeError(`GGUF key ${key('attention.sliding_window_pattern')}[${i}] must be a bool, got ${A.show(x)}`);
      return !!x;
    });
  } else {
    // one value: get_key_or_arr gives every layer that flag
    const v = typeof pat === 'boolean' ? pat : numKey(meta, key('attention.sliding_window_pattern'), { int: true, min: 0 }) !== 0;
    slides = Array.from({ length: nLayer }, () => v);
  }
  const headSwa = numKey(meta, key('attention.key_length_swa'), { int: true, min: 1 });
  const nRotSwa = numKey(meta, key('rope.dimension_count_swa'), { int: true, min: 0 }) ?? nRot;
  if (nRotSwa < 2 || nRotSwa % 2 || nRotSwa > 65536) throw new RangeError(`the sliding layers' rotary width n_rot_swa = ${nRotSwa} must be even and in [2, 65536]`);
  const missing = meta[key('rope.dimension_count_swa')] === undefined ? ` (${key('rope.dimension_count_swa')} is missing, so llama.cpp takes ${key('rope.dimension_count')})` : '';
  if (slides.some((x) => x) && nRotSwa > headSwa) {
    throw new RangeError(`the sliding layers' rotary width n_rot_swa = ${nRotSwa}${missing} exceeds their head width ${headSwa} (${key('attention.key_length_swa')}): ggml's rope asserts n_dims <= ne0, so llama.cpp aborts at the first sliding layer; ${reconvert}`);
  }
  if (keyLength !== undefined && nRot > keyLength) {
    throw new RangeError(`the full layers' rotary width n_rot = ${nRot} exceeds their head width ${keyLength} (${key('attention.key_length')}): ggml's rope asserts n_dims <= ne0, so llama.cpp aborts; ${reconvert}`);
  }
  const ff = tensors.rope_freqs;
  const want = (keyLength ?? nRot) / 2;
  if (slides.some((x) => !x)) {
    if (!ff) {
      throw new TypeError(`this gemma4 GGUF has no rope_freqs.weight, which llama.cpp requires for the full-attention layers and refuses to load the file without (missing tensor): it holds Gemma 4's p-RoPE, 1 for the pairs that turn and 1e30 for the ones that stand still, without which every pair of those layers would turn; ${reconvert}`);
    }
    if (ff.length !== want) throw new RangeError(`rope_freqs.weight has ${ff.length} values; llama.cpp wants key_length/2 = ${want} for gemma4 and refuses the file; ${reconvert}`);
  }
  return { slides, nRotSwa, freqFactors: ff ? Float32Array.from(ff.subarray(0, nRot / 2)) : null, factorsName: ff ? 'rope_freqs' : null };
}

function freezeParams(p) {
  const mag = p.extFactor !== 0 ? p.attnFactor * (1 + 0.1 * Math.log(1 / p.freqScale)) : p.attnFactor;
  return Object.freeze({ ...p, magnitude: mag, layers: p.layers === null ? null : Object.freeze(p.layers) });
}

const CACHE_KEYS = A.optionKeys('llamaCppCache', ['out']);
const PARAM_KEYS = ['nDims', 'mode', 'nCtxOrig', 'freqBase', 'freqScale', 'extFactor', 'attnFactor', 'betaFast', 'betaSlow',
  'freqFactors', 'factorsName', 'sections', 'magnitude', 'layers'];

/**
 * The cos/sin ggml computes for one layer type's parameters (a layer type of llamaCppRope's
 * result, or the same keys) at integer positions: { cos, sin }, Float32Array [n][nDims/2] each,
 * per pair, with the magnitude in (c/llamacpp.c). options.out: { cos, sin } to fill.
 */
export function llamaCppCache(heap, params, positions, opts) {
  const o = A.options('options', opts, CACHE_KEYS, 'llamaCppCache');
  const p = A.options('params', params, PARAM_KEYS, 'llamaCppCache');
  const nDims = A.evenInt('params.nDims', p.nDims, 2, 65536);
  const mode = MODE_CODES[A.oneOf('params.mode', p.mode, Object.keys(MODE_CODES))];
  const nCtxOrig = A.int('params.nCtxOrig', p.nCtxOrig, 1, 2 ** 31 - 1);
  const fl = (k, min) => f32(A.num(`params.${k}`, p[k], min));
  const base = fl('freqBase', 1), scale = fl('freqScale', Number.MIN_VALUE), ext = fl('extFactor'), attn = fl('attnFactor');
  const bf = fl('betaFast', Number.MIN_VALUE), bs = fl('betaSlow', Number.MIN_VALUE);
  if (base <= 1) throw new RangeError(`params.freqBase must exceed 1, got ${p.freqBase}`);
  const half = nDims / 2;
  const ff = p.freqFactors == null ? null : A.numbers('params.freqFactors', p.freqFactors, Float32Array, { length: half, min: Number.MIN_VALUE });
  let sec = null;
  if (mode === 8 || mode === 40) {
    if (!Array.isArray(p.sections) && !ArrayBuffer.isView(p.sections)) throw new TypeError(`params.sections must be 4 section sizes for mode ${p.mode}, got ${A.show(p.sections)}`);
    sec = A.numbers('params.sections', p.sections, Int32Array, { length: 4, min: 0, max: 65536 });
    if (sec.every((x) => x === 0)) throw new RangeError('params.sections must not all be 0');
  }
  const pos = A.numbers('positions', positions, Int32Array, { min: 0, max: 2 ** 31 - 1 });
  for (let i = 0; i < pos.length; i++) if (!Number.isInteger(positions[i])) throw new TypeError(`positions[${i}] must be an integer (ggml's positions are int32), got ${positions[i]}`);
  const n = A.elements('llama.cpp cache', pos.length, half);
  const out = A.outParts(o.out, 'llamaCppCache', { cos: [Float32Array, n], sin: [Float32Array, n] });
  return heap.scoped((h) => {
    const c = h.alloc(Float32Array, n), s = h.alloc(Float32Array, n);
    heap.call('posenc_llamacpp_cache', c, s, h.copyIn(pos), pos.length, nDims, base, scale, ext, attn, bf, bs, nCtxOrig,
      ff ? h.copyIn(ff) : 0, mode, sec ? h.copyIn(sec) : 0);
    return { cos: h.copyOut(Float32Array, c, n, out.cos), sin: h.copyOut(Float32Array, s, n, out.sin) };
  });
}
