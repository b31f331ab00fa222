// tracks.js: the page's three tracks, by section number: the core lesson (1-15), the
// practitioner's sections (16-21) and the experiments (22-23).
import { messages } from '../host/i18n.js';

export const TRACKS = messages({
  en: { core: 'Core', practice: 'Practitioner', lab: 'Experiments' },
  zh: { core: '核心', practice: '工程实践', lab: '实验' },
});

/** The track of a section, from its number (the "13." its heading starts with), or null. */
export function trackOf(section) {
  const n = Number(/^\s*(\d+)\./.exec(section?.querySelector('h2')?.textContent ?? '')?.[1]);
  if (!n) return null;
  return n <= 15 ? 'core' : n <= 21 ? 'practice' : 'lab';
}
