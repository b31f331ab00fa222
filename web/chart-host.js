// chart-host.js: mounts one chart module into a container: builds its labelled controls
// from the module's parameter list, redraws on input (at most once per animation frame),
// and keeps the latest data the chart drew for tests and exports. Chart modules never
// build controls or touch the wasm heap: they get `pe` (web/posenc.js) and plain params.
//
// A chart module (web/charts/<kind>.js) default-exports:
//   {
//     kind: 'rope-decay',                     // also the file name
//     title: 'Long-range decay',              // the figure caption
//     params: [                               // one control each, in order
//       { name: 'dim', label: 'dimension d', type: 'int', min: 2, max: 4096, step: 2, value: 256 },
//       { name: 'scale', label: 'x axis', type: 'select', options: ['linear', 'log'], value: 'log' },
//       { name: 'causal', label: 'causal mask', type: 'bool', value: false },
//       { name: 'base', label: 'base', type: 'number', min: 1, max: 1e6, step: 'any', value: 10000 },
//     ],
//     mount(el, { pe, Chart }) -> {            // el: an empty <div> to fill (canvas, table...)
//       update(params) -> data,                // draw for these params; return what was drawn
//       readout?: string,                      // set by update: a sentence with measured values
//       destroy?(),
//     }
//   }
// `data` is { columns: [names], rows: [[values]] } (a table of the numbers behind the chart).

const NUMERIC = new Set(['int', 'number']);

function control(p, onInput) {
  const wrap = document.createElement('label');
  wrap.className = 'control';
  const name = document.createElement('span');
  name.textContent = p.label ?? p.name;
  wrap.append(name);
  const inputs = [];
  if (NUMERIC.has(p.type)) {
    const range = document.createElement('input');
    const box = document.createElement('input');
    range.type = 'range';
    box.type = 'number';
    for (const el of [range, box]) {
      el.min = p.min;
      el.max = p.max;
      el.step = p.step ?? (p.type === 'int' ? 1 : 'any');
      el.value = p.value;
      el.name = p.name;
      inputs.push(el);
    }
    range.setAttribute('aria-label', p.label ?? p.name);
    box.setAttribute('aria-label', `${p.label ?? p.name} (number)`);
    range.addEventListener('input', () => ((box.value = range.value), onInput()));
    box.addEventListener('input', () => {
      if (box.value !== '' && box.checkValidity()) (range.value = box.value), onInput();
    });
    wrap.append(range, box);
  } else if (p.type === 'select') {
    const sel = document.createElement('select');
    sel.name = p.name;
    for (const opt of p.options) {
      const o = document.createElement('option');
      o.value = o.textContent = opt;
      sel.append(o);
    }
    sel.value = p.value;
    sel.addEventListener('input', onInput);
    inputs.push(sel);
    wrap.append(sel);
  } else if (p.type === 'bool') {
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = p.name;
    box.checked = !!p.value;
    box.addEventListener('input', onInput);
    inputs.push(box);
    wrap.prepend(box);
  } else {
    throw new TypeError(`chart param ${p.name}: unknown type ${p.type}`);
  }
  return { wrap, read: () => read(p, inputs[inputs.length - 1]), inputs };
}

function read(p, input) {
  if (p.type === 'bool') return input.checked;
  if (p.type === 'select') return input.value;
  let v = Number(input.value);
  if (!Number.isFinite(v)) v = p.value;
  v = Math.min(p.max, Math.max(p.min, v));
  return p.type === 'int' ? Math.round(v) : v;
}

/** Mounts `chart` into `container`; returns { params(), update(), data, view, controls }. */
export function mountChart(container, chart, { pe, Chart, values = {} }) {
  container.classList.add('chart');
  container.dataset.kind = chart.kind;
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  caption.textContent = chart.title;
  const form = document.createElement('form');
  form.className = 'controls';
  form.addEventListener('submit', (e) => e.preventDefault());
  const body = document.createElement('div');
  body.className = 'chart-body';
  const readout = document.createElement('p');
  readout.className = 'readout';
  readout.setAttribute('aria-live', 'polite');
  figure.append(caption, body, readout);
  container.replaceChildren(form, figure);

  let pending = 0;
  const host = { data: null, view: null, controls: [] };
  const schedule = () => {
    if (!pending) pending = requestAnimationFrame(() => ((pending = 0), host.update()));
  };
  for (const p of chart.params) {
    const c = control({ ...p, value: values[p.name] ?? p.value }, schedule);
    host.controls.push({ param: p, ...c });
    form.append(c.wrap);
  }
  host.params = () => Object.fromEntries(host.controls.map((c) => [c.param.name, c.read()]));
  host.view = chart.mount(body, { pe, Chart });
  host.update = () => {
    host.data = host.view.update(host.params());
    readout.textContent = host.view.readout ?? '';
    container.dispatchEvent(new CustomEvent('posenc:drawn', { detail: host.data }));
    return host.data;
  };
  host.update();
  return host;
}
