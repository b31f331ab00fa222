// run.exportSafetensors(): a lab run written as a safetensors file and its config.json, read back
// by readSafetensors + readLayer, gives through pe.layerAttention the attention weights the lab's
// own forward pass gives (run.attention) at every layer, for runs trained in both pair layouts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc, readSafetensors, readLayer } from '../web/lib/posenc.js';

const pe = await loadPosenc();

for (const style of ['half', 'interleaved']) {
  test(`a lab RoPE run (${style}) exported, read back and run through layerAttention matches the lab's attention`, async (t) => {
    const run = pe.train({ encoding: 'rope', style, task: 'copy', trainLength: 8, dModel: 16, heads: 2, layers: 2, batch: 8, steps: 40, seed: 5, base: 500 });
    try {
      const { safetensors, config } = run.exportSafetensors();
      assert.equal(config.model_type, 'posenc_lab');
      assert.equal(config.rope_theta, 500);
      assert.equal(config.max_position_embeddings, 17);
      assert.deepEqual(Object.values(pe.ropeConfig(config).layerTypes).map((t) => t.style), ['half']);
      const st = await readSafetensors(safetensors);
      assert.equal(st.names.length, 1 + 2 * 16 + 4);
      assert.equal(st.metadata.format, 'pt');
      // layout: q_proj.weight[o][j] is the lab's W_qkv[j][column of q row o] (half layout)
      const P = run.parameters();
      const q = await st.tensor('model.layers.1.self_attn.q_proj.weight');
      const hd = 8, col = (o) => (style === 'half' ? o : Math.floor(o / hd) * hd + (o % hd < hd / 2 ? 2 * (o % hd) : 2 * (o % hd - hd / 2) + 1));
      for (const [o, j] of [[0, 0], [3, 5], [5, 2], [12, 15], [15, 7]]) assert.equal(q[o * 16 + j], P['wqkv.1'][j * 48 + col(o)]);
      const lmHead = await st.tensor('lm_head.weight');
      assert.equal(lmHead[2 * 16 + 3], P.wh[3 * 18 + 2]);

      const { tokens } = run.attention({ length: 8, seed: 2 });
      const lab = run.attention(tokens).weights;
      const hidden = run.hidden(tokens).hidden;
      const T = tokens.length, D = 16;
      let worst = 0;
      for (let l = 0; l < 2; l++) {
        const { x: emb, weights } = await readLayer(st, { layer: l, tokens: Array.from(tokens) });
        // layer 0 reads the embedding rows (RoPE adds nothing to them); deeper layers the lab's residual stream
        const x = l === 0 ? emb : hidden.subarray(l * T * D, (l + 1) * T * D);
        if (l === 0) assert.deepEqual(emb, hidden.subarray(0, T * D));
        const got = pe.layerAttention({ config, x, weights });
        const want = lab.subarray(l * 2 * T * T, (l + 1) * 2 * T * T);
        assert.equal(got.weights.length, want.length);
        for (let n = 0; n < want.length; n++) worst = Math.max(worst, Math.abs(got.weights[n] - want[n]));
      }
      // the lab runs in float32 (float32 sums in its matrix products); layerAttention sums in float64
      t.diagnostic(`largest difference of the attention weights: ${worst.toExponential(2)}`);
      assert.ok(worst <= 1e-6, `weights differ by ${worst.toExponential(2)}`);
    } finally {
      run.free();
    }
  });
}

test('exportSafetensors refuses runs that are not RoPE models, and freed runs', () => {
  const run = pe.train({ encoding: 'alibi', steps: 0 });
  assert.throws(() => run.exportSafetensors(), /^RangeError: exportSafetensors: only runs with encoding 'rope'.*"alibi"/);
  run.free();
  assert.throws(() => run.exportSafetensors(), /^TypeError: posenc: LabRun.exportSafetensors: this run was freed/);
});
