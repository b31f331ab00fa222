// present.js: the presenter view (index.html?present, or the Present button): one figure per
// screen, the primer's diagram first, in type that grows with the screen; the section's title
// and track above it; under the chart what its readout says to notice, and the section's takeaway
// under the chart it speaks of. Of the controls only the main one shows, and any other set away
// from its default (a scene's d = 4 must be visible to the room). Arrow keys (or the buttons, or a
// sideways swipe) step, Escape goes back to the page. On a phone the slide scrolls instead of
// fitting the screen (see SMALL). The chart itself is moved into the view and back, so it keeps
// its state. A link can start it at a section or a figure: ?present#decay, ?present=decay,
// ?present=12 (figure 12); or follow a class's plan, as print= names it (tracks.js): with
// ?present=1,3,7-9 it steps through those sections' figures alone, and ends on the recap's table.
import { lang, messages, onLang, t } from '../host/i18n.js';
import { TRACKS, trackOf, trackNamed, handoutSections } from './tracks.js';
import { land } from './land.js';
import { redrawSoon } from '../host/redraw-soon.js';
import { PAGE_SIZE, axisTitleFont, presentSize, setLettering, textScale } from '../charts/shared/lettering.js';

/**
 * A screen too small to hold a whole slide (a phone either way up; style.css's presenter rules use
 * the same query): the slide is read as a page is, scrolled, its chart lettered at the page's size
 * and the buttons to step in a bar under it, within reach of a thumb.
 */
const SMALL = '(max-width: 480px), (max-height: 480px)';

const M = messages({
  en: {
    open: 'Present',
    openTitle: 'Show one figure per screen, for a class (arrow keys step, Escape returns)',
    label: 'Presenter view',
    previous: '← Previous',
    next: 'Next →',
    exit: 'Back to the page',
    exitTitle: 'Back to the page (Escape)',
    step: 'Figure {n} of {count}',
    header: '{track} · section {section}',
    more: 'All settings',
    moreTitle: 'Show every control of this figure, not only the main one and those changed',
    below: 'More of this figure below ▾',
    top: 'Back to the top of this figure ▴',
  },
  zh: {
    open: '演示',
    openTitle: '每屏显示一张图，适合课堂（方向键翻页，Esc 返回）',
    label: '演示模式',
    previous: '← 上一张',
    next: '下一张 →',
    exit: '返回页面',
    exitTitle: '返回页面（Esc 键）',
    step: '第 {n} 张，共 {count} 张',
    header: '{track} · 第 {section} 节',
    more: '全部设置',
    moreTitle: '显示这张图的全部控件，而不只是主控件和改动过的控件',
    below: '这张图下面还有 ▾',
    top: '回到这张图的开头 ▴',
  },
});

/**
 * The figure's first panel (a canvas, or a row of canvases such as §20's three) gets the height
 * the slot has left under whatever the chart puts above it (a note, a table, §7's buttons):
 * measured, since that differs from chart to chart and with the language. Further panels are
 * reached by scrolling inside the figure. Returns a function that stops following it.
 */
function fitFirstPanel(el) {
  const body = el.querySelector('.chart-body');
  const first = body && [...body.children].find((c) => c.tagName === 'CANVAS' || c.querySelector('canvas'));
  if (!first) return body ? fitHTML(body) : () => {};
  first.classList.add('present-first');
  // the figure's further panels wait below the first, in its own scroll, which a room does not
  // see and a clicker cannot reach: a button under it says so, brings them up, and at the end
  // goes back up (it stays while there are panels below the first: the first is fitted to the
  // room left above it, and would change size with it)
  const below = el.ownerDocument.createElement('button');
  below.type = 'button';
  below.className = 'present-below';
  const atEnd = () => body.scrollHeight - body.clientHeight - body.scrollTop <= 4;
  below.addEventListener('click', () => (atEnd() ? body.scrollTo({ top: 0, behavior: 'smooth' }) : body.scrollBy({ top: body.clientHeight, behavior: 'smooth' })));
  body.after(below);
  const cue = () => {
    let later = false;
    for (let c = first.nextElementSibling; c && !later; c = c.nextElementSibling) later = c.checkVisibility();
    below.hidden = !later;
    below.textContent = t(atEnd() ? M.top : M.below);
  };
  body.addEventListener('scroll', cue, { passive: true });
  const fit = () => {
    const top = first.getBoundingClientRect().top - body.getBoundingClientRect().top + body.scrollTop;
    body.style.setProperty('--present-room', `${Math.max(0, Math.floor(body.clientHeight - top))}px`);
    cue();
  };
  fit();
  const ro = new ResizeObserver(fit);
  ro.observe(body);
  for (let c = first.previousElementSibling; c; c = c.previousElementSibling) ro.observe(c);
  for (let c = first.nextElementSibling; c; c = c.nextElementSibling) ro.observe(c);
  return () => {
    ro.disconnect();
    body.removeEventListener('scroll', cue);
    below.remove();
    first.classList.remove('present-first');
    body.style.removeProperty('--present-room');
  };
}

/**
 * A chart drawn as HTML (§1's tables, §5's) is zoomed to fill the slot's width or height,
 * whichever it meets first, and never past the zoom that makes its text as large as the
 * presenter's chart text: a short table is not blown up to poster size.
 */
function fitHTML(body) {
  const zoom = (z) => body.style.setProperty('--present-zoom', String(z));
  const fit = () => {
    zoom(1);
    // the content's own size: its parts are as wide as they need (CSS), stacked from the top
    const kids = [...body.children].filter((c) => c.checkVisibility());
    if (!kids.length || !body.clientHeight) return;
    const top = body.getBoundingClientRect().top;
    const fits = () => Math.max(...kids.map((c) => c.getBoundingClientRect().bottom)) - top <= body.clientHeight + 1 &&
      Math.max(...kids.map((c) => c.getBoundingClientRect().width)) <= body.clientWidth + 1;
    const size = parseFloat(getComputedStyle(body.closest('.presenter') ?? body).fontSize);
    const font = parseFloat(getComputedStyle(body.querySelector('td, p') ?? body).fontSize);
    // The largest zoom that fits, found by halving: content that wraps to the slide's width (the
    // recap's table) grows less than its zoom, so no one measurement gives it.
    let lo = 0.5, hi = Math.floor(((1.1 * size) / font) * 100) / 100;
    zoom(hi);
    if (!fits()) {
      for (let k = 0; k < 7 && hi - lo > 0.01; k++) {
        const mid = (lo + hi) / 2;
        zoom(mid);
        if (fits()) lo = mid;
        else hi = mid;
      }
      zoom(Math.floor(lo * 100) / 100);
    }
  };
  body.classList.add('present-html');
  fit();
  // (the box has its height only once the slide is laid out, and the chart may draw later)
  const ro = new ResizeObserver(() => requestAnimationFrame(fit));
  ro.observe(body);
  for (const c of body.children) ro.observe(c);
  return () => {
    ro.disconnect();
    body.classList.remove('present-html');
    body.style.removeProperty('--present-zoom');
  };
}

/**
 * Every figure of the page in order: the primer's diagram, then each chart, with its section and
 * the section's takeaway if it speaks of this chart: the chart the takeaway names (data-about),
 * else the section's last, where a section's argument ends. A section's other charts show only
 * what their readout says to notice, not a takeaway about a chart the room cannot see.
 */
function figures(doc) {
  // the diagram comes with its tall form for a narrow screen: the page's CSS shows one of the two
  const [diagram, ...tall] = doc.querySelectorAll('main > #primer svg.pipeline');
  return [diagram, ...doc.querySelectorAll('main > section [data-chart]')].filter(Boolean).map((el) => {
    const section = el.closest('section');
    const aside = section.querySelector(':scope > aside.takeaway');
    const about = aside?.dataset.about ?? [...section.querySelectorAll('[data-chart]')].at(-1)?.dataset.chart;
    return { el, also: el === diagram ? tall : [], section, takeaway: aside && about === el.dataset.chart ? aside : null };
  });
}

/**
 * The recap's table as a slide, the close of a plan: both languages' tables (the page's CSS shows
 * one), zoomed together to the slide as an HTML chart is. Null if the page has no recap.
 */
function recapFigure(doc) {
  const section = doc.querySelector('main > section#recap');
  const [el, ...also] = section?.querySelectorAll(':scope > .table-scroll') ?? [];
  return el ? { el, also, section, takeaway: null, table: true } : null;
}

/**
 * Whether ?present= names a plan (a list, a range or a track), not one figure or section: a
 * section's id stays a place to start (?present=lab opens the whole deck at section 23, though
 * "lab" is also a track's key), and ranges are read as print= reads them.
 */
const isPlan = (value, doc) => /,/.test(value) || /^\d+-\d+$/.test(value.trim())
  || (trackNamed(value) !== null && !doc.querySelector(`main > section[id="${CSS.escape(value.trim())}"]`));

/** Whether a touch at `el` moves something sideways (a slider, a wide table), not the slides. */
function slidesSideways(el, view) {
  for (let e = el; e && e !== view; e = e.parentElement) {
    if (e.matches('input, select, textarea')) return true;
    if (e.scrollWidth > e.clientWidth && /auto|scroll/.test(getComputedStyle(e).overflowX)) return true;
  }
  return false;
}

// Chart.js draws ticks and legends at 12 px, too small to read from the back of a room: while the
// view is open Chart.js's default size is the screen's presentSize(), and text drawn by hand
// follows it (charts/shared/lettering.js). The chart is redrawn by its host, Chart.js's canvases and the
// hand-drawn ones alike, when it comes in, and at the page's size once the page shows again (the
// page's charts are not drawn meanwhile: they are hidden).
function lettering(size, host) {
  // (a slide without a chart, the primer's diagram, keeps the Chart.js the charts draw with)
  chartJs = host?.Chart ?? chartJs;
  setLettering(chartJs, size);
  const defaults = chartJs?.defaults;
  if (defaults) {
    // grown, a long axis title can outrun its axis: while presenting it shrinks to fit
    const title = defaults.scale.title;
    if (title.font !== axisTitleFont) pageTitleFont = title.font;
    if (size !== PAGE_SIZE) title.font = axisTitleFont;
    else if (pageTitleFont === undefined) delete title.font;
    else title.font = pageTitleFont;
  }
  host?.update();
}
let pageTitleFont, chartJs;

/** The takeaway's paragraph in the page's language, copied with its MathML. */
function takeawayNodes(fig) {
  // (the page behind the view is hidden, so the language is chosen here, not by visibility)
  const own = fig.takeaway?.querySelector(`:scope > [lang="${lang() === 'zh' ? 'zh-CN' : 'en'}"]`);
  return own ? [...own.childNodes].map((n) => n.cloneNode(true)) : [];
}

/** A control is shown on the slide when it is the main one or is set away from its default. */
function markChanged(host) {
  for (const c of host?.controls ?? []) c.wrap.classList.toggle('present-changed', String(c.read()) !== String(c.param.value));
}

export function setUpPresenter({ charts, doc = document } = {}) {
  const every = figures(doc);
  if (!every.length) return null;
  let all = every;
  let plan = null; // the ?present= plan followed, if any (its note is said again in a new language)
  const view = doc.createElement('div');
  view.className = 'presenter';
  view.hidden = true;
  view.setAttribute('role', 'dialog');
  view.setAttribute('aria-modal', 'true');
  const header = doc.createElement('p');
  header.className = 'present-track';
  const title = doc.createElement('h2');
  title.id = 'present-title';
  title.tabIndex = -1;
  view.setAttribute('aria-labelledby', title.id);
  const slot = doc.createElement('div');
  slot.className = 'present-slot';
  const notice = doc.createElement('p');
  notice.className = 'present-notice';
  const note = doc.createElement('p');
  note.className = 'present-takeaway';
  const nav = doc.createElement('div');
  nav.className = 'present-nav';
  const button = (cls, onClick) => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = cls;
    b.addEventListener('click', onClick);
    nav.append(b);
    return b;
  };
  // the steps are a box of their own only on a phone, where they sit in a bar at the bottom
  const steps = doc.createElement('div');
  steps.className = 'present-steps';
  nav.append(steps);
  const prev = button('present-prev', () => go(index - 1));
  const count = doc.createElement('span');
  count.className = 'present-count';
  count.setAttribute('aria-live', 'polite');
  nav.append(count);
  const next = button('present-next', () => go(index + 1));
  steps.append(prev, count, next);
  // a slide shows the main control and the changed ones; the rest on demand, for a question
  // that turns another (a teacher cannot go to the page for it without losing the slides)
  const more = button('present-more', () => {
    const all = slot.classList.toggle('present-all');
    more.setAttribute('aria-pressed', String(all));
    if (shown?.el.dataset.chart) (unfit(), (unfit = fitFirstPanel(shown.el)));
  });
  more.setAttribute('aria-pressed', 'false');
  const exit = button('present-exit', () => close());
  exit.setAttribute('aria-keyshortcuts', 'Escape');
  // the buttons share the track's line, leaving the height under the title to the figure
  const top = doc.createElement('div');
  top.className = 'present-top';
  top.append(header, nav);
  // what a plan in the link could not use, until the view closes
  const planNote = doc.createElement('p');
  planNote.className = 'present-plan-note';
  planNote.setAttribute('role', 'note');
  planNote.hidden = true;
  view.append(top, planNote, title, slot, notice, note);
  doc.body.append(view);

  const opener = doc.createElement('button');
  opener.type = 'button';
  opener.className = 'present-open';
  // the button resumes where the view was closed (a teacher leaves a plan's slides for the page
  // and comes back), in the same plan: a new address starts afresh
  let resume = 0;
  opener.addEventListener('click', () => open(Math.min(resume, all.length - 1)));
  doc.querySelector('.page-tools')?.append(opener);

  let index = -1, placeholders = [], shown = null, unfit = () => {};

  // the readout's notice changes with the chart (a control moved): the slide follows it
  const showNotice = () => (notice.textContent = shown?.el.querySelector('.readout .notice')?.textContent ?? '');
  const readoutWatch = new MutationObserver(showNotice);
  const onInput = () => markChanged(charts?.get(shown?.el.dataset.chart));
  slot.addEventListener('input', onInput);

  const restore = () => {
    if (!shown) return;
    unfit();
    unfit = () => {};
    readoutWatch.disconnect();
    shown.el.classList.remove('presenting');
    const host = charts?.get(shown.el.dataset.chart);
    for (const c of host?.controls ?? []) c.wrap.classList.remove('present-changed');
    for (const [el, mark] of placeholders) (mark.replaceWith(el), el.style.removeProperty('width'));
    slot.replaceChildren();
    // (the chart goes back to a page hidden behind the view: drawn at the page's size when it shows)
    lettering(PAGE_SIZE);
    if (host) redrawSoon(host.container, host.update);
    shown = null;
    placeholders = [];
  };

  /**
   * The presenter's text size for this screen, on the view (its CSS sizes are in em) and for the
   * charts; on a phone the charts letter as on the page, which is made for that width.
   */
  const screenSize = () => {
    const size = matchMedia(SMALL).matches ? PAGE_SIZE : presentSize(innerWidth, innerHeight);
    view.style.setProperty('--present-text', `${size}px`);
    return size;
  };
  addEventListener('resize', () => {
    if (!shown) return;
    const size = screenSize();
    if (textScale() * PAGE_SIZE !== size) lettering(size, charts?.get(shown.el.dataset.chart));
  });

  const label = () => {
    view.setAttribute('aria-label', t(M.label));
    prev.textContent = t(M.previous);
    next.textContent = t(M.next);
    exit.textContent = t(M.exit);
    more.textContent = t(M.more);
    more.title = t(M.moreTitle);
    // the key goes in the tooltip: a phone has no Escape, and the button's words must fit beside the track
    exit.title = t(M.exitTitle);
    opener.textContent = t(M.open);
    opener.title = t(M.openTitle);
    // (the button under a figure of several panels says its words again: its scroll listener)
    slot.querySelector('.chart-body')?.dispatchEvent(new Event('scroll'));
    if (plan !== null) sayPlanNote();
    if (index < 0) return;
    const fig = all[index];
    const h2 = fig.section.querySelector('h2');
    const number = /^\s*(\d+)\./.exec(h2.textContent)?.[1] ?? '';
    const heading = h2.querySelector(`:scope > [lang="${lang() === 'zh' ? 'zh-CN' : 'en'}"]`) ?? h2;
    const track = trackOf(fig.section);
    header.textContent = track ? t(M.header, { track: t(TRACKS[track]), section: number }) : '';
    title.textContent = heading.textContent;
    note.replaceChildren(...takeawayNodes(fig));
    note.hidden = !fig.takeaway;
    showNotice();
    count.textContent = t(M.step, { n: index + 1, count: all.length });
    prev.disabled = index === 0;
    next.disabled = index === all.length - 1;
  };

  function go(i) {
    if (i < 0 || i >= all.length) return;
    restore();
    index = i;
    shown = all[i];
    placeholders = [shown.el, ...shown.also].map((el) => {
      const mark = doc.createComment('presented figure');
      el.replaceWith(mark);
      return [el, mark];
    });
    const els = placeholders.map(([el]) => el);
    // the recap's tables go in a box of their own, the box an HTML chart's body is on a slide
    const box = shown.table ? Object.assign(doc.createElement('div'), { className: 'chart-body' }) : null;
    box?.append(...els);
    // (and wrap their text to the slide's width: a zoom to fit one-line rows would leave it too small to read)
    for (const el of box ? els : []) el.style.width = '100%';
    slot.replaceChildren(...(box ? [box] : els));
    view.scrollTop = 0;
    shown.el.classList.add('presenting');
    // the main control shows (the host marks it .main: host/main-control.js), and the changed ones;
    // All settings, where there are more, shows the rest
    const host = charts?.get(shown.el.dataset.chart);
    markChanged(host);
    slot.classList.remove('present-all');
    more.setAttribute('aria-pressed', 'false');
    more.hidden = !host?.controls.some((c) => !c.wrap.classList.contains('main') && !c.wrap.classList.contains('present-changed'));
    label();
    lettering(screenSize(), host);
    const readout = shown.el.querySelector('.readout');
    if (readout) readoutWatch.observe(readout, { childList: true, subtree: true, characterData: true });
    showNotice();
    unfit = box ? fitHTML(box) : shown.el.dataset.chart ? fitFirstPanel(shown.el) : () => {};
    title.focus();
  }

  function open(i = 0) {
    view.hidden = false;
    doc.documentElement.classList.add('presenting-page');
    go(i);
    const u = new URL(location.href);
    if (!u.searchParams.has('present')) (u.searchParams.set('present', plan ?? ''), history.replaceState(history.state, '', u));
  }

  function close() {
    const back = shown?.el;
    restore();
    resume = Math.max(index, 0);
    index = -1;
    view.hidden = true;
    doc.documentElement.classList.remove('presenting-page');
    const u = new URL(location.href);
    if (u.searchParams.has('present')) (u.searchParams.delete('present'), history.replaceState(history.state, '', u));
    if (back) land(back);
    opener.focus({ preventScroll: true });
  }

  // a sideways swipe steps as the arrows do: right to left to the next figure
  let touch = null;
  view.addEventListener('touchstart', (e) => {
    const [f] = e.touches;
    touch = e.touches.length === 1 && !slidesSideways(e.target, view) ? { x: f.clientX, y: f.clientY } : null;
  }, { passive: true });
  // the swipe is the slides' alone: the browser would also take it as "back a page"
  view.addEventListener('touchmove', (e) => {
    const [f] = e.touches;
    if (touch && f && Math.abs(f.clientX - touch.x) > Math.abs(f.clientY - touch.y)) e.preventDefault();
  }, { passive: false });
  view.addEventListener('touchend', (e) => {
    const [f] = e.changedTouches, from = touch;
    touch = null;
    if (!from || !f) return;
    const dx = f.clientX - from.x, dy = f.clientY - from.y;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) go(index + (dx < 0 ? 1 : -1));
  });

  // Tab and Shift+Tab go round the view's own controls: the page behind it is hidden, and past
  // the last control the browser would otherwise rest on the document before coming back
  const stops = () => [...view.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter((el) => el.tabIndex >= 0 && !el.disabled && el.checkVisibility({ visibilityProperty: true }));
  view.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
    const list = stops();
    if (!list.length) return;
    const at = list.indexOf(doc.activeElement);
    if (e.shiftKey ? at === 0 : at === list.length - 1) e.preventDefault(), list.at(e.shiftKey ? -1 : 0).focus();
  });

  doc.addEventListener('keydown', (e) => {
    if (view.hidden) return;
    if (e.key === 'Escape') return e.preventDefault(), close();
    // arrows inside a control move the control, not the slides
    if (e.target.closest?.('input, select, textarea')) return;
    if (e.key === 'ArrowRight' || e.key === 'PageDown') e.preventDefault(), go(index + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') e.preventDefault(), go(index - 1);
  });
  /**
   * The figure to start at, from what a link names (?present=decay, ?present#decay, ?present=12):
   * a figure's number (1 is the first), a section's id (its first figure) or a chart's kind; else 0.
   * A link that sets charts (a scene: kind.param keys in `query`) starts at the first chart it
   * sets, within the section it names if any, as the page lands on it: the room sees what changed.
   */
  function find(ref, query = new URLSearchParams(location.search)) {
    const s = decodeURIComponent(String(ref ?? '')).replace(/^#/, '').trim();
    if (/^\d+$/.test(s)) return Math.min(Math.max(Number(s), 1), all.length) - 1;
    const set = new Set([...query.keys()].filter((k) => k.includes('.')).map((k) => k.split('.')[0]));
    const inSection = (f) => !s || f.section.id === s;
    const changed = all.findIndex((f) => set.has(f.el.dataset.chart) && inSection(f));
    if (changed >= 0 && !all.some((f) => f.el.dataset.chart === s)) return changed;
    const i = all.findIndex((f) => f.el.dataset.chart === s || f.section.id === s);
    return Math.max(i, 0);
  }

  /** What the plan followed could not use, in the language of the moment (nothing: hidden). */
  function sayPlanNote() {
    planNote.textContent = handoutSections(plan, doc, 'present').note;
    planNote.hidden = !planNote.textContent;
  }

  /**
   * Follows a plan (?present=1,3,7-9,11-13, a range, a track): its sections' figures and the recap
   * last; a part that names nothing leaves every figure, and the view says why. Returns the note.
   */
  function follow(value) {
    const { ids } = handoutSections(value, doc, 'present');
    const recap = recapFigure(doc);
    all = ids ? [...every.filter((f) => ids.has(f.section.id)), ...(recap && ids.has('recap') ? [recap] : [])] : every;
    if (!all.length) all = every;
    plan = value;
    resume = 0;
    sayPlanNote();
    // (followed while the view is open: the figure shown may not be in the plan)
    if (!view.hidden) go(0);
    return planNote.textContent;
  }

  /** Opens the view as a link asks: ?present= a plan, a figure, a section or a chart, or the hash. */
  function start(query = new URLSearchParams(location.search)) {
    const value = query.get('present') ?? '';
    if (isPlan(value, doc)) return follow(value), open(find(location.hash));
    // not a plan: the whole deck, whatever plan was followed before
    all = every;
    plan = null;
    planNote.hidden = true;
    return open(find(value || location.hash));
  }

  onLang(label);
  label();
  return { open, close, go, find, follow, start, get index() { return index; }, get count() { return all.length; } };
}
