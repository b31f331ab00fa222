// a11y.test.js: themes and accessibility of the page in real Chromium: an axe-core audit finds
// no serious or critical violation in either language and either theme (and on embed.html);
// the theme switch and ?theme= change the colours, Chart.js's included; every chart canvas has
// a name and a description; the data table, the keyboard and reduced motion work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { startBrowser, pageReady } from './browser.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const EMBED = new URL('../web/embed.html', import.meta.url);

// One page of the index serves the tests of it that need no context of their own: each puts it
// in the language and theme it needs with the page's own switches (the system stays light), in
// an order that spares switches (a language switch redraws every chart). Its charts' colours as
// first drawn are those of a fresh load in the dark theme.
let b, shared, freshDark;
before(async () => {
  b = await startBrowser();
  shared = await open('?theme=dark');
  await ready(shared.page);
  freshDark = await chartColours(shared.page);
});
after(() => b?.close());

/** A page of our server with the page's CSP bypassed, so axe can be injected; local requests only. */
async function open(path, options = {}) {
  const context = await b.browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(b.url + path);
  return { page, context, errors };
}

async function ready(page) {
  await pageReady(page);
  await page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
}

/** Serious and critical axe violations on the page as it is now, one line each. */
async function audit(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Puts the page in `lang` and `theme` with its switches, as a reader does; a switch already there is no change. */
async function set(page, lang, theme) {
  await page.locator(`button[data-set-lang="${lang}"]`).click();
  await page.locator(`button[data-set-theme="${theme}"]`).click();
  await page.waitForFunction(([l, t]) => document.documentElement.lang === l && document.documentElement.dataset.theme === t, [lang === 'zh' ? 'zh-CN' : 'en', theme]);
}

const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

test('themes: ?theme= and the switch change the page and Chart.js colours; auto follows the system', async () => {
  const { page } = shared; // opened with ?theme=dark
  const dark = await background(page);
  const chartDark = await page.evaluate(() => window.Chart.defaults.color);
  assert.equal(await page.evaluate(() => document.querySelector('.theme-switch [aria-pressed="true"]').dataset.setTheme), 'dark');
  await page.getByRole('button', { name: 'light', exact: true }).click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  const light = await background(page);
  const chartLight = await page.evaluate(() => window.Chart.defaults.color);
  assert.notEqual(dark, light);
  assert.equal(light, 'rgb(255, 255, 255)');
  assert.notEqual(chartDark, chartLight, 'Chart.js text colour follows the theme');
  // Canvas-painted text follows too: the heatmap's axis labels are drawn in the theme's --fg.
  const inkOf = () => page.evaluate(() => {
    const c = document.querySelector('[data-chart="sin-heatmap"] canvas');
    const ctx = c.getContext('2d');
    // the y-axis title "position" sits left of the plot: its darkest or lightest pixel there
    const { data } = ctx.getImageData(0, 0, Math.round(14 * devicePixelRatio), c.height);
    let sum = 0, n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 200) (sum += data[i] + data[i + 1] + data[i + 2]), n++;
    return n ? sum / n / 3 : null;
  });
  // (a chart far from the view is redrawn when the page is idle: drawn() draws it at once)
  await page.evaluate(() => window.posencPage.drawn());
  const lightInk = await inkOf();
  await page.getByRole('button', { name: 'dark', exact: true }).click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.evaluate(() => window.posencPage.drawn());
  const darkInk = await inkOf();
  assert.ok(lightInk !== null && darkInk !== null && darkInk > lightInk + 100, `heatmap text ${lightInk} → ${darkInk}`);
  // the PNG export has the theme's background behind its (transparent) canvas: light text stays legible
  const [download] = await Promise.all([page.waitForEvent('download'),
    page.locator('[data-chart="wavelengths"] .posenc-toolbar button[data-action="png"]').click()]);
  const corner = await page.evaluate(async (b64) => {
    const img = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], { type: 'image/png' }));
    const ctx = new OffscreenCanvas(img.width, img.height).getContext('2d');
    ctx.drawImage(img, 0, 0);
    return [...ctx.getImageData(0, 0, 1, 1).data];
  }, readFileSync(await download.path()).toString('base64'));
  assert.deepEqual(corner, [20, 23, 29, 255], 'the dark theme\'s --bg behind the chart');
  await page.getByRole('button', { name: 'auto', exact: true }).click();
  assert.equal(await background(page), light, 'auto in a light system is light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => getComputedStyle(document.documentElement).backgroundColor !== 'rgb(255, 255, 255)');
  assert.equal(await background(page), dark, 'auto in a dark system is dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: 'light', exact: true }).click();
  assert.deepEqual(shared.errors, []);
});

/** Every chart's colours as drawn: Chart.js's resolved dataset, legend and axis colours, or a hand-drawn canvas's pixels. */
const chartColours = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('main [data-chart]')].flatMap((box) =>
  [...box.querySelectorAll('canvas')].map((c, i) => {
    const chart = window.Chart.getChart(c);
    if (!chart) {
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let hash = 0;
      for (let k = 0; k < px.length; k++) hash = (hash * 31 + px[k]) >>> 0;
      return [`${box.dataset.chart} ${i}`, `${c.width}×${c.height} pixels ${hash}`];
    }
    const datasets = chart.data.datasets.map((d, j) => {
      const el = chart.getDatasetMeta(j).dataset ?? chart.getDatasetMeta(j).data[0];
      return `${d.label}: ${el?.options.borderColor} ${el?.options.backgroundColor}`;
    });
    const legend = (chart.legend?.legendItems ?? []).map((l) => `${l.text}: ${l.strokeStyle} ${l.fillStyle} ${l.fontColor}`);
    const axes = Object.values(chart.scales).map((s) => `${s.id}: ${s.options.ticks.color} ${s.options.grid.color} ${s.options.border.color} ${s.options.title.color}`);
    return [`${box.dataset.chart} ${i}`, { datasets, legend, axes }];
  }))));

test('a theme switched while the charts mount draws them as a fresh load in that theme does', async () => {
  for (const [from, to] of [['light', 'dark'], ['dark', 'light']]) {
    const context = await b.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    // the switch is pressed once the first chart has mounted, drawn in the old theme, while the
    // others are still to mount (a check between two slices of the mount can miss a later
    // moment: the page may mount the rest in one slice)
    await page.addInitScript((want) => {
      const press = () => {
        const mounted = window.posencPage?.charts.size ?? 0;
        if (mounted) {
          document.querySelector(`.theme-switch button[data-set-theme="${want}"]`)?.click();
        }
        if (document.documentElement?.dataset.theme === want) window.chartsAtSwitch = window.posencPage?.charts.size ?? 0;
        else setTimeout(press, 1);
      };
      press();
    }, to);
    await page.goto(`${b.url}?theme=${from}`);
    await ready(page);
    const { atSwitch, all } = await page.evaluate(() => ({ atSwitch: window.chartsAtSwitch, all: window.posencPage.charts.size }));
    assert.ok(atSwitch > 0 && atSwitch < all, `${from} → ${to} pressed with ${atSwitch} of ${all} charts mounted`);
    const switched = await chartColours(page);
    await context.close();
    let loaded = freshDark; // (the shared page, as loaded with ?theme=dark)
    if (to !== 'dark') {
      const fresh = await open(`?theme=${to}`);
      await ready(fresh.page);
      loaded = await chartColours(fresh.page);
      await fresh.context.close();
    }
    assert.ok(Object.keys(loaded).length > 40);
    for (const kind of Object.keys(loaded)) assert.deepEqual(switched[kind], loaded[kind], `${kind}, ${from} → ${to} while mounting`);
  }
});

test('axe: no serious or critical violation, English light and Chinese dark (both languages, both themes)', async () => {
  const { page, errors } = shared;
  await set(page, 'en', 'light');
  const found = {};
  found['en light'] = await audit(page);
  await set(page, 'zh', 'dark');
  found['zh dark'] = await audit(page);
  // (colours do not depend on the language, nor names on the theme: these two cover all four)
  assert.deepEqual(found, { 'en light': [], 'zh dark': [] });
  assert.deepEqual(errors, []);
});

test('a name made from content keeps its formulas: an exercise\'s question, the primer\'s diagram in the page\'s language only', async () => {
  const { page, context } = shared;
  // (in Chinese first: the test before this one leaves the page in Chinese)
  await page.locator('button[data-set-lang="zh"]').click();
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  const cdp = await context.newCDPSession(page);
  // the accessible name Chromium gives the first exercise question of §13, once in view (a section out of view skips its layout)
  const question = async () => {
    const { result } = await cdp.send('Runtime.evaluate', { expression: "(s => (s.scrollIntoView(), s))(document.querySelector('#rope-periods details.exercise > summary'))" });
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { backendNodeId: node.backendNodeId, fetchRelatives: false });
    return nodes[0].name?.value;
  };
  const names = () => page.evaluate(() => [...document.querySelectorAll('svg.pipeline')].map((svg) => [svg.getAttribute('aria-label'), svg.getAttribute('aria-description')]));
  for (const [name, description] of await names()) {
    assert.equal(name, '位置信息进入注意力头的位置');
    assert.match(description, /^词嵌入；.*v 的加权和。$/);
  }
  assert.match(await question(), /有几对？\s*T_max\s*是多少？$/);
  await page.locator('button[data-set-lang="en"]').click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.match(await question(), /how many pairs, and what is T_max \?$/);
  for (const [name, description] of await names()) {
    assert.equal(name, 'Where position enters one attention head');
    assert.match(description, /^Tokens are embedded; .* weighted sum of v\.$/);
  }
  await page.evaluate(() => scrollTo(0, 0));
  await cdp.detach();
});

test('axe on embed.html, in both languages and both themes', { skip: !existsSync(EMBED) && 'web/embed.html does not exist yet' }, async () => {
  const found = {};
  await Promise.all([['en', 'light'], ['zh', 'dark']].map(async ([lang, theme]) => {
    const { page, context, errors } = await open(`embed.html?chart=rope-decay&lang=${lang}&theme=${theme}`, { viewport: { width: 640, height: 600 } });
    await page.waitForFunction(() => document.querySelector('#chart canvas, .readout'));
    await page.waitForFunction(() => document.querySelector('.readout')?.textContent.length > 10);
    // ?lang= and ?theme= reach the page, its chart text and Chart.js's colours
    const state = await page.evaluate(() => ({
      lang: document.documentElement.lang, theme: document.documentElement.dataset.theme,
      background: getComputedStyle(document.documentElement).backgroundColor, chartText: window.Chart.defaults.color,
      chinese: /[\u4e00-\u9fff]/.test(document.querySelector('figcaption').textContent + document.querySelector('.readout').textContent),
    }));
    assert.deepEqual(state, lang === 'zh'
      ? { lang: 'zh-CN', theme: 'dark', background: 'rgb(20, 23, 29)', chartText: '#a9b2c1', chinese: true }
      : { lang: 'en', theme: 'light', background: 'rgb(255, 255, 255)', chartText: '#5b6475', chinese: false });
    found[`${lang} ${theme}`] = await audit(page);
    assert.deepEqual(errors, [], `${lang} ${theme}`);
    await context.close();
  }));
  assert.deepEqual(found, { 'en light': [], 'zh dark': [] });
});

test('every chart canvas is an image with a name and the readout as its description; the table view; the keyboard', async () => {
  const { page } = shared;
  await set(page, 'en', 'light');
  const bad = await page.evaluate(() => [...document.querySelectorAll('main canvas')].filter((c) => c.checkVisibility()).map((c) => {
    const kind = c.closest('[data-chart]').dataset.chart;
    const desc = document.getElementById(c.getAttribute('aria-describedby') ?? '');
    const problems = [];
    // a canvas that takes keys (the heatmap's cells) is an application, whose keys screen readers pass on
    if (c.getAttribute('role') !== (c.hasAttribute('aria-roledescription') ? 'application' : 'img')) problems.push('role');
    if ((c.getAttribute('aria-label') ?? '').length < 10) problems.push('aria-label');
    if (!desc || desc.textContent.length < 20 || !desc.classList.contains('readout')) problems.push('aria-describedby');
    return problems.length ? `${kind}: ${problems.join(', ')}` : null;
  }).filter(Boolean));
  assert.deepEqual(bad, []);

  // Table: a real button, aria-expanded, a captioned table of host.data, capped at 100 rows.
  const toggle = page.locator('[data-chart="rope-decay"] .data-table-toggle');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  const table = await page.evaluate(() => {
    const box = document.querySelector('[data-chart="rope-decay"]');
    const t = box.querySelector('.data-table table');
    const data = window.posencPage.charts.get('rope-decay').data;
    return {
      rows: t.tBodies[0].rows.length, dataRows: data.rows.length, caption: t.caption.textContent,
      head: [...t.tHead.rows[0].cells].map((c) => c.textContent), columns: data.heads ?? data.columns, // the page-language headers where the chart gives them
      first: [...t.tBodies[0].rows[1].cells].map((c) => Number(c.textContent)), data1: data.rows[1],
    };
  });
  assert.equal(table.rows, Math.min(100, table.dataRows));
  assert.deepEqual(table.head, table.columns);
  table.first.forEach((v, j) => assert.ok(Math.abs(v - table.data1[j]) <= 1e-5 * Math.max(1, Math.abs(table.data1[j])), `cell ${j}`));
  assert.match(table.caption, /first 100 of \d+ rows/);
  // it follows a redraw
  await page.evaluate(() => {
    const box = document.querySelector('[data-chart="rope-decay"] .controls [name="maxDist"][type="number"]');
    box.value = '50';
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector('[data-chart="rope-decay"] .data-table tbody').rows.length === 51);

  // keyboard: every control is reachable, a range moves with the arrow keys and the chart redraws
  const unreachable = await page.evaluate(() => [...document.querySelectorAll('main input, main select, main button, main textarea, header button, header a')]
    .filter((e) => e.checkVisibility() && (e.tabIndex < 0 || e.disabled))
    .map((e) => `${e.closest('[data-chart]')?.dataset.chart ?? 'page'}: ${e.tagName} ${e.name ?? ''}`));
  assert.deepEqual(unreachable, []);
  // Tab from the language switch reaches the theme switch, then on into the page.
  await page.getByRole('button', { name: 'English' }).focus();
  const order = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement.dataset.setTheme ?? document.activeElement.tagName));
  }
  assert.ok(order.includes('dark'), `tab order: ${order.join(', ')}`);
  const readout = () => page.locator('[data-chart="extrapolation"] .readout').textContent();
  const before = await readout();
  await page.locator('[data-chart="extrapolation"] input[type="range"][name="dim"]').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((b) => document.querySelector('[data-chart="extrapolation"] .readout').textContent !== b, before);
  assert.match(await readout(), /of 65 pairs/);
});

test('reduced motion: nothing animates by itself, play waits for the reader', async () => {
  // embed.html runs the same theme.js and unit-circle module as the page, in a page of one chart
  const { page, context } = await open('embed.html?chart=unit-circle', { reducedMotion: 'reduce' });
  await page.evaluate(() => window.posencEmbed.ready);
  const state = () => page.evaluate(() => ({
    animation: window.Chart.defaults.animation,
    position: document.querySelector('.chart[data-kind="unit-circle"] input[type="range"][name="position"]').value,
    play: document.querySelector('.chart[data-kind="unit-circle"] .circle-buttons button:nth-child(2)').getAttribute('aria-label'),
  }));
  const s0 = await state();
  await page.waitForTimeout(500); // longer than one step of play (350 ms)
  const s1 = await state();
  assert.equal(s0.animation, false);
  assert.equal(s1.position, s0.position, 'the unit circle does not play by itself');
  assert.match(s1.play, /^Play/);
  await context.close();
});
