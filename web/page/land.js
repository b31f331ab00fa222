// land.js: a jump within the page lands with its target at the top of the view. The page's
// sections skip their layout while far from the view (style.css: content-visibility: auto with
// 1800 px stand-ins), so a jump computed from the stand-ins lands wrong: once there, the sections
// above the target are laid out at their real heights and push it away, by thousands of pixels
// on a phone. Before a jump, the sections the target is seen with are laid out (only those: the
// whole page takes a long frame on a phone); after it, the target is held in place until it
// stays put or the reader scrolls.

const SECTIONS = 'main > section';
// how far above the target the sections are laid out before a jump, in view heights: more than
// the margin within which the browser lays them out itself once there
const ABOVE = 2;
// the target is held this many frames at most, and let go once it has stayed put this many
const HOLD = 90, STILL = 8;
// what a reader does to scroll: the page stops holding the target at once
const INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'];

// what content-visibility: auto contains when it does not skip: laid out with it, a section
// has the height it keeps after (its first and last margins stay inside it)
const CONTAIN = 'layout style paint';
const opened = new Set();
let closing = 0;

/**
 * Lays out the target's section and those above it within ABOVE view heights, for a frame or
 * two: long enough for the browser to remember their real heights (contain-intrinsic-size: auto)
 * once they skip their layout again.
 */
function layOutAbove(target) {
  const sections = [...document.querySelectorAll(SECTIONS)];
  const i = sections.findIndex((s) => s.contains(target));
  if (i < 0) return;
  const reach = ABOVE * innerHeight;
  for (let j = i; j >= 0; j--) {
    const s = sections[j];
    if (!opened.has(s)) (opened.add(s), s.style.setProperty('content-visibility', 'visible'), s.style.setProperty('contain', CONTAIN));
    if (target.getBoundingClientRect().top - s.getBoundingClientRect().top >= reach) break;
  }
  cancelAnimationFrame(closing);
  closing = requestAnimationFrame(() => (closing = requestAnimationFrame(() => {
    for (const s of opened) (s.style.removeProperty('content-visibility'), s.style.removeProperty('contain'));
    opened.clear();
  })));
}

const marginTop = (el) => parseFloat(getComputedStyle(el).scrollMarginTop) || 0;

// the landing under way: { target, stop }
let landing = null;

/**
 * Holds `target` at the top of the view (less its scroll-margin-top) over the next frames; while
 * the view is still moving (a smooth scroll), it waits for it to stop. With `until` (a promise),
 * it holds at least until that settles.
 */
function hold(target, { smooth = false, until = null } = {}) {
  landing?.stop();
  let frame = 0, still = 0, lastY = smooth ? NaN : null, raf = 0, settled = !until;
  until?.then(() => (settled = true), () => (settled = true));
  const stop = () => {
    cancelAnimationFrame(raf);
    for (const ev of INPUT) removeEventListener(ev, stop, true);
    if (landing?.stop === stop) landing = null;
  };
  for (const ev of INPUT) addEventListener(ev, stop, { capture: true, passive: true });
  const step = () => {
    const y = scrollY;
    const moving = lastY !== null && y !== lastY;
    lastY = y;
    const off = target.isConnected ? target.getBoundingClientRect().top - marginTop(target) : 0;
    if (moving || Math.abs(off) < 1) still = moving ? 0 : still + 1;
    else {
      scrollBy(0, off);
      // the page ends before the target can reach the top: it is as high as it goes
      still = scrollY === y ? still + 1 : 0;
      lastY = scrollY;
    }
    if (settled && (still >= STILL || ++frame >= HOLD)) stop();
    else raf = requestAnimationFrame(step);
  };
  raf = requestAnimationFrame(step);
  landing = { target, stop };
}

/** The element a URL's fragment names on this page, or null. */
function named(hash) {
  let id;
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    return null;
  }
  return id ? document.getElementById(id) ?? document.getElementsByName(id)[0] ?? null : null;
}

/**
 * Focuses `target` (a section: its heading) without scrolling; one that cannot take the focus
 * takes it until it loses it (a click in it later does not focus it).
 */
function focusOn(target) {
  const el = target.matches('section') ? target.querySelector('h2') ?? target : target;
  if (!el.matches('a[href], button, input, select, textarea, summary, [tabindex]')) {
    el.setAttribute('tabindex', '-1');
    el.addEventListener('blur', () => el.removeAttribute('tabindex'), { once: true });
  }
  el.focus({ preventScroll: true });
}

/**
 * Scrolls `target` to the top of the view, where it stays once the page is laid out around it
 * (until: a promise it is held until, at least).
 */
export function land(target, { smooth = false, until = null } = {}) {
  layOutAbove(target);
  target.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
  hold(target, { smooth, until });
}

/**
 * The element the address's fragment names, if any, held at the top of the view until `until`
 * settles: the browser scrolls to it as the page is read in, but the charts above it fill in
 * after that, and the sections they are in grow by thousands of pixels.
 */
export function landOnFragment(until) {
  const target = named(location.hash);
  if (target) land(target, { until });
}

/**
 * Every link to a fragment of this page lands right: the browser still follows it (the address,
 * the history entry and where the focus starts from are its own), on the page as laid out here
 * first. Back and forward to a fragment land on it too.
 */
export function landLinks() {
  addEventListener('click', (e) => {
    const a = e.target.closest?.('a[href]');
    if (!(a instanceof HTMLAnchorElement) || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if ((a.target && a.target !== '_self') || a.hasAttribute('download')) return;
    const url = new URL(a.href), here = new URL(location.href);
    if (url.origin !== here.origin || url.pathname !== here.pathname || url.search !== here.search) return;
    const target = named(url.hash);
    if (!target) return;
    layOutAbove(target);
    hold(target);
    // once the browser has followed the link (which leaves the focus on the page when its target
    // cannot take it), the focus goes to the target, so that a screen reader says where it is
    requestAnimationFrame(() => focusOn(target));
  });
  addEventListener('hashchange', () => {
    const target = named(location.hash);
    // a link's own landing is already under way (a scene's, on a chart of the section), or Back
    // returns to where the reader was before a scene link (main.js)
    if (!target || (landing && target.contains(landing.target)) || history.state?.posencBack) return;
    land(target);
  });
}
