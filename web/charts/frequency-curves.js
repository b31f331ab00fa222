// frequency-curves.js: seed 000 #5, chosen PE dimensions against position
// (d_model = 64, 512 positions; dims 18, 19 oscillate fast, dims 54, 55 slowly).
// Dims are chosen as pairs (2i, 2i+1), the seed's choice: sin and cos of one frequency.
// d_model stops at 512 (the base Transformer's): the frequencies base^(−2i/d) run from 1 to about
// 1/base whatever d is, so a larger d only adds frequencies between those 512 already has, while
// its table (length × d values, of which four columns are drawn) grows with it.
import { lineChart, palette, sig, pointArrays, lazyRows, drawnFrom } from './common.js';
import { L, tr } from '../host/i18n.js';

export default {
  kind: 'frequency-curves',
  title: L('PE value against position for chosen dimensions', '所选维度的位置编码值随位置的变化'),
  params: [
    { name: 'dim', label: 'd_model', type: 'int', min: 4, max: 512, step: 2, value: 64 },
    { name: 'length', label: L('positions', '位置数'), type: 'int', min: 2, max: 4096, value: 512 },
    { name: 'low', label: L('low dims (2i, 2i+1) from', '低维度 (2i, 2i+1) 起始于'), type: 'int', min: 0, max: 510, step: 2, value: 18 },
    { name: 'high', label: L('high dims from', '高维度起始于'), type: 'int', min: 0, max: 510, step: 2, value: 54 },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: L('position index', '位置索引'), y: L('embedding value', '编码值') });
    chart.canvas.parentElement.classList.add('phone-tall');
    Object.assign(chart.options.scales.y, { min: -1.05, max: 1.05, afterBuildTicks: (axis) => { axis.ticks = [-1, -0.5, 0, 0.5, 1].map((value) => ({ value })); } });
    // the table, kept while only the chosen dims move
    let table = null, w = null, key = '';
    const points = pointArrays();
    const last = drawnFrom();
    const view = {
      update(params) {
        const { dim, length, base } = params;
        let { low, high } = params;
        const clamped = low > dim - 2 || high > dim - 2;
        low = Math.min(low, dim - 2);
        high = Math.min(high, dim - 2);
        // Past d_model − 2 a choice is clamped: moving it further changes nothing to draw.
        if (last.same([dim, length, low, high, base, clamped], params)) return last.data;
        if (key !== `${length},${dim},${base}`) {
          table = pe.sinusoidal(length, dim, { base });
          w = pe.ropeInvFreq(dim, { base });
          key = `${length},${dim},${base}`;
        }
        const dims = [low, low + 1, high, high + 1];
        chart.data.datasets = dims.map((d, i) => ({
          label: tr(`${i < 2 ? 'low' : 'high'} dim ${d} (${d % 2 ? 'cos' : 'sin'})`, `${i < 2 ? '低' : '高'}维度 ${d}(${d % 2 ? 'cos' : 'sin'})`),
          data: points(i, length, (p) => table[p * dim + d]),
          borderColor: palette[i],
          borderDash: i < 2 ? [] : [6, 4],
        }));
        chart.options.scales.x.max = length - 1;
        chart.canvas.setAttribute('aria-label', tr(`PE value against position 0 to ${length - 1} for dims ${dims.join(', ')} of d_model ${dim}`,
          `d_model = ${dim} 时维度 ${dims.join(', ')} 的位置编码值，位置 0 到 ${length - 1}`));
        chart.update();
        // Turns over the plotted range: the largest angle (length − 1)·w_i over 2π.
        const turns = (d) => ((length - 1) * w[d / 2]) / (2 * Math.PI);
        const turnText = (d) => `${sig(turns(d), 3)} ${turns(d) >= 1 ? 'turns' : 'of a turn'}`;
        view.readout = tr(`Over ${length} positions dims ${low}, ${low + 1} (w = ${sig(w[low / 2], 3)}) make ${turnText(low)}, ` +
          `dims ${high}, ${high + 1} (w = ${sig(w[high / 2], 3)}) ${turnText(high)}` +
          (clamped ? ` (a choice past d_model − 2 = ${dim - 2} was moved to it).` : '.'),
          `在 ${length} 个位置上，维度 ${low}、${low + 1}(w = ${sig(w[low / 2], 3)})转了 ${sig(turns(low), 3)} 圈，` +
          `维度 ${high}、${high + 1}(w = ${sig(w[high / 2], 3)})转了 ${sig(turns(high), 3)} 圈` +
          (clamped ? `（超过 d_model − 2 = ${dim - 2} 的选择已改为该值）。` : '。'));
        const drawn = table; // (the next redraw may replace the table)
        return last.keep(lazyRows({ columns: ['position', ...dims.map((d) => `dim ${d}`)] },
          () => Array.from({ length }, (_, p) => [p, ...dims.map((d) => drawn[p * dim + d])])));
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
