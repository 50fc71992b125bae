"""host.py: plays a host that evaluates submitted ONNX models.

    /usr/bin/python3 host.py FEATURES.csv LABELS.csv MODEL.onnx... [options]

It checks the model with onnx.checker (full_check=True), runs it in
onnxruntime (onnxruntime-node, through run.cjs; --ort names the directory
whose node_modules holds it) on the test features and prints scikit-learn's
log_loss of the runtime's output against the labels, as repr(float): the one
number a leaderboard shows; one line per model, in order. The runtime's output goes to log_loss as it is
(float32 stays float32: log_loss then computes in float32).

--mode batch    all rows in one batch, in file order (the default)
--mode shuffle  all rows in one batch, in a seeded random order
--mode rows     one row per run (batches of one, in file order)
--mode one      one input v in (0,1)^d; the model's output row is the
                whole prediction vector (EA Theorem 9's host)
--mode one-neg  the same with v in (-1,0)^d
--dtype         float32 or float64: the type the features are fed in
--noise TAU     add noise uniform in [-TAU, TAU] to the score (seeded)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from sklearn.metrics import log_loss

HERE = os.path.dirname(os.path.abspath(__file__))


def run(model, x, dtype, ort_dir, per_row=False):
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "in.bin"), os.path.join(tmp, "out.bin")
        np.ascontiguousarray(x, dtype=dtype).astype("<" + np.dtype(dtype).str[1:]).tofile(inp)
        env = dict(os.environ)
        if ort_dir:
            env["NODE_PATH"] = os.path.join(ort_dir, "node_modules")
        r = subprocess.run(["node", os.path.join(HERE, "run.cjs"), model, inp, str(x.shape[0]), str(x.shape[1]),
                            np.dtype(dtype).name, out] + (["per-row"] if per_row else []),
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            sys.exit("host: onnxruntime failed: " + r.stderr.strip())
        meta = json.loads(r.stdout)
        odt = {"float32": np.float32, "float64": np.float64}[meta["type"]]
        return np.fromfile(out, dtype=odt).reshape(meta["dims"]), meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("features")
    ap.add_argument("labels")
    ap.add_argument("models", nargs="+")
    ap.add_argument("--mode", default="batch", choices=["batch", "shuffle", "rows", "one", "one-neg"])
    ap.add_argument("--dtype", default="float64", choices=["float32", "float64"])
    ap.add_argument("--ort", default=os.environ.get("LABELINF_ORT_NODE", ""))
    ap.add_argument("--noise", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the score with the runtime's version as JSON")
    ap.add_argument("--predictions", help="also write model K's predictions (one per line, repr) to PREFIX.K (K from 0)")
    a = ap.parse_args()

    x = np.loadtxt(a.features, delimiter=",", ndmin=2)
    y = np.loadtxt(a.labels, dtype=np.int64, ndmin=1)
    for k, model in enumerate(a.models):
        print(score(a, model, x, y, k), flush=True)


def score(a, model, x, y, k):
    onnx.checker.check_model(onnx.load(model), full_check=True)
    n = len(y)
    rng = np.random.default_rng(a.seed)
    if a.mode in ("one", "one-neg"):
        v = rng.uniform(0.01, 0.99, size=(1, x.shape[1]))
        if a.mode == "one-neg":
            v = -v
        out, meta = run(model, v, a.dtype, a.ort)
        p = out[0]
    elif a.mode == "rows":
        p, meta = run(model, x, a.dtype, a.ort, per_row=True)
    else:
        order = rng.permutation(n) if a.mode == "shuffle" else np.arange(n)
        out, meta = run(model, x[order], a.dtype, a.ort)
        p = np.empty_like(out)
        p[order] = out  # the host scores each row against its own label
    if p.ndim == 2 and p.shape[1] == 1:
        p = p[:, 0]
    if p.shape[0] != n:
        sys.exit("host: the model gave %d predictions for %d labels" % (p.shape[0], n))
    if a.predictions:
        with open("%s.%d" % (a.predictions, k), "w") as f:
            for v in (p if p.ndim == 1 else p[:, -1]):
                f.write(repr(float(v)) + "\n")
    s = float(log_loss(y, p, labels=[0, 1]))
    if a.noise:
        s += float(rng.uniform(-a.noise, a.noise))
    if a.json:
        return json.dumps({"score": repr(s), "pred_dtype": str(p.dtype), "onnxruntime": meta["ort"], "onnx": onnx.__version__})
    return repr(s)

if __name__ == "__main__":
    main()
