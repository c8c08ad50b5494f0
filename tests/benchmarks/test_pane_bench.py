"""The pane benchmark's table of several checkouts (issue 32): each step's wall and server CPU
seconds per checkout, medians over the walks, the first checkout first."""
from __future__ import annotations

from benchmarks.pane_bench import PEER_STEPS, peer_table


def _walk(scale: float, units: int = 5412) -> dict:
    return {"units": units, "operations": 652, "preview_status": 201,
            "steps": {step: {"wall": scale * (i + 1), "cpu": scale * (i + 1) / 2} for i, step in enumerate(PEER_STEPS)},
            "proposals_ready_s": 10 * scale, "complete_s": 60 * scale, "complete_cpu": 30 * scale,
            "stage_seconds": {"related": 50 * scale}}


def test_the_table_has_each_step_for_each_checkout_in_order():
    text = peer_table("spec.docx", {"this": [_walk(1.0), _walk(3.0), _walk(2.0)], "peer base": [_walk(4.0, 5614)]})
    lines = text.splitlines()
    assert lines[0].startswith("**spec.docx** (this: 5,412 units") and "peer base: 5,614 units" in lines[0]
    assert lines[2] == "| step | this: wall s | server CPU s | peer base: wall s | server CPU s |"
    rows = {line.split(" | ")[0].lstrip("| "): line for line in lines if line.startswith("| ")}
    # medians over this checkout's three walks (scales 1, 3, 2 -> 2), the peer's one walk (4)
    assert rows["preview"] == "| preview | 6.00 | 3.00 | 12.00 | 6.00 |"
    assert rows["upload -> whole analysis"] == "| upload -> whole analysis | 120.00 | 60.00 | 240.00 | 120.00 |"
    assert [r for r in rows if r in PEER_STEPS] == list(PEER_STEPS)
