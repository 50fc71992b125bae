"""A host that upgrades mid-competition: the real scikit-learn log_loss
(Debian's python3-sklearn 1.2) with eps=1e-15, as scikit-learn <= 1.1
clipped, for the first argv[3] queries (default 4), then with eps="auto",
the dtype's eps, as 1.2 does."""
import sys
import warnings

import numpy as np
from sklearn.metrics import log_loss

from serve import serve

warnings.simplefilter("ignore")
after = int(sys.argv[3]) if len(sys.argv) > 3 else 4
count = [0]


def loss(y, p):
    count[0] += 1
    eps = 1e-15 if count[0] <= after else "auto"
    return log_loss(y, np.asarray(p, dtype=np.float64), eps=eps, labels=[0, 1])


serve(loss)
