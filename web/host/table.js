// table.js: the "Table" toggle under a chart: the numbers it drew, as an HTML table, for
// readers who cannot see the canvas (and anyone who wants the values).
import { HOST } from './strings.js';
import { newId } from './controls.js';
import { onLang } from './i18n.js';

const MAX_TABLE_ROWS = 100;
const MAX_TABLE_COLUMNS = 24;

function tableCell(v) {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v);
  if (v === null || v === undefined) return '';
  return String(v);
}

/**
 * A table wider (or taller) than its scroll box can only be read by scrolling, so a keyboard
 * must be able to reach the box: one that scrolls gets tabindex 0, role region and a name
 * (name(): the text it is named for).
 *
 * Whether it scrolls is read when a ResizeObserver reports the box or what it holds: then the
 * browser has just laid the page out, so the reads cost nothing, where a read at any other moment
 * would lay it out again (and lay out the sections content-visibility: auto skips). Every box
 * reported is read before any is written. Until its content is measured, a box is offered to the
 * keyboard: one in a section the browser skips has no layout to tell, and is reported once laid
 * out. A box not shown keeps what it had.
 */
const BOX = '.table-scroll';
const named = new WeakMap(); // box → name()
const content = new WeakMap(); // box → the element in it that is observed
let sizes = null;

/** Watches whether `box` (a BOX) scrolls (again, for content put in since), to offer it to the keyboard named by `name()`. */
function watchReach(box, name) {
  named.set(box, name);
  const inner = box.firstElementChild;
  if (content.has(box) && content.get(box) === inner) return;
  sizes ??= typeof ResizeObserver === 'function' ? new ResizeObserver(measured) : null;
  if (!content.has(box)) sizes?.observe(box);
  if (content.get(box)) sizes?.unobserve(content.get(box));
  if (inner) sizes?.observe(inner);
  content.set(box, inner);
  offer(box, name, box.hidden ? undefined : true);
}

function measured(entries) {
  const boxes = [...new Set(entries.map((e) => e.target.closest(BOX)))].filter((b) => b?.isConnected && named.has(b));
  const scrolls = boxes.map(scrollsNow);
  boxes.forEach((b, i) => offer(b, named.get(b), scrolls[i]));
}

function unwatch(box) {
  for (const e of [box, content.get(box)]) if (e) sizes?.unobserve(e);
  content.delete(box);
}

/** Whether `box` must be a Tab stop; undefined when it is not shown. */
function scrollsNow(box) {
  if (box.hidden || box.checkVisibility?.() === false) return undefined;
  const skipped = box.checkVisibility?.({ contentVisibilityAuto: true }) === false;
  return skipped || box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
}

function offer(box, name, scrolls) {
  if (scrolls === undefined) return;
  if (scrolls) {
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', HOST.scrolls.format({ name: name() }));
  } else if (box.hasAttribute('tabindex')) {
    box.removeAttribute('tabindex');
    box.removeAttribute('role');
    box.removeAttribute('aria-label');
  }
}

/** A box offered to the keyboard is named again (after a language switch). */
function rename(box) {
  if (box.hasAttribute('aria-label')) box.setAttribute('aria-label', HOST.scrolls.format({ name: named.get(box)() }));
}

/** The table boxes of chart `container`, each with the text it is named for: its caption or the chart's. */
const tableBoxes = (container) => [...container.querySelectorAll(BOX)].map((box) =>
  [box, () => box.querySelector('caption')?.textContent || container.querySelector('figcaption')?.textContent || '']);

/** Offers the prose's table boxes (`boxes`) that scroll to the keyboard, named by their caption or their section's heading. */
export function proseTables(boxes) {
  const heading = (box) => {
    const h2 = box.closest('section')?.querySelector('h2');
    return (box.lang && h2?.querySelector(`[lang="${box.lang}"]`)) || h2;
  };
  for (const box of boxes) watchReach(box, () => (box.querySelector('caption') ?? heading(box))?.textContent.trim() ?? '');
  onLang(() => boxes.forEach(rename));
}

/**
 * The "Table" toggle under a chart: host.data as an HTML table of at most MAX_TABLE_ROWS ×
 * MAX_TABLE_COLUMNS (the CSV has everything), redrawn with the chart while it is open.
 */
export function tableView(container, host) {
  const box = document.createElement('div');
  box.className = 'data-table';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'data-table-toggle';
  button.dataset.action = 'table'; // named as the toolbar's buttons are, beside which it sits
  button.setAttribute('aria-expanded', 'false');
  const region = document.createElement('div');
  region.className = 'table-scroll';
  region.id = newId('data-table', host.chart.kind);
  region.hidden = true;
  button.setAttribute('aria-controls', region.id);
  box.append(button, region);
  container.append(box);
  const relabel = () => (button.textContent = region.hidden ? HOST.table : HOST.hideTable);
  const render = () => {
    if (region.hidden) return;
    const data = host.data;
    if (!data?.columns) {
      region.textContent = HOST.tableEmpty;
      return;
    }
    // data.heads: the columns in the page's language; data.columns (the CSV's) stay English.
    // data.cellText: for a column of machine words (by its CSV name), the word shown for each value
    const names = data.heads ?? data.columns;
    const shown = data.columns.map((c) => data.cellText?.[c]);
    const cols = data.columns.length, rows = data.rows?.length ?? 0;
    const nc = Math.min(cols, MAX_TABLE_COLUMNS), nr = Math.min(rows, MAX_TABLE_ROWS);
    const table = document.createElement('table');
    table.className = 'values mono data-values';
    table.createCaption().textContent = HOST.tableCaption.format({ title: container.querySelector('figcaption')?.textContent ?? host.chart.kind }) +
      (nr < rows || nc < cols ? HOST.tablePart.format({ nr, rows, nc, cols }) : '');
    const head = table.createTHead().insertRow();
    for (let c = 0; c < nc; c++) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = String(names[c]);
      head.append(th);
    }
    const tbody = table.createTBody();
    for (let r = 0; r < nr; r++) {
      const tr = tbody.insertRow();
      const row = data.rows[r];
      for (let c = 0; c < nc; c++) {
        const td = document.createElement(c === 0 ? 'th' : 'td');
        if (c === 0) td.scope = 'row';
        td.textContent = tableCell(shown[c] && Object.hasOwn(shown[c], row[c]) ? shown[c][row[c]] : row[c]);
        tr.append(td);
      }
    }
    region.replaceChildren(table);
  };
  // (also the chart's own table boxes, whose content its update may put in anew)
  const watch = () => {
    for (const [b, name] of tableBoxes(container)) watchReach(b, name);
  };
  button.addEventListener('click', () => {
    region.hidden = !region.hidden;
    button.setAttribute('aria-expanded', String(!region.hidden));
    relabel();
    render();
    watch();
  });
  const drawn = () => (render(), watch());
  container.addEventListener('posenc:drawn', drawn);
  watch();
  relabel();
  return {
    relabel: () => (relabel(), render(), watch(), tableBoxes(container).forEach(([b]) => rename(b))),
    destroy: () => (tableBoxes(container).forEach(([b]) => unwatch(b)), container.removeEventListener('posenc:drawn', drawn)),
  };
}
