// embed-bench.js: a blog post with one <posenc-chart kind="rope-decay">, as its reader gets it:
// served over localhost with gzip, opened in Debian's Chromium with an empty cache, the light
// embed (dist/module/, <script type="module">) side by side with the one-file build
// (dist/posenc.js, <script defer>). Per load: the bytes transferred before the chart is drawn
// (every response that ended by then: headers and gzipped bodies), first contentful paint,
// DOMContentLoaded, and the chart drawn (its first 'posenc:drawn'), all from navigation.
//
//   node tests/bench/embed-bench.js [--loads=N]       (npm run bench:browser runs it too)
// Targets: ≤ 150 KB before the chart is drawn, drawn ≤ 150 ms after DOMContentLoaded.
import { chromium } from 'playwright-core';
import { cp, mkdtemp, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../web/tools/serve.js';

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const argv = process.argv.slice(2);
const LOADS = Number(argv.find((a) => a.startsWith('--loads='))?.split('=')[1] ?? 7);
export const TARGETS = { kb: 150, afterDclMs: 150 };

const post = (script) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A post about RoPE</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${script}
<style>body { font: 17px/1.6 Georgia, serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; }</style>
</head><body>
<h1>How far does RoPE look?</h1>
<p>Rotary position embedding turns each pair of a query's dimensions by an angle that grows with the
position. The score between two tokens then depends on their distance alone; this chart shows how it falls.</p>
<posenc-chart kind="rope-decay">RoPE score against distance (this live chart needs JavaScript).</posenc-chart>
<p>${'The rest of the post goes on here. '.repeat(40)}</p>
</body></html>
`;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** A phone's slow link, as Lighthouse's mobile runs throttle it ("slow 4G"). */
export const SLOW_LINK = { downMbps: 1.6, upMbps: 0.75, rttMs: 150 };

/** Has the browser emulate `link` ({ downMbps, upMbps, rttMs }) for `page` of `context`. */
export async function throttle(context, page, link) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: link.rttMs,
    downloadThroughput: (link.downMbps * 1e6) / 8, uploadThroughput: (link.upMbps * 1e6) / 8 });
}

/** `promise`, or a rejection with `message` after `ms` (a page that never says what it waits for fails the bench). */
export const withTimeout = (promise, ms, message) => Promise.race([promise,
  new Promise((_, reject) => setTimeout(() => reject(new Error(message)), ms).unref())]);

/**
 * Loads the post at `url` `loads` times, each in a fresh context (over `link`, { downMbps, upMbps,
 * rttMs } emulated by the browser, if given); returns the per-load figures.
 */
export async function measure(browser, url, loads = LOADS, link = null) {
  const runs = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    // The page notes when the chart is drawn and hands it over through a binding: waiting with
    // Playwright's own functions would run its injected script in the page while the chart is
    // being set up, tens of milliseconds of the main thread that no reader's page spends.
    let done;
    const drawnAt = new Promise((resolve) => (done = resolve));
    await context.exposeBinding('__benchDrawn', (_, t) => done(t));
    await context.addInitScript(() => {
      let seen = false;
      document.addEventListener('posenc:drawn', () => seen || ((seen = true), window.__benchDrawn(performance.now())), true);
    });
    const page = await context.newPage();
    if (link) await throttle(context, page, link);
    await page.goto(url, { waitUntil: 'commit' });
    const drawn = await withTimeout(drawnAt, 30_000, `${url}: no chart drawn`);
    runs.push(await page.evaluate((drawn) => {
      const nav = performance.getEntriesByType('navigation')[0];
      const before = performance.getEntriesByType('resource').filter((r) => r.responseEnd <= drawn);
      return {
        bytes: nav.transferSize + before.reduce((n, r) => n + r.transferSize, 0),
        requests: 1 + before.length,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        dcl: nav.domContentLoadedEventEnd,
        drawn,
      };
    }, drawn));
    await context.close();
  }
  return runs;
}

export async function embedBench({ log = console.log, loads = LOADS, link = SLOW_LINK } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'posenc-embed-bench-'));
  let server, browser;
  try {
    await cp(join(ROOT, 'dist', 'module'), join(dir, 'module'), { recursive: true });
    await copyFile(join(ROOT, 'dist', 'posenc.js'), join(dir, 'posenc.js'));
    await writeFile(join(dir, 'light.html'), post('<script type="module" src="module/posenc.js"></script>'));
    await writeFile(join(dir, 'one-file.html'), post('<script defer src="posenc.js"></script>'));
    server = await serve({ port: 0, root: dir, gzip: true });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
    });
    // interleaved, so a busy moment of the machine falls on both
    const light = [], oneFile = [];
    for (let i = 0; i < loads; i++) {
      light.push(...(await measure(browser, `${server.url}light.html`, 1)));
      oneFile.push(...(await measure(browser, `${server.url}one-file.html`, 1)));
    }
    const row = (name, runs) => {
      const kb = pct(runs.map((r) => r.bytes), 50) / 1024;
      const after = runs.map((r) => r.drawn - r.dcl);
      return { name, kb, requests: pct(runs.map((r) => r.requests), 50), fcp: pct(runs.map((r) => r.fcp), 50),
        drawn: pct(runs.map((r) => r.drawn), 50), after50: pct(after, 50), after95: pct(after, 95) };
    };
    const rows = [row('light embed (module)', light), row('one file (dist/posenc.js)', oneFile)];
    log(`\nA post with one rope-decay chart, gzip over localhost, empty cache, ${loads} loads each (interleaved); medians unless said:`);
    log('  build                        KB before drawn  requests  FCP ms  drawn ms  drawn − DCL p50 / p95 ms');
    for (const r of rows) {
      log(`  ${r.name.padEnd(28)} ${r.kb.toFixed(1).padStart(15)}  ${String(r.requests).padStart(8)}  ${r.fcp.toFixed(0).padStart(6)}  ` +
        `${r.drawn.toFixed(0).padStart(8)}  ${r.after50.toFixed(0).padStart(10)} / ${r.after95.toFixed(0)}`);
    }
    const [l, o] = rows;
    log(`  ratio one file / light: bytes ${(o.kb / l.kb).toFixed(2)}×, drawn ${(o.drawn / l.drawn).toFixed(2)}×`);
    // the same post over a phone's slow link, where the bytes are the time
    const slow = [], slowOne = [];
    for (let i = 0; i < (loads > 1 ? 2 : 1); i++) {
      slow.push(...(await measure(browser, `${server.url}light.html`, 1, link)));
      slowOne.push(...(await measure(browser, `${server.url}one-file.html`, 1, link)));
    }
    const ms = (runs) => pct(runs.map((r) => r.drawn), 50).toFixed(0);
    log(`  over a phone's slow link (${link.downMbps} Mbps down, ${link.rttMs} ms round trip; ${slow.length} loads each, p50): ` +
      `light embed drawn ${ms(slow)} ms, one file ${ms(slowOne)} ms`);
    log(`  targets: ≤ ${TARGETS.kb} KB before drawn: ${l.kb <= TARGETS.kb ? 'met' : 'MISSED'} (${l.kb.toFixed(1)} KB); ` +
      `drawn ≤ ${TARGETS.afterDclMs} ms after DOMContentLoaded (p95): ${l.after95 <= TARGETS.afterDclMs ? 'met' : 'MISSED'} (${l.after95.toFixed(0)} ms)`);
    return rows;
  } finally {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await embedBench();
