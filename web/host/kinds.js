// kinds.js: every chart kind and how its module is loaded.
import { show } from './params.js';
import { HOST } from './strings.js';

/** Every chart kind (a module web/charts/<kind>.js). A test keeps this in step with the folder. */
export const KINDS = Object.freeze([
  'absolute-decay', 'alibi-bias', 'binary', 'convention-lab', 'dynamic-kv-cache', 'exact-table', 'extrapolation',
  'four-terms', 'frequency-curves', 'helix', 'kv-cache', 'lab-attention', 'lab-learned', 'lab-order', 'lab-positions',
  'lab-scaling', 'length-lab', 'model-misreads', 'model-positions', 'near-orthogonal', 'order', 'precision-heatmap',
  'precision-lab', 'real-attention', 'real-beyond', 'real-decay', 'real-pair-energy', 'real-pair-norms', 'relative-rotation', 'rope-2d', 'rope-decay-random', 'rope-decay', 'rope-periods',
  'rotate-half', 'runtime-compare', 'scaling-decay', 'scaling-variants', 'sin-heatmap', 'single-frequency',
  'sinusoidal-layouts', 't5-buckets', 'three-frequencies', 'unit-circle', 'wavelengths', 'xpos-scale',
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

/**
 * The chart a page's query names (page and embed.html): { query, named (every chart= given),
 * kind (the one named when it is a known kind, else null), notes }. Never throws.
 */
export function chartQuery(search) {
  let query;
  try {
    query = new URLSearchParams(search);
  } catch {
    query = new URLSearchParams();
  }
  const named = query.getAll('chart'), notes = [];
  if (named.length > 1) notes.push(HOST.repeated.format({ name: 'chart' }));
  const kind = named.length === 1 && KINDS.includes(named[0]) ? named[0] : null;
  return { query, named, kind, notes };
}
