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
// setNotes(list), data, view, controls, chart, toolbar (the buttons' element, or absent) }.
// update() redraws now (an i18n or theme switch calls it after changing what the chart module
// reads); relabel() re-applies STRINGS to the buttons.

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
};

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
  const { default: chart } = await import(`./charts/${kind}.js`);
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

/** The first opaque background colour at or above el, for the PNG's backdrop. */
function backdrop(el) {
  for (let e = el; e; e = e.parentElement ?? e.getRootNode?.().host) {
    const c = getComputedStyle(e).backgroundColor;
    if (c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c)) return c;
  }
  return '#ffffff';
}

const NUMERIC = new Set(['int', 'number']);

function control(p, onInput) {
  const wrap = document.createElement('label');
  wrap.className = 'control';
  const name = document.createElement('span');
  name.textContent = p.label ?? p.name;
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
    range.setAttribute('aria-label', p.label ?? p.name);
    box.setAttribute('aria-label', `${p.label ?? p.name} (number)`);
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
      o.value = o.textContent = opt;
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
  return { wrap, read: () => read(p, inputs[inputs.length - 1]), write, inputs };
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

/**
 * Mounts `chart` into `container`. Options: pe, Chart (Chart.js), values (starting values by
 * param name, already checked: use parseParams for outside input), notes (shown above the
 * chart), controls (false hides them), toolbar: { link?: () => url, embed?: () => html,
 * png?: true, csv?: true } or null for none.
 */
export function mountChart(container, chart, { pe, Chart, values = {}, notes = [], controls = true, toolbar = null } = {}) {
  container.classList.add('chart');
  container.dataset.kind = chart.kind;
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  caption.textContent = chart.title;
  const form = document.createElement('form');
  form.className = 'controls';
  form.hidden = !controls;
  form.addEventListener('submit', (e) => e.preventDefault());
  const body = document.createElement('div');
  body.className = 'chart-body';
  const readout = document.createElement('p');
  readout.className = 'readout';
  readout.setAttribute('aria-live', 'polite');
  figure.append(caption, body, readout);
  const notesAt = document.createElement('div');
  notesAt.className = 'posenc-notes';
  container.replaceChildren(notesAt, form, figure);

  let pending = 0;
  const host = { chart, data: null, view: null, controls: [] };
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
  host.view = chart.mount(body, { pe, Chart });
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
    container.dispatchEvent(new CustomEvent('posenc:drawn', { detail: host.data }));
    return host.data;
  };
  host.destroy = () => {
    if (pending) cancelAnimationFrame(pending);
    host.view.destroy?.();
    container.replaceChildren();
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
  return host;
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
  host.toolbar = bar; // other page tools (a data-table toggle, say) may add their buttons here
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
    ctx.fillStyle = backdrop(figure);
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
