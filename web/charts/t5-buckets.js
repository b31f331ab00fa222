// t5-buckets.js: T5's relative positions (Hugging Face modeling_t5.py _relative_position_bucket):
// a learned scalar per bucket per head, with one bucket per offset near the query and
// logarithmically wider buckets up to max_distance; the last one begins a little before
// max_distance and takes every key beyond.
// Bidirectional (the encoder) gives each sign half the buckets; causal (a decoder) all of them
// to keys behind (pe.t5Bucket).
import { lineChart, palette, dashes, lineLegend, pointArrays, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    colOffset: 'offset n − m',
    title: 'T5 relative-position buckets: which learned bias a key gets, by its offset from the query',
    numBuckets: 'buckets',
    maxDistance: 'max_distance',
    span: 'offsets shown (±)',
    xTitle: 'offset Δ = n − m of the key (at n) from the query (at m)',
    yTitle: 'bucket',
    bidirectional: 'bidirectional (encoder)',
    causal: 'causal (decoder)',
    readout: '{buckets} buckets, max_distance {maxDistance}: bidirectional, offsets −{exactB}…{exactB} each have a bucket of their own, the rest share {sharedB} log-spaced ones per side, and every offset with |Δ| ≥ {fromB} shares its side\'s last bucket; causal, keys 0…{exactC} back have their own and keys {fromC} or more back all share bucket {lastC}.',
    noticeUntrained: 'Trained on {length} tokens, as the lab\'s models of “repeat the token 2 places back” are, a causal model sees distances 0 to {seen} only, so only buckets 0 to {trained} learn. Buckets {first} to {lastC} cover only distances of {length} or more, which it never meets, so they keep their random initial values. The last bucket begins {fromC} places back (max_distance is {maxDistance}). Only training on sequences of {fromLength} tokens or more reaches it; then every distance falls in a trained bucket.',
    noticeTrained: 'Trained on {length} tokens, a causal model already reaches the last bucket ({lastC}), which takes every key from {fromC} places back on: every distance falls in a bucket it trained.',
    how: 'The bucket of each offset by T5\'s rule (Hugging Face modeling_t5.py, _relative_position_bucket), in float64: half the buckets (bidirectional) or all of them (causal) are exact offsets, the rest cover offsets up to max_distance at logarithmic spacing, rounded down; the last bucket starts a little before max_distance and takes every offset beyond. Each bucket holds one learned number per head, added to the score: to q·k/√d in the lab\'s models, to q·k in T5 itself, which leaves out the division by √d and lets the initialisation of its query weights take its place. A bucket learns only from keys whose offset falls in it during training; the lab\'s T5 models (32 buckets, max_distance 128, causal) start each at a small random value.',
  },
  zh: {
    colOffset: '偏移 n − m',
    title: 'T5 的相对位置分桶：按 key 相对 query 的偏移，决定它取哪个可学习的偏置',
    numBuckets: '桶数',
    maxDistance: 'max_distance',
    span: '显示的偏移（±）',
    xTitle: 'key（在 n）相对 query（在 m）的偏移 Δ = n − m',
    yTitle: '桶',
    bidirectional: '双向（编码器）',
    causal: '因果（解码器）',
    readout: '{buckets} 个桶，max_distance 为 {maxDistance}：双向时，偏移 −{exactB}…{exactB} 各有自己的桶，其余每一侧共用 {sharedB} 个按对数间隔的桶，|Δ| ≥ {fromB} 的偏移都落进各自一侧的最后一个桶；因果时，往前 0…{exactC} 个位置的 key 各有自己的桶，往前 {fromC} 个及更远的 key 都共用第 {lastC} 个桶。',
    noticeUntrained: '因果模型若像实验台上“重复往前第 2 个 token”的模型那样只在 {length} 个 token 上训练，就只见过 0 到 {seen} 的距离，因此只有第 0 到 {trained} 个桶得到训练。第 {first}–{lastC} 个桶只对应往前 {length} 个及更远的距离，训练中从未遇到，所以一直保持随机的初始值。最后一个桶从往前 {fromC} 个位置开始（max_distance 为 {maxDistance}），只有在至少 {fromLength} 个 token 的序列上训练才能用到它；到那时，每个距离才都落在训练过的桶里。',
    noticeTrained: '在 {length} 个 token 上训练时，因果模型已经用到了最后一个桶（第 {lastC} 个），往前 {fromC} 个位置及更远的 key 都落在这个桶里：每个距离都落在训练过的桶里。',
    how: '每个偏移按 T5 的规则（Hugging Face modeling_t5.py 中的 _relative_position_bucket）以 float64 计算所属的桶：一半的桶（双向）或全部的桶（因果）对应单个偏移，其余的桶以对数间隔覆盖到 max_distance（向下取整）；最后一个桶的起点略小于 max_distance，更远的偏移都归入这个桶。每个桶为每个头存一个可学习的数，加到得分上：实验台上的模型加到 q·k/√d 上，T5 本身则加到 q·k 上，它不除以 √d，而是把这一缩放交给 query 权重的初始化。一个桶只有在训练中有 key 的偏移落进它时才会学习；实验台上的 T5 模型（32 个桶，max_distance 128，因果）把每个桶初始化为一个小的随机值。',
  },
});

export default {
  kind: 't5-buckets',
  messages: M,
  title: M.title,
  params: [
    { name: 'numBuckets', label: M.numBuckets, type: 'int', min: 4, max: 128, step: 2, value: 32 },
    { name: 'maxDistance', label: M.maxDistance, type: 'int', min: 17, max: 1024, value: 128 },
    { name: 'span', label: M.span, type: 'int', min: 8, max: 2048, value: 200 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.options.plugins.legend = lineLegend;
    const pts = pointArrays();
    const view = {
      update({ numBuckets, maxDistance, span }) {
        const rel = Array.from({ length: 2 * span + 1 }, (_, i) => i - span);
        const bi = pe.t5Bucket(rel, { bidirectional: true, numBuckets, maxDistance });
        const ca = pe.t5Bucket(rel, { bidirectional: false, numBuckets, maxDistance });
        chart.data.datasets = [
          { label: String(M.bidirectional), data: pts(0, rel.length, (i) => bi[i], (i) => rel[i]), borderColor: palette[0], borderWidth: 2, stepped: true },
          { label: String(M.causal), data: pts(1, rel.length, (i) => ca[i], (i) => rel[i]), borderColor: palette[1], borderDash: dashes[1], borderWidth: 2, stepped: true },
        ];
        chart.options.scales.x.min = -span;
        chart.options.scales.x.max = span;
        chart.update();
        // the lab's k-back training length: which causal buckets its distances reach
        const length = 16;
        const seen = pe.t5Bucket(Array.from({ length }, (_, d) => -d), { bidirectional: false, numBuckets, maxDistance });
        const trained = Math.max(...seen);
        // where the last bucket begins: the nearest distance in it (it begins by max_distance)
        const back = Array.from({ length: maxDistance + 1 }, (_, d) => -d);
        const from = (bidirectional, last) => pe.t5Bucket(back, { bidirectional, numBuckets, maxDistance }).indexOf(last);
        const fromC = from(false, numBuckets - 1), fromB = from(true, numBuckets / 2 - 1);
        view.notice = (trained < numBuckets - 1 ? M.noticeUntrained : M.noticeTrained).format({
          length, seen: length - 1, trained, first: trained + 1, lastC: numBuckets - 1, maxDistance, fromC, fromLength: fromC + 1,
        });
        view.readout = M.readout.format({
          buckets: numBuckets, maxDistance, exactB: numBuckets / 4 - 1, sharedB: numBuckets / 4, exactC: numBuckets / 2 - 1, lastC: numBuckets - 1, fromB, fromC,
        });
        return { columns: ['offset', 'bidirectional', 'causal'], heads: colHeads([M.colOffset, M.bidirectional, M.causal]), rows: rel.map((r, i) => [r, bi[i], ca[i]]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
