// typography.test.js: the lesson set as a reader of either language expects: the pair index in
// MathML where the text tells italic from upright i, words a Chinese reader does not misread,
// paragraphs a phone screen can hold, punctuation kept beside its formula, unary minus and
// plain parentheses spaced as in print, Chinese upright and its table headers whole, the stage
// strip's label above the stages on a phone, and finger-sized links under a coarse pointer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startBrowser, pageReady } from './browser.js';

const HTML = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
const section = (id) => HTML.match(new RegExp(`<section id="${id}"[^>]*>([\\s\\S]*?)</section>`))[1];
// the text a reader sees of an element's source: formulas as one mark, tags dropped
const plain = (html) => html.replace(/<math[\s\S]*?<\/math>/g, '⟨M⟩').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
const paragraphs = (html, lang) => [...html.matchAll(new RegExp(`<p lang="${lang}">([\\s\\S]*?)</p>`, 'g'))].map((m) => plain(m[1]));
const maths = HTML.replace(/<script[\s\S]*?<\/script>/g, '').match(/<math[\s>][\s\S]*?<\/math>/g);

test('§13 writes the pair index as MathML, italic as its note on the upright i says', () => {
  const text = plain(section('decay'));
  assert.match(text, /斜体的 ⟨M⟩ 是维度对的序号/);
  assert.deepEqual(text.match(/.{0,20}(\bpairs? i\b|\bpair i’s|第 i 对|维度对 i ).{0,10}/g) ?? [], [], 'a pair index in plain text');
});

test('§3 says the last wavelength is one factor of the ladder short of 2π·base, not 一级 (an order of magnitude)', () => {
  const wavelengths = readFileSync(new URL('../web/charts/wavelengths.js', import.meta.url), 'utf8');
  assert.deepEqual(plain(section('frequencies')).match(/.{0,10}一级.{0,10}/g) ?? [], []);
  assert.doesNotMatch(wavelengths, /一级/);
  assert.match(wavelengths, /最后一对的波长等于 2π·base 再除以一个公比/);
  assert.doesNotMatch(plain(section('frequencies')), /恰好少乘一次公比/);
  assert.match(wavelengths, /the last pair’s wavelength is 2π·base divided once by that factor/);
});

test('§4 tells a touch reader to tap the heatmap, in both languages', () => {
  const [en] = paragraphs(section('heatmap'), 'en'), [zh] = paragraphs(section('heatmap'), 'zh-CN');
  assert.match(en, /on a touch screen, tap it/);
  assert.match(zh, /在触屏上轻触图/);
});

test('§9 and §10: the paragraphs before the charts fit about a phone screen each', () => {
  for (const id of ['adding', 'absolute-distance']) {
    const body = section(id).split('<div data-chart')[0];
    for (const [lang, most] of [['en', 800], ['zh-CN', 300]]) {
      const long = paragraphs(body, lang).filter((p) => p.length > most).map((p) => `${p.length}: ${p.slice(0, 30)}…`);
      assert.deepEqual(long, [], `${id} ${lang}`);
    }
  }
});

test('Chinese text names the base 底数 in §3 and §12; formulas keep base', () => {
  for (const id of ['frequencies', 'rope-periods']) {
    const zh = paragraphs(section(id), 'zh-CN').join(' ') + plain([...section(id).matchAll(/<span lang="zh-CN">([\s\S]*?)<\/span>/g)].map((m) => m[1]).join(' '));
    assert.deepEqual(zh.match(/.{0,10}(?<!2π·)\bbase\b(?! = 10000。).{0,10}/g) ?? [], [], id);
  }
  assert.doesNotMatch(HTML, /并排计算/, 'heads run in parallel: 并行计算');
});

test('no line starts with the punctuation after a formula, nor ends with a bracket opened before one', () => {
  const prose = HTML.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<math display="block"[\s\S]*?<\/math>/g, '');
  const loose = [];
  for (const m of prose.matchAll(/<\/math>(?=[,.:;?!)\]’'”，。、；：？！）」])/g)) {
    // bound: the formula sits in a span.nobr that closes right after the punctuation
    const open = prose.lastIndexOf('<math', m.index), wrap = prose.lastIndexOf('<span class="nobr">', open);
    const bound = wrap >= 0 && open - wrap <= '<span class="nobr">（'.length && /^<\/math>(?:[’']s|[^<\s\w]+)<\/span>/.test(prose.slice(m.index));
    if (!bound) loose.push(prose.slice(m.index - 30, m.index + 10));
  }
  for (const m of prose.matchAll(/[（(“](?=<math)/g)) {
    if (!prose.slice(0, m.index).endsWith('<span class="nobr">')) loose.push(prose.slice(m.index - 10, m.index + 30));
  }
  assert.deepEqual(loose, []);
});

test('MathML: unary minus is a prefix operator; parentheses around a simple argument do not stretch beside a sum or fraction', () => {
  const closers = new Set([')', ']', '|', '′', '}', '!']);
  const unary = maths.flatMap((m) => [...m.matchAll(/<mo(?: [^>]*)?>([^<]*)<\/mo><mo>−<\/mo>/g)].filter((x) => !closers.has(x[1])).map((x) => x[0]));
  assert.deepEqual(unary, [], 'a minus right after an operator is unary: form="prefix"');
  const tall = /<mfrac|<munderover|<munder|<mover|<msqrt|<mtable|∑|∫/;
  const stretched = [];
  // a script stretches a row's parentheses as a sum does: PE(0)ᵀ W_Qᵀ W_K PE(n)
  for (const m of maths.filter((x) => tall.test(x) || /<msup|<msubsup/.test(x))) {
    const stack = [];
    for (const t of m.matchAll(/<mo( [^>]*)?>([()])<\/mo>/g)) {
      if (t[2] === '(') { stack.push(t); continue; }
      const o = stack.pop();
      if (!o || tall.test(m.slice(o.index, t.index))) continue;
      if (![o[1], t[1]].every((a) => /stretchy="false"/.test(a ?? ''))) stretched.push(m.slice(o.index, t.index + t[0].length).replace(/<[^>]+>/g, ''));
    }
  }
  assert.deepEqual(stretched, [], 'simple parentheses left stretchy');
  assert.match(section('absolute-distance'), /<mi>cos<\/mi><mo>⁡<\/mo><mo stretchy="false">\(<\/mo><mi>n<\/mi>/, '§10: Σcos(nθᵢ)');
  // |g| flat in a row would take its closing bar for a relation, spaced: an mrow makes the bars fences
  assert.match(section('decay'), /<mrow><mrow><mo stretchy="false">\|<\/mo><mi>g<\/mi><mo stretchy="false">\|<\/mo><\/mrow><mo>≤<\/mo>/, '§13: |g| ≤ …');
});

let b;
before(async () => (b = await startBrowser()));
after(() => b?.close());

const phone = async (path) => {
  const context = await b.browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(b.url + path);
  await pageReady(page);
  return { page, context };
};

test('zh on a phone: upright Chinese, whole table headers, the stage label above the stages, finger-sized links', async () => {
  const { page, context } = await phone('?lang=zh');
  const r = await page.evaluate(() => {
    for (const s of document.querySelectorAll('main > section')) s.style.contentVisibility = 'visible';
    const shown = (e) => e.getClientRects().length > 0;
    const style = (sel) => [...document.querySelectorAll(sel)].filter(shown).map((e) => getComputedStyle(e));
    const lines = (e) => { const r = document.createRange(); r.selectNodeContents(e); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
    const here = document.querySelector('#order .here');
    const label = here.querySelector('.here-label').getBoundingClientRect(), list = here.querySelector('ol').getBoundingClientRect();
    const h = (sel) => [...document.querySelectorAll(sel)].filter(shown).map((e) => Math.round(e.getBoundingClientRect().height));
    for (const d of document.querySelectorAll('#frequencies details.exercise')) d.open = true;
    return {
      slanted: [...style('main [lang="zh-CN"] :is(dfn, em, i, cite)'), ...style('main .skip[lang="zh-CN"]')].filter((c) => c.fontStyle !== 'normal').length,
      light: style('main [lang="zh-CN"] :is(dfn, em)').filter((c) => Number(c.fontWeight) < 600).length,
      dfns: style('main [lang="zh-CN"] dfn').length,
      heads: [...document.querySelectorAll('#exact table.exact-values thead th, #order table.order-table thead th:first-child')].filter((e) => lines(e) > 1).map((e) => e.textContent),
      labelLines: lines(here.querySelector('.here-label')),
      labelAbove: label.bottom <= list.top + 1,
      toc: h('nav .toc a'),
      scene: h('#frequencies a.scene-link'),
      answer: h('#frequencies details.answer > summary'),
      nobr: getComputedStyle(document.querySelector('main .nobr')).whiteSpace,
      snap: getComputedStyle(document.querySelector('.chart[data-kind="exact-table"] .table-scroll')).scrollSnapType,
    };
  });
  assert.equal(r.slanted, 0, 'slanted Chinese');
  assert.ok(r.dfns > 5 && r.light === 0, 'defined and stressed Chinese terms are set at weight 600 or more');
  assert.deepEqual(r.heads, [], 'column headers broken inside a word');
  assert.equal(r.labelLines, 1, '“在 Transformer 中：” on one line');
  assert.ok(r.labelAbove, 'the label above the stages');
  assert.ok(r.toc.length > 10 && r.toc.every((x) => x >= 44), `contents links: ${r.toc}`);
  assert.ok(r.scene.length && r.scene.every((x) => x >= 44), `scene links: ${r.scene}`);
  assert.ok(r.answer.length && r.answer.every((x) => x >= 44), `answer folds: ${r.answer}`);
  assert.equal(r.nobr, 'nowrap');
  assert.match(r.snap, /^x/);
  await context.close();
});

test('en on a desktop keeps its italics and its compact contents', async () => {
  const { page, context } = await b.open('?lang=en');
  await pageReady(page);
  const r = await page.evaluate(() => {
    const shown = (e) => e.getClientRects().length > 0;
    return {
      italic: [...document.querySelectorAll('main [lang="en"] :is(dfn, em)')].filter(shown).every((e) => getComputedStyle(e).fontStyle === 'italic'),
      coarse: matchMedia('(pointer: coarse)').matches,
      toc: [...document.querySelectorAll('nav .toc a')].filter(shown).map((e) => getComputedStyle(e).display),
      here: getComputedStyle(document.querySelector('.here')).flexDirection,
    };
  });
  assert.ok(r.italic, 'English terms stay italic');
  assert.equal(r.coarse, false);
  assert.ok(r.toc.length > 10 && r.toc.every((d) => d === 'inline'), 'contents links stay inline text under a mouse');
  assert.equal(r.here, 'row');
  await context.close();
});
