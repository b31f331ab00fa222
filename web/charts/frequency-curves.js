// frequency-curves.js: seed 000 #5, chosen PE dimensions against position
// (d_model = 64, 512 positions; dims 18, 19 oscillate fast, dims 54, 55 slowly).
import { lineChart, palette } from './common.js';

export default {
  kind: 'frequency-curves',
  title: 'PE value against position for chosen dimensions',
  params: [
    { name: 'dim', label: 'd_model', type: 'int', min: 4, max: 1024, step: 2, value: 64 },
    { name: 'length', label: 'positions', type: 'int', min: 2, max: 4096, value: 512 },
    { name: 'low', label: 'low dim pair', type: 'int', min: 0, max: 1022, step: 2, value: 18 },
    { name: 'high', label: 'high dim pair', type: 'int', min: 0, max: 1022, step: 2, value: 54 },
    { name: 'base', label: 'base', type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: 'position', y: 'PE value' });
    const view = {
      update({ dim, length, low, high, base }) {
        low = Math.min(low, dim - 2);
        high = Math.min(high, dim - 2);
        const table = pe.sinusoidal(length, dim, { base });
        const dims = [low, low + 1, high, high + 1];
        chart.data.datasets = dims.map((d, i) => ({
          label: `${i < 2 ? 'low' : 'high'} dim ${d} (${d % 2 ? 'cos' : 'sin'})`,
          data: Array.from({ length }, (_, p) => ({ x: p, y: table[p * dim + d] })),
          borderColor: palette[i],
          borderDash: i < 2 ? [] : [6, 4],
        }));
        chart.update();
        const turns = (d) => ((length - 1) * base ** (-d / dim)) / (2 * Math.PI);
        view.readout = `Over ${length} positions dim ${low} turns ${turns(low).toFixed(1)} times, dim ${high} ${turns(high).toFixed(2)} times.`;
        return {
          columns: ['position', ...dims.map((d) => `dim ${d}`)],
          rows: Array.from({ length }, (_, p) => [p, ...dims.map((d) => table[p * dim + d])]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
