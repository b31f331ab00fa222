// wavelengths.js: seed 002 #3, the wavelength 2π / w_i of every pair, w_i = base^(-2i/d): a
// straight line on a log axis, from 2π for pair 0 up towards (never reaching) 2π·base.
import { lineChart, palette, sig, pointArrays, lazyRows } from './common.js';
import { L, tr } from '../host/i18n.js';

const TAU = 2 * Math.PI;

export default {
  kind: 'wavelengths',
  title: L('Wavelength of each (sin, cos) pair, in positions', '每一对 (sin, cos) 的波长（以位置计）'),
  params: [
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 1024, step: 2, value: 512 },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: L('pair i (dims 2i, 2i+1)', '第 i 对（维度 2i, 2i+1）'), y: L('wavelength 2π / w_i (positions)', '波长 2π / w_i（位置数）'), yType: 'logarithmic', aspect: 2.2 });
    chart.canvas.parentElement.classList.add('phone-tall');
    chart.options.plugins.tooltip = { callbacks: { label: (c) => `${c.dataset.label}: ${sig(c.parsed.y, 5)}` } };
    chart.options.scales.y.min = 1; // keeps the 2π line clear of the axis
    const points = pointArrays();
    const view = {
      update({ dim, base }) {
        const w = pe.ropeInvFreq(dim, { base });
        const waves = Array.from(w, (wi) => TAU / wi);
        const last = w.length - 1;
        const flat = (key, y, label, color) => ({
          label, data: points(key, 2, () => y, (i) => i * Math.max(last, 1)), borderColor: color, borderDash: [6, 4], borderWidth: 1, pointRadius: 0,
        });
        chart.options.scales.x.max = Math.max(last, 1);
        chart.data.datasets = [
          {
            label: tr('wavelength of pair i', '第 i 对的波长'),
            data: points('waves', waves.length, (i) => waves[i]),
            borderColor: palette[0], backgroundColor: palette[0], borderWidth: 2,
            pointRadius: w.length > 64 ? 0 : 3,
          },
          flat('2π', TAU, tr('2π (pair 0)', '2π（第 0 对）'), palette[2]),
          flat('2π base', TAU * base, tr('2π · base (the limit)', '2π · base（上限）'), palette[1]),
        ];
        chart.canvas.setAttribute('aria-label', tr(`Wavelength against pair on a log axis, from ${sig(waves[0], 4)} to ${sig(waves[last], 4)}`,
          `各对的波长（对数坐标），从 ${sig(waves[0], 4)} 到 ${sig(waves[last], 4)}`));
        chart.update();
        view.readout = tr(`Pair 0 has the shortest wavelength, ${sig(waves[0], 4)} positions (2π); pair ${last} the longest, ` +
          `${sig(waves[last], 4)} = 2π·base^((d−2)/d), just under 2π·base = ${sig(TAU * base, 4)}.`,
          `第 0 对的波长最短，为 ${sig(waves[0], 4)} 个位置（2π）；第 ${last} 对最长，` +
          `${sig(waves[last], 4)} = 2π·base^((d−2)/d)，略小于 2π·base = ${sig(TAU * base, 4)}。`);
        return lazyRows({ columns: ['pair i', 'w_i', 'wavelength'] }, () => waves.map((y, i) => [i, w[i], y]));
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
