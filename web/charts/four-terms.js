// four-terms.js: seed 002 #6, q·k for H = E + P splits into E·E + P·P + E·P + P·E;
// each term (pe.gram) for one query position against every key position.
import { lineChart, palette, dashes, lineLegend, sig, maxAbsDiff } from './common.js';

export default {
  kind: 'four-terms',
  title: 'The four terms of H_i·H_j with H = E + P, for one query position i',
  params: [
    { name: 'query', label: 'query position i', type: 'int', min: 0, max: 511, value: 16 },
    { name: 'length', label: 'key positions', type: 'int', min: 2, max: 512, value: 64 },
    { name: 'dim', label: 'dimension d', type: 'int', min: 2, max: 2048, step: 2, value: 512 },
    { name: 'scale', label: 'E scale s (E = s·N(0,1))', type: 'number', min: 0, max: 4, step: 'any', value: 0.7071 },
    { name: 'seed', label: 'seed', type: 'int', min: 0, max: 1000, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: 'key position j', y: 'dot product' });
    chart.options.plugins.legend = lineLegend;
    chart.options.scales.x.ticks = { includeBounds: false };
    // E, P and H change only with these four controls; moving the query reuses them.
    let key = '', E, P, H;
    const view = {
      update({ query, length, dim, scale, seed }) {
        const i = Math.min(query, length - 1);
        if (key !== `${length},${dim},${scale},${seed}`) {
          key = `${length},${dim},${scale},${seed}`;
          E = pe.randomNormal(length * dim, seed);
          for (let j = 0; j < E.length; j++) E[j] *= scale;
          P = pe.sinusoidal(length, dim);
          H = E.map((e, j) => e + P[j]);
        }
        const row = (M) => M.subarray(i * dim, (i + 1) * dim);
        const terms = [
          ['E_i·E_j  meaning–meaning', pe.gram(row(E), E, dim)],
          ['P_i·P_j  position–position', pe.gram(row(P), P, dim)],
          ['E_i·P_j  meaning–position', pe.gram(row(E), P, dim)],
          ['P_i·E_j  position–meaning', pe.gram(row(P), E, dim)],
        ];
        const total = pe.gram(row(H), H, dim);
        const sum = total.map((_, j) => terms.reduce((s, [, t]) => s + t[j], 0));
        const gap = maxAbsDiff(total, sum);
        const pts = length <= 128 ? 2 : 0;
        chart.data.datasets = [
          ...terms.map(([label, t], n) => ({
            label, data: Array.from(t, (y, x) => ({ x, y })), borderColor: palette[n],
            backgroundColor: palette[n], borderDash: dashes[n], pointRadius: pts,
          })),
          {
            label: 'H_i·H_j  (their sum)', data: Array.from(total, (y, x) => ({ x, y })), borderColor: palette[6],
            backgroundColor: palette[6], borderDash: dashes[4], borderWidth: 1, pointRadius: 0,
          },
        ];
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = length - 1;
        chart.update();
        // Typical size of each term away from the query itself, where E·E and P·P peak.
        const away = terms.map(([, t]) => Math.sqrt(t.reduce((s, v, j) => s + (j === i ? 0 : v * v), 0) / (length - 1)));
        view.readout = `At j = i = ${i}: E·E = ${sig(terms[0][1][i], 4)}, P·P = ${sig(terms[1][1][i], 4)}; ` +
          `RMS over j ≠ i: E·E ${sig(away[0], 3)}, P·P ${sig(away[1], 3)}, E·P ${sig(away[2], 3)}, P·E ${sig(away[3], 3)}; ` +
          `the four terms add up to H_i·H_j within ${sig(gap, 2)}.`;
        return {
          columns: ['key position j', 'E_i·E_j', 'P_i·P_j', 'E_i·P_j', 'P_i·E_j', 'H_i·H_j'],
          rows: Array.from(total, (h, j) => [j, ...terms.map(([, t]) => t[j]), h]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
