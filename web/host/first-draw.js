// first-draw.js: Chart.js as the host hands it to chart modules. A module builds its charts
// without data and gives them their data in its first update, right after; Chart.js draws a
// chart as it builds it, though: the axes, grid and legend of an empty chart that no one sees,
// and the costlier of the two drawings (its code and fonts meet the page for the first time).
// Here that empty drawing is skipped: a chart's first update is cancelled when it has no data.

/** A chart's first update (the one Chart.js makes as it builds it), when the chart has no datasets. */
const seen = new WeakSet();
const noEmptyFirstDraw = {
  id: 'posencNoEmptyFirstDraw',
  beforeUpdate(chart) {
    if (seen.has(chart)) return true;
    seen.add(chart);
    return chart.data.datasets.length > 0;
  },
};

const wrapped = new WeakMap();
/** `Chart` (a Chart.js constructor) whose charts skip that drawing; everything else is Chart's own. */
export function drawnWithData(Chart) {
  if (typeof Chart !== 'function') return Chart; // (a chart that draws on its own canvas gets none)
  if (!wrapped.has(Chart)) {
    wrapped.set(Chart, new Proxy(Chart, {
      construct: (C, [canvas, config = {}]) =>
        Reflect.construct(C, [canvas, { ...config, plugins: [...(config.plugins ?? []), noEmptyFirstDraw] }], C),
    }));
  }
  return wrapped.get(Chart);
}
