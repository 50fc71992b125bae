#!/usr/bin/env python3
"""Baseline for BENCHMARKS.md §7: scikit-learn trains the same two models as
`labelinf blia` on the same Census split, and we time them side by side.

It encodes datasets/data/adult_train.csv as passive.Encoder does
(numeric columns standardized with the training rows' mean and population
standard deviation, categorical columns one-hot over the training rows'
levels, "?" kept as a level), holds out ceil(20%) of the rows, and trains

  * LogisticRegression(C = 1/(λ·n), λ = 1e-4), the same objective as
    passive.TrainLogReg, with the newton-cholesky solver;
  * MLPClassifier((64, 32), adam, batch 128, lr 1e-3, 20 epochs, no L2,
    no early stopping), the same network and schedule as passive.TrainMLP.

Run from the repository root with Debian's python3-sklearn:
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/blia_sklearn.py
It prints, per model, the median training time of 3 runs and the
training and test accuracies.
"""
import csv
import os
import statistics
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier

NUMERIC = {0, 2, 4, 10, 11, 12}


def read(path):
    rows, labels = [], []
    with open(path, newline="") as f:
        for rec in csv.reader(f, skipinitialspace=True):
            if not rec:
                continue
            rows.append(rec[:14])
            labels.append(1 if rec[14].rstrip(".") == ">50K" else 0)
    return rows, np.array(labels)


def encode(rows, fit):
    cols = []
    for j in range(14):
        if j in NUMERIC:
            v = np.array([float(r[j]) for r in rows])
            f = v[fit]
            mu, sd = f.mean(), f.std()
            cols.append(((v - mu) / (sd if sd > 0 else 1))[:, None])
        else:
            levels = sorted({rows[i][j] for i in fit})
            idx = {s: k for k, s in enumerate(levels)}
            m = np.zeros((len(rows), len(levels)))
            for i, r in enumerate(rows):
                k = idx.get(r[j])
                if k is not None:
                    m[i, k] = 1
            cols.append(m)
    return np.hstack(cols)


def main():
    # The files package datasets embeds; a directory argument overrides.
    data = sys.argv[1] if len(sys.argv) > 1 else "datasets/data"
    rows, y = read(os.path.join(data, "adult_train.csv"))
    n = len(rows)
    perm = np.random.default_rng(1).permutation(n)
    n_test = -(-n // 5)
    train, held = perm[: n - n_test], perm[n - n_test :]
    x = encode(rows, train)
    xt, yt, xh, yh = x[train], y[train], x[held], y[held]
    lam = 1e-4
    models = {
        "logreg": lambda: LogisticRegression(C=1 / (lam * len(train)), solver="newton-cholesky", tol=1e-10, max_iter=100),
        "mlp": lambda: MLPClassifier(hidden_layer_sizes=(64, 32), solver="adam", batch_size=128, learning_rate_init=1e-3,
                                     max_iter=20, alpha=0, tol=0, n_iter_no_change=1000, shuffle=True, random_state=1),
    }
    print(f"sklearn {__import__('sklearn').__version__}, numpy {np.__version__}; {len(train)} training rows, {x.shape[1]} features")
    for name, make in models.items():
        times = []
        for _ in range(3):
            m = make()
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                m.fit(xt, yt)
            times.append(time.perf_counter() - t0)
        print(f"{name}: {statistics.median(times):.3f} s/model (median of 3), train acc {m.score(xt, yt):.4f}, held-out acc {m.score(xh, yh):.4f}")


if __name__ == "__main__":
    sys.exit(main())
