// animate.js: a sweep of one control as an animated GIF or a video. Each frame sets the control,
// redraws the chart at once (host.update(), no waiting for a display frame) and copies its
// canvases onto one frame on the theme's background. GIF frames go through gifenc (palette per
// frame, at most 256 colours: a chart has few); the video is the browser's own MediaRecorder
// recording a canvas that is handed one frame per 1/fps s, so it takes as long as it plays.
import { figureHeading, figureFooter, figureLayout, drawFigure, letteringFor, withLettering } from './export.js';
import { isLog } from './slider-scale.js';

/**
 * The chart's tick text is 11 px on the page. Over its size limit a GIF is made narrower while
 * that text stays at least that large (only a picture drawn larger than the page shrinks), then
 * loses frames, then is made narrower again down to 9 px text, the least read at a glance in a
 * post. One that does not fit there is offered as it is, with its size, and the author chooses:
 * smaller text would be a GIF nobody can read.
 */
export const TICK_PX = 11, FLOOR_PX = 9;
/** Frames are dropped down to a third of those asked (at least 10, at most all): fewer plays as a jerk. */
const minFrames = (n) => Math.min(n, Math.max(10, Math.ceil(n / 3)));

/** Significant figures a swept value keeps where its control has no step: as many as a frame's caption prints. */
export const SWEEP_FIGURES = 4;

/**
 * The values a sweep draws: `frames` of them from `from` to `to`, on the param's own steps, or
 * to SWEEP_FIGURES significant figures where it has none. Each is rounded before it is set, so
 * the chart, the caption and the settings line under a frame all show the one value.
 */
export function sweepValues(p, from, to, frames) {
  const n = Math.max(2, Math.round(frames));
  const step = p.step && p.step !== 'any' ? Number(p.step) : p.type === 'int' ? 1 : 0;
  // a step of 0.1 leaves 0.30000000000000004: the step's own decimals are kept, no more
  const places = step ? Math.max(decimals(step), decimals(p.min)) : 0;
  // a control whose slider moves in ratios (a base from 1 to 10⁷) is swept in ratios too
  const geometric = isLog(p) && from > 0 && to > 0;
  const out = [];
  for (let i = 0; i < n; i++) {
    let v = geometric ? from * (to / from) ** (i / (n - 1)) : from + ((to - from) * i) / (n - 1);
    if (step) v = Number((p.min + Math.round((v - p.min) / step) * step).toFixed(places));
    else if (v !== 0) v = Number(v.toPrecision(SWEEP_FIGURES));
    if (p.type === 'int') v = Math.round(v);
    out.push(Math.min(p.max, Math.max(p.min, v)));
  }
  return out;
}

const decimals = (x) => (String(x).split('.')[1] ?? '').length;

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The video types asked of MediaRecorder, best first in each container (H.264 first in MP4: what WeChat plays). */
const VIDEO_TYPES = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm',
  'video/mp4;codecs=avc1.42E01E', 'video/mp4;codecs=avc1', 'video/mp4'];

/** The video types this browser records, best first ([] without MediaRecorder). */
export function videoTypes() {
  if (typeof MediaRecorder !== 'function' || typeof HTMLCanvasElement.prototype.captureStream !== 'function') return [];
  return VIDEO_TYPES.filter((t) => MediaRecorder.isTypeSupported(t));
}

/** The video containers this browser records, 'webm' and/or 'mp4' (Debian's Chromium: WebM only). */
export function videoFormats() {
  const types = videoTypes();
  return ['webm', 'mp4'].filter((f) => types.some((t) => t.startsWith(`video/${f}`)));
}

/**
 * Records the sweep. host: the chart host (controls, update); canvases(): its visible canvases.
 * opts: { param, values (from sweepValues), fps, width (px of the frame), Chart (the chart's Chart.js,
 * whose text is drawn larger for a frame narrower than the chart), format: 'gif', 'webm',
 * 'mp4' or 'video' (the first this browser records), maxBytes (GIF: made smaller until it fits,
 * see gif()), title (the heading of every frame), caption(value) (the line under it, e.g.
 * "base = 500000"), settings() (the line under every frame saying how the chart is set, read after
 * each step; none when absent), onProgress(fraction, note), signal (AbortSignal) }.
 * Resolves to { blob, width, height, frames, asked, type, scaled, fewer, over, textPx } or null
 * when cancelled (fewer: frames were dropped; over: the GIF is still larger than maxBytes at the
 * smallest readable width; textPx: how tall the tick text is in the frame). The controls are put
 * back as they were, whatever happens.
 */
export async function recordSweep(host, canvases, opts) {
  const control = host.controls.find((c) => c.param.name === opts.param);
  if (!control) throw new RangeError(`sweep: ${opts.param} is not a control of this chart`);
  const before = control.read();
  let held = null;
  const draw = (v) => {
    control.write(v);
    host.update();
    held?.apply();
  };
  try {
    draw(opts.values[0]);
    const list = canvases();
    if (!list.length) throw new Error('this chart has no canvas to record');
    held = await holdAxes(opts.Chart, list, opts.values, draw, opts.signal);
    const { rects, width } = figureLayout(list);
    // a chart wider than the frame is lettered larger, so that its text comes out at the page's size
    const scale = letteringFor(width, opts.width);
    const heading = figureHeading(opts.title ?? '', width, { caption: !!opts.caption, scale });
    const caption = (v) => opts.caption?.(v) ?? '';
    // how the chart is set, under every frame: as many lines as the longest of the first and the last frame's
    const says = (v) => (draw(v), opts.settings?.() ?? '');
    const rows = Math.max(...[opts.values.at(-1), opts.values[0]].map((v) => figureFooter(says(v), width, { scale }).lines.length));
    const footer = () => (rows ? figureFooter(opts.settings(), width, { scale, rows }) : null);
    const frames = { list, rects, cssWidth: width, scale, heading, caption, footer, draw };
    return await withLettering(host, opts.Chart, scale, () => (opts.format === 'gif' ? gif(opts, frames) : video(opts, frames)));
  } finally {
    held?.release();
    control.write(before);
    host.update();
  }
}

/**
 * The value axes (y) of the chart's Chart.js charts held still over the sweep, so that its frames
 * compare at a glance: a first pass draws every value without recording it and takes the union
 * of the ranges Chart.js gave each axis (already widened to round ticks). An axis whose range
 * does not change is left alone, and so is the x axis: it is the one a swept length grows.
 * The pass gives way to the page between values, so that Cancel (`signal`) is heard.
 * Resolves to { apply() (after each draw), release() } or null when no axis moves.
 */
export async function holdAxes(Chart, list, values, draw, signal) {
  const charts = [...new Set(list.map((c) => Chart?.getChart?.(c)).filter(Boolean))];
  if (!charts.length || values.length < 2) return null;
  const seen = new Map();
  for (const v of values) {
    if (signal?.aborted) return null;
    draw(v);
    for (const chart of charts) {
      for (const [id, scale] of Object.entries(chart.scales ?? {})) {
        if (scale.axis !== 'y' || !['linear', 'logarithmic'].includes(scale.type)) continue;
        if (!Number.isFinite(scale.min) || !Number.isFinite(scale.max)) continue;
        const key = `${charts.indexOf(chart)} ${id}`;
        const r = seen.get(key) ?? { chart, id, min: scale.min, max: scale.max, moved: false };
        if (scale.min !== r.min || scale.max !== r.max) r.moved = true;
        r.min = Math.min(r.min, scale.min);
        r.max = Math.max(r.max, scale.max);
        seen.set(key, r);
      }
    }
    await tick();
  }
  const held = [...seen.values()].filter((r) => r.moved && r.chart.options.scales?.[r.id]);
  if (!held.length) return null;
  const own = held.map(({ chart, id }) => ({ min: chart.options.scales[id]?.min, max: chart.options.scales[id]?.max }));
  const touched = [...new Set(held.map((r) => r.chart))];
  return {
    apply() {
      for (const { chart, id, min, max } of held) Object.assign(chart.options.scales[id], { min, max });
      for (const chart of touched) chart.update('none');
    },
    release() {
      held.forEach(({ chart, id }, i) => {
        const o = chart.options.scales[id];
        for (const k of ['min', 'max']) {
          if (own[i][k] === undefined) delete o[k];
          else o[k] = own[i][k];
        }
      });
    },
  };
}

function frameCanvas(list, rects, cssWidth, width, heading, footer) {
  const k = width / cssWidth;
  const height = figureLayout(list).height + heading.height + (footer?.height ?? 0);
  const out = document.createElement('canvas');
  // even sizes: video encoders need them, and a GIF does not mind
  out.width = Math.max(2, 2 * Math.round((cssWidth * k) / 2));
  out.height = Math.max(2, 2 * Math.round((height * k) / 2));
  return { out, k };
}

/** `m` of the values, evenly spaced, the first and the last kept. */
function fewerValues(values, m) {
  const n = values.length;
  return Array.from({ length: m }, (_, i) => values[Math.round((i * (n - 1)) / (m - 1))]);
}

/**
 * The GIF, made to fit opts.maxBytes in this order: narrower while the chart's tick text stays
 * at TICK_PX; then fewer frames, down to minFrames, each shown longer so the sweep lasts as long;
 * then narrower again down to FLOOR_PX text. Still too large there: it is finished as it is,
 * `over` set, for the author to choose.
 */
async function gif(opts, { list, rects, cssWidth, scale, heading, caption, footer, draw }) {
  const { GIFEncoder, quantize, applyPalette } = await import('../vendor/gifenc.js');
  const asked = Math.round(opts.width);
  // the frame's width at which the tick text is `px` px tall (it is TICK_PX * scale px in CSS px)
  const widthAt = (px) => Math.max(2, Math.min(asked, 2 * Math.ceil((cssWidth * px) / (TICK_PX * scale) / 2)));
  const readable = widthAt(TICK_PX), floor = widthAt(FLOOR_PX);
  const fewest = minFrames(opts.values.length);
  let width = asked, values = opts.values, scaled = false;
  for (let attempt = 0; ; attempt++) {
    const { out, k } = frameCanvas(list, rects, cssWidth, width, heading, footer());
    const n = values.length;
    // fewer frames play as long as all of them would have
    const delay = Math.round((1000 / opts.fps) * (opts.values.length - 1) / Math.max(1, n - 1));
    const enc = GIFEncoder();
    let bytes = 0, written = 0;
    const canShrink = attempt < 8 && (width > floor || n > fewest);
    for (let i = 0; i < n; i++) {
      if (opts.signal?.aborted) return null;
      draw(values[i]);
      const ctx = drawFigure(out, list, rects, k, heading, caption(values[i]), footer());
      const { data } = ctx.getImageData(0, 0, out.width, out.height);
      const palette = quantize(data, 256, { format: 'rgb444' });
      const index = applyPalette(data, palette, 'rgb444');
      enc.writeFrame(index, out.width, out.height, { palette, delay, repeat: 0 });
      bytes = enc.bytesView().length;
      written = i + 1;
      opts.onProgress?.(written / n);
      // far past the limit already: start again smaller at once
      if (opts.maxBytes && canShrink && written >= 5 && written < n && (bytes / written) * n > 1.15 * opts.maxBytes) break;
      await tick();
    }
    const estimate = (bytes / written) * n;
    if (!opts.maxBytes || estimate <= opts.maxBytes || !canShrink) {
      enc.finish();
      const blob = new Blob([enc.bytes()], { type: 'image/gif' });
      return {
        blob, width: out.width, height: out.height, frames: n, asked: opts.values.length, type: 'image/gif',
        scaled, fewer: n < opts.values.length, over: !!opts.maxBytes && blob.size > opts.maxBytes, textPx: TICK_PX * scale * k,
      };
    }
    const ratio = (opts.maxBytes / estimate) * 0.92;
    if (width > readable) {
      // a frame's bytes grow with its area: shrink both sides by the square root
      width = Math.max(readable, 2 * Math.floor((width * Math.sqrt(ratio)) / 2));
      scaled = true;
    } else if (n > fewest) {
      values = fewerValues(opts.values, Math.max(fewest, Math.floor(n * ratio)));
    } else {
      width = Math.max(floor, 2 * Math.floor((width * Math.sqrt(ratio)) / 2));
      scaled = true;
    }
    opts.onProgress?.(0);
  }
}

async function video(opts, { list, rects, cssWidth, scale, heading, caption, footer, draw }) {
  const all = videoTypes();
  const types = opts.format === 'video' ? all : all.filter((t) => t.startsWith(`video/${opts.format};`) || t === `video/${opts.format}`);
  if (!types.length) throw new Error(`this browser cannot record ${opts.format === 'video' ? 'video' : opts.format.toUpperCase()} (MediaRecorder)`);
  draw(opts.values[0]);
  const { out, k } = frameCanvas(list, rects, cssWidth, Math.round(opts.width), heading, footer());
  drawFigure(out, list, rects, k, heading, caption(opts.values[0]), footer());
  const stream = out.captureStream(0);
  const [track] = stream.getVideoTracks();
  const recorder = new MediaRecorder(stream, { mimeType: types[0], videoBitsPerSecond: 4_000_000 });
  const chunks = [];
  recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  recorder.start();
  const frameMs = 1000 / opts.fps;
  const t0 = performance.now();
  let cancelled = false;
  for (let i = 0; i < opts.values.length; i++) {
    if (opts.signal?.aborted) {
      cancelled = true;
      break;
    }
    draw(opts.values[i]);
    drawFigure(out, list, rects, k, heading, caption(opts.values[i]), footer());
    track.requestFrame?.();
    opts.onProgress?.((i + 1) / opts.values.length);
    // the recorder stamps frames with the clock: hand them over at the pace they should play
    await sleep(Math.max(0, t0 + (i + 1) * frameMs - performance.now()));
  }
  recorder.stop();
  await stopped;
  for (const t of stream.getTracks()) t.stop();
  if (cancelled) return null;
  const type = types[0].split(';')[0];
  return {
    blob: new Blob(chunks, { type }), width: out.width, height: out.height, frames: opts.values.length, asked: opts.values.length, type,
    scaled: false, textPx: TICK_PX * scale * k,
  };
}
