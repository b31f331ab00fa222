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
import { load } from './config-json.js';
import { llamaCppRope, ggufArch, shownFlag, LLAMA_CPP_COMMIT, FLAG_NAMES, FLAG_KEYS } from './llamacpp.js';

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

/** The checkpoint's pairing ggml's `mode` gives for a GGUF of `arch`: NORM on permuted Q/K is rotate_half. */
export function ggmlPairing(arch, mode) {
  return mode === 'norm' && !PERMUTED.has(arch) ? 'interleaved' : 'half';
}

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
// (a small difference in exponent form: 1.08e-6 beside a tolerance of 1e-6, not 0.00000108276)
const fmt = (x) => (Number.isInteger(x) ? String(x) : Math.abs(x) < 1e-3 ? Number(x.toPrecision(3)).toExponential() : Number(x.toPrecision(6)).toString());
/** Sorted indices as runs of consecutive ones, [first, last] each. */
export function runs(idx) {
  const out = [];
  for (const i of idx) {
    const r = out[out.length - 1];
    if (r && i === r[1] + 1) r[1] = i;
    else out.push([i, i]);
  }
  return out;
}
export const showRun = ([a, b]) => (a === b ? `${a}` : `${a}–${b}`);
const range = (idx) => (idx.length === 0 ? 'none' : runs(idx).map(showRun).join(', '));

// What each finding is about, per layer type: the angles θ_i, the cos/sin magnitude, or the pairing
// (the flag notes are about a flag, and carry their own fix)
const POINT = {
  'rope-freqs-missing': 'theta', 'longrope-factors-by-context': 'theta', 'swa-base-missing': 'theta', 'base-differs': 'theta',
  'scaling-differs': 'theta', 'attn-factor-differs': 'magnitude', 'pairing-differs': 'pairing',
};
// the finding a fix is first for, as "follows from …" names it
const CAUSE = {
  'scaling-differs': 'the scaling', 'base-differs': 'the base', 'longrope-factors-by-context': 'the context',
  'attn-factor-differs': 'the factor', 'flag-no-op': 'the flag', 'flag-overridden': 'the flag',
};
// Findings about a flag on the command line that changes nothing: the numbers are judged by the other findings
const FLAG_NOTES = new Set(['flag-no-op', 'flag-overridden']);
const BY_NAME = Object.fromEntries(Object.entries(FLAG_NAMES).map(([k, v]) => [v, k]));
/** The flags with a fix's changes: some left out, some set (--rope-scale and --rope-freq-scale are one value). */
function applyFix(flags, set) {
  const f = { ...flags };
  for (const k of set.drop ?? []) delete f[k];
  for (const [k, v] of Object.entries(set.flags ?? {})) {
    if (k === 'ropeScale') delete f.ropeFreqScale;
    if (k === 'ropeFreqScale') delete f.ropeScale;
    f[k] = v;
  }
  return f;
}

/**
 * Compares a model's config.json with a GGUF of it under llama.cpp's flags. pe: the Posenc
 * instance (its ropeConfig, ropeInvFreq, ropeCache and llamaCppCache are used).
 *
 * Each fix is checked by comparing again: a finding that the comparison without the flags given
 * does not have on its point is fixed by leaving out the flags that cause it; a finding that
 * another finding's fix clears too says so and takes that fix; a GGUF of another architecture than
 * the config converts to is said first, and no fix is offered for the rest.
 */
export function compareRuntimes(pe, config, gguf, options) {
  const o = A.options('options', options, KEYS, 'compareRuntimes');
  A.options('flags', o.flags, FLAG_KEYS, 'compareRuntimes');
  // (the config's text parsed once: the comparisons and the architecture read the same object)
  const root = load(config);
  const cfg = pe.ropeConfig(root);
  const flags = Object.fromEntries(Object.entries(o.flags ?? {}).filter(([, v]) => v !== undefined));
  const main = compareOnce(pe, cfg, gguf, { positions: o.positions, flags, ctx: o.ctx });
  const { rt, found, positions } = main;
  // the same positions under other flags or another -c: each comparison once
  const keyOf = (fl, ctx) => JSON.stringify([fl, ctx ?? null]);
  const runs = new Map([[keyOf(flags, o.ctx), main]]);
  const run = (fl, ctx = o.ctx) => {
    const key = keyOf(fl, ctx);
    if (!runs.has(key)) runs.set(key, compareOnce(pe, cfg, gguf, { positions, checked: true, flags: fl, ctx }));
    return runs.get(key);
  };
  // a run clears a finding when it agrees on the finding's point on each of its layer types and has no finding of its code there
  const clears = (r, f) => f.layerTypes.length > 0 && f.layerTypes.every((lt) => r.points[lt]?.[POINT[f.code]] === true &&
    !r.found.some((g) => g.code === f.code && g.layerTypes.includes(lt)));

  // the GGUF's layer types that no layer type of the config was compared with
  const compared = new Set(Object.values(main.layerTypes).map((lt) => lt.llamaCppLayerType));
  const all = Object.values(rt.layerTypes).reduce((n, lp) => n + (lp.layers?.length ?? 0), 0);
  const uncompared = Object.entries(rt.layerTypes).filter(([n]) => !compared.has(n));
  const left = uncompared.map(([n, lp]) => `${n} layers${lp.layers ? ` (${lp.layers.length} of its ${all})` : ''}`);

  const want = ggufArch(root);
  if (want !== null && want !== rt.arch) {
    // a GGUF of another model: said first; nothing that would make the two agree is a fix
    const type = root.text_config?.model_type ?? root.model_type;
    for (const f of found) if (POINT[f.code]) f.fix = remedy('none', 'no flag helps: the GGUF is of another model (architecture-differs)');
    found.unshift({ code: 'architecture-differs', layerTypes: [],
      message: `this GGUF is of another model: its general.architecture is ${rt.arch}, but convert_hf_to_gguf.py converts a config of model_type ${type} to ${want}, so what follows compares two different models${left.length ? `; the GGUF's ${left.join(' and ')} have no counterpart in the config and are not compared` : ''}.`,
      fix: remedy('none', `no flag: compare this GGUF with its own model's config, or this config with a GGUF of it (${want})`) });
  } else {
    // one model, but the config counts as another layer type layers the GGUF rotates apart
    uncompared.forEach(([n, lp], i) => {
      const owners = Object.entries(cfg.layerTypes).filter(([, lt]) => lp.layers && lt.layers?.some((i) => lp.layers.includes(i)));
      const theirs = owners.length ? ` (the config counts them among its ${owners.map(([m, lt]) => `${m} layers${lt.nope ? ', which have no RoPE' : `, base ${fmt(lt.base)}`}`).join(' and ')})` : '';
      found.push({ code: 'layers-not-compared', layerTypes: [],
        message: `the GGUF's ${left[i]} have no layer type of their own in the config${theirs}, so they are not compared: llama.cpp rotates them with base ${fmt(lp.freqBase)}.`,
        fix: remedy('none', `no flag: llama.cpp decides which layers are ${n} from the architecture and the file; check that the config is this model's own (its layer_types or sliding_window_pattern)`) });
    });
    // a flag that makes a point differ where the file alone agrees: leaving it out is the fix
    const given = Object.keys(flags);
    if (given.length > 0) {
      const bare = run({});
      for (const f of found) {
        if (!POINT[f.code] || f.fix?.kind === 'drop-flag' || !clears(bare, f)) continue;
        const without = (ks) => Object.fromEntries(given.filter((k) => !ks.includes(k)).map((k) => [k, flags[k]]));
        // the flags that alone clear it; all of them when none does alone
        let drop = given.filter((k) => clears(run(without([k])), f));
        if (drop.length === 0) drop = given;
        else if (drop.length > 1 && !clears(run(without(drop)), f)) drop = [drop[0]];
        const named = drop.map((k) => shownFlag(flags, k)).join(' ');
        f.fix = remedy('drop-flag', `leave out ${named}: without ${drop.length > 1 ? 'them' : 'it'} llama.cpp reads this from the file, which agrees with the config`, named, { drop });
      }
    }
    // a fix that clears other findings too: they follow from it and say so, with its flags
    for (const f of found) {
      if (f.follows || !f.fix?.set) continue;
      const r = run(applyFix(flags, f.fix.set), f.fix.set.ctx ?? o.ctx);
      if (f.layerTypes.length > 0 && !clears(r, f) && f.fix.kind === 'flags') {
        // flags that leave the point as it was are no fix: say so, and what else differs there
        const width = found.some((g) => g.code === 'pairing-differs' && g.layerTypes.some((lt) => f.layerTypes.includes(lt)));
        f.fix = remedy('none', `no flag makes them agree: with ${f.fix.flags} a difference remains${width ? ', since the rotary widths differ (pairing-differs)' : ''}`);
        continue;
      }
      if (f.layerTypes.length > 0 ? !clears(r, f) : r.found.some((g) => g.code === f.code && g.message === f.message)) continue;
      const others = found.filter((g) => g !== f && !g.follows && POINT[g.code] && clears(r, g) &&
        // two fixes that each clear the other are both right: left as they are
        !(g.fix?.set && (f.layerTypes.length === 0 || clears(run(applyFix(flags, g.fix.set), g.fix.set.ctx ?? o.ctx), f))));
      for (const g of others) {
        g.follows = f;
        const does = f.fix.kind === 'drop-flag' ? `leaving out ${f.fix.flags}` : f.fix.flags;
        g.fix = remedy(f.fix.kind, `follows from ${CAUSE[f.code] ?? `the ${f.code} finding`}: ${does} fixes ${others.length > 1 ? 'all of them' : 'both'}`, f.fix.flags, f.fix.set);
      }
    }
  }

  // LongRoPE in a context past L0: positions past L0 (the default ones fill the context) are a
  // sequence where both runtimes take the long factors; transformers takes the short ones for any
  // prompt within L0, llama.cpp keeps the long ones
  const seqLens = [main.pmax + 1];
  const L0 = Math.min(...Object.values(cfg.layerTypes).filter((lt) => lt.scaling?.type === 'longrope').map((lt) => lt.scaling.originalMaxPositionEmbeddings));
  if (main.pmax + 1 > L0 && (want === null || want === rt.arch) && rt.nCtx > L0) {
    const short = compareOnce(pe, cfg, gguf, { positions: defaultPositions(L0), checked: true, flags, ctx: o.ctx });
    seqLens.push(L0);
    for (const f of short.found.filter((g) => g.code === 'longrope-factors-by-context' && !found.some((h) => h.code === g.code))) {
      f.message = `a prompt of at most ${L0} tokens (the rows above assume ${main.pmax + 1}): ${f.message}`;
      f.fix = remedy('flags', `-c ${L0} for prompts of at most ${L0} tokens; no single -c value matches transformers for both short and long prompts, since llama.cpp picks the factors once for the whole context`, `-c ${L0}`, { ctx: L0 });
      found.push(f);
    }
  }

  const several = main.several;
  const findings = found.map((f) => Object.freeze({
    code: f.code, message: several && f.layerTypes.length ? `${f.layerTypes.join(' and ')} layers: ${f.message}` : f.message,
    fix: f.fix?.text ?? null, fixKind: f.fix?.kind ?? null, fixFlags: f.fix?.flags ?? null, layerTypes: Object.freeze(f.layerTypes),
    severity: f.note || FLAG_NOTES.has(f.code) ? 'note' : 'differs',
  }));
  const { maxDcos, maxDsin, stillPairs, pmax } = main;
  const agree = findings.every((f) => f.severity === 'note');
  if (findings.length === 0) findings.push(Object.freeze({ code: 'none', severity: 'note', fix: null, fixKind: null, fixFlags: null, layerTypes: Object.freeze([]), message: `llama.cpp and the config agree: θ_i and the cos/sin magnitude of every layer type match to ${fmt(AGREE)} relative${stillPairs.length ? `, or, for the pairs that stand still (${stillPairs.join('; ')}), to ${fmt(STILL)} rad a position, under ${fmt(AGREE)} rad at any position` : ''} (largest |Δcos| ${fmt(maxDcos)}, |Δsin| ${fmt(maxDsin)} at the positions compared, up to ${pmax})` }));
  return Object.freeze({
    llamaCpp: LLAMA_CPP_COMMIT, arch: rt.arch, nCtx: rt.nCtx, positions: Object.freeze(positions), seqLens: Object.freeze(seqLens), agree,
    layerTypes: Object.freeze(main.layerTypes), maxDcos, maxDsin, findings: Object.freeze(findings),
    float32: Object.freeze(main.f32Report), configWarnings: cfg.warnings,
  });
}

/**
 * One comparison: the layer types, what each agrees on (points: { theta, magnitude, pairing } per
 * layer type), and the findings before their fixes are checked against each other.
 */
function compareOnce(pe, cfg, gguf, o) {
  const rt = llamaCppRope(gguf, { flags: o.flags, ctx: o.ctx });
  let positions;
  if (o.positions === undefined) positions = defaultPositions(rt.nCtx);
  else if (o.checked) positions = o.positions; // the first comparison's, checked there
  else {
    const p = A.numbers('positions', o.positions, Float64Array, { min: 0, max: 2 ** 31 - 1 });
    positions = Array.from(p instanceof A.Unscanned ? p.array : p, (x, i) => {
      if (!(x >= 0 && x <= 2 ** 31 - 1)) throw new RangeError(`positions[${i}] must be in [0, ${2 ** 31 - 1}], got ${x}`);
      if (!Number.isInteger(x)) throw new TypeError(`positions[${i}] must be an integer (llama.cpp's positions are int32), got ${x}`);
      return x;
    });
  }
  Object.freeze(positions);
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
    return f;
  };
  const several = Object.values(cfg.layerTypes).filter((lt) => !lt.nope).length > 1;
  for (const n of rt.notes) {
    find(n.code, n.message, n.code === 'flag-no-op' || n.code === 'flag-overridden' ? remedy('drop-flag', 'leave the flag out', n.flag, { drop: [BY_NAME[n.flag.split(' ')[0]]] }) : null);
  }
  const points = {};

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
    const styleL = ggmlPairing(rt.arch, lp.mode);

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
    // cos and sin as each runtime multiplies them: past 1 only by an attention factor, which is said
    const scaled = magL !== 1 || (magC ?? 1) !== 1 ? ', cos and sin times each runtime\'s attention factor' : '';
    const worst = `largest |Δcos| ${fmt(ltMaxCos)}, |Δsin| ${fmt(ltMaxSin)} at the positions compared, up to ${pmax}${scaled}`;

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
          hfLong ? remedy('flags', `-c ${origL0 + 256} or more (any context past ${origL0} selects the long factors)`, `-c ${origL0 + 256}`, { ctx: origL0 + 256 })
            : remedy('flags', `-c ${origL0} (a context of at most ${origL0} selects the short factors, for prompts up to ${origL0} tokens)`, `-c ${origL0}`, { ctx: origL0 }), name);
      } else if (name === 'sliding_attention' && meta[`${rt.arch}.rope.freq_base_swa`] === undefined && rel(lp.freqBase, lt.base) > AGREE) {
        find('swa-base-missing', `this GGUF carries no ${rt.arch}.rope.freq_base_swa, so llama.cpp rotates the sliding-window layers with base ${fmt(lp.freqBase)} instead of the config's ${fmt(lt.base)}: ${pairs} differ (${worst}).`,
          remedy('reconvert', `reconvert with a convert_hf_to_gguf.py that writes ${rt.arch}.rope.freq_base_swa (llama.cpp#18553); no flag reaches the sliding-window layers`), name);
      } else if (rel(lp.freqBase, lt.base) > AGREE) {
        const sliding = name === 'sliding_attention' && lp !== rt.layerTypes.full_attention && rt.arch.startsWith('gemma');
        find('base-differs', `llama.cpp uses base ${fmt(lp.freqBase)}, the config ${fmt(lt.base)}: ${pairs} differ (${worst}).`,
          sliding ? remedy('reconvert', 'reconvert: the sliding-window layers take their base from the file only')
            : o.flags?.ropeFreqBase !== undefined && rel(Number(meta[`${rt.arch}.rope.freq_base`] ?? 10000), lt.base) <= AGREE
              ? remedy('drop-flag', `leave out ${shownFlag(o.flags, 'ropeFreqBase')}: the file's base is the config's (a wrapper passing 10000 as a default overrides it, llama-cpp-python#765)`, shownFlag(o.flags, 'ropeFreqBase'), { drop: ['ropeFreqBase'] })
              : remedy('flags', `--rope-freq-base ${fmt(lt.base)}`, undefined, { flags: { ropeFreqBase: lt.base } }), name);
      } else {
        find('scaling-differs', `the scaling differs: the config says ${describe(lt.scaling)}, llama.cpp runs ${describeL(lp)}: ${pairs} differ (${worst}).`, scalingFix(lt, lp), name);
      }
    }
    // magnitude
    if (magC !== null && rel(magL, magC) > AGREE) {
      const fileA = lp.attnFactor; // the factor llama.cpp passes when ext is 0, the file's attn_factor in it
      find('attn-factor-differs', `llama.cpp multiplies cos and sin by ${fmt(magL)}, transformers by ${fmt(magC)} (attention logits scale by the square: ×${fmt((magL / magC) ** 2)}).`,
        lp.extFactor !== 0 ? remedy('none', 'no flag: with YaRN active llama.cpp recomputes the factor and overwrites --yarn-attn-factor')
          : attnFix(magC / (fileA / (o.flags?.yarnAttnFactor ?? 1))), name);
    }
    // Gemma 3 before freq_base_swa: right in llama.cpp (its loader assumes 10000), wrong in readers that take freq_base
    if (name === 'sliding_attention' && meta[`${rt.arch}.rope.freq_base_swa`] === undefined && differs.length === 0) {
      const full = cfg.layerTypes.full_attention;
      if (full && !full.nope && rel(full.base, lt.base) > AGREE) {
        find('swa-base-missing', `this GGUF carries no ${rt.arch}.rope.freq_base_swa. llama.cpp assumes ${fmt(lp.freqBase)} for ${rt.arch}'s sliding-window layers, which is right for this model, but readers that take ${rt.arch}.rope.freq_base (${fmt(Number(meta[`${rt.arch}.rope.freq_base`] ?? 10000))}) for every layer rotate them wrongly (huggingface/candle#2891).`,
          remedy('reconvert', `none for llama.cpp; for the other readers, reconvert with a convert_hf_to_gguf.py that writes ${rt.arch}.rope.freq_base_swa (llama.cpp#18553)`), name).note = true;
      }
    }

    // float32 at the largest position: llama.cpp's as ggml rounds; transformers' types, each step rounded once
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

    points[name] = { theta: differs.length === 0, magnitude: !(magC !== null && rel(magL, magC) > AGREE), pairing: styleL === lt.style && lp.nDims === lt.rotaryDim };
    layerTypes[name] = Object.freeze({
      llamaCppLayerType: lname, layers: lt.layers, llamaCppLayers: lp.layers,
      rotaryDim: Object.freeze({ config: lt.rotaryDim, llamaCpp: lp.nDims }),
      pairing: Object.freeze({ config: lt.style, llamaCpp: styleL, gguf: lp.mode === 'norm' ? 'interleaved' : 'half' }),
      magnitude: Object.freeze({ config: magC, llamaCpp: magL }),
      base: Object.freeze({ config: lt.base, llamaCpp: lp.freqBase }),
      factors: lp.factorsName,
      thetaConfig: thetaC, thetaLlamaCpp: thetaL, relDiff, maxDcos: dcos, maxDsin: dsin,
      differingPairs: Object.freeze(differs), stillPairs: Object.freeze(still),
    });
    if (still.length) stillPairs.push(`${several ? `${name}: ` : ''}pairs ${range(still)}`);
  }
  return { rt, positions, layerTypes, points, found: [...found.values()], several, stillPairs, maxDcos, maxDsin, f32Report, pmax };
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
 * A finding's fix: its kind ('flags' to pass, a 'drop-flag' to leave out, 'reconvert' the model, or
 * 'none'), its sentence, the flags it passes or leaves out as a command line shows them, and (set)
 * what it changes, for checking it: { flags: values to pass, drop: flags to leave out, ctx: -c }.
 */
const remedy = (kind, text, flags = kind === 'flags' ? text : null, set = null) => ({ kind, text, flags: flags ?? null, set });

/** --yarn-attn-factor with the float32 llama.cpp keeps, in as few digits as give it back (a rounder one misses by more than AGREE). */
function attnFix(v) {
  const x = Math.fround(v);
  let p = 6;
  while (p < 9 && Math.fround(Number(x.toPrecision(p))) !== x) p++;
  const text = String(Number(x.toPrecision(p)));
  return remedy('flags', `--yarn-attn-factor ${text}`, undefined, { flags: { yarnAttnFactor: Number(text) } });
}

/** The flags that make llama.cpp compute the config's scaling, or why none can. */
function scalingFix(lt, lp) {
  const s = lt.scaling;
  // the flags to pass, as values and as a command line shows them
  const pass = (flags) => remedy('flags', Object.keys(flags).map((k) => shownFlag(flags, k)).join(' '), undefined, { flags });
  if (!s) return lp.freqScale !== 1 || lp.extFactor !== 0 ? pass({ ropeScaling: 'none' }) : null;
  if (s.type === 'linear') return pass({ ropeScaling: 'linear', ropeScale: Number(fmt(s.factor)) });
  if (s.type === 'yarn') {
    if (s.truncate === false) return remedy('none', 'no flag: ggml always rounds YaRN\'s ramp bounds to whole pairs (transformers\' truncate: false keeps them fractional)');
    const f = { ropeScaling: 'yarn', ropeScale: Number(fmt(s.factor)), yarnOrigCtx: s.originalMaxPositionEmbeddings };
    if ((s.betaFast ?? 32) !== lp.betaFast) f.yarnBetaFast = s.betaFast ?? 32;
    if ((s.betaSlow ?? 1) !== lp.betaSlow) f.yarnBetaSlow = s.betaSlow ?? 1;
    return pass(f);
  }
  return remedy('reconvert', `no flag: llama.cpp has no ${s.type} scaling of its own; reconvert the model`);
}
