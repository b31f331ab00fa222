// colours.js: the charts' colours: a colour-blind-safe palette (Okabe-Ito) with dash patterns
// so curves differ by more than colour, the theme's ink for hand-drawn text, and the two colour
// maps (coolwarm for signed values, viridis for magnitudes).
import { theme, colours } from '../../host/theme.js';

export const palette = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];

/** True when the dark theme is in effect (web/theme.js). */
export function isDark() {
  return theme() === 'dark';
}

// Okabe-Ito's black would vanish on the dark theme, and its blue (3.5:1 on the dark background)
// would be too faint for thin lines and small labels: palette[0] and palette[6] are read when a
// chart draws, so they are near-white and a lighter blue (6:1) there (every chart redraws on a
// theme change). That blue leans to violet (hue 232°): a plain lighter blue is palette[5]'s sky
// blue again.
Object.defineProperty(palette, 0, { get: () => (isDark() ? '#7A8CFF' : '#0072B2'), enumerable: true });
Object.defineProperty(palette, 6, { get: () => (isDark() ? '#e8e8e8' : '#000000'), enumerable: true });

/**
 * The theme's text and line colours now (web/theme.js colours(): style.css's variables, or the
 * same values where the page lacks them): for text and axes painted on a canvas by hand.
 */
export function ink() {
  // Read once per task and theme: colours() reads five custom properties through
  // getComputedStyle, and a log axis asks for the grid colour at every tick of every redraw.
  const now = theme();
  if (inkNow === null || inkTheme !== now) {
    const { fg, muted, bg, line, grid } = colours();
    if (inkNow === null) queueMicrotask(() => (inkNow = null));
    inkNow = Object.freeze({ fg, muted, bg, line, grid });
    inkTheme = now;
  }
  return inkNow;
}

let inkNow = null, inkTheme = '';

/** [r, g, b] (0 to 255) of a CSS colour written #rgb, #rrggbb, rgb(r g b) or rgb(r, g, b); null otherwise. */
export function rgbOf(css) {
  const s = String(css).trim();
  let m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(s);
  if (m) {
    const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
    return [0, 2, 4].map((o) => parseInt(h.slice(o, o + 2), 16));
  }
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/][^)]*)?\)$/i.exec(s);
  return m ? [m[1], m[2], m[3]].map(Number) : null;
}

/** WCAG 2's contrast ratio of two CSS colours (1 to 21). */
export function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = rgbOf(css).map((c) => {
      const x = c / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The contrast WCAG AA asks of 12 px text. */
export const TEXT_CONTRAST = 4.5;

/**
 * The colour to write a label in that names a curve or point drawn in `colour`: the colour
 * itself where it reads at 4.5:1 on the theme's background, else the same hue darkened (light
 * theme) or lightened (dark theme) until it does. The lines keep the palette's colour: Okabe-Ito's
 * orange (3.9:1 on white) and the grey of faint lines are legible as lines, not as 12 px text.
 */
export function textShade(colour) {
  const bg = ink().bg, rgb = rgbOf(colour);
  if (!rgb || !rgbOf(bg) || contrast(colour, bg) >= TEXT_CONTRAST) return colour;
  const towards = contrast('#000000', bg) >= contrast('#ffffff', bg) ? 0 : 255;
  for (let k = 1; k <= 20; k++) {
    const f = k / 20, c = rgb.map((x) => Math.round(x + (towards - x) * f));
    const css = `#${c.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
    if (contrast(css, bg) >= TEXT_CONTRAST) return css;
  }
  return towards ? '#ffffff' : '#000000';
}

/** Dash patterns, so curves differ by more than colour (index i pairs with palette[i]). */
export const dashes = [[], [6, 4], [2, 3], [10, 3, 2, 3], [1, 2], [14, 4]];

// matplotlib's 'coolwarm' (Moreland's CoolWarmFloat33 anchors, as in matplotlib's _cm.py),
// so the heatmap reads like the seed's figure. Rows: r, g, b in [0, 1] at t = k/32.
const COOLWARM_33 = [
  [0.2298057, 0.298717966, 0.753683153], [0.26623388, 0.353094838, 0.801466763],
  [0.30386891, 0.406535296, 0.84495867], [0.342804478, 0.458757618, 0.883725899],
  [0.38301334, 0.50941904, 0.917387822], [0.424369608, 0.558148092, 0.945619588],
  [0.46666708, 0.604562568, 0.968154911], [0.509635204, 0.648280772, 0.98478814],
  [0.552953156, 0.688929332, 0.995375608], [0.596262162, 0.726149107, 0.999836203],
  [0.639176211, 0.759599947, 0.998151185], [0.681291281, 0.788964712, 0.990363227],
  [0.722193294, 0.813952739, 0.976574709], [0.761464949, 0.834302879, 0.956945269],
  [0.798691636, 0.849786142, 0.931688648], [0.833466556, 0.860207984, 0.901068838],
  [0.865395197, 0.86541021, 0.865395561], [0.897787179, 0.848937047, 0.820880546],
  [0.924127593, 0.827384882, 0.774508472], [0.944468518, 0.800927443, 0.726736146],
  [0.958852946, 0.769767752, 0.678007945], [0.96732803, 0.734132809, 0.628751763],
  [0.969954137, 0.694266682, 0.579375448], [0.966811177, 0.650421156, 0.530263762],
  [0.958003065, 0.602842431, 0.481775914], [0.943660866, 0.551750968, 0.434243684],
  [0.923944917, 0.49730856, 0.387970225], [0.89904617, 0.439559467, 0.343229596],
  [0.869186849, 0.378313092, 0.300267182], [0.834620542, 0.312874446, 0.259301199],
  [0.795631745, 0.24128379, 0.220525627], [0.752534934, 0.157246067, 0.184115123],
  [0.705673158, 0.01555616, 0.150232812],
];

/** coolwarm as 256 RGB triples (Uint8ClampedArray(768)), sampled like matplotlib's N = 256 LUT. */
export const coolwarm = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    const t = (k / 255) * 32, j = Math.min(31, Math.floor(t)), f = t - j;
    for (let c = 0; c < 3; c++) lut[3 * k + c] = Math.round(255 * (COOLWARM_33[j][c] * (1 - f) + COOLWARM_33[j + 1][c] * f));
  }
  return lut;
})();

/** The coolwarm entry for v on [lo, hi] (matplotlib's rule: floor(t * 256), clipped). */
export function coolwarmIndex(v, lo = -1, hi = 1) {
  const k = Math.floor(((v - lo) / (hi - lo)) * 256);
  return k < 0 ? 0 : k > 255 ? 255 : k;
}

/** CSS colour of v on [lo, hi] in coolwarm, mixed with white by `tint` so dark text stays legible on it. */
export function coolwarmCss(v, lo = -1, hi = 1, tint = 0) {
  const k = 3 * coolwarmIndex(v, lo, hi);
  const mix = (c) => Math.round(c + (255 - c) * tint);
  return `rgb(${mix(coolwarm[k])} ${mix(coolwarm[k + 1])} ${mix(coolwarm[k + 2])})`;
}

// viridis, from its nine-colour sampling (R's viridisLite::viridis(9)), interpolated to 256
// entries: a perceptually even, colour-blind-safe sequential map for magnitudes.
const VIRIDIS_9 = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21908c', '#27ad81', '#5dc863', '#aadc32', '#fde725'];

/** viridis as 256 RGB triples (Uint8ClampedArray(768)), dark purple (low) to yellow (high). */
export const viridis = (() => {
  const rgb = VIRIDIS_9.map((h) => [1, 3, 5].map((o) => parseInt(h.slice(o, o + 2), 16)));
  const lut = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    const t = (k / 255) * 8, j = Math.min(7, Math.floor(t)), f = t - j;
    for (let c = 0; c < 3; c++) lut[3 * k + c] = Math.round(rgb[j][c] * (1 - f) + rgb[j + 1][c] * f);
  }
  return lut;
})();
