// page-ui.js: the page's own controls: the language switch (English / 中文) and the theme
// switch (auto / light / dark) in the page header, both plain buttons with aria-pressed, and
// the page's title, description and header labels in the language of the moment. Everything
// around the charts (their labels and strings in the new language, the redraw after a switch,
// the readout as the canvases' description, the data table) is the chart host's own
// (web/host/), so it works the same in embed.html and <posenc-chart>.
// <html data-ui-ready> says the switches are wired and every chart is mounted and laid out.
import { lang, setLang, t, messages, onLang } from '../host/i18n.js';
import { themeSetting, setTheme } from '../host/theme.js';
import { markStages } from './here.js';
import { preparePrinting } from './print.js';
import { setUpPresenter } from './present.js';
import { proseTables } from '../host/table.js';

const M = messages({
  en: {
    title: 'posenc: how transformers know word order',
    description: 'Sinusoidal position encoding and RoPE, computed live by WebAssembly SIMD kernels and charted in your browser.',
  },
  zh: {
    title: 'posenc：Transformer 如何知道词序',
    description: '正弦位置编码与旋转位置编码（RoPE），由 WebAssembly SIMD 内核实时计算，在浏览器中绘制成图。',
  },
});

function pressed(group, attr, value) {
  for (const b of group.querySelectorAll(`button[${attr}]`)) b.setAttribute('aria-pressed', String(b.getAttribute(attr) === value));
}

function pageText() {
  // a page of its own (the teacher's guide) names itself on <html data-title-en data-title-zh>
  const own = document.documentElement.dataset;
  document.title = own.titleEn ? (lang() === 'zh' ? own.titleZh : own.titleEn) : t(M.title);
  if (!own.titleEn) document.querySelector('meta[name="description"]')?.setAttribute('content', t(M.description));
  for (const el of document.querySelectorAll('[data-aria-en]')) {
    el.setAttribute('aria-label', lang() === 'zh' ? el.dataset.ariaZh : el.dataset.ariaEn);
  }
  // (an SVG's <title> and <desc> hold both languages: a label and description in the page's own win over them)
  for (const el of document.querySelectorAll('[data-description-en]')) {
    el.removeAttribute('aria-labelledby');
    el.removeAttribute('aria-describedby');
    el.setAttribute('aria-description', lang() === 'zh' ? el.dataset.descriptionZh : el.dataset.descriptionEn);
  }
}

// posenc's pages, which link to each other: a link from one to another carries the language of
// the moment (?lang=), so that the lesson opened from the Chinese guide is in Chinese whatever
// the browser's language, and the theme chosen (?theme=, unless it follows the system), so that a
// projector's dark page stays dark. The HTML keeps its links plain; they gain both here, and
// follow the switches. The one-file builds link to each other by their own names.
const PAGES = ['index.html', 'teaching.html', 'standalone.html', 'standalone-teaching.html'];

/** Sets ?lang= (and ?theme=) on every link of this page to another posenc page, keeping the rest of its href. */
export function carryChoices(doc = document) {
  const here = location.pathname.split('/').pop() || 'index.html';
  const theme = themeSetting();
  for (const a of doc.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    const m = /^([^?#]*)(\?[^#]*)?(#.*)?$/.exec(href);
    if (!m || !PAGES.includes(m[1]) || m[1] === here) continue;
    // the query as written, less any lang or theme it had, plus the choices of the moment
    const keep = (m[2] ?? '').slice(1).split('&').filter((kv) => kv && !/^(lang|theme)(=|$)/.test(kv));
    const query = [...keep, `lang=${lang()}`, ...(theme === 'auto' ? [] : [`theme=${theme}`])].join('&');
    a.setAttribute('href', `${m[1]}?${query}${m[3] ?? ''}`);
  }
}

/** A formula as one line of text: T_max, base^(1−2/d), a/b, √x (what a name made of it says). */
function mathText(node) {
  const kids = () => [...node.children].map(mathText);
  const group = (x) => (/^[\p{L}\p{N}]+$/u.test(x) ? x : `(${x})`);
  switch (node.localName) {
    case 'mi': case 'mn': case 'mo': case 'mtext': return node.textContent.trim();
    case 'msub': { const [b, i] = kids(); return `${b}_${group(i)}`; }
    case 'msup': { const [b, e] = kids(); return `${b}^${group(e)}`; }
    case 'msubsup': { const [b, i, e] = kids(); return `${b}_${group(i)}^${group(e)}`; }
    case 'mfrac': { const [a, c] = kids(); return `${group(a)}/${group(c)}`; }
    case 'msqrt': return `√${group(kids().join(''))}`;
    default: return kids().join('');
  }
}

/**
 * A name made from content (an exercise's question, a heading, a link, a caption) leaves a
 * formula out in Chromium ("what is ?"): such a formula is named by its text.
 */
function nameFormulas(doc = document) {
  for (const m of doc.querySelectorAll(':is(summary, caption, figcaption, h2, h3, a, button, label, th) math:not([aria-label])')) {
    m.setAttribute('aria-label', mathText(m));
  }
}

function wireSwitches() {
  const langs = document.querySelector('.lang-switch');
  if (langs) {
    pressed(langs, 'data-set-lang', lang());
    langs.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-set-lang]');
      if (b) setLang(b.dataset.setLang, { url: true });
    });
  }
  const themes = document.querySelector('.theme-switch');
  if (themes) {
    pressed(themes, 'data-set-theme', themeSetting());
    themes.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-set-theme]');
      if (!b) return;
      setTheme(b.dataset.setTheme, { url: true });
      pressed(themes, 'data-set-theme', themeSetting());
      carryChoices();
    });
  }
  onLang((l) => {
    if (langs) pressed(langs, 'data-set-lang', l);
    pageText();
    carryChoices();
  });
  pageText();
  carryChoices();
}

async function init() {
  wireSwitches();
  nameFormulas();
  proseTables(document.querySelectorAll('main > section > .table-scroll'));
  markStages();
  preparePrinting();
  await window.posencPage?.ready;
  const presenter = setUpPresenter({ charts: window.posencPage?.charts });
  if (window.posencPage) window.posencPage.presenter = presenter;
  const query = new URLSearchParams(location.search);
  if (presenter && query.has('present')) presenter.start(query);
  // one frame more: the chart hosts' checks that wait for layout (scrolling tables) have run
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  document.documentElement.dataset.uiReady = '';
}

// On the page, main.js imports this module and, once it has run, creates window.posencPage. The
// page's script is async and may run after DOMContentLoaded: init then waits one task, for main.js.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init, { once: true });
else setTimeout(init);
