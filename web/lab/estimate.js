// estimate.js: how long the rest of a Train will take, from the speeds measured so far, so that
// the reader can plan a large run. A run (one encoding) trains its steps, then evaluates: once
// per scaling it is scored with. As it trains, a run measures its time per step and times an
// evaluation on a share of the sequences (run.js trainAll), until real evaluations have been
// timed. The runs waiting for a worker are taken in order by the first worker free.

const mean = (rs, f) => rs.reduce((s, r) => s + r[f], 0) / rs.length;

/**
 * Milliseconds until every run is done, or null while no run's speed is measured. `runs`: those
 * under way ({ steps, step, evaluations, stepMs, evaluationMs, evaluatingMs }: ms per step and
 * per evaluation as trainAll reports them, null before it has measured them, and ms since its
 * evaluation began, 0 before), then those waiting ({ steps, evaluations }), which go at the mean
 * speeds measured; `finished`: the { stepMs, evaluationMs } of runs done, their evaluations
 * timed as they ran; `workers` train at once.
 */
export function timeLeft(runs, workers, finished = []) {
  const isMeasured = (r) => r.step !== undefined && r.stepMs != null;
  const measured = runs.filter(isMeasured);
  if (!measured.length && !finished.length) return null;
  const stepMs = mean([...measured, ...finished], 'stepMs');
  // an evaluation timed in full as a run ended, when there is one, over one timed on a share of the sequences
  const probed = measured.filter((r) => r.evaluationMs != null);
  const evaluationMs = finished.length ? mean(finished, 'evaluationMs') : probed.length ? mean(probed, 'evaluationMs') : 0;
  const left = (r) => isMeasured(r)
    ? (r.steps - r.step) * r.stepMs + Math.max(0, r.evaluations * (finished.length ? evaluationMs : r.evaluationMs ?? evaluationMs) - r.evaluatingMs)
    : (r.steps - (r.step ?? 0)) * stepMs + r.evaluations * evaluationMs;
  const under = runs.filter((r) => r.step !== undefined), waiting = runs.filter((r) => r.step === undefined);
  const free = [...under.map(left), ...Array(Math.max(0, workers - under.length)).fill(0)];
  for (const r of waiting) {
    const k = free.indexOf(Math.min(...free));
    free[k] += left(r);
  }
  return Math.max(...free);
}
