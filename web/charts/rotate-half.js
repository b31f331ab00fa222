// rotate-half.js: which dimensions RoPE pairs up: 'interleaved' (2i, 2i+1) as
// in RoFormer and Meta's LLaMA, 'half' (i, i + d/2) as in Hugging Face's rotate_half; the same
// vector through both (pe.applyRope), and the permutation that makes them agree.
import { plainCanvas, palette, sig, maxAbsDiff, ink, chartFont, textScale, refresh, COL, colHeads } from './common.js';
import { messages } from '../host/i18n.js';

const INPUTS = ['x_j = j', 'random (seed)'];
let captions = 0; // ids for the captions of several rotate-half charts on one page
// style.css's phone width: there the table puts the two outputs side by side, right after x
const NARROW = '(max-width: 480px)';

const M = messages({
  en: {
    colOf: '{how}: {what}',
    title: 'Which dimensions rotate together: interleaved pairs and rotate_half pairs',
    dim: 'head dim d',
    position: 'position',
    input: 'vector x',
    random: 'random (seed)',
    seed: 'seed',
    base: 'base',
    diagram: 'Diagram: arcs link the dimensions each RoPE style rotates together, pair index on each arc',
    interleaved: 'interleaved',
    interleavedPairs: 'pairs (2i, 2i+1)',
    dimRow: 'dim',
    half: 'half',
    halfPairs: 'pairs (i, i + d/2)',
    caption: 'x at position {position} through both styles (θᵢ = {base}^(−2i/{dim}))',
    dimJ: 'dim j',
    halfStyle: 'half (rotate_half)',
    partner: 'partner',
    pairI: 'pair i',
    output: 'output',
    readout: 'At position {position} the two styles give outputs up to {apart} apart, ' +
      'both keep the length (|x| = {nx}; after the half style {nh}, after the interleaved style {ni}), and after moving dims (2i, 2i+1) to ' +
      '(i, i + d/2) {permAgree}.',
    permSame: 'they are identical',
    permClose: 'they agree to within {permDiff}',
    notice: 'Same x, same angles, different pairs: the two styles give different outputs, and agree exactly once the dimensions are reordered.',
    noticeStill: 'At position 0 nothing turns: both styles give x itself, whatever their pairs.',
    how: 'Both styles rotate pair i by position × θᵢ with θᵢ = base^(−2i/d), in single precision; the interleaved style pairs dims (2i, 2i+1), the half style dims (i, i + d/2) (Hugging Face\'s rotate_half). The readout\'s last comparison applies the half style to x with its dims reordered and compares it with the interleaved output reordered the same way.',
  },
  zh: {
    colOf: '{how}：{what}',
    title: '哪些维度一起旋转：交错配对与 rotate_half 配对',
    dim: '头维度 d',
    position: '位置',
    input: '向量 x',
    random: '随机（种子）',
    seed: '种子',
    base: '底数 base',
    diagram: '示意图：弧线连接每种配对方式下一起旋转的维度，弧上标出对的序号',
    interleaved: '交错',
    interleavedPairs: '配对 (2i, 2i+1)',
    dimRow: '维度',
    half: '前后两半',
    halfPairs: '配对 (i, i + d/2)',
    caption: '位置 {position} 的 x 分别经过两种配对方式（θᵢ = {base}^(−2i/{dim})）',
    dimJ: '维度 j',
    halfStyle: '前后两半（rotate_half）',
    partner: '配对维度',
    pairI: '第 i 对',
    output: '输出',
    readout: '在位置 {position}，两种配对方式的输出最多相差 {apart}，' +
      '两者都保持长度不变（|x| = {nx}，前后两半配对的输出长度为 {nh}，交错配对为 {ni}）；把维度 (2i, 2i+1) 移到 ' +
      '(i, i + d/2) 之后，{permAgree}。',
    permSame: '两者完全相同（差为 0）',
    permClose: '两者相差不超过 {permDiff}',
    notice: '同一个 x、同样的角度、不同的配对：两种配对方式的输出不同，而把维度重新排列之后就完全一致。',
    noticeStill: '在位置 0 什么都不转：不管怎样配对，两种方式的输出都是 x 本身。',
    how: '两种配对方式都把第 i 对旋转“位置 × θᵢ”，θᵢ = base^(−2i/d)，单精度计算；交错配对把维度 (2i, 2i+1) 配成一对，前后两半配对把维度 (i, i + d/2) 配成一对（即 Hugging Face 的 rotate_half）。图下文字的最后一项比较，把前后两半配对用在重排维度后的 x 上，再与按同样方式重排的交错配对输出比较。',
  },
});

function drawPairs(ctx, w, h, dim) {
  const half = dim / 2;
  // the sizes follow the text (lettering.js): on the page k = 1
  const k = textScale();
  const left = Math.min(112 * k, w * 0.26), cell = (w - left - 4) / dim;
  const boxH = 24 * k, top = 18 * k, upRise = 26 * k;
  const boxTop = top + upRise + 6, boxBottom = boxTop + boxH;
  const downRise = Math.max(20 * k, h - boxBottom - 22 * k);
  const cx = (j) => left + (j + 0.5) * cell;
  const small = chartFont('label', Math.max(9, Math.min(12 * k, cell * 0.45)));
  const colour = ink();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = small;
  ctx.lineWidth = 1;
  for (let j = 0; j < dim; j++) {
    ctx.strokeStyle = colour.muted;
    ctx.strokeRect(left + j * cell + 1, boxTop, cell - 2, boxH);
    ctx.fillStyle = colour.fg;
    ctx.fillText(String(j), cx(j), boxTop + boxH / 2);
  }
  // A cubic with both controls at depth c peaks at 0.75·c, hence the 4/3.
  const arc = (a, b, y0, rise, i, dash) => {
    const ty = y0 + (rise * 4) / 3;
    ctx.strokeStyle = palette[i % palette.length];
    ctx.lineWidth = 1.5;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(cx(a), y0);
    ctx.bezierCurveTo(cx(a), ty, cx(b), ty, cx(b), y0);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = colour.fg;
    ctx.font = small;
    ctx.fillText(String(i), (cx(a) + cx(b)) / 2, y0 + rise + Math.sign(rise) * 8 * k);
  };
  for (let i = 0; i < half; i++) arc(2 * i, 2 * i + 1, boxTop, -upRise, i, []);
  for (let i = 0; i < half; i++) arc(i, i + half, boxBottom, downRise - 12 * k, i, [5, 3]);
  ctx.textAlign = 'left';
  const label = (text, sub, y) => {
    ctx.fillStyle = colour.fg;
    ctx.font = chartFont('bold');
    ctx.fillText(text, 0, y - 7 * k);
    ctx.fillStyle = colour.muted;
    ctx.font = chartFont('tick');
    ctx.fillText(sub, 0, y + 8 * k);
  };
  label(String(M.interleaved), String(M.interleavedPairs), top + 8 * k);
  label(String(M.dimRow), '', boxTop + boxH / 2 + 7 * k);
  label(String(M.half), String(M.halfPairs), boxBottom + downRise * 0.6);
}

export default {
  kind: 'rotate-half',
  messages: M,
  title: M.title,
  params: [
    { name: 'dim', label: M.dim, type: 'int', min: 2, max: 32, step: 2, value: 8 },
    { name: 'position', label: M.position, type: 'int', min: 0, max: 4096, value: 1 },
    { name: 'input', label: M.input, type: 'select', options: INPUTS, value: INPUTS[0],
      optionLabels: { [INPUTS[1]]: M.random } },
    { name: 'seed', label: M.seed, type: 'int', min: 0, max: 1000, value: 0 },
    { name: 'base', label: M.base, type: 'number', min: 1, max: 1000000, step: 'any', value: 10000 },
  ],
  mount(el, { pe }) {
    const diagram = plainCanvas(el, 4, M.diagram);
    // the caption stays above the box that scrolls sideways on a phone, not scrolled away with the table
    const caption = document.createElement('p');
    caption.className = 'table-caption';
    caption.id = `rotate-half-caption-${++captions}`;
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono';
    table.setAttribute('aria-labelledby', caption.id);
    scroll.append(table);
    el.append(caption, scroll);
    const narrow = typeof matchMedia === 'function' ? matchMedia(NARROW) : null;
    const reorder = () => refresh(el);
    narrow?.addEventListener?.('change', reorder);
    const view = {
      update({ dim, position, input, seed, base }) {
        const half = dim / 2;
        const x = input === INPUTS[0] ? Float32Array.from({ length: dim }, (_, j) => j) : pe.randomNormal(dim, seed);
        const opts = { heads: 1, headDim: dim, positions: [position], base };
        const yHalf = pe.applyRope(x, { ...opts, style: 'half' });
        const yInter = pe.applyRope(x, { ...opts, style: 'interleaved' });
        // Moving dims (2i, 2i+1) to (i, i + d/2) turns one style into the other, which is why
        // converted LLaMA checkpoints permute the rows of W_q and W_k.
        const perm = Array.from({ length: dim }, (_, j) => (j < half ? 2 * j : 2 * (j - half) + 1));
        const yPermHalf = pe.applyRope(perm.map((p) => x[p]), { ...opts, style: 'half' });
        const permDiff = maxAbsDiff(yPermHalf, perm.map((p) => yInter[p]));
        const [nx, nh, ni] = [x, yHalf, yInter].map((v) => Math.sqrt(pe.gram(v, v, dim)[0]));
        diagram.paint((ctx, w, h) => drawPairs(ctx, w, h, dim));
        const partnerHalf = (j) => (j < half ? j + half : j - half), partnerInter = (j) => j ^ 1;
        const pairHalf = (j) => j % half, pairInter = (j) => j >> 1;
        const rows = Array.from(x, (v, j) => [j, v, partnerHalf(j), pairHalf(j), yHalf[j], partnerInter(j), pairInter(j), yInter[j]]);
        const columns = ['dim j', 'x_j', 'half: partner', 'half: pair i', 'half: output', 'interleaved: partner', 'interleaved: pair i', 'interleaved: output'];
        const f = (v) => v.toFixed(6);
        const vars = {
          position, base: sig(base, 6), dim, apart: sig(maxAbsDiff(yHalf, yInter), 4),
          nx: sig(nx, 7), nh: sig(nh, 7), ni: sig(ni, 7), permDiff: sig(permDiff, 2),
        };
        vars.permAgree = (permDiff === 0 ? M.permSame : M.permClose).format(vars);
        const sub = `<th scope="col">${M.partner}</th><th scope="col">${M.pairI}</th>`;
        const out = `<th scope="col">${M.output}</th>`;
        const lead = `<thead><tr><th rowspan="2" scope="col">${M.dimJ}</th><th rowspan="2" scope="col">xⱼ</th>`;
        caption.textContent = M.caption.format(vars);
        // The section compares the two outputs: a phone, which shows about four columns, gets them
        // next to each other after x, and the partners and pair indices past them; a wider
        // screen reads each style's three columns together.
        table.innerHTML = narrow?.matches
          ? lead + `<th colspan="2" scope="colgroup">${M.output}</th><th colspan="2" scope="colgroup">${M.halfStyle}</th>` +
            `<th colspan="2" scope="colgroup">${M.interleaved}</th></tr><tr><th scope="col">${M.half}</th><th scope="col">${M.interleaved}</th>${sub}${sub}</tr></thead><tbody>` +
            rows.map(([j, v, ph, ih, oh, pi, ii, oi]) =>
              `<tr><th scope="row">${j}</th><td>${f(v)}</td><td>${f(oh)}</td><td>${f(oi)}</td><td>${ph}</td><td>${ih}</td><td>${pi}</td><td>${ii}</td></tr>`).join('') +
            '</tbody>'
          : lead + `<th colspan="3" scope="colgroup">${M.halfStyle}</th><th colspan="3" scope="colgroup">${M.interleaved}</th></tr>` +
            `<tr>${sub}${out}${sub}${out}</tr></thead><tbody>` +
            rows.map(([j, v, ph, ih, oh, pi, ii, oi]) =>
              `<tr><th scope="row">${j}</th><td>${f(v)}</td><td>${ph}</td><td>${ih}</td><td>${f(oh)}</td><td>${pi}</td><td>${ii}</td><td>${f(oi)}</td></tr>`).join('') +
            '</tbody>';
        view.notice = (position === 0 ? M.noticeStill : M.notice).format({});
        view.readout = M.readout.format(vars);
        return { columns, heads: colHeads([M.dimJ, 'xⱼ', ...[M.half, M.interleaved].flatMap((how) => [M.partner, M.pairI, M.output].map((what) => M.colOf.format({ how, what })))]), rows };
      },
      destroy: () => (narrow?.removeEventListener?.('change', reorder), diagram.destroy()),
    };
    return view;
  },
};
