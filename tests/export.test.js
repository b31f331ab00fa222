// export.test.js: the toolbar's figures for pages that take no scripts, made in Chromium and read
// back here: the SVG (parses, text as <text>, the theme's colours, and drawn where the canvas
// drew: rasterized, it matches the canvas), the animated GIF (its blocks walked: frame count,
// size, the loop, the size limit), the video (its EBML walked: WebM, frame size, one block per
// frame; and played by a <video>), and Cancel.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startBrowser } from './browser.js';

// every page of this file in one browser context (b.pages), where a page takes on the renderer of
// one open before it and loads for half the CPU: a first load in a new browser is no part of what
// is checked here
let b;
before(async () => (b = await startBrowser()));
after(() => b?.close());

/** An embed.html page with the toolbar, its chart drawn. */
async function chartPage(query, { theme = 'light', width = 900, lang = 'en' } = {}) {
  const p = await b.pages.open(`embed.html?${query}&toolbar=1&theme=${theme}&lang=${lang}`, { viewport: { width, height: 900 } });
  await p.page.waitForFunction(() => window.posencEmbed?.host?.data);
  return p;
}

// A chart's page is shared by the tests that leave it as a fresh one (an SVG or a PNG changes
// nothing; a test that unticks the settings line ticks it again). The GIF / video panel keeps the
// last values typed into it once it has made a file, so a test after another on the same page
// types every field its sweep depends on, as a fresh panel would hold them.
const shared = new Map();
async function sharedPage(query, { theme = 'light', width = 900, lang = 'en' } = {}) {
  const key = JSON.stringify([query, theme, width, lang]);
  if (!shared.has(key)) shared.set(key, chartPage(query, { theme, width, lang }));
  const p = await shared.get(key);
  // a tab behind the others gets no frames and slowed timers: the one a test works in comes first
  await p.page.bringToFront();
  return p;
}

async function downloadOf(page, click) {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: d.suggestedFilename(), bytes: await readFile(await d.path()) };
}

// ---- SVG ----

/** What the browser makes of an SVG: does it parse, its texts, its paints, its size. */
async function readSVG(page, text) {
  return page.evaluate((src) => {
    const doc = new DOMParser().parseFromString(src, 'image/svg+xml');
    const svg = doc.documentElement;
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: svg.localName,
      width: Number(svg.getAttribute('width')),
      height: Number(svg.getAttribute('height')),
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      heading: Number(svg.getAttribute('data-heading')),
      headingTexts: [...doc.querySelectorAll('[data-part="heading"] text')].map((t) => ({ text: t.textContent, fill: t.getAttribute('fill'), y: Number(t.getAttribute('y')) })),
      title: doc.querySelector('svg > title')?.textContent ?? null,
      textFills: [...new Set([...doc.querySelectorAll('text')].map((t) => t.getAttribute('fill')))],
      background: doc.querySelector('svg > rect')?.getAttribute('fill'),
      paths: doc.querySelectorAll('path').length,
      images: doc.querySelectorAll('image').length,
    };
  }, text);
}

/**
 * The share of pixels where the SVG, drawn by the browser at its own size, differs clearly from
 * the canvas itself on the theme's background, the chart being the part under the SVG's heading
 * (anti-aliasing differs by a little; a shape out of place differs by a lot).
 */
async function svgVersusCanvas(page, text) {
  return page.evaluate(async (src) => {
    const canvas = [...document.querySelectorAll('#chart figure canvas')].find((c) => c.getClientRects().length);
    const r = canvas.getBoundingClientRect();
    const w = Math.round(r.width), h = Math.round(r.height);
    const svg = new DOMParser().parseFromString(src, 'image/svg+xml').documentElement;
    const top = Number(svg.getAttribute('data-heading') || 0);
    const img = new Image();
    img.src = URL.createObjectURL(new Blob([src], { type: 'image/svg+xml' }));
    await img.decode();
    const draw = (source, sy) => {
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      const ctx = c.getContext('2d');
      ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
      ctx.fillRect(0, 0, w, h);
      if (sy === null) ctx.drawImage(source, 0, 0, w, h);
      else ctx.drawImage(source, 0, sy, w, h, 0, 0, w, h);
      return ctx.getImageData(0, 0, w, h).data;
    };
    const a = draw(canvas, null), s = draw(img, top);
    let inked = 0, off = 0;
    for (let i = 0; i < a.length; i += 4) {
      const d = Math.max(Math.abs(a[i] - s[i]), Math.abs(a[i + 1] - s[i + 1]), Math.abs(a[i + 2] - s[i + 2]));
      if (d > 96) off++;
      if (a[i] + a[i + 1] + a[i + 2] < 600) inked++;
    }
    return { off: off / (w * h), inked: inked / (w * h), width: img.naturalWidth, height: img.naturalHeight };
  }, text);
}

for (const theme of ['light', 'dark']) {
  test(`SVG of a Chart.js chart (${theme}): vector paths, text as <text>, the ${theme} theme's colours, drawn where the canvas drew`, async () => {
    // (a chart no wider than a post's column is drawn in the SVG at its page size: see below)
    const { page, problems } = await sharedPage('chart=rope-decay', { theme, width: 600 });
    const file = await downloadOf(page, () => page.click('button[data-action="svg"]'));
    assert.equal(file.name, 'posenc-rope-decay.svg');
    const text = file.bytes.toString('utf8');
    const svg = await readSVG(page, text);
    assert.equal(svg.error, null);
    assert.equal(svg.root, 'svg');
    assert.ok(svg.width > 300 && svg.height > 150, `${svg.width} × ${svg.height}`);
    // the axes' numbers and titles are text, not pixels
    for (const label of ['0', '1,000', '10,000', 'distance Δ']) assert.ok(svg.texts.includes(label), `no <text> ${label}: ${svg.texts.slice(0, 20)}`);
    assert.equal(svg.images, 0, 'a Chart.js chart has no pixels in its SVG');
    assert.ok(svg.paths > 20);
    const palette = theme === 'light' ? { bg: '#ffffff', muted: '#5b6475', fg: '#1d2330' } : { bg: '#14171d', muted: '#a9b2c1', fg: '#e4e8ef' };
    assert.equal(svg.background, palette.bg);
    assert.ok(svg.textFills.includes(palette.muted), `text colours ${svg.textFills}`);
    // the chart's title drawn above it (a <title> alone is not drawn), in the theme's text colour
    const heading = svg.headingTexts.map((t) => t.text).join(' ');
    assert.equal(heading, svg.title, 'the heading is the title');
    assert.match(heading, /^RoPE score g\(Δ\)/);
    assert.ok(svg.headingTexts.every((t) => t.fill === palette.fg && t.y > 0 && t.y < svg.heading), JSON.stringify(svg.headingTexts));
    assert.ok(svg.heading >= 24, `heading ${svg.heading} px`);
    const { off, inked } = await svgVersusCanvas(page, text);
    assert.ok(inked > 0.01, 'the canvas has something drawn');
    assert.ok(off < 0.01, `${(off * 100).toFixed(2)}% of the pixels differ between the SVG and the canvas`);
    assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  });
}

test('SVG of a hand-drawn heatmap: the cells as an image, the ticks, titles and colour bar as vectors and text', async () => {
  const { page, close } = await chartPage('chart=sin-heatmap&length=50&dim=64', { theme: 'dark', width: 600 });
  const file = await downloadOf(page, () => page.click('button[data-action="svg"]'));
  const text = file.bytes.toString('utf8');
  const svg = await readSVG(page, text);
  assert.equal(svg.error, null);
  assert.equal(svg.images, 1, 'the cells are one image');
  for (const label of ['position', 'embedding dimension', '0', '−1']) assert.ok(svg.texts.includes(label), `no <text> ${label}: ${svg.texts}`);
  assert.equal(svg.background, '#14171d');
  const { off } = await svgVersusCanvas(page, text);
  assert.ok(off < 0.02, `${(off * 100).toFixed(2)}% of the pixels differ between the SVG and the canvas`);
  await close();
});

test('SVG in Chinese: the heading is the chart\'s Chinese title, drawn as text; the chart under it unchanged', async () => {
  const { page, problems } = await sharedPage('chart=rope-decay', { lang: 'zh', theme: 'dark', width: 600 });
  const file = await downloadOf(page, () => page.click('button[data-action="svg"]'));
  const text = file.bytes.toString('utf8');
  const svg = await readSVG(page, text);
  assert.equal(svg.error, null);
  const heading = svg.headingTexts.map((t) => t.text).join('');
  assert.match(heading, /[\u4e00-\u9fff]/, heading);
  assert.equal(svg.headingTexts.map((t) => t.text).join(' '), svg.title, 'the heading is the title');
  assert.ok(svg.headingTexts.every((t) => t.fill === '#e4e8ef'));
  const { off } = await svgVersusCanvas(page, text);
  assert.ok(off < 0.01, `${(off * 100).toFixed(2)}% of the pixels differ between the SVG and the canvas`);
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
});

test('SVG of a chart wider than a post\'s column: its text drawn larger, as the PNG\'s, so that the column shows it at the page\'s size', async () => {
  const at = {};
  for (const width of [600, 900]) {
    const { page } = await sharedPage('chart=rope-decay', { width });
    const text = (await downloadOf(page, () => page.click('button[data-action="svg"]'))).bytes.toString('utf8');
    at[width] = { w: Number(text.match(/<svg [^>]*width="(\d+)"/)[1]), tick: Number(text.match(/font-size="([\d.]+)"[^>]*>10,000<\/text>/)[1]) };
  }
  assert.ok(at[600].w <= 640 && at[900].w > 800, JSON.stringify(at));
  // letteringFor: the chart's width over the column's 640 px, at most 1.5
  const ratio = at[900].tick / at[600].tick, want = Math.min(1.5, at[900].w / 640);
  assert.ok(Math.abs(ratio - want) < 0.08, `ticks ${at[900].tick} against ${at[600].tick} px: ×${ratio.toFixed(2)}, want ×${want.toFixed(2)}`);
});

test('SVG of the unit circle: its axis names keep the margin the grid keeps from the edge', async () => {
  const { page } = await sharedPage('chart=unit-circle');
  const file = await downloadOf(page, () => page.click('button[data-action="svg"]'));
  const text = file.bytes.toString('utf8');
  // the dashed grid's ends: the drawing's inner margin
  const grid = [...text.matchAll(/<path d="M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)"[^>]*stroke-dasharray/g)].map((m) => m.slice(1, 5).map(Number));
  assert.ok(grid.length >= 4, 'the grid is drawn');
  const margin = Math.min(...grid.flat());
  assert.ok(margin > 15, `grid margin ${margin}`);
  for (const name of ['x = sin a', 'y = cos a']) {
    const m = text.match(new RegExp(`<text x="([\\d.]+)" y="([\\d.]+)"[^>]*>${name}</text>`));
    assert.ok(m, `no <text> ${name}`);
    const [x, y] = [Number(m[1]), Number(m[2])];
    // y is the baseline: the text's top (textBaseline top) is 12 px × 0.76 above it
    assert.ok(x >= margin - 0.5 && y - 9 >= margin - 0.5, `${name} at (${x}, ${y}), inside a margin of ${margin}`);
  }
});

// ---- GIF ----

/** Walks a GIF's blocks: { version, width, height, frames: [{ w, h, delay }], loops }. */
function parseGIF(buf) {
  const sig = buf.subarray(0, 6).toString('latin1');
  assert.match(sig, /^GIF8[79]a$/, 'GIF signature');
  const width = buf.readUInt16LE(6), height = buf.readUInt16LE(8), packed = buf[10];
  let at = 13;
  if (packed & 0x80) at += 3 * (1 << ((packed & 7) + 1));
  const frames = [];
  let loops = null, delay = null;
  const skipSubBlocks = () => {
    while (buf[at] !== 0) at += buf[at] + 1;
    at++;
  };
  for (;;) {
    assert.ok(at < buf.length, 'GIF ends before its trailer');
    const block = buf[at++];
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      const label = buf[at++];
      if (label === 0xf9) delay = buf.readUInt16LE(at + 2) * 10; // graphic control: delay in 1/100 s
      if (label === 0xff && buf.subarray(at + 1, at + 12).toString('latin1') === 'NETSCAPE2.0') loops = buf.readUInt16LE(at + 14);
      skipSubBlocks();
    } else if (block === 0x2c) {
      const w = buf.readUInt16LE(at + 4), h = buf.readUInt16LE(at + 6), p = buf[at + 8];
      at += 9;
      if (p & 0x80) at += 3 * (1 << ((p & 7) + 1));
      at++; // LZW minimum code size
      skipSubBlocks();
      frames.push({ w, h, delay });
    } else {
      assert.fail(`unknown GIF block 0x${block.toString(16)} at ${at - 1}`);
    }
  }
  return { version: sig, width, height, frames, loops, trailerAt: at };
}

/** Opens the GIF / video panel, sets its fields, makes the file; returns the panel's locator. */
async function make(page, fields) {
  await page.click('button[data-action="animate"]');
  const panel = page.locator('.posenc-animate');
  for (const [name, value] of Object.entries(fields)) {
    const el = panel.locator(`[name="sweep-${name}"]`);
    if (await el.evaluate((e) => e.tagName === 'SELECT')) await el.selectOption(String(value));
    else await el.fill(String(value));
  }
  await panel.locator('button[data-action="make"]').click();
  await panel.locator('button[data-action="save"]:visible, .posenc-share-status:has-text("ancel")').first().waitFor({ timeout: 120_000 });
  return panel;
}

test('GIF of the unit circle: the story by default (position 0 → 50), every frame at the size shown, looping, the size before saving', async () => {
  // (the first sweep on this page: its panel opens with the defaults)
  const { page, problems } = await sharedPage('chart=unit-circle');
  await page.click('button[data-action="animate"]');
  const panel = page.locator('.posenc-animate');
  // the defaults the module names
  assert.equal(await panel.locator('[name="sweep-param"]').inputValue(), 'position');
  assert.equal(await panel.locator('[name="sweep-from"]').inputValue(), '0');
  assert.equal(await panel.locator('[name="sweep-to"]').inputValue(), '50');
  assert.equal(await panel.locator('[name="sweep-frames"]').inputValue(), '51');
  assert.equal(await panel.locator('[name="sweep-format"]').inputValue(), 'gif');
  await panel.locator('[name="sweep-frames"]').fill('12');
  await panel.locator('[name="sweep-width"]').fill('320');
  await panel.locator('[name="sweep-fps"]').fill('5');
  const before = await page.evaluate(() => window.posencEmbed.host.params().position);
  await panel.locator('button[data-action="make"]').click();
  const save = panel.locator('button[data-action="save"]');
  await save.waitFor({ state: 'visible', timeout: 120_000 });
  const status = await panel.locator('.posenc-share-status').textContent();
  const file = await downloadOf(page, () => save.click());
  assert.equal(file.name, 'posenc-unit-circle-position-0-50.gif');
  // the size is shown before saving, and it is the file's, in kB of 1000 bytes
  assert.ok(status.includes(`${Math.max(1, Math.round(file.bytes.length / 1000))} kB`), status);
  const gif = parseGIF(file.bytes);
  assert.equal(gif.frames.length, 12);
  assert.equal(gif.width, 320);
  assert.ok(gif.height >= 200 && gif.height % 2 === 0, `height ${gif.height}`);
  assert.ok(gif.frames.every((f) => f.w === gif.width && f.h === gif.height));
  assert.ok(gif.frames.every((f) => f.delay === 200), `delays ${gif.frames.map((f) => f.delay)}`);
  assert.equal(gif.loops, 0, 'loops forever');
  assert.equal(gif.trailerAt, file.bytes.length, 'nothing after the trailer');
  // the frames differ (the point moves) and the chart is back where it was
  const frames = await page.evaluate(async (b64) => {
    const dec = new ImageDecoder({ data: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)), type: 'image/gif' });
    await dec.tracks.ready;
    const sums = [];
    for (const k of [0, 6, 11]) {
      const { image } = await dec.decode({ frameIndex: k });
      const c = new OffscreenCanvas(image.displayWidth, image.displayHeight);
      c.getContext('2d').drawImage(image, 0, 0);
      image.close(); // (a frame left open is reported on the console, which later tests on this page read)
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let h = 0;
      for (let i = 0; i < d.length; i += 97) h = (h * 31 + d[i]) >>> 0;
      sums.push(h);
    }
    return { count: dec.tracks.selectedTrack.frameCount, sums };
  }, file.bytes.toString('base64'));
  assert.equal(frames.count, 12, 'the browser decodes 12 frames');
  assert.equal(new Set(frames.sums).size, 3, 'frames 0, 6 and 11 differ');
  assert.equal(await page.evaluate(() => window.posencEmbed.host.params().position), before);
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
});

test('a chart names what its animation sweeps: rope-decay grows its base', async () => {
  const { page } = await sharedPage('chart=rope-decay');
  await page.click('button[data-action="animate"]');
  const panel = page.locator('.posenc-animate');
  const field = (n) => panel.locator(`[name="sweep-${n}"]`).inputValue();
  assert.deepEqual([await field('param'), await field('from'), await field('to'), await field('frames')], ['base', '10000', '500000', '40']);
  // another control picked: its own range
  await panel.locator('[name="sweep-param"]').selectOption('maxDist');
  assert.deepEqual([await field('from'), await field('to')], ['10', '100000']);
  // (no file made: the panel opens with the defaults again)
  await panel.locator('.posenc-close').click();
});

/** Frames `ks` of a GIF decoded by the browser: { count, frames: [{ w, h, rows: ink per row, hash per row }] }. */
async function gifFrames(page, bytes, ks) {
  return page.evaluate(async ({ b64, ks }) => {
    const dec = new ImageDecoder({ data: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)), type: 'image/gif' });
    await dec.tracks.ready;
    const count = dec.tracks.selectedTrack.frameCount;
    const frames = [];
    for (const k of ks) {
      const { image } = await dec.decode({ frameIndex: k < 0 ? count + k : k });
      const c = new OffscreenCanvas(image.displayWidth, image.displayHeight);
      c.getContext('2d').drawImage(image, 0, 0);
      image.close();
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const bg = [d[0], d[1], d[2]];
      const ink = [], hash = [];
      for (let y = 0; y < c.height; y++) {
        let n = 0, h = 0;
        for (let x = 0; x < c.width; x++) {
          const i = 4 * (y * c.width + x);
          if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 120) n++;
          h = (h * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) >>> 0;
        }
        ink.push(n);
        hash.push(h);
      }
      frames.push({ w: c.width, h: c.height, ink, hash });
    }
    return { count, frames };
  }, { b64: bytes.toString('base64'), ks });
}

/** The chart's visible canvases' union in CSS px: { width, height }. */
const chartBox = (page) => page.evaluate(() => {
  const rs = [...document.querySelectorAll('#chart figure canvas')].filter((c) => c.getClientRects().length).map((c) => c.getBoundingClientRect());
  return { width: Math.max(...rs.map((r) => r.right)) - Math.min(...rs.map((r) => r.left)), height: Math.max(...rs.map((r) => r.bottom)) - Math.min(...rs.map((r) => r.top)) };
});

test('GIF frames carry the chart\'s title and the swept value: the title the same on every frame, the value line not, the chart under them', async () => {
  for (const [theme, lang] of [['dark', 'en'], ['light', 'zh']]) {
    const { page } = await sharedPage('chart=rope-decay', { theme, lang });
    await page.locator('[name="with-settings"]').uncheck(); // (the line under the chart has its own test)
    const panel = await make(page, { frames: 3, width: 640 });
    const file = await downloadOf(page, () => panel.locator('button[data-action="save"]').click());
    const gif = parseGIF(file.bytes);
    const box = await chartBox(page);
    const k = 640 / box.width;
    const band = gif.height - Math.round(box.height * k); // the heading's height, in frame px
    assert.ok(band >= 0.9 * 40 * k, `a heading of ${band} px above the chart`);
    const { frames: [first, last] } = await gifFrames(page, file.bytes, [0, -1]);
    const rows = (f, a, b) => f.ink.slice(a, b).reduce((x, y) => x + y, 0);
    // the heading band: the title in its upper part, the value line under it
    const titleEnd = Math.round(band * 0.6);
    const title = [rows(first, 0, titleEnd), rows(last, 0, titleEnd)], value = [rows(first, titleEnd, band), rows(last, titleEnd, band)];
    assert.ok(title[0] > 100, `${theme} ${lang}: the title is drawn (${title})`);
    assert.ok(value[0] > 30 && value[1] > 30, `${theme} ${lang}: the value line is drawn (${value})`);
    // (each frame has its own palette: the same text may quantize a little differently)
    assert.ok(Math.abs(title[0] - title[1]) <= 0.03 * title[0], `the same title on every frame (${title})`);
    assert.ok(value[1] > value[0], `base = 10000 on the first frame, the longer 500000 on the last (${value})`);
    await page.locator('[name="with-settings"]').check();
  }
});

test('GIF size limit in megabytes of 10^6 bytes: a file under "0.15 MB" is under 150 000 bytes; narrower first while its text stays readable', async () => {
  const { page } = await sharedPage('chart=unit-circle');
  const box = await chartBox(page);
  const panel = await make(page, { frames: 40, fps: 10, width: 800, limit: 0.15 });
  const status = await panel.locator('.posenc-share-status').textContent();
  const file = await downloadOf(page, () => panel.locator('button[data-action="save"]').click());
  const gif = parseGIF(file.bytes);
  assert.ok(file.bytes.length <= 150_000, `${file.bytes.length} B`);
  assert.ok(gif.width < 800, `width ${gif.width}`);
  // the chart's 11 px text at no less than 9 px
  assert.ok((gif.width / box.width) * 11 >= 8.95, `width ${gif.width} of a ${box.width} px chart`);
  assert.match(status, /narrower/);
  assert.match(status, new RegExp(`${Math.max(1, Math.round(file.bytes.length / 1000))} kB`));
});

test('GIF too large at a readable width: fewer frames first, each shown longer, and the panel says so; never narrower than its text can be read', async () => {
  const { page, close } = await chartPage('chart=sin-heatmap');
  const box = await chartBox(page);
  // its base swept from 100 to 10⁶: the fine stripes of the fast pairs make frames of tens of kB at
  // 640 px, 20 of which do not fit in 1.3 MB
  const panel = await make(page, { frames: 20, fps: 10, width: 640, limit: 1.3 });
  const status = await panel.locator('.posenc-share-status').textContent();
  const file = await downloadOf(page, () => panel.locator('button[data-action="save"]').click());
  const gif = parseGIF(file.bytes);
  assert.ok(file.bytes.length <= 1_300_000, `${file.bytes.length} B`);
  assert.equal(gif.width, 640, 'as wide as asked: 640 px of a chart this wide is at the readable limit already');
  assert.ok(gif.frames.length < 20 && gif.frames.length >= 10, `${gif.frames.length} frames`);
  // the sweep lasts as long: 19 steps of 100 ms over fewer frames
  const step = gif.frames[0].delay;
  assert.ok(Math.abs(step * (gif.frames.length - 1) - 1900) <= 10 * gif.frames.length, `${gif.frames.length} frames of ${step} ms`);
  assert.match(status, new RegExp(`Fewer frames to stay under 1.3 MB: ${gif.frames.length} of the 20,`));
  assert.doesNotMatch(status, /Made narrower/);

  // a limit no legible GIF meets: offered anyway at the floor, with its size and why
  const panel2 = await make(page, { frames: 12, fps: 10, width: 640, limit: 0.2 });
  const status2 = await panel2.locator('.posenc-share-status').textContent();
  const file2 = await downloadOf(page, () => panel2.locator('button[data-action="save"]').click());
  const gif2 = parseGIF(file2.bytes);
  // (a chart wider than the frame is lettered larger: 11 px ticks at the width asked)
  const lettering = Math.min(1.5, Math.max(1, box.width / 640));
  assert.ok((gif2.width / box.width) * 11 * lettering >= 8.95, `width ${gif2.width} of a ${box.width} px chart: its text below 9 px`);
  assert.match(status2, /its smallest text is 9 px/);
  assert.ok(gif2.width < 640);
  assert.ok(file2.bytes.length > 200_000);
  assert.match(status2, /still over 0\.2 MB/);
  assert.match(status2, new RegExp(`: ${Math.round(file2.bytes.length / 1000)} kB, `));
  assert.match(status2, /: 10 of the 12,/);
  await close();
});

/**
 * How wide the lowest line of text is (rope-decay's x-axis title, "distance Δ"), in px: in frame
 * `k` of a GIF, and in the chart's canvas as the page shows it. Its width goes with its font size.
 */
function lowestLineWidths(page, bytes, k) {
  return page.evaluate(async ({ b64, k }) => {
    const width = (source, w, h) => {
      const c = new OffscreenCanvas(w, h), ctx = c.getContext('2d');
      ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
      ctx.fillRect(0, 0, w, h);
      ctx.drawImage(source, 0, 0, w, h);
      const d = ctx.getImageData(0, 0, w, h).data;
      const inkAt = (x, y) => {
        const i = 4 * (y * w + x);
        return Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 120;
      };
      const inked = (y) => Array.from({ length: w }, (_, x) => x).filter((x) => inkAt(x, y));
      let y = h - 1;
      while (y > 0 && !inked(y).length) y--;
      const xs = [];
      while (y > 0 && inked(y).length) xs.push(...inked(y--));
      return Math.max(...xs) - Math.min(...xs) + 1;
    };
    const dec = new ImageDecoder({ data: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)), type: 'image/gif' });
    const { image } = await dec.decode({ frameIndex: k });
    const canvas = [...document.querySelectorAll('#chart figure canvas')].find((c) => c.getClientRects().length);
    const r = canvas.getBoundingClientRect();
    const frame = width(image, image.displayWidth, image.displayHeight);
    image.close();
    return { frame, page: width(canvas, Math.round(r.width), Math.round(r.height)) };
  }, { b64: bytes.toString('base64'), k });
}

test('GIF of a chart wider than the frame: its text drawn larger, at the page\'s size, on every frame; a chart narrower than 640 px is made at its own width', async () => {
  const { page } = await sharedPage('chart=rope-decay');
  const box = await chartBox(page);
  assert.ok(box.width > 800, `a wide chart (${box.width} px)`);
  await page.click('button[data-action="animate"]');
  assert.equal(await page.locator('.posenc-animate [name="sweep-width"]').inputValue(), '640');
  await page.click('.posenc-animate button[data-action="posenc-close"], .posenc-animate .posenc-close');
  // the lowest line of the frame is then the x axis's title (the settings line, lower still, has its own test)
  await page.locator('[name="with-settings"]').uncheck();
  const panel = await make(page, { frames: 3 });
  const file = await downloadOf(page, () => panel.locator('button[data-action="save"]').click());
  const gif = parseGIF(file.bytes);
  assert.equal(gif.width, 640);
  // shrunk with the chart, "distance Δ" would be 640/876 of its width on the page
  for (const k of [0, 2]) {
    const w = await lowestLineWidths(page, file.bytes, k);
    assert.ok(w.frame >= 0.92 * w.page, `frame ${k}: the axis title ${w.frame} px wide, ${w.page} px on the page`);
  }
  // the page's own text is back to its size
  assert.equal(await page.evaluate(() => window.Chart.defaults.font.size), 12);
  await page.locator('[name="with-settings"]').check();

  // (a page whose panel has made nothing yet, so it opens with the defaults; Cancel's test uses it next)
  const circle = await sharedPage('chart=unit-circle&position=7');
  const own = Math.round((await chartBox(circle.page)).width);
  await circle.page.click('button[data-action="animate"]');
  assert.equal(Number(await circle.page.locator('.posenc-animate [name="sweep-width"]').inputValue()), 2 * Math.round(own / 2));
  await circle.page.locator('.posenc-animate .posenc-close').click();
});

test('a GIF asked far narrower than its chart says its text is too small for a phone, and how to make it larger', async () => {
  // (in Chinese, as a blogger on WeChat makes it; the English message has the same placeholders: messages.test)
  // (on the page of the settings line's test below: a free d of 64 leaves the chart as wide, its text as large)
  const { page } = await sharedPage('chart=rope-decay&preset=free&dim=64', { lang: 'zh', width: 1100 });
  const panel = await make(page, { frames: 2, width: 360 });
  const said = await panel.locator('.posenc-share-status').textContent();
  assert.match(said, /最小的文字只有 [4-8] 像素，在手机上看不清：要做 360 像素宽的画面，请在差不多同样宽的窗口/, said);
  await panel.locator('.posenc-close').click();
});

test('GIF over its limit: narrower while its text is at the page\'s size, then fewer frames, then narrower down to 9 px text and no further', async () => {
  // rope-decay at 640 px has the page's 11 px text already: frames go, then width down to 9/11 of 640
  const { page } = await sharedPage('chart=rope-decay');
  const panel = await make(page, { frames: 40, width: 640, limit: 0.3 });
  const status = await panel.locator('.posenc-share-status').textContent();
  const file = await downloadOf(page, () => panel.locator('button[data-action="save"]').click());
  const gif = parseGIF(file.bytes);
  assert.ok(gif.width >= 2 * Math.ceil((640 * 9) / 11 / 2) && gif.width < 640, `width ${gif.width}`);
  assert.ok(gif.frames.length < 40 && gif.frames.length >= 14, `${gif.frames.length} frames`);
  const { count } = await gifFrames(page, file.bytes, [0]);
  assert.equal(count, gif.frames.length, 'the browser decodes as many frames');
  assert.match(status, new RegExp(`Fewer frames to stay under 0.3 MB: ${gif.frames.length} of the 40,`));
  assert.match(status, /its smallest text is (9|10) px/);

  // the unit circle drawn at 800 px is blown up from 416: narrower first, down to its own width, frames kept
  const circle = await sharedPage('chart=unit-circle');
  const box = await chartBox(circle.page);
  const panel2 = await make(circle.page, { frames: 30, fps: 10, width: 800, limit: 0.5 });
  const status2 = await panel2.locator('.posenc-share-status').textContent();
  const file2 = await downloadOf(circle.page, () => panel2.locator('button[data-action="save"]').click());
  const gif2 = parseGIF(file2.bytes);
  assert.ok(file2.bytes.length <= 500_000, `${file2.bytes.length} B`);
  assert.ok(gif2.width < 800 && gif2.width >= box.width - 2, `width ${gif2.width} of a ${box.width} px chart`);
  assert.equal(gif2.frames.length, 30);
  assert.match(status2, /Made narrower to stay under 0.5 MB: its smallest text is 1[1-9] px/);
  assert.doesNotMatch(status2, /Fewer frames/);
});

test('exported figures carry a line of how the chart is set, in its language; unticked, none', async () => {
  for (const lang of ['en', 'zh']) {
    // (wide enough for the settings line on one row: a row's break would split a Chinese word)
    const { page } = await sharedPage('chart=rope-decay&preset=free&dim=64', { lang, width: 1100 });
    const svgText = async () => (await downloadOf(page, () => page.click('button[data-action="svg"]'))).bytes.toString('utf8');
    const settings = (svg) => page.evaluate((src) => [...new DOMParser().parseFromString(src, 'image/svg+xml')
      .querySelectorAll('[data-part="settings"] text')].map((t) => t.textContent).join(' '), svg);
    const line = await settings(await svgText());
    if (lang === 'en') assert.match(line, /^Settings: .*d free · d when "free" 64 · .*base 10\s000$/, line);
    else assert.match(line, /^设置：.*d 自定义；自定义时的 d = 64；.*底数 base 10\s000$/, line);
    // a GIF's every frame says how the chart is set at that frame: a band under the chart, not in the heading
    // (the band is in the frame's height, the same for every frame: the panel's fewest frames, 2, show it)
    const gifOf = async () => parseGIF((await downloadOf(page, () => make(page, { frames: 2, width: 640 })
      .then((panel) => panel.locator('button[data-action="save"]').click()))).bytes);
    const withLine = await gifOf();
    const pngHeight = async () => (await downloadOf(page, () => page.click('button[data-action="png"]'))).bytes.readUInt32BE(20);
    const png = await pngHeight();
    await page.locator('.posenc-animate .posenc-close').click();
    await page.locator('[name="with-settings"]').uncheck();
    assert.equal(await settings(await svgText()), '');
    const bare = await gifOf();
    assert.ok(withLine.height - bare.height >= 16, `a band of ${withLine.height - bare.height} px for the settings (${withLine.height}, ${bare.height})`);
    assert.ok(png - (await pngHeight()) >= 2 * 16, 'the PNG has its settings band only when ticked');
    await page.locator('.posenc-animate .posenc-close').click();
    await page.locator('[name="with-settings"]').check();
  }
});

test('the lab\'s figure says it draws the runs trained ahead of time, not its controls\' settings, and offers no sweep of settings that wait for Train', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, close } = await chartPage('chart=length-lab&trainLength=32', { lang, width: 1100 });
    await page.waitForFunction(() => window.posencEmbed.host.data.rows.length); // (the default run's results, come after the mount)
    const svg = (await downloadOf(page, () => page.click('button[data-action="svg"]'))).bytes.toString('utf8');
    // (the line's rows joined as read: with a space in English, none in Chinese)
    const line = await page.evaluate(([src, sep]) => [...new DOMParser().parseFromString(src, 'image/svg+xml')
      .querySelectorAll('[data-part="settings"] text')].map((t) => t.textContent).join(sep), [svg, lang === 'en' ? ' ' : '']);
    if (lang === 'en') assert.match(line, /drawn: the default run, trained ahead of time \(training length 16, 400 steps, the mean and range of seeds 1, 2, 3\)$/, line);
    else assert.match(line, /图中是预先训练好的默认结果（训练长度 16，400 步，种子 1、2、3 的平均值与范围）$/, line);
    assert.equal(await page.locator('button[data-action="animate"]').count(), 0, 'no GIF / video: every number it has waits for Train');
    await close();
  }
});

// ---- video ----

/** Walks a WebM's EBML: { docType, width, height, blocks (frames of track 1) }. */
function parseWebM(buf) {
  let at = 0;
  const vint = (keepMarker) => {
    const first = buf[at];
    let len = 1;
    while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
    assert.ok(len <= 8, `bad EBML length at ${at}`);
    let v = keepMarker ? first : first & (0xff >> len);
    let allOnes = v === (0xff >> len);
    for (let i = 1; i < len; i++) {
      v = v * 256 + buf[at + i];
      if (buf[at + i] !== 0xff) allOnes = false;
    }
    at += len;
    return { v, unknown: !keepMarker && allOnes };
  };
  const MASTER = new Set([0x1a45dfa3, 0x18538067, 0x1654ae6b, 0xae, 0xe0, 0x1f43b675, 0xa0]);
  const out = { docType: null, width: null, height: null, blocks: 0, ebml: buf.readUInt32BE(0) === 0x1a45dfa3 };
  while (at < buf.length) {
    const id = vint(true).v, size = vint(false);
    if (MASTER.has(id)) continue; // step into it
    const body = buf.subarray(at, at + size.v);
    if (id === 0x4282) out.docType = body.toString('latin1');
    else if (id === 0xb0) out.width = body.readUIntBE(0, body.length);
    else if (id === 0xba) out.height = body.readUIntBE(0, body.length);
    else if (id === 0xa3 || id === 0xa1) out.blocks++;
    at += size.v;
  }
  return out;
}

test('video of a sweep: WebM with the frame size asked for, about one block per frame, playable', async () => {
  const { page, context, problems } = await sharedPage('chart=unit-circle');
  await page.click('button[data-action="animate"]');
  await page.locator('.posenc-animate [name="sweep-format"]').waitFor();
  const formats = await page.locator('[name="sweep-format"] option').evaluateAll((os) => os.map((o) => o.textContent));
  assert.deepEqual(formats.slice(0, 2), ['GIF', 'WebM']);
  await page.click('button[data-action="animate"]');
  const panel = await make(page, { format: 'webm', frames: 10, fps: 10, width: 320, from: 0, to: 9 });
  const file = await downloadOf(page, () => panel.locator('button[data-action="save"]').click());
  assert.equal(file.name, 'posenc-unit-circle-position-0-9.webm');
  const webm = parseWebM(file.bytes);
  assert.ok(webm.ebml, 'EBML header');
  assert.equal(webm.docType, 'webm');
  assert.equal(webm.width, 320);
  // the chart and the heading above it
  const box = await chartBox(page);
  assert.ok(webm.height >= Math.round((box.height * 320) / box.width) + 20, `height ${webm.height}`);
  // the recorder may drop or repeat a frame at the edges
  assert.ok(webm.blocks >= 7 && webm.blocks <= 13, `${webm.blocks} blocks for 10 frames`);
  // played on a blank page: posenc's pages allow no media from blob: URLs
  const blank = await context.newPage();
  const played = await blank.evaluate(async (b64) => {
    const v = document.createElement('video');
    v.muted = true;
    v.src = URL.createObjectURL(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'video/webm' }));
    await new Promise((resolve, reject) => ((v.onloadedmetadata = resolve), (v.onerror = () => reject(new Error(`video error ${v.error?.code} ${v.error?.message}`)))));
    return { w: v.videoWidth, h: v.videoHeight };
  }, file.bytes.toString('base64'));
  assert.deepEqual(played, { w: webm.width, h: webm.height });
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await blank.close();
});

/** Which formats the panel offers when MediaRecorder.isTypeSupported says yes to `yes` alone. */
async function offered(yes) {
  const { page, close } = await b.pages.open('embed.html?chart=unit-circle&toolbar=1', { viewport: { width: 900, height: 900 } });
  await page.evaluate((re) => {
    const own = MediaRecorder.isTypeSupported;
    MediaRecorder.isTypeSupported = (t) => new RegExp(re).test(t) && own.call(MediaRecorder, t);
  }, yes);
  await page.waitForFunction(() => window.posencEmbed?.host?.data);
  await page.click('button[data-action="animate"]');
  await page.locator('.posenc-animate [name="sweep-format"]').waitFor();
  const formats = await page.locator('[name="sweep-format"] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  await close();
  return formats;
}

test('the format menu offers MP4 wherever MediaRecorder records it, beside WebM, and only then', async () => {
  assert.deepEqual(await offered('^video/(webm|mp4)'), [['gif', 'GIF'], ['webm', 'WebM'], ['mp4', 'MP4']]);
  assert.deepEqual(await offered('^video/webm'), [['gif', 'GIF'], ['webm', 'WebM']]);
  assert.deepEqual(await offered('^video/mp4'), [['gif', 'GIF'], ['mp4', 'MP4']]);
});

test('MP4 of a sweep where this Chromium records it: an ISO file of H.264, the frame size asked for, playable', async (t) => {
  const { page, context, problems } = await sharedPage('chart=unit-circle');
  if (!(await page.evaluate(() => MediaRecorder.isTypeSupported('video/mp4;codecs=avc1')))) {
    t.skip('this Chromium records no MP4');
    return;
  }
  const panel = await make(page, { format: 'mp4', frames: 10, fps: 10, width: 320, from: 0, to: 9 });
  const file = await downloadOf(page, () => panel.locator('button[data-action="save"]').click());
  assert.equal(file.name, 'posenc-unit-circle-position-0-9.mp4');
  assert.equal(file.bytes.subarray(4, 8).toString('latin1'), 'ftyp');
  assert.ok(file.bytes.includes(Buffer.from('avc1')), 'H.264 (avc1), what WeChat plays');
  const blank = await context.newPage();
  await blank.route(`${b.url}blank.html`, (r) => r.fulfill({ body: '<!doctype html><title>blank</title>', contentType: 'text/html' }));
  await blank.goto(`${b.url}blank.html`);
  const played = await blank.evaluate(async (b64) => {
    const v = document.createElement('video');
    v.muted = true;
    v.src = URL.createObjectURL(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'video/mp4' }));
    await new Promise((resolve, reject) => ((v.onloadedmetadata = resolve), (v.onerror = () => reject(new Error(`video error ${v.error?.code} ${v.error?.message}`)))));
    return { w: v.videoWidth };
  }, file.bytes.toString('base64'));
  assert.deepEqual(played, { w: 320 });
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await blank.close();
});

test('Cancel stops a recording: nothing to save, the progress bar gone, the control back where it was', async () => {
  const { page } = await sharedPage('chart=unit-circle&position=7');
  await page.click('button[data-action="animate"]');
  const panel = page.locator('.posenc-animate');
  await panel.locator('[name="sweep-format"]').selectOption('webm');
  await panel.locator('[name="sweep-frames"]').fill('200');
  await panel.locator('[name="sweep-fps"]').fill('5');
  await panel.locator('button[data-action="make"]').click();
  await page.waitForFunction(() => document.querySelector('.posenc-animate progress').value > 0.01);
  assert.equal(await panel.locator('progress').isVisible(), true);
  await panel.locator('button[data-action="cancel"]').click();
  await panel.locator('.posenc-share-status', { hasText: 'Cancelled' }).waitFor();
  assert.equal(await panel.locator('button[data-action="save"]').isVisible(), false);
  assert.equal(await panel.locator('progress').isVisible(), false);
  assert.equal(await page.evaluate(() => window.posencEmbed.host.params().position), 7);
});

// ---- what a sweep's frames say ----

/**
 * Makes rope-decay's default GIF (its panel's defaults typed in: the shared page's panel keeps the
 * last ones typed) with the page's 2D contexts watched: for each frame, its caption, its settings
 * line, the base the chart holds as it is drawn, and every text the chart's canvas drew last (its
 * ticks among them). The contexts are unwatched after.
 */
async function sweptFrames(page) {
  await page.evaluate(() => {
    const frames = (window.sweptFrames = []);
    let drawn = [];
    const P = CanvasRenderingContext2D.prototype, fill = P.fillText, clear = P.clearRect;
    window.unwatch = () => Object.assign(P, { fillText: fill, clearRect: clear });
    P.clearRect = function (...a) {
      if (this.canvas.isConnected) drawn = [];
      return clear.apply(this, a);
    };
    P.fillText = function (text, ...a) {
      const s = String(text);
      if (this.canvas.isConnected) drawn.push(s);
      else if (/^base = /.test(s)) frames.push({ caption: s, base: window.posencEmbed.host.params().base, chart: [...drawn], settings: '' });
      else if (frames.length && /^Settings|^[^S]/.test(s) && !/^RoPE score/.test(s)) frames.at(-1).settings += `${s} `;
      return fill.call(this, text, ...a);
    };
  });
  try {
    await make(page, { param: 'base', from: 10000, to: 500000, frames: 40, fps: 10, width: 640, limit: 5 });
  } finally {
    await page.evaluate(() => window.unwatch());
  }
  await page.locator('.posenc-animate .posenc-close').click();
  return page.evaluate(() => window.sweptFrames);
}

test('every frame of a sweep shows one value: the caption\'s, the settings line\'s and the chart\'s are the same, and the y axes hold still', async () => {
  const { page } = await sharedPage('chart=rope-decay');
  const frames = await sweptFrames(page);
  assert.equal(frames.length, 40);
  for (const f of frames) {
    const caption = Number(f.caption.replace('base = ', ''));
    const settings = /base ([\d\s.\u202f]+?)\s*$/.exec(f.settings.replace(/…/, ''))?.[1];
    assert.ok(settings, `a settings line ending in the base: ${f.settings}`);
    assert.equal(Number(settings.replace(/[\s\u202f]/g, '')), caption, `${f.caption} under "${f.settings}"`);
    assert.equal(f.base, caption, `${f.caption}, the chart at ${f.base}`);
    assert.ok(String(caption).replace(/^0\.0*|\./g, '').replace(/0+$/, '').length <= 4, `${caption}: at most 4 significant figures`);
  }
  // base's slider moves in ratios (10000 → 500000), and so does its sweep
  assert.equal(frames[5].base, Number((10000 * 50 ** (5 / 39)).toPrecision(4)));
  // the chart's texts (ticks, axis titles, legend) are the same on the first frame and the last
  assert.deepEqual(frames.at(-1).chart, frames[0].chart);
  // and the chart is as it was after the sweep: its own axes again
  const ticks = await page.evaluate(() => window.posencEmbed.host.params().base);
  assert.equal(ticks, 10000);
});

/**
 * The settings line of the SVG of a shared rope-decay page with `base` typed into its box (the
 * line is written from the values the controls read, whether a link or the box set them); the
 * base is put back to its default after.
 */
async function lineAtBase(page, base) {
  const box = page.locator('input[type="number"][name="base"]');
  await box.fill(String(base));
  // (the chart redraws on the frame after the input: a frame asked for now comes after it)
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  try {
    const svg = (await downloadOf(page, () => page.click('button[data-action="svg"]'))).bytes.toString('utf8');
    return await page.evaluate((src) => [...new DOMParser().parseFromString(src, 'image/svg+xml')
      .querySelectorAll('[data-part="settings"] text')].map((t) => t.textContent).join(' '), svg);
  } finally {
    await box.fill('10000');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
}

test('the settings line names θ once (its option is the equation) and rounds a long fraction to 6 significant figures', async () => {
  for (const [lang, start] of [['en', 'Settings: θᵢ = base^(−2i/d) · d = 256'], ['zh', '设置：θᵢ = base^(−2i/d)；d = 256']]) {
    const { page } = await sharedPage('chart=rope-decay', { lang });
    const line = await lineAtBase(page, 72820.51282051281);
    assert.ok(line.startsWith(start), line);
    assert.match(line, /base 72\u202f820\.5$/, line);
  }
  // a whole part longer than the figures kept stays whole: only the fraction is rounded
  const { page } = await sharedPage('chart=rope-decay');
  const line = await lineAtBase(page, 1234567.5);
  assert.match(line, /base 1\u202f234\u202f568$/, line);
});

test('a narrow chart\'s exported title breaks between words, never inside a formula: "a = m·θᵢ" and "(sin a, cos a)" stay whole', async () => {
  for (const lang of ['en', 'zh']) {
    const { page } = await sharedPage('chart=unit-circle', { lang });
    const svg = await readSVG(page, (await downloadOf(page, () => page.click('button[data-action="svg"]'))).bytes.toString('utf8'));
    const lines = svg.headingTexts.map((t) => t.text);
    // (the Chinese title fits on one line)
    assert.ok(svg.width < 480 && lines.length >= (lang === 'en' ? 2 : 1), `${lang}: a ${svg.width} px figure, its title on ${lines.length} lines: ${lines.join(' | ')}`);
    assert.ok(lines.some((l) => l.includes('a = m·θᵢ')) && lines.some((l) => l.includes('(sin a, cos a)')), `${lang}: ${lines.join(' | ')}`);
    assert.ok(lines.every((l) => !/[=(]$|^[=)，]/.test(l)), `${lang}: ${lines.join(' | ')}`);
  }
});
