// phone.js: a chart on a narrow screen (≤ 480 px, style.css's phone width). The controls move
// right under the chart's drawing, above its readout (in the DOM, so reading and tab order
// follow what is seen); the main control (main-control.js) stays in view and the others fold
// behind a "Settings" button, open or shut as the reader last left it for this chart on this
// page (localStorage, per page and kind).
// A chart of several panels stacked taller than a phone marks the panel its main control
// changes most with the class `phone-control-after`: the main control sits right under that
// panel (in a box of its own), so moving it shows what it moves; the fold stays under the drawing.
// A link that sets a folded control (?kind.param=value, a scene or an exercise's link) opens
// the fold, so the reader sees the value the link chose.
import { HOST } from './strings.js';
import { newId } from './controls.js';
import { mainParam } from './main-control.js';

const NARROW = '(max-width: 480px)';
const KEY = () => `posenc-settings:${typeof location === 'object' ? location.pathname : ''}`;

function remembered(kind) {
  try {
    return JSON.parse(localStorage.getItem(KEY()) ?? '{}')?.[kind] === true;
  } catch {
    return false;
  }
}

function remember(kind, open) {
  try {
    const all = JSON.parse(localStorage.getItem(KEY()) ?? '{}') ?? {};
    if (open) all[kind] = true;
    else delete all[kind];
    localStorage.setItem(KEY(), JSON.stringify(all));
  } catch {
    // storage refused (private mode, a sandboxed frame): the toggle still works for this visit
  }
}

/** Sets up panel (the controls) and figure in container; returns { place(), reveal(names), relabel(), destroy() }. */
export function phoneLayout(container, panel, figure, chart) {
  const media = typeof matchMedia === 'function' ? matchMedia(NARROW) : null;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'settings-toggle';
  panel.id ||= newId('posenc-controls', chart.kind);
  toggle.setAttribute('aria-controls', panel.id);
  const more = chart.params.length > 1;
  // the chart's drawing (its canvases, panels, tables): the controls go right under it, above the
  // readout and the notes, so a thumb on a slider does not push the picture it moves off screen
  const drawing = figure.querySelector(':scope > .chart-body') ?? figure;
  // the main control's box under a tall chart's marked panel, and the place it leaves in the panel
  // (the chart draws its panels after this is set up: the mark is looked for when placing)
  const main = panel.querySelector(':scope > .control.main');
  const slot = Object.assign(document.createElement('div'), { className: 'controls phone-main' });
  const home = document.createComment('main control');
  const set = (open) => {
    panel.classList.toggle('open', open);
    toggle.setAttribute('aria-expanded', String(open));
  };
  set(false);
  // The stored state is read when the chart is first laid out narrow, where the settings fold:
  // a page's first use of localStorage costs the first chart a few milliseconds on every screen.
  let stored = false, linked = false;
  toggle.addEventListener('click', () => {
    const open = !panel.classList.contains('open');
    set(open);
    remember(chart.kind, open);
  });
  main?.before(home);
  const place = () => {
    const narrow = !!media?.matches;
    if (narrow && !stored) (stored = true), set(linked || remembered(chart.kind));
    container.classList.toggle('phone', narrow);
    if (narrow && drawing.nextElementSibling !== panel) drawing.after(panel);
    else if (!narrow && panel.nextElementSibling !== figure) figure.before(panel);
    const anchor = narrow && main && drawing.querySelector('.phone-control-after');
    if (anchor && main.parentElement !== slot) anchor.after(slot), slot.append(main);
    else if (!anchor && main) {
      slot.remove();
      // moved only when out of place: moving the focused control would drop the focus
      if (narrow && panel.firstElementChild !== main) panel.prepend(main);
      else if (!narrow && home.nextElementSibling !== main) home.after(main);
    }
    // the fold's button comes right after the main control and right before what it opens, in
    // the DOM as on screen: the Tab after opening it reaches the first control it revealed
    if (more && main?.parentElement === panel) {
      if (main.nextElementSibling !== toggle) main.after(toggle);
    } else if (more && panel.firstElementChild !== toggle) panel.prepend(toggle);
  };
  place();
  media?.addEventListener?.('change', place);
  return {
    /** Puts the controls where the width wants them (again after the toolbar was added under the chart). */
    place,
    /**
     * A link set the params `names`: when one of them folds under Settings, the fold opens (for
     * this visit: what the reader last chose is still what is remembered).
     */
    reveal: (names) => {
      const main = mainParam(chart)?.name;
      if (!more || !names.some((n) => n !== main && chart.params.some((p) => p.name === n))) return;
      linked = true;
      set(true);
    },
    relabel: () => {
      const n = chart.params.length - 1;
      toggle.textContent = HOST.settings.format({ n });
    },
    destroy: () => media?.removeEventListener?.('change', place),
  };
}
