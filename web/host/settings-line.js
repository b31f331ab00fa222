// settings-line.js: how a chart was set, in one line of the page's language: its controls'
// labels and values and the text the reader gave it. Paper (print.js) and exported figures
// (toolbar.js) carry it, since neither shows a control.
import { lang, messages } from './i18n.js';

const M = messages({
  en: { settings: 'Settings: {list}', on: 'on', off: 'off', sep: ' · ', colon: ': ' },
  zh: { settings: '设置：{list}', on: '开', off: '关', sep: '；', colon: '：' },
});

// inputs that are not the chart's settings: the toolbar's panels (a link, an embed, an
// animation's range), the data table's toggle, and what a chart marks so (a menu that only fills
// in a text box: the text box says what was drawn)
const NOT_SETTINGS = '.posenc-toolbar, .posenc-share, .data-table, .not-a-setting';
// a text the reader gave, shortened past about two printed lines
const MAX_TEXT = 140;
// significant figures of a number past which its fraction is rounded
const FIGURES = 6;

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
  // what the chart draws where its controls alone would not say it (the lab's runs trained ahead of time)
  for (const note of chart.querySelectorAll('[data-settings-note]')) if (note.dataset.settingsNote) items.push(note.dataset.settingsNote);
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
    // the number box beside it holds the value as typed; when the box is half-typed, the last value
    // drawn is what the slider speaks (a log slider's own value is an index into its round values)
    const box = label?.querySelector('input[type="number"]');
    value = number(box && box.value !== '' && box.checkValidity() ? box.value : input.getAttribute('aria-valuetext') ?? input.value);
  } else if (input.type === 'number') value = number(input.value);
  else if (input.type === 'file') value = [...(input.files ?? [])].map((f) => f.name).join(', ');
  else if (input.type === 'text' || input.tagName === 'TEXTAREA') value = quote(input.value);
  else return null;
  if (!value) return null;
  // an option that is itself an equation for what the label names (θ: "θᵢ = base^(−2i/d)") says it once
  if (!name || (value.startsWith(name) && value.includes('='))) return value;
  // a label that ends in the symbol it sets (pair i, factor s, d_model) reads as an equation
  if (SYMBOL_LAST.test(name) && !LIST.test(name)) {
    if (/^−?\d/.test(value)) return `${name} = ${value}`;
    if (value.includes('=')) return `${name}${M.colon}${value}`;
  }
  // Chinese sets no space between a character and its opening quote
  return lang() === 'zh' && value.startsWith('“') && /[\u3400-\u9fff]$/.test(name) ? `${name}${value}` : `${name} ${value}`;
}

// a label's last word that is a symbol: one Latin or Greek letter (with subscripts or a prime),
// or a name in snake_case (d_model, max_distance, β_fast)
const SYMBOL_LAST = /(?:^|\s)(?:[A-Za-z\u0370-\u03ff][\u2080-\u2089\u1d62\u2032]*|[A-Za-z\u0370-\u03ff]\w*(?:_\w+)+)$/;
// a label that lists symbols ("seed for q, k", "q 和 k") does not set the last of them
const LIST = /,|、| and | 和 |seed|种子/;

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

/**
 * A number as typed, its whole part grouped by threes past four digits (10 000), as on paper; a
 * fraction past FIGURES significant figures (a slider dragged, a value computed) is rounded there.
 */
function number(s) {
  let text = String(s).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  if (text.replace(/^-?0*\.?0*/, '').replace('.', '').length > FIGURES && text.includes('.')) {
    // the whole part stays as it is: only the fraction gives up its figures
    const whole = text.replace(/^-?0*/, '').split('.')[0].length, v = Number(text);
    const short = String(Number(whole ? v.toFixed(Math.max(0, FIGURES - whole)) : v.toPrecision(FIGURES)));
    if (/^-?\d+(\.\d+)?$/.test(short)) text = short;
  }
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
