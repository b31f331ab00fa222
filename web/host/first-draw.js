// first-draw.js: Chart.js as the host hands it to chart modules, which draws a chart first when
// it has both its data and its size:
// - A module builds its charts without data and gives them their data in its first update,
//   right after; Chart.js draws a chart as it builds it, though: the axes, grid and legend of an
//   empty chart that no one sees, and the costlier of the two drawings (its code and fonts meet
//   the page for the first time). A chart's first update is cancelled when it has no data.
// - Chart.js reads the page's layout to size a chart as it builds it, which lays out this long
//   page again for each chart. Here a chart takes its size from canvas-sizes.js (a
//   ResizeObserver, read after the browser's own layout) and is drawn once it has one: at the
//   next frame, or when a section far from the view comes near it, or when the page is idle.
import { measureNow, sizeOf, watchSize } from './canvas-sizes.js';

/**
 * Cancels a chart's first update (the one Chart.js makes as it builds it) when the chart has no
 * datasets, and every update while the chart has no size.
 */
const seen = new WeakSet();
const withDataAndSize = {
  id: 'posencWithDataAndSize',
  beforeUpdate(chart) {
    const first = !seen.has(chart);
    seen.add(chart);
    if (first && !chart.data.datasets.length) return false;
    // not laid out yet: drawn when it is (the platform's resize)
    return !chart.platform?.sizesObserved || Boolean(sizeOf(chart.canvas)?.[0]);
  },
};

const round1 = (v) => Math.round(v * 10) / 10;
let building = 0; // charts being built now
const platforms = new WeakMap();

/** Chart.js's DOM platform (events, pixel density), with the sizes of canvas-sizes.js. */
function sizedPlatform(Chart) {
  const Dom = Chart.platforms?.DomPlatform;
  if (!Dom) return undefined;
  if (!platforms.has(Dom)) {
    class Sized extends Dom {
      sizesObserved = true;

      acquireContext(canvas, aspectRatio) {
        // without width and height attributes Chart.js reads the canvas's used size (a layout)
        if (canvas?.getContext && !canvas.hasAttribute('width')) canvas.width = canvas.height = 0;
        return super.acquireContext(canvas, aspectRatio);
      }

      /** The canvas's CSS size as Chart.js would make it (round1, aspectRatio), from what is known. */
      getMaximumSize(canvas, width, height, aspectRatio) {
        // a resize() without a size, as a chart is built, takes what is known; called later (by
        // whoever changed what holds the canvas) it reads the layout, as Chart.js's own does
        const [w, h] = width !== undefined && height !== undefined ? [width, height]
          : (building ? sizeOf(canvas) : measureNow(canvas)) ?? [0, 0];
        return { width: round1(w), height: round1(aspectRatio ? w / aspectRatio : h) };
      }

      addEventListener(chart, type, listener) {
        if (type !== 'resize') return super.addEventListener(chart, type, listener);
        // the size of what holds the canvas, as Chart.js's own observer reads it (the canvas's
        // style is what Chart.js set); Chart.js releases what it keeps under $proxies by its disconnect()
        const { canvas } = chart, box = canvas.parentNode ?? canvas;
        (chart.$proxies ??= {}).resize = { disconnect: watchSize(canvas, (w, h) => chart.canvas && listener(w, h), box) };
      }
    }
    platforms.set(Dom, Sized);
  }
  return platforms.get(Dom);
}

const wrapped = new WeakMap();
/** `Chart` (a Chart.js constructor) whose charts skip those drawings; everything else is Chart's own. */
export function drawnWithData(Chart) {
  if (typeof Chart !== 'function') return Chart; // (a chart that draws on its own canvas gets none)
  if (!wrapped.has(Chart)) {
    const platform = sizedPlatform(Chart);
    wrapped.set(Chart, new Proxy(Chart, {
      construct: (C, [canvas, config = {}]) => {
        building++;
        try {
          return Reflect.construct(C, [canvas, { platform, ...config, plugins: [...(config.plugins ?? []), withDataAndSize] }], C);
        } finally {
          building--;
        }
      },
    }));
  }
  return wrapped.get(Chart);
}
