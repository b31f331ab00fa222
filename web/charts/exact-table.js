// exact-table.js: the sinusoidal table printed as numbers (L = 2, D = 4 by default).
// The source post prints numpy float64 values, so the table is computed in float64 and printed the way
// numpy does (8 decimals, trailing zeros dropped, decimal points aligned); the float32 table the
// charts draw is computed too, to state how far the two are apart.
import { maxAbsDiff, sig } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    colPos: 'position',
    colDim: 'dim {j} ({fn})',
    title: 'PE values, position × dimension (float64)',
    length: 'positions',
    dim: 'dimension d',
    base: 'base',
    readout: '{row} in float64; the float32 table the other charts draw differs from it by at most {gap} here, agreement to about 7 significant digits.',
    notice: 'Row 0 is [0, 1, 0, 1, …] at any setting: at m = 0 every angle is 0, so each sin is 0 and each cos is 1.',
    how: 'The table is computed twice: in float64, printed the way numpy prints it so it can be checked against the source post digit by digit, and in float32, as every other chart draws it. Tap or focus a cell to see both values.',
    hint: 'Tap a cell (or Tab to the table and use the arrow keys) to see its float64 and float32 values.',
    cell: 'PE({pos}, {dim}) = {fn}({pos} / {base}^({even}/{d})): float64 {f64}, float32 {f32}',
  },
  zh: {
    colPos: '位置',
    colDim: '维度 {j}（{fn}）',
    title: '位置编码的数值，位置 × 维度（float64）',
    length: '位置数',
    dim: '维度 d',
    base: '底数 base',
    readout: '{row}（float64）；其他图表所用的 float32 表与它在这里最多相差 {gap}，两者在约 7 位有效数字上一致。',
    notice: '无论怎样设置，第 0 行都是 [0, 1, 0, 1, …]：m = 0 时所有角度都是 0，所以 sin 全为 0，cos 全为 1。',
    how: '这张表算了两遍：一遍用 float64，按 numpy 的格式打印，便于与来源博文 4 逐位核对；一遍用 float32，与其他图表所画的一样。点按或用键盘选中单元格，就能看到这两个值。',
    hint: '点按任一单元格（或用 Tab 键进入表格后按方向键），即可看到它的 float64 值和 float32 值。',
    cell: 'PE({pos}, {dim}) = {fn}({pos} / {base}^({even}/{d}))：float64 为 {f64}，float32 为 {f32}',
  },
});

// numpy-like: 8 decimals without trailing zeros, padded so the decimal points line up.
function numpyStrings(values) {
  const parts = Array.from(values, (x) => {
    const [int, frac = ''] = x.toFixed(8).replace(/\.?0+$/, '').split('.');
    // a value that rounds to zero prints as 0, but −0.41614684 keeps its sign
    return [int === '-0' && !frac ? '0' : int, frac];
  });
  const wi = Math.max(...parts.map(([i]) => i.length)), wf = Math.max(...parts.map(([, f]) => f.length));
  return parts.map(([i, f]) => i.padStart(wi) + (wf ? (f ? `.${f}` : ' ') + ''.padEnd(wf - f.length) : ''));
}

export default {
  kind: 'exact-table',
  messages: M,
  title: M.title,
  params: [
    { name: 'length', label: M.length, type: 'int', min: 1, max: 16, value: 2 },
    { name: 'dim', label: M.dim, type: 'int', min: 2, max: 16, step: 2, value: 4 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 100000, step: 'any', value: 10000 },
  ],
  mount(el, { pe }) {
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono exact-values';
    scroll.append(table);
    // a cell's two values, for a finger or the keyboard (a title tooltip needs a mouse)
    const line = document.createElement('p');
    line.className = 'cell-hover mono exact-cell';
    line.setAttribute('aria-live', 'polite');
    el.append(scroll, line);
    // A sideways swipe snaps a column's start to the right edge of the sticky position column,
    // whose width follows its header's language: the padding is set from its measured width
    // (a ResizeObserver reports after layout, so no layout is forced here).
    const sticky = typeof ResizeObserver === 'function' ? new ResizeObserver(([e]) => {
      scroll.style.scrollPaddingLeft = `${Math.ceil(e.borderBoxSize?.[0]?.inlineSize ?? e.target.offsetWidth)}px`;
    }) : null;

    let s = null; // the tables drawn last: { length, dim, base, f64, f32 }
    let picked = null; // { pos, dim } tapped or focused
    const cellAt = ({ pos, dim }) => table.tBodies[0]?.rows[pos]?.cells[dim + 1] ?? null;
    const show = () => {
      // the hint is a sentence: monospace is for the figures of a cell
      line.classList.toggle('hint', !s || !picked);
      line.classList.toggle('mono', Boolean(s && picked));
      if (!s || !picked) {
        // (a live region: rewriting the same hint at every redraw would have it read out again)
        if (line.textContent !== String(M.hint)) line.textContent = String(M.hint);
        return;
      }
      const { pos, dim } = picked, i = pos * s.dim + dim;
      line.textContent = M.cell.format({
        pos, dim, fn: dim % 2 ? 'cos' : 'sin', base: s.base, even: dim - (dim % 2), d: s.dim, f64: String(s.f64[i]), f32: String(s.f32[i]),
      });
    };
    /** Picks a cell (clamped to the table); the keyboard's one stop in the table moves with it. */
    const pick = (c, focus = false) => {
      picked = c && { pos: Math.min(s.length - 1, Math.max(0, c.pos)), dim: Math.min(s.dim - 1, Math.max(0, c.dim)) };
      for (const td of table.querySelectorAll('td[tabindex="0"]')) td.tabIndex = -1;
      const td = cellAt(picked ?? { pos: 0, dim: 0 });
      if (td) td.tabIndex = 0;
      for (const old of table.querySelectorAll('td.picked')) old.classList.remove('picked');
      if (picked) td?.classList.add('picked');
      if (focus) td?.focus();
      show();
    };
    const cellOf = (target) => {
      const td = target.closest?.('td');
      if (!td || !table.contains(td)) return null;
      return { pos: td.parentElement.sectionRowIndex, dim: td.cellIndex - 1 };
    };
    // a tap gives no hover, so pointerdown reads the cell; focus (Tab, a click) reads it too
    table.addEventListener('pointerdown', (e) => {
      const c = cellOf(e.target);
      if (c) pick(c);
    });
    table.addEventListener('focusin', (e) => {
      const c = cellOf(e.target);
      if (c && (c.pos !== picked?.pos || c.dim !== picked?.dim)) pick(c);
    });
    table.addEventListener('keydown', (e) => {
      const c = cellOf(e.target);
      if (!c) return;
      const moves = {
        ArrowUp: { pos: c.pos - 1, dim: c.dim }, ArrowDown: { pos: c.pos + 1, dim: c.dim },
        ArrowLeft: { pos: c.pos, dim: c.dim - 1 }, ArrowRight: { pos: c.pos, dim: c.dim + 1 },
        Home: { pos: c.pos, dim: 0 }, End: { pos: c.pos, dim: s.dim - 1 },
      };
      if (!Object.hasOwn(moves, e.key)) return;
      e.preventDefault();
      pick(moves[e.key], true);
    });

    const view = {
      update({ length, dim, base }) {
        const f64 = pe.sinusoidal(length, dim, { base, precision: 'f64' });
        const f32 = pe.sinusoidal(length, dim, { base });
        const text = numpyStrings(f64);
        const columns = ['pos', ...Array.from({ length: dim }, (_, j) => `${j % 2 ? 'cos' : 'sin'} d${j}`)];
        const rows = Array.from({ length }, (_, p) => [p, ...f64.subarray(p * dim, (p + 1) * dim)]);
        // a header names the dimension and what it holds: 'dim 3 (cos)', not the CSV's terse 'cos d3'
        const heads = [String(M.colPos), ...Array.from({ length: dim }, (_, j) => M.colDim.format({ j, fn: j % 2 ? 'cos' : 'sin' }))];
        // nobr: a header in words is wider than its column on a phone, and broken in two it reads as two labels
        const head = `<thead><tr>${heads.map((c) => `<th scope="col"><span class="nobr">${c}</span></th>`).join('')}</tr></thead>`;
        const body = rows
          .map(([p], r) => `<tr><th scope="row">${p}</th>${text.slice(r * dim, (r + 1) * dim)
            .map((t, j) => `<td tabindex="-1" title="float64 ${f64[r * dim + j]}; float32 ${f32[r * dim + j]}">${t}</td>`).join('')}</tr>`)
          .join('');
        const focused = table.contains(el.getRootNode().activeElement ?? document.activeElement);
        table.innerHTML = head + `<tbody>${body}</tbody>`;
        sticky?.disconnect();
        sticky?.observe(table.rows[0].cells[0], { box: 'border-box' });
        s = { length, dim, base, f64, f32 };
        // the picked cell stays picked, clamped to the new table, and its values follow the settings
        pick(picked, focused);
        const gap = maxAbsDiff(f32, f64);
        const last = length - 1;
        const row = `PE(${last}) = [${text.slice(last * dim, last * dim + Math.min(dim, 4)).map((t) => t.trim()).join(', ')}${dim > 4 ? ', …' : ''}]`;
        view.notice = String(M.notice);
        view.readout = M.readout.format({ row, gap: gap === 0 ? '0' : sig(gap, 2) });
        return { columns, heads, rows };
      },
      destroy: () => sticky?.disconnect(),
    };
    return view;
  },
};
