"""The external-scorer protocol (oracle.Cmd) around a loss: read the
labels from argv[1], then answer each JSON line {"predictions": [...]} on
stdin with one line, the score (rounded to argv[2] decimals if given)."""
import json
import sys


def serve(loss):
    with open(sys.argv[1]) as f:
        labels = [int(x) for x in f.read().split()]
    dec = int(sys.argv[2]) if len(sys.argv) > 2 else -1
    for line in sys.stdin:
        p = json.loads(line)["predictions"]
        s = float(loss(labels, p))
        if dec >= 0:
            s = round(s, dec)
        print(repr(s), flush=True)
