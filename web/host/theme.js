// theme.js: light and dark. The colours are CSS variables in style.css (light in :root, dark
// under prefers-color-scheme: dark and under <html data-theme="dark">); this module picks the
// theme, keeps Chart.js's defaults in step with the variables, and tells the page.
//
// The setting is 'auto' (follow prefers-color-scheme), 'light' or 'dark': `?theme=light|dark`
// in the URL, else <html data-theme> if the page set one, else 'auto'. setTheme() changes it
// and dispatches document 'posenc:theme' (CustomEvent, detail: { theme, setting }) whenever
// the theme in effect changes (also when the system's scheme flips under 'auto'); every chart
// host then redraws (canvas-painted charts read their text and line colours through colours(),
// which common.js's ink() returns).
//
// Like the language, the theme is one per document. On posenc's own pages (i18n.js ownPage())
// it sets <html data-theme> and color-scheme; on another page (a blog with <posenc-chart>) it
// leaves <html> alone: the element's shadow root follows the theme by itself (element.js), and
// colours() falls back to the values below, since that page has none of posenc's variables.
import { ownPage } from './i18n.js';

const SETTINGS = ['auto', 'light', 'dark'];
const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
const reduced = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

/** style.css's font, for Chart.js's text on pages that do not load style.css at their root. */
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif';

/** style.css's colours of each theme, for pages that do not load style.css at their root. */
const PALETTES = {
  light: { fg: '#1d2330', muted: '#5b6475', bg: '#ffffff', panel: '#f5f7fa', line: '#d8dde6', grid: 'rgba(0, 0, 0, 0.1)' },
  dark: { fg: '#e4e8ef', muted: '#a9b2c1', bg: '#14171d', panel: '#1d222b', line: '#3a414e', grid: 'rgba(255, 255, 255, 0.13)' },
};

function detect() {
  if (typeof document === 'undefined') return 'auto';
  const fromUrl = new URLSearchParams(location.search).get('theme');
  if (SETTINGS.includes(fromUrl)) return fromUrl;
  const attr = ownPage() ? document.documentElement.dataset.theme : undefined;
  return SETTINGS.includes(attr) ? attr : 'auto';
}

let setting = detect();
let effective = null;

/** 'auto', 'light' or 'dark': what the reader chose. */
export function themeSetting() {
  return setting;
}

/** 'light' or 'dark': the theme in effect. */
export function theme() {
  return setting === 'auto' ? (media?.matches ? 'dark' : 'light') : setting;
}

/** True when the reader asked for reduced motion. */
export function reducedMotion() {
  return !!reduced?.matches;
}

/**
 * The theme's colours now: style.css's variables on posenc's own pages, else the same values
 * from PALETTES.
 */
export function colours() {
  const fallback = PALETTES[theme()];
  // (another page's variables, a blog's --fg say, are not posenc's)
  if (!ownPage()) return { ...fallback };
  const css = getComputedStyle(document.documentElement);
  const out = {};
  for (const [name, value] of Object.entries(fallback)) out[name] = css.getPropertyValue(`--${name}`).trim() || value;
  return out;
}

const applied = new WeakMap(); // Chart -> the theme (and motion setting) its defaults were set for
/** Sets Chart.js's default text, border and grid colours (and font) to the theme's. */
export function applyChartTheme(Chart = globalThis.Chart) {
  if (!Chart?.defaults) return;
  // once per theme: reading the page's variables recalculates its style, once per chart mounted
  const key = `${theme()} ${reducedMotion()}`;
  if (applied.get(Chart) === key) return;
  applied.set(Chart, key);
  const c = colours();
  Chart.defaults.color = c.muted;
  Chart.defaults.borderColor = c.grid;
  // An axis's colours come from these two through getters on Chart.defaults.scale, which Chart.js
  // copies, read, into each chart's own options as it builds the chart: its axes would keep the
  // theme of that moment. Functions are copied instead, and read the theme at every draw.
  const scale = Chart.defaults.scale;
  scale.ticks.color = scale.title.color = () => Chart.defaults.color;
  scale.grid.color = scale.border.color = () => Chart.defaults.borderColor;
  Chart.defaults.font.family = (ownPage() && getComputedStyle(document.documentElement).fontFamily) || FONT;
  if (reducedMotion()) Chart.defaults.animation = false;
}

function apply() {
  if (ownPage()) {
    const root = document.documentElement;
    if (setting === 'auto') delete root.dataset.theme;
    else root.dataset.theme = setting;
    root.style.colorScheme = theme();
  }
  const now = theme();
  applyChartTheme();
  if (now !== effective) {
    const first = effective === null;
    effective = now;
    if (!first) document.dispatchEvent(new CustomEvent('posenc:theme', { detail: { theme: now, setting } }));
  }
}

/** 'auto', 'light' or 'dark'; with { url: true } the page URL's ?theme= follows. */
export function setTheme(s, { url = false } = {}) {
  if (!SETTINGS.includes(s)) throw new RangeError(`setTheme: unknown theme ${s}`);
  setting = s;
  if (url) {
    const u = new URL(location.href);
    if (s === 'auto') u.searchParams.delete('theme');
    else u.searchParams.set('theme', s);
    history.replaceState(history.state, '', u);
  }
  apply();
}

/** Calls fn(theme) after every change of the theme in effect; returns a function that stops it. */
export function onTheme(fn) {
  const h = (e) => fn(e.detail.theme);
  document.addEventListener('posenc:theme', h);
  return () => document.removeEventListener('posenc:theme', h);
}

if (typeof document !== 'undefined') {
  apply();
  media?.addEventListener('change', () => setting === 'auto' && apply());
}
