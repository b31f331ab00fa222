// common.js: what every Chart.js chart of posenc shares: a canvas sized to its container,
// fast options for long line data, and a colour-blind-safe palette (Okabe-Ito).
export const palette = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];

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

/** A line chart on numeric x/y axes with animation and parsing off (they cost the most). */
export function lineChart(el, Chart, { x, y, xType = 'linear', yType = 'linear', aspect = 2, legend = true } = {}) {
  const canvas = canvasIn(el, aspect);
  canvas.setAttribute('aria-label', `${y} against ${x}`);
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [] },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false },
      elements: { point: { radius: 0 }, line: { borderWidth: 1.5 } },
      plugins: { legend: { display: legend }, decimation: { enabled: true, algorithm: 'min-max' } },
      scales: {
        x: { type: xType, title: { display: true, text: x } },
        y: { type: yType, title: { display: true, text: y } },
      },
    },
  });
}
