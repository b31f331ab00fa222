// vectors.js: pe.ropeVectors(config, { positions, seqLen }): conformance vectors for a runtime author,
// from a model's config.json as pe.ropeConfig() reads it. Everything is computed from the public
// API: frequencies by ropeInvFreq (c/scaling.c), cos/sin by ropeCache with precision 'f64'
// (cos/sin in float64 of the float64 angle p·θ_i, libm), temperatures by attentionTemperature;
// the rotations and dot products below are float64 arithmetic on those.
//
// Format 'posenc-rope-vectors/1' (a plain object; JSON.stringify keeps every number exactly):
//
//   {
//     format: 'posenc-rope-vectors/1',
//     maxPositionEmbeddings: number | null,     // from the config
//     seqLen: number | null,                    // the seqLen option; null: each row at its own p + 1
//     warnings: [{ code, message }],            // pe.ropeConfig's, then 'position-past-context' per layer
//                                               //   type for asked positions at or past its C (below)
//     q_k: 'q = r[0, d), k = r[d, 2d) with r = pe.randomNormal(2d, 0), d = headDim',
//     layerTypes: { [name]: {
//       nope, base, headDim, rotaryDim, style, scaling, attentionFactor, softmaxScale,
//       temperature, layers, contextLength,     // as pe.ropeConfig gives them (contextLength: C below)
//       mrope: null | { section, interleaved,
//               streams },                      // streams[i]: 't', 'h' or 'w', the stream pair i reads
//       invFreq, invFreq32,                     // θ_i (rotaryDim/2 values; [] on NoPE layers)
//       positions: [{                           // 0, 1, L0 − 1, L0, L0 + 1, C − 1 and those asked (below)
//         position,
//         cos, sin, cos32, sin32,               // per pair: attentionFactor·cos(p·θ_i), ·sin(p·θ_i)
//         seqLen?, invFreq?,                    // dynamic and longrope: the row's sequence length (p + 1,
//                                               //   or the seqLen option) and that length's θ_i
//         temperature?,                         // layers with a query temperature: its value at p
//       }],
//       pair: {
//         qPosition, kPosition,                 // the largest listed position, and 1 (if listed, else the smallest)
//         q, k,                                 // the inputs (float32 values), headDim each
//         qRotated, kRotated, qRotated32, kRotated32,  // RoPE at those positions (pairs per style;
//                                               //   dims past rotaryDim unchanged; NoPE: unchanged)
//         score, score32,                       // qRotated · kRotated: by default q and k each at its own
//                                               //   p + 1 (a KV cache: k cached at length 2, q at
//                                               //   qPosition + 1, across L0 for LongRoPE); with
//                                               //   seqLen, both at seqLen (one forward pass)
//       },
//     } },
//   }
//
// L0 = the scaling's originalMaxPositionEmbeddings, else max_position_embeddings. C = the context
// length the layer type is for (pe.ropeConfig's contextLength): max_position_embeddings, or factor ×
// originalMaxPositionEmbeddings when a scaling block with both gives more (Qwen2.5's YaRN ×4:
// 4 × 32768 = 131072, as Qwen's model cards mean it; not llama3, whose factor is no length ratio). Derived positions at or past C (and past seqLen − 1), and duplicates, are left
// out; asked positions are always listed. For MLA (DeepSeek) the vectors are q_pe / k_pe alone:
// qRotated stays in the checkpoint's interleaved pairs, where transformers'
// apply_rotary_pos_emb_interleave returns it rearranged into halves (the same scores). mRoPE rows are text tokens (t = h = w = p), which are plain RoPE at p. Every
// *32 value is the float64 value rounded to the nearest float32. q and k do not include the
// attention temperature (it multiplies q on its layers: see positions[].temperature).
import * as A from './args.js';

export const VECTORS_FORMAT = 'posenc-rope-vectors/1';
const KEYS = A.optionKeys('ropeVectors', ['positions', 'seqLen']);
const MAX_POSITION = 2 ** 53;

const f32 = (a) => Array.from(a, Math.fround);

/** The stream ('t', 'h', 'w') each pair reads (the layouts of c/mrope.c). */
function streams({ section: [st, sh, sw], interleaved }) {
  return Array.from({ length: st + sh + sw }, (_, i) => {
    if (interleaved) return i % 3 === 1 && i < 3 * sh ? 'h' : i % 3 === 2 && i < 3 * sw ? 'w' : 't';
    return i < st ? 't' : i < st + sh ? 'h' : 'w';
  });
}

/** x rotated in float64 by one cos/sin row (pairs as in style; dims past rotaryDim unchanged). */
function rotate(x, cos, sin, rotaryDim, style) {
  const out = Array.from(x);
  for (let i = 0; i < rotaryDim / 2; i++) {
    const [a, b] = style === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + rotaryDim / 2];
    out[a] = x[a] * cos[i] - x[b] * sin[i];
    out[b] = x[a] * sin[i] + x[b] * cos[i];
  }
  return out;
}

const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);

export function ropeVectors(pe, config, opts) {
  const o = A.options('options', opts, KEYS, 'ropeVectors');
  let asked = [];
  if (o.positions !== undefined) {
    const a = A.numbers('positions', o.positions, Float64Array, { min: 0, max: MAX_POSITION });
    asked = Array.from(a instanceof A.Unscanned ? a.array : a);
    // (a typed array comes back unchecked: its values are checked here)
    asked.forEach((p, i) => {
      if (!(Number.isFinite(p) && p >= 0 && p <= MAX_POSITION)) throw new RangeError(`positions[${i}] must be finite and in [0, ${MAX_POSITION}], got ${p}`);
    });
  }
  let seqLen = null;
  if (o.seqLen !== undefined) {
    seqLen = A.int('seqLen', o.seqLen, 1, MAX_POSITION);
    const i = asked.findIndex((p) => !(p < seqLen));
    if (i >= 0) throw new RangeError(`seqLen (${seqLen}) must exceed every position asked for: positions[${i}] is ${asked[i]}`);
  }
  const model = pe.ropeConfig(config);
  const max = model.maxPositionEmbeddings;
  const layerTypes = {}, types = Object.entries(model.layerTypes);
  const warnings = model.warnings.map((w) => ({ code: w.code, message: w.message }));
  for (const [name, lt] of types) {
    const ctx = lt.contextLength;
    layerTypes[name] = layerVectors(pe, lt, max, ctx, asked, seqLen);
    // a position the model was never trained at is a runtime's own choice to check, not a reference
    const past = asked.filter((p) => ctx !== null && p >= ctx);
    if (past.length) {
      warnings.push({
        code: 'position-past-context',
        message: `${past.length === 1 ? `position ${past[0]} lies` : `positions ${past.join(', ')} lie`} past the ${ctx} tokens ${types.length > 1 ? `the layer type ${name}` : 'the model'} is for: the formula gives ${past.length === 1 ? 'its rows' : 'their rows'}, but no model was trained there`,
      });
    }
  }
  return {
    format: VECTORS_FORMAT,
    maxPositionEmbeddings: max,
    seqLen,
    warnings,
    q_k: 'q = r[0, d), k = r[d, 2d) with r = pe.randomNormal(2d, 0), d = headDim',
    layerTypes,
  };
}

function layerVectors(pe, lt, max, ctx, asked, seqLen) {
  const l0 = lt.scaling?.originalMaxPositionEmbeddings ?? max;
  const derived = [0, 1];
  if (l0 !== null && l0 !== undefined) derived.push(l0 - 1, l0, l0 + 1);
  if (ctx !== null) derived.push(ctx - 1);
  const cap = Math.min(ctx ?? Infinity, seqLen ?? Infinity);
  const list = [...new Set([...derived.filter((p) => p >= 0 && p < cap), ...asked])].sort((a, b) => a - b);

  const d = lt.headDim, r = pe.randomNormal(2 * d, 0);
  const q = Array.from(r.subarray(0, d)), k = Array.from(r.subarray(d));
  const temps = lt.temperature ? pe.attentionTemperature(list, { scale: lt.temperature.scale, floorScale: lt.temperature.floorScale, offset: lt.temperature.offset }) : null;
  const plain = (v) => (v === null || typeof v !== 'object' ? v : JSON.parse(JSON.stringify(v)));
  const out = {
    nope: lt.nope, base: lt.base, headDim: d, rotaryDim: lt.rotaryDim, style: lt.style, scaling: plain(lt.scaling),
    attentionFactor: lt.attentionFactor, softmaxScale: lt.softmaxScale, temperature: plain(lt.temperature),
    layers: lt.layers === null ? null : Array.from(lt.layers), contextLength: ctx,
    mrope: lt.mrope === null ? null : { section: Array.from(lt.mrope.section), interleaved: lt.mrope.interleaved, streams: streams(lt.mrope) },
  };

  const rot = lt.rotaryDim, half = rot / 2;
  const rows = new Map();
  if (lt.nope) {
    out.invFreq = [];
    out.invFreq32 = [];
    for (const p of list) rows.set(p, { position: p, cos: [], sin: [], cos32: [], sin32: [] });
  } else {
    const freq = { base: lt.base, ...(lt.scaling ? { scaling: lt.scaling } : {}) };
    const inv = Array.from(pe.ropeInvFreq(rot, freq));
    out.invFreq = inv;
    out.invFreq32 = f32(inv);
    const perLength = lt.scaling?.type === 'dynamic' || lt.scaling?.type === 'longrope';
    const row = (p, c, s, extra) => ({
      position: p, cos: Array.from(c), sin: Array.from(s), cos32: f32(c), sin32: f32(s), ...extra,
    });
    // transformers recomputes θ for the current length (dynamic_rope_update): by default the
    // token at p is rotated with the frequencies of a sequence of p + 1 tokens
    const at = (n) => ({ ...freq, scaling: { ...lt.scaling, seqLen: n } });
    if (perLength && seqLen == null) {
      for (const p of list) {
        const { cos, sin } = pe.ropeCache([p], rot, { ...at(p + 1), precision: 'f64' });
        rows.set(p, row(p, cos, sin, { seqLen: p + 1, invFreq: Array.from(pe.ropeInvFreq(rot, at(p + 1))) }));
      }
    } else {
      // one length for every row: one table
      const one = perLength ? at(seqLen) : freq;
      const { cos, sin } = pe.ropeCache(list, rot, { ...one, precision: 'f64' });
      const extra = perLength ? { seqLen, invFreq: Array.from(pe.ropeInvFreq(rot, one)) } : {};
      list.forEach((p, j) => rows.set(p, row(p, cos.subarray(j * half, (j + 1) * half), sin.subarray(j * half, (j + 1) * half), extra)));
    }
  }
  out.positions = list.map((p, j) => (temps ? { ...rows.get(p), temperature: temps[j] } : rows.get(p)));

  const qPosition = list[list.length - 1], kPosition = list.includes(1) ? 1 : list[0];
  const turn = (x, p) => (lt.nope ? Array.from(x) : rotate(x, rows.get(p).cos, rows.get(p).sin, rot, lt.style));
  const qRotated = turn(q, qPosition), kRotated = turn(k, kPosition);
  const score = dot(qRotated, kRotated);
  out.pair = {
    qPosition, kPosition, q, k, qRotated, kRotated, qRotated32: f32(qRotated), kRotated32: f32(kRotated),
    score, score32: Math.fround(score),
  };
  return out;
}
