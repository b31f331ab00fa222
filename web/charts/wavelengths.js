// wavelengths.js: the wavelength 2π / w_i of every pair, w_i = base^(-2i/d): a
// straight line on a log axis, from 2π for pair 0 up towards (never reaching) 2π·base.
import { lineChart, palette, sig, pointArrays, lazyRows, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const TAU = 2 * Math.PI;

const M = messages({
  en: {
    title: 'Wavelength of each (sin, cos) pair, in positions',
    base: 'base',
    xTitle: 'pair i (dims 2i, 2i+1)',
    yTitle: 'wavelength Tᵢ = 2π/θᵢ (positions)',
    tooltip: '{label}: {value}',
    waves: 'wavelength Tᵢ of pair i',
    first: '2π (pair 0)',
    limit: '2π · base (the limit)',
    ariaLabel: 'Wavelength against pair on a log axis, from {first} to {last}',
    readout: 'Pair 0: {first} positions (2π); pair {pair}: {last} = 2π·base^((d−2)/d), {pct} % of 2π·base = {limit}.',
    notice: 'The wavelengths climb in equal steps on this log axis: each pair turns a fixed factor slower than the one before, from 2π towards 2π·base; the last pair’s wavelength is 2π·base divided once by that factor.',
    how: 'θᵢ = base^(−2i/d) for i = 0 … d/2 − 1 and Tᵢ = 2π/θᵢ, computed in float64 (RoPE uses the same formula, with d its head dim). The y axis is logarithmic, so equal ratios show as equal steps.',
  },
  zh: {
    title: '每一对 (sin, cos) 的波长（以位置计）',
    base: '底数 base',
    xTitle: '第 i 对（维度 2i, 2i+1）',
    yTitle: '波长 Tᵢ = 2π/θᵢ（位置数）',
    tooltip: '{label}：{value}',
    waves: '第 i 对的波长 Tᵢ',
    first: '2π（第 0 对）',
    limit: '2π · base（上限）',
    ariaLabel: '各维度对的波长（对数坐标），从 {first} 到 {last}',
    readout: '第 0 对：{first} 个位置（2π）；第 {pair} 对：{last} = 2π·base^((d−2)/d)，是 2π·base = {limit} 的 {pct}%。',
    notice: '在对数坐标上，波长按相等的步长上升：每一对都比前一对慢一个固定的倍数（公比），从 2π 向 2π·base 攀升；最后一对的波长等于 2π·base 再除以一个公比。',
    how: '对 i = 0 … d/2 − 1 计算 θᵢ = base^(−2i/d) 和 Tᵢ = 2π/θᵢ，全部用 float64（RoPE 用的也是这个公式，只是 d 取头维度）。纵轴是对数坐标，相同的倍数显示为相同的步长。',
  },
});

export default {
  kind: 'wavelengths',
  messages: M,
  title: M.title,
  params: [
    { name: 'dim', label: 'd_model', type: 'int', min: 2, max: 1024, step: 2, value: 512 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, yType: 'logarithmic', aspect: 2.2 });
    chart.canvas.parentElement.classList.add('phone-tall');
    chart.options.plugins.tooltip = { callbacks: { label: (c) => M.tooltip.format({ label: c.dataset.label, value: sig(c.parsed.y, 5) }) } };
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
            label: String(M.waves),
            data: points('waves', waves.length, (i) => waves[i]),
            borderColor: palette[0], backgroundColor: palette[0], borderWidth: 2,
            pointRadius: w.length > 64 ? 0 : 3,
          },
          flat('2π', TAU, String(M.first), palette[2]),
          flat('2π base', TAU * base, String(M.limit), palette[1]),
        ];
        // the limit keeps its whole part (2π·10000 = 62832, not 62830, which reads as a wrong product)
        const whole = Math.max(4, Math.floor(Math.log10(TAU * base)) + 1);
        const v = { first: sig(waves[0], 4), last: sig(waves[last], 4), pair: last, limit: sig(TAU * base, whole),
          pct: sig((100 * waves[last]) / (TAU * base), 2) };
        chart.canvas.setAttribute('aria-label', M.ariaLabel.format(v));
        chart.update();
        view.notice = String(M.notice);
        view.readout = M.readout.format(v);
        return lazyRows({ columns: ['pair i', 'w_i', 'wavelength'], heads: colHeads([COL.pairI, 'θᵢ', COL.wavelength]) }, () => waves.map((y, i) => [i, w[i], y]));
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
