// model.js: what the charts of a model's positions share: the gallery as a control's
// options, the config text a reader may paste instead, and a model's positions read through
// pe.ropeConfig, kept while only other controls move.
import { MODELS } from '../../lib/models.js';
import { lang, messages } from '../../host/i18n.js';
import { requestRedraw } from './canvas.js';

/** The model control's choices: every gallery model, then 'config' (the pasted text). */
export const MODEL_IDS = [...MODELS.map((m) => m.id), 'config'];

/** How many log-spaced distances a score-error curve samples: one grid, so that the misreads
 *  chart and the runtime chart draw the same curve for the same misread. */
export const ERROR_DISTANCES = 240;

export const MESSAGES = messages({
  en: {
    configLabel: "Your config.json (it starts as the default model's; paste yours over it)",
    config: 'your config',
    notJson: 'Not valid JSON: {message}',
    source: 'Source: ',
  },
  zh: {
    configLabel: '你的 config.json（一开始是默认模型的配置；把你的粘贴进来即可）',
    config: '你的配置',
    notJson: '不是有效的 JSON：{message}',
    source: '来源：',
  },
});
/** The model control's option texts, in the page's language (a gallery name's zh form where it has one). */
export const MODEL_LABELS = messages({
  en: { ...Object.fromEntries(MODELS.map((m) => [m.id, m.name])), config: MESSAGES.tables.en.config },
  zh: { ...Object.fromEntries(MODELS.map((m) => [m.id, m.zh?.name ?? m.name])), config: MESSAGES.tables.zh.config },
});

/** A gallery entry's source line in the page's language (English where it has no zh form). */
export const modelSource = (entry) => (lang() === 'zh' && entry.zh?.source) || entry.source;

/**
 * A config panel under the chart in `el`: a textarea that starts as the config of the gallery
 * model `startFrom` (the chart's default, so that the state stays what the controls say), read
 * when the model control says 'config'. read(model) gives { info, entry, config, error }: info
 * is pe.ropeConfig's result of config, entry the gallery entry (null for a pasted config).
 */
export function modelReader(el, pe, startFrom) {
  const panel = document.createElement('div');
  panel.className = 'config-panel';
  const id = `model-config-${Math.random().toString(36).slice(2, 8)}`;
  const label = document.createElement('label');
  label.htmlFor = id;
  label.className = 'config-label';
  const text = document.createElement('textarea');
  text.id = id;
  text.className = 'config-text mono';
  text.rows = 10;
  text.spellcheck = false;
  text.wrap = 'off';
  // the source is a citation: names of repositories and files as they stand, in code type
  const source = document.createElement('p');
  source.className = 'chart-note';
  const sourceLead = document.createElement('span'), sourceText = document.createElement('cite');
  sourceText.className = 'mono';
  sourceText.translate = false;
  source.append(sourceLead, sourceText);
  panel.append(source, label, text);
  el.append(panel);
  text.addEventListener('input', () => requestRedraw(el));
  text.value = JSON.stringify(MODELS.find((m) => m.id === startFrom).config, null, 2);
  let kept = null, keptKey = '';
  return {
    read(model) {
      label.textContent = String(MESSAGES.configLabel);
      const entry = MODELS.find((m) => m.id === model) ?? null;
      source.hidden = !entry;
      sourceLead.textContent = String(MESSAGES.source);
      sourceText.textContent = entry ? modelSource(entry) : '';
      // the text is there to edit only when it is what is drawn
      const editing = model === 'config';
      label.style.display = text.style.display = editing ? '' : 'none';
      const key = JSON.stringify([model, model === 'config' ? text.value : '', lang()]);
      if (key === keptKey) return kept;
      keptKey = key;
      try {
        const config = entry ? entry.config : text.value;
        kept = { info: pe.ropeConfig(config), entry, config, error: null };
      } catch (err) {
        kept = { info: null, entry, config: null, error: err instanceof SyntaxError ? MESSAGES.notJson.format({ message: err.message }) : `${err.name}: ${err.message}` };
      }
      return kept;
    },
  };
}

/** The training length L0 a layer type's scaling names, else the model's context. */
export function trainingLength(t, maxPos) {
  return t.scaling?.originalMaxPositionEmbeddings ?? maxPos ?? null;
}

/**
 * The frequency options of one layer type for the RoPE calls: { base, scaling }, with a
 * length-dependent scaling (dynamic, longrope) taken at `seqLen`.
 */
export function freqOptions(t, seqLen) {
  let scaling = t.scaling ?? undefined;
  if (scaling && (scaling.type === 'dynamic' || scaling.type === 'longrope')) scaling = { ...scaling, seqLen };
  return { base: t.base, scaling };
}
