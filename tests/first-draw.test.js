// first-draw.test.js: the Chart.js the host hands to chart modules skips the drawing of a chart
// built without data (its first update) and nothing else.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './browser.js';

let b;
before(async () => (b = await startBrowser()));
after(async () => b?.close());

test('a chart built without data is first drawn by its first update with data; one built with data at once', async () => {
  const context = await b.browser.newContext();
  const page = await context.newPage();
  await page.route(`${b.url}blank.html`, (r) => r.fulfill({ body: '<!doctype html><title>first draw</title>', contentType: 'text/html' }));
  await page.goto(`${b.url}blank.html`);
  await page.addScriptTag({ url: `${b.url}vendor/chart.umd.js` });
  const r = await page.evaluate(async () => {
    const { drawnWithData } = await import('./host/first-draw.js');
    const Chart = drawnWithData(window.Chart);
    const draws = new Map();
    const counter = { id: 'count', afterDraw: (c) => draws.set(c, (draws.get(c) ?? 0) + 1) };
    const canvas = () => {
      const box = document.createElement('div');
      box.style.cssText = 'width: 400px; height: 200px';
      document.body.append(box);
      return box.appendChild(document.createElement('canvas'));
    };
    const options = { animation: false, responsive: true, maintainAspectRatio: false };
    const data = () => ({ datasets: [{ label: 'y', data: [{ x: 0, y: 1 }, { x: 1, y: 2 }] }] });
    const empty = new Chart(canvas(), { type: 'scatter', data: { datasets: [] }, options, plugins: [counter] });
    const out = { emptyBuilt: draws.get(empty) ?? 0 };
    empty.data = data();
    empty.update();
    out.emptyUpdated = draws.get(empty) ?? 0;
    empty.data = { datasets: [] };
    empty.update();
    out.emptiedAgain = draws.get(empty) ?? 0;
    const full = new Chart(canvas(), { type: 'scatter', data: data(), options, plugins: [counter] });
    out.fullBuilt = draws.get(full) ?? 0;
    out.isChart = empty instanceof window.Chart && window.Chart.getChart(empty.canvas) === empty;
    out.same = drawnWithData(window.Chart) === Chart;
    return out;
  });
  // emptied again: a chart whose data goes away is drawn without it, not left as it was
  assert.deepEqual(r, { emptyBuilt: 0, emptyUpdated: 1, emptiedAgain: 2, fullBuilt: 1, isChart: true, same: true });
  await context.close();
});
