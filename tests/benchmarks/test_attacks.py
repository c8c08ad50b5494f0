"""The all-attacks-at-once harness (``python -m benchmarks.attacks``, issue 33's "What it must show"),
at reduced sizes on a real ``ledger serve`` (1 x 4, the default) with a slow model on loopback.

Asserted is what the run means, not a wall-clock margin a loaded machine would break: every
``/healthz`` probe answered (200 within the probe's 10 s, far less than the attacks' work), the
other key's small document's graph ended ``done``, and each attack got what it should get now (a
job for a model's proposal, ``400`` for the overlong term, a verdict, a job or a 4xx for a review,
``413`` for the paragraph flood, labels of at most 64 characters), never a 500 nor silence. The
1 s bound per probe is the benchmark's verdict, printed, not asserted here.
"""
from __future__ import annotations

import pytest

from benchmarks.attacks import parser, run, table

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

REDUCED = ["--model-seconds", "2", "--rename-doc-kib", "40", "--review-paragraphs", "3", "--occurrences", "200",
           "--paragraphs", "55000", "--no-semantic", "--follow", "60", "--limit", "90", "--graph-limit", "60",
           "--probe-timeout", "10"]


def test_every_attack_at_once_leaves_healthz_and_another_keys_graph_answered():
    res = run(parser().parse_args(REDUCED))
    print(table(res))
    h = res["healthz"]
    assert h["probes"] >= 5 and h["failed"] == 0, h
    assert res["small_graph"].get("graph") == "done", res["small_graph"]
    wrong = {a["name"]: (a["status"], a["code"], a["job"], a["job_code"]) for a in res["attacks"] if not a["ok"]}
    assert not wrong, wrong
    assert res["internal_errors_logged"] == 0, res["log_tail"]
    assert res["review_changes"] == 12 and res["model_calls"] >= 4
    # each kind of attack reached the server and was answered
    names = {a["name"] for a in res["attacks"]}
    assert {"rename-term", "occurrences", "billion-list", "many-paragraphs"} <= names
    assert sum(n.startswith("slow-model") for n in names) == 4 and sum(n.startswith("review-") for n in names) == 4

