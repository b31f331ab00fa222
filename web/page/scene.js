// scene.js: one URL that sets several charts of the page at once, for a lesson.
//   index.html?rope-periods.preset=4&rope-decay.preset=4#rope-periods
// A query key <kind>.<param> sets that chart's control, with the same checks as a one-chart
// link (chart=<kind>&<param>=…): unknown names are noted, values clamped (parseParams). lock=1
// shows every control disabled; present opens the presenter view (present.js); print and
// answers say what a printed copy holds (print.js), and a value they cannot use is noted here.
import { HOST, parseValue, formatValue, show } from '../host/chart-host.js';
import { readHandout } from './print.js';
import { counts } from '../host/params.js';

/** Keys of the page's query that are neither a chart's nor a scene's (print and answers pick the handout: print.js). */
export const PAGE_KEYS = Object.freeze(['lock', 'present', 'print', 'answers']);

const SCENE_KEY = /^([a-z][a-z0-9-]*)\.(.+)$/;

/** True for a query key of the <kind>.<param> form. */
export const isSceneKey = (key) => SCENE_KEY.test(key);

/**
 * The scene in a query: { byKind: Map(kind -> [[param, raw], ...]), locked, notes }; kinds
 * that are not on the page (onPage(kind) false) are named in a note. Never throws.
 */
export function readScene(query, onPage) {
  const byKind = new Map(), notes = [], missing = new Set();
  for (const [key, raw] of query) {
    const m = SCENE_KEY.exec(key);
    if (!m) continue;
    const [, kind, param] = m;
    if (!onPage(kind)) {
      if (!missing.has(kind)) notes.push(HOST.chartNotOnPage.format({ kind: show(kind) }));
      missing.add(kind);
      continue;
    }
    if (!byKind.has(kind)) byKind.set(kind, []);
    byKind.get(kind).push([param, raw]);
  }
  const lock = query.get('lock');
  const r = lock === null ? { value: false } : parseValue({ name: 'lock', type: 'bool', value: false }, lock);
  if (r.note) notes.push(r.note);
  notes.push(...readHandout(query).notes);
  return { byKind, locked: r.value === true, notes };
}

/**
 * The query (without "?") of a scene: every control of each chart that differs from its
 * default, as <kind>.<param>=<value>, after `extra` (lang, theme).
 */
export function sceneQuery(hosts, extra = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null) q.set(k, String(v));
  for (const host of hosts) {
    const values = host.params();
    for (const p of host.chart.params) {
      if (!counts(p, values)) continue; // (read back, it would bring its companion value along)
      const v = formatValue(p, values[p.name]);
      if (v !== formatValue(p, p.value)) q.set(`${host.chart.kind}.${p.name}`, v);
    }
  }
  return q.toString();
}
