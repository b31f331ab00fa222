// idle.js: work done a piece at a time while the page is idle, so that a reader's input and the
// page's frames come first.

const idle = globalThis.requestIdleCallback
  ? () => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }))
  : () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * Returns start(): it runs step() once per idle moment until step() returns false (it did nothing);
 * a start() while that goes on changes nothing.
 */
export function eachIdleMoment(step) {
  let running = null;
  return () => {
    running ??= (async () => {
      while ((await idle(), step()));
      running = null;
    })();
  };
}
