// wrap.js: text of an exported figure (its title, its settings line) broken into lines that fit
// a width. A formula breaks as a reader would not read it ("a =" above "m·θᵢ"): spaces beside
// an operator, inside a short bracket and no-break spaces (10 000) are no place for a break.
// Chinese breaks between any two characters, but never before its closing punctuation nor after
// its opening one.

const CJK = /[\u3000-\u9fff\uff00-\uffef]/;
/** Punctuation that never starts a line. */
const CLOSING = /[，。；：、）！？」』〉》】,.;:!?)\]]/;
/** Chinese opening punctuation, which never ends one. */
const OPENING = /[（「『〈《【“]/;
/** Signs that bind the spaces beside them to a formula (not "·": spaced, it separates a list). */
const OPERATOR = /[=+\-−×÷<>≤≥≈≠→±∝^/]/;
/** Spaces that are written not to break: no-break, narrow no-break (a grouped number), figure space. */
const NO_BREAK = /^[\u00a0\u202f\u2007]+$/;
/** Words and the breakable spaces after them, a no-break space inside a word. */
const WORDS = /(?:\S|[\u00a0\u202f\u2007])+[^\S\u00a0\u202f\u2007]*|\s+/g;
/** A bracketed span up to this many characters is one piece: "(sin a, cos a)". */
const SHORT_GROUP = 30;

/** The indices of text inside short bracketed spans. */
function insideShortGroups(text) {
  const inside = new Set(), open = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(' || text[i] === '[') open.push(i);
    else if ((text[i] === ')' || text[i] === ']') && open.length) {
      const o = open.pop();
      if (i - o <= SHORT_GROUP) for (let k = o + 1; k < i; k++) inside.add(k);
    }
  }
  return inside;
}

/** The pieces of text a line may break between, each with the spaces after it. */
export function wrapUnits(text) {
  const s = String(text);
  const grouped = insideShortGroups(s);
  const out = [];
  let cur = '';
  const push = () => {
    if (cur) out.push(cur);
    cur = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (/\s/.test(c)) {
      let j = i;
      while (j < s.length && /\s/.test(s[j])) j++;
      const run = s.slice(i, j), before = s[i - 1] ?? '', after = s[j] ?? '';
      cur += run;
      // (a list's spaced "·" stays at the end of its line, not at the start of the next)
      const bound = NO_BREAK.test(run) || grouped.has(i) || OPERATOR.test(before) || OPERATOR.test(after) || after === '·';
      if (!bound && j < s.length) push();
      i = j - 1;
    } else if (CLOSING.test(c)) {
      cur += c;
    } else if (CJK.test(c)) {
      if (OPENING.test(cur.at(-1) ?? '')) cur += c;
      else {
        push();
        cur = c;
      }
    } else {
      // a Latin run after a Chinese character starts a piece of its own
      if (cur && CJK.test(cur.at(-1)) && !CLOSING.test(cur.at(-1)) && !OPENING.test(cur.at(-1))) push();
      else if (cur && CLOSING.test(cur.at(-1)) && CJK.test(cur.at(-1))) push();
      cur += c;
    }
  }
  push();
  return out;
}

/** Splits text into lines no wider than `max` as ctx measures them; a piece wider than `max` alone breaks at its own spaces. */
export function wrap(ctx, text, max) {
  const lines = [];
  let line = '';
  const add = (w) => {
    const next = line + w;
    if (line && ctx.measureText(next.trimEnd()).width > max) {
      lines.push(line.trimEnd());
      line = w.trimStart();
    } else line = next;
  };
  for (const unit of wrapUnits(text)) {
    if (/\S\s+\S/.test(unit.trim()) && ctx.measureText(unit.trim()).width > max) for (const w of unit.match(WORDS)) add(w);
    else add(unit);
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}
