// print.js: the page as a handout. Chart.js redraws a canvas when the print layout resizes it,
// which a printer may not wait for; so before printing, each chart's canvases are copied into
// images as they are on screen, and the print stylesheet shows those instead (style.css,
// @media print). Paper shows no control either, so each chart also gets one line saying how it
// was set: its controls' labels and values, and the text the reader gave it (a config, a
// sentence). After printing the images and the lines go.
// The URL picks the handout: ?print=core (tracks, section numbers, ranges: tracks.js) prints
// only those sections, and ?answers is the teacher's copy, with each exercise's answer where a
// student's copy leaves room to write a prediction (style.css); its contents list what it prints.
// ?print=questions,12-13 is a class's question sheet: of each section only its exercises and
// the charts they set, no lesson text; the primer and the recap get a question each (a student's
// sheet leaves out the diagram and the table that answer them: style.css).
import { parseValue } from '../host/params.js';
import { handoutSections, TRACKS } from './tracks.js';
import { settingsLine } from '../host/settings-line.js';
import { messages } from '../host/i18n.js';
import { sizeAll } from '../host/canvas-sizes.js';
import { redrawNow } from '../host/redraw-soon.js';

const M = messages({
  en: {
    sections: '{track}: sections {list}',
    section: '{track}: section {list}',
    primerQuestion: 'Which vectors does RoPE turn, and where?',
    primerAnswer: 'q and k, not v, in every layer, just before the scores.',
    recapQuestion: 'Where does a token’s position enter a RoPE score?',
    recapAnswer: 'Only through the distance n − m: (Rₘq)·(Rₙk) = q·Rₙ₋ₘk, whatever m is.',
    answer: 'Answer',
  },
  zh: {
    sections: '{track}：第 {list} 节',
    section: '{track}：第 {list} 节',
    primerQuestion: 'RoPE 旋转的是哪些向量？在哪里旋转？',
    primerAnswer: 'q 和 k，不转 v；每一层都转，就在计算得分之前。',
    recapQuestion: '在 RoPE 的得分里，token 的位置是以什么形式出现的？',
    recapAnswer: '只以距离 n − m 的形式出现，因为 (Rₘq)·(Rₙk) = q·Rₙ₋ₘk，与 m 本身无关。',
    answer: '答案',
  },
});

const SNAPSHOT = 'print-snapshot';
const SETTINGS = 'print-settings';


/** Puts an <img> of each drawn canvas of the page right after it, and a settings line under each chart's title. */
export function snapshotCharts(doc = document) {
  clearSnapshots(doc);
  // a chart far from the view may not be drawn yet, or not since a switch: drawn now, paper shows every one
  redrawNow(doc);
  sizeAll(doc);
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


const QUESTIONS = 'questions';

/**
 * The handout a query asks for: { ids, answers, questions, notes }, ids the sections to print (a
 * Set, or null for all: ?print=), answers true for the teacher's copy (?answers), questions true
 * for the question sheet (questions among print='s parts: ?print=questions,12-13), notes what
 * was not used.
 */
export function readHandout(query, doc = globalThis.document) {
  const notes = [];
  const print = query.get('print');
  const parts = print === null ? [] : print.split(',');
  const isQuestions = (p) => p.trim().toLowerCase() === QUESTIONS;
  const questions = parts.some(isQuestions);
  const rest = parts.filter((p) => !isQuestions(p)).join(',');
  const { ids, note } = rest === '' ? { ids: null, note: '' } : handoutSections(rest, doc);
  if (note) notes.push(note);
  const raw = query.get('answers');
  const r = raw === null ? { value: false } : parseValue({ name: 'answers', type: 'bool', value: false }, raw);
  if (r.note) notes.push(r.note);
  return { ids, answers: r.value === true, questions, notes };
}

/**
 * Marks what the handout leaves out (data-unprinted): its sections, and the tracks of the table
 * of contents none of whose sections it holds; and the teacher's copy (<html data-answers>).
 */
export function markHandout(query, doc = document) {
  const { ids, answers, questions } = readHandout(query, doc);
  const out = (id) => Boolean(ids && !ids.has(id));
  for (const s of doc.querySelectorAll('main > section')) s.toggleAttribute('data-unprinted', out(s.id));
  for (const track of doc.querySelectorAll('.tracks .track')) {
    track.toggleAttribute('data-unprinted', [...track.querySelectorAll('a[href^="#"]')].every((a) => out(a.hash.slice(1))));
  }
  doc.documentElement.toggleAttribute('data-answers', answers);
  doc.documentElement.toggleAttribute('data-questions', questions);
  // the charts a question sheet keeps: those its exercises' links set, and the primer's diagram
  // (for the teacher's copy)
  for (const el of doc.querySelectorAll('main > section > [data-chart], #primer > svg.pipeline')) {
    el.toggleAttribute('data-asked', questions && (el.matches('svg') || askedIn(el.closest('section')).has(el.dataset.chart)));
  }
}

/** The kinds of chart the exercises of `section` set (their links' kind.param keys). */
function askedIn(section) {
  const kinds = new Set();
  for (const a of section.querySelectorAll('details.exercise a.scene-link')) {
    for (const key of new URL(a.href, 'http://x/').searchParams.keys()) if (key.includes('.')) kinds.add(key.split('.')[0]);
  }
  return kinds;
}

// The primer and the recap have no exercise: a question sheet asks the one a class asks there.
const ASKED = 'print-question';
function addQuestions(doc) {
  if (!doc.documentElement.hasAttribute('data-questions')) return;
  for (const [id, q, a] of [['primer', 'primerQuestion', 'primerAnswer'], ['recap', 'recapQuestion', 'recapAnswer']]) {
    const section = doc.getElementById(id);
    if (!section || section.hasAttribute('data-unprinted') || section.querySelector(`.${ASKED}`)) continue;
    const details = doc.createElement('details');
    details.className = `exercise ${ASKED}`;
    const summary = doc.createElement('summary');
    const answer = doc.createElement('details');
    answer.className = 'answer';
    const label = doc.createElement('summary');
    const p = doc.createElement('p');
    label.textContent = M.answer;
    summary.textContent = M[q];
    p.textContent = M[a];
    answer.append(label, p);
    details.append(summary, answer);
    const diagram = id === 'primer' && section.querySelector(':scope > svg.pipeline.tall');
    if (diagram) diagram.after(details);
    else section.append(details);
  }
}
const removeQuestions = (doc) => doc.querySelectorAll(`.${ASKED}`).forEach((el) => el.remove());

/** "1, 3, 7–9": the numbers, runs of three or more as a range. */
function numberList(ns, sep) {
  const runs = [];
  for (const n of ns) {
    const run = runs.at(-1);
    if (run && n === run[1] + 1) run[1] = n;
    else runs.push([n, n]);
  }
  return runs.flatMap(([a, b]) => (b - a >= 2 ? [`${a}–${b}`] : a === b ? [String(a)] : [String(a), String(b)])).join(sep);
}

// The printed contents list what the handout prints: the entries of sections it leaves out hide
// (the others keep their numbers: a hidden entry would renumber the rest), a track printed in part
// is headed by the sections printed, not by the whole track's span and minutes, and the recap,
// which every handout ends with and the screen's contents do not list, gets a line under them.
const RECAP_LINE = 'print-contents-recap';
let headings = [];
export function listPrinted(doc = document) {
  unlistPrinted(doc);
  for (const ol of doc.querySelectorAll('.tracks ol.toc')) {
    [...ol.children].forEach((li, k) => {
      li.value = ol.start + k;
      const id = li.querySelector('a[href^="#"]')?.hash.slice(1);
      li.hidden = Boolean(id && doc.getElementById(id)?.hasAttribute('data-unprinted'));
    });
    const shown = [...ol.children].filter((li) => !li.hidden).map((li) => li.value);
    const track = ol.closest('.track[data-track]'), h3 = track?.querySelector('h3');
    if (!h3 || !shown.length || shown.length === ol.children.length || !TRACKS[track.dataset.track]) continue;
    headings.push([h3, [...h3.childNodes]]);
    h3.replaceChildren(...['en', 'zh'].map((l) => {
      const span = doc.createElement('span');
      span.lang = l === 'zh' ? 'zh-CN' : 'en';
      const text = M.tables[l][shown.length === 1 ? 'section' : 'sections'];
      span.textContent = text.replace('{track}', TRACKS.tables[l][track.dataset.track]).replace('{list}', numberList(shown, l === 'zh' ? '、' : ', '));
      return span;
    }));
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
  for (const [h3, nodes] of headings) h3.replaceChildren(...nodes);
  headings = [];
  doc.querySelector(`p.${RECAP_LINE}`)?.remove();
}

// A closed <details> prints nothing inside it, whatever the stylesheet says: the teacher's copy
// opens the exercises and their answers for printing, and closes after what it opened.
let opened = [];
function openAnswers(doc) {
  if (!doc.documentElement.hasAttribute('data-answers')) return;
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
  // The print dialog sends beforeprint and then turns the print media query on: the page is
  // prepared once (a PNG of every chart costs about a second) and put back once.
  let prepared = false;
  const before = () => {
    if (prepared) return;
    prepared = true;
    snapshotCharts(); listPrinted(); addQuestions(document); openAnswers(document);
  };
  const after = () => {
    if (!prepared) return;
    prepared = false;
    clearSnapshots(); unlistPrinted(); closeAnswers(); removeQuestions(document);
  };
  addEventListener('beforeprint', before);
  addEventListener('afterprint', after);
  const media = matchMedia('print');
  media.addEventListener('change', () => (media.matches ? before() : after()));
}
