// Real weights in Chromium: the page's own JS API reads a model from a stubbed Hub (a route on
// another origin that serves Range requests with CORS headers, as the Hub's storage does; a gated
// model answering 401; a missing one 404) and from a File, and runs layer 0's attention, giving
// the bits Node gives. No request leaves the machine.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startBrowser } from './browser.js';
import { loadPosenc, readSafetensors, readLayer } from '../web/lib/posenc.js';
import { layerModel, buildSafetensors } from './weights-fixtures.js';

const HUB = 'https://hub.posenc.test';
const model = layerModel('qwen3', { dtype: 'BF16', seed: 21, vocab: 1500 });
const bytes = buildSafetensors(model.tensors).bytes;
const tokens = [1203, 7, 7, 1499, 999, 1203, 42];

const env = await startBrowser();
after(() => env.close());

/** A page on the test server's origin whose /hub/ requests go to a stub Hub; returns { page, log }. */
async function hubPage({ exposeRange = true } = {}) {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const log = [], problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.route('**/*', (route) => {
    const u = new URL(route.request().url());
    // a bare page of the server's origin (the site's pages carry a policy that allows no other origin)
    if (u.hostname === '127.0.0.1' && u.pathname === '/weights-test.html') return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>weights</title>' });
    if (u.hostname === '127.0.0.1') return route.continue();
    if (u.origin !== HUB) {
      problems.push(`external: ${u.href}`);
      return route.abort();
    }
    const cors = { 'access-control-allow-origin': '*', ...(exposeRange ? { 'access-control-expose-headers': 'Content-Range, Accept-Ranges' } : {}) };
    if (route.request().method() === 'OPTIONS') {
      return route.fulfill({ status: 204, headers: { ...cors, 'access-control-allow-headers': 'range', 'access-control-allow-methods': 'GET' } });
    }
    const range = route.request().headers().range ?? null;
    const rec = (status, n) => log.push({ path: u.pathname, range, status, bytes: n });
    if (u.pathname.startsWith('/gated/')) return rec(401, 0), route.fulfill({ status: 401, headers: cors, body: 'Access to model is restricted' });
    if (u.pathname !== '/public/model.safetensors') return rec(404, 0), route.fulfill({ status: 404, headers: cors, body: 'Entry not found' });
    const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
    const a = Number(m[1]), b = Math.min(Number(m[2]), bytes.length - 1);
    rec(206, b - a + 1);
    return route.fulfill({ status: 206, headers: { ...cors, 'content-range': `bytes ${a}-${b}/${bytes.length}`, 'content-type': 'application/octet-stream' }, body: Buffer.from(bytes.subarray(a, b + 1)) });
  });
  await page.goto(`${env.url}weights-test.html`);
  return { page, log, problems, context };
}

/** Runs in the page: opens `source` ('file' or a URL), reads layer 0 and runs layerAttention. */
const inPage = async ({ source, config, tokens, bytes }) => {
  const api = await import('/lib/posenc.js');
  const pe = await api.loadPosenc();
  try {
    const file = source === 'file' ? new File([new Uint8Array(bytes)], 'model.safetensors') : source;
    const st = await api.readSafetensors(file);
    const { x, weights } = await api.readLayer(st, { tokens });
    const a = pe.layerAttention({ config, x, weights });
    return { ok: true, scores: Array.from(a.scores, (v) => (v === -Infinity ? null : v)), weights: Array.from(a.weights), bytesRead: st.bytesRead };
  } catch (e) {
    return { ok: false, name: e.constructor.name, message: e.message, status: e.status ?? null };
  }
};

// the same in Node, for the bits to compare with
const pe = await loadPosenc();
const nodeResult = await (async () => {
  const { x, weights } = await readLayer(await readSafetensors(bytes), { tokens });
  const a = pe.layerAttention({ config: model.config, x, weights });
  return { scores: Array.from(a.scores, (v) => (v === -Infinity ? null : v)), weights: Array.from(a.weights) };
})();

test('Chromium reads layer 0 from a stubbed Hub with Range requests, only the bytes needed, and gets Node\'s bits', async () => {
  const { page, log, problems, context } = await hubPage();
  try {
    const r = await page.evaluate(inPage, { source: `${HUB}/public/model.safetensors`, config: model.config, tokens });
    assert.ok(r.ok, r.message);
    assert.deepEqual(r.scores, nodeResult.scores);
    assert.deepEqual(r.weights, nodeResult.weights);
    const layer0 = model.tensors.filter((t) => t.name.startsWith('model.layers.0.') && !t.name.includes('v_proj'));
    const rowBytes = 2 * model.config.hidden_size;
    // the first read (64 KiB: header and the table's first rows), then layer 0's q/k tensors and the rows of tokens past it
    const dataStart = 8 + Number(new DataView(bytes.buffer).getBigUint64(0, true)); // the embedding table comes first
    const pastFirst = new Set(tokens.filter((r) => dataStart + (r + 1) * rowBytes > 65536));
    assert.deepEqual([...pastFirst], [1203, 1499]);
    const want = 65536 + layer0.reduce((s, t) => s + 2 * t.data.length, 0) + pastFirst.size * rowBytes;
    assert.equal(log.reduce((s, e) => s + e.bytes, 0), want, JSON.stringify(log));
    assert.equal(r.bytesRead, want);
    assert.ok(log.every((e) => e.status === 206 && e.range));
    assert.ok(want < bytes.length, `${want} of ${bytes.length} bytes`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Chromium: a File gives the same bits; gated and missing models reject with their status', async () => {
  const { page, problems, context } = await hubPage();
  try {
    const f = await page.evaluate(inPage, { source: 'file', config: model.config, tokens, bytes: Array.from(bytes) });
    assert.ok(f.ok, f.message);
    assert.deepEqual(f.scores, nodeResult.scores);
    const gated = await page.evaluate(inPage, { source: `${HUB}/gated/model.safetensors`, config: model.config, tokens });
    assert.deepEqual([gated.ok, gated.status], [false, 401]);
    assert.match(gated.message, /gated or private/);
    const missing = await page.evaluate(inPage, { source: `${HUB}/nope/model.safetensors`, config: model.config, tokens });
    assert.deepEqual([missing.ok, missing.status], [false, 404]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Chromium: a Hub that does not expose Content-Range to the page still works (sizes from the bodies)', async () => {
  const { page, context } = await hubPage({ exposeRange: false });
  try {
    const r = await page.evaluate(inPage, { source: `${HUB}/public/model.safetensors`, config: model.config, tokens });
    assert.ok(r.ok, r.message);
    assert.deepEqual(r.scores, nodeResult.scores);
  } finally {
    await context.close();
  }
});
