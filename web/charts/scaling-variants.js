// scaling-variants.js: issue 6 §16, what each RoPE scaling variant does to every pair: the
// wavelength 2π/θ_i against the original training length L0, and how much each pair was
// stretched (λ'_i/λ_i), so the YaRN ramp and the llama3 bands show as shapes. A config.json
// pasted below goes through pe.ropeScaling and is drawn over them.
import { lineChart, palette, lineLegend, sig, logAxis, logTick, requestRedraw, ink, pointArrays } from './common.js';
import { L, tr, lang } from '../host/i18n.js';

const TAU = 2 * Math.PI;
// Log-axis labels, with 1e5 and beyond in exponent form so eight-digit labels do not eat the plot.
const shortLog = { ...logAxis, ticks: { ...logAxis.ticks, callback: (v, i, t) => (logTick(v, i, t) && v >= 1e5 ? v.toExponential(0).replace('e+', 'e') : logTick(v, i, t)) } };

// Trimmed copies of real config.json files: only the keys pe.ropeScaling reads.
const PRESETS = {
  'Llama 3.1 8B (llama3)': {
    hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 131072, rope_theta: 500000.0,
    rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
  },
  'Qwen2.5-7B with YaRN ×4 (as its model card suggests)': {
    hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 32768, rope_theta: 1000000.0,
    rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' },
  },
  'LongChat-7B-16K (linear ×8)': {
    hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 16384, rope_theta: 10000.0,
    rope_scaling: { factor: 8.0, type: 'linear' },
  },
};

// Colour, dash and width per curve; the legend repeats dash and colour.
const STYLE = {
  original: { get color() { return palette[6]; }, dash: [], width: 1.5 }, // black, or white on the dark theme
  linear: { color: palette[0], dash: [6, 4], width: 1.5 },
  ntk: { color: palette[1], dash: [2, 3], width: 2 },
  dynamic: { color: palette[3], dash: [10, 3, 2, 3], width: 1.5 },
  yarn: { color: palette[2], dash: [8, 2, 2, 2, 2, 2], width: 2.5 },
  llama3: { color: palette[5], dash: [14, 4], width: 2.5 },
  config: { color: palette[4], dash: [1, 3], width: 3 },
  l0: { get color() { return ink().muted; }, dash: [3, 6], width: 1 }, // read at each draw: follows the theme
};

function dataset(label, pts, key, extra = {}) {
  const s = STYLE[key];
  return { label, data: pts, borderColor: s.color, backgroundColor: s.color, borderDash: s.dash, borderWidth: s.width, ...extra };
}

export default {
  kind: 'scaling-variants',
  title: L('Wavelength of every RoPE pair under each scaling variant, against the training length L0',
    '各种缩放变体下 RoPE 每一对的波长，与训练长度 L0 对比'),
  params: [
    { name: 'dim', label: L('head dim d', '头维度 d'), type: 'int', min: 4, max: 512, step: 2, value: 128 },
    { name: 'base', label: L('base', '底数 base'), type: 'number', min: 2, max: 100000000, step: 'any', value: 500000 },
    { name: 'factor', label: L('factor s', '缩放因子 s'), type: 'number', min: 1, max: 128, step: 'any', value: 8 },
    { name: 'l0', label: L('training length L0', '训练长度 L0'), type: 'int', min: 16, max: 1048576, value: 8192 },
    { name: 'low', label: 'llama3 low_freq_factor', type: 'number', min: 0.125, max: 64, step: 'any', value: 1 },
    { name: 'high', label: 'llama3 high_freq_factor', type: 'number', min: 0.125, max: 64, step: 'any', value: 4 },
    { name: 'betaFast', label: 'YaRN β_fast', type: 'number', min: 0.125, max: 256, step: 'any', value: 32 },
    { name: 'betaSlow', label: 'YaRN β_slow', type: 'number', min: 0.125, max: 256, step: 'any', value: 1 },
    { name: 'seqLen', label: L('current length (dynamic NTK)', '当前长度（动态 NTK）'), type: 'int', min: 1, max: 4194304, value: 65536 },
  ],
  mount(el, { pe, Chart }) {
    const wave = lineChart(el, Chart, { x: L('pair i', '第 i 对'), y: L('wavelength 2π/θ_i (positions, log scale)', '波长 2π/θ_i（位置数，对数坐标）'), yType: 'logarithmic', aspect: 1.8 });
    wave.options.plugins.legend = lineLegend;
    Object.assign(wave.options.scales.y, shortLog);
    const stretch = lineChart(el, Chart, { x: L('pair i', '第 i 对'), y: L("stretch λ'_i / λ_i (log scale)", "拉伸倍数 λ'_i / λ_i（对数坐标）"), yType: 'logarithmic', aspect: 2.6, legend: false });
    Object.assign(stretch.options.scales.y, logAxis);
    // Its legend is the one above: off, not only hidden (a hidden legend still builds its items,
    // resolving every dataset's style, at every update). At most 256 pairs are never decimated,
    // and no curve is filled: those plugins are off too (they visit every dataset at each update).
    stretch.options.plugins.legend = false;
    for (const c of [wave, stretch]) Object.assign(c.options.plugins, { decimation: false, filler: false });
    for (const c of [wave, stretch]) Object.assign(c.options.scales.x.ticks, { includeBounds: false });
    wave.canvas.parentElement.classList.add('phone-legend');
    stretch.canvas.parentElement.classList.add('phone-tall');
    const note = document.createElement('p');
    note.className = 'chart-note';
    stretch.canvas.parentElement.before(note);

    // "Paste your config.json": a menu of real configs, the text, and what pe.ropeScaling made of it.
    const panel = document.createElement('div');
    panel.className = 'config-panel';
    const id = `scaling-config-${Math.random().toString(36).slice(2, 8)}`;
    panel.innerHTML = `<div class="config-row"><label for="${id}-preset"></label> <select id="${id}-preset"></select></div>` +
      `<label for="${id}" class="config-label"></label>` +
      `<textarea id="${id}" class="config-text mono" rows="12" spellcheck="false" wrap="off"></textarea>` +
      '<p class="config-message" role="status" aria-live="polite"></p>';
    el.append(panel);
    const preset = panel.querySelector('select'), text = panel.querySelector('textarea'), message = panel.querySelector('.config-message');
    for (const name of Object.keys(PRESETS)) preset.append(new Option(name, name));
    // Texts in the current language; run again by update() after a language switch (only
    // then: rewriting them, an innerHTML among them, at every redraw would be DOM work for nothing).
    let labelled = null;
    const label = () => {
      if (labelled === lang()) return;
      labelled = lang();
      note.textContent = tr('Below: how far each variant stretched each pair (1 = untouched), in the colours and dashes of the legend above.',
        '下图：每种变体把每一对拉伸了多少（1 = 不变），颜色和虚线样式与上方图例相同。');
      panel.querySelector('.config-row label').textContent = tr('Start from', '从这里开始');
      panel.querySelector('.config-label').innerHTML = tr(
        "Paste a model's config.json (or just its <code>rope_scaling</code> block); it is drawn as the thick dotted orange curve",
        '粘贴一个模型的 config.json（或者只粘贴其中的 <code>rope_scaling</code> 部分）；它会画成粗的橙色点线');
      const names = { 'Qwen2.5-7B with YaRN ×4 (as its model card suggests)': 'Qwen2.5-7B，YaRN ×4（按其模型卡的建议）',
        'LongChat-7B-16K (linear ×8)': 'LongChat-7B-16K（线性 ×8）' };
      for (const o of preset.options) o.textContent = tr(o.value, names[o.value] ?? o.value);
    };
    const load = () => {
      text.value = JSON.stringify(PRESETS[preset.value], null, 2);
      text.rows = text.value.split('\n').length + 1;
    };
    load();
    preset.addEventListener('input', () => (load(), requestRedraw(el)));
    text.addEventListener('input', () => requestRedraw(el));

    /** The pasted config, read with pe.ropeScaling and run through the kernels, or { error }. */
    let lastConfig = null, lastConfigKey = '';
    const readConfig = (p) => {
      // The same text, fallbacks and language give the same result: kept while other controls move.
      const key = JSON.stringify([text.value, p.dim, p.base, p.seqLen, lang()]);
      if (key !== lastConfigKey) (lastConfig = computeConfig(p)), (lastConfigKey = key);
      return lastConfig;
    };
    const computeConfig = ({ dim, base, seqLen }) => {
      let json;
      try {
        json = JSON.parse(text.value);
      } catch (err) {
        return { error: tr(`Not valid JSON: ${err.message}`, `不是有效的 JSON:${err.message}`) };
      }
      try {
        const r = pe.ropeScaling(json);
        const rotaryDim = r.rotaryDim ?? dim;
        const b = r.base ?? base;
        let scaling = r.scaling;
        // The length-dependent variants need the current length; the config cannot know it.
        if (scaling && (scaling.type === 'dynamic' || scaling.type === 'longrope') && scaling.seqLen === undefined) scaling = { ...scaling, seqLen };
        const inv = pe.ropeInvFreq(rotaryDim, { base: b, scaling });
        const plain = pe.ropeInvFreq(rotaryDim, { base: b });
        const attn = pe.ropeAttentionFactor(rotaryDim, { base: b, scaling });
        return { r, rotaryDim, base: b, scaling, inv, plain, attn, usedDim: r.rotaryDim === undefined, usedBase: r.base === undefined };
      } catch (err) {
        return { error: `${err.name}: ${err.message}` };
      }
    };

    const pts = pointArrays();
    const view = {
      update(p) {
        label();
        const { dim, base, factor, l0, low, high, betaFast, betaSlow, seqLen } = p;
        const half = dim / 2;
        const variants = [
          ['original', tr('original θ_i', '原始 θ_i'), undefined],
          ['linear', tr(`linear (PI): θ_i / ${sig(factor, 4)}`, `线性插值（PI）：θ_i / ${sig(factor, 4)}`), { type: 'linear', factor }],
          ['ntk', tr('NTK-aware: larger base', 'NTK-aware：更大的底数'), { type: 'ntk', factor }],
          ['dynamic', tr(`dynamic NTK at length ${seqLen}`, `动态 NTK，长度 ${seqLen}`), { type: 'dynamic', factor, maxPositionEmbeddings: l0, seqLen }],
          ['yarn', 'YaRN', { type: 'yarn', factor, originalMaxPositionEmbeddings: l0, betaFast, betaSlow }],
          ['llama3', 'llama3', { type: 'llama3', factor, lowFreqFactor: low, highFreqFactor: high, originalMaxPositionEmbeddings: l0 }],
        ];
        const skipped = [];
        const out = [];
        for (const [key, label, scaling] of variants) {
          try {
            const inv = pe.ropeInvFreq(dim, { base, scaling });
            out.push({ key, label, inv, attn: pe.ropeAttentionFactor(dim, { base, scaling }) });
          } catch (err) {
            // e.g. llama3 with high_freq_factor <= low_freq_factor: say so, draw the others
            skipped.push(`${key}: ${err.message}`);
          }
        }
        const orig = out[0].inv;
        const cfg = readConfig(p);

        // The point arrays are kept between redraws (pointArrays): refilled, not rebuilt.
        wave.data.datasets = out.map(({ key, label, inv }) => dataset(label, pts(`wave ${key}`, inv.length, (i) => TAU / inv[i]), key));
        stretch.data.datasets = out.map(({ key, label, inv }) => dataset(label, pts(`stretch ${key}`, inv.length, (i) => orig[i] / inv[i]), key));
        if (!cfg.error) {
          const name = tr(`your config (${cfg.scaling?.type ?? 'no scaling'}, d = ${cfg.rotaryDim})`, `你的配置（${cfg.scaling?.type ?? '无缩放'}，d = ${cfg.rotaryDim}）`);
          const marks = { pointRadius: cfg.rotaryDim <= 160 ? 2.5 : 0, pointStyle: 'circle' };
          const { inv, plain } = cfg;
          wave.data.datasets.push(dataset(name, pts('wave config', inv.length, (i) => TAU / inv[i]), 'config', marks));
          stretch.data.datasets.push(dataset(name, pts('stretch config', inv.length, (i) => plain[i] / inv[i]), 'config', marks));
        }
        const last = Math.max(half, cfg.rotaryDim ? cfg.rotaryDim / 2 : 0) - 1;
        wave.data.datasets.push(dataset(tr(`L0 = ${l0}: the longest distance seen in training`, `L0 = ${l0}：训练中见过的最长距离`), pts('l0', 2, () => l0, (i) => i * last), 'l0'));
        for (const c of [wave, stretch]) (c.options.scales.x.min = 0), (c.options.scales.x.max = Math.max(1, last));
        wave.update();
        stretch.update();

        const byKey = Object.fromEntries(out.map((v) => [v.key, v]));
        const moved0 = out.slice(1).filter((v) => v.inv[0] !== orig[0]).map((v) => v.key);
        const tail = (key) => (byKey[key] ? sig(orig[half - 1] / byKey[key].inv[half - 1], 3) : '–');
        if (cfg.error) {
          message.textContent = cfg.error;
          message.classList.add('error');
        } else {
          const c = cfg.rotaryDim / 2 - 1;
          message.classList.remove('error');
          const kind = cfg.scaling ? `${cfg.scaling.type}${cfg.scaling.factor !== undefined ? ` ×${sig(cfg.scaling.factor, 4)}` : ''}` : null;
          message.textContent = tr(`Read as ${kind ?? 'no scaling'}, ` +
            `rotary dim ${cfg.rotaryDim}${cfg.usedDim ? ' (from the head dim control: the config names none)' : ''}, ` +
            `base ${sig(cfg.base, 6)}${cfg.usedBase ? ' (from the base control: the config has no rope_theta)' : ''}; ` +
            `attention factor ${sig(cfg.attn, 6)}; the slowest pair's wavelength goes from ${sig(TAU / cfg.plain[c], 4)} to ` +
            `${sig(TAU / cfg.inv[c], 4)} (×${sig(cfg.plain[c] / cfg.inv[c], 4)}), the fastest from ${sig(TAU / cfg.plain[0], 4)} to ${sig(TAU / cfg.inv[0], 4)}.`,
            `读作 ${kind ?? '无缩放'}，` +
            `旋转维度 ${cfg.rotaryDim}${cfg.usedDim ? '（取自头维度控件：配置中没有给出）' : ''}，` +
            `底数 ${sig(cfg.base, 6)}${cfg.usedBase ? '（取自底数控件：配置中没有 rope_theta）' : ''}；` +
            `注意力因子 ${sig(cfg.attn, 6)}；最慢一对的波长从 ${sig(TAU / cfg.plain[c], 4)} 变为 ` +
            `${sig(TAU / cfg.inv[c], 4)}(×${sig(cfg.plain[c] / cfg.inv[c], 4)})，最快一对从 ${sig(TAU / cfg.plain[0], 4)} 变为 ${sig(TAU / cfg.inv[0], 4)}。`);
        }
        const ZH_NAMES = { linear: '线性插值', ntk: 'NTK', dynamic: '动态 NTK', yarn: 'YaRN', llama3: 'llama3' };
        const vname = (k) => tr(k, ZH_NAMES[k] ?? k);
        const attn = out.slice(1).map((v) => `${vname(v.key)} ${sig(v.attn, 4)}`).join(tr(', ', ','));
        view.readout = tr(`Attention factor (multiplies cos and sin): ${attn}. The slowest pair (i = ${half - 1}, λ = ${sig(TAU / orig[half - 1], 4)}) ` +
          `is stretched ×${tail('linear')} by linear, ×${tail('ntk')} by NTK, ×${tail('dynamic')} by dynamic NTK at length ${seqLen}, ` +
          `×${tail('yarn')} by YaRN and ×${tail('llama3')} by llama3; pair 0 (λ = ${sig(TAU / orig[0], 4)}) ` +
          (moved0.length ? `changes only under ${moved0.join(', ')}` : 'is left alone by all') +
          (skipped.length ? `; not drawn: ${skipped.join('; ')}.` : '.'),
          `注意力因子（乘在 cos 和 sin 上）：${attn}。最慢的一对（i = ${half - 1}，λ = ${sig(TAU / orig[half - 1], 4)}）` +
          `被线性插值拉伸 ×${tail('linear')}，被 NTK 拉伸 ×${tail('ntk')}，被长度 ${seqLen} 时的动态 NTK 拉伸 ×${tail('dynamic')}，` +
          `被 YaRN 拉伸 ×${tail('yarn')}，被 llama3 拉伸 ×${tail('llama3')}；第 0 对（λ = ${sig(TAU / orig[0], 4)}）` +
          (moved0.length ? `只在 ${moved0.map(vname).join('、')} 下改变` : '在所有变体下都保持不变') +
          (skipped.length ? `；未绘制：${skipped.join('；')}。` : '。'));

        const keys = out.map((v) => v.key);
        const n = Math.max(half, cfg.inv?.length ?? 0);
        return {
          measured: {
            attention: Object.fromEntries(out.map((v) => [v.key, v.attn])),
            config: cfg.error ? { error: cfg.error } : {
              type: cfg.scaling?.type ?? null, rotaryDim: cfg.rotaryDim, base: cfg.base, attentionFactor: cfg.attn,
              slowestStretch: cfg.plain[cfg.plain.length - 1] / cfg.inv[cfg.inv.length - 1],
            },
          },
          columns: ['pair i', ...keys.map((k) => `wavelength ${k}`), 'wavelength config'],
          rows: Array.from({ length: n }, (_, i) => [i, ...out.map((v) => (i < half ? TAU / v.inv[i] : null)),
            cfg.inv && i < cfg.inv.length ? TAU / cfg.inv[i] : null]),
        };
      },
      destroy: () => (wave.destroy(), stretch.destroy()),
    };
    return view;
  },
};
