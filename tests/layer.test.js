// pe.layerAttention and pe.pairEnergy against a float64 reference written here from the
// formulas of transformers' Llama, Qwen2 and Qwen3 attention (RMSNorm, projections with biases,
// per-head q/k norms before RoPE, rotate_half RoPE, GQA, causal softmax), on models built in
// tests/weights-fixtures.js and read through readSafetensors + readLayer, both builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './reference.js';
import { readSafetensors, readLayer } from '../web/lib/posenc.js';
import { layerModel, buildSafetensors, rng } from './weights-fixtures.js';

/** Layer attention in float64 from the formulas. inv: θ_i (default base^(-2i/d)); attn: YaRN's factor on cos and sin. */
function reference(config, x, w, positions, { inv, attn = 1 } = {}) {
  const H = config.hidden_size, nh = config.num_attention_heads, nkv = config.num_key_value_heads ?? nh;
  const d = config.head_dim ?? H / nh, eps = config.rms_norm_eps ?? 1e-6, T = x.length / H;
  const theta = inv ?? Array.from({ length: d / 2 }, (_, i) => config.rope_theta ** (-2 * i / d));
  const norm = (v, g) => {
    const ms = v.reduce((s, a) => s + a * a, 0) / v.length;
    return v.map((a, j) => (a / Math.sqrt(ms + eps)) * g[j]);
  };
  const proj = (hv, W, b, n) => Array.from({ length: n }, (_, o) => {
    let s = b ? b[o] : 0;
    for (let j = 0; j < H; j++) s += W[o * H + j] * hv[j];
    return s;
  });
  const heads = (W, b, g, n, t, hv) => {
    const v = proj(hv, W, b, n * d);
    return Array.from({ length: n }, (_, h) => {
      let u = v.slice(h * d, (h + 1) * d);
      if (g) u = norm(u, g);
      const out = u.slice();
      for (let i = 0; i < d / 2; i++) {
        const a = positions[t] * theta[i], c = Math.cos(a) * attn, s = Math.sin(a) * attn;
        out[i] = u[i] * c - u[i + d / 2] * s;
        out[i + d / 2] = u[i + d / 2] * c + u[i] * s;
      }
      return out;
    });
  };
  const q = [], k = [];
  for (let t = 0; t < T; t++) {
    const hv = norm(Array.from(x.subarray(t * H, (t + 1) * H)), w.inputNorm);
    q.push(heads(w.q, w.qBias, w.qNorm, nh, t, hv));
    k.push(heads(w.k, w.kBias, w.kNorm, nkv, t, hv));
  }
  const scores = [], weights = [], bound = [];
  for (let h = 0; h < nh; h++) {
    const g = Math.floor(h / (nh / nkv));
    for (let i = 0; i < T; i++) {
      const row = [], rb = [];
      for (let j = 0; j <= i; j++) {
        row.push(q[i][h].reduce((s, a, e) => s + a * k[j][g][e], 0) / Math.sqrt(d));
        rb.push(Math.hypot(...q[i][h]) * Math.hypot(...k[j][g]) / Math.sqrt(d));
      }
      const mx = Math.max(...row), ex = row.map((s) => Math.exp(s - mx)), sum = ex.reduce((a, b) => a + b, 0);
      for (let j = 0; j < T; j++) {
        scores.push(j <= i ? row[j] : -Infinity);
        weights.push(j <= i ? ex[j] / sum : 0);
        bound.push(j <= i ? rb[j] : 0);
      }
    }
  }
  return { q, k, scores, weights, bound, d, nh, nkv, T };
}

/** The largest error of the scores relative to ‖q‖‖k‖/√d (the size of the terms they sum), and of the weights. */
function compare(got, ref, what) {
  let es = 0, ew = 0, eq = 0, en = 0;
  for (let n = 0; n < ref.scores.length; n++) {
    if (ref.scores[n] === -Infinity) {
      assert.equal(got.scores[n], -Infinity, `${what}: masked score ${n}`);
      assert.equal(got.weights[n], 0, `${what}: masked weight ${n}`);
      continue;
    }
    es = Math.max(es, Math.abs(got.scores[n] - ref.scores[n]) / ref.bound[n]);
    ew = Math.max(ew, Math.abs(got.weights[n] - ref.weights[n]));
  }
  const { d, nh, nkv, T } = ref;
  for (const [name, n, vecs] of [['q', nh, ref.q], ['k', nkv, ref.k]]) {
    for (let t = 0; t < T; t++)
      for (let h = 0; h < n; h++) {
        const v = vecs[t][h], size = Math.hypot(...v);
        for (let e = 0; e < d; e++) eq = Math.max(eq, Math.abs(got[name][(t * n + h) * d + e] - v[e]) / size);
        for (let i = 0; i < d / 2; i++) {
          const want = Math.hypot(v[i], v[i + d / 2]);
          en = Math.max(en, Math.abs(got.pairNorms[name][(h * (d / 2) + i) * T + t] - want) / size);
        }
      }
  }
  assert.ok(es <= 1e-5, `${what}: scores off by ${es.toExponential(2)} of ‖q‖‖k‖/√d`);
  assert.ok(ew <= 1e-5, `${what}: weights off by ${ew.toExponential(2)}`);
  assert.ok(eq <= 1e-5 && en <= 1e-5, `${what}: q/k off by ${eq.toExponential(2)}, pair norms by ${en.toExponential(2)}`);
  return es;
}

const tokens = [3, 17, 0, 39, 22, 22, 8, 11, 30, 5, 14, 1];

for (const [name, pe] of await builds) {
  test(`layerAttention: Llama, Qwen2 and Qwen3 layer 0 from safetensors, F32 and BF16, match float64 within 1e-5 (${name})`, async (t) => {
    for (const kind of ['llama', 'qwen2', 'qwen3']) {
      for (const dtype of ['F32', 'BF16']) {
        const m = layerModel(kind, { dtype, seed: 7 });
        const st = await readSafetensors(buildSafetensors(m.tensors).bytes);
        const { x, weights } = await readLayer(st, { tokens });
        assert.deepEqual(Object.keys(weights).sort(), { llama: ['inputNorm', 'k', 'q'], qwen2: ['inputNorm', 'k', 'kBias', 'q', 'qBias'], qwen3: ['inputNorm', 'k', 'kNorm', 'q', 'qNorm'] }[kind]);
        const got = pe.layerAttention({ config: m.config, x, weights });
        const positions = tokens.map((_, i) => i);
        const e = compare(got, reference(m.config, x, weights, positions), `${kind} ${dtype}`);
        t.diagnostic(`${kind} ${dtype}: scores within ${e.toExponential(2)} of ‖q‖‖k‖/√d`);
        assert.equal(got.length, tokens.length);
        assert.equal(got.style, 'half');
        // rows sum to 1
        for (let r = 0; r < got.heads * tokens.length; r++) {
          const s = got.weights.subarray(r * tokens.length, (r + 1) * tokens.length).reduce((a, b) => a + b, 0);
          assert.ok(Math.abs(s - 1) < 1e-6);
        }
      }
    }
  });

  test(`layerAttention: positions past the training length, a scaling override and the config's own scaling (${name})`, async () => {
    const m = layerModel('qwen2', { seed: 3 });
    const st = await readSafetensors(buildSafetensors(m.tensors).bytes);
    const { x, weights } = await readLayer(st, { tokens });
    const far = tokens.map((_, i) => 5000 + 7 * i);
    compare(pe.layerAttention({ config: m.config, x, weights, positions: far }), reference(m.config, x, weights, far), 'far positions');
    // PI: θ_i / 4
    const d = 8, pi = Array.from({ length: d / 2 }, (_, i) => m.config.rope_theta ** (-2 * i / d) / 4);
    compare(pe.layerAttention({ config: m.config, x, weights, positions: far, scaling: { type: 'linear', factor: 4 } }), reference(m.config, x, weights, far, { inv: pi }), 'PI override');
    // the config's YaRN (θ_i and the attention factor from the kernels tested in scaling.test.js)
    const yarn = { ...m.config, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32 } };
    const s = pe.ropeScaling(yarn);
    const inv = Array.from(pe.ropeInvFreq(d, s)), attn = pe.ropeAttentionFactor(d, s);
    assert.ok(attn > 1);
    const got = pe.layerAttention({ config: yarn, x, weights, positions: far });
    compare(got, reference(m.config, x, weights, far, { inv, attn }), 'config YaRN');
    assert.equal(got.scaling.type, 'yarn');
    // null: plain RoPE whatever the config says
    compare(pe.layerAttention({ config: yarn, x, weights, positions: far, scaling: null }), reference(m.config, x, weights, far), 'scaling null');
  });

  test(`pair layout: the rows h·d + i and h·d + i + d/2 of q_proj form pair i (half), as pairEnergy and pairNorms say (${name})`, () => {
    const m = layerModel('llama', { seed: 11 });
    const w = Object.fromEntries(Object.entries({ inputNorm: 'input_layernorm', q: 'self_attn.q_proj', k: 'self_attn.k_proj' }).map(([k, n]) => [k, m.byName[`model.layers.0.${n}.weight`].data]));
    const { hidden_size: H, num_attention_heads: nh, num_key_value_heads: nkv } = m.config;
    const d = 8;
    // keep only head 1's rows 2 and 2 + d/2 of W_q: every other pair of every head carries nothing
    const q = new Float32Array(w.q.length);
    for (const r of [d + 2, d + 2 + d / 2]) q.set(w.q.subarray(r * H, (r + 1) * H), r * H);
    const E = pe.pairEnergy(q, { heads: nh, headDim: d, style: 'half' });
    const want = new Float64Array(nh * d / 2);
    for (const r of [d + 2, d + 2 + d / 2]) for (let j = 0; j < H; j++) want[d / 2 + 2] += w.q[r * H + j] ** 2;
    E.forEach((v, n) => assert.ok(Math.abs(v - want[n]) <= 1e-12 * (1 + want[n]), `energy ${n}: ${v} vs ${want[n]}`));
    assert.ok(want[d / 2 + 2] > 0);
    // interleaved: the same rows are pairs 1 (rows 2, 3) and 3 (rows 6, 7) instead
    const Ei = pe.pairEnergy(q, { heads: nh, headDim: d, style: 'interleaved' });
    assert.deepEqual([...Ei].map((v, n) => (v > 0 ? n : -1)).filter((n) => n >= 0), [d / 2 + 1, d / 2 + 3]);
    const x = m.byName['model.embed_tokens.weight'].data.subarray(0, 5 * H);
    const got = pe.layerAttention({ config: m.config, x, weights: { ...w, q } });
    got.pairNorms.q.forEach((v, n) => {
      const h = Math.floor(n / (d / 2 * 5)), i = Math.floor(n / 5) % (d / 2);
      if (!(h === 1 && i === 2)) assert.equal(v, 0, `pair norm ${n}`);
      else assert.ok(v > 0);
    });
    assert.equal(got.pairNorms.k.length, nkv * (d / 2) * 5);
  });

  test(`layerAttention and pairEnergy refuse bad input, naming it (${name})`, () => {
    const m = layerModel('qwen3', { seed: 2 });
    const w = { inputNorm: m.byName['model.layers.0.input_layernorm.weight'].data, q: m.byName['model.layers.0.self_attn.q_proj.weight'].data, k: m.byName['model.layers.0.self_attn.k_proj.weight'].data, qNorm: m.byName['model.layers.0.self_attn.q_norm.weight'].data, kNorm: m.byName['model.layers.0.self_attn.k_norm.weight'].data };
    const x = new Float32Array(3 * 32).fill(0.5);
    const ok = { config: m.config, x, weights: w };
    const before = pe.heapBytes().inUse - pe.heapBytes().cached;
    const cases = [
      [{ config: undefined }, TypeError, /config is required/],
      [{ config: { ...m.config, model_type: 'gemma2' } }, RangeError, /config.model_type "gemma2" is not supported/],
      [{ config: { ...m.config, model_type: undefined } }, TypeError, /config.model_type is missing/],
      [{ config: { ...m.config, hidden_size: undefined } }, TypeError, /config.hidden_size is missing/],
      [{ config: { ...m.config, num_key_value_heads: 3 } }, RangeError, /multiple of config.num_key_value_heads/],
      [{ config: '{"__proto__": {}}' }, RangeError, /__proto__/],
      [{ x: undefined }, TypeError, /x is required/],
      [{ x: new Float32Array(33) }, RangeError, /x.length must be a multiple of config.hidden_size = 32/],
      [{ x: Float32Array.from(x, (v, i) => (i === 5 ? NaN : v)) }, RangeError, /x\[5\]/],
      [{ x: 'abc' }, TypeError, /^x must be/],
      [{ weights: undefined }, TypeError, /weights is required/],
      [{ weights: { ...w, qNorm: undefined } }, TypeError, /weights.qNorm is required for config.model_type "qwen3"/],
      [{ weights: { ...w, qBias: new Float32Array(64) } }, TypeError, /weights.qBias does not belong to config.model_type "qwen3"/],
      [{ weights: { ...w, q: w.q.subarray(1) } }, RangeError, /weights.q must have length 2048/],
      [{ weights: { ...w, kNorm: Float32Array.from(w.kNorm, (v, i) => (i ? v : Infinity)) } }, RangeError, /weights.kNorm\[0\]/],
      [{ weights: { ...w, qnorm: w.qNorm } }, TypeError, /no key "qnorm"; did you mean "qNorm"/],
      [{ positions: [0, 1] }, RangeError, /positions must have length 3/],
      [{ positions: [0, -1, 2] }, RangeError, /positions\[1\]/],
      [{ scaling: { type: 'linear', factor: 0 } }, RangeError, /factor/],
      [{ postions: [0, 1, 2] }, TypeError, /did you mean "positions"/],
    ];
    for (const [change, Err, re] of cases) assert.throws(() => pe.layerAttention({ ...ok, ...change }), (e) => e instanceof Err && re.test(e.message), re.source);
    assert.throws(() => pe.layerAttention({ ...ok, config: { ...m.config, model_type: 'llama', no_rope_layers: [0, 1] } }), /^RangeError: config: layer 0 of this model uses no positional encoding \(NoPE\)/);
    assert.throws(() => pe.layerAttention({ ...ok, config: { ...m.config, sliding_window: 2 } }), /^RangeError: x has 3 tokens, more than config.sliding_window \(2\)/);
    pe.layerAttention({ ...ok, config: { ...m.config, sliding_window: 2, use_sliding_window: false } });
    pe.layerAttention({ ...ok, config: { ...m.config, sliding_window: 3 } });
    assert.throws(() => pe.pairEnergy(w.q, { heads: 4, headDim: 16 }), /^TypeError: style is required/);
    assert.throws(() => pe.pairEnergy(w.q.subarray(1), { heads: 4, headDim: 16, style: 'half' }), /^RangeError: W.length must be a multiple of heads × headDim = 64/);
    assert.throws(() => pe.pairEnergy(w.q, { heads: 4, headDim: 16, style: 'half', rotaryDim: 18 }), /^RangeError: rotaryDim/);
    assert.equal(pe.heapBytes().inUse - pe.heapBytes().cached, before, 'refused calls left the heap as it was');
    pe.layerAttention(ok);
  });
}

test('readLayer reads only the layer\'s tensors and the tokens\' rows', async () => {
  // (an embedding table larger than the first read, 64 KiB, so that every read below is a read of its own)
  const m = layerModel('qwen2', { seed: 4, vocab: 1200 });
  const bytes = buildSafetensors(m.tensors).bytes;
  const st = await readSafetensors(bytes);
  const before = st.bytesRead;
  const { x, weights } = await readLayer(st, { tokens: [1100, 1100, 1150] });
  const H = m.config.hidden_size;
  assert.equal(x.length, 3 * H);
  const expected = ['input_layernorm.weight', 'self_attn.q_proj.weight', 'self_attn.k_proj.weight', 'self_attn.q_proj.bias', 'self_attn.k_proj.bias']
    .reduce((s, n) => s + st.info(`model.layers.0.${n}`).byteLength, 0) + 2 * H * 4;
  assert.equal(st.bytesRead - before, expected, 'no v_proj, no other embedding rows');
  assert.equal(weights.v, undefined);
  await assert.rejects(readLayer(st, { layer: 1 }), /no tensor "model.layers.1.input_layernorm.weight"/);
  await assert.rejects(readLayer({}, {}), /^TypeError: file must be what readSafetensors\(\) resolves to/);
});

test('real models\' sizes: SmolLM2-135M (576 wide, 9 heads over 3, d = 64) and Qwen3-0.6B (1024 wide, 16 heads over 8, d = 128)', async (t) => {
  const [[, pe]] = await builds;
  for (const [kind, dims] of [
    ['llama', { hidden_size: 576, num_attention_heads: 9, num_key_value_heads: 3, head_dim: 64, rope_theta: 100000, max_position_embeddings: 8192 }],
    ['qwen3', { hidden_size: 1024, num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128, rope_theta: 1000000 }],
  ]) {
    const m = layerModel(kind, { dtype: 'BF16', seed: 8, dims });
    const st = await readSafetensors(buildSafetensors(m.tensors).bytes);
    const toks = [5, 31, 0, 17, 17, 2];
    const { x, weights } = await readLayer(st, { tokens: toks });
    const positions = toks.map((_, i) => 8000 + i);
    const e = compare(pe.layerAttention({ config: m.config, x, weights, positions }), reference(m.config, x, weights, positions), kind);
    t.diagnostic(`${kind} at real sizes: scores within ${e.toExponential(2)} of ‖q‖‖k‖/√d`);
  }
});

test('a random-weights fuzz of shapes: every layout and GQA ratio stays within 1e-5', async () => {
  const [[, pe]] = await builds;
  const rand = rng(77);
  for (let iter = 0; iter < 12; iter++) {
    const kind = ['llama', 'qwen2', 'qwen3'][iter % 3];
    const m = layerModel(kind, { seed: 100 + iter });
    const st = await readSafetensors(buildSafetensors(m.tensors).bytes);
    const T = 1 + Math.floor(rand() * 20);
    const toks = Array.from({ length: T }, () => Math.floor(rand() * 40));
    const positions = toks.map((_, i) => Math.floor(rand() * 3) + 3 * i);
    const { x, weights } = await readLayer(st, { tokens: toks });
    compare(pe.layerAttention({ config: m.config, x, weights, positions }), reference(m.config, x, weights, positions), `${kind} T=${T}`);
  }
});
