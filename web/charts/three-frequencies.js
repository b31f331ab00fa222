// three-frequencies.js: PE(pos) = [sin(pos), sin(pos/10), sin(pos/100)]: the slower components
// separate positions 2 and 8, which sin(pos) alone nearly confuses (single-frequency.js).
// With d = 6 and base 1000, w_i = 1000^(-2i/6) = 1, 1/10, 1/100, so the sin columns 0, 2, 4
// of pe.sinusoidal are exactly the post's three components.
import { canvasIn, pointLabels, palette, sig } from './common.js';
import { messages } from '../host/i18n.js';

const DIM = 6, BASE = 1000, SIN_COLS = [0, 2, 4];

const M = messages({
  en: {
    title: 'Three frequencies: PE(pos) = [sin(pos), sin(pos/10), sin(pos/100)]',
    a: 'position A',
    b: 'position B',
    xTitle: 'component',
    yTitle: 'value',
    ariaLabel: 'Bars: PE({a}) = {va}, PE({b}) = {vb}',
    readout: 'PE({a}) ≈ {va} and PE({b}) ≈ {vb}: the components differ by {gaps}, so the slower ones tell the positions apart where sin(pos) alone barely does.',
  },
  zh: {
    title: '三个频率：PE(pos) = [sin(pos), sin(pos/10), sin(pos/100)]',
    a: '位置 A',
    b: '位置 B',
    xTitle: '分量',
    yTitle: '取值',
    ariaLabel: '柱状图：PE({a}) = {va}，PE({b}) = {vb}',
    readout: 'PE({a}) ≈ {va}，PE({b}) ≈ {vb}：各分量分别相差 {gaps}；单靠 sin(pos) 几乎分不开的两个位置，由较慢的分量区分开了。',
  },
});

export default {
  kind: 'three-frequencies',
  messages: M,
  title: M.title,
  params: [
    { name: 'a', label: M.a, type: 'int', min: 0, max: 1000, value: 2 },
    { name: 'b', label: M.b, type: 'int', min: 0, max: 1000, value: 8 },
  ],
  mount(el, { pe, Chart }) {
    const chart = new Chart(canvasIn(el, 2.2), {
      type: 'bar',
      data: { labels: [], datasets: [] },
      plugins: [pointLabels],
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${c.raw}` } } },
        scales: {
          x: { title: { display: true, text: () => String(M.xTitle) } },
          y: { min: -1.2, max: 1.2, afterBuildTicks: (axis) => { axis.ticks = [-1, -0.5, 0, 0.5, 1].map((value) => ({ value })); }, title: { display: true, text: () => String(M.yTitle) } },
        },
      },
    });
    chart.canvas.parentElement.classList.add('phone-tall');
    const w = pe.ropeInvFreq(DIM, { base: BASE }); // 1, 0.1, 0.01
    chart.data.labels = Array.from(w, (wi, i) => (i === 0 ? 'sin(pos)' : `sin(pos/${sig(1 / wi, 3)})`));

    const view = {
      update({ a, b }) {
        const vec = (p) => {
          const row = pe.sinusoidal(1, DIM, { base: BASE, start: p });
          return SIN_COLS.map((c) => row[c]);
        };
        const va = vec(a), vb = vec(b);
        chart.data.datasets = [[a, va], [b, vb]].map(([p, v], k) => ({
          label: `PE(${p})`,
          data: v,
          pointLabels: v.map((x) => x.toFixed(3)),
          backgroundColor: palette[k],
          labelColor: palette[k],
        }));
        chart.update();
        const fmt = (v) => `[${v.map((x) => x.toFixed(3)).join(', ')}]`;
        const gaps = va.map((x, i) => Math.abs(x - vb[i]));
        const v = { a, b, va: fmt(va), vb: fmt(vb), gaps: gaps.map((g) => sig(g, 2)).join(', ') };
        chart.canvas.setAttribute('aria-label', M.ariaLabel.format(v));
        view.readout = M.readout.format(v);
        return {
          columns: ['component', 'w', `PE(${a})`, `PE(${b})`],
          rows: chart.data.labels.map((name, i) => [name, w[i], va[i], vb[i]]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
