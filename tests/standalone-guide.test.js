// standalone-guide.test.js: dist/standalone.html's "For teachers" link, from file://: it opens
// the guide's own single file beside it (teaching.html is not there), and the guide's links to
// the lesson, its scenes and handouts open the single-file page, with every other request blocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBrowser, pageReady } from './browser.js';
import { trackedPage } from './fixtures/track.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const PAGE = join(DIST, 'standalone.html'), GUIDE = join(DIST, 'standalone-teaching.html');
const clean = { console: [], pageErrors: [], dialogs: [], failed: [], external: [] };

/** The relative links of an HTML file's markup (its inlined scripts aside): the files they name (before ? and #). */
const linkedFiles = (file) => [...readFileSync(file, 'utf8').replace(/<script>[\s\S]*?<\/script>/g, '')
  .matchAll(/href="(?![a-z]+:)([^"#?]+)[^"]*"/g)].map((m) => m[1]);

let b;
before(async () => {
  b = await startBrowser();
});
after(async () => {
  await b?.close();
});

test('the single-file page and guide link each other, and only files that are beside them', () => {
  assert.ok(existsSync(GUIDE), 'dist/standalone-teaching.html is built');
  assert.deepEqual([...new Set(linkedFiles(PAGE))], ['standalone-teaching.html']);
  const fromGuide = linkedFiles(GUIDE);
  assert.ok(fromGuide.length >= 20, `${fromGuide.length} links to the lesson`);
  assert.deepEqual([...new Set(fromGuide)], ['standalone.html']);
  // the links' own text names the file they open too
  assert.doesNotMatch(readFileSync(GUIDE, 'utf8').replace(/<(script|style)>[\s\S]*?<\/\1>/g, ''), /(?<![\w-])(index|teaching)\.html/);
});

test('from file://, "For teachers" opens the guide, in both languages, and a scene link opens the page set as it says; its slides letter for the room', async () => {
  const { page, context, problems, csp } = await trackedPage(b.browser);
  const blocked = [];
  await page.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.fallback() : (blocked.push(r.request().url()), r.abort())));
  await page.goto(`${pathToFileURL(PAGE).href}?lang=en`);
  await page.locator('a.guide-link').click();
  await page.waitForURL(/standalone-teaching\.html\?lang=en$/);
  assert.equal(await page.locator('h1 [lang="en"]').textContent(), 'Teaching with posenc');
  await page.waitForFunction(() => document.querySelector('.lang-switch button'));
  // the language and the theme chosen on one file go with its links to the other
  await page.goto(`${pathToFileURL(PAGE).href}?lang=en`);
  await page.waitForFunction(() => document.querySelector('.lang-switch [aria-pressed="true"]'));
  await page.click('button[data-set-lang="zh"]');
  await page.click('.theme-switch button[data-set-theme="dark"]');
  await page.locator('a.guide-link').click();
  await page.waitForURL(/standalone-teaching\.html\?lang=zh&theme=dark$/);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.ok(await page.locator('h1 [lang="zh-CN"]').isVisible());
  await page.waitForFunction(() => document.querySelector('.lang-switch [aria-pressed="true"]'));
  const scene = page.locator('a[href^="standalone.html?unit-circle.position=6&"]:visible').first();
  assert.equal(await scene.getAttribute('href'), 'standalone.html?unit-circle.position=6&lang=zh&theme=dark#circle');
  await scene.click();
  await pageReady(page);
  assert.equal(await page.evaluate(() => window.posencPage.charts.get('unit-circle').params().position), 6);
  assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme]), ['zh-CN', 'dark']);
  // presented, its charts letter for the room (the one file bundles its own Chart.js: there is no
  // window.Chart to set the size on), and at the page's size again after
  const sizes = () => page.evaluate(() => {
    const host = window.posencPage.charts.get('unit-circle');
    return [typeof window.Chart, host.Chart.defaults.font.size];
  });
  await page.evaluate(() => window.posencPage.presenter.open(window.posencPage.presenter.find('unit-circle')));
  assert.deepEqual(await sizes(), ['undefined', 16], 'Chart.js text at 16 px on a 1000×800 slide');
  await page.keyboard.press('Escape');
  assert.deepEqual(await sizes(), ['undefined', 12], 'the page draws at its own size again');
  assert.deepEqual(blocked, []);
  assert.deepEqual(await csp(), []);
  assert.deepEqual(problems, clean);
  await context.close();
});

