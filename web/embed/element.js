// element.js: <posenc-chart>, one live chart anywhere, registered when this module runs.
//
//   <posenc-chart kind="rope-decay" dim="256" base="10000">fallback content</posenc-chart>
//
// kind names the chart (web/charts/<kind>.js); every param of that chart is an attribute,
// named in kebab-case (maxDist -> max-dist; "param-" first for a name HTML itself uses, such
// as style -> param-style) and reflected to a property of the param's own name (el.maxDist;
// el.paramStyle for those). Values are checked like URL values (parseParams): out-of-range
// ones are clamped, malformed ones keep the default, and both are named in a note on the chart.
// controls="0" hides the controls; toolbar adds PNG, SVG, GIF / video and CSV buttons.
//
// lang="en|zh" and theme="auto|light|dark" set the language and the theme, which are one per
// page (chart modules read them when they draw): the attribute of any element changes every
// posenc chart on the page, and the page's <html> itself is left alone. Without them the
// language is the page's (<html lang>, else the browser's) and the theme follows the system.
//
// The chart renders when it nears the viewport, fills the element's width, shows the element's
// children until it is ready, and shows a message instead if WebAssembly cannot load. It lives
// in a shadow root with posenc's stylesheet, so the host page's CSS neither breaks it nor is
// touched by it. el.ready resolves to the chart host ({ params(), update(), data, ... }); the
// element fires 'posenc:drawn' after each redraw and 'posenc:error' if it cannot draw.
import { kernels, chartJs, stylesheetText } from '../host/runtime.js';
import {
  KINDS, DEFAULT_KIND, HOST, GLOBAL_ATTRIBUTES, loadChart, loadFailed, mountChart, parseParams, parseValue, paramAttribute,
  formatValue, normName, showMessage, show,
} from '../host/chart-host.js';
import { lang, normalize, setLang } from '../host/i18n.js';
import { theme, setTheme, onTheme } from '../host/theme.js';

const TAG = 'posenc-chart';
const OWN = ['kind', 'controls', 'locked', 'toolbar', 'theme'];
const THEME = { name: 'theme', type: 'select', options: ['auto', 'light', 'dark'], value: 'auto' };
// The frame keeps its text off its edges in every theme: a dark chart on a light post reads as a
// framed figure, and a light one keeps the same margin on a light page.
const HOST_CSS = ':host { display: block; width: 100%; max-width: 100%; } :host([hidden]) { display: none; }' +
  ' .posenc-element { box-sizing: border-box; padding: 12px 16px; border-radius: 6px; }';
/** Set by the light embed's entry on the elements it saw near the screen (bundle.js). */
const IN_VIEW = Symbol.for('posenc-chart.inView');

let sheetPromise = null;
/**
 * posenc's stylesheet for a shadow root: what style.css says of :root (the variables, the font,
 * the dark theme under <html data-theme="dark">) applies to the element's frame, whose
 * data-theme follows the theme in effect.
 */
function sheet() {
  sheetPromise ??= stylesheetText().then((text) => {
    const s = new CSSStyleSheet();
    s.replaceSync(`${text.replace(/:root\b/g, '.posenc-element')}\n${HOST_CSS}`);
    return s;
  });
  return sheetPromise;
}

let langFrom = null; // the element whose lang attribute set the page's language
/**
 * Applies element `self`'s lang attribute (en or zh) to the page, which shows one language; returns
 * a note when the value is no language (the page's stays) or overrides the one another chart set.
 */
function applyLang(self) {
  const value = self.getAttribute('lang');
  if (value === null) return null;
  const l = normalize(value);
  if (!l) return HOST.notOption.format({ name: 'lang', value: show(value), def: lang() });
  const other = langFrom !== self && langFrom?.isConnected && normalize(langFrom.getAttribute('lang')) === lang() && lang() !== l
    ? langFrom.getAttribute('lang') : null;
  setLang(l);
  langFrom = self;
  return other ? HOST.langConflict.format({ value: show(value), other: show(other) }) : null;
}

/** Applies a theme attribute; returns a note when the value is not a theme. */
function applyTheme(value) {
  if (value === null) return null;
  const r = parseValue(THEME, value);
  if ('value' in r) setTheme(r.value);
  return r.note ?? null;
}

function isOwnOrGlobal(name) {
  return OWN.includes(name) || GLOBAL_ATTRIBUTES.has(name) || /^(data-|aria-|on)/.test(name) || name === 'xmlns';
}

/** The property name of a param on the element: its name, or "param" + Name where the element already has one. */
function propertyName(p) {
  return p.name in HTMLElement.prototype || OWN.includes(p.name) || ['ready', 'data', 'params', 'update', 'host'].includes(p.name)
    ? `param${p.name[0].toUpperCase()}${p.name.slice(1)}` : p.name;
}

export class PosencChartElement extends HTMLElement {
  #root;
  #frame;
  #started = false;
  #io = null;
  #mo = null;
  #host = null;
  #chart = null;
  #generation = 0;
  #ready;
  #resolve;
  #props = [];
  #soon = false;
  #offTheme = null;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    const fallback = document.createElement('slot');
    this.#frame = document.createElement('div');
    this.#frame.className = 'posenc-element';
    this.#frame.dataset.theme = theme();
    this.#root.append(fallback, this.#frame);
    this.#newReady();
  }

  #newReady() {
    this.#ready = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** The chart kind (attribute kind). */
  get kind() {
    return this.getAttribute('kind') ?? DEFAULT_KIND;
  }

  set kind(v) {
    this.setAttribute('kind', String(v));
  }

  /** Whether the controls show (attribute controls, default true; controls="0" hides them). */
  get controls() {
    return flag(this.getAttribute('controls'), true);
  }

  set controls(v) {
    this.setAttribute('controls', v ? '1' : '0');
  }

  /** Whether the controls show disabled (attribute locked, default false): one picture for everyone. */
  get locked() {
    const v = this.getAttribute('locked');
    return v === '' || flag(v, false); // a bare boolean attribute, as HTML's own
  }

  set locked(v) {
    if (v) this.setAttribute('locked', '');
    else this.removeAttribute('locked');
  }

  /** Whether PNG, SVG, GIF / video and CSV buttons show (attribute toolbar, default false). */
  get toolbar() {
    return flag(this.getAttribute('toolbar'), false);
  }

  set toolbar(v) {
    if (v) this.setAttribute('toolbar', '');
    else this.removeAttribute('toolbar');
  }

  /** The theme asked for (attribute theme: 'auto', 'light' or 'dark'; one per page, see above); 'auto' for any other value. */
  get theme() {
    const r = parseValue(THEME, this.getAttribute('theme') ?? 'auto');
    return 'value' in r ? r.value : 'auto';
  }

  set theme(v) {
    this.setAttribute('theme', String(v));
  }

  /** Resolves to the chart host once the chart has drawn (asking starts rendering, even off screen). */
  get ready() {
    if (this.isConnected) this.#start();
    else this.#soon = true;
    return this.#ready;
  }

  /** The numbers behind the chart as last drawn ({ columns, rows }), or null before. */
  get data() {
    return this.#host?.data ?? null;
  }

  /** The values the chart is drawn with now, by param name. */
  params() {
    return this.#host?.params() ?? {};
  }

  /** Redraws now (after a language or theme switch, say). */
  update() {
    return this.#host?.update() ?? null;
  }

  connectedCallback() {
    // a property set before this element was upgraded shadows the accessor: move it over
    for (const k of OWN) {
      if (Object.hasOwn(this, k)) {
        const v = this[k];
        delete this[k];
        this[k] = v;
      }
    }
    this.#offTheme ??= onTheme((now) => (this.#frame.dataset.theme = now));
    this.#frame.dataset.theme = theme();
    if (this.#started) return;
    // the light embed's entry marks the elements it found near the screen as the page was parsed
    if (this.#soon || this[IN_VIEW] || typeof IntersectionObserver !== 'function') return void this.#start();
    this.#io ??= new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.#start();
    }, { rootMargin: '300px 0px' });
    this.#io.observe(this);
  }

  disconnectedCallback() {
    this.#io?.disconnect();
    this.#io = null;
    this.#offTheme?.();
    this.#offTheme = null;
  }

  #start() {
    if (this.#started) return;
    this.#started = true;
    this.#io?.disconnect();
    this.#io = null;
    this.#mo = new MutationObserver((records) => this.#changed(records));
    this.#mo.observe(this, { attributes: true });
    this.#render().catch((err) => this.#fail(HOST.drawFailed.format({ message: err?.message ?? String(err) }), err));
  }

  #fail(text, err) {
    showMessage(this.#frame, text);
    this.#root.querySelector('slot')?.remove();
    this.dispatchEvent(new CustomEvent('posenc:error', { detail: err }));
  }

  /** Draws the chart its attributes ask for; `keep` (the values drawn before) wins over attributes not in `changed`. */
  async #render(keep = null, changed = new Set()) {
    const generation = ++this.#generation;
    try {
      this.#root.adoptedStyleSheets = [await sheet()];
    } catch {
      // unstyled is still readable
    }
    if (generation !== this.#generation) return;
    const raw = this.getAttribute('kind');
    let kind = DEFAULT_KIND;
    const kindNotes = [];
    if (raw === null) kindNotes.push(HOST.noChart.format({ used: DEFAULT_KIND }));
    else if (KINDS.includes(raw.trim())) kind = raw.trim();
    else kindNotes.push(HOST.unknownChart.format({ kind: show(raw), used: DEFAULT_KIND }));
    // the chart's code, the kernels it needs, Chart.js and the toolbar's code if it shows one load
    // side by side (each once a page); a chart without a toolbar never loads the export code
    const module = loadChart(kind);
    module.catch(() => {}); // (awaited below; a failure is reported there)
    const toolbarCode = this.toolbar ? import('../host/toolbar.js') : null;
    toolbarCode?.catch(() => {});
    let pe, Chart;
    try {
      [pe, Chart] = await Promise.all([kernels(kind), chartJs(kind)]);
    } catch (err) {
      if (generation === this.#generation) this.#fail(loadFailed(err), err);
      return;
    }
    const chart = await module;
    // (the attribute may have come while the rest loaded)
    const toolbar = this.toolbar ? await (toolbarCode ?? import('../host/toolbar.js')) : null;
    if (generation !== this.#generation) return;
    // the page-wide language and theme first, so the chart draws in them from the start
    const notes = [applyLang(this), applyTheme(this.getAttribute('theme')), ...kindNotes].filter(Boolean);
    for (const n of ['controls', 'toolbar', 'locked']) {
      const v = this.getAttribute(n);
      const r = v === null || (n === 'locked' && v === '') ? {} : parseValue({ name: n, type: 'bool', value: n === 'controls' }, v);
      if (r.note) notes.push(r.note);
    }
    const attrs = [...this.attributes].filter((a) => !isOwnOrGlobal(a.name)).map((a) => [a.name, a.value]);
    const parsed = parseParams(chart.params, attrs, { ignore: [] });
    if (keep) {
      const fresh = new Set([...changed].map(normName));
      for (const p of chart.params) if (p.name in keep && !fresh.has(normName(p.name))) parsed.values[p.name] = keep[p.name];
    }
    this.#host?.destroy();
    this.#chart = chart;
    const container = document.createElement('div');
    this.#frame.replaceChildren(container);
    container.addEventListener('posenc:drawn', (e) => this.dispatchEvent(new CustomEvent('posenc:drawn', { detail: e.detail })));
    container.addEventListener('posenc:error', (e) => this.dispatchEvent(new CustomEvent('posenc:error', { detail: e.detail })));
    this.#host = mountChart(container, chart, {
      pe, Chart, values: parsed.values, notes: [...notes, ...parsed.notes], controls: this.controls, locked: this.locked,
    });
    if (toolbar && this.toolbar) toolbar.addToolbar(this.#host, { png: true, csv: true });
    this.#root.querySelector('slot')?.remove();
    this.#defineProperties(chart);
    this.#resolve(this.#host);
  }

  /** Param properties: reading gives the value drawn now, writing sets the attribute. */
  #defineProperties(chart) {
    for (const name of this.#props) delete this[name];
    this.#props = [];
    for (const p of chart.params) {
      const prop = propertyName(p), attr = paramAttribute(p);
      const pending = Object.hasOwn(this, prop) ? this[prop] : undefined;
      Object.defineProperty(this, prop, {
        configurable: true,
        enumerable: true,
        get: () => this.#host?.params()[p.name],
        set: (v) => this.setAttribute(attr, formatValue(p, v)),
      });
      this.#props.push(prop);
      if (pending !== undefined) this[prop] = pending;
    }
  }

  #changed(records) {
    const names = new Set(records.map((r) => r.attributeName));
    if (names.has('kind') || !this.#host) {
      if (names.has('kind')) {
        this.#newReady();
        this.#render().catch((err) => this.#fail(HOST.drawFailed.format({ message: err?.message ?? String(err) }), err));
      }
      return;
    }
    if (names.has('toolbar') || names.has('controls')) {
      // the toolbar, and a chart's own panels that go with its controls, are built with the
      // chart: draw it again, in the state the reader left it
      this.#newReady();
      this.#render(this.#host.params(), names).catch((err) => this.#fail(HOST.drawFailed.format({ message: err?.message ?? String(err) }), err));
      return;
    }
    if (names.has('locked')) this.#host.lock(this.locked);
    const langNote = names.has('lang') ? applyLang(this) : null;
    const themeNote = names.has('theme') ? applyTheme(this.getAttribute('theme')) : null;
    const chart = this.#chart;
    const byName = new Map(chart.params.map((p) => [normName(p.name), p]));
    const values = {};
    const entries = [];
    for (const name of names) {
      if (isOwnOrGlobal(name)) continue;
      const p = byName.get(normName(name));
      const v = this.getAttribute(name);
      if (p && v === null) values[p.name] = p.value; // removed: back to the default
      else if (v !== null) entries.push([name, v]);
    }
    // a param that counts only beside another's value is read with that other's attribute, as
    // when the element was first drawn (a changed dim beside preset="256" stays unused)
    for (const p of chart.params.filter((q) => q.onlyWhen && entries.some(([n]) => byName.get(normName(n)) === q))) {
      for (const other of Object.keys(p.onlyWhen)) {
        const q = chart.params.find((x) => x.name === other), attr = q && paramAttribute(q);
        if (attr && !names.has(attr) && this.hasAttribute(attr)) entries.push([attr, this.getAttribute(attr)]);
      }
    }
    const parsed = parseParams(chart.params, entries, { ignore: [] });
    Object.assign(values, parsed.values);
    this.#host.setNotes([langNote, themeNote, ...parsed.notes].filter(Boolean));
    this.#host.set(values);
  }
}

function flag(v, fallback) {
  if (v === null) return fallback;
  const r = parseValue({ name: 'flag', type: 'bool', value: fallback }, v);
  return r.value ?? fallback;
}

if (typeof customElements === 'object' && !customElements.get(TAG)) customElements.define(TAG, PosencChartElement);
