"""Keras 3 binary_crossentropy (keras/src/backend/numpy/nn.py) in float32:
clip to [eps, 1-eps], target*log(output) + (1-target)*log(1-output),
negated, averaged (eps = 1e-7)."""
import numpy as np

from serve import serve


def bce_keras3(y, p):
    eps = np.float32(1e-7)
    target = np.asarray(y, dtype=np.float32)
    output = np.clip(np.asarray(p, dtype=np.float32), eps, np.float32(1) - eps)
    bce = target * np.log(output)
    bce += (np.float32(1) - target) * np.log(np.float32(1) - output)
    return np.mean(-bce)


serve(bce_keras3)
