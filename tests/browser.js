// browser.js: serves web/ on 127.0.0.1 and drives Debian's Chromium with playwright-core.
// The browser resolves no host name but localhost, so nothing a page asks for leaves the
// machine. Every page opened here records console errors/warnings, failed requests and any
// request for another host, so tests can assert there were none; pages a file opens many of can
// share one browser context (startBrowser's pages).
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../web/tools/serve.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-quic', '--no-first-run', '--disable-dev-shm-usage',
  // refused by the browser itself rather than by intercepting every request (Playwright's route
  // holds each request for a round trip to this process)
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'];

/** Whether failed request `r` was for a host other than this machine, which the browser refuses (ARGS) unless a route answered it. */
export const refused = (r) => /ERR_NAME_NOT_RESOLVED/.test(r.failure()?.errorText ?? '');

/**
 * Records on `page` what a test asserts there was none of: console errors and warnings, uncaught
 * errors, failed requests, and requests that would have left this machine (refused). Returns
 * those lists.
 */
function watch(page) {
  const problems = { console: [], failed: [], external: [], pageErrors: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.console.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('requestfailed', (r) => {
    problems.failed.push(`${r.url()} ${r.failure()?.errorText}`);
    if (refused(r)) problems.external.push(r.url());
  });
  return problems;
}

/**
 * Starts the server and the browser; returns { url, browser, open(path), pages, close() }, pages
 * being contextPages of it (one context, made when first used).
 */
export async function startBrowser() {
  const server = await serve({ port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  // options beyond the viewport, `init` (a function run in the page before its own scripts) and
  // `pages` (HTML served at a path, by path) go to the browser context as they are (hasTouch, ...)
  const open = async (path = '', { viewport = { width: 1200, height: 900 }, init, pages = {}, ...options } = {}) => {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, ...options });
    const page = await context.newPage();
    const problems = watch(page);
    for (const [at, body] of Object.entries(pages)) await page.route(server.url + at, (r) => r.fulfill({ contentType: 'text/html', body }));
    if (init) await page.addInitScript(init);
    await page.goto(server.url + path);
    return { page, context, problems };
  };
  const b = { url: server.url, browser, open };
  b.pages = contextPages(b);
  b.close = async () => {
    await b.pages.close();
    await browser.close();
    await server.close();
  };
  return b;
}

/**
 * Pages opened one after another or side by side in one browser context of `browser`, for tests
 * about what a page shows, not about what a first load in a new browser does: a page opened while
 * another of its site is open takes on that page's renderer process and loads for about half the
 * CPU (embed.html: 1 CPU-s against 2.2 in a new context), so the last page closed is kept until
 * the next one has loaded. A page behind a later one gets no frames: a test that goes back to it
 * brings it to the front. setup(page, options) readies a page before it loads and returns what
 * it records. Returns { open(url, options), close() }; open resolves to { page, context, close(),
 * ...what setup returned }, its close() closing that page alone.
 */
export function sharedContext(browser, contextOptions, setup) {
  let context, kept = null;
  const live = new Set();
  const open = async (url, options = {}) => {
    context ??= browser.newContext(contextOptions);
    const ctx = await context;
    const page = await ctx.newPage();
    live.add(page);
    const extra = await setup(page, options);
    try {
      await page.goto(url);
    } finally {
      await kept?.close();
      kept = null;
    }
    const close = async () => {
      live.delete(page);
      if (live.size) await page.close();
      else (await kept?.close(), (kept = page));
    };
    return { page, context: ctx, close, ...extra };
  };
  return { open, close: async () => (await context)?.close() };
}

/** As startBrowser's open(), the pages in one context (sharedContext): open(path, { viewport, init }) of `b`, a startBrowser(). */
function contextPages(b) {
  const { open, close } = sharedContext(b.browser, { deviceScaleFactor: 1 }, async (page, { viewport = { width: 1200, height: 900 }, init }) => {
    await page.setViewportSize(viewport);
    const problems = watch(page);
    if (init) await page.addInitScript(init);
    return { problems };
  });
  return { open: (path = '', options) => open(b.url + path, options), close };
}

/**
 * Waits until main.js has mounted every chart, those that draw data read after they mount have
 * drawn it (section 22's: their model; the lab's: the default run's results), and every chart
 * is drawn (those far from the view are drawn when the page is idle).
 */
export async function pageReady(page) {
  await page.waitForFunction(() => window.posencPage?.ready);
  await page.evaluate(() => window.posencPage.ready);
  // (a chart far from the view is computed when it comes near or the page is idle: under the
  // presenter, not until it is shown)
  await page.evaluate(() => window.posencPage.drawn());
  await page.waitForFunction(() => [...document.querySelectorAll('#real-model [data-chart], [data-chart^="lab-"], [data-chart="length-lab"]')]
    .every((e) => window.posencPage.charts.get(e.dataset.chart)?.data?.rows?.length));
  await page.evaluate(() => window.posencPage.drawn());
}

/**
 * Switches a loaded page's language with its own switch (under the presenter too), as a reader
 * does; resolves once the page is in it with every chart drawn in it (a chart far from the view
 * waits for the page to be idle: drawn() draws it at once).
 */
export async function switchLang(page, lang) {
  await page.evaluate((l) => document.querySelector(`.lang-switch [data-set-lang="${l}"]`).click(), lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang === 'zh' ? 'zh-CN' : 'en');
  await page.evaluate(() => window.posencPage?.drawn());
}

/** Follows a scene link within a loaded lesson, as an exercise's link does (main.js), and waits until the page has landed. */
export const followScene = (page, href) => page.evaluate(async (href) => {
  const u = new URL(href, location.href);
  u.pathname = location.pathname;
  const a = Object.assign(document.createElement('a'), { href: u.href, className: 'scene-link' });
  document.body.append(a);
  a.click();
  a.remove();
  // landed: the view has kept still for a while (land.js holds the target for up to 90 frames)
  for (let still = 0, y = NaN, k = 0; still < 15 && k < 400; k++) {
    await new Promise((r) => requestAnimationFrame(r));
    still = scrollY === y ? still + 1 : 0;
    y = scrollY;
  }
}, href);

/**
 * What chart `kind` of a loaded lesson shows once scene link `href` is followed in it, the chart
 * starting from its defaults as in a new tab: { readout, data, extra }, extra being what
 * `extra(box, data)` (a function, run in the page) returns.
 */
export async function sceneOf(page, href, kind, extra) {
  await page.evaluate((k) => window.posencPage.charts.get(k).reset(), kind);
  await followScene(page, href);
  return page.evaluate(([k, src]) => {
    const box = document.querySelector(`[data-chart="${k}"]`);
    const data = window.posencPage.charts.get(k).data;
    return {
      readout: box.querySelector('.readout').textContent,
      data: JSON.parse(JSON.stringify(data)),
      extra: src ? new Function('box', 'data', src)(box, data) : null,
    };
  }, [kind, extra ? `return (${extra})(box, data)` : '']);
}

/**
 * One loaded lesson (`path`) for all the tests of a file, since a load of the whole page costs
 * seconds: registers the file's before and after hooks. Returns { page, scene }: the page once it
 * is ready, and sceneOf on it.
 */
export function sharedLesson(path = '?lang=en') {
  let env, page;
  before(async () => {
    env = await startBrowser();
    ({ page } = await env.open(path));
    await pageReady(page);
  });
  after(() => env?.close());
  return {
    get page() {
      return page;
    },
    scene: (href, kind, extra) => sceneOf(page, href, kind, extra),
  };
}
