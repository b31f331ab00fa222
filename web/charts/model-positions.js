// model-positions.js: a real model's positions, per layer type, as its config.json sets them
// (pe.ropeConfig): every pair's wavelength after scaling against the training length L0 and the
// longest context, which pairs complete a turn within L0, the attention factor, the softmax
// scale, NoPE layers and their query temperature, mRoPE sections, and the cos/sin cache's size.
import { lineChart, palette, dashes, lineLegend, sig, logAxis, ink } from './common.js';
import { MODEL_IDS, MODEL_LABELS, modelReader, trainingLength, freqOptions } from './shared/model.js';
import { messages } from '../host/i18n.js';
import { download } from '../host/export.js';

const TAU = 2 * Math.PI;

const M = messages({
  en: {
    title: "A model's RoPE pairs: wavelength after scaling, against its training length and context",
    model: 'model',
    xTitle: 'pair i',
    yTitle: 'wavelength 2π/θ_i (positions, log scale)',
    l0: 'L0 = {l0} (training length)',
    max: 'context = {max}',
    curve: '{type} ({count} layers)',
    curveAll: '{type}',
    readType: '{type}{layers}: base {base}, {rotary} of {head} dims rotated ({style} pairs), {scaling}; attention factor {attn}, softmax scale ×{softmax}; {turning} of {half} pairs complete a turn within L0 = {l0}{still}{cache}.',
    readCache: '; cos/sin cache for {max} positions: {mib} MiB (float32, cos and sin of {half} pairs each)',
    readNoL0: '{type}{layers}: base {base}, {rotary} of {head} dims rotated ({style} pairs), {scaling}; attention factor {attn}, softmax scale ×{softmax}{still}; the config names no context length.',
    readLayers: ' ({count} layers)',
    readNope: '{type}{layers}: no position encoding{temperature}.',
    readTemperature: '; queries scaled by {t1} at position 8191, {t2} at 10^6 and {t3} at 10^7 (Llama 4 temperature: scale {scale}, floor {floor})',
    readStill: ', {zero} pairs do not turn at all (θ = 0)',
    readMrope: ' mRoPE sections t/h/w = {section}{interleaved}.',
    readInterleaved: ' (interleaved)',
    noScaling: 'no scaling',
    scaling: '{type} scaling',
    warnings: ' Warnings: {list}.',
    error: 'This config could not be read: {message}',
    none: 'none',
    vectors: 'Download conformance vectors (JSON)',
    vectorsTitle: "cos/sin at the boundary positions and a rotated q·k for every layer type, in float64 and float32: to test a runtime against (format in posenc's README)",
    half: 'half',
    interleaved: 'interleaved',
  },
  zh: {
    title: '一个模型的 RoPE 各对：缩放后的波长，与训练长度和上下文长度对比',
    model: '模型',
    xTitle: '第 i 对',
    yTitle: '波长 2π/θ_i（位置数，对数坐标）',
    l0: 'L0 = {l0}（训练长度）',
    max: '上下文 = {max}',
    curve: '{type}（{count} 层）',
    curveAll: '{type}',
    readType: '{type}{layers}：底数 {base}，{head} 维中旋转 {rotary} 维（{style} 配对），{scaling}；注意力因子 {attn}，softmax 缩放 ×{softmax}；{half} 对中有 {turning} 对在 L0 = {l0} 以内转满一圈{still}{cache}。',
    readCache: '；{max} 个位置的 cos/sin 缓存：{mib} MiB（float32，cos 与 sin 各 {half} 对）',
    readNoL0: '{type}{layers}：底数 {base}，{head} 维中旋转 {rotary} 维（{style} 配对），{scaling}；注意力因子 {attn}，softmax 缩放 ×{softmax}{still}；配置中没有给出上下文长度。',
    readLayers: '（{count} 层）',
    readNope: '{type}{layers}：没有位置编码{temperature}。',
    readTemperature: '；query 在位置 8191 乘以 {t1}，在 10^6 乘以 {t2}，在 10^7 乘以 {t3}（Llama 4 温度：scale {scale}，floor {floor}）',
    readStill: '，{zero} 对完全不转（θ = 0）',
    readMrope: ' mRoPE 分段 t/h/w = {section}{interleaved}。',
    readInterleaved: '（交错）',
    noScaling: '无缩放',
    scaling: '{type} 缩放',
    warnings: ' 警告：{list}。',
    error: '无法读取这个配置：{message}',
    none: '无',
    vectors: '下载一致性测试向量（JSON）',
    vectorsTitle: '每种层类型在边界位置上的 cos/sin 以及一次旋转后的 q·k，float64 与 float32 两种精度：用来检验一个运行时（格式见 posenc 的 README）',
    half: '前后两半',
    interleaved: '相邻',
  },
});

export default {
  kind: 'model-positions',
  messages: M,
  title: M.title,
  params: [
    { name: 'model', label: M.model, type: 'select', options: MODEL_IDS, value: 'gemma-4', optionLabels: MODEL_LABELS },
  ],
  mount(el, { pe, Chart }) {
    const chart = lineChart(el, Chart, { x: M.xTitle, y: M.yTitle, yType: 'logarithmic', aspect: 1.8 });
    chart.options.plugins.legend = lineLegend;
    Object.assign(chart.options.scales.y, logAxis);
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
          view.readout = M.error.format({ message: error });
          return { columns: ['layer type', 'pair', 'theta', 'wavelength'], rows: [] };
        }
        const maxPos = info.maxPositionEmbeddings;
        const rows = [], parts = [];
        let maxHalf = 1, l0Shown = null;
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
          const l0 = trainingLength(t, maxPos);
          l0Shown ??= l0;
          const half = t.rotaryDim / 2;
          maxHalf = Math.max(maxHalf, half);
          const inv = pe.ropeInvFreq(t.rotaryDim, freqOptions(t, maxPos ?? l0));
          const pts = [];
          let turning = 0, zero = 0;
          for (let i = 0; i < half; i++) {
            const lambda = inv[i] > 0 ? TAU / inv[i] : Infinity;
            if (l0 && lambda <= l0) turning++;
            if (inv[i] === 0) zero++;
            if (Number.isFinite(lambda)) pts.push({ x: i, y: lambda });
            rows.push([type, i, inv[i], lambda]);
          }
          chart.data.datasets.push({
            label: (count ? M.curve : M.curveAll).format({ type, count }), data: pts,
            borderColor: palette[k % 6], borderDash: dashes[k % 6], borderWidth: 2,
          });
          const scaling = t.scaling ? M.scaling.format({ type: t.scaling.type }) : String(M.noScaling);
          parts.push((l0 ? M.readType : M.readNoL0).format({
            type, layers, base: t.base, rotary: t.rotaryDim, head: t.headDim, style: String(M[t.style]), scaling,
            attn: t.attentionFactor === null ? '?' : sig(t.attentionFactor, 5), softmax: sig(t.softmaxScale, 5),
            turning, half, l0, still: zero ? M.readStill.format({ zero }) : '',
            cache: maxPos ? M.readCache.format({ max: maxPos, half, mib: sig((maxPos * half * 2 * 4) / 2 ** 20, 3) }) : '',
          }) + (t.mrope ? M.readMrope.format({ section: t.mrope.section.join('/'), interleaved: t.mrope.interleaved ? String(M.readInterleaved) : '' }) : ''));
        });
        // the training length and the context, as flat lines across the pairs
        const flat = (y, label, dash) => ({ label, data: [{ x: 0, y }, { x: maxHalf - 1, y }], borderColor: ink().muted, borderDash: dash, borderWidth: 1 });
        if (l0Shown) chart.data.datasets.push(flat(l0Shown, M.l0.format({ l0: l0Shown }), [3, 6]));
        if (maxPos && maxPos !== l0Shown) chart.data.datasets.push(flat(maxPos, M.max.format({ max: maxPos }), [8, 4]));
        chart.options.scales.x.min = 0;
        chart.options.scales.x.max = maxHalf - 1;
        chart.update();
        const warnings = info.warnings.length ? M.warnings.format({ list: info.warnings.map((w) => w.code).join(', ') }) : '';
        view.readout = parts.join(' ') + warnings;
        return { columns: ['layer type', 'pair', 'theta', 'wavelength'], rows };
      },
      destroy: () => chart.destroy(),
    };
    return view;
  },
};
