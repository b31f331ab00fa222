// lab.js: what the lab's charts share: the names of the tasks and of the encodings, in every
// language, the controls that choose them, and the default run's results as they arrive.
import { messages } from '../../host/i18n.js';
import { ENCODINGS, SCALINGS } from '../../lab/run.js';
import { labResults } from '../../lab/results.js';
import { palette, dashes, isDark } from './colours.js';
import { refresh } from './canvas.js';

export const LAB = messages({
  en: {
    task: 'task',
    kback: 'repeat the token 2 places back',
    copy: 'copy the sequence',
    encoding: 'position encoding',
    none: 'none (NoPE)',
    learned: 'learned',
    sinusoidal: 'sinusoidal',
    rope: 'RoPE',
    alibi: 'ALiBi',
    t5: 'T5',
    xpos: 'xPos',
    all: 'every encoding, side by side (1×)',
    // a line drawn exactly under another, as its legend names it
    under: '{name} (hidden under {other})',
    // the default run's results (web/lab/results.js), fetched when a lab chart first needs them
    loading: 'Loading the default run, trained ahead of time…',
    failed: 'the default run, trained ahead of time, could not be loaded ({message})',
  },
  zh: {
    task: '任务',
    kback: '重复往前第 2 个 token',
    copy: '复制序列',
    encoding: '位置编码',
    none: '无位置编码（NoPE）',
    learned: '可学习的绝对位置编码',
    sinusoidal: '正弦位置编码',
    rope: 'RoPE',
    alibi: 'ALiBi',
    t5: 'T5',
    xpos: 'xPos',
    all: '所有编码并排（1×）',
    under: '{name}（被“{other}”遮住）',
    loading: '正在加载预先训练好的默认结果…',
    failed: '预先训练好的默认结果无法加载（{message}）',
  },
});

const NAMES = ENCODINGS.map((e) => e.encoding);

/**
 * The default run's results for the chart mounted in `el`: { results, error }, both null until
 * the file has come or failed, when the chart is redrawn. One fetch for every chart of the page.
 */
export function fileResults(el) {
  const file = { results: null, error: null };
  labResults().then((r) => (file.results = r), (err) => (file.error = err)).then(() => refresh(el));
  return file;
}

/**
 * What a chart draws while `file` (fileResults') has no results: its axes without data (`clear`:
 * a printed page shows the chart) and a notice that they are loading, with an empty table of
 * `columns` (shown as `heads`); once they have failed, an Error saying so, which the host shows
 * in the chart's readout.
 */
export function awaitResults(file, view, clear, columns, heads) {
  if (file.error) throw new Error(LAB.failed.format({ message: file.error.message }));
  clear();
  view.notice = String(LAB.loading);
  view.readout = '';
  return { columns, heads, rows: [] };
}

/** The task control, with `value` chosen. */
export const taskParam = (value) => ({ name: 'task', label: LAB.task, type: 'select', options: ['kback', 'copy'], value, optionLabels: { kback: LAB.kback, copy: LAB.copy } });

export const ENCODING_NAMES = NAMES;

/** The encoding control (one of the default run's encodings; with `all`, also 'all'). */
export const encodingParam = (value, { all = false } = {}) => {
  const options = all ? [...NAMES, 'all'] : NAMES;
  return { name: 'encoding', label: LAB.encoding, type: 'select', options, value, optionLabels: Object.fromEntries(options.map((n) => [n, LAB[n]])) };
};

/**
 * Per length, the mean over seeds of `field`, with the lowest and highest as lo and hi: `evs` is
 * one evaluation list (the same lengths) per seed.
 */
export function acrossSeeds(evs, field) {
  return evs[0].map((e, n) => {
    const v = evs.map((ev) => ev[n][field]);
    return { ...e, [field]: v.reduce((a, b) => a + b, 0) / v.length, lo: Math.min(...v), hi: Math.max(...v) };
  });
}

/**
 * The two borders of a line's seed band, filled between them in `colour` at opacity `alpha`
 * (two hex digits); labelled '' so that lineLegend leaves them out. pts is the chart's
 * pointArrays(), key the line's own.
 */
export function seedBand(pts, key, ev, colour, alpha) {
  const edge = (side, fill) => ({
    label: '', data: pts(`${key}${side}`, ev.length, (n) => ev[n][side], (n) => ev[n].length), borderWidth: 0, pointRadius: 0,
    pointHitRadius: 0, borderColor: 'transparent', backgroundColor: `${colour}${alpha}`, fill,
  });
  return [edge('hi', false), edge('lo', '-1')];
}

// RoPE fine-tuned (lab-scaling): RoPE's reddish purple, darker (lighter on the dark theme), a
// colour no encoding has.
const TUNED = { light: '#AA3377', dark: '#F4B8DC' };

/**
 * The look of a lab line, the same in every lab chart: an encoding's colour is its place in the
 * lab's list (xPos black, RoPE reddish purple …), solid; RoPE with a scaling at evaluation keeps
 * RoPE's colour, dashed as the scaling; RoPE fine-tuned with a scaling has that dash in TUNED.
 */
export function lineLook(encoding, { scaling = null, tuned = false } = {}) {
  const colour = tuned ? TUNED[isDark() ? 'dark' : 'light'] : palette[NAMES.indexOf(encoding)];
  return { colour, dash: scaling ? dashes[1 + SCALINGS.indexOf(scaling)] : [] };
}

// Two lines closer than this share of the axis at every point (about a line's width) look like one.
const COVERED = 0.01;

/**
 * For each line of a chart (its values at the same points, in the order of the datasets: Chart.js
 * draws the first on top), the first line before it that covers it at every point, on an axis
 * `span` long, or -1: a line the reader cannot see, which its legend entry names.
 */
export function coveredBy(lines, span = 1) {
  return lines.map((v, j) => lines.findIndex((u, i) => i < j && u.length === v.length && u.every((x, n) => Math.abs(x - v[n]) < COVERED * span)));
}
