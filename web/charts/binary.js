// binary.js: seed 000 #2, positions written in binary and drawn as points: x = bit 0, y = bit 1
// (the xy plane), and with a third bit z = bit 2 the xz plane, where the post separates
// position 4 = (0, 0, 1) from position 0 = (0, 0, 0). The post writes the fifth point as
// (0, 0, 1), i.e. least significant bit first, which is pe.binary's column order.
import { scatterChart, palette, ink, drawnFrom } from './common.js';
import { L, tr } from '../host/i18n.js';

const PANELS = [
  { plane: 'xy', a: 0, b: 1, x: L('x = bit 0', 'x = 第 0 位'), y: L('y = bit 1', 'y = 第 1 位') },
  { plane: 'xz', a: 0, b: 2, x: L('x = bit 0', 'x = 第 0 位'), y: L('z = bit 2', 'z = 第 2 位') },
];

// Positions that share a code share a point; their numbers are listed together on it.
function groups(codes, n, bits, a, b) {
  const at = new Map();
  for (let p = 0; p < n; p++) {
    const x = codes[p * bits + a], y = b < bits ? codes[p * bits + b] : 0;
    const key = `${x},${y}`;
    if (!at.has(key)) at.set(key, { x, y, positions: [] });
    at.get(key).positions.push(p);
  }
  return [...at.values()];
}

export default {
  kind: 'binary',
  title: L('Positions as binary codes, one point per code', '把位置写成二进制编码，每个编码一个点'),
  params: [
    { name: 'bits', label: L('bits', '比特数'), type: 'int', min: 2, max: 3, value: 3 },
    { name: 'length', label: L('positions', '位置数'), type: 'int', min: 1, max: 16, value: 5 },
  ],
  mount(el, { pe, Chart }) {
    const wrap = document.createElement('div');
    wrap.className = 'binary-panels';
    el.append(wrap);
    const charts = PANELS.map((panel) => {
      const box = document.createElement('div');
      box.className = 'binary-panel';
      wrap.append(box);
      const chart = scatterChart(box, Chart, { x: panel.x, y: panel.y, aspect: 1.1 });
      for (const axis of ['x', 'y']) {
        Object.assign(chart.options.scales[axis], { min: -0.45, max: 1.6, ticks: { stepSize: 1, callback: (v) => (v === 0 || v === 1 ? v : '') } });
      }
      chart.options.plugins.title = { display: true, text: () => tr(`${panel.plane} plane`, `${panel.plane} 平面`) };
      chart.options.plugins.tooltip = { callbacks: { label: (c) => c.dataset.pointLabels?.[c.dataIndex] ?? '' } };
      // No legend or fill is shown: those plugins are off, not only hidden (a hidden legend
      // still builds its items, resolving every dataset's style, at every update).
      Object.assign(chart.options.plugins, { legend: false, filler: false });
      return { panel, box, chart, last: drawnFrom() };
    });

    const view = {
      update(params) {
        const { bits, length } = params;
        const codes = pe.binary(length, bits);
        for (const c of charts) {
          const { panel, box, chart } = c;
          const hidden = panel.b >= bits;
          if (box.hidden !== hidden) box.hidden = hidden;
          if (hidden) continue;
          const pts = groups(codes, length, bits, panel.a, panel.b);
          // The order the positions come in: it jumps about, the codes are not continuous.
          const order = Array.from({ length }, (_, p) => ({ x: codes[p * bits + panel.a], y: codes[p * bits + panel.b] }));
          const pointLabels = pts.map((g) => tr(`pos ${g.positions.join(', ')}`, `位置 ${g.positions.join(', ')}`));
          const label = tr(
            `${panel.plane} plane: ${pts.map((g) => `positions ${g.positions.join(' and ')} at (${g.x}, ${g.y})`).join('; ')}`,
            `${panel.plane} 平面：${pts.map((g) => `位置 ${g.positions.join(' 和 ')} 在 (${g.x}, ${g.y})`).join('；')}`);
          // A panel that would show what it shows already is left as it is (one bit more or
          // less leaves the xy plane alone).
          if (c.last.same([order, pts, pointLabels, label], params)) continue;
          c.last.keep(true);
          chart.data.datasets = [
            {
              label: tr('order of positions', '位置的先后顺序'),
              data: order,
              showLine: true,
              borderColor: '#9aa3b2',
              borderDash: [4, 4],
              borderWidth: 1,
              pointRadius: 0,
              pointHitRadius: 0,
            },
            {
              label: tr('positions', '位置'),
              data: pts.map(({ x, y }) => ({ x, y })),
              pointLabels,
              labelDy: 10,
              pointRadius: pts.map((g) => (g.positions.length > 1 ? 9 : 6)),
              backgroundColor: pts.map((g) => (g.positions.length > 1 ? palette[1] : palette[0])),
              borderColor: ink().bg,
              borderWidth: 1.5,
            },
          ];
          chart.canvas.setAttribute('aria-label', label);
          chart.update();
        }
        const full = groups(codes, length, bits, 0, 1);
        const shared = full.filter((g) => g.positions.length > 1);
        const code = (p) => `(${Array.from(codes.subarray(p * bits, (p + 1) * bits)).join(', ')})`;
        const unique = new Set(Array.from({ length }, (_, p) => code(p))).size;
        const xy = shared.length
          ? tr(`in the xy plane ${shared.map((g) => `positions ${g.positions.join(' and ')} share (${g.x}, ${g.y})`).join(', ')}`,
            `在 xy 平面上${shared.map((g) => `位置 ${g.positions.join(' 和 ')} 共用点 (${g.x}, ${g.y})`).join('，')}`)
          : tr('every position has its own point in the xy plane', '在 xy 平面上每个位置都有自己的点');
        view.readout = tr(`${length} position${length > 1 ? 's' : ''} in ${bits} bits: ${xy}; ` +
          (bits > 2 && length > 4 ? `bit 2 lifts position 4 to ${code(4)}, and ` : '') +
          `${unique} of the ${length} full codes are distinct (${bits} bits hold at most ${2 ** bits} positions).`,
          `${length} 个位置，${bits} 个比特：${xy}；` +
          (bits > 2 && length > 4 ? `第 2 位把位置 4 抬到 ${code(4)}，` : '') +
          `${length} 个完整编码中有 ${unique} 个互不相同（${bits} 个比特最多表示 ${2 ** bits} 个位置）。`);
        return {
          columns: ['position', ...Array.from({ length: bits }, (_, j) => `bit ${j}`)],
          rows: Array.from({ length }, (_, p) => [p, ...codes.subarray(p * bits, (p + 1) * bits)]),
        };
      },
      destroy: () => charts.forEach((c) => c.chart.destroy()),
    };
    return view;
  },
};
