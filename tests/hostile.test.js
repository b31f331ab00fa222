// hostile.test.js: the page and embed.html against URLs anyone can craft, in real Chromium:
// script and HTML injection in every parameter, javascript: URLs, huge numbers, repeated and
// missing parameters. Nothing runs (a dialog trap, a window flag), nothing is logged, no
// Content-Security-Policy violation is reported, the defaults are drawn and a note names what
// was not used. No link freezes the tab because every number a URL can set is capped by its
// chart's range (tested here: every numeric param has a finite range, and every chart draws at
// its largest values; the time each takes is printed, never asserted). Missing,
// corrupt or absent WebAssembly: a message on every chart, no uncaught exception, a live page.
// First, the parser itself in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrowser, pageReady } from './browser.js';
import { serve } from '../web/tools/serve.js';
import { trackedPage } from './fixtures/track.js';
import { KINDS, parseParams, parseValue, stateQuery, escapeHTML } from '../web/host/chart-host.js';
import { embedSnippets, toCSV } from '../web/host/export.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = join(ROOT, 'tests', 'fixtures');
const DIST_JS = join(ROOT, 'dist', 'posenc.js');
const charts = Object.fromEntries(await Promise.all(KINDS.map(async (k) => [k, (await import(`../web/charts/${k}.js`)).default])));
const defaults = (kind) => Object.fromEntries(charts[kind].params.map((p) => [p.name, p.value]));

// Each one is malformed for every kind of param (number, choice, flag).
const PAYLOADS = [
  '<script>window.__pwned="script"</script>',
  '"><img src=x onerror="window.__pwned=\'img\'">',
  'javascript:window.__pwned="js-url"',
  "';window.__pwned='quote';//",
  '${window.__pwned="template"}',
  '<svg/onload=window.__pwned="svg">',
  '%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E',
  '\u2028<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>">',
  'data:text/html,<script>window.__pwned="data"</script>',
  '</textarea><script>window.__pwned="textarea"</script>',
];

/** Installed in every frame before any script: dialogs and the flag report a script that ran. */
function trap() {
  window.__pwned = 0;
  for (const k of ['alert', 'confirm', 'prompt', 'print', 'open']) window[k] = () => { window.__pwned = `called ${k}`; };
}

let b, fixtures;
before(async () => {
  if (!existsSync(DIST_JS)) execFileSync('node', ['web/tools/bundle.js'], { cwd: ROOT, stdio: 'inherit' });
  b = await startBrowser();
  fixtures = await serve({ port: 0, root: FIXTURES });
});
after(async () => {
  await b?.close();
  await fixtures?.close();
});

async function hostilePage(opts) {
  const t = await trackedPage(b.browser, opts);
  await t.context.addInitScript(trap);
  return t;
}

/** What a hostile load left behind: the flag, and elements no page of posenc ever makes (its one svg is the primer's diagram). */
const aftermath = (page) => page.evaluate(() => ({
  pwned: window.__pwned,
  foreign: document.querySelectorAll('img, iframe, svg:not(.pipeline), object, embed, script:not([src])').length,
}));

test('parseParams: whitelist, clamping, steps, repeats; never throws, never pollutes', () => {
  const p = charts['rope-decay'].params;
  const r = parseParams(p, [['dim', '255'], ['maxDist', '1e9'], ['base', '-3'], ['scale', 'LOG'], ['bound', 'off'],
    ['__proto__', '1'], ['constructor', 'x'], ['max-dist', '5'], ['chart', 'x'], ['theta', '']]);
  assert.equal(r.values.dim, 256, 'dim snapped to its step of 2');
  assert.equal(r.values.base, 1, 'base clamped to its min');
  assert.equal(r.values.bound, false);
  assert.equal('maxDist' in r.values, false, 'maxDist given twice (maxDist, max-dist): default');
  assert.equal('scale' in r.values, false, 'options match exactly');
  assert.equal(Object.getPrototypeOf(r.values), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.ok(r.notes.some((n) => n.includes('__proto__')) && r.notes.some((n) => n.includes('constructor')));
  assert.ok(r.notes.some((n) => /given more than once/.test(n)));
  for (const bad of ['1e309', 'NaN', 'Infinity', '0x10', '1_0', '１２', ' ', '', '9'.repeat(80), '1e5.5', '--1']) {
    assert.ok(!('value' in parseValue(p[2], bad)), `dim = ${JSON.stringify(bad)} is malformed`);
  }
  assert.deepEqual(parseValue(p[2], ' 64 '), { value: 64 });
  assert.deepEqual(parseParams(p, { [Symbol.iterator]: () => { throw new Error('boom'); } }).values, {});
  const many = parseParams(p, Array.from({ length: 500 }, (_, i) => [`x${i}`, '1']));
  assert.ok(many.notes.length <= 65);
});

test('snippets and CSV escape what they carry', () => {
  const chart = { kind: 'k"<', title: '</title><script>x</script>', params: [{ name: 'o', type: 'select', options: ['a"<b>'], value: 'a"<b>' }] };
  const html = embedSnippets({ chart, values: {}, embedUrl: 'http://h/embed.html', scriptUrl: 'http://h/"><script>/posenc.js' });
  assert.ok(!/<script>x|<b>|"<|"><script>\//.test(html), html);
  assert.equal(escapeHTML(`<a href="x" onclick='y'>&`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;');
  assert.match(stateQuery('rope-decay', charts['rope-decay'].params, { dim: 64 }), /^chart=rope-decay&theta=/);
  const csv = toCSV({ kind: 'k', title: 't\nu', params: [] }, {}, { columns: ['a', 'b,c'], rows: [[-1.5, '=HYPERLINK("x")'], [null, 'ok']] });
  assert.equal(csv, '# posenc chart "k": t u\r\na,"b,c"\r\n-1.5,"\'=HYPERLINK(""x"")"\r\n,ok\r\n');
});

test('the pages of these tests reach no other host, and their recording names each ask: a fetch and an image refused, a request a route answers not', async () => {
  // what every test's problems.external rests on (a page of no policy, which would let them go)
  const body = '<!doctype html><title>out</title><link rel="icon" href="data:,">';
  const opened = await b.open('out.html', { pages: { 'out.html': body } });
  const tracked = await trackedPage(b.browser);
  await tracked.page.route(`${b.url}out.html`, (r) => r.fulfill({ contentType: 'text/html', body }));
  await tracked.page.goto(`${b.url}out.html`);
  for (const { page, problems } of [opened, tracked]) {
    await page.route('https://answered.example/**', (r) => r.fulfill({ status: 200, body: 'ok' }));
    const got = await page.evaluate(async () => {
      const img = Object.assign(new Image(), { src: 'https://img.example/a.png' });
      const shown = await new Promise((done) => ((img.onload = () => done('shown')), (img.onerror = () => done('refused'))));
      const asked = await Promise.all(['https://fetch.example/x', 'https://answered.example/y'].map((u) => fetch(u, { mode: 'no-cors' }).then(() => 'answered', () => 'refused')));
      return [shown, ...asked];
    });
    assert.deepEqual(got, ['refused', 'refused', 'answered']);
    assert.deepEqual(problems.external.map((u) => new URL(u).host).sort(), ['fetch.example', 'img.example']);
  }
  await opened.context.close();
  await tracked.context.close();
});

test('hostile URLs against the page: nothing runs, defaults are drawn, a note says what was ignored', async () => {
  const { page, context, problems, csp } = await hostilePage();
  const p = charts['rope-decay'].params;
  const cases = [
    {
      name: 'injection in every parameter of rope-decay',
      query: `chart=rope-decay&${p.map((x, i) => `${x.name}=${encodeURIComponent(PAYLOADS[i % PAYLOADS.length])}`).join('&')}` +
        `&${encodeURIComponent(PAYLOADS[1])}=1#decay`,
      expect: defaults('rope-decay'), notes: p.length + 1, shown: PAYLOADS[0].slice(0, 40),
    },
    {
      name: 'injection and javascript: in the chart name and the page\'s own parameters',
      query: `chart=${encodeURIComponent(PAYLOADS[0])}&dim=5&lang=${encodeURIComponent(PAYLOADS[2])}&theme=${encodeURIComponent(PAYLOADS[5])}` +
        `#${encodeURIComponent(PAYLOADS[1])}`,
      expect: defaults('rope-decay'), notes: 0, pageNote: /is not on this page/,
    },
    {
      name: 'huge, negative, repeated and missing values',
      query: 'chart=rope-decay&dim=1e308&dim=7&maxDist=99999999999999999999&base=-1e300&bound&scale=&preset=free&theta&=x&%zz=1',
      expect: { ...defaults('rope-decay'), maxDist: 100000, base: 1, bound: true, preset: 'free' }, notes: 8,
    },
  ];
  for (const c of cases) {
    await page.goto(`${b.url}index.html?${c.query}`);
    await pageReady(page);
    const r = await page.evaluate(() => {
      const el = document.querySelector('[data-chart="rope-decay"]');
      return {
        params: window.posencPage.charts.get('rope-decay').params(),
        notes: [...el.querySelectorAll('.posenc-note li')].map((li) => li.textContent),
        noteVisible: !!el.querySelector('.posenc-note')?.getClientRects().length,
        pageNote: document.getElementById('page-notes')?.textContent ?? '',
        mounted: window.posencPage.charts.size,
      };
    });
    assert.deepEqual(r.params, c.expect, c.name);
    assert.equal(r.notes.length, c.notes, `${c.name}: ${r.notes.join(' | ')}`);
    if (c.notes) assert.ok(r.noteVisible, `${c.name}: the note shows`);
    if (c.pageNote) assert.match(r.pageNote, c.pageNote);
    if (c.shown) assert.ok(r.notes[0].includes(c.shown), `the payload is shown as text: ${r.notes[0]}`);
    assert.ok(r.mounted >= 20, `${c.name}: every chart still mounted`);
    assert.deepEqual(await aftermath(page), { pwned: 0, foreign: 0 }, c.name);
  }
  assert.deepEqual(problems, { console: [], pageErrors: [], dialogs: [], failed: [], external: [] });
  assert.deepEqual(await csp(), []);
  await context.close();
});

test('every payload in every parameter of every chart is refused by the parser', () => {
  for (const kind of KINDS) {
    for (const p of charts[kind].params) {
      for (const payload of PAYLOADS) {
        const r = parseParams(charts[kind].params, [[p.name, payload]]);
        assert.deepEqual(r.values, {}, `${kind}.${p.name} = ${payload}`);
        assert.equal(r.notes.length, 1);
      }
    }
  }
});

// The charts whose modules build HTML tables or text from their values, and a few others.
const EMBED_KINDS = ['rope-decay', 'order', 'exact-table', 'kv-cache', 'rotate-half', 'convention-lab', 'scaling-variants', 'sin-heatmap'];

test('the caps: every number a URL or attribute can set is bounded by its chart, and huge values are clamped to the bound', () => {
  for (const [kind, chart] of Object.entries(charts)) {
    for (const p of chart.params.filter((q) => q.type === 'int' || q.type === 'number')) {
      assert.ok(Number.isFinite(p.min) && Number.isFinite(p.max) && p.min <= p.max, `${kind}.${p.name} has a finite range`);
      assert.equal(parseValue(p, '1e300').value, p.max, `${kind}.${p.name}: 1e300 is clamped to ${p.max}`);
      assert.equal(parseValue(p, '-1e300').value, p.min, `${kind}.${p.name}: -1e300 is clamped to ${p.min}`);
    }
  }
});

test('hostile URLs against embed.html: injection in every parameter, bad chart names', async () => {
  const { page, context, problems, csp } = await hostilePage();
  let k = 0;
  for (const kind of EMBED_KINDS) {
    const q = [`chart=${kind}`, `controls=${encodeURIComponent(PAYLOADS[k % PAYLOADS.length])}`];
    for (const p of charts[kind].params) q.push(`${p.name}=${encodeURIComponent(PAYLOADS[k++ % PAYLOADS.length])}`);
    await page.goto(`${b.url}embed.html?${q.join('&')}`);
    const r = await page.evaluate(async () => {
      await window.posencEmbed.ready;
      return {
        params: window.posencEmbed.host?.params(),
        notes: [...document.querySelectorAll('.posenc-note li')].map((li) => li.textContent),
        controls: !document.querySelector('.controls:not(.phone-main)').hidden,
      };
    });
    assert.deepEqual(r.params, defaults(kind), kind);
    assert.equal(r.notes.length, Math.min(12, charts[kind].params.length + 1), `${kind}: one note per parameter and controls`);
    assert.ok(r.controls, 'a malformed controls= keeps the controls');
    assert.deepEqual(await aftermath(page), { pwned: 0, foreign: 0 }, kind);
  }
  for (const [query, note] of [['', /No chart was named/], ['chart=rope-decay&chart=order', /more than once/],
    [`chart=${encodeURIComponent('javascript:alert(1)')}`, /There is no chart/], ['chart=../../etc/passwd', /There is no chart/]]) {
    await page.goto(`${b.url}embed.html?${query}`);
    const r = await page.evaluate(async () => (await window.posencEmbed.ready, {
      kind: window.posencEmbed.kind, note: document.querySelector('.posenc-note')?.textContent ?? '',
    }));
    assert.equal(r.kind, 'rope-decay', query);
    assert.match(r.note, note, query);
    assert.deepEqual(await aftermath(page), { pwned: 0, foreign: 0 });
  }
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.dialogs, []);
  assert.deepEqual(problems.external, []);
  assert.deepEqual(await csp(), []);
  await context.close();
});

test('under the Content-Security-Policy: the page and its buttons, embed.html; and every chart draws at its largest sizes', async (t) => {
  const { page, context, problems, csp } = await hostilePage();
  await page.goto(`${b.url}index.html`);
  await pageReady(page);
  for (const kind of ['rope-decay', 'order', 'sin-heatmap']) {
    for (const action of ['link', 'embed', 'csv', 'png', 'svg']) {
      const btn = page.locator(`[data-chart="${kind}"] .posenc-toolbar button[data-action="${action}"]`);
      if (!(await btn.count())) continue;
      if (['csv', 'png', 'svg'].includes(action)) await Promise.all([page.waitForEvent('download'), btn.click()]);
      else await btn.click();
    }
  }
  // Every chart at the largest values its params allow (what a URL can ask for at most), with
  // each of its choices: one redraw each, after a frame (so one chart's leftovers, layout or
  // garbage, are not counted against the next).
  const times = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    const out = [];
    for (const [kind, host] of window.posencPage.charts) {
      const choices = host.controls.filter((c) => c.param.type === 'select' || c.param.type === 'bool');
      const cases = [{}, ...choices.flatMap((c) => (c.param.type === 'bool' ? [true, false] : c.param.options)
        .filter((v) => v !== c.param.value).map((v) => ({ [c.param.name]: v })))];
      let worst = { ms: -1 }, failed = 0;
      for (const values of cases) {
        // the controls straight to their max (host.set would also queue a redraw for the next frame)
        for (const c of host.controls) {
          if (c.param.type === 'int' || c.param.type === 'number') c.write(c.param.max);
          else c.write(c.param.name in values ? values[c.param.name] : c.param.value);
        }
        await frame();
        const t0 = performance.now();
        const ok = host.update() !== null;
        const ms = performance.now() - t0;
        if (!ok) failed++;
        if (ms > worst.ms) worst = { ms, values };
      }
      for (const c of host.controls) c.write(c.param.value);
      host.update();
      out.push({ kind, ms: worst.ms, with: JSON.stringify(worst.values), cases: cases.length, failed });
    }
    return out;
  });
  for (const { kind, ms, with: values, cases, failed } of times) {
    t.diagnostic(`${kind} at its largest sizes: ${ms.toFixed(0)} ms (slowest of ${cases}${values === '{}' ? '' : `, with ${values}`})` +
      `${failed ? ` (${failed} could not draw: message shown)` : ''}`);
    assert.ok(ms >= 0, `${kind} drew at its largest sizes (${values})`);
  }
  await page.goto(`${b.url}embed.html?chart=sin-heatmap&toolbar=1`);
  await page.evaluate(() => window.posencEmbed.ready);
  for (const action of ['csv', 'png']) {
    await Promise.all([page.waitForEvent('download'), page.click(`button[data-action="${action}"]`)]);
  }
  assert.deepEqual(await csp(), [], 'no securitypolicyviolation');
  assert.deepEqual(problems.console.filter((m) => /Content.Security.Policy|Refused/i.test(m)), []);
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test('kernels served with another type than application/wasm are compiled from their bytes', async () => {
  const { page, context, problems } = await hostilePage();
  let served = 0;
  await page.route('**/*.wasm', async (r) => {
    const res = await r.fetch();
    served++;
    return r.fulfill({ response: res, headers: { ...res.headers(), 'content-type': 'application/octet-stream' } });
  });
  await page.goto(`${b.url}embed.html?chart=rope-decay`);
  const r = await page.evaluate(async () => (await window.posencEmbed.ready, {
    rows: window.posencEmbed.host?.data?.rows?.length ?? 0,
    error: document.querySelector('.posenc-error')?.textContent ?? '',
  }));
  assert.ok(served > 0, 'the kernels went through the route');
  assert.equal(r.error, '');
  assert.ok(r.rows > 100, `${r.rows} rows drawn`);
  assert.deepEqual(problems.pageErrors, []);
  await context.close();
});

test('missing, corrupt or absent WebAssembly: a message per chart, nothing uncaught, the page stays usable', async () => {
  const cases = [
    // a file the server does not have is the site's to fix, not the reader's browser
    { name: 'wasm 404', route: (r) => r.fulfill({ status: 404, body: 'not found' }), says: /could not be fetched \(posenc: cannot load \S+\.wasm: HTTP 404\): the site that serves this page is missing it/ },
    { name: 'corrupt wasm', route: (r) => r.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from('\0asm\x01\0\0\0garbage bytes') }), says: /WebAssembly/ },
    { name: 'no WebAssembly', init: () => { delete globalThis.WebAssembly; }, says: /WebAssembly, which could not be loaded/ },
  ];
  for (const c of cases) {
    const { page, context, problems } = await hostilePage();
    if (c.route) await page.route('**/*.wasm', c.route);
    if (c.init) await context.addInitScript(c.init);
    for (const path of ['index.html', 'embed.html?chart=rope-decay']) {
      await page.goto(`${b.url}${path}`);
      await page.evaluate(() => (window.posencPage ?? window.posencEmbed).ready);
      const r = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll('[data-chart], #chart')];
        return { charts: boxes.length, messages: boxes.map((el) => el.querySelector('.posenc-error[role="alert"]')?.textContent ?? '') };
      });
      assert.ok(r.charts > 0);
      assert.equal(r.messages.filter((m) => c.says.test(m)).length, r.charts, `${c.name}, ${path}: every chart says why: ${r.messages[0]}`);
      // still responsive: a contents link works at once
      if (path === 'index.html') {
        await page.click('a[href="#decay"]', { timeout: 2000 });
        assert.equal(await page.evaluate(() => location.hash), '#decay');
      }
    }
    // the element from dist/posenc.js (kernels inlined) says so too when there is no WebAssembly
    if (c.init) {
      await page.route('**/posenc.js', (r) => r.fulfill({ path: DIST_JS, contentType: 'text/javascript' }));
      await page.goto(`${fixtures.url}blog.html`);
      await page.waitForFunction(() => document.getElementById('first').shadowRoot.querySelector('.posenc-error'));
      assert.match(await page.evaluate(() => document.getElementById('first').shadowRoot.querySelector('.posenc-error').textContent), /WebAssembly/);
    }
    assert.deepEqual(problems.pageErrors, [], c.name);
    assert.deepEqual(problems.console.filter((m) => !/status of 404/.test(m)), [], c.name);
    assert.deepEqual(problems.dialogs, []);
    await context.close();
  }
});
