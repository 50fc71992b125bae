// run.cjs: runs an ONNX model in onnxruntime-node on a batch of rows.
//
//   node run.cjs MODEL.onnx IN.bin ROWS COLS DTYPE OUT.bin
//
// IN.bin holds ROWS×COLS little-endian values of DTYPE (float32 or
// float64), the rows the host feeds in one run. The model's first output
// is written to OUT.bin in its own type, and its dims are printed as JSON.
// onnxruntime-node is found through NODE_PATH (host.py sets it).
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, inPath, rows, cols, dtype, outPath] = process.argv.slice(2);
  const buf = fs.readFileSync(inPath);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const data = dtype === 'float32' ? new Float32Array(ab) : new Float64Array(ab);
  const session = await ort.InferenceSession.create(model, { executionMode: 'sequential', intraOpNumThreads: 1 });
  const feeds = {};
  feeds[session.inputNames[0]] = new ort.Tensor(dtype, data, [Number(rows), Number(cols)]);
  const out = await session.run(feeds);
  const t = out[session.outputNames[0]];
  fs.writeFileSync(outPath, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  process.stdout.write(JSON.stringify({ dims: t.dims, type: t.type, ort: require('onnxruntime-node/package.json').version }) + '\n');
}
main().catch((e) => { process.stderr.write(String(e && e.stack || e) + '\n'); process.exit(1); });
