// run.cjs: runs an ONNX model in onnxruntime-node on a batch of rows.
//
//   node run.cjs MODEL.onnx IN.bin ROWS COLS DTYPE OUT.bin [per-row]
//
// IN.bin holds ROWS×COLS little-endian values of DTYPE (float32 or
// float64), the rows the host feeds in one run. The model's first output
// is written to OUT.bin in its own type, and its dims are printed as JSON.
// With per-row, the model runs once per row (batches of one), and the
// outputs are stacked.
// onnxruntime-node is found through NODE_PATH (host.py sets it).
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, inPath, rows, cols, dtype, outPath, perRow] = process.argv.slice(2);
  const buf = fs.readFileSync(inPath);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const data = dtype === 'float32' ? new Float32Array(ab) : new Float64Array(ab);
  const session = await ort.InferenceSession.create(model, { executionMode: 'sequential', intraOpNumThreads: 1 });
  const r = Number(rows), c = Number(cols);
  const batches = perRow === 'per-row' ? Array.from({ length: r }, (_, i) => [i, i + 1]) : [[0, r]];
  const parts = [];
  let dims, type;
  for (const [lo, hi] of batches) {
    const feeds = {};
    feeds[session.inputNames[0]] = new ort.Tensor(dtype, data.slice(lo * c, hi * c), [hi - lo, c]);
    const t = (await session.run(feeds))[session.outputNames[0]];
    parts.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    type = t.type;
    dims = dims ? [dims[0] + t.dims[0], ...t.dims.slice(1)] : t.dims.slice();
  }
  fs.writeFileSync(outPath, Buffer.concat(parts));
  process.stdout.write(JSON.stringify({ dims, type, ort: require('onnxruntime-node/package.json').version }) + '\n');
}
main().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exit(1); });
