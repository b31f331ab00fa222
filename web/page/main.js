// main.js: loads the kernels, then mounts every <div data-chart="kind"> with its module
// web/charts/<kind>.js, each with Link, Embed and export buttons. A chart that fails shows
// its own message and leaves the rest working; without WebAssembly every chart says so.
//
// A link to one chart's state: index.html?chart=<kind>&<param>=<value>...#<section id>
// (see README "Share and export"): that chart starts from those values (checked by parseParams: unknown
// or malformed ones are named in a note and keep their defaults) and is scrolled into view.
// A scene sets several charts at once (<kind>.<param>=<value>, scene.js), and lock=1 shows
// every control disabled.
import { kernels, chartJs, assetUrls } from '../host/runtime.js';
import { PAGE_KEYS, isSceneKey, readScene, sceneQuery } from './scene.js';
import {
  chartQuery, HOST, RESERVED, loadChart, mountChart, parseParams, stateQuery, embedSnippets, noteBox, showMessage, show,
} from '../host/chart-host.js';

const status = document.getElementById('status');
const charts = new Map();
window.posencPage = { charts, ready: null, notes: [] };

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

/** Query values the language and theme switches own, carried over into links when sane. */
function carried() {
  const out = {};
  try {
    const q = new URLSearchParams(location.search);
    for (const k of ['lang', 'theme']) if (/^[A-Za-z-]{1,16}$/.test(q.get(k) ?? '')) out[k] = q.get(k);
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
    status.after(box);
  }
}

async function mountAll() {
  const { target, entries, scene, notes } = readQuery();
  showPageNotes(notes);
  const els = [...document.querySelectorAll('[data-chart]')];
  // The first charts' modules load now, alongside the kernels; the others once the first chart
  // is drawn, so that the first chart does not wait for the page's thirty-odd modules to
  // compile (a module that fails shows its message on its own chart, below).
  const modules = new Map();
  const load = (el) => {
    if (!modules.has(el)) {
      modules.set(el, loadChart(el.dataset.chart));
      modules.get(el).catch(() => {});
    }
    return modules.get(el);
  };
  // The linked chart first, scrolled to at once; scroll anchoring keeps it in view while the
  // charts above it fill in, and it is scrolled to again at the end unless the reader moved.
  const targetEl = target ? document.querySelector(`[data-chart="${target}"]`) : null;
  if (targetEl) els.splice(els.indexOf(targetEl), 1), els.unshift(targetEl);
  for (const el of els.slice(0, 2)) load(el);
  let pe, Chart;
  try {
    [pe, Chart] = await Promise.all([kernels(), chartJs()]);
  } catch (err) {
    status.textContent = HOST.noWasm.format({ message: err?.message ?? String(err) });
    status.classList.add('error');
    for (const el of els) showMessage(el, HOST.noWasm.format({ message: err?.message ?? String(err) }));
    return;
  }
  const kind = document.getElementById('build-kind');
  if (kind) kind.textContent = pe.simd ? 'SIMD' : 'scalar';

  let moved = false;
  const onMove = () => (moved = true);
  for (const ev of ['wheel', 'touchstart', 'keydown']) addEventListener(ev, onMove, { once: true, passive: true });

  let first = true;
  for (const el of els) {
    const k = el.dataset.chart;
    try {
      const chart = await load(el);
      const linked = k === target ? parseParams(chart.params, entries) : { values: {}, notes: [] };
      const inScene = scene.byKind.has(k) ? parseParams(chart.params, scene.byKind.get(k), { ignore: [] }) : { values: {}, notes: [] };
      const values = { ...linked.values, ...inScene.values }, chartNotes = [...linked.notes, ...inScene.notes];
      const { scriptUrl, scriptModule, embedUrl } = assetUrls();
      charts.set(k, mountChart(el, chart, {
        pe, Chart, values, notes: chartNotes, locked: scene.locked,
        toolbar: {
          link: (v) => linkFor(chart, el, v),
          sectionLink: () => sectionLinkFor(el),
          reset: true,
          embed: (v, height) => embedSnippets({ chart, values: v, scriptUrl, scriptModule, embedUrl, height }),
          png: true,
          csv: true,
        },
      }));
      if (el === targetEl) el.scrollIntoView({ block: 'start' });
    } catch (err) {
      showMessage(el, HOST.drawFailed.format({ message: err?.message ?? String(err) }));
      el.classList.add('error');
      console.error(`chart ${k}:`, err);
    }
    if (first) {
      first = false;
      for (const other of els) load(other);
    }
  }
  if (targetEl && !moved) targetEl.scrollIntoView({ block: 'start' });
  // a locked page says so where the loading message was; it is not a setting that went unused
  status.textContent = scene.locked ? String(HOST.locked) : '';
}

/**
 * A scene link of this page (an exercise's "try it") sets the charts it names where they are,
 * without a reload, keeps the reader's language and theme, and brings the first of them into view.
 */
function followSceneLink(e) {
  const a = e.target.closest?.('a.scene-link');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin || url.pathname !== location.pathname || !charts.size) return;
  e.preventDefault();
  const scene = readScene(url.searchParams, (k) => charts.has(k));
  let first = null;
  for (const [kind, entries] of scene.byKind) {
    const host = charts.get(kind);
    host.set(parseParams(host.chart.params, entries, { ignore: [] }).values);
    first ??= document.querySelector(`[data-chart="${kind}"]`);
  }
  for (const [k, v] of Object.entries(carried())) url.searchParams.set(k, v);
  history.pushState(history.state, '', url);
  first?.scrollIntoView({ block: 'start', behavior: 'smooth' });
}
document.addEventListener('click', followSceneLink);

window.posencPage.ready = new Promise((resolve) => {
  const go = () => mountAll().catch((err) => console.error(err)).then(resolve);
  // Chart.js is a deferred classic script; module scripts run after it.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go);
  else go();
});
