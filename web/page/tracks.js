// tracks.js: the page's three tracks, as its table of contents groups the sections: the core
// lesson, the practitioner's sections and the experiments; and the sections a handout of some
// of them holds (?print=, print.js).
import { messages } from '../host/i18n.js';

export const TRACKS = messages({
  en: { core: 'Core', practice: 'Practitioner', lab: 'Experiments' },
  zh: { core: '核心', practice: '工程实践', lab: '实验' },
});

const M = messages({
  en: { badPart: '{name} = “{value}”: “{part}” is neither a track (core or Core, practice or Practitioner, lab or Experiments) nor a section number or range from 1 to {last} (12-15); {whole}.', wholePrint: 'the whole page prints', wholePresent: 'every figure shows' },
  zh: { badPart: '{name} = “{value}”：“{part}”既不是学习路线（core 或“核心”、practice 或“工程实践”、lab 或“实验”），也不是 1 到 {last} 之间的节号或范围（如 12-15）；{whole}。', wholePrint: '将打印整页', wholePresent: '将演示全部图' },
});

/**
 * The track a name in a link means: its key (core, practice, lab) or its name as the contents
 * show it, in either language and any case (Practitioner, 工程实践); else null.
 */
export function trackNamed(name) {
  const want = String(name).trim().toLowerCase();
  for (const key of Object.keys(TRACKS)) {
    if ([key, ...Object.values(TRACKS.tables).map((table) => table[key])].some((n) => n.toLowerCase() === want)) return key;
  }
  return null;
}

/** The track of a section: the one whose list in the table of contents links to it, or null. */
export function trackOf(section) {
  if (!section?.id) return null;
  const link = section.ownerDocument.querySelector(`.tracks .track[data-track] a[href="#${CSS.escape(section.id)}"]`);
  return link?.closest('.track').dataset.track ?? null;
}

/**
 * The sections of `doc` a handout of `value` holds: comma-separated tracks (core, practice, lab,
 * or their names: trackNamed), section numbers and ranges (12-15). Returns { ids, note }: ids a
 * Set of section ids, with the primer and the notation when section 1 is in it and the recap
 * always (the cheat sheet of every section), or null for the whole page, as when a part names
 * nothing (then note says which). `name` is the parameter the note names (print, present).
 */
export function handoutSections(value, doc = document, name = 'print') {
  const numbered = [...doc.querySelectorAll('main > section[id]')]
    .map((s) => [Number(/^(\d+)\./.exec(s.querySelector('h2')?.textContent.trim() ?? '')?.[1]), s])
    .filter(([n]) => n > 0);
  if (!numbered.length) return { ids: null, note: '' };
  const last = numbered.at(-1)[0];
  const chosen = new Set();
  for (const part of String(value).split(',').map((p) => p.trim())) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    const [from, to] = range ? [Number(range[1]), Number(range[2] ?? range[1])] : [];
    const track = trackNamed(part);
    const inTrack = track ? numbered.filter(([, s]) => trackOf(s) === track) : [];
    if (range && from >= 1 && from <= to && to <= last) {
      for (const [n, s] of numbered) if (n >= from && n <= to) chosen.add(s.id);
    } else if (inTrack.length) {
      for (const [, s] of inTrack) chosen.add(s.id);
    } else {
      const whole = name === 'present' ? M.wholePresent : M.wholePrint;
      return { ids: null, note: M.badPart.format({ name, value, part, last: String(last), whole: String(whole) }) };
    }
  }
  if (chosen.has(numbered[0][1].id)) for (const id of ['primer', 'notation']) chosen.add(id);
  chosen.add('recap');
  return { ids: chosen, note: '' };
}
