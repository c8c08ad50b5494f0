"""A sliding-window request counter kept in the store, shared by every worker process.

A fixed window ("at most 10 in this clock minute") admits twice the limit to a client that
sends 10 just before the minute ends and 10 just after. Here the count of the window that
ended is weighted by how much of it still lies inside the last ``window`` seconds, as in
Cloudflare's and the ``limits`` library's sliding-window counters: two counters per client, no
log of timestamps, and at most ``limit`` admissions in any ``window`` seconds up to that
weighting. Only admitted requests are counted, so a client that keeps knocking is served
``limit`` times per window instead of being shut out for good.

The counters live in the store (``incr``/``count``), so the limit holds across processes and
machines. ``incr`` is atomic: two requests that race past the look both add one, and the one
whose count lands past the limit is refused: the window may under-admit under a race, never
over-admit.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..store.base import Store

__all__ = ["Verdict", "take", "look", "add"]

_EPS = 1e-6  # the weighted count is a float: 9.9999999 admitted is 10


@dataclass(frozen=True)
class Verdict:
    """What the window says about one more request, and what the answer's headers report."""

    allowed: bool
    #: requests still admitted within the window after this one
    remaining: int
    #: seconds until one more request would be admitted (0 when this one was)
    retry_after: int
    #: seconds until nothing counted so far weighs in the window any more
    reset: int


def _slots(name: str, window: int, now: float) -> tuple[str, str, float]:
    slot = int(now // window)
    return f"{name}:{window}:{slot}", f"{name}:{window}:{slot - 1}", (now - slot * window) / window


def _verdict(allowed: bool, limit: int, previous: int, current: int, done: float, window: int) -> Verdict:
    used = previous * (1 - done) + current
    if current + 1 <= limit:  # within this slot, once enough of the previous one has slid out
        wait = 0.0 if previous == 0 else max(0.0, 1 - (limit - 1 - current) / previous - done)
    else:  # only in the next slot, once enough of this one has slid out
        wait = (1 - done) + max(0.0, 1 - (limit - 1) / current)
    reset = (2 - done) if current else (1 - done) if previous else 0.0
    return Verdict(allowed, max(0, math.floor(limit - used + _EPS)),
                   0 if allowed else max(1, math.ceil(wait * window - _EPS)), math.ceil(reset * window - _EPS))


def look(store: Store, name: str, limit: int, window: int, *, now: float | None = None) -> Verdict:
    """Would one more request under ``name`` be admitted? Counts nothing."""
    now = time.time() if now is None else now
    key, before, done = _slots(name, window, now)
    previous, current = store.count(before), store.count(key)
    return _verdict(previous * (1 - done) + current + 1 <= limit + _EPS, limit, previous, current, done, window)


def add(store: Store, name: str, window: int, *, now: float | None = None) -> int:
    """Count one request under ``name`` without deciding on it (failed logins, say)."""
    now = time.time() if now is None else now
    key, _, _ = _slots(name, window, now)
    return store.incr(key, 2 * window)  # kept through the next slot, where it still weighs


def take(store: Store, name: str, limit: int, window: int, *, now: float | None = None) -> Verdict:
    """Admit and count one request under ``name`` if the window has room; refuse it otherwise."""
    now = time.time() if now is None else now
    seen = look(store, name, limit, window, now=now)
    if not seen.allowed:
        return seen
    key, before, done = _slots(name, window, now)
    current = add(store, name, window, now=now)
    previous = store.count(before)
    allowed = previous * (1 - done) + current <= limit + _EPS
    return _verdict(allowed, limit, previous, current, done, window)
