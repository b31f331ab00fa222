// binary.js: the source post's positions written in binary and drawn as points: x = bit 0,
// y = bit 1 (the xy plane), and with a third bit z = bit 2 the xz plane, where the post
// separates position 4 = (0, 0, 1) from position 0 = (0, 0, 0). The post writes the fifth point
// as (0, 0, 1), i.e. least significant bit first, which is pe.binary's column order.
import { scatterChart, palette, ink, drawnFrom, sig, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const M = messages({
  en: {
    listSep: ', ',
    colBit: 'bit {j}',
    title: 'Positions as binary codes, one point per code',
    bits: 'bits',
    length: 'positions',
    xBit0: 'x = bit 0',
    yBit1: 'y = bit 1',
    zBit2: 'z = bit 2',
    plane: '{plane} plane',
    order: 'order of positions',
    points: 'positions',
    pointLabel: 'pos {list}',
    // a panel's accessible name: '{plane} plane: ' and each point, joined by '; '
    aria: '{plane} plane: {list}',
    ariaPoint: 'positions {list} at ({x}, {y})',
    ariaSep: '; ',
    and: ' and ',
    shared: 'positions {list} share ({x}, {y})',
    sharedSep: ', ',
    xyShared: 'in the xy plane {list}',
    xyOwn: 'every position has its own point in the xy plane',
    readoutOne: '{length} position in {bits} bits: {xy}; ',
    readoutMany: '{length} positions in {bits} bits: {xy}; ',
    readoutLiftOne: 'bit 2 lifts position 4 off the xy plane, to {code4}, and ',
    readoutLift: 'bit 2 lifts positions {up} off the xy plane (position 4 to {code4}), and ',
    readoutLiftMany: 'bit 2 lifts positions {up} off the xy plane (positions {list4} to {code4}: the code repeats every {most} positions), and ',
    readoutDistinct: 'only {unique} of the {length} full codes are distinct ({bits} bits hold at most {most} positions).',
    readoutAllDistinct: 'all {length} full codes are distinct ({bits} bits hold at most {most} positions).',
    readoutSingle: 'one full code ({bits} bits hold at most {most} positions).',
    noticeJump: 'Neighbouring positions are not neighbouring points: {a} → {b} flips {flips} bits and jumps {dist}, while 0 → 1 moves 1.',
    noticeShared: 'Positions {list} get the same code: {bits} bits name only {most} positions, so a longer sequence needs another bit.',
    noticeSteps: 'Each bit is a square wave: bit j flips every 2ʲ positions.',
    how: 'Position p is written in binary, bit j = ⌊p / 2ʲ⌋ mod 2, one column per bit. The left panel plots (bit 0, bit 1), the right one (bit 0, bit 2); the dashed line visits the positions in order, and a larger dot is a point several positions share. A jump is the straight-line (Euclidean) distance between two full codes: √(number of bits that differ).',
  },
  zh: {
    listSep: '、',
    colBit: '第 {j} 位',
    title: '把位置写成二进制编码，每个编码一个点',
    bits: '比特数',
    length: '位置数',
    xBit0: 'x = 第 0 位',
    yBit1: 'y = 第 1 位',
    zBit2: 'z = 第 2 位',
    plane: '{plane} 平面',
    order: '位置的先后顺序',
    points: '位置',
    pointLabel: '位置 {list}',
    aria: '{plane} 平面：{list}',
    ariaPoint: '位置 {list} 在 ({x}, {y})',
    ariaSep: '；',
    and: ' 和 ',
    shared: '位置 {list} 重合于点 ({x}, {y})',
    sharedSep: '，',
    xyShared: '在 xy 平面上{list}',
    xyOwn: '在 xy 平面上每个位置都有自己的点',
    readoutOne: '{length} 个位置，{bits} 个比特：{xy}；',
    readoutMany: '{length} 个位置，{bits} 个比特：{xy}；',
    readoutLiftOne: '第 2 位把位置 4 抬离 xy 平面，抬到 {code4}，',
    readoutLift: '第 2 位把位置 {up} 抬离 xy 平面（位置 4 抬到 {code4}），',
    readoutLiftMany: '第 2 位把位置 {up} 抬离 xy 平面（位置 {list4} 抬到 {code4}：编码每隔 {most} 个位置重复一次），',
    readoutDistinct: '{length} 个完整编码里只有 {unique} 种不同的取值（{bits} 个比特最多表示 {most} 个位置）。',
    readoutAllDistinct: '{length} 个完整编码两两不同（{bits} 个比特最多表示 {most} 个位置）。',
    readoutSingle: '只有一个完整编码（{bits} 个比特最多表示 {most} 个位置）。',
    noticeJump: '相邻的位置并不是相邻的点：从 {a} 到 {b} 要翻转 {flips} 个比特，跳了 {dist}，而从 0 到 1 只移动 1。',
    noticeShared: '位置 {list} 得到同一个编码：{bits} 个比特只能表示 {most} 个位置，序列再长就得再加一个比特。',
    noticeSteps: '每个比特都是一个方波：第 j 位每隔 2ʲ 个位置翻转一次。',
    how: '把位置 p 写成二进制，第 j 位为 ⌊p / 2ʲ⌋ mod 2，每个比特一列。左图画（第 0 位，第 1 位），右图画（第 0 位，第 2 位）；虚线按位置顺序依次连接各点，较大的点表示几个位置共用的点。“跳了多远”指两个完整编码之间的直线（欧氏）距离，即不同比特个数的平方根。',
  },
});
/** 0, 4, 8 and 12 (0、4、8 和 12): a list of positions as prose writes it. */
const listOf = (xs) => (xs.length < 3 ? xs.join(String(M.and)) : xs.slice(0, -1).join(String(M.listSep)) + String(M.and) + xs.at(-1));


const PANELS = [
  { plane: 'xy', a: 0, b: 1, x: M.xBit0, y: M.yBit1 },
  { plane: 'xz', a: 0, b: 2, x: M.xBit0, y: M.zBit2 },
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

/** The positions of the first full code that several positions share, or []. */
function sharedCode(codes, n, bits) {
  const at = new Map();
  for (let p = 0; p < n; p++) {
    const key = codes.subarray(p * bits, (p + 1) * bits).join(',');
    if (!at.has(key)) at.set(key, []);
    at.get(key).push(p);
  }
  return [...at.values()].find((g) => g.length > 1) ?? [];
}

export default {
  kind: 'binary',
  messages: M,
  title: M.title,
  params: [
    { name: 'bits', label: M.bits, type: 'int', min: 2, max: 3, value: 3 },
    { name: 'length', label: M.length, type: 'int', min: 1, max: 16, value: 5 },
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
      chart.options.plugins.title = { display: true, text: () => M.plane.format(panel) };
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
          const pointLabels = pts.map((g) => M.pointLabel.format({ list: g.positions.join(String(M.listSep)) }));
          const list = pts.map((g) => M.ariaPoint.format({ ...g, list: listOf(g.positions) })).join(String(M.ariaSep));
          const label = M.aria.format({ plane: panel.plane, list });
          // A panel that would show what it shows already is left as it is (one bit more or
          // less leaves the xy plane alone).
          if (c.last.same([order, pts, pointLabels, label], params)) continue;
          c.last.keep(true);
          chart.data.datasets = [
            {
              label: String(M.order),
              data: order,
              showLine: true,
              borderColor: '#9aa3b2',
              borderDash: [4, 4],
              borderWidth: 1,
              pointRadius: 0,
              pointHitRadius: 0,
            },
            {
              label: String(M.points),
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
        const v = { length, bits, unique, code4: bits > 2 && length > 4 ? code(4) : '', most: 2 ** bits };
        // past 2^bits positions the code wraps, so position 4 shares its point with 4 + 2^bits, ...
        const lifted = Array.from({ length }, (_, p) => p).filter((p) => v.code4 && code(p) === v.code4);
        v.list4 = listOf(lifted);
        // every position with bit 2 set leaves the xy plane, not position 4 alone: runs such as 4–7, 12–15
        const runs = [];
        for (let p = 0; p < length; p++) {
          if (!v.code4 || codes[p * bits + 2] !== 1) continue;
          const last = runs.at(-1);
          if (last && last[1] === p - 1) last[1] = p;
          else runs.push([p, p]);
        }
        v.up = listOf(runs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)));
        v.xy = shared.length
          ? M.xyShared.format({ list: shared.map((g) => M.shared.format({ ...g, list: listOf(g.positions) })).join(String(M.sharedSep)) })
          : String(M.xyOwn);
        // The largest step between neighbours: a carry flips every bit it passes.
        let jump = null;
        for (let p = 0; p + 1 < length; p++) {
          let flips = 0;
          for (let j = 0; j < bits; j++) flips += codes[p * bits + j] !== codes[(p + 1) * bits + j];
          if (!jump || flips > jump.flips) jump = { a: p, b: p + 1, flips, dist: sig(Math.sqrt(flips), 3) };
        }
        view.notice = unique < length
          ? M.noticeShared.format({ ...v, list: listOf(sharedCode(codes, length, bits)) })
          : jump && jump.flips > 1 ? M.noticeJump.format(jump) : String(M.noticeSteps);
        view.readout = (length > 1 ? M.readoutMany : M.readoutOne).format(v) + (v.code4 ? (lifted.length > 1 ? M.readoutLiftMany : v.up === '4' ? M.readoutLiftOne : M.readoutLift).format(v) : '') + (length === 1 ? M.readoutSingle : unique < length ? M.readoutDistinct : M.readoutAllDistinct).format(v);
        return {
          columns: ['position', ...Array.from({ length: bits }, (_, j) => `bit ${j}`)],
          heads: colHeads([COL.position, ...Array.from({ length: bits }, (_, j) => M.colBit.format({ j }))]),
          rows: Array.from({ length }, (_, p) => [p, ...codes.subarray(p * bits, (p + 1) * bits)]),
        };
      },
      destroy: () => charts.forEach((c) => c.chart.destroy()),
    };
    return view;
  },
};
