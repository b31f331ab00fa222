// runtime-compare.js: what llama.cpp computes from a GGUF file against what the model's
// config.json means (transformers' reading), for the model chosen: per pair, the angle each
// runtime turns a query by at position m; the largest score error up to each distance, as
// model-misreads draws it; and compareRuntimes' findings, with the llama.cpp flags that fix them.
// The GGUF is the reader's (a file read here, or a Hub file read by Range requests), or, until
// there is one, the front of the file convert_hf_to_gguf.py would write from the config, built in
// the page (optionally as an older converter wrote it): simulated, and said to be.
import { lineChart, palette, dashes, lineLegend, sig, intGrid, logAxis, logLabel, COL, colHeads } from './common.js';
import { MODEL_IDS, MODEL_LABELS, ERROR_DISTANCES, modelReader } from './shared/model.js';
import { convertedGguf } from './shared/gguf-convert.js';
import { hubFile, hubJson, hubFiles, checkHubId, parseHubUrl } from './shared/hub.js';
import { readGguf } from '../lib/gguf.js';
import { FLAG_NAMES, ggufArch } from '../lib/llamacpp.js';
import { messages, onLang, lang } from '../host/i18n.js';

const FILES = ['converted', 'no-rope-freqs', 'no-freq-base-swa', 'yours'];
const OMIT = { 'no-rope-freqs': 'rope_freqs', 'no-freq-base-swa': 'freq_base_swa' };
const CODES = ['architecture-differs', 'layers-not-compared', 'rope-freqs-missing', 'longrope-factors-by-context', 'swa-base-missing', 'flag-overridden', 'flag-no-op',
  'base-differs', 'scaling-differs', 'pairing-differs', 'attn-factor-differs', 'none'];

const M = messages({
  en: {
    colConfig: 'angle, by the config',
    colLlamacpp: 'angle, as llama.cpp computes it',
    title: 'What llama.cpp computes from a GGUF against what the config means: angles per pair, score error by distance, findings',
    model: 'config',
    file: 'GGUF',
    converted: 'converted from this config today (simulated)',
    'no-rope-freqs': 'converted before llama.cpp#8676: no rope_freqs (simulated)',
    'no-freq-base-swa': 'converted before llama.cpp#18553: no freq_base_swa (simulated)',
    yours: 'your GGUF (load one below)',
    position: 'position m',
    ctx: 'llama.cpp context -c (0: the file’s)',
    angleX: 'pair i',
    angleY: 'angle m·θᵢ, radians (log scale)',
    scoreX: 'distance m − n from key to query (log scale)',
    scoreY: 'largest |score error| so far ÷ (|q|·|k|)',
    lineConfig: 'the config (transformers)',
    lineLlama: 'llama.cpp with this GGUF',
    lineError: 'llama.cpp against the config',
    sourceSim: 'Simulated file: the GGUF keys and RoPE tensors convert_hf_to_gguf.py writes for {model}{omit}. ',
    omitRope: ', without rope_freqs, as converters before llama.cpp#8676 (late July 2024) wrote it',
    omitSwa: ', without freq_base_swa, as converters before January 2026 wrote it',
    omitNone: ' (every converter of this model writes the same here, so this is today’s conversion)',
    sourceRead: 'Read from {name}: {bytes} of its bytes (metadata and RoPE tensors only). ',
    readAgree: 'Layer type {type}: all {half} pairs agree. ggml’s own float32 rounding at position {pmax} moves cos and sin by up to {f32}. ',
    archMismatch: 'This GGUF is a “{file}” model, but a conversion of this config would be “{config}”: compare it with its own config. ',
    readout: 'Layer type {type}: {pairs} of {half} pairs differ; at m = {m} {ratio}. Largest score error {worst} (a share of |q|·|k|) at distance {wd}{first}. ggml’s own float32 rounding at position {pmax} moves cos and sin by up to {f32}. ',
    readFirst: ', first past 1 % at distance {x}',
    readNever: ', never past 1 %',
    clamped: 'Position m is kept below the context ({ctx}). ',
    stillNote: 'Pairs {pairs} stand still in both: θᵢ is 0 in the config, and llama.cpp’s factor of 1e30 leaves it at {theta} rad a position or less, which counts as agreement; they are not drawn on the log axis. ',
    noticeDiff: '{headline} At position m = {m}, llama.cpp turns {pairs} of {half} pairs differently from the config, {times}, and the score error first passes 1 % of |q|·|k| at distance {x}.',
    timesMore: 'up to {r}× as far',
    timesLess: 'down to 1/{r} of its angle',
    readMore: 'llama.cpp turns them up to {r}× as far as the config does (pair {at} is the first to reach {r}×)',
    readLess: 'llama.cpp turns them as little as 1/{r} of the config’s angle (pair {at} is the first to reach 1/{r})',
    noticeDiffSmall: '{headline} The angles differ, yet no score moves by more than 1 % at the distances shown (up to distance {max}).',
    noticeOther: '{headline} The angles agree; read the finding below.',
    noticeAgree: 'llama.cpp and the config agree here: the two angle lines lie on each other and the score error stays at rounding level.',
    noticeNoFile: 'No GGUF loaded yet: choose or drop a .gguf file below, or load a Hub model and pick one of its GGUF files.',
    unsupported: 'convert_hf_to_gguf.py has no conversion for model type “{type}” that this page simulates; load a GGUF of it instead.',
    error: 'Could not compare: {message}',
    findingsTitle: 'Findings',
    fixLabel: 'Fix: ',
    // the fix by its kind, shown where the page is not in English (English shows the fix's own sentence)
    fixDrop: 'leave out ',
    fixReconvert: 'no llama.cpp flag fixes this; use a GGUF converted again (which converter: see below).',
    fixNone: 'no llama.cpp flag fixes this (why: see below).',
    details: 'as {cmd} prints it',
    // a reconversion whose converter is known: named here, so that no reader has to open the quote for it
    'fix-rope-freqs-missing': 'no flag adds the per-pair factors; use a GGUF converted with convert_hf_to_gguf.py from llama.cpp b3472 or later (llama.cpp#8676).',
    'h-architecture-differs': 'This GGUF is of another model than the config.',
    'h-layers-not-compared': 'Some of the GGUF’s layers have no layer type of their own in the config, so they are not compared.',
    'h-rope-freqs-missing': 'The llama3 scaling is missing: the file has no rope_freqs tensor.',
    'h-longrope-factors-by-context': 'LongRoPE’s factors are picked by the context llama.cpp allocates, not by the length of the input.',
    'h-swa-base-missing': 'The sliding-window layers’ base is not in the file (no freq_base_swa).',
    swaBaseElsewhere: 'The sliding-window layers’ base is not in the file (no freq_base_swa); llama.cpp’s fallback, {base}, is right for this model.',
    fixReconvertOthers: 'llama.cpp needs none; for the other readers, use a GGUF converted with a convert_hf_to_gguf.py that writes rope.freq_base_swa (llama.cpp#18553).',
    'fix-swa-base-missing': 'no flag reaches the sliding-window layers; use a GGUF converted with a convert_hf_to_gguf.py that writes rope.freq_base_swa (llama.cpp#18553).',
    readErrZero: 'The score error is 0 at every distance: the line lying on the axis is that 0. ',
    'h-flag-overridden': 'A flag given here is overwritten by llama.cpp.',
    'h-flag-no-op': 'A flag given here changes nothing.',
    'h-base-differs': 'llama.cpp rotates with another base.',
    'h-scaling-differs': 'llama.cpp runs another scaling than the config says.',
    'h-pairing-differs': 'llama.cpp pairs other dimensions than the model was trained with.',
    'h-attn-factor-differs': 'llama.cpp multiplies cos and sin by another factor.',
    'h-none': 'llama.cpp and the config agree.',
    flagsLabel: 'llama.cpp flags (try a fix here)',
    badFlag: 'Not a RoPE flag of llama.cpp, or no value after it: “{flag}”. Known: {known}.',
    hubLabel: 'Hugging Face model id (owner/name) or a GGUF’s address',
    hubLoad: 'Load from the Hub',
    hubLoading: 'Asking the Hub for {id}…',
    hubLoaded: '{id}: config.json read into “your config”. {ggufs}',
    hubNoConfig: '{id} has no config.json (GGUF-only repositories usually have none): compare its GGUF with the config of the original model, from the gallery or pasted. {ggufs}',
    hubGgufs: '{count} GGUF files listed: pick one and read it.',
    hubNoGgufs: 'It lists no GGUF files.',
    hubGated: '{id} is gated or private (HTTP {status}): the Hub wants a sign-in and accepted terms, which this page cannot give. Download its files and choose them here instead.',
    hubMissing: '{id} is not on the Hub (404): check the id.',
    hubFileMissing: '{id} is not on the Hub (404): check the file’s name.',
    hubOffline: 'The Hub cannot be reached (offline or blocked). The rest of the page works without it; choose a GGUF from your computer instead.',
    hubBadId: '“{id}” is not a Hub model id (owner/name).',
    hubFailed: 'The Hub answered HTTP {status} for {id}.',
    ggufList: 'GGUF file of the model',
    ggufRead: 'Read this GGUF',
    ggufReading: 'Reading the front of {name}…',
    fileLabel: 'Your .gguf file: drop it here or choose it (read here, never uploaded)',
    fileRead: '{name}: read {bytes} of {total} bytes (metadata and RoPE tensors only).',
    fileFailed: 'Could not read {name} as a GGUF: {message}',
    how: 'The config is read as transformers reads it (pe.ropeConfig); the GGUF’s keys and RoPE tensors as llama.cpp ec98e2002 resolves them (Gemma 4, which came later, as llama.cpp#21309 does) with the flags and context given (pe.llamaCppRope). pe.compareRuntimes then evaluates both sides’ θᵢ and cos/sin magnitudes in float64, so that a difference is a misread and not rounding, and names the known causes; θᵢ agree within 1e-6 relative, or, for a pair that all but stands still, when no position llama.cpp takes (up to 2³¹ − 1) turns the two more than 1e-6 rad apart. The score error uses one random query and key (seed 0) of the layer type’s head size, key at position 0 and query at the distance m − n, which scores as the query at m does with its key at n (the score depends on the distance alone), on up to 240 log-spaced whole distances from 1 to m, the first distance past 1 % found exactly; both runtimes take any scaling that depends on the length at the sequence length m + 1. A simulated GGUF is built in the page from the config as convert_hf_to_gguf.py writes one; a file you choose is read in the browser, and a Hub GGUF by Range requests (only its front and RoPE tensors). The context control is the context of one sequence, which picks LongRoPE\'s short or long factors. At 0 it is the file\'s, as current builds take it without -c, unless fitting the model into the device\'s memory shrinks it; older builds defaulted to -c 4096. llama-server started with -np N gives each of its N parallel sequences -c / N, unless they share one cache: enter that number here.',
  },
  zh: {
    colConfig: '角度（按配置）',
    colLlamacpp: '角度（按 llama.cpp）',
    title: 'llama.cpp 依据 GGUF 的计算结果与配置本意的对比：各维度对的角度、随距离的得分误差、诊断结果',
    model: '配置',
    file: 'GGUF',
    converted: '用现在的转换脚本从这个配置生成（模拟）',
    'no-rope-freqs': '在 llama.cpp#8676 之前转换：没有 rope_freqs（模拟）',
    'no-freq-base-swa': '在 llama.cpp#18553 之前转换：没有 freq_base_swa（模拟）',
    yours: '你的 GGUF（在下面读取）',
    position: '位置 m',
    ctx: 'llama.cpp 上下文 -c（0：取文件中的值）',
    angleX: '第 i 对',
    angleY: '角度 m·θᵢ，弧度（对数坐标）',
    scoreX: 'key 到 query 的距离 m − n（对数坐标）',
    scoreY: '累计最大 |得分误差| ÷ (|q|·|k|)',
    lineConfig: '配置（transformers）',
    lineLlama: 'llama.cpp 读这个 GGUF',
    lineError: 'llama.cpp 与配置之差',
    sourceSim: '模拟的文件：convert_hf_to_gguf.py 为 {model} 写出的 GGUF 键和 RoPE 张量{omit}。',
    omitRope: '，且按 llama.cpp#8676（2024 年 7 月下旬）之前转换脚本的写法，不含 rope_freqs',
    omitSwa: '，且按 2026 年 1 月之前转换脚本的写法，不含 freq_base_swa',
    omitNone: '（这个模型不论用哪个版本的转换脚本，这里写出的都一样，所以它就是用现在的转换脚本生成的文件）',
    sourceRead: '读自 {name}：读了 {bytes} 字节（只有元数据和 RoPE 张量）。',
    readAgree: '层类型 {type}：全部 {half} 对一致。ggml 自身的 float32 舍入在位置 {pmax} 让 cos 和 sin 最多偏 {f32}。',
    archMismatch: '这个 GGUF 是“{file}”模型，而这个配置转换后应是“{config}”：请用它自己的配置来比较。',
    readout: '层类型 {type}：{half} 对中有 {pairs} 对不同；在 m = {m} 处，{ratio}。最大得分误差 {worst}（以 |q|·|k| 为单位，在距离 {wd} 处）{first}。ggml 自身的 float32 舍入在位置 {pmax} 让 cos 和 sin 最多偏 {f32}。',
    readFirst: '，在距离 {x} 处首次超过 1%',
    readNever: '，从未超过 1%',
    clamped: '位置 m 限制在上下文（{ctx}）之内。',
    stillNote: '第 {pairs} 对在两边都不转：配置中 θᵢ 为 0，llama.cpp 用 1e30 的因子把它压到每个位置至多 {theta} 弧度，算作一致；对数坐标上不画出它们。',
    noticeDiff: '{headline}在位置 m = {m}，{half} 对中有 {pairs} 对在 llama.cpp 里转过的角度与配置本意不同，{times}；得分误差在距离 {x} 处首次超过 |q|·|k| 的 1%。',
    timesMore: '最多达到配置角度的 {r} 倍',
    timesLess: '最少只有配置角度的 1/{r}',
    readMore: 'llama.cpp 转过的角度最多达到配置角度的 {r} 倍（第 {at} 对最先达到 {r} 倍）',
    readLess: 'llama.cpp 转过的角度最少只有配置角度的 1/{r}（第 {at} 对最先降到 1/{r}）',
    noticeDiffSmall: '{headline}角度不同，但在图中的距离上（直到距离 {max}）得分偏差都不超过 1%。',
    noticeOther: '{headline}角度一致；请看下面的诊断结果。',
    noticeAgree: '这里 llama.cpp 与配置一致：两条角度曲线重合，得分误差只在舍入的量级。',
    noticeNoFile: '还没有读取 GGUF：在下面选择或拖入一个 .gguf 文件，或者从 Hub 读取一个模型并选其中一个 GGUF 文件。',
    unsupported: '本页没有模拟 convert_hf_to_gguf.py 对模型类型“{type}”的转换；请改为读取它的 GGUF 文件。',
    error: '无法比较：{message}',
    findingsTitle: '诊断结果',
    fixLabel: '修正：',
    fixDrop: '去掉 ',
    fixReconvert: '没有哪个 llama.cpp 命令行参数能修正它；请换用重新转换的 GGUF（用哪个版本的转换脚本，见下方原文）。',
    fixNone: '没有哪个 llama.cpp 命令行参数能修正它（原因见下方原文）。',
    details: '{cmd} 命令输出的英文原文',
    'fix-rope-freqs-missing': '没有哪个 llama.cpp 命令行参数能补上每个维度对的除数；请下载或自行转换一个用 llama.cpp b3472 及以后版本（llama.cpp#8676）的 convert_hf_to_gguf.py 生成的 GGUF。',
    'h-architecture-differs': '这个 GGUF 与配置不是同一个模型。',
    'h-layers-not-compared': 'GGUF 里有些层在配置中没有对应的层类型，这些层不参与对比。',
    'h-rope-freqs-missing': '缺少 llama3 缩放：文件中没有 rope_freqs 张量。',
    'h-longrope-factors-by-context': 'LongRoPE 的因子按 llama.cpp 分配的上下文长度选取，而不是按输入的长度。',
    'h-swa-base-missing': '文件中没有滑动窗口层的底数（缺少 freq_base_swa）。',
    swaBaseElsewhere: '文件中没有滑动窗口层的底数（缺少 freq_base_swa）：llama.cpp 默认取 {base}，对这个模型恰好是对的；但把 freq_base 用于所有层的其他读取程序会把这些层转错。',
    fixReconvertOthers: 'llama.cpp 本身不需要修正；为了让其他读取程序也读对，请换用由会写入 rope.freq_base_swa 的 convert_hf_to_gguf.py（llama.cpp#18553）重新转换的 GGUF。',
    'fix-swa-base-missing': '没有哪个 llama.cpp 命令行参数能作用到滑动窗口层；请换用由会写入 rope.freq_base_swa 的 convert_hf_to_gguf.py（llama.cpp#18553）重新转换的 GGUF。',
    readErrZero: '在每个距离上得分误差都是 0：贴在横轴上的那条线就是这个 0。',
    'h-flag-overridden': '这里给出的某个命令行参数被 llama.cpp 覆盖了。',
    'h-flag-no-op': '这里给出的某个命令行参数不起作用。',
    'h-base-differs': 'llama.cpp 用的底数不同。',
    'h-scaling-differs': 'llama.cpp 用的缩放与配置不同。',
    'h-pairing-differs': 'llama.cpp 配对的维度与模型训练时不同。',
    'h-attn-factor-differs': 'llama.cpp 给 cos 和 sin 乘的因子不同。',
    'h-none': 'llama.cpp 与配置一致。',
    flagsLabel: 'llama.cpp 命令行参数（可在这里试一试修正）',
    badFlag: '“{flag}”不是 llama.cpp 的 RoPE 参数，或者后面缺少取值。可用的参数：{known}。',
    hubLabel: 'Hugging Face 模型 id（owner/name）或 GGUF 文件的网址',
    hubLoad: '从 Hub 读取',
    hubLoading: '正在向 Hub 查询 {id}…',
    hubLoaded: '{id}：已把 config.json 读入“你的配置”。{ggufs}',
    hubNoConfig: '{id} 没有 config.json（只放 GGUF 的仓库通常没有）：请把它的 GGUF 与原模型的配置对比，可以从预置模型中选，也可以粘贴。{ggufs}',
    hubGgufs: '列出了 {count} 个 GGUF 文件：选一个读取。',
    hubNoGgufs: '其中没有 GGUF 文件。',
    hubGated: '{id} 是受限或私有模型（HTTP {status}）：Hub 要求登录并同意条款，本页做不到。请下载它的文件，再在这里选择。',
    hubMissing: 'Hub 上没有 {id}（404）：请检查 id。',
    hubFileMissing: 'Hub 上没有 {id}（404）：请检查文件名。',
    hubOffline: '无法连接 Hub（离线或被拦截）。页面的其余部分不受影响；请改为从你的电脑选择 GGUF 文件。',
    hubBadId: '“{id}”不是 Hub 模型 id（owner/name）。',
    hubFailed: 'Hub 对 {id} 返回了 HTTP {status}。',
    ggufList: '模型的 GGUF 文件',
    ggufRead: '读取这个 GGUF',
    ggufReading: '正在读取 {name} 的开头部分…',
    fileLabel: '你的 .gguf 文件：拖到这里或选择文件（只在本地读取，从不上传）',
    fileRead: '{name}：读了 {total} 字节中的 {bytes} 字节（只有元数据和 RoPE 张量）。',
    fileFailed: '无法把 {name} 当作 GGUF 读取：{message}',
    how: '页面按 transformers 的方式读取配置（pe.ropeConfig），按 llama.cpp ec98e2002 的规则（Gemma 4 是后来才支持的，按 llama.cpp#21309 的规则）、结合给定的参数和上下文解析 GGUF 的键和 RoPE 张量（pe.llamaCppRope）。随后 pe.compareRuntimes 用 float64 计算两边的 θᵢ 和 cos/sin 的幅度，因此差异来自误读而不是舍入，并指出已知的原因；θᵢ 的相对差在 1e-6 以内算一致，几乎不转的维度对则只要在 llama.cpp 能取的任何位置（直到 2³¹ − 1）上两边的角度相差不到 1e-6 弧度，也算一致。得分误差用一个随机的 query 和 key（种子 0，维度取该层类型的头维度）：key 在位置 0，query 在位置 m − n；得分只取决于距离，所以这就是位置 m 的 query 与位置 n 上的 key 的得分。距离取从 1 到 m 的至多 240 个按对数等距的整数，首次超过 1% 的距离则逐个精确查找；依赖长度的缩放，两边都按序列长度 m + 1 计算。模拟的 GGUF 是页面按 convert_hf_to_gguf.py 的写法从配置生成的；你选择的文件在浏览器里读取，Hub 上的 GGUF 用 Range 请求读取（只读开头和 RoPE 张量）。上下文控件指分给一个序列的上下文长度，LongRoPE 按它选短因子还是长因子。设为 0 时取文件中的值，这与当前版本不带 -c 时相同，除非为了放进设备内存而自动缩小；较早的版本默认是 -c 4096。llama-server 用 -np N 开 N 个并行序列时，每个序列分到 -c / N（共用一个缓存时除外）：这里应填这个数。',
  },
});

/**
 * "--rope-freq-base 10000 --rope-scaling yarn -c 8192" → { ropeFreqBase: 10000, ropeScaling: 'yarn', ctx: 8192 };
 * throws the bad token. -c / --ctx-size are taken because llama.cpp's users type them with the rest.
 */
const BY_FLAG = { ...Object.fromEntries(Object.entries(FLAG_NAMES).map(([k, v]) => [v, k])), '-c': 'ctx', '--ctx-size': 'ctx' };
function parseFlags(text) {
  const words = text.trim().split(/\s+/).filter(Boolean), flags = {};
  for (let j = 0; j < words.length; j += 2) {
    const [name, inline] = words[j].split('=');
    const k = BY_FLAG[name], v = inline ?? words[j + 1];
    if (!k || v === undefined) throw Object.assign(new Error('flag'), { flag: words[j] });
    if (inline !== undefined) j--;
    flags[k] = k === 'ropeScaling' ? v : Number(v);
  }
  return flags;
}

/** The score q·k of k at 0 and q at Δ (float64) for one runtime's reading of a head. */
function score(q, k, headDim, rotaryDim, style, theta, mag, d) {
  const half = rotaryDim / 2;
  let s = 0;
  for (let j = rotaryDim; j < headDim; j++) s += q[j] * k[j];
  let r = 0;
  for (let i = 0; i < half; i++) {
    const a = style === 'half' ? i : 2 * i, b = style === 'half' ? i + half : 2 * i + 1;
    const phi = d * theta[i];
    r += (q[a] * k[a] + q[b] * k[b]) * Math.cos(phi) + (q[a] * k[b] - q[b] * k[a]) * Math.sin(phi);
  }
  return s + mag * mag * r;
}

/** The layer type to draw: the first whose angles or magnitude differ, else one a finding names, else the full-attention one. */
function pickType(cmp) {
  const entries = Object.entries(cmp.layerTypes);
  const off = ([, t]) => t.differingPairs.length || t.rotaryDim.config !== t.rotaryDim.llamaCpp || t.pairing.config !== t.pairing.llamaCpp ||
    (t.magnitude.config !== null && Math.abs(t.magnitude.config - t.magnitude.llamaCpp) > 1e-6 * t.magnitude.config);
  const named = ([n]) => cmp.findings.some((f) => f.code !== 'none' && f.layerTypes.includes(n));
  return entries.find(off) ?? entries.find(named) ?? entries.find(([n]) => n === 'full_attention') ?? entries[0];
}

export default {
  kind: 'runtime-compare',
  messages: M,
  title: M.title,
  params: [
    { name: 'model', label: M.model, type: 'select', options: MODEL_IDS, value: 'llama-3.1-8b', optionLabels: MODEL_LABELS },
    { name: 'file', label: M.file, type: 'select', options: FILES, value: 'no-rope-freqs', optionLabels: Object.fromEntries(FILES.map((f) => [f, M[f]])) },
    { name: 'position', label: M.position, type: 'int', min: 1, max: 1048576, value: 32768 },
    { name: 'ctx', label: M.ctx, type: 'int', min: 0, max: 1048576, value: 0 },
  ],
  mount(el, { pe, Chart }) {
    const angles = lineChart(el, Chart, { x: M.angleX, y: M.angleY, yType: 'logarithmic', aspect: 2.2 });
    const errors = lineChart(el, Chart, { x: M.scoreX, y: M.scoreY, xType: 'logarithmic', aspect: 2.2, legend: false });
    angles.options.plugins.legend = lineLegend;
    for (const c of [angles, errors]) c.canvas.parentElement.classList.add('phone-tall'); // room to plot on a phone
    // on a phone the model menu sits under the angles it changes, not under the file panels (host/phone.js)
    angles.canvas.parentElement.classList.add('phone-control-after');
    Object.assign(angles.options.scales.y, logAxis);
    Object.assign(errors.options.scales.x, logAxis);
    errors.options.scales.y.min = 0; // an error's size: 0 to 1 when it is exactly 0 (Gemma 4), not −1 to 1
    // an error at rounding level (Phi-3.5 with -c 4096) has ticks like 3.5e-8: written as the log axes write them,
    // not in Chart.js's own form (3.500000000E-8)
    errors.options.scales.y.ticks.callback = (v) => (v === 0 ? '0' : v < 0 ? `−${logLabel(-v)}` : logLabel(v));

    // ---- the panel: findings, flags, the Hub, a file ----
    const uid = Math.random().toString(36).slice(2, 8);
    const mk = (tag, props = {}) => Object.assign(document.createElement(tag), props);
    const field = (input, cls = 'control') => {
      const label = mk('label', { htmlFor: input.id, className: cls }), name = mk('span');
      label.append(name, ' ', input);
      return { label, name };
    };
    const findingsBox = mk('div', { className: 'config-panel runtime-findings' });
    const findingsTitle = mk('p', { className: 'real-model-title' });
    const findingsList = mk('ul');
    findingsBox.append(findingsTitle, findingsList);
    const panel = mk('div', { className: 'config-panel runtime-inputs' });
    const flagsInput = mk('input', { id: `rc-flags-${uid}`, className: 'mono', type: 'text', spellcheck: false, autocomplete: 'off', placeholder: '-c 8192 --rope-scale 4' });
    flagsInput.translate = false;
    const flags = field(flagsInput);
    const flagsRow = mk('div', { className: 'config-row' });
    // what is wrong with the flags, said where they are typed
    const flagsError = mk('p', { className: 'chart-note error' });
    flagsError.setAttribute('role', 'alert');
    flagsError.hidden = true;
    flagsRow.append(flags.label, flagsError);
    const hubInput = mk('input', { id: `rc-hub-${uid}`, type: 'text', spellcheck: false, autocomplete: 'off', placeholder: 'owner/name' });
    const hub = field(hubInput);
    const hubButton = mk('button', { type: 'button', className: 'vectors-button' });
    const ggufSelect = mk('select', { id: `rc-gguf-${uid}` });
    const gguf = field(ggufSelect);
    const ggufButton = mk('button', { type: 'button', className: 'vectors-button' });
    const hubRow = mk('div', { className: 'config-row' }), listRow = mk('div', { className: 'config-row' });
    hubRow.append(hub.label, hubButton);
    listRow.append(gguf.label, ggufButton);
    const fileInput = mk('input', { id: `rc-file-${uid}`, type: 'file', accept: '.gguf' });
    fileInput.style.maxWidth = '100%';
    const file = field(fileInput);
    const fileRow = mk('div', { className: 'config-row runtime-drop' });
    fileRow.append(file.label);
    Object.assign(fileRow.style, { border: '1px dashed var(--line)', borderRadius: '4px', padding: '0.4rem' });
    const status = mk('p', { className: 'chart-note' });
    status.setAttribute('role', 'status');
    panel.append(flagsRow, hubRow, listRow, fileRow, status);
    el.append(findingsBox, panel);
    const reader = modelReader(el, pe, 'llama-3.1-8b');

    const S = { loaded: null, hubId: null, ggufs: [], message: null, error: false, busy: false };
    const figure = () => el.closest('.chart') ?? el;
    const setControl = (name, value) => {
      const c = figure().querySelector(`.controls select[name="${name}"], .controls input[name="${name}"]`);
      if (!c) return;
      c.value = value;
      c.dispatchEvent(new Event('input', { bubbles: true }));
      c.dispatchEvent(new Event('change', { bubbles: true }));
    };
    const redraw = () => figure().querySelector('.controls input, .controls select')?.dispatchEvent(new Event('input', { bubbles: true }));
    const say = (message, error = false) => {
      S.message = message;
      S.error = error;
      render();
    };
    const render = () => {
      findingsTitle.textContent = M.findingsTitle;
      flags.name.textContent = M.flagsLabel;
      hub.name.textContent = M.hubLabel;
      hubButton.textContent = M.hubLoad;
      gguf.name.textContent = M.ggufList;
      ggufButton.textContent = M.ggufRead;
      file.name.textContent = M.fileLabel;
      listRow.style.display = S.ggufs.length ? '' : 'none';
      hubButton.disabled = ggufButton.disabled = fileInput.disabled = S.busy;
      status.textContent = S.message ? S.message() : '';
      status.classList.toggle('posenc-error', S.error);
    };
    const ggufFetch = (url, init = {}) => globalThis.fetch(url, { ...init, credentials: 'omit', referrerPolicy: 'no-referrer' });
    const hubMessage = (err, id) => {
      // a GgufError names the status only in its message
      const v = { id, status: err.status ?? /answered (?:HTTP )?(\d{3})/.exec(err.message)?.[1] ?? '?' };
      if (err.code === 'not-found') return () => M.hubFileMissing.format(v);
      if (err.code === 'gated') return () => M.hubGated.format(v);
      if (err.code === 'missing') return () => M.hubMissing.format(v);
      if (err.code === 'offline' || err.code === 'network') return () => M.hubOffline;
      if (err.code === 'bad-id') return () => M.hubBadId.format(v);
      if (err.code === 'http') return () => M.hubFailed.format(v);
      return null;
    };

    async function loadHub() {
      // a GGUF's address pasted in: the model's config and file list, then that file
      const url = parseHubUrl(hubInput.value.trim());
      const id = url ? url.id : hubInput.value.trim();
      try {
        checkHubId(id);
      } catch (err) {
        return say(hubMessage(err, id), true);
      }
      S.busy = true;
      S.ggufs = [];
      say(() => M.hubLoading.format({ id }));
      const [config, list] = await Promise.allSettled([hubJson(id, 'config.json'), hubFiles(id, '.gguf')]);
      S.busy = false;
      // the model API answers for the repository as a whole: its failure is the repository's
      if (list.status === 'rejected' && (config.status === 'rejected' || list.reason.code !== 'missing')) {
        const why = config.status === 'rejected' && config.reason.code === 'gated' ? config.reason : list.reason;
        ggufSelect.replaceChildren();
        return say(hubMessage(why, id) ?? (() => M.error.format({ message: why.message })), true);
      }
      S.hubId = id;
      S.ggufs = list.status === 'fulfilled' ? list.value : [];
      ggufSelect.replaceChildren(...S.ggufs.map((n) => new Option(n, n)));
      const ggufs = () => (S.ggufs.length ? M.hubGgufs.format({ count: S.ggufs.length }) : String(M.hubNoGgufs));
      if (config.status === 'fulfilled') {
        const text = el.querySelector('.config-text');
        if (text) text.value = JSON.stringify(config.value, null, 2);
        say(() => M.hubLoaded.format({ id, ggufs: ggufs() }));
        setControl('model', 'config');
      } else if (config.reason.code === 'missing') say(() => M.hubNoConfig.format({ id, ggufs: ggufs() }));
      else say(hubMessage(config.reason, id) ?? (() => M.error.format({ message: config.reason.message })), true);
      if (url && url.file.toLowerCase().endsWith('.gguf') && !S.error) {
        if (!S.ggufs.includes(url.file)) (S.ggufs.push(url.file), ggufSelect.append(new Option(url.file, url.file)));
        ggufSelect.value = url.file;
        await loadGguf(hubFile(id, url.file), `${id}/${url.file}`);
      }
    }

    async function loadGguf(source, name) {
      S.busy = true;
      say(() => M.ggufReading.format({ name }));
      try {
        const g = await readGguf(source, { fetch: ggufFetch });
        const total = source instanceof Blob ? source.size : null;
        S.loaded = { gguf: g, name, bytes: g.bytesRead };
        S.busy = false;
        say(() => (total ? M.fileRead.format({ name, bytes: g.bytesRead, total }) : M.sourceRead.format({ name, bytes: g.bytesRead }).trim()));
        setControl('file', 'yours');
        redraw();
      } catch (err) {
        S.busy = false;
        say((source instanceof Blob ? null : hubMessage(err, name)) ?? (() => M.fileFailed.format({ name, message: err.message })), true);
      }
    }

    hubButton.addEventListener('click', loadHub);
    hubInput.addEventListener('keydown', (e) => e.key === 'Enter' && loadHub());
    ggufButton.addEventListener('click', () => ggufSelect.value && loadGguf(hubFile(S.hubId, ggufSelect.value), `${S.hubId}/${ggufSelect.value}`));
    fileInput.addEventListener('change', () => fileInput.files[0] && loadGguf(fileInput.files[0], fileInput.files[0].name));
    fileRow.addEventListener('dragover', (e) => (e.preventDefault(), (fileRow.style.borderColor = 'var(--accent)')));
    fileRow.addEventListener('dragleave', () => (fileRow.style.borderColor = ''));
    fileRow.addEventListener('drop', (e) => {
      e.preventDefault();
      fileRow.style.borderColor = '';
      const f = e.dataTransfer?.files?.[0];
      if (f) loadGguf(f, f.name);
    });
    let typing = 0;
    flagsInput.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(redraw, 250);
    });
    const stopLang = onLang(render);
    render();

    // A missing freq_base_swa whose fallback is this model's base: right in llama.cpp, wrong
    // only in readers that take freq_base for every layer; its headline and fix say so.
    const rightInLlamaCpp = (f, cmp) => f.code === 'swa-base-missing' && f.layerTypes.every((n) => !cmp.layerTypes[n]?.differingPairs.length);
    const headlineOf = (f, cmp) => (rightInLlamaCpp(f, cmp)
      ? M.swaBaseElsewhere.format({ base: sig(cmp.layerTypes[f.layerTypes[0]].base.llamaCpp, 6) })
      : String(M[`h-${CODES.includes(f.code) ? f.code : 'none'}`]));
    const showFindings = (list, cmp) => {
      const en = lang() === 'en';
      findingsBox.style.display = list.length ? '' : 'none';
      const flagged = (text) => text.split(/(--[a-z-]+(?: [\w.+-]+)?|-c \d+)/).map((x, n) => (n % 2 ? mk('code', { textContent: x }) : x));
      const codes = (flags) => flags.split(/ (?=--?[a-z])/).flatMap((x, n) => [n ? ' ' : '', mk('code', { textContent: x })]);
      // where the page is not in English: the fix's flags, or what its kind says (its sentence is folded below)
      const fixParts = (f) => (f.fixKind === 'flags' ? [...codes(f.fixFlags), '。']
        : f.fixKind === 'drop-flag' ? [String(M.fixDrop), ...codes(f.fixFlags), '。']
          : [String(f.fixKind !== 'reconvert' ? M.fixNone : rightInLlamaCpp(f, cmp) ? M.fixReconvertOthers : M[`fix-${f.code}`] ?? M.fixReconvert)]);
      findingsList.replaceChildren(...list.map((f) => {
        const li = mk('li');
        li.dataset.code = f.code;
        const head = mk('b', { textContent: headlineOf(f, cmp) });
        li.append(head, en ? ' (' : '（', mk('code', { textContent: f.code }), en ? ')' : '）');
        // English shows the comparison's own sentences; other languages, the fix's flags and the sentences folded
        // a sentence begins with a capital, but llama.cpp keeps its own spelling
        if (en) li.append(mk('br'), f.message.startsWith('llama.cpp') ? f.message : f.message.charAt(0).toUpperCase() + f.message.slice(1));
        if (f.fix) {
          const fix = mk('span', { className: 'runtime-fix' });
          fix.append(String(M.fixLabel), ...(en ? [...flagged(f.fix), '.'] : fixParts(f)));
          li.append(mk('br'), fix);
        }
        if (!en) {
          // quoted as `posenc compare` prints it, code and all, so that it reads as a quote and not as a sentence
          const more = mk('details'), text = mk('blockquote', { className: 'chart-note quoted' });
          text.append(mk('code', { textContent: `${f.code}: ${f.message}` }), ...(f.fix ? [mk('br'), mk('code', { textContent: `fix: ${f.fix}` })] : []));
          text.lang = 'en';
          text.translate = false;
          // the command is a name, set as code in any language
          const [before, after] = String(M.details).split('{cmd}');
          const summary = mk('summary');
          summary.append(before, mk('code', { textContent: 'posenc compare' }), after);
          more.append(summary, text);
          li.append(more);
        }
        return li;
      }));
    };

    let converted = null; // { config, which, conv }: the simulated GGUF last built
    let shown = null, shownSets = null; // the last comparison drawn: its data, and its curves
    const view = {
      update({ model, file: which, position, ctx }) {
        render();
        angles.data.datasets = [];
        errors.data.datasets = [];
        const empty = { columns: ['pair'], heads: colHeads([COL.pairI]), rows: [] };
        const stop = (readout, notice) => {
          // empty axes, as a chart mounted here draws them
          for (const ax of [angles.options.scales.x, errors.options.scales.x]) ax.min = ax.max = undefined;
          angles.update();
          errors.update();
          showFindings([]);
          view.notice = notice;
          view.readout = readout;
          shown = null;
          return empty;
        };
        const { info, config, entry, error } = reader.read(model);
        if (error || !info) return stop(M.error.format({ message: error }));
        const cfg = typeof config === 'string' ? JSON.parse(config) : config;
        let source, gg;
        if (which === 'yours') {
          if (!S.loaded) return stop('', String(M.noticeNoFile));
          gg = S.loaded.gguf;
          source = M.sourceRead.format({ name: S.loaded.name, bytes: S.loaded.bytes });
        } else {
          // the file depends on the config and the choice alone: converted again only when they change
          if (converted?.config !== config || converted.which !== which) converted = { config, which, conv: convertedGguf(cfg, info, OMIT[which] ?? null) };
          const { conv } = converted;
          if (conv.error) return stop(conv.error === 'unsupported' ? M.unsupported.format({ type: conv.type }) : M.error.format({ message: conv.message }));
          gg = conv.gguf;
          const omit = which === 'converted' ? '' : (which === 'no-rope-freqs' ? String(M.omitRope) : String(M.omitSwa)) + (conv.omitted ? '' : String(M.omitNone));
          source = M.sourceSim.format({ model: String(MODEL_LABELS[entry ? entry.id : 'config']), omit });
        }
        let flagValues;
        // a flag mistyped leaves the last comparison drawn: the reader is still typing
        const badFlags = (text) => {
          flagsError.textContent = text;
          flagsError.hidden = false;
          if (!shown) return stop(text);
          [angles.data.datasets, errors.data.datasets] = shownSets;
          angles.update();
          errors.update();
          return shown;
        };
        try {
          flagValues = parseFlags(flagsInput.value);
        } catch (err) {
          if (!err.flag) throw err;
          return badFlags(M.badFlag.format({ flag: err.flag, known: [...Object.values(FLAG_NAMES), '-c'].join(' ') }));
        }
        flagsError.hidden = true;
        if (flagValues.ctx !== undefined) {
          if (!Number.isInteger(flagValues.ctx) || flagValues.ctx < 0) return badFlags(M.badFlag.format({ flag: `-c ${flagValues.ctx}`, known: '-c N' }));
          ({ ctx } = flagValues); // the flag, as on llama.cpp's command line, over the slider
          delete flagValues.ctx;
        }
        let cmp, rt;
        try {
          // the context first, to keep m inside it
          rt = pe.llamaCppRope(gg, { flags: flagValues, ctx });
          const m = Math.min(position, rt.nCtx - 1);
          // the positions posenc compare checks (0, the powers of two, the last), up to m
          const positions = [0];
          for (let p = 1; p < m; p *= 2) positions.push(p);
          if (m > 0) positions.push(m);
          cmp = pe.compareRuntimes(config, gg, { positions, flags: flagValues, ctx });
        } catch (err) {
          return stop(M.error.format({ message: `${err.name}: ${err.message}` }));
        }
        const m = Math.min(position, rt.nCtx - 1);
        const [typeName, t] = pickType(cmp);
        const half = Math.min(t.thetaConfig.length, t.thetaLlamaCpp.length);
        // pairs that agree by standing still (θ_i 0 in the config, ~1e-32 in llama.cpp: Gemma 4's
        // p-RoPE) lie at 0 on both sides and are left off the log axis, as 0 is
        const still = t.stillPairs, stillSet = new Set(still);
        const pts = (theta) => Array.from({ length: theta.length }, (_, i) => ({ x: i, y: stillSet.has(i) || !(theta[i] > 0) ? null : m * theta[i] }));
        angles.data.datasets.push(
          { label: String(M.lineConfig), data: pts(t.thetaConfig), borderColor: palette[0], borderWidth: 2.5 },
          { label: String(M.lineLlama), data: pts(t.thetaLlamaCpp), borderColor: palette[1], borderDash: dashes[1], borderWidth: 1.75 },
        );
        // the pair whose angle is furthest off, as llama.cpp's angle over the config's
        let ratio = 1, at = 0;
        for (const i of t.differingPairs) {
          const r = t.thetaLlamaCpp[i] / t.thetaConfig[i];
          if (Math.abs(Math.log(r)) > Math.abs(Math.log(ratio)) * (1 + 1e-12)) (ratio = r), (at = i);
        }
        const times = ratio >= 1 ? M.timesMore.format({ r: sig(ratio, 3) }) : M.timesLess.format({ r: sig(1 / ratio, 3) });
        // the score error, q and k of the head size
        const info0 = info.layerTypes[typeName];
        const headDim = info0.headDim;
        const qk = pe.randomNormal(2 * headDim, 1);
        const q = qk.subarray(0, headDim), k = qk.subarray(headDim);
        let nq = 0, nk = 0;
        for (let j = 0; j < headDim; j++) (nq += q[j] * q[j]), (nk += k[j] * k[j]);
        const norm = Math.sqrt(nq * nk);
        // the query at m against each key before it: distances 1 to m
        const maxD = Math.max(2, m);
        const dist = intGrid(1, maxD, ERROR_DISTANCES, 'log');
        const magC = t.magnitude.config ?? 1;
        const errAt = (d) => Math.abs(score(q, k, headDim, t.rotaryDim.llamaCpp, t.pairing.llamaCpp, t.thetaLlamaCpp, t.magnitude.llamaCpp, d) -
          score(q, k, headDim, t.rotaryDim.config, t.pairing.config, t.thetaConfig, magC, d)) / norm;
        const err = dist.map(errAt);
        let run = 0, worst = 0, first = -1;
        err.forEach((e, j) => ((worst = e > err[worst] ? j : worst), first < 0 && e > 0.01 && (first = j)));
        // the first distance past 1 %, exactly: the grid may step over it
        let firstD = first >= 0 ? dist[first] : -1;
        if (first > 0) for (let d = dist[first - 1] + 1; d < dist[first]; d++) if (errAt(d) > 0.01) (firstD = d), (d = Infinity);
        errors.data.datasets.push({ label: String(M.lineError), data: dist.map((x, j) => ({ x, y: (run = Math.max(run, err[j])) })), borderColor: palette[1], borderWidth: 1.75 });
        angles.options.scales.x.min = 0;
        angles.options.scales.x.max = Math.max(t.thetaConfig.length, t.thetaLlamaCpp.length) - 1;
        errors.options.scales.x.min = 1;
        errors.options.scales.x.max = maxD;
        angles.update();
        errors.update();
        showFindings(cmp.findings, cmp);

        const main = cmp.findings.find((f) => f.code !== 'none' && f.layerTypes.includes(typeName)) ?? cmp.findings.find((f) => f.code !== 'none');
        const headline = main ? headlineOf(main, cmp) : '';
        const angleDiffers = t.differingPairs.length > 0 || t.pairing.config !== t.pairing.llamaCpp;
        if (!main) view.notice = String(M.noticeAgree);
        else if (!angleDiffers) view.notice = M.noticeOther.format({ headline });
        else if (first >= 0) view.notice = M.noticeDiff.format({ headline, m, pairs: t.differingPairs.length, half, times, x: firstD });
        else view.notice = M.noticeDiffSmall.format({ headline, max: maxD });
        const want = ggufArch(cfg);
        const mismatch = want && want !== cmp.arch ? M.archMismatch.format({ file: cmp.arch, config: want }) : '';
        const numbers = { type: typeName, half, pmax: cmp.float32.position, f32: sig(cmp.float32.llamaCpp, 2) };
        // a file of another model: that is the first thing to notice, whatever else differs
        if (mismatch) view.notice = mismatch.trim();
        const stillNote = still.length ? M.stillNote.format({ pairs: `${still[0]}–${still.at(-1)}`, theta: sig(Math.max(...still.map((i) => t.thetaLlamaCpp[i])), 2) }) : '';
        // an error of exactly 0 everywhere draws as a line on the axis, easy to take for no line at all
        const errZero = err.every((e) => e === 0) ? String(M.readErrZero) : '';
        view.readout = source + (position > m ? M.clamped.format({ ctx: rt.nCtx }) : '') + stillNote + (!angleDiffers ? M.readAgree.format(numbers) + errZero : M.readout.format({
          type: typeName, pairs: t.differingPairs.length, half, m, ratio: (ratio >= 1 ? M.readMore : M.readLess).format({ r: sig(ratio >= 1 ? ratio : 1 / ratio, 3), at }), worst: sig(err[worst], 3), wd: dist[worst],
          first: first >= 0 ? M.readFirst.format({ x: firstD }) : String(M.readNever), pmax: cmp.float32.position, f32: sig(cmp.float32.llamaCpp, 2),
        }));
        const rows = [];
        for (let i = 0; i < half; i++) rows.push([i, m * t.thetaConfig[i], m * t.thetaLlamaCpp[i]]);
        shownSets = [angles.data.datasets, errors.data.datasets];
        return (shown = { columns: ['pair', 'angle_config', 'angle_llamacpp'], heads: colHeads([COL.pairI, M.colConfig, M.colLlamacpp]), rows });
      },
      destroy: () => {
        clearTimeout(typing);
        stopLang();
        angles.destroy();
        errors.destroy();
      },
    };
    return view;
  },
};
