"""Wall-clock budgets: the deadline of the request or job a thread works for, checked where work loops.

A web request (``LEDGER_REQUEST_SECONDS``) and each graph, proposal, review or check job
(``LEDGER_JOB_SECONDS``) runs under :func:`budget`; the loops whose cost grows with the input
(the graph's stages, verification, writing, review) call :func:`check`, which raises
:class:`~addin_backend.errors.DeadlineExceededError` once the deadline has passed. The request
then answers ``503 deadline_exceeded`` and the job is recorded ``failed`` with that cause; what
the work was making is not kept. Python cannot stop a thread from outside, so the budget is
cooperative: a check costs one clock read, cheap enough for every unit of a loop.

The deadline lives in a context variable, so it follows the work into ``contextvars``-aware
thread hops (``anyio.to_thread``, ``asyncio.to_thread``) and never leaks into another request.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Iterator

from .errors import DeadlineExceededError

__all__ = ["budget", "check", "remaining", "enter", "leave"]

#: (monotonic deadline, what it bounds, the seconds it was given)
_DEADLINE: ContextVar[tuple[float, str, float] | None] = ContextVar("ledger_deadline", default=None)


def enter(seconds: float | None, what: str) -> Token | None:
    """Start a deadline ``seconds`` from now (for hooks that cannot hold a ``with``: a request's
    before/teardown); :func:`leave` with the token ends it. ``None``: no new deadline."""
    if not seconds or seconds <= 0:
        return None
    due = time.monotonic() + float(seconds)
    outer = _DEADLINE.get()
    return _DEADLINE.set(outer if outer is not None and outer[0] <= due else (due, what, float(seconds)))


def leave(token: Token | None) -> None:
    """End the deadline :func:`enter` started."""
    if token is not None:
        _DEADLINE.reset(token)


@contextmanager
def budget(seconds: float | None, what: str) -> Iterator[None]:
    """Run the block under a deadline ``seconds`` from now (``None`` or 0: no new deadline); an
    enclosing deadline that comes sooner still holds.

    >>> with budget(60, "a request"):
    ...     0 < (remaining() or 0) <= 60
    True
    >>> remaining() is None
    True
    """
    token = enter(seconds, what)
    try:
        yield
    finally:
        leave(token)


def remaining() -> float | None:
    """Seconds left of the current deadline (``None`` without one; negative once past)."""
    d = _DEADLINE.get()
    return None if d is None else d[0] - time.monotonic()


def check() -> None:
    """Raise when the work this thread does has run past its deadline.

    :raise DeadlineExceededError: past the deadline (the message names what it bounds and the setting).

    >>> with budget(0.000001, "a test"):
    ...     time.sleep(0.001)
    ...     try:
    ...         check()
    ...     except DeadlineExceededError as exc:
    ...         print(exc.code)
    deadline_exceeded
    """
    d = _DEADLINE.get()
    if d is not None and time.monotonic() > d[0]:
        due, what, seconds = d
        setting = "LEDGER_JOB_SECONDS" if what.endswith("job") else "LEDGER_REQUEST_SECONDS"
        raise DeadlineExceededError(f"{what} ran past its budget of {seconds:g} s ({setting}); it was stopped",
                                    budget_seconds=seconds)
