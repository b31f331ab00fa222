// web/lab/results.json (written by `npm run lab`, web/tools/lab-results.js) holds to the code:
// its options are the script's defaults, and three of its runs, retrained here in full with the
// same options and the SIMD build it was made with, give exactly the numbers it stores (losses,
// every evaluation, RoPE's scaled and fine-tuned evaluations, the learned table's rows, the
// attention pictures), as does one run of another seed. A change to the lab that moves any of
// them means running `npm run lab` again. And the stored attention pictures are those of a run
// trained as the page trains it, to the figures the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadPosenc } from '../web/lib/posenc.js';
import { DEFAULT_RUN, RESULTS_FILE, runOne, seedRecord } from '../web/tools/lab-results.js';
import { trainAll, decodeDetails } from '../web/lab/run.js';
import { packPicture, unpackPicture, pictureCode } from '../web/lab/picture.js';

const results = JSON.parse(readFileSync(RESULTS_FILE, 'utf8'));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test('the file records the script\'s default run, this version, every task and encoding', () => {
  assert.deepEqual(results.options, JSON.parse(JSON.stringify(DEFAULT_RUN)));
  assert.equal(results.posenc, pkg.version);
  assert.equal(results.build, 'simd');
  const want = DEFAULT_RUN.tasks.flatMap((task) => DEFAULT_RUN.encodings.map((e) => `${task} ${e.encoding} ${e.style ?? ''}`));
  assert.deepEqual(results.runs.map((r) => `${r.task} ${r.encoding} ${r.style ?? ''}`), want);
  for (const r of results.runs) {
    assert.equal(r.evaluation.length, DEFAULT_RUN.multiples.length);
    assert.equal(Boolean(r.scaled), r.encoding === 'rope');
    assert.equal(Boolean(r.fineTuned), r.encoding === 'rope');
    assert.equal(Boolean(r.positionTable), r.encoding === 'learned');
  }
  const seeds = DEFAULT_RUN.seeds.flatMap((seed) => want.map((w) => `${seed} ${w}`));
  assert.deepEqual(results.seedRuns.map((r) => `${r.seed} ${r.task} ${r.encoding} ${r.style ?? ''}`), seeds);
  for (const r of results.seedRuns) assert.equal(Boolean(r.fineTuned), r.encoding === 'rope');
  // (the attention pictures are most of it: 78 000 weights at 10 bits, what the figures drawn from them need)
  assert.ok(readFileSync(RESULTS_FILE).length < 320 * 1024, 'the file stays under 320 KiB');
});

test('three runs retrained now give exactly the file\'s numbers (rope on kback with PI/NTK/YaRN, learned on kback, alibi on copy), and one of seed 2', async () => {
  const pe = await loadPosenc({ simd: true });
  for (const [task, encoding] of [['kback', 'rope'], ['kback', 'learned'], ['copy', 'alibi']]) {
    const stored = results.runs.find((r) => r.task === task && r.encoding === encoding);
    const enc = DEFAULT_RUN.encodings.find((e) => e.encoding === encoding);
    const now = JSON.parse(JSON.stringify(runOne(pe, task, enc)));
    delete now.ms;
    const { ms, ...file } = stored;
    assert.ok(ms.total > 0);
    assert.deepEqual(now, file, `${task} ${encoding}: run npm run lab again`);
  }
  const enc = DEFAULT_RUN.encodings.find((e) => e.encoding === 'xpos');
  const stored = results.seedRuns.find((r) => r.seed === 2 && r.task === 'kback' && r.encoding === 'xpos');
  assert.deepEqual(JSON.parse(JSON.stringify(seedRecord(pe, 'kback', enc, 2))), stored);
});

test('Train on the page at the default settings draws the stored attention pictures, to the figures it shows', async () => {
  // T5 on k-back: the model whose small weights on far keys add up to the most (0.60 of a far query's weight)
  const pe = await loadPosenc({ simd: true });
  const [run] = await trainAll(pe, { task: 'kback', steps: DEFAULT_RUN.train.steps, seed: DEFAULT_RUN.train.seed, encodings: ['t5'] });
  const stored = decodeDetails(results, 'kback', 't5').attention;
  assert.deepEqual(run.details.attention.map((a) => [a.multiple, a.length, a.tokens]), stored.map((a) => [a.multiple, a.length, a.tokens]));
  const edge = stored[0].length;
  const figures = (a) => {
    const T = a.length, w = (i, j) => a.weights[i * T + j];
    let target = 0, far = 0;
    for (let i = 2; i < T; i++) target += w(i, i - 2) / (T - 2);
    for (let i = edge; i < T; i++) for (let j = 0; j <= i - edge; j++) far += w(i, j) / (T - edge);
    return [target.toFixed(2), far.toFixed(2)];
  };
  run.details.attention.forEach((a, n) => {
    // every weight of the page's run has the stored code
    const off = [];
    a.weights.forEach((x, k) => !Number.isNaN(x) && pictureCode(x) !== pictureCode(stored[n].weights[k]) && off.push(k));
    assert.deepEqual(off, [], `${a.multiple}x: weights whose code is not the stored one`);
    assert.deepEqual(figures(stored[n]), figures(a), `${a.multiple}x: the weight on the key 2 back and on keys past the training length`);
  });
});

test('a picture packs to 10-bit square roots and back: 0 and 1 exactly, small weights finer than large ones', () => {
  const values = Float32Array.from([0, 1, 1e-4, 0.01, 0.25, 0.5, 0.999, 1e-7]);
  const T = 4; // 10 weights: the first 8, then two zeros
  const w = unpackPicture(packPicture([...values, 0, 0]), T);
  const lower = [];
  for (let i = 0; i < T; i++) for (let j = 0; j < T; j++) if (j <= i) lower.push(w[i * T + j]); else assert.ok(Number.isNaN(w[i * T + j]));
  assert.equal(lower[0], 0);
  assert.equal(lower[1], 1);
  values.forEach((v, k) => assert.ok(Math.abs(lower[k] - v) <= 2 * Math.sqrt(v) / 2046 + 1e-6, `${v} -> ${lower[k]}`));
  assert.ok(Math.abs(lower[2] - 1e-4) < 2e-5, 'a weight of 1e-4 within 2e-5');
  assert.equal(packPicture(new Float32Array(10)).length, 13);
});
