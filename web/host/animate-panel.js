// animate-panel.js: the panel of the toolbar's "GIF / video" button: which control to sweep,
// from where to where, how many frames, how fast and how wide; then a progress bar with Cancel,
// and the file's size shown before it is saved.
import { t, lang } from './i18n.js';
import { HOST } from './strings.js';
import { newId } from './controls.js';
import { sweepDefaults, sweepable } from './main-control.js';
import { sweepValues, recordSweep, videoFormats, FLOOR_PX } from './animate.js';
import { captionValue, download, figureLayout, POST_WIDTH } from './export.js';

/**
 * Megabytes and kilobytes as 10^6 and 10^3 bytes, as upload limits count them: a GIF the panel
 * keeps under "5 MB" is under 5 000 000 bytes, so it passes a limit read either way.
 */
const MB = 1_000_000, KB = 1000;

const field = (labelText, input) => {
  const wrap = document.createElement('label');
  wrap.className = 'control';
  const name = document.createElement('span');
  name.textContent = labelText;
  wrap.append(name, input);
  return wrap;
};

const numberInput = (name, value, { min, max, step = 'any' } = {}) => {
  const el = document.createElement('input');
  el.type = 'number';
  el.name = name;
  el.value = String(value);
  if (min !== undefined) el.min = String(min);
  if (max !== undefined) el.max = String(max);
  el.step = String(step);
  return el;
};

const sizeText = (bytes) => (bytes >= MB ? `${(bytes / MB).toFixed(2)} MB` : `${Math.max(1, Math.round(bytes / KB))} kB`);

/**
 * Builds the panel for host (a mounted chart, drawn by Chart); canvases() lists its visible
 * canvases; settings() is the line of how it is set, drawn under every frame ('' for none);
 * opener, the button that opens it, says whether it is open and gets the focus back when it
 * shuts. Returns { el, open() }.
 */
export function animatePanel(host, canvases, parent, Chart, settings, opener = null) {
  const { chart } = host;
  const el = document.createElement('div');
  el.className = 'posenc-share posenc-animate';
  el.hidden = true;
  el.id = newId('posenc-animate', chart.kind);
  el.setAttribute('role', 'group');
  opener?.setAttribute('aria-controls', el.id);
  const numeric = host.controls.filter((c) => sweepable(c.param));

  const param = document.createElement('select');
  param.name = 'sweep-param';
  for (const c of numeric) {
    const o = document.createElement('option');
    o.value = c.param.name;
    param.append(o);
  }
  const from = numberInput('sweep-from', 0), to = numberInput('sweep-to', 0);
  const frames = numberInput('sweep-frames', 30, { min: 2, max: 600, step: 1 });
  const fps = numberInput('sweep-fps', 10, { min: 1, max: 60, step: 1 });
  const width = numberInput('sweep-width', 640, { min: 120, max: 1920, step: 2 });
  const format = document.createElement('select');
  format.name = 'sweep-format';
  // every container this browser records: WebM (Chromium), MP4 (where MediaRecorder has it)
  const formats = [['gif', 'GIF'], ...videoFormats().map((f) => [f, f === 'mp4' ? 'MP4' : 'WebM'])];
  for (const [v, text] of formats) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = text;
    format.append(o);
  }
  const limit = numberInput('sweep-limit', 5, { min: 0.1, max: 100, step: 0.1 });
  const grid = document.createElement('div');
  grid.className = 'animate-fields';
  const labels = {};
  for (const [key, input] of [['sweepParam', param], ['sweepFrom', from], ['sweepTo', to], ['sweepFrames', frames], ['sweepFps', fps],
    ['sweepWidth', width], ['sweepFormat', format], ['sweepLimit', limit]]) {
    const f = field('', input);
    labels[key] = f.querySelector('span');
    grid.append(f);
  }
  const limitField = limit.closest('label');

  const make = document.createElement('button');
  make.type = 'button';
  make.dataset.action = 'make';
  const progress = document.createElement('progress');
  progress.max = 1;
  progress.value = 0;
  progress.hidden = true;
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.dataset.action = 'cancel';
  cancel.hidden = true;
  const save = document.createElement('button');
  save.type = 'button';
  save.dataset.action = 'save';
  save.hidden = true;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'posenc-close';
  const status = document.createElement('p');
  status.className = 'posenc-share-status';
  status.setAttribute('role', 'status');
  const row = document.createElement('div');
  row.className = 'animate-actions';
  row.append(make, progress, cancel, save, close);
  const title = document.createElement('p');
  title.className = 'animate-title';
  el.append(title, grid, row, status);

  let job = null, result = null;
  const p = () => numeric.find((c) => c.param.name === param.value)?.param;
  const setRange = (d) => {
    const q = p();
    for (const input of [from, to]) (input.min = q.min), (input.max = q.max), (input.step = q.step ?? (q.type === 'int' ? 1 : 'any'));
    from.value = String(d?.from ?? q.min);
    to.value = String(d?.to ?? q.max);
    frames.value = String(d?.frames ?? 30);
  };
  param.addEventListener('input', () => setRange(sweepDefaults({ ...chart, sweep: { param: param.value } }, host.params())));
  format.addEventListener('input', () => (limitField.hidden = format.value !== 'gif'));

  const busy = (on) => {
    progress.hidden = cancel.hidden = !on;
    make.disabled = on;
    for (const input of grid.querySelectorAll('input, select')) input.disabled = on;
  };
  const read = (input, fallback) => (Number.isFinite(Number(input.value)) && input.value !== '' ? Number(input.value) : fallback);

  make.addEventListener('click', async () => {
    const q = p();
    if (!q) return;
    const lo = Math.min(q.max, Math.max(q.min, read(from, q.min))), hi = Math.min(q.max, Math.max(q.min, read(to, q.max)));
    const n = Math.min(600, Math.max(2, Math.round(read(frames, 30))));
    const rate = Math.min(60, Math.max(1, Math.round(read(fps, 10))));
    const w = Math.min(1920, Math.max(120, Math.round(read(width, 640))));
    const kind = format.value;
    result = null;
    save.hidden = true;
    busy(true);
    const controller = new AbortController();
    job = controller;
    status.textContent = HOST.sweepWorking;
    try {
      const r = await recordSweep(host, canvases, {
        param: q.name, values: sweepValues(q, lo, hi, n), fps: rate, width: w, format: kind, Chart, settings,
        maxBytes: kind === 'gif' ? Math.max(0.1, read(limit, 5)) * MB : 0,
        title: t(chart.title), caption: (v) => `${t(q.label ?? q.name)} = ${captionValue(v)}`,
        signal: controller.signal, onProgress: (f) => (progress.value = f),
      });
      if (!r) {
        status.textContent = HOST.sweepCancelled;
        return;
      }
      result = r;
      const ext = r.type === 'image/gif' ? 'gif' : r.type.includes('mp4') ? 'mp4' : 'webm';
      result.name = `posenc-${chart.kind}-${q.name}-${lo}-${hi}.${ext}`;
      const mb = Math.max(0.1, read(limit, 5));
      // what was given up to meet the limit
      const notes = [];
      if (r.scaled) notes.push(HOST.sweepScaled.format({ limit: mb, px: Math.round(r.textPx) }));
      if (r.fewer) notes.push(HOST.sweepFewer.format({ frames: r.frames, asked: r.asked, limit: mb }));
      if (r.over) notes.push(HOST.sweepOver.format({ limit: mb, width: r.width }));
      // a frame asked narrow from a wide chart shrinks its text past reading (a phone's GIF from a desktop window)
      if (!r.scaled && r.textPx < FLOOR_PX) notes.push(HOST.sweepSmallText.format({ px: Math.round(r.textPx), width: r.width }));
      status.textContent = [HOST.sweepReady.format({ name: result.name, size: sizeText(r.blob.size), frames: r.frames, width: r.width, height: r.height }), ...notes].join(lang() === 'zh' ? '' : ' '); // (Chinese sets no space after its full stop)
      save.hidden = false;
      save.focus();
    } catch (err) {
      status.textContent = HOST.drawFailed.format({ message: err?.message ?? String(err) });
    } finally {
      job = null;
      busy(false);
    }
  });
  cancel.addEventListener('click', () => job?.abort());
  save.addEventListener('click', () => result && download(parent, result.name, result.blob));
  close.addEventListener('click', () => {
    job?.abort();
    el.hidden = true;
    opener?.setAttribute('aria-expanded', 'false');
    if (opener?.isConnected) opener.focus();
  });
  el.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close.click();
  });

  const relabel = () => {
    el.setAttribute('aria-label', HOST.animate);
    title.textContent = HOST.sweepIntro;
    for (const [key, span] of Object.entries(labels)) span.textContent = HOST[key];
    for (const o of param.options) {
      const c = numeric.find((x) => x.param.name === o.value);
      o.textContent = t(c.param.label ?? c.param.name);
    }
    make.textContent = HOST.sweepMake;
    cancel.textContent = HOST.sweepCancel;
    save.textContent = HOST.sweepSave;
    close.textContent = HOST.close;
    progress.setAttribute('aria-label', HOST.sweepProgress);
  };
  relabel();

  const open = () => {
    el.hidden = false;
    opener?.setAttribute('aria-expanded', 'true');
    if (!job && !result) {
      const d = sweepDefaults(chart, host.params());
      if (d) {
        param.value = d.param;
        setRange(d);
      }
      // a post's column, or the chart's own width if it is narrower (a frame wider would only blow it up)
      const list = canvases(), drawn = list.length ? figureLayout(list).width : POST_WIDTH;
      width.value = String(Math.min(POST_WIDTH, 2 * Math.round(drawn / 2)));
      limitField.hidden = format.value !== 'gif';
    }
    param.focus();
  };
  return { el, open, relabel, available: numeric.length > 0 };
}
