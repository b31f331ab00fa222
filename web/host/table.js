// table.js: the "Table" toggle under a chart: the numbers it drew, as an HTML table, for
// readers who cannot see the canvas (and anyone who wants the values).
import { HOST } from './strings.js';
import { newId } from './controls.js';

const MAX_TABLE_ROWS = 100;
const MAX_TABLE_COLUMNS = 24;

function tableCell(v) {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : Number.isFinite(v) ? String(Number(v.toPrecision(6))) : String(v);
  if (v === null || v === undefined) return '';
  return String(v);
}

/**
 * A table wider (or taller) than its scroll box can only be read by scrolling, so a keyboard
 * must be able to reach the box: in `container`, scrolling ones get tabindex 0, role region and a name.
 */
function scrollables(container) {
  for (const box of container.querySelectorAll('.table-scroll')) {
    if (box.hidden) continue;
    const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    if (scrolls) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      const name = box.querySelector('caption')?.textContent || container.querySelector('figcaption')?.textContent || '';
      box.setAttribute('aria-label', HOST.scrolls.format({ name }));
    } else if (box.hasAttribute('tabindex')) {
      box.removeAttribute('tabindex');
      box.removeAttribute('role');
      box.removeAttribute('aria-label');
    }
  }
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
  // the container is resized (a ResizeObserver reports after layout; also once at the start).
  let frame = 0;
  const later = () => {
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), scrollables(container)));
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
  relabel();
  return {
    relabel: () => (relabel(), render(), later()),
    destroy: () => (ro?.disconnect(), cancelAnimationFrame(frame), container.removeEventListener('posenc:drawn', drawn)),
  };
}
