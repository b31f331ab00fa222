// The time a Train has left (web/lab/estimate.js): the runs under way finish at the speeds they
// measured, the waiting ones at the mean of those speeds, each on the first worker free; an
// evaluation timed in full counts over one timed on a share of the sequences; nothing is said
// before a run's speed is measured. And trainAll (web/lab/run.js) reports what the estimate
// needs once a run has trained MEASURED_STEPS steps: its time per step, the time of an
// evaluation (unless told not to time one), and how many evaluations it will make.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeLeft } from '../web/lab/estimate.js';
import { trainAll, MEASURED_STEPS } from '../web/lab/run.js';
import { loadPosenc } from '../web/lib/posenc.js';

const under = (o) => ({ steps: 400, step: 100, stepMs: 10, evaluationMs: 500, evaluations: 1, evaluatingMs: 0, ...o });

test('nothing is estimated before a run\'s speed is measured', () => {
  assert.equal(timeLeft([under({ stepMs: null, evaluationMs: null }), { steps: 400, evaluations: 1 }], 2), null);
  assert.equal(timeLeft([{ steps: 400, step: 0, evaluations: 4 }], 1), null);
  assert.equal(timeLeft([under({ step: 400 })], 1), 500);
});

test('one worker: the run under way, then each waiting run at the measured speeds', () => {
  // 300 steps of 10 ms and an evaluation of 500 ms; RoPE waits: 400 steps and 4 evaluations
  assert.equal(timeLeft([under(), { steps: 400, evaluations: 4 }], 1), 3500 + 6000);
  // evaluating: what its evaluations have left
  assert.equal(timeLeft([under({ step: 400, evaluations: 4, evaluatingMs: 300 })], 1), 1700);
  assert.equal(timeLeft([under({ step: 400, evaluatingMs: 800 })], 1), 0);
});

test('several workers: each waiting run goes to the first worker free, at the mean speeds measured', () => {
  // under way: 3500 ms and (350 · 20 + 500) = 7500 ms left; waiting runs at 15 ms a step: 6500 ms each
  const runs = [under(), under({ step: 50, stepMs: 20 }), { steps: 400, evaluations: 1 }, { steps: 400, evaluations: 1 }];
  assert.equal(timeLeft(runs, 2), 7500 + 6500);
  // a worker with no run yet takes the first waiting one at once
  assert.equal(timeLeft([under(), { steps: 400, evaluations: 1 }], 2), 400 * 10 + 500);
  // a run just started, not measured yet, goes at the mean speeds too
  assert.equal(timeLeft([under(), under({ step: 5, stepMs: null, evaluationMs: null })], 2), 395 * 10 + 500);
});

test('an evaluation timed as it ran counts over the one timed before training', () => {
  const finished = [{ stepMs: 30, evaluationMs: 200 }];
  // the steps at the mean of 10 and 30 ms; every evaluation at the 200 ms timed
  assert.equal(timeLeft([under(), { steps: 400, evaluations: 4 }], 1, finished), 300 * 10 + 200 + 400 * 20 + 4 * 200);
  // with no run under way measured yet, the runs done set the speeds
  assert.equal(timeLeft([{ steps: 400, step: 0, evaluations: 1 }], 1, finished), 400 * 30 + 200);
  // a run told not to time an evaluation before training
  assert.equal(timeLeft([under({ evaluationMs: null })], 1, finished), 3000 + 200);
});

test('trainAll reports each run\'s time per step and per evaluation once it has trained enough steps, and its evaluations', async () => {
  const pe = await loadPosenc();
  const settings = { task: 'kback', steps: MEASURED_STEPS + 10, seed: 1, trainLength: 8, dModel: 16, layers: 1, encodings: ['none', 'rope'] };
  const seen = [];
  await trainAll(pe, settings, { pause: (p) => seen.push(p) });
  assert.deepEqual(seen.map((p) => `${p.encoding} ${p.step}`), ['none', 'rope'].flatMap((e) => [10, 20, 30, 40].map((s) => `${e} ${s}`)));
  for (const p of seen) {
    assert.equal(p.evaluations, p.encoding === 'rope' ? 4 : 1, p.encoding);
    const measured = p.step >= MEASURED_STEPS;
    assert.ok(measured ? p.stepMs > 0 && p.evaluationMs > 0 : p.stepMs === null && p.evaluationMs === null, `${p.encoding} step ${p.step}: ${p.stepMs} ms a step, ${p.evaluationMs} an evaluation`);
  }
  // a run shorter than that is measured once it has trained all its steps; told not to, it times no evaluation
  const short = [];
  await trainAll(pe, { ...settings, steps: 20, probe: false, encodings: ['none'] }, { pause: (p) => short.push(p) });
  assert.deepEqual(short.map((p) => [p.step, p.stepMs > 0, p.evaluationMs]), [[10, false, null], [20, true, null]]);
});
