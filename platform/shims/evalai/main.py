"""labelinf's defended scorer as an EvalAI evaluation script (docs/PLATFORMS.md).

EvalAI calls evaluate(test_annotation_file, user_submission_file,
phase_codename, **kwargs). This script runs the labelinf-score binary that
sits beside it (go build ./cmd/labelinf-score, GOOS=linux) and returns its
{"result": [...], "submission_result": ...}. The host's secret is the file
labelinf.secret beside this script (or LABELINF_SECRET_FILE): the evaluation
script is the host's and never published; without the secret it refuses to
score. Standard library only.
"""

import csv
import json
import os
import subprocess
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.environ.get("LABELINF_SCORE", os.path.join(HERE, "labelinf-score"))
SECRET = os.environ.get("LABELINF_SECRET_FILE", os.path.join(HERE, "labelinf.secret"))
DEFENCE = os.path.join(HERE, "defence.json")

# Edit for your challenge: how the score is computed, the leaderboard
# label (challenge_config.yaml's leaderboard schema) and, per phase
# codename, the dataset split codename of its public leaderboard.
METRIC = "float64-sklearn"
KEY = "logloss"
SPLITS = {"dev": "dev_split", "test": "test_split"}

# Stateful defences (the Ladder, Thresholdout, labelinf's limits) run in a
# labelinf serve the host runs: set LABELINF_SERVE_URL to the competition's
# URL (https://HOST/v1/competitions/ID) and put its host token in
# labelinf.token beside this script (or LABELINF_HOST_TOKEN_FILE). Each
# submission is then posted with the team (submission_metadata's
# participant_team, a stable id) and EvalAI's submission id as its
# Idempotency-Key, so a re-run submission is scored once.
SERVE_URL = os.environ.get("LABELINF_SERVE_URL", "")
TOKEN = os.environ.get("LABELINF_HOST_TOKEN_FILE", os.path.join(HERE, "labelinf.token"))


def _rows(reference, submission):
    """The submission's predictions in the reference's row order (ids matched)."""
    with open(reference, newline="") as f:
        ref = list(csv.reader(f))
    with open(submission, newline="") as f:
        sub = list(csv.reader(f))
    idx = {row[0]: i for i, row in enumerate(ref[1:])}
    pred = [None] * len(idx)
    for row in sub[1:]:
        if row[0] not in idx or pred[idx[row[0]]] is not None:
            raise RuntimeError("labelinf: submission row %r is not a reference id or is repeated" % row[0])
        pred[idx[row[0]]] = float(row[1])
    if any(p is None for p in pred):
        raise RuntimeError("labelinf: the submission misses reference rows")
    return pred


def _serve(test_annotation_file, user_submission_file, split, meta):
    if not os.path.isfile(TOKEN):
        raise RuntimeError("labelinf: the host token %s is missing: the defended scorer refuses to submit without it" % TOKEN)
    with open(TOKEN) as f:
        token = f.read().strip()
    body = json.dumps({"predictions": _rows(test_annotation_file, user_submission_file)}).encode()
    req = urllib.request.Request(SERVE_URL.rstrip("/") + "/host/submissions", data=body, method="POST", headers={
        "Authorization": "Bearer " + token, "Content-Type": "application/json",
        "Labelinf-Team": str(meta["participant_team"]), "Idempotency-Key": "evalai-%s" % meta["id"]})
    with urllib.request.urlopen(req, timeout=600) as resp:
        receipt = json.load(resp)
    score = receipt["score"] if receipt["score"] is not None else float("inf")
    one = {split: {KEY: score}}
    return {"result": [one], "submission_result": one}


def evaluate(test_annotation_file, user_submission_file, phase_codename, **kwargs):
    if phase_codename not in SPLITS:
        raise RuntimeError("labelinf: no dataset split for phase %r in SPLITS" % phase_codename)
    if SERVE_URL:
        return _serve(test_annotation_file, user_submission_file, SPLITS[phase_codename], kwargs["submission_metadata"])
    if not os.path.isfile(SECRET):
        raise RuntimeError("labelinf: the host's secret %s is missing: the defended scorer refuses to score without it" % SECRET)
    cmd = [BINARY, "-platform", "evalai", "-metric", METRIC, "-key", KEY,
           "-secret-file", SECRET, "-defence", DEFENCE,
           "-ref", test_annotation_file, "-res", user_submission_file,
           "-split", SPLITS[phase_codename]]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError("labelinf-score failed: " + out.stderr.strip())
    return json.loads(out.stdout)
