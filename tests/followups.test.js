// followups.test.js: details seen on a phone and in the exported figures: the unit circle's labels
// inside its canvas and off its corner note, the heatmap's cells drawn exact when they have room
// (narrower, on a phone: heatmap-phone.test.js), the tooltip's colon in Chinese, sliders that let a vertical swipe
// scroll, and the true minus sign in an SVG's ticks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './browser.js';

let b;
before(async () => {
  b = await startBrowser();
});
after(async () => {
  await b?.close();
});

// One embed.html page per chart, language and kind of screen serves every test that asks for it
// (a load costs more than the test): a later test gets it resized to the width it names. The unit
// circle's labels, position by position, come out the same at 360 and 900 px whether the page was
// loaded at that width or resized to it.
const pages = new Map();

/** An embed.html page with its chart drawn, at `width` × `height`. */
async function chartPage(query, { width = 900, height = 900, lang = 'en', touch = false } = {}) {
  const key = `${query}&lang=${lang}${touch ? ' (touch)' : ''}`;
  if (pages.has(key)) {
    const { page } = pages.get(key);
    const size = page.viewportSize();
    if (size.width !== width || size.height !== height) {
      await page.setViewportSize({ width, height });
      // the resize observers have run and the chart has drawn at the new size
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    return pages.get(key);
  }
  const context = await b.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  await page.goto(`${b.url}embed.html?${query}&lang=${lang}`);
  await page.waitForFunction(() => window.posencEmbed?.host?.data);
  pages.set(key, { page, context });
  context.on('close', () => pages.delete(key));
  return { page, context };
}

test('three-frequencies: the tooltip joins name and value with the colon of the language', async () => {
  for (const [lang, colon] of [['en', ': '], ['zh', '：']]) {
    const { page, context } = await chartPage('chart=three-frequencies', { lang });
    const line = await page.evaluate(() => {
      const chart = Object.values(window.Chart.instances)[0];
      chart.tooltip.setActiveElements([{ datasetIndex: 0, index: 0 }], { x: 0, y: 0 });
      chart.update();
      const line = chart.tooltip.body[0].lines[0];
      // (the English page serves the SVG test next: no tooltip left drawn)
      chart.tooltip.setActiveElements([], { x: 0, y: 0 });
      chart.update();
      return line;
    });
    assert.equal(line, `PE(2)${colon}${await page.evaluate(() => String(Object.values(window.Chart.instances)[0].data.datasets[0].data[0]))}`);
    if (lang === 'zh') await context.close();
  }
});

test('SVG export: negative ticks carry the minus sign U+2212, as on the canvas', async () => {
  const { page, context } = await chartPage('chart=three-frequencies');
  const texts = await page.evaluate(async () => {
    const { chartSVG } = await import('./host/svg.js');
    const src = chartSVG([...document.querySelectorAll('canvas')].filter((c) => c.offsetWidth), { Chart: window.Chart });
    return [...new DOMParser().parseFromString(src, 'image/svg+xml').querySelectorAll('text')].map((t) => t.textContent);
  });
  assert.ok(texts.includes('\u22121.0') && texts.includes('\u22120.5'), `ticks: ${texts.join(' | ')}`);
  assert.ok(!texts.some((t) => /(^|\s)-\d/.test(t)), `a hyphen before a number: ${texts.filter((t) => /-\d/.test(t))}`);
  await context.close();
});

test('sliders on a touch screen: a vertical swipe that starts on one scrolls, a sideways drag on its thumb moves it', async () => {
  const { page, context } = await chartPage('chart=three-frequencies', { width: 360, height: 400, touch: true });
  const cdp = await context.newCDPSession(page);
  const slider = page.locator('input[type="range"][name="a"]');
  await slider.scrollIntoViewIfNeeded();
  const swipe = async (from, dx, dy) => {
    const at = (k) => [{ x: from.x + (dx * k) / 10, y: from.y + (dy * k) / 10, id: 1, radiusX: 5, radiusY: 5, force: 1 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let k = 1; k <= 10; k++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(k) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(300);
  };
  const state = async () => ({ value: Number(await slider.inputValue()), scroll: await page.evaluate(() => scrollY) });
  // the thumb: value 2 of 0..1000, at the track's left end
  const thumb = async () => {
    const box = await slider.boundingBox();
    return { x: box.x + 14, y: box.y + box.height / 2 };
  };
  const track = async () => {
    const box = await slider.boundingBox();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  let before = await state();
  await swipe(await track(), -30, -150);
  let now = await state();
  assert.equal(now.value, before.value, 'a swipe up from the middle of the track leaves the slider as it was');
  assert.ok(now.scroll > before.scroll + 50, `and scrolls the page: ${before.scroll} → ${now.scroll}`);
  await page.evaluate(() => scrollTo(0, 0));
  await slider.scrollIntoViewIfNeeded();
  before = await state();
  await swipe(await thumb(), 0, -150);
  now = await state();
  assert.ok(Math.abs(now.value - before.value) <= 5, `a swipe up from the thumb keeps the value: ${before.value} → ${now.value}`);
  assert.ok(now.scroll > before.scroll + 50, `and scrolls the page: ${before.scroll} → ${now.scroll}`);
  await page.evaluate(() => scrollTo(0, 0));
  await slider.scrollIntoViewIfNeeded();
  before = await state();
  await swipe(await thumb(), 120, 0);
  now = await state();
  assert.ok(now.value > before.value + 300, `a sideways drag of the thumb moves it: ${before.value} → ${now.value}`);
  await context.close();
});

/** The unit circle's labels at positions 0..60: { position, w, h, note, labels } each. */
async function circleLabels(width, lang) {
  const { page, context } = await chartPage('chart=unit-circle', { width, lang });
  const drawn = await page.evaluate(async () => {
    const host = window.posencEmbed.host, out = [];
    const input = host.container.querySelector('input[type="number"][name="position"]');
    for (let p = 0; p <= 60; p++) {
      const done = new Promise((r) => host.container.addEventListener('posenc:drawn', r, { once: true }));
      input.value = String(p);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await done;
      out.push({ position: p, ...host.view.drawnLabels });
    }
    return out;
  });
  // (each language's page serves its two widths)
  if (--uses[lang] === 0) await context.close();
  return drawn;
}

const CIRCLES = [[360, 'zh'], [360, 'en'], [900, 'en'], [900, 'zh']];
const uses = {};
for (const [, lang] of CIRCLES) uses[lang] = (uses[lang] ?? 0) + 1;
for (const [width, lang] of CIRCLES) {
  test(`unit circle at ${width} px (${lang}): every label inside the canvas, off the corner note and off the others`, async () => {
    const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const drawn = await circleLabels(width, lang);
    for (const { position, w, h, note, labels } of drawn) {
      assert.equal(labels.length, Math.min(position, 9) + 1, `position ${position}: the point and the last nine numbered`);
      for (const l of labels) {
        assert.ok(l.left >= 0 && l.top >= 0 && l.right <= w && l.bottom <= h, `position ${position}: "${l.text}" at ${JSON.stringify(l)} in ${w} × ${h}`);
        assert.ok(!overlap(l, note), `position ${position}: "${l.text}" covers the note ${JSON.stringify(note)}`);
      }
      for (const [i, a] of labels.entries()) for (const c of labels.slice(i + 1)) assert.ok(!overlap(a, c), `position ${position}: "${a.text}" and "${c.text}" overlap`);
    }
  });
}

/** One row of the heatmap's plot as drawn: each pixel's colour across it, at CSS px `width`. */
async function heatmapRow(query, width, { dpr = 1, row = 0.5 } = {}) {
  const context = await b.browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: dpr });
  const page = await context.newPage();
  await page.goto(`${b.url}embed.html?chart=sin-heatmap&${query}`);
  await page.waitForFunction(() => window.posencEmbed?.host?.data);
  const out = await page.evaluate(({ row }) => {
    const canvas = document.querySelector('.heatmap-canvas'), r = canvas.width / canvas.clientWidth;
    // the plot's box at 11 px text: 60 px of margin on the left, 64 on the right, 10 above, 40 below
    const x0 = Math.ceil(60 * r), x1 = Math.floor(canvas.width - 64 * r);
    const y = Math.round((10 + row * (canvas.clientHeight - 50)) * r);
    const { data } = canvas.getContext('2d').getImageData(x0, y, x1 - x0, 1);
    return { rgb: Array.from({ length: x1 - x0 }, (_, i) => data.slice(4 * i, 4 * i + 3).join()) };
  }, { row });
  await context.close();
  return out;
}

test('sin-heatmap with room for its cells: each cell drawn exact, no colour blended at its edges', async () => {
  const { rgb } = await heatmapRow('length=50&dim=64', 1200);
  const colours = new Set(rgb);
  assert.ok(colours.size <= 64 && rgb.length > 64 * 10, `${colours.size} colours over ${rgb.length} pixels for 64 cells`);
});
