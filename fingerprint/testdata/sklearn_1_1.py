"""scikit-learn 1.1 log_loss, from its source (sklearn/metrics/_classification.py
at 1.1): eps=1e-15, clip, renormalise each row, -(T * log(Y)).sum(axis=1),
np.average."""
import numpy as np

from serve import serve


def log_loss_1_1(y, p, eps=1e-15):
    y_pred = np.asarray(p, dtype=np.float64)
    y_pred = np.clip(y_pred, eps, 1 - eps)
    y_pred = y_pred[:, np.newaxis]
    y_pred = np.append(1 - y_pred, y_pred, axis=1)
    t = np.zeros_like(y_pred)
    t[np.arange(len(y)), np.asarray(y)] = 1
    y_pred /= y_pred.sum(axis=1)[:, np.newaxis]
    loss = -(t * np.log(y_pred)).sum(axis=1)
    return np.average(loss)


serve(log_loss_1_1)
