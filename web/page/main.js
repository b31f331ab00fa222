// main.js: loads the kernels, then mounts every <div data-chart="kind"> with its module
// web/charts/<kind>.js, each with Link, Embed and export buttons. A chart that fails shows
// its own message and leaves the rest working; without WebAssembly every chart says so.
//
// A link to one chart's state: index.html?chart=<kind>&<param>=<value>...#<section id>
// (see README "Share and export"): that chart starts from those values (checked by parseParams: unknown
// or malformed ones are named in a note and keep their defaults) and is scrolled into view.
// A scene sets several charts at once (<kind>.<param>=<value>, scene.js), and lock=1 shows
// every control disabled.
// the page's header controls and presenter come with this one script of the page
import './page-ui.js';
import { kernels, chartJs, assetUrls } from '../host/runtime.js';
import { PAGE_KEYS, isSceneKey, readScene, sceneQuery } from './scene.js';
import {
  chartQuery, HOST, RESERVED, loadChart, loadFailed, mountChart, parseParams, stateQuery, noteBox, showMessage, show,
} from '../host/chart-host.js';
import { embedSnippets } from '../host/export.js';
import { addToolbar } from '../host/toolbar.js';
import { land, landLinks, landOnFragment } from './land.js';
import { whenSized } from '../host/canvas-sizes.js';
import { redrawNow } from '../host/redraw-soon.js';

// the page's loading message (found when used: this script may run before it is parsed)
const status = () => document.getElementById('status');
const charts = new Map();
// the page's charts and the kernels they draw with, for the console (and the tests); drawn()
// resolves once every chart is on its canvases as the page is set now (those far from the view
// are computed and drawn when they come near or the page is idle: drawn() draws them at once)
window.posencPage = { charts, ready: null, drawn: () => (redrawNow(), whenSized()), notes: [], pe: null };

/** The page's query: { target: kind or null, entries, notes } (never throws). */
function readQuery() {
  const { query: q, named, kind, notes } = chartQuery(location.search);
  const target = kind && document.querySelector(`[data-chart="${kind}"]`) ? kind : null;
  if (named.length === 1 && !target) notes.push(HOST.chartNotOnPage.format({ kind: show(named[0]) }));
  const entries = [...q].filter(([k]) => !isSceneKey(k) && !PAGE_KEYS.includes(k));
  if (!named.length && entries.some(([k]) => !RESERVED.includes(k))) notes.push(String(HOST.paramsWithoutChart));
  const scene = readScene(q, (k) => Boolean(document.querySelector(`[data-chart="${k}"]`)));
  notes.push(...scene.notes);
  return { target, entries, scene, notes };
}

// the query keys the language and theme switches own
const CARRIED = ['lang', 'theme'];

/** Query values the language and theme switches own, carried over into links when sane. */
function carried() {
  const out = {};
  try {
    const q = new URLSearchParams(location.search);
    for (const k of CARRIED) if (/^[A-Za-z-]{1,16}$/.test(q.get(k) ?? '')) out[k] = q.get(k);
  } catch {
    // no query: nothing to carry
  }
  return out;
}

function linkFor(chart, el, values) {
  const url = new URL(location.href);
  url.search = `?${stateQuery(chart.kind, chart.params, values, carried())}`;
  url.hash = el.closest('section[id]')?.id ?? '';
  return url.href;
}

/** A link to every chart of `el`'s section as it is set now (a scene), scrolled to the section. */
function sectionLinkFor(el) {
  const section = el.closest('section[id]');
  const hosts = [...(section ?? document).querySelectorAll('[data-chart]')].map((c) => charts.get(c.dataset.chart)).filter(Boolean);
  const url = new URL(location.href);
  url.search = `?${sceneQuery(hosts, carried())}`;
  url.hash = section?.id ?? '';
  return url.href;
}

function showPageNotes(notes) {
  window.posencPage.notes = notes;
  const box = noteBox(notes);
  if (box) {
    box.id = 'page-notes';
    status().after(box);
  }
}

/**
 * Lets the browser paint, handle input and run what waits (a chart's data arriving) between two
 * charts: after the next frame (where the charts just mounted learn their sizes and are drawn:
 * canvas-sizes.js), a message to itself goes to the back of the queue, unlike
 * scheduler.yield(), whose continuation runs first, and without the 4 ms a nested setTimeout waits.
 */
const yieldToPage = () => new Promise((resolve) => requestAnimationFrame(() => {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = () => (port1.close(), resolve());
  port2.postMessage(null);
}));

/**
 * The charts in the order a reader meets them: the linked chart, then the charts from the first
 * one in view down the page, then the ones above it (scroll anchoring keeps the view still
 * while they fill in); those that read data come second.
 */
function readingOrder(els, first) {
  const from = Math.max(0, els.findIndex((el) => el.getBoundingClientRect().bottom > 0));
  const order = [...els.slice(from), ...els.slice(0, from)];
  if (first) order.splice(order.indexOf(first), 1), order.unshift(first);
  // "Inside a real model" reads its model over several round trips after its charts mount: they
  // come second, so that the reading goes on while the other charts mount
  const reading = order.filter((el) => el.closest('#real-model'));
  const rest = order.filter((el) => !reading.includes(el));
  return [...rest.slice(0, 1), ...reading, ...rest.slice(1)];
}

/** Everything a chart's mount needs from the page, found once. */
async function pageTools() {
  let pe, Chart;
  try {
    [pe, Chart] = await Promise.all([kernels(), chartJs()]);
  } catch (err) {
    return { err };
  }
  window.posencPage.pe = pe;
  return { pe, Chart };
}

// The page stays responsive while the charts mount, and paints what is drawn: it gets the
// thread back after the first chart, then every 100 ms (a yield lets a frame be drawn, and a
// frame lays out this long page, so not after every chart).
let slice = -Infinity;

/**
 * Mounts chart `el` with its module (which comes with the page's script), as `query` (readQuery's)
 * sets it; a chart that fails shows its message on its own chart.
 */
async function mountOne(el, { pe, Chart }, query = { target: null, entries: [], scene: null }) {
  const k = el.dataset.chart, { target, entries, scene } = query;
  try {
    const chart = await loadChart(k);
    const linked = k === target ? parseParams(chart.params, entries) : { values: {}, notes: [] };
    const inScene = scene?.byKind.has(k) ? parseParams(chart.params, scene.byKind.get(k), { ignore: [] }) : { values: {}, notes: [] };
    const values = { ...linked.values, ...inScene.values }, chartNotes = [...linked.notes, ...inScene.notes];
    const { scriptUrl, scriptModule, embedUrl } = assetUrls();
    // the first chart mounted is the one the reader meets first (readingOrder): computed at once
    const host = mountChart(el, chart, { pe, Chart, values, notes: chartNotes, locked: Boolean(scene?.locked), whenNear: charts.size > 0 });
    addToolbar(host, {
      link: (v) => linkFor(chart, el, v),
      sectionLink: () => sectionLinkFor(el),
      reset: true,
      embed: (v, height) => embedSnippets({ chart, values: v, scriptUrl, scriptModule, embedUrl, height }),
      png: true,
      csv: true,
    });
    charts.set(k, host);
  } catch (err) {
    showMessage(el, HOST.drawFailed.format({ message: err?.message ?? String(err) }));
    el.classList.add('error');
    console.error(`chart ${k}:`, err);
  }
  if (performance.now() - slice > 100) {
    await yieldToPage();
    slice = performance.now();
  }
}

const parsed = new Promise((resolve) => {
  if (document.readyState !== 'loading') resolve();
  else document.addEventListener('DOMContentLoaded', resolve, { once: true });
});

/**
 * On a plain visit (no chart, scene or section named), the page is read from the top: its first
 * chart mounts as soon as the parser has read past it, while the rest of this long page is still
 * being read in. The others wait for DOMContentLoaded: mounted during the parse, they slow it, and
 * their controls are in the page when Chrome's autofill reads every form field of a page (at
 * DOMContentLoaded), which lays out, to measure them, each far section content-visibility skips.
 */
async function mountFirstWhileParsing(toolsReady) {
  const plain = !location.hash && [...new URLSearchParams(location.search).keys()].every((k) => CARRIED.includes(k));
  if (!plain || document.readyState !== 'loading') return;
  const tools = await toolsReady;
  if (tools.err) return;
  const sheet = document.querySelector('link[rel="stylesheet"]');
  // a chart sizes itself to the page's layout, which needs the stylesheet
  if (sheet && !sheet.sheet) await new Promise((resolve) => sheet.addEventListener('load', resolve, { once: true }));
  while (document.readyState === 'loading') {
    const el = document.querySelector('[data-chart]');
    // the parser has read past a chart's element once something follows it
    if (el?.nextSibling) return mountOne(el, tools);
    await Promise.race([parsed, new Promise((resolve) => setTimeout(resolve, 5))]);
  }
}

async function mountAll(toolsReady) {
  const query = readQuery();
  showPageNotes(query.notes);
  const { target } = query;
  // The linked chart first (a scene's: the first chart it sets), scrolled to at once; scroll
  // anchoring keeps it in view while the charts above it fill in, and it is scrolled to again at
  // the end unless the reader moved. A link that sets a chart lands on that chart, not on the
  // heading of its section.
  const targetEl = target ? document.querySelector(`[data-chart="${target}"]`) : landingOf(query.scene.byKind.keys());
  const els = readingOrder([...document.querySelectorAll('[data-chart]')], targetEl).filter((el) => !charts.has(el.dataset.chart));
  const tools = await toolsReady;
  if (tools.err) {
    const message = loadFailed(tools.err);
    status().textContent = message;
    status().classList.add('error');
    for (const el of els) showMessage(el, message);
    return;
  }

  const kind = document.getElementById('build-kind');
  if (kind) kind.textContent = tools.pe.simd ? 'SIMD' : 'scalar';

  let moved = false;
  const onMove = () => (moved = true);
  for (const ev of ['wheel', 'touchstart', 'keydown']) addEventListener(ev, onMove, { once: true, passive: true });

  let settle;
  if (!targetEl) landOnFragment(new Promise((resolve) => (settle = resolve)));
  for (const el of els) {
    await mountOne(el, tools, query);
    if (el === targetEl) el.scrollIntoView({ block: 'start' });
  }
  // window.posencPage.charts in the page's order, whatever order they mounted in
  const mounted = [...document.querySelectorAll('[data-chart]')].map((el) => [el.dataset.chart, charts.get(el.dataset.chart)]);
  charts.clear();
  for (const [k, host] of mounted) if (host) charts.set(k, host);
  if (targetEl && !moved) targetEl.scrollIntoView({ block: 'start' });
  settle?.();
  // a locked page says so where the loading message was; it is not a setting that went unused
  status().textContent = query.scene.locked ? String(HOST.locked) : '';
}

/** The chart a scene lands on: of the charts it sets (kinds), the first on the page; else null. */
function landingOf(kinds) {
  const set = new Set(kinds);
  return [...document.querySelectorAll('[data-chart]')].find((el) => set.has(el.dataset.chart)) ?? null;
}

// the kinds scene links have set since the page loaded, and the query whose scene the charts show
const sceneKinds = new Set();
let sceneShown = location.search;

/**
 * Sets each chart of `kinds` as `scene` (readScene's) sets it: its defaults but for what the scene
 * sets, not what an earlier exercise left (an exercise's link names only the setting it changes).
 */
function showScene(scene, kinds = scene.byKind.keys()) {
  for (const kind of kinds) {
    const host = charts.get(kind);
    if (!host) continue;
    const { values } = parseParams(host.chart.params, scene.byKind.get(kind) ?? [], { ignore: [] });
    host.set({ ...host.defaults(), ...values });
    host.reveal?.(values);
    sceneKinds.add(kind);
  }
  sceneShown = location.search;
}

/**
 * A scene link of this page (an exercise's "try it") sets the charts it names where they are,
 * without a reload, keeps the reader's language and theme, and brings the first of them into view.
 * Back returns to where the reader was, with the charts as that address sets them.
 */
function followSceneLink(e) {
  const a = e.target.closest?.('a.scene-link');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin || url.pathname !== location.pathname || !charts.size) return;
  e.preventDefault();
  for (const [k, v] of Object.entries(carried())) url.searchParams.set(k, v);
  // where Back returns: the link where the reader saw it (the page above it may change height:
  // a Settings fold the scene opens), else this scroll position
  const back = { link: [...document.querySelectorAll('a.scene-link')].indexOf(a), top: a.getBoundingClientRect().top, y: scrollY };
  history.replaceState({ ...history.state, posencBack: back }, '');
  history.pushState({ ...history.state, posencBack: null }, '', url);
  const scene = readScene(url.searchParams, (k) => charts.has(k));
  showScene(scene);
  const first = landingOf(scene.byKind.keys());
  if (first) land(first, { smooth: true });
}

addEventListener('popstate', (e) => {
  if (!charts.size || location.search === sceneShown) return;
  const scene = readScene(new URLSearchParams(location.search), (k) => charts.has(k));
  showScene(scene, new Set([...sceneKinds, ...scene.byKind.keys()]));
  const back = e.state?.posencBack;
  if (back) {
    const link = document.querySelectorAll('a.scene-link')[back.link];
    const put = () => (link?.checkVisibility() ? scrollBy(0, link.getBoundingClientRect().top - back.top) : scrollTo(0, back.y));
    // again once the browser has put back its own idea of the place (the same scroll position)
    put();
    requestAnimationFrame(() => requestAnimationFrame(put));
  } else {
    const first = landingOf(scene.byKind.keys());
    if (first) land(first);
  }
});
document.addEventListener('click', followSceneLink);
landLinks();

// The page's script is an async module: it starts as soon as it arrives, while the page is read in.
window.posencPage.ready = (async () => {
  const toolsReady = pageTools();
  await mountFirstWhileParsing(toolsReady);
  await parsed;
  await mountAll(toolsReady);
})().catch((err) => console.error(err));
