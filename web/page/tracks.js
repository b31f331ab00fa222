// tracks.js: the page's three tracks, as its table of contents groups the sections: the core
// lesson, the practitioner's sections and the experiments.
import { messages } from '../host/i18n.js';

export const TRACKS = messages({
  en: { core: 'Core', practice: 'Practitioner', lab: 'Experiments' },
  zh: { core: '核心', practice: '工程实践', lab: '实验' },
});

/** The track of a section: the one whose list in the table of contents links to it, or null. */
export function trackOf(section) {
  if (!section?.id) return null;
  const link = document.querySelector(`.tracks .track[data-track] a[href="#${CSS.escape(section.id)}"]`);
  return link?.closest('.track').dataset.track ?? null;
}
