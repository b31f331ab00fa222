// wrap.test.js: an exported figure's text broken into lines (host/wrap.js), measured here one
// unit per character: formulas, short brackets and grouped numbers stay whole, Chinese breaks
// anywhere but before its closing punctuation, and a piece too wide for a line still breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrap } from '../web/host/wrap.js';

const ctx = { measureText: (t) => ({ width: [...t].length }) };

test('a title breaks between words, not inside "a = m·θᵢ" or "(sin a, cos a)"', () => {
  const title = 'One pair of PE as a point (sin a, cos a), a = m·θᵢ';
  assert.deepEqual(wrap(ctx, title, 40), ['One pair of PE as a point', '(sin a, cos a), a = m·θᵢ']);
  assert.deepEqual(wrap(ctx, title, 30), ['One pair of PE as a point', '(sin a, cos a), a = m·θᵢ']);
  assert.deepEqual(wrap(ctx, title, 20), ['One pair of PE as a', 'point', '(sin a, cos a),', 'a = m·θᵢ']);
  for (const max of [14, 16, 18, 20, 24]) {
    for (const line of wrap(ctx, title, max)) assert.doesNotMatch(line, /=$|^=|^m·θᵢ/, `${max}: ${line}`);
  }
});

test('Chinese breaks between characters, never before its closing punctuation; a list\'s "·" ends its line', () => {
  const zh = wrap(ctx, '位置编码的一对维度画成点 (sin a, cos a)，a = m·θᵢ', 28);
  assert.deepEqual(zh, ['位置编码的一对维度画成点 (sin a, cos a)，', 'a = m·θᵢ']);
  for (const max of [6, 9, 12]) {
    for (const line of wrap(ctx, '设置：θᵢ = base；d 256；最大距离 10\u202f000', max)) assert.doesNotMatch(line, /^[：；]/, `${max}: ${line}`);
  }
  const en = wrap(ctx, 'Settings: θᵢ = base^(−2i/d) · d 256 · largest distance 10\u202f000', 30);
  assert.ok(en.every((l) => !l.startsWith('·')), en.join(' | '));
  assert.ok(en.some((l) => l.endsWith('10\u202f000')), en.join(' | '));
});

test('a piece wider than the line breaks at its own spaces rather than run past the edge; a grouped number stays whole', () => {
  const lines = wrap(ctx, 'x = a + b + c + d + e + f', 9);
  assert.ok(lines.every((l) => [...l].length <= 9), lines.join(' | '));
  assert.deepEqual(wrap(ctx, 'base 10\u202f000', 5), ['base', '10\u202f000']);
  assert.deepEqual(wrap(ctx, '', 10), []);
});

test('Chinese opening punctuation never ends a line: “（” and “ go with what they open', () => {
  const text = '设置：预设配置 Llama 3.1 8B（llama3）；你的模型配置“无缩放”；底数 base 500000';
  for (let max = 6; max <= 40; max++) {
    for (const line of wrap(ctx, text, max)) assert.doesNotMatch(line, /[（“]$/, `${max}: ${line}`);
  }
});
