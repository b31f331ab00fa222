// mrope.js: multimodal RoPE (mRoPE) for ropeCache, applyRope and applyRopeInPlace, and
// attentionTemperature. rope.js hands a call here when its options carry `mrope` or its
// positions are streams { t, h, w }.
//
// Each rotated pair takes its angle from one of three position streams (time, height, width):
// c/mrope.c builds the cos/sin table per (row, pair) in float64 angles, and the table kernel
// (posenc_rope_apply_table) rotates. mrope.section = [s_t, s_h, s_w] splits the rotaryDim/2 pairs:
// - interleaved false (Qwen2-VL, Qwen2.5-VL): pairs [0, s_t) read t, the next s_h read h, the
//   rest w (transformers qwen2_vl apply_multimodal_rotary_pos_emb: its mrope_section * 2 is the
//   same split over the two halves of rotate_half's cos/sin);
// - interleaved true (Qwen3-VL): pairs 1, 4, 7, ... below 3·s_h read h, pairs 2, 5, 8, ... below
//   3·s_w read w, every other pair t (transformers qwen3_vl apply_interleaved_mrope).
// A text token has t = h = w = p and gets exactly plain RoPE's cos/sin at p.
import * as A from './args.js';
import { MAX_DIM, MAX_POSITION, ropeShape, freqArgs, freqIn, pairOut } from './rope.js';

const STREAMS = ['t', 'h', 'w'];
const TEMPERATURE_KEYS = A.optionKeys('attentionTemperature', ['scale', 'floorScale', 'offset', 'out']);

/** Whether rope.js should hand a call here: an mrope option, or positions given as streams { t, h, w }. */
export function isMrope(o, positions) {
  return o.mrope !== undefined || (positions !== null && typeof positions === 'object' && !Array.isArray(positions) && !ArrayBuffer.isView(positions));
}

/** Checks options.mrope against the rotary width: { section: [s_t, s_h, s_w], interleaved }. */
function mropeArg(o, rotaryDim, method) {
  if (o.mrope === undefined) throw new TypeError('positions { t, h, w } need mrope: { section: [s_t, s_h, s_w], interleaved }');
  const m = A.options('mrope', o.mrope, ['section', 'interleaved'], method);
  if (!Array.isArray(m.section) || m.section.length !== 3) {
    throw new (Array.isArray(m.section) ? RangeError : TypeError)(`mrope.section must be an array of 3 pair counts [t, h, w], got ${A.show(m.section)}`);
  }
  const section = m.section.map((v, i) => A.int(`mrope.section[${i}]`, v, 0, MAX_DIM));
  const sum = section[0] + section[1] + section[2];
  if (sum !== rotaryDim / 2) {
    throw new RangeError(`mrope.section must sum to rotaryDim/2 = ${rotaryDim / 2} pairs, got ${section.join(' + ')} = ${sum}`);
  }
  const interleaved = A.bool('mrope.interleaved', m.interleaved ?? false);
  return { section, interleaved: interleaved ? 1 : 0 };
}

/** positions { t, h, w }: three checked arrays of one length (n, or any when n is undefined). */
function streamsArg(positions, method, n) {
  if (positions === null || typeof positions !== 'object' || Array.isArray(positions) || ArrayBuffer.isView(positions)) {
    throw new TypeError(`with mrope, positions must be { t, h, w } (three arrays of positions), got ${A.show(positions)}`);
  }
  const p = A.options('positions', positions, STREAMS, method);
  const out = [];
  for (const k of STREAMS) {
    if (p[k] === undefined) throw new TypeError(`positions.${k} is required with mrope (text tokens: t = h = w)`);
    const len = n ?? out[0]?.length;
    const a = A.numbers(`positions.${k}`, p[k], Float64Array, { min: 0, max: MAX_POSITION });
    if (len !== undefined && a.length !== len) {
      throw new RangeError(`positions.${k} must have length ${len} (as ${n === undefined ? 'positions.t' : 'x has rows'}), got ${a.length}`);
    }
    out.push(a);
  }
  return out;
}

/** The three streams into one heap block [3][n] (each scanned as copyIn would), pointer returned. */
function streamsIn(heap, h, streams) {
  const n = streams[0].length;
  const ptr = h.alloc(Float64Array, 3 * n);
  streams.forEach((s, k) => {
    const at = ptr + k * n * 8;
    new Float64Array(heap.memory.buffer, at, n).set(s instanceof A.Unscanned ? s.array : s);
    if (s instanceof A.Unscanned) heap.scan(s, at);
  });
  return ptr;
}

/** The mRoPE cos/sin table of scope h: { cos, sin } pointers, [n][rotaryDim/2] float32 each. */
function tableIn(heap, h, streams, f, m) {
  const n = streams[0].length, nt = A.elements('rope cache', n, f.half);
  const cos = h.alloc(Float32Array, nt), sin = h.alloc(Float32Array, nt);
  const pos = streamsIn(heap, h, streams), { inv, attn } = freqIn(heap, h, f);
  heap.call('posenc_mrope_cache', cos, sin, pos, n, inv, f.half, attn, ...m.section, m.interleaved);
  return { cos, sin, nt };
}

function noTable(o) {
  if (o.cos !== undefined || o.sin !== undefined) throw new TypeError('mrope forms its own cos/sin table: give positions { t, h, w }, not cos and sin');
}

export function mropeCache(heap, positions, rotaryDim, o) {
  if (o.precision !== undefined) throw new TypeError('precision is not available with mrope (the table is float32)');
  const streams = streamsArg(positions, 'ropeCache');
  const f = freqArgs(rotaryDim, o);
  const m = mropeArg(o, rotaryDim, 'ropeCache');
  const out = pairOut(o.out, Float32Array, A.elements('rope cache', streams[0].length, f.half));
  return heap.scoped((h) => {
    const { cos, sin, nt } = tableIn(heap, h, streams, f, m);
    return { cos: h.copyOut(Float32Array, cos, nt, out.cos), sin: h.copyOut(Float32Array, sin, nt, out.sin) };
  });
}

export function applyMrope(heap, x, o) {
  noTable(o);
  const { heads, headDim, style, rotaryDim } = ropeShape(o);
  const streams = streamsArg(o.positions, 'applyRope');
  const seq = streams[0].length, n = A.elements('x', seq, heads, headDim);
  const xs = A.numbers('x', x, Float32Array, { length: n, min: -Infinity, max: Infinity });
  const out = A.outArray('out', o.out, Float32Array, n);
  const f = freqArgs(rotaryDim, o);
  const m = mropeArg(o, rotaryDim, 'applyRope');
  return heap.scoped((h) => {
    const px = h.copyIn(xs), { cos, sin } = tableIn(heap, h, streams, f, m);
    heap.call('posenc_rope_apply_table', px, px, seq, heads, headDim, rotaryDim, style, cos, sin);
    return h.copyOut(Float32Array, px, n, out);
  });
}

/** t: a live tensor of this heap (rope.js checked it). */
export function applyMropeInPlace(heap, t, o) {
  noTable(o);
  const { heads, headDim, style, rotaryDim } = ropeShape(o);
  const row = heads * headDim;
  if (t.length % row !== 0) throw new RangeError(`x.length must be a multiple of heads × headDim = ${row}, got ${t.length}`);
  const streams = streamsArg(o.positions, 'applyRopeInPlace', t.length / row);
  const f = freqArgs(rotaryDim, o);
  const m = mropeArg(o, rotaryDim, 'applyRopeInPlace');
  heap.scoped((h) => {
    const { cos, sin } = tableIn(heap, h, streams, f, m);
    heap.call('posenc_rope_apply_table', t.pointer, t.pointer, t.length / row, heads, headDim, rotaryDim, style, cos, sin);
  });
}

/**
 * Llama 4's query temperature on NoPE layers, per position, in float64:
 * 1 + scale·ln(⌊(p + offset) / floorScale⌋ + 1) (c/temperature.c; transformers
 * modeling_llama4.py: log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1).
 * Defaults scale 0.1, floorScale 8192, offset 1 (Llama 4); Ministral 3's llama_4_scaling_beta
 * is scale = beta, floorScale = original_max_position_embeddings, offset 0.
 */
export function attentionTemperature(heap, positions, opts) {
  const o = A.options('options', opts, TEMPERATURE_KEYS, 'attentionTemperature');
  const pos = A.numbers('positions', positions, Float64Array, { min: 0, max: MAX_POSITION });
  const scale = A.num('scale', o.scale ?? 0.1, 0, 1e6);
  const floorScale = A.num('floorScale', o.floorScale ?? 8192, 1, MAX_POSITION);
  const offset = A.num('offset', o.offset ?? 1, 0, MAX_POSITION);
  const out = A.outArray('out', o.out, Float64Array, pos.length);
  return heap.scoped((h) => h.output(Float64Array, pos.length, out, (p) => heap.call('posenc_attention_temperature', p, h.copyIn(pos), pos.length, scale, floorScale, offset)));
}
