// main-control.js: which control of a chart is its main one: the param its module names as
// `main: '<param name>'`, else its first. The phone layout keeps it beside the chart while the
// rest fold under Settings, the presenter view shows it alone, and the animated exports sweep
// it by default.
import { counts } from './params.js';

/** The chart's main param (of chart.params), or undefined for a chart without params. */
export function mainParam(chart) {
  return chart.params.find((p) => p.name === chart.main) ?? chart.params[0];
}

const NUMERIC = new Set(['int', 'number']);
/** A param a GIF or video can sweep: a number the chart draws at once (not one that waits for Train). */
export const sweepable = (p) => NUMERIC.has(p.type) && !p.trains;

/**
 * What the GIF and video exports sweep by default: the module's `sweep: { param, from, to,
 * frames }` if it has one, else its main param when numeric (else its first numeric one shown) over a
 * range that starts at the value shown. Null when the chart has no numeric param.
 */
export function sweepDefaults(chart, values = {}) {
  const own = chart.sweep && chart.params.find((p) => p.name === chart.sweep.param && sweepable(p));
  if (own) return { param: own.name, from: chart.sweep.from ?? own.min, to: chart.sweep.to ?? own.max, frames: chart.sweep.frames ?? defaultFrames(own, chart.sweep.from ?? own.min, chart.sweep.to ?? own.max) };
  const all = Object.fromEntries(chart.params.map((q) => [q.name, values[q.name] ?? q.value]));
  // a param that counts only beside one value of another (rope-periods' free d) would sweep a
  // picture that does not move: only a param the chart shows now is swept
  const shown = (q) => counts(q, all);
  const main = mainParam(chart);
  const p = main && sweepable(main) && shown(main) ? main : chart.params.find((q) => sweepable(q) && shown(q));
  if (!p) return null;
  const now = all[p.name];
  // the top another param puts it at (the helix's last pair of d_model), so no frame repeats the last
  const max = Math.min(p.max, p.maxFor?.(all) ?? Infinity);
  // from the value shown towards the far end of the range, at most a few dozen steps of an int
  const up = max - now >= now - p.min;
  let from = now, to = up ? max : p.min;
  if (p.type === 'int' && Math.abs(to - from) > 60 * (p.step ?? 1)) to = from + (up ? 1 : -1) * 60 * (p.step ?? 1);
  if (from === to) [from, to] = [p.min, max];
  return { param: p.name, from, to, frames: defaultFrames(p, from, to) };
}

function defaultFrames(p, from, to) {
  const steps = Math.abs(to - from) / (p.step && p.step !== 'any' ? p.step : 1);
  return p.type === 'int' && steps < 120 ? Math.max(2, Math.round(steps) + 1) : 60;
}

