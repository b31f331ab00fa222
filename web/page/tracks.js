// tracks.js: the page's three tracks, as its table of contents groups the sections: the core
// lesson, the practitioner's sections and the experiments; and the sections a handout of some
// of them holds (?print=, print.js).
import { messages } from '../host/i18n.js';

export const TRACKS = messages({
  en: { core: 'Core', practice: 'Practitioner', lab: 'Experiments' },
  zh: { core: '核心', practice: '工程实践', lab: '实验' },
});

const M = messages({
  en: { badPart: 'print = “{value}”: “{part}” is neither a track (core, practice, lab) nor a section number or range from 1 to {last} (12-15); the whole page prints.' },
  zh: { badPart: 'print = “{value}”：“{part}”既不是学习路线（core、practice、lab），也不是 1 到 {last} 之间的节号或范围（如 12-15）；将打印整页。' },
});

/** The track of a section: the one whose list in the table of contents links to it, or null. */
export function trackOf(section) {
  if (!section?.id) return null;
  const link = section.ownerDocument.querySelector(`.tracks .track[data-track] a[href="#${CSS.escape(section.id)}"]`);
  return link?.closest('.track').dataset.track ?? null;
}

/**
 * The sections of `doc` a handout of `value` holds: comma-separated tracks (core, practice, lab),
 * section numbers and ranges (12-15). Returns { ids, note }: ids a Set of section ids, with the
 * primer and the notation when section 1 is in it and the recap always (the cheat sheet of every
 * section), or null for the whole page, as when a part names nothing (then note says which).
 */
export function handoutSections(value, doc = document) {
  const numbered = [...doc.querySelectorAll('main > section[id]')]
    .map((s) => [Number(/^(\d+)\./.exec(s.querySelector('h2')?.textContent.trim() ?? '')?.[1]), s])
    .filter(([n]) => n > 0);
  if (!numbered.length) return { ids: null, note: '' };
  const last = numbered.at(-1)[0];
  const chosen = new Set();
  for (const part of String(value).split(',').map((p) => p.trim())) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    const [from, to] = range ? [Number(range[1]), Number(range[2] ?? range[1])] : [];
    const inTrack = numbered.filter(([, s]) => trackOf(s) === part);
    if (range && from >= 1 && from <= to && to <= last) {
      for (const [n, s] of numbered) if (n >= from && n <= to) chosen.add(s.id);
    } else if (inTrack.length) {
      for (const [, s] of inTrack) chosen.add(s.id);
    } else {
      return { ids: null, note: M.badPart.format({ value, part, last: String(last) }) };
    }
  }
  if (chosen.has(numbered[0][1].id)) for (const id of ['primer', 'notation']) chosen.add(id);
  chosen.add('recap');
  return { ids: chosen, note: '' };
}
