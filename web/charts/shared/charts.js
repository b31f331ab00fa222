// charts.js: Chart.js charts as posenc draws them: line and scatter charts with animation and
// parsing off (they cost the most), legends that show dashes, log axes, point labels and the
// shading beyond a training length.
import { t, messages } from '../../host/i18n.js';
import { ink, palette, isDark, textShade } from './colours.js';
import { ariaLabel, canvasIn } from './canvas.js';
import { chartFont, textSize } from './lettering.js';

export const MESSAGES = messages({
  en: { axisName: 'Chart of {y} against {x}' },
  zh: { axisName: '{y} 随 {x} 变化的图' },
});

// The default accessible name of a chart on axes, in the language of the moment; refreshed on
// every chart.update() unless a chart module has set a name of its own since.
const axisName = (x, y) => MESSAGES.axisName.format({ x: t(x), y: t(y) });

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
 * Axis titles x and y are strings or messages, resolved in the current language at each update.
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
      // A curve with more points than the plot has pixels across zigzags within each pixel: at
      // 1.5 px the browser strokes it as a wide outline of thousands of overlapping segments
      // (frequency-curves at 4096 positions took a second a frame to paint in software), at 1 px
      // as a hairline (27 ms), and it looks the same, a band.
      elements: { point: { radius: 0 }, line: { borderWidth: (c) => (c.dataset?.data?.length > (c.chart.chartArea?.width ?? c.chart.width) ? 1 : 1.5) } },
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

// ---- charts with plugins ----

/** lineChart(el, Chart, opts) with inline Chart.js plugins (beyondShade, pointLabels, ...). */
export function lineChartWith(plugins, el, Chart, opts) {
  // lineChart builds its config itself; a constructor that adds `plugins` to it reuses all of it.
  function WithPlugins(canvas, config) {
    return new Chart(canvas, { ...config, plugins: [...(config.plugins ?? []), ...plugins] });
  }
  return lineChart(el, WithPlugins, opts);
}

// ---- scatter charts ----

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

// ---- legends, axes and overlays ----

/**
 * Legend options that draw each entry as a short line in its dataset's colour and dash (bars as
 * a box, marks without a line as their mark); datasets labelled '' are left out. Chart.js's
 * own point-style legend drops the dash.
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
        const bar = (ds.type ?? chart.config.type) === 'bar', marks = ds.showLine === false;
        return {
          ...it,
          pointStyle: bar ? 'rect' : marks ? ds.pointStyle ?? 'circle' : 'line',
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
 * How a log axis writes v: from a thousand on as the field writes context lengths (4k, 128k,
 * 1M, 2B), below a thousandth in exponent form (5e-4), plain digits between; one rule for every
 * axis, so that no axis runs from 1000 to 1e4.
 */
export function logLabel(v) {
  const p = Math.floor(Math.log10(v) + 1e-9), digits = (x) => String(Number(x.toPrecision(3)));
  if (p >= 3 && p < 12) return digits(v / 1000 ** Math.floor(p / 3)) + ['k', 'M', 'B'][Math.floor(p / 3) - 1];
  return p >= 12 || p < -3 ? `${digits(v / 10 ** p)}e${p}` : digits(v);
}

/**
 * Tick labels for a log axis (a Chart.js ticks.callback, `this` is the scale): 1, 2 and 5
 * times a power of ten where a decade has room for three labels, the powers where it has room
 * for one, every other power where it has less; others blank. A label takes a line's height on
 * a vertical axis and its digits' width on a horizontal one.
 */
export function logTick(v, index, ticks) {
  const p = Math.floor(Math.log10(v) + 1e-9), m = v / 10 ** p;
  const span = ticks?.length ? Math.log10(ticks[ticks.length - 1].value / ticks[0].value) : 0;
  const horizontal = this?.isHorizontal?.();
  const px = (horizontal ? this.width : this?.height) || 400;
  const label = horizontal && ticks?.length ? 7 * logLabel(ticks[ticks.length - 1].value).length + 10 : 20;
  const perDecade = px / Math.max(span, 1e-9);
  const keep = perDecade >= 3 * label ? [1, 2, 5] : perDecade >= label || p % 2 === 0 ? [1] : [];
  return keep.some((d) => Math.abs(m - d) < 1e-6) ? logLabel(v) : '';
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
 * bars alike): above the point, or below a bar whose value is negative. Each label has a halo
 * of the background, so that it stays readable where a line runs through it.
 */
export const pointLabels = {
  id: 'posencPointLabels',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.font = chartFont('label');
    ctx.textAlign = 'center';
    Object.assign(ctx, { strokeStyle: ink().bg, lineWidth: 3, lineJoin: 'round' });
    chart.data.datasets.forEach((ds, i) => {
      if (!ds.pointLabels || !chart.isDatasetVisible(i)) return;
      const meta = chart.getDatasetMeta(i);
      meta.data.forEach((el, j) => {
        const text = ds.pointLabels[j];
        if (!text) return;
        const below = meta.type === 'bar' && ds.data[j] < 0;
        ctx.fillStyle = ds.labelColor ? textShade(ds.labelColor) : ink().fg;
        ctx.textBaseline = below ? 'top' : 'bottom';
        // centred on its point, but moved in from the canvas's edges, which would cut it off
        const half = ctx.measureText(text).width / 2 + 2;
        const x = Math.min(Math.max(el.x + (ds.labelDx ?? 0), half), chart.width - half), y = el.y + (below ? 4 : -(ds.labelDy ?? 6));
        ctx.strokeText(text, x, y);
        ctx.fillText(text, x, y);
      });
    });
    ctx.restore();
  },
};

/**
 * A Chart.js plugin that shades the plot area right of x = options.plugins.posencBeyond.x (a
 * region such as "never seen in training") under the lines, and writes its .label at the top of
 * it over them, on a backdrop of the background (a line along the top would cross it).
 */
export const beyondShade = {
  id: 'posencBeyond',
  beforeDatasetsDraw(chart) {
    const x = beyondX(chart);
    if (x === null) return;
    const { ctx, chartArea: a } = chart;
    ctx.save();
    ctx.fillStyle = isDark() ? 'rgba(170, 180, 200, 0.14)' : 'rgba(91, 100, 117, 0.1)';
    ctx.fillRect(x, a.top, a.right - x, a.bottom - a.top);
    ctx.restore();
  },
  afterDatasetsDraw(chart) {
    const x = beyondX(chart), label = chart.options.plugins.posencBeyond?.label;
    if (x === null || !label) return;
    const { ctx, chartArea: a } = chart;
    ctx.save();
    ctx.font = chartFont('tick');
    const text = fitText(ctx, t(label), a.right - a.left - 8);
    // at the shade's edge, or further left where the shade is too narrow for it: never past the plot
    const width = ctx.measureText(text).width, left = Math.max(a.left + 4, Math.min(x + 4, a.right - 4 - width));
    ctx.globalAlpha = 0.85;
    ctx.fillStyle = ink().bg;
    ctx.fillRect(left - 2, a.top + 1, width + 4, textSize('tick') + 3);
    ctx.globalAlpha = 1;
    ctx.fillStyle = ink().muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(text, left, a.top + 3);
    ctx.restore();
  },
};

/** text, cut with an ellipsis where it is wider than `max` pixels in ctx's font. */
function fitText(ctx, text, max) {
  if (ctx.measureText(text).width <= max) return text;
  let n = text.length;
  while (n > 1 && ctx.measureText(`${text.slice(0, n)}…`).width > max) n--;
  return `${text.slice(0, n)}…`;
}

/** The shade's left edge in pixels, or null when there is none to draw. */
function beyondX(chart) {
  const o = chart.options.plugins.posencBeyond;
  if (!o || o.x === undefined || o.x === null) return null;
  const { chartArea: a, scales } = chart;
  const x = Math.max(a.left, Math.min(a.right, scales.x.getPixelForValue(o.x)));
  return x >= a.right ? null : x;
}
