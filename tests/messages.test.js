// Every text of the page's charts and of the chart host comes from a message table
// (host/i18n.js messages()): each exists in every language, with the same placeholders, and
// Chinese text uses full-width punctuation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KINDS } from '../web/host/kinds.js';
import { HOST } from '../web/host/strings.js';
import { LANGS, messages } from '../web/host/i18n.js';
import { LAB } from '../web/charts/shared/lab.js';
import { MESSAGES as MODEL } from '../web/charts/shared/model.js';
import { MESSAGES as CHARTS } from '../web/charts/shared/charts.js';
import { COL } from '../web/charts/shared/columns.js';

const charts = await Promise.all(KINDS.map(async (k) => [k, (await import(`../web/charts/${k}.js`)).default]));
const tables = [['host', HOST], ['shared/lab', LAB], ['shared/model', MODEL], ['shared/charts', CHARTS], ['shared/columns', COL], ...charts.map(([k, c]) => [k, c.messages])];

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every chart module has a message table, and its title comes from it', () => {
  for (const [kind, chart] of charts) {
    assert.ok(chart.messages?.tables, `${kind} exports its messages`);
    assert.ok(Object.values(chart.messages).includes(chart.title), `${kind}: title from its table`);
  }
});

test('every message exists in every language with the same placeholders', () => {
  for (const [name, m] of tables) {
    const en = Object.keys(m.tables.en);
    for (const l of LANGS) {
      assert.deepEqual(Object.keys(m.tables[l]).sort(), [...en].sort(), `${name}: ${l} has the English keys`);
      for (const k of en) {
        assert.equal(typeof m.tables[l][k], 'string', `${name}.${k} (${l})`);
        assert.deepEqual(placeholders(m.tables[l][k]), placeholders(m.tables.en[k]), `${name}.${k}: ${l} placeholders`);
      }
    }
  }
});

test('Chinese text uses full-width punctuation next to Chinese characters', () => {
  const cjk = '[\\u3400-\\u9fff]';
  const half = new RegExp(`${cjk}[,;:!?]|[,;:!?(]\\s*${cjk}|${cjk}\\s*\\)|${cjk}\\.(\\s|$)`);
  for (const [name, m] of tables) {
    for (const [k, s] of Object.entries(m.tables.zh)) assert.doesNotMatch(s, half, `${name}.${k}: ${s}`);
  }
});

test('messages() refuses a table with a missing language and fills placeholders by name', () => {
  assert.throws(() => messages({ en: { a: 'x' }, zh: {} }), /message "a" has no zh text/);
  const m = messages({ en: { a: '{n} of {m}' }, zh: { a: '{m} 中的 {n}' } });
  assert.equal(m.a.format({ n: 1, m: 2 }), '1 of 2');
  assert.equal(m.a.format({ n: 1, ['__proto__']: 3 }), '1 of {m}');
});

test('layers are numbered only from 0, as transformers numbers them; otherwise they are counted in words', async () => {
  const { readFileSync } = await import('node:fs');
  const html = ['index.html', 'teaching.html'].map((f) => readFileSync(new URL(`../web/${f}`, import.meta.url), 'utf8'));
  const texts = [...html, ...tables.flatMap(([, m]) => [...Object.values(m.tables.en), ...Object.values(m.tables.zh)])];
  // "layer 1" would be the second layer to a reader of the sections that count from 0
  const numbered = texts.flatMap((s) => s.match(/.{0,20}(\blayers? [1-9]\d*\b|第 ?[1-9]\d* ?层).{0,20}/gi) ?? []);
  assert.deepEqual(numbered, []);
});
