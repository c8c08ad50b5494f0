"""The all-attacks-at-once harness (``python -m benchmarks.attacks``, issue 33's "What it must show"),
at reduced sizes on a real ``ledger serve`` (1 x 4, the default) with a slow model on loopback.

Asserted is what the run means, not a wall-clock margin a loaded machine would break: every
``/healthz`` probe answered (200 within the probe's 10 s, far less than the attacks' work), the
other key's small document's graph ended ``done``, and each attack got what it should get now (a
job for a model's proposal, ``400`` for the overlong term, a verdict, a job or a 4xx for a review,
``413`` for the paragraph flood, labels of at most 64 characters), never a 500 nor silence; the
model's proposals end, and each review of 320 changes (a job past the synchronous cost) judges
every change as the reviewer left it (all pending, all accepted, all rejected, half and half) despite a word typed
in every paragraph. The
1 s bound per probe is the benchmark's verdict, printed, not asserted here.
"""
from __future__ import annotations

import pytest

from benchmarks.attacks import parser, run, table

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

REDUCED = ["--model-seconds", "2", "--rename-doc-kib", "40", "--review-paragraphs", "80", "--occurrences", "200",
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
    assert res["review_changes"] == 320 and res["model_calls"] >= 4
    by_name = {a["name"]: a for a in res["attacks"]}
    # the model's proposals ended; each review, answered or run as a job, judged every change as sent
    assert all(by_name[f"slow-model-{i}"]["job"] == "done" for i in range(1, 5)), by_name
    expected = {"pending": {"accepted": 0, "rejected": 0, "pending": 320},
                "accepted": {"accepted": 320, "rejected": 0, "pending": 0},
                "rejected": {"accepted": 0, "rejected": 320, "pending": 0},
                "mixed": {"accepted": 160, "rejected": 160, "pending": 0}}
    for name, counts in expected.items():
        a = by_name[f"review-{name}"]
        assert a["status"] == 200 or a["job"] == "done", a
        assert {k: a["detail"]["counts"].get(k) for k in counts} == counts, a
    # each kind of attack reached the server and was answered
    names = {a["name"] for a in res["attacks"]}
    assert {"rename-term", "occurrences", "billion-list", "many-paragraphs"} <= names
    assert sum(n.startswith("slow-model") for n in names) == 4 and sum(n.startswith("review-") for n in names) == 4

