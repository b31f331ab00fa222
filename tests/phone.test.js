// phone.test.js: the page on a phone (360 × 740, touch): the primer's pipeline and the notation
// readable at that width, every chart's controls right under its drawing, targets a finger can
// hit (and the desktop's sizes kept for a mouse), the exact table's position column in view while
// it scrolls; and which control each chart treats as its main one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';
import { mainParam, sweepDefaults } from '../web/host/main-control.js';

/** The page on a phone, every chart mounted; problems(): what its console and scripts have reported so far. */
const phone = async (path = '') => {
  const { page, context, problems } = await b.open(path, { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  await pageReady(page);
  return { page, context, problems: () => [...problems.console, ...problems.pageErrors] };
};

// One phone page per language, loaded as a reader's phone loads it, serves every check of the
// lesson on a phone: they read its layout, and the few that change something (a table scrolled,
// a model picked, answers opened) put it back. The one that widens the window runs last.
let b, phones;
before(async () => {
  b = await startBrowser();
  phones = { en: await phone('?lang=en'), zh: await phone('?lang=zh') };
});
after(async () => b?.close());

/** Scrolls the shared page to a section or a chart, as a link to it would. */
const at = async (lang, id) => {
  const { page } = phones[lang];
  await page.evaluate((id) => (document.getElementById(id) ?? document.querySelector(`.chart[data-kind="${id}"]`)).scrollIntoView(), id);
  return phones[lang];
};

test('each section’s main control is the one its prose and exercises turn', async () => {
  const main = async (kind) => mainParam((await import(`../web/charts/${kind}.js`)).default).name;
  assert.equal(await main('rope-2d'), 'shift', 'rope-2d: "move both positions by c and q·k stays put"');
  assert.equal(await main('relative-rotation'), 'k', 'relative-rotation: "set the offset to 100"');
  assert.equal(await main('frequency-curves'), 'low', 'frequency-curves: "move the fast pair"');
  assert.equal(await main('rope-decay-random'), 'key', 'rope-decay-random: the same key or an independent one');
  // a select main falls back to a numeric param the chart shows: not rope-periods' d, which counts only beside "free"
  const periods = (await import('../web/charts/rope-periods.js')).default;
  assert.equal(sweepDefaults(periods).param, 'base');
  assert.equal(sweepDefaults(periods, { preset: 'free' }).param, 'dim');
  assert.equal(sweepDefaults((await import('../web/charts/rope-2d.js')).default).param, 'shift');
  // the helix's pair stops at d_model's last pair: a sweep ends there, with no frame repeating it
  const helix = (await import('../web/charts/helix.js')).default;
  assert.deepEqual(sweepDefaults(helix, { pair: 0, dim: 64 }), { param: 'pair', from: 0, to: 31, frames: 32 });
  assert.equal(sweepDefaults(helix, { pair: 0, dim: 1024 }).to, 60);
});

test('on a phone: the tall pipeline and a one-column notation, controls under each drawing, finger-sized targets', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, problems } = phones[lang];
    const r = await page.evaluate(() => {
      const shown = (e) => e.getClientRects().length > 0;
      const svgs = [...document.querySelectorAll('svg.pipeline')];
      const tall = svgs.find(shown);
      const text = [...tall.querySelectorAll('text')].filter(shown).map((t) => t.getBoundingClientRect().height);
      const dd = [...document.querySelectorAll('#notation dd')].filter(shown).map((d) => d.getBoundingClientRect().width);
      const late = [];
      for (const box of document.querySelectorAll('.chart[data-kind]')) {
        const form = box.querySelector('.controls:not(.phone-main)');
        if (form.hidden) continue;
        if (box.querySelector('.chart-body').nextElementSibling !== form) late.push(`${box.dataset.kind}: controls not right under the drawing`);
        const readout = box.querySelector('.readout');
        if (!(form.compareDocumentPosition(readout) & Node.DOCUMENT_POSITION_FOLLOWING)) late.push(`${box.dataset.kind}: readout above the controls`);
      }
      const heights = (sel) => [...document.querySelectorAll(sel)].filter(shown).map((e) => Math.round(e.getBoundingClientRect().height));
      const thumb = (() => {
        const r = document.querySelector('.control.main input[type="range"]');
        return parseFloat(getComputedStyle(r, '::-webkit-slider-thumb').width);
      })();
      return {
        shownSvgs: svgs.filter(shown).length, tallClass: tall.classList.contains('tall'), smallestText: Math.min(...text),
        narrowestMeaning: Math.min(...dd), late,
        small: ['.control.main input[type="range"]', '.control.main input[type="number"]', '.control.main select', '.settings-toggle',
          '.data-table-toggle', '.posenc-toolbar button'].flatMap((s) => heights(s).filter((h) => h < 44).map((h) => `${s} ${h}px`)).slice(0, 5),
        thumb,
      };
    });
    assert.equal(r.shownSvgs, 1, `${lang}: one pipeline shows`);
    assert.ok(r.tallClass, `${lang}: the tall pipeline shows on a phone`);
    assert.ok(r.smallestText >= 11, `${lang}: pipeline text ${r.smallestText} px tall`);
    assert.ok(r.narrowestMeaning >= 250, `${lang}: a notation meaning only ${r.narrowestMeaning} px wide`);
    assert.deepEqual(r.late, [], lang);
    assert.deepEqual(r.small, [], `${lang}: targets under 44 px`);
    assert.ok(r.thumb >= 24, `${lang}: slider thumb ${r.thumb} px`);
    assert.deepEqual(problems(), []);
  }
});

// The panel each tall chart's main control changes most: binary's bits lift position 4 into the xz plane.
const TALL = { order: '.table-scroll', binary: '.binary-panel:nth-child(2)', 'scaling-variants': '.canvas-box',
  'runtime-compare': '.canvas-box', 'length-lab': '.canvas-box' };

test('on a phone, a chart taller than the screen shows its main control and the panel it changes on one screen', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, problems } = phones[lang];
    const r = await page.evaluate((tall) => Object.entries(tall).map(([kind, sel]) => {
      const box = document.querySelector(`.chart[data-kind="${kind}"]`);
      scrollTo(0, scrollY + box.getBoundingClientRect().top);
      const top = box.getBoundingClientRect().top;
      const at = (e) => { const q = e.getBoundingClientRect(); return [Math.round(q.top - top), Math.round(q.bottom - top)]; };
      const body = box.querySelector('.chart-body');
      return { kind, panel: at(body.querySelector(sel)), main: at(box.querySelector('.control.main')) };
    }), TALL);
    const off = r.filter(({ panel, main }) => Math.max(panel[1], main[1]) > 740).map(({ kind, panel, main }) => `${kind}: panel at ${panel}, main control at ${main}`);
    assert.deepEqual(off, [], `${lang}: not both on the first screen`);
    assert.deepEqual(problems(), []);
  }
});

test('on a phone, the exact table keeps its position column in view while it scrolls, and shows that it scrolls', async () => {
  const { page } = await at('en', 'exact');
  const box = '.chart[data-kind="exact-table"]';
  const state = () => page.evaluate((s) => {
    const scroll = document.querySelector(`${s} .table-scroll`);
    const pos = document.querySelector(`${s} tbody th`).getBoundingClientRect();
    const at = document.elementFromPoint(pos.left + pos.width / 2, pos.top + pos.height / 2);
    return {
      scrolls: scroll.scrollWidth > scroll.clientWidth, left: scroll.scrollLeft, posLeft: Math.round(pos.left - scroll.getBoundingClientRect().left),
      onTop: at?.closest('th')?.scope === 'row', shadow: getComputedStyle(scroll).backgroundImage.includes('gradient'),
    };
  }, box);
  const before = await state();
  assert.ok(before.scrolls, 'the default table is wider than a phone');
  assert.ok(before.shadow, 'its box is shaded where it scrolls');
  await page.locator(`${box} tbody tr:nth-child(2) td:last-child`).tap();
  const tapped = await state();
  assert.ok(tapped.left > 0, 'tapping the last column scrolled the table');
  assert.equal(tapped.posLeft, 0, 'the position column stays at the left edge');
  assert.ok(tapped.onTop, 'the position column is drawn over the values scrolling under it');
  await page.evaluate((s) => { document.querySelector(`${s} .table-scroll`).scrollLeft = 0; }, box);
});

test('a mouse keeps the compact controls: no finger sizes on a desktop', async () => {
  const { page, context } = await b.open('#rope-2d');
  await pageReady(page);
  const r = await page.evaluate(() => ({
    pipeline: [...document.querySelectorAll('svg.pipeline')].filter((e) => e.getClientRects().length).map((e) => e.classList.contains('tall')),
    range: Math.round(document.querySelector('.chart[data-kind="rope-2d"] input[type="range"]').getBoundingClientRect().height),
    button: Math.round(document.querySelector('.posenc-toolbar button').getBoundingClientRect().height),
  }));
  assert.deepEqual(r.pipeline, [false], 'the wide pipeline alone on a desktop');
  assert.ok(r.range < 30 && r.button < 36, `desktop sizes: slider ${r.range} px, button ${r.button} px`);
  await context.close();
});

/** Legend items of every Chart.js chart on the page that reach past their canvas's width, as "kind [i] text". */
const cutLegends = (page) => page.evaluate(() => {
  const cut = [];
  for (const canvas of document.querySelectorAll('.chart[data-kind] canvas')) {
    const chart = window.Chart.getChart(canvas);
    if (!chart?.legend?.options.display) continue;
    chart.legend.legendHitBoxes.forEach((h, i) => {
      if (h.left < 0 || h.left + h.width > chart.width + 0.5) cut.push(`${canvas.closest('.chart').dataset.kind} [${i}] ${chart.legend.legendItems[i].text}`);
    });
  }
  return cut;
});

test('on a phone, every legend item of every chart fits in its canvas, in both languages (and every misread a model can show)', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, problems } = phones[lang];
    assert.deepEqual(await cutLegends(page), [], `${lang}: legend items past the canvas's right edge`);
    // model-misreads names the misreads that apply to the model chosen: walk every model
    const models = await page.$$eval('.chart[data-kind="model-misreads"] select[name="model"] option', (os) => os.map((o) => o.value).filter((v) => v !== 'config'));
    const chosen = await page.$eval('.chart[data-kind="model-misreads"] select[name="model"]', (s) => s.value);
    const pick = (model) => page.evaluate((model) => new Promise((resolve) => {
      const box = document.querySelector('.chart[data-kind="model-misreads"]'), select = box.querySelector('select[name="model"]');
      if (select.value === model) return resolve(); // drawn already: no change, no redraw
      box.addEventListener('posenc:drawn', resolve, { once: true });
      // a model the chart cannot draw writes its message in the readout instead
      new MutationObserver((_, o) => (o.disconnect(), resolve())).observe(box.querySelector('.readout'), { childList: true, subtree: true, characterData: true });
      select.value = model;
      select.dispatchEvent(new Event('input', { bubbles: true }));
    }), model);
    const cut = [], failed = [];
    for (const model of models) {
      await pick(model);
      cut.push(...(await cutLegends(page)).map((c) => `${model}: ${c}`));
      if (await page.$eval('.chart[data-kind="model-misreads"] .readout', (r) => r.classList.contains('posenc-error'))) failed.push(model);
    }
    assert.deepEqual([...new Set(cut)], [], `${lang}: misread names past the canvas's right edge`);
    assert.deepEqual(failed, [], `${lang}: every model draws`);
    await pick(chosen);
    assert.deepEqual(problems(), []);
  }
});

test('on a phone, inline math in answers and takeaways breaks within its block, the recap reads as cards, the heatmap hints read as prose', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, problems } = phones[lang];
    const r = await page.evaluate(() => {
      window.closedDetails = [...document.querySelectorAll('main details')].filter((d) => !d.open);
      for (const d of document.querySelectorAll('main details')) d.open = true;
      const wide = [];
      for (const m of document.querySelectorAll('main math:not([display="block"])')) {
        if (!m.getClientRects().length || m.closest('.table-scroll, math[display="block"]')) continue;
        let block = m.parentElement;
        while (!['block', 'list-item', 'table-cell'].includes(getComputedStyle(block).display)) block = block.parentElement;
        const s = getComputedStyle(block), right = block.getBoundingClientRect().right - parseFloat(s.paddingRight) - parseFloat(s.borderRightWidth);
        const past = m.getBoundingClientRect().right - right;
        if (past > 1) wide.push(`${m.closest('section')?.id}: ${Math.round(past)} px past its block: ${m.textContent}`);
      }
      const recap = [...document.querySelectorAll('#recap .table-scroll')].find((e) => e.getClientRects().length);
      const firstRow = recap.querySelector('tbody tr');
      const hints = [...document.querySelectorAll('.cell-hover.hint, .heatmap-hover.hint')].filter((e) => e.getClientRects().length)
        .map((e) => ({ text: e.textContent, font: getComputedStyle(e).fontFamily }));
      return {
        wide, recapScrolls: recap.scrollWidth > recap.clientWidth + 1,
        labels: [...firstRow.querySelectorAll('td')].map((td) => getComputedStyle(td, '::before').content),
        heads: [...recap.querySelectorAll('thead th')].slice(1).map((th) => `"${th.textContent}"`), hints,
      };
    });
    await page.evaluate(() => window.closedDetails.forEach((d) => { d.open = false; }));
    assert.deepEqual(r.wide, [], `${lang}: inline math wider than its block`);
    assert.ok(!r.recapScrolls, `${lang}: the recap scrolls sideways`);
    assert.deepEqual(r.labels, r.heads, `${lang}: each recap value under its column's name`);
    assert.ok(r.hints.length >= 2, `${lang}: the heatmaps show their hints`);
    for (const h of r.hints) {
      assert.doesNotMatch(h.font, /mono/i, `${lang}: hint in monospace: ${h.text}`);
      assert.match(h.text, lang === 'en' ? /^Tap/ : /^(用手指)?点按/, `${lang}: the touch action first: ${h.text}`);
    }
    assert.deepEqual(problems(), []);
  }
});

test('on a phone, lab-attention stacks its maps at the full width; rotate-half\'s caption stays put while its table scrolls', async () => {
  const { page } = await at('en', 'lab-attention');
  const r = await page.evaluate(() => {
    const canvas = document.querySelector('.chart[data-kind="lab-attention"] canvas');
    const caption = document.querySelector('.chart[data-kind="rotate-half"] .table-caption');
    const scroll = document.querySelector('.chart[data-kind="rotate-half"] .table-scroll');
    return { width: canvas.clientWidth, height: canvas.clientHeight, captionOutside: !scroll.contains(caption), scrolls: scroll.scrollWidth > scroll.clientWidth,
      named: scroll.querySelector('table').getAttribute('aria-labelledby') === caption.id && caption.textContent.length > 10 };
  });
  // two maps one above the other, each (width − labels and colour bar) square: about 200 px, not 85
  assert.ok(r.height > 1.5 * r.width, `lab-attention's box ${r.width}×${r.height} px`);
  assert.ok(r.captionOutside && r.named, 'rotate-half: a caption outside the scrolling box names the table');
});

test('under a coarse pointer, the toolbar\'s "settings under the figure" and the how notes\' toggles are finger-sized', async () => {
  const { page } = await at('en', 'rope-decay');
  const r = await page.evaluate(() => {
    const shown = (e) => e.getClientRects().length > 0;
    const h = (e) => Math.round(e.getBoundingClientRect().height);
    return {
      settings: [...document.querySelectorAll('.posenc-with-settings')].filter(shown).map(h),
      box: [...document.querySelectorAll('.posenc-with-settings input')].filter(shown).map(h),
      how: [...document.querySelectorAll('details.how summary')].filter(shown).map(h),
    };
  });
  assert.ok(r.settings.length && r.how.length, 'both are on the page');
  assert.deepEqual(r.settings.filter((x) => x < 44), [], 'settings label under 44 px');
  assert.deepEqual(r.box.filter((x) => x < 24), [], 'settings checkbox under 24 px');
  assert.deepEqual(r.how.filter((x) => x < 44), [], 'how toggles under 44 px');
});

test('rope-decay says when the slowest pair\'s quarter period lies past the distances drawn', async () => {
  for (const lang of ['en', 'zh']) {
    const { page } = await at(lang, 'rope-decay');
    const text = await page.locator('.chart[data-kind="rope-decay"] .readout').textContent();
    assert.match(text, lang === 'en' ? /14617, past the largest distance drawn \(10000\)/ : /14617 处降到 0，这已超出图中的最大距离 10000/, lang);
  }
});

test('on a phone, a main control moved under its panel still drives the chart, and goes back to the controls on a wide screen', async () => {
  // (last: it widens the shared page to a desktop's width)
  const { page } = await at('en', 'order');
  const box = '.chart[data-kind="order"]';
  const readout = () => page.locator(`${box} .readout`).textContent();
  const before = await readout();
  await page.locator(`${box} .chart-body .phone-main select[name="encoding"]`).selectOption('rope');
  await page.waitForFunction(([s, t]) => document.querySelector(`${s} .readout`).textContent !== t, [box, before]);
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.waitForFunction((s) => !document.querySelector(`${s} .phone-main`), box);
  const names = await page.$$eval(`${box} .controls:not(.phone-main) > .control`, (cs) => cs.map((c) => c.querySelector('select, input').name));
  assert.deepEqual(names, ['encoding', 'causal', 'seed'], 'the main control back first in the controls');
});
