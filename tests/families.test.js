// Position-encoding families of 2025-26 models, against float64 formulas written here from their
// sources (nothing below calls posenc to make an expected value):
// - proportional RoPE (Gemma 4's p-RoPE; transformers modeling_rope_utils.py
//   _compute_proportional_rope_parameters), against classic partial rotary;
// - mRoPE, chunked (Qwen2-VL: qwen2_vl apply_multimodal_rotary_pos_emb) and interleaved
//   (Qwen3-VL: qwen3_vl apply_interleaved_mrope);
// - Llama 4's attention temperature (modeling_llama4.py Llama4TextAttention.forward);
// - pe.ropeVectors for Llama 3.1, Gemma 3, Qwen2-VL and Llama 4 configs;
// - DeepSeek-V3's MLA softmax factor.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, normals } from './reference.js';
import { MODELS } from '../web/lib/posenc.js';

const config = (id) => structuredClone(MODELS.find((m) => m.id === id).config);
const pow = (b, e) => Math.pow(b, e);

/** Gemma 4 p-RoPE: the first floor(p·D/2) pairs turn with b^(-2i/D) over the WHOLE head D, the rest not; then / factor. */
const proportionalRef = (D, p, base, factor = 1) =>
  Array.from({ length: D / 2 }, (_, i) => (i < Math.floor((p * D) / 2) ? pow(base, (-2 * i) / D) : 0) / factor);
/** Classic partial rotary: r = p·D dims, θ_i = b^(-2i/r). */
const partialRef = (r, base) => Array.from({ length: r / 2 }, (_, i) => pow(base, (-2 * i) / r));

/** The stream (0 t, 1 h, 2 w) pair i reads, from the two reference layouts. */
function streamRef(i, [st, sh, sw], interleaved) {
  if (interleaved) {
    // start from t; h overwrites the slice offset 1, step 3, up to 3·s_h; w offset 2 up to 3·s_w
    if (i % 3 === 1 && i < 3 * sh) return 1;
    if (i % 3 === 2 && i < 3 * sw) return 2;
    return 0;
  }
  // mrope_section doubled over rotate_half's [cos | cos]: chunk j of [st, sh, sw, st, sh, sw] reads stream j mod 3
  const doubled = [st, sh, sw, st, sh, sw];
  let dim = i, j = 0; // dim i of the first half
  while (dim >= doubled[j]) dim -= doubled[j++];
  return j % 3;
}

function close(got, want, rel, msg) {
  assert.equal(got.length, want.length, `${msg}: length`);
  for (let i = 0; i < want.length; i++) {
    assert.ok(Math.abs(got[i] - want[i]) <= rel * Math.max(1, Math.abs(want[i])), `${msg}[${i}]: ${got[i]} vs ${want[i]}`);
  }
}

const temperatureRef = (p, scale = 0.1, floorScale = 8192) => 1 + scale * Math.log(Math.floor((p + 1) / floorScale) + 1);

const [[, simd], [, scalar]] = await builds;

for (const [name, pe] of await builds) {
  describe(`proportional RoPE (${name})`, () => {
    test('Gemma 4 full-attention layers: p = 0.25, D = 512, base 1e6', () => {
      const got = pe.ropeInvFreq(512, { base: 1e6, scaling: { type: 'proportional', partialRotaryFactor: 0.25 } });
      close(got, proportionalRef(512, 0.25, 1e6), 1e-15, 'theta');
      assert.equal(got.filter((t) => t > 0).length, 64, '64 turning pairs');
      assert.ok(got.subarray(64).every((t) => t === 0), 'the rest do not turn');
      assert.equal(pe.ropeAttentionFactor(512, { base: 1e6, scaling: { type: 'proportional', partialRotaryFactor: 0.25 } }), 1);
      // factor divides every θ; p·D/2 not an integer rounds down (int(p·D//2))
      close(pe.ropeInvFreq(100, { scaling: { type: 'proportional', partialRotaryFactor: 0.3, factor: 8 } }), proportionalRef(100, 0.3, 10000, 8), 1e-15, 'factor 8');
      assert.equal(pe.ropeInvFreq(100, { scaling: { type: 'proportional', partialRotaryFactor: 0.25 } }).filter((t) => t > 0).length, 12, '12.5 pairs: 12');
      close(pe.ropeInvFreq(64, { scaling: { type: 'proportional', partialRotaryFactor: 1 } }), partialRef(64, 10000), 1e-15, 'p = 1 is plain RoPE');
    });

    test('differs from classic partial rotary (θ over the rotated width, dims past it untouched)', () => {
      const D = 128, p = 0.25, r = p * D;
      const prop = pe.ropeInvFreq(D, { scaling: { type: 'proportional', partialRotaryFactor: p } });
      const classic = pe.ropeInvFreq(r, {});
      close(classic, partialRef(r, 10000), 1e-15, 'classic');
      // same number of turning pairs, different frequencies: b^(-2i/128) against b^(-2i/32)
      assert.equal(prop.filter((t) => t > 0).length, classic.length);
      assert.ok(Math.abs(prop[1] - classic[1]) > 0.1, `θ_1: ${prop[1]} vs ${classic[1]}`);
      // and the rotations: proportional pairs (i, i + 64), classic pairs (i, i + 16) within 32 dims
      const x = Float32Array.from({ length: D }, (_, i) => Math.cos(i * 0.7));
      const a = pe.applyRope(x, { heads: 1, headDim: D, style: 'half', positions: [100], scaling: { type: 'proportional', partialRotaryFactor: p } });
      const b = pe.applyRope(x, { heads: 1, headDim: D, style: 'half', positions: [100], rotaryDim: r });
      // reference rotation of the proportional head
      const th = proportionalRef(D, p, 10000);
      for (let i = 0; i < D / 2; i++) {
        const c = Math.cos(100 * th[i]), s = Math.sin(100 * th[i]);
        assert.ok(Math.abs(a[i] - (x[i] * c - x[i + 64] * s)) < 1e-6 && Math.abs(a[i + 64] - (x[i] * s + x[i + 64] * c)) < 1e-6, `pair ${i}`);
      }
      assert.deepEqual(Array.from(b.subarray(r)), Array.from(x.subarray(r)), 'classic: dims past r unchanged');
      assert.notDeepEqual(Array.from(a), Array.from(b));
    });

    test('ropeScaling and ropeConfig read Gemma 4', () => {
      const v = pe.ropeConfig(config('gemma-4')).layerTypes.full_attention;
      assert.deepEqual({ ...v.scaling }, { type: 'proportional', partialRotaryFactor: 0.25, factor: 1 });
      close(pe.ropeInvFreq(v.rotaryDim, { base: v.base, scaling: v.scaling }), proportionalRef(512, 0.25, 1e6), 1e-15, 'from the config');
    });

    test('bad proportional options', () => {
      const before = pe.heapBytes().inUse;
      assert.throws(() => pe.ropeInvFreq(8, { scaling: { type: 'proportional' } }), (e) => e instanceof TypeError && /partialRotaryFactor/.test(e.message));
      for (const p of [0, 1.5, -0.25]) assert.throws(() => pe.ropeInvFreq(8, { scaling: { type: 'proportional', partialRotaryFactor: p } }), (e) => e instanceof RangeError && /partialRotaryFactor/.test(e.message));
      assert.throws(() => pe.ropeInvFreq(8, { scaling: { type: 'proportional', partialRotaryFactor: NaN } }), RangeError);
      assert.throws(() => pe.ropeInvFreq(8, { scaling: { type: 'proportional', partialRotaryFactor: 0.5, partial: 1 } }), (e) => e instanceof TypeError && /"partial"/.test(e.message));
      assert.equal(pe.heapBytes().inUse, before);
    });
  });

  describe(`mRoPE (${name})`, () => {
    const t = [0, 3, 7, 12, 40000], h = [0, 1, 2, 5, 9], w = [0, 4, 1, 8, 2];
    for (const interleaved of [false, true]) {
      test(`cos/sin per pair per stream, ${interleaved ? 'interleaved (Qwen3-VL)' : 'chunked (Qwen2-VL)'}`, () => {
        for (const [rot, section] of [[128, [16, 24, 24]], [128, [24, 20, 20]], [14, [2, 3, 2]], [8, [4, 0, 0]]]) {
          const half = rot / 2, base = 1e6;
          const { cos, sin } = pe.ropeCache({ t, h, w }, rot, { base, mrope: { section, interleaved } });
          const streams = [t, h, w];
          for (let r = 0; r < t.length; r++) {
            for (let i = 0; i < half; i++) {
              const a = streams[streamRef(i, section, interleaved)][r] * pow(base, (-2 * i) / rot);
              assert.ok(Math.abs(cos[r * half + i] - Math.cos(a)) < 2e-7 && Math.abs(sin[r * half + i] - Math.sin(a)) < 2e-7,
                `${section} row ${r} pair ${i}`);
            }
          }
        }
      });
    }

    test('the two layouts differ, and text tokens (t = h = w) are plain RoPE bit for bit', () => {
      const a = pe.ropeCache({ t, h, w }, 128, { mrope: { section: [16, 24, 24] } });
      const b = pe.ropeCache({ t, h, w }, 128, { mrope: { section: [16, 24, 24], interleaved: true } });
      assert.notDeepEqual(a.cos, b.cos);
      const text = Array.from({ length: 300 }, (_, i) => i * 37);
      for (const interleaved of [false, true]) {
        for (const scaling of [undefined, { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 }]) {
          const m = pe.ropeCache({ t: text, h: text, w: text }, 128, { scaling, mrope: { section: [16, 24, 24], interleaved } });
          assert.deepEqual(m, pe.ropeCache(text, 128, { scaling }), `cache, interleaved ${interleaved}, scaling ${scaling?.type}`);
          for (const style of ['half', 'interleaved']) {
            const x = Float32Array.from(normals(300 * 2 * 136, 5));
            const o = { heads: 2, headDim: 136, rotaryDim: 128, style, scaling };
            const got = pe.applyRope(x, { ...o, positions: { t: text, h: text, w: text }, mrope: { section: [16, 24, 24], interleaved } });
            assert.deepEqual(got, pe.applyRope(x, { ...o, positions: text }), `applyRope ${style}`);
          }
        }
      }
    });

    test('applyRope and applyRopeInPlace with mRoPE = the table path', () => {
      const section = [2, 3, 3], rot = 16;
      for (const interleaved of [false, true]) {
        for (const style of ['half', 'interleaved']) {
          const x = Float32Array.from(normals(t.length * 3 * 20, 9));
          const mrope = { section, interleaved };
          const { cos, sin } = pe.ropeCache({ t, h, w }, rot, { base: 500, mrope });
          const o = { heads: 3, headDim: 20, rotaryDim: rot, style };
          const want = pe.applyRope(x, { ...o, cos, sin });
          assert.deepEqual(pe.applyRope(x, { ...o, base: 500, positions: { t, h, w }, mrope }), want, `applyRope ${style}`);
          const tx = pe.tensor(x);
          try {
            assert.equal(pe.applyRopeInPlace(tx, { ...o, base: 500, positions: { t, h, w }, mrope }), tx);
            assert.deepEqual(tx.array.slice(), want, `in place ${style}`);
          } finally {
            tx.free();
          }
          // and the reference rotation of one element pair
          const streams = [t, h, w], r = 3, head = 1, i = 5;
          const ang = streams[streamRef(i, section, interleaved)][r] * pow(500, (-2 * i) / rot);
          const [d0, d1] = style === 'half' ? [i, i + rot / 2] : [2 * i, 2 * i + 1];
          const at = (r * 3 + head) * 20;
          assert.ok(Math.abs(want[at + d0] - (x[at + d0] * Math.cos(ang) - x[at + d1] * Math.sin(ang))) < 1e-5);
        }
      }
    });

    test('bad mRoPE input: TypeError / RangeError naming the parameter, heap unchanged', () => {
      const before = pe.heapBytes().inUse;
      const m = { section: [16, 24, 24] };
      const x = new Float32Array(2 * 128);
      const o = { heads: 1, headDim: 128, style: 'half' };
      const cases = [
        [() => pe.ropeCache({ t: [1], h: [1], w: [1] }, 128, { mrope: { section: [16, 24, 23] } }), RangeError, 'mrope.section'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [1] }, 128, { mrope: { section: [16, 48] } }), RangeError, 'mrope.section'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [1] }, 128, { mrope: { section: [16, 24.5, 23.5] } }), TypeError, 'mrope.section[1]'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [1] }, 128, { mrope: { section: [16, 24, 24], interleaved: 1 } }), TypeError, 'mrope.interleaved'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [1] }, 128, { mrope: { sections: [16, 24, 24] } }), TypeError, 'sections'],
        [() => pe.ropeCache({ t: [1], h: [1] }, 128, { mrope: m }), TypeError, 'positions.w'],
        [() => pe.ropeCache({ t: [1, 2], h: [1], w: [1, 2] }, 128, { mrope: m }), RangeError, 'positions.h'],
        [() => pe.ropeCache({ t: [1], h: [NaN], w: [1] }, 128, { mrope: m }), RangeError, 'positions.h[0]'],
        [() => pe.ropeCache({ t: [1], h: Float64Array.of(NaN), w: [1] }, 128, { mrope: m }), RangeError, 'positions.h[0]'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [-1] }, 128, { mrope: m }), RangeError, 'positions.w[0]'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [1], d: [1] }, 128, { mrope: m }), TypeError, '"d"'],
        [() => pe.ropeCache([1, 2], 128, { mrope: m }), TypeError, 'positions'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [1] }, 128, {}), TypeError, 'mrope'],
        [() => pe.ropeCache({ t: [1], h: [1], w: [1] }, 128, { mrope: m, precision: 'f64' }), TypeError, 'precision'],
        [() => pe.applyRope(x, { ...o, positions: { t: [1, 2], h: [1, 2], w: [1] }, mrope: m }), RangeError, 'positions.w'],
        [() => pe.applyRope(x, { ...o, positions: { t: [1], h: [1], w: [1] }, mrope: m }), RangeError, 'x'],
        [() => pe.applyRope(x, { ...o, rotaryDim: 64, positions: { t: [1, 2], h: [1, 2], w: [1, 2] }, mrope: m }), RangeError, 'mrope.section'],
        [() => pe.applyRope(x, { ...o, positions: { t: [1, 2], h: [1, 2], w: [1, Infinity] }, mrope: m }), RangeError, 'positions.w[1]'],
      ];
      for (const [call, Err, text] of cases) {
        assert.throws(call, (e) => e instanceof Err && e.message.includes(text), `${call}`);
      }
      const tx = pe.tensor(x);
      try {
        assert.throws(() => pe.applyRopeInPlace(tx, { ...o, positions: { t: [1], h: [1], w: [1] }, mrope: m }), (e) => e instanceof RangeError && /positions.t/.test(e.message));
        assert.throws(() => pe.applyRopeInPlace(tx, { ...o, positions: { t: [1, 2], h: [1, 2], w: [1, NaN] }, mrope: m }), (e) => e instanceof RangeError && /positions.w\[1\]/.test(e.message));
      } finally {
        tx.free();
      }
      assert.equal(pe.heapBytes().inUse, before);
    });
  });

  describe(`attention temperature (${name})`, () => {
    test('Llama 4 defaults: 1 + 0.1·ln(⌊(p + 1)/8192⌋ + 1)', () => {
      const ps = [0, 8190, 8191, 16383, 1e6, 1e7, 2 ** 53];
      const got = pe.attentionTemperature(ps);
      ps.forEach((p, i) => assert.ok(Math.abs(got[i] - temperatureRef(p)) <= 4e-16 * got[i], `p = ${p}: ${got[i]} vs ${temperatureRef(p)}`));
      assert.equal(got[1], 1, 'x1.0 at 8190');
      assert.ok(Math.abs(got[2] - (1 + 0.1 * Math.LN2)) < 1e-15, 'x1.069 at 8191');
      assert.ok(Math.abs(got[4] - 1.48) < 0.005 && Math.abs(got[5] - 1.71) < 0.005, 'x1.48 at 1e6, x1.71 at 1e7');
      // other scales, and Ministral 3's offset 0 (1 + beta·ln(1 + ⌊p / L0⌋))
      const m = pe.attentionTemperature([16383, 16384], { scale: 0.1, floorScale: 16384, offset: 0 });
      assert.deepEqual(Array.from(m), [1, 1 + 0.1 * Math.log(2)]);
      const out = new Float64Array(2);
      assert.equal(pe.attentionTemperature([1, 2], { out }), out);
    });

    test('ropeConfig\'s Llama 4 temperature passes straight through', () => {
      const nope = pe.ropeConfig(config('llama-4-scout')).layerTypes.full_attention;
      const { scale, floorScale, offset } = nope.temperature;
      assert.deepEqual(Array.from(pe.attentionTemperature([8191, 1e6], { scale, floorScale, offset })), [temperatureRef(8191), temperatureRef(1e6)]);
    });
  });

  describe(`ropeVectors (${name})`, () => {
    /** Checks one layer type's vectors against a float64 recomputation from its θ formula. */
    function checkLayer(v, { theta, attn = 1, max, l0, asked = [] }, msg) {
      assert.deepEqual(v.invFreq32, v.invFreq.map(Math.fround), `${msg}: invFreq32`);
      if (theta) close(v.invFreq, theta, 1e-15, `${msg}: invFreq`);
      const want = [...new Set([0, 1, ...(l0 ? [l0 - 1, l0, l0 + 1] : []), ...(max ? [max - 1] : [])].filter((p) => !max || p < max).concat(asked))].sort((a, b) => a - b);
      assert.deepEqual(v.positions.map((r) => r.position), want, `${msg}: positions`);
      for (const row of v.positions) {
        const th = row.invFreq ?? v.invFreq;
        th.forEach((t, i) => {
          const a = row.position * t;
          assert.ok(Math.abs(row.cos[i] - attn * Math.cos(a)) <= 1e-15 * Math.max(1, a) && Math.abs(row.sin[i] - attn * Math.sin(a)) <= 1e-15 * Math.max(1, a),
            `${msg}: p ${row.position} pair ${i}: ${row.cos[i]} vs ${attn * Math.cos(a)}`);
        });
        assert.deepEqual(row.cos32, row.cos.map(Math.fround));
        assert.deepEqual(row.sin32, row.sin.map(Math.fround));
      }
      // the pair: q, k from normals(2d, 0) rounded to float32, rotated here in float64
      const d = v.headDim, r = normals(2 * d, 0).map(Math.fround);
      assert.deepEqual(v.pair.q, Array.from(r.subarray(0, d)));
      assert.deepEqual(v.pair.k, Array.from(r.subarray(d)));
      const turn = (x, p) => {
        const out = Array.from(x);
        if (v.nope) return out;
        const row = v.positions.find((q) => q.position === p), th = row.invFreq ?? v.invFreq;
        for (let i = 0; i < v.rotaryDim / 2; i++) {
          const [a, b] = v.style === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + v.rotaryDim / 2];
          const c = attn * Math.cos(p * th[i]), s = attn * Math.sin(p * th[i]);
          out[a] = x[a] * c - x[b] * s;
          out[b] = x[a] * s + x[b] * c;
        }
        return out;
      };
      const qr = turn(v.pair.q, v.pair.qPosition), kr = turn(v.pair.k, v.pair.kPosition);
      const big = v.pair.qPosition * (v.invFreq[0] ?? 0) + 1;
      close(v.pair.qRotated, qr, 1e-15 * big, `${msg}: qRotated`);
      close(v.pair.kRotated, kr, 1e-15, `${msg}: kRotated`);
      assert.ok(Math.abs(v.pair.score - qr.reduce((s, x, i) => s + x * kr[i], 0)) < 1e-13 * big * d, `${msg}: score`);
      assert.equal(v.pair.score32, Math.fround(v.pair.score));
      assert.deepEqual(v.pair.qRotated32, v.pair.qRotated.map(Math.fround));
    }

    test('Llama 3.1 8B: llama3 scaling, one layer type, format and JSON round trip', () => {
      const v = pe.ropeVectors(config('llama-3.1-8b'), { positions: [5, 100000] });
      assert.equal(v.format, 'posenc-rope-vectors/1');
      assert.deepEqual(JSON.parse(JSON.stringify(v)), v, 'plain JSON-serialisable data');
      const l = v.layerTypes.full_attention;
      // llama3 θ, written out (transformers _compute_llama3_parameters)
      const theta = partialRef(128, 500000).map((t) => {
        const wl = (2 * Math.PI) / t, lo = 8192 / 1, hi = 8192 / 4;
        if (wl < hi) return t;
        if (wl > lo) return t / 8;
        const s = (8192 / wl - 1) / (4 - 1);
        return ((1 - s) * t) / 8 + s * t;
      });
      checkLayer(l, { theta, max: 131072, l0: 8192, asked: [5, 100000] }, 'llama 3.1');
      assert.equal(l.style, 'half');
    });

    test('Gemma 3 4B: two layer types (sliding base 1e4 plain, global base 1e6 linear ×8)', () => {
      const v = pe.ropeVectors(config('gemma-3-4b'));
      assert.deepEqual(Object.keys(v.layerTypes).sort(), ['full_attention', 'sliding_attention']);
      // max_position_embeddings: not in the file, Gemma3TextConfig's 131072
      checkLayer(v.layerTypes.sliding_attention, { theta: partialRef(256, 10000), max: 131072, l0: 131072 }, 'sliding');
      checkLayer(v.layerTypes.full_attention, { theta: partialRef(256, 1e6).map((t) => t / 8), max: 131072, l0: 131072 }, 'global');
    });

    test('Qwen2-VL: mRoPE streams, text rows equal plain RoPE', () => {
      const v = pe.ropeVectors(config('qwen2-vl'));
      const l = v.layerTypes.full_attention;
      checkLayer(l, { theta: partialRef(128, 1e6), max: 32768, l0: 32768 }, 'qwen2-vl');
      assert.deepEqual(l.mrope.section, [16, 24, 24]);
      assert.deepEqual(l.mrope.streams, Array.from({ length: 64 }, (_, i) => 'thw'[streamRef(i, [16, 24, 24], false)]));
      // and the same rows from an mRoPE table of text tokens (float32)
      const ps = l.positions.map((r) => r.position);
      const { cos } = pe.ropeCache({ t: ps, h: ps, w: ps }, 128, { base: l.base, mrope: { section: l.mrope.section, interleaved: l.mrope.interleaved } });
      l.positions.forEach((r, j) => r.cos32.forEach((c, i) => assert.ok(Math.abs(cos[j * 64 + i] - c) <= 2e-7)));
    });

    test('Llama 4 Scout: NoPE layers are identity, with the temperature per position', () => {
      const v = pe.ropeVectors(config('llama-4-scout'));
      const nope = v.layerTypes.full_attention, rope = v.layerTypes.chunked_attention;
      assert.equal(nope.nope, true);
      assert.deepEqual(nope.invFreq, []);
      checkLayer(nope, { max: 262144, l0: 262144 }, 'nope');
      assert.deepEqual(nope.pair.qRotated, nope.pair.q);
      nope.positions.forEach((r) => assert.ok(Math.abs(r.temperature - temperatureRef(r.position)) < 1e-15));
      assert.equal(rope.style, 'interleaved');
      // llama3 with low = high = 1 (Meta's apply_scaling): wavelength < 8192 kept, the rest ÷ 16
      const step = partialRef(128, 500000).map((t) => ((2 * Math.PI) / t < 8192 ? t : t / 16));
      checkLayer(rope, { theta: step, max: 262144, l0: 8192 }, 'rope layers');
      assert.deepEqual(v.warnings.map((w) => w.code), ['llama3-step', 'class-defaults']);
    });

    test('Gemma 4 (proportional), DeepSeek-V3 (YaRN, interleaved, attention factor) and Phi-3.5 (longrope per length)', () => {
      const g = pe.ropeVectors(config('gemma-4')).layerTypes.full_attention;
      checkLayer(g, { theta: proportionalRef(512, 0.25, 1e6), max: 131072, l0: 131072 }, 'gemma 4');
      const d = pe.ropeVectors(config('deepseek-v3')).layerTypes.full_attention;
      checkLayer(d, { attn: d.attentionFactor, max: 163840, l0: 4096 }, 'deepseek-v3');
      const phi = pe.ropeVectors(config('phi-3.5-mini')).layerTypes.full_attention;
      checkLayer(phi, { attn: phi.attentionFactor, max: 131072, l0: 4096 }, 'phi-3.5');
      const short = phi.positions.find((r) => r.position === 4095), long = phi.positions.find((r) => r.position === 4096);
      assert.notDeepEqual(short.invFreq, long.invFreq, 'long factors from seqLen 4097 on');
    });

    test('bad input', () => {
      const before = pe.heapBytes().inUse;
      assert.throws(() => pe.ropeVectors(config('qwen2-vl'), { positions: [NaN] }), (e) => e instanceof RangeError && /positions\[0\]/.test(e.message));
      assert.throws(() => pe.ropeVectors(config('qwen2-vl'), { positions: Float64Array.of(1, -1) }), (e) => e instanceof RangeError && /positions\[1\]/.test(e.message));
      assert.throws(() => pe.ropeVectors(config('qwen2-vl'), { position: [1] }), (e) => e instanceof TypeError && /"position"/.test(e.message));
      assert.throws(() => pe.ropeVectors(3), TypeError);
      assert.equal(pe.heapBytes().inUse, before);
    });
  });

  test(`DeepSeek-V3's MLA softmax factor is (0.1·ln 40 + 1)² (${name})`, () => {
    const l = pe.ropeConfig(config('deepseek-v3')).layerTypes.full_attention;
    assert.ok(Math.abs(l.softmaxScale - (0.1 * Math.log(40) + 1) ** 2) < 1e-15, `${l.softmaxScale}`);
    assert.equal(l.attentionFactor, 1);
    assert.equal(l.rotaryDim, 64);
    assert.equal(l.style, 'interleaved');
  });
}

test('both builds give the same bits for mRoPE, proportional, temperatures and vectors', () => {
  const t = Array.from({ length: 50 }, (_, i) => i * 977), h = t.map((p) => p % 13), w = t.map((p) => p % 7);
  for (const interleaved of [false, true]) {
    const o = { base: 1e6, mrope: { section: [16, 24, 24], interleaved } };
    assert.deepEqual(simd.ropeCache({ t, h, w }, 128, o), scalar.ropeCache({ t, h, w }, 128, o));
  }
  const sc = { scaling: { type: 'proportional', partialRotaryFactor: 0.25 } };
  assert.deepEqual(simd.ropeInvFreq(512, sc), scalar.ropeInvFreq(512, sc));
  assert.deepEqual(simd.attentionTemperature(t), scalar.attentionTemperature(t));
  for (const id of ['qwen2-vl', 'gemma-4', 'llama-4-scout']) assert.deepEqual(simd.ropeVectors(config(id)), scalar.ropeVectors(config(id)), id);
});
