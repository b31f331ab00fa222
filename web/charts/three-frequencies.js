// three-frequencies.js: PE(pos) = [sin(pos), sin(pos/10), sin(pos/100)]: the slower components
// separate positions 2 and 8, which sin(pos) alone nearly confuses (single-frequency.js).
// With d = 6 and base 1000, θ_i = 1000^(-2i/6) = 1, 1/10, 1/100, so the sin columns 0, 2, 4
// of pe.sinusoidal are exactly the post's three components.
import { canvasIn, pointLabels, palette, sig, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const DIM = 6, BASE = 1000, SIN_COLS = [0, 2, 4];

const M = messages({
  en: {
    listSep: ', ',
    tooltip: '{label}: {value}',
    colComponent: 'component',
    title: 'Three frequencies: PE(m) = [sin m, sin(m/10), sin(m/100)]',
    a: 'position A',
    b: 'position B',
    xTitle: 'component',
    yTitle: 'value',
    ariaLabel: 'Bars: PE({a}) = {va}, PE({b}) = {vb}',
    readout: 'PE({a}) ≈ {va} and PE({b}) ≈ {vb}; the components differ by {gaps}.',
    noticeSlow: 'The slower components tell positions {a} and {b} apart where sin m alone barely does.',
    noticeFast: 'Here the fastest component already separates positions {a} and {b}; the slower ones add distance on top.',
    how: 'The bars are the sin columns (0, 2, 4) of one row of a sinusoidal table of width 6 with base 1000, whose three pairs have θ = 1, 1/10 and 1/100 exactly; the values are float32.',
  },
  zh: {
    listSep: '、',
    tooltip: '{label}：{value}',
    colComponent: '分量',
    title: '三个频率：PE(m) = [sin m, sin(m/10), sin(m/100)]',
    a: '位置 A',
    b: '位置 B',
    xTitle: '分量',
    yTitle: '取值',
    ariaLabel: '柱状图：PE({a}) = {va}，PE({b}) = {vb}',
    readout: 'PE({a}) ≈ {va}，PE({b}) ≈ {vb}；各分量分别相差 {gaps}。',
    noticeSlow: '单靠 sin m 几乎分不开位置 {a} 和 {b}，较慢的分量把它们区分开了。',
    noticeFast: '这里最快的分量已经能区分位置 {a} 和 {b}，较慢的分量又拉开了距离。',
    how: '柱子是一张宽 6、底数 1000 的正弦位置编码表中某一行的 sin 列（第 0、2、4 列），这张表的三对频率恰好是 θ = 1、1/10 和 1/100；数值为 float32。',
  },
});

/** The gaps between two rows as the readout prints them: from the three-decimal values it shows, so they add up. */
const shownGaps = (va, vb) => va.map((x, i) => Math.abs(Number(x.toFixed(3)) - Number(vb[i].toFixed(3))).toFixed(3));

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
        plugins: { tooltip: { callbacks: { label: (c) => M.tooltip.format({ label: c.dataset.label, value: c.raw }) } } },
        scales: {
          x: { title: { display: true, text: () => String(M.xTitle) } },
          y: { min: -1.2, max: 1.2, afterBuildTicks: (axis) => { axis.ticks = [-1, -0.5, 0, 0.5, 1].map((value) => ({ value })); }, title: { display: true, text: () => String(M.yTitle) } },
        },
      },
    });
    chart.canvas.parentElement.classList.add('phone-tall');
    const w = pe.ropeInvFreq(DIM, { base: BASE }); // 1, 0.1, 0.01
    chart.data.labels = Array.from(w, (wi, i) => (i === 0 ? 'sin m' : `sin(m/${sig(1 / wi, 3)})`));

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
        const v = { a, b, va: fmt(va), vb: fmt(vb), gaps: shownGaps(va, vb).join(String(M.listSep)) };
        chart.canvas.setAttribute('aria-label', M.ariaLabel.format(v));
        view.notice = (gaps[0] < 0.2 && Math.max(...gaps.slice(1)) > gaps[0] ? M.noticeSlow : M.noticeFast).format(v);
        view.readout = M.readout.format(v);
        return {
          columns: ['component', 'w', `PE(${a})`, `PE(${b})`],
          heads: colHeads([M.colComponent, 'θᵢ', `PE(${a})`, `PE(${b})`]),
          rows: chart.data.labels.map((name, i) => [name, w[i], va[i], vb[i]]),
        };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
