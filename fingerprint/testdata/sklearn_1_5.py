"""scikit-learn 1.5 log_loss, from its source: eps = the dtype's machine
epsilon, clip, no renormalisation (1.5 only warns when rows do not sum to
1), -xlogy(T, Y).sum(axis=1), np.average."""
import numpy as np
from scipy.special import xlogy

from serve import serve


def log_loss_1_5(y, p):
    y_pred = np.asarray(p, dtype=np.float64)
    y_pred = y_pred[:, np.newaxis]
    y_pred = np.append(1 - y_pred, y_pred, axis=1)
    eps = np.finfo(y_pred.dtype).eps
    y_pred = np.clip(y_pred, eps, 1 - eps)
    t = np.zeros_like(y_pred)
    t[np.arange(len(y)), np.asarray(y)] = 1
    loss = -xlogy(t, y_pred).sum(axis=1)
    return np.average(loss)


serve(log_loss_1_5)
