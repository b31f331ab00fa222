// sin-heatmap.js: the source post's heatmap, the whole sinusoidal table as an image: position
// down (row 0 at the top, as matplotlib's imshow draws it), dimension across, matplotlib's
// coolwarm on [-1, 1]. One pixel per cell is painted into an offscreen canvas and scaled onto the
// visible one, so 1024 × 1024 cells cost one putImageData, not a million chart elements; a plot
// with less than 1.5 pixels a cell gets the table resampled onto its pixels instead (cellsFor).
// Positions stop at 1024: the plot is some 500 pixels tall, so more rows would only be averaged
// into the same picture, at twice the cost (about 10 ms a million cells, more the first time).
import { plainCanvas, coolwarm, niceTicks, sig, deviceScale, drawCells, drawColourBar, textScale, scaledMargin, subscript, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';
import { cellKeys, markCell } from './shared/cell-keys.js';

const MARGIN = { left: 60, right: 64, top: 10, bottom: 40 }; // room for tick labels and the colour bar (at 11 px; scaled with the text)
const BAR = 12; // colour bar width

// coolwarm as whole RGBA pixels, written through bytes so the platform's endianness is right.
const LUT32 = (() => {
  const lut = new Uint32Array(256), bytes = new Uint8ClampedArray(lut.buffer);
  for (let k = 0; k < 256; k++) bytes.set([coolwarm[3 * k], coolwarm[3 * k + 1], coolwarm[3 * k + 2], 255], 4 * k);
  return lut;
})();

const M = messages({
  en: {
    title: 'Sinusoidal PE table: position × dimension',
    length: 'positions',
    base: 'base',
    layout: 'layout',
    interleaved: 'interleaved (2i, 2i+1)',
    concat: 'concat [sin | cos]',
    heatmap: 'Heatmap of the sinusoidal position encoding',
    xTitle: 'embedding dimension',
    yTitle: 'position',
    hint: 'Tap the map or point at it (or Tab to it and use the arrow keys; Page Up and Page Down move 10 columns) to read a value.',
    cell: 'PE({pos}, {dim}) = {value}: {kind}({pos} · θ{pair}), θ{pair} = {w}',
    layoutInterleaved: 'interleaved',
    layoutConcat: 'concat',
    aria: 'Heatmap of the sinusoidal position encoding, {length} positions by {dim} dimensions, base {base}, {layout} layout; ' +
      'values from {lo} to {hi}. Tab to it and use the arrow keys to read single values.',
    readout: '{length} × {dim} values, all within [{lo}, {hi}]: pair 0 turns once every {turn0} positions, ' +
      'pair {last} once every {turnLast}.',
    noticeInterleaved: 'On the left the pairs turn fast and the colours change from row to row; towards the right they turn more and more slowly, and at the right edge they barely turn, so sin stays near 0 (grey) and cos near 1 (red) all the way down.',
    noticeConcat: 'Concat layout: the same numbers in another order, all sines (left half) before all cosines (right half); each half fades from fast to flat.',
    how: 'The table PE(m, 2i) = sin(m·θᵢ), PE(m, 2i + 1) = cos(m·θᵢ) is computed in float32 and drawn one cell per value, coloured from −1 (blue) through 0 (grey) to 1 (red). The interleaved layout (Vaswani et al., the source posts) keeps pair i in dims 2i, 2i + 1; the concat layout stores all sines first, then all cosines, as tensor2tensor does. Where the cells are narrower than the screen\'s pixels, each pixel shows the mean colour of the cells it covers, sines averaged only with sines and cosines with cosines, so the right edge keeps its grey and red stripes; pointing at a cell reads its own value.',
  },
  zh: {
    title: '正弦位置编码表：位置 × 维度',
    length: '位置数',
    base: '底数 base',
    layout: '布局',
    interleaved: '交错 (2i, 2i+1)',
    concat: '拼接 [sin | cos]',
    heatmap: '正弦位置编码热力图',
    xTitle: '嵌入维度',
    yTitle: '位置',
    hint: '用手指点按图中任一处或把鼠标移到图上（也可用 Tab 键选中图后按方向键，上下翻页键一次移动 10 列），即可读出单个数值。',
    cell: 'PE({pos}, {dim}) = {value}：{kind}({pos} · θ{pair})，θ{pair} = {w}',
    layoutInterleaved: '交错',
    layoutConcat: '拼接',
    aria: '正弦位置编码热力图，{length} 个位置 × {dim} 个维度，底数 {base}，{layout}布局；' +
      '取值从 {lo} 到 {hi}。用 Tab 键选中后按方向键可读出单个数值。',
    readout: '{length} × {dim} 个值，全部在 [{lo}, {hi}] 之内：第 0 对每 {turn0} 个位置转一圈，' +
      '第 {last} 对每 {turnLast} 个位置转一圈。',
    noticeInterleaved: '左边的维度对转得快，颜色逐行变化；越往右转得越慢，到了最右边缘几乎不转，sin 一直停在 0 附近（灰），cos 一直停在 1 附近（红）。',
    noticeConcat: '拼接布局：同样的数，换了一种存放顺序，所有 sin（左半）排在所有 cos（右半）前面；每一半都从快速变化逐渐变得平坦。',
    how: '表 PE(m, 2i) = sin(m·θᵢ)、PE(m, 2i + 1) = cos(m·θᵢ) 用 float32 计算，每个值画成一格，颜色从 −1（蓝）经 0（灰）到 1（红）。交错布局（Vaswani 等人的论文和各篇来源博文都是如此）把第 i 对放在维度 2i、2i + 1；拼接布局先放全部 sin，再放全部 cos，tensor2tensor 就是这样存的。格子比屏幕像素还窄时，每个像素显示它所覆盖的各格颜色的平均，sin 只与 sin 平均，cos 只与 cos 平均，所以最右边仍是灰红相间的条纹；把鼠标移到格子上，读出的是这一格自己的值。',
  },
});

/**
 * Writes each value's coolwarm pixel (the index is coolwarmIndex's) into px, one 32-bit store
 * per cell; returns [lowest, highest] value. A small function of its own, so the engine
 * optimizes it at once rather than the whole of update().
 */
function colourCells(table, px) {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0, n = table.length; i < n; i++) {
    const v = table[i];
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
    const k = ((v + 1) * 128) | 0; // v is in [-1, 1], so (v + 1)·128 is in [0, 256] and |0 floors it
    px[i] = LUT32[k > 255 ? 255 : k];
  }
  return [lo, hi];
}

/** How many 2:1 halvings give each of `cells` 1.5 of `pixels` or more (none once one cell is left). */
export function halvings(cells, pixels) {
  let h = 0;
  while (cells / 2 ** h > pixels / 1.5 && cells / 2 ** h >= 2) h++;
  return h;
}

/**
 * The interleaved image's columns (sin, cos of pair 0, of pair 1, …) regrouped into `out`, a
 * row 2·group·⌈pairs / group⌉ columns wide: the sines of `group` pairs side by side, then their
 * cosines, then the next pairs'; a last group short of pairs repeats its last pair. Halved as
 * often as `group` is 2 to a power, each of its columns averages one kind only.
 */
export function groupColumns(px, dim, length, group, out) {
  const pairs = dim / 2, cols = 2 * group * Math.ceil(pairs / group);
  // where each column of `out` comes from in a row, then the rows in order
  const from = new Int32Array(cols);
  for (let c = 0; c < cols; c++) {
    const g = Math.floor(c / (2 * group)), kind = Math.floor(c / group) % 2, j = Math.min(pairs - 1, g * group + (c % group));
    from[c] = 2 * j + kind;
  }
  for (let r = 0, o = 0, i = 0; r < length; r++, i += dim) for (let c = 0; c < cols; c++) out[o++] = px[i + from[c]];
  return out;
}

function describe(dim, layout, d) {
  const half = dim / 2;
  const [kind, pair] = layout === 'concat' ? [d < half ? 'sin' : 'cos', d % half] : [d % 2 ? 'cos' : 'sin', d >> 1];
  return { kind, pair };
}

export default {
  kind: 'sin-heatmap',
  messages: M,
  title: M.title,
  // animated, the base grows by a power of ten every tenth frame, from 100 to 1 000 000 (the
  // original 10 000 in the middle): the stripes slow down across the columns, the slowest pairs
  // going still over these positions
  sweep: { param: 'base', from: 100, to: 1000000, frames: 41 },
  params: [
    { name: 'length', label: M.length, type: 'int', min: 1, max: 1024, value: 100 },
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 1024, step: 2, value: 512 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
    { name: 'layout', label: M.layout, type: 'select', options: ['interleaved', 'concat'], value: 'interleaved',
      optionLabels: { interleaved: M.interleaved, concat: M.concat } },
  ],
  mount(el, { pe }) {
    const { canvas, paint, destroy } = plainCanvas(el, 1.9, M.heatmap);
    canvas.classList.add('heatmap-canvas');
    canvas.parentElement.classList.add('phone-tall');
    const hover = document.createElement('p');
    hover.className = 'heatmap-hover';
    hover.setAttribute('aria-live', 'polite');
    el.append(hover);
    const image = document.createElement('canvas');
    const ictx = image.getContext('2d');
    let img = ictx.createImageData(1, 1);
    // the cells' pixels reach `image` only when a picture is made from it: at 1024 columns on a
    // plot some 600 pixels wide, the regrouped copy is drawn instead, and the upload is wasted
    let imageStale = false;
    const imageNow = () => {
      if (imageStale) ictx.putImageData(img, 0, 0);
      imageStale = false;
      return image;
    };

    let s = null; // the table drawn last and its parameters
    let cursor = null; // { pos, dim } under the mouse or moved by the keys
    let plot = null; // the plot rectangle of the last paint, in CSS pixels
    const small = document.createElement('canvas');
    let smallFor = ''; // the table and the pixel grid that `small` holds
    let drawnTable = 0; // counts the tables drawn, to know when `small` is out of date
    let grouped = null; // the regrouped pixels, `small`'s size, kept while that holds

    // The picture for a plot of width × height device pixels: the cells themselves while each
    // gets 1.5 pixels or more (drawCells scales them up as exact blocks). Tighter, cells are
    // averaged 2 × 2, 4 × 4 … until they get that much, by halving the image with a bilinear
    // 2:1 scale (each pixel lands midway between two cells) as often as needed; first, though,
    // the interleaved columns are regrouped (groupColumns) so that each average takes sines
    // with sines and cosines with cosines: averaging the neighbours as they are (the grey sine
    // of a slow pair beside its red cosine) paints an even pink where the table has stripes.
    // Kept for the cursor's repaints.
    const halved = [document.createElement('canvas'), document.createElement('canvas')];
    let averaged = null; // the last picture cellsFor averaged
    const cellsFor = ({ width, height }) => {
      // (rows do not alternate as columns do: halved while twice as many as the pixels, then
      // scaled onto the pixels, which averages each pixel's one or two rows)
      const hx = halvings(s.dim, width), hy = halvings(s.length, 3 * height);
      const rows = s.length / 2 ** hy > height ? Math.round(height) : 0;
      if (!hx && !hy && !rows) return imageNow();
      const key = `${drawnTable} ${hx} ${hy} ${rows}`;
      if (smallFor === key) return averaged;
      let from;
      if (!hx || s.layout === 'concat') from = imageNow();
      else {
        const group = 2 ** hx, cols = 2 * group * Math.ceil(s.dim / 2 / group);
        const sctx = small.getContext('2d');
        if (grouped?.width !== cols || grouped.height !== s.length) {
          small.width = cols;
          small.height = s.length;
          grouped = sctx.createImageData(cols, s.length);
        }
        groupColumns(new Uint32Array(img.data.buffer), s.dim, s.length, group, new Uint32Array(grouped.data.buffer));
        sctx.putImageData(grouped, 0, 0);
        from = small;
      }
      for (let k = 0, x = hx, y = hy; x > 0 || y > 0 || rows; k++, x--, y--) {
        const to = halved[k % 2], last = x <= 0 && y <= 0;
        to.width = Math.ceil(from.width / (x > 0 ? 2 : 1));
        to.height = last ? rows : Math.ceil(from.height / (y > 0 ? 2 : 1));
        const tctx = to.getContext('2d');
        tctx.imageSmoothingEnabled = true;
        tctx.imageSmoothingQuality = 'low';
        tctx.drawImage(from, 0, 0, to.width, to.height);
        from = to;
        if (last) break;
      }
      smallFor = key;
      return (averaged = from);
    };

    const draw = (ctx, w, h) => {
      if (!s) return;
      const { length, dim } = s;
      const k = textScale(), m = scaledMargin(MARGIN, k);
      plot = { x: m.left, y: m.top, w: Math.max(10, w - m.left - m.right), h: Math.max(10, h - m.top - m.bottom) };
      const r = deviceScale(ctx);
      const cellX = plot.w / dim, cellY = plot.h / length;
      drawCells(ctx, cellsFor({ width: plot.w * r, height: plot.h * r }), plot, {
        xTicks: niceTicks(0, dim - 1, Math.max(2, Math.floor(plot.w / (70 * k)))).map((d) => [(d + 0.5) / dim, String(d)]),
        yTicks: niceTicks(0, length - 1, Math.max(2, Math.floor(plot.h / (40 * k)))).map((p) => [(p + 0.5) / length, String(p)]),
        xTitle: String(M.xTitle),
        yTitle: String(M.yTitle),
        yTitleX: 10 * k, // at the canvas edge: four-digit position labels fill the margin
      });
      // Colour bar: +1 at the top, like matplotlib's colorbar.
      drawColourBar(ctx, coolwarm, { x: plot.x + plot.w + Math.round(14 * k), y: plot.y, w: BAR, h: plot.h },
        [1, 0.5, 0, -0.5, -1].map((v) => [(1 - v) / 2, v === 0 ? '0' : String(v)]));

      if (cursor) markCell(ctx, plot.x + cursor.dim * cellX, plot.y + cursor.pos * cellY, cellX, cellY);
    };

    const showCursor = () => {
      // (the page's own font, with figures of one width: a monospace font has no subscript
      // digits and sets those of θ₁₇₉ a whole cell apart)
      hover.classList.toggle('hint', !s || !cursor);
      if (!s || !cursor) {
        // (a live region: rewriting the same hint at every redraw would have it read out again)
        if (hover.textContent !== String(M.hint)) hover.textContent = String(M.hint);
        return;
      }
      const { pos, dim: d } = cursor;
      const { kind, pair } = describe(s.dim, s.layout, d);
      hover.textContent = M.cell.format({ pos, dim: d, value: s.table[pos * s.dim + d].toFixed(6), kind, pair: subscript(pair), w: sig(s.w[pair], 4) });
    };
    const setCursor = (c) => {
      cursor = c && { pos: Math.min(s.length - 1, Math.max(0, c.pos)), dim: Math.min(s.dim - 1, Math.max(0, c.dim)) };
      showCursor();
      paint(draw);
    };
    const point = (e) => {
      if (!s || !plot) return;
      const r = canvas.getBoundingClientRect();
      const fx = (e.clientX - r.left - plot.x) / plot.w, fy = (e.clientY - r.top - plot.y) / plot.h;
      if (fx < 0 || fx >= 1 || fy < 0 || fy >= 1) return;
      setCursor({ pos: Math.floor(fy * s.length), dim: Math.floor(fx * s.dim) });
    };
    // a mouse reads as it moves; a finger's tap gives no move, only its down
    canvas.addEventListener('pointermove', point);
    canvas.addEventListener('pointerdown', point);
    // rows are positions, columns dimensions
    const keys = cellKeys(canvas, {
      size: () => s && { rows: s.length, cols: s.dim },
      at: () => cursor && { row: cursor.pos, col: cursor.dim },
      go: ({ row, col }) => setCursor({ pos: row, dim: col }),
    });

    const view = {
      update({ length, dim, base, layout }) {
        const table = pe.sinusoidal(length, dim, { base, layout });
        const w = pe.ropeInvFreq(dim, { base });
        if (image.width !== dim || image.height !== length) {
          image.width = dim;
          image.height = length;
          img = ictx.createImageData(dim, length);
        }
        const [lo, hi] = colourCells(table, new Uint32Array(img.data.buffer));
        imageStale = true;
        s = { table, w, length, dim, base, layout };
        drawnTable++;
        if (cursor) cursor = { pos: Math.min(cursor.pos, length - 1), dim: Math.min(cursor.dim, dim - 1) };
        paint(draw);
        showCursor();
        const last = dim / 2 - 1;
        const v = {
          length, dim, base, lo: lo.toFixed(3), hi: hi.toFixed(3), last,
          turn0: sig(2 * Math.PI / w[0], 4), turnLast: sig(2 * Math.PI / w[last], 4),
          layout: String(layout === 'concat' ? M.layoutConcat : M.layoutInterleaved),
        };
        canvas.setAttribute('aria-label', M.aria.format(v));
        keys.relabel();
        view.notice = String(layout === 'concat' ? M.noticeConcat : M.noticeInterleaved);
        view.readout = M.readout.format(v);
        // Building the rows is as costly as the image at 1024 × 1024; only a reader of the
        // data (the CSV export, a test) pays for it, once.
        let rows = null;
        return {
          columns: ['position', ...Array.from({ length: dim }, (_, d) => `dim ${d}`)],
          heads: colHeads([COL.position, ...Array.from({ length: dim }, (_, d) => COL.dim.format({ d }))]),
          get rows() {
            rows ??= Array.from({ length }, (_, p) => [p, ...table.subarray(p * dim, (p + 1) * dim)]);
            return rows;
          },
        };
      },
      destroy,
    };
    return view;
  },
};
