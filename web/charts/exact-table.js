// exact-table.js: seed 003 #2, the sinusoidal table printed as numbers (L = 2, D = 4 by default).
export default {
  kind: 'exact-table',
  title: 'PE values, position × dimension',
  params: [
    { name: 'length', label: 'positions L', type: 'int', min: 1, max: 16, value: 2 },
    { name: 'dim', label: 'dimension D', type: 'int', min: 2, max: 16, step: 2, value: 4 },
    { name: 'base', label: 'base', type: 'number', min: 1, max: 100000, step: 'any', value: 10000 },
  ],
  mount(el, { pe }) {
    const scroll = document.createElement('div');
    scroll.className = 'table-scroll';
    const table = document.createElement('table');
    table.className = 'values mono';
    scroll.append(table);
    el.append(scroll);
    const view = {
      update({ length, dim, base }) {
        const pe_ = pe.sinusoidal(length, dim, { base });
        const columns = ['pos', ...Array.from({ length: dim }, (_, j) => `${j % 2 ? 'cos' : 'sin'} d${j}`)];
        const rows = Array.from({ length }, (_, p) => [p, ...pe_.slice(p * dim, (p + 1) * dim)]);
        const head = `<thead><tr>${columns.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>`;
        const body = rows
          .map(([p, ...v]) => `<tr><th scope="row">${p}</th>${v.map((x) => `<td>${x.toFixed(8)}</td>`).join('')}</tr>`)
          .join('');
        table.innerHTML = head + `<tbody>${body}</tbody>`;
        view.readout = `PE(1) = [${Array.from(pe_.slice(dim, 2 * dim).slice(0, 4), (x) => x.toFixed(8)).join(', ')}${dim > 4 ? ', …' : ''}]`;
        if (length < 2) view.readout = `PE(0) = [${Array.from(pe_.slice(0, Math.min(dim, 4)), (x) => x.toFixed(8)).join(', ')}]`;
        return { columns, rows };
      },
    };
    return view;
  },
};
