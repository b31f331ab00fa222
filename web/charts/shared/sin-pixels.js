// sin-pixels.js: the sinusoidal table resampled onto a plot's own device pixels, for a plot with
// fewer pixels than cells along an axis (sin-heatmap). A pixel is coloured by the mean colour of
// the cells it covers, never by a mean of two kinds: across, sines are averaged with sines and
// cosines with cosines. Averaging the interleaved layout's neighbours instead (sin of a slow pair
// ≈ 0, grey, beside its cos ≈ 1, red) paints an even pink where the table has stripes.

/**
 * The columns that make each of `width` pixels, as spans over one index: start[x]..start[x + 1]
 * of `at` (the column) and `wt` (its weight; a pixel's weights add up to 1).
 */
function spans(width) {
  return { start: new Int32Array(width + 1), at: [], wt: [] };
}

/** Adds to `s` the box [a, b) of a row of cells (fractional ends weigh their overlap); col(k) is cell k's column. */
function box(s, a, b, col) {
  for (let k = Math.floor(a); k < b; k++) {
    const w = Math.min(b, k + 1) - Math.max(a, k);
    if (w > 1e-9) s.at.push(col(k)), s.wt.push(w / (b - a));
  }
}

/**
 * The columns of each of `width` pixels for a table `dim` columns wide in `layout`.
 * Not tight (a cell gets 1.5 pixels or more): each pixel takes the cell under its centre, so
 * cells stay sharp blocks. Tight, interleaved: pixels alternate in stripes of `stripe` pixels
 * between a sine and a cosine, each pair of stripes averaging one run of pairs; the width must
 * be a multiple of 2 · stripe. Tight, concat: the left half of the pixels averages the sines, the
 * right half the cosines, meeting at a pixel's edge; the width must be even.
 */
export function columnSpans(width, dim, layout, { tight, stripe = 1 }) {
  const s = spans(width), pairs = dim / 2;
  for (let x = 0; x < width; x++) {
    s.start[x] = s.at.length;
    if (!tight) {
      s.at.push(Math.min(dim - 1, Math.floor(((x + 0.5) * dim) / width))), s.wt.push(1);
    } else if (layout === 'concat') {
      const half = width / 2, cos = x >= half ? 1 : 0, u = x - cos * half;
      box(s, (u * pairs) / half, ((u + 1) * pairs) / half, (k) => cos * pairs + k);
    } else {
      const t = Math.floor(x / stripe), groups = width / (2 * stripe), j = t >> 1, cos = t & 1;
      box(s, (j * pairs) / groups, ((j + 1) * pairs) / groups, (k) => 2 * k + cos);
    }
  }
  s.start[width] = s.at.length;
  return { start: s.start, at: Int32Array.from(s.at), wt: Float32Array.from(s.wt) };
}

/**
 * Rows averaged: `height` rows, each the mean colour of the run of `length` rows it covers, as
 * RGB floats into `out` (from `rgba`, length × dim pixels).
 */
function meanRows(rgba, length, dim, height, out) {
  out.fill(0, 0, 3 * height * dim);
  const step = length / height;
  for (let y = 0; y < height; y++) {
    const a = y * step, b = a + step, o = 3 * y * dim;
    for (let k = Math.floor(a); k < b && k < length; k++) {
      const w = (Math.min(b, k + 1) - Math.max(a, k)) / step, i = 4 * k * dim;
      if (w <= 1e-9) continue;
      for (let c = 0; c < dim; c++) {
        out[o + 3 * c] += w * rgba[i + 4 * c];
        out[o + 3 * c + 1] += w * rgba[i + 4 * c + 1];
        out[o + 3 * c + 2] += w * rgba[i + 4 * c + 2];
      }
    }
  }
  return out;
}

/** One row of pixels into `px` (RGBA bytes) at pixel `to`: each the mean colour of its columns, read from `src` (`stride` numbers a cell) at cell `from`. */
function colourRow(src, from, stride, cols, px, to, width) {
  const { start, at, wt } = cols;
  for (let x = 0; x < width; x++) {
    let r = 0, g = 0, b = 0;
    for (let k = start[x], e = start[x + 1]; k < e; k++) {
      const i = stride * (from + at[k]), w = wt[k];
      r += w * src[i];
      g += w * src[i + 1];
      b += w * src[i + 2];
    }
    const o = 4 * (to + x);
    px[o] = r;
    px[o + 1] = g;
    px[o + 2] = b;
    px[o + 3] = 255;
  }
}

/**
 * Fills `px` (width × height RGBA bytes) from `rgba` (the cells' colours, length × dim RGBA
 * bytes) through the column spans `cols` (columnSpans); rows are averaged when `tightRows`,
 * else each pixel row shows the row under its centre. Colours are averaged, not values: a
 * run of fast pairs turning through red and blue shows as their mix, not as the grey of 0,
 * which the table would only hold where its values are small. `scratch` holds 3 · height · dim
 * floats or more (for averaged rows).
 */
export function paintPixels(rgba, length, dim, { width, height, cols, tightRows, px, scratch }) {
  if (tightRows) {
    const rows = meanRows(rgba, length, dim, height, scratch);
    for (let y = 0; y < height; y++) colourRow(rows, y * dim, 3, cols, px, y * width, width);
    return px;
  }
  let last = -1;
  for (let y = 0; y < height; y++) {
    const r = Math.min(length - 1, Math.floor(((y + 0.5) * length) / height));
    if (r === last) px.copyWithin(4 * y * width, 4 * (y - 1) * width, 4 * y * width);
    else colourRow(rgba, r * dim, 4, cols, px, y * width, width);
    last = r;
  }
  return px;
}
