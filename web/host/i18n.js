// i18n.js: the page's two languages, English ('en') and Chinese ('zh'). No dictionary lives
// here: every chart module carries its own strings for both languages, next to where they are
// used, and index.html carries its prose in both (sibling elements with lang="en" / lang="zh",
// the inactive one hidden by style.css).
//
// The language is, in order: `?lang=en|zh` in the URL; the lang attribute of <html> unless the
// page marks it as a mere default (data-lang-default, as index.html and embed.html do);
// navigator.language (zh… → zh); else en. setLang() changes it and dispatches
//   document 'posenc:lang'  (CustomEvent, detail: { lang })
// after which every chart host relabels and redraws (chart-host.js).
//
// There is one language per document: chart modules read it when they draw. posenc's own pages
// (<html data-lang-default>: index.html, embed.html, the standalone build) are posenc's to set,
// so <html lang> follows the language there (style.css shows the prose of that language, and
// early.js sets it before the first paint). On any other page, such as a blog post with
// <posenc-chart>, posenc leaves <html> alone.
//
// Text lives in message tables, one per chart module and one for the host (host/strings.js):
//   const M = messages({
//     en: { title: 'Long-range decay', readout: 'd = {dim}: g(0) = {g0}.' },
//     zh: { title: '远程衰减', readout: 'd = {dim}：g(0) = {g0}。' },
//   });
// Every language has the same keys, and each message the same {placeholders} (a test checks
// every table). M.title is a message that speaks the current language whenever it is read
// (String(M.title), t(M.title)), so static definitions (titles, control labels) can hold it;
// M.readout.format({ dim, g0 }) fills the placeholders. Numbers are formatted once, by the
// caller, into the values it passes: every language shows the same digits. A new language is
// one more table in each messages() call and one more entry in LANGS.

export const LANGS = ['en', 'zh'];
const HTML_LANG = { en: 'en', zh: 'zh-CN' };

/** 'zh' for any zh… tag, 'en' for any en… tag, else null. */
export function normalize(tag) {
  const s = String(tag ?? '').trim().toLowerCase();
  if (s.startsWith('zh')) return 'zh';
  if (s.startsWith('en')) return 'en';
  return null;
}

function detect() {
  if (typeof document === 'undefined') return 'en';
  const fromUrl = normalize(new URLSearchParams(location.search).get('lang'));
  if (fromUrl) return fromUrl;
  const root = document.documentElement;
  if (!root.hasAttribute('data-lang-default')) {
    const fromAttr = normalize(root.getAttribute('lang'));
    if (fromAttr) return fromAttr;
  }
  const nav = typeof navigator !== 'undefined' ? navigator.languages?.[0] ?? navigator.language : '';
  return normalize(nav) === 'zh' ? 'zh' : 'en';
}

/** True on posenc's own pages, whose <html lang> (and data-theme: theme.js) posenc sets. */
export function ownPage() {
  return typeof document !== 'undefined' && document.documentElement.hasAttribute('data-lang-default');
}

let current = detect();
if (ownPage()) document.documentElement.lang = HTML_LANG[current];

/** The current language: 'en' or 'zh'. */
export function lang() {
  return current;
}

/**
 * Switches the language: sets <html lang> on posenc's own pages and, when it changed,
 * dispatches 'posenc:lang' on document. With { url: true } the page URL's ?lang= follows
 * (history.replaceState), so a reload or a copied address keeps the choice.
 */
export function setLang(l, { url = false } = {}) {
  const next = normalize(l);
  if (!next) throw new RangeError(`setLang: unknown language ${l}`);
  if (typeof document !== 'undefined') {
    if (ownPage()) document.documentElement.lang = HTML_LANG[next];
    if (url) {
      const u = new URL(location.href);
      u.searchParams.set('lang', next);
      history.replaceState(history.state, '', u);
    }
  }
  if (next === current) return;
  current = next;
  if (typeof document !== 'undefined') document.dispatchEvent(new CustomEvent('posenc:lang', { detail: { lang: next } }));
}

/** Calls fn(lang) after every language change; returns a function that stops it. */
export function onLang(fn) {
  const h = (e) => fn(e.detail.lang);
  document.addEventListener('posenc:lang', h);
  return () => document.removeEventListener('posenc:lang', h);
}

/**
 * Text spaced the Chinese way: no space beside full-width punctuation or between two Chinese
 * characters, as a name filled into a template leaves ('用 位置插值（PI） 之后' → '用位置插值（PI）之后');
 * a Latin name keeps its spaces ('NTK 1'). English text has nothing it touches.
 */
export const cjkSpacing = (s) => s.replace(/(?<=[\u3000-\u303f\uff01-\uff60])\s+|\s+(?=[\u3000-\u303f\uff01-\uff60])|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])/g, '');

/** One message in every language: String() and t() pick the current one; format() fills it. */
class Text {
  constructor(byLang) {
    Object.assign(this, byLang);
    Object.freeze(this);
  }
  toString() {
    return this[current] ?? this.en;
  }
  toJSON() {
    return this.toString();
  }
  /** The message in the current language with {name} placeholders filled from vars. */
  format(vars) {
    return t(this, vars);
  }
}

/**
 * A message table: { en: { key: text }, zh: { key: text }, ... } -> { key: Text }. Every table
 * must have the keys of the English one (a missing one is a TypeError: a chart could not draw).
 * The tables themselves stay readable as .tables, for tests.
 */
export function messages(tables) {
  const keys = Object.keys(tables.en);
  const out = {};
  for (const k of keys) {
    const byLang = {};
    for (const l of LANGS) {
      if (typeof tables[l]?.[k] !== 'string') throw new TypeError(`message ${JSON.stringify(k)} has no ${l} text`);
      byLang[l] = tables[l][k];
    }
    out[k] = new Text(byLang);
  }
  Object.defineProperty(out, 'tables', { value: tables });
  return Object.freeze(out);
}

/**
 * `x` in the current language: a message (from messages()), an { en, zh } object, or a
 * plain string (returned unchanged); {name} placeholders are filled from `vars`.
 */
export function t(x, vars) {
  let s = x;
  if (x && typeof x === 'object') s = x[current] ?? x.en;
  if (s === undefined || s === null) return '';
  s = String(s);
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (Object.hasOwn(vars, k) ? minusSign(String(vars[k])) : m)) : s;
}

/**
 * A filled-in value with the true minus sign (U+2212) before a negative number: '-0.55' and
 * 'q·k = -3' read '−0.55', 'q·k = −3'. Only a hyphen that starts a number (at the start or after
 * a space or an opening bracket, sign or separator) changes: 1e-3, GPT-2 and 2023-05 keep theirs.
 * Messages are prose; CSV and exported data are written without them and stay ASCII.
 */
export const minusSign = (s) => s.replace(/(^|[\s([=:,;/（：，、])-(?=\.?\d)/g, '$1\u2212');
