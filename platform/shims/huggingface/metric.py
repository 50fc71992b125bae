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

import json
import os
import shutil
import stat
import subprocess
import tempfile

# Edit for your competition: how the score is computed and its name.
METRIC = "float64-sklearn"
KEY = "log_loss"


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
    return json.loads(out.stdout)
