"""benign.py: builds benign ONNX classifiers that labelinf's writer did not
produce, for TestInspectBenign (none may be flagged) and as -base models.

    /usr/bin/python3 benign.py OUTDIR

Trains scikit-learn's LogisticRegression and MLPClassifier on the breast
cancer data set bundled with scikit-learn (569 rows, 30 features,
standardised) and writes their weights as ONNX graphs with onnx.helper, in
float32 and float64, each checked with onnx.checker (full_check=True):

  lr-<t>.onnx       X -> Sub(mean) -> Div(scale) -> MatMul -> Add -> Sigmoid   [batch, 1]
  lr2-<t>.onnx      the same with a two-column softmax output                  [batch, 2]
  mlp-<t>.onnx      X -> scale -> (Gemm -> Relu) x2 -> Gemm -> Sigmoid          [batch, 1]
  mlp2-<t>.onnx     MatMul/Add layers, Softmax output, ArgMax label output      [batch, 2]

It also writes features.csv and labels.csv: the first 200 raw rows and labels,
which the Go tests use as public test features.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    x, y = load_breast_cancer(return_X_y=True)
    sc = StandardScaler().fit(x)
    xs = sc.transform(x)
    lr = LogisticRegression(max_iter=1000).fit(xs, y)
    mlp = MLPClassifier(hidden_layer_sizes=(32, 16), max_iter=400, random_state=0).fit(xs, y)
    d = x.shape[1]
    for tname, np_t, onnx_t in [("float64", np.float64, TensorProto.DOUBLE), ("float32", np.float32, TensorProto.FLOAT)]:
        def init(name, v):
            return numpy_helper.from_array(np.asarray(v, dtype=np_t), name)

        def model(name, nodes, inits, outputs):
            g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("input", onnx_t, ["N", d])], outputs, inits)
            m = helper.make_model(g, producer_name="benign.py (onnx.helper)", opset_imports=[helper.make_opsetid("", 13)])
            m.ir_version = 8
            onnx.checker.check_model(m, full_check=True)
            onnx.save(m, os.path.join(out, "%s-%s.onnx" % (name, tname)))

        scale = [helper.make_node("Sub", ["input", "mean"], ["c"]), helper.make_node("Div", ["c", "scale"], ["z0"])]
        sinit = [init("mean", sc.mean_), init("scale", sc.scale_)]
        out1 = [helper.make_tensor_value_info("probability", onnx_t, ["N", 1])]
        out2 = [helper.make_tensor_value_info("probabilities", onnx_t, ["N", 2])]
        model("lr", scale + [helper.make_node("MatMul", ["z0", "coef"], ["z1"]), helper.make_node("Add", ["z1", "intercept"], ["z2"]),
                             helper.make_node("Sigmoid", ["z2"], ["probability"])],
              sinit + [init("coef", lr.coef_.T), init("intercept", lr.intercept_)], out1)
        w2 = np.concatenate([-lr.coef_.T / 2, lr.coef_.T / 2], axis=1)
        b2 = np.concatenate([-lr.intercept_ / 2, lr.intercept_ / 2])
        model("lr2", scale + [helper.make_node("MatMul", ["z0", "coef"], ["z1"]), helper.make_node("Add", ["z1", "intercept"], ["z2"]),
                              helper.make_node("Softmax", ["z2"], ["probabilities"], axis=1)],
              sinit + [init("coef", w2), init("intercept", b2)], out2)
        nodes, inits, prev = list(scale), list(sinit), "z0"
        for i, (w, b) in enumerate(zip(mlp.coefs_, mlp.intercepts_)):
            nodes.append(helper.make_node("Gemm", [prev, "W%d" % i, "b%d" % i], ["h%d" % i]))
            inits += [init("W%d" % i, w), init("b%d" % i, b)]
            prev = "h%d" % i
            if i < len(mlp.coefs_) - 1:
                nodes.append(helper.make_node("Relu", [prev], ["r%d" % i]))
                prev = "r%d" % i
        nodes.append(helper.make_node("Sigmoid", [prev], ["probability"]))
        model("mlp", nodes, inits, out1)
        nodes, inits, prev = list(scale), list(sinit), "z0"
        ws = list(mlp.coefs_[:-1]) + [np.concatenate([-mlp.coefs_[-1] / 2, mlp.coefs_[-1] / 2], axis=1)]
        bs = list(mlp.intercepts_[:-1]) + [np.concatenate([-mlp.intercepts_[-1] / 2, mlp.intercepts_[-1] / 2])]
        for i, (w, b) in enumerate(zip(ws, bs)):
            nodes += [helper.make_node("MatMul", [prev, "W%d" % i], ["m%d" % i]), helper.make_node("Add", ["m%d" % i, "b%d" % i], ["h%d" % i])]
            inits += [init("W%d" % i, w), init("b%d" % i, b)]
            prev = "h%d" % i
            if i < len(ws) - 1:
                nodes.append(helper.make_node("Relu", [prev], ["r%d" % i]))
                prev = "r%d" % i
        nodes += [helper.make_node("Softmax", [prev], ["probabilities"], axis=1),
                  helper.make_node("ArgMax", ["probabilities"], ["label"], axis=1, keepdims=0)]
        model("mlp2", nodes, inits, out2 + [helper.make_tensor_value_info("label", TensorProto.INT64, ["N"])])
    np.savetxt(os.path.join(out, "features.csv"), x[:200], delimiter=",", fmt="%.17g")
    np.savetxt(os.path.join(out, "labels.csv"), y[:200], fmt="%d")


if __name__ == "__main__":
    main()
