// params.js: the one parser of chart state that comes from outside (URL parameters of the
// page and embed.html, attributes of <posenc-chart>): parseParams() checks every value against
// the chart's own param list (names, types, min/max, step, options), clamps it into range, and
// reports whatever it did not use as notes, with the nearest setting's name when a name is a
// near miss. Nothing from a URL or an attribute reaches the DOM except through textContent, and
// only whitelisted values reach a chart module. Also the state's way back out: stateQuery() and
// the attribute names of <posenc-chart>.
import { HOST } from './strings.js';
import { suggest } from '../lib/args.js';

/** Names that are not chart params but are read elsewhere (page, embed.html, i18n, themes). */
export const RESERVED = Object.freeze(['chart', 'controls', 'lock', 'toolbar', 'lang', 'theme']);

/** Most name/value pairs read from one URL or element; the rest are ignored with a note. */
export const MAX_ENTRIES = 64;
const MAX_VALUE_LENGTH = 64; // longer values are malformed (no number or option is that long)


/** A value as it may be shown in a note: at most 40 characters, control characters removed. */
export function show(v) {
  const s = String(v).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** HTML-escapes text for an element's content or a double-quoted attribute value. */
export function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** How names are matched: case, dashes and a leading "param-" do not count (maxDist = max-dist = maxdist). */
export function normName(name) {
  return String(name).toLowerCase().replace(/^param-/, '').replace(/-/g, '');
}

/** The kebab-case form of a param name: maxDist -> max-dist. */
export function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const TRUE = new Set(['', '1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** A param's value as text, for URLs, attributes and notes. */
export function formatValue(p, v) {
  if (p.type === 'bool') return v ? '1' : '0';
  return String(v);
}

/** Rounds v to the param's step (counted from min) and clamps it to [min, max]. */
function fit(p, v) {
  let x = Math.min(p.max, Math.max(p.min, v));
  const step = p.step ?? (p.type === 'int' ? 1 : 'any');
  if (step !== 'any' && Number.isFinite(step) && step > 0) {
    x = p.min + Math.round((x - p.min) / step) * step;
    if (x > p.max) x -= step;
    x = Number(x.toPrecision(15));
  }
  if (p.type === 'int') x = Math.round(x);
  return x;
}

/**
 * Reads one param's value from text. Returns { value } when usable (maybe adjusted, with a
 * note), or { note } alone when the text is malformed (the default stays).
 */
export function parseValue(p, raw) {
  const text = String(raw).trim();
  const def = formatValue(p, p.value);
  if (text.length > MAX_VALUE_LENGTH) return { note: HOST.malformed.format({ name: p.name, value: show(text), def }) };
  if (p.type === 'bool') {
    const t = text.toLowerCase();
    if (TRUE.has(t)) return { value: true };
    if (FALSE.has(t)) return { value: false };
    return { note: HOST.malformed.format({ name: p.name, value: show(text), def }) };
  }
  if (p.type === 'select') {
    if (p.options.includes(text)) return { value: text };
    return { note: HOST.notOption.format({ name: p.name, value: show(text), def }) };
  }
  if (p.type === 'int' || p.type === 'number') {
    if (!NUMBER.test(text)) return { note: HOST.malformed.format({ name: p.name, value: show(text), def }) };
    const v = Number(text);
    if (!Number.isFinite(v)) return { note: HOST.malformed.format({ name: p.name, value: show(text), def }) };
    const used = fit(p, v);
    if (used === v) return { value: used };
    const outside = v < p.min || v > p.max;
    return { value: used, note: (outside ? HOST.clamped : HOST.stepped).format({ name: p.name, value: show(text), used: String(used) }) };
  }
  return { note: HOST.malformed.format({ name: p.name, value: show(text), def }) };
}

/**
 * Parses name/value pairs (URLSearchParams, [[name, value]] or attribute lists) against a
 * chart's params. Names match by normName(); names in `ignore` (normalized) are skipped.
 * Never throws. Returns { values: { [param name]: value }, notes: [strings] }: values holds
 * only what was usable; everything else keeps its default and is named in notes.
 */
export function parseParams(params, entries, { ignore = RESERVED } = {}) {
  const values = {}, notes = [];
  const byName = new Map(params.map((p) => [normName(p.name), p]));
  const skip = new Set([...ignore].map(normName));
  const seen = new Map();
  let n = 0;
  try {
    for (const [name, raw] of entries) {
      if (++n > MAX_ENTRIES) {
        notes.push(HOST.tooMany.format({ n: MAX_ENTRIES }));
        break;
      }
      const key = normName(name);
      if (skip.has(key)) continue;
      const p = byName.get(key);
      if (!p) {
        const near = suggest(String(name), params.map((q) => q.name));
        // a name written in kebab-case is an element's attribute: suggested as one (max-dist, not maxDist)
        const suggestion = near && String(name).includes('-') ? paramAttribute(params.find((q) => q.name === near)) : near;
        notes.push(suggestion ? HOST.unknownNameSuggest.format({ name: show(name), suggestion })
          : HOST.unknownName.format({ name: show(name) }));
        continue;
      }
      seen.set(p, (seen.get(p) ?? 0) + 1);
      if (seen.get(p) === 2) notes.push(HOST.repeated.format({ name: p.name }));
      if (seen.get(p) > 1) {
        delete values[p.name];
        continue;
      }
      const r = parseValue(p, raw);
      if (r.note) notes.push(r.note);
      if ('value' in r) values[p.name] = r.value;
    }
  } catch (err) {
    // a hostile iterable (it cannot come from a URL, but be safe): keep what was read
    notes.push(HOST.malformed.format({ name: '?', value: show(err?.message ?? err), def: '…' }));
  }
  for (const [p, count] of seen) if (count > 1) delete values[p.name];
  companions(params, values, notes);
  return { values, notes };
}

/**
 * A param that counts only beside a value of another (onlyWhen: a free d beside preset "free"):
 * given alone, it brings that value along, since whoever wrote dim="64" meant d = 64; given
 * beside another value of the other, it is not used, and a note says why.
 */
function companions(params, values, notes) {
  const byName = new Map(params.map((p) => [p.name, p]));
  for (const p of params) {
    if (!p.onlyWhen || !Object.hasOwn(values, p.name)) continue;
    const conflict = Object.entries(p.onlyWhen).find(([name, v]) => Object.hasOwn(values, name) && values[name] !== v);
    if (conflict) {
      const [name, v] = conflict, other = byName.get(name);
      notes.push(HOST.onlyWhen.format({ name: p.name, value: formatValue(p, values[p.name]), other: name,
        when: formatValue(other, v), given: formatValue(other, values[name]) }));
      delete values[p.name];
      continue;
    }
    for (const [name, v] of Object.entries(p.onlyWhen)) if (byName.has(name)) values[name] = v;
  }
}

/**
 * Whether param p counts in a chart set to `values` (every param by name): one with onlyWhen
 * counts only beside those values. A link, a snippet or a CSV leaves out what does not count, or
 * it would bring its companion value along when read back (see companions()).
 */
export function counts(p, values) {
  return !p.onlyWhen || Object.entries(p.onlyWhen).every(([name, v]) => values[name] === v);
}

/** The query string (without "?") that describes a chart's state: chart=kind&name=value... */
export function stateQuery(kind, params, values, extra = {}) {
  const q = new URLSearchParams();
  q.set('chart', kind);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null) q.set(k, String(v));
  const all = Object.fromEntries(params.map((p) => [p.name, values[p.name] ?? p.value]));
  for (const p of params) if (counts(p, all)) q.set(p.name, formatValue(p, all[p.name]));
  return q.toString();
}

/** The attribute name of a param on <posenc-chart>: kebab-case, "param-" first where HTML owns the name. */
export function paramAttribute(p) {
  const a = kebab(p.name);
  return GLOBAL_ATTRIBUTES.has(a) || RESERVED.includes(a) ? `param-${a}` : a;
}

/** Attributes every HTML element may carry; a param with one of these names gets the "param-" prefix. */
export const GLOBAL_ATTRIBUTES = new Set(['id', 'class', 'style', 'title', 'hidden', 'lang', 'dir', 'slot', 'part',
  'tabindex', 'role', 'translate', 'draggable', 'spellcheck', 'autofocus', 'nonce', 'inert', 'popover',
  'contenteditable', 'accesskey', 'enterkeyhint', 'inputmode', 'is', 'itemprop', 'itemscope', 'itemtype', 'itemid',
  'itemref', 'autocapitalize', 'exportparts', 'writingsuggestions']);
