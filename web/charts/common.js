// common.js: what every Chart.js chart of posenc shares: a canvas sized to its container,
// fast options for long line data, and a colour-blind-safe palette (Okabe-Ito).
import { t, tr, lang } from '../host/i18n.js';
import { theme, colours } from '../host/theme.js';

export const palette = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];

/** True when the dark theme is in effect (web/theme.js). */
export function isDark() {
  return theme() === 'dark';
}

// Okabe-Ito's black would vanish on the dark theme: palette[6] is read when a chart draws, so
// it is near-white there (every chart redraws on a theme change).
Object.defineProperty(palette, 6, { get: () => (isDark() ? '#e8e8e8' : '#000000'), enumerable: true });

/**
 * The theme's text and line colours now (web/theme.js colours(): style.css's variables, or the
 * same values where the page lacks them): for text and axes painted on a canvas by hand.
 */
export function ink() {
  // Read once per task and theme: colours() reads five custom properties through
  // getComputedStyle, and a log axis asks for the grid colour at every tick of every redraw.
  const now = theme();
  if (inkNow === null || inkTheme !== now) {
    const { fg, muted, bg, line, grid } = colours();
    if (inkNow === null) queueMicrotask(() => (inkNow = null));
    inkNow = Object.freeze({ fg, muted, bg, line, grid });
    inkTheme = now;
  }
  return inkNow;
}
let inkNow = null, inkTheme = '';

/**
 * A canvas's accessible name that follows the language: `label` is a string, an L() pair or a
 * function returning either. Set now; call again (or let lineChart's hook do it) to refresh.
 */
export function ariaLabel(canvas, label) {
  canvas.setAttribute('aria-label', t(typeof label === 'function' ? label() : label));
}

/** A responsive canvas in `el`; `aspect` is width / height. */
export function canvasIn(el, aspect = 2) {
  const box = document.createElement('div');
  box.className = 'canvas-box';
  box.style.aspectRatio = String(aspect);
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  box.append(canvas);
  el.append(box);
  return canvas;
}

// The default accessible name of a chart on axes, in the language of the moment; refreshed on
// every chart.update() unless a chart module has set a name of its own since.
const axisName = (x, y) => tr(`Chart of ${t(y)} against ${t(x)}`, `${t(y)}随${t(x)}变化的图`);
const defaultLabel = (x, y) => ({
  id: 'posencDefaultLabel',
  beforeUpdate(chart) {
    const c = chart.canvas, now = c.getAttribute('aria-label');
    if (now !== null && now !== c.dataset.autoLabel) return;
    c.dataset.autoLabel = axisName(x, y);
    c.setAttribute('aria-label', c.dataset.autoLabel);
  },
});

/**
 * A line chart on numeric x/y axes with animation and parsing off (they cost the most).
 * Axis titles x and y are strings or L() pairs, resolved in the current language at each update.
 */
export function lineChart(el, Chart, { x, y, xType = 'linear', yType = 'linear', aspect = 2, legend = true } = {}) {
  const canvas = canvasIn(el, aspect);
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [] },
    plugins: [defaultLabel(x, y)],
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false },
      elements: { point: { radius: 0 }, line: { borderWidth: 1.5 } },
      // filler and subtitle are off, not merely unused: Chart.js resolves every plugin's options at every update
      plugins: { legend: { display: legend }, decimation: { enabled: true, algorithm: 'min-max' }, filler: false, subtitle: false },
      // Numbers are never tilted: where they would crowd, autoSkip thins them instead. Chart.js
      // otherwise measures every label for a fitting rotation at each update (about 2 ms a chart).
      scales: {
        x: { type: xType, title: { display: true, text: () => t(x) }, ticks: { maxRotation: 0 } },
        y: { type: yType, title: { display: true, text: () => t(y) }, ticks: { maxRotation: 0 } },
      },
    },
  });
}

// ---- helpers for sections 8-15 (appended; the exports above are unchanged) ----

/** Dash patterns, so curves differ by more than colour (index i pairs with palette[i]). */
export const dashes = [[], [6, 4], [2, 3], [10, 3, 2, 3], [1, 2], [14, 4]];

/**
 * Legend options that draw each entry as a short line in its dataset's colour and dash (bars as
 * a box); datasets labelled '' are left out. Chart.js's own point-style legend drops the dash.
 */
export const lineLegend = {
  display: true,
  labels: {
    usePointStyle: true,
    pointStyleWidth: 34,
    boxHeight: 8,
    generateLabels(chart) {
      const items = chart.constructor.defaults.plugins.legend.labels.generateLabels(chart);
      return items.filter((it) => it.text !== '').map((it) => {
        const ds = chart.data.datasets[it.datasetIndex];
        const bar = (ds.type ?? chart.config.type) === 'bar';
        return {
          ...it,
          pointStyle: bar ? 'rect' : 'line',
          lineDash: bar ? [] : ds.borderDash ?? [],
          lineWidth: bar ? 1 : Math.max(2, ds.borderWidth ?? 1.5),
          strokeStyle: ds.borderColor,
          fillStyle: bar ? ds.backgroundColor : ds.borderColor,
        };
      });
    },
  },
};

/** Legend options for point-only datasets: each entry shows its dataset's marker. */
export const pointLegend = { display: true, labels: { usePointStyle: true } };

/**
 * Tick labels for a log axis (a Chart.js ticks.callback, `this` is the scale): 1, 2 and 5
 * times a power of ten, or only the powers when a decade gets under 60 px; others blank.
 */
export function logTick(v, index, ticks) {
  const m = v / 10 ** Math.floor(Math.log10(v) + 1e-9);
  const span = ticks?.length ? Math.log10(ticks[ticks.length - 1].value / ticks[0].value) : 0;
  const px = (this?.isHorizontal?.() ? this.width : this?.height) || 400;
  const keep = px / Math.max(span, 1e-9) < 60 ? [1] : [1, 2, 5];
  return keep.some((d) => Math.abs(m - d) < 1e-6) ? String(Number(v.toPrecision(3))) : '';
}

/**
 * Drops the ticks whose label is blank (all but the first and the last, which set the axis's
 * padding): their grid lines and tick marks are transparent, and a log axis makes about nine
 * ticks a decade, each of which Chart.js would measure, resolve options for and stroke.
 */
export function dropBlankTicks(axis) {
  const ticks = axis.ticks, n = ticks.length;
  if (n < 3) return;
  const kept = ticks.filter((tick, i) => tick.label !== '' || i === 0 || i === n - 1);
  if (kept.length < n) axis.ticks = kept;
}

/** Options for a log axis: logTick labels, and grid lines only where there is a label. */
export const logAxis = {
  ticks: { callback: logTick, autoSkip: false, maxRotation: 0 },
  grid: { color: (c) => (c.tick?.label ? ink().grid : 'transparent') },
  afterTickToLabelConversion: dropBlankTicks,
};

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
 * A cache of pe.randomNormal(n, seed) for one seed at a time: the first n numbers of a longer
 * draw are the draw of n (the generator runs in order), so asking for fewer reuses it and only
 * a new seed or a larger n draws again. randomNormal costs about 30 ns a number.
 */
export function normalPool(pe) {
  let seed = -1, pool = null;
  return (n, s) => {
    if (s !== seed || pool.length < n) (pool = pe.randomNormal(n, s)), (seed = s);
    return pool.subarray(0, n);
  };
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

/** A canvas for hand-drawn diagrams: draw(ctx, width, height) runs in CSS pixels. */
export function plainCanvas(el, aspect, label) {
  const canvas = canvasIn(el, aspect);
  ariaLabel(canvas, label);
  const ctx = canvas.getContext('2d');
  let last = null;
  // The canvas's CSS size, read where layout is known to be clean (the first paint, and the
  // ResizeObserver, which reports after layout and repaints): reading clientWidth in a redraw,
  // after the page's DOM was written, would force a layout of the whole page.
  let size = null;
  const measure = () => (size = [canvas.clientWidth, canvas.clientHeight]);
  const paint = (draw) => {
    last = draw;
    const [w, h] = size ?? measure(), r = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * r) || canvas.height !== Math.round(h * r)) {
      canvas.width = Math.round(w * r);
      canvas.height = Math.round(h * r);
    }
    ctx.setTransform(r, 0, 0, r, 0, 0);
    ctx.clearRect(0, 0, w, h);
    draw(ctx, w, h);
  };
  const ro = new ResizeObserver(() => (measure(), last && paint(last)));
  ro.observe(canvas);
  return { canvas, paint, destroy: () => ro.disconnect() };
}

// ---- helpers for sections 1-7 (appended; the exports above are unchanged) ----

// matplotlib's 'coolwarm' (Moreland's CoolWarmFloat33 anchors, as in matplotlib's _cm.py),
// so the heatmap reads like the seed's figure. Rows: r, g, b in [0, 1] at t = k/32.
const COOLWARM_33 = [
  [0.2298057, 0.298717966, 0.753683153], [0.26623388, 0.353094838, 0.801466763],
  [0.30386891, 0.406535296, 0.84495867], [0.342804478, 0.458757618, 0.883725899],
  [0.38301334, 0.50941904, 0.917387822], [0.424369608, 0.558148092, 0.945619588],
  [0.46666708, 0.604562568, 0.968154911], [0.509635204, 0.648280772, 0.98478814],
  [0.552953156, 0.688929332, 0.995375608], [0.596262162, 0.726149107, 0.999836203],
  [0.639176211, 0.759599947, 0.998151185], [0.681291281, 0.788964712, 0.990363227],
  [0.722193294, 0.813952739, 0.976574709], [0.761464949, 0.834302879, 0.956945269],
  [0.798691636, 0.849786142, 0.931688648], [0.833466556, 0.860207984, 0.901068838],
  [0.865395197, 0.86541021, 0.865395561], [0.897787179, 0.848937047, 0.820880546],
  [0.924127593, 0.827384882, 0.774508472], [0.944468518, 0.800927443, 0.726736146],
  [0.958852946, 0.769767752, 0.678007945], [0.96732803, 0.734132809, 0.628751763],
  [0.969954137, 0.694266682, 0.579375448], [0.966811177, 0.650421156, 0.530263762],
  [0.958003065, 0.602842431, 0.481775914], [0.943660866, 0.551750968, 0.434243684],
  [0.923944917, 0.49730856, 0.387970225], [0.89904617, 0.439559467, 0.343229596],
  [0.869186849, 0.378313092, 0.300267182], [0.834620542, 0.312874446, 0.259301199],
  [0.795631745, 0.24128379, 0.220525627], [0.752534934, 0.157246067, 0.184115123],
  [0.705673158, 0.01555616, 0.150232812],
];

/** coolwarm as 256 RGB triples (Uint8ClampedArray(768)), sampled like matplotlib's N = 256 LUT. */
export const coolwarm = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    const t = (k / 255) * 32, j = Math.min(31, Math.floor(t)), f = t - j;
    for (let c = 0; c < 3; c++) lut[3 * k + c] = Math.round(255 * (COOLWARM_33[j][c] * (1 - f) + COOLWARM_33[j + 1][c] * f));
  }
  return lut;
})();

/** The coolwarm entry for v on [lo, hi] (matplotlib's rule: floor(t * 256), clipped). */
export function coolwarmIndex(v, lo = -1, hi = 1) {
  const k = Math.floor(((v - lo) / (hi - lo)) * 256);
  return k < 0 ? 0 : k > 255 ? 255 : k;
}

/** CSS colour of v on [lo, hi] in coolwarm, mixed with white by `tint` so dark text stays legible on it. */
export function coolwarmCss(v, lo = -1, hi = 1, tint = 0) {
  const k = 3 * coolwarmIndex(v, lo, hi);
  const mix = (c) => Math.round(c + (255 - c) * tint);
  return `rgb(${mix(coolwarm[k])} ${mix(coolwarm[k + 1])} ${mix(coolwarm[k + 2])})`;
}

/** About `count` round tick values (steps of 1, 2 or 5 × 10^k, at least `minStep`) covering [lo, hi]. */
export function niceTicks(lo, hi, count = 6, minStep = 1) {
  const raw = Math.max(minStep, (hi - lo) / Math.max(1, count));
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/**
 * A Chart.js plugin that writes dataset.pointLabels[i] beside point i (scatter points and
 * bars alike): above the point, or below a bar whose value is negative.
 */
export const pointLabels = {
  id: 'posencPointLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'center';
    chart.data.datasets.forEach((ds, i) => {
      if (!ds.pointLabels || !chart.isDatasetVisible(i)) return;
      const meta = chart.getDatasetMeta(i);
      meta.data.forEach((el, j) => {
        const text = ds.pointLabels[j];
        if (!text) return;
        const below = meta.type === 'bar' && ds.data[j] < 0;
        ctx.fillStyle = ds.labelColor ?? ink().fg;
        ctx.textBaseline = below ? 'top' : 'bottom';
        ctx.fillText(text, el.x + (ds.labelDx ?? 0), el.y + (below ? 4 : -(ds.labelDy ?? 6)));
      });
    });
    ctx.restore();
  },
};

/** A scatter chart on numeric axes (animation and parsing off) with pointLabels registered. */
export function scatterChart(el, Chart, { x, y, aspect = 1, legend = false, label } = {}) {
  const canvas = canvasIn(el, aspect);
  if (label) ariaLabel(canvas, label);
  return new Chart(canvas, {
    type: 'scatter',
    data: { datasets: [] },
    plugins: [pointLabels, ...(label ? [] : [defaultLabel(x, y)])],
    options: {
      animation: false,
      parsing: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: legend } },
      scales: {
        x: { type: 'linear', title: { display: true, text: () => t(x) } },
        y: { type: 'linear', title: { display: true, text: () => t(y) } },
      },
    },
  });
}

// ---- helpers for sections 16-20 (appended; the exports above are unchanged) ----

/**
 * Asks the chart host to redraw the chart around `el`, as a change of one of its controls
 * would: for inputs a chart builds in its own body (a textarea, a preset menu), which the host
 * does not watch. The host then calls update() once per frame, keeps `data` and fires
 * 'posenc:drawn', exactly as for its own controls.
 */
export function requestRedraw(el) {
  el.closest('.chart')?.querySelector('.controls input, .controls select')?.dispatchEvent(new Event('input'));
}

// viridis, from its nine-colour sampling (R's viridisLite::viridis(9)), interpolated to 256
// entries: a perceptually even, colour-blind-safe sequential map for magnitudes.
const VIRIDIS_9 = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21908c', '#27ad81', '#5dc863', '#aadc32', '#fde725'];

/** viridis as 256 RGB triples (Uint8ClampedArray(768)), dark purple (low) to yellow (high). */
export const viridis = (() => {
  const rgb = VIRIDIS_9.map((h) => [1, 3, 5].map((o) => parseInt(h.slice(o, o + 2), 16)));
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    const t = (k / 255) * 8, j = Math.min(7, Math.floor(t)), f = t - j;
    for (let c = 0; c < 3; c++) lut[3 * k + c] = Math.round(rgb[j][c] * (1 - f) + rgb[j + 1][c] * f);
  }
  return lut;
})();

/**
 * Paints a cols × rows grid into `image` (an offscreen canvas, one pixel per cell):
 * index(c, r) gives a LUT entry 0..255, or -1 for a cell without a value (drawn light grey).
 */
export function fillCells(image, cols, rows, lut, index) {
  if (image.width !== cols || image.height !== rows) (image.width = cols), (image.height = rows);
  const ctx = image.getContext('2d');
  const img = ctx.createImageData(cols, rows);
  const px = img.data;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const k = index(c, r), o = 4 * (r * cols + c);
      if (k < 0) px.set([232, 234, 238, 255], o);
      else (px[o] = lut[3 * k]), (px[o + 1] = lut[3 * k + 1]), (px[o + 2] = lut[3 * k + 2]), (px[o + 3] = 255);
    }
  }
  ctx.putImageData(img, 0, 0);
  return image;
}

/**
 * Draws a cell image into the rectangle `plot` ({ x, y, w, h }, CSS pixels) with a frame, tick
 * labels and axis titles: xTicks / yTicks are [fraction of the axis from the left / top, text];
 * yTitleX (default 34 px left of the plot) is where the rotated y title is centred.
 * Cells stay sharp blocks when enlarged and are averaged when shrunk.
 */
export function drawCells(ctx, image, plot, { xTicks = [], yTicks = [], xTitle = '', yTitle = '', yTitleX, title = '' } = {}) {
  ctx.imageSmoothingEnabled = image.width > plot.w || image.height > plot.h;
  ctx.drawImage(image, plot.x, plot.y, plot.w, plot.h);
  const colour = ink();
  ctx.strokeStyle = colour.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x - 0.5, plot.y - 0.5, plot.w + 1, plot.h + 1);
  ctx.fillStyle = colour.fg;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const [f, text] of xTicks) {
    const x = plot.x + f * plot.w;
    ctx.fillRect(Math.round(x), plot.y + plot.h, 1, 3);
    ctx.fillText(text, x, plot.y + plot.h + 4);
  }
  if (xTitle) ctx.fillText(xTitle, plot.x + plot.w / 2, plot.y + plot.h + 18);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const [f, text] of yTicks) {
    const y = plot.y + f * plot.h;
    ctx.fillRect(plot.x - 3, Math.round(y), 3, 1);
    ctx.fillText(text, plot.x - 5, y);
  }
  if (yTitle) {
    ctx.save();
    ctx.translate(yTitleX ?? plot.x - 34, plot.y + plot.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText(yTitle, 0, 0);
    ctx.restore();
  }
  if (title) {
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText(title, plot.x, plot.y - 4);
  }
}

/** A vertical colour bar for `lut` in rect { x, y, w, h }, top = 255; labels are [fraction from the top, text]. */
export function drawColourBar(ctx, lut, bar, labels) {
  for (let py = 0; py < bar.h; py++) {
    const k = 3 * Math.min(255, Math.max(0, Math.floor((1 - (py + 0.5) / bar.h) * 256)));
    ctx.fillStyle = `rgb(${lut[k]} ${lut[k + 1]} ${lut[k + 2]})`;
    ctx.fillRect(bar.x, bar.y + py, bar.w, 1);
  }
  const colour = ink();
  ctx.strokeStyle = colour.muted;
  ctx.lineWidth = 1;
  ctx.strokeRect(bar.x - 0.5, bar.y - 0.5, bar.w + 1, bar.h + 1);
  ctx.fillStyle = colour.fg;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const [f, text] of labels) {
    const y = bar.y + f * bar.h;
    ctx.fillRect(bar.x + bar.w, Math.round(y), 3, 1);
    ctx.fillText(text, bar.x + bar.w + 5, y);
  }
}

/**
 * A Chart.js plugin that shades the plot area right of x = options.plugins.posencBeyond.x (a
 * region such as "never seen in training") and writes its .label at the top of it.
 */
export const beyondShade = {
  id: 'posencBeyond',
  beforeDatasetsDraw(chart) {
    const o = chart.options.plugins.posencBeyond;
    if (!o || o.x === undefined || o.x === null) return;
    const { ctx, chartArea: a, scales } = chart;
    const x = Math.max(a.left, Math.min(a.right, scales.x.getPixelForValue(o.x)));
    if (x >= a.right) return;
    ctx.save();
    ctx.fillStyle = o.color ?? 'rgba(91, 100, 117, 0.1)';
    ctx.fillRect(x, a.top, a.right - x, a.bottom - a.top);
    if (o.label) {
      ctx.fillStyle = ink().muted;
      ctx.font = '11px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(t(o.label), x + 4, a.top + 3);
    }
    ctx.restore();
  },
};

/** lineChart(el, Chart, opts) with inline Chart.js plugins (beyondShade, pointLabels, ...). */
export function lineChartWith(plugins, el, Chart, opts) {
  // lineChart builds its config itself; a constructor that adds `plugins` to it reuses all of it.
  function WithPlugins(canvas, config) {
    return new Chart(canvas, { ...config, plugins: [...(config.plugins ?? []), ...plugins] });
  }
  return lineChart(el, WithPlugins, opts);
}

// ---- helpers for cheap redraws (appended; the exports above are unchanged) ----

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
