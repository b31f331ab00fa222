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
 * (name(): the text it is named for). A box in a section the browser skips (content-visibility:
 * auto, out of view) has no layout to tell: it is offered to the keyboard until it is laid out
 * (a ResizeObserver on it, or on what holds it, reports then). One not shown keeps what it had.
 */
function keyboardReach(box, name) {
  offer(box, name, scrollsNow(box));
}

/** Whether `box` must be a Tab stop (see keyboardReach); undefined when it is not shown. */
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

// keyboardReach in the next frame for every box that asked, all read before any is written:
// reading one box after another's attributes changed would lay the page out once per box
const asked = new Map();
let frame = 0;
function reachLater(box, name) {
  asked.set(box, name);
  frame ||= requestAnimationFrame(() => {
    frame = 0;
    const boxes = [...asked];
    asked.clear();
    const scrolls = boxes.map(([b]) => scrollsNow(b));
    boxes.forEach(([b, n], i) => offer(b, n, scrolls[i]));
  });
}

/** The table boxes of chart `container`, each with the text it is named for: its caption or the chart's. */
const tableBoxes = (container) => [...container.querySelectorAll('.table-scroll')].map((box) =>
  [box, () => box.querySelector('caption')?.textContent || container.querySelector('figcaption')?.textContent || '']);

/** keyboardReach for the table boxes of chart `container`. */
function scrollables(container) {
  for (const [box, name] of tableBoxes(container)) keyboardReach(box, name);
}

/**
 * keyboardReach for table boxes of the prose (`boxes`), named by their caption or their section's
 * heading, now, whenever one is laid out or resized, and after a language switch (which shows the
 * other language's box: in a skipped section, a box with no layout the observer would report).
 */
export function proseTables(boxes) {
  const heading = (box) => {
    const h2 = box.closest('section')?.querySelector('h2');
    return (box.lang && h2?.querySelector(`[lang="${box.lang}"]`)) || h2;
  };
  const reach = (box) => keyboardReach(box, () => (box.querySelector('caption') ?? heading(box))?.textContent.trim() ?? '');
  const ro = typeof ResizeObserver === 'function' ? new ResizeObserver((entries) => entries.forEach((e) => reach(e.target))) : null;
  for (const box of boxes) reach(box), ro?.observe(box);
  onLang(() => boxes.forEach(reach));
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
  // Whether a table box scrolls is known after layout: checked in the next frame after a
  // change (reading sizes at once would force a layout of the whole page per chart), and when
  // the container is resized (a ResizeObserver reports after layout); also once at the start.
  const later = () => {
    for (const [b, name] of tableBoxes(container)) reachLater(b, name);
  };
  button.addEventListener('click', () => {
    region.hidden = !region.hidden;
    button.setAttribute('aria-expanded', String(!region.hidden));
    relabel();
    render();
    later();
  });
  const drawn = () => (render(), later());
  container.addEventListener('posenc:drawn', drawn);
  const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(() => scrollables(container)) : null;
  ro?.observe(container);
  // (a container in a skipped section has no size, and the observer reports nothing until it is laid out)
  later();
  relabel();
  return {
    relabel: () => (relabel(), render(), later()),
    destroy: () => (ro?.disconnect(), tableBoxes(container).forEach(([b]) => asked.delete(b)), container.removeEventListener('posenc:drawn', drawn)),
  };
}
