// t5-buckets.js: T5's relative positions (Hugging Face modeling_t5.py _relative_position_bucket):
// a learned scalar per bucket per head, with one bucket per offset near the query and
// logarithmically wider buckets up to max_distance, past which every key shares the last one.
// Bidirectional (the encoder) gives each sign half the buckets; causal (a decoder) all of them
// to keys behind (pe.t5Bucket).
import { lineChart, palette, dashes, lineLegend, pointArrays } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'T5 relative-position buckets: which learned bias a key gets, by its offset from the query',
    numBuckets: 'buckets',
    maxDistance: 'max_distance',
    span: 'offsets shown (±)',
    xTitle: 'offset of the key from the query (key − query)',
    yTitle: 'bucket',
    bidirectional: 'bidirectional (encoder)',
    causal: 'causal (decoder)',
    readout: '{buckets} buckets, max_distance {maxDistance}: bidirectional, offsets −{exactB}…{exactB} each have a bucket of their own and the rest share {sharedB} log-spaced ones per side; causal, keys 0…{exactC} back have their own and keys {maxDistance} or more back all share bucket {lastC}.',
  },
  zh: {
    title: 'T5 的相对位置分桶：key 根据相对 query 的偏移得到哪个可学习的偏置',
    numBuckets: '桶数',
    maxDistance: 'max_distance',
    span: '显示的偏移（±）',
    xTitle: 'key 相对 query 的偏移（key − query）',
    yTitle: '桶',
    bidirectional: '双向（编码器）',
    causal: '因果（解码器）',
    readout: '{buckets} 个桶，max_distance 为 {maxDistance}：双向时，偏移 −{exactB}…{exactB} 各有自己的桶，其余每一侧共用 {sharedB} 个按对数间隔的桶；因果时，往前 0…{exactC} 个位置的 key 各有自己的桶，往前 {maxDistance} 个及更远的 key 都共用第 {lastC} 个桶。',
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
        view.readout = M.readout.format({
          buckets: numBuckets, maxDistance, exactB: numBuckets / 4 - 1, sharedB: numBuckets / 4, exactC: numBuckets / 2 - 1, lastC: numBuckets - 1,
        });
        return { columns: ['offset', 'bidirectional', 'causal'], rows: rel.map((r, i) => [r, bi[i], ca[i]]) };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
