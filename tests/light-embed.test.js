// light-embed.test.js: the light embed (dist/module/posenc.js, an ES module) in a blog post of its
// own, served with gzip like a web host: a post loads the code of the charts it shows and no
// other, the kernels without the lab unless a lab chart is on it, Chart.js once for all of its
// charts, and every kind draws through it. Also the Embed button's snippet, which now uses it.
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
  for (const f of await readdir(join(dir, 'module', 'chunks'))) {
    const text = await readFile(join(dir, 'module', 'chunks', f), 'utf8');
    if (text.includes('scalings:["pi","ntk","yarn"]')) chunks.results = f; // web/lab/results.json
    if (/^posenc_chartjs-/.test(f)) chunks.chartjs = f;
  }
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens a post with these <posenc-chart> elements; resolves once each has drawn. */
async function post(name, body) {
  await writeFile(join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<link rel="icon" href="data:,">
<script type="module" src="module/posenc.js"></script></head><body><h1>A post</h1>${body}</body></html>`);
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname.split('/').pop()));
  await page.goto(`${server.url}${name}.html`);
  await page.evaluate(() => Promise.all([...document.querySelectorAll('posenc-chart')].map((el) => el.ready)));
  return { page, context, problems, requested };
}

test('a post with two non-lab charts: their code, the kernels without the lab, Chart.js once, no lab results', async () => {
  assert.ok(chunks.results, 'a chunk holds the lab results');
  assert.ok(chunks.chartjs, 'a chunk holds Chart.js');
  const { page, context, problems, requested } = await post('two', '<posenc-chart kind="rope-decay"></posenc-chart><posenc-chart kind="unit-circle"></posenc-chart>');
  const drawn = await page.evaluate(() => [...document.querySelectorAll('posenc-chart')].map((el) => el.data?.rows?.length ?? 0));
  assert.ok(drawn.every((n) => n > 0), `rows drawn: ${drawn}`);
  const chartChunks = requested.filter((f) => KINDS.some((k) => f.startsWith(`${k}-`)));
  assert.deepEqual(chartChunks.map((f) => f.replace(/-[A-Z0-9]+\.js$/, '')).sort(), ['rope-decay', 'unit-circle']);
  assert.ok(requested.includes('posenc-core.wasm'), `the kernels without the lab: ${requested}`);
  assert.ok(!requested.includes('posenc.wasm'), 'not the whole build');
  assert.equal(requested.filter((f) => f === chunks.chartjs).length, 1, 'Chart.js once');
  assert.ok(!requested.includes(chunks.results), 'no lab results for a post without lab charts');
  assert.ok(!requested.some((f) => /^(svg|animate|gifenc)/.test(f)), 'no export code until asked for');
  assert.ok(!requested.some((f) => f.startsWith('families-')), `no model families (configs, GGUF, weights, the lab) for these charts: ${requested}`);
  // the charts in view had every chunk of their code asked for at once
  const preloaded = await page.evaluate(() => [...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.href.split('/').pop()));
  assert.ok(preloaded.some((f) => f.startsWith('rope-decay-')) && preloaded.includes(chunks.chartjs), `preloaded: ${preloaded}`);
  // the gzip web host and the script did their part: the bytes before the charts drew stay small
  const kb = await page.evaluate(() => performance.getEntriesByType('resource').reduce((n, r) => n + r.transferSize, 0) / 1024);
  assert.ok(kb < 260, `${kb.toFixed(0)} KB transferred`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a lab chart loads the whole build and the lab results; a later chart of another kind shares them', async () => {
  const { page, context, problems, requested } = await post('lab', '<posenc-chart kind="lab-learned"></posenc-chart>');
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
  assert.ok(!more.includes('posenc.wasm') && !more.includes(chunks.chartjs) && !more.includes(chunks.results), `loaded again: ${more}`);
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

test('the kernels loaded without the model families say so, naming the method, and take them later', async () => {
  const { loadInstance, addFamilies, FAMILY_METHODS } = await import('../web/lib/instance.js');
  const families = await import('../web/lib/families.js');
  const { loadPosenc } = await import('../web/lib/posenc.js');
  const pe = await loadInstance({ source: await readFile(join(ROOT, 'dist', 'module', 'posenc-core.wasm')) }, null);
  const full = await loadPosenc();
  // every method of the API is there either way; the family ones throw until given the families
  assert.deepEqual(Object.getOwnPropertyNames(Object.getPrototypeOf(pe)), Object.getOwnPropertyNames(Object.getPrototypeOf(full)));
  for (const m of FAMILY_METHODS) assert.throws(() => pe[m]({}), (e) => e instanceof Error && e.message.includes(`posenc: ${m} is not loaded`), m);
  assert.deepEqual([...pe.ropeDecay([0, 1, 7], { dim: 8 })], [...full.ropeDecay([0, 1, 7], { dim: 8 })]);
  addFamilies(pe, families);
  const config = { model_type: 'llama', head_dim: 64, rope_theta: 500000, max_position_embeddings: 8192 };
  assert.deepEqual(JSON.parse(JSON.stringify(pe.ropeConfig(config))), JSON.parse(JSON.stringify(full.ropeConfig(config))));
});

test('every kind draws through the light embed', async () => {
  const body = KINDS.map((k) => `<posenc-chart kind="${k}" controls="0"></posenc-chart>`).join('\n');
  const { page, context, problems } = await post('all', body);
  const r = await page.evaluate(() => [...document.querySelectorAll('posenc-chart')].map((el) => [el.kind, !!el.data, el.shadowRoot.querySelector('.posenc-error')?.textContent ?? null]));
  assert.deepEqual(r.filter(([, ok, err]) => !ok || err), []);
  assert.deepEqual(problems, []);
  await context.close();
});
