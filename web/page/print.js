// print.js: the page as a handout. Chart.js redraws a canvas when the print layout resizes it,
// which a printer may not wait for; so before printing, each chart's canvases are copied into
// images as they are on screen, and the print stylesheet shows those instead (style.css,
// @media print). After printing the images go.
const SNAPSHOT = 'print-snapshot';

/** Puts an <img> of each drawn canvas of the page right after it. */
export function snapshotCharts(doc = document) {
  clearSnapshots(doc);
  for (const canvas of doc.querySelectorAll('main [data-chart] canvas')) {
    if (!canvas.width || !canvas.height || !canvas.getClientRects().length) continue;
    const img = doc.createElement('img');
    img.className = SNAPSHOT;
    img.alt = canvas.getAttribute('aria-label') ?? '';
    img.src = canvas.toDataURL('image/png');
    const r = canvas.getBoundingClientRect();
    img.width = Math.round(r.width);
    img.height = Math.round(r.height);
    canvas.after(img);
  }
}

export function clearSnapshots(doc = document) {
  for (const img of doc.querySelectorAll(`img.${SNAPSHOT}`)) img.remove();
}

/** Snapshots before every print (the print dialog, or a print media query turning on). */
export function preparePrinting() {
  addEventListener('beforeprint', () => snapshotCharts());
  addEventListener('afterprint', () => clearSnapshots());
  const media = matchMedia('print');
  media.addEventListener('change', () => (media.matches ? snapshotCharts() : clearSnapshots()));
}
