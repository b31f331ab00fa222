// kinds.js: every chart kind and how its module is loaded.
import { show } from './params.js';

/** Every chart kind (a module web/charts/<kind>.js). A test keeps this in step with the folder. */
export const KINDS = Object.freeze([
  'absolute-decay', 'binary', 'convention-lab', 'dynamic-kv-cache', 'exact-table', 'extrapolation',
  'four-terms', 'frequency-curves', 'helix', 'kv-cache', 'near-orthogonal', 'order', 'precision-heatmap',
  'precision-lab', 'relative-rotation', 'rope-2d', 'rope-decay-random', 'rope-decay', 'rope-periods',
  'rotate-half', 'scaling-decay', 'scaling-variants', 'sin-heatmap', 'single-frequency',
  'sinusoidal-layouts', 'three-frequencies', 'unit-circle', 'wavelengths',
]);

/** The chart shown when a URL names none or an unknown one. */
export const DEFAULT_KIND = 'rope-decay';


/** The chart module for `kind`, or a TypeError when `kind` is not in KINDS. */
export async function loadChart(kind) {
  if (!KINDS.includes(kind)) throw new TypeError(`unknown chart kind ${show(kind)}`);
  // A template import: esbuild bundles every module of charts/ for the single-file builds.
  const { default: chart } = await import(`../charts/${kind}.js`);
  return chart;
}
