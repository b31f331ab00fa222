// four-terms.js: what adding PE to the embeddings does to attention: q·k for H = E + P splits
// into E·E + P·P + E·P + P·E; each term for one query position against every key position.
//
// Cost: E and H (length × d) are kept while only the query moves; each term is one pe.gram
// call over length × d numbers. The sizes stop at 256 key positions (enough to see P·P depend
// on j − i alone and the cross terms stay near 0) and d = 1024 (the cross terms shrink against
// E·E and P·P as 1/√d; a larger d shrinks them further and shows nothing else).
import { lineChart, palette, dashes, lineLegend, sig, maxAbsDiff, COL, colHeads } from './common.js';
import { normalPool } from './shared/random.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    title: 'The four terms of Hₘ·Hₙ with H = E + P, for one query position m',
    query: 'query position m',
    length: 'key positions',
    dim: 'dimension d',
    scale: 'E scale σ (E = σ·N(0,1))',
    seed: 'seed',
    xTitle: 'key position n',
    yTitle: 'dot product',
    ee: 'Eₘ·Eₙ meaning–meaning',
    pp: 'Pₘ·Pₙ position–position',
    ep: 'Eₘ·Pₙ meaning–position',
    pe: 'Pₘ·Eₙ position–meaning',
    total: 'Hₘ·Hₙ  (their sum)',
    readout: 'At n = m = {i}: E·E = {ee}, P·P = {pp}; RMS over n ≠ m: E·E {eeAway}, P·P {ppAway}, E·P {epAway}, P·E {peAway}; the four terms add up to Hₘ·Hₙ within {gap}.',
    notice: 'Position–position dominates: at every key n ≠ m, Pₘ·Pₙ ({ppLo} to {ppHi}) is larger than the other three terms (at most {otherHi} in size); meaning–meaning stands out only at n = m.',
    noticeMixed: 'At this setting position–position is not the largest term at {count} of the {total} keys n ≠ m: the meaning terms are as large as the position term there.',
    how: 'E is σ·N(0, 1), drawn from the seed control, P the sinusoidal table (d = d_model), H = E + P. Each curve is the dot product of row m with every row n, with Wq = Wk = identity, so Hₘ·Hₙ stands in for the score q·k before its scaling by 1/√d. σ = 0.7071 ≈ 1/√2 makes the expected |Eₘ|² = σ²·d = d/2 = |Pₘ|². The four curves are checked to add up to Hₘ·Hₙ computed directly.',
  },
  zh: {
    title: 'H = E + P 时 Hₘ·Hₙ 的四项（固定一个 query 位置 m）',
    query: 'query 位置 m',
    length: 'key 位置数',
    dim: '维度 d',
    scale: 'E 的缩放 σ（E = σ·N(0,1)）',
    seed: '种子',
    xTitle: 'key 位置 n',
    yTitle: '内积',
    ee: 'Eₘ·Eₙ 语义-语义',
    pp: 'Pₘ·Pₙ 位置-位置',
    ep: 'Eₘ·Pₙ 语义-位置',
    pe: 'Pₘ·Eₙ 位置-语义',
    total: 'Hₘ·Hₙ（四项之和）',
    readout: '在 n = m = {i} 处：E·E = {ee}，P·P = {pp}；n ≠ m 时的均方根：E·E {eeAway}，P·P {ppAway}，E·P {epAway}，P·E {peAway}；四项之和与 Hₘ·Hₙ 相差不超过 {gap}。',
    notice: '位置-位置项占主导：在每个 n ≠ m 的 key 上，Pₘ·Pₙ（{ppLo} 到 {ppHi}）都比其余三项大（它们的绝对值至多 {otherHi}）；语义-语义项只在 n = m 处突出。',
    noticeMixed: '在当前设置下，n ≠ m 的 {total} 个 key 中有 {count} 个，位置-位置项不是最大的一项：那里语义项与位置项一样大。',
    how: 'E 取 σ·N(0, 1)，种子见上方控件；P 是正弦位置编码表（d = d_model），H = E + P。每条曲线是第 m 行与每个第 n 行的内积，取 Wq = Wk = 单位矩阵，所以 Hₘ·Hₙ 代表尚未乘以 1/√d 的得分 q·k。σ = 0.7071 ≈ 1/√2，使 |Eₘ|² 的期望 σ²·d 等于 d/2，即 |Pₘ|²。四条曲线之和与直接算出的 Hₘ·Hₙ 核对一致。',
  },
});

export default {
  kind: 'four-terms',
  messages: M,
  title: M.title,
  params: [
    { name: 'query', label: M.query, type: 'int', min: 0, max: 255, value: 16 },
    { name: 'length', label: M.length, type: 'int', min: 2, max: 256, value: 64 },
    { name: 'dim', label: M.dim, type: 'int', min: 2, max: 1024, step: 2, value: 512 },
    { name: 'scale', label: M.scale, type: 'number', min: 0, max: 4, step: 'any', value: 0.7071 },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle });
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.x.ticks, { includeBounds: false });
    const normals = normalPool(pe);
    let P = null, pKey = '', E = null, H = null, ehKey = '';
    const view = {
      update({ query, length, dim, scale, seed }) {
        const i = Math.min(query, length - 1);
        if (pKey !== `${length},${dim}`) (P = pe.sinusoidal(length, dim)), (pKey = `${length},${dim}`);
        if (ehKey !== `${length},${dim},${seed},${scale},${pKey}`) {
          // E = σ·N and H = E + P, stored as float32 as a model would store them
          const N = normals(length * dim, seed);
          E = new Float32Array(length * dim);
          H = new Float32Array(length * dim);
          for (let k = 0; k < E.length; k++) (E[k] = N[k] * scale), (H[k] = E[k] + P[k]);
          ehKey = `${length},${dim},${seed},${scale},${pKey}`;
        }
        const row = (X) => X.subarray(i * dim, (i + 1) * dim);
        // each term is row i of one matrix dotted with every row of another: one pe.gram call
        const EE = pe.gram(row(E), E, dim), PP = pe.gram(row(P), P, dim), EP = pe.gram(row(E), P, dim);
        const PE = pe.gram(row(P), E, dim), total = pe.gram(row(H), H, dim);
        const terms = [
          [String(M.ee), EE],
          [String(M.pp), PP],
          [String(M.ep), EP],
          [String(M.pe), PE],
        ];
        const sum = total.map((_, j) => terms.reduce((s, [, t]) => s + t[j], 0));
        const gap = maxAbsDiff(total, sum);
        const pts = length <= 128 ? 2 : 0;
        chart.data.datasets = [
          ...terms.map(([label, t], n) => ({
            label, data: Array.from(t, (y, x) => ({ x, y })), borderColor: palette[n],
            backgroundColor: palette[n], borderDash: dashes[n], pointRadius: pts,
          })),
          {
            label: String(M.total), data: Array.from(total, (y, x) => ({ x, y })), borderColor: palette[6],
            backgroundColor: palette[6], borderDash: dashes[4], borderWidth: 1, pointRadius: 0,
          },
        ];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        // Typical size of each term away from the query itself, where E·E and P·P peak.
        const away = terms.map(([, t]) => Math.sqrt(t.reduce((s, v, j) => s + (j === i ? 0 : v * v), 0) / (length - 1)));
        // Does position–position beat the other three terms at every key but the query itself?
        let ppLo = Infinity, ppHi = -Infinity, otherHi = 0, count = 0;
        for (let j = 0; j < length; j++) {
          if (j === i) continue;
          const other = Math.max(Math.abs(EE[j]), Math.abs(EP[j]), Math.abs(PE[j]));
          ppLo = Math.min(ppLo, PP[j]);
          ppHi = Math.max(ppHi, PP[j]);
          otherHi = Math.max(otherHi, other);
          if (!(PP[j] > other)) count++;
        }
        view.notice = length < 2 ? '' : (count ? M.noticeMixed : M.notice).format({
          ppLo: sig(ppLo, 3), ppHi: sig(ppHi, 3), otherHi: sig(otherHi, 3), count, total: length - 1,
        });
        view.readout = M.readout.format({
          i, ee: sig(EE[i], 4), pp: sig(PP[i], 4),
          eeAway: sig(away[0], 3), ppAway: sig(away[1], 3), epAway: sig(away[2], 3), peAway: sig(away[3], 3), gap: sig(gap, 2),
        });
        return {
          columns: ['key position n', 'E_m·E_n', 'P_m·P_n', 'E_m·P_n', 'P_m·E_n', 'H_m·H_n'],
          heads: colHeads([COL.keyPositionN, 'Eₘ·Eₙ', 'Pₘ·Pₙ', 'Eₘ·Pₙ', 'Pₘ·Eₙ', 'Hₘ·Hₙ']),
          rows: Array.from(total, (h, j) => [j, ...terms.map(([, t]) => t[j]), h]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
