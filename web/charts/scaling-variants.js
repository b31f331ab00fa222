// scaling-variants.js: what each RoPE scaling method does to every pair: the
// wavelength T_i = 2π/θ_i against the original training length L0, and how much each pair was
// stretched (T'_i/T_i), so the YaRN ramp and the llama3 bands show as shapes. A config.json
// pasted below goes through pe.ropeScaling and is drawn over them.
import { lineChart, palette, lineLegend, sig, logAxis, requestRedraw, ink, isDark, pointArrays, COL, colHeads } from './common.js';
import { messages, lang, cjkSpacing } from '../host/i18n.js';
import { scalingL0 } from '../lib/rope-config.js';

const TAU = 2 * Math.PI;
// Log-axis labels, with 1e5 and beyond in exponent form so eight-digit labels do not eat the plot.

const M = messages({
  en: {
    colConfig: 'your config',
    title: 'Wavelength of every RoPE pair under each scaling method, against the training length L₀',
    dim: 'head dim d',
    base: 'base',
    factor: 'factor s',
    l0: 'training length L₀',
    seqLen: 'current length (dynamic NTK)',
    xTitle: 'pair i',
    waveTitle: 'wavelength Tᵢ = 2π/θᵢ (positions, log scale)',
    stretchTitle: 'stretch T′ᵢ / Tᵢ (log scale)',
    note: 'Below: how far each method stretched each pair (1 = untouched), in the colours and dashes of the legend above.',
    startFrom: 'Start from',
    configLabel: "Your model's config: paste its config.json, or just its <code>rope_scaling</code> block (the controls fill in what a block leaves out: head dim, base and L₀). It is drawn as the thick grey line with a dot on every pair and described in the line just below this box; the readout further down keeps describing the controls' methods.",
    presetLlama: 'Llama 3.1 8B (llama3)',
    presetQwen: 'Qwen2.5-7B with YaRN ×4 (as its model card suggests)',
    presetLongChat: 'LongChat-7B-16K (linear ×8)',
    presetOwn: 'your own text (edited or pasted)',
    notJson: 'Not valid JSON: {message}',
    original: 'original θᵢ',
    linear: 'PI (θᵢ ÷ {factor})',
    ntk: 'NTK-aware (larger base)',
    dynamic: 'dynamic NTK at length {seqLen}',
    yourConfig: 'your config ({type}, d = {dim})',
    noScaling: 'no scaling',
    l0Line: 'L₀ = {l0}: the training length',
    configL0Line: 'L₀ = {l0}: your config’s training length',
    configRead: 'The config above is read as {kind}, rotary dim {rotaryDim}',
    configDimFallback: ' (from the head dim control: the config names none)',
    configL0Fallback: ', L₀ {l0} (from the training length control: the config names none)',
    configBase: ', base {base}',
    configOwnL0: ', L₀ {l0}',
    configDrawn: '{kind}, rotary dim {rotaryDim}, base {base}{l0}',
    configLong: ', its long factors (the current length {seqLen} is past L₀)',
    configShort: ', its short factors (the current length {seqLen} is within L₀)',
    configBaseFallback: ' (from the base control: the config has no rope_theta)',
    configAttn: '; attention factor {attn}; ',
    configSoftmax: 'softmax scale ×{softmax} (on the usual 1/√d); ',
    configSlow: "the slowest pair's wavelength goes from {slowFrom} to {slowTo} (×{slowRatio})",
    configSlowSame: "the slowest pair's wavelength stays {slowFrom}",
    configFast: ', the fastest from {fastFrom} to {fastTo}.',
    configFastSame: ', the fastest stays {fastFrom}.',
    nameLinear: 'linear',
    nameNtk: 'ntk',
    nameDynamic: 'dynamic',
    nameYarn: 'yarn',
    attnSep: ', ',
    nameSep: ', ',
    skipSep: '; ',
    readout: 'Attention factor (multiplies cos and sin): {attn}. The slowest pair (i = {last}, T = {slowLambda}) is stretched ×{linear} by linear, ×{ntk} by NTK, ×{dynamic} by dynamic NTK at length {seqLen}, ×{yarn} by YaRN and ×{llama3} by llama3; pair 0 (T = {fastLambda}) ',
    readoutMoved: 'changes only under {moved}',
    readoutUnmoved: 'is left alone by all',
    readoutSkipped: '; not drawn: {skipped}.',
    end: '.',
    noticeDynamic: 'Dynamic NTK stretches the slowest pair ×{dynamic}, not ×{factor}: at length L = {seqLen} its factor is s·L/L₀ − (s − 1) = {dynFactor}.',
    noticeDynamicOff: 'Dynamic NTK changes nothing yet: the length {seqLen} has not passed L₀ = {l0}.',
    noticeSlowest: 'Every method stretches the slowest pair ×{factor}.',
    noticeSlowestMixed: 'Not every method stretches the slowest pair ×{factor} here: the lower chart shows how far each does.',
    how: 'The page computes every pair\'s frequency θᵢ under each method by the rules of current Hugging Face transformers, v5 (linear, dynamic, yarn, llama3; NTK-aware as the base replaced by base·s^(d/(d−2))) and draws the wavelength Tᵢ = 2π/θᵢ of each pair, and below its stretch T′ᵢ/Tᵢ against the unscaled wavelength. Dynamic NTK is taken at the current-length control. A pasted config.json is read for its RoPE settings (base, scaling block, head size); where it names no head size or base, the controls fill in. For YaRN, s is the config\'s factor and L₀ its original_max_position_embeddings (in the scaling block or at the top of the config), else max_position_embeddings. Older releases read it otherwise: early ones took max_position_embeddings as L₀, and later v4 releases, whenever original_max_position_embeddings was set, replaced the factor by max_position_embeddings / original_max_position_embeddings (transformers#38224, fixed by transformers#40320), so the Qwen2.5 preset\'s block (factor 4, with original_max_position_embeddings and max_position_embeddings both 32768) scaled nothing. YaRN\'s ramp runs between two pair indices, where a pair turns β_fast and β_slow times within L₀; the first is rounded down and the second up, unless the config sets truncate to false (gpt-oss does), which keeps them fractional. YaRN\'s attention factor is 0.1·ln s + 1 unless the config sets attention_factor, or mscale and mscale_all_dim: then it is (0.1·mscale·ln s + 1) / (0.1·mscale_all_dim·ln s + 1). DeepSeek-V3 sets both to 1, which makes the factor on cos and sin 1 and moves the scaling into the softmax: its 1/√d is multiplied by (0.1·ln s + 1)².',
  },
  zh: {
    colConfig: '你的配置',
    title: '各种缩放方法下 RoPE 每一对的波长，与训练长度 L₀ 对比',
    dim: '头维度 d',
    base: '底数 base',
    factor: '缩放因子 s',
    l0: '训练长度 L₀',
    seqLen: '当前长度（动态 NTK）',
    xTitle: '第 i 对',
    waveTitle: '波长 Tᵢ = 2π/θᵢ（位置数，对数坐标）',
    stretchTitle: '拉伸倍数 T′ᵢ / Tᵢ（对数坐标）',
    note: '下图：每种方法把每一对拉伸了多少（1 = 不变），颜色和虚线样式与上方图例相同。',
    startFrom: '预设配置',
    configLabel: '你的模型配置：粘贴它的 config.json，或者只粘贴其中的 <code>rope_scaling</code> 那一段（它没有给出的头维度、底数和 L₀ 由控件补上）。它会画成一条粗的灰色实线，每一对一个圆点，并由紧接在框下面的一行文字说明；再往下的图下文字仍然只说明各控件所设的方法。',
    presetLlama: 'Llama 3.1 8B（llama3）',
    presetQwen: 'Qwen2.5-7B，YaRN ×4（按其模型卡的建议）',
    presetLongChat: 'LongChat-7B-16K（位置插值 ×8）',
    presetOwn: '你自己的配置（已改动或粘贴）',
    notJson: '不是有效的 JSON：{message}',
    original: '原始 θᵢ',
    linear: 'PI（θᵢ ÷ {factor}）',
    ntk: 'NTK-aware（加大底数）',
    dynamic: '动态 NTK，长度 {seqLen}',
    yourConfig: '你的配置（{type}，d = {dim}）',
    noScaling: '无缩放',
    l0Line: 'L₀ = {l0}：训练长度',
    configL0Line: 'L₀ = {l0}：你的配置的训练长度',
    configRead: '上面的配置解析为 {kind}，旋转维度 {rotaryDim}',
    configDimFallback: '（取自头维度控件：配置中没有给出）',
    configL0Fallback: '，L₀ = {l0}（取自训练长度控件：配置中没有给出）',
    configBase: '，底数 {base}',
    configOwnL0: '，L₀ = {l0}',
    configDrawn: '{kind}，旋转维度 {rotaryDim}，底数 {base}{l0}',
    configLong: '，取长因子（当前长度 {seqLen} 超过 L₀）',
    configShort: '，取短因子（当前长度 {seqLen} 未超过 L₀）',
    configBaseFallback: '（取自底数控件：配置中没有 rope_theta）',
    configAttn: '；注意力因子 {attn}；',
    configSoftmax: 'softmax 缩放 ×{softmax}（乘在通常的 1/√d 上）；',
    configSlow: '最慢一对的波长从 {slowFrom} 变为 {slowTo}（×{slowRatio}）',
    configSlowSame: '最慢一对的波长保持 {slowFrom} 不变',
    configFast: '，最快一对从 {fastFrom} 变为 {fastTo}。',
    configFastSame: '，最快一对保持 {fastFrom} 不变。',
    nameLinear: '位置插值（PI）',
    nameNtk: 'NTK',
    nameDynamic: '动态 NTK',
    nameYarn: 'YaRN',
    attnSep: '，',
    nameSep: '、',
    skipSep: '；',
    readout: '注意力因子（乘在 cos 和 sin 上）：{attn}。最慢的一对（i = {last}，T = {slowLambda}）的波长拉长到：位置插值（PI）{linear} 倍，NTK {ntk} 倍，动态 NTK（长度 {seqLen}）{dynamic} 倍，YaRN {yarn} 倍，llama3 {llama3} 倍；第 0 对（T = {fastLambda}）',
    readoutMoved: '只在 {moved} 下改变',
    readoutUnmoved: '在所有方法下都保持不变',
    readoutSkipped: '；未绘制：{skipped}。',
    end: '。',
    noticeDynamic: '动态 NTK 把最慢一对的波长拉长到 {dynamic} 倍，而不是 {factor} 倍：在长度 L = {seqLen} 时，它的缩放因子是 s·L/L₀ − (s − 1) = {dynFactor}。',
    noticeDynamicOff: '动态 NTK 还没有起作用：长度 {seqLen} 没有超过 L₀ = {l0}。',
    noticeSlowest: '每种方法都把最慢一对的波长拉长到 {factor} 倍。',
    noticeSlowestMixed: '在这组设置下，并非每种方法都把最慢一对的波长拉长到 {factor} 倍：下图显示了各自拉长了多少。',
    how: '页面按当前 Hugging Face transformers v5 的规则（linear、dynamic、yarn、llama3；NTK-aware 即把底数换成 base·s^(d/(d−2))）算出每种方法下每一对的频率 θᵢ，上图画出每一对的波长 Tᵢ = 2π/θᵢ，下图画出相对未缩放波长的拉伸倍数 T′ᵢ/Tᵢ。动态 NTK 取“当前长度”控件的值。粘贴的 config.json 只读取其中的 RoPE 设置（底数、缩放部分、头维度）；配置中没有给出头维度或底数时，用控件的值补上。对 YaRN，s 取配置中的 factor，L₀ 取 original_max_position_embeddings（写在缩放部分里，或写在配置的顶层），没有时取 max_position_embeddings。较早的版本读法不同：早期版本把 max_position_embeddings 当作 L₀；后来的一些 v4 版本只要配置给出 original_max_position_embeddings，就用 max_position_embeddings / original_max_position_embeddings 代替 factor（transformers#38224，由 transformers#40320 修复），于是预设中 Qwen2.5 的那段配置（factor 为 4，original_max_position_embeddings 和 max_position_embeddings 都是 32768）实际上完全没有缩放。YaRN 的过渡段位于两个序号之间，分别对应在 L₀ 之内恰好转 β_fast 圈和 β_slow 圈的维度对；前者向下取整，后者向上取整，除非配置把 truncate 设为 false（gpt-oss 就是这样），这时两者保留小数。YaRN 的注意力因子为 0.1·ln s + 1，除非配置给出了 attention_factor，或者给出了 mscale 和 mscale_all_dim：这时它等于 (0.1·mscale·ln s + 1) / (0.1·mscale_all_dim·ln s + 1)。DeepSeek-V3 把这两项都设为 1，于是乘在 cos 和 sin 上的因子变成 1，缩放改在 softmax 里做：它的 1/√d 要乘以 (0.1·ln s + 1)²。',
  },
});

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

// Each preset as the config box shows it.
const PRESET_TEXT = Object.fromEntries(Object.entries(PRESETS).map(([name, config]) => [name, JSON.stringify(config, null, 2)]));

// The menu's text for a preset whose name reads otherwise in another language.
const PRESET_NAMES = {
  'Llama 3.1 8B (llama3)': M.presetLlama,
  'Qwen2.5-7B with YaRN ×4 (as its model card suggests)': M.presetQwen,
  'LongChat-7B-16K (linear ×8)': M.presetLongChat,
};

/** A wavelength to 4 figures, in exponent form from a million on (2.559e6: seven digits are hard to read). */
const exponent = (x) => x.toExponential(3).replace('e+', 'e');
const wavelength = (x) => (x >= 1e6 ? exponent(x) : sig(x, 4));

/** Wavelengths said as "from a to b" in one form: both in exponent form once either needs it. */
function alike(pair) {
  const wide = Object.values(pair).some((x) => x >= 1e6);
  return Object.fromEntries(Object.entries(pair).map(([k, x]) => [k, wide ? exponent(x) : sig(x, 4)]));
}

// Variant names in sentences (llama3 reads the same in every language).
const VARIANT_NAMES = { linear: M.nameLinear, ntk: M.nameNtk, dynamic: M.nameDynamic, yarn: M.nameYarn };

// Colour, dash and width per curve; the legend repeats dash and colour.
const STYLE = {
  original: { get color() { return palette[6]; }, dash: [], width: 1.5 }, // black, or white on the dark theme
  linear: { get color() { return palette[0]; }, dash: [6, 4], width: 1.5 }, // a darker or a lighter blue by theme
  ntk: { color: palette[1], dash: [2, 3], width: 2 },
  dynamic: { color: palette[3], dash: [10, 3, 2, 3], width: 1.5 },
  yarn: { color: palette[2], dash: [8, 2, 2, 2, 2, 2], width: 2.5 },
  llama3: { color: palette[4], dash: [14, 4], width: 2.5 }, // orange: a light blue reads as PI's blue on a projector
  // The pasted config: a wide translucent solid band in the theme's ink, unlike every method's
  // dashes and colours, so it stands out even where it runs along one of them, which shows through.
  config: { get color() { return isDark() ? 'rgba(232, 232, 232, 0.5)' : 'rgba(0, 0, 0, 0.4)'; }, dash: [], width: 5 },
  l0: { get color() { return ink().muted; }, dash: [3, 6], width: 1 }, // read at each draw: follows the theme
  // the pasted config's own training length, where it is not the control's: in the config's ink
  configL0: { get color() { return STYLE.config.color; }, dash: [3, 6], width: 2 },
};

function dataset(label, pts, key, extra = {}) {
  const s = STYLE[key];
  return { label, data: pts, borderColor: s.color, backgroundColor: s.color, borderDash: s.dash, borderWidth: s.width, ...extra };
}

/** For a bare rope_scaling block (its type at the top, no config around it) whose type needs a
 *  training length it does not give, the key its type reads that length from; else null (linear
 *  and ntk-style blocks need none). */
function missingL0Key(json) {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const type = json.rope_type ?? json.type;
  if (!['yarn', 'llama3', 'longrope', 'dynamic'].includes(type)) return null;
  if ('rope_scaling' in json || 'rope_parameters' in json) return null;
  if (json.original_max_position_embeddings !== undefined || json.max_position_embeddings !== undefined) return null;
  return type === 'dynamic' ? 'max_position_embeddings' : 'original_max_position_embeddings';
}

export default {
  kind: 'scaling-variants',
  messages: M,
  title: M.title,
  // the chart's story is what each method does to the pairs as the context grows: the factor s
  // leads (on a phone and on a slide), not the head's size
  main: 'factor',
  // animated, the context grows from the training length to 64 times it, through the powers of
  // two every fourth frame (2^(i/4)): the factors a config names
  sweep: { param: 'factor', from: 1, to: 64, frames: 25 },
  params: [
    { name: 'dim', label: M.dim, type: 'int', min: 4, max: 512, step: 2, value: 128 },
    { name: 'base', label: M.base, type: 'number', min: 2, max: 100000000, step: 'any', value: 500000 },
    { name: 'factor', label: M.factor, type: 'number', min: 1, max: 128, step: 'any', value: 8 },
    { name: 'l0', label: M.l0, type: 'int', min: 16, max: 1048576, value: 8192 },
    { name: 'low', label: 'llama3 low_freq_factor', type: 'number', min: 0.125, max: 64, step: 'any', value: 1 },
    { name: 'high', label: 'llama3 high_freq_factor', type: 'number', min: 0.125, max: 64, step: 'any', value: 4 },
    { name: 'betaFast', label: 'YaRN β_fast', type: 'number', min: 0.125, max: 256, step: 'any', value: 32 },
    { name: 'betaSlow', label: 'YaRN β_slow', type: 'number', min: 0.125, max: 256, step: 'any', value: 1 },
    { name: 'seqLen', label: M.seqLen, type: 'int', min: 1, max: 4194304, value: 65536 },
  ],
  mount(el, { pe, Chart }) {
    const wave = lineChart(el, Chart, { x: M.xTitle, y: M.waveTitle, yType: 'logarithmic', aspect: 1.8 });
    wave.options.plugins.legend = lineLegend;
    Object.assign(wave.options.scales.y, logAxis);
    const stretch = lineChart(el, Chart, { x: M.xTitle, y: M.stretchTitle, yType: 'logarithmic', aspect: 2.6, legend: false });
    Object.assign(stretch.options.scales.y, logAxis);
    // Its legend is the one above: off, not only hidden (a hidden legend still builds its items,
    // resolving every dataset's style, at every update). At most 256 pairs are never decimated,
    // and no curve is filled: those plugins are off too (they visit every dataset at each update).
    stretch.options.plugins.legend = false;
    for (const c of [wave, stretch]) Object.assign(c.options.plugins, { decimation: false, filler: false });
    for (const c of [wave, stretch]) Object.assign(c.options.scales.x.ticks, { includeBounds: false });
    // on a phone the d slider sits under the wavelengths it moves, not under the config panel (host/phone.js)
    wave.canvas.parentElement.classList.add('phone-legend', 'phone-control-after');
    stretch.canvas.parentElement.classList.add('phone-tall');
    const note = document.createElement('p');
    note.className = 'chart-note';
    stretch.canvas.parentElement.before(note);

    // "Paste your config.json": a menu of real configs, the text, and what pe.ropeScaling made of it.
    const panel = document.createElement('div');
    panel.className = 'config-panel';
    const id = `scaling-config-${Math.random().toString(36).slice(2, 8)}`;
    panel.innerHTML = `<div class="config-row"><label for="${id}-preset"></label> <select id="${id}-preset" class="not-a-setting"></select></div>` +
      `<label for="${id}" class="config-label"></label>` +
      `<textarea id="${id}" class="config-text mono" rows="12" spellcheck="false" wrap="off"></textarea>` +
      '<p class="config-message" role="status" aria-live="polite"></p>';
    el.append(panel);
    const preset = panel.querySelector('select'), text = panel.querySelector('textarea'), message = panel.querySelector('.config-message');
    for (const name of Object.keys(PRESETS)) preset.append(new Option(name, name));
    // once the text is no preset's, the menu says so rather than name the preset it started from;
    // the reader cannot pick it (a preset's text would have to come back)
    const own = new Option('', '');
    own.disabled = own.hidden = true; // the closed menu still shows it, chosen
    preset.append(own);
    // Texts in the current language; run again by update() after a language switch (only
    // then: rewriting them, an innerHTML among them, at every redraw would be DOM work for nothing).
    let labelled = null;
    const label = () => {
      if (labelled === lang()) return;
      labelled = lang();
      note.textContent = String(M.note);
      panel.querySelector('.config-row label').textContent = String(M.startFrom);
      panel.querySelector('.config-label').innerHTML = String(M.configLabel);
      for (const o of preset.options) o.textContent = String(o === own ? M.presetOwn : PRESET_NAMES[o.value] ?? o.value);
    };
    const load = () => {
      text.value = PRESET_TEXT[preset.value];
      text.rows = text.value.split('\n').length + 1;
    };
    load();
    preset.addEventListener('input', () => (load(), requestRedraw(el)));
    text.addEventListener('input', () => {
      preset.value = Object.keys(PRESET_TEXT).find((name) => PRESET_TEXT[name] === text.value) ?? '';
      requestRedraw(el);
    });

    /** The pasted config, read with pe.ropeScaling and run through the kernels, or { error }. */
    let lastConfig = null, lastConfigKey = '';
    const readConfig = (p) => {
      // The same text, fallbacks and language give the same result: kept while other controls move.
      const key = JSON.stringify([text.value, p.dim, p.base, p.l0, p.seqLen, lang()]);
      if (key !== lastConfigKey) (lastConfig = computeConfig(p)), (lastConfigKey = key);
      return lastConfig;
    };
    // the softmax scale a whole config names (DeepSeek's YaRN moves its mscale there), else 1: a
    // bare scaling block names none
    const softmaxOf = (json) => {
      if (!json || typeof json !== 'object' || !['model_type', 'hidden_size', 'text_config'].some((k) => k in json)) return 1;
      try {
        const types = Object.values(pe.ropeConfig(json).layerTypes).filter((t) => !t.nope);
        return types[0]?.softmaxScale ?? 1;
      } catch {
        return 1; // what ropeScaling read is said; the rest of the config is not this chart's
      }
    };
    const computeConfig = ({ dim, base, l0, seqLen }) => {
      let json;
      try {
        json = JSON.parse(text.value);
      } catch (err) {
        return { error: M.notJson.format({ message: err.message }) };
      }
      try {
        // A bare scaling block names no training length, as it names no head dim or base: the
        // training length control supplies it, under the key its type reads.
        const l0Key = missingL0Key(json);
        const usedL0 = l0Key !== null;
        if (usedL0) json = { ...json, [l0Key]: l0 };
        const r = pe.ropeScaling(json);
        const rotaryDim = r.rotaryDim ?? dim;
        const b = r.base ?? base;
        let scaling = r.scaling;
        // The length-dependent variants need the current length; the config cannot know it.
        if (scaling && (scaling.type === 'dynamic' || scaling.type === 'longrope') && scaling.seqLen === undefined) scaling = { ...scaling, seqLen };
        const inv = pe.ropeInvFreq(rotaryDim, { base: b, scaling });
        const plain = pe.ropeInvFreq(rotaryDim, { base: b });
        const attn = pe.ropeAttentionFactor(rotaryDim, { base: b, scaling });
        return { r, rotaryDim, base: b, scaling, inv, plain, attn, softmax: softmaxOf(json), usedDim: r.rotaryDim === undefined, usedBase: r.base === undefined, usedL0: usedL0 ? l0 : null };
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
          ['original', String(M.original), undefined],
          ['linear', M.linear.format({ factor: sig(factor, 4) }), { type: 'linear', factor }],
          ['ntk', String(M.ntk), { type: 'ntk', factor }],
          ['dynamic', M.dynamic.format({ seqLen }), { type: 'dynamic', factor, maxPositionEmbeddings: l0, seqLen }],
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
            // e.g. llama3 with high_freq_factor < low_freq_factor: say so, draw the others
            skipped.push(`${key}: ${err.message}`);
          }
        }
        const orig = out[0].inv;
        // Shown without controls (an embed's controls="0"), the box is hidden, and so is its line:
        // a reader could neither see nor change the config it draws.
        const boxShown = !el.closest('.no-controls');
        const cfg = boxShown ? readConfig(p) : { hidden: true };

        // The point arrays are kept between redraws (pointArrays): refilled, not rebuilt.
        wave.data.datasets = out.map(({ key, label, inv }) => dataset(label, pts(`wave ${key}`, inv.length, (i) => TAU / inv[i]), key));
        stretch.data.datasets = out.map(({ key, label, inv }) => dataset(label, pts(`stretch ${key}`, inv.length, (i) => orig[i] / inv[i]), key));
        if (cfg.inv) {
          const name = M.yourConfig.format({ type: cfg.scaling?.type ?? M.noScaling, dim: cfg.rotaryDim });
          const marks = { pointRadius: cfg.rotaryDim <= 160 ? 3.5 : 0, pointStyle: 'circle' };
          const { inv, plain } = cfg;
          wave.data.datasets.push(dataset(name, pts('wave config', inv.length, (i) => TAU / inv[i]), 'config', marks));
          stretch.data.datasets.push(dataset(name, pts('stretch config', inv.length, (i) => plain[i] / inv[i]), 'config', marks));
        }
        const last = Math.max(half, cfg.rotaryDim ? cfg.rotaryDim / 2 : 0) - 1;
        wave.data.datasets.push(dataset(M.l0Line.format({ l0 }), pts('l0', 2, () => l0, (i) => i * last), 'l0'));
        // the config's curve is read against its own training length
        const ownL0 = cfg.inv ? scalingL0(cfg.scaling) : undefined;
        if (ownL0 && ownL0 !== l0) wave.data.datasets.push(dataset(M.configL0Line.format({ l0: ownL0 }), pts('config l0', 2, () => ownL0, (i) => i * last), 'configL0'));
        for (const c of [wave, stretch]) (c.options.scales.x.min = 0), (c.options.scales.x.max = Math.max(1, last));
        wave.update();
        stretch.update();

        const byKey = Object.fromEntries(out.map((v) => [v.key, v]));
        const moved0 = out.slice(1).filter((v) => v.inv[0] !== orig[0]).map((v) => v.key);
        const tail = (key) => (byKey[key] ? sig(orig[half - 1] / byKey[key].inv[half - 1], 3) : '–');
        if (cfg.hidden) {
          message.textContent = '';
        } else if (cfg.error) {
          message.textContent = cfg.error;
          message.classList.add('error');
          delete text.dataset.drawn;
        } else {
          const c = cfg.rotaryDim / 2 - 1;
          message.classList.remove('error');
          const kind = cfg.scaling ? `${cfg.scaling.type}${cfg.scaling.factor !== undefined ? ` ×${sig(cfg.scaling.factor, 4)}` : ''}` : null;
          const v = {
            kind: kind ?? M.noScaling, rotaryDim: cfg.rotaryDim, base: sig(cfg.base, 6), attn: sig(cfg.attn, 6), softmax: sig(cfg.softmax, 5),
            ...alike({ slowFrom: TAU / cfg.plain[c], slowTo: TAU / cfg.inv[c] }), slowRatio: sig(cfg.plain[c] / cfg.inv[c], 4),
            ...alike({ fastFrom: TAU / cfg.plain[0], fastTo: TAU / cfg.inv[0] }),
          };
          // A wavelength the config leaves as it was (to the digits shown) stays, rather than going from x to x.
          const longrope = cfg.scaling?.type === 'longrope';
          // a figure's settings line says what the config was read as, not its text cut short
          text.dataset.drawn = M.configDrawn.format({ ...v, l0: ownL0 ? M.configOwnL0.format({ l0: ownL0 }) : '' });
          message.textContent = M.configRead.format(v) + (cfg.usedDim ? String(M.configDimFallback) : '') +
            (cfg.usedL0 ? M.configL0Fallback.format({ l0: cfg.usedL0 }) : ownL0 ? M.configOwnL0.format({ l0: ownL0 }) : '') +
            (longrope ? (cfg.scaling.seqLen > ownL0 ? M.configLong : M.configShort).format({ seqLen: cfg.scaling.seqLen }) : '') +
            M.configBase.format(v) + (cfg.usedBase ? String(M.configBaseFallback) : '') + M.configAttn.format(v) + (cfg.softmax !== 1 ? M.configSoftmax.format(v) : '') +
            (v.slowFrom === v.slowTo ? M.configSlowSame : M.configSlow).format(v) +
            (v.fastFrom === v.fastTo ? M.configFastSame : M.configFast).format(v);
        }
        const vname = (k) => String(VARIANT_NAMES[k] ?? k);
        const r = {
          attn: out.slice(1).map((v) => `${vname(v.key)} ${sig(v.attn, 4)}`).join(String(M.attnSep)),
          last: half - 1, slowLambda: wavelength(TAU / orig[half - 1]), fastLambda: wavelength(TAU / orig[0]), seqLen,
          linear: tail('linear'), ntk: tail('ntk'), dynamic: tail('dynamic'), yarn: tail('yarn'), llama3: tail('llama3'),
          moved: moved0.map(vname).join(String(M.nameSep)), skipped: skipped.join(String(M.skipSep)),
        };
        view.readout = cjkSpacing(M.readout.format(r) + (moved0.length ? M.readoutMoved : M.readoutUnmoved).format(r) +
          (skipped.length ? M.readoutSkipped.format(r) : M.end));
        // What to notice: dynamic NTK's own factor s·L/L0 − (s − 1), the one stretch that is not s
        // (HF takes max(L, L0), so it is 1 up to L0). Whether pair 0 moved is in the readout.
        const nv = { factor: sig(factor, 4), seqLen, l0, dynamic: r.dynamic, dynFactor: sig((factor * seqLen) / l0 - (factor - 1), 4), moved: r.moved };
        const dynStretch = byKey.dynamic ? orig[half - 1] / byKey.dynamic.inv[half - 1] : null;
        const allS = out.slice(1).every((v) => Math.abs(orig[half - 1] / v.inv[half - 1] / factor - 1) < 1e-9);
        view.notice = (dynStretch !== null && seqLen <= l0 && factor !== 1 ? M.noticeDynamicOff
          : dynStretch !== null && Math.abs(dynStretch / factor - 1) > 1e-9 ? M.noticeDynamic
            : allS ? M.noticeSlowest : M.noticeSlowestMixed).format(nv);

        const keys = out.map((v) => v.key);
        const n = Math.max(half, cfg.inv?.length ?? 0);
        const ifShown = (x) => (cfg.hidden ? [] : [x]); // the config's column, unless its box is hidden
        return {
          measured: {
            attention: Object.fromEntries(out.map((v) => [v.key, v.attn])),
            config: cfg.hidden ? null : cfg.error ? { error: cfg.error } : {
              type: cfg.scaling?.type ?? null, rotaryDim: cfg.rotaryDim, base: cfg.base, attentionFactor: cfg.attn,
              slowestStretch: cfg.plain[cfg.plain.length - 1] / cfg.inv[cfg.inv.length - 1],
            },
          },
          columns: ['pair i', ...keys.map((k) => `wavelength ${k}`), ...ifShown('wavelength config')],
          heads: colHeads([COL.pairI, ...out.map((v) => COL.wavelengthOf.format({ name: v.label })), ...ifShown(COL.wavelengthOf.format({ name: M.colConfig }))]),
          rows: Array.from({ length: n }, (_, i) => [i, ...out.map((v) => (i < half ? TAU / v.inv[i] : null)),
            ...ifShown(cfg.inv && i < cfg.inv.length ? TAU / cfg.inv[i] : null)]),
        };
      },
      destroy: () => (wave.destroy(), stretch.destroy()),
    };
    return view;
  },
};
