// page-script.test.js: the lesson's script comes in three files (web/tools/page-bundle.js):
// main.js with the chart the page opens with, main-shared.js (what main.js imports, which
// index.html asks for beside it) and main-charts.js (every other chart, and the API's model
// families). The first chart is drawn from the first two alone; the other charts mount once the
// third has come.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startBrowser, pageReady } from './browser.js';
import { KINDS } from '../web/host/kinds.js';

const WEB = fileURLToPath(new URL('../web/', import.meta.url));
const PAGE = join(WEB, 'build', 'page');

let b;
before(async () => (b = await startBrowser()));
after(async () => b?.close());

/** The relative files a module's text imports: [static, dynamic]. */
function importsOf(text) {
  const own = (re) => [...text.matchAll(re)].map((m) => m[1]).filter((f) => !f.includes('/vendor/'));
  return [own(/(?:\bfrom|\bimport)\s*"\.\/([\w.-]+\.js)"/g), own(/\bimport\("\.\/([\w.-]+\.js)"\)/g)];
}

test('index.html asks for what main.js imports; the page\'s bundle is main.js, main-shared.js and main-charts.js', async () => {
  const files = (await readdir(PAGE)).filter((f) => f.startsWith('main'));
  assert.deepEqual(files.sort(), ['main-charts.js', 'main-shared.js', 'main.js']);
  const [staticImports, dynamicImports] = importsOf(await readFile(join(PAGE, 'main.js'), 'utf8'));
  assert.deepEqual(staticImports, ['main-shared.js']);
  assert.deepEqual(dynamicImports, ['main-charts.js']);
  assert.deepEqual(importsOf(await readFile(join(PAGE, 'main-charts.js'), 'utf8')), [['main-shared.js'], []]);
  const html = await readFile(join(WEB, 'index.html'), 'utf8');
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="build\/page\/([\w.-]+)">/g)].map((m) => m[1]);
  assert.deepEqual(preloaded, staticImports, 'index.html preloads exactly the files main.js imports');
});

test('the page\'s first chart is drawn before the other charts\' code has come; they mount once it has', async () => {
  const html = (await readFile(join(WEB, 'index.html'), 'utf8')).replace(/<!--[\s\S]*?-->/g, '');
  const first = /<div data-chart="([\w-]+)"/.exec(html)[1];
  assert.ok(KINDS.includes(first));
  const context = await b.browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  let release, asked = false;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/build/page/main-charts.js', async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  await page.addInitScript(() => {
    window.drawnCharts = [];
    document.addEventListener('posenc:drawn', (e) => window.drawnCharts.push(e.target.closest('[data-chart]')?.dataset.chart), true);
  });
  await page.goto(b.url);
  await page.waitForFunction(() => window.drawnCharts.length > 0);
  // held for a while: nothing else mounts meanwhile
  await page.waitForTimeout(300);
  // the API's model families come with the other charts
  const families = () => page.evaluate(() => {
    try {
      return window.posencPage.pe.ropeScaling({ rope_theta: 10000 }).base;
    } catch (err) {
      return err.message;
    }
  });
  const meanwhile = await page.evaluate(() => ({ drawn: [...new Set(window.drawnCharts)], mounted: [...window.posencPage.charts.keys()] }));
  assert.ok(asked, 'main-charts.js was asked for while the first chart mounted');
  assert.deepEqual(meanwhile, { drawn: [first], mounted: [first] });
  assert.match(String(await families()), /ropeScaling is not loaded/);
  release();
  await pageReady(page);
  assert.equal(await page.evaluate(() => window.posencPage.charts.size), await page.evaluate(() => document.querySelectorAll('[data-chart]').length));
  assert.equal(await families(), 10000);
  await context.close();
});
