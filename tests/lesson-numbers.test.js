// lesson-numbers.test.js: sections 9–11 and 17–19 say what their charts show. Each exercise is
// opened through its own scene link, as a learner follows it, and every number its answer gives is
// the chart's at that setting; the defaults the prose leans on (the keys of §9, the factor of §18)
// are the controls'; §11's two rotations are one matrix with m = −Δ; the readouts say what they
// leave out (float32 rounding in §11, float16's highest point in §19).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedLesson } from './browser.js';
import { html, section, paragraphs, exercises } from './lesson-text.js';

const prose = (id, lang) => paragraphs(id, lang).join(' ');
const exercise = (id, pattern) => {
  const found = exercises(id).filter((e) => pattern.test(e.summary));
  assert.equal(found.length, 1, `${id}: one exercise matches ${pattern}`);
  return found[0];
};
const both = (e, ...parts) => {
  for (const p of parts) {
    assert.ok(e.answer.includes(p), `answer says ${p}: ${e.answer}`);
    assert.ok(e.answerZh.includes(p), `Chinese answer says ${p}: ${e.answerZh}`);
  }
};

// one lesson serves every scene: a scene link sets its chart as a new tab would (sceneOf)
const lesson = sharedLesson();

/** What chart `kind` shows once scene link `href` is followed: readout, data, and `extra` run on the page. */
const { scene } = lesson;
const col = (data, name) => data.rows.map((r) => r[data.columns.indexOf(name)]);

test('§9: the defaults behind "132 to 249" are stated; at 256 keys and the query at 100 the answer gives the chart\'s sizes', async () => {
  const d = await scene('#adding', 'four-terms');
  const ns = col(d.data, 'key position n');
  assert.deepEqual([ns.length, ns[0], ns.at(-1)], [64, 0, 63]);
  assert.match(d.readout, /At n = m = 16:/);
  assert.match(prose('adding', 'en'), /between 132 and 249 at the chart's defaults: d = 512, keys at positions 0 to 63 and the query at 16/);
  assert.match(prose('adding', 'zh-CN'), /d = 512、key 位于位置 0 到 63、query 位于位置 16 时，它在 132 到 249 之间/);
  assert.match(prose('adding', 'en'), /primer at the top of this page/);
  // the far-distance values belong to section 10, which checks them
  assert.doesNotMatch(section('adding'), /−6 at|约为 −6/);

  const e = exercise('adding', /256 key positions/);
  const s = await scene(e.href, 'four-terms');
  const off = s.data.rows.filter((r) => r[0] !== 100);
  const pp = off.map((r) => r[2]), cross = off.flatMap((r) => [r[3], r[4]].map(Math.abs)), ee = off.map((r) => Math.abs(r[1]));
  assert.equal(off.length, 255);
  assert.ok(off.every((r) => r[2] > Math.max(Math.abs(r[1]), Math.abs(r[3]), Math.abs(r[4]))), 'position–position still leads');
  assert.ok(e.summary.includes(`${255 - 100} positions away`));
  both(e, Math.min(...pp).toFixed(1), Math.max(...cross).toFixed(1), Math.max(...ee).toFixed(1));
  // the lowest P·P is among the far keys
  const far = off.find((r) => r[2] === Math.min(...pp))[0];
  assert.ok(far - 100 > 100, `lowest at n = ${far}`);
  assert.match(s.readout, new RegExp(`\\(${Math.min(...pp).toFixed(1)} to 249\\)`));
});

test('§10: the seed exercise asks for the drop over 50 positions, which no readout prints; the base exercise asks for a new setting', async () => {
  const e = exercise('absolute-distance', /drops by 125/);
  assert.match(e.href, /absolute-decay\.seed=1#/);
  const drops = [], at50 = [];
  for (let seed = 0; seed <= 5; seed++) {
    const { readout, data } = await scene(`?absolute-decay.seed=${seed}#absolute-distance`, 'absolute-decay');
    const [r0, r50] = [data.rows[0], data.rows[50]];
    drops.push(r0[1] - r50[1]);
    at50.push(r50[2]);
    // the readout prints the score at n = 0, not the drop the exercise asks for
    assert.ok(!readout.includes((r0[1] - r50[1]).toFixed(1)), readout);
  }
  assert.ok(at50.every((x) => x === at50[0]), 'PE(0)·PE(50) does not depend on the seed');
  assert.equal(Math.round(256 - at50[0]), 125);
  assert.ok(e.summary.includes('drops by 125'));
  const list = drops.map((x) => x.toFixed(1));
  assert.ok(e.answer.includes(list.join(', ').replace(/, (?=[^,]*$)/, ' and ')), e.answer);
  assert.ok(e.answerZh.includes(list.join('、').replace(/、(?=[^、]*$)/, ' 和 ')), e.answerZh);
  // the wobble's share of the drop has standard deviation |PE(50) − PE(0)|
  const sd = Math.sqrt(512 - 2 * at50[0]);
  both(e, `2 × ${at50[0].toFixed(1)}`, `≈ ${sd.toFixed(1)}`);
  assert.ok(drops.every((x) => Math.abs(x - (256 - at50[0])) < 2 * sd), 'each seed within two standard deviations');
  assert.ok(Math.round((256 - at50[0]) / sd) === 8, 'eight times the usual size');

  const base = exercise('absolute-distance', /base to 100/);
  const s = await scene(base.href, 'absolute-decay');
  const pe = col(s.data, 'PE(0)·PE(n)');
  const half = pe.findIndex((x) => x < pe[0] / 2);
  assert.ok(half <= 5 && half > 0, `halves at ${half}`);
  assert.match(s.readout, /halves within the first 5 positions/);
  both(base, pe[511].toFixed(2));
  assert.ok(511 * 100 ** (-510 / 512) > 5, 'the slowest pair has turned more than 5 radians by 511');
  // cos 1 ≈ 0.54 is more than a half, not close to 1
  assert.ok(Math.cos(1) > 0.5 && Math.cos(1) < 0.55);
  assert.match(base.answer, /adds more than 0\.5 only until it has turned about a radian \(cos 1 ≈ 0\.54\)/);
  assert.match(base.answerZh, /贡献 0\.5 以上（cos 1 ≈ 0\.54）/);
});

test('§10: the far values section 9 used to quote are section 10\'s, true in float64', () => {
  const theta = Array.from({ length: 256 }, (_, i) => 10000 ** (-2 * i / 512));
  const S = (n) => theta.reduce((s, t) => s + Math.cos(n * t), 0);
  assert.deepEqual([S(5000), S(10000)].map((x) => Math.round(x)), [-6, -16]);
  assert.match(prose('absolute-distance', 'en'), /\(about −6 at n = 5000 and −16 at 10000\)/);
  assert.match(prose('absolute-distance', 'zh-CN'), /（n = 5000 处约为 −6，n = 10000 处约为 −16）/);
  assert.match(prose('absolute-distance', 'en'), /a seventh of its start in size/);
  // RoPE is only pointed to here: section 11 teaches it
  assert.doesNotMatch(prose('absolute-distance', 'en'), /pair by pair|point the same way/);
  assert.match(prose('absolute-distance', 'en'), /RoPE \(section 11\) applies the same cosines to q and k instead/);
  assert.match(prose('absolute-distance', 'zh-CN'), /RoPE（第 11 节）则把这些余弦作用在 q 和 k 上/);
});

test('§11: R(Δ) of section 8 is R_m with m = −Δ, said in short steps; the exercise asks for a number at a new setting', async () => {
  // R_m turns counter-clockwise: (1, 0) → (cos mθ, sin mθ). Section 8's R(Δ) = [[cos, sin], [−sin, cos]] of Δθ
  // maps (sin a, cos a) to (sin(a + Δθ), cos(a + Δθ)) and equals R_m at m = −Δ.
  const t = 0.7, a = 0.3, D = 2;
  const R = (m) => [[Math.cos(m * t), -Math.sin(m * t)], [Math.sin(m * t), Math.cos(m * t)]];
  const R8 = [[Math.cos(D * t), Math.sin(D * t)], [-Math.sin(D * t), Math.cos(D * t)]];
  const apply = (M, v) => [M[0][0] * v[0] + M[0][1] * v[1], M[1][0] * v[0] + M[1][1] * v[1]];
  const moved = apply(R8, [Math.sin(a), Math.cos(a)]);
  assert.ok(Math.abs(moved[0] - Math.sin(a + D * t)) < 1e-12 && Math.abs(moved[1] - Math.cos(a + D * t)) < 1e-12);
  assert.ok(R8.flat().every((x, i) => Math.abs(x - R(-D).flat()[i]) < 1e-12));
  const en = prose('rope-2d', 'en');
  assert.match(en, /it takes \(1, 0\) to \(cos mθ, sin mθ\), cosine first/);
  assert.match(en, /\(sin a, cos a\) for an angle a/);
  assert.doesNotMatch(en, /\(Section 8's/);
  assert.match(prose('rope-2d', 'zh-CN'), /\(sin a, cos a\)/);

  const e = exercise('rope-2d', /θ = 60°/);
  assert.doesNotMatch(e.summary, /will q·k change/);
  const s = await scene(e.href, 'rope-2d');
  assert.match(s.readout, /= 0\.400000, with q at 12 and k at 11 \(n − m = −1\); at m = 2, n = 1 it is 0\.400000 and m = 1, n = 0 it is 0\.400000/);
  both(e, '0.4', '0.400000');
  // the readout says what the tiny difference is: float32 rounding of the rotated vectors
  assert.match(s.readout, /the same to within [\d.e-]+: the rotated q and k are float32 numbers/);
});

test('§17: the attention factor multiplies cos and sin, PI is named in its own sentence, and the PI exercise asks for a share', async () => {
  const d = await scene('#beyond', 'scaling-decay');
  const factor = d.readout.match(/attention factor ([\d.]+)/)[1];
  assert.equal(factor, d.data.measured.attentionFactor.toFixed(4));
  assert.equal(factor, (0.1 * Math.log(4) + 1).toFixed(4));
  for (const [lang, words] of [['en', `attention\n    factor (${factor} at s = 4) that multiplies the cos and sin`], ['zh-CN', `注意力因子（s = 4 时为 ${factor}），它乘在 cos 和 sin 上`]]) {
    assert.ok(prose('beyond', lang).includes(words.replace(/\s+/g, ' ')), lang);
  }
  assert.match(prose('beyond', 'en'), /PI does this to every pair, the fast ones included \(section 16\), so every distance, however short, looks s times shorter than in training: that is why PI needs/);
  const yarn = d.data.measured.outside.ones.after, unscaled = d.data.measured.outside.ones.before;
  const inside = +d.readout.match(/g moves by up to ([\d.]+) there/)[1];

  const e = exercise('beyond', /linear interpolation \(PI\)/);
  assert.ok(e.summary.includes(`${(100 * unscaled).toFixed(1)} %`) && e.summary.includes(`${(100 * yarn).toPrecision(2)} %`), e.summary);
  assert.ok(e.summaryZh.includes(`${(100 * unscaled).toFixed(1)}%`) && e.summaryZh.includes(`${(100 * yarn).toPrecision(2)}%`));
  const s = await scene(e.href, 'scaling-decay');
  assert.equal(s.data.measured.outside.ones.after, 0);
  const pi = +s.readout.match(/g moves by up to ([\d.]+) there/)[1];
  assert.ok(e.answer.startsWith('0 %') && e.answerZh.startsWith('0%'));
  both(e, String(pi), String(inside));
});

test('§18: the factor s is the control\'s; the exercise at length 33 counts the keys that differ, as the lower chart draws them', async () => {
  const d = await scene('#dynamic-cache', 'dynamic-kv-cache', (box) => box.querySelector('.controls [name="factor"]').value);
  assert.equal(d.extra, '2');
  assert.match(prose('dynamic-cache', 'en'), /The chart uses the factor s = 2/);
  assert.match(prose('dynamic-cache', 'zh-CN'), /缩放因子取 s = 2/);
  assert.doesNotMatch(html, /乘以 1\/√d、送入|乘以 <span class="nobr"><math><mn>1<\/mn><mo>\/<\/mo><msqrt><mi>d<\/mi><\/msqrt><\/math>、<\/span>送入/);
  const { tables } = (await import('../web/charts/dynamic-kv-cache.js')).default.messages;
  assert.match(tables.en.how, /rotate_half layout of section 14 \(dimension j pairs with j \+ d\/2\)/);
  assert.match(tables.zh.how, /维度 j 与维度 j \+ d\/2 配成一对/);
  assert.doesNotMatch(tables.zh.noticeLong, /乘以 1\/√d、送入/);

  const e = exercise('dynamic-cache', /to 33/);
  const s = await scene(e.href, 'dynamic-kv-cache', (box) => {
    const [fresh, cached] = window.Chart.getChart(box.querySelectorAll('canvas')[1]).data.datasets;
    return fresh.data.map((p, i) => p.y !== cached.data[i].y);
  });
  const differ = s.extra.flatMap((x, i) => (x ? [i] : []));
  assert.equal(differ.length, 31);
  assert.deepEqual([differ[0], differ.at(-1)], [1, 31]);
  assert.equal(s.extra.length, 33);
  both(e, String(differ.length), s.readout.match(/the largest difference over its keys is ([\d.]+)/)[1]);
});

test('§19: float16\'s highest point is in the readout, the rotary dim points to section 16, and the score exercise asks what float16 makes of one position', async () => {
  const d = await scene('#precision', 'precision-lab');
  const max = (name) => Math.max(...col(d.data, name).map((x) => x ?? 0));
  assert.match(d.readout, new RegExp(`bfloat16 is off by up to ${max('error bf16').toPrecision(4)} and float16 by up to ${max('error f16').toPrecision(4)} `));
  assert.match(prose('precision', 'en'), /rotary dim of 32 \(how many dimensions of each head RoPE turns, section 16;/);
  assert.match(prose('precision', 'zh-CN'), /旋转维度（每个头里由 RoPE 旋转的维度个数，第 16 节）/);
  // section 16 is where the rotary dim is defined
  assert.match(section('scaling'), /<h2><span lang="en">16\. [\s\S]*?rotary dim: how many dimensions of each head RoPE turns/);
  assert.doesNotMatch(html, /几乎毁掉|逐个维度对起作用/);
  const { tables } = (await import('../web/charts/precision-heatmap.js')).default.messages;
  assert.doesNotMatch(tables.zh.noticePair0Lost, /都表示出来/);

  const at = (data, name) => data.rows.find((r) => r[0] === 4095)[data.columns.indexOf(name)];
  const e = exercise('precision', /4095/);
  assert.ok(e.summary.includes(at(d.data, 'error f16').toFixed(2)) && e.summary.includes(at(d.data, 'error early').toPrecision(3)), e.summary);
  const s = await scene(e.href, 'precision-lab');
  assert.match(s.readout, /^Attention sees the loss too/);
  const f16 = at(s.data, 'error f16'), early = at(s.data, 'error early');
  assert.ok(f16 > 1000 * early);
  both(e, f16.toFixed(2), early.toFixed(6));
});

test('§9\'s note on the near-orthogonal chart says which position each word takes', async () => {
  const s = await scene('?near-orthogonal.length=10#adding', 'near-orthogonal');
  assert.ok(s.data.rows.length > 10);
  assert.ok(s.data.rows.every(([word, position]) => position === word % 10));
  const { tables } = (await import('../web/charts/near-orthogonal.js')).default.messages;
  assert.match(tables.en.how, /word j takes position j mod the number of positions/);
  assert.match(tables.zh.how, /第 j 个词取的位置是 j 除以位置数的余数/);
});
