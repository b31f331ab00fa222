// browser-bench.js: `npm run bench:browser`. Drives the page in Debian's Chromium
// (playwright-core) and prints, per chart, how long a redraw takes while a control moves:
// every control is swept across its range at the chart's defaults and again with every
// integer parameter at its maximum (the largest allowed size). Also page load to the first
// chart drawn and to every chart mounted, and a blog post with one light-embedded chart
// (embed-bench.js). Works for whatever charts window.posencPage has mounted. The targets are
// printed beside the figures; a machine shared with other work shows in its load average,
// printed before and after.
//
//   node tests/bench/browser-bench.js [--steps=N] [--loads=N] [--only=KIND] [--budget-ms=MS] [--smoke]
// A chart whose sweep passes --budget-ms (8 s) in one mode stops there: the steps column says how many ran.
//
// Per step: input event -> 'posenc:drawn' on the chart's container. chart-host.js redraws in
// the next animation frame, so "input->drawn" includes the wait for that frame (up to one
// frame, 16.7 ms at 60 Hz); "redraw" is the frame's start to drawn: the work the chart does.
import { loadavg, cpus } from 'node:os';
import { startBrowser, pageReady } from '../browser.js';
import { embedBench, withTimeout, SLOW_LINK, throttle } from './embed-bench.js';
import { serve } from '../../web/tools/serve.js';

const argv = process.argv.slice(2);
const opt = (name, def) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const SMOKE = argv.includes('--smoke');
const STEPS = Number(opt('steps', SMOKE ? 2 : 8)); // values per control sweep
const LOADS = Number(opt('loads', SMOKE ? 1 : 5));
const ONLY = opt('only', null);
const STEP_TIMEOUT_MS = 10000;
const CHART_BUDGET_MS = Number(opt('budget-ms', 8000)); // per chart and mode: a sweep stops past it

/** What the page should do on localhost (ms). */
const TARGETS = { first: 300, mounted: 1000, redraw: 16, redrawLargest: 33 };
/** The charts whose largest settings are named in the targets (unit-circle's position 1000 is among its largest). */
const LARGEST_NAMED = ['sin-heatmap', 'frequency-curves', 'unit-circle'];
// (--smoke runs the slow-link loads over a fast one: the same code, in a fraction of the time)
const LINK = SMOKE ? { downMbps: 100, upMbps: 100, rttMs: 1 } : SLOW_LINK;
const load = () => `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`;

const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');

/**
 * Page load: navigation start to the first 'posenc:drawn', to every chart mounted (main.js's
 * ready, and section 22's charts drawn from their model), and to every chart drawn (the lab's
 * charts drawn from their results, and those far from the view, which are drawn when the page is
 * idle); also where the time goes: the document parsed (domInteractive), DOMContentLoaded, the
 * last of the page's modules (its bundle's entries and their chunks) received, and the requests
 * made until every chart is mounted.
 * Each moment is noted by the page itself (an init script) and handed over through a binding when
 * all are known: Playwright's own waits would run its injected script in the page as it loads,
 * tens of milliseconds of the main thread that no reader's page spends.
 */
async function measureLoads(b, keep = null, { url = b.url, loads = LOADS, link = null } = {}) {
  const first = [], all = [], drawn = [], parsed = [], dcl = [], modules = [], requests = [], bytes = [], external = new Set();
  for (let i = 0; i < loads; i++) {
    const context = await b.browser.newContext({ viewport: { width: 1200, height: 900 } });
    let done;
    const noted = new Promise((resolve) => (done = resolve));
    await context.exposeBinding('__benchNoted', (_, moments) => done(moments));
    await context.addInitScript(() => {
      let firstDrawn;
      // capture phase: sees the event on every container although it does not bubble
      document.addEventListener('posenc:drawn', () => (firstDrawn ??= performance.now()), true);
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const haveRows = (sel) => [...document.querySelectorAll(sel)].every((e) => window.posencPage.charts.get(e.dataset.chart)?.data?.rows?.length);
      (async () => {
        while (!window.posencPage?.ready) await frame();
        await window.posencPage.ready;
        while (!haveRows('#real-model [data-chart]')) await frame();
        const mounted = performance.now();
        while (!haveRows('[data-chart^="lab-"], [data-chart="length-lab"]')) await frame();
        await window.posencPage.drawn();
        window.__benchNoted({ first: firstDrawn, mounted, drawn: performance.now() });
      })();
    });
    const page = await context.newPage();
    if (link) await throttle(context, page, link);
    const kept = keep && i === loads - 1;
    if (kept) page.on('pageerror', (e) => keep.problems.push(String(e)));
    // Requests are watched, not intercepted: an intercepted request waits for this process
    // to let it go, a delay no reader has, paid once per module (the page makes none elsewhere).
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.hostname !== '127.0.0.1' && u.protocol !== 'data:') external.add(u.href);
    });
    await page.goto(url, { waitUntil: 'commit' });
    const at = await withTimeout(noted, 60_000, 'the page never had every chart mounted and drawn');
    const r = await page.evaluate(({ mounted, first }) => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource');
      const before = res.filter((e) => e.responseEnd <= first);
      // the page's script: one bundle of its modules (and whatever else of build/page/ came before DOMContentLoaded)
      const upFront = res.filter((e) => e.name.includes('/build/page/') && e.startTime < nav.domContentLoadedEventStart);
      const last = Math.max(0, ...upFront.map((e) => e.responseEnd));
      return { p: nav.domInteractive, d: nav.domContentLoadedEventStart, m: last, n: res.filter((e) => e.startTime <= mounted).length,
        b: nav.transferSize + before.reduce((n, e) => n + e.transferSize, 0) };
    }, at);
    first.push(at.first);
    all.push(at.mounted);
    drawn.push(at.drawn);
    parsed.push(r.p);
    dcl.push(r.d);
    modules.push(r.m);
    requests.push(r.n);
    bytes.push(r.b);
    if (kept) Object.assign(keep, { context, page });
    else await context.close();
  }
  return { first, all, drawn, parsed, dcl, modules, requests, bytes, external: [...external] };
}

/** Runs in the page: sweeps every control of chart `kind`; returns { defaults, largest } timings. */
async function sweepChart(page, kind, steps, timeoutMs, budgetMs) {
  return page.evaluate(async ({ kind, steps, timeoutMs, budgetMs }) => {
    const host = window.posencPage.charts.get(kind);
    // Time spent inside posenc's API (kernels plus their argument checks and copies): wrap the
    // methods of the page's instance's class once.
    if (!window.__posencTime) {
      const proto = Object.getPrototypeOf(window.posencPage.pe);
      const clock = (window.__posencTime = { ms: 0, depth: 0 });
      for (const name of Object.getOwnPropertyNames(proto)) {
        const fn = Object.getOwnPropertyDescriptor(proto, name).value;
        if (name === 'constructor' || typeof fn !== 'function') continue;
        proto[name] = function (...args) {
          const t0 = clock.depth++ ? 0 : performance.now();
          try {
            return fn.apply(this, args);
          } finally {
            if (--clock.depth === 0) clock.ms += performance.now() - t0;
          }
        };
      }
    }
    const clock = window.__posencTime;
    const container = document.querySelector(`[data-kind="${kind}"]`);
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));

    /** Sets input to value, fires 'input', resolves with { total, work } when the chart has drawn. */
    const step = (input, set) =>
      new Promise((resolve) => {
        let t0 = 0, frameStart = 0, api0 = 0, error = null;
        const timer = setTimeout(() => resolve({ timeout: true }), timeoutMs);
        const onError = (e) => (error = String(e.message ?? e));
        window.addEventListener('error', onError, { once: true });
        // registered before the input, so it runs first in the frame that redraws
        requestAnimationFrame(() => ((frameStart = performance.now()), (api0 = clock.ms)));
        container.addEventListener('posenc:drawn', () => {
          const t1 = performance.now(), api = clock.ms - api0;
          clearTimeout(timer);
          window.removeEventListener('error', onError);
          // painted: until the next frame starts, which waits for this one's paint (a canvas's
          // drawing is rasterized then, not while the chart's JS runs)
          requestAnimationFrame(() => resolve({ total: t1 - t0, work: t1 - frameStart, painted: performance.now() - frameStart, api, error }));
        }, { once: true });
        set(input);
        // a chart that draws before the next frame (at once, or as its data arrives) is timed from the event
        t0 = frameStart = performance.now();
        api0 = clock.ms;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });

    /** The values a sweep visits for one control. */
    const values = (p) => {
      if (p.type === 'int' || p.type === 'number') {
        return Array.from({ length: steps }, (_, i) => p.min + ((p.max - p.min) * (i + 1)) / steps);
      }
      if (p.type === 'select') return Array.from({ length: steps }, (_, i) => p.options[(i + 1) % p.options.length]);
      return Array.from({ length: steps }, (_, i) => i % 2 === 0); // bool
    };
    const setter = (p, v) => (el) => {
      if (p.type === 'bool') el.checked = v !== el.checked ? v : !v;
      else el.value = String(v);
    };

    const sweep = async () => {
      const out = [], t0 = performance.now();
      for (const c of host.controls) {
        const input = c.inputs[0];
        const start = c.param.type === 'bool' ? input.checked : input.value;
        for (const v of values(c.param)) {
          if (performance.now() - t0 > budgetMs) break;
          await frame();
          const r = await step(input, setter(c.param, v));
          // the value the control took (a range input snaps to its step)
          out.push({ control: c.param.name, value: c.param.type === 'bool' ? input.checked : input.value, ...r });
          if (r.timeout) break;
        }
        await step(input, (el) => (c.param.type === 'bool' ? (el.checked = start) : (el.value = start)));
      }
      return out;
    };
    const setAll = async (pick) => {
      for (const c of host.controls) {
        const v = pick(c.param);
        if (v === undefined) continue;
        await frame();
        await step(c.inputs[0], (el) => (el.value = String(v)));
      }
    };

    const defaults = await sweep();
    await setAll((p) => (p.type === 'int' ? p.max : undefined));
    const largest = await sweep();
    await setAll((p) => (p.type === 'int' ? p.value : undefined));
    return { defaults, largest, controls: host.controls.map((c) => c.param.name) };
  }, { kind, steps, timeoutMs, budgetMs });
}

function summary(rows) {
  const ok = rows.filter((r) => !r.timeout);
  const total = ok.map((r) => r.total), work = ok.map((r) => r.work), api = ok.map((r) => r.api), painted = ok.map((r) => r.painted);
  const worst = ok.reduce((w, r) => (r.work > (w?.work ?? -1) ? r : w), null);
  return { n: ok.length, timeouts: rows.length - ok.length, errors: ok.filter((r) => r.error).length,
    t50: pct(total, 50), t95: pct(total, 95), w50: pct(work, 50), w95: pct(work, 95), a50: pct(api, 50), a95: pct(api, 95), p95: pct(painted, 95), worst };
}

const b = await startBrowser();
try {
  // the page the sweeps run on: one of its own, or with --smoke the one its one load measured
  // (one lesson load in all: a load costs seconds of CPU)
  const sweepOn = { problems: [] };
  const loads = await measureLoads(b, SMOKE ? sweepOn : null);
  // the same page on a slow link, served gzipped as a web host serves it
  const gzipped = await serve({ port: 0, gzip: true });
  const slowLoads = await measureLoads(b, null, { url: gzipped.url, loads: SMOKE ? 1 : 3, link: LINK }).finally(() => gzipped.close());
  if (!sweepOn.page) {
    sweepOn.context = await b.browser.newContext({ viewport: { width: 1200, height: 900 } });
    sweepOn.page = await sweepOn.context.newPage();
    sweepOn.page.on('pageerror', (e) => sweepOn.problems.push(String(e)));
    await sweepOn.page.goto(b.url);
    await pageReady(sweepOn.page);
  }
  const { context, page, problems } = sweepOn;
  const info = await page.evaluate(() => ({
    kinds: [...window.posencPage.charts.keys()],
    build: document.getElementById('build-kind')?.textContent,
    ua: navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0],
  }));
  let kinds = info.kinds;
  if (ONLY) kinds = kinds.filter((k) => k.includes(ONLY));
  if (SMOKE) kinds = kinds.slice(0, 1);

  console.log(`(${load()} at the start)`);
  console.log(`posenc browser bench: ${info.ua ?? 'Chromium'} headless on ${cpus()[0]?.model ?? 'an unknown CPU'}, ${info.build ?? '?'} kernels, ${kinds.length} charts, ${STEPS} values per control sweep.`);
  console.log(`Page load (${LOADS} loads, ms from navigation): first chart drawn p50 ${f1(pct(loads.first, 50))} p95 ${f1(pct(loads.first, 95))}; every chart mounted p50 ${f1(pct(loads.all, 50))} p95 ${f1(pct(loads.all, 95))}; every chart drawn (those far from the view when the page is idle) p50 ${f1(pct(loads.drawn, 50))} p95 ${f1(pct(loads.drawn, 95))}.`);
  console.log(`  (p50: the page's script received ${f1(pct(loads.modules, 50))}, document parsed ${f1(pct(loads.parsed, 50))}, DOMContentLoaded ${f1(pct(loads.dcl, 50))}; ${pct(loads.requests, 50)} requests until every chart is mounted)`);
  const slowKB = pct(slowLoads.bytes, 50) / 1024;
  console.log(`  On a phone's slow link (gzip, ${LINK.downMbps} Mbps down, ${LINK.rttMs} ms round trip; ${slowLoads.first.length} loads, p50): first chart drawn ${f1(pct(slowLoads.first, 50))} ms, ` +
    `after ${slowKB.toFixed(0)} KB, which the link alone takes ${f1((slowKB * 1024 * 8) / (LINK.downMbps * 1e3))} ms to bring; every chart mounted ${f1(pct(slowLoads.all, 50))} ms.`);
  if (loads.external.length) console.log(`  the page asked for addresses outside this machine: ${loads.external.join(', ')}`);
  console.log('input->drawn includes the wait for the next animation frame (chart-host.js redraws once per frame);');
  console.log('redraw = that frame\'s start to the chart drawn (the chart\'s own work); posenc = the part of it spent in');
  console.log('posenc\'s API (kernels with their argument checks and copies); the rest is the chart\'s JS and Chart.js;');
  console.log('painted = that frame\'s start to the next frame\'s, which waits for the canvas to be painted. Times in ms.\n');
  const head = ['chart', 'steps', 'defaults: input->drawn p50', 'p95', 'redraw p50', 'p95', 'posenc p95', '| largest: input->drawn p50', 'p95', 'redraw p50', 'p95', 'posenc p95', '| painted p95 defaults', 'largest', '| slowest step (largest)'];
  const w = [22, 6, 27, 6, 11, 6, 11, 27, 6, 11, 6, 11, 21, 8, 0];
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(w[0]) : i === cells.length - 1 ? ` ${c}` : String(c).padStart(w[i]))).join(' ');
  console.log(line(head));
  const results = [];
  for (const kind of kinds) {
    const r = await sweepChart(page, kind, STEPS, STEP_TIMEOUT_MS, CHART_BUDGET_MS);
    const d = summary(r.defaults), l = summary(r.largest);
    results.push({ kind, d, l });
    const worst = l.worst ? `${l.worst.control}=${l.worst.value}: ${f1(l.worst.work)} (posenc ${f1(l.worst.api)})` : '–';
    const note = [d.timeouts + l.timeouts ? `${d.timeouts + l.timeouts} timed out` : '', d.errors + l.errors ? `${d.errors + l.errors} with errors` : ''].filter(Boolean).join(', ');
    console.log(line([kind, d.n + l.n, f1(d.t50), f1(d.t95), f1(d.w50), f1(d.w95), f1(d.a95), `| ${f1(l.t50)}`, f1(l.t95), f1(l.w50), f1(l.w95), f1(l.a95), `| ${f1(d.p95)}`, f1(l.p95), `| ${worst}${note ? ` (${note})` : ''}`]));
  }
  console.log(`\nTargets (${load()}; a busy machine slows every figure):`);
  const mark = (ok) => (ok ? 'HOLDS ' : 'MISSES');
  const fp95 = pct(loads.first, 95), ap95 = pct(loads.all, 95);
  console.log(`  ${mark(fp95 <= TARGETS.first)}  the page's first chart drawn within ${TARGETS.first} ms of navigation (p95 ${f1(fp95)} ms)`);
  console.log(`  ${mark(ap95 <= TARGETS.mounted)}  every chart mounted within ${TARGETS.mounted} ms (p95 ${f1(ap95)} ms)`);
  const slow = results.filter((r) => !(r.d.w95 <= TARGETS.redraw));
  console.log(`  ${mark(!slow.length)}  every chart redraws within ${TARGETS.redraw} ms at its defaults (p95 of redraw over the sweeps)` +
    `${slow.length ? `: over it: ${slow.map((r) => `${r.kind} ${f1(r.d.w95)}`).join(', ')}` : ''}`);
  const slowLargest = results.filter((r) => !(r.l.w95 <= TARGETS.redrawLargest));
  const named = results.filter((r) => LARGEST_NAMED.includes(r.kind)).map((r) => `${r.kind} ${f1(r.l.w95)}`);
  console.log(`  ${mark(!slowLargest.length)}  every chart redraws within ${TARGETS.redrawLargest} ms at its largest settings (p95; ${named.join(', ') || 'named charts not run'})` +
    `${slowLargest.length ? `: over it: ${slowLargest.map((r) => `${r.kind} ${f1(r.l.w95)}`).join(', ')}` : ''}`);
  if (problems.length) console.log(`\npage errors during the sweeps: ${problems.slice(0, 5).join(' | ')}`);
  await context.close();
} finally {
  await b.close();
}
if (!ONLY) await embedBench({ loads: SMOKE ? 1 : LOADS, link: LINK });
