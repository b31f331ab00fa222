// model-positions.js: a real model's positions, per layer type, as its config.json sets them
// (pe.ropeConfig): every pair's wavelength after scaling against the training length L0 and the
// longest context, which pairs complete a turn within L0, the attention factor, the softmax
// scale, NoPE layers and their query temperature, mRoPE sections, and the cos/sin cache's size.
import { lineChart, palette, dashes, lineLegend, sig, logAxis, ink, intGrid, COL, colHeads } from './common.js';
import { MODEL_IDS, MODEL_LABELS, modelReader, trainingLength, freqOptions } from './shared/model.js';
import { messages, lang, t } from '../host/i18n.js';
import { download } from '../host/export.js';

const TAU = 2 * Math.PI;
const intGridLog = (lo, hi) => intGrid(lo, hi, 300, 'log');

// A small input for the mRoPE grid: two text tokens, an image of 2 × 3 patches (after merging),
// two text tokens; ids as Qwen2-VL's get_rope_index gives them: text continues from the largest
// id so far; an image's patches share t and take h, w from their row and column.
const INPUT = [['text', 2], ['image', 2, 3], ['text', 2]];
function mropeIds() {
  const ids = [];
  let next = 0;
  for (const [kind, a, b] of INPUT) {
    if (kind === 'text') for (let i = 0; i < a; i++, next++) ids.push({ kind, t: next, h: next, w: next });
    else {
      for (let r = 0; r < a; r++) for (let c = 0; c < b; c++) ids.push({ kind, t: next, h: next + r, w: next + c });
      next += Math.max(a, b);
    }
  }
  return ids;
}

const M = messages({
  en: {
    colType: 'layer type',
    title: "A model's RoPE pairs: wavelength after scaling, against its training length and context",
    model: 'model',
    xTitle: 'pair i',
    yTitle: 'wavelength Tᵢ = 2π/θᵢ (positions, log scale)',
    l0: 'L₀ = {l0} (training length)',
    max: 'context = {max}',
    curve: '{type} ({count} layers)',
    curveAll: '{type}',
    dimsPart: '{rotary} of {head} dims',
    dimsAll: 'all {head} dims',
    readType: '{type}{layers}: base {base}; the rotation is computed for {half} pairs ({dims}, {style} pairing){still}; {scaling}; attention factor {attn}, softmax scale ×{softmax}; {turning} of {half} pairs complete a turn within L₀ = {l0}{cache}.',
    readCache: '; cos/sin cache for {max} positions: {mib} MiB (float32, cos and sin of {half} pairs each)',
    readNoL0: '{type}{layers}: base {base}; the rotation is computed for {half} pairs ({dims}, {style} pairing){still}; {scaling}; attention factor {attn}, softmax scale ×{softmax}; the config names no context length.',
    readLayers: ' ({count} layers)',
    readNope: '{type}{layers}: no position encoding{temperature}.',
    readTemperature: '; queries scaled by {t1} at position 8191, {t2} at 10⁶ and {t3} at 10⁷ (Llama 4 temperature: scale {scale}, floor {floor})',
    readStill: ', {zero} of them with θ = 0, so they do not turn at all',
    still: '{type}: pairs {from}–{to}, θ = 0 (no turn)',
    readMrope: ' mRoPE sections t/h/w = {section}{interleaved}.',
    readInterleaved: ' (interleaved)',
    noScaling: 'no scaling',
    scaling: '{type} scaling',
    warnings: ' Notes on reading the config: {list}.',
    warningSep: '; ',
    error: 'This config could not be read: {message}',
    none: 'none',
    tempX: 'query position (log scale)',
    tempY: 'query temperature',
    tempTitle: 'The {type} layers{layers}, which have no RoPE: query temperature',
    tempTitle2: 'the factor each query is multiplied by; it grows with the position',
    gridCaption: 'mRoPE position ids of a small input (text, an image of 2 × 3 patches, text): sections t/h/w = {st}/{sh}/{sw} pairs, {layout}',
    gridChunked: 'each section reads one stream',
    gridInterleaved: 'pairs cycle t, h, w',
    gridToken: 'token',
    gridText: 'text',
    gridImage: 'image',
    vectors: 'Download test vectors to check your code (JSON)',
    vectorsTitle: "cos/sin at the boundary positions and a rotated q·k for every layer type, in float64 and float32: to test a runtime against (format in posenc's README)",
    half: 'half',
    interleaved: 'interleaved',
    noticeTurns: 'Pairs above the L₀ line do not complete a turn within L₀ positions: {never} of the {half} pairs of the {type} layers{zero}.',
    noticeZero: ' ({zero} of them do not turn at all)',
    noticeAllTurn: 'Every pair of every layer type completes a turn within L₀ = {l0}.',
    noticeZeroAll: 'In the {type} layers {zero} of the {half} pairs do not turn at all (θ = 0); every pair that turns completes a turn within L₀ = {l0}.',
    how: 'The page reads the config the way transformers does (rope_theta or rope_parameters, the scaling block, partial_rotary_factor, head_dim, layer types), computes each layer type\'s frequencies θᵢ after scaling and draws each pair\'s wavelength Tᵢ = 2π/θᵢ. A pair completes a turn within L₀ when Tᵢ ≤ L₀. The context is max_position_embeddings, or the scaling\'s factor × L₀ when that is larger (Qwen2.5\'s YaRN ×4: 4 × 32768); scaling that depends on the current length is taken at it. The cos/sin cache size assumes float32.',
  },
  zh: {
    colType: '层类型',
    title: '一个模型的 RoPE 维度对：缩放后的波长，与训练长度和上下文长度对比',
    model: '模型',
    xTitle: '第 i 对',
    yTitle: '波长 Tᵢ = 2π/θᵢ（位置数，对数坐标）',
    l0: 'L₀ = {l0}（训练长度）',
    max: '上下文 = {max}',
    curve: '{type}（{count} 层）',
    curveAll: '{type}',
    dimsPart: '{head} 维中的 {rotary} 维',
    dimsAll: '全部 {head} 维',
    readType: '{type}{layers}：底数 {base}；按 {half} 个维度对计算旋转（{dims}，{style}配对）{still}；{scaling}；注意力因子 {attn}，softmax 缩放 ×{softmax}；{half} 对中有 {turning} 对在 L₀ = {l0} 以内转满一圈{cache}。',
    readCache: '；{max} 个位置的 cos/sin 缓存：{mib} MiB（float32，cos 与 sin 各 {half} 对）',
    readNoL0: '{type}{layers}：底数 {base}；按 {half} 个维度对计算旋转（{dims}，{style}配对）{still}；{scaling}；注意力因子 {attn}，softmax 缩放 ×{softmax}；配置中没有给出上下文长度。',
    readLayers: '（{count} 层）',
    readNope: '{type}{layers}：没有位置编码{temperature}。',
    readTemperature: '；query 在位置 8191 乘以 {t1}，在 10⁶ 乘以 {t2}，在 10⁷ 乘以 {t3}（Llama 4 温度：scale {scale}，floor {floor}）',
    readStill: '，其中 {zero} 对 θ = 0，完全不转',
    still: '{type}：第 {from}–{to} 对，θ = 0（不转）',
    readMrope: ' mRoPE 分段 t/h/w = {section}{interleaved}。',
    readInterleaved: '（交错）',
    noScaling: '无缩放',
    scaling: '{type} 缩放',
    warnings: ' 读取配置时的说明：{list}。',
    warningSep: '；',
    error: '无法读取这个配置：{message}',
    none: '无',
    tempX: 'query 位置（对数坐标）',
    tempY: 'query 温度',
    tempTitle: '不用 RoPE 的 {type} 层{layers}：query 温度',
    tempTitle2: '每个 query 都要乘上的系数，随位置增大',
    gridCaption: '一个小输入（文本、2 × 3 个图块的图像、文本）的 mRoPE 位置编号：分段 t/h/w = {st}/{sh}/{sw} 对，{layout}',
    gridChunked: '每一段读一个流',
    gridInterleaved: '维度对按 t、h、w 轮流',
    gridToken: 'token',
    gridText: '文本',
    gridImage: '图像',
    vectors: '下载测试向量，核对你的实现（JSON）',
    vectorsTitle: '每种层类型在边界位置上的 cos/sin 以及一次旋转后的 q·k，float64 与 float32 两种精度：用来检验一个推理框架（格式见 posenc 的 README）',
    half: '前后两半',
    interleaved: '交错',
    noticeTurns: '在 L₀ 线之上的维度对，在 L₀ 个位置之内转不满一圈：{type} 层的 {half} 对中有 {never} 对{zero}。',
    noticeZero: '（其中 {zero} 对完全不转）',
    noticeAllTurn: '每种层类型的每一对都在 L₀ = {l0} 以内转满了一圈。',
    noticeZeroAll: '{type} 层的 {half} 对中有 {zero} 对完全不转（θ = 0）；转动的维度对都在 L₀ = {l0} 以内转满了一圈。',
    how: '页面按 transformers 的方式读取配置（rope_theta 或 rope_parameters、缩放部分、partial_rotary_factor、head_dim、层类型），算出每种层类型缩放后的频率 θᵢ，画出每一对的波长 Tᵢ = 2π/θᵢ。Tᵢ ≤ L₀ 的维度对在 L₀ 以内转满一圈。上下文长度取 max_position_embeddings；若缩放因子 × L₀ 更大，则取后者（例如 Qwen2.5 的 YaRN ×4：4 × 32768）。依赖当前长度的缩放按上下文长度计算。cos/sin 缓存的大小按 float32 计算。',
  },
});

/** The mRoPE grid as a table: a column per token (text or image patch), its t, h and w ids. */
function mropeTable(mrope) {
  const table = document.createElement('table');
  table.className = 'values perm-table';
  const caption = table.createCaption();
  const [st, sh, sw] = mrope.section;
  caption.textContent = M.gridCaption.format({ st, sh, sw, layout: String(mrope.interleaved ? M.gridInterleaved : M.gridChunked) });
  const ids = mropeIds();
  const head = table.createTHead().insertRow();
  head.append(Object.assign(document.createElement('th'), { textContent: String(M.gridToken) }));
  for (const id of ids) head.append(Object.assign(document.createElement('th'), { textContent: String(id.kind === 'text' ? M.gridText : M.gridImage) }));
  const body = table.createTBody();
  for (const k of ['t', 'h', 'w']) {
    const row = body.insertRow();
    row.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: k }));
    for (const id of ids) row.insertCell().textContent = String(id[k]);
  }
  return table;
}

// pe.ropeConfig's warnings. The English page shows each one's own message (what the API and
// the CLI print); the Chinese page says what it means, with the keys and numbers it names.
const WARNINGS_ZH = {
  'class-defaults': '配置文件里没有写的值，按 transformers 中 {cls} 的默认值补上（在 transformers 里加载这个文件也是如此）：{keys}',
  'class-defaults-any': '配置文件里没有写的值，按 transformers 对所有模型类型通用的默认值补上：{keys}',
  'llama3-step': 'low_freq_factor 与 high_freq_factor 都是 {f}，中间没有平滑过渡段，只有一个台阶：波长短于 {edge}（original_max_position_embeddings / low_freq_factor）的维度对保留原来的 θᵢ，其余的 θᵢ 除以 {factor}，与 transformers 和 Meta 的 apply_scaling 算法一致',
  'layers-unknown': '配置里缺少 num_hidden_layers，无法知道每种层各有几层',
  'layer-type-missing': 'layer_types 列出的某种层在配置里没有自己的 RoPE 参数块，这种层按默认 RoPE 计算',
  'rope-type-conflict': '参数块里的 rope_type 与 type 不一致；与 transformers 一样，以 rope_type 为准',
  'rope-type-legacy': 'type "su" 是 longrope 早期的名字（Phi-3），按 longrope 读取',
  'rotary-width': 'partial_rotary_factor 乘以 head_dim 得到的旋转宽度不是偶数，已按 transformers 的做法取整',
  'mrope-section-sum': 'mrope_section 各段之和与旋转宽度的维度对数不相等',
  'yarn-factor-mismatch': 'YaRN 的 factor 与 max_position_embeddings / original_max_position_embeddings 不相等；与 transformers 一样，采用显式给出的 factor',
  'longrope-length': 'longrope 的 short_factor 或 long_factor 的条目数与旋转宽度所需的维度对数不相等',
  'rope-theta-conflict': '顶层的 rope_theta 与参数块里的 rope_theta 不一致，采用参数块里的值（transformers v5 保留参数块里的值）',
  'rope-theta-outside': '参数块里没有 rope_theta，采用顶层的值（transformers v5 会把它移进参数块；只读参数块的推理框架会退回到 10000）',
  'rope-theta-missing': '配置里没有 rope_theta，采用该模型类型的默认底数',
  'rope-theta-dropped': 'rope_scaling 与 rope_parameters 同时存在且底数不同：transformers v5 保留 rope_scaling、丢弃 rope_parameters，只读 rope_parameters 的推理框架会用另一个底数',
  'rope-scaling-conflict': 'rope_scaling 与 rope_parameters 同时存在且内容不一致；与 transformers v5 一样，采用 rope_scaling',
  'partial-rotary-conflict': '顶层的 partial_rotary_factor 与参数块里的不一致，采用顶层的值（transformers 的 standardize_rope_params 会把顶层的值复制进参数块）',
};

/** A warning of pe.ropeConfig as the page's language says it. */
function warningText(w, info) {
  if (lang() !== 'zh' || !WARNINGS_ZH[w.code]) return w.message;
  if (w.code === 'class-defaults') {
    // "not in the config, taken from <where>: <key value, ...>": the keys are the config's own words
    const keys = w.message.slice(w.message.indexOf(': ') + 2);
    const cls = /transformers' (\w+) defaults/.exec(w.message)?.[1];
    return t(WARNINGS_ZH[cls ? 'class-defaults' : 'class-defaults-any'], { cls, keys });
  }
  if (w.code === 'llama3-step') {
    const s = Object.values(info.layerTypes).map((lt) => lt.scaling).find((x) => x?.type === 'llama3' && x.lowFreqFactor === x.highFreqFactor);
    if (!s) return w.message;
    return t(WARNINGS_ZH['llama3-step'], { f: s.lowFreqFactor, edge: s.originalMaxPositionEmbeddings / s.lowFreqFactor, factor: s.factor });
  }
  return WARNINGS_ZH[w.code];
}

export default {
  kind: 'model-positions',
  messages: M,
  title: M.title,
  params: [
    { name: 'model', label: M.model, type: 'select', options: MODEL_IDS, value: 'gemma-4', optionLabels: MODEL_LABELS },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, yType: 'logarithmic', aspect: 1.8 });
    chart.canvas.parentElement.classList.add('phone-legend'); // a legend of several lines on a phone
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.y, logAxis);
    // Llama 4's query temperature on its NoPE layers, over position (shown for models that have one)
    const temp = lineChart(el, Chart, { x: M.tempX, y: M.tempY, xType: 'logarithmic', aspect: 3, legend: false });
    Object.assign(temp.options.scales.x, logAxis);
    // without a title this panel reads as part of the chart above: it names its layers
    let tempLayers = null;
    temp.options.plugins.title = {
      display: true,
      text: () => (tempLayers ? [M.tempTitle.format({ type: tempLayers.type, layers: tempLayers.count ? M.readLayers.format(tempLayers) : '' }), String(M.tempTitle2)] : ''),
    };
    const tempBox = temp.canvas.parentElement;
    // mRoPE's (t, h, w) ids for a small input: text, an image, text (shown for models with mRoPE)
    const grid = document.createElement('div');
    grid.className = 'table-scroll';
    el.append(grid);
    const reader = modelReader(el, pe, 'gemma-4');
    // the conformance vectors of the model shown, as a file a runtime's tests can read
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'vectors-button';
    el.append(button);
    let shown = null;
    button.addEventListener('click', () => {
      if (!shown?.config) return;
      const json = JSON.stringify(pe.ropeVectors(shown.config), null, 1);
      download(el, `posenc-vectors-${shown.name}.json`, new Blob([json], { type: 'application/json' }));
    });
    const view = {
      update({ model }) {
        const { info, error, config } = reader.read(model);
        shown = { config, name: model };
        button.textContent = String(M.vectors);
        button.title = String(M.vectorsTitle);
        button.disabled = !!error;
        chart.data.datasets = [];
        if (error) {
          chart.update();
          view.notice = undefined;
          view.readout = M.error.format({ message: error });
          return { columns: ['layer type', 'pair', 'theta', 'wavelength'], heads: colHeads([M.colType, COL.pairI, 'θᵢ', COL.wavelength]), rows: [] };
        }
        // the context the model is for: the longest its layer types are for
        const maxPos = Math.max(0, ...Object.values(info.layerTypes).map((t) => t.contextLength ?? 0)) || null;
        const rows = [], parts = [], still = [], turns = []; // still: the pairs with θ = 0 of each type, { type, k, pairs }
        let maxHalf = 1, l0Shown = null, top = 1;
        Object.entries(info.layerTypes).forEach(([type, t], k) => {
          const count = t.layers?.length;
          const layers = count ? M.readLayers.format({ count }) : '';
          if (t.nope) {
            let temperature = '';
            if (t.temperature) {
              const { scale, floorScale, offset } = t.temperature;
              const v = pe.attentionTemperature([8191, 1e6, 1e7], { scale, floorScale, offset });
              temperature = M.readTemperature.format({ t1: sig(v[0], 4), t2: sig(v[1], 4), t3: sig(v[2], 4), scale: t.temperature.scale, floor: t.temperature.floorScale });
            }
            parts.push(M.readNope.format({ type, layers, temperature }));
            return;
          }
          const l0 = trainingLength(t, info.maxPositionEmbeddings);
          l0Shown ??= l0;
          const half = t.rotaryDim / 2;
          maxHalf = Math.max(maxHalf, half);
          const inv = pe.ropeInvFreq(t.rotaryDim, freqOptions(t, maxPos ?? l0));
          const pts = [];
          let turning = 0, zero = 0;
          const none = [];
          for (let i = 0; i < half; i++) {
            const lambda = inv[i] > 0 ? TAU / inv[i] : Infinity;
            if (l0 && lambda <= l0) turning++;
            if (inv[i] === 0) zero++, none.push(i);
            if (Number.isFinite(lambda)) pts.push({ x: i, y: lambda }), (top = Math.max(top, lambda));
            rows.push([type, i, inv[i], lambda]);
          }
          if (none.length) still.push({ type, k, pairs: none });
          if (l0) turns.push({ type, never: half - turning, half, zero, l0 });
          chart.data.datasets.push({
            label: (count ? M.curve : M.curveAll).format({ type, count }), data: pts,
            borderColor: palette[k % 6], borderDash: dashes[k % 6], borderWidth: 2,
          });
          const scaling = t.scaling ? M.scaling.format({ type: t.scaling.type }) : String(M.noScaling);
          parts.push((l0 ? M.readType : M.readNoL0).format({
            type, layers, base: t.base, dims: (t.rotaryDim === t.headDim ? M.dimsAll : M.dimsPart).format({ rotary: t.rotaryDim, head: t.headDim }), style: String(M[t.style]), scaling,
            attn: t.attentionFactor === null ? '?' : sig(t.attentionFactor, 5), softmax: sig(t.softmaxScale, 5),
            turning, half, l0, still: zero ? M.readStill.format({ zero }) : '',
            cache: maxPos ? M.readCache.format({ max: maxPos, half, mib: sig((maxPos * half * 2 * 4) / 2 ** 20, 3) }) : '',
          }) + (t.mrope ? M.readMrope.format({ section: t.mrope.section.join('/'), interleaved: t.mrope.interleaved ? String(M.readInterleaved) : '' }) : ''));
        });
        // the training length and the context, as flat lines across the pairs
        const flat = (y, label, dash) => ({ label, data: [{ x: 0, y }, { x: maxHalf - 1, y }], borderColor: ink().muted, borderDash: dash, borderWidth: 1 });
        if (l0Shown) chart.data.datasets.push(flat(l0Shown, M.l0.format({ l0: l0Shown }), [3, 6]));
        if (maxPos && maxPos !== l0Shown) chart.data.datasets.push(flat(maxPos, M.max.format({ max: maxPos }), [8, 4]));
        // pairs with θ = 0 have no wavelength: a row of marks above every finite one, in their type's colour
        top = 3 * Math.max(top, l0Shown ?? 1, maxPos ?? 1);
        chart.options.scales.y.max = still.length ? 2 * top : undefined;
        for (const { type, k, pairs } of still) {
          chart.data.datasets.push({
            label: M.still.format({ type, from: pairs[0], to: pairs[pairs.length - 1] }), data: pairs.map((x) => ({ x, y: top })),
            showLine: false, pointStyle: 'triangle', pointRadius: 3, borderColor: palette[k % 6], backgroundColor: palette[k % 6],
          });
        }
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = maxHalf - 1;
        chart.update();
        const withTemp = Object.entries(info.layerTypes).find(([, t]) => t.temperature);
        tempBox.style.display = withTemp ? '' : 'none';
        if (withTemp) {
          const { scale, floorScale, offset } = withTemp[1].temperature;
          const xs = intGridLog(1, Math.max(maxPos ?? 0, 1e7));
          const v = pe.attentionTemperature(xs, { scale, floorScale, offset });
          tempLayers = { type: withTemp[0], count: withTemp[1].layers?.length };
          temp.data.datasets = [{ label: withTemp[0], data: xs.map((x, j) => ({ x, y: v[j] })), borderColor: palette[3], borderWidth: 2 }];
          temp.update();
        }
        const withMrope = Object.values(info.layerTypes).find((t) => t.mrope);
        grid.replaceChildren(...(withMrope ? [mropeTable(withMrope.mrope)] : []));
        const warnings = info.warnings.length ? M.warnings.format({ list: info.warnings.map((w) => warningText(w, info)).join(String(M.warningSep)) }) : '';
        view.readout = parts.join(' ') + warnings;
        // What to notice: the layer type with the largest share of pairs that never turn within L0.
        const least = turns.sort((x, y) => y.never / y.half - x.never / x.half)[0];
        view.notice = !least ? undefined : !least.never ? M.noticeAllTurn.format(least)
          : least.never === least.zero ? M.noticeZeroAll.format(least)
            : M.noticeTurns.format({ ...least, zero: least.zero ? M.noticeZero.format(least) : '' });
        return { columns: ['layer type', 'pair', 'theta', 'wavelength'], heads: colHeads([M.colType, COL.pairI, 'θᵢ', COL.wavelength]), rows };
      },
      destroy: () => (chart.destroy(), temp.destroy()),
    };
    return view;
  },
};
