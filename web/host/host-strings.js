// host-strings.js: the chart host's own UI strings (chart-host.js STRINGS: toolbar buttons,
// notes, messages) in Chinese, and localizeHost(STRINGS), which puts them in the current
// language: Object.assign, as chart-host.js documents, with the English kept to switch back.
// After a language switch call localizeHost(STRINGS) again, then host.relabel() on every host.
import { lang } from './i18n.js';

export const HOST_ZH = {
  link: '链接',
  linkTitle: '复制一个链接，打开后图表保持现在的设置',
  embed: '嵌入',
  embedTitle: '复制 HTML，把这张实时图表放进另一个网页',
  png: 'PNG',
  pngTitle: '下载当前绘制的图表，两倍分辨率的 PNG 图片',
  csv: 'CSV',
  csvTitle: '以 CSV 格式下载图表背后的数字',
  toolbar: '分享与导出',
  close: '关闭',
  linkLabel: '此图表的链接',
  embedLabel: '嵌入此图表的 HTML',
  copied: '已复制到剪贴板。',
  copyByHand: '请选中文本并复制（Ctrl+C，Mac 上为 ⌘C）。',
  embedIframe: '作为 iframe(配合 posenc README 中的代码片段，高度随图表变化)',
  embedElement: '或者作为元素，只需一个 script 标签',
  notesTitle: '有些设置没有被采用：',
  unknownName: (name) => `“${name}”不是此图表的设置。`,
  repeated: (name) => `“${name}”出现了不止一次；使用默认值。`,
  malformed: (name, value, def) => `${name} = “${value}”不是有效的值；使用默认值 ${def}。`,
  notOption: (name, value, def) => `${name} = “${value}”不是可选项之一；使用默认值 ${def}。`,
  clamped: (name, value, used) => `${name} = ${value} 超出了允许的范围；使用 ${used}。`,
  stepped: (name, value, used) => `${name} = ${value} 不符合允许的步长；使用 ${used}。`,
  tooMany: (n) => `只读取了前 ${n} 项设置。`,
  notDrawn: (message) => `这些设置无法绘制（${message}）；显示默认设置。`,
  unknownChart: (kind, used) => `没有名为“${kind}”的图表；显示 ${used}。`,
  noChart: (used) => `没有指定图表（chart=…）；显示 ${used}。`,
  chartNotOnPage: (kind) => `图表“${kind}”不在本页上。`,
  paramsWithoutChart: '链接带有设置，但没有指定图表（chart=…）；这些设置未被使用。',
  noWasm: (message) => `此图表由 WebAssembly 计算，但这里无法加载 WebAssembly(${message})。` +
    '页面的其余部分仍然可用；启用了 WebAssembly 的新版浏览器可以显示此图表。',
  drawFailed: (message) => `此图表无法绘制：${message}`,
  loading: '正在加载图表…',
  table: '数据表',
  hideTable: '隐藏数据表',
  tableEmpty: '此图没有可显示的数据。',
  tableCaption: (title) => `“${title}”背后的数字`,
  tablePart: (nr, rows, nc, cols) => `(显示 ${rows} 行中的前 ${nr} 行、${cols} 列中的前 ${nc} 列；CSV 中有全部数据)`,
  scrolls: (name) => `${name}（可滚动）`,
};

const english = new WeakMap();

/** Sets the host's STRINGS object to the current language (keys without a translation stay English). */
export function localizeHost(STRINGS) {
  if (!english.has(STRINGS)) english.set(STRINGS, { ...STRINGS });
  const en = english.get(STRINGS);
  Object.assign(STRINGS, en, lang() === 'zh' ? HOST_ZH : {});
}
