// page-ui.js: the page's own controls and what the chart host does not (yet) do itself:
//  - the language switch (English / 中文) and the theme switch (auto / light / dark) in the
//    page header, both plain buttons with aria-pressed;
//  - on 'posenc:lang' and 'posenc:theme': every mounted chart gets its caption, control labels
//    and select options in the new language, then its host re-runs update() (readouts, axis
//    titles, legends and canvas-painted text are built there, in the language of the moment);
//  - accessibility around each chart: the readout gets an id and every role="img" canvas of the
//    chart is described by it (aria-describedby), and a "Table" toggle shows host.data as an
//    HTML table (capped; the CSV has everything); a table box that scrolls becomes a focusable
//    region, so the keyboard can scroll it;
//  - the host's own strings (chart-host.js STRINGS: Link, Embed, notes...) through host-strings.js.
// A host that relabels and redraws on 'posenc:lang' / 'posenc:theme' itself sets host.i18n = true;
// this module then leaves those to it and keeps only the table, the descriptions and the regions.
import { lang, setLang, t, tr, L, onLang } from './i18n.js';
import { themeSetting, setTheme, onTheme } from './theme.js';
import { STRINGS } from './chart-host.js';
import { localizeHost } from './host-strings.js';

// The host's buttons and messages in the page's language from the start (this module runs
// before main.js mounts anything).
localizeHost(STRINGS);

const TITLE = L('posenc: how transformers know word order', 'posenc：Transformer 如何知道词序');
const DESCRIPTION = L(
  'Sinusoidal position encoding and RoPE, computed live by WebAssembly SIMD kernels and charted in your browser.',
  '正弦位置编码与旋转位置编码（RoPE），由 WebAssembly SIMD 内核实时计算，在浏览器中绘制成图。',
);
const MAX_ROWS = 100;
const MAX_COLUMNS = 24;

// ---- the switches ----

function pressed(group, attr, value) {
  for (const b of group.querySelectorAll(`button[${attr}]`)) b.setAttribute('aria-pressed', String(b.getAttribute(attr) === value));
}

function pageText() {
  document.title = t(TITLE);
  document.querySelector('meta[name="description"]')?.setAttribute('content', t(DESCRIPTION));
  for (const el of document.querySelectorAll('[data-aria-en]')) {
    el.setAttribute('aria-label', lang() === 'zh' ? el.dataset.ariaZh : el.dataset.ariaEn);
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
    });
  }
  onLang((l) => {
    if (langs) pressed(langs, 'data-set-lang', l);
    pageText();
  });
  pageText();
}

// ---- the charts ----

const modules = new Map();
async function chartModule(kind) {
  if (!modules.has(kind)) modules.set(kind, import(`./charts/${kind}.js`).then((m) => m.default).catch(() => null));
  return modules.get(kind);
}

function containerOf(kind) {
  return document.querySelector(`.chart[data-kind="${kind}"]`) ?? document.querySelector(`[data-chart="${kind}"]`);
}

/** Caption, control labels and option texts of one mounted chart in the current language. */
async function relabel(kind, host) {
  const el = containerOf(kind);
  const chart = await chartModule(kind);
  if (!el || !chart) return;
  const caption = el.querySelector('figcaption');
  if (caption) caption.textContent = t(chart.title);
  for (const c of host.controls ?? []) {
    const p = c.param;
    const label = t(p.label ?? p.name);
    const name = c.wrap?.querySelector(':scope > span');
    if (name) name.textContent = label;
    for (const input of c.inputs ?? []) {
      if (input.type === 'range') input.setAttribute('aria-label', label);
      else if (input.type === 'number') input.setAttribute('aria-label', `${label} ${tr('(number)', '(数值)')}`);
      if (input.tagName === 'SELECT') {
        for (const o of input.options) o.textContent = t(p.optionLabels?.[o.value] ?? o.value);
      }
    }
  }
}

function describe(kind) {
  const el = containerOf(kind);
  const readout = el?.querySelector('.readout');
  if (!readout) return;
  readout.id ||= `readout-${kind}`;
  for (const canvas of el.querySelectorAll('canvas[role="img"]')) canvas.setAttribute('aria-describedby', readout.id);
}

/**
 * A table wider (or taller) than its scroll box can only be read by scrolling, so a keyboard
 * must be able to reach the box: scrolling ones get tabindex 0, role region and a name.
 */
function scrollables(kind) {
  const el = containerOf(kind);
  for (const box of el?.querySelectorAll('.table-scroll') ?? []) {
    const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    if (scrolls) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      const name = box.querySelector('caption')?.textContent || el.querySelector('figcaption')?.textContent || kind;
      box.setAttribute('aria-label', tr(`${name} (scrolls)`, `${name}（可滚动）`));
    } else if (box.hasAttribute('tabindex')) {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }
}

function cell(v) {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v);
  if (v === null || v === undefined) return '';
  return String(v);
}

/** The "Table" toggle under a chart: host.data as an HTML table, at most MAX_ROWS × MAX_COLUMNS. */
function tableView(kind, host) {
  const el = containerOf(kind);
  if (!el || el.querySelector('.data-table')) return;
  const box = document.createElement('div');
  box.className = 'data-table';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'data-table-toggle';
  button.setAttribute('aria-expanded', 'false');
  const region = document.createElement('div');
  region.className = 'table-scroll';
  region.id = `data-table-${kind}`;
  region.hidden = true;
  button.setAttribute('aria-controls', region.id);
  box.append(button, region);
  el.append(box);
  const label = () => {
    const open = !region.hidden;
    button.textContent = open ? tr('Hide table', '隐藏数据表') : tr('Table', '数据表');
  };
  const render = () => {
    if (region.hidden) return;
    const data = host.data;
    if (!data?.columns) {
      region.textContent = tr('This chart has no data to show.', '此图没有可显示的数据。');
      return;
    }
    const cols = data.columns.length, rows = data.rows?.length ?? 0;
    const nc = Math.min(cols, MAX_COLUMNS), nr = Math.min(rows, MAX_ROWS);
    const table = document.createElement('table');
    table.className = 'values mono data-values';
    const cap = table.createCaption();
    const title = el.querySelector('figcaption')?.textContent ?? kind;
    cap.textContent = tr(`The numbers behind “${title}”`, `“${title}”背后的数字`) +
      (nr < rows || nc < cols
        ? tr(` (the first ${nr} of ${rows} rows and ${nc} of ${cols} columns; the CSV has them all)`,
          `(显示 ${rows} 行中的前 ${nr} 行、${cols} 列中的前 ${nc} 列；CSV 中有全部数据)`)
        : '');
    const head = table.createTHead().insertRow();
    for (let c = 0; c < nc; c++) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = String(data.columns[c]);
      head.append(th);
    }
    const body = table.createTBody();
    for (let r = 0; r < nr; r++) {
      const tr_ = body.insertRow();
      const row = data.rows[r];
      for (let c = 0; c < nc; c++) {
        const td = document.createElement(c === 0 ? 'th' : 'td');
        if (c === 0) td.scope = 'row';
        td.textContent = cell(row[c]);
        tr_.append(td);
      }
    }
    region.replaceChildren(table);
    scrollables(kind);
  };
  button.addEventListener('click', () => {
    region.hidden = !region.hidden;
    button.setAttribute('aria-expanded', String(!region.hidden));
    label();
    render();
  });
  el.addEventListener('posenc:drawn', render);
  label();
  return { label, render };
}

const tables = new Map();

async function refreshAll({ labels = true } = {}) {
  const page = window.posencPage;
  if (!page?.charts) return;
  await page.ready;
  if (labels) localizeHost(STRINGS);
  for (const [kind, host] of page.charts) {
    if (labels && !host.i18n) await relabel(kind, host), host.relabel?.();
    if (!host.i18n) host.update();
    tables.get(kind)?.label();
  }
}

async function init() {
  wireSwitches();
  const page = window.posencPage;
  onLang(() => refreshAll());
  onTheme(() => refreshAll({ labels: false }));
  if (!page) return;
  await page.ready;
  for (const [kind, host] of page.charts) {
    if (!host.i18n) await relabel(kind, host); // option texts and the (number) suffix
    describe(kind);
    const view = tableView(kind, host);
    if (view) tables.set(kind, view);
    scrollables(kind);
    containerOf(kind)?.addEventListener('posenc:drawn', () => scrollables(kind));
  }
  let resizing = 0;
  addEventListener('resize', () => {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(() => page.charts.forEach((_, kind) => scrollables(kind)));
  });
  document.documentElement.dataset.uiReady = '';
}

// main.js creates window.posencPage when it runs, which is after this module (its imports take
// longer) but before DOMContentLoaded, which waits for every module script of the page.
if (document.readyState === 'complete') init();
else document.addEventListener('DOMContentLoaded', init, { once: true });
