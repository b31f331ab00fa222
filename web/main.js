// main.js: loads the kernels, then mounts every <div data-chart="kind"> with its module
// web/charts/<kind>.js. A chart that fails shows its own error and leaves the rest working.
import { loadPosenc } from './posenc.js';
import { mountChart } from './chart-host.js';

const status = document.getElementById('status');
const charts = new Map();
window.posencPage = { charts, ready: null };

async function mountAll() {
  let pe;
  try {
    pe = await loadPosenc();
  } catch (err) {
    status.textContent = `The kernels could not load (${err.message}). The charts need WebAssembly.`;
    status.classList.add('error');
    return;
  }
  document.getElementById('build-kind').textContent = pe.simd ? 'SIMD' : 'scalar';
  const { Chart } = window;
  for (const el of document.querySelectorAll('[data-chart]')) {
    const kind = el.dataset.chart;
    try {
      const { default: chart } = await import(`./charts/${kind}.js`);
      charts.set(kind, mountChart(el, chart, { pe, Chart }));
    } catch (err) {
      el.textContent = `This chart could not be drawn: ${err.message}`;
      el.classList.add('error');
      console.error(`chart ${kind}:`, err);
    }
  }
  status.textContent = '';
}

window.posencPage.ready = new Promise((resolve) => {
  const go = () => mountAll().then(resolve);
  // Chart.js is a deferred classic script; module scripts run after it.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go);
  else go();
});
