// chart-host.js: mounts one chart module into a container: builds its labelled controls
// from the module's parameter list, redraws on input (at most once per animation frame),
// keeps the latest data the chart drew for tests and exports, and adds the Link, Embed, PNG
// and CSV buttons. Chart modules never build controls or touch the wasm heap: they get `pe`
// (web/posenc.js) and plain params.
//
// It also owns the one parser of chart state that comes from outside (URL parameters of the
// page and embed.html, attributes of <posenc-chart>): parseParams() checks every value against
// the chart's own param list (names, types, min/max, step, options), clamps it into range, and
// reports whatever it did not use as notes. Nothing from a URL or an attribute reaches the DOM
// except through textContent, and only whitelisted values reach a chart module.
//
// A chart module (web/charts/<kind>.js) default-exports:
//   {
//     kind: 'rope-decay',                     // also the file name
//     title: 'Long-range decay',              // the figure caption
//     params: [                               // one control each, in order
//       { name: 'dim', label: 'dimension d', type: 'int', min: 2, max: 4096, step: 2, value: 256 },
//       { name: 'scale', label: 'x axis', type: 'select', options: ['linear', 'log'], value: 'log' },
//       { name: 'causal', label: 'causal mask', type: 'bool', value: false },
//       { name: 'base', label: 'base', type: 'number', min: 1, max: 1e6, step: 'any', value: 10000 },
//     ],
//     mount(el, { pe, Chart }) -> {            // el: an empty <div> to fill (canvas, table...)
//       update(params) -> data,                // draw for these params; return what was drawn
//       readout?: string,                      // set by update: a sentence with measured values
//       destroy?(),
//     }
//   }
// `data` is { columns: [names], rows: [[values]] } (a table of the numbers behind the chart).
//
// The host mountChart() returns: { params(), set(values), update(), relabel(), destroy(),
// setNotes(list), data, view, controls, chart, toolbar (the buttons' element, or absent), i18n }.
// update() redraws now; relabel() re-applies STRINGS to the buttons.
//
// Languages and themes (web/i18n.js, web/theme.js) are the host's business, wherever it runs
// (the page, embed.html, <posenc-chart>): the caption, control labels and option texts are in
// the language of the moment (t() of the module's L() pairs), and on 'posenc:lang' the host
// puts STRINGS in the new language (host-strings.js), relabels and redraws; on 'posenc:theme'
// it redraws. (host.i18n = true says so, for code that used to do this from outside.)
//
// Accessibility, also the host's: the readout (the chart's one-sentence summary) has an id that
// describes every role="img" canvas of the chart (aria-describedby); a "Table" toggle under the
// chart shows host.data as an HTML table; a table box that scrolls is a focusable region.

import { t, tr, onLang } from './i18n.js';
import { onTheme, applyChartTheme, colours } from './theme.js';
import { localizeHost } from './host-strings.js';

/**
 * Every UI string the host shows (buttons, notes, messages), in one place so that the
 * language switch can replace them: Object.assign(STRINGS, translated), then host.relabel().
 * Functions take the values they mention; their results go to textContent only.
 */
export const STRINGS = {
  link: 'Link',
  linkTitle: 'Copy a link that opens this chart as it is set now',
  embed: 'Embed',
  embedTitle: 'Copy HTML that puts this chart, live, into another page',
  png: 'PNG',
  pngTitle: 'Download the chart as drawn, as a PNG image at twice the resolution',
  csv: 'CSV',
  csvTitle: 'Download the numbers behind the chart as CSV',
  toolbar: 'Share and export',
  close: 'Close',
  linkLabel: 'Link to this chart',
  embedLabel: 'HTML to embed this chart',
  copied: 'Copied to the clipboard.',
  copyByHand: 'Select the text and copy it (Ctrl+C, or ⌘C on a Mac).',
  embedIframe: 'as an iframe (its height follows the chart with the snippet in posenc\'s README)',
  embedElement: 'or as an element, with one script tag',
  notesTitle: 'Some settings were not used:',
  unknownName: (name) => `“${name}” is not a setting of this chart.`,
  repeated: (name) => `“${name}” was given more than once; using the default.`,
  malformed: (name, value, def) => `${name} = “${value}” is not a valid value; using the default ${def}.`,
  notOption: (name, value, def) => `${name} = “${value}” is not one of the choices; using the default ${def}.`,
  clamped: (name, value, used) => `${name} = ${value} is outside the allowed range; using ${used}.`,
  stepped: (name, value, used) => `${name} = ${value} is not an allowed step; using ${used}.`,
  tooMany: (n) => `Only the first ${n} settings were read.`,
  notDrawn: (message) => `These settings could not be drawn (${message}); showing the defaults.`,
  unknownChart: (kind, used) => `There is no chart “${kind}”; showing ${used}.`,
  noChart: (used) => `No chart was named (chart=…); showing ${used}.`,
  chartNotOnPage: (kind) => `The chart “${kind}” is not on this page.`,
  paramsWithoutChart: 'The link has settings but names no chart (chart=…); they were not used.',
  noWasm: (message) => `This chart is computed by WebAssembly, which could not be loaded here (${message}). ` +
    'The rest of the page still works; a current browser with WebAssembly enabled shows the chart.',
  drawFailed: (message) => `This chart could not be drawn: ${message}`,
  loading: 'Loading the chart…',
  table: 'Table',
  hideTable: 'Hide table',
  tableEmpty: 'This chart has no data to show.',
  tableCaption: (title) => `The numbers behind “${title}”`,
  tablePart: (nr, rows, nc, cols) => ` (the first ${nr} of ${rows} rows and ${nc} of ${cols} columns; the CSV has them all)`,
  scrolls: (name) => `${name} (scrolls)`,
};

// In the reader's language from the start (everything that imports the host gets it so).
localizeHost(STRINGS);

/** Every chart kind (a module web/charts/<kind>.js). A test keeps this in step with the folder. */
export const KINDS = Object.freeze([
  'absolute-decay', 'binary', 'convention-lab', 'dynamic-kv-cache', 'exact-table', 'extrapolation',
  'four-terms', 'frequency-curves', 'helix', 'kv-cache', 'near-orthogonal', 'order', 'precision-heatmap',
  'precision-lab', 'relative-rotation', 'rope-2d', 'rope-decay-random', 'rope-decay', 'rope-periods',
  'rotate-half', 'scaling-decay', 'scaling-variants', 'sin-heatmap', 'single-frequency',
  'sinusoidal-layouts', 'three-frequencies', 'unit-circle', 'wavelengths',
]);

/** The chart shown when a URL names none or an unknown one. */
export const DEFAULT_KIND = 'rope-decay';

/** Names that are not chart params but are read elsewhere (page, embed.html, i18n, themes). */
export const RESERVED = Object.freeze(['chart', 'controls', 'toolbar', 'lang', 'theme']);

/** Most name/value pairs read from one URL or element; the rest are ignored with a note. */
export const MAX_ENTRIES = 64;
const MAX_VALUE_LENGTH = 64; // longer values are malformed (no number or option is that long)

/** The chart module for `kind`, or a TypeError when `kind` is not in KINDS. */
export async function loadChart(kind) {
  if (!KINDS.includes(kind)) throw new TypeError(`unknown chart kind ${show(kind)}`);
  // A template import: esbuild bundles every module of charts/ for the single-file builds.
  const { default: chart } = await import(`../charts/${kind}.js`);
  return chart;
}

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

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
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
  if (text.length > MAX_VALUE_LENGTH) return { note: STRINGS.malformed(p.name, show(text), def) };
  if (p.type === 'bool') {
    const t = text.toLowerCase();
    if (TRUE.has(t)) return { value: true };
    if (FALSE.has(t)) return { value: false };
    return { note: STRINGS.malformed(p.name, show(text), def) };
  }
  if (p.type === 'select') {
    if (p.options.includes(text)) return { value: text };
    return { note: STRINGS.notOption(p.name, show(text), def) };
  }
  if (p.type === 'int' || p.type === 'number') {
    if (!NUMBER.test(text)) return { note: STRINGS.malformed(p.name, show(text), def) };
    const v = Number(text);
    if (!Number.isFinite(v)) return { note: STRINGS.malformed(p.name, show(text), def) };
    const used = fit(p, v);
    if (used === v) return { value: used };
    const outside = v < p.min || v > p.max;
    return { value: used, note: (outside ? STRINGS.clamped : STRINGS.stepped)(p.name, show(text), String(used)) };
  }
  return { note: STRINGS.malformed(p.name, show(text), def) };
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
        notes.push(STRINGS.tooMany(MAX_ENTRIES));
        break;
      }
      const key = normName(name);
      if (skip.has(key)) continue;
      const p = byName.get(key);
      if (!p) {
        notes.push(STRINGS.unknownName(show(name)));
        continue;
      }
      seen.set(p, (seen.get(p) ?? 0) + 1);
      if (seen.get(p) === 2) notes.push(STRINGS.repeated(p.name));
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
    notes.push(STRINGS.malformed('?', show(err?.message ?? err), '…'));
  }
  for (const [p, count] of seen) if (count > 1) delete values[p.name];
  return { values, notes };
}

/** The query string (without "?") that describes a chart's state: chart=kind&name=value... */
export function stateQuery(kind, params, values, extra = {}) {
  const q = new URLSearchParams();
  q.set('chart', kind);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null) q.set(k, String(v));
  for (const p of params) q.set(p.name, formatValue(p, values[p.name] ?? p.value));
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

/**
 * The two snippets the Embed button copies: an iframe of embed.html (if embedUrl) and the
 * custom element with its script tag (if scriptUrl). Every value is escaped.
 */
export function embedSnippets({ chart, values, embedUrl, scriptUrl, height = 480 }) {
  const parts = [];
  if (embedUrl) {
    const src = new URL(embedUrl);
    src.search = `?${stateQuery(chart.kind, chart.params, values)}`;
    parts.push(`<!-- posenc: ${escapeHTML(chart.kind)}, ${STRINGS.embedIframe} -->`,
      `<iframe src="${escapeHTML(src.href)}" title="${escapeHTML(chart.title)}" width="100%" ` +
      `height="${Math.max(200, Math.round(height))}" loading="lazy" style="border: 0"></iframe>`);
  }
  if (scriptUrl) {
    const attrs = chart.params.map((p) => ` ${paramAttribute(p)}="${escapeHTML(formatValue(p, values[p.name] ?? p.value))}"`).join('');
    parts.push(`<!-- posenc: ${escapeHTML(chart.kind)}, ${STRINGS.embedElement} -->`,
      `<script src="${escapeHTML(String(scriptUrl))}"></script>`,
      `<posenc-chart kind="${escapeHTML(chart.kind)}"${attrs}>${escapeHTML(chart.title)}</posenc-chart>`);
  }
  return parts.join('\n');
}

/** One CSV cell: numbers as JavaScript prints them (exact round trip), text quoted when needed. */
function csvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  let s = typeof v === 'object' ? JSON.stringify(ArrayBuffer.isView(v) ? Array.from(v) : v) : String(v);
  // a text cell that a spreadsheet would run as a formula gets a leading apostrophe
  if (/^[=+\-@\t\r]/.test(s) && !NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n#]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The CSV of a chart's data: '#' comment lines naming the chart and each parameter, then a
 * header row (data.columns) and one line per row. Read it with e.g. pandas.read_csv(f, comment='#').
 */
export function toCSV(chart, values, data, { link } = {}) {
  const lines = [`# posenc chart "${show(chart.kind)}": ${String(chart.title).replace(/[\r\n]/g, ' ')}`];
  for (const p of chart.params) lines.push(`# ${p.name} = ${formatValue(p, values[p.name] ?? p.value)}`);
  if (link) lines.push(`# link: ${link}`);
  lines.push((data?.columns ?? []).map(csvCell).join(','));
  for (const row of data?.rows ?? []) lines.push(Array.from(row, csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function download(parent, name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  parent.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Runs fn() while window.devicePixelRatio reads r; restores it after, whatever happens. */
function withPixelRatio(r, fn) {
  const own = Object.getOwnPropertyDescriptor(window, 'devicePixelRatio');
  try {
    Object.defineProperty(window, 'devicePixelRatio', { configurable: true, enumerable: true, get: () => r });
  } catch {
    return fn();
  }
  try {
    return fn();
  } finally {
    if (own) Object.defineProperty(window, 'devicePixelRatio', own);
    else delete window.devicePixelRatio;
  }
}

const NUMERIC = new Set(['int', 'number']);

function control(p, onInput) {
  const wrap = document.createElement('label');
  wrap.className = 'control';
  const name = document.createElement('span');
  wrap.append(name);
  const inputs = [];
  if (NUMERIC.has(p.type)) {
    const range = document.createElement('input');
    const box = document.createElement('input');
    range.type = 'range';
    box.type = 'number';
    for (const el of [range, box]) {
      el.min = p.min;
      el.max = p.max;
      el.step = p.step ?? (p.type === 'int' ? 1 : 'any');
      el.value = p.value;
      el.name = p.name;
      inputs.push(el);
    }
    range.addEventListener('input', () => ((box.value = range.value), onInput()));
    box.addEventListener('input', () => {
      if (box.value !== '' && box.checkValidity()) (range.value = box.value), onInput();
    });
    wrap.append(range, box);
  } else if (p.type === 'select') {
    const sel = document.createElement('select');
    sel.name = p.name;
    for (const opt of p.options) {
      const o = document.createElement('option');
      o.value = opt;
      sel.append(o);
    }
    sel.value = p.value;
    sel.addEventListener('input', onInput);
    inputs.push(sel);
    wrap.append(sel);
  } else if (p.type === 'bool') {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = p.name;
    box.checked = !!p.value;
    box.addEventListener('input', onInput);
    inputs.push(box);
    wrap.prepend(box);
  } else {
    throw new TypeError(`chart param ${p.name}: unknown type ${p.type}`);
  }
  const write = (v) => {
    if (p.type === 'bool') inputs[0].checked = !!v;
    else for (const el of inputs) el.value = String(v);
  };
  /** The label, the inputs' names and the option texts, in the current language. */
  const relabel = () => {
    const label = t(p.label ?? p.name);
    name.textContent = label;
    for (const el of inputs) {
      if (el.type === 'range') el.setAttribute('aria-label', label);
      else if (el.type === 'number') el.setAttribute('aria-label', `${label} ${tr('(number)', '(数值)')}`);
      else if (el.tagName === 'SELECT') for (const o of el.options) o.textContent = t(p.optionLabels?.[o.value] ?? o.value);
    }
  };
  relabel();
  return { wrap, read: () => read(p, inputs[inputs.length - 1]), write, inputs, relabel };
}

function read(p, input) {
  if (p.type === 'bool') return input.checked;
  if (p.type === 'select') return p.options.includes(input.value) ? input.value : p.value;
  let v = Number(input.value);
  if (!Number.isFinite(v) || input.value === '') v = p.value;
  v = Math.min(p.max, Math.max(p.min, v));
  return p.type === 'int' ? Math.round(v) : v;
}

/** A note box listing what was not used; null when there is nothing to say. */
export function noteBox(notes) {
  if (!notes?.length) return null;
  const box = document.createElement('div');
  box.className = 'posenc-note';
  box.setAttribute('role', 'note');
  const title = document.createElement('p');
  title.textContent = STRINGS.notesTitle;
  const list = document.createElement('ul');
  for (const n of notes.slice(0, 12)) {
    const li = document.createElement('li');
    li.textContent = n;
    list.append(li);
  }
  box.append(title, list);
  return box;
}

/** A clear, per-chart message (WebAssembly missing, a chart that failed), replacing el's content. */
export function showMessage(el, text) {
  const p = document.createElement('p');
  p.className = 'posenc-error';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  el.replaceChildren(p);
  return p;
}

let uid = 0;
/** An id no other element of posenc's has: prefix-kind-n. */
const newId = (prefix, kind) => `${prefix}-${kind}-${++uid}`;

/**
 * Mounts `chart` into `container`. Options: pe, Chart (Chart.js), values (starting values by
 * param name, already checked: use parseParams for outside input), notes (shown above the
 * chart), controls (false hides them), toolbar: { link?: () => url, embed?: () => html,
 * png?: true, csv?: true } or null for none.
 */
export function mountChart(container, chart, { pe, Chart, values = {}, notes = [], controls = true, toolbar = null } = {}) {
  container.classList.add('chart');
  container.dataset.kind = chart.kind;
  applyChartTheme(Chart); // (a bundled Chart.js is not the global one theme.js keeps in step)
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  const form = document.createElement('form');
  form.className = 'controls';
  form.hidden = !controls;
  form.addEventListener('submit', (e) => e.preventDefault());
  const body = document.createElement('div');
  body.className = 'chart-body';
  const readout = document.createElement('p');
  readout.className = 'readout';
  readout.id = newId('readout', chart.kind);
  readout.setAttribute('aria-live', 'polite');
  figure.append(caption, body, readout);
  const notesAt = document.createElement('div');
  notesAt.className = 'posenc-notes';
  container.replaceChildren(notesAt, form, figure);

  let pending = 0;
  const host = { chart, data: null, view: null, controls: [], i18n: true };
  const schedule = () => {
    if (!pending) pending = requestAnimationFrame(() => ((pending = 0), host.update()));
  };
  for (const p of chart.params) {
    const c = control({ ...p, value: values[p.name] ?? p.value }, schedule);
    host.controls.push({ param: p, ...c });
    form.append(c.wrap);
  }
  const allNotes = [...notes];
  const showNotes = () => notesAt.replaceChildren(...[noteBox(allNotes)].filter(Boolean));
  host.params = () => Object.fromEntries(host.controls.map((c) => [c.param.name, c.read()]));
  /** Sets controls by param name (checked values: see parseParams) and redraws on the next frame. */
  host.set = (vals) => {
    for (const c of host.controls) if (Object.hasOwn(vals, c.param.name)) c.write(vals[c.param.name]);
    schedule();
  };
  /** Replaces the notes shown above the chart. */
  host.setNotes = (list) => {
    allNotes.splice(0, allNotes.length, ...list);
    showNotes();
  };
  /** The caption and the controls' texts in the current language. */
  const labels = () => {
    caption.textContent = t(chart.title);
    for (const c of host.controls) c.relabel();
  };
  labels();
  host.view = chart.mount(body, { pe, Chart });
  /** Every chart image is described by the readout. */
  const describe = () => {
    for (const canvas of body.querySelectorAll('canvas[role="img"]')) canvas.setAttribute('aria-describedby', readout.id);
  };
  /** Redraws now with the controls' values; returns the data, or null if the chart threw (shown in the readout). */
  host.update = () => {
    let data;
    try {
      data = host.view.update(host.params());
    } catch (err) {
      readout.textContent = STRINGS.drawFailed(err?.message ?? String(err));
      readout.classList.add('posenc-error');
      container.dispatchEvent(new CustomEvent('posenc:error', { detail: err }));
      return null;
    }
    host.data = data;
    readout.classList.remove('posenc-error');
    readout.textContent = host.view.readout ?? '';
    describe();
    container.dispatchEvent(new CustomEvent('posenc:drawn', { detail: host.data }));
    return host.data;
  };

  // Outside values that the chart cannot draw (a combination its module rejects) fall back to
  // the defaults, with a note, instead of leaving a broken chart.
  if (host.update() === null && Object.keys(values).length) {
    allNotes.push(STRINGS.notDrawn(readout.textContent.replace(/^.*?: /, '')));
    for (const c of host.controls) c.write(c.param.value);
    if (host.update() === null) throw new Error(readout.textContent);
  }
  showNotes();

  if (toolbar) addToolbar(container, figure, host, toolbar, Chart);
  else host.relabel = () => {};
  const table = tableView(container, host);
  const relabel = host.relabel;
  host.relabel = () => (relabel(), table.relabel());

  const stop = [
    onLang(() => {
      localizeHost(STRINGS);
      labels();
      host.relabel();
      host.update();
    }),
    onTheme(() => {
      applyChartTheme(Chart);
      host.update();
    }),
  ];
  host.destroy = () => {
    for (const f of stop) f();
    table.destroy();
    if (pending) cancelAnimationFrame(pending);
    host.view.destroy?.();
    container.replaceChildren();
  };
  return host;
}

const MAX_TABLE_ROWS = 100;
const MAX_TABLE_COLUMNS = 24;

function tableCell(v) {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v);
  if (v === null || v === undefined) return '';
  return String(v);
}

/**
 * A table wider (or taller) than its scroll box can only be read by scrolling, so a keyboard
 * must be able to reach the box: in `container`, scrolling ones get tabindex 0, role region and a name.
 */
function scrollables(container) {
  for (const box of container.querySelectorAll('.table-scroll')) {
    if (box.hidden) continue;
    const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    if (scrolls) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      const name = box.querySelector('caption')?.textContent || container.querySelector('figcaption')?.textContent || '';
      box.setAttribute('aria-label', STRINGS.scrolls(name));
    } else if (box.hasAttribute('tabindex')) {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }
}

/**
 * The "Table" toggle under a chart: host.data as an HTML table of at most MAX_TABLE_ROWS ×
 * MAX_TABLE_COLUMNS (the CSV has everything), redrawn with the chart while it is open.
 */
function tableView(container, host) {
  const box = document.createElement('div');
  box.className = 'data-table';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'data-table-toggle';
  button.setAttribute('aria-expanded', 'false');
  const region = document.createElement('div');
  region.className = 'table-scroll';
  region.id = newId('data-table', host.chart.kind);
  region.hidden = true;
  button.setAttribute('aria-controls', region.id);
  box.append(button, region);
  container.append(box);
  const relabel = () => (button.textContent = region.hidden ? STRINGS.table : STRINGS.hideTable);
  const render = () => {
    if (region.hidden) return;
    const data = host.data;
    if (!data?.columns) {
      region.textContent = STRINGS.tableEmpty;
      return;
    }
    const cols = data.columns.length, rows = data.rows?.length ?? 0;
    const nc = Math.min(cols, MAX_TABLE_COLUMNS), nr = Math.min(rows, MAX_TABLE_ROWS);
    const table = document.createElement('table');
    table.className = 'values mono data-values';
    table.createCaption().textContent = STRINGS.tableCaption(container.querySelector('figcaption')?.textContent ?? host.chart.kind) +
      (nr < rows || nc < cols ? STRINGS.tablePart(nr, rows, nc, cols) : '');
    const head = table.createTHead().insertRow();
    for (let c = 0; c < nc; c++) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = String(data.columns[c]);
      head.append(th);
    }
    const tbody = table.createTBody();
    for (let r = 0; r < nr; r++) {
      const tr = tbody.insertRow();
      const row = data.rows[r];
      for (let c = 0; c < nc; c++) {
        const td = document.createElement(c === 0 ? 'th' : 'td');
        if (c === 0) td.scope = 'row';
        td.textContent = tableCell(row[c]);
        tr.append(td);
      }
    }
    region.replaceChildren(table);
  };
  // Whether a table box scrolls is known after layout: checked in the next frame after a
  // change (reading sizes at once would force a layout of the whole page per chart), and when
  // the container is resized (a ResizeObserver reports after layout; also once at the start).
  let frame = 0;
  const later = () => {
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), scrollables(container)));
  };
  button.addEventListener('click', () => {
    region.hidden = !region.hidden;
    button.setAttribute('aria-expanded', String(!region.hidden));
    relabel();
    render();
    later();
  });
  const drawn = () => (render(), later());
  container.addEventListener('posenc:drawn', drawn);
  const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(() => scrollables(container)) : null;
  ro?.observe(container);
  relabel();
  return {
    relabel: () => (relabel(), render(), later()),
    destroy: () => (ro?.disconnect(), cancelAnimationFrame(frame), container.removeEventListener('posenc:drawn', drawn)),
  };
}

function addToolbar(container, figure, host, opts, Chart) {
  const { chart } = host;
  const bar = document.createElement('div');
  bar.className = 'posenc-toolbar';
  bar.setAttribute('role', 'group');
  const panel = document.createElement('div');
  panel.className = 'posenc-share';
  panel.hidden = true;
  const fieldLabel = document.createElement('label');
  const field = document.createElement('textarea');
  field.readOnly = true;
  field.spellcheck = false;
  field.className = 'mono';
  field.id = `posenc-share-${chart.kind}-${Math.random().toString(36).slice(2, 8)}`;
  fieldLabel.htmlFor = field.id;
  const status = document.createElement('p');
  status.className = 'posenc-share-status';
  status.setAttribute('role', 'status');
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'posenc-close';
  close.addEventListener('click', () => (panel.hidden = true));
  panel.append(fieldLabel, field, status, close);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') (panel.hidden = true), bar.querySelector('button')?.focus();
  });

  const buttons = {};
  const button = (key, onClick) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.action = key;
    b.addEventListener('click', () => {
      Promise.resolve().then(onClick).catch((err) => {
        panel.hidden = false;
        field.hidden = true;
        status.textContent = STRINGS.drawFailed(err?.message ?? String(err));
      });
    });
    buttons[key] = b;
    bar.append(b);
  };

  const share = async (labelKey, text, rows) => {
    fieldLabel.textContent = STRINGS[labelKey];
    field.hidden = false;
    field.value = text;
    field.rows = rows;
    panel.hidden = false;
    let copied = false;
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
        copied = true;
      }
    } catch {
      copied = false;
    }
    status.textContent = copied ? STRINGS.copied : STRINGS.copyByHand;
    if (!copied) {
      field.focus();
      field.select();
    }
    return copied;
  };

  if (opts.link) button('link', () => share('linkLabel', opts.link(host.params()), 2));
  if (opts.embed) {
    button('embed', () => {
      const text = opts.embed(host.params(), container.getBoundingClientRect().height);
      return share('embedLabel', text, Math.min(10, text.split('\n').length + 1));
    });
  }
  const canvases = () => [...figure.querySelectorAll('canvas')].filter((c) => c.getClientRects().length && c.width && c.height);
  if (opts.png && figure.querySelector('canvas')) button('png', () => exportPNG(host, figure, canvases, Chart));
  if (opts.csv) {
    button('csv', () => {
      const values = host.params();
      const link = opts.link ? opts.link(values) : undefined;
      const data = host.data ?? host.update();
      download(container, `posenc-${chart.kind}.csv`, new Blob([toCSV(chart, values, data, { link })], { type: 'text/csv;charset=utf-8' }));
    });
  }
  host.relabel = () => {
    bar.setAttribute('aria-label', STRINGS.toolbar);
    close.textContent = STRINGS.close;
    for (const [key, b] of Object.entries(buttons)) {
      b.textContent = STRINGS[key];
      b.title = STRINGS[`${key}Title`];
    }
  };
  host.relabel();
  host.toolbar = bar; // other page tools may add their buttons here
  figure.after(bar, panel);
}

/** Draws the chart's canvases at 2× into one PNG and downloads it. */
async function exportPNG(host, figure, canvases, Chart) {
  const scale = 2;
  const charts = () => canvases().map((c) => Chart?.getChart?.(c)).filter(Boolean);
  const out = document.createElement('canvas');
  withPixelRatio(scale, () => {
    for (const c of charts()) c.resize();
    host.update();
    const list = canvases();
    const rects = list.map((c) => c.getBoundingClientRect());
    const left = Math.min(...rects.map((r) => r.left)), top = Math.min(...rects.map((r) => r.top));
    const right = Math.max(...rects.map((r) => r.right)), bottom = Math.max(...rects.map((r) => r.bottom));
    out.width = Math.round((right - left) * scale);
    out.height = Math.round((bottom - top) * scale);
    const ctx = out.getContext('2d');
    // canvases are transparent: the theme's background behind them (its text is light in dark)
    ctx.fillStyle = colours().bg;
    ctx.fillRect(0, 0, out.width, out.height);
    list.forEach((c, i) => {
      const r = rects[i];
      ctx.drawImage(c, (r.left - left) * scale, (r.top - top) * scale, r.width * scale, r.height * scale);
    });
  });
  // back to the screen's own resolution
  for (const c of charts()) c.resize();
  host.update();
  const blob = await new Promise((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  download(figure.parentElement ?? figure, `posenc-${host.chart.kind}.png`, blob);
}
