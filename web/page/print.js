// print.js: the page as a handout. Chart.js redraws a canvas when the print layout resizes it,
// which a printer may not wait for; so before printing, each chart's canvases are copied into
// images as they are on screen, and the print stylesheet shows those instead (style.css,
// @media print). Paper shows no control either, so each chart also gets one line saying how it
// was set: its controls' labels and values, and the text the reader gave it (a config, a
// sentence). After printing the images and the lines go.
// The URL picks the handout: ?print=core (tracks, section numbers, ranges: tracks.js) prints
// only those sections, and ?answers is the teacher's copy, with each exercise's answer where a
// student's copy leaves room to write a prediction (style.css); its contents list what it prints.
import { parseValue } from '../host/params.js';
import { handoutSections } from './tracks.js';
import { settingsLine } from '../host/settings-line.js';

const SNAPSHOT = 'print-snapshot';
const SETTINGS = 'print-settings';


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

// The printed contents list what the handout prints: the entries of sections it leaves out hide
// (the others keep their numbers: a hidden entry would renumber the rest), and the recap, which
// every handout ends with and the screen's contents do not list, gets a line under them.
const RECAP_LINE = 'print-contents-recap';
export function listPrinted(doc = document) {
  unlistPrinted(doc);
  for (const ol of doc.querySelectorAll('.tracks ol.toc')) {
    [...ol.children].forEach((li, k) => {
      li.value = ol.start + k;
      const id = li.querySelector('a[href^="#"]')?.hash.slice(1);
      li.hidden = Boolean(id && doc.getElementById(id)?.hasAttribute('data-unprinted'));
    });
  }
  const title = doc.getElementById('recap-title'), tracks = doc.querySelector('.tracks');
  if (!title || !tracks) return;
  const line = doc.createElement('p'), link = doc.createElement('a');
  line.className = RECAP_LINE;
  link.href = '#recap';
  link.append(...[...title.childNodes].map((n) => n.cloneNode(true)));
  line.append(link);
  tracks.after(line);
}

export function unlistPrinted(doc = document) {
  for (const li of doc.querySelectorAll('.tracks ol.toc > li')) (li.removeAttribute('value'), (li.hidden = false));
  doc.querySelector(`p.${RECAP_LINE}`)?.remove();
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
  const before = () => { snapshotCharts(); listPrinted(); openAnswers(document); };
  const after = () => { clearSnapshots(); unlistPrinted(); closeAnswers(); };
  addEventListener('beforeprint', before);
  addEventListener('afterprint', after);
  const media = matchMedia('print');
  media.addEventListener('change', () => (media.matches ? before() : after()));
}
