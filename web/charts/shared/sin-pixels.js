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
  // the weights also in 256ths, adding up to 256 exactly (the largest takes the rounding)
  const w8 = new Uint16Array(s.wt.length);
  for (let x = 0; x < width; x++) {
    let sum = 0, big = s.start[x];
    for (let k = s.start[x]; k < s.start[x + 1]; k++) {
      w8[k] = Math.round(256 * s.wt[k]);
      sum += w8[k];
      if (s.wt[k] > s.wt[big]) big = k;
    }
    w8[big] += 256 - sum;
  }
  return { start: s.start, at: Int32Array.from(s.at), wt: Float32Array.from(s.wt), w8 };
}

/** Row y's values into `out` (dim floats): the mean of the run of `length` rows it covers out of `height`. */
function meanRow(table, length, dim, height, y, out) {
  const step = length / height, a = y * step, b = a + step;
  out.fill(0);
  for (let k = Math.floor(a); k < b && k < length; k++) {
    const w = (Math.min(b, k + 1) - Math.max(a, k)) / step;
    if (w > 1e-9) addRow(out, table, k * dim, dim, w);
  }
  return out;
}

function addRow(out, src, i, n, w) {
  for (let c = 0; c < n; c++) out[c] += w * src[i + c];
}

/** `values` (dim of them, in [-1, 1]) as colours through `lut` (256 RGBA words) into `words`. */
function colourValues(values, from, dim, lut, words) {
  for (let c = 0; c < dim; c++) {
    const i = ((values[from + c] + 1) * 128) | 0;
    words[c] = lut[i < 0 ? 0 : i > 255 ? 255 : i];
  }
}

/**
 * One row of pixels into `px` (RGBA words) at pixel `to`: each the mean colour of its columns
 * in `words` (RGBA words), two bytes of each word at a time: bytes 0 and 2, then 1 and 3, each
 * times a weight in 256ths stays within its 16 bits, whatever the byte order.
 */
function colourRow(words, cols, px, to, width) {
  const { start, at, w8 } = cols;
  for (let x = 0; x < width; x++) {
    let even = 0, odd = 0;
    for (let k = start[x], e = start[x + 1]; k < e; k++) {
      const c = words[at[k]], w = w8[k];
      even += (c & 0xff00ff) * w;
      odd += ((c >>> 8) & 0xff00ff) * w;
    }
    px[to + x] = ((even >>> 8) & 0xff00ff) | (((odd >>> 8) & 0xff00ff) << 8);
  }
}

/**
 * Fills `px` (width × height RGBA words) from `table` (length × dim values, row-major) through
 * the column spans `cols` (columnSpans) and `lut` (256 RGBA words over [-1, 1]). Down, when
 * `tightRows`, a pixel row is the mean of the table's rows it covers (one pair's wave, averaged
 * over a pixel or two), else the row under its centre. Across, colours are averaged, not values:
 * a run of fast pairs, each at its own phase, shows as the mix of their reds and blues, not as
 * the grey of 0, which the table would only hold where its values are small.
 */
export function paintPixels(table, length, dim, { width, height, cols, tightRows, lut, px }) {
  const values = new Float32Array(dim), words = new Uint32Array(dim);
  let last = -1;
  for (let y = 0; y < height; y++) {
    const r = Math.min(length - 1, Math.floor(((y + 0.5) * length) / height));
    if (!tightRows && r === last) {
      px.copyWithin(y * width, (y - 1) * width, y * width);
      continue;
    }
    if (tightRows) colourValues(meanRow(table, length, dim, height, y, values), 0, dim, lut, words);
    else colourValues(table, r * dim, dim, lut, words);
    colourRow(words, cols, px, y * width, width);
    last = r;
  }
  return px;
}
