// runtime.js: where the page, embed.html and <posenc-chart> get what every chart needs: the
// kernels (one shared instance), Chart.js and the stylesheet, and the URLs the Embed snippets
// point at. Served as files, these come from web/ (build/*.wasm, vendor/chart.umd.js,
// style.css); the builds of web/tools/bundle.js call configure(): the single-file ones with
// everything inlined, the module build with loaders that fetch each piece when a chart needs it.
import { loadPosenc } from '../lib/posenc.js';

const config = {
  /** (build) => Promise<Posenc>; build is what kernelBuild(kind) named */
  loadKernels: () => loadPosenc(),
  /** kind => the name of the kernels' build that kind needs (one instance per name) */
  kernelBuild: () => 'all',
  /** the Chart.js constructor, or null to use window.Chart (loading vendor/chart.umd.js if needed) */
  Chart: null,
  /** (build) => Promise<the Chart.js constructor>, or null; build is what chartJsBuild(kind) named */
  loadChartJs: null,
  /** kind => the name of the Chart.js build that kind needs (the light embed loads bar charts apart) */
  chartJsBuild: () => 'all',
  /** the stylesheet's text, or null to fetch style.css */
  css: null,
  /** the script the Embed snippet's element loads (null: no element snippet): the light embed */
  scriptUrl: () => new URL('../build/module/posenc.js', import.meta.url).href,
  /** whether that script is an ES module (the light embed) or a classic script (dist/posenc.js) */
  scriptModule: true,
  /** embed.html (null: no iframe snippet) */
  embedUrl: () => new URL('../embed.html', import.meta.url).href,
  /**
   * the lab's model of "Inside a real model": null to read build/lab-model/ beside the page, the URL
   * of its folder (the light embed), or its files inlined ({ 'model.safetensors': Uint8Array,
   * 'config.json': text, ... }; the single-file builds)
   */
  labModel: null,
};

/** The inlined lab model's files, or null. */
export const labModelFiles = () => config.labModel;

/** Replaces any of the above (the single-file builds do, before anything else runs). */
export function configure(options) {
  Object.assign(config, options);
}

const kernelsPromises = new Map();
/**
 * The kernels chart `kind` needs, loaded once per build; rejects with an Error saying why when
 * WebAssembly cannot load.
 */
export function kernels(kind) {
  const build = config.kernelBuild(kind);
  if (!kernelsPromises.has(build)) {
    kernelsPromises.set(build, (async () => {
      if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
        throw new Error('this browser has no WebAssembly');
      }
      return config.loadKernels(build);
    })());
  }
  return kernelsPromises.get(build);
}

const chartPromises = new Map();
/** Chart.js for chart `kind`: the configured constructor, window.Chart, or vendor/chart.umd.js loaded once. */
export function chartJs(kind) {
  const build = config.chartJsBuild(kind);
  if (!chartPromises.has(build)) chartPromises.set(build, loadChartJs(build));
  return chartPromises.get(build);
}


async function loadChartJs(build) {
  if (config.Chart) return config.Chart;
  if (config.loadChartJs) return config.loadChartJs(build);
  if (globalThis.Chart) return globalThis.Chart;
  await new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = new URL('../vendor/chart.umd.js', import.meta.url).href;
    s.onload = resolve;
    s.onerror = () => reject(new Error('Chart.js could not be loaded'));
    document.head.append(s);
  });
  if (!globalThis.Chart) throw new Error('Chart.js could not be loaded');
  return globalThis.Chart;
}

let cssPromise = null;
/** The text of style.css. */
export function stylesheetText() {
  cssPromise ??= (async () => {
    if (config.css !== null) return config.css;
    const res = await fetch(new URL('../page/style.css', import.meta.url));
    if (!res.ok) throw new Error(`style.css: HTTP ${res.status}`);
    return res.text();
  })();
  return cssPromise;
}

/** { scriptUrl, scriptModule, embedUrl } for the Embed snippets (either URL may be null). */
export function assetUrls() {
  const get = (f) => {
    try {
      return typeof f === 'function' ? f() : f ?? null;
    } catch {
      return null;
    }
  };
  return { scriptUrl: get(config.scriptUrl), scriptModule: config.scriptModule === true, embedUrl: get(config.embedUrl) };
}
