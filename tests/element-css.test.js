// element-css.test.js: the stylesheet of a <posenc-chart>'s shadow root leaves out the page's own
// rules (its header, contents, presenter, print snapshots) and keeps every rule a chart can match.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { elementStylesheet } from '../web/tools/element-css.js';

const WEB = fileURLToPath(new URL('../web/', import.meta.url));

test('rules naming only classes a chart uses are kept; a selector naming a page-only class goes, and so does a block left empty', async () => {
  const css = `
    .canvas-box { position: relative; }
    .toc, .controls { margin: 0; }
    .present-slot .chart { height: 100%; }
    .table-scroll > table:not(.recap-table) th::after { content: ''; }
    :is(.takeaway, .readout) { color: red; }
    [data-kind="binary"] .canvas-box { aspect-ratio: 1.3; }
    @media (max-width: 480px) { .lede { font-size: 1rem; } .controls { gap: 0; } }
    @media print { .page-header { display: none; } }
    :root { --fg: #000; }
  `;
  const out = await elementStylesheet(css, WEB);
  assert.match(out, /\.canvas-box\{position:relative\}/);
  assert.match(out, /(^|\})\.controls\{margin:0\}/, 'the list loses .toc and keeps .controls');
  assert.doesNotMatch(out, /present-slot|\.toc|\.lede|page-header/);
  assert.match(out, /:not\(\.recap-table\)/, 'a class no chart uses makes :not() match everywhere');
  assert.match(out, /:is\(\.takeaway,\s?\.readout\)/, ':is() needs only one of its classes');
  assert.match(out, /\[data-kind=binary\] \.canvas-box/);
  assert.match(out, /@media ?\(max-width: ?480px\)\{\.controls\{gap:0\}\}/);
  assert.doesNotMatch(out, /@media print/, 'a block whose rules all went goes too');
  assert.match(out, /:root\{--fg: ?#000\}/);
});

test('the page\'s stylesheet loses its presenter and contents rules, keeps its chart rules and variables, and shrinks', async () => {
  const css = await readFile(new URL('page/style.css', `file://${WEB}`), 'utf8');
  const out = await elementStylesheet(css, WEB);
  for (const kept of ['.canvas-box', '.controls', '.readout', '.posenc-toolbar', '.data-table', '--accent']) assert.ok(out.includes(kept), kept);
  for (const gone of ['.present-slot', '.toc', '.page-header', '.skip-link']) assert.ok(!out.includes(gone), gone);
  assert.ok(out.length < 0.8 * css.length, `${out.length} of ${css.length} characters`);
});
