// lesson-exercises.test.js: exercises that ask what the text before them does not say, with answers
// that are the chart's own numbers at the settings the exercise links to (§8, §13, §14), and the
// numbers §12 and §15 quote recomputed from the formulas they give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedLesson } from './browser.js';
import { text, section, exercises } from './lesson-text.js';

/** A section's prose and takeaway before its first exercise, in one language, tags dropped. */
const before1st = (id, lang) => text([...section(id).split('<details class="exercise">')[0]
  .matchAll(new RegExp(`<p[^>]*lang="${lang}"[^>]*>([\\s\\S]*?)</p>`, 'g'))].map((m) => m[1]).join(' '));
const theta = (d, base = 10000) => Array.from({ length: d / 2 }, (_, i) => base ** (-2 * i / d));
const f2 = (x) => x.toFixed(2).replace('-', '−');

// one lesson serves every scene: a scene link sets its chart as a new tab would (sceneOf)
const lesson = sharedLesson();

/** The chart `kind` once an exercise's link is followed: its data rows and readout. */
async function scene(href, kind) {
  const { data, readout } = await lesson.scene(href, kind);
  return { rows: data.rows, readout };
}

test('§5: the third-row exercise asks for pair 1\'s sine, not §3\'s sin 2; the table prints cos 2 with its minus sign', async () => {
  const [row3] = exercises('exact');
  assert.doesNotMatch(row3.summary + row3.answer, /0\.90929743/);
  const { data, extra } = await lesson.scene(row3.href, 'exact-table',
    '(box) => [...box.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent.trim()))');
  assert.equal(data.rows.length, 3);
  const shown = extra[2];
  assert.equal(shown[2], Math.sin(0.02).toFixed(8));
  for (const a of [row3.answer, row3.answerZh]) assert.ok(a.includes(`sin⁡0.02=${shown[2]}`), a);
  // numpy prints a negative value with its sign; only a value that rounds to zero loses it
  assert.equal(shown[1], '-0.41614684');
  assert.ok(data.rows[2][2] < 0);
});

test('§8: the first exercise asks what the same R(6) does to dimension 2 at another m, which the derivation does not say', async () => {
  const [moved] = exercises('relative');
  assert.doesNotMatch(moved.summary, /still match/);
  const at = async (href) => (await scene(href, 'relative-rotation')).rows;
  const [m2, m40] = [await at('?relative-rotation.pos=2#relative'), await at(moved.href)];
  assert.match(moved.href, /relative-rotation\.pos=40#/);
  // rows: [dim, PE(m), PE(m+Δ), R(Δ)PE(m), difference]; at m = 2 dimension 2 hardly moves, at 40 it does
  assert.ok(Math.abs(m2[2][3] - m2[2][1]) < 0.05 && Math.abs(m40[2][3] - m40[2][1]) > 0.5);
  for (const t of [moved.summary, moved.summaryZh]) for (const n of [m2[2][1], m2[2][3]]) assert.ok(t.includes(f2(n)), `${f2(n)} in: ${t}`);
  for (const a of [moved.answer, moved.answerZh]) {
    for (const n of [m40[2][1], m40[2][3], m2[3][1], m2[3][3], m40[3][1], m40[3][3]]) assert.ok(a.includes(f2(n)), `${f2(n)} in: ${a}`);
    const turn = 6 * theta(16)[1];
    assert.ok(a.includes(`6θ1≈${turn.toFixed(2)}`) && a.includes(`2 sin ${(turn / 2).toFixed(2)} ≈ ${(2 * Math.sin(turn / 2)).toFixed(2)}`), a);
  }
  // the same distance in pair 1's plane at both positions
  const chord = (r) => Math.hypot(r[2][3] - r[2][1], r[3][3] - r[3][1]);
  assert.ok(Math.abs(chord(m2) - chord(m40)) < 1e-5);
});

test('§8: the second exercise asks which pair moves farthest at Δ = 100, and the chart says pair 3', async () => {
  const [, far] = exercises('relative');
  for (const t of [before1st('relative', 'en')]) assert.doesNotMatch(t, /half a turn|farthest/);
  assert.match(far.summary, /farthest/);
  assert.match(far.summaryZh, /最远/);
  // how far pair i's point moves when turned by 100·θ_i: a chord, 2·|sin(100·θ_i / 2)|
  const chord = theta(16).map((t) => 2 * Math.abs(Math.sin(50 * t)));
  const farthest = chord.indexOf(Math.max(...chord));
  assert.equal(farthest, 3);
  assert.match(far.answer, /^Pair 3, dimensions 6 and 7\./);
  assert.match(far.answerZh, /^第 3 对，即第 6、7 维。/);
  const { rows } = await scene(far.href, 'relative-rotation');
  // rows: [dim, PE(m), PE(m+Δ), R(Δ)PE(m), difference]
  const moved = [...Array(8).keys()].map((i) => Math.hypot(rows[2 * i][3] - rows[2 * i][1], rows[2 * i + 1][3] - rows[2 * i + 1][1]));
  assert.equal(moved.indexOf(Math.max(...moved)), 3, `moves: ${moved}`);
  for (const a of [far.answer, far.answerZh]) {
    for (const n of [f2(rows[7][1]), f2(rows[7][3]), f2(rows[1][1]), f2(rows[1][3])]) assert.ok(a.includes(n), `${n} in: ${a}`);
    assert.ok(a.includes('5.75') && a.includes('0.53') && a.includes('3.72'), a);
  }
  assert.equal(f2((100 % (2 * Math.PI))), '5.75');
  assert.equal(f2(2 * Math.PI - (100 % (2 * Math.PI))), '0.53');
  assert.equal(f2(10 - 2 * Math.PI), '3.72');
});

test('§13: the d = 4 exercise asks where g is lowest and back near 4; the answer is the readout\'s', async () => {
  const [d4] = exercises('decay');
  assert.doesNotMatch(d4.summary, /still decay/);
  assert.match(d4.summary, /lowest/);
  for (const t of [before1st('decay', 'en'), before1st('decay', 'zh-CN')]) assert.doesNotMatch(t, /\b(311|314|622)\b/);
  const { readout } = await scene(d4.href, 'rope-decay');
  assert.match(readout, /3\.99 of d = 4 at Δ = 622/);
  assert.match(readout, /g is lowest at Δ = 311: −3\.999/);
  for (const a of [d4.answer, d4.answerZh]) for (const n of ['311', '−3.999', '622', '3.99']) assert.ok(a.includes(n), `${n} in: ${a}`);
});

test('§13: the log-axis exercise asks about Δ = 10, which the text before it does not count', () => {
  const log = exercises('decay').find((e) => /log axis/.test(e.summary));
  assert.match(log.summary, /Δ=10/);
  assert.doesNotMatch(log.summary, /fast, middle or slow|tenfold/);
  for (const t of [before1st('decay', 'en'), before1st('decay', 'zh-CN')]) assert.doesNotMatch(t, /Δ = 10\b|\b96\b|\b173\b/);
});

test('§14: the KV-cache exercise asks whether the weights survive a change of pairing; the tables say no', async () => {
  const [, kv] = exercises('llama');
  assert.match(kv.summary, /do the weights stay as they are\?$/);
  assert.match(kv.answer, /^No: /);
  const half = (await scene('?kv-cache.style=half#llama', 'kv-cache')).rows;
  const inter = (await scene(kv.href, 'kv-cache')).rows;
  // rows: [position, source, k[0..3], weight (full), weight (cache)]
  const top = (rows) => rows.reduce((a, r) => (r[6] > a[6] ? r : a));
  assert.equal(top(half)[0], 2);
  assert.equal(top(inter)[0], 1);
  assert.ok(kv.summary.includes(`${top(half)[6].toFixed(2)}, to position 2`));
  for (const a of [kv.answer, kv.answerZh]) {
    assert.ok(a.includes(inter[1][6].toFixed(2)) && a.includes(inter[2][6].toFixed(2)), a);
  }
  assert.deepEqual(inter.map((r) => r[6]), inter.map((r) => r[7]), 'the cache still matches');
  assert.deepEqual(inter[0].slice(2, 6), half[0].slice(2, 6), 'position 0 turns by nothing in both styles');
  assert.notDeepEqual(inter[1].slice(2, 6), half[1].slice(2, 6));
});

test('§12: the dotted line in the order T_max, its quarter, the chart; the crossing and the quarters recomputed', () => {
  const en = before1st('rope-periods', 'en');
  const at = (s) => { const i = en.indexOf(s); assert.ok(i >= 0, s); return i; };
  assert.ok(at('is the longest period in the head') < at('A quarter of it') && at('A quarter of it') < at('On the chart'));
  const quarter = (d) => Math.round(2 * Math.PI * 10000 ** (1 - 2 / d) / 4);
  assert.deepEqual([256, 128, 4096].map(quarter), [14617, 13603, 15637]);
  const periods = theta(256).map((t) => 2 * Math.PI / t);
  const below = periods.filter((p) => p < 2 * Math.PI * 10000 ** (1 - 2 / 256) / 4).length;
  assert.equal(below, 108); // pairs 0–107 have come full circle by T_max/4, the 20 slowest have not
  assert.ok(en.includes('between pairs 107 and 108') && en.includes('the 20 pairs to its right'));
  assert.ok(before1st('rope-periods', 'zh-CN').includes('第 107 和第 108 对之间'));
});

test('§15: 3.54 rad follows from the NTK-aware base it gives there', () => {
  const formula = '<math><msup><mi>base</mi><mo>′</mo></msup><mo>=</mo><mi>base</mi><mo>·</mo><msup><mi>s</mi><mrow><mi>d</mi><mo>/</mo><mo stretchy="false">(</mo><mi>d</mi><mo>−</mo><mn>2</mn><mo stretchy="false">)</mo></mrow></msup></math>';
  const ext = section('extrapolation');
  assert.equal(ext.split(formula).length, 3, 'the formula in the English and in the Chinese paragraph');
  const d = 128, s = 2, base2 = 10000 * s ** (d / (d - 2));
  assert.equal(Math.round(base2), 20221);
  assert.equal(f2(4095 * 10000 ** (-100 / d)), '3.07');
  assert.equal(f2(8191 * base2 ** (-100 / d)), '3.54');
  for (const lang of ['en', 'zh-CN']) {
    const t = before1st('extrapolation', lang);
    for (const n of ['20221', '3.07', '3.54']) assert.ok(t.includes(n), `${lang}: ${n}`);
    assert.ok(t.indexOf('20221') < t.indexOf('3.54'), `${lang}: the base before the angle`);
  }
});

test('§24: the T5 and xPos links set a chart on which the answer is to be found, not printed at its edge', async () => {
  const [t5, xpos] = exercises('other-encodings');
  // T5 at max_distance 17: the offsets shown leave the steps at 16 and 17 wide enough to read
  const buckets = await scene(t5.href, 't5-buckets');
  const span = Math.max(...buckets.rows.map(([offset]) => offset));
  assert.ok(span >= 2 * 17 && span <= 4 * 17, `offsets shown ±${span}`);
  const causal = (d) => buckets.rows.find(([offset]) => offset === -d)[2];
  assert.deepEqual([causal(16), causal(17), causal(span)], [16, 31, 31]);
  assert.match(buckets.readout, /keys 17 or more back all share bucket 31/);
  // xPos at d = 8: pair 0's line crosses 0.5 inside the chart, at about 283, which the readout does not name
  const factors = await scene(xpos.href, 'xpos-scale');
  const last = factors.rows[factors.rows.length - 1][0];
  const half = factors.rows.find(([, pair0]) => pair0 <= 0.5)[0];
  assert.ok(Math.abs(half - 283) <= last / 200, `pair 0 halves at ${half}`);
  assert.ok(half > last / 5 && half < last / 2, `the crossing at ${half} of ${last}`);
  assert.doesNotMatch(factors.readout, /283/);
  assert.match(xpos.answer, /About 283 places back/);
  assert.match(xpos.answer, /set the largest distance to 283/);
  assert.match(xpos.answerZh, /把最大距离设为 283/);
});
