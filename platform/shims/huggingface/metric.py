"""labelinf's defended scorer as a Hugging Face competitions custom metric (docs/PLATFORMS.md).

Set EVAL_METRIC to "custom" in conf.json and put this file, the
labelinf-score binary (go build ./cmd/labelinf-score, GOOS=linux),
defence.json and labelinf.secret (the host's secret) in the private
competition repository, which Hugging Face requires to stay private. The
competition calls compute(params); this downloads solution.csv, the
submission and the binary as compute_metrics.py does and returns
{"public_score": {KEY: ...}, "private_score": {KEY: ...}}. Without the
secret it refuses to score. Standard library and huggingface_hub only.
"""

import csv
import json
import os
import shutil
import stat
import subprocess
import tempfile
import urllib.request

# Edit for your competition: how the score is computed and its name.
METRIC = "float64-sklearn"
KEY = "log_loss"

# Stateful defences (the Ladder, Thresholdout, labelinf's limits) run in a
# labelinf serve the host runs: put the competition's URL
# (https://HOST/v1/competitions/ID) in labelinf.serve and its host token in
# labelinf.token in the private competition repository. The public score
# is then serve's, posted with the team (params.team_id) and the
# submission id (params.submission_id) as its Idempotency-Key, so a
# re-evaluated submission is scored once; the private score stays the
# exact one on the private rows.


def _optional(params, filename):
    try:
        return _download(params, filename)
    except Exception:
        return None


def _public_rows(solution, submission, id_col):
    """The submission's predictions of the public rows, in solution.csv's order."""
    with open(solution, newline="") as f:
        ref = list(csv.DictReader(f))
    with open(submission, newline="") as f:
        sub = {row[id_col]: row for row in csv.DictReader(f)}
    out = []
    for row in ref:
        if row.get("split", "public").lower() != "public":
            continue
        got = sub.get(row[id_col])
        if got is None:
            raise RuntimeError("labelinf: the submission misses row %r" % row[id_col])
        vals = [v for k, v in got.items() if k != id_col]
        out.append(float(vals[0]))
    return out


def _serve(params, url_file, token_file, solution, submission):
    with open(url_file) as f:
        url = f.read().strip()
    with open(token_file) as f:
        token = f.read().strip()
    body = json.dumps({"predictions": _public_rows(solution, submission, params.submission_id_col)}).encode()
    req = urllib.request.Request(url.rstrip("/") + "/host/submissions", data=body, method="POST", headers={
        "Authorization": "Bearer " + token, "Content-Type": "application/json",
        "Labelinf-Team": str(params.team_id), "Idempotency-Key": "hf-%s" % params.submission_id})
    with urllib.request.urlopen(req, timeout=600) as resp:
        receipt = json.load(resp)
    return receipt["score"] if receipt["score"] is not None else float("inf")


def _download(params, filename):
    from huggingface_hub import hf_hub_download

    return hf_hub_download(repo_id=params.competition_id, filename=filename,
                           token=params.token, repo_type="dataset")


def compute(params):
    try:
        secret = _download(params, "labelinf.secret")
    except Exception as e:  # the hub's EntryNotFoundError and friends
        raise RuntimeError("labelinf: the host's secret labelinf.secret is missing from the private competition repository: the defended scorer refuses to score without it (%s)" % e)
    solution = _download(params, "solution.csv")
    submission = _download(params, "submissions/%s-%s.csv" % (params.team_id, params.submission_id))
    defence = _download(params, "defence.json")
    work = tempfile.mkdtemp(prefix="labelinf-")
    try:
        binary = os.path.join(work, "labelinf-score")
        shutil.copyfile(_download(params, "labelinf-score"), binary)
        os.chmod(binary, stat.S_IRWXU)
        cmd = [binary, "-platform", "huggingface", "-metric", METRIC, "-key", KEY,
               "-secret-file", secret, "-defence", defence,
               "-ref", solution, "-res", submission]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if out.returncode != 0:
        raise RuntimeError("labelinf-score failed: " + out.stderr.strip())
    result = json.loads(out.stdout)
    url_file = _optional(params, "labelinf.serve")
    if url_file is not None:
        token_file = _optional(params, "labelinf.token")
        if token_file is None:
            raise RuntimeError("labelinf: labelinf.serve is set but the host token labelinf.token is missing: the defended scorer refuses to submit without it")
        result["public_score"] = {KEY: _serve(params, url_file, token_file, solution, submission)}
    return result
