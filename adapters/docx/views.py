"""The two views of a document with tracked changes, as bits: accepted, rejected, or both."""
from __future__ import annotations

__all__ = ["ACCEPTED", "REJECTED", "BOTH", "view_bit"]

ACCEPTED = 1
REJECTED = 2
BOTH = 3


def view_bit(view: str) -> int:
    """``"accepted"`` -> :data:`ACCEPTED`, ``"rejected"`` -> :data:`REJECTED`."""
    if view == "accepted":
        return ACCEPTED
    if view == "rejected":
        return REJECTED
    raise ValueError(f"unknown view {view!r}")
