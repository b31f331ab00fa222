// pe.train (web/lib/lab.js): options and their defaults, caps and refusals, the run object
// (step in slices, evaluate, attention, free), the heap budget and the leak rule, determinism
// in both builds, and SIMD against scalar: the two builds train to the same bits (tolerance 0:
// the lab's SIMD GEMM sums in the scalar form's order and wasm has no FMA; see
// tests/lab-model.test.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../web/lib/posenc.js';
import { builds } from './reference.js';

const [[, simd], [, scalar]] = await builds;
const bits = (a) => new Uint32Array(Float32Array.from(a).buffer);
const f64bits = (a) => Array.from(new BigUint64Array(Float64Array.from(a).buffer));

test('defaults: the lab\'s default model; run.options has every default filled in', () => {
  const run = simd.train({ encoding: 'rope', style: 'half', steps: 3 });
  try {
    assert.deepEqual({ ...run.options }, {
      task: 'kback', encoding: 'rope', style: 'half', k: 3, base: 10000, vocab: 18, dModel: 32, heads: 4, layers: 2,
      dFF: 128, trainLength: 16, maxEvalLength: 128, batch: 32, lr: 3e-3, warmupSteps: 100, schedule: 'constant',
      weightDecay: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, clipNorm: 0, seed: 1, steps: 3,
    });
    assert.equal(run.steps, 3);
    assert.equal(run.loss.length, 3);
    assert.ok(run.loss.every((x) => x > 2 && x < 4), 'initial losses near ln 18');
    assert.equal(run.layers, 2);
    assert.equal(run.heads, 4);
  } finally {
    run.free();
  }
  const t = simd.train({ encoding: 'learned', task: 'copy', steps: 0 });
  assert.equal(t.options.maxPositions, 512);
  assert.equal(t.options.k, undefined);
  assert.equal(t.steps, 0);
  t.free();
});

test('bad options: a TypeError or RangeError naming them; caps; unknown keys; nothing left in the heap', () => {
  const before = simd.heapBytes().inUse;
  const bad = [
    [undefined, /encoding is required/],
    [{}, /encoding is required/],
    [{ encoding: 'rotary' }, /encoding must be one of/],
    [{ encoding: 'rope' }, /style is required for encoding "rope"/],
    [{ encoding: 'xpos' }, /style is required for encoding "xpos"/],
    [{ encoding: 'alibi', style: 'half' }, /style applies only to encodings 'rope' and 'xpos'/],
    [{ encoding: 'rope', style: 'neox' }, /style must be one of/],
    [{ encoding: 'none', task: 'sort' }, /task must be one of/],
    [{ encoding: 'none', task: 'copy', k: 2 }, /k applies only to task 'kback'/],
    [{ encoding: 'none', base: 500 }, /base applies only to/],
    [{ encoding: 'rope', style: 'half', scaleBase: 5 }, /scaleBase applies only to encoding 'xpos'/],
    // 128 tokens (maxEvalLength 8 × 16): ζ^(65/scaleBase) passes e^15 below 65·ln 3.5/15 = 5.429
    [{ encoding: 'xpos', style: 'half', scaleBase: 5.4 }, /scaleBase must be >= 5\.429 for sequences of 128 tokens/],
    [{ encoding: 'xpos', style: 'half', scaleBase: 1e-3, trainLength: 4, maxEvalLength: 4 }, /scaleBase must be >= 0\.2506/],
    [{ encoding: 'none', dModel: 512 }, /dModel must be in \[2, 256\]/],
    [{ encoding: 'none', layers: 9 }, /layers must be in \[1, 8\]/],
    [{ encoding: 'none', heads: 32 }, /heads must be in \[1, 16\]/],
    [{ encoding: 'none', dModel: 30, heads: 4 }, /dModel \(30\) must be a multiple of heads \(4\)/],
    [{ encoding: 'rope', style: 'half', dModel: 12, heads: 4 }, /dModel \/ heads \(3\) must be even/],
    [{ encoding: 'none', trainLength: 257 }, /trainLength must be in \[1, 256\]/],
    [{ encoding: 'none', k: 5, trainLength: 4 }, /k \(5\) must be <= trainLength \(4\)/],
    [{ encoding: 'none', maxEvalLength: 1025 }, /maxEvalLength must be in \[1, 1024\]/],
    [{ encoding: 'none', vocab: 65 }, /vocab must be in \[18, 64\]/],
    [{ encoding: 'none', dFF: 2048 }, /dFF must be in \[1, 1024\]/],
    [{ encoding: 'none', batch: 0 }, /batch must be in \[1, 256\]/],
    [{ encoding: 'none', steps: 10001 }, /steps must be in \[0, 10000\]/],
    [{ encoding: 'none', steps: 1.5 }, /steps must be an integer/],
    [{ encoding: 'none', lr: NaN }, /lr must be finite/],
    [{ encoding: 'none', seed: -1 }, /seed must be in/],
    [{ encoding: 'learned', maxPositions: 100 }, /maxPositions must be >= 128/],
    [{ encoding: 'none', totalSteps: 5 }, /totalSteps applies only to schedule "cosine"/],
    [{ encoding: 'none', d_model: 8 }, /train's options has no key "d_model"; did you mean "dModel"\?/],
    [{ encoding: 'none', zzz: 1 }, /train's options has no key "zzz"/],
    [5, /options must be an options object/],
  ];
  for (const [o, re] of bad) assert.throws(() => simd.train(o), (e) => (e instanceof TypeError || e instanceof RangeError) && re.test(e.message), JSON.stringify(o));
  assert.equal(simd.heapBytes().inUse, before);
});

// k 5 at trainLength 6: drawing lengths from 1..6 would leave 4 steps in 6 with no token to score
// (a loss of exactly 0 and no gradient); drawn from 5..6 every step scores, in training and fine-tuning.
test('every step trains: k-back draws only lengths k.. that carry loss', () => {
  const run = simd.train({ encoding: 'alibi', k: 5, trainLength: 6, maxEvalLength: 8, dModel: 8, heads: 2, layers: 1, batch: 2, steps: 60, seed: 5 });
  try {
    assert.ok(run.loss.every((x) => Number.isFinite(x) && x > 0), `losses ${run.loss}`);
    const tuned = run.step(20, { length: 8 });
    assert.ok(tuned.every((x) => Number.isFinite(x) && x > 0), `fine-tuning losses ${tuned}`);
    run.step(1, { length: 5 }); // the shortest length that scores
  } finally {
    run.free();
  }
});

test('the run: step(n) in slices gives the bits of one call; evaluate and attention; free, TypeError after, no leak', () => {
  const before = simd.heapBytes().inUse;
  const o = { encoding: 'xpos', style: 'interleaved', task: 'copy', trainLength: 6, seed: 4 };
  const whole = simd.train({ ...o, steps: 20 });
  const sliced = simd.train({ ...o, steps: 0 });
  assert.ok(simd.heapBytes().inUse > before, 'the models live in the heap');
  const a = sliced.step(7), b = sliced.step(13);
  assert.equal(a.length, 7);
  assert.deepEqual(bits(sliced.loss), bits(whole.loss));
  assert.deepEqual(bits([...a, ...b]), bits(whole.loss));

  const ev = whole.evaluate({ lengths: [6, 12, 48], sequences: 20, seed: 3 });
  assert.deepEqual(ev.map((e) => e.length), [6, 12, 48]);
  for (const e of ev) {
    const T = 2 * e.length + 1;
    assert.equal(e.positionAccuracy.length, T);
    assert.equal(e.positionLoss.length, T);
    // copy (BOS x1..xn SEP x1..x(n-1)): loss on the n positions from SEP (index n + 1) on; none before
    for (let t = 0; t < T; t++) assert.equal(Number.isNaN(e.positionAccuracy[t]), t <= e.length, `t ${t}`);
    const carried = Array.from(e.positionAccuracy).filter((x) => !Number.isNaN(x));
    const mean = carried.reduce((s, x) => s + x, 0) / carried.length;
    assert.ok(Math.abs(mean - e.tokenAccuracy) < 1e-12, 'token accuracy is the mean over the positions that carry loss');
    assert.ok(e.sequenceAccuracy <= e.tokenAccuracy && e.loss > 0);
  }
  assert.deepEqual(f64bits(whole.evaluate({ lengths: [12], sequences: 20, seed: 3 })[0].positionLoss), f64bits(ev[1].positionLoss));
  const pi = whole.evaluate({ lengths: [6, 12], sequences: 20, scaling: { type: 'pi' } });
  assert.deepEqual([pi[0].factor, pi[1].factor], [1, 2]);
  assert.equal(pi[0].tokenAccuracy, whole.evaluate({ lengths: [6], sequences: 20 })[0].tokenAccuracy, 'factor 1 is no scaling');
  assert.equal(whole.evaluate({ lengths: [12], sequences: 20, scaling: { type: 'yarn', factor: 3 } })[0].factor, 3);
  assert.throws(() => whole.evaluate({ lengths: [49] }), /lengths\[0\] must be in \[1, 48\]/);
  assert.throws(() => whole.evaluate({ lengths: [6], scaling: { type: 'dynamic' } }), /scaling.type must be one of/);
  assert.throws(() => whole.evaluate({ lengths: [6], sequence: 5 }), /evaluate's options has no key "sequence"; did you mean "sequences"/);

  const att = whole.attention({ length: 12, seed: 2 });
  assert.equal(att.length, 25);
  assert.equal(att.weights.length, 2 * 4 * 25 * 25);
  assert.equal(att.tokens[0], 16, 'BOS');
  assert.equal(att.targets.length, 25);
  for (let r = 0; r < 2 * 4 * 25; r++) {
    const row = att.weights.subarray(r * 25, r * 25 + 25), i = r % 25;
    assert.ok(Math.abs(row.reduce((s, x) => s + x, 0) - 1) < 1e-5, 'rows sum to 1');
    assert.ok(row.subarray(i + 1).every((x) => x === 0), 'causal');
  }
  const again = whole.attention(att.tokens);
  assert.deepEqual(again.weights, att.weights);
  assert.throws(() => whole.attention([0, 18]), /tokens\[1\] must be finite and in \[0, 17\]/);
  assert.throws(() => whole.attention({ tokens: [1], seed: 2 }), TypeError);
  assert.throws(() => whole.attention({ length: 6, scaling: { type: 'ntk', factr: 2 } }), /did you mean "factor"/);
  const alibi = simd.train({ encoding: 'alibi', steps: 1 });
  assert.throws(() => alibi.evaluate({ scaling: { type: 'pi', factor: 2 } }), /scaling applies only to encodings 'rope' and 'xpos'/);
  alibi.free();

  for (const run of [whole, sliced]) {
    run.free();
    run.free(); // harmless
    assert.equal(run.freed, true);
    assert.throws(() => run.step(1), TypeError);
    assert.throws(() => run.evaluate(), /this run was freed/);
    assert.throws(() => run.attention({ length: 2 }), TypeError);
    assert.equal(run.loss.length, 20, 'the losses stay readable');
  }
  assert.equal(simd.heapBytes().inUse, before, 'malloc\'s in-use count is back where it was');
});

test('the model counts against the heap budget', async () => {
  const pe = await loadPosenc({ maxHeapBytes: 8 << 20 });
  const before = pe.heapBytes().inUse;
  assert.throws(() => pe.train({ encoding: 'none', dModel: 256, layers: 8, batch: 64, steps: 0 }), /the limit is 8388608/);
  assert.equal(pe.heapBytes().inUse, before);
  const runs = [];
  assert.throws(() => {
    for (let i = 0; i < 20; i++) runs.push(pe.train({ encoding: 'none', steps: 0 }));
  }, RangeError, 'a few small models fit; more do not');
  assert.ok(runs.length >= 1 && runs.length < 20);
  for (const r of runs) r.free();
  assert.equal(pe.heapBytes().inUse, before);
  const r = pe.train({ encoding: 'none', steps: 0 });
  r.free();
});

test('deterministic: the same options give the same bits in each build; another seed others', () => {
  for (const pe of [simd, scalar]) {
    const o = { encoding: 't5', task: 'reverse', trainLength: 5, steps: 15, seed: 9 };
    const a = pe.train(o), b = pe.train(o), c = pe.train({ ...o, seed: 10 });
    try {
      assert.deepEqual(bits(a.loss), bits(b.loss));
      assert.notDeepEqual(bits(a.loss), bits(c.loss));
      const [ea, eb] = [a.evaluate({ lengths: [5, 20], sequences: 16 }), b.evaluate({ lengths: [5, 20], sequences: 16 })];
      assert.deepEqual(ea.map((e) => f64bits(e.positionLoss)), eb.map((e) => f64bits(e.positionLoss)));
      assert.deepEqual(a.attention({ length: 10 }).weights, b.attention({ length: 10 }).weights);
    } finally {
      a.free(), b.free(), c.free();
    }
  }
});

// (the SIMD GEMM sums in the scalar form's order, and wasm has no FMA: the two builds can agree to the bit)
test('SIMD and scalar builds agree: the same bits (tolerance 0) for every encoding and task', () => {
  const encodings = [{ encoding: 'none' }, { encoding: 'learned' }, { encoding: 'sinusoidal' }, { encoding: 'rope', style: 'half' },
    { encoding: 'alibi' }, { encoding: 't5' }, { encoding: 'xpos', style: 'interleaved' }];
  for (const [i, enc] of encodings.entries()) {
    for (const task of ['kback', 'copy', 'recall']) {
      const o = { ...enc, task, trainLength: 8, steps: 12, seed: i }, at = `${enc.encoding} ${task}`;
      const a = simd.train(o), b = scalar.train(o);
      try {
        assert.ok(a.loss.every((x) => Number.isFinite(x) && x >= 0), at);
        assert.deepEqual(bits(a.loss), bits(b.loss), at);
        const pa = a.parameters(), pb = b.parameters();
        for (const name of Object.keys(pa)) assert.deepEqual(bits(pa[name]), bits(pb[name]), `${at}: ${name}`);
        const ev = (r) => r.evaluate({ lengths: [8, 24], sequences: 16 }).map((e) => [e.tokenAccuracy, e.loss, ...f64bits(e.positionLoss)]);
        assert.deepEqual(ev(a), ev(b), at);
        assert.deepEqual(a.attention({ length: 16 }).weights, b.attention({ length: 16 }).weights, at);
      } finally {
        a.free(), b.free();
      }
    }
  }
});

test('hidden: the residual stream; layer 0 is the token row plus the learned position row; causal and permutation facts', () => {
  const run = simd.train({ encoding: 'learned', task: 'copy', trainLength: 6, steps: 10, seed: 3 });
  try {
    const h = run.hidden({ length: 6, seed: 2 });
    assert.equal(h.length, 13);
    assert.equal(h.hidden.length, 3 * 13 * 32);
    assert.equal(h.targets.length, 13);
    const p = run.parameters();
    for (let t = 0; t < 13; t++)
      for (let j = 0; j < 32; j++) assert.equal(h.hidden[t * 32 + j], Math.fround(p.tok_emb[h.tokens[t] * 32 + j] + p.pos_emb[t * 32 + j]));
    assert.deepEqual(run.hidden(h.tokens).hidden, h.hidden, 'tokens or an example: the same stream');
    // causal: changing the last token changes no earlier row, in any layer
    const changed = Int32Array.from(h.tokens);
    changed[12] = (changed[12] + 1) % 16;
    const g = run.hidden(changed).hidden;
    for (let l = 0; l < 3; l++) assert.deepEqual(g.subarray(l * 416, l * 416 + 12 * 32), h.hidden.subarray(l * 416, l * 416 + 12 * 32));
    assert.throws(() => run.hidden({ length: 6, scaling: { type: 'pi' } }), /hidden's input has no key "scaling"/);
    assert.throws(() => run.hidden([0, 99]), /tokens\[1\] must be finite and in \[0, 17\]/);
  } finally {
    run.free();
  }
  // NoPE: the first layer sees the tokens before each position as a set. Swap two earlier tokens
  // and every row from the second swapped position on is unchanged after layer 1 up to the
  // rounding of sums taken in another order; after layer 2 it is not (layer 2 reads order from
  // the rows between the two).
  const nope = simd.train({ encoding: 'none', task: 'kback', steps: 0, seed: 5 });
  try {
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], y = [1, 5, 3, 4, 2, 6, 7, 8, 9, 10, 11, 12];
    const a = nope.hidden(x).hidden, b = nope.hidden(y).hidden, D = 32, T = 12;
    const dist = (l, t) => Math.hypot(...Array.from({ length: D }, (_, j) => a[(l * T + t) * D + j] - b[(l * T + t) * D + j]));
    for (let t = 5; t < T; t++) {
      assert.equal(dist(0, t), 0);
      assert.ok(dist(1, t) < 1e-5, `layer 1, position ${t}: ${dist(1, t)}`);
      assert.ok(dist(2, t) > 1e-3, `layer 2, position ${t}: ${dist(2, t)}`);
    }
    assert.ok(dist(1, 2) > 1e-2, 'between the two, the prefix differs as a set');
  } finally {
    nope.free();
  }
});

test('parameters: every group by name, sizes from the options; copies', () => {
  const run = simd.train({ encoding: 't5', dModel: 16, heads: 2, layers: 1, dFF: 24, steps: 2 });
  try {
    const p = run.parameters();
    assert.deepEqual(Object.keys(p), ['tok_emb', 't5_bias', 'ln1_g.0', 'ln1_b.0', 'wqkv.0', 'bqkv.0', 'wo.0', 'bo.0', 'ln2_g.0', 'ln2_b.0',
      'w1.0', 'b1.0', 'w2.0', 'b2.0', 'lnf_g', 'lnf_b', 'wh', 'bh']);
    assert.deepEqual(Object.values(p).map((a) => a.length), [18 * 16, 32 * 2, 16, 16, 16 * 48, 48, 256, 16, 16, 16, 16 * 24, 24, 24 * 16, 16, 16, 16, 16 * 18, 18]);
    p.wh.fill(0);
    assert.notEqual(run.parameters().wh[0], 0, 'a copy');
    run.step(1);
    assert.notDeepEqual(run.parameters().wh, p.wh);
  } finally {
    run.free();
  }
  assert.throws(() => run.parameters(), /this run was freed/);
});

test('fine-tuning: step(n, { length, scaling }); at the training length unscaled, the bits of step(n); batches; refusals', () => {
  const o = { encoding: 'rope', style: 'half', trainLength: 8, steps: 30, seed: 2 };
  const a = simd.train(o), b = simd.train(o), c = simd.train({ ...o, fineTuneLength: 32 });
  try {
    assert.deepEqual(bits(a.step(5)), bits(b.step(5, { length: 8 })));
    assert.deepEqual(bits(a.loss.subarray(0, 30)), bits(c.loss), 'fineTuneLength sizes buffers, not the training');
    assert.equal(a.fineTuneBatch(8), 32);
    assert.ok(a.fineTuneBatch(32) < 32, 'without fineTuneLength, long batches hold fewer sequences');
    assert.equal(c.fineTuneBatch(32), 32);
    assert.equal(c.fineTuneBatch(64), c.fineTuneBatch(64));
    const before = bits(c.parameters()['wqkv.0']);
    const pi = c.step(4, { length: 32, scaling: { type: 'pi' } });
    assert.equal(pi.length, 4);
    assert.equal(c.steps, 34);
    assert.ok(pi.every((x) => x > 0 && Number.isFinite(x)));
    assert.notDeepEqual(bits(c.parameters()['wqkv.0']), before);
    // the scaled loss is the one evaluate sees: PI at factor 4 on length 32 starts where evaluate says
    const d = simd.train({ ...o, fineTuneLength: 32 });
    const ev = d.evaluate({ lengths: [32], sequences: 64, scaling: { type: 'pi', factor: 4 } })[0].loss;
    assert.ok(Math.abs(d.step(1, { length: 32, scaling: { type: 'pi', factor: 4 } })[0] - ev) < 0.5 * ev, 'the same scaled model');
    d.free();
    for (const [opts, re] of [
      [{ length: 65 }, /length must be in \[3, 64\]/],
      [{ length: 2 }, /length must be in \[3, 64\]/], // k-back at 1 and 2 has nothing to score with k 3
      [{ length: 16, scaling: { type: 'pi', factor: 0.5 } }, /scaling.factor must be in \[1, 1000000\]/],
      [{ lenght: 16 }, /step's options has no key "lenght"; did you mean "length"/],
      [7, /options must be an options object/],
    ]) assert.throws(() => c.step(1, opts), (e) => (e instanceof TypeError || e instanceof RangeError) && re.test(e.message), JSON.stringify(opts));
    assert.equal(c.steps, 34, 'a refused call trains nothing');
    const alibi = simd.train({ encoding: 'alibi', trainLength: 8, steps: 0 });
    assert.throws(() => alibi.step(1, { length: 16, scaling: { type: 'yarn' } }), /scaling applies only to encodings 'rope' and 'xpos'/);
    assert.equal(alibi.step(2, { length: 16 }).length, 2, 'longer lengths without scaling: any encoding');
    alibi.free();
    assert.throws(() => simd.train({ ...o, fineTuneLength: 65 }), /fineTuneLength must be in \[1, 64\]/);
  } finally {
    a.free(), b.free(), c.free();
  }
});

test('xPos at the smallest scaleBase train accepts stays finite, in both builds', async () => {
  for (const pe of [simd, scalar]) {
    const least = (65 * Math.log(3.5)) / 15;
    const run = pe.train({ encoding: 'xpos', style: 'half', scaleBase: least * (1 + 1e-9), steps: 5 });
    try {
      assert.ok(run.loss.every(Number.isFinite), `losses ${run.loss}`);
      const ev = run.evaluate({ lengths: [16, 128], sequences: 4 });
      // (positions before k − 1 have no token to predict: NaN by design)
      for (const e of ev) assert.ok([...e.positionLoss].slice(2).every(Number.isFinite), `length ${e.length}: a loss not finite`);
    } finally {
      run.free();
    }
  }
});
