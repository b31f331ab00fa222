// chart-imports.js: kinds.js loads a chart with import(`../charts/${kind}.js`), a template that
// makes a bundler take every file under charts/ (the shared ones too) as a module loaded on
// demand. The builds rewrite it into one import per kind: only the kinds load on demand (in the
// light embed, a chunk each).
import { KINDS } from '../host/kinds.js';

const PATTERN = 'import(`../charts/${kind}.js`)';

/** kinds.js's text with its template import replaced by a table of one import per kind. */
export function namedChartImports(text) {
  if (text.split(PATTERN).length !== 2) throw new Error(`kinds.js should load a chart with ${PATTERN}`);
  const loaders = KINDS.map((k) => `${JSON.stringify(k)}: () => import(${JSON.stringify(`../charts/${k}.js`)})`);
  return `${text.replace(PATTERN, 'CHART_MODULES[kind]()')}\nconst CHART_MODULES = { ${loaders.join(', ')} };\n`;
}
