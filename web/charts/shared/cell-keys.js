// cell-keys.js: a heatmap read cell by cell from the keyboard, and the mark of the cell being read.
import { messages } from '../../host/i18n.js';

const M = messages({
  en: { role: 'heatmap' },
  zh: { role: '热力图' },
});

/** Columns a PageUp/PageDown (or Shift/Ctrl with an arrow) moves. */
export const BIG_STEP = 10;

/**
 * Makes `canvas` a heatmap the keyboard reads: focusable, with role="application" described as a
 * heatmap. On role="img" a screen reader in browse mode keeps the arrow keys for itself; an
 * application receives them (a grid role would need a DOM cell for each of 50 000 values).
 * Arrows move one cell, with Shift or Ctrl ten; PageUp/PageDown move ten columns (across 512 of
 * them); Home/End go to the row's first and last column, Ctrl+Home/End to the first and last cell.
 * size() -> { rows, cols } (null while nothing is drawn), at() -> { row, col } or null,
 * go({ row, col }) moves the mark (clamped by the caller). Focus shows the mark at (0, 0) when
 * there is none yet. Returns relabel(), to call after a language switch.
 */
export function cellKeys(canvas, { size, at, go }) {
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'application');
  canvas.addEventListener('focus', () => {
    if (size() && !at()) go({ row: 0, col: 0 });
  });
  canvas.addEventListener('keydown', (e) => {
    const n = size();
    if (!n) return;
    const c = at() ?? { row: 0, col: 0 };
    const step = e.shiftKey || e.ctrlKey || e.metaKey ? BIG_STEP : 1;
    const to = {
      ArrowUp: { row: c.row - step, col: c.col },
      ArrowDown: { row: c.row + step, col: c.col },
      ArrowLeft: { row: c.row, col: c.col - step },
      ArrowRight: { row: c.row, col: c.col + step },
      PageUp: { row: c.row, col: c.col - BIG_STEP },
      PageDown: { row: c.row, col: c.col + BIG_STEP },
      Home: e.ctrlKey ? { row: 0, col: 0 } : { row: c.row, col: 0 },
      End: e.ctrlKey ? { row: n.rows - 1, col: n.cols - 1 } : { row: c.row, col: n.cols - 1 },
    }[e.key];
    if (!to) return;
    e.preventDefault();
    go(to);
  });
  const relabel = () => canvas.setAttribute('aria-roledescription', String(M.role));
  relabel();
  return { relabel };
}

/**
 * The mark of the cell being read, at (x, y) of size w × h in CSS pixels: at least 9 px wide and
 * high wherever the cells are thinner, black inside a white ring so it shows on every colour
 * of the map and at the plot's corner beside the axes.
 */
export function markCell(ctx, x, y, w, h) {
  const mw = Math.round(Math.max(w, 9)), mh = Math.round(Math.max(h, 9));
  const mx = Math.round(x + (w - mw) / 2), my = Math.round(y + (h - mh) / 2);
  ctx.save();
  ctx.lineWidth = 2;
  ctx.strokeStyle = '#ffffff';
  ctx.strokeRect(mx - 2, my - 2, mw + 4, mh + 4);
  ctx.strokeStyle = '#000000';
  ctx.strokeRect(mx, my, mw, mh);
  ctx.restore();
}
