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
// Strings in chart modules:
//   L('dimension d', '维度 d')   a lazy pair { en, zh } for static definitions (chart titles,
//                                 control labels): t(pair) picks the current language, and
//                                 String(pair) does too, so a host that uses it as a string works.
//   tr('English', '中文')         picks one now: for text built in update(), readouts included.
//   t(x, vars)                    a pair or a plain string (returned unchanged), with {name}
//                                 placeholders filled from vars.

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

/** A pair of strings, { en, zh }: t() picks one; so do String() and template literals. */
class Text {
  constructor(en, zh) {
    this.en = en;
    this.zh = zh;
    Object.freeze(this);
  }
  toString() {
    return this[current] ?? this.en;
  }
  toJSON() {
    return this.toString();
  }
}

/** A lazy { en, zh } pair, for static definitions such as chart titles and control labels. */
export function L(en, zh) {
  return new Text(en, zh);
}

/** The string for the current language, now: tr('English', '中文'). */
export function tr(en, zh) {
  return current === 'zh' ? zh : en;
}

/**
 * `x` in the current language: x[lang()] for an { en, zh } object (L() pairs included), x itself
 * for a plain string; {name} placeholders are filled from `vars`.
 */
export function t(x, vars) {
  let s = x;
  if (x && typeof x === 'object') s = x[current] ?? x.en;
  if (typeof s === 'function') s = s(vars ?? {});
  if (s === undefined || s === null) return '';
  s = String(s);
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
}
