// lesson-sections.test.js: the words of sections 1-6 and 23 where a reader was misled: §1 says when the
// outputs match, §2 names binary's defects first and asks what its text does not answer, §3 lays out
// the table and defines a frequency before using the word for θ_i, §6 says which curves are dashed, and
// §23 defines the lab and the absolute encodings, explains its stripes by a crossing it computes, names
// the readout's own condition, rounds YaRN's ramp as transformers does and says what the fine-tune's 4
// is; the Chinese keeps one term for a thing and no false "since".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { section, exercises as exercisesAs } from './lesson-text.js';

const source = (name) => readFileSync(new URL(`../web/charts/${name}.js`, import.meta.url), 'utf8');
// (a formula stands as one mark, which the checks below expect)
const text = (s) => s.replace(/<math[\s\S]*?<\/math>/g, '⟨M⟩').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
/** The prose paragraphs of a section in one language, exercises and takeaway left out. */
const prose = (id, lang) => {
  const body = section(id).replace(/<aside[\s\S]*?<\/aside>/g, '').replace(/<details class="exercise">[\s\S]*?<\/details>\s*<\/details>/g, '');
  return [...body.matchAll(new RegExp(`<p lang="${lang}">([\\s\\S]*?)</p>`, 'g'))].map((m) => text(m[1]));
};
const exercises = (id) => exercisesAs(id, text);

test('§1: the outputs match only with neither a position encoding nor the mask; both titles ask why order matters', () => {
  assert.match(prose('order', 'en')[0], /With no position encoding and no mask \(the chart’s default\), each word gets the same output/);
  assert.match(prose('order', 'zh-CN')[0], /不加位置编码、也不加掩码时（图的默认设置），每个词/);
  const h2 = section('order').match(/<h2>([\s\S]*?)<\/h2>/)[1];
  assert.match(h2, /<span lang="en">1\. Why order matters<\/span><span lang="zh-CN">1\. 词序为什么重要<\/span>/);
});

test('§2: the defects come first, and the exercises ask what the text has not answered (checked by counting bits)', () => {
  assert.match(prose('binary', 'en')[1], /^Binary has two real defects, and the waste of space/);
  assert.match(prose('binary', 'zh-CN')[1], /^二进制编码有两个真正的毛病/);
  const code = (p) => p % 8; // three bits
  const bitsApart = (a, b) => [0, 1, 2].filter((j) => ((a >> j) & 1) !== ((b >> j) & 1)).length;
  const [onFive, jumps] = exercises('binary');
  for (const { href } of [onFive, jumps]) assert.equal(new URLSearchParams(href.split('#')[0]).get('binary.length'), '16');
  const same = Array.from({ length: 16 }, (_, p) => p).filter((p) => p !== 5 && code(p) === code(5));
  assert.deepEqual(same, [13]);
  assert.match(onFive.answer, /^Position 13 \(1101 in binary\)/);
  assert.match(onFive.answer, /only 8 of the 16 points are distinct/);
  const far = Array.from({ length: 15 }, (_, p) => p).filter((p) => bitsApart(code(p), code(p + 1)) === 3);
  assert.deepEqual(far, [3, 7, 11]);
  assert.match(jumps.answer, /^7 → 8 and 11 → 12\./);
  assert.match(jumps.answerZh, /^7 → 8 和 11 → 12。/);
  // the prose before the exercises gives neither answer
  const before = prose('binary', 'en').join(' ');
  assert.doesNotMatch(before, /\b13\b|7 → 8|11 → 12/);
});

test('§3: the table is laid out and the frequency defined before θ_i is called one; d is d_model here', () => {
  const [, p] = prose('frequencies', 'en'), [, z] = prose('frequencies', 'zh-CN');
  const table = p.indexOf('one row per position and one column per dimension'), d = p.indexOf('The d columns are grouped');
  assert.ok(table > 0 && d > table, p);
  assert.match(p, /where ⟨M⟩ is the angle pair i turns per position, in radians, called its frequency \(an angular frequency, not a number of turns\)/);
  assert.doesNotMatch(p, /one frequency ⟨M⟩|A frequency here is/);
  assert.match(p, /section 1’s d was a head’s width/);
  assert.match(z, /每个位置占一行，每个维度占一列/);
  assert.match(z, /第 1 节的 d 是一个头的维度/);
});

test('§6 says which curves are dashed, as the chart draws them', () => {
  assert.match(prose('curves', 'en')[0], /the fast pair in solid curves, the slow pair in dashed ones/);
  assert.match(prose('curves', 'zh-CN')[0], /快的一对画成实线，慢的一对画成虚线/);
  assert.match(source('frequency-curves'), /borderDash: i < 2 \? \[\] : \[6, 4\]/, 'datasets 0 and 1 (the fast pair) solid, 2 and 3 dashed');
});

test('§23 defines the lab and the absolute encodings before it leans on them, and gives T5 its reason in the body', () => {
  const en = prose('lab', 'en'), all = en.join(' ');
  assert.match(en[0], /This one does: the lab, as the rest of the page calls it, is a set of small models trained on this page/);
  assert.equal(all.indexOf('the lab'), all.indexOf('the lab, as the rest'));
  const defined = all.indexOf('These two are the absolute encodings');
  assert.ok(defined > 0 && defined < all.indexOf('the absolute encodings fall apart'));
  assert.match(all, /T5 slips already at 2× \(0\.91\): it adds a learned bias per bucket of offsets/);
  assert.match(all, /fall in buckets no training sequence reached/);
  assert.match(all, /Distances training never showed should hurt ALiBi least/);
  assert.doesNotMatch(all, /has the least to lose/);
});

test('§23 explains the stripes by a crossing: the distances pair 0 lines up at and the range of φ follow from θ', () => {
  const why = prose('lab', 'en').find((p) => p.startsWith('Why those distances?'));
  const whyZh = prose('lab', 'zh-CN').find((p) => p.startsWith('为什么偏偏是这些距离？'));
  const [t0, t1] = [1, 0.1];
  const lined = Array.from({ length: 9 }, (_, k) => Math.round(2 + (2 * Math.PI * (k + 1)) / t0));
  assert.ok(why.includes(`about ${lined.slice(0, -1).join(', ')} and ${lined.at(-1)} places back`), why);
  assert.ok(whyZh.includes(`在往前约 ${lined.slice(0, -1).join('、')} 和 ${lined.at(-1)} 个位置处`), whyZh);
  // the cosine is back at its value at distance 2 at rθ₁ = 2π − 2φ − 2θ₁: the first stripe (40) is past
  // it and the alignment before (33) is not, which bounds φ; with φ = 0 the crossing is past the last stripe
  const phi = (r) => (2 * Math.PI - 2 * t1 - r * t1) / 2;
  assert.ok(phi(40) > 1 && phi(33) < 1.5, `φ from ${phi(40)} to ${phi(33)}`);
  assert.match(why, /needs φ to be a little over one radian/);
  assert.match(whyZh, /这要求 φ 略大于 1 弧度/);
  assert.ok(why.includes(`with φ = 0 it would come only ${Math.round((2 * Math.PI - 2 * t1) / t1)} places back`), why);
  assert.ok(Math.round((2 * Math.PI + 2 * t1) / t1) > 63, 'the cosine stays above its distance-2 value past the 4× test');
  assert.doesNotMatch(why, /4 to 6 radians/);
  assert.match(why, /\(the crossing\)/);
  assert.match(whyZh, /（称为交点）/);
});

test('§23 states the collapse as the position readout does', () => {
  assert.match(source('lab-positions'), /position \{at\} the first where one falls below 0\.5/);
  assert.match(prose('lab', 'en').join(' '), /and position 46 is the first where one of them falls below one half/);
  assert.match(prose('lab', 'zh-CN').join(' '), /从位置 46 起，才有某个测试长度的准确率跌破一半/);
  assert.doesNotMatch(prose('lab', 'en').join(' '), /only from position 46 on does it fall/);
});

test('§23: YaRN keeps pair 0 because transformers ramps by pair index between whole pairs, at the indices the text gives', () => {
  const [d, l0, base] = [8, 16, 10000];
  const at = (turns) => (d * Math.log(l0 / (turns * 2 * Math.PI))) / (2 * Math.log(base)); // the pair turning `turns` times
  const [fast, slow] = [at(32), at(1)];
  assert.equal(Math.max(0, Math.floor(fast)), 0);
  assert.equal(Math.ceil(slow), 1);
  const en = prose('lab', 'en').join(' '), zh = prose('lab', 'zh-CN').join(' ');
  const num = (x) => (x < 0 ? `<mo>−</mo><mn>${(-x).toFixed(1)}</mn>` : `<mn>${x.toFixed(1)}</mn>`);
  const lab = section('lab');
  assert.ok(lab.includes(`Here they are about <math>${num(fast)}</math> (then held at pair 0) and <span class="nobr"><math>${num(slow)}</math>,</span> which rounds up to 1`));
  assert.ok(lab.includes(`这里两者约为 <math>${num(fast)}</math>（再截到第 0 对）和 <span class="nobr"><math>${num(slow)}</math>，</span>后者向上取整为 1`));
  // the paper's ramp is linear in the turns r, the library's in the pair index: both differences are said
  assert.match(en, /differs from the paper twice: its ramp is linear in the pair index, not in r, and its two ends are whole pairs/);
  assert.match(en, /the index for 32 turns is rounded down, the one for a single turn rounded up/);
  assert.match(zh, /过渡段按维度对的序号线性变化，而不是按 r/);
  assert.ok(lab.includes('<mi>i</mi><mo>=</mo><mo>(</mo><mi>d</mi><mo>/</mo><mn>2</mn><mo>)</mo>'), 'the index formula is given');
  assert.doesNotMatch(zh, /既然保住了/);
  // the ramp is defined where it is used, and its value per pair is the one c/scaling.c computes
  const ramp = (i) => Math.min(1, Math.max(0, (i - Math.max(0, Math.floor(fast))) / (Math.ceil(slow) - Math.max(0, Math.floor(fast)))));
  assert.deepEqual([0, 1, 2, 3].map(ramp), [0, 1, 1, 1]);
  assert.match(en, /one in between, on the ramp of section 16, keeps a share γ/);
  assert.match(en, /rises linearly from 0 at the first of these pairs to 1 at the second, and stays 1 past it: pair 0 gets 0 and keeps its angle, pair 1 gets 1, and so do pairs 2 and 3/);
  assert.match(zh, /第 0 对取 0，角度保持不变；第 1 对取 1，第 2、3 对也是 1/);
  assert.doesNotMatch(en + zh, /fast end|快的一端|过渡区/);
});

test('§23: the fine-tune is factor 4 on lengths up to 4×, not a tune on 4×-long sequences', () => {
  const scaling = source('lab-scaling');
  assert.match(scaling, /tuned: 'RoPE \+ \{scaling\}, tuned \{steps\} steps, factor \{multiple\}'/);
  assert.match(scaling, /tuned: 'RoPE \+ \{scaling\}，以因子 \{multiple\} 微调 \{steps\} 步'/);
  assert.doesNotMatch(scaling, /在 \{multiple\}× 长度上微调|在 4× 长度上短暂微调|at \{multiple\}×'|fine-tune at 4×'/);
  const en = prose('lab', 'en').join(' '), zh = prose('lab', 'zh-CN').join(' ');
  assert.match(en, /100 steps with scaling factor 4, each step on sequences of one length drawn from every length up to 64 tokens \(4× the training length\)/);
  assert.match(en, /at 4×, the longest length they were tuned on/);
  assert.match(zh, /64 个 token（训练长度的 4 倍）/);
});

test('§23\'s attention exercise asks what the text before it does not give', () => {
  const [attention] = exercises('lab');
  assert.match(attention.summary, /Which of them puts the least of its last layer's weight on the key 2 places back\?/);
  assert.match(attention.answer, /^T5, with only 0\.39/);
  assert.doesNotMatch(prose('lab', 'en').join(' '), /0\.39/);
});

test('Chinese of sections 3 and 23: one term each, the running example as the English says it, no stilted phrasing', () => {
  const lab = prose('lab', 'zh-CN').join(' ');
  assert.doesNotMatch(lab, /评估时|全文其他各节|复制要找的|既然/);
  assert.match(lab, /这里不再沿用本页反复使用的例子，即 d = 128、共 64 对的头/);
  for (const name of ['lab-scaling', 'length-lab', 'lab-positions', 'lab-attention']) {
    // the lesson's terms: 纯解码器 for decoder-only, 推理时 for scaling applied only when the model runs
    assert.doesNotMatch(source(name), /仅解码器|评估时/, name);
  }
  assert.doesNotMatch(prose('frequencies', 'zh-CN').join(' '), /恰好少乘一次公比/);
  assert.doesNotMatch(text(section('frequencies').match(/<aside[\s\S]*?<\/aside>/)[0]), /恰好少乘一次公比/);
});
