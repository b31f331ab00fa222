// page-preload.test.js: index.html asks for every module its scripts import, and for the first
// chart's, with <link rel="modulepreload"> (the browser then fetches them at once instead of one
// level of imports after another). A module added to the graph and not to the list would quietly
// bring the waterfall back; a link to a module no longer imported would load for nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('../web/', import.meta.url));
const html = readFileSync(resolve(WEB, 'index.html'), 'utf8');
const head = html.slice(0, html.indexOf('</head>'));

// static imports and re-exports with a relative specifier (not import(), which loads on demand)
const STATIC = /^[ \t]*(?:import|export)\b(?![ \t]*\()[^;'"]*?['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Every module `entries` (paths under web/) import, themselves included. */
function graph(entries) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC)) visit(resolve(dirname(file), m[1]));
  };
  for (const e of entries) visit(resolve(WEB, e));
  return [...seen].map((f) => relative(WEB, f).split('\\').join('/'));
}

const attr = (tag, name) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const tags = (re) => [...head.matchAll(re)].map((m) => m[0]);

test('index.html preloads the whole static module graph of its scripts and of its first chart', () => {
  const scripts = tags(/<script type="module"[^>]*>/g).map((t) => attr(t, 'src'));
  assert.deepEqual(scripts, ['page/page-ui.js', 'page/main.js']);
  const firstChart = /data-chart="([^"]+)"/.exec(html.replace(/<!--[\s\S]*?-->/g, ''))[1];
  const want = new Set(graph([...scripts, `charts/${firstChart}.js`]));
  for (const s of scripts) want.delete(s); // their own <script> tags ask for them
  const links = tags(/<link rel="modulepreload"[^>]*>/g).map((t) => attr(t, 'href'));
  assert.equal(new Set(links).size, links.length, 'a module preloaded twice');
  const missing = [...want].filter((m) => !links.includes(m));
  const extra = links.filter((m) => !want.has(m));
  assert.deepEqual({ missing, extra }, { missing: [], extra: [] },
    `index.html's modulepreload links should be:\n${[...want].map((m) => `  <link rel="modulepreload" href="${m}">`).join('\n')}`);
});

test('the graph walk finds what the modules import (a module known to be deep in it)', () => {
  const g = graph(['page/main.js']);
  // main.js -> host/chart-host.js -> host/mount.js -> host/toolbar.js -> ... and lib/posenc.js -> lib/config-json.js
  for (const m of ['host/mount.js', 'lib/posenc.js', 'lib/heap.js', 'host/runtime.js']) assert.ok(g.includes(m), m);
  assert.ok(!g.includes('charts/order.js'), 'chart modules load on demand (import()), not statically');
});

test('the kernels are preloaded as main.js fetches them (same URL, CORS mode), so the fetch reuses them', () => {
  const link = tags(/<link rel="preload"[^>]*>/g).find((t) => attr(t, 'href')?.endsWith('.wasm'));
  assert.ok(link, 'no preload of the kernels');
  assert.equal(attr(link, 'href'), 'build/posenc.wasm');
  assert.match(link, /\bas="fetch"/);
  assert.match(link, /\bcrossorigin\b/);
});
