// chart-host.js: the chart host, in one import: mounting (mount.js), outside state (params.js),
// the chart kinds (kinds.js) and controls (controls.js). Not the exports (export.js), which only
// a toolbar and the page need: what imports this file should not load them.
//
// It also owns the one parser of chart state that comes from outside (URL parameters of the
// page and embed.html, attributes of <posenc-chart>): parseParams() checks every value against
// the chart's own param list (names, types, min/max, step, options), clamps it into range, and
// reports whatever it did not use as notes. Nothing from a URL or an attribute reaches the DOM
// except through textContent, and only whitelisted values reach a chart module.
//
// A chart module (web/charts/<kind>.js) default-exports:
//   {
//     kind: 'rope-decay',                     // also the file name
//     messages: M,                            // its text: M = messages({ en: {...}, zh: {...} })
//     title: M.title,                         // the figure caption
//     params: [                               // one control each, in order
//       { name: 'dim', label: M.dim, type: 'int', min: 2, max: 4096, step: 2, value: 256 },
//       { name: 'scale', label: 'x axis', type: 'select', options: ['linear', 'log'], value: 'log' },
//       { name: 'causal', label: 'causal mask', type: 'bool', value: false },
//       { name: 'base', label: 'base', type: 'number', min: 1, max: 1e6, step: 'any', value: 10000 },
//     ],                                      // a param may also give: optionLabels (a select's texts),
//                                             // sliderMax (a shorter slider), scale ('log' or 'linear':
//                                             // how its slider moves, see slider-scale.js), onlyWhen:
//                                             // { other: value } (shown and used only then),
//                                             // maxFor(params) (its top then), trains: true
//                                             // (taken only when the reader trains: not swept)
//     mount(el, { pe, Chart }) -> {            // el: an empty <div> to fill (canvas, table...)
//       update(params) -> data,                // draw for these params; return what was drawn
//       readout?: string,                      // set by update: a sentence with measured values
//       destroy?(),
//     }
//   }
// `data` is { columns: [names], rows: [[values]] } (a table of the numbers behind the chart; the
// CSV's column names and values stay machine words), and may give heads (the columns' names in the
// page's language, for the table view) and cellText ({ column: { value: word shown } }).
//
// The host mountChart() returns: { params(), set(values), update(), relabel(), place(), destroy(),
// setNotes(list), data, view, controls, chart, container, figure, Chart, i18n }. update() redraws
// now; relabel() re-applies the host's text (strings.js) to the table toggle and the toolbar;
// place() puts the controls where the width wants them (phone.js). The toolbar is not mounted
// with the chart: whoever shows one calls toolbar.js's addToolbar(host, opts), which puts it
// between the chart and its table toggle and sets host.toolbar (the buttons' element). So a
// chart without one, as a post's <posenc-chart> usually is, loads none of the export code.
//
// Languages and themes (host/i18n.js, host/theme.js) are the host's business, wherever it runs
// (the page, embed.html, <posenc-chart>): the caption, control labels and option texts are in
// the language of the moment (the module's messages), and on 'posenc:lang' the host relabels
// and redraws; on 'posenc:theme' it redraws. (host.i18n = true says the host does this.)
//
// Accessibility, also the host's: the readout (the chart's one-sentence summary) has an id that
// describes every role="img" canvas of the chart (aria-describedby), and a hidden polite region
// speaks it once a reader's changes pause; a "Table" toggle under the chart shows host.data as
// an HTML table; a table box that scrolls is a focusable region.

export { HOST, loadFailed } from './strings.js';
export { KINDS, DEFAULT_KIND, loadChart, chartQuery } from './kinds.js';
export {
  RESERVED, MAX_ENTRIES, GLOBAL_ATTRIBUTES, show, escapeHTML, normName, kebab, formatValue, parseValue, parseParams,
  stateQuery, paramAttribute,
} from './params.js';
export { noteBox, showMessage } from './controls.js';
export { mountChart } from './mount.js';
