// The labels of every log axis on the page: one format, and as many labels as the axis has room for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logLabel, logTick } from '../web/charts/shared/charts.js';

test('log axis labels: k, M, B from a thousand on, exponents below a thousandth, digits between', () => {
  const want = {
    1: '1', 2: '2', 5: '5', 10: '10', 500: '500', 1000: '1k', 2000: '2k', 10000: '10k', 20000: '20k',
    500000: '500k', 131072: '131k', 1e6: '1M', 5e6: '5M', 1e7: '10M', 1e9: '1B', 2e11: '200B', 1e12: '1e12',
    0.5: '0.5', 0.01: '0.01', 0.001: '0.001', 1e-4: '1e-4', 2e-5: '2e-5', 1e-17: '1e-17',
  };
  for (const [v, label] of Object.entries(want)) assert.equal(logLabel(Number(v)), label, `v = ${v}`);
});

/** The labels logTick gives the ticks Chart.js makes on a log axis from lo to hi (1..9 × 10^k), `px` wide. */
function labels(lo, hi, px, horizontal = true) {
  const values = [];
  for (let p = Math.floor(Math.log10(lo)); p <= Math.ceil(Math.log10(hi)); p++) {
    for (let m = 1; m <= 9; m++) if (m * 10 ** p >= lo && m * 10 ** p <= hi) values.push(Number((m * 10 ** p).toPrecision(3)));
  }
  const ticks = values.map((value) => ({ value }));
  const scale = { isHorizontal: () => horizontal, width: px, height: px };
  return values.map((v, i) => logTick.call(scale, v, i, ticks)).filter(Boolean);
}

test('log axis ticks: 1, 2 and 5 where a decade has room, powers of ten where it has less, every other power on the narrowest', () => {
  assert.deepEqual(labels(1, 1e4, 1000), ['1', '2', '5', '10', '20', '50', '100', '200', '500', '1k', '2k', '5k', '10k']);
  assert.deepEqual(labels(1, 1e7, 400), ['1', '10', '100', '1k', '10k', '100k', '1M', '10M']);
  assert.deepEqual(labels(1e-17, 100, 300, false), ['1e-16', '1e-14', '1e-12', '1e-10', '1e-8', '1e-6', '1e-4', '0.01', '1', '100']);
});
