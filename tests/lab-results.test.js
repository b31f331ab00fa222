// web/lab/results.json (written by `npm run lab`, web/tools/lab-results.js) holds to the code:
// its options are the script's defaults, and three of its runs, retrained here in full with the
// same options and the SIMD build it was made with, give exactly the numbers it stores (losses,
// every evaluation, RoPE's scaled and fine-tuned evaluations, the learned table's rows, the
// attention pictures), as does one run of another seed. A change to the lab that moves any of
// them means running `npm run lab` again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadPosenc } from '../web/lib/posenc.js';
import { DEFAULT_RUN, RESULTS_FILE, runOne, seedRecord } from '../web/tools/lab-results.js';

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
  assert.ok(readFileSync(RESULTS_FILE).length < 256 * 1024, 'the file stays under 256 KiB');
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
