// light-embed.test.js: the light embed (dist/module/posenc.js, an ES module) in a blog post of its
// own, served with gzip like a web host: a post loads the code of the charts it shows and no
// other, the kernels without the lab (built for size, and bit for bit the tested builds' results)
// unless a lab chart is on it, the API's tables and attention and its model families only for the
// charts that call them, one
// Chart.js for all of its charts (lines only unless a chart draws bars or fills), and every kind
// draws through it. Also the Embed button's snippet, which uses it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../web/tools/serve.js';
import { KINDS } from '../web/host/kinds.js';

const ROOT = new URL('..', import.meta.url).pathname;
let dir, server, browser, chunks;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posenc-light-'));
  await cp(join(ROOT, 'dist', 'module'), join(dir, 'module'), { recursive: true });
  server = await serve({ port: 0, root: dir, gzip: true });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  // which chunk holds what: the lab's results, Chart.js, each chart's own code
  chunks = {};
  // (a stretch of the results' first loss curve, which only the results hold)
  const results = JSON.parse(await readFile(join(ROOT, 'web', 'lab', 'results.json'), 'utf8')).runs[0].loss.base64.slice(0, 40);
  for (const f of await readdir(join(dir, 'module', 'chunks'))) {
    const text = await readFile(join(dir, 'module', 'chunks', f), 'utf8');
    if (text.includes(results)) chunks.results = f; // web/lab/results.json
    if (/^chartjs-lines-/.test(f)) chunks.lines = f; // Chart.js for line and scatter charts
    if (/^chartjs-all-/.test(f)) chunks.all = f; // and with bar charts and area fills
    if (/^toolbar-/.test(f)) chunks.toolbar = f; // the toolbar, loaded for a chart that shows one
    if (!/^(toolbar|svg|animate-panel|model-positions)-/.test(f) && text.includes('createObjectURL')) chunks.exports = f; // export.js
    // Chart.js is compiled whole as it arrives (V8's hint, first in the file); the rest lazily
    if (/^chartjs-/.test(f)) assert.ok(text.startsWith('//# allFunctionsCalledOnLoad\n'), `${f} starts with the compile hint`);
    else assert.ok(!text.includes('allFunctionsCalledOnLoad'), `${f} is compiled as called`);
  }
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens a post with these <posenc-chart> elements; resolves once each has drawn. */
async function post(name, body, viewport = { width: 1000, height: 900 }) {
  await writeFile(join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<script type="module" src="module/posenc.js"></script></head><body><h1>A post</h1>${body}</body></html>`);
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname.split('/').pop()));
  await page.goto(`${server.url}${name}.html`);
  // the element is defined once the script has loaded its code, which may come after the page's load event
  await page.evaluate(async () => {
    await customElements.whenDefined('posenc-chart');
    await Promise.all([...document.querySelectorAll('posenc-chart')].map((el) => el.ready));
  });
  return { page, context, problems, requested };
}

test('a post with two non-lab charts: their code, the kernels without the lab, Chart.js once, no lab results', async () => {
  assert.ok(chunks.results, 'a chunk holds the lab results');
  assert.ok(chunks.lines && chunks.all, 'chunks hold the two builds of Chart.js');
  const { page, context, problems, requested } = await post('two', '<posenc-chart kind="rope-decay"></posenc-chart><posenc-chart kind="unit-circle"></posenc-chart>');
  const drawn = await page.evaluate(() => [...document.querySelectorAll('posenc-chart')].map((el) => el.data?.rows?.length ?? 0));
  assert.ok(drawn.every((n) => n > 0), `rows drawn: ${drawn}`);
  const chartChunks = requested.filter((f) => KINDS.some((k) => f.startsWith(`${k}-`)));
  assert.deepEqual(chartChunks.map((f) => f.replace(/-[A-Z0-9]+\.js$/, '')).sort(), ['rope-decay', 'unit-circle']);
  assert.ok(requested.includes('posenc-core.wasm'), `the kernels without the lab: ${requested}`);
  assert.ok(!requested.includes('posenc.wasm'), 'not the whole build');
  assert.equal(requested.filter((f) => f === chunks.lines).length, 1, 'Chart.js once');
  assert.ok(!requested.includes(chunks.all), 'the Chart.js without bar charts and fills');
  assert.ok(!requested.includes(chunks.results), 'no lab results for a post without lab charts');
  assert.ok(!requested.some((f) => /^(svg|animate|gifenc)/.test(f)), 'no export code until asked for');
  assert.ok(!requested.some((f) => f.startsWith('families-')), `no model families (configs, GGUF, weights, the lab) for these charts: ${requested}`);
  assert.ok(requested.some((f) => f.startsWith('tables-attention-')), `the tables for the unit circle's sinusoidal table: ${requested}`);
  // the charts in view had every chunk of their code and their kernels asked for at once, and the
  // kernels fetched once (the element's set-up took the preloaded response)
  const preloaded = await page.evaluate(() => [...document.querySelectorAll('link[rel="modulepreload"], link[rel="preload"]')].map((l) => l.href.split('/').pop()));
  assert.ok(preloaded.some((f) => f.startsWith('rope-decay-')) && preloaded.some((f) => f.startsWith('unit-circle-')) &&
    preloaded.includes('posenc-core.wasm'), `preloaded: ${preloaded}`);
  assert.equal(requested.filter((f) => f === 'posenc-core.wasm').length, 1, 'the kernels fetched once');
  // the gzip web host and the script did their part: the bytes before the charts drew stay small
  const kb = await page.evaluate(() => performance.getEntriesByType('resource').reduce((n, r) => n + r.transferSize, 0) / 1024);
  assert.ok(kb < 260, `${kb.toFixed(0)} KB transferred`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a chart without a toolbar loads none of its code; with toolbar, from the start or set later, it loads and shows it', async () => {
  assert.ok(chunks.toolbar && chunks.exports, 'the toolbar and the exports are chunks of their own');
  const toolbarOf = (page, id) => page.evaluate((id) => {
    const root = document.getElementById(id).shadowRoot;
    const bar = root.querySelector('.posenc-toolbar');
    // the toolbar sits between the chart and its table
    const order = [...root.querySelector('.chart').children].map((el) => el.tagName === 'FIGURE' ? 'figure' : el.classList[0]);
    // the table's toggle: in the toolbar when there is one, else over its table
    const toggleIn = root.querySelector('.data-table-toggle').parentElement.classList[0];
    return { buttons: bar ? [...bar.querySelectorAll('button')].map((b) => b.dataset.action) : null, label: bar?.getAttribute('aria-label'), order, toggleIn };
  }, id);
  const bare = await post('bare', '<posenc-chart id="a" kind="rope-decay"></posenc-chart>');
  assert.ok(!bare.requested.some((f) => f === chunks.toolbar || f === chunks.exports), `no toolbar or export code: ${bare.requested}`);
  assert.ok(!bare.requested.some((f) => /^(tables-attention|families)-/.test(f)), `rope-decay calls no tables, attention or model families: ${bare.requested}`);
  const none = await toolbarOf(bare.page, 'a');
  assert.equal(none.buttons, null, 'no toolbar');
  assert.deepEqual(none.order, ['posenc-notes', 'controls', 'figure', 'data-table']);
  assert.equal(none.toggleIn, 'data-table');
  // the attribute set later: the chart is drawn again with its toolbar, its code loaded then
  await bare.page.evaluate(async () => {
    const el = document.getElementById('a');
    el.toolbar = true;
    await new Promise((r) => setTimeout(r, 0)); // (the element sees the attribute after this task)
    await el.ready;
  });
  const later = await toolbarOf(bare.page, 'a');
  assert.deepEqual(later.buttons, ['png', 'svg', 'animate', 'csv', 'table']);
  assert.deepEqual(later.order, ['posenc-notes', 'controls', 'figure', 'posenc-toolbar', 'posenc-share', 'data-table']);
  assert.equal(later.toggleIn, 'posenc-toolbar');
  assert.ok(bare.requested.includes(chunks.toolbar) && bare.requested.includes(chunks.exports), `the toolbar's code: ${bare.requested}`);
  assert.deepEqual(bare.problems, []);
  await bare.context.close();

  const withBar = await post('toolbar', '<posenc-chart id="b" kind="rope-decay" toolbar lang="zh"></posenc-chart>');
  const shown = await toolbarOf(withBar.page, 'b');
  assert.deepEqual(shown.buttons, ['png', 'svg', 'animate', 'csv', 'table']);
  assert.deepEqual(shown.order, later.order);
  // its text follows the language as the rest of the chart's
  const zhLabel = shown.label;
  await withBar.page.evaluate(() => document.getElementById('b').setAttribute('lang', 'en'));
  await withBar.page.waitForFunction((zh) => document.getElementById('b').shadowRoot.querySelector('.posenc-toolbar').getAttribute('aria-label') !== zh, zhLabel);
  assert.deepEqual(withBar.problems, []);
  await withBar.context.close();
});

test('a chart the script found near the screen starts at once; one far below waits to come into view', async () => {
  await writeFile(join(dir, 'far.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>far</title>
<link rel="icon" href="data:,">
<script type="module" src="module/posenc.js"></script></head><body><h1>A post</h1>
<posenc-chart kind="rope-decay"></posenc-chart><div style="height: 6000px"></div><posenc-chart kind="unit-circle"></posenc-chart></body></html>`);
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  // an observer that never reports: what starts, starts without one
  await page.addInitScript(() => {
    window.IntersectionObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  });
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname.split('/').pop()));
  await page.goto(`${server.url}far.html`);
  await page.waitForFunction(() => document.querySelector('posenc-chart')?.data?.rows?.length > 0);
  await page.waitForTimeout(300);
  const far = await page.evaluate(() => document.querySelectorAll('posenc-chart')[1].data);
  assert.equal(far, null, 'the far chart has not drawn');
  assert.ok(!requested.some((f) => f.startsWith('unit-circle-')), `the far chart's code not asked for: ${requested}`);
  await context.close();
});

test('a chart in a box not shown (a tab behind another): said drawn when the page is idle (nothing to draw), drawn when shown, and said so then', async () => {
  const { page, context, problems } = await post('unshown', `<div id="tab" hidden><posenc-chart id="a" kind="rope-decay"></posenc-chart></div>`);
  const r = await page.evaluate(async () => {
    const el = document.getElementById('a'), tab = document.getElementById('tab');
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const widths = [];
    el.addEventListener('posenc:drawn', () => widths.push(el.shadowRoot.querySelector('canvas').width));
    // the first event, when the page is idle, may have come before this listener
    await new Promise((resolve) => requestIdleCallback(resolve));
    await frames();
    const hidden = { width: el.shadowRoot.querySelector('canvas').width, events: widths.length };
    const shown = new Promise((resolve) => el.addEventListener('posenc:drawn', resolve, { once: true }));
    tab.hidden = false;
    await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, 5000))]);
    const canvas = el.shadowRoot.querySelector('canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let ink = 0;
    for (let i = 3; i < pixels.length; i += 4) ink += pixels[i] > 0;
    // hidden and shown again: drawn already, nothing more to say
    tab.hidden = true;
    await frames();
    tab.hidden = false;
    await frames();
    return { hidden, after: widths.slice(hidden.events), ink };
  });
  assert.equal(r.hidden.width, 0, 'nothing drawn while not shown');
  assert.equal(r.after.length, 1, `one posenc:drawn when shown, none when shown again: ${r.after}`);
  assert.ok(r.after[0] > 200, `drawn ${r.after[0]} px wide when shown`);
  assert.ok(r.ink > 2000, `${r.ink} pixels inked`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a lab chart loads the whole build and the lab results; a later chart of another kind shares them', async () => {
  const { page, context, problems, requested } = await post('lab', '<posenc-chart kind="lab-learned"></posenc-chart>');
  // (the results come after the chart has mounted)
  await page.waitForFunction(() => document.querySelector('posenc-chart').data?.rows?.length);
  assert.ok(requested.includes(chunks.results), 'the lab results');
  assert.ok(requested.includes('posenc.wasm'), 'the whole build (with the lab)');
  const before = requested.length;
  await page.evaluate(async () => {
    const el = document.createElement('posenc-chart');
    el.setAttribute('kind', 'lab-order');
    document.body.append(el);
    await el.ready;
  });
  const more = requested.slice(before);
  assert.ok(more.some((f) => f.startsWith('lab-order-')), `lab-order's code: ${more}`);
  assert.ok(requested.includes(chunks.all) && !requested.includes(chunks.lines), `the Chart.js with fills: ${requested}`);
  assert.ok(!more.includes('posenc.wasm') && !more.includes(chunks.all) && !more.includes(chunks.results), `loaded again: ${more}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a chart that reads a model gets the model families on the kernels the other charts share', async () => {
  const { page, context, problems, requested } = await post('model', '<posenc-chart kind="rope-decay"></posenc-chart><posenc-chart kind="model-misreads"></posenc-chart>');
  assert.ok(requested.some((f) => f.startsWith('families-')), `the model families: ${requested}`);
  assert.equal(requested.filter((f) => f === 'posenc-core.wasm').length, 1, 'one kernels build for both');
  assert.ok(!requested.includes('posenc.wasm') && !requested.includes(chunks.results), `nothing of the lab: ${requested}`);
  const rows = await page.evaluate(() => [...document.querySelectorAll('posenc-chart')].map((el) => el.data?.rows?.length ?? 0));
  assert.ok(rows.every((n) => n > 0), `rows drawn: ${rows}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a post with a bar chart and a line chart loads one Chart.js, the one with bar charts', async () => {
  const { page, context, problems, requested } = await post('bars', '<posenc-chart kind="rope-decay"></posenc-chart><posenc-chart kind="kv-cache"></posenc-chart>');
  assert.equal(requested.filter((f) => f === chunks.all).length, 1, `Chart.js with bar charts: ${requested}`);
  assert.ok(!requested.includes(chunks.lines), `not the other one: ${requested}`);
  const rows = await page.evaluate(() => [...document.querySelectorAll('posenc-chart')].map((el) => el.data?.rows?.length ?? 0));
  assert.ok(rows.every((n) => n > 0), `rows drawn: ${rows}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the kernels loaded without the tables or the model families say so, naming the method, and take them later', async () => {
  const { loadInstance, addFamilies, FAMILY_METHODS, TABLE_METHODS } = await import('../web/lib/instance.js');
  const families = await import('../web/lib/families.js');
  const tables = await import('../web/lib/tables-attention.js');
  const { loadPosenc } = await import('../web/lib/posenc.js');
  const pe = await loadInstance({ source: await readFile(join(ROOT, 'dist', 'module', 'posenc-core.wasm')) }, null);
  const full = await loadPosenc();
  // every method of the API is there either way; the others throw until given their module
  assert.deepEqual(Object.getOwnPropertyNames(Object.getPrototypeOf(pe)), Object.getOwnPropertyNames(Object.getPrototypeOf(full)));
  const missing = (m) => (e) => e instanceof Error && e.message.includes(`posenc: ${m} is not loaded`);
  for (const m of [...FAMILY_METHODS, ...TABLE_METHODS]) assert.throws(() => pe[m]({}), missing(m), m);
  assert.deepEqual([...pe.ropeDecay([0, 1, 7], { dim: 8 })], [...full.ropeDecay([0, 1, 7], { dim: 8 })]);
  // the tables alone: theirs work, the model families' still say so
  addFamilies(pe, tables);
  assert.deepEqual([...pe.sinusoidal(3, 8)], [...full.sinusoidal(3, 8)]);
  assert.deepEqual([...pe.rowDots([1, 2, 3, 4], [5, 6, 7, 8], 2)], [...full.rowDots([1, 2, 3, 4], [5, 6, 7, 8], 2)]);
  for (const m of FAMILY_METHODS) assert.throws(() => pe[m]({}), missing(m), m);
  addFamilies(pe, families);
  const config = { model_type: 'llama', head_dim: 64, rope_theta: 500000, max_position_embeddings: 8192 };
  assert.deepEqual(JSON.parse(JSON.stringify(pe.ropeConfig(config))), JSON.parse(JSON.stringify(full.ropeConfig(config))));
  assert.deepEqual([...pe.sinusoidal(3, 8)], [...full.sinusoidal(3, 8)]);
});

test('the light embed\'s kernels (built for size) compute bit for bit what the tested builds compute', async () => {
  // build.sh optimises posenc-core*.wasm for size (-Oz) and the tested builds for speed (-O3): the
  // same C without fast-math, so the same IEEE operations in the same order. Every method they
  // share, at sizes that take the SIMD loops and their remainders, on both builds.
  const { loadInstance, FAMILY_METHODS } = await import('../web/lib/instance.js');
  const tables = await import('../web/lib/tables-attention.js');
  const wasm = (f) => readFile(join(ROOT, 'dist', 'module', f));
  let seed = 1;
  const rand = (n, scale = 1) => Float32Array.from({ length: n }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return (seed / 2 ** 30 - 1) * scale;
  });
  const dist = [...Array.from({ length: 300 }, (_, i) => i), 777, 4096, 65537, 1e6];
  const yarn = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 };
  const calls = {
    sinusoidal: (pe) => ['interleaved', 'concat', 'tensor2tensor'].flatMap((layout) => [pe.sinusoidal(67, 130, { layout, start: 3 }),
      ...(layout === 'tensor2tensor' ? [] : [pe.sinusoidal(33, 66, { layout, precision: 'f64', base: 500000 })])]),
    binary: (pe) => [pe.binary(33, 7)],
    shiftSinusoidal: (pe) => [pe.shiftSinusoidal(pe.sinusoidal(9, 64), 5, { dim: 64 }), pe.shiftSinusoidal(pe.sinusoidal(9, 64, { layout: 'concat' }), 300, { dim: 64, layout: 'concat' })],
    ropeInvFreq: (pe) => [pe.ropeInvFreq(130), pe.ropeInvFreq(128, { base: 500000, scaling: yarn }),
      pe.ropeInvFreq(128, { base: 500000, scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 } }),
      pe.ropeInvFreq(128, { scaling: { type: 'dynamic', factor: 2, maxPositionEmbeddings: 2048, seqLen: 9000 } })],
    ropeAttentionFactor: (pe) => [[pe.ropeAttentionFactor(128, { scaling: yarn })]],
    ropeScaling: () => [],
    attentionTemperature: (pe) => [pe.attentionTemperature(dist)],
    ropeCache: (pe) => [pe.ropeCache(dist, 130), pe.ropeCache(dist, 128, { base: 500000, scaling: yarn }),
      pe.ropeCache(dist, 64, { precision: 'bf16' }), pe.ropeCache(dist, 64, { precision: 'f64' }),
      pe.ropeCache({ t: [0, 5, 9, 300], h: [0, 1, 2, 3], w: [0, 3, 1, 2] }, 64, { mrope: { section: [16, 8, 8] } })].flatMap((c) => [c.cos, c.sin]),
    applyRope: (pe) => ['half', 'interleaved'].map((style) => pe.applyRope(rand(3 * 2 * 70), { heads: 2, headDim: 70, positions: [0, 9, 4099], style, rotaryDim: 66, base: 10000 })),
    tensor: () => [],
    applyRopeInPlace: (pe) => {
      const t = pe.tensor(rand(5 * 128));
      pe.applyRopeInPlace(t, { heads: 1, headDim: 128, positions: [1, 2, 3, 50, 60000], style: 'half', rotaryDim: 128 });
      const out = t.array.slice();
      t.free();
      return [out];
    },
    attention: (pe) => [false, true].flatMap((causal) => Object.values(pe.attention(rand(7 * 2 * 36), rand(9 * 2 * 36), rand(9 * 2 * 36), { heads: 2, headDim: 36, causal }))),
    dynamicKvCache: (pe) => Object.values(pe.dynamicKvCache(rand(40 * 36), rand(40 * 36), { headDim: 36, style: 'half', factor: 2, maxPositionEmbeddings: 16 })),
    gram: (pe) => [pe.gram(rand(13 * 37), rand(11 * 37), 37)],
    rowDots: (pe) => [pe.rowDots(rand(13 * 37), rand(13 * 37), 37)],
    rowCosines: (pe) => [pe.rowCosines(rand(13 * 37), rand(13 * 37), 37)],
    orderDemo: (pe) => ['none', 'sinusoidal', 'rope'].flatMap((encoding) => Object.values(pe.orderDemo([1, 2, 3, 4, 0, 2], { encoding }))),
    ropeDecay: (pe) => [pe.ropeDecay(dist, { dim: 128 }), pe.ropeDecay(dist, { dim: 130, kind: 'bound' }),
      pe.ropeDecay(dist, { dim: 128, base: 500000, scaling: yarn }), pe.ropeDecay(Array.from({ length: 2001 }, (_, i) => 5 * i), { dim: 128 })],
    sinusoidalDecay: (pe) => [pe.sinusoidalDecay(dist, { dim: 130 }), pe.sinusoidalDecay(dist, { dim: 64, q: rand(64), k: rand(64) })],
    alibiSlopes: (pe) => [pe.alibiSlopes(12)],
    alibiBias: (pe) => [pe.alibiBias(12, 40)],
    randomNormal: (pe) => [pe.randomNormal(1001, 7)],
    t5Bucket: (pe) => [pe.t5Bucket(Array.from({ length: 401 }, (_, i) => i - 200)), pe.t5Bucket(dist, { bidirectional: false, numBuckets: 64, maxDistance: 1000 })],
    xposScale: (pe) => [pe.xposScale(dist.slice(0, 50), { dim: 64 })],
    heapBytes: () => [],
  };
  for (const [light, tested] of [['posenc-core.wasm', 'posenc.wasm'], ['posenc-core-scalar.wasm', 'posenc-scalar.wasm']]) {
    const a = await loadInstance({ source: await wasm(light) }, tables);
    const b = await loadInstance({ source: await wasm(tested) }, tables);
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(a)).filter((m) => m !== 'constructor' && !FAMILY_METHODS.includes(m));
    assert.deepEqual(methods.filter((m) => !calls[m]), [], 'every method the light embed shares is compared');
    for (const m of methods) {
      seed = 1;
      const x = calls[m](a);
      seed = 1;
      const y = calls[m](b);
      assert.equal(x.length, y.length);
      for (let i = 0; i < x.length; i++) {
        const [u, v] = [Float64Array.from(x[i]), Float64Array.from(y[i])];
        assert.ok(u.length > 0 && u.length === v.length, `${light} ${m} #${i}: lengths ${u.length}, ${v.length}`);
        const j = u.findIndex((e, k) => !Object.is(e, v[k]));
        assert.equal(j, -1, `${light} ${m} #${i}: [${j}] ${u[j]} against ${v[j]} in ${tested}`);
      }
    }
  }
});

test('on a phone, an element that spells out its defaults (as the Embed button writes it) keeps its settings folded; one that changes a folded setting opens them', async () => {
  const { formatValue, paramAttribute, counts } = await import('../web/host/params.js');
  const { params } = (await import('../web/charts/rope-decay.js')).default;
  const all = Object.fromEntries(params.map((p) => [p.name, p.value]));
  const attrs = (vals) => params.filter((p) => counts(p, vals)).map((p) => ` ${paramAttribute(p)}="${formatValue(p, vals[p.name])}"`).join('');
  const { page, context, problems } = await post('phone-defaults', `<posenc-chart id="a" kind="rope-decay"${attrs(all)}></posenc-chart>` +
    `<posenc-chart id="b" kind="rope-decay"${attrs({ ...all, base: 500000 })}></posenc-chart>`, { width: 360, height: 740 });
  const open = await page.evaluate(() => ['a', 'b'].map((id) => document.getElementById(id).shadowRoot.querySelector('.settings-toggle')?.getAttribute('aria-expanded')));
  assert.deepEqual(open, ['false', 'true']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every kind draws through the light embed', async () => {
  const body = KINDS.map((k) => `<posenc-chart kind="${k}" controls="0"></posenc-chart>`).join('\n');
  const { page, context, problems } = await post('all', body);
  const r = await page.evaluate(() => [...document.querySelectorAll('posenc-chart')].map((el) => [el.kind, !!el.data, el.shadowRoot.querySelector('.posenc-error')?.textContent ?? null]));
  assert.deepEqual(r.filter(([, ok, err]) => !ok || err), []);
  // controls="0": no control shows, a chart's own panels (a config box, Train, a Hub menu, the
  // circle's play buttons, a download) neither; scaling-variants draws no config it does not show
  const shown = await page.evaluate(() => [...document.querySelectorAll('posenc-chart')].flatMap((el) =>
    [...el.shadowRoot.querySelectorAll('input, select, textarea, button')].filter((c) => c.checkVisibility() && !c.closest('.data-table, .how, .posenc-table-toggle, .table-toggle'))
      .map((c) => `${el.kind}: ${c.outerHTML.slice(0, 80)}`)));
  assert.deepEqual(shown, []);
  const scaling = await page.evaluate(() => {
    const el = [...document.querySelectorAll('posenc-chart')].find((e) => e.kind === 'scaling-variants');
    return el.data.columns;
  });
  assert.ok(!scaling.includes('wavelength config'), scaling.join(', '));
  assert.deepEqual(problems, []);
  await context.close();
});
