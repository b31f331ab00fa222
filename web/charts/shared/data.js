// data.js: the numbers behind the charts: formatting, grids, point arrays kept between redraws,
// table rows built when read, and what a chart drew last.
import { lang } from '../../host/i18n.js';
import { theme } from '../../host/theme.js';

/** x to `digits` significant digits; exponent form only for very small or very large values. */
export function sig(x, digits = 4) {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a < 1e-3 || a >= 1e7) return x.toExponential(Math.max(0, digits - 1)).replace('e+', 'e');
  return String(Number(x.toPrecision(digits)));
}

/** Largest |a[i] - b[i]|: how far two results of the kernels are apart. */
export function maxAbsDiff(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/**
 * About n integer distances from lo to hi, evenly spaced ('linear') or evenly spaced in
 * log(x) ('log', lo >= 1); rounding merges the dense low end, so every integer there appears once.
 */
export function intGrid(lo, hi, n, scale = 'linear') {
  const out = [];
  const a = scale === 'log' ? Math.log(Math.max(lo, 1)) : lo;
  const b = scale === 'log' ? Math.log(hi) : hi;
  for (let j = 0; j < n; j++) {
    const t = a + ((b - a) * j) / (n - 1);
    const x = Math.round(scale === 'log' ? Math.exp(t) : t);
    if (!out.length || x > out[out.length - 1]) out.push(x);
  }
  return out;
}

/**
 * The whole distances from, from + k, from + 2k, … up to `to`, with k the smallest step that keeps
 * them to about `most`: { every: k, at }. Evenly spaced, so the kernels can step by rotation.
 */
export function wholeSteps(from, to, most) {
  const every = Math.max(1, Math.ceil((to - from) / most));
  return { every, at: Array.from({ length: Math.floor((to - from) / every) + 1 }, (_, j) => from + j * every) };
}

/**
 * Arrays of {x, y} points kept from one redraw to the next: pts(key, n, y, x) returns the
 * array kept under `key`, refilled with n points { x: x(i), y: y(i) } (x defaults to i). A
 * chart that hands Chart.js the same array again (with parsing off Chart.js reads it at every
 * update) allocates no points and does not make Chart.js re-bind a new array each redraw.
 */
export function pointArrays() {
  const kept = new Map();
  return (key, n, y, x = null) => {
    let a = kept.get(key);
    if (!a) kept.set(key, (a = []));
    const m = Math.min(n, a.length);
    for (let i = 0; i < m; i++) {
      const p = a[i];
      p.x = x ? x(i) : i;
      p.y = y(i);
    }
    // (indexing, not push: Chart.js wraps push of an array it was given, and would react to it)
    for (let i = m; i < n; i++) a[i] = { x: x ? x(i) : i, y: y(i) };
    if (a.length > n) a.length = n;
    return a;
  };
}

/**
 * Gives `data` (what update() returns) a `rows` that is built when first read, once: the
 * table under the chart and the CSV read it, a redraw need not (a row per position is
 * thousands of small arrays). build() must read only values that stay as they are.
 */
export function lazyRows(data, build) {
  let rows = null;
  return Object.defineProperty(data, 'rows', { enumerable: true, configurable: true, get: () => (rows ??= build()) });
}

/**
 * What a chart drew last, to skip drawing the same again. same(inputs, params) is true when
 * `inputs` (what the picture is made of, after the chart's own clamping; JSON-able) and the
 * language, theme and pixel ratio are those the data kept by keep() was drawn from, and
 * `params` (the controls' values) moved since the last call: a control can move without
 * changing the picture (a choice past a limit the chart clamps to, a setting that counts only
 * in another mode), and update() then returns `data` instead of drawing it again. A call with
 * the very params of the last one is a request to draw again, and is not skipped.
 */
export function drawnFrom() {
  let drawn = null, asked = null, lastParams = null, data = null;
  return {
    same(inputs, params) {
      const p = JSON.stringify(params);
      const again = p === lastParams;
      lastParams = p;
      asked = JSON.stringify([inputs, lang(), theme(), globalThis.devicePixelRatio ?? 1]);
      return !again && asked === drawn;
    },
    /** Records `result` as drawn from the inputs last given to same(); returns it. */
    keep(result) {
      drawn = asked;
      data = result;
      return result;
    },
    get data() {
      return data;
    },
  };
}
