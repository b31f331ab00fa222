// The lab's lines look alike in every lab chart (web/charts/shared/lab.js lineLook): one colour per
// encoding, RoPE scaled at evaluation in RoPE's colour with a dash per scaling, RoPE fine-tuned in
// a colour of its own, and no two lines with one look; and a line drawn exactly under another is
// found (coveredBy), as the legend must name it: in the file's default run, xPos under RoPE on the
// copy task (and in the loss chart, on both tasks). Both charts, as drawn in Chromium, are in tests/lab-page.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lineLook, coveredBy, acrossSeeds, ENCODING_NAMES } from '../web/charts/shared/lab.js';
import { SCALINGS, decodeSeeds } from '../web/lab/run.js';

const results = JSON.parse(readFileSync(new URL('../web/lab/results.json', import.meta.url), 'utf8'));
const key = ({ colour, dash }) => `${colour} ${dash.join(',')}`;

test('one look per line in every lab chart: xPos and RoPE unscaled never share one', () => {
  const plain = ENCODING_NAMES.map((e) => lineLook(e));
  assert.equal(new Set(plain.map((l) => l.colour)).size, ENCODING_NAMES.length, 'a colour per encoding');
  assert.ok(plain.every((l) => l.dash.length === 0), 'encodings are solid');
  const atEval = SCALINGS.map((s) => lineLook('rope', { scaling: s })), tuned = SCALINGS.map((s) => lineLook('rope', { scaling: s, tuned: true }));
  assert.ok(atEval.every((l) => l.colour === lineLook('rope').colour && l.dash.length), 'RoPE scaled at evaluation: RoPE\'s colour, dashed');
  assert.ok(tuned.every((l) => !plain.some((p) => p.colour === l.colour)), 'RoPE fine-tuned: a colour no encoding has');
  const all = [...plain, ...atEval, ...tuned].map(key);
  assert.equal(new Set(all).size, all.length, all.join(' | '));
  assert.notEqual(key(lineLook('xpos')), key(lineLook('rope')));
});

test('a line covered at every point by one drawn over it is found, and only then', () => {
  assert.deepEqual(coveredBy([[1, 0.5], [1, 0.505], [1, 0.6], [0.995, 0.6]]), [-1, 0, -1, 2]);
  assert.deepEqual(coveredBy([[0.3, 0.2], [0.3, 0.25]]), [-1, -1], 'one point apart is seen');
  // on an axis 3.5 long (the loss), 0.02 apart is a line's width
  assert.deepEqual(coveredBy([[3, 1], [3.02, 1.01]], 3.5), [-1, 0]);
  assert.deepEqual(coveredBy([[3, 1], [3.02, 1.01]]), [-1, -1]);
  // the file's copy task, per token: xPos under RoPE, nothing else
  const seeds = decodeSeeds(results, 'copy'), field = 'tokenAccuracy';
  const lines = seeds[0].map((r, i) => [r.encoding, acrossSeeds(seeds.map((rs) => rs[i].evaluation), field).map((e) => e[field])]);
  const covered = coveredBy(lines.map(([, v]) => v));
  assert.deepEqual(covered.flatMap((k, j) => (k < 0 ? [] : [`${lines[j][0]} under ${lines[k][0]}`])), ['xpos under rope']);
});
