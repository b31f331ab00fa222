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

test('from file://, "For teachers" opens the guide, in both languages, and a scene link opens the page set as it says', async () => {
  const { page, context, problems, csp } = await trackedPage(b.browser);
  const blocked = [];
  await page.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.fallback() : (blocked.push(r.request().url()), r.abort())));
  await page.goto(pathToFileURL(PAGE).href);
  await page.locator('a.guide-link').click();
  await page.waitForURL(/standalone-teaching\.html$/);
  assert.equal(await page.locator('h1 [lang="en"]').textContent(), 'Teaching with posenc');
  await page.waitForFunction(() => document.querySelector('.lang-switch button'));
  await page.goto(`${pathToFileURL(GUIDE).href}?lang=zh`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.ok(await page.locator('h1 [lang="zh-CN"]').isVisible());
  await page.goto(pathToFileURL(GUIDE).href);
  await page.locator('a[href="standalone.html?unit-circle.position=6#circle"]').first().click();
  await pageReady(page);
  assert.equal(await page.evaluate(() => window.posencPage.charts.get('unit-circle').params().position), 6);
  assert.deepEqual(blocked, []);
  assert.deepEqual(await csp(), []);
  assert.deepEqual(problems, clean);
  await context.close();
});
