// lesson-late-sections.test.js: sections 13–15 and 17–19 define a step before they lean on it,
// name their cross-references alike, ask exercises their prose does not already answer, and give
// numbers their charts show at the settings named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedLesson } from './browser.js';
import { text, section, paragraphs, exercises } from './lesson-text.js';

const prose = (id, lang) => paragraphs(id, lang).join(' ');
/** The section's text up to its first exercise. */
const before1st = (id) => text(section(id).split('<details class="exercise">')[0]);
const LATE = ['decay', 'llama', 'extrapolation', 'beyond', 'dynamic-cache', 'precision'];

// one lesson serves every scene: a scene link sets its chart as a new tab would (sceneOf)
const lesson = sharedLesson();

test('cross-references read "section N" (第 N 节), not §N', () => {
  for (const id of LATE) {
    for (const lang of ['en', 'zh-CN']) assert.doesNotMatch(prose(id, lang), /§\s*\d/, `${id} ${lang}`);
  }
});

test('§13 derives the count of pairs in step, names RoFormer once, and says its own term only', () => {
  // the step from the count to d(1 − ln Δ/ln base): i ≥ (d/2)·ln Δ/ln base, in both languages
  const derive = /i≥\(d\/2\)·ln\u2061?Δ\/ln\u2061?base/;
  for (const lang of ['en', 'zh-CN']) assert.ok(paragraphs('decay', lang).some((p) => derive.test(p)), lang);
  const en = prose('decay', 'en'), zh = prose('decay', 'zh-CN');
  assert.match(en, /that term is at most 2 out of 256/);
  assert.match(en, /the rewritten sum keeps no boundary term/);
  assert.doesNotMatch(en, /leaves it no boundary term/);
  assert.equal(section('decay').match(/paper that introduced RoPE/g).length, 1);
  assert.equal(section('decay').match(/提出 RoPE 的论文/g).length, 1);
  // one term for a pair leaving step: 失去同步
  assert.doesNotMatch(section('decay'), /掉队/);
  assert.match(zh, /快的维度对最先失去同步/);
});

test('§13\'s independent-key exercise gives the typical size the chart states and the dip its data show', async () => {
  const e = exercises('decay').find((x) => /independent random vector/.test(x.summary));
  const s = await lesson.scene(e.href, 'rope-decay-random');
  const size = s.readout.match(/typical size √d ≈ (\d+\.\d+)/)[1];
  let low = [Infinity, 0];
  for (const [delta, score] of s.data.rows) if (delta <= 280 && score < low[0]) low = [score, delta];
  const [score, delta] = low;
  for (const a of [e.answer, e.answerZh]) {
    assert.ok(a.includes(`√d = √512 ≈ ${size}`), a);
    assert.ok(a.includes(`−${Math.round(-score)}`) && a.includes(`Δ = ${delta}`), a);
    assert.ok(a.includes((-score / +size).toFixed(1)), a);
  }
  assert.doesNotMatch(e.answer, /the same typical size/);
});

test('§14 says which two vectors agree, and its chart\'s note compares them the same way', async () => {
  const en = prose('llama', 'en');
  assert.doesNotMatch(en, /in the input, and the same\s+way in the output/);
  assert.match(en, /apply the half style: the result is exactly the interleaved output of x with its dims moved the same way/);
  assert.match(prose('llama', 'zh-CN'), /再用前后两半配对旋转，结果与 x 的交错配对输出按同样方式重排后完全一致/);
  const { tables } = (await import('../web/charts/rotate-half.js')).default.messages;
  assert.match(tables.en.how, /The readout's last comparison .* compares it with the interleaved output reordered the same way\.$/);
  assert.match(tables.zh.how, /图下文字的最后一项比较.*再与按同样方式重排的交错配对输出比较。$/);
});

test('§15 contrasts the two effects of a larger base instead of stating one twice', () => {
  const en = prose('extrapolation', 'en');
  assert.doesNotMatch(en, /That count is not the whole story/);
  assert.match(en, /More pairs short of a turn, but a smaller step past the trained angles\./);
  assert.match(section('extrapolation'), /那些训练中从未转满一圈的慢维度对，会转到从未见过的角度/);
});

test('§17\'s PI answer says why g stays in the band although Δ/4 is not a whole distance', async () => {
  const e = exercises('beyond').find((x) => /linear interpolation \(PI\)/.test(x.summary));
  assert.doesNotMatch(e.answer, /by definition/);
  assert.match(e.answer, /The dotted lines were taken at whole distances, and Δ\/4 is mostly not one/);
  assert.match(e.answerZh, /点线是按整数距离取的，而 Δ\/4 多半不是整数/);
  const s = await lesson.scene(e.href, 'scaling-decay');
  assert.equal(s.data.measured.outside.ones.after, 0);
});

test('§18\'s readout dates the new bases from step L₀ + 1, the first key written past L₀', async () => {
  const d = await lesson.scene('#dynamic-cache', 'dynamic-kv-cache');
  const [, past, step] = d.readout.match(/the (\d+) keys written after it were rotated with \d+ different bases \(slowest-pair wavelength [\d.]+ at step (\d+),/);
  assert.deepEqual([+past, +step], [96, 33]);
  const e = exercises('dynamic-cache')[0];
  const one = await lesson.scene(e.href, 'dynamic-kv-cache');
  assert.match(one.readout, /the one key written after it, at step 33, was rotated with a larger base/);
  assert.ok(e.answerZh.includes('见下面那张图'), e.answerZh);
  const { tables } = (await import('../web/charts/dynamic-kv-cache.js')).default.messages;
  assert.match(tables.zh.readoutLong, /在第 \{first\} 步为 \{slowThen\}/);
  assert.match(tables.zh.readoutOne, /唯一一个 key（第 \{T\} 步）/);
});

test('§19\'s score exercise asks what float16 makes of one position, which the prose before it does not say', async () => {
  const e = exercises('precision').find((x) => /4095/.test(x.summary));
  assert.doesNotMatch(e.summary, /which of the two/);
  assert.match(e.summary, /What distance does float16 make of that one position/);
  assert.ok(e.answer.startsWith('2, and far off') && e.answerZh.startsWith('算成 2'));
  for (const a of [e.answer, e.answerZh]) assert.ok(a.includes('4096'), a);
  // the answer's offset is nowhere before the exercise
  assert.doesNotMatch(before1st('precision'), /4096|offset of 2|偏移是 2/);
  const s = await lesson.scene(e.href, 'precision-lab');
  const row = s.data.rows.find((r) => r[0] === 4095);
  assert.ok(e.answer.includes(row[s.data.columns.indexOf('error f16')].toFixed(2)));
  // the Chinese keeps the prompt to look at the two 16-bit curves
  assert.match(prose('precision', 'zh-CN'), /注意两条 16 位的曲线一路升到接近 2/);
});
