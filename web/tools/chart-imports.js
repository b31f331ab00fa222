// chart-imports.js: kinds.js loads a chart with import(`../charts/${kind}.js`), a template that
// makes a bundler take every file under charts/ (the shared ones too) as a module loaded on
// demand. The builds rewrite it: into one import per kind (only the kinds load on demand; in the
// light embed, a chunk each), or, for the page, into the chart it opens with and one module of
// every other kind.
import { KINDS } from '../host/kinds.js';

const PATTERN = 'import(`../charts/${kind}.js`)';

function checked(text) {
  if (text.split(PATTERN).length !== 2) throw new Error(`kinds.js should load a chart with ${PATTERN}`);
  return text;
}

/** kinds.js's text with its template import replaced by a table of one import per kind. */
export function namedChartImports(text) {
  checked(text);
  const loaders = KINDS.map((k) => `${JSON.stringify(k)}: () => import(${JSON.stringify(`../charts/${k}.js`)})`);
  return `${text.replace(PATTERN, 'CHART_MODULES[kind]()')}\nconst CHART_MODULES = { ${loaders.join(', ')} };\n`;
}

/**
 * kinds.js's text with kind `first` imported with it and every other kind from `rest`, a module
 * whose exports are named by kind (restModule's), asked for as soon as kinds.js runs.
 */
export function firstAndRestImports(text, first, rest) {
  if (!KINDS.includes(first)) throw new Error(`no chart kind ${JSON.stringify(first)}`);
  // (a chart that cannot load says so itself: the rejection is handled where a chart awaits it)
  const head = `import * as FIRST_CHART from ${JSON.stringify(`../charts/${first}.js`)};
const REST_CHARTS = import(${JSON.stringify(rest)});
REST_CHARTS.catch(() => {});
`;
  const load = `(kind === ${JSON.stringify(first)} ? FIRST_CHART : REST_CHARTS.then((m) => ({ default: m[kind] })))`;
  return `${head}${checked(text).replace(PATTERN, load)}`;
}

/** The module `rest` of firstAndRestImports: every kind's chart but `first`, exported by kind. */
export const restModule = (first) => KINDS.filter((k) => k !== first)
  .map((k) => `export { default as ${JSON.stringify(k)} } from ${JSON.stringify(`./${k}.js`)};`).join('\n');

/** A pattern that finds, in a chart's source, a call of any of `methods` (of the API: pe.name(…)). */
export const callsAny = (methods) => new RegExp(`\\.(${methods.join('|')})\\s*\\(`);
