// print.js: the page as a handout. Chart.js redraws a canvas when the print layout resizes it,
// which a printer may not wait for; so before printing, each chart's canvases are copied into
// images as they are on screen, and the print stylesheet shows those instead (style.css,
// @media print). Paper shows no control either, so each chart also gets one line saying how it
// was set: its controls' labels and values, and the text the reader gave it (a config, a
// sentence). After printing the images and the lines go.
// The URL picks the handout: ?print=core (tracks, section numbers, ranges: tracks.js) prints
// only those sections, and ?answers is the teacher's copy, with each exercise's answer where a
// student's copy leaves room to write a prediction (style.css).
import { lang, messages } from '../host/i18n.js';
import { parseValue } from '../host/params.js';
import { handoutSections } from './tracks.js';

const SNAPSHOT = 'print-snapshot';
const SETTINGS = 'print-settings';

const M = messages({
  en: { settings: 'Settings: {list}', on: 'on', off: 'off', sep: ' · ' },
  zh: { settings: '设置：{list}', on: '开', off: '关', sep: '；' },
});

/** Puts an <img> of each drawn canvas of the page right after it, and a settings line under each chart's title. */
export function snapshotCharts(doc = document) {
  clearSnapshots(doc);
  for (const canvas of doc.querySelectorAll('main [data-chart] canvas')) {
    if (!canvas.width || !canvas.height || !canvas.getClientRects().length) continue;
    const img = doc.createElement('img');
    img.className = SNAPSHOT;
    img.alt = canvas.getAttribute('aria-label') ?? '';
    img.src = canvas.toDataURL('image/png');
    const r = canvas.getBoundingClientRect();
    img.width = Math.round(r.width);
    img.height = Math.round(r.height);
    canvas.after(img);
  }
  for (const chart of doc.querySelectorAll('main [data-chart]')) {
    const caption = chart.querySelector(':scope > figure > figcaption');
    const text = caption && settingsLine(chart);
    if (!text) continue;
    const line = doc.createElement('p');
    line.className = SETTINGS;
    line.textContent = text;
    caption.after(line);
  }
}

export function clearSnapshots(doc = document) {
  for (const el of doc.querySelectorAll(`img.${SNAPSHOT}, p.${SETTINGS}`)) el.remove();
}

// inputs that are not the chart's settings: the toolbar's panels (a link, an embed, an
// animation's range), the data table's toggle
const NOT_SETTINGS = '.posenc-toolbar, .posenc-share, .data-table';
// a text the reader gave, shortened past about two printed lines
const MAX_TEXT = 140;

/**
 * The settings of chart element `chart` as one line in the page's language, or '' when it has
 * none: first the inputs of a panel its section shares among its charts (the real model and its
 * sentence), then the chart's own (its controls, then what its body asks for: a config), each as
 * its label and its value as shown.
 */
export function settingsLine(chart) {
  const section = chart.closest('section') ?? chart.parentElement;
  const shared = section ? [...section.querySelectorAll('.config-panel')].filter((p) => !p.closest('[data-chart]')) : [];
  const items = [];
  const seen = new Set();
  for (const root of [...shared, chart]) {
    for (const input of root.querySelectorAll('input, select, textarea')) {
      if (input.closest(NOT_SETTINGS) || !shown(input, root)) continue;
      // a slider and its number box share one label (which names only the first): one entry
      const label = input.labels?.[0] ?? input.closest('label');
      if (label && seen.has(label)) continue;
      if (label) seen.add(label);
      const item = entry(input, label);
      if (item) items.push(item);
    }
  }
  return items.length ? M.settings.format({ list: items.join(String(M.sep)) }) : '';
}

/** Not hidden by the chart (a field for another choice of model): the hidden attribute or an inline display: none up to root. */
function shown(el, root) {
  for (let n = el; n && n !== root.parentElement; n = n.parentElement) {
    if (n.hidden || n.style?.display === 'none') return false;
  }
  return true;
}

/** "label value" for one input, or null when it holds nothing to say. */
function entry(input, label) {
  const name = labelText(input, label);
  let value;
  // a control that names what to load next says, for paper, what the chart was drawn with
  if (input.dataset.drawn) value = input.dataset.drawn;
  else if (input.tagName === 'SELECT') value = input.selectedOptions[0]?.textContent.trim() ?? '';
  else if (input.type === 'checkbox') return name ? `${name} ${input.checked ? M.on : M.off}` : null;
  else if (input.type === 'range') {
    // the number box beside it holds the value as typed; the slider's is the one drawn when the box is half-typed
    const box = label?.querySelector('input[type="number"]');
    value = number(box && box.value !== '' && box.checkValidity() ? box.value : input.value);
  } else if (input.type === 'number') value = number(input.value);
  else if (input.type === 'file') value = [...(input.files ?? [])].map((f) => f.name).join(', ');
  else if (input.type === 'text' || input.tagName === 'TEXTAREA') value = quote(input.value);
  else return null;
  if (!value) return null;
  if (!name) return value;
  // Chinese sets no space between a character and its opening quote
  return lang() === 'zh' && value.startsWith('“') && /[\u3400-\u9fff]$/.test(name) ? `${name}${value}` : `${name} ${value}`;
}

/** The label's own words, up to its first bracket, colon or semicolon (the rest explains how to use the control). */
function labelText(input, label) {
  let text = input.getAttribute('aria-label') ?? '';
  if (label) {
    const copy = label.cloneNode(true);
    for (const el of copy.querySelectorAll('input, select, textarea, button')) el.remove();
    text = copy.textContent;
  }
  text = text.replace(/\s+/g, ' ').trim();
  const cut = text.search(/\s*[(（:：;；]/);
  return cut > 0 ? text.slice(0, cut) : text;
}

/** A number as typed, its whole part grouped by threes past four digits (10 000), as on paper. */
function number(s) {
  const text = String(s).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [int, frac] = text.split('.');
  const digits = int.replace('-', '');
  const grouped = digits.length > 4 ? digits.replace(/\B(?=(\d{3})+$)/g, '\u202f') : digits;
  return `${int.startsWith('-') ? '−' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/** A text box's text on one line, in quotes, shortened with an ellipsis. */
function quote(s) {
  const text = String(s).replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return `“${text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1).trimEnd()}…` : text}”`;
}

/**
 * The handout a query asks for: { ids, answers, notes }, ids the sections to print (a Set, or
 * null for all: ?print=), answers true for the teacher's copy (?answers), notes what was not used.
 */
export function readHandout(query, doc = globalThis.document) {
  const notes = [];
  const print = query.get('print');
  const { ids, note } = print === null ? { ids: null, note: '' } : handoutSections(print, doc);
  if (note) notes.push(note);
  const raw = query.get('answers');
  const r = raw === null ? { value: false } : parseValue({ name: 'answers', type: 'bool', value: false }, raw);
  if (r.note) notes.push(r.note);
  return { ids, answers: r.value === true, notes };
}

/**
 * Marks what the handout leaves out (data-unprinted): its sections, and the tracks of the table
 * of contents none of whose sections it holds; and the teacher's copy (<html data-answers>).
 */
export function markHandout(query, doc = document) {
  const { ids, answers } = readHandout(query, doc);
  const out = (id) => Boolean(ids && !ids.has(id));
  for (const s of doc.querySelectorAll('main > section')) s.toggleAttribute('data-unprinted', out(s.id));
  for (const track of doc.querySelectorAll('.tracks .track')) {
    track.toggleAttribute('data-unprinted', [...track.querySelectorAll('a[href^="#"]')].every((a) => out(a.hash.slice(1))));
  }
  doc.documentElement.toggleAttribute('data-answers', answers);
}

// A closed <details> prints nothing inside it, whatever the stylesheet says: the teacher's copy
// opens the exercises and their answers for printing, and closes after what it opened.
let opened = [];
function openAnswers(doc) {
  if (!doc.documentElement.hasAttribute('data-answers')) return;
  // (beforeprint and the print media query both call this: what the first opened stays listed)
  for (const d of doc.querySelectorAll('details.exercise:not([open]), details.exercise > details.answer:not([open])')) {
    d.open = true;
    opened.push(d);
  }
}
function closeAnswers() {
  for (const d of opened) d.open = false;
  opened = [];
}

/** The handout the URL asks for, and snapshots before every print (the print dialog, or a print media query turning on). */
export function preparePrinting() {
  markHandout(new URLSearchParams(location.search));
  const before = () => { snapshotCharts(); openAnswers(document); };
  const after = () => { clearSnapshots(); closeAnswers(); };
  addEventListener('beforeprint', before);
  addEventListener('afterprint', after);
  const media = matchMedia('print');
  media.addEventListener('change', () => (media.matches ? before() : after()));
}
