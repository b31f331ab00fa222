// lesson-text.js: the lesson's source as text, for the tests that hold its prose and exercises to
// its charts.
import { readFileSync } from 'node:fs';

export const html = readFileSync(new URL('../web/index.html', import.meta.url), 'utf8');
/** HTML as the text it shows: tags dropped (a formula's symbols run together), white space collapsed. */
export const text = (s) => s.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
/** The source of the section with this id. */
export const section = (id) => html.match(new RegExp(`<section id="${id}"[\\s\\S]*?</section>`))[0];
/** The text of each paragraph of a section in one language (lang "en" or "zh-CN"), in order. */
export const paragraphs = (id, lang) => [...section(id).matchAll(new RegExp(`<p lang="${lang}"[^>]*>([\\s\\S]*?)</p>`, 'g'))].map((m) => text(m[1]));

/**
 * The exercises of one section: { summary, summaryZh, href (its scene link), answer, answerZh },
 * each made text by `asText` (text by default).
 */
export const exercises = (id, asText = text) => [...section(id).matchAll(/<details class="exercise">([\s\S]*?)<\/details>\s*<\/details>/g)].map(([, body]) => ({
  summary: asText(body.match(/<summary><span lang="en">([\s\S]*?)<\/span><span lang="zh-CN">/)[1]),
  summaryZh: asText(body.match(/<span lang="zh-CN">([\s\S]*?)<\/span><\/summary>/)[1]),
  href: body.match(/class="scene-link" href="([^"]*)"/)[1].replace(/&amp;/g, '&'),
  answer: asText(body.match(/<p lang="en">([\s\S]*?)<\/p>/)[1]),
  answerZh: asText(body.match(/<p lang="zh-CN">([\s\S]*?)<\/p>/)[1]),
}));
