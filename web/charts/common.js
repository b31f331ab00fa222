// common.js: what the charts share, in one import; each helper lives in shared/ by topic:
// colours.js (palette, dashes, ink, colour maps), canvas.js (hand-drawn canvases, heatmaps),
// charts.js (Chart.js line and scatter charts, legends, axes), data.js (numbers, grids, kept
// points and rows, what was drawn last), columns.js (the data tables' headers in the page's
// language).
export * from './shared/colours.js';
export * from './shared/canvas.js';
export * from './shared/charts.js';
export * from './shared/data.js';
export * from './shared/lettering.js';
export * from './shared/columns.js';
