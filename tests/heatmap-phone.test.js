// heatmap-phone.test.js: the sinusoidal heatmap drawn narrower than its table, as on a phone.
// Its columns are then merged sin with sin and cos with cos (sin-pixels.js): the slow pairs'
// grey sines and red cosines stay apart as stripes, the fast pairs at 1024 positions keep more
// of their red and blue than a purple band, and a tapped cell still reads its own value.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './browser.js';
import { columnSpans } from '../web/charts/shared/sin-pixels.js';

let b;
before(async () => {
  b = await startBrowser();
});
after(async () => {
  await b?.close();
});

test('columnSpans: tight columns merge one kind only, each pixel\'s weights add up to 1 (and to 256 in 256ths)', () => {
  for (const [width, dim, stripe] of [[428, 512, 2], [300, 512, 1], [600, 1024, 3], [700, 512, 1], [8, 2, 1]]) {
    for (const layout of ['interleaved', 'concat']) {
      const { start, at, wt, w8 } = columnSpans(width, dim, layout, { tight: true, stripe });
      const seen = new Set();
      for (let x = 0; x < width; x++) {
        const cols = Array.from(at.subarray(start[x], start[x + 1]));
        const kind = (c) => (layout === 'concat' ? (c < dim / 2 ? 'sin' : 'cos') : c % 2 ? 'cos' : 'sin');
        const want = layout === 'concat' ? (x < width / 2 ? 'sin' : 'cos') : Math.floor(x / stripe) % 2 ? 'cos' : 'sin';
        assert.ok(cols.length > 0 && cols.every((c) => kind(c) === want), `${layout} ${width}/${dim} pixel ${x}: columns ${cols} are not all ${want}`);
        const sum = wt.subarray(start[x], start[x + 1]).reduce((s, w) => s + w, 0);
        assert.ok(Math.abs(sum - 1) < 1e-5, `${layout} ${width}/${dim} pixel ${x}: weights add up to ${sum}`);
        assert.equal(w8.subarray(start[x], start[x + 1]).reduce((s, w) => s + w, 0), 256, `${layout} ${width}/${dim} pixel ${x}: 256ths`);
        cols.forEach((c) => seen.add(c));
      }
      assert.equal(seen.size, dim, `${layout} ${width}/${dim}: every column is drawn somewhere`);
    }
  }
});

/**
 * The heatmap at `width` CSS px, ×`dpr`: the plot's pixels (RGBA rows, device pixels, a few
 * pixels inside the frame), and whatever `also(page, box)` returns.
 */
async function heatmap(query, width, dpr, also = async () => null) {
  const context = await b.browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: dpr, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(`${b.url}embed.html?chart=sin-heatmap&${query}`);
  await page.waitForFunction(() => window.posencEmbed?.host?.data);
  const pixels = await page.evaluate(() => {
    const canvas = document.querySelector('.heatmap-canvas'), r = canvas.width / canvas.clientWidth;
    // the plot's box at 11 px text: 60 px of margin on the left, 64 on the right, 10 above, 40
    // below; 3 px in from each side, clear of the frame
    const x0 = Math.ceil(63 * r), x1 = Math.floor(canvas.width - 67 * r);
    const y0 = Math.ceil(13 * r), y1 = Math.floor(canvas.height - 43 * r);
    const { data } = canvas.getContext('2d').getImageData(x0, y0, x1 - x0, y1 - y0);
    return { w: x1 - x0, h: y1 - y0, data: Array.from(data) };
  });
  const result = await also(page, await page.locator('.heatmap-canvas').boundingBox());
  await context.close();
  const at = (x, y) => pixels.data.slice(4 * (y * pixels.w + x), 4 * (y * pixels.w + x) + 3);
  return { ...pixels, at, result };
}

// coolwarm at 0 is a light grey (221, 221, 221), at 0.2 still pale (236, 211, 197), at 1 a deep
// red (180, 4, 38); half of each, the pink of a sine merged with its cosine, is (200, 112, 129)
const isGrey = ([r, g, bl]) => g > 150 && Math.abs(r - bl) < 80;
const isRed = ([r, g]) => r > 150 && g < 60;

test('sin-heatmap at 360 px ×2: the slow pairs stay grey and red stripes, and a tapped cell reads its own value', async () => {
  const tap = async (page, box) => {
    // PE(56, 359): the cosine of pair 179, 0.996, red among red and grey stripes; cell centres on the
    // snapped plot are within a pixel of these
    const plotW = box.width - 124, plotH = box.height - 50;
    await page.touchscreen.tap(box.x + 60 + ((359 + 0.5) / 512) * plotW, box.y + 10 + ((56 + 0.5) / 100) * plotH);
    return page.locator('.heatmap-hover').textContent();
  };
  for (const layout of ['interleaved', 'concat']) {
    const { w, h, at, result } = await heatmap(`length=100&dim=512&layout=${layout}`, 360, 2, layout === 'interleaved' ? tap : undefined);
    for (const f of [0.1, 0.5, 0.9]) {
      const y = Math.round(f * (h - 1));
      if (layout === 'interleaved') {
        // the right-hand third: runs of grey and red of a stripe's width (2 device px), nothing else
        const row = Array.from({ length: Math.floor(w / 3) }, (_, i) => at(w - Math.floor(w / 3) + i, y));
        const kinds = row.map((p) => (isGrey(p) ? 'g' : isRed(p) ? 'r' : `?${p}`)).join('');
        assert.doesNotMatch(kinds, /\?/, `row ${y}: a pixel neither grey nor red: ${kinds}`);
        assert.doesNotMatch(kinds, /ggggg|rrrrr/, `row ${y}: a stripe wider than 4 device px: ${kinds}`);
        assert.ok((kinds.match(/rg/g) ?? []).length > row.length / 6, `row ${y}: too few stripes: ${kinds}`);
      } else {
        // all sines, then all cosines: the sines' slow end grey, the cosines' red
        for (let x = Math.round(0.4 * w); x < Math.round(0.48 * w); x++) assert.ok(isGrey(at(x, y)), `(${x}, ${y}) ${at(x, y)}: not grey`);
        for (let x = Math.round(0.9 * w); x < w; x++) assert.ok(isRed(at(x, y)), `(${x}, ${y}) ${at(x, y)}: not red`);
      }
    }
    if (layout === 'interleaved') assert.match(result, /^PE\(56, 359\) = 0\.99\d{4}: cos\(/, result);
  }
});

test('sin-heatmap at 360 px ×2 with 1024 positions: the fast pairs at the left edge keep their red and blue, not a band of their mix', async () => {
  const { h, at } = await heatmap('length=1024&dim=512', 360, 2);
  // The left edge's first 12 device px (pairs 0 to about 7, each turning every 6 to 8 rows,
  // with rows about one to a device px): its cells are beyond ±0.3 four times in five, red or
  // blue; merged with their cosines and their rows halved and blurred, they made a purple band
  // with a tenth of its pixels that far from grey. Mixing a few sines of close frequencies
  // still pales it, but not to that.
  let strong = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < 12; x++) {
      const [r, , bl] = at(x, y);
      if (Math.abs(r - bl) > 80) strong++;
    }
  }
  assert.ok(strong / (12 * h) > 0.18, `${((100 * strong) / (12 * h)).toFixed(1)}% of the left edge's pixels clearly red or blue`);
});

test('sin-heatmap at 360 px ×2 with cells of 1.5 to 2 device pixels: cells drawn exact, no colour blended at their edges', async () => {
  // 256 columns into some 430 device px: no more colours across a row than cells
  const { w, h, at } = await heatmap('length=50&dim=256', 360, 2);
  const y = Math.round(h / 2);
  const colours = new Set(Array.from({ length: w }, (_, x) => at(x, y).join()));
  assert.ok(colours.size <= 256, `${colours.size} colours over ${w} device px for 256 cells`);
});
