// pe.ropeVectors: the sequence length each row and the pair are at (p + 1 by default, one seqLen
// for a whole forward pass), checked against LongRoPE computed here in float64 from Phi-3.5's
// config; the default positions reach the context the model is for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc, MODELS } from '../web/lib/posenc.js';

const pe = await loadPosenc();
const config = (id) => MODELS.find((m) => m.id === id).config;

/** LongRoPE in float64 as transformers computes it: the row of position p in a sequence of n tokens. */
function longrope(cfg, p, n) {
  const d = cfg.hidden_size / cfg.num_attention_heads, L0 = cfg.original_max_position_embeddings;
  const ext = n > L0 ? cfg.rope_scaling.long_factor : cfg.rope_scaling.short_factor;
  const r = cfg.max_position_embeddings / L0, af = Math.sqrt(1 + Math.log(r) / Math.log(L0));
  const inv = ext.map((e, i) => 1 / (e * cfg.rope_theta ** ((2 * i) / d)));
  return { cos: inv.map((t) => af * Math.cos(p * t)), sin: inv.map((t) => af * Math.sin(p * t)), inv };
}
const far = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
/** q · k after RoPE ('half' pairs) from the float64 rows above. */
function score(q, k, rq, rk) {
  const h = rq.cos.length, turn = (x, r) => {
    const y = [...x];
    for (let i = 0; i < h; i++) (y[i] = x[i] * r.cos[i] - x[i + h] * r.sin[i]), (y[i + h] = x[i] * r.sin[i] + x[i + h] * r.cos[i]);
    return y;
  };
  const a = turn(q, rq), b = turn(k, rk);
  return a.reduce((s, v, i) => s + v * b[i], 0);
}

test('Phi-3.5: by default each row is at p + 1; with seqLen every row and the pair are at that length', () => {
  const cfg = config('phi-3.5-mini'), p = 100000;
  const byRow = pe.ropeVectors(cfg, { positions: [p] }), one = pe.ropeVectors(cfg, { positions: [p], seqLen: p + 1 });
  assert.equal(byRow.seqLen, null);
  assert.equal(one.seqLen, p + 1);
  for (const [v, at, top] of [[byRow, (x) => x + 1, 131071], [one, () => p + 1, p]]) {
    const lt = v.layerTypes.full_attention;
    for (const row of lt.positions) {
      const ref = longrope(cfg, row.position, at(row.position));
      assert.equal(row.seqLen, at(row.position));
      assert.ok(far(row.cos, ref.cos) < 1e-9 && far(row.sin, ref.sin) < 1e-9, `cos/sin at ${row.position}`);
      assert.ok(row.invFreq.every((t, i) => Math.abs(t / ref.inv[i] - 1) < 1e-14), `θ at ${row.position}`);
    }
    const { qPosition, kPosition, q, k } = lt.pair;
    assert.deepEqual([qPosition, kPosition], [top, 1]);
    const want = score(q, k, longrope(cfg, qPosition, at(qPosition)), longrope(cfg, kPosition, at(kPosition)));
    assert.ok(Math.abs(lt.pair.score - want) < 1e-9 * Math.max(1, Math.abs(want)), `score ${lt.pair.score} vs ${want}`);
  }
  // rows below L0 take the short factors by default, the long ones in a sequence past L0
  assert.notEqual(byRow.layerTypes.full_attention.positions[1].cos[40], one.layerTypes.full_attention.positions[1].cos[40]);
  // derived positions a sequence of seqLen tokens does not reach are left out (131071 here)
  assert.deepEqual(one.layerTypes.full_attention.positions.map((r) => r.position), [0, 1, 4095, 4096, 4097, p]);
});

test('seqLen is refused by name unless it is an integer past every position asked for', () => {
  const cfg = config('phi-3.5-mini');
  assert.throws(() => pe.ropeVectors(cfg, { positions: [5, 100000], seqLen: 100000 }),
    /^RangeError: seqLen \(100000\) must exceed every position asked for: positions\[1\] is 100000$/);
  assert.throws(() => pe.ropeVectors(cfg, { seqLen: 0 }), /^RangeError: seqLen must be in/);
  assert.throws(() => pe.ropeVectors(cfg, { seqLen: 1.5 }), /^TypeError: seqLen must be an integer/);
  assert.throws(() => pe.ropeVectors(cfg, { seqlen: 10 }), /seqlen/);
});

test('default positions: 0, 1, L0 − 1, L0, L0 + 1 and the last of the context the model is for', () => {
  const at = (id) => Object.fromEntries(Object.entries(pe.ropeVectors(config(id)).layerTypes).map(([k, lt]) => [k, lt.positions.map((r) => r.position)]));
  // Qwen2.5's YaRN ×4 block (original = max = 32768) is for 4 × 32768 tokens
  const qwen = { model_type: 'qwen2', hidden_size: 512, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 32768,
    rope_theta: 1e6, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } };
  assert.deepEqual(pe.ropeVectors(qwen).layerTypes.full_attention.positions.map((r) => r.position), [0, 1, 32767, 32768, 32769, 131071]);
  assert.deepEqual(at('phi-3.5-mini').full_attention, [0, 1, 4095, 4096, 4097, 131071]);
  const plain = { ...qwen, rope_scaling: undefined };
  assert.deepEqual(pe.ropeVectors(plain).layerTypes.full_attention.positions.map((r) => r.position), [0, 1, 32767]);
  // dynamic NTK ×2 grows its base past max_position_embeddings (its L0): the rows and the pair reach 2 × 32768,
  // where the pair's score is no longer plain RoPE's
  const dynamic = { ...qwen, rope_scaling: { rope_type: 'dynamic', factor: 2 } };
  const lt = pe.ropeVectors(dynamic).layerTypes.full_attention;
  assert.deepEqual(lt.positions.map((r) => [r.position, r.seqLen]), [[0, 1], [1, 2], [32767, 32768], [32768, 32769], [32769, 32770], [65535, 65536]]);
  assert.equal(lt.pair.qPosition, 65535);
  const last = lt.positions.at(-1), d = 128, base = 1e6 * (2 * 65536 / 32768 - 1) ** (d / (d - 2));
  assert.ok(Math.abs(last.invFreq[1] - base ** (-2 / d)) < 1e-15 * base ** (-2 / d), `θ₁ at length 65536: ${last.invFreq[1]}`);
  const unscaled = pe.ropeVectors(plain, { positions: [65535] }).layerTypes.full_attention.pair;
  assert.equal(unscaled.qPosition, 65535);
  assert.ok(Math.abs(lt.pair.score - unscaled.score) > 1e-3, `the pair's score moves with the scaling: ${lt.pair.score} against ${unscaled.score}`);
});

test('a position asked for at or past the context the model is for is listed, with a warning per layer type it lies past', () => {
  const qwen = { model_type: 'qwen2', hidden_size: 512, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 32768, rope_theta: 1e6 };
  const past = (v) => v.warnings.filter((w) => w.code === 'position-past-context').map((w) => w.message);
  assert.deepEqual(past(pe.ropeVectors(qwen, { positions: [5, 32767] })), []);
  const v = pe.ropeVectors(qwen, { positions: [5, 32768, 40000] });
  assert.deepEqual(v.layerTypes.full_attention.positions.map((r) => r.position), [0, 1, 5, 32767, 32768, 40000]);
  assert.deepEqual(past(v), ['positions 32768, 40000 lie past the 32768 tokens the model is for: the formula gives their rows, but no model was trained there']);
  // dynamic NTK ×2 is for 2 × 32768 tokens; Gemma 3's two layer types are each for 131072
  const dynamic = { ...qwen, rope_scaling: { rope_type: 'dynamic', factor: 2 } };
  assert.deepEqual(past(pe.ropeVectors(dynamic, { positions: [40000] })), []);
  assert.deepEqual(past(pe.ropeVectors(dynamic, { positions: [65536] })), ['position 65536 lies past the 65536 tokens the model is for: the formula gives its rows, but no model was trained there']);
  const gemma = pe.ropeVectors(config('gemma-3-4b'), { positions: [131072] });
  assert.deepEqual(past(gemma).map((m) => m.match(/the layer type (\w+)/)[1]).sort(), Object.keys(gemma.layerTypes).sort());
});

test('each layer type\'s vectors say the context length they reach, as ropeConfig gives it: Qwen2.5\'s YaRN ×4 is for 131072', () => {
  const qwen = { model_type: 'qwen2', hidden_size: 512, num_attention_heads: 4, num_hidden_layers: 2, max_position_embeddings: 32768, rope_theta: 1e6 };
  for (const [cfg, context] of [[{ ...qwen, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } }, 131072], [qwen, 32768]]) {
    const v = pe.ropeVectors(cfg), lt = v.layerTypes.full_attention;
    assert.equal(v.maxPositionEmbeddings, 32768);
    assert.equal(lt.contextLength, context);
    assert.equal(lt.contextLength, pe.ropeConfig(cfg).layerTypes.full_attention.contextLength);
    assert.equal(lt.positions.at(-1).position, context - 1, 'the last default row is the context\'s last position');
  }
});
