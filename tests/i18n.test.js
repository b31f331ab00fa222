// i18n.test.js: the page in English and in Chinese, in real Chromium. ?lang=zh gives a page with
// no English left outside code, formulas, numbers and proper names (checked on visible text,
// accessible names and what Chart.js paints); the switch changes every kind of text without a
// reload and back; the browser's language is the default.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser, pageReady } from './browser.js';
import { MODELS } from '../web/lib/models.js';

// The page loaded in Chinese serves both the check for English left and the language switch.
let b, zhPage;
before(async () => {
  b = await startBrowser();
  zhPage = await b.open('?lang=zh');
  await ready(zhPage.page);
});
after(() => b?.close());

/** Waits for the page and for page-ui.js (switches, table toggles). */
async function ready(page) {
  await pageReady(page);
  await page.waitForFunction(() => 'uiReady' in document.documentElement.dataset);
}

/**
 * Runs in the page: every piece of text a reader meets (visible text nodes outside code and
 * .mono, accessible names and descriptions, control texts, what Chart.js draws), each as
 * { where, text }.
 */
function collectTexts() {
  const out = [];
  const skip = (el) => el.closest('code, .mono, pre, textarea, script, style, cite, .lang-switch, [aria-hidden="true"]');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!text || !el || skip(el)) continue;
    if (el.closest('option') ? !el.closest('select')?.checkVisibility() : !el.checkVisibility()) continue;
    out.push({ where: el.closest('[data-chart], section[id], header, footer')?.dataset?.chart ?? el.closest('section[id]')?.id ?? el.tagName, text });
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (skip(el) || !el.checkVisibility()) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) {
      const v = el.getAttribute(a);
      if (v) out.push({ where: `${el.closest('[data-chart]')?.dataset.chart ?? el.tagName} @${a}`, text: v });
    }
  }
  for (const chart of Object.values(window.Chart?.instances ?? {})) {
    const where = `${chart.canvas.closest('[data-chart]')?.dataset.chart} (canvas)`;
    if (!chart.canvas.checkVisibility()) continue;
    for (const s of Object.values(chart.scales)) if (s.options.title?.display) out.push({ where, text: String(s.options.title.text) });
    const title = chart.options.plugins?.title;
    if (title?.display) out.push({ where, text: String(title.text) });
    if (chart.options.plugins?.legend?.display !== false) for (const ds of chart.data.datasets) if (ds.label) out.push({ where, text: ds.label });
    for (const l of chart.data.labels ?? []) out.push({ where, text: [l].flat().join(' ') });
  }
  return out;
}

// Names and terms that stay as they are in the Chinese text (the posts write them so too), and
// the gallery's model names.
const ALLOW = [...MODELS.flatMap((m) => [m.name, m.zh?.name ?? m.name]), 'Hugging Face', 'WebAssembly SIMD', 'BERT-base', 'GPT-NeoX', 'Llama 3.1 8B', 'Qwen2.5-7B', 'LongChat-7B-16K', 'LM Studio',
  'NTK-aware', 'decoder-only', 'Code Llama', 'mlx-vlm', 'Web Worker', 'Train Short, Test Long', 'Round and Round We Go!', 'npm run lab', 'sglang-jax', 'config.json', 'README.md', 'max|Δ|', 'max |Δ|', 'cos/sin', 'sin/cos',
  // a paper's term and a code's name, which Chinese ML writing keeps in English
  'rotary offset features', 'condensed rotary'];
// Common English words: one of these alone in a Chinese sentence is untranslated text.
const STOP = new Set(('the and of to in is at for with from by on as are this that it its each every one two all not no than ' +
  'then when where which position positions pair pairs dimension dimensions distance score turns turn mean angle layout encoding ' +
  'none step play pause table changed identical chart loading kernels number numbers length training scaling factor wavelength ' +
  'rotation between against over under only both per before after new cached full half interleaved random free linear bound ' +
  'hide show data rows columns copy download share export light dark auto theme language sections seed value values link embed ' +
  'close original dynamic rounded error errors heatmap unit circle spring decay order binary precision convention prompt ' +
  'from cache weight weights bits plane component dot product inner relative key query mask causal stretch shade shaded').split(' '));
STOP.delete('key'); // "key" and "query" name q and k in the Chinese text too, as in the posts
STOP.delete('query');
STOP.delete('prompt');
STOP.delete('value'); // v, the value vector, like k and q

/** The English a text still holds: runs of two or more words, and common English words. */
function english(text) {
  let s = text;
  for (const a of ALLOW) s = s.split(a).join(' ');
  const found = [];
  // Identifiers (d_model, w_i, float32, rotate_half) and single letters are formula, not English.
  const words = [...s.matchAll(/[A-Za-z][A-Za-z0-9_]*(?:['’][a-z]+)?/g)].map((m) => ({ w: m[0], at: m.index }));
  const plain = (w) => /^[A-Za-z]{2,}(?:['’][a-z]+)?$/.test(w);
  for (let i = 0; i < words.length; i++) {
    const { w, at } = words[i];
    if (!plain(w)) continue;
    const next = words[i + 1];
    if (next && plain(next.w) && /^[\s-]+$/.test(s.slice(at + w.length, next.at))) found.push(`${w} ${next.w}`);
    else if (STOP.has(w.toLowerCase())) found.push(w);
  }
  return found;
}

test('the word check itself: English prose is caught, formulas and names are not', () => {
  assert.deepEqual(english('位置 7,第 0 对(维度 0、1;w = 1 弧度/位置):(sin a, cos a) = (0.657, 0.754)'), []);
  assert.deepEqual(english('Hugging Face 的 modeling_llama.py 与 GPT-NeoX 一样,d_model = 512,BERT-base'), []);
  assert.deepEqual(english('g(x) = 2·Σ_i cos(x·θ_i),T_max/4 = 14617,float32'), []);
  assert.ok(english('the score at distance x').length > 0);
  assert.ok(english('位置 pos 0').length === 0);
  assert.ok(english('mean 平均值').length > 0);
});

test('?lang=zh: Chinese page, no English left outside code, formulas, numbers and names', async () => {
  const { page, problems } = zhPage;
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  const texts = await page.evaluate(collectTexts);
  assert.ok(texts.length > 300, `only ${texts.length} texts collected`);
  const left = texts.map((t) => ({ ...t, english: english(t.text) })).filter((t) => t.english.length);
  assert.deepEqual(left.slice(0, 25).map((t) => `${t.where}: ${t.english.join(', ')} ← “${t.text.slice(0, 120)}”`), []);
  const cjk = texts.filter((t) => /[\u4e00-\u9fff]/.test(t.text)).length;
  assert.ok(cjk > texts.length / 3, `only ${cjk} of ${texts.length} texts hold Chinese`);
  // Every section of prose exists in both languages, the hidden one not rendered.
  const prose = await page.evaluate(() => [...document.querySelectorAll('main section')].map((s) => ({
    id: s.id,
    zh: s.querySelectorAll(':scope > [lang="zh-CN"]').length,
    en: s.querySelectorAll(':scope > [lang="en"]').length,
    enShown: [...s.querySelectorAll('[lang="en"]')].some((e) => e.checkVisibility()),
  })));
  for (const s of prose) {
    assert.ok(s.zh > 0 && s.zh === s.en, `section ${s.id}: ${s.zh} Chinese and ${s.en} English blocks`);
    assert.ok(!s.enShown, `section ${s.id} shows English`);
  }
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
});

// What a Chinese table header may keep in Latin letters: symbols and names the prose writes so
// too (q, k, sin, cos, PE, RoPE, YaRN, NTK, T5, ALiBi, GGUF, HF, RoFormer, tensor2tensor,
// rotate_half, float32 …, "query", "key" and "token" as in the posts); an identifier with a
// digit or an underscore is a formula.
const HEAD_ALLOW = new Set(['sin', 'cos', 'RoPE', 'YaRN', 'NTK', 'ALiBi', 'GGUF', 'RoFormer', 'llama', 'cpp', 'query', 'key', 'token', 'aware']);
function headEnglish(text) {
  return [...text.matchAll(/[A-Za-z][A-Za-z0-9_]*/g)].map((m) => m[0])
    .filter((w) => /^[A-Za-z]{3,}$/.test(w) && !HEAD_ALLOW.has(w) && !MODELS.some((m) => m.name.includes(w)));
}

const CELL_ALLOW = new Set(['NoPE', 'xPos', 'ALiBi']);

test('the header check itself: English headers are caught, symbols and names are not', () => {
  assert.deepEqual(headEnglish('position'), ['position']);
  assert.deepEqual(headEnglish('tokenAccuracy (mean over 3 seeds)'), ['tokenAccuracy', 'mean', 'over', 'seeds']);
  assert.deepEqual(headEnglish('RoFormer 相对上界 (2/d)·Σ|Sⱼ|'), []);
  assert.deepEqual(headEnglish('sin a（维度 0）、PE(0)·PE(Δ)（tensor2tensor）、float32、k[0]'), []);
});

test('?lang=zh: every data table under a chart, opened, has Chinese column headers', async () => {
  const { page } = zhPage;
  const toggles = await page.$$('.data-table-toggle[aria-expanded="false"]');
  assert.ok(toggles.length > 40, `only ${toggles.length} table toggles`);
  for (const t of toggles) await t.evaluate((e) => e.click());
  try {
    await page.waitForFunction(() => [...document.querySelectorAll('.data-table .table-scroll')].every((r) => r.hidden || r.querySelector('table')));
    const heads = await page.evaluate(() => [...document.querySelectorAll('[data-chart]')].flatMap((c) =>
      [...c.querySelectorAll('thead th')].filter((th) => th.checkVisibility()).map((th) => ({ chart: c.dataset.chart, text: th.textContent }))));
    const charts = new Set(heads.map((h) => h.chart));
    assert.ok(charts.size > 40, `headers of only ${charts.size} charts`);
    const left = heads.map((h) => ({ ...h, english: headEnglish(h.text) })).filter((h) => h.english.length);
    assert.deepEqual(left.map((h) => `${h.chart}: “${h.text}”`), []);
    // the shown headers name the CSV's columns one for one
    const unmatched = await page.evaluate(() => [...window.posencPage.charts].filter(([, h]) => h.data?.heads && h.data.heads.length !== h.data.columns.length).map(([k]) => k));
    assert.deepEqual(unmatched, []);
    // columns of machine words show them in Chinese, while the CSV keeps the machine values
    const words = await page.evaluate((named) => named.map(([kind, column]) => {
      const box = document.querySelector(`[data-chart="${kind}"]`), data = window.posencPage.charts.get(kind).data;
      const c = data.columns.indexOf(column);
      const cells = [...box.querySelectorAll('.data-table tbody tr')].map((tr) => tr.children[c].textContent);
      return { kind, column, cells, csv: data.rows.map((r) => r[c]) };
    }), [['kv-cache', 'source'], ['length-lab', 'encoding'], ['lab-attention', 'encoding']]);
    for (const { kind, column, cells, csv } of words) {
      assert.ok(cells.length > 0, `${kind}: no rows in its table`);
      const english = cells.filter((text) => headEnglish(text).some((w) => !CELL_ALLOW.has(w)));
      assert.deepEqual(english, [], `${kind}: English in its “${column}” cells`);
      assert.ok(csv.every((v) => /^[a-z0-9 +]+$/.test(v)), `${kind}: the CSV's “${column}” keeps machine values: ${csv.slice(0, 3)}`);
    }
  } finally {
    for (const t of toggles) await t.evaluate((e) => e.click());
  }
});

test('?lang=zh: readouts, notices and option texts list numbers with 、 and write 25%, not 25 %', async () => {
  const { page } = zhPage;
  const texts = await page.evaluate(() => [...document.querySelectorAll('[data-chart] .readout, [data-chart] select option')]
    .map((e) => ({ chart: e.closest('[data-chart]').dataset.chart, text: e.textContent })));
  assert.ok(texts.length > 100, `only ${texts.length} texts`);
  // tuples, intervals and vectors, (0, 1) and [0, 1, …], keep their commas
  const bare = (t) => t.replace(/\([^()]*\)|\[[^\]]*\]/g, '');
  const bad = texts.filter(({ text }) => /\d, [−\d]/.test(bare(text)) || /\d %/.test(text));
  assert.deepEqual(bad.map((b) => `${b.chart}: ${b.text.slice(0, 160)}`), []);
});

test('a switch redraws the charts near the view at once, the others when the page is idle; drawn() and printing draw them at once', async () => {
  const { page, problems } = zhPage;
  // the page's first chart, brought into view, and its last, some 40 charts further down
  const [near, far] = await page.evaluate(() => [...document.querySelectorAll('main [data-chart]')].filter((e) => e.querySelector('.readout')?.textContent)
    .map((e) => e.dataset.chart).filter((k, i, all) => i === 0 || i === all.length - 1));
  await page.evaluate((k) => document.querySelector(`[data-chart="${k}"]`).scrollIntoView(), near);
  await new Promise((r) => setTimeout(r, 300));
  const zh = (s) => /[\u4e00-\u9fff]/.test(s);
  // clicked, then read in the same task: what the switch itself redrew
  const switched = (lang, then = '') => page.evaluate(({ lang, kinds, then }) => {
    const read = () => kinds.map((k) => document.querySelector(`[data-chart="${k}"] .readout`).textContent);
    const updated = new Set();
    for (const [k, h] of window.posencPage.charts) {
      const own = h.update;
      h.update = () => (updated.add(k), own());
      queueMicrotask(() => (h.update = own));
    }
    document.querySelector(`.lang-switch [data-set-lang="${lang}"]`).click();
    if (then === 'drawn') window.posencPage.drawn();
    if (then === 'print') dispatchEvent(new Event('beforeprint'));
    const r = { readouts: read(), updated: updated.size, charts: window.posencPage.charts.size };
    if (then === 'print') dispatchEvent(new Event('afterprint'));
    return r;
  }, { lang, kinds: [near, far], then });

  const en = await switched('en');
  assert.ok(!zh(en.readouts[0]), `${near}, in view, is redrawn in English at once: ${en.readouts[0]}`);
  assert.ok(zh(en.readouts[1]), `${far}, far below, waits: ${en.readouts[1]}`);
  assert.ok(en.updated < en.charts / 4, `${en.updated} of ${en.charts} charts redrawn by the switch itself`);
  // the page left alone: the far chart is redrawn when the page is idle, without being scrolled to
  await page.waitForFunction((k) => !/[\u4e00-\u9fff]/.test(document.querySelector(`[data-chart="${k}"] .readout`).textContent), far);
  assert.ok(await page.evaluate((k) => document.querySelector(`[data-chart="${k}"]`).closest('section').getBoundingClientRect().top > 3 * innerHeight, far), `${far} is still far below`);

  const drawn = await switched('zh', 'drawn');
  assert.ok(zh(drawn.readouts[1]), `drawn() draws ${far} at once: ${drawn.readouts[1]}`);
  assert.equal(drawn.updated, drawn.charts);
  const printed = await switched('en', 'print');
  assert.ok(!zh(printed.readouts[1]), `printing draws ${far} at once: ${printed.readouts[1]}`);
  await page.evaluate(() => window.posencPage.drawn());
  await switched('zh', 'drawn');
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
});

test('the language switch changes every kind of text without a reload, and back', async () => {
  // the page as loaded with ?lang=zh (above) is the reference the switches must restore
  const { page, context, problems } = zhPage;
  const snapshot = () => page.evaluate(() => {
    // innerText is layout's text: the one section it reads is laid out, even out of view (content-visibility)
    document.querySelector('#order').style.contentVisibility = 'visible';
    const box = (k) => document.querySelector(`[data-chart="${k}"]`);
    const chart = (k) => Object.values(window.Chart.instances).find((c) => box(k).contains(c.canvas));
    return {
      lang: document.documentElement.lang,
      title: document.title,
      h2: document.querySelector('#order h2').innerText,
      caption: box('frequency-curves').querySelector('figcaption').textContent,
      control: box('frequency-curves').querySelectorAll('.control > span')[1].textContent,
      option: box('sin-heatmap').querySelector('select').selectedOptions[0].textContent,
      readout: box('extrapolation').querySelector('.readout').textContent,
      axis: chart('frequency-curves').scales.x.options.title.text,
      legend: chart('extrapolation').data.datasets[0].label,
      aria: box('unit-circle').querySelector('canvas').getAttribute('aria-label'),
      canvasText: box('sin-heatmap').querySelector('.heatmap-hover').textContent,
      button: box('unit-circle').querySelector('.circle-buttons button').textContent,
      toolbar: box('order').querySelector('button')?.textContent,
      table: box('order').querySelector('.data-table-toggle').textContent,
      data: JSON.stringify(window.posencPage.charts.get('extrapolation').data.rows),
      marker: window.__noReload,
    };
  });
  await page.evaluate(() => (window.__noReload = 1));
  const zh0 = await snapshot();
  assert.equal(zh0.lang, 'zh-CN');
  assert.match(zh0.readout, /64 对中有 18 对从未转满一圈/);

  await page.getByRole('button', { name: 'English' }).click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.waitForFunction(() => !/[\u4e00-\u9fff]/.test(document.querySelector('[data-chart="extrapolation"] .readout').textContent));
  const en = await snapshot();
  assert.equal(en.marker, 1, 'the page did not reload');
  assert.equal(en.lang, 'en');
  assert.match(new URL(page.url()).search, /lang=en/);
  assert.match(en.h2, /Why order matters/);
  assert.match(en.readout, /18 of 64 pairs never complete a turn within L₀ = 4096/);
  for (const k of ['title', 'h2', 'caption', 'control', 'option', 'readout', 'axis', 'legend', 'aria', 'canvasText', 'button', 'table']) {
    assert.notEqual(en[k], zh0[k], `${k} did not change`);
    assert.doesNotMatch(String(en[k]), /[\u4e00-\u9fff]/, `${k} is not English: ${en[k]}`);
  }
  assert.equal(en.data, zh0.data, 'the numbers stay the same');

  await page.getByRole('button', { name: '中文' }).click();
  await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('[data-chart="extrapolation"] .readout').textContent));
  const zh = await snapshot();
  assert.match(new URL(page.url()).search, /lang=zh/);
  for (const k of Object.keys(zh0)) if (k !== 'marker') assert.equal(zh[k], zh0[k], `${k} after switching back to Chinese`);

  await page.getByRole('button', { name: 'English' }).click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.waitForFunction(() => !/[\u4e00-\u9fff]/.test(document.querySelector('[data-chart="extrapolation"] .readout').textContent));
  const back = await snapshot();
  for (const k of Object.keys(en)) if (k !== 'marker') assert.equal(back[k], en[k], `${k} after switching to English again`);
  // the switch is a pair of real buttons: reachable and operable from the keyboard
  await page.getByRole('button', { name: '中文' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.deepEqual(problems, { console: [], failed: [], external: [], pageErrors: [] });
  await context.close();
});

test('the browser language is the default: zh-CN gives Chinese, en-US English', async () => {
  await Promise.all([['zh-CN', 'zh-CN'], ['zh-TW', 'zh-CN'], ['en-US', 'en']].map(async ([locale, want]) => {
    const context = await b.browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto(b.url);
    await page.waitForFunction(() => document.querySelector('.lang-switch [aria-pressed="true"]'));
    const got = await page.evaluate(async () => ({
      // innerText is layout's text: #decay is laid out although out of view (content-visibility)
      shown: document.querySelector('#decay').style.contentVisibility = 'visible',
      lang: document.documentElement.lang,
      module: (await import('./host/i18n.js')).lang(),
      pressed: document.querySelector('.lang-switch [aria-pressed="true"]').dataset.setLang,
      h2: document.querySelector('#decay h2').innerText,
    }));
    assert.equal(got.lang, want, locale);
    assert.equal(got.module, want === 'en' ? 'en' : 'zh', locale);
    assert.equal(got.pressed, got.module, locale);
    assert.equal(/[\u4e00-\u9fff]/.test(got.h2), want !== 'en', `${locale}: ${got.h2}`);
    await context.close();
  }));
});
