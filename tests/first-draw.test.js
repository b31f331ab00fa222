// first-draw.test.js: the Chart.js the host hands to chart modules skips the drawing of a chart
// built without data (its first update), and draws a chart once it has a size from canvas-sizes.js
// (after the browser's own layout), or once measured (what print and the idle page do).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './browser.js';

let b;
before(async () => (b = await startBrowser()));
after(async () => b?.close());

test('a chart is drawn once it has data and a size: built without data, it is first drawn with them; one never laid out is drawn when measured', async () => {
  const context = await b.browser.newContext();
  const page = await context.newPage();
  await page.route(`${b.url}blank.html`, (r) => r.fulfill({ body: '<!doctype html><title>first draw</title>', contentType: 'text/html' }));
  await page.goto(`${b.url}blank.html`);
  await page.addScriptTag({ url: `${b.url}vendor/chart.umd.js` });
  const r = await page.evaluate(async () => {
    const { drawnWithData } = await import('./host/first-draw.js');
    const { sizeAll, sizeOf, whenSized } = await import('./host/canvas-sizes.js');
    const Chart = drawnWithData(window.Chart);
    const draws = new Map();
    const counter = { id: 'count', afterDraw: (c) => draws.set(c, [...(draws.get(c) ?? []), c.data.datasets.length]) };
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const canvas = (section = '') => {
      const around = document.body.appendChild(document.createElement('section'));
      around.style.cssText = section;
      const box = around.appendChild(document.createElement('div'));
      box.style.cssText = 'width: 400px; height: 200px';
      return box.appendChild(document.createElement('canvas'));
    };
    const options = { animation: false, responsive: true, maintainAspectRatio: false };
    const data = () => ({ datasets: [{ label: 'y', data: [{ x: 0, y: 1 }, { x: 1, y: 2 }] }] });
    const empty = new Chart(canvas(), { type: 'scatter', data: { datasets: [] }, options, plugins: [counter] });
    const full = new Chart(canvas(), { type: 'scatter', data: data(), options, plugins: [counter] });
    // far below the view, in a box the browser skips (as the page's sections far from the view)
    const far = new Chart(canvas('margin-top: 5000px; content-visibility: auto; contain-intrinsic-size: 400px 200px'),
      { type: 'scatter', data: data(), options, plugins: [counter] });
    const out = { built: [draws.get(empty), draws.get(full), draws.get(far)] };
    empty.data = data();
    empty.update();
    out.updatedUnsized = draws.get(empty);
    await frames();
    out.sized = [draws.get(empty), draws.get(full), sizeOf(full.canvas), [full.width, full.height], full.canvas.width];
    empty.data = { datasets: [] };
    empty.update();
    out.emptiedAgain = draws.get(empty);
    out.farBefore = [draws.get(far), sizeOf(far.canvas)];
    let settled = false;
    whenSized().then(() => (settled = true));
    await Promise.resolve();
    out.farWaits = settled;
    sizeAll();
    await Promise.resolve();
    out.farMeasured = [draws.get(far), sizeOf(far.canvas), settled];
    // and one the page never shows is drawn when the page is idle
    const idle = new Chart(canvas('margin-top: 5000px; content-visibility: auto; contain-intrinsic-size: 400px 200px'),
      { type: 'scatter', data: data(), options, plugins: [counter] });
    await whenSized();
    out.idle = [draws.get(idle), sizeOf(idle.canvas)];
    // a chart taken down while its page waits for it to be drawn no longer holds the wait
    const gone = new Chart(canvas('margin-top: 5000px; content-visibility: auto; contain-intrinsic-size: 400px 200px'),
      { type: 'scatter', data: data(), options, plugins: [counter] });
    let released = false;
    whenSized().then(() => (released = true));
    gone.destroy();
    await Promise.resolve();
    out.destroyed = [draws.get(gone), released];
    out.isChart = empty instanceof window.Chart && window.Chart.getChart(empty.canvas) === empty;
    out.same = drawnWithData(window.Chart) === Chart;
    return out;
  });
  assert.deepEqual(r, {
    built: [undefined, undefined, undefined],
    updatedUnsized: undefined,
    // each drawn once, with its data, at the size the box gives it (pixel ratio 1)
    sized: [[1], [1], [400, 200], [400, 200], 400],
    // a chart whose data goes away is drawn without it, not left as it was
    emptiedAgain: [1, 0],
    farBefore: [undefined, null],
    farWaits: false,
    farMeasured: [[1], [400, 200], true],
    idle: [[1], [400, 200]],
    destroyed: [undefined, true],
    isChart: true,
    same: true,
  });
  await context.close();
});
