// toolbar.js: the Link, Embed, PNG, SVG, GIF / video, CSV and Table buttons under a chart, the panel
// that shows what Link and Embed copied, and the panel of the animated exports. Added by the
// callers that show them (the page, embed.html, a <posenc-chart toolbar>) on the host that
// mountChart returned, so a chart without a toolbar loads none of this.
import { HOST } from './strings.js';
import { newId } from './controls.js';
import { toCSV, download, withPixelRatio, withLettering, letteringFor, figureHeading, figureFooter, figureLayout, drawFigure } from './export.js';
import { settingsLine } from './settings-line.js';
import { t } from './i18n.js';
import { sweepable } from './main-control.js';

/**
 * Adds the toolbar under the chart of `host` (mount.js's), between the chart and its table, whose
 * toggle it takes in. opts: { link?: (values) => url, sectionLink?: () => url, embed?: (values, height) =>
 * html, reset?: true, png?: true, csv?: true }: a button for each one given.
 */
export function addToolbar(host, opts) {
  const { chart, container, figure, Chart } = host;
  const bar = document.createElement('div');
  bar.className = 'posenc-toolbar';
  bar.setAttribute('role', 'group');
  const panel = document.createElement('div');
  panel.className = 'posenc-share';
  panel.hidden = true;
  panel.id = newId('posenc-share-panel', chart.kind);
  const fieldLabel = document.createElement('label');
  const field = document.createElement('textarea');
  field.readOnly = true;
  field.spellcheck = false;
  field.className = 'mono';
  field.id = newId('posenc-share', chart.kind);
  fieldLabel.htmlFor = field.id;
  const status = document.createElement('p');
  status.className = 'posenc-share-status';
  status.setAttribute('role', 'status');
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'posenc-close';
  panel.append(fieldLabel, field, status, close);
  // the button that opened the panel (Link, Embed, or one whose work failed) gets the focus back
  // when the panel shuts, not the page or another button; Link and Embed say whether it is open
  let opener = null;
  const says = (b, open) => b?.getAttribute('aria-controls') === panel.id && b.setAttribute('aria-expanded', String(open));
  const showPanel = (from) => {
    if (opener !== from) says(opener, false);
    opener = from;
    says(opener, true);
    panel.hidden = false;
  };
  const hidePanel = ({ focus = false } = {}) => {
    const back = opener;
    panel.hidden = true;
    sectionButton.hidden = true;
    says(opener, false);
    opener = null;
    if (focus && back?.isConnected) back.focus();
  };
  close.addEventListener('click', () => hidePanel({ focus: true }));
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') hidePanel({ focus: true });
  });

  const buttons = {};
  const button = (key, onClick) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.action = key;
    b.addEventListener('click', () => {
      Promise.resolve().then(onClick).catch((err) => {
        showPanel(b);
        field.hidden = true;
        status.textContent = HOST.drawFailed.format({ message: err?.message ?? String(err) });
      });
    });
    buttons[key] = b;
    bar.append(b);
  };

  const share = async (from, labelKey, text, rows) => {
    fieldLabel.textContent = HOST[labelKey];
    field.hidden = false;
    field.value = text;
    field.rows = rows;
    showPanel(from);
    let copied = false;
    try {
      if (navigator.clipboard?.writeText) {
        await navigator.clipboard.writeText(text);
        copied = true;
      }
    } catch {
      copied = false;
    }
    status.textContent = copied ? HOST.copied : HOST.copyByHand;
    // the focus goes to the text, copied or not: a keyboard or screen reader user finds it there,
    // not nine Tabs on past the other buttons
    field.focus();
    field.select();
    return copied;
  };

  if (opts.link) {
    button('link', () => {
      // a section of several charts can be linked whole (a scene): offered beside this chart's link
      if (opts.sectionLink) sectionButton.hidden = false;
      return share(buttons.link, 'linkLabel', opts.link(host.params()), 2);
    });
  }
  const sectionButton = document.createElement('button');
  sectionButton.type = 'button';
  sectionButton.className = 'posenc-close';
  sectionButton.hidden = true;
  sectionButton.addEventListener('click', async () => {
    sectionButton.hidden = true;
    await share(buttons.link, 'sectionLinkLabel', opts.sectionLink(), 3);
  });
  if (opts.sectionLink) panel.insertBefore(sectionButton, close);
  if (opts.reset) button('reset', () => host.reset());
  if (opts.embed) {
    button('embed', () => {
      const text = opts.embed(host.params(), container.getBoundingClientRect().height);
      return share(buttons.embed, 'embedLabel', text, Math.min(10, text.split('\n').length + 1));
    });
  }
  for (const key of ['link', 'embed']) {
    buttons[key]?.setAttribute('aria-expanded', 'false');
    buttons[key]?.setAttribute('aria-controls', panel.id);
  }
  const canvases = () => [...figure.querySelectorAll('canvas')].filter((c) => c.getClientRects().length && c.width && c.height);
  // the SVG writer and the animation panel load when first asked for
  let animation = null;
  // the figures carry a line of how the chart is set (a post shows no controls), unless this is unticked
  const withSettings = document.createElement('input');
  withSettings.type = 'checkbox';
  withSettings.name = 'with-settings';
  withSettings.checked = true;
  const settingsLabel = document.createElement('label');
  settingsLabel.className = 'posenc-with-settings';
  const settingsText = document.createElement('span');
  settingsLabel.append(withSettings, settingsText);
  const settings = () => (withSettings.checked ? settingsLine(container) : '');
  if (opts.png && figure.querySelector('canvas')) {
    button('png', () => exportPNG(host, figure, canvases, Chart, settings));
    button('svg', async () => {
      const { chartSVG } = await import('./svg.js');
      // lettered for a post's column, as the PNG is: an SVG scales with its text
      const lettering = letteringFor(figureLayout(canvases()).width);
      const svg = await withLettering(host, Chart, lettering, () => chartSVG(canvases(), { Chart, title: t(chart.title), settings: settings(), scale: lettering }));
      download(figure.parentElement ?? figure, `posenc-${chart.kind}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
    });
    if (host.controls.some((c) => sweepable(c.param))) {
      button('animate', async () => {
        hidePanel();
        if (!animation) {
          const { animatePanel } = await import('./animate-panel.js');
          animation ??= animatePanel(host, canvases, figure.parentElement ?? figure, Chart, settings, buttons.animate);
          panel.after(animation.el);
        }
        animation.open();
      });
      // (the panel is made when first asked for: the button names it from then on)
      buttons.animate.setAttribute('aria-expanded', 'false');
    }
  }
  if (buttons.png) bar.append(settingsLabel);
  if (opts.csv) {
    button('csv', () => {
      const values = host.params();
      const link = opts.link ? opts.link(values) : undefined;
      const data = host.data ?? host.update();
      download(container, `posenc-${chart.kind}.csv`, new Blob([toCSV(chart, values, data, { link })], { type: 'text/csv;charset=utf-8' }));
    });
  }
  const relabel = () => {
    bar.setAttribute('aria-label', HOST.toolbar);
    close.textContent = HOST.close;
    sectionButton.textContent = HOST.sectionLink;
    for (const [key, b] of Object.entries(buttons)) {
      b.textContent = HOST[key];
      b.title = HOST[`${key}Title`];
    }
    settingsText.textContent = HOST.withSettings;
    settingsLabel.title = HOST.withSettingsTitle;
    animation?.relabel();
  };
  relabel();
  const hostRelabel = host.relabel;
  host.relabel = () => (relabel(), hostRelabel());
  host.toolbar = bar; // other page tools may add their buttons here
  // the Table toggle (table.js) joins the buttons, so that they make one row under the chart (three
  // on a phone, not four); the table itself still opens under them
  const tableToggle = container.querySelector(':scope > .data-table > .data-table-toggle');
  if (tableToggle) bar.append(tableToggle);
  figure.after(bar, panel);
  host.place();
}

/**
 * Draws the chart's canvases at 2× into one PNG and downloads it, its text lettered for a post's
 * column (letteringFor): a post shows a wide chart's image narrower than the page does.
 */
async function exportPNG(host, figure, canvases, Chart, settings) {
  const scale = 2;
  const charts = () => canvases().map((c) => Chart?.getChart?.(c)).filter(Boolean);
  const out = document.createElement('canvas');
  const lettering = letteringFor(figureLayout(canvases()).width);
  await withLettering(host, Chart, lettering, () => {
    withPixelRatio(scale, () => {
      for (const c of charts()) c.resize();
      host.update();
      const list = canvases();
      const { rects, width, height } = figureLayout(list);
      // the chart's heading above it, as in the SVG and the animations: a posted image has no page around it
      const heading = figureHeading(t(host.chart.title), width, { scale: lettering });
      const footer = figureFooter(settings(), width, { scale: lettering });
      out.width = Math.round(width * scale);
      out.height = Math.round((height + heading.height + footer.height) * scale);
      drawFigure(out, list, rects, scale, heading, '', footer);
    });
    // back to the screen's own resolution
    for (const c of charts()) c.resize();
  });
  const blob = await new Promise((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  download(figure.parentElement ?? figure, `posenc-${host.chart.kind}.png`, blob);
}
