// RoPE scaling variants against the formulas (recomputed here in float64 from Hugging Face
// transformers' definitions), config.json parsing, precision modes, ALiBi, tensor2tensor.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, freq } from './reference.js';

const d = 128, BASE = 10000;
const theta = (dim = d, base = BASE) => Array.from({ length: dim / 2 }, (_, i) => freq(i, dim, base));
const mscale = (s, m = 1) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
function closeAll(got, want, rel = 1e-13, msg = '') {
  assert.equal(got.length, want.length, `${msg} length`);
  want.forEach((w, i) => assert.ok(Math.abs(got[i] - w) <= rel * Math.abs(w) + 1e-300, `${msg} [${i}]: ${got[i]} vs ${w}`));
}

function yarnRef({ factor, l0, betaFast = 32, betaSlow = 1, truncate = true, dim = d, base = BASE }) {
  const corr = (r) => (dim * Math.log(l0 / (2 * Math.PI * r))) / (2 * Math.log(base));
  let low = corr(betaFast), high = corr(betaSlow);
  if (truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
  low = Math.max(low, 0);
  high = Math.min(high, dim - 1);
  if (low === high) high += 0.001;
  return theta(dim, base).map((t, i) => {
    const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
    return (t / factor) * ramp + t * (1 - ramp);
  });
}

function llama3Ref({ factor = 8, lo = 1, hi = 4, l0 = 8192, base = 500000 }) {
  return theta(d, base).map((t) => {
    const wl = (2 * Math.PI) / t;
    if (wl < l0 / hi) return t;
    if (wl > l0 / lo) return t / factor;
    const s = (l0 / wl - lo) / (hi - lo);
    return ((1 - s) * t) / factor + s * t;
  });
}

// Round to nearest, ties to even, into a float with `bits` significant bits and smallest
// normal exponent emin (written independently of the C code: powers of two and Math.round).
function roundBits(x, bits, emin, max) {
  if (x === 0 || !Number.isFinite(x)) return x;
  let e = Math.floor(Math.log2(Math.abs(x)));
  if (2 ** e > Math.abs(x)) e -= 1; // log2 may round up just below a power of two
  if (2 ** (e + 1) <= Math.abs(x)) e += 1;
  e = Math.max(e, emin);
  const q = 2 ** (e - bits + 1), t = x / q;
  let r = Math.round(t);
  if (Math.abs(t - Math.trunc(t)) === 0.5) r = 2 * Math.round(t / 2);
  const v = r * q;
  return Math.abs(v) > max ? Math.sign(x) * Infinity : v;
}
const ROUND = {
  f64: (x) => x,
  f32: Math.fround,
  bf16: (x) => roundBits(x, 8, -126, 3.3895313892515355e38),
  f16: (x) => roundBits(x, 11, -14, 65504),
};

for (const [name, pe] of await builds) {
  describe(`scaling variants (${name})`, () => {
    test('linear and static NTK', () => {
      closeAll(pe.ropeInvFreq(d, { scaling: { type: 'linear', factor: 4 } }), theta().map((t) => t / 4), 1e-13, 'linear');
      closeAll(pe.ropeInvFreq(d, { scaling: { type: 'ntk', factor: 4 } }), theta(d, BASE * 4 ** (d / (d - 2))), 1e-13, 'ntk');
      assert.equal(pe.ropeAttentionFactor(d, { scaling: { type: 'linear', factor: 4 } }), 1);
      closeAll(pe.ropeInvFreq(d, { scaling: { type: 'linear', factor: 1 } }), theta(), 1e-15, 'factor 1');
    });

    test('dynamic NTK below and above the maximum', () => {
      const sc = (seqLen) => ({ type: 'dynamic', factor: 2, maxPositionEmbeddings: 4096, seqLen });
      closeAll(pe.ropeInvFreq(d, { scaling: sc(4096) }), theta(), 1e-15, 'at the max');
      closeAll(pe.ropeInvFreq(d, { scaling: sc(100) }), theta(), 1e-15, 'below');
      const b = BASE * ((2 * 10000) / 4096 - 1) ** (d / (d - 2));
      closeAll(pe.ropeInvFreq(d, { scaling: sc(10000) }), theta(d, b), 1e-13, 'above');
    });

    test('YaRN factor 4 and 16 with L0 4096; truncate false; low == high', () => {
      for (const factor of [4, 16]) {
        const scaling = { type: 'yarn', factor, originalMaxPositionEmbeddings: 4096 };
        closeAll(pe.ropeInvFreq(d, { scaling }), yarnRef({ factor, l0: 4096 }), 1e-13, `yarn ${factor}`);
        assert.ok(Math.abs(pe.ropeAttentionFactor(d, { scaling }) - mscale(factor)) < 1e-15);
        const loose = { ...scaling, truncate: false };
        closeAll(pe.ropeInvFreq(d, { scaling: loose }), yarnRef({ factor, l0: 4096, truncate: false }), 1e-13, 'truncate false');
      }
      // betaFast == betaSlow puts low == high: the ramp gets its 0.001 guard instead of dividing by zero
      const same = { type: 'yarn', factor: 8, originalMaxPositionEmbeddings: 4096, betaFast: 4, betaSlow: 4, truncate: false };
      const got = pe.ropeInvFreq(d, { scaling: same });
      assert.ok(got.every(Number.isFinite));
      closeAll(got, yarnRef({ factor: 8, l0: 4096, betaFast: 4, betaSlow: 4, truncate: false }), 1e-12, 'low == high');
      // attention factor: explicit beats mscale/mscaleAllDim, which beat the default
      const y = { type: 'yarn', factor: 40, originalMaxPositionEmbeddings: 4096 };
      assert.equal(pe.ropeAttentionFactor(d, { scaling: { ...y, attentionFactor: 1.25, mscale: 1, mscaleAllDim: 0.707 } }), 1.25);
      const ratio = pe.ropeAttentionFactor(d, { scaling: { ...y, mscale: 1, mscaleAllDim: 0.707 } });
      assert.ok(Math.abs(ratio - mscale(40, 1) / mscale(40, 0.707)) < 1e-15);
      assert.equal(pe.ropeAttentionFactor(d, { scaling: { ...y, mscale: 1, mscaleAllDim: 1 } }), 1);
    });

    test('Llama 3.1 preset: base 500000, factor 8, 1, 4, 8192', () => {
      const scaling = { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 };
      const got = pe.ropeInvFreq(d, { base: 500000, scaling });
      closeAll(got, llama3Ref({}), 1e-13, 'llama3');
      assert.equal(got[0], 1, 'fastest pair unchanged');
      assert.ok(Math.abs(got[63] - freq(63, d, 500000) / 8) < 1e-20, 'slowest pair divided by 8');
      closeAll(pe.ropeInvFreq(d, { base: 500000, scaling: { type: 'llama3' } }), got, 0, 'defaults are the 3.1 preset');
    });

    test('Llama 4 Scout: llama3 with low = high = 1 is a step at L0 (no ramp), as Meta\'s apply_scaling computes it', () => {
      // Meta llama-models models/llama4 apply_scaling, written out: w < L0/high keeps θ; w > L0/low
      // divides by the factor; with low = high nothing lies between (its smooth branch asserts)
      const step = (t, l0 = 8192, f = 16) => ((2 * Math.PI) / t < l0 ? t : t / f);
      const scaling = { type: 'llama3', factor: 16, lowFreqFactor: 1, highFreqFactor: 1, originalMaxPositionEmbeddings: 8192 };
      const got = pe.ropeInvFreq(d, { base: 500000, scaling });
      closeAll(got, theta(d, 500000).map((t) => step(t)), 1e-15, 'step');
      // 2π·500000^(2i/128) < 8192 for i ≤ 34: 35 pairs keep θ_i, 29 are divided by 16
      const kept = got.filter((t, i) => Math.abs(t - freq(i, d, 500000)) <= 1e-13 * t).length;
      assert.equal(kept, 35);
      assert.equal(Math.floor(64 * Math.log(8192 / (2 * Math.PI)) / Math.log(500000)) + 1, 35);
      // at exactly w = L0/low (θ = 1, L0 = 2π) the pair is divided: transformers gives 0/0 there, Meta asserts
      assert.deepEqual([...pe.ropeInvFreq(2, { scaling: { ...scaling, originalMaxPositionEmbeddings: 2 * Math.PI } })], [1 / 16]);
      assert.deepEqual([...pe.ropeInvFreq(2, { scaling: { ...scaling, originalMaxPositionEmbeddings: 2 * Math.PI * (1 + 2 ** -50) } })], [1]);
      // the cache turns at those frequencies; high < low is still refused
      const c = pe.ropeCache([0, 5000], d, { base: 500000, scaling });
      assert.ok(Math.abs(c.cos[d / 2 + 63] - Math.cos(5000 * got[63])) < 1e-6);
      assert.throws(() => pe.ropeInvFreq(d, { scaling: { ...scaling, highFreqFactor: 0.5 } }), /highFreqFactor \(0\.5\) must be at least/);
    });

    test('LongRoPE short and long factors, default attention factor', () => {
      const half = d / 2;
      const shortFactor = Array.from({ length: half }, (_, i) => 1 + i / 100);
      const longFactor = Array.from({ length: half }, (_, i) => 1 + i / 10);
      const sc = (seqLen) => ({ type: 'longrope', shortFactor, longFactor, originalMaxPositionEmbeddings: 4096, maxPositionEmbeddings: 131072, seqLen });
      closeAll(pe.ropeInvFreq(d, { scaling: sc(4096) }), theta().map((t, i) => t / shortFactor[i]), 1e-13, 'short');
      closeAll(pe.ropeInvFreq(d, { scaling: sc(4097) }), theta().map((t, i) => t / longFactor[i]), 1e-13, 'long');
      const want = Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096));
      assert.ok(Math.abs(pe.ropeAttentionFactor(d, { scaling: sc(0) }) - want) < 1e-15);
      assert.equal(pe.ropeAttentionFactor(d, { scaling: { ...sc(0), attentionFactor: 1.1 } }), 1.1);
    });

    test('the attention factor multiplies cos and sin, and applyRope scales by it', () => {
      const scaling = { type: 'yarn', factor: 16, originalMaxPositionEmbeddings: 4096 };
      const a = pe.ropeAttentionFactor(64, { scaling });
      const plain = pe.ropeCache([0], 64), scaled = pe.ropeCache([0], 64, { scaling });
      assert.ok(Math.abs(scaled.cos[0] - a * plain.cos[0]) < 1e-6);
      const y = pe.applyRope(new Float32Array(64).fill(1), { heads: 1, headDim: 64, positions: [0], style: 'half', scaling });
      assert.ok(Math.abs(y[5] - a) < 1e-6);
    });

    test('bad scaling options: clear errors', () => {
      const bad = [
        [{ type: 'xpos', factor: 2 }, RangeError, 'scaling.type'],
        [{ type: 'linear' }, TypeError, 'scaling.factor'],
        [{ type: 'linear', factor: NaN }, RangeError, 'scaling.factor'],
        [{ type: 'dynamic', factor: 2 }, TypeError, 'scaling.maxPositionEmbeddings'],
        [{ type: 'yarn', factor: 2 }, TypeError, 'scaling.originalMaxPositionEmbeddings'],
        [{ type: 'llama3', lowFreqFactor: 4, highFreqFactor: 1 }, RangeError, 'highFreqFactor'],
        [{ type: 'longrope', shortFactor: [1], longFactor: [1], originalMaxPositionEmbeddings: 4096 }, RangeError, 'scaling.shortFactor'],
        [{ type: 'linear', factor: 2, fator: 3 }, TypeError, 'fator'],
      ];
      for (const [scaling, Err, text] of bad) {
        assert.throws(() => pe.ropeInvFreq(d, { scaling }), (e) => e instanceof Err && e.message.includes(text), JSON.stringify(scaling));
      }
      assert.throws(() => pe.ropeDecay([1], { invFreq: [1], scaling: { type: 'linear', factor: 2 } }), TypeError);
    });
  });

  describe(`ropeScaling(config.json) (${name})`, () => {
    test('Llama 3.1', () => {
      const r = pe.ropeScaling({
        hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072, rope_theta: 500000.0,
        rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
      });
      assert.deepEqual(r, { base: 500000, rotaryDim: 128, scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 } });
      closeAll(pe.ropeInvFreq(r.rotaryDim, r), llama3Ref({}), 1e-13);
    });

    test('a YaRN model (DeepSeek-V3 style), and the older `type` key', () => {
      const r = pe.ropeScaling({
        qk_rope_head_dim: 64, head_dim: 64, max_position_embeddings: 163840, rope_theta: 10000,
        rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' },
      });
      assert.equal(r.scaling.type, 'yarn');
      assert.equal(r.scaling.originalMaxPositionEmbeddings, 4096);
      assert.equal(pe.ropeAttentionFactor(r.rotaryDim, r), 1);
      closeAll(pe.ropeInvFreq(r.rotaryDim, r), yarnRef({ factor: 40, l0: 4096, dim: 64 }), 1e-13);
      // rope_parameters (transformers v5) is read the same way
      const v5 = pe.ropeScaling({ head_dim: 64, rope_parameters: { rope_type: 'yarn', rope_theta: 10000, factor: 4, original_max_position_embeddings: 32768 } });
      assert.equal(v5.base, 10000);
      assert.equal(v5.scaling.factor, 4);
    });

    test('Phi-3 longrope', () => {
      const short = Array.from({ length: 48 }, () => 1.05), long = Array.from({ length: 48 }, (_, i) => 1 + i);
      const r = pe.ropeScaling({
        hidden_size: 3072, num_attention_heads: 32, max_position_embeddings: 131072, original_max_position_embeddings: 4096,
        rope_theta: 10000.0, rope_scaling: { long_factor: long, short_factor: short, type: 'longrope' },
      });
      assert.equal(r.rotaryDim, 96);
      const want = Math.sqrt(1 + Math.log(32) / Math.log(4096));
      assert.ok(Math.abs(pe.ropeAttentionFactor(96, r) - want) < 1e-15);
      const longInv = pe.ropeInvFreq(96, { ...r, scaling: { ...r.scaling, seqLen: 5000 } });
      closeAll(longInv, theta(96).map((t, i) => t / long[i]), 1e-13);
    });

    test('GPT-NeoX partial rotary, no scaling', () => {
      const r = pe.ropeScaling({ hidden_size: 2048, num_attention_heads: 16, rotary_pct: 0.25, rotary_emb_base: 10000, rope_scaling: null });
      assert.deepEqual(r, { base: 10000, rotaryDim: 32, scaling: null });
    });

    test('broken blocks: unknown type, missing factor, NaN, factor < 1', () => {
      const cases = [
        [{ head_dim: 64, rope_scaling: { rope_type: 'superrope', factor: 2 } }, RangeError, 'superrope'],
        [{ head_dim: 64, rope_scaling: { rope_type: 'linear' } }, TypeError, 'needs factor'],
        [{ head_dim: 64, rope_scaling: { rope_type: 'linear', factor: NaN } }, RangeError, 'factor'],
        [{ head_dim: 64, rope_scaling: { rope_type: 'dynamic', factor: 0.5 }, max_position_embeddings: 2048 }, RangeError, 'factor'],
        [{ head_dim: 64, rope_scaling: { rope_type: 'llama3', factor: 8 } }, TypeError, 'low_freq_factor'],
        [{ head_dim: 64, rope_scaling: { rope_type: 'yarn', factor: 4 } }, TypeError, 'original_max_position_embeddings'],
        [{ head_dim: 64, rope_scaling: { rope_type: 42 } }, TypeError, 'rope_type'],
        // a bare block, with the same checks
        [{ rope_type: 'superrope', factor: 2 }, RangeError, 'rope_scaling.rope_type "superrope" is unknown'],
        [{ type: 'linear', factor: '2' }, TypeError, 'rope_scaling.factor must be a number > 0'],
        [{ rope_type: 'yarn', factor: 4 }, TypeError, 'original_max_position_embeddings'],
        // the file's text is read as its object; text that holds no object is refused as such
        ['{"rope_type":"linear"}', TypeError, 'needs factor'],
        ['"linear"', TypeError, 'config must be a config.json object'],
        ['{"rope_type":', TypeError, 'not valid JSON'],
      ];
      for (const [cfg, Err, text] of cases) {
        assert.throws(() => pe.ropeScaling(cfg), (e) => e instanceof Err && e.message.includes(text), JSON.stringify(cfg));
      }
    });
  });

  describe(`precision lab (${name})`, () => {
    function emulate(positions, dim, types) {
      const inv = theta(dim);
      const cos = [], sin = [];
      for (const p of positions)
        for (const w of inv) {
          const a = ROUND[types.angle](ROUND[types.position](p) * ROUND[types.invFreq](w));
          cos.push(ROUND[types.output](Math.cos(a)));
          sin.push(ROUND[types.output](Math.sin(a)));
        }
      return { cos, sin };
    }
    const positions = [0, 1, 255, 256, 257, 1857, 4095, 15962, 60000];

    test('each mode matches a round-to-nearest-even emulation written here', () => {
      const all = (t) => ({ position: t, invFreq: t, angle: t, output: t });
      const modes = [all('f32'), all('bf16'), all('f16'), { position: 'f32', invFreq: 'bf16', angle: 'f32', output: 'f32' },
        { position: 'f64', invFreq: 'f32', angle: 'f32', output: 'bf16' }];
      for (const types of modes) {
        const got = pe.ropeCache(positions, 64, { precision: types });
        const want = emulate(positions, 64, types);
        assert.deepEqual(Array.from(got.cos), want.cos, JSON.stringify(types));
        assert.deepEqual(Array.from(got.sin), want.sin, JSON.stringify(types));
      }
    });

    test('what the field reports: fp16 and bf16 tables are off by 0.1 to 1 in the thousands; f64 is exact', () => {
      const err = (p, dim, t) => {
        const got = pe.ropeCache([p], dim, { precision: t }).cos;
        return Math.max(...theta(dim).map((w, i) => Math.abs(got[i] - Math.cos(p * w))));
      };
      assert.ok(err(1857, 32, 'f16') > 0.1, 'fp16, dim 32, position 1857');
      assert.ok(err(15962, 128, 'bf16') > 0.1, 'bf16 at position 15962');
      assert.ok(err(1e6, 128, 'f64') < 1e-6, 'float64 at 1e6');
      assert.ok(err(1e6, 128, 'f32') > 1e-3, 'float32 angles lose digits at 1e6');
      // cast inv_freq to bf16 early, then multiply in f32: 0.83 off by position 4095
      assert.ok(err(4095, 128, { position: 'f32', invFreq: 'bf16', angle: 'f32', output: 'f32' }) > 0.5);
    });

    test('what section 19 says of float16 at 1857 (d 32): the position is exact, θ_1 and the angle carry the error', () => {
      const dim = 32, p = 1857, w = theta(dim);
      const pairErr = (t, i) => {
        const { cos, sin } = pe.ropeCache([p], dim, { precision: t });
        return Math.max(Math.abs(cos[i] - Math.cos(p * w[i])), Math.abs(sin[i] - Math.sin(p * w[i])));
      };
      assert.equal(ROUND.f16(p), p, '1857 is a float16 number');
      assert.ok(pairErr({ position: 'f16' }, 1) < 1e-12, 'rounding only the position changes nothing');
      // θ_1 ≈ 0.5623 becomes 0.5625, which moves the angle (about 1044) by 0.29; 1044.56 then rounds to 1045
      assert.equal(w[1].toFixed(4), '0.5623');
      assert.equal(ROUND.f16(w[1]), 0.5625);
      assert.equal(Math.round(p * w[1]), 1044);
      assert.equal((p * (0.5625 - w[1])).toFixed(2), '0.29');
      assert.equal((p * 0.5625).toFixed(2), '1044.56');
      assert.equal(ROUND.f16(p * 0.5625), 1045);
      assert.equal((1045 - p * w[1]).toFixed(2), '0.73');
      // and that is the table's largest error there, the one the chart reads out
      const all = Array.from(w, (_, i) => pairErr('f16', i));
      assert.equal(all.indexOf(Math.max(...all)), 1);
      assert.ok(Math.abs(all[1] - 2 * Math.sin(0.732 / 2)) < 0.01, `pair 1: ${all[1]}`);
      // the growing gap: whole numbers only between 1024 and 2048 in float16, 128 and 256 in bfloat16
      assert.equal(ROUND.f16(1044.5625), 1045);
      assert.equal(ROUND.f16(2049), 2048);
      assert.equal(ROUND.bf16(128.5), 128);
      assert.equal(ROUND.bf16(257), 256);
      // the relative rounding of θ_i: at most 0.05 % in float16, 0.4 % in bfloat16
      for (const [t, bound] of [['f16', 0.0005], ['bf16', 0.004]]) {
        for (const x of w) assert.ok(Math.abs(ROUND[t](x) - x) / x <= bound, `${t} ${x}`);
      }
      // pair 0 (θ_0 = 1) is exact until the position itself rounds: 256 in bfloat16, 2048 in float16
      const pair0 = (t, q) => Math.abs(pe.ropeCache([q], dim, { precision: t }).cos[0] - Math.cos(q));
      assert.ok(pair0('bf16', 256) < 0.005 && pair0('bf16', 257) > 0.1);
      assert.ok(pair0('f16', 2048) < 0.001 && pair0('f16', 2049) > 0.1);
    });

    test('a position that does not fit its type is refused, not turned into NaN', () => {
      assert.throws(() => pe.ropeCache([70000], 8, { precision: 'f16' }), RangeError);
      assert.throws(() => pe.ropeCache([1], 8, { precision: 'f8' }), (e) => e instanceof RangeError && e.message.startsWith('precision must be one of'));
    });
  });

  describe(`ALiBi and tensor2tensor (${name})`, () => {
    test('slopes: 2^(-8h/n) for powers of two, interleaved otherwise', () => {
      closeAll(pe.alibiSlopes(8), Array.from({ length: 8 }, (_, h) => 2 ** (-(h + 1))), 0);
      closeAll(pe.alibiSlopes(12), [...Array.from({ length: 8 }, (_, h) => 2 ** (-(h + 1))),
        ...[0, 2, 4, 6].map((h) => 2 ** (-8 * (h + 1) / 16))], 1e-15);
      const bias = pe.alibiBias(2, 3), m = pe.alibiSlopes(2);
      assert.deepEqual(Array.from(bias.subarray(9, 18)), [0, 0, 0, -m[1], 0, 0, -2 * m[1], -m[1], 0].map(Math.fround));
    });

    test("tensor2tensor layout: [sin | cos] with w_i = base^(-i/(d/2 - 1))", () => {
      const [L, D] = [5, 8], t = pe.sinusoidal(L, D, { layout: 'tensor2tensor' });
      for (let p = 0; p < L; p++)
        for (let i = 0; i < D / 2; i++) {
          const w = Math.exp((-i * Math.log(BASE)) / (D / 2 - 1));
          assert.ok(Math.abs(t[p * D + i] - Math.sin(p * w)) < 1e-7);
          assert.ok(Math.abs(t[p * D + D / 2 + i] - Math.cos(p * w)) < 1e-7);
        }
      assert.ok(Math.abs(t[1 * D + 3] - Math.sin(1e-4)) < 1e-9, 'slowest frequency exactly 1/base');
    });
  });
}
