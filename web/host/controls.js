// controls.js: one labelled control per chart param (a slider with a number box, a select, a
// checkbox), the note box for settings that were not used, and the per-chart message box.
import { t } from './i18n.js';
import { HOST } from './strings.js';
import { isLog, ladder, ladderIndex, roundStep } from './slider-scale.js';

let uid = 0;
/** An id no other element of posenc's has: prefix-kind-n. */
export const newId = (prefix, kind) => `${prefix}-${kind}-${++uid}`;

const NUMERIC = new Set(['int', 'number']);

export function control(p, onInput) {
  const wrap = document.createElement('label');
  wrap.className = 'control';
  const name = document.createElement('span');
  wrap.append(name);
  const inputs = [];
  let top = () => {}, put = (v) => (inputs[0].value = String(v));
  if (NUMERIC.has(p.type)) {
    const range = document.createElement('input');
    const box = document.createElement('input');
    range.type = 'range';
    box.type = 'number';
    for (const el of [range, box]) {
      el.min = p.min;
      el.max = p.max;
      el.step = p.step ?? (p.type === 'int' ? 1 : 'any');
      el.name = p.name;
      inputs.push(el);
    }
    // A param may give its slider a shorter range (`sliderMax`) so that a step is a finger's
    // width on a phone; the number box (the value read) and URLs still take up to `max`, and
    // the slider rests at its end for a value past it.
    const sliderTop = Number.isFinite(p.sliderMax) && p.sliderMax > p.min && p.sliderMax < p.max ? p.sliderMax : p.max;
    const log = isLog(p);
    // a log slider's value is an index into round values (slider-scale.js); the box keeps the exact value
    let steps = null;
    const toSlider = (v) => (log ? String(ladderIndex(steps, Number(v))) : String(v));
    const fromSlider = () => (log ? String(steps[Math.round(Number(range.value))]) : range.value);
    // the slider's own value is an index, a value rounded to its step or its end short of the
    // box's: it then speaks the box's exact one
    const show = () => {
      if (log || range.value !== box.value) range.setAttribute('aria-valuetext', box.value);
      else range.removeAttribute('aria-valuetext');
    };
    top = (hi) => {
      hi = Math.min(hi, sliderTop);
      if (log) {
        steps = ladder(p, p.min, hi);
        (range.min = 0), (range.max = steps.length - 1), (range.step = 1);
        if (box.value !== '') (range.value = toSlider(box.value)), show();
      } else range.max = hi;
    };
    if (!log && p.type === 'number' && (p.step ?? 'any') === 'any') range.step = roundStep(p);
    top(p.max);
    put = (v) => ((box.value = String(v)), (range.value = toSlider(v)), show());
    put(p.value);
    range.addEventListener('input', () => ((box.value = fromSlider()), show(), onInput()));
    box.addEventListener('input', () => {
      if (box.value !== '' && box.checkValidity()) (range.value = toSlider(box.value)), show(), onInput();
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
    else put(v);
  };
  /** The label, the inputs' names and the option texts, in the current language. */
  const relabel = () => {
    const label = t(p.label ?? p.name);
    name.textContent = label;
    for (const el of inputs) {
      if (el.type === 'range') el.setAttribute('aria-label', label);
      else if (el.type === 'number') el.setAttribute('aria-label', HOST.numberInput.format({ label }));
      else if (el.tagName === 'SELECT') for (const o of el.options) o.textContent = t(p.optionLabels?.[o.value] ?? o.value);
    }
  };
  relabel();
  /** Ends the slider at `hi` (or sliderMax, the lower): a range that another param limits. */
  const limit = (hi) => top(hi);
  return { wrap, read: () => read(p, inputs[inputs.length - 1]), write, inputs, relabel, limit };
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
  title.textContent = HOST.notesTitle;
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
