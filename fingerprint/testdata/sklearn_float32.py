"""scikit-learn 1.2-1.4 log_loss on float32 predictions, from its source:
eps = float32's machine epsilon, clip, renormalise, -xlogy(T, Y).sum(axis=1),
np.average, all in float32."""
import numpy as np
from scipy.special import xlogy

from serve import serve


def log_loss_f32(y, p):
    y_pred = np.asarray(p, dtype=np.float32)
    eps = np.finfo(y_pred.dtype).eps
    y_pred = np.clip(y_pred, eps, 1 - eps)
    y_pred = y_pred[:, np.newaxis]
    y_pred = np.append(1 - y_pred, y_pred, axis=1)
    t = np.zeros_like(y_pred)
    t[np.arange(len(y)), np.asarray(y)] = 1
    y_pred /= y_pred.sum(axis=1)[:, np.newaxis]
    loss = -xlogy(t, y_pred).sum(axis=1)
    return np.average(loss)


serve(log_loss_f32)
