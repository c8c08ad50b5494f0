"""Job processes for the embedded mode: each web worker runs its jobs' work in child processes it
supervises, never on threads beside its web threads (issue 33).

A job's CPU work (a graph's stages, a review's alignment, a rename's patterns, spaCy, big JSON
dumps) holds the interpreter lock of the process it runs in; on the web worker's own threads it
delayed every request of that worker, ``/healthz`` included (up to 3.8 s), and a pane's preview
took 7.6-10.9 s wall for 2.3-2.9 CPU s while the analysis ran. :class:`ProcessRunner` keeps what
:class:`~.runner.JobRunner` decides in the web worker (the lanes, each client's fair share, the
model lane's cap per key, the heartbeat of queued jobs, the take-over of dead processes' tasks)
and hands each task to a child process: one per slot of a lane (``LEDGER_JOB_PROCESSES`` for
graph and edit jobs, 1 each, and one more each kept for a key with nothing running in the lane:
:data:`~.runner.RESERVED`; ``LEDGER_MODEL_JOBS`` for proposals that may wait for a model),
started on first use as a new interpreter (``python -m addin_backend.jobs.processes``, as the
``spawn`` method starts one, but without importing the server's main module again; never a fork
of a threaded process), talking over a socket pair, and kept, so that its models load once; a
lane's children beyond one are stopped once idle for :data:`IDLE_SECONDS`
(:meth:`ProcessRunner.stop_idle`), so the reserved slot costs memory only while it works.

A child resolves the task by its path (:func:`.runner.resolve_task`: only LEDGER's own), opens its
own store from the same settings, and writes the job's progress, heartbeat and result to the store
as the threads do, under the same budgets (``LEDGER_JOB_SECONDS``, ``LEDGER_JOB_CPU_SECONDS``). It
runs at a lower CPU priority (``os.nice``, ``LEDGER_JOB_NICE``, 10), and its jobs give way to the
requests its web worker serves as on a thread (:mod:`addin_backend.foreground`: the worker's count
of requests someone waits for is on a board in shared memory that the child reads). In-process shortcuts (``local=``, the parsed document) do not cross: the child reads the
document back from the store.

A child that dies (killed, out of memory, a crash in native code) is noticed by its supervisor at
once, not after a heartbeat's silence, and started again for the next job. The job it was running
ran alone in it, so the death is the job's: it runs again, and is quarantined
(:data:`~.runner.QUARANTINED`) at its second death, as :meth:`~.runner.JobRunner.recover` decides
for threads; the jobs of the other children never notice. A child past ``LEDGER_JOB_SECONDS`` by
:data:`KILL_GRACE` (stuck where the budget is not checked) is killed and its job failed
``deadline_exceeded``; a child whose job's document was deleted is killed at once. A child whose
web worker died exits by itself. Jobs started with a closure (:meth:`~.runner.JobRunner.start`:
only a test's own graph builder now) cannot cross a process and still run on threads.

Requests have children of their own (:meth:`ProcessRunner.call`, :data:`CALL_PROCESSES` of them,
at the web worker's priority, never behind a job): a request that must wait for CPU-bound work
(reading an upload: unzipping, parsing its XML, building and dumping its model) hands it to one
and waits on the pipe, which holds no interpreter lock. In the web worker, an upload of 1 MB held
the lock for up to 0.2 s in one parse or dump call, several uploads at once made ``/healthz``
answer in 1.7 s (issue 33). The request's deadline holds: past it the child is killed.
"""
from __future__ import annotations

import importlib
import json
import logging
import pickle
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from functools import partial
from typing import Any, Callable

from .. import foreground
from ..budget import check, current_client, for_client, postpone
from ..errors import CorruptDocumentError, DeadlineExceededError, describe
from ..store import Store
from .runner import (HEARTBEAT_SECONDS, MODEL_JOBS_PER_CLIENT, OPEN_JOBS, QUARANTINE_AFTER, JobCancelled, JobRunner,
                     Progress, _key, _now, lane_of, resolve_task, task_path)

__all__ = ["ProcessRunner", "KILL_GRACE", "NICE", "CALL_PROCESSES", "IDLE_SECONDS", "child_settings"]

log = logging.getLogger("ledger.jobs")

#: Seconds past ``LEDGER_JOB_SECONDS`` after which a child still running its job is killed.
KILL_GRACE = 30.0
#: How much lower than the web worker's a child's CPU priority is (``LEDGER_JOB_NICE``).
NICE = 10
#: How often a supervisor looks whether its running job's document still exists.
_GONE_EVERY = 5.0
#: Seconds a job process stays idle before it is stopped, if another of its lane is alive.
IDLE_SECONDS = 30.0
#: Children a web worker keeps for its requests' work (:meth:`ProcessRunner.call`): one per core
#: of a small server; a request past them waits for one (within its deadline).
CALL_PROCESSES = 2

#: How long a request's child may take to start and import what its calls use (seconds).
START_SECONDS = 60.0
#: The modules whose exceptions a child's answer may name (rebuilt as they were raised).
_ERROR_MODULES = ("adapters.", "addin_backend.")


def child_settings(store_url: str | None, data_dir: str, ttl: int, *, embedding_cache: str | None = None,
                   nice: int = NICE, preload: Callable[[], None] | None = None,
                   call_preload: Callable[[], None] | None = None) -> dict[str, Any]:
    """What a child needs to open the same store as its web worker (JSON-able, sent at spawn);
    ``preload`` (a module-level function of LEDGER's) runs once when a job child starts, before
    any job: the engines imported outside every job's budget; ``call_preload`` likewise for the
    children kept for requests (what their calls import), outside every request's budget."""
    return {"store": store_url, "data_dir": data_dir, "ttl": int(ttl), "embedding_cache": embedding_cache,
            "nice": int(nice), "log_level": logging.getLogger().level,
            "preload": task_path(preload) if preload is not None else None,
            "call_preload": task_path(call_preload) if call_preload is not None else None}


class _Remote:
    """A task as a child runs it: its path and JSON-able arguments (nothing in-process)."""

    def __init__(self, path: str, kwargs: dict[str, Any]) -> None:
        self.path, self.kwargs = path, kwargs

    def __call__(self, progress: Progress) -> dict[str, Any] | None:  # never in the web worker
        raise TypeError("a job process's task runs in its child")


class _Child:
    """One supervised child process and the pipe to it (started on first use, again after a death)."""

    def __init__(self, settings: dict[str, Any], name: str, lane: str = "") -> None:
        self.settings, self.name, self.lane = settings, name, lane
        self.proc: Any = None
        self.conn: Any = None
        self.busy = False  # a job is handed to it now (set and read under its runner's lock)
        self.ended = time.monotonic()  # when its last job ended (or it was made)

    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _ensure(self) -> None:
        if self.alive():
            return
        self.close()
        mine, theirs = socket.socketpair()
        shown = foreground.board()  # the requests served here, which the child's jobs give way to
        try:
            # a new interpreter (never a fork of this threaded process), the socket its only link
            self.proc = subprocess.Popen(
                [sys.executable, "-m", __name__, str(theirs.fileno()), str(os.getpid()), json.dumps(self.settings),
                 str(shown)],
                pass_fds=(theirs.fileno(), shown), stdin=subprocess.DEVNULL, close_fds=True)
        finally:
            theirs.close()
        self.conn = Connection(mine.detach())
        log.info("job process %s started (pid %d)", self.name, self.proc.pid)
        if self.settings.get("ready"):  # it says when it is ready (a request's child: see call)
            deadline = time.monotonic() + START_SECONDS
            while not self.conn.poll(0.5):
                if not self.alive() or time.monotonic() > deadline:
                    raise EOFError
            self.conn.recv()

    def run(self, message: dict[str, Any], limit: float, gone: Callable[[], bool]) -> str:
        """Hand one job to the child and wait for its end: ``ended`` (the child wrote the record),
        ``died`` (the child is gone), ``overran`` (killed past ``limit`` seconds) or ``gone``
        (killed: the job's document is gone)."""
        self._ensure()
        started = checked = time.monotonic()
        try:
            self.conn.send(message)
        except (BrokenPipeError, EOFError, OSError):
            return self._dead()
        while True:
            try:
                if self.conn.poll(0.5):
                    self.conn.recv()
                    return "ended"
            except (EOFError, OSError):
                return self._dead()
            if not self.alive():
                return self._dead()
            now = time.monotonic()
            if limit and now - started > limit:
                self.kill()
                return "overran"
            if now - checked >= _GONE_EVERY:
                checked = now
                if gone():
                    self.kill()
                    return "gone"

    def call(self, message: dict[str, Any]) -> Any:
        """Hand one call to the child and wait for its answer on the pipe (no interpreter lock
        held), checking the request's budget (:func:`..budget.check`) twice a second: past it
        the child is killed and the budget's error raised. The call's exception is raised here
        as the child raised it.

        :raise DeadlineExceededError: past the request's deadline.
        :raise CorruptDocumentError: the child died while it worked (killed, out of memory, a
            crash in native code).
        """
        try:
            started = time.monotonic()
            if not self.alive():
                self._ensure()  # the server's own start-up, not the request's work: not in its budget
                postpone(time.monotonic() - started)
            self.conn.send(message)
            while not self.conn.poll(0.5):
                if not self.alive():
                    raise EOFError
                try:
                    check()
                except DeadlineExceededError:
                    self.kill()
                    raise
            answer = self.conn.recv()
        except (BrokenPipeError, EOFError, OSError):
            code = self.proc.poll() if self.proc is not None else None
            self._dead()
            raise CorruptDocumentError(f"the document could not be read: the process reading it stopped "
                                       f"(exit {code})") from None
        if "error" in answer:
            raise _rebuilt(answer["error"])
        return answer["value"]

    def _dead(self) -> str:
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        log.warning("job process %s (pid %s) died (exit %s)", self.name, self.pid(), code)
        self.close()
        return "died"

    def kill(self) -> None:
        if self.alive():
            self.proc.kill()
            self.proc.wait(5)
        self.close()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None
        self.proc = None


class ProcessRunner(JobRunner):
    """The embedded runner whose tasks run in supervised child processes (see the module)."""

    mode = "processes"

    def __init__(self, store: Store, settings: dict[str, Any], *, processes: int = 1, stale_after: float = 900.0,
                 model_processes: int = 2, model_per_client: int = MODEL_JOBS_PER_CLIENT,
                 call_processes: int = CALL_PROCESSES, reserved: dict[str, int] | None = None,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        super().__init__(store, threads=processes, stale_after=stale_after, edit_threads=processes,
                         model_threads=model_processes, model_per_client=model_per_client, reserved=reserved)
        self.settings = settings
        self.idle_seconds = idle_seconds
        self._children: dict[str, _Child] = {}  # by the name of the lane thread that owns it
        self._children_lock = threading.Lock()  # a child handed a job is never the one stopped as idle
        self._remote: set[str] = set()  # the jobs its children run now
        # the requests' children: at the web worker's priority, no engines preloaded
        self._call_settings = {**settings, "nice": 0, "preload": settings.get("call_preload"), "ready": True}
        self._call_slots = threading.BoundedSemaphore(max(1, call_processes))
        self._idle_callers: list[_Child] = []
        self._callers: list[_Child] = []
        self._callers_lock = threading.Lock()

    def call(self, task: Callable[..., Any], /, **kwargs: Any) -> Any:
        """``task(**kwargs)`` in one of the children kept for requests (a module-level function
        of LEDGER's, arguments and result that pickle), the request's thread waiting on the pipe;
        a request finding them all busy waits for one within its deadline. Its exception is
        raised here as it was raised there.

        :raise DeadlineExceededError: the request's deadline passed (waiting or working).
        :raise CorruptDocumentError: the child died while it worked.
        """
        message = {"call": task_path(task), "kwargs": kwargs}
        while not self._call_slots.acquire(timeout=0.5):
            check()  # the request's deadline while it waits for a child
        try:
            with self._callers_lock:
                if self._idle_callers:
                    child = self._idle_callers.pop()
                else:
                    child = _Child(self._call_settings, f"ledger-callproc-{len(self._callers) + 1}")
                    self._callers.append(child)
            try:
                return child.call(message)
            finally:
                with self._callers_lock:
                    self._idle_callers.append(child)  # dead or killed: started again on its next call
        finally:
            self._call_slots.release()

    def call_children(self) -> list[int]:
        """The process ids of the requests' children alive now."""
        with self._callers_lock:
            return [c.proc.pid for c in self._callers if c.alive()]

    def _task_call(self, task: Callable[..., dict[str, Any] | None], kwargs: dict[str, Any],
                   local: dict[str, Any] | None = None) -> Callable[[Progress], dict[str, Any] | None]:
        return _Remote(task_path(task), kwargs)  # ``local`` stays here: the child reads the store

    def _mine(self, job_id: str) -> bool:
        return job_id in self._remote

    def children(self) -> list[int]:
        """The process ids of the children alive now."""
        return [c.proc.pid for c in list(self._children.values()) if c.alive()]

    def _run(self, progress: Progress, fn: Callable[[Progress], dict[str, Any] | None]) -> None:
        if not isinstance(fn, _Remote):  # a closure cannot cross a process: it runs on this thread
            super()._run(progress, fn)
            return
        job_id = progress.record["id"]
        thread = threading.current_thread().name
        with self._children_lock:
            child = self._children.get(thread)
            if child is None:
                child = self._children[thread] = _Child(self.settings, thread.replace("ledger-job", "ledger-jobproc"),
                                                        lane_of(str(progress.record.get("kind", "")),
                                                                progress.record.get("lane")))
            child.busy = True
        self._remote.add(job_id)
        progress.hand_over()  # the child writes the record from now on; this heartbeat stops
        self._live.pop(job_id, None)
        again = False
        try:
            message = {"record": progress.record, "task": fn.path, "kwargs": fn.kwargs, "client": current_client(),
                       "job_seconds": self.job_seconds, "job_cpu_seconds": self.job_cpu_seconds}
            limit = self.job_seconds + KILL_GRACE if self.job_seconds else 0.0
            outcome = child.run(message, limit, partial(self._gone, job_id))
            if outcome == "died":
                again = self._died(job_id, fn)
            elif outcome == "overran":
                self._overran(job_id)
        except Exception:  # the supervisor must outlive anything; the record says what it knows
            log.exception("job process of job %s", job_id)
            child.kill()  # its next job starts on a fresh child, never behind an answer not read
        finally:
            with self._children_lock:
                child.busy, child.ended = False, time.monotonic()
            self._remote.discard(job_id)
            if job_id in self._listed and not again:
                self._listed.discard(job_id)
                try:
                    self.store.discard(OPEN_JOBS, [job_id])
                except Exception as exc:  # the next recovery round drops it (the record is final)
                    log.warning("could not unlist job %s: %s", job_id, type(exc).__name__)

    def _beat(self) -> None:
        super()._beat()
        self.stop_idle()

    def stop_idle(self) -> list[int]:
        """Stop the children idle for :attr:`idle_seconds` while another child of their lane is
        alive (the most recently used one stays, its models loaded): a lane's second child (its
        reserved slot, another key's job while one key's runs) costs memory only while it works.
        Returns the process ids stopped; the heartbeat calls it."""
        stopped: list[int] = []
        now = time.monotonic()
        with self._children_lock:
            alive = sorted((c for c in self._children.values() if c.alive()), key=lambda c: c.ended, reverse=True)
            for lane in {c.lane for c in alive}:
                mine = [c for c in alive if c.lane == lane]
                keep = next((c for c in mine if c.busy), mine[0])  # one of the lane's children stays
                for child in mine:
                    if child is not keep and not child.busy and now - child.ended >= self.idle_seconds:
                        pid = child.pid()
                        child.kill()
                        stopped.append(int(pid or 0))
                        log.info("job process %s stopped: idle for %.0f s", child.name, now - child.ended)
        return stopped

    def _gone(self, job_id: str) -> bool:
        """Whether the job's record is gone (its document deleted or expired); a store that does
        not answer now says nothing: the child goes on, and this is asked again."""
        try:
            return self._record(job_id) is None
        except Exception as exc:
            log.warning("could not read job %s: %s", job_id, type(exc).__name__)
            return False

    def _record(self, job_id: str) -> dict[str, Any] | None:
        from .runner import scope_of

        return self.store.get_json(scope_of(job_id), _key(job_id))

    def _died(self, job_id: str, fn: _Remote) -> bool:
        """The job's child died while it ran: the death is the job's (it ran alone there). Run it
        again, or quarantine it at its second death; returns whether it runs again."""
        rec = self._record(job_id)
        if rec is None or rec["status"] in ("done", "failed"):
            return False  # its document is gone, or it ended before its child did
        deaths = int(rec.get("deaths") or 0) + 1
        rec = {**rec, "deaths": deaths, "alone_deaths": int(rec.get("alone_deaths") or 0) + 1}
        if deaths >= QUARANTINE_AFTER:  # alone in its child: each death is the job's
            self._quarantine(rec, deaths)
            return False
        rec.update(status="queued", requeued=int(rec.get("requeued") or 0) + 1,
                   reruns=int(rec.get("reruns") or 0) + 1, updated=_now())
        if not self.store.put_json(rec["document"], _key(job_id), rec, create=False):
            return False
        log.warning("job %s (%s) queued again: its job process died while it ran", job_id, rec["kind"])
        with for_client(current_client()):
            self.start(rec, fn)
        return True

    def _overran(self, job_id: str) -> None:
        rec = self._record(job_id)
        if rec is None or rec["status"] in ("done", "failed"):
            return
        error = describe(DeadlineExceededError(
            f"the {rec.get('kind', '')} job ran past its budget of {self.job_seconds:g} s (LEDGER_JOB_SECONDS) "
            f"by {KILL_GRACE:g} s where it could not stop by itself: its job process was stopped"))
        rec.update(status="failed", updated=_now(), error=error[0] if error else {"code": "deadline_exceeded"})
        self.store.put_json(rec["document"], _key(job_id), rec, create=False)
        log.warning("job %s (%s) stopped past its budget", job_id, rec["kind"])

    def shutdown(self, wait: bool = True) -> None:
        super().shutdown(wait=wait)
        for child in list(self._children.values()):
            child.kill()
        self._children.clear()
        with self._callers_lock:
            for child in self._callers:
                child.kill()
            self._callers.clear()
            self._idle_callers.clear()


def _error_state(exc: BaseException) -> tuple[str, str, tuple[Any, ...], dict[str, Any]]:
    """What a child sends of a call's exception: its class by name, its arguments and attributes
    (those that pickle), so that the request answers exactly as if it had raised it itself."""
    cls = type(exc)
    state: dict[str, Any] = {}
    for name, value in vars(exc).items():
        try:
            pickle.dumps(value)
        except Exception:
            continue
        state[name] = value
    try:
        pickle.dumps(exc.args)
        args = exc.args
    except Exception:
        args = tuple(str(a) for a in exc.args)
    return cls.__module__, cls.__qualname__, args, state


def _rebuilt(error: tuple[str, str, tuple[Any, ...], dict[str, Any]]) -> BaseException:
    """The exception :func:`_error_state` described, made without calling its ``__init__`` (whose
    signature may differ from its ``args``): LEDGER's own classes and the built-in ones; anything
    else is a ``RuntimeError`` naming it (an internal error, as it would have been here)."""
    module, name, args, state = error
    cls: Any = None
    if module.startswith(_ERROR_MODULES) or module == "builtins":
        try:
            cls = importlib.import_module(module)
            for part in name.split("."):
                cls = getattr(cls, part)
        except (ImportError, AttributeError):
            cls = None
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        return RuntimeError(f"{module}.{name} in a job process: {args!r}")
    exc = cls.__new__(cls)
    exc.args = args
    exc.__dict__.update(state)
    return exc


# --- the child side -----------------------------------------------------------------------------


def _child_main(conn: Connection, settings: dict[str, Any], parent: int, board: int | None = None) -> None:
    """A job process: open the store, then run the tasks its web worker sends, one at a time, until
    the pipe closes or the web worker dies. ``board`` is the web worker's foreground board: its
    jobs give way to the requests served there as on a thread (:mod:`addin_backend.foreground`)."""
    if board is not None:
        foreground.watch(board)
    try:
        os.nice(int(settings.get("nice") or 0))
    except OSError:
        pass
    # a terminal's Ctrl-C goes to the whole process group: the web worker decides; a child whose
    # worker is gone exits by itself (the heartbeat below)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=int(settings.get("log_level") or logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s")
    from ..store import open_store

    store = open_store(settings.get("store"), str(settings["data_dir"]), int(settings["ttl"]))
    if settings.get("embedding_cache") and os.environ.get("LEDGER_EMBEDDING_CACHE") is None:
        from ..language.nlp import configure_embedding_cache

        configure_embedding_cache(str(settings["embedding_cache"]))
    if settings.get("preload"):
        resolve_task(str(settings["preload"]))()
    if settings.get("ready"):
        conn.send({"ready": os.getpid()})
    runner = JobRunner(store)  # what tasks ask of a runner: other jobs' records (a graph's)
    current: list[Progress] = []

    def heartbeat() -> None:
        while True:
            time.sleep(HEARTBEAT_SECONDS)
            if os.getppid() != parent:  # the web worker died: its jobs are taken over elsewhere
                os._exit(0)
            for progress in list(current):
                try:
                    progress.touch()
                except JobCancelled:
                    pass
                except Exception as exc:  # a busy store: the next beat tries again
                    log.warning("heartbeat of job %s failed: %s", progress.record.get("id"), type(exc).__name__)

    threading.Thread(target=heartbeat, name="ledger-jobproc-heartbeat", daemon=True).start()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if "call" in message:  # a request's work: its value or its exception, as raised
            try:
                answer: dict[str, Any] = {"value": resolve_task(message["call"])(**message.get("kwargs", {}))}
            except Exception as exc:
                answer = {"error": _error_state(exc)}
            try:
                conn.send(answer)
            except (EOFError, OSError):
                return
            except Exception as exc:  # a value that does not pickle: pickled first, nothing was sent
                conn.send({"error": _error_state(exc)})
            continue
        runner.job_seconds = float(message.get("job_seconds") or 0.0)
        runner.job_cpu_seconds = float(message.get("job_cpu_seconds") or 0.0)
        progress = Progress(store, message["record"])
        current.append(progress)
        try:
            with for_client(message.get("client")):
                try:
                    task = resolve_task(message["task"])
                except (ValueError, ImportError, AttributeError):
                    progress.finish("failed", error={"code": "job_lost", "message": "its task cannot be run here"})
                else:
                    runner._work(progress, partial(task, store, runner, **message.get("kwargs", {})))
        except JobCancelled:
            pass
        finally:
            current.clear()
        conn.send({"ended": message["record"]["id"]})


if __name__ == "__main__":  # a job process: python -m addin_backend.jobs.processes FD PARENT SETTINGS
    _child_main(Connection(int(sys.argv[1])), json.loads(sys.argv[3]), int(sys.argv[2]),
                int(sys.argv[4]) if len(sys.argv) > 4 else None)
