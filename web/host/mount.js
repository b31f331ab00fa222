// mount.js: mounts one chart module into a container: builds its labelled controls from the
// module's parameter list, redraws on input (at most once per animation frame), keeps the
// latest data the chart drew for tests and exports, and adds the table toggle. The toolbar is
// not its business: whoever shows one calls toolbar.js's addToolbar(host, opts) on the host, so
// a chart without one (a post's <posenc-chart>) never loads the export code.
// Chart modules never build controls or touch the wasm heap: they get `pe` (web/lib/posenc.js)
// and plain params.
import { t, onLang } from './i18n.js';
import { onTheme, applyChartTheme } from './theme.js';
import { drawnWithData } from './first-draw.js';
import { shownWithin, sizedWithin, whenShown, whenSized } from './canvas-sizes.js';
import { HOST } from './strings.js';
import { control, noteBox, newId } from './controls.js';
import { tableView } from './table.js';
import { mainParam } from './main-control.js';
import { phoneLayout } from './phone.js';
import { counts } from './params.js';
import { REFRESH } from '../charts/shared/canvas.js';
import { redrawn, redrawSoon, watchNear } from './redraw-soon.js';


/**
 * Mounts `chart` into `container`. Options: pe, Chart (Chart.js), values (starting values by
 * param name, already checked: use parseParams for outside input), notes (shown above the
 * chart), controls (false hides them), locked (true shows them disabled: everyone on one
 * picture), whenNear (true: computed and drawn first when it comes near the view or the page is
 * idle, not at once: one chart of a long page).
 */
export function mountChart(container, chart, { pe, Chart, values = {}, notes = [], controls = true, locked = false, whenNear = false } = {}) {
  container.classList.add('chart');
  // Without controls, a chart's own panels (a config box, Train, a Hub menu) go too: style.css
  // hides them, and §22's model panel is not placed (real-model.js)
  container.classList.toggle('no-controls', !controls);
  container.dataset.kind = chart.kind;
  applyChartTheme(Chart); // (a bundled Chart.js is not the global one theme.js keeps in step)
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  // The controls sit in a <div>, not a <form>: Chrome's autofill reads the page's forms again
  // whenever a control is added or moved (a chart mounting, the presenter showing it), matching
  // every label of the page against each form's fields, which with a form per chart costs ten
  // times what the same controls cost outside forms; nothing here is submitted or autofilled.
  const panel = document.createElement('div');
  panel.className = 'controls';
  panel.hidden = !controls;
  const body = document.createElement('div');
  body.className = 'chart-body';
  const readout = document.createElement('p');
  readout.className = 'readout';
  readout.id = newId('readout', chart.kind);
  const speak = announcer(readout);
  figure.append(caption, body, readout, speak.el);
  // The module's "how this is computed" text (sampling, rounding, API calls) stays out of the
  // lesson's prose: folded under the chart, for whoever wants it.
  const how = chart.messages && Object.hasOwn(chart.messages, 'how') ? howNote(chart.messages) : null;
  if (how) figure.append(how.el);
  const notesAt = document.createElement('div');
  notesAt.className = 'posenc-notes';
  container.replaceChildren(notesAt, panel, figure);

  let pending = 0, spoken = false;
  // (container, figure, Chart and place() are for whatever is added under the chart: the toolbar)
  const host = { chart, container, figure, Chart, data: null, view: null, controls: [], i18n: true };
  // A redraw the reader asked for (a control moved) is announced. One that comes by itself (data
  // arriving, another chart's training done: the 'posenc:refresh' event) is not: a screen reader
  // would read it out wherever its reader is. Nor is a language or theme switch.
  const redraw = () => {
    pending ||= requestAnimationFrame(() => {
      pending = 0;
      host.update();
      if (spoken) speak.say();
      spoken = false;
    });
  };
  const schedule = () => ((spoken = true), redraw());
  container.addEventListener(REFRESH, redraw);
  const main = mainParam(chart);
  for (const p of chart.params) {
    const c = control({ ...p, value: values[p.name] ?? p.value }, schedule);
    if (p === main) c.wrap.classList.add('main');
    host.controls.push({ param: p, ...c });
    panel.append(c.wrap);
  }
  const allNotes = [...notes];
  const showNotes = () => notesAt.replaceChildren(...[noteBox(allNotes)].filter(Boolean));
  host.params = () => Object.fromEntries(host.controls.map((c) => [c.param.name, c.read()]));
  /** Sets controls by param name (checked values: see parseParams) and redraws on the next frame. */
  host.set = (vals) => {
    for (const c of host.controls) if (Object.hasOwn(vals, c.param.name)) c.write(vals[c.param.name]);
    schedule();
  };
  /** The chart's own starting values, by param name. */
  host.defaults = () => Object.fromEntries(chart.params.map((p) => [p.name, p.value]));
  /** Back to the defaults. */
  host.reset = () => host.set(host.defaults());
  /** Shows the controls disabled (or enabled again): the chart stays as it is set. */
  host.lock = (on = true) => {
    host.locked = Boolean(on);
    panel.classList.toggle('locked', host.locked);
    for (const c of host.controls) for (const input of c.inputs) input.disabled = host.locked;
  };
  /** Replaces the notes shown above the chart. */
  host.setNotes = (list) => {
    allNotes.splice(0, allNotes.length, ...list);
    showNotes();
  };
  /** The caption and the controls' texts in the current language. */
  const labels = () => {
    caption.textContent = t(chart.title);
    how?.relabel();
    phone.relabel();
    for (const c of host.controls) c.relabel();
  };
  // on a phone: the chart first, its main control under it, the rest under "Settings"
  const phone = phoneLayout(container, panel, figure, chart);
  // Values from outside (a link, an element's attributes) show on a phone even when folded, but
  // only those that change something: an embed snippet spells out every default.
  const changed = (vals) => Object.keys(vals).filter((n) => vals[n] !== chart.params.find((p) => p.name === n)?.value);
  phone.reveal(changed(values));
  /** A link set these values (by param name): on a phone, the controls folded under Settings open if it changed one of them. */
  host.reveal = (vals) => phone.reveal(changed(vals));
  labels();
  host.view = chart.mount(body, { pe, Chart: drawnWithData(Chart) });
  /** Every chart image (and a heatmap read by keys: cell-keys.js) is described by the readout. */
  const describe = () => {
    for (const canvas of body.querySelectorAll('canvas[role="img"], canvas[role="application"]')) canvas.setAttribute('aria-describedby', readout.id);
  };
  // 'posenc:drawn' says the chart is on its canvases: a canvas not laid out yet (off screen)
  // is drawn when it is (canvas-sizes.js), and the event waits for that, once for any updates.
  // One measured while not shown (in a hidden box) has nothing drawn: the event comes again when
  // it is shown and drawn.
  let unsized = null, unshown = null;
  const drawn = () => {
    if (!sizedWithin(body)) return void (unsized ??= whenSized(body).then(() => ((unsized = null), body.isConnected && drawn())));
    container.dispatchEvent(new CustomEvent('posenc:drawn', { detail: host.data }));
    if (!shownWithin(body)) unshown ??= whenShown(body).then(() => ((unshown = null), body.isConnected && drawn()));
  };
  /** Redraws now with the controls' values; returns the data, or null if the chart threw (shown in the readout). */
  host.update = () => {
    redrawn(container);
    let data;
    const params = host.params();
    // a param that counts only beside one value of another (a free d beside "free") hides otherwise
    for (const c of host.controls) {
      if (c.param.onlyWhen) c.wrap.hidden = !counts(c.param, params);
      // a param whose range ends where another puts it (the last pair of a d_model): the slider
      // stops there and a value past it moves back, so the control never shows what is not drawn
      const top = c.param.maxFor?.(params);
      if (top === undefined) continue;
      c.limit(top);
      if (params[c.param.name] > top) c.write((params[c.param.name] = top));
    }
    try {
      data = host.view.update(params);
    } catch (err) {
      readout.textContent = HOST.drawFailed.format({ message: err?.message ?? String(err) });
      readout.classList.add('posenc-error');
      container.dispatchEvent(new CustomEvent('posenc:error', { detail: err }));
      return null;
    }
    host.data = data;
    readout.classList.remove('posenc-error');
    showReadout(readout, host.view);
    describe();
    drawn();
    return host.data;
  };

  // A long page's chart at its defaults is first computed and drawn when it comes near the view
  // or the page is idle (redraw-soon.js), as its drawing waited already for its canvas to be laid
  // out. One given values is drawn at once: outside values that it cannot draw (a combination its
  // module rejects) fall back to the defaults, with a note, instead of leaving a broken chart.
  const unwatch = watchNear(container);
  if (whenNear && !Object.keys(values).length) redrawSoon(container, host.update);
  else if (host.update() === null) {
    allNotes.push(HOST.notDrawn.format({ message: readout.textContent.replace(/^.*?: /, '') }));
    for (const c of host.controls) c.write(c.param.value);
    if (host.update() === null) throw new Error(readout.textContent);
  }
  showNotes();

  host.lock(locked);
  const table = tableView(container, host);
  /** The host's own text again (strings.js): what is added under the chart chains its own to this. */
  host.relabel = () => table.relabel();
  /** Puts the controls where the width wants them (phone.js), again after something was added under the chart. */
  host.place = () => phone.place();
  host.place();

  // a switch's text changes at once; the drawing (and the readout it writes) waits for a chart
  // far from the view to come near it
  const stop = [
    unwatch,
    onLang(() => {
      labels();
      host.relabel();
      redrawSoon(container, host.update);
    }),
    onTheme(() => {
      applyChartTheme(Chart);
      redrawSoon(container, host.update);
    }),
  ];
  host.destroy = () => {
    for (const f of stop) f();
    container.removeEventListener(REFRESH, redraw);
    phone.destroy();
    table.destroy();
    if (pending) cancelAnimationFrame(pending);
    speak.stop();
    host.view.destroy?.();
    container.replaceChildren();
  };
  return host;
}

/** How long after the last change the readout is spoken, and how long the spoken copy stays. */
export const SPEAK_AFTER_MS = 500, SPEAK_FOR_MS = 5000;

/**
 * The readout as a screen reader hears it: the visible readout changes at every key press and
 * play frame, and would be read out each time; this visually hidden polite region gets its text
 * once the changes pause (a play's frames come faster, so it is silent until play stops), and is
 * emptied a while later so that browse mode does not meet the readout twice.
 */
function announcer(readout) {
  const el = document.createElement('p');
  el.className = 'readout-spoken';
  el.setAttribute('aria-live', 'polite');
  el.style.cssText = 'position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0';
  let wait = 0, clear = 0;
  const stop = () => (clearTimeout(wait), clearTimeout(clear));
  const say = () => {
    stop();
    el.textContent = '';
    wait = setTimeout(() => {
      el.textContent = readout.textContent;
      clear = setTimeout(() => (el.textContent = ''), SPEAK_FOR_MS);
    }, SPEAK_AFTER_MS);
  };
  return { el, say, stop };
}

// Chinese sets no space after its full-width punctuation, where readouts join sentences and
// labels with one (“…各 128 对）。 full_attention”, “NTK（加大底数） 0.0564”)
const tight = (s) => s.replace(/([\u3000-\u303f\uff01-\uff60]) +/g, '$1');

/** The readout: what to notice first (view.notice, in bold), then the measured values (view.readout). */
function showReadout(el, view) {
  const numbers = tight(view.readout ?? '');
  if (!view.notice) {
    el.textContent = numbers;
    return;
  }
  const notice = document.createElement('strong');
  notice.className = 'notice';
  notice.textContent = tight(view.notice);
  // (Chinese sets no space after its full stop)
  const gap = /[\u3000-\u303f\uff01-\uff60]$/.test(view.notice) ? '' : ' ';
  el.replaceChildren(notice, ...(numbers ? [gap, numbers].filter(Boolean) : []));
}

/** A folded note under the chart, with the module's M.how text. */
function howNote(M) {
  const el = document.createElement('details');
  el.className = 'how';
  const summary = document.createElement('summary');
  const text = document.createElement('p');
  el.append(summary, text);
  const relabel = () => {
    summary.textContent = HOST.how;
    text.textContent = M.how;
  };
  relabel();
  return { el, relabel };
}
