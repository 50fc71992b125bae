"""labelinf's defended scorer as an EvalAI evaluation script (docs/PLATFORMS.md).

EvalAI calls evaluate(test_annotation_file, user_submission_file,
phase_codename, **kwargs). This script runs the labelinf-score binary that
sits beside it (go build ./cmd/labelinf-score, GOOS=linux) and returns its
{"result": [...], "submission_result": ...}. The host's secret is the file
labelinf.secret beside this script (or LABELINF_SECRET_FILE): the evaluation
script is the host's and never published; without the secret it refuses to
score. Standard library only.
"""

import json
import os
import subprocess

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


def evaluate(test_annotation_file, user_submission_file, phase_codename, **kwargs):
    if not os.path.isfile(SECRET):
        raise RuntimeError("labelinf: the host's secret %s is missing: the defended scorer refuses to score without it" % SECRET)
    if phase_codename not in SPLITS:
        raise RuntimeError("labelinf: no dataset split for phase %r in SPLITS" % phase_codename)
    cmd = [BINARY, "-platform", "evalai", "-metric", METRIC, "-key", KEY,
           "-secret-file", SECRET, "-defence", DEFENCE,
           "-ref", test_annotation_file, "-res", user_submission_file,
           "-split", SPLITS[phase_codename]]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError("labelinf-score failed: " + out.stderr.strip())
    return json.loads(out.stdout)
