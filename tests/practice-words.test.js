// practice-words.test.js: the words of sections 20-24 and the recap where a reader was misled or
// given the answer: §20's random-q, k answer says what chance gives, §21 defines chunked attention and
// asks of Phi-3.5 mini what the findings do not say, §23 states the weight-decay rule §24 cites, §24
// credits the accuracy chart, and the Chinese names the lab with one word of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { html, section, paragraphs, exercises } from './lesson-text.js';

const proseOf = (id, lang) => paragraphs(id, lang).join(' ');

test('§20: random q and k give the previous token a sixth by chance, whichever the pairing; a fifth is this seed', () => {
  // a query at position m sees m + 1 keys, each 1/(m + 1) on average; the chart averages positions 1-15
  let share = 0;
  for (let m = 1; m <= 15; m++) share += 1 / (m + 1) / 15;
  assert.ok(Math.abs(share - 1 / 6) < 0.01, String(share));
  const random = exercises('conventions').find((e) => /random q and k/.test(e.summary));
  assert.match(random.answer, /at this seed the previous token gets about a fifth/);
  assert.match(random.answer, /By chance alone it gets about a sixth on average, whichever the pairing/);
  assert.match(random.answerZh, /单凭偶然，无论哪种配对，它平均都分到约六分之一/);
  assert.doesNotMatch(random.answerZh, /构造成有固定模式的头最直观/);
});

test('§21: chunked attention is defined where the Llama 4 exercise first uses it, with the model\'s chunk', () => {
  const chunk = Number(/attention_chunk_size: (\d+)/.exec(readFileSync(new URL('../web/lib/models.js', import.meta.url), 'utf8'))[1]);
  const scout = exercises('your-model').find((e) => /Llama 4 Scout/.test(e.summary));
  assert.ok(scout.summary.includes(`chunked attention: the text is cut into blocks of ${chunk} tokens`), scout.summary);
  assert.ok(scout.summaryZh.includes(`分块注意力：把文本切成每块 ${chunk} 个 token`), scout.summaryZh);
});

test('§21: the Phi-3.5 mini exercise asks what the findings and the method note do not give', () => {
  const phi = exercises('your-model').find((e) => /Phi-3\.5 mini/.test(e.summary));
  // the findings name the cause (the context picks the factors) and the fix (-c 4096): the question starts there
  assert.doesNotMatch(phi.summary, /which context makes them agree/);
  assert.match(phi.summary, /Move the query to position 5000: do they agree there without the fix, and what does the fix cost\?/);
  assert.match(phi.answer, /At 5000 the 5001 tokens are past L₀, so transformers takes the long factors too and the lines meet/);
  assert.match(phi.answer, /with -c 4096 llama\.cpp holds at most 4096 tokens/);
  assert.match(phi.answerZh, /到了位置 5000，5001 个 token 已超过 L₀/);
});

test('§21: the misreads chart\'s 1 % is of |q|·|k| at first use, and the attention factor\'s distance is this seed\'s', () => {
  const en = proseOf('your-model', 'en');
  const first = en.indexOf('by more than 1 %');
  assert.ok(first > 0);
  assert.ok(en.slice(first).startsWith('by more than 1 % of |q|·|k|'), en.slice(first, first + 60));
  assert.match(en, /where it first passes 1 % depends only on where this chart's random q and k first score high enough/);
});

test('§23 states the weight-decay rule that §24 cites; §24 credits the accuracy chart for 0.90', () => {
  assert.match(proseOf('lab', 'en'), /weight decay: each step shrinks a weight by the learning rate times 0\.01 of its value/);
  assert.match(proseOf('lab', 'zh-CN'), /权重衰减：每一步把权重乘以 \(1 − 学习率 × 0\.01\)/);
  assert.match(proseOf('other-encodings', 'en'), /section 23: at each step it shrinks a weight by the learning rate times 0\.01/);
  assert.match(proseOf('other-encodings', 'en'), /keeps 0\.90 of the tokens right \(section 23's first chart, the accuracy by test length\)/);
  assert.match(section('lab'), /<div data-chart="length-lab"><\/div>/);
  assert.ok(section('lab').indexOf('data-chart="length-lab"') < section('lab').indexOf('data-chart="lab-'), 'the accuracy chart is the first');
});

test('the Chinese names the lab 实验台, and keeps 实验 only for an experiment or the track', () => {
  const ids = ['real-model', 'lab', 'other-encodings', 'recap'];
  const zh = ids.map((id) => proseOf(id, 'zh-CN')).join(' ') + ' ' + ids.map((id) => section(id)).join(' ');
  assert.match(section('lab'), /本页把这组模型称为<dfn>实验台<\/dfn>/);
  const left = [...zh.matchAll(/.{0,6}实验(?!台).{0,6}/g)].map((m) => m[0]).filter((s) => !/消融实验|实验部分/.test(s));
  assert.deepEqual(left, []);
  for (const name of ['lab-attention', 'lab-learned', 'lab-order', 'lab-positions', 'lab-scaling', 't5-buckets', 'alibi-bias', 'xpos-scale', 'shared/real-model']) {
    const src = readFileSync(new URL(`../web/charts/${name}.js`, import.meta.url), 'utf8');
    assert.deepEqual([...src.matchAll(/.{0,6}实验(?!台).{0,6}/g)].map((m) => m[0]).filter((s) => !/消融实验/.test(s)), [], name);
  }
});

test('the Chinese: one word for evaluation, one name for the learned encoding, 下一节 for every next link', () => {
  const late = ['conventions', 'your-model', 'real-model', 'lab', 'other-encodings', 'recap'].map(section).join(' ');
  assert.doesNotMatch(late, /只在测试时/);
  assert.doesNotMatch(late, /可学习位置表模型/);
  assert.doesNotMatch(html, /下一步：/);
});

test('the Chinese names the learned and sinusoidal encodings, the residual stream and YaRN\'s ramp one way each, in the prose and the lab\'s charts', () => {
  const src = (name) => readFileSync(new URL(`../web/charts/${name}.js`, import.meta.url), 'utf8');
  // the learned encoding keeps the name the primer defines; 位置表 is its table, not another name for it
  assert.match(section('primer'), /<dfn>可学习的绝对位置编码<\/dfn>/);
  assert.deepEqual([...new Set(html.match(/NoPE 与[^<→ ]*/g))], ['NoPE 与可学习的绝对位置编码']);
  assert.match(section('recap'), /<th scope="row">可学习的绝对位置编码<\/th>/);
  assert.match(proseOf('other-encodings', 'zh-CN'), /可学习的绝对位置编码是另一个极端：它的位置表每个位置一行自由参数/);
  assert.doesNotMatch(html, /可学习的位置表(是|中)|位置向量表/);
  assert.match(src('shared/lab'), /learned: '可学习的绝对位置编码'/);
  assert.match(src('lab-learned'), /readout: '任务“\{task\}”，可学习的绝对位置编码，/);
  // the sinusoidal encoding is 正弦位置编码, as the primer and the charts name it
  assert.match(src('shared/lab'), /sinusoidal: '正弦位置编码'/);
  assert.doesNotMatch(html, /正弦编码|<strong>正弦<\/strong>|正弦的为/);
  const [attention] = exercises('lab');
  assert.match(attention.summaryZh, /可学习的绝对位置编码、正弦位置编码、RoPE、T5 和 xPos/);
  assert.match(attention.answerZh, /正弦位置编码为 0\.91/);
  // the readout names what the prose and the axis call 残差流
  assert.match(src('lab-order'), /第一层之后的残差流最多变化了其范数的 \{l1\}/);
  assert.doesNotMatch(src('lab-order'), /之后的状态/);
  // YaRN's ramp is 过渡段 wherever the Chinese names it
  assert.doesNotMatch(html, /过渡区/);
  // section 24 comes after section 23, which the reader has seen
  assert.doesNotMatch(section('other-encodings'), /第 23 节会看到/);
  assert.match(proseOf('other-encodings', 'zh-CN'), /第 23 节已经看到，实验台上的 T5 模型/);
});

test('§21-§23 say what a learner cannot see: the boundary positions, the default sentence, Ruoss et al.\'s randomised positions', () => {
  const sentence = /DEFAULT_SENTENCE = '([^']+)'/.exec(readFileSync(new URL('../web/charts/shared/real-model.js', import.meta.url), 'utf8'))[1];
  assert.ok(proseOf('real-model', 'en').includes(`the default sentence, ${sentence}, is 15 tokens`));
  assert.ok(proseOf('real-model', 'zh-CN').includes(`所以默认句子 ${sentence} 是 15 个 token`));
  assert.match(proseOf('your-model', 'en'), /boundary positions, namely 0, 1, L₀ and its two neighbours, and the context's last/);
  assert.match(proseOf('lab', 'en'), /randomised positions help \(each training sequence takes its positions as a sorted random sample from a range much longer than itself/);
});
