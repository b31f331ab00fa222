// The manuals' examples, run as written: README.md's JS API, zero-copy and lab examples (imported
// as 'posenc', the package's own name, as a user's code does), the error message it quotes, its
// `npx posenc` lines through the CLI on files the test writes, and web/embed/README.md's default
// and range of every numeric and choice attribute against the charts' own params.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from 'posenc';
import { MODELS as GGUF_MODELS, gguf } from './fixtures/gguf-writer.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
const block = (lang, marker) => {
  const found = blocks.filter((b) => b.lang === lang && b.code.includes(marker));
  assert.equal(found.length, 1, `README.md has one ${lang} block with ${marker}`);
  return found[0].code;
};
const AsyncFunction = (async () => {}).constructor;

/** Runs a README block as an async function body: `import { … } from 'posenc'` reads the package. */
async function run(code, given = {}, returned = []) {
  const body = code.replace(/^import \{([^}]*)\} from '([^']+)';.*$/gm, (_, names, from) => {
    assert.equal(from, 'posenc', 'README imports the package by its name');
    return `const {${names}} = api;`;
  });
  const names = ['api', ...Object.keys(given)];
  return new AsyncFunction(...names, `${body}\nreturn { ${returned.join(', ')} };`)(api, ...Object.values(given));
}

test('README: the JS API example runs as written and gives what its comments say', async () => {
  const code = block('js', 'pe.sinusoidal(100, 512)');
  const { table, x, y, gemma, q } = await run(code, {}, ['table', 'x', 'y', 'gemma', 'q']);
  assert.ok(table instanceof Float32Array && table.length === 100 * 512);
  assert.equal(table[512], Math.fround(Math.sin(1)), 'table[512] = sin(1)');
  assert.ok(x.every((v) => v === 1), 'x untouched');
  assert.ok(y instanceof Float32Array && y.length === x.length);
  const said = /gemma\.layerTypes\.full_attention;\s*\/\/ full\.scaling: (\{[^}]*\})/.exec(code);
  assert.ok(said, 'the example says what the scaling is');
  assert.deepEqual(gemma.layerTypes.full_attention.scaling, new Function(`return ${said[1]}`)());
  assert.ok(q instanceof Float32Array && q.length === 2 * 8 * 256, 'Gemma 3 4B\'s full_attention layers rotate');
});

test('README: the unknown-key TypeError it quotes is the one thrown', async () => {
  const quoted = /`TypeError: (applyRope's options has no key[^`]*)`/.exec(readme);
  assert.ok(quoted, 'README quotes the message');
  const pe = await api.loadPosenc();
  assert.throws(() => pe.applyRope(new Float32Array(4), { heads: 1, headDim: 4, style: 'half', positions: [0], rotary_dim: 4 }),
    (e) => e instanceof TypeError && e.message === quoted[1]);
});

test('README: the zero-copy example runs as written and frees what it made', async () => {
  const pe = await api.loadPosenc();
  const positions = [0, 1, 2];
  const data = pe.randomNormal(positions.length * 32 * 128, 7);
  const before = pe.heapBytes().inUse;
  const { t, cos, sin } = await run(block('js', 'pe.applyRopeInPlace('), { pe, data, positions }, ['t', 'cos', 'sin']);
  assert.ok(t.freed && cos.freed && sin.freed);
  assert.ok(pe.heapBytes().inUse <= before, 'nothing left in the heap');
});

test('README: the lab example runs as written', async () => {
  const pe = await api.loadPosenc();
  const { run: labRun } = await run(block('js', 'pe.train('), { pe }, ['run']);
  assert.equal(labRun.freed, true);
});

test('README: the lab charts it says show a run trained on the page are the ones that redraw for one', () => {
  const redraws = (name) => /\bonTrained\(/.test(readFileSync(join(ROOT, 'web/charts', `${name}.js`), 'utf8'));
  assert.deepEqual(['lab-positions', 'lab-attention', 'lab-scaling', 'lab-learned'].map(redraws), [true, true, false, false]);
  assert.match(readme.replace(/\s+/g, ' '), /and the accuracy, per-position and attention charts show its run; the scaling and learned-table charts keep the default one\./);
});

test('README: its `npx posenc` lines run through the CLI with the exit codes it gives', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-readme-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(GGUF_MODELS['llama-3.1-8b'].config));
  writeFileSync(join(dir, 'model.gguf'), gguf('llama-3.1-8b'));
  const lines = block('sh', 'npx posenc').split('\n').filter((l) => l.startsWith('npx posenc '));
  assert.ok(lines.length >= 3);
  for (const line of lines) {
    const [cmd, comment = ''] = line.split(/\s+#\s+/);
    // (`< file`: the shell's standard input)
    const [, command, from] = /^(.*?)(?:\s+<\s+(\S+))?$/.exec(cmd.trim());
    const args = command.split(/\s+/).slice(2);
    const input = from === undefined ? '' : readFileSync(join(dir, from));
    const r = spawnSync(process.execPath, [join(ROOT, 'web', 'tools', 'posenc-cli.js'), ...args], { cwd: dir, encoding: 'utf8', input });
    // compare's line says it "exits 1 when they disagree": here the flags make llama.cpp disagree
    const expected = /exits 1 when they disagree/.test(comment) ? 1 : 0;
    assert.equal(r.status, expected, `${cmd}: ${r.stderr}`);
    assert.ok(r.stdout.length > 0, `${cmd} prints something`);
    const out = args.indexOf('--out');
    if (out >= 0) assert.equal(JSON.parse(readFileSync(join(dir, args[out + 1]), 'utf8')).format, 'posenc-rope-vectors/1');
  }
  assert.ok(existsSync(join(dir, 'vectors.json')));
});

test('web/embed/README.md: every attribute\'s default, and every numeric one\'s range and step, are the chart\'s', async () => {
  const table = readFileSync(join(ROOT, 'web', 'embed', 'README.md'), 'utf8').split('\n');
  const { KINDS } = await import('../web/host/kinds.js');
  const { paramAttribute } = await import('../web/host/chart-host.js');
  for (const kind of KINDS) {
    const row = table.find((l) => l.startsWith(`| \`${kind}\` |`));
    assert.ok(row, `a row for ${kind}`);
    const { default: chart } = await import(`../web/charts/${kind}.js`);
    for (const p of chart.params) {
      const attr = `\`${paramAttribute(p)}\`=`;
      const at = row.slice(row.indexOf(attr) + attr.length);
      if (p.type === 'select') {
        assert.ok(at.startsWith(`${JSON.stringify(p.value)} (`), `${kind} ${p.name}: default ${JSON.stringify(p.value)}, README ${at.slice(0, 40)}`);
        // the choices where the row lists them all (not "as above", a gallery, or "0"–"63")
        const listed = /^"[^"]*" \(("[^"]*"(?: \/ "[^"]*")+)([):])/.exec(at);
        if (listed) assert.equal(listed[1], p.options.map((o) => JSON.stringify(o)).join(' / '), `${kind} ${p.name}: choices`);
        const span = /^"[^"]*" \("[^"]*" \/ ("[^"]*")–("[^"]*")/.exec(at); // "all" / "0"–"63"
        if (span) assert.deepEqual([span[1], span[2]], [p.options[1], p.options.at(-1)].map((o) => JSON.stringify(o)), `${kind} ${p.name}: choices`);
      } else if (p.type === 'bool') {
        assert.ok(at.startsWith(`${p.value ? 1 : 0} (0 / 1)`), `${kind} ${p.name}: default ${p.value}, README ${at.slice(0, 20)}`);
      } else {
        const step = p.step && p.step !== 'any' && p.step !== 1 ? ` step ${p.step}` : '';
        const want = `${p.value} (${p.min}–${p.max}${step}`;
        assert.ok(at.startsWith(want), `${kind} ${p.name}: ${want}, README ${at.slice(0, want.length + 10)}`);
      }
    }
  }
});

test('README: the JS API bundles for the browser with esbuild and no setting', async () => {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(ROOT, 'web/lib/posenc.js')], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
  });
  assert.deepEqual(result.errors, []);
  const out = result.outputFiles[0].text;
  assert.match(out, /new URL\("\.\.\/build\/posenc\.wasm", import\.meta\.url\)/, 'the bundle loads ../build/posenc.wasm, as README says');
  assert.match(out, /import\(\s*(\/\*[^*]*\*\/\s*)*NODE_FS\s*\)/, 'the Node-only file read is left to run time, not bundled');
});
