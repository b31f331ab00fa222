// Every number the lesson's prose cites from the lab stands in index.html as
// <span data-claim="key">text</span>, in English and in Chinese alike; the key names the figure
// of web/lab/results.json it must equal, computed here from the file the way the lab's charts
// read it (a line is the mean over the seeds, its band their lowest and highest; per-position
// figures and attention pictures are the first seed's), and compared after rounding to as many
// decimals as the text shows. When `npm run lab` rewrites the file, a claim the new numbers no
// longer support fails here, naming its key.
//
// Keys:
//   cfg.<name>                              the lab's settings (layers, dModel, heads, headDim, pairs,
//                                           theta.<i>, steps, trainLength, copyPositions[.<multiple>],
//                                           chance, ftSteps, ftMultiple, ftLength, maxAngle.<i>,
//                                           batch, lr, warmupSteps, weightDecay, seeds = how many)
//   acc.<task>.<line>.<metric>.<multiple>[.lo|.hi]
//                                           a line of the lab charts: <line> is an encoding,
//                                           rope+<scaling> (at evaluation) or rope~<scaling>
//                                           (fine-tuned); metric token | sequence
//   accrange.<task>[.tuned].<metric>.<multiple>.min|max
//                                           the lowest or highest line among the unscaled
//                                           encodings (or the fine-tuned RoPE lines)
//   pos.<task>.<encoding>.firstWrong | lastRight | collapse | last.<multiple>
//                                           lab-positions: the first position at which some test
//                                           length has an accuracy below 0.9, the one before it,
//                                           the first at which some test length has an accuracy
//                                           below one half, and the accuracy at the
//                                           last position of the test at <multiple>
//   att.<task>.<encoding>.<measure>.<multiple>
//                                           lab-attention's picture: target = weight on the key the
//                                           task needs, averaged over queries (its readout); far =
//                                           weight queries past the training length give to keys at
//                                           least that far back; stripeFrom / stripeTo = the nearest
//                                           and farthest such distance whose mean weight is 0.05 or
//                                           more; stripePeak = the distance whose mean weight is
//                                           largest; stripeFromAngle / stripeToAngle = those times θ_1
//   learned.<task>.reached | learned.<task>.moved.<reached|other>.<min|max>   (lab-learned, in %)
//   t5.trained.<length> | t5.untrainedFrom.<length> | t5.bucketOf.<distance>
//                                           the highest causal T5 bucket the distances of a
//                                           <length>-token sequence reach, the next one, and the
//                                           bucket of one distance
//   t5.lastFrom.<causal|bidirectional> | t5.lastBefore.causal
//                                           the nearest distance in the last bucket (bidirectional:
//                                           the last of one side), and the distance before it
//   xpos.factor.<pair>.<distance>           the xPos factor ζ_i^(distance/scale_base) on pair i's part
//                                           of a score, for the lab's head width and scale_base
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeDetails, fromBase64 } from '../web/lab/run.js';

const html = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
const results = JSON.parse(readFileSync(new URL('../web/lab/results.json', import.meta.url), 'utf8'));

const T5_BUCKETS = 32, T5_MAX_DISTANCE = 128; // the lab's T5 (c/lab/lab.h)
const STRIPE = 0.05;

const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
const o = results.options;
const rope = results.runs.find((r) => r.encoding === 'rope').options;
const headDim = rope.dModel / rope.heads;
const theta = (i) => rope.base ** ((-2 * i) / headDim);

/** Every run of `task` and `encoding`, first seed first. */
function seedRuns(task, encoding) {
  const match = (r) => r.task === task && r.encoding === encoding;
  const runs = [results.runs.find(match), ...results.seedRuns.filter(match)];
  assert.equal(runs.length, 1 + o.seeds.length, `${task} ${encoding}: a run per seed`);
  return runs;
}

/** One line's figure at one multiple: mean over the seeds, or the lowest / highest. */
function line(task, name, metric, multiple, stat = 'mean') {
  const [encoding, how, scaling] = name.match(/^(\w+)(?:([+~])(\w+))?$/).slice(1);
  const k = o.multiples.indexOf(multiple);
  assert.ok(k >= 0, `multiple ${multiple}`);
  const values = seedRuns(task, encoding).map((r) => {
    const ev = how === '+' ? r.scaled[scaling] : how === '~' ? r.fineTuned[scaling].evaluation : r.evaluation;
    return ev[k][`${metric}Accuracy`];
  });
  return stat === 'lo' ? Math.min(...values) : stat === 'hi' ? Math.max(...values) : mean(values);
}

/** The attention picture of `task`, `encoding` (first seed) at `multiple`, and the training length's. */
function pictures(task, encoding, multiple) {
  const { attention } = decodeDetails(results, task, encoding);
  const a = attention.find((p) => p.multiple === multiple);
  assert.ok(a, `${task} ${encoding}: a picture at ${multiple}x`);
  return { a, edge: attention.find((p) => p.multiple === 1).length };
}

/** The key a query at i needs, or -1: 2 back for k-back (k = 3), the matching input token for copy. */
function needed(task, i, T) {
  if (task === 'kback') return i - (rope.k - 1);
  const n = (T - 1) / 2;
  return i >= n + 1 ? i - n : -1;
}

function attention(task, encoding, measure, multiple) {
  const { a, edge } = pictures(task, encoding, multiple);
  const T = a.length, w = (i, j) => a.weights[i * T + j];
  if (measure === 'target') {
    const hits = [];
    for (let i = 0; i < T; i++) if (needed(task, i, T) >= 0) hits.push(w(i, needed(task, i, T)));
    return mean(hits);
  }
  if (measure === 'far') {
    const rows = [];
    for (let i = edge; i < T; i++) {
      let s = 0;
      for (let j = 0; j <= i - edge; j++) s += w(i, j);
      rows.push(s);
    }
    return mean(rows);
  }
  // the distances past the training length that hold a stripe of weight
  const stripes = [];
  let peak = -1, most = -1;
  for (let d = edge; d < T; d++) {
    const col = [];
    for (let i = Math.max(d, edge); i < T; i++) col.push(w(i, i - d));
    if (mean(col) >= STRIPE) stripes.push(d);
    if (mean(col) > most) (most = mean(col)), (peak = d);
  }
  assert.ok(stripes.length, `${task} ${encoding}: no distance past ${edge} holds ${STRIPE} of the weight`);
  const [from, to] = [stripes[0], stripes.at(-1)];
  const out = { stripeFrom: from, stripeTo: to, stripePeak: peak, stripeFromAngle: from * theta(1), stripeToAngle: to * theta(1) };
  assert.ok(Object.hasOwn(out, measure), `unknown key att.${task}.${encoding}.${measure}`);
  return out[measure];
}

function positions(task, encoding, which, multiple) {
  const { evaluation } = decodeDetails(results, task, encoding);
  if (which === 'last') {
    const k = o.multiples.indexOf(Number(multiple));
    assert.ok(k >= 0, `multiple ${multiple}`);
    return evaluation[k].positions.at(-1).accuracy;
  }
  assert.ok(['firstWrong', 'lastRight', 'collapse'].includes(which), `unknown key pos.${task}.${encoding}.${which}`);
  const below = which === 'collapse' ? 0.5 : 0.9;
  const wrong = evaluation.flatMap((e) => e.positions.filter((p) => p.accuracy < below).map((p) => p.position));
  assert.ok(wrong.length, `${task} ${encoding}: right ${below} of the time at every position`);
  const first = Math.min(...wrong);
  return which === 'lastRight' ? first - 1 : first;
}

function learned(task, rest) {
  const run = results.runs.find((r) => r.task === task && r.encoding === 'learned');
  const { reached } = run.positionTable;
  if (rest === 'reached') return reached;
  const [, which, stat] = rest.split('.');
  const moved = fromBase64(run.positionTable.moved);
  const part = which === 'reached' ? moved.subarray(0, reached) : moved.subarray(reached);
  return 100 * (stat === 'min' ? Math.min(...part) : Math.max(...part));
}

/**
 * T5's bucket of a key `d` places back (Hugging Face _relative_position_bucket, written out here):
 * causal, all the buckets for keys behind; bidirectional, half of them, here the side of keys behind.
 */
function t5Bucket(d, bidirectional = false) {
  const buckets = bidirectional ? T5_BUCKETS / 2 : T5_BUCKETS, exact = buckets / 2;
  if (d < exact) return d;
  const large = exact + Math.floor((Math.log(d / exact) / Math.log(T5_MAX_DISTANCE / exact)) * (buckets - exact));
  return Math.min(large, buckets - 1);
}

/** The nearest distance in the last bucket (of the side of keys behind, bidirectional). */
function t5LastFrom(bidirectional) {
  const last = bidirectional ? T5_BUCKETS / 2 - 1 : T5_BUCKETS - 1;
  let d = 0;
  while (t5Bucket(d, bidirectional) < last) d++;
  return d;
}

const CFG = {
  layers: rope.layers, dModel: rope.dModel, heads: rope.heads, headDim, pairs: headDim / 2,
  steps: o.train.steps, trainLength: o.train.trainLength, copyPositions: 2 * o.train.trainLength + 1,
  chance: 1 / (rope.vocab - 2), ftSteps: o.fineTune.steps, ftMultiple: o.fineTune.multiple,
  ftLength: o.fineTune.multiple * o.train.trainLength,
  batch: rope.batch, lr: rope.lr, warmupSteps: rope.warmupSteps, weightDecay: rope.weightDecay,
  seeds: 1 + o.seeds.length,
};

/** The figure a claim's key names. */
export function resolve(key) {
  const p = key.split('.');
  switch (p[0]) {
    case 'cfg':
      if (p[1] === 'theta') return theta(Number(p[2]));
      if (p[1] === 'copyPositions' && p[2]) return 2 * Number(p[2]) * o.train.trainLength + 1;
      if (p[1] === 'maxAngle') return (o.train.trainLength - 1) * theta(Number(p[2]));
      assert.ok(Object.hasOwn(CFG, p[1]), `unknown key ${key}`);
      return CFG[p[1]];
    case 'acc':
      return line(p[1], p[2], p[3], Number(p[4]), p[5]);
    case 'accrange': {
      const tuned = p[2] === 'tuned';
      const [metric, multiple, stat] = p.slice(tuned ? 3 : 2);
      const names = tuned ? o.scalings.map((s) => `rope~${s}`) : o.encodings.map((e) => e.encoding);
      const values = names.map((n) => line(p[1], n, metric, Number(multiple)));
      return stat === 'min' ? Math.min(...values) : Math.max(...values);
    }
    case 'pos':
      return positions(p[1], p[2], p[3], p[4]);
    case 'att':
      return attention(p[1], p[2], p[3], Number(p[4]));
    case 'learned':
      return learned(p[1], p.slice(2).join('.'));
    case 't5': {
      if (p[1] === 'bucketOf') return t5Bucket(Number(p[2]));
      if (p[1] === 'lastFrom') {
        assert.ok(['causal', 'bidirectional'].includes(p[2]), `unknown key ${key}`);
        return t5LastFrom(p[2] === 'bidirectional');
      }
      if (p[1] === 'lastBefore') return t5LastFrom(false) - 1;
      const top = Math.max(...Array.from({ length: Number(p[2]) }, (_, d) => t5Bucket(d)));
      return p[1] === 'trained' ? top : top + 1;
    }
    case 'xpos': {
      assert.equal(p[1], 'factor', `unknown key ${key}`);
      const { scaleBase, dModel, heads } = results.runs.find((r) => r.encoding === 'xpos').options;
      const hd = dModel / heads, zeta = (2 * Number(p[2]) + 0.4 * hd) / (1.4 * hd);
      return zeta ** (Number(p[3]) / scaleBase);
    }
    default:
      throw new Error(`unknown key ${key}`);
  }
}

/** Does `text` (e.g. "0.84", "15%", "33") state `value` rounded to as many decimals as it shows? */
export function states(text, value) {
  const m = text.trim().match(/^(\d+)(?:\.(\d+))?\s*%?$/);
  if (!m || !Number.isFinite(value)) return false;
  const decimals = m[2]?.length ?? 0;
  return Number(value.toFixed(decimals)) === Number(text.replace('%', ''));
}

/** The claims of the page: [{ lang, key, text }], and every data-claim found anywhere. */
function claims() {
  const out = [];
  for (const [, lang, body] of html.matchAll(/<p lang="(en|zh-CN)">([\s\S]*?)<\/p>/g))
    for (const [, key, text] of body.matchAll(/<span data-claim="([^"]+)">([^<]*)<\/span>/g)) out.push({ lang, key, text });
  return { out, all: [...html.matchAll(/data-claim="([^"]+)"/g)].length };
}

const section = (id) => {
  const start = html.indexOf(`<section id="${id}">`);
  assert.ok(start >= 0, `section ${id}`);
  return html.slice(start, html.indexOf('</section>', start));
};

test('the comparison rounds as the text does and rejects a wrong digit', () => {
  assert.ok(states('0.84', 0.8412) && states('0.70', 0.6953) && states('1.00', 0.9999) && states('15%', 15.36) && states('15\u00a0%', 15.36) && states('33', 33));
  assert.ok(!states('0.83', 0.8412) && !states('0.6', 0.66) && !states('16', 15) && !states('about 5', 5));
  assert.throws(() => resolve('cfg.nothing'), /unknown key/);
  assert.throws(() => resolve('acc.kback.rope.token.3'), /multiple 3/);
  assert.throws(() => resolve('att.kback.rope.stripeNothing.4'), /unknown key/);
  assert.throws(() => resolve('pos.kback.rope.nothing'), /unknown key/);
  assert.throws(() => resolve('pos.kback.rope.last.3'), /multiple 3/);
  assert.throws(() => resolve('t5.lastFrom.sideways'), /unknown key/);
  // T5's last bucket begins before max_distance: causal at 113, bidirectional at |Δ| = 91
  assert.deepEqual([resolve('t5.lastFrom.causal'), resolve('t5.lastBefore.causal'), resolve('t5.lastFrom.bidirectional'), resolve('t5.bucketOf.112')], [113, 112, 91, 30]);
});

test('every data-claim of the page stands in an English or Chinese paragraph', () => {
  const { out, all } = claims();
  assert.ok(out.length >= 100, `the lab's claims are marked (found ${out.length})`);
  assert.equal(out.length, all, 'no data-claim outside a <p lang> paragraph');
});

test('every claim equals its figure of web/lab/results.json', () => {
  const wrong = [];
  for (const { lang, key, text } of claims().out) {
    const value = resolve(key);
    if (!states(text, value)) wrong.push(`${key} (${lang}): the text says ${text}, the file gives ${value}`);
  }
  assert.deepEqual(wrong, []);
});

test('English and Chinese cite the same figures', () => {
  // the figure, not its typography: English sets a space before %, Chinese none
  const by = (lang) => claims().out.filter((c) => c.lang === lang).map((c) => `${c.key} = ${c.text.replace(/\s+%/, '%')}`).sort();
  assert.deepEqual(by('zh-CN'), by('en'));
});

test('the lab sections cite no decimal or percentage outside a claim or a formula', () => {
  for (const id of ['lab', 'other-encodings']) {
    for (const [, lang, body] of section(id).matchAll(/<p lang="(en|zh-CN)">([\s\S]*?)<\/p>/g)) {
      const text = body
        .replace(/<span data-claim="[^"]+">[^<]*<\/span>/g, ' ')
        .replace(/<math[\s\S]*?<\/math>/g, ' ')
        .replace(/<a [^>]*>[\s\S]*?<\/a>/g, ' ')
        .replace(/<[^>]+>/g, ' ');
      const loose = text.match(/\d+\.\d+|\d+\s*%/g);
      assert.equal(loose, null, `#${id} (${lang}) cites ${loose} without a data-claim`);
    }
  }
});
