"""Budgets: the deadline of the request or job a thread works for, checked where work loops, and the
memory a piece of work may take, estimated from sizes before it starts.

A web request (``LEDGER_REQUEST_SECONDS``) and each graph, proposal, review or check job
(``LEDGER_JOB_SECONDS``) runs under :func:`budget`; the loops whose cost grows with the input
(the graph's stages, verification, writing, review) call :func:`check`, which raises
:class:`~addin_backend.errors.DeadlineExceededError` once the deadline has passed. The request
then answers ``503 deadline_exceeded`` and the job is recorded ``failed`` with that cause; what
the work was making is not kept. Python cannot stop a thread from outside, so the budget is
cooperative: a check costs one clock read, cheap enough for every unit of a loop.

Work has a **CPU budget** too (``LEDGER_REQUEST_CPU_SECONDS``, ``LEDGER_JOB_CPU_SECONDS``): the
CPU time of the thread that does it, read by the same :func:`check` (``time.thread_time``). On a
busy machine the wall clock also counts the time the work waited for a core; the CPU budget counts
what the work itself took from everyone else.

The deadline lives in a context variable, so it follows the work into ``contextvars``-aware
thread hops (``anyio.to_thread``, ``asyncio.to_thread``) and never leaks into another request
(a CPU budget is read only on the thread it was started on).

The **client** the work is for (its API key's fingerprint, or its address without keys) lives in
a context variable as well (:func:`for_client`, :func:`current_client`): the doors set it, and the
job runner reads it when work is queued, to give each client a fair share of the job threads.

Memory is bounded before the work, not counted during it: a service estimates what a step will
hold from the sizes it has (the package, the text, the operations) and :func:`check_memory`
refuses an estimate over ``LEDGER_WORK_MEMORY_MB`` with ``413 too_large``, before anything is
parsed or written. No count of operations is capped: an edit that renumbers 1,200 references is
an ordinary edit, bounded by what it costs.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Iterator

from .errors import DeadlineExceededError, WorkTooLargeError

__all__ = ["budget", "check", "remaining", "postpone", "enter", "leave", "check_memory", "work_memory_mb", "DEFAULT_WORK_MEMORY_MB",
           "for_client", "current_client", "enter_client", "leave_client", "COSTS", "cost_setting", "check_cost"]

#: The memory one piece of work (an apply, an edit) may take by its estimate (``LEDGER_WORK_MEMORY_MB``).
DEFAULT_WORK_MEMORY_MB = 1024.0

#: (monotonic deadline, what it bounds, the seconds it was given, the CPU time (of ``thread``) at
#: which the CPU budget ends or ``inf``, the CPU seconds it was given, the thread)
_DEADLINE: ContextVar[tuple[float, str, float, float, float, int] | None] = ContextVar("ledger_deadline", default=None)
_CLIENT: ContextVar[str | None] = ContextVar("ledger_client", default=None)
_NEVER = float("inf")


def enter(seconds: float | None, what: str, *, cpu: float | None = None) -> Token | None:
    """Start a deadline ``seconds`` from now, and a CPU budget of ``cpu`` seconds of this thread
    (for hooks that cannot hold a ``with``: a request's before/teardown); :func:`leave` with the
    token ends them. ``None`` or 0: no new deadline (or CPU budget)."""
    wall = bool(seconds and seconds > 0)
    if not wall and not (cpu and cpu > 0):
        return None
    due = time.monotonic() + float(seconds) if wall and seconds else _NEVER
    cpu_due = time.thread_time() + float(cpu) if cpu and cpu > 0 else _NEVER
    outer = _DEADLINE.get()
    if outer is not None:
        if outer[0] <= due:
            due, what, seconds = outer[0], outer[1], outer[2]
        if outer[5] == threading.get_ident() and outer[3] <= cpu_due:
            cpu_due, cpu = outer[3], outer[4]
    return _DEADLINE.set((due, what, float(seconds or 0), cpu_due, float(cpu or 0), threading.get_ident()))


def leave(token: Token | None) -> None:
    """End the deadline :func:`enter` started."""
    if token is not None:
        _DEADLINE.reset(token)


@contextmanager
def budget(seconds: float | None, what: str, *, cpu: float | None = None) -> Iterator[None]:
    """Run the block under a deadline ``seconds`` from now and a CPU budget of ``cpu`` seconds of
    this thread (``None`` or 0: none new); an enclosing one that ends sooner still holds.

    >>> with budget(60, "a request"):
    ...     0 < (remaining() or 0) <= 60
    True
    >>> remaining() is None
    True
    """
    token = enter(seconds, what, cpu=cpu)
    try:
        yield
    finally:
        leave(token)


def remaining() -> float | None:
    """Seconds left of the current deadline (``None`` without one; negative once past)."""
    d = _DEADLINE.get()
    return None if d is None or d[0] == _NEVER else d[0] - time.monotonic()


def postpone(seconds: float) -> None:
    """Move this context's deadline ``seconds`` later: time the server spent on itself while the
    request waited (starting the child process that reads it) is not the request's work.

    >>> with budget(10, "a request"):
    ...     postpone(5)
    ...     10 < (remaining() or 0) <= 15
    True
    """
    d = _DEADLINE.get()
    if d is not None and d[0] != _NEVER and seconds > 0:
        _DEADLINE.set((d[0] + seconds, *d[1:]))


def enter_client(client: str | None) -> Token:
    """Say whom the work of this context is for (:func:`leave_client` with the token ends it)."""
    return _CLIENT.set(client)


def leave_client(token: Token) -> None:
    _CLIENT.reset(token)


@contextmanager
def for_client(client: str | None) -> Iterator[None]:
    """Run the block as work for ``client`` (an API key's fingerprint, or ``ip:ADDRESS``).

    >>> with for_client("key:6ab9f1eb8f7d"):
    ...     current_client()
    'key:6ab9f1eb8f7d'
    >>> current_client() is None
    True
    """
    token = enter_client(client)
    try:
        yield
    finally:
        leave_client(token)


def current_client() -> str | None:
    """Whom the work of this context is for (``None``: no door said)."""
    return _CLIENT.get()


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
    if d is None:
        return
    due, what, seconds, cpu_due, cpu, thread = d
    job = what.endswith("job")
    if time.monotonic() > due:
        setting = "LEDGER_JOB_SECONDS" if job else "LEDGER_REQUEST_SECONDS"
        raise DeadlineExceededError(f"{what} ran past its budget of {seconds:g} s ({setting}); it was stopped",
                                    budget_seconds=seconds)
    if cpu_due != _NEVER and thread == threading.get_ident() and time.thread_time() > cpu_due:
        setting = "LEDGER_JOB_CPU_SECONDS" if job else "LEDGER_REQUEST_CPU_SECONDS"
        raise DeadlineExceededError(f"{what} used more than its CPU budget of {cpu:g} s ({setting}); it was stopped",
                                    cpu_seconds=cpu)


def work_memory_mb(environ: dict[str, str] | None = None) -> float:
    """The memory limit where a door names none: ``LEDGER_WORK_MEMORY_MB`` (what ``ledger serve``
    reads too), else :data:`DEFAULT_WORK_MEMORY_MB`; 0 is no limit.

    :raise InvalidRequestError: a value that is not a number of MB, or below 0.

    >>> work_memory_mb({}), work_memory_mb({"LEDGER_WORK_MEMORY_MB": "0"})
    (1024.0, 0.0)
    """
    import os

    from .errors import InvalidRequestError

    raw = (os.environ if environ is None else environ).get("LEDGER_WORK_MEMORY_MB")
    if raw is None:
        return DEFAULT_WORK_MEMORY_MB
    try:
        mb = float(raw)
    except ValueError:
        raise InvalidRequestError(f"LEDGER_WORK_MEMORY_MB={raw!r} is not a number of MB") from None
    if mb < 0:
        raise InvalidRequestError(f"LEDGER_WORK_MEMORY_MB is {mb:g}; give 0 (no limit) or more")
    return mb


def check_memory(estimate: int, limit_mb: float | None, what: str, **sizes: int) -> None:
    """Refuse work whose estimated memory (bytes) is over ``limit_mb`` (``None`` or 0: no limit),
    before it starts; ``sizes`` are what the estimate was made from, for the message.

    :raise WorkTooLargeError: over the limit (``413 too_large``; the details give both figures).

    >>> check_memory(200 << 20, 1024, "this apply")
    >>> try:
    ...     check_memory(3 << 30, 1024, "this apply", operations=9)
    ... except WorkTooLargeError as exc:
    ...     print(exc.code, exc.details["estimated_mb"], exc.details["limit_mb"])
    too_large 3072 1024
    """
    if not limit_mb or limit_mb <= 0 or estimate <= limit_mb * (1 << 20):
        return
    mb = round(estimate / (1 << 20))
    said = ", ".join(f"{v:,} {k.replace('_', ' ')}" for k, v in sizes.items())
    raise WorkTooLargeError(f"{what} would take about {mb:,} MB of memory ({said}); the limit is {limit_mb:g} MB "
                            "(LEDGER_WORK_MEMORY_MB): split the work or raise the limit",
                            estimated_mb=mb, limit_mb=limit_mb, **sizes)


#: The work whose cost is estimated from sizes before it starts (issue 33): what the estimate
#: counts, the most it may be (``LEDGER_MAX_<KIND>_COST``), and the most that is still answered
#: synchronously (``LEDGER_SYNC_<KIND>_COST``; above it the work is a job on the edit lane).
#: A rename counts the characters its proposal carries (each occurrence's operation holds its
#: paragraph: occurrences x paragraph size, summed), a review changes x paragraphs, a check the
#: units each style-sheet entry is searched in (:func:`checks.style.terms.search_cost`).
COSTS: dict[str, tuple[str, int, int]] = {
    "rename": ("characters in its operations (occurrences x paragraph size)", 40_000_000, 1_000_000),
    "review": ("changes x paragraphs", 10_000_000, 20_000),
    "check": ("unit searches (each style-sheet entry in the units holding its first word)", 2_000_000, 0),
}


def cost_setting(kind: str, which: str = "max", environ: dict[str, str] | None = None) -> int:
    """``LEDGER_MAX_<KIND>_COST`` (``which="max"``) or ``LEDGER_SYNC_<KIND>_COST`` (``"sync"``)
    for a kind of :data:`COSTS`, else its default; 0 is no limit (``max``) or never synchronous (``sync``).

    :raise InvalidRequestError: a value that is not a whole number of 0 or more.

    >>> cost_setting("rename", environ={}), cost_setting("review", "sync", environ={"LEDGER_SYNC_REVIEW_COST": "5"})
    (40000000, 5)
    """
    import os

    from .errors import InvalidRequestError

    _what, most, sync = COSTS[kind]
    name = f"LEDGER_{which.upper()}_{kind.upper()}_COST"
    raw = (os.environ if environ is None else environ).get(name)
    if raw is None:
        return most if which == "max" else sync
    try:
        value = int(float(raw))
    except ValueError:
        raise InvalidRequestError(f"{name}={raw!r} is not a number") from None
    if value < 0:
        raise InvalidRequestError(f"{name} is {value}; give 0 or more")
    return value


def check_cost(kind: str, estimate: int, what: str, advice: str, environ: dict[str, str] | None = None,
               **sizes: int) -> None:
    """Refuse work of ``kind`` (:data:`COSTS`) whose cost, estimated from sizes before it starts,
    is over ``LEDGER_MAX_<KIND>_COST``; ``sizes`` are what the estimate was made from and
    ``advice`` what to do instead, for the message.

    :raise WorkTooLargeError: ``413 too_large`` with ``estimated_cost``, ``limit`` and the sizes
        in its details, before any work.

    >>> try:
    ...     check_cost("review", 12_000_000, "this review", "review fewer changes at once", changes=1200, paragraphs=10000)
    ... except WorkTooLargeError as exc:
    ...     print(exc.code, exc.details["estimated_cost"], exc.details["limit"])
    too_large 12000000 10000000
    """
    limit = cost_setting(kind, "max", environ)
    if limit <= 0 or estimate <= limit:
        return
    said = ", ".join(f"{v:,} {k.replace('_', ' ')}" for k, v in sizes.items())
    raise WorkTooLargeError(
        f"{what} would cost about {estimate:,} {COSTS[kind][0]} ({said}); the limit is {limit:,} "
        f"(LEDGER_MAX_{kind.upper()}_COST): {advice}",
        estimated_cost=estimate, limit=limit, setting=f"LEDGER_MAX_{kind.upper()}_COST", **sizes)
