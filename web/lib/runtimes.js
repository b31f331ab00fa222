// runtimes.js: pe.compareRuntimes(config, gguf, { positions, flags, ctx }): what transformers
// means by a model's config.json (pe.ropeConfig) against what llama.cpp means by a GGUF of it
// under a command line (llamaCppRope), per layer type, in float64, so that a difference is a
// misread and not rounding. Then the known causes, named, with the llama.cpp flags that fix them
// where a flag can.
//
// θ_i in float64 on each side: transformers' inv_freq (pe.ropeInvFreq of the config's base and
// scaling, LongRoPE and dynamic NTK at the sequence length max(positions) + 1); llama.cpp's
// ggml formula (c/llamacpp.c) with its parameters, evaluated in float64:
// θ_i = base^(-2i/n) / ff_i · (s (1 − mix_i) + mix_i), mix_i = ext · ramp_i, the ramp between
// the floored and ceiled correction dims. Magnitude: the factor each runtime multiplies cos and
// sin by. Pairing: the dims a pair joins, in transformers' terms (llama.cpp's NORM on a GGUF
// whose Q/K the converter permuted is transformers' rotate_half).
import * as A from './args.js';
import { llamaCppRope, LLAMA_CPP_COMMIT, FLAG_NAMES, FLAG_KEYS } from './llamacpp.js';

/** Relative agreement below which θ_i and magnitudes count as the same. */
export const AGREE = 1e-6;
// A pair whose θ_i differ by so little that no position ggml takes (int32, up to 2^31 − 1) turns
// them AGREE rad apart agrees too, whatever the ratio: a pair that stands still in the config
// (θ = 0: Gemma 4's p-RoPE) turns by ~1e-32 rad a position in llama.cpp, whose rope_freqs divides
// it by 1e30, a 100 % relative difference of nothing. Real θ_i are never that small (base^-1 at
// most, ~1e-6 for base 1e6), so the bound hides no misread at any position.
const MAX_POSITION = 2 ** 31 - 1;
const STILL = AGREE / MAX_POSITION;
const agree = (a, b) => rel(a, b) <= AGREE || Math.abs(a - b) <= STILL;
const KEYS = A.optionKeys('compareRuntimes', ['positions', 'flags', 'ctx']);
// Architectures whose converter permutes Q and K (convert_hf_to_gguf.py LlamaModel.permute and its
// subclasses) so that ggml's adjacent pairs are transformers' rotate_half pairs.
const PERMUTED = new Set(['llama', 'deci', 'baichuan', 'internlm2', 'minicpm', 'granite', 'granitemoe', 'granitehybrid',
  'smollm3', 'arcee', 'mistral3', 'solar', 'xverse', 'olmo']);

/** Positions 0, 1, 2, 4, ... up to the context, and its last one. */
function defaultPositions(nCtx) {
  const out = [0];
  for (let p = 1; p < nCtx; p *= 2) out.push(p);
  out.push(nCtx - 1);
  return [...new Set(out)];
}

/** llama.cpp's θ_i (float64, as ggml means them) of one layer type's parameters. */
function llamaTheta(p) {
  const n = p.nDims, half = n / 2;
  const corr = (b) => (n * Math.log(p.nCtxOrig / (b * 2 * Math.PI))) / (2 * Math.log(p.freqBase));
  const low = Math.max(0, Math.floor(corr(p.betaFast))), high = Math.min(n - 1, Math.ceil(corr(p.betaSlow)));
  const sum = p.sections ? p.sections.reduce((a, b) => a + b, 0) : 0;
  const theta = new Float64Array(half);
  for (let i = 0; i < half; i++) {
    if (p.sections && readsE(i, p.mode, p.sections, sum)) continue; // the e stream: position 0 for text
    const ext = Math.pow(p.freqBase, (-2 * i) / n) / (p.freqFactors ? p.freqFactors[i] : 1);
    let mix = 0;
    if (p.extFactor !== 0) mix = (1 - Math.min(1, Math.max(0, (i - low) / Math.max(0.001, high - low)))) * p.extFactor;
    theta[i] = ext * (p.freqScale * (1 - mix) + mix);
  }
  return theta;
}

function readsE(i, mode, s, sum) {
  const sector = i % sum;
  if (mode === 'imrope') return !((sector % 3 === 1 && sector < 3 * s[1]) || (sector % 3 === 2 && sector < 3 * s[2]) || (sector % 3 === 0 && sector < 3 * s[0]));
  return sector >= s[0] + s[1] + s[2];
}

const rel = (a, b) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));
const fmt = (x) => (Number.isInteger(x) ? String(x) : Number(x.toPrecision(6)).toString());
const range = (idx) => {
  if (idx.length === 0) return 'none';
  const parts = [];
  for (let k = 0; k < idx.length;) {
    let j = k;
    while (j + 1 < idx.length && idx[j + 1] === idx[j] + 1) j++;
    parts.push(j === k ? `${idx[k]}` : `${idx[k]}–${idx[j]}`);
    k = j + 1;
  }
  return parts.join(', ');
};

/**
 * Compares a model's config.json with a GGUF of it under llama.cpp's flags. pe: the Posenc
 * instance (its ropeConfig, ropeInvFreq, ropeCache and llamaCppCache are used).
 */
export function compareRuntimes(pe, config, gguf, options) {
  const o = A.options('options', options, KEYS, 'compareRuntimes');
  A.options('flags', o.flags, FLAG_KEYS, 'compareRuntimes');
  const cfg = pe.ropeConfig(config);
  const rt = llamaCppRope(gguf, { flags: o.flags, ctx: o.ctx });
  let positions;
  if (o.positions === undefined) positions = defaultPositions(rt.nCtx);
  else {
    const p = A.numbers('positions', o.positions, Float64Array, { min: 0, max: 2 ** 31 - 1 });
    positions = Array.from(p instanceof A.Unscanned ? p.array : p, (x, i) => {
      if (!(x >= 0 && x <= 2 ** 31 - 1)) throw new RangeError(`positions[${i}] must be in [0, ${2 ** 31 - 1}], got ${x}`);
      if (!Number.isInteger(x)) throw new TypeError(`positions[${i}] must be an integer (llama.cpp's positions are int32), got ${x}`);
      return x;
    });
  }
  const seqLen = Math.max(...positions) + 1;
  const pmax = seqLen - 1;
  const meta = gguf.metadata;
  // a finding met on several layer types is one finding naming them all
  const found = new Map();
  const find = (code, message, fix = null, layerType = null) => {
    const key = `${code}|${message}|${fix?.text}`;
    const f = found.get(key) ?? { code, message, fix, layerTypes: [] };
    if (layerType !== null) f.layerTypes.push(layerType);
    found.set(key, f);
  };
  const several = Object.values(cfg.layerTypes).filter((lt) => !lt.nope).length > 1;
  for (const n of rt.notes) find(n.code, n.message, n.code === 'flag-no-op' || n.code === 'flag-overridden' ? remedy('drop-flag', 'leave the flag out', n.flag) : null);

  const layerTypes = {};
  const stillPairs = []; // pairs that agree only as standing still (θ_i within STILL), named in 'none'
  let maxDcos = 0, maxDsin = 0;
  const f32Report = { position: pmax, llamaCpp: 0, transformers: 0 };
  for (const [name, lt] of Object.entries(cfg.layerTypes)) {
    if (lt.nope) continue;
    const lp = rt.layerTypes[name] ?? rt.layerTypes.full_attention;
    const lname = rt.layerTypes[name] ? name : 'full_attention';

    // transformers' θ_i and magnitude (LongRoPE and dynamic at this sequence length)
    const scaling = lt.scaling && (lt.scaling.type === 'longrope' || lt.scaling.type === 'dynamic') ? { ...lt.scaling, seqLen } : lt.scaling;
    const freq = { base: lt.base, ...(scaling ? { scaling } : {}) };
    const thetaC = pe.ropeInvFreq(lt.rotaryDim, freq);
    const magC = lt.attentionFactor;
    const thetaL = llamaTheta(lp), magL = lp.magnitude;
    const half = Math.min(thetaC.length, thetaL.length);
    const styleL = lp.mode === 'norm' && !PERMUTED.has(rt.arch) ? 'interleaved' : 'half';

    const relDiff = new Float64Array(half), dcos = new Float64Array(half), dsin = new Float64Array(half);
    const differs = [], still = [];
    for (let i = 0; i < half; i++) {
      relDiff[i] = rel(thetaL[i], thetaC[i]);
      if (!agree(thetaL[i], thetaC[i])) differs.push(i);
      else if (relDiff[i] > AGREE) still.push(i);
      for (const p of positions) {
        const mc = magC ?? 1;
        dcos[i] = Math.max(dcos[i], Math.abs(magL * Math.cos(p * thetaL[i]) - mc * Math.cos(p * thetaC[i])));
        dsin[i] = Math.max(dsin[i], Math.abs(magL * Math.sin(p * thetaL[i]) - mc * Math.sin(p * thetaC[i])));
      }
    }
    const ltMaxCos = Math.max(0, ...dcos), ltMaxSin = Math.max(0, ...dsin);
    maxDcos = Math.max(maxDcos, ltMaxCos);
    maxDsin = Math.max(maxDsin, ltMaxSin);
    const worst = `largest |Δcos| ${fmt(ltMaxCos)}, |Δsin| ${fmt(ltMaxSin)} up to position ${pmax}`;

    // pairing and width
    if (styleL !== lt.style) {
      find('pairing-differs', `llama.cpp (${rt.arch}, ${lp.mode.toUpperCase()}) rotates ${styleL === 'half' ? 'pairs (i, i + d/2)' : 'adjacent pairs (2i, 2i + 1)'} but the config's model pairs ${lt.style === 'half' ? '(i, i + d/2)' : '(2i, 2i + 1)'}: every pair mixes the wrong dims unless the converter permuted Q and K to match`, remedy('reconvert', 'reconvert the model with a convert_hf_to_gguf.py that knows this architecture; no flag changes the pairing'), name);
    }
    if (lp.nDims !== lt.rotaryDim) {
      find('pairing-differs', `llama.cpp rotates ${lp.nDims} dims per head (n_rot), the config ${lt.rotaryDim}: the pairs past the shorter width are rotated by one runtime only`, remedy('reconvert', 'reconvert: rope.dimension_count is read from the file only'), name);
    }

    // θ_i
    if (differs.length > 0) {
      const pairs = `pairs ${range(differs)} of ${half}`;
      const type = lt.scaling?.type;
      const origL0 = lt.scaling?.originalMaxPositionEmbeddings;
      const hfLong = type === 'longrope' && seqLen > origL0;
      if (type === 'llama3' && lp.factorsName !== 'rope_freqs') {
        find('rope-freqs-missing', `this GGUF has no rope_freqs tensor, so llama.cpp runs RoPE without the config's llama3 scaling: ${pairs} turn up to ${fmt(Math.max(...differs.map((i) => thetaL[i] / thetaC[i])))}× faster than the model was trained for (${worst}). GGUFs converted before llama.cpp#8676 (July 2024) lack it (llama.cpp#8650).`,
          remedy('reconvert', 'download or convert a GGUF made with convert_hf_to_gguf.py from llama.cpp b3472 or later (llama.cpp#8676); no flag adds the per-pair factors'), name);
      } else if (type === 'longrope' && (lp.factorsName === 'rope_factors_long') !== hfLong && lp.factorsName) {
        find('longrope-factors-by-context', `llama.cpp picks LongRoPE's ${lp.factorsName === 'rope_factors_long' ? 'long' : 'short'} factors from the allocated context (-c ${rt.nCtx} ${rt.nCtx > origL0 ? '>' : '≤'} ${origL0}), transformers the ${hfLong ? 'long' : 'short'} ones from the sequence (${seqLen} tokens): ${pairs} differ (${worst}); llama.cpp#8995.`,
          hfLong ? remedy('flags', `-c ${origL0 + 256} or more (any context past ${origL0} selects the long factors)`, `-c ${origL0 + 256}`)
            : remedy('flags', `-c ${origL0} (a context of at most ${origL0} selects the short factors, for prompts up to ${origL0} tokens)`, `-c ${origL0}`), name);
      } else if (name === 'sliding_attention' && meta[`${rt.arch}.rope.freq_base_swa`] === undefined && rel(lp.freqBase, lt.base) > AGREE) {
        find('swa-base-missing', `this GGUF carries no ${rt.arch}.rope.freq_base_swa, so llama.cpp rotates the sliding-window layers with base ${fmt(lp.freqBase)} instead of the config's ${fmt(lt.base)}: ${pairs} differ (${worst}).`,
          remedy('reconvert', `reconvert with a convert_hf_to_gguf.py that writes ${rt.arch}.rope.freq_base_swa (llama.cpp#18553); no flag reaches the sliding-window layers`), name);
      } else if (rel(lp.freqBase, lt.base) > AGREE) {
        const sliding = name === 'sliding_attention' && lp !== rt.layerTypes.full_attention && rt.arch.startsWith('gemma');
        find('base-differs', `llama.cpp uses base ${fmt(lp.freqBase)}, the config ${fmt(lt.base)}: ${pairs} differ (${worst}).`,
          sliding ? remedy('reconvert', 'reconvert: the sliding-window layers take their base from the file only')
            : o.flags?.ropeFreqBase !== undefined && rel(Number(meta[`${rt.arch}.rope.freq_base`] ?? 10000), lt.base) <= AGREE
              ? remedy('drop-flag', `leave out --rope-freq-base ${fmt(o.flags.ropeFreqBase)}: the file's base is the config's (a wrapper passing 10000 as a default overrides it, llama-cpp-python#765)`, `--rope-freq-base ${fmt(o.flags.ropeFreqBase)}`)
              : remedy('flags', `--rope-freq-base ${fmt(lt.base)}`), name);
      } else {
        find('scaling-differs', `the scaling differs: the config says ${describe(lt.scaling)}, llama.cpp runs ${describeL(lp)}: ${pairs} differ (${worst}).`, scalingFix(lt, lp), name);
      }
    }
    // magnitude
    if (magC !== null && rel(magL, magC) > AGREE) {
      const fileA = lp.attnFactor; // the factor llama.cpp passes when ext is 0, the file's attn_factor in it
      find('attn-factor-differs', `llama.cpp multiplies cos and sin by ${fmt(magL)}, transformers by ${fmt(magC)} (attention logits scale by the square: ×${fmt((magL / magC) ** 2)}).`,
        lt.scaling?.type === 'yarn' && differs.length > 0 ? remedy('with-scaling', 'the YaRN flags that fix the scaling set it too (llama.cpp derives the factor from --rope-scale)')
          : lp.extFactor !== 0 ? remedy('none', 'no flag: with YaRN active llama.cpp recomputes the factor and overwrites --yarn-attn-factor')
            : remedy('flags', `--yarn-attn-factor ${fmt(magC / (fileA / (o.flags?.yarnAttnFactor ?? 1)))}`), name);
    }
    // Gemma 3 before freq_base_swa: right in llama.cpp (its loader assumes 10000), wrong in readers that take freq_base
    if (name === 'sliding_attention' && meta[`${rt.arch}.rope.freq_base_swa`] === undefined && differs.length === 0) {
      const full = cfg.layerTypes.full_attention;
      if (full && !full.nope && rel(full.base, lt.base) > AGREE) {
        find('swa-base-missing', `this GGUF carries no ${rt.arch}.rope.freq_base_swa. llama.cpp assumes ${fmt(lp.freqBase)} for ${rt.arch}'s sliding-window layers, which is right for this model, but readers that take ${rt.arch}.rope.freq_base (${fmt(Number(meta[`${rt.arch}.rope.freq_base`] ?? 10000))}) for every layer rotate them wrongly (huggingface/candle#2891).`,
          remedy('reconvert', `reconvert with a convert_hf_to_gguf.py that writes ${rt.arch}.rope.freq_base_swa (llama.cpp#18553)`), name);
      }
    }

    // float32: what each runtime's own rounding does at the largest position
    const g32 = pe.llamaCppCache(lp, [pmax]);
    for (let i = 0; i < thetaL.length; i++) {
      f32Report.llamaCpp = Math.max(f32Report.llamaCpp, Math.abs(g32.cos[i] - magL * Math.cos(pmax * thetaL[i])), Math.abs(g32.sin[i] - magL * Math.sin(pmax * thetaL[i])));
    }
    if (magC !== null) {
      const h32 = pe.ropeCache([pmax], lt.rotaryDim, { ...freq, precision: { position: 'f32', invFreq: 'f32', angle: 'f32', output: 'f32' } });
      for (let i = 0; i < thetaC.length; i++) {
        f32Report.transformers = Math.max(f32Report.transformers, Math.abs(h32.cos[i] - magC * Math.cos(pmax * thetaC[i])), Math.abs(h32.sin[i] - magC * Math.sin(pmax * thetaC[i])));
      }
    }

    layerTypes[name] = Object.freeze({
      llamaCppLayerType: lname, layers: lt.layers, llamaCppLayers: lp.layers,
      rotaryDim: Object.freeze({ config: lt.rotaryDim, llamaCpp: lp.nDims }),
      pairing: Object.freeze({ config: lt.style, llamaCpp: styleL }),
      magnitude: Object.freeze({ config: magC, llamaCpp: magL }),
      base: Object.freeze({ config: lt.base, llamaCpp: lp.freqBase }),
      factors: lp.factorsName,
      thetaConfig: thetaC, thetaLlamaCpp: thetaL, relDiff, maxDcos: dcos, maxDsin: dsin,
      differingPairs: Object.freeze(differs), stillPairs: Object.freeze(still),
    });
    if (still.length) stillPairs.push(`${several ? `${name}: ` : ''}pairs ${range(still)}`);
  }
  const findings = [...found.values()].map((f) => Object.freeze({
    code: f.code, message: several && f.layerTypes.length ? `${f.layerTypes.join(' and ')} layers: ${f.message}` : f.message,
    fix: f.fix?.text ?? null, fixKind: f.fix?.kind ?? null, fixFlags: f.fix?.flags ?? null, layerTypes: Object.freeze(f.layerTypes),
  }));
  if (findings.length === 0) findings.push(Object.freeze({ code: 'none', fix: null, fixKind: null, fixFlags: null, layerTypes: Object.freeze([]), message: `llama.cpp and the config agree: θ_i and the cos/sin magnitude of every layer type match to ${AGREE} relative${stillPairs.length ? `, or, for the pairs that stand still (${stillPairs.join('; ')}), to ${fmt(STILL)} rad a position, under ${AGREE} rad at any position` : ''} (largest |Δcos| ${fmt(maxDcos)}, |Δsin| ${fmt(maxDsin)} up to position ${pmax})` }));
  return Object.freeze({
    llamaCpp: LLAMA_CPP_COMMIT, arch: rt.arch, nCtx: rt.nCtx, positions: Object.freeze(positions),
    layerTypes: Object.freeze(layerTypes), maxDcos, maxDsin, findings: Object.freeze(findings),
    float32: Object.freeze(f32Report), configWarnings: cfg.warnings,
  });
}

function describe(s) {
  if (!s) return 'plain RoPE';
  const bits = [s.type];
  if (s.factor !== undefined) bits.push(`factor ${fmt(s.factor)}`);
  if (s.originalMaxPositionEmbeddings !== undefined) bits.push(`original context ${s.originalMaxPositionEmbeddings}`);
  if (s.type === 'yarn') {
    if (s.truncate === false) bits.push('truncate false (unrounded ramp bounds)');
    if ((s.betaFast ?? 32) !== 32 || (s.betaSlow ?? 1) !== 1) bits.push(`beta ${s.betaFast ?? 32}/${s.betaSlow ?? 1}`);
  }
  return bits.join(', ');
}

function describeL(p) {
  if (p.extFactor !== 0) return `YaRN with scale 1/${fmt(1 / p.freqScale)}, original context ${p.nCtxOrig}, beta ${fmt(p.betaFast)}/${fmt(p.betaSlow)}, ramp bounds rounded to whole pairs`;
  if (p.freqScale !== 1) return `linear scale 1/${fmt(1 / p.freqScale)}`;
  return p.freqFactors ? `per-pair factors (${p.factorsName})` : 'plain RoPE';
}

/**
 * A finding's fix: its kind ('flags' to pass, a 'drop-flag' to leave out, 'reconvert' the model,
 * 'with-scaling': the flags that fix the scaling, or 'none'), its sentence, and the flags it passes
 * or leaves out.
 */
const remedy = (kind, text, flags = kind === 'flags' ? text : null) => ({ kind, text, flags });

/** The flags that make llama.cpp compute the config's scaling, or why none can. */
function scalingFix(lt, lp) {
  const s = lt.scaling;
  if (!s) return lp.freqScale !== 1 || lp.extFactor !== 0 ? remedy('flags', '--rope-scaling none') : null;
  if (s.type === 'linear') return remedy('flags', `--rope-scaling linear --rope-scale ${fmt(s.factor)}`);
  if (s.type === 'yarn') {
    if (s.truncate === false) return remedy('none', 'no flag: ggml always rounds YaRN\'s ramp bounds to whole pairs (transformers\' truncate: false keeps them fractional)');
    const f = [`${FLAG_NAMES.ropeScaling} yarn`, `${FLAG_NAMES.ropeScale} ${fmt(s.factor)}`, `${FLAG_NAMES.yarnOrigCtx} ${s.originalMaxPositionEmbeddings}`];
    if ((s.betaFast ?? 32) !== lp.betaFast) f.push(`${FLAG_NAMES.yarnBetaFast} ${s.betaFast ?? 32}`);
    if ((s.betaSlow ?? 1) !== lp.betaSlow) f.push(`${FLAG_NAMES.yarnBetaSlow} ${s.betaSlow ?? 1}`);
    return remedy('flags', f.join(' '));
  }
  return remedy('reconvert', `no flag: llama.cpp has no ${s.type} scaling of its own; reconvert the model`);
}
