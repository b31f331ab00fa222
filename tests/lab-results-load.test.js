// lab-results-load.test.js: the lab's default run (web/lab/results.json, 280 KB) is not part of
// what the page loads before its first charts: the page's script does not carry it, and the page
// asks for the file once, when the first lab chart mounts, after every chart before the lab.
// While it comes the lab's charts, once drawn (near the view, or when the page is idle: here,
// drawn() draws them at once), say so; then they draw it. A page that cannot load it says so
// in each lab chart's readout, in both languages, and its other charts draw. The single-file
// builds carry it inlined (nothing is fetched from file://), the light embed in a chunk of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrowser, switchLang } from './browser.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The lab charts that draw the default run. */
const FROM_FILE = ['length-lab', 'lab-positions', 'lab-attention', 'lab-scaling', 'lab-learned'];
// a stretch of the first run's loss curve: what only the results hold
const marker = JSON.parse(await readFile(join(ROOT, 'web', 'lab', 'results.json'), 'utf8')).runs[0].loss.base64.slice(0, 40);

let b;
before(async () => (b = await startBrowser()));
after(async () => b?.close());

test('the page\'s scripts carry none of the lab\'s results; the single-file builds carry them, the light embed in one chunk', async () => {
  for (const f of await readdir(join(ROOT, 'web', 'build', 'page'))) {
    assert.ok(!(await readFile(join(ROOT, 'web', 'build', 'page', f), 'utf8')).includes(marker), `web/build/page/${f} holds no results`);
  }
  for (const f of ['dist/posenc.js', 'dist/standalone.html']) assert.ok((await readFile(join(ROOT, f), 'utf8')).includes(marker), `${f} holds the results`);
  const chunks = join(ROOT, 'dist', 'module', 'chunks');
  const holding = [];
  for (const f of await readdir(chunks)) if ((await readFile(join(chunks, f), 'utf8')).includes(marker)) holding.push(f);
  assert.equal(holding.length, 1, `chunks with the results: ${holding}`);
  assert.match(holding[0], /^results-/);
});

/**
 * Loads the page at `query` with results.json answered by `route` (a Playwright route handler);
 * the page records which charts had mounted (window.resultsAsked) each time it asked for it.
 */
async function load(query, route) {
  const context = await b.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const fetch = window.fetch;
    window.fetch = function (input, ...rest) {
      if (String(input?.url ?? input).endsWith('/results.json')) {
        (window.resultsAsked ??= []).push([...document.querySelectorAll('[data-chart].chart')].map((el) => el.dataset.chart));
      }
      return fetch.call(this, input, ...rest);
    };
  });
  const requests = [];
  page.on('request', (r) => r.url().endsWith('/results.json') && requests.push(r.url()));
  await page.route('**/results.json', route);
  await page.goto(`${b.url}${query}`);
  await page.waitForFunction(() => window.posencPage?.ready);
  await page.evaluate(() => window.posencPage.ready);
  return { page, context, requests };
}

const readouts = (page) => page.evaluate((kinds) => kinds.map((k) => {
  const r = document.querySelector(`[data-chart="${k}"] .readout`);
  return [k, r.classList.contains('posenc-error'), r.textContent, window.posencPage.charts.get(k)?.data?.rows?.length ?? 0];
}), FROM_FILE);

test('a plain load asks for the results once, after every chart before the lab has mounted; the lab charts say they are coming, then draw them', async () => {
  let release;
  const held = new Promise((r) => (release = r));
  const { page, context, requests } = await load('?lang=en', async (route) => (await held, route.continue()));
  // every chart is mounted; the first a reader meets is computed, those far below (the lab's, at the
  // page's end) are not yet: no readout
  const atReady = await page.evaluate(() => ({ first: window.posencPage.charts.values().next().value.data?.rows?.length > 0 }));
  assert.deepEqual({ ...atReady, lab: (await readouts(page)).map(([k, , text]) => [k, text]) }, { first: true, lab: FROM_FILE.map((k) => [k, '']) });
  // the page is ready without them: the lab's charts, drawn, say what they wait for
  await page.evaluate(() => window.posencPage.drawn());
  const asked = await page.evaluate(() => window.resultsAsked);
  assert.equal(asked?.length, 1, 'asked for once');
  const kinds = await page.evaluate(() => [...document.querySelectorAll('[data-chart]')].map((el) => el.dataset.chart));
  const before = kinds.slice(0, kinds.indexOf('length-lab'));
  assert.ok(before.length > 30 && before.every((k) => asked[0].includes(k)), `not mounted when the results were asked for: ${before.filter((k) => !asked[0].includes(k))}`);
  for (const [k, error, text, rows] of await readouts(page)) assert.deepEqual([k, error, text, rows], [k, false, 'Loading the default run, trained ahead of time…', 0]);
  release();
  await page.waitForFunction((ks) => ks.every((k) => window.posencPage.charts.get(k).data.rows.length), FROM_FILE);
  for (const [k, error, text] of await readouts(page)) assert.ok(!error && !/Loading/.test(text), `${k}: ${text}`);
  assert.equal(requests.length, 1, 'fetched once for every lab chart');
  await context.close();
});

test('results that cannot be loaded: each lab chart says so in its readout, in both languages; the other charts draw', async () => {
  const { page, context, requests } = await load('?lang=zh', (route) => route.abort());
  await page.waitForFunction((ks) => ks.every((k) => document.querySelector(`[data-chart="${k}"] .readout.posenc-error`)), FROM_FILE);
  for (const [k, , text, rows] of await readouts(page)) {
    assert.match(text, /^此图表无法绘制：预先训练好的默认结果无法加载（results\.json: .+）$/, k);
    assert.equal(rows, 0, k);
  }
  await switchLang(page, 'en');
  for (const [k, , text] of await readouts(page)) assert.match(text, /^This chart could not be drawn: the default run, trained ahead of time, could not be loaded \(results\.json: .+\)$/, k);
  const others = await page.evaluate((ks) => [...window.posencPage.charts].filter(([k]) => !ks.includes(k)).map(([k, h]) => [k, h.data?.rows?.length ?? 0]), FROM_FILE);
  assert.ok(others.length > 35, `${others.length} other charts`);
  assert.deepEqual(others.filter(([k, n]) => !n && !k.startsWith('real-')), [], 'every other chart drew');
  assert.ok(requests.length >= 1);
  await context.close();
});
