// The page as a reader gets it, in Debian's Chromium: every chart mounts and draws, nothing
// is logged, nothing fails to load, nothing leaves localhost; the API gives in the browser
// exactly what it gives in Node.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';
import { loadPosenc } from '../web/posenc.js';

let b;
before(async () => (b = await startBrowser()));
after(async () => b?.close());

test('every chart mounts and draws; no console message, failed or external request', async () => {
  const { page, problems, context } = await b.open();
  await pageReady(page);
  const { kinds, mounted, empty } = await page.evaluate(() => {
    const kinds = [...document.querySelectorAll('[data-chart]')].map((e) => e.dataset.chart);
    const charts = window.posencPage.charts;
    const empty = kinds.filter((k) => !charts.get(k)?.data?.rows?.length);
    return { kinds, mounted: [...charts.keys()], empty };
  });
  assert.ok(kinds.length >= 20, `only ${kinds.length} charts on the page`);
  assert.deepEqual(mounted.sort(), [...kinds].sort(), 'every chart mounted');
  assert.deepEqual(empty, [], 'charts that drew no data');
  // every canvas shows something besides its background
  const blank = await page.evaluate(() =>
    [...document.querySelectorAll('main canvas')]
      .filter((c) => {
        if (!c.width || !c.height) return true;
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) return false;
        return true;
      })
      .map((c) => c.closest('[data-chart]')?.dataset.chart),
  );
  assert.deepEqual(blank, [], 'blank canvases');
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await context.close();
});

test('the API in Chromium gives exactly what it gives in Node, both builds', async () => {
  const { page, context } = await b.open('index.html');
  const inBrowser = await page.evaluate(async () => {
    const { loadPosenc } = await import('./posenc.js');
    const out = {};
    for (const simd of [true, false]) {
      const pe = await loadPosenc({ simd });
      out[simd] = {
        simd: pe.simd,
        table: Array.from(pe.sinusoidal(3, 8, { start: 999_999 })),
        rope: Array.from(pe.applyRope([1, 2, 3, 4], { heads: 1, headDim: 4, positions: [123456], style: 'half' })),
        decay: Array.from(pe.ropeDecay([0, 10, 1000], { dim: 256, kind: 'bound' })),
        normal: Array.from(pe.randomNormal(5, 7)),
      };
    }
    return out;
  });
  for (const simd of [true, false]) {
    const pe = await loadPosenc({ simd });
    assert.deepEqual(inBrowser[simd], {
      simd,
      table: Array.from(pe.sinusoidal(3, 8, { start: 999_999 })),
      rope: Array.from(pe.applyRope([1, 2, 3, 4], { heads: 1, headDim: 4, positions: [123456], style: 'half' })),
      decay: Array.from(pe.ropeDecay([0, 10, 1000], { dim: 256, kind: 'bound' })),
      normal: Array.from(pe.randomNormal(5, 7)),
    });
  }
  await context.close();
});

test('reads on a phone: nothing wider than 360 px', async () => {
  const { page, context } = await b.open('', { viewport: { width: 360, height: 740 } });
  await pageReady(page);
  const wide = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    return [...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > w + 1 && !e.closest('.table-scroll'))
      .map((e) => `${e.closest('[data-chart]')?.dataset.chart ?? e.closest('section')?.id}: <${e.tagName.toLowerCase()} class="${e.className}">`)
      .slice(0, 10);
  });
  assert.deepEqual(wide, []);
  await context.close();
});
