// here.js: the "you are here" strip at the top of each section: the stages of the primer's
// pipeline diagram (index.html, svg.pipeline, one <g class="stage" data-stage> each), in order,
// with the section's own stage (<div class="here" data-stage="…">) marked as the current step.
// A model takes position in at one of two of them, never both: PE added to the embedding, or RoPE
// turning q and k; their labels say "either … or" and they are drawn dashed, so the strip does not
// read as one model doing both.
import { messages, onLang, t } from '../host/i18n.js';

const M = messages({
  en: {
    label: 'In the transformer:',
    embed: 'embedding x',
    pe: 'either x + PE',
    qkv: 'q, k, v',
    rope: 'or RoPE turns q, k',
    score: 'score q·k',
    softmax: 'softmax, Σ weight·v',
  },
  zh: {
    label: '在 Transformer 中：',
    embed: '词嵌入 x',
    pe: '要么 x + 位置编码',
    qkv: 'q、k、v',
    rope: '要么 RoPE 旋转 q、k',
    score: '得分 q·k',
    softmax: 'softmax，加权求和',
  },
});
const ALTERNATIVES = new Set(['pe', 'rope']);

/** Fills every marker of the page; relabels them when the language changes. */
export function markStages(doc = document) {
  const stages = [...doc.querySelectorAll('svg.pipeline .stage[data-stage]')].map((g) => g.dataset.stage);
  const markers = [...doc.querySelectorAll('.here[data-stage]')];
  const draw = () => {
    for (const el of markers) {
      const label = doc.createElement('span');
      label.className = 'here-label';
      label.textContent = t(M.label);
      const list = doc.createElement('ol');
      for (const stage of stages) {
        const li = doc.createElement('li');
        li.textContent = Object.hasOwn(M, stage) ? t(M[stage]) : stage;
        if (ALTERNATIVES.has(stage)) li.className = 'alt';
        if (stage === el.dataset.stage) li.setAttribute('aria-current', 'step');
        list.append(li);
      }
      el.replaceChildren(label, list);
    }
  };
  draw();
  onLang(draw);
}
