"""Keras 2 binary_crossentropy (keras/backend.py, TensorFlow backend) in
numpy float32: clip to [eps, 1-eps], then target*log(output + eps) +
(1-target)*log(1 - output + eps), negated, averaged (eps = 1e-7)."""
import numpy as np

from serve import serve


def bce_keras2(y, p):
    eps = np.float32(1e-7)
    target = np.asarray(y, dtype=np.float32)
    output = np.clip(np.asarray(p, dtype=np.float32), eps, np.float32(1) - eps)
    bce = target * np.log(output + eps)
    bce += (np.float32(1) - target) * np.log(np.float32(1) - output + eps)
    return np.mean(-bce)


serve(bce_keras2)
