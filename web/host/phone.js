// phone.js: a chart on a narrow screen (≤ 480 px, style.css's phone width). The controls move
// under the chart (in the DOM, so reading and tab order follow what is seen); the main control
// (main-control.js) stays in view and the others fold behind a "Settings" button, open or shut
// as the reader last left it for this chart on this page (localStorage, per page and kind).
import { HOST } from './strings.js';

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

/** Sets up form (the controls) and figure in container; returns { relabel(), destroy() }. */
export function phoneLayout(container, form, figure, chart) {
  const media = typeof matchMedia === 'function' ? matchMedia(NARROW) : null;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'settings-toggle';
  form.id ||= `posenc-controls-${chart.kind}-${Math.random().toString(36).slice(2, 8)}`;
  toggle.setAttribute('aria-controls', form.id);
  const more = chart.params.length > 1;
  const set = (open) => {
    form.classList.toggle('open', open);
    toggle.setAttribute('aria-expanded', String(open));
  };
  set(false);
  // The stored state is read when the chart is first laid out narrow, where the settings fold:
  // a page's first use of localStorage costs the first chart a few milliseconds on every screen.
  let stored = false;
  toggle.addEventListener('click', () => {
    const open = !form.classList.contains('open');
    set(open);
    remember(chart.kind, open);
  });
  if (more) form.append(toggle);
  const place = () => {
    const narrow = !!media?.matches;
    if (narrow && !stored) (stored = true), set(remembered(chart.kind));
    container.classList.toggle('phone', narrow);
    if (narrow && figure.nextElementSibling !== form) figure.after(form);
    else if (!narrow && form.nextElementSibling !== figure) figure.before(form);
  };
  place();
  media?.addEventListener?.('change', place);
  return {
    /** Puts the controls where the width wants them (again after the toolbar was added under the chart). */
    place,
    relabel: () => {
      const n = chart.params.length - 1;
      toggle.textContent = HOST.settings.format({ n });
    },
    destroy: () => media?.removeEventListener?.('change', place),
  };
}
