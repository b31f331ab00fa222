// picture.js: how web/lab/results.json stores an attention picture (the lower triangle of a
// T × T map of weights in [0, 1], row by row). Each weight is kept as round(1023 √w), 10 bits,
// packed little-endian, four to five bytes: a square root is finest near 0, where a far query's
// many small weights lie, whose sum the lab's charts report. At this grain the figures the
// charts compute from a stored picture, to the 2 decimals they show, are those of the float32
// picture of the same run trained on the page; at 8 bits some far-key sums move by 0.01.

const LEVELS = 1023;

/** The code of weight w (a float32 in [0, 1]). */
export const pictureCode = (w) => Math.round(LEVELS * Math.sqrt(Math.min(1, Math.max(0, w))));

/** `values` (the lower triangle's weights, row by row) as packed 10-bit codes. */
export function packPicture(values) {
  const out = new Uint8Array(Math.ceil((values.length * 10) / 8));
  values.forEach((w, k) => {
    const c = pictureCode(w), bit = k * 10, byte = bit >> 3, shift = bit & 7;
    out[byte] |= (c << shift) & 255;
    out[byte + 1] |= c >> (8 - shift);
  });
  return out;
}

/** A T × T Float32Array of the packed picture `bytes` (NaN above the diagonal, where keys are masked). */
export function unpackPicture(bytes, T) {
  const w = new Float32Array(T * T).fill(NaN);
  for (let i = 0, k = 0; i < T; i++)
    for (let j = 0; j <= i; j++, k++) {
      const bit = k * 10, byte = bit >> 3;
      const c = ((bytes[byte] | (bytes[byte + 1] << 8)) >> (bit & 7)) & LEVELS;
      w[i * T + j] = (c / LEVELS) ** 2;
    }
  return w;
}
