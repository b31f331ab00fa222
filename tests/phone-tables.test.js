// phone-tables.test.js: the page on a phone (360 × 740, touch, two device pixels a CSS pixel), in
// both languages: §5's exact table rests and snaps with whole values beside its position column,
// §22's attention maps keep their labels apart and the colour bar no taller than a panel, wide
// tables show that they scroll and keep their first column and caption in view, §14 shows its
// two outputs side by side, every control is finger-sized with number boxes of one width, and the
// buttons under a chart, the table's toggle among them, take at most three rows;
// on a desktop the attention maps stay in one row and §14's table keeps each style's columns together.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';

let b;
before(async () => (b = await startBrowser()));
after(async () => b?.close());

/**
 * The page, every chart mounted, with the text and frames the real-attention canvas drew last
 * recorded: window.attention = { texts: [{ text, box }], frames: [box] }, boxes in CSS pixels.
 */
async function open(query, { viewport = { width: 1200, height: 900 }, ...options } = {}) {
  // a context of its own, so that the recording is in place before the page's first load
  const context = await b.browser.newContext({ viewport, deviceScaleFactor: 1, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.addInitScript(() => {
    const P = CanvasRenderingContext2D.prototype, fill = P.fillText, stroke = P.strokeRect, clear = P.clearRect;
    const mine = (ctx) => ctx.canvas.closest?.('.chart')?.dataset.kind === 'real-attention';
    window.attention = { texts: [], frames: [] };
    P.clearRect = function (...a) {
      if (mine(this)) window.attention = { texts: [], frames: [] };
      return clear.apply(this, a);
    };
    P.fillText = function (text, x, y, ...rest) {
      const m = this.getTransform(), r = devicePixelRatio;
      // the rotated y titles sit alone in the left margin: only upright text is boxed
      if (mine(this) && m.b === 0 && m.c === 0) {
        const w = this.measureText(text).width, size = parseFloat(/(\d+(?:\.\d+)?)px/.exec(this.font)[1]);
        const x0 = { left: x, center: x - w / 2, right: x - w, start: x, end: x - w }[this.textAlign];
        const y0 = { top: y, middle: y - size / 2, bottom: y - size, alphabetic: y - 0.8 * size, hanging: y, ideographic: y - size }[this.textBaseline];
        const sx = m.a / r, sy = m.d / r, ox = m.e / r, oy = m.f / r;
        window.attention.texts.push({ text: String(text), box: [ox + sx * x0, oy + sy * y0, ox + sx * (x0 + w), oy + sy * (y0 + size)] });
      }
      return fill.call(this, text, x, y, ...rest);
    };
    P.strokeRect = function (x, y, w, h) {
      if (mine(this)) window.attention.frames.push({ x, y, w, h });
      return stroke.call(this, x, y, w, h);
    };
  });
  await page.goto(`${b.url}${query}`);
  await pageReady(page);
  return { page, context, problems };
}

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

/** A finger's sideways swipe of `dx` px (negative: towards the right columns) across `selector`'s middle. */
async function swipe(page, selector, dx) {
  const cdp = await page.context().newCDPSession(page);
  const box = await page.locator(selector).boundingBox();
  const x = box.x + box.width / 2 + (dx < 0 ? 60 : -60), y = box.y + Math.min(box.height / 2, 60);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let i = 1; i <= 8; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + (dx * i) / 8, y }] });
    await page.waitForTimeout(16);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
  // the snap that follows the lift: the table still for 10 frames (a busy machine draws it late)
  await page.locator(selector).evaluate(async (box) => {
    for (let still = 0, x = NaN, k = 0; still < 10 && k < 600; k++) {
      await new Promise((r) => requestAnimationFrame(r));
      still = box.scrollLeft === x ? still + 1 : 0;
      x = box.scrollLeft;
    }
  });
}

const EXACT = '.chart[data-kind="exact-table"] .chart-body > .table-scroll';

/** The values of §5's table cut by its position column's right edge, and where the table stands. */
const exactState = (page) => page.evaluate((sel) => {
  const box = document.querySelector(sel), edge = box.querySelector('tbody th').getBoundingClientRect().right;
  const cut = [...box.querySelectorAll('tbody td')].filter((td) => {
    const r = td.getBoundingClientRect();
    return r.left < edge - 1 && r.right > edge + 1;
  }).map((td) => td.textContent.trim());
  return { left: box.scrollLeft, end: box.scrollWidth - box.clientWidth, cut };
}, EXACT);

for (const lang of ['en', 'zh']) {
  test(`on a phone (${lang}): whole values beside §5's position column, at rest and after swipes; §22's maps keep their labels apart, wide tables show they scroll, §14's outputs side by side, finger-sized controls`, async () => {
    const { page, context, problems } = await open(`?lang=${lang}&exact-table.dim=16`, PHONE);
    await page.locator(EXACT).evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(500);
    const rest = await exactState(page);
    assert.equal(rest.left, 0, 'the table rests at its start');
    assert.deepEqual(rest.cut, [], 'at rest');
    const stops = new Set([rest.left]);
    for (const dx of [-70, -150, -40, 110]) {
      const from = (await exactState(page)).left;
      await swipe(page, EXACT, dx);
      let s = await exactState(page);
      // a swipe that left the table where it stood is made once more, as a reader would: on a busy
      // machine the synthetic moves can reach the scroller too late to move it
      if (s.left === from) (await swipe(page, EXACT, dx)), (s = await exactState(page));
      assert.deepEqual(s.cut, [], `after a swipe of ${dx} px the table stands at ${s.left} of ${s.end}`);
      stops.add(s.left);
    }
    assert.ok(stops.size >= 3, `the swipes moved the table: it stood at ${[...stops]}`);

    // the attention maps: drawn at the phone's width (the canvas repaints once it has its shape)
    await page.locator('.chart[data-kind="real-attention"] canvas').evaluate((e) => e.scrollIntoView());
    await page.waitForTimeout(300);
    const att = await page.evaluate(() => ({ ...window.attention, width: document.querySelector('.chart[data-kind="real-attention"] canvas').clientWidth }));
    assert.ok(att.texts.length > 12, `${att.texts.length} labels recorded`);
    const overlaps = [];
    att.texts.forEach((a, i) => att.texts.slice(i + 1).forEach((c) => {
      const [ax0, ay0, ax1, ay1] = a.box, [cx0, cy0, cx1, cy1] = c.box;
      if (Math.min(ax1, cx1) - Math.max(ax0, cx0) > 0.5 && Math.min(ay1, cy1) - Math.max(ay0, cy0) > 0.5) overlaps.push(`"${a.text}" × "${c.text}"`);
    }));
    assert.deepEqual(overlaps, [], 'labels drawn over one another');
    const outside = att.texts.filter(({ box }) => box[0] < -0.5 || box[2] > att.width + 0.5).map((t) => t.text);
    assert.deepEqual(outside, [], 'labels cut by the canvas edge');
    // frames: the panels' squares and the colour bar's narrow one
    const bar = att.frames.find((f) => f.w < 20), panels = att.frames.filter((f) => f.w >= 20);
    assert.equal(panels.length, 4, 'the lab model\'s four heads');
    assert.ok(bar.h <= panels[0].h + 0.5, `colour bar ${bar.h} px beside panels ${panels[0].h} px tall`);
    assert.ok(panels[0].w >= 90, `panels ${Math.round(panels[0].w)} px wide`);

    // wide tables: shaded where they are cut; scrolled to their end, the first column and the caption still in view
    const tables = await page.evaluate(() => [
      '.chart[data-kind="rotate-half"] .chart-body > .table-scroll', '.chart[data-kind="kv-cache"] .chart-body > .table-scroll',
      '#scaling > .table-scroll:has(table.methods)',
    ].map((sel) => {
      const box = [...document.querySelectorAll(sel)].find((e) => e.getClientRects().length);
      const r = () => box.getBoundingClientRect();
      const first = () => box.querySelector('tbody th').getBoundingClientRect();
      const caption = box.querySelector('caption') ?? box.previousElementSibling;
      const inBox = (e) => { const q = e.getBoundingClientRect(); return q.left >= r().left - 1 && q.right <= r().right + 1; };
      const at = { scrolls: box.scrollWidth > box.clientWidth + 1, shade: getComputedStyle(box).backgroundImage.includes('radial-gradient') };
      box.scrollLeft = box.scrollWidth;
      // the column that stays shades the columns passing under its edge
      const edge = getComputedStyle(box.querySelector('tbody th[scope="row"]'), '::after');
      return { sel, ...at, scrolled: box.scrollLeft > 0, firstStays: Math.abs(first().left - r().left) <= 1,
        edge: edge.content !== 'none' && parseFloat(edge.width) > 0 && edge.backgroundImage.includes('gradient'),
        caption: caption.matches('caption, .table-caption') && inBox(caption) && caption.textContent.length > 10 };
    }));
    for (const t of tables) assert.deepEqual(t, { sel: t.sel, scrolls: true, shade: true, scrolled: true, firstStays: true, edge: true, caption: true });

    // §14: the two outputs next to each other, both whole in the box before any scrolling
    const rh = await page.evaluate(() => {
      const box = document.querySelector('.chart[data-kind="rotate-half"] .chart-body > .table-scroll');
      box.scrollLeft = 0;
      const data = window.posencPage.charts.get(document.querySelector('[data-chart="rotate-half"]').dataset.chart).data;
      const right = box.getBoundingClientRect().right;
      return [...box.querySelectorAll('tbody tr')].map((tr, i) => {
        const [half, inter] = [tr.cells[2], tr.cells[3]];
        return { pair: [half.textContent, inter.textContent].join(' '), want: [data.rows[i][4], data.rows[i][7]].map((v) => v.toFixed(6)).join(' '),
          whole: inter.getBoundingClientRect().right <= right + 1 };
      });
    });
    assert.ok(rh.length >= 8);
    for (const r of rh) assert.deepEqual(r, { pair: r.want, want: r.want, whole: true });

    // controls: every fold open; each control a finger's height, each number box as wide as the others and ending at the same edge
    const c = await page.evaluate(() => {
      for (const t of document.querySelectorAll('.settings-toggle[aria-expanded="false"]')) t.click();
      const shown = [...document.querySelectorAll('main :is(select, button, input:not([type="range"], [type="checkbox"], [type="hidden"]))')].filter((e) => e.getClientRects().length);
      const name = (e) => `${e.closest('[data-kind]')?.dataset.kind ?? (e.closest('.real-model-panel') ? 'model panel' : 'page')}: ${e.name || e.id || e.textContent.trim() || e.type}`;
      const short = shown.filter((e) => e.getBoundingClientRect().height < 43.5).map((e) => `${name(e)} ${Math.round(e.getBoundingClientRect().height)} px`);
      const boxes = [...document.querySelectorAll('.chart.phone .controls input[type="number"]')].filter((e) => e.getClientRects().length);
      const widths = new Set(boxes.map((e) => Math.round(e.getBoundingClientRect().width)));
      const ragged = [...document.querySelectorAll('.chart.phone')].flatMap((chart) => {
        const edges = boxes.filter((e) => chart.contains(e)).map((e) => Math.round(e.getBoundingClientRect().right));
        return new Set(edges).size > 1 ? [`${chart.dataset.kind}: ${edges}`] : [];
      });
      return { short, widths: [...widths], ragged, count: boxes.length };
    });
    assert.ok(c.count > 40, `${c.count} number boxes`);
    assert.deepEqual(c.short, [], 'controls under 44 px');
    assert.equal(c.widths.length, 1, `number box widths ${c.widths}`);
    assert.deepEqual(c.ragged, [], 'number boxes ending at different edges');

    // the buttons under a chart, the table's toggle among them, in at most three rows
    const bars = await page.evaluate(() => [...document.querySelectorAll('.chart.phone .posenc-toolbar')].filter((bar) => bar.getClientRects().length)
      .map((bar) => ({ kind: bar.closest('[data-kind]').dataset.kind, table: Boolean(bar.querySelector('.data-table-toggle')),
        rows: new Set([...bar.children].filter((e) => e.getClientRects().length).map((e) => Math.round(e.getBoundingClientRect().top))).size })));
    assert.ok(bars.length > 40, `${bars.length} toolbars`);
    assert.deepEqual(bars.filter((t) => t.rows > 3 || !t.table), [], 'toolbars over three rows, or without the table\'s toggle');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('on a desktop, the attention maps stay in one row and §14\'s table keeps each style\'s three columns together', async () => {
  const { page, context, problems } = await open('?lang=en#llama');
  const r = await page.evaluate(() => {
    const panels = window.attention.frames.filter((f) => f.w >= 20);
    const heads = [...document.querySelectorAll('.chart[data-kind="rotate-half"] thead tr:nth-child(2) th')].map((th) => th.textContent);
    return { rows: new Set(panels.map((f) => f.y)).size, panels: panels.length, heads };
  });
  assert.deepEqual({ rows: r.rows, panels: r.panels }, { rows: 1, panels: 4 });
  assert.deepEqual(r.heads, ['partner', 'pair i', 'output', 'partner', 'pair i', 'output']);
  assert.deepEqual(problems, []);
  await context.close();
});
