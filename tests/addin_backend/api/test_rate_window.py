"""The sliding-window limit on both stores, with the clock given: a burst that straddles the
clock's minute is not admitted twice, the window slides, refusals are not counted, and racing
requests never get past the limit."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from addin_backend.api import rate_window
from addin_backend.store import open_store

WINDOW = 60


def _slot_start() -> float:
    """The start of a clock minute a little ahead (the store's own expiry runs on the real clock)."""
    return (int(time.time() // WINDOW) + 2) * WINDOW


def _admitted(store, name, n, now, limit=10):
    return [rate_window.take(store, name, limit, WINDOW, now=now).allowed for _ in range(n)].count(True)


def test_a_burst_across_the_minute_is_admitted_once(store_url, tmp_path):
    store = open_store(store_url, str(tmp_path))
    edge = _slot_start()
    assert _admitted(store, "burst", 15, edge - 0.5) == 10
    after = rate_window.take(store, "burst", 10, WINDOW, now=edge + 0.5)
    assert not after.allowed and after.remaining == 0  # a fixed window would admit 10 more here
    # Retry-After is exact to the second: refused a second before it, admitted at it.
    assert not rate_window.look(store, "burst", 10, WINDOW, now=edge + 0.5 + after.retry_after - 1).allowed
    assert rate_window.take(store, "burst", 10, WINDOW, now=edge + 0.5 + after.retry_after).allowed


def test_the_window_slides_and_refusals_are_not_counted(store_url, tmp_path):
    store = open_store(store_url, str(tmp_path))
    start = _slot_start()
    assert _admitted(store, "knock", 60, start + 1) == 10  # 50 refused
    assert _admitted(store, "knock", 20, start + WINDOW + WINDOW / 2) == 5  # half the old window slid out
    first = rate_window.take(store, "fresh", 3, WINDOW, now=start + 1)
    assert (first.allowed, first.remaining, first.reset) == (True, 2, WINDOW * 2 - 1)


def test_racing_requests_never_get_past_the_limit(store_url, tmp_path):
    store = open_store(store_url, str(tmp_path))
    now = _slot_start()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: rate_window.take(store, "race", 10, WINDOW, now=now).allowed, range(80)))
    assert 1 <= answers.count(True) <= 10
    assert store.count(f"race:{WINDOW}:{int(now // WINDOW)}") <= 80
