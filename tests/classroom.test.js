// classroom.test.js: the page in a class: a scene URL sets charts of several sections at once,
// Reset puts a chart back to its defaults, lock=1 (and <posenc-chart locked>) disables the
// controls, the section's Link offers a scene of the whole section, printing to PDF hides the
// controls and keeps every chart drawn, and ?present steps through every figure with the arrow
// keys and returns with Escape (hand-drawn charts lettered large there, at the page's size after);
// axe finds nothing in the presenter view or the print media.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { startBrowser, pageReady, switchLang as switchPageLang, followScene } from './browser.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let b;
before(async () => (b = await startBrowser()));
after(() => b?.close());
// every page a test opened closes with it (a page left open keeps its 45 charts and timers
// alive), but the shared lesson and the shared guide below
afterEach(() => Promise.all(b.browser.contexts().filter((c) => c !== shared?.context && c !== sharedGuide?.context).map((c) => c.close())));

const params = (page, kind) => page.evaluate((k) => window.posencPage.charts.get(k).params(), kind);
const ready = async (page) => {
  await pageReady(page);
  await page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
};
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r)))));

// One lesson, loaded in English at 1200×900, serves the tests that read the page or set things
// and put them back (restore() below): loading it costs seconds of CPU each time, and what these
// tests check is the page's state, not how it got there. Tests about what a load does (a scene
// or a handout named in the address) load their own.
let shared = null;
const lesson = async () => {
  if (!shared) {
    shared = await b.open('?lang=en', { init: watchFonts });
    await ready(shared.page);
  }
  return shared;
};
// One guide (teaching.html, no chart), loaded in English, serves the tests that read it: its
// language is set with its own switch, to the one a test reads it in.
let sharedGuide = null;
const guide = async (l = 'en') => {
  if (!sharedGuide) {
    sharedGuide = await b.open('teaching.html?lang=en');
    await sharedGuide.page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
  }
  await switchLang(sharedGuide.page, l);
  return sharedGuide;
};
/** Closes the shared lesson (the next test that needs it loads it again). */
const release = async () => {
  const { context } = shared ?? {};
  shared = null;
  await context?.close();
};
// Every font set on a canvas drawn by hand (not by Chart.js), with the kind of chart it belongs
// to, while a test lists them in window.fontsSet (a canvas of no size is a hidden one's: the
// page's charts behind the presenter, or a stale size).
function watchFonts() {
  const d = Object.getOwnPropertyDescriptor(CanvasRenderingContext2D.prototype, 'font');
  window.fontsSet = null;
  Object.defineProperty(CanvasRenderingContext2D.prototype, 'font', {
    ...d,
    set(v) {
      const c = this.canvas;
      if (window.fontsSet && c?.isConnected && c.width > 0 && !window.Chart?.getChart(c)) window.fontsSet.push([c.closest('[data-chart]')?.dataset.chart, v]);
      d.set.call(this, v);
    },
  });
}
/** The page's own language switch, as a reader presses it (under the presenter too); none when the page is in `l` already (a switch redraws every chart). */
const switchLang = async (page, l) => {
  if (await page.evaluate(() => document.documentElement.lang) === (l === 'zh' ? 'zh-CN' : 'en')) return;
  await switchPageLang(page, l);
  await frames(page);
};
/** Puts the shared lesson back as it was loaded: English, screen media, 1200×900, the charts at their defaults, the exercises closed, its address. */
const restore = async ({ page }) => {
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.evaluate(() => {
    const p = window.posencPage.presenter;
    if (p.index >= 0) p.close();
    for (const h of window.posencPage.charts.values()) if (JSON.stringify(h.params()) !== JSON.stringify(h.defaults())) h.reset();
    for (const d of document.querySelectorAll('details.exercise[open], details.answer[open]')) d.open = false;
  });
  await switchLang(page, 'en');
  await page.evaluate(() => history.replaceState(history.state, '', '?lang=en'));
  await frames(page);
};

test('a scene sets two charts of different sections; unknown names are noted; lock=1 disables the controls', async () => {
  const { page, problems } = await b.open('?rope-periods.preset=4&rope-decay.preset=4&rope-decay.maxDist=99999999&rope-decay.nope=1&sin-heatmap.length=30&nochart.x=1&lock=1#rope-periods');
  await ready(page);
  assert.equal((await params(page, 'rope-periods')).preset, '4');
  const decay = await params(page, 'rope-decay');
  assert.equal(decay.preset, '4');
  assert.equal(decay.maxDist, 100000, 'clamped to the control\'s range');
  assert.equal((await params(page, 'sin-heatmap')).length, 30);
  assert.equal((await params(page, 'four-terms')).dim, 512, 'charts the scene does not name keep their defaults');
  const r = await page.evaluate(() => ({
    notes: window.posencPage.notes,
    chartNotes: document.querySelector('[data-chart="rope-decay"] .posenc-notes').textContent,
    enabled: [...document.querySelectorAll('main .controls input, main .controls select')].filter((i) => !i.disabled).length,
  }));
  assert.ok(r.notes.some((n) => /nochart/.test(n)), 'a chart that is not on the page is named');
  assert.match(r.chartNotes, /nope/);
  assert.match(r.chartNotes, /maxDist/);
  assert.equal(r.enabled, 0, 'every control is disabled under lock=1');
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
});

test('Reset restores the defaults; the Link panel offers the whole section as a scene that restores it', async () => {
  const shown = await lesson(), { page, context } = shown;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const defaults = await params(page, 'rope-decay');
  await page.evaluate(() => {
    window.posencPage.charts.get('rope-decay').set({ preset: '4', maxDist: 500 });
    window.posencPage.charts.get('rope-periods').set({ preset: '4096' });
    window.posencPage.charts.get('rope-decay').update();
    window.posencPage.charts.get('rope-periods').update();
  });
  const box = page.locator('[data-chart="rope-decay"]');
  await box.locator('.posenc-toolbar button[data-action="link"]').click();
  await box.getByRole('button', { name: 'Link to the whole section instead' }).click();
  const scene = await box.locator('.posenc-share textarea').inputValue();
  const url = new URL(scene);
  assert.equal(url.hash, '#decay');
  assert.equal(url.searchParams.get('rope-decay.preset'), '4');
  assert.equal(url.searchParams.get('rope-decay.maxDist'), '500');
  assert.ok(!url.searchParams.has('rope-periods.preset'), 'only the section\'s own charts');
  assert.ok(!url.searchParams.has('rope-decay.base'), 'values at their defaults are left out');

  await box.locator('.posenc-toolbar button[data-action="reset"]').click();
  await page.waitForFunction((d) => JSON.stringify(window.posencPage.charts.get('rope-decay').params()) === d, JSON.stringify(defaults));
  assert.deepEqual(await params(page, 'rope-decay'), defaults);
  await box.locator('.posenc-share').getByRole('button', { name: 'Close' }).click();
  await restore(shown);

  // the scene followed from the charts' defaults, as a new tab sets it (a scene read at load is
  // the first test's; that a link sets its charts as a new tab would, an exercise's link test's)
  await followScene(page, url.search + url.hash);
  const restored = await params(page, 'rope-decay');
  assert.equal(restored.preset, '4');
  assert.equal(restored.maxDist, 500);
  await restore(shown);
});

test('embed.html?lock=1 and <posenc-chart locked> show their controls disabled', async () => {
  const { page } = await b.open('embed.html?chart=rope-decay&lock=1');
  await page.waitForFunction(() => window.posencEmbed?.host);
  assert.ok(await page.evaluate(() => [...document.querySelectorAll('.controls input')].every((i) => i.disabled)));
  const el = await b.open('fixture-locked.html', { pages: { 'fixture-locked.html': `<!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>locked</title><link rel="icon" href="data:,">
    <script type="module" src="/embed/element.js"></script></head>
    <body><posenc-chart id="a" kind="rope-periods" locked></posenc-chart><posenc-chart id="b" kind="rope-periods"></posenc-chart></body></html>` } });
  const r = await el.page.evaluate(async () => {
    const disabled = async (id) => {
      const x = document.getElementById(id);
      await x.ready;
      return [...x.shadowRoot.querySelectorAll('.controls input, .controls select')].map((i) => i.disabled);
    };
    return { a: await disabled('a'), b: await disabled('b'), locked: document.getElementById('a').locked };
  });
  assert.ok(r.a.length && r.a.every(Boolean), 'locked');
  assert.ok(r.b.length && r.b.every((d) => !d), 'not locked');
  assert.equal(r.locked, true);
});

test('printing to PDF hides every control and keeps every chart drawn', async () => {
  const shown = await lesson(), { page } = shown;
  await switchLang(page, 'zh');
  // every section laid out, as after a reader has scrolled through the page
  await page.evaluate(() => document.querySelectorAll('main > section').forEach((s) => (s.style.contentVisibility = 'visible')));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const canvases = await page.evaluate(() => {
    const shown = [...document.querySelectorAll('main [data-chart] canvas')].filter((c) => c.width && c.getClientRects().length);
    for (const c of shown) c.dataset.shownOnScreen = '';
    return shown.length;
  });
  await page.emulateMedia({ media: 'print' });
  const hidden = await page.evaluate(() => [...document.querySelectorAll('.controls, .posenc-toolbar, .page-tools, .data-table')]
    .every((el) => getComputedStyle(el).display === 'none'));
  assert.ok(hidden, 'controls, toolbars and switches are hidden in print');
  // a cell readout that only says how to pick a cell is an instruction paper cannot follow
  const hints = await page.evaluate(() => [...document.querySelectorAll('.heatmap-hover, .cell-hover')]
    .map((el) => [el.closest('[data-chart]').dataset.chart, el.classList.contains('hint'), getComputedStyle(el).display]));
  assert.equal(hints.length, 3);
  for (const [kind, hint, display] of hints) assert.deepEqual([kind, hint, display], [kind, true, 'none']);
  // frames pass under print media before the PDF is made (a reader's print preview): a canvas hidden
  // behind its snapshot is resized to nothing by then, and beforeprint snapshots every canvas again
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100)))));
  // what printing does first: every chart drawn on screen gets a snapshot with its picture in it
  const blank = await page.evaluate(async () => {
    dispatchEvent(new Event('beforeprint'));
    const out = [];
    for (const c of document.querySelectorAll('main [data-chart] canvas[data-shown-on-screen]')) {
      const img = c.nextElementSibling;
      if (!img?.classList.contains('print-snapshot')) {
        out.push(`${c.closest('[data-chart]').dataset.chart}: no snapshot (canvas ${c.width}×${c.height})`);
        continue;
      }
      await img.decode();
      const t = document.createElement('canvas');
      [t.width, t.height] = [img.naturalWidth, img.naturalHeight];
      const x = t.getContext('2d');
      x.drawImage(img, 0, 0);
      const px = x.getImageData(0, 0, t.width, t.height).data;
      let painted = 0;
      for (let i = 3; i < px.length; i += 4) painted += px[i] > 0;
      if (painted === 0) out.push(`${c.closest('[data-chart]').dataset.chart}: blank snapshot`);
    }
    return out;
  });
  assert.deepEqual(blank, []);
  const pdf = await page.pdf({ format: 'A4' });
  const images = (pdf.toString('latin1').match(/\/Subtype\s*\/Image/g) ?? []).length;
  assert.ok(images >= canvases, `${images} images in the PDF for ${canvases} drawn canvases`);
  await page.evaluate(() => {
    dispatchEvent(new Event('afterprint'));
    document.querySelectorAll('main > section').forEach((s) => (s.style.contentVisibility = ''));
    document.querySelectorAll('[data-shown-on-screen]').forEach((c) => delete c.dataset.shownOnScreen);
  });
  await restore(shown);
});

test('a printed chart carries a line of its settings and the text it was given, in the page\'s language; it goes after printing', async () => {
  const frame = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
  const shown = await lesson(), { page, problems } = shown;
  const sentence = page.locator('.real-model-sentence'), configText = page.locator('[data-chart="scaling-variants"] textarea.config-text');
  const given = { sentence: await sentence.inputValue(), config: await configText.inputValue() };
  // as a reader sets them: a number typed, a select chosen, a checkbox cleared, a sentence and a config typed
  const wavelengths = page.locator('[data-chart="wavelengths"] .controls');
  await wavelengths.locator('input[type="number"][name="base"]').fill('500000');
  await page.locator('[data-chart="rope-decay"] .controls select[name="scale"]').selectOption('log');
  await page.locator('[data-chart="rope-decay"] .controls input[type="checkbox"]').uncheck();
  await sentence.fill('Alice gave Bob the book,   and Bob read it.');
  const config = `{ "rope_theta": 1000000, ${'"x": 1, '.repeat(40)}"max_position_embeddings": 32768 }`;
  await configText.fill(config);
  // the line is written when printing starts, in the language of that moment
  for (const lang of ['en', 'zh']) {
    await switchLang(page, lang);
    assert.equal(await page.locator('p.print-settings').count(), 0, 'no line on screen');
    await page.emulateMedia({ media: 'print' });
    await frame(page);
    const line = (kind) => page.evaluate((k) => {
      const p = document.querySelector(`[data-chart="${k}"] figcaption + p.print-settings`);
      return p && getComputedStyle(p).display !== 'none' ? p.textContent : null;
    }, kind);
    const [wave, decay, real, scaling, circle, half, random] = await Promise.all(['wavelengths', 'rope-decay', 'real-attention', 'scaling-variants', 'unit-circle', 'rotate-half', 'rope-decay-random'].map(line));
    if (lang === 'en') {
      assert.equal(wave, 'Settings: d_model = 512 · base 500\u202f000');
      // a label that ends in the symbol it sets reads as an equation; one listing symbols does not
      assert.match(circle, /^Settings: pair i = \d+ · d_model = \d+ · base [\d\u202f]+ · position m = \d+$/);
      assert.match(half, / · vector x: x_j = j · /);
      assert.match(random, /^Settings: seed for q, k \d+ · d = \d+ · /);
      assert.match(decay, /^Settings: .*Δ axis log · RoFormer bound off · /);
      assert.doesNotMatch(decay, /free/, 'the free d is not in use beside a preset');
      assert.match(real, /^Settings: model the lab's model \(on this page, offline\) · sentence “Alice gave Bob the book, and Bob read it\.” · /);
      // the config as it was read, not its text cut short; the menu that filled the box in is not a setting
      assert.match(scaling, / · Your model's config [^·]*rotary dim 128, base 1000000$/);
    } else {
      assert.equal(wave, '设置：d_model = 512；底数 base 500\u202f000');
      assert.match(circle, /^设置：第 i 对 \d+；d_model = \d+；底数 base [\d\u202f]+；位置 m = \d+$/);
      assert.match(half, /；向量 x：x_j = j；/);
      assert.match(random, /^设置：q、k 的种子 \d+；d = \d+；/);
      assert.match(decay, /^设置：.*Δ 轴 对数；RoFormer 上界 关；/);
      assert.doesNotMatch(decay, /自定义/, 'the free d is not in use beside a preset');
      assert.match(real, /^设置：模型 实验台上的模型（在本页上，离线可用）；句子“Alice gave Bob the book, and Bob read it\.”；/);
      assert.match(scaling, /；你的模型配置 [^；]*旋转维度 128，底数 1000000$/);
    }
    assert.doesNotMatch(scaling, /Start from|预设配置|\{/);
    // every chart of the page says how it was set
    const without = await page.evaluate(() => [...document.querySelectorAll('main [data-chart]')]
      .filter((c) => !c.querySelector('p.print-settings')).map((c) => c.dataset.chart));
    assert.deepEqual(without, []);
    await page.emulateMedia({ media: 'screen' });
    await frame(page);
    assert.equal(await page.locator('p.print-settings, img.print-snapshot').count(), 0, `${lang}: gone after printing`);
  }
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await sentence.fill(given.sentence);
  await configText.fill(given.config);
  await restore(shown);
});

test('axe finds nothing serious in the presenter view or under print media', async () => {
  const shown = await lesson(), { page } = shown;
  // the view ?present opens at load (page-ui.js: start() with the address's query)
  await page.evaluate(() => {
    history.replaceState(history.state, '', '?lang=en&present');
    window.posencPage.presenter.start(new URLSearchParams(location.search));
  });
  await page.waitForFunction(() => window.posencPage.presenter.index === 0);
  // (run by the debugger, which the page's content security policy does not govern)
  await page.evaluate(`${readFileSync(AXE, 'utf8')}\n;0`);
  const audit = async () => (await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }))).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  assert.deepEqual(await audit(), [], 'presenter view');
  await page.keyboard.press('Escape');
  await page.emulateMedia({ media: 'print' });
  assert.deepEqual(await audit(), [], 'print media');
  await restore(shown);
});

test('every numbered section ends with a takeaway; at least 40 exercises, each link sets a chart away from its defaults', async () => {
  const shown = await lesson(), { page, problems } = shown;
  for (const lang of ['zh', 'en']) {
    await switchLang(page, lang);
    const r = await page.evaluate(() => {
      const numbered = [...document.querySelectorAll('main > section')].filter((s) => /^\d+\./.test(s.querySelector('h2').textContent.trim()));
      return {
        sections: numbered.length,
        withoutTakeaway: numbered.filter((s) => !s.querySelector(':scope > aside.takeaway')?.checkVisibility()).map((s) => s.id),
        core: numbered.slice(0, 15).filter((s) => s.querySelectorAll(':scope > details.exercise').length < 2).map((s) => s.id),
        rest: numbered.slice(15).filter((s) => s.querySelectorAll(':scope > details.exercise').length < 1).map((s) => s.id),
        links: [...document.querySelectorAll('details.exercise a.scene-link')].map((a) => a.getAttribute('href')),
        questions: [...document.querySelectorAll('details.exercise > summary')].map((x) => x.textContent.trim()),
      };
    });
    assert.deepEqual(r.withoutTakeaway, [], `${lang}: sections without a takeaway`);
    assert.deepEqual(r.core, [], `${lang}: core sections with fewer than two exercises`);
    assert.deepEqual(r.rest, [], `${lang}: other sections without an exercise`);
    assert.ok(r.links.length >= 40, `${lang}: ${r.links.length} exercises`);
    assert.ok(r.questions.every((q) => q.length > 20 && /[?？]$/.test(q)), `${lang}: every exercise asks a question`);
    if (lang === 'zh') continue;
    for (const href of r.links) {
      const changed = await page.evaluate(async (href) => {
        const a = [...document.querySelectorAll('details.exercise a.scene-link')].find((x) => x.getAttribute('href') === href);
        const kinds = [...new URL(a.href).searchParams.keys()].filter((k) => k.includes('.')).map((k) => k.split('.')[0]);
        // the charts the link sets start from their defaults (the others it does not touch)
        for (const k of kinds) window.posencPage.charts.get(k)?.reset();
        a.closest('details').open = true;
        a.click();
        return kinds.filter((k) => {
          const host = window.posencPage.charts.get(k);
          return host && JSON.stringify(host.params()) !== JSON.stringify(host.defaults());
        });
      }, href);
      assert.ok(changed.length >= 1, `${href} changes no chart`);
      assert.match(new URL(page.url()).search, /lang=en/, 'the link keeps the page language');
    }
  }
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await restore(shown);
});

test('§21\'s takeaway sits under runtime-compare, which it names, and gives the distance that chart finds, in both languages', async () => {
  const { page } = await lesson();
  const r = await page.evaluate(() => {
    const aside = document.querySelector('#your-model > aside.takeaway');
    return {
      about: aside.dataset.about,
      charts: [...document.querySelectorAll('#your-model [data-chart]')].map((c) => c.dataset.chart),
      readout: document.querySelector('[data-chart="runtime-compare"] .readout').textContent,
      en: aside.querySelector('[lang="en"]').textContent,
      zh: aside.querySelector('[lang="zh-CN"]').textContent,
    };
  });
  assert.equal(r.about, 'runtime-compare');
  assert.deepEqual(r.charts.slice(-2), ['model-misreads', 'runtime-compare'], 'the takeaway sits under the chart it names');
  const distance = /first past 1 % at distance (\d+)/.exec(r.readout)?.[1];
  assert.ok(distance, r.readout);
  assert.match(r.en, new RegExp(`more than 1 % from transformers' scores at distance ${distance}\\b`));
  assert.match(r.zh, new RegExp(`距离 ${distance} 处首次偏离超过 1%`));
});

test('opening an exercise shows its link, not its answer: the answer is one more disclosure, by mouse or keyboard', async () => {
  const shown = await lesson(), { page } = shown;
  for (const lang of ['en', 'zh']) {
    await switchLang(page, lang);
    const r = await page.evaluate(() => [...document.querySelectorAll('details.exercise')].map((ex) => {
      const answer = ex.querySelector(':scope > details.answer');
      return answer && answer.querySelectorAll(':scope > p').length >= 1 && !answer.open && !ex.querySelector(':scope > p:not(:has(a.scene-link))');
    }));
    assert.ok(r.length >= 40 && r.every(Boolean), `${lang}: every exercise folds its answer, and only its answer, on its own`);
    const ex = page.locator('#order details.exercise').first();
    const answer = ex.locator('details.answer > p:visible');
    await ex.locator('> summary').click();
    assert.ok(await ex.locator('a.scene-link').isVisible(), `${lang}: the link shows`);
    assert.equal(await answer.count(), 0, `${lang}: the answer waits`);
    await ex.locator('details.answer > summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await answer.count(), 1, `${lang}: Enter on the answer's summary shows it, in the page's language`);
    assert.ok(await ex.locator('details.answer > summary').evaluate((s) => s.textContent.trim().length > 0 && s.checkVisibility()));
    // closed again for the next language's first click
    await page.evaluate(() => document.querySelectorAll('details.exercise[open], details.answer[open]').forEach((d) => (d.open = false)));
  }
  await restore(shown);
});

test('the handout: room under each question and no answer; ?answers prints the answers; ?print= prints a track or a range, in fewer pages', async () => {
  // (a PDF of the page costs seconds: made only where its page count is compared)
  // The page reads print= and answers once, at load, and marks what prints with markHandout
  // (print.js); the rest is the print stylesheet and the print media query's change event. Two
  // loads check that reading (the teacher's copy, and a selection that names nothing, whose note
  // is made at load); the other selections go through that same markHandout on the shared
  // lesson, which prints as a fresh load would from there.
  const shown = await lesson();
  const handout = async (l, query) => {
    await switchLang(shown.page, l);
    await shown.page.evaluate(async (q) => (await import('/page/print.js')).markHandout(new URLSearchParams(q)), query);
    return shown;
  };
  const load = async (query) => {
    const opened = await b.open(query);
    await ready(opened.page);
    return opened;
  };
  const printed = async ({ page, context }, { count = false } = {}) => {
    await page.emulateMedia({ media: 'print' });
    // the print media query's change event, on which the teacher's copy opens the answers and the
    // contents get their line for the recap (a busy machine may deliver it a few frames late)
    await page.waitForFunction(() => document.querySelector('nav .tracks + p:not(.toc-extra)'));
    const r = await page.evaluate(() => {
      const ex = [...document.querySelectorAll('details.exercise')];
      return {
        sections: [...document.querySelectorAll('main > section')].filter((s) => s.checkVisibility()).map((s) => s.id),
        tracks: [...document.querySelectorAll('.tracks .track')].filter((t) => t.checkVisibility()).map((t) => t.dataset.track),
        headings: [...document.querySelectorAll('.tracks h3')].filter((h) => h.checkVisibility()).length,
        // the printed contents: each entry's link and the number it prints with
        contents: [...document.querySelectorAll('nav .tracks li, nav .tracks ~ p')].filter((e) => e.checkVisibility())
          .map((e) => `${e.value ?? ''} ${e.querySelector('a').hash}`.trim()),
        questions: ex.filter((x) => x.querySelector(':scope > summary').checkVisibility()).length,
        answers: ex.filter((x) => [...x.querySelectorAll('details.answer > p')].some((p) => p.checkVisibility())).length,
        links: ex.filter((x) => x.querySelector('a.scene-link')?.checkVisibility()).length,
        // the ruled room under a question, in px
        room: ex.filter((x) => x.checkVisibility()).map((x) => getComputedStyle(x.querySelector(':scope > summary'), '::after'))
          .map((after) => (after.content === 'none' ? 0 : parseFloat(after.height))),
        notes: window.posencPage.notes,
      };
    });
    const pages = count ? ((await page.pdf({ format: 'A4' })).toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length : null;
    await page.emulateMedia({ media: 'screen' });
    // what the screen shows again once the media query's change event has come (up to 2 s late)
    const { openAfter, contentsAfter } = await page.evaluate(async () => {
      const now = () => ({
        openAfter: document.querySelectorAll('details.exercise[open], details.answer[open]').length,
        contentsAfter: [...document.querySelectorAll('nav .tracks li')].filter((e) => e.checkVisibility()).length,
      });
      const all = document.querySelectorAll('nav .tracks li').length;
      for (let k = 0; k < 120 && (now().openAfter || now().contentsAfter < all); k++) await new Promise((r) => requestAnimationFrame(r));
      return now();
    });
    if (context !== shown.context) await context.close();
    return { ...r, pages, openAfter, contentsAfter };
  };
  const all = await printed(await handout('en', ''), { count: true });
  assert.ok(all.questions >= 40 && all.answers === 0 && all.links === 0, `questions ${all.questions}, answers ${all.answers}, links ${all.links}`);
  assert.ok(all.room.every((h) => h >= 20), `room to write a prediction: ${all.room.slice(0, 3)} px`);
  assert.deepEqual(all.notes, []);
  const teacher = await printed(await load('?lang=zh&answers'));
  assert.equal(teacher.answers, teacher.questions, 'the teacher\'s copy prints every answer');
  assert.equal(teacher.links, 0);
  assert.ok(teacher.room.every((h) => h === 0), 'and no room to write in');
  assert.equal(teacher.openAfter, 0, 'what printing opened closes after');
  const core = await printed(await handout('en', 'print=core'), { count: true });
  assert.deepEqual(core.sections.slice(0, 3), ['primer', 'notation', 'order']);
  assert.equal(core.sections.at(-2), 'extrapolation');
  assert.equal(core.sections.at(-1), 'recap');
  assert.deepEqual(core.tracks, ['core']);
  assert.ok(core.pages < all.pages * 0.6, `core: ${core.pages} pages against ${all.pages}`);
  const range = await printed(await handout('en', 'print=12-13,lab'));
  assert.deepEqual(range.sections, ['rope-periods', 'decay', 'lab', 'other-encodings', 'recap']);
  assert.deepEqual(range.contents, ['12 #rope-periods', '13 #decay', '23 #lab', '24 #other-encodings', '#recap'], 'the contents list what prints, numbered as on the page');
  assert.equal(range.contentsAfter, 24, 'and every section again after printing');
  // from one track: its heading alone
  const one = await printed(await handout('en', 'print=13,12'));
  assert.deepEqual([one.tracks, one.headings], [['core'], 1]);
  assert.deepEqual(one.contents, ['12 #rope-periods', '13 #decay', '#recap']);
  // sections asked for out of order, from two tracks: each track's heading once, over its own sections
  // (the selections in English come first: each switch of the language redraws every chart)
  const mixed = await printed(await handout('zh', 'print=20,13,3'));
  assert.deepEqual(mixed.tracks, ['core', 'practice']);
  assert.equal(mixed.headings, 2);
  assert.deepEqual(mixed.contents, ['3 #frequencies', '13 #decay', '20 #conventions', '#recap']);
  assert.equal(all.contents.length, 25, 'the whole page lists every section and the recap');
  const bad = await printed(await load('?lang=en&print=core,17-99'));
  assert.equal(bad.sections.length, all.sections.length, 'a selection that names nothing prints the whole page');
  assert.match(bad.notes.join(' '), /print = “core,17-99”: “17-99” is neither a track/);
  await handout('en', '');
  await restore(shown);
});

test('an exercise\'s link sets its chart as a new tab would, whatever an earlier exercise left', async () => {
  const shown = await lesson(), { page, problems } = shown;
  const after = await page.evaluate(async () => {
    const links = [...document.querySelectorAll('details.exercise a.scene-link')];
    const kindsOf = (a) => [...new Set([...new URL(a.href).searchParams.keys()].filter((k) => k.includes('.')).map((k) => k.split('.')[0]))];
    const state = (kinds) => JSON.stringify(kinds.map((k) => window.posencPage.charts.get(k)?.params()));
    const out = [];
    for (const b2 of links) {
      const kinds = kindsOf(b2);
      // an earlier link of the same chart, then this one; against this one from the defaults
      const a1 = links.find((x) => x !== b2 && kindsOf(x).some((k) => kinds.includes(k)));
      if (!a1) continue;
      for (const h of window.posencPage.charts.values()) h.reset();
      b2.click();
      const alone = state(kinds);
      a1.click();
      b2.click();
      out.push({ href: b2.getAttribute('href'), after: a1.getAttribute('href'), same: state(kinds) === alone });
    }
    return out;
  });
  assert.ok(after.length >= 20, `${after.length} exercise links share a chart with another`);
  assert.deepEqual(after.filter((x) => !x.same).map((x) => `${x.href} after ${x.after}`), []);
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await restore(shown);
});

test('links between the guide and the lesson carry the language of the moment, and follow the switch', async () => {
  const { page, problems } = await b.open('teaching.html?lang=zh');
  await page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
  const langs = () => page.evaluate(() => [...document.querySelectorAll('a[href^="index.html"]')]
    .map((a) => new URL(a.href).searchParams.get('lang')));
  const zh = await langs();
  assert.ok(zh.length >= 12, `${zh.length} links to the lesson`);
  assert.deepEqual([...new Set(zh)], ['zh']);
  assert.ok(await page.evaluate(() => [...document.querySelectorAll('a[href^="index.html?present"]')].every((a) => new URL(a.href).searchParams.has('present'))));
  await page.click('button[data-set-lang="en"]');
  assert.deepEqual([...new Set(await langs())], ['en']);
  await page.click('button[data-set-lang="zh"]');
  await page.click('.scene-list a[href*="rope-decay.scale=log"]');
  await page.waitForURL(/index\.html/);
  // the language is the page's from its first script on; its switch says so once wired, before
  // the charts have mounted (page-ui.js), and the rest of the load is not needed here
  await page.waitForFunction(() => document.querySelector('.lang-switch [aria-pressed="true"]'));
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN', 'the lesson opens in Chinese');
  assert.deepEqual(problems.pageErrors, []);
  await page.context().close();
  const shown = await lesson();
  await switchLang(shown.page, 'zh');
  assert.equal(await shown.page.evaluate(() => new URL(document.querySelector('a.guide-link').href).searchParams.get('lang')), 'zh');
  await restore(shown);
});

test("the guide's Chinese scene labels use no symbol their English labels leave out", async () => {
  // (both labels are in the page whatever its language)
  const { page } = await guide();
  const labels = await page.evaluate(() => [...document.querySelectorAll('.scene-list a')].map((a) => ({
    en: a.querySelector('[lang="en"]').textContent, zh: a.querySelector('[lang="zh-CN"]').textContent,
  })));
  const letters = (s) => new Set(s.match(/(?<![A-Za-z])[A-Za-z](?![A-Za-z])/g) ?? []);
  for (const { en, zh } of labels) {
    const extra = [...letters(zh)].filter((x) => !letters(en).has(x));
    assert.deepEqual(extra, [], `${zh}: symbols the English label does not use`);
  }
});

test("the guide's scene links land with the chart they set in view", async () => {
  const hrefs = await (await guide()).page.evaluate(() => [...document.querySelectorAll('.scene-list a, main li a[href*="."][href^="index.html?"]')]
    .map((a) => a.getAttribute('href')).filter((h) => /\?[a-z-]+\.[a-zA-Z]+=/.test(h)));
  const landed = (page, href) => page.evaluate((search) => {
    const kinds = new Set([...new URLSearchParams(search).keys()].filter((k) => k.includes('.')).map((k) => k.split('.')[0]));
    const el = [...document.querySelectorAll('[data-chart]')].find((c) => kinds.has(c.dataset.chart));
    const box = (el.querySelector('.canvas-box, .chart-body') ?? el).getBoundingClientRect();
    return { kind: el.dataset.chart, top: box.top, bottom: box.bottom };
  }, new URL(href, b.url).search);
  // Every link lands by one mechanism: the page mounts the first chart the scene sets, scrolls to
  // it, and keeps it in view while the rest mount (main.js). Fresh loads check that for the first
  // section's link, the deepest (a lab chart), one that sets charts of two sections and one whose
  // chart is not its section's first; every other link is followed within one loaded page, landed
  // by land.js as a load lands, and held to the same bound.
  const all = [...new Set(hrefs)];
  const loaded = ['order.causal=1', 'lab-attention.encoding=all', 'rope-periods.preset=4&rope-decay.preset=4', 'rope-decay-random.key=independent']
    .map((scene) => all.find((h) => h.includes(`?${scene}`)) ?? `(no link of the guide sets ${scene})`);
  assert.ok(all.length >= 12, `${all.length} scene links`);
  for (const href of loaded) assert.match(href, /^index\.html\?/);
  for (const href of loaded) {
    const { page, context } = await b.open(href, { viewport: { width: 1280, height: 800 } });
    await ready(page);
    const r = await landed(page, href);
    assert.ok(r.top >= 0 && r.top < 800 / 3, `${href}: ${r.kind}'s figure starts at ${Math.round(r.top)} px`);
    await context.close();
  }
  const shown = await lesson(), { page } = shown;
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const href of all.filter((h) => !loaded.includes(h))) {
    // from the top of the page, as a load starts
    await page.evaluate(() => scrollTo(0, 0));
    await followScene(page, href);
    const r = await landed(page, href);
    assert.ok(r.top >= 0 && r.top < 800 / 3, `${href}: ${r.kind}'s figure starts at ${Math.round(r.top)} px, followed within the page`);
  }
  await restore(shown);
});

test("the guide gives each slot of the 45-minute and the graduate plans a question and its answer, and each plan a handout; its d = 4 scene shows g come back", async () => {
  // (the guide in each language by its own switch: what is checked is what it shows in it)
  for (const lang of ['en', 'zh']) {
    const { page } = await guide(lang);
    const slots = await page.evaluate(() => [...document.querySelectorAll('#plan-45 ol > li, #plan-graduate ol > li')]
      .filter((li) => li.checkVisibility()).map((li) => li.textContent.replace(/\s+/g, ' ')));
    assert.equal(slots.length, 13, `${lang}: 7 slots in 45 minutes, 6 for students who know attention`);
    const [ask, expect] = lang === 'en' ? ['Ask', 'Expect:'] : ['提问', '参考答案：'];
    assert.deepEqual(slots.filter((t) => !t.includes(ask) || !t.includes(expect)), [], `${lang}: slots without a question and its answer`);
    // each plan prints its own sections, as a student's copy and a teacher's
    const handouts = await page.evaluate(() => [...document.querySelectorAll('section[id^="plan-"]')].map((plan) => [...plan.querySelectorAll('a')]
      .filter((a) => a.checkVisibility() && new URL(a.href).searchParams.has('print')).map((a) => new URL(a.href).searchParams.has('answers'))));
    assert.deepEqual(handouts, [[false, true], [false, true], [false, true]], `${lang}: a student's and a teacher's handout per plan`);
  }
  // (the scenes below are followed within the shared lesson: what they check is the readout of
  // the charts as the scene sets them, which a scene set at load or by a link sets alike)
  const shown = await lesson(), { page } = shown;
  const readout = (kind, expected) => page.waitForFunction(({ kind, expected }) => new RegExp(expected).test(document.querySelector(`[data-chart="${kind}"] .readout`).textContent),
    { kind, expected: expected.source }, { timeout: 5000 }).catch(() => {});
  // §23's every-encoding maps: a tie at the top is said as one
  await followScene(page, '?lab-attention.encoding=all#lab');
  await readout('lab-attention', /RoPE and xPos tie/);
  assert.match(await page.$eval('[data-chart="lab-attention"] .readout', (r) => r.textContent), /RoPE and xPos tie for the most weight/);
  const d4 = await (await guide()).page.$eval('#plan-45 a[href*="rope-decay.preset=4"]', (a) => a.getAttribute('href'));
  await followScene(page, d4);
  await readout('rope-decay', /comes back/);
  const r = await page.evaluate(() => ({ ...window.posencPage.charts.get('rope-decay').params(), readout: document.querySelector('[data-chart="rope-decay"] .readout').textContent }));
  assert.equal(r.preset, '4');
  assert.ok(r.maxDist <= 1000 && r.bound === false, `largest distance ${r.maxDist}, bound ${r.bound}`);
  assert.match(r.readout, /comes back up to 3\.99/);
  await restore(shown);
});

test('the recap prints on one A4 page in either language; print shows no control', async () => {
  const opened = await lesson(), { page } = opened;
  for (const lang of ['en', 'zh']) {
    await switchLang(page, lang);
    await page.emulateMedia({ media: 'print' });
    const shown = await page.evaluate(() => [...document.querySelectorAll('main :is(button, input, select, textarea, progress)')]
      .filter((e) => e.checkVisibility()).map((e) => `${e.closest('section')?.id}: ${e.tagName} ${e.textContent.trim().slice(0, 30)}`));
    assert.deepEqual(shown, [], `${lang}: controls in print`);
    assert.ok(await page.evaluate(() => [...document.querySelectorAll('math[display="block"]')].every((m) => getComputedStyle(m).breakInside === 'avoid')));
    // the recap alone: one page, so no row is split from the rest
    await page.evaluate(() => {
      window.recapAlone = [...document.querySelectorAll('body > :not(main), main > :not(#recap)')]
        .map((el) => [el, el.style.getPropertyValue('display'), el.style.getPropertyPriority('display')]);
      for (const [el] of window.recapAlone) el.style.setProperty('display', 'none', 'important');
    });
    const pdf = await page.pdf({ format: 'A4', margin: { top: '1cm', bottom: '1cm', left: '1cm', right: '1cm' } });
    assert.equal((pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length, 1, `${lang}: the recap on one page`);
    const heads = await page.evaluate(() => [...document.querySelectorAll('#recap .recap-table thead th')].filter((th) => th.checkVisibility())
      .filter((th) => /[\u4e00-\u9fff]/.test(th.textContent) && th.getClientRects()[0].height > 1.6 * parseFloat(getComputedStyle(th).lineHeight) + 8)
      .map((th) => th.textContent));
    assert.deepEqual(heads, [], `${lang}: Chinese headers broken over lines`);
    await page.evaluate(() => {
      for (const [el, display, priority] of window.recapAlone) el.style.setProperty('display', display, priority);
    });
    await page.emulateMedia({ media: 'screen' });
  }
  await restore(opened);
});

test('hand-drawn charts letter at the presenter\'s size while presented and at the page\'s after Escape', async () => {
  const shown = await lesson(), { page, problems } = shown;
  await page.setViewportSize({ width: 1280, height: 800 });
  // (the shared lesson lists the fonts set on hand-drawn canvases: watchFonts above)
  await page.evaluate(() => (window.fontsSet = []));
  const sizes = (kind) => page.evaluate((k) => window.fontsSet.filter(([c]) => c === k).map(([, f]) => Number(/([\d.]+)px/.exec(f)[1])), kind);
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));
  for (const kind of ['sin-heatmap', 'unit-circle', 'helix', 'rotate-half', 'precision-heatmap', 'real-pair-energy']) {
    await page.evaluate((k) => {
      window.fontsSet.length = 0;
      const p = window.posencPage.presenter;
      p.open(p.find(k));
    }, kind);
    await frames();
    const big = await sizes(kind);
    assert.ok(big.length, `${kind}: drew text in the presenter`);
    assert.ok(Math.min(...big) >= 16, `${kind}: text at ${Math.min(...big)} px in the presenter: ${big}`);
    await page.evaluate(() => (window.fontsSet.length = 0));
    await page.keyboard.press('Escape');
    await frames();
    const small = await sizes(kind);
    assert.ok(small.length, `${kind}: redrawn on the page`);
    assert.ok(Math.max(...small) <= 12, `${kind}: text at ${Math.max(...small)} px back on the page`);
  }
  assert.deepEqual(problems.pageErrors, []);
  await page.evaluate(() => (window.fontsSet = null));
  await restore(shown);
});

test('a figure whose further panels wait below its first says so on the slide, and its button brings them up', async () => {
  const shown = await lesson(), { page, problems } = shown;
  await page.setViewportSize({ width: 1280, height: 720 });
  const state = () => page.evaluate(() => {
    const body = document.querySelector('.present-slot .chart-body'), below = document.querySelector('.present-slot .present-below');
    return { text: below?.checkVisibility() ? below.textContent : null, scrolled: Math.round(body.scrollTop), rest: Math.round(body.scrollHeight - body.clientHeight - body.scrollTop) };
  });
  // §16's second chart, how far each method stretched each pair, is under its first
  await page.evaluate(() => {
    const p = window.posencPage.presenter;
    p.open(p.find('scaling-variants'));
  });
  await page.waitForFunction(() => document.querySelector('.present-slot .present-below')?.checkVisibility());
  const before = await state();
  assert.equal(before.text, 'More of this figure below ▾');
  assert.ok(before.scrolled === 0 && before.rest > 100, JSON.stringify(before));
  for (let k = 0; k < 6 && (await state()).rest > 4; k++) {
    const from = (await state()).scrolled;
    await page.click('.present-slot .present-below');
    // the figure's smooth scroll: moved, then still for a few frames
    await page.evaluate(async (from) => {
      const body = document.querySelector('.present-slot .chart-body');
      for (let still = 0, y = NaN, k = 0; (still < 5 || Math.round(body.scrollTop) === from) && k < 600; k++) {
        await new Promise((r) => requestAnimationFrame(r));
        still = body.scrollTop === y ? still + 1 : 0;
        y = body.scrollTop;
      }
    }, from);
  }
  const after = await state();
  assert.ok(after.text === 'Back to the top of this figure ▴' && after.rest <= 4 && after.scrolled > 100, `at the end of the figure: ${JSON.stringify(after)}`);
  await page.click('.present-slot .present-below');
  await page.waitForFunction(() => document.querySelector('.present-slot .chart-body').scrollTop === 0);
  assert.equal((await state()).text, 'More of this figure below ▾');
  // a figure of one panel has none
  await page.evaluate(() => window.posencPage.presenter.go(window.posencPage.presenter.find('unit-circle')));
  await page.waitForFunction(() => window.posencPage.presenter.index >= 0);
  assert.equal(await page.locator('.present-slot .present-below:visible').count(), 0);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.present-below').count(), 0, 'gone with the view');
  assert.deepEqual(problems.pageErrors, []);
  await restore(shown);
});

test('?present steps through every figure with the arrow keys and fits 1280×720 and 1920×1080 screens: the notice, the takeaway and the buttons on every slide, lettering that grows with the screen; Escape returns to the page; it starts where a link says', async () => {
  // the shortest screen in both languages, dark, stepped by the arrow keys; the largest in the
  // language whose lines run longest, light, stepped by the presenter's own go(). The shared
  // lesson serves the three: the page's own switches set the language and the theme, ?present
  // opens the view for the first as it does at load (page-ui.js: start() with the address's
  // query; a load's is the phone test's), and for the others its Present button opens the view
  // again (each pass is about what the slides show, which a load in that language and theme
  // shows alike).
  const { page, problems } = await lesson();
  let closedAt = null;
  for (const [lang, width, height, px, keys] of [['en', 1280, 720, 18, true], ['zh', 1280, 720, 18, true], ['en', 1920, 1080, 27, false]]) {
    if (lang === 'en' && keys) {
      await page.setViewportSize({ width, height });
      await page.click('.theme-switch button[data-set-theme="dark"]');
      await page.evaluate(() => {
        history.replaceState(history.state, '', '?present&lang=en&theme=dark');
        window.posencPage.presenter.start(new URLSearchParams(location.search));
      });
    } else {
      await page.setViewportSize({ width, height });
      await switchLang(page, lang);
      if (!keys) await page.click('.theme-switch button[data-set-theme="auto"]');
      await page.click('.present-open');
      // the Present button resumes where the view was closed; each pass then starts from the first figure
      assert.equal(await page.evaluate(() => window.posencPage.presenter.index), closedAt, 'Present resumes the slide closed on');
      await page.evaluate(() => window.posencPage.presenter.go(0));
    }
    await page.waitForFunction(() => window.posencPage.presenter?.index === 0);
    const count = await page.evaluate(() => window.posencPage.presenter.count);
    assert.equal(count, 1 + await page.evaluate(() => document.querySelectorAll('[data-chart]').length), 'the primer\'s diagram, then every chart');
    assert.ok(await page.evaluate(() => document.querySelector('.present-slot > svg.pipeline')?.checkVisibility()), 'the primer\'s diagram comes first');
    const seen = new Set(), told = new Map();
    for (let i = 0; i < count; i++) {
      const r = await page.evaluate(async ({ i, keys }) => {
        if (!keys) window.posencPage.presenter.go(i);
        // measured as the room sees it: once the charts have taken their new size
        const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const settled = () => [...document.querySelectorAll('.present-slot canvas')].every((cv) => {
          const c = window.Chart?.getChart(cv);
          return !c || !cv.checkVisibility() || Math.abs(c.width - cv.parentElement.clientWidth) <= 2;
        });
        for (let k = 0; k < 20 && !(await frame(), settled()); k++);
        const nav = document.querySelector('.present-nav').getBoundingClientRect();
        const note = [...document.querySelectorAll('.present-notice, .present-takeaway')].filter((e) => e.checkVisibility())
          .reduce((y, e) => Math.max(y, e.getBoundingClientRect().bottom), 0);
        const canvas = document.querySelector('.present-slot canvas');
        const chart = canvas && window.Chart?.getChart(canvas);
        const takeaway = document.querySelector('.present-takeaway'), shown = document.querySelector('.present-slot [data-chart]');
        return {
          kind: shown?.dataset.chart ?? 'primer',
          index: window.posencPage.presenter.index,
          title: document.getElementById('present-title').textContent,
          controls: [...document.querySelectorAll('.present-slot .control')].filter((c) => c.checkVisibility()).length,
          takeaway: takeaway.checkVisibility() ? takeaway.textContent : '',
          math: takeaway.querySelectorAll('math').length,
          notice: document.querySelector('.present-notice').textContent,
          readout: shown?.querySelector('.readout .notice')?.textContent ?? '',
          nav: nav.bottom, note, scroll: document.querySelector('.presenter').scrollHeight,
          // every Chart.js axis title fits its canvas, however large the lettering
          titles: [...document.querySelectorAll('.present-slot canvas')].filter((cv) => cv.checkVisibility()).flatMap((cv) => {
            const c = window.Chart.getChart(cv);
            return c ? Object.values(c.scales).filter((a) => a.options.display !== false && a.options.title?.display).flatMap((a) => {
              const f = a.options.title.font ?? window.Chart.defaults.font;
              c.ctx.font = `${f.size}px ${f.family}`;
              const text = [].concat(a.options.title.text), wide = Math.max(...text.map((line) => c.ctx.measureText(line).width));
              return wide > (a.isHorizontal() ? c.width : c.height) - 8 ? [`"${text}" ${Math.round(wide)} px at ${f.size} px on ${c.width}×${c.height}`] : [];
            }) : [];
          }),
          // an HTML chart (§1's tables) shows whole: zoomed to its box, nothing to scroll
          html: (() => {
            const body = document.querySelector('.present-slot .chart-body');
            if (!body || body.querySelector('canvas')) return 0;
            const box = body.getBoundingClientRect();
            return Math.max(0, ...[...body.children].filter((c) => c.checkVisibility()).map((c) => c.getBoundingClientRect().bottom - box.bottom));
          })(),
          font: chart ? Object.values(chart.scales)[0]?.options.ticks?.font?.size ?? chart.options.font?.size ?? null : null,
          // every canvas shown is wholly inside the figure's visible box, or wholly below it (a
          // further panel, reached by scrolling inside the figure): none is cut by the box's edge
          cut: (() => {
            const body = document.querySelector('.present-slot .chart-body, .present-slot > svg')?.getBoundingClientRect();
            if (!body) return [];
            const boxes = [...document.querySelectorAll('.present-slot .chart-body canvas')].filter((c) => c.checkVisibility())
              .map((c) => c.getBoundingClientRect()).filter((c) => c.width && c.height);
            const inside = (c) => c.top >= body.top - 1 && c.bottom <= body.bottom + 1 && c.left >= body.left - 1 && c.right <= body.right + 1;
            return boxes.filter((c, k) => !inside(c) && (k === 0 || c.top < body.bottom - 1))
              .map((c) => `canvas ${Math.round(c.top)}–${Math.round(c.bottom)} in ${Math.round(body.top)}–${Math.round(body.bottom)}`);
          })(),
          // the main control at the presenter's text size: its label and its inputs
          control: [...document.querySelectorAll('.present-slot .control.main, .present-slot .control.main :is(input, select)')]
            .filter((e) => e.checkVisibility()).map((e) => parseFloat(getComputedStyle(e).fontSize)),
        };
      }, { i, keys });
      const at = `${lang} ${width}×${height} ${r.kind}`;
      assert.equal(r.index, i, at);
      assert.ok(!seen.has(r.kind), `${at}: figure ${i} again`);
      seen.add(r.kind);
      assert.match(r.title, i === 0 ? /./ : lang === 'zh' ? /[\u4e00-\u9fff]/ : /^\d+\. [A-Z]/, at);
      assert.ok(r.controls <= 1, `${at}: ${r.controls} controls shown`);
      assert.equal(r.notice, r.readout, `${at}: the readout's notice`);
      if (r.takeaway) {
        assert.match(r.takeaway, lang === 'zh' ? /^要点：/ : /^Takeaway\. /, `${at}: the section's takeaway`);
        told.set(r.takeaway, [...(told.get(r.takeaway) ?? []), r.kind]);
        if (/W\s*Q/.test(r.takeaway)) assert.ok(r.math > 0, `${at}: the takeaway keeps its MathML`);
      }
      assert.ok(r.nav <= height && r.note <= height && r.scroll <= height, `${at}: nav ends at ${r.nav}, text at ${r.note}, the view is ${r.scroll} px tall`);
      if (r.font !== null) assert.ok(r.font >= px, `${at}: ticks at ${r.font} px`);
      assert.deepEqual(r.cut, [], `${at}: a canvas cut by the edge of the figure's box`);
      assert.ok(r.html <= 1, `${at}: ${r.html} px of an HTML chart cut`);
      assert.deepEqual(r.titles, [], `${at}: an axis title longer than its canvas`);
      assert.ok(r.control.every((size) => size >= px), `${at}: main control at ${r.control} px`);
      if (keys && i < count - 1) await page.keyboard.press('ArrowRight');
    }
    // each takeaway under one chart: the one it speaks of
    assert.equal(told.size, await page.evaluate(() => document.querySelectorAll('main section:has([data-chart]) > aside.takeaway').length));
    for (const [text, kinds] of told) assert.equal(kinds.length, 1, `${text.slice(0, 40)}… under ${kinds}`);
    const under = (kind) => [...told].find(([, k]) => k.includes(kind));
    assert.ok(under('four-terms') && !under('near-orthogonal'), '§9: the takeaway is under the four-terms chart it speaks of');
    assert.ok(under('rope-decay') && under('convention-lab') && under('runtime-compare'), 'a takeaway that names its chart is under that chart');
    assert.ok(!under('model-misreads'), '§21: the takeaway is not under the misreads chart, of which it does not speak');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.evaluate(() => window.posencPage.presenter.index), count - 2);
    await page.keyboard.press('Escape');
    closedAt = count - 2;
    const back = await page.evaluate(() => ({
      index: window.posencPage.presenter.index,
      present: new URLSearchParams(location.search).has('present'),
      inPlace: document.querySelectorAll('main [data-chart]').length,
      hidden: document.querySelector('.presenter').hidden,
      diagram: !!document.querySelector('#primer > svg.pipeline'),
    }));
    assert.deepEqual(back, { index: -1, present: false, inPlace: count - 1, hidden: true, diagram: true });
    assert.equal(await page.evaluate(() => window.Chart.defaults.font.size), 12, 'the page draws at its own size again');
    assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  }
  // a link that sets charts opens on the first chart it sets, within the section its hash names;
  // the page opens the view at load by start() with its address's query (page-ui.js), which the
  // scene and the causal mask further down check on fresh loads: these links go through that
  // same start() on the page of the passes, each with its own address
  for (const [path, kind] of [['?present#decay', 'rope-decay'], ['?present=decay', 'rope-decay'], ['?present=12', null],
    ['?rope-decay-random.key=independent&present#decay', 'rope-decay-random'], ['?lab-attention.encoding=all&present#lab', 'lab-attention'],
    ['?rope-decay.preset=4&rope-periods.preset=4&present', 'rope-periods'], ['?rope-decay.preset=4&present=lab', 'length-lab']]) {
    const r = await page.evaluate((path) => {
      const p = window.posencPage.presenter;
      if (p.index >= 0) p.close();
      history.replaceState(history.state, '', path);
      p.start(new URLSearchParams(location.search));
      return { index: p.index, kind: document.querySelector('.present-slot [data-chart]').dataset.chart };
    }, path);
    if (kind) assert.equal(r.kind, kind, path);
    else assert.equal(r.index, 11, path);
  }
  await release();
  // a scene's settings show on the slide: every control away from its default, and the notice that
  // goes with it; one load sets charts of two sections and opens on the first it sets in #decay,
  // then shows §1's (as ?order.causal=1&present#order would open on it: go() marks the slide alike)
  const scene = await b.open('?rope-periods.preset=4&rope-decay.preset=4&order.causal=1&lang=en&present#decay', { viewport: { width: 1280, height: 720 } });
  await ready(scene.page);
  const r = await scene.page.evaluate(() => ({
    controls: [...document.querySelectorAll('.present-slot .control')].filter((c) => c.checkVisibility()).map((c) => c.querySelector('span').textContent),
    notice: document.querySelector('.present-notice').textContent,
    takeaway: document.querySelector('.present-takeaway').textContent,
  }));
  assert.deepEqual(r.controls, ['θ', 'd'], 'the main control and d, set to 4');
  assert.match(r.notice, /no lasting decay/);
  assert.match(r.takeaway, /many pairs/, 'the takeaway says when the score falls');
  await scene.page.evaluate(() => window.posencPage.presenter.go(window.posencPage.presenter.find('order')));
  assert.equal(await scene.page.evaluate(() => document.querySelectorAll('.present-slot .control.present-changed input[name="causal"]:checked').length), 1, 'the causal mask shows, ticked');
  await scene.context.close();
});

test('the presenter on a phone (360×740, touch): every slide within the width, finger-sized steps in a bar that hides nothing, a swipe steps', async () => {
  await release();
  const context = await b.browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${b.url}?present&lang=en`);
  await ready(page);
  // Chinese on the same phone: the page's switch, under the view, then the deck from its first figure
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') {
      await switchLang(page, 'zh');
      await page.evaluate(() => window.posencPage.presenter.go(0));
    }
    await page.waitForFunction(() => window.posencPage.presenter?.index === 0);
    const count = await page.evaluate(() => window.posencPage.presenter.count);
    for (let i = 0; i < count; i++) {
      if (i > 0) await page.tap('.present-next');
      await page.waitForFunction((i) => window.posencPage.presenter.index === i, i);
      const r = await page.evaluate(async () => {
        const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        await frame();
        const view = document.querySelector('.presenter');
        const wide = (e) => Math.round(e.getBoundingClientRect().left) < 0 || Math.round(e.getBoundingClientRect().right) > innerWidth;
        const shown = [...view.querySelectorAll('.present-slot canvas, .present-slot > svg, .present-notice, .present-takeaway, .present-takeaway math, #present-title')]
          .filter((e) => e.checkVisibility());
        const buttons = ['.present-prev', '.present-next'].map((s) => {
          const e = document.querySelector(s), box = e.getBoundingClientRect();
          return { s, w: box.width, h: box.height, seen: e.checkVisibility() && box.top >= 0 && box.bottom <= innerHeight };
        });
        // scrolled to its end, the slide's last text ends above the bar
        view.scrollTop = view.scrollHeight;
        await frame();
        const bar = document.querySelector('.present-steps').getBoundingClientRect().top;
        const end = Math.max(...shown.map((e) => e.getBoundingClientRect().bottom));
        return {
          kind: document.querySelector('.present-slot [data-chart]')?.dataset.chart ?? 'primer',
          page: document.scrollingElement.scrollWidth, view: view.scrollWidth - view.clientWidth, width: innerWidth,
          wide: shown.filter(wide).map((e) => `${e.tagName} ${Math.round(e.getBoundingClientRect().left)}–${Math.round(e.getBoundingClientRect().right)}`),
          figure: shown.some((e) => e.matches('canvas, svg, .present-slot *')) || !!document.querySelector('.present-slot .chart-body')?.checkVisibility(),
          buttons, hidden: end - bar, font: window.Chart.defaults.font.size,
        };
      });
      const at = `${lang} 360×740 ${r.kind}`;
      assert.ok(r.page <= r.width && r.view <= 0, `${at}: ${r.page} px of page, ${r.view} px more of the view than the width`);
      assert.deepEqual(r.wide, [], `${at}: past the screen's width`);
      assert.ok(r.figure, `${at}: no figure shown`);
      for (const btn of r.buttons) assert.ok(btn.seen && btn.w >= 44 && btn.h >= 44, `${at}: ${btn.s} ${btn.w}×${btn.h}, on screen: ${btn.seen}`);
      assert.ok(r.hidden <= 1, `${at}: the slide ends ${r.hidden} px behind the bar`);
      assert.equal(r.font, 12, `${at}: the chart letters at the page's size`);
    }
    // a finger's swipe from right to left steps back and forth as the arrows do
    const cdp = await context.newCDPSession(page);
    const swipe = async (from, to) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y: 300 }] });
      for (const x of [from + (to - from) / 2, to]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: 305 }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    await swipe(60, 300);
    await page.waitForFunction((i) => window.posencPage.presenter.index === i, count - 2);
    await swipe(300, 60);
    await page.waitForFunction((i) => window.posencPage.presenter.index === i, count - 1);
    assert.deepEqual(errors, []);
  }
  // All settings shows a figure's other controls on a phone too, where the page folds them under Settings
  await page.evaluate(() => window.posencPage.presenter.go(window.posencPage.presenter.find('relative')));
  const shown = () => page.evaluate(() => [...document.querySelectorAll('.present-slot .controls .control')].filter((c) => c.checkVisibility()).length);
  assert.equal(await shown(), 1);
  await page.tap('.present-more');
  assert.equal(await shown(), 4, '§8: Δ, m, d_model and base');
  await context.close();
});
