// pool.js: the runs of one Train in a pool of workers, one run (one encoding) a job, so that
// every core trains. The runs are independent and each is deterministic (pe.train: the same
// options give the same bits), so a pool of any size gives the bits one worker gives. RoPE's
// job goes first: it is also evaluated with three scalings, the longest job, and a pool ends
// soonest when its longest job starts first.
import { ENCODINGS, evaluationsOf } from './run.js';
import { timeLeft } from './estimate.js';

/** Workers a pool starts at most: beyond the seven encodings there is nothing to share out. */
export const MAX_WORKERS = 8;

/** Workers for `jobs` runs on `cores` logical cores (navigator.hardwareConcurrency; unknown: 1). */
export function poolSize(jobs, cores) {
  const c = Number.isInteger(cores) && cores > 0 ? cores : 1;
  return Math.max(1, Math.min(jobs, c, MAX_WORKERS));
}

/**
 * Trains `settings` (trainAll's, run.js) on `size` workers from `spawn()` (each a started
 * web Worker of worker.js, or anything with its postMessage, onmessage, onerror and terminate).
 * `onProgress(p)` follows every slice of every run: p = { encoding, step, steps, lastLoss, done,
 * count, workers, active: [{ encoding, step, steps }], left }, left = the ms until every run is
 * done as estimate.js reckons it now, or null before it can. Returns { workers, done, stop, times }:
 * done resolves to the runs in trainAll's order, or to null once stop() has ended every worker;
 * it rejects with an Error when a run fails (err.start: a worker failed before it said
 * anything, so the page may train without workers). times: each run's ms, as its job ends.
 */
export function trainPool(settings, { spawn, size, onProgress = () => {} }) {
  const chosen = ENCODINGS.map((e) => e.encoding).filter((e) => !settings.encodings || settings.encodings.includes(e));
  const queue = [...chosen].sort((a, b) => (b === 'rope') - (a === 'rope'));
  const results = new Map(), times = new Map(), active = new Map();
  const finished = []; // { stepMs, evaluationMs } of the runs done, their evaluations timed here
  const workers = [];
  let settle = null, over = false;
  const done = new Promise((resolve, reject) => (settle = { resolve, reject }));
  const end = () => {
    over = true;
    for (const w of workers) w.worker.terminate();
  };
  const fail = (err) => (over ? null : (end(), settle.reject(err)));

  // every run not done, for the estimate: under way (measured once it has said how fast it goes), then waiting
  const notDone = () => [
    ...workers.filter((w) => w.job && !results.has(w.job.encoding)).map(({ job: { encoding } }) => {
      const a = active.get(encoding);
      return a ? { ...a, evaluatingMs: a.evaluating ? performance.now() - a.evaluating : 0 } : { steps: settings.steps, step: 0, evaluations: evaluationsOf(encoding) };
    }),
    ...queue.map((encoding) => ({ steps: settings.steps, evaluations: evaluationsOf(encoding) })),
  ];

  const next = (w) => {
    const encoding = queue.shift();
    if (encoding === undefined) return void w.worker.terminate();
    w.job = { encoding, t0: performance.now() };
    // (an evaluation is timed on each run before it trains only until one has been timed for real)
    w.worker.postMessage({ ...settings, encodings: [encoding], probe: !finished.length });
  };
  const count = Math.min(Math.max(1, size), queue.length);
  if (!count) (over = true), settle.resolve([]);
  for (let i = 0; i < count && !over; i++) {
    let worker;
    try {
      worker = spawn();
    } catch (err) {
      fail(Object.assign(new Error(err?.message ?? String(err)), { start: true }));
      break;
    }
    const w = { worker, job: null, heard: false };
    workers.push(w);
    w.worker.onmessage = (e) => {
      if (over) return;
      w.heard = true;
      const d = e.data, { encoding } = w.job;
      if (d.type === 'progress') {
        const { step, steps, stepMs, evaluationMs, evaluations } = d;
        active.set(encoding, { encoding, step, steps, stepMs, evaluationMs, evaluations, evaluating: step < steps ? 0 : performance.now() });
        onProgress({ encoding, step, steps, lastLoss: d.lastLoss, done: results.size, count: chosen.length,
          workers: workers.length, active: [...active.values()].map((a) => ({ encoding: a.encoding, step: a.step, steps: a.steps })),
          left: timeLeft(notDone(), workers.length, finished) });
      } else if (d.type === 'done') {
        results.set(encoding, d.runs[0]);
        times.set(encoding, performance.now() - w.job.t0);
        const a = active.get(encoding);
        if (a?.stepMs != null && a.evaluating) finished.push({ stepMs: a.stepMs, evaluationMs: (performance.now() - a.evaluating) / a.evaluations });
        active.delete(encoding);
        if (results.size === chosen.length) (end(), settle.resolve(chosen.map((c) => results.get(c))));
        else next(w);
      } else if (d.type === 'error') fail(new Error(d.message));
    };
    w.worker.onerror = (e) => {
      e?.preventDefault?.();
      fail(Object.assign(new Error(e?.message || 'a worker failed to start'), { start: !w.heard }));
    };
  }
  if (!over) for (const w of workers) next(w);
  return { workers: workers.length, done, times, stop: () => over || (end(), settle.resolve(null)) };
}
