// The lab-scaling chart's notice on the copy task is computed from web/lab/results.json: what it
// says (where the fine-tunes do best, what they score at 4×, the share of the unscaled model's
// loss they win back, that none survives 8×) is checked here against the file, read afresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import results from '../web/lab/results.json' with { type: 'json' };
import { copyNotice } from '../web/charts/lab-scaling.js';
import { setLang } from '../web/host/i18n.js';

const MULT = [1, 2, 4, 8];
const rope = (r) => r.task === 'copy' && r.encoding === 'rope';
const runs = [results.runs.find(rope), ...results.seedRuns.filter(rope)];
const mean = (evs, field) => MULT.map((_, n) => evs.reduce((a, e) => a + e[n][field], 0) / evs.length);
const lines = (field) => ({
  plain: mean(runs.map((r) => r.evaluation), field),
  tuned: [['PI', 'pi'], ['NTK', 'ntk'], ['YaRN', 'yarn']].map(([name, s]) => [name, mean(runs.map((r) => r.fineTuned[s].evaluation), field)]),
});
const two = (x) => String(Number(x.toPrecision(2)));

test('the copy notice (token accuracy) says what the data show, in English and in Chinese', () => {
  const { plain, tuned } = lines('tokenAccuracy');
  setLang('en');
  const en = copyNotice(plain, tuned);
  // where each fine-tune does best among 1×, 2×, 4×
  const bestAt1 = tuned.every(([, ev]) => ev[0] > ev[1] && ev[0] > ev[2]);
  const bestAt4 = tuned.every(([, ev]) => ev[2] > ev[0] && ev[2] > ev[1]);
  assert.equal(/does best at 1× and falls towards 4×/.test(en), bestAt1, en);
  assert.equal(/does best near the 4×/.test(en), bestAt4, en);
  // the scores at 4×, best first, as the notice lists them
  const order = [...tuned].sort((a, b) => b[1][2] - a[1][2]).map(([n, ev]) => `${n} ${two(ev[2])}`).join(', ');
  assert.ok(en.includes(order), `${en}\nlacks ${order}`);
  // the share won back, only where every fine-tune beats the unscaled model at 4×
  const shares = tuned.map(([, ev]) => (ev[2] - plain[2]) / (plain[0] - plain[2]));
  if (Math.min(...shares) > 0) {
    const m = en.match(/win back (\d+) % to (\d+) %/);
    assert.ok(m, en);
    assert.deepEqual([Number(m[1]), Number(m[2])], [Math.round(100 * Math.min(...shares)), Math.round(100 * Math.max(...shares))]);
    assert.ok(en.includes(`(${two(plain[0])} → ${two(plain[2])})`), en);
  } else assert.doesNotMatch(en, /win back/);
  // none survives 8×: every fine-tune is below 0.95 there
  assert.ok(tuned.every(([, ev]) => ev[3] < 0.95));
  assert.ok(en.includes(`(${two(Math.max(...tuned.map(([, ev]) => ev[3])))} at best)`), en);
  setLang('zh');
  const zh = copyNotice(plain, tuned);
  setLang('en');
  assert.equal(/每种微调都是在 1× 处最好/.test(zh), bestAt1, zh);
  for (const [n, ev] of tuned) assert.ok(zh.includes(`${n} 为 ${two(ev[2])}`), zh);
});

test('the copy notice makes no claim of a gain the sequence accuracy does not show', () => {
  const { plain, tuned } = lines('sequenceAccuracy');
  const en = copyNotice(plain, tuned);
  const gains = tuned.every(([, ev]) => ev[2] > plain[2]) && plain[0] - plain[2] > 0.1;
  assert.equal(/win back/.test(en), gains, en);
  assert.doesNotMatch(en, /undefined|NaN|\{/);
});
