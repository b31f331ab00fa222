// slider-scale.js: how a param's slider moves. A range that spans orders of magnitude (a base
// from 1 to 10⁷) moves through round values evenly spaced in log(x), 1, 1.2, 1.5, 2, 2.5, 3, 4,
// 5, 6, 8 per decade, so that an arrow key multiplies by about 1.25 and the default sits
// mid-track; a float with step 'any' on a short range steps by a round 1, 2 or 5 × 10ᵏ of about
// a hundredth of it. The number box beside the slider keeps the exact value either way.

const MANTISSAS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8];

/**
 * Whether p's slider moves in log space: p.scale ('log' or 'linear') when given, else a float
 * whose max is 100 × its min or more, or an int on steps of 1 whose max is 4096 × its min or more
 * (sequence lengths, distances; a heatmap's 1024 rows are served by a step of 1).
 */
export function isLog(p) {
  if (p.scale === 'log' || p.scale === 'linear') return p.scale === 'log';
  if (!(p.min > 0)) return false;
  if (p.type === 'int') return (p.step ?? 1) === 1 && p.max / p.min >= 4096;
  return (p.step ?? 'any') === 'any' && p.max / p.min >= 100;
}

/** The round values a log slider stops at, from lo to hi (both kept), ints for an int param. */
export function ladder(p, lo, hi) {
  const out = [lo];
  for (let e = Math.floor(Math.log10(lo)); 10 ** e <= hi; e++) {
    for (const m of MANTISSAS) {
      let v = Number((m * 10 ** e).toPrecision(12));
      if (p.type === 'int') v = Math.round(v);
      if (v > out.at(-1) && v < hi) out.push(v);
    }
  }
  if (hi > out.at(-1)) out.push(hi);
  return out;
}

/** Where v sits on the ladder: a fractional index, log-interpolated between its neighbours. */
export function ladderIndex(steps, v) {
  if (!(v > steps[0])) return 0;
  const last = steps.length - 1;
  if (v >= steps[last]) return last;
  let i = 0;
  while (steps[i + 1] <= v) i++;
  return i + Math.log(v / steps[i]) / Math.log(steps[i + 1] / steps[i]);
}

/** A round step (1, 2 or 5 × 10ᵏ) of at most a hundredth of a linear float range. */
export function roundStep(p) {
  const span = (p.max - p.min) / 100;
  const k = 10 ** Math.floor(Math.log10(span));
  return Number(([5, 2, 1].find((m) => m * k <= span) * k).toPrecision(12));
}
