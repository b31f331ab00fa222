// redraw.test.js: a chart that moved to new values draws exactly what a chart mounted at those
// values draws: a series, a property or a cache of a chart module left over from the previous
// values would show here as a pixel difference.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';

let b, page;
before(async () => {
  b = await startBrowser();
  ({ page } = await b.open());
  await pageReady(page);
});
after(async () => b?.close());

/** Moves every control of every chart of the page (`far`: to the other end), then mounts each
 * chart afresh at the same values beside it; returns the kinds whose canvases differ. */
function compareMoved(far) {
  return page.evaluate(async (far) => {
    const { mountChart, loadChart } = await import('./host/chart-host.js');
    const { kernels, chartJs } = await import('./host/runtime.js');
    const { whenSized } = await import('./host/canvas-sizes.js');
    const [pe, Chart] = await Promise.all([kernels(), chartJs()]);
    // the canvases a reader sees (a panel a control hides keeps its last drawing), as their size
    // and RGBA words: what a PNG of each holds, read without encoding one
    const pixels = (el) => [...el.querySelectorAll('canvas')].filter((c) => c.getClientRects().length)
      .map((c) => ({ w: c.width, h: c.height, rgba: c.width && c.height ? new Uint32Array(c.getContext('2d').getImageData(0, 0, c.width, c.height).data.buffer) : null }));
    const samePixels = (a, b) => a.w === b.w && a.h === b.h && (a.rgba === null || a.rgba.every((v, i) => v === b.rgba[i]));
    const out = { differ: [], compared: 0, skipped: [] };
    for (const [kind, host] of window.posencPage.charts) {
      for (const c of host.controls) {
        const p = c.param;
        if (p.type === 'select') c.write(far ? p.options.at(-1) : p.options[Math.min(1, p.options.length - 1)]);
        else if (p.type === 'bool') c.write(!p.value);
        else if (p.type === 'int' || p.type === 'number') {
          // the lower end, or a third of the way up, on the control's step
          const step = p.step === 'any' || !p.step ? 1 : p.step;
          c.write(far ? p.min : Math.min(p.max, p.min + Math.round((p.max - p.min) / 3 / step) * step));
        }
      }
      if (host.update() === null) {
        out.skipped.push(kind);
        continue;
      }
      const box = document.querySelector(`[data-chart="${kind}"]`);
      // in view, as a reader sees it: a section out of view is not laid out (content-visibility),
      // and a canvas resized meanwhile is repainted at its size once it is
      box.scrollIntoView();
      for (let f = 0; f < 2; f++) await new Promise((r) => requestAnimationFrame(r));
      // A chart may start reading data when a control asks for it (section 22's every layer) and
      // draw again once it has come: what it drew before may then differ from a twin mounted
      // after. Such a chart gets up to ten looks 200 ms apart (a busy machine reads slowly);
      // left-over state differs in all.
      let same = false;
      for (let look = 0; look < 10 && !same; look++) {
        if (look) {
          await new Promise((r) => setTimeout(r, 200));
          host.update();
        }
        const twin = document.createElement('div');
        twin.style.width = `${box.getBoundingClientRect().width}px`;
        box.after(twin);
        const fresh = mountChart(twin, await loadChart(kind), { pe, Chart, values: host.params() });
        // drawn once laid out, at the next frame
        await whenSized(twin);
        const [a, b2] = [pixels(box), pixels(twin)];
        same = a.length === b2.length && a.every((u, i) => samePixels(u, b2[i]));
        fresh.destroy();
        twin.remove();
      }
      if (!same) out.differ.push(kind);
      out.compared++;
    }
    return out;
  }, far);
}

test('every chart moved to other values draws what a chart mounted at them draws', async () => {
  for (const far of [false, true]) {
    const { differ, compared, skipped } = await compareMoved(far);
    assert.ok(compared >= 20, `compared ${compared} charts (skipped ${skipped})`);
    assert.deepEqual(differ, [], far ? 'every control at its lower end' : 'every control a third of the way up');
  }
});
