// page-bundle.js: the page's own modules bundled (`node web/tools/page-bundle.js`, run by
// build.sh): web/build/page/page-ui.js and main.js, what index.html and teaching.html load, with
// chunks beside them, one per chart kind (loaded when that chart mounts) and the code the
// entries share. The page's sources are some forty modules importing each other five levels
// deep; a browser finds them one level per round trip, and the charts waited for the last.
//
// Every module keeps its own import.meta.url: the kernels, the lab's model, the training worker
// and the vendor files are found beside the sources, as when the sources are served unbundled.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { namedChartImports } from './chart-imports.js';

const WEB = dirname(dirname(fileURLToPath(import.meta.url)));
const PAGE_OUT = join(WEB, 'build', 'page');
/** The pages whose module scripts (<script type="module" src="build/page/<name>.js">) are the entries. */
const PAGES = ['index.html', 'teaching.html'];

/** The entries: web/page/<name>.js for every build/page/<name>.js a page loads. */
async function entries() {
  const names = new Set();
  for (const page of PAGES) {
    const html = await readFile(join(WEB, page), 'utf8');
    for (const [, name] of html.matchAll(/<script type="module" src="build\/page\/([\w-]+)\.js"/g)) names.add(name);
  }
  if (!names.has('main')) throw new Error('page-bundle.js: index.html loads no build/page/main.js');
  return [...names].map((name) => join(WEB, 'page', `${name}.js`));
}

const sourceUrls = {
  name: 'posenc-page',
  setup(b) {
    // heap.js reads files only under Node
    b.onResolve({ filter: /^node:fs\/promises$/ }, (a) => ({ path: a.path, namespace: 'posenc-page' }));
    b.onLoad({ filter: /.*/, namespace: 'posenc-page' }, () => ({
      contents: 'export function readFile() { throw new Error("no file system in the browser"); }', loader: 'js' }));
    // vendor files (tokenizers, gifenc) stay where build.sh copies them, loaded when first used
    b.onResolve({ filter: /\/vendor\/[\w.-]+\.js$/ }, (a) => ({
      path: relative(PAGE_OUT, join(a.resolveDir, a.path)), external: true }));
    b.onLoad({ filter: /\.js$/ }, async (a) => {
      let text = await readFile(a.path, 'utf8');
      if (a.path.endsWith(join('host', 'kinds.js'))) text = namedChartImports(text);
      // every output file sits in PAGE_OUT: the source's own URL is found from the chunk's
      const own = `new URL(${JSON.stringify(relative(PAGE_OUT, a.path))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', own), resolveDir: dirname(a.path), loader: 'js' };
    });
  },
};

/** Writes web/build/page/ afresh. */
export async function buildPage() {
  await rm(PAGE_OUT, { recursive: true, force: true });
  await build({
    entryPoints: await entries(),
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: PAGE_OUT,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    charset: 'utf8',
    plugins: [sourceUrls],
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPage();
  console.error('page-bundle.js: wrote web/build/page/');
}
