// heatmap-phone.test.js: the sinusoidal heatmap drawn narrower than its table, as on a phone.
// Its columns are then averaged sin with sin and cos with cos (groupColumns): the slow pairs'
// grey sines and red cosines stay apart as stripes, the fast pairs at 1024 positions keep more
// of their red and blue than a purple band, and a tapped cell still reads its own value.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './browser.js';
import { groupColumns, halvings } from '../web/charts/sin-heatmap.js';

let b;
before(async () => {
  b = await startBrowser();
});
after(async () => {
  await b?.close();
});

test('groupColumns: each run of 2^h columns holds one kind, sines of consecutive pairs then their cosines; halvings stop at 1.5 pixels a cell', () => {
  for (const [dim, group] of [[512, 2], [512, 4], [1024, 8], [258, 4], [6, 4]]) {
    const length = 3, pairs = dim / 2;
    // a cell's word says its row, kind and pair
    const px = Uint32Array.from({ length: dim * length }, (_, i) => (Math.floor(i / dim) << 20) | ((i % dim) % 2 << 16) | ((i % dim) >> 1));
    const cols = 2 * group * Math.ceil(pairs / group), out = groupColumns(px, dim, length, group, new Uint32Array(cols * length));
    const seen = new Set();
    for (let r = 0; r < length; r++) {
      for (let c = 0; c < cols; c += group) {
        const run = Array.from(out.subarray(r * cols + c, r * cols + c + group));
        const kinds = new Set(run.map((w) => (w >> 16) & 1)), rows = new Set(run.map((w) => w >> 20));
        assert.deepEqual([...kinds], [(c / group) % 2], `${dim}/${group}: columns ${c}… hold ${[...kinds]}`);
        assert.deepEqual([...rows], [r]);
        const first = Math.floor(c / (2 * group)) * group;
        run.forEach((w, k) => assert.equal(w & 0xffff, Math.min(pairs - 1, first + k), `${dim}/${group}: column ${c + k}`));
        run.forEach((w) => seen.add(w & 0x1ffff));
      }
    }
    assert.equal(seen.size, dim, `${dim}/${group}: every cell is drawn`);
  }
  assert.equal(halvings(512, 1200), 0, '2.3 pixels a cell: the cells themselves');
  assert.equal(halvings(512, 600), 1, '1.2 pixels a cell: 2.3 once halved');
  assert.equal(halvings(512, 205), 2, '0.4 pixels a cell: 1.6 at a quarter');
  assert.equal(halvings(100, 420), 0);
  assert.equal(halvings(1024, 420), 2);
  assert.equal(halvings(2, 1), 1, 'never below one cell');
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
    // (as base64: a million numbers in JSON take seconds to pass to Node)
    let bytes = '';
    for (let i = 0; i < data.length; i += 0x8000) bytes += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { w: x1 - x0, h: y1 - y0, data: btoa(bytes) };
  });
  pixels.data = Buffer.from(pixels.data, 'base64');
  const result = await also(page, await page.locator('.heatmap-canvas').boundingBox());
  await context.close();
  const at = (x, y) => [...pixels.data.subarray(4 * (y * pixels.w + x), 4 * (y * pixels.w + x) + 3)];
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
    // θ₁₇₉'s subscript digits set tight: not in a monospace font, whose cells hold no such digits
    const hover = page.locator('.heatmap-hover');
    assert.doesNotMatch(await hover.evaluate((e) => getComputedStyle(e).fontFamily), /mono/i, 'the cell\'s line in the page\'s font');
    return hover.textContent();
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
