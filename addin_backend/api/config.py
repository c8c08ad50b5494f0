"""The service's settings: defaults, then ``LEDGER_*`` environment variables, then test config."""
from __future__ import annotations

import os
import re
from typing import Any, Callable, Mapping

__all__ = ["DEFAULTS", "ENVIRONMENT", "load_config", "parse_rate", "parse_groups", "key_fingerprint", "REPO_ROOT",
           "MIN_KEY_LENGTH"]

#: An API key shorter than this is refused at start-up: short keys can be guessed.
MIN_KEY_LENGTH = 16

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _list(value: str | list[str] | tuple[str, ...]) -> list[str]:
    items = value.split(",") if isinstance(value, str) else list(value)
    return [v.strip() for v in items if v and v.strip()]


def _bool(value: str | bool) -> bool:
    if isinstance(value, bool):
        return value
    return value.strip().lower() not in ("0", "false", "no", "off", "")


DEFAULTS: dict[str, Any] = {
    "DATA_DIR": os.path.join(REPO_ROOT, "data"),
    "STORE": "sqlite",
    "TTL_SECONDS": 24 * 3600,
    "API_KEYS": [],
    "KEY_GROUPS": "",  # keys that share their documents: "team-a=KEY1,KEY2;team-b=key:6ab9f1eb8f7d" (keys or fingerprints)
    "CORS_ORIGINS": [],
    "MAX_UPLOAD_MB": 64,
    "MAX_UNITS": 50_000,  # units a document may have (adapters.package.Limits.max_units)
    "MAX_TEXT_CHARS": 4_000_000,  # characters of text a document may have
    "MAX_PARAGRAPHS": 250_000,  # paragraphs counted while an upload streams, before it is parsed (0: no limit)
    "MAX_FINDINGS": 5_000,  # findings a document's check answers at most (the most severe)
    "QUOTA_MB": 2048,  # what one key (or address, without keys) may keep in the store; 0 or off: no quota
    "RATE_LIMIT": "600/minute",
    "AUTH_FAIL_LIMIT": "20/minute",  # requests with one wrong or missing key per client address
    "TRUST_PROXY": 0,  # proxies in front whose X-Forwarded-For is believed (0: the socket's address)
    "JOB_THREADS": 2,  # threads of each worker process for graph jobs
    "EDIT_THREADS": 2,  # threads of each worker process for proposals, applies and reviews run as jobs
    "JOB_STALE_SECONDS": 900,
    "JOBS": "auto",  # threads | processes | queue (RQ on the Redis store) | auto: the queue when the store is Redis, else JOBS_LOCAL
    "JOBS_LOCAL": "threads",  # what auto means without Redis: `ledger serve` makes it processes (jobs/processes.py)
    "JOB_PROCESSES": 1,  # job processes of each worker process for graph jobs, and as many for edit jobs (processes mode)
    "MODEL_JOBS": 2,  # proposals that may wait for a model, at once, per worker process (their own lane)
    "MODEL_JOBS_PER_KEY": 1,  # of those, per key (or address): a key whose model hangs never holds another's
    "JOB_NICE": 10,  # how much lower the job processes' CPU priority is than the web workers'
    "JOB_RETRIES": 2,  # runs again of a queued job whose worker died
    "JOB_TIMEOUT": 1800,  # seconds one run of a queued job may take
    "QUEUE_LARGE_TOKENS": 20_000,  # graph jobs of larger documents go to the "large" queue
    "GRAPH_SEMANTIC": True,
    "SSE_POLL_SECONDS": 0.25,
    "SSE_MAX_SECONDS": 600,
    "SSE_PER_CLIENT": 32,  # open event streams per client (key, or address without keys) and worker process
    "REQUEST_SECONDS": 120,  # wall-clock budget of one request's work (then 503 deadline_exceeded); 0: none
    "JOB_SECONDS": 600,  # wall-clock budget of one graph, proposal or check job (then failed, deadline_exceeded)
    "REQUEST_CPU_SECONDS": 60,  # CPU seconds one request's work may take (then 503 deadline_exceeded); 0: none
    "JOB_CPU_SECONDS": 300,  # CPU seconds one job may take (then failed, deadline_exceeded); 0: none
    "WORK_MEMORY_MB": 1024,  # memory one apply may take by its estimate before the work (then 413 too_large); 0: none
    "SEND_STALL_SECONDS": 30,  # a client that takes no byte of its answer for this long is dropped
    "BUFFER_TOTAL_MB": 64,  # request bodies one worker process holds in memory before the key check, in all
    "STATIC_DIR": os.path.join(REPO_ROOT, "static"),
    "MANIFEST_PATH": os.path.join(REPO_ROOT, "manifest", "manifest.xml"),
    "AUDIT_LOG": None,  # DATA_DIR/audit.jsonl
}

#: Environment variable -> (setting, parser).
ENVIRONMENT: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "LEDGER_DATA_DIR": ("DATA_DIR", str),
    "LEDGER_STORE": ("STORE", str),
    "LEDGER_TTL_SECONDS": ("TTL_SECONDS", int),
    "LEDGER_API_KEYS": ("API_KEYS", _list),
    "LEDGER_KEY_GROUPS": ("KEY_GROUPS", str),
    "LEDGER_CORS_ORIGINS": ("CORS_ORIGINS", _list),
    "LEDGER_MAX_UPLOAD_MB": ("MAX_UPLOAD_MB", float),
    "LEDGER_MAX_UNITS": ("MAX_UNITS", int),
    "LEDGER_MAX_TEXT_CHARS": ("MAX_TEXT_CHARS", int),
    "LEDGER_MAX_PARAGRAPHS": ("MAX_PARAGRAPHS", int),
    "LEDGER_MAX_FINDINGS": ("MAX_FINDINGS", int),
    "LEDGER_QUOTA_MB": ("QUOTA_MB", lambda v: 0.0 if str(v).strip().lower() in ("off", "none", "") else float(v)),
    "LEDGER_RATE_LIMIT": ("RATE_LIMIT", str),
    "LEDGER_AUTH_FAIL_LIMIT": ("AUTH_FAIL_LIMIT", str),
    "LEDGER_TRUST_PROXY": ("TRUST_PROXY", int),
    "LEDGER_JOB_THREADS": ("JOB_THREADS", int),
    "LEDGER_EDIT_THREADS": ("EDIT_THREADS", int),
    "LEDGER_JOB_STALE_SECONDS": ("JOB_STALE_SECONDS", float),
    "LEDGER_JOBS": ("JOBS", str),
    "LEDGER_JOB_PROCESSES": ("JOB_PROCESSES", int),
    "LEDGER_MODEL_JOBS": ("MODEL_JOBS", int),
    "LEDGER_MODEL_JOBS_PER_KEY": ("MODEL_JOBS_PER_KEY", int),
    "LEDGER_JOB_NICE": ("JOB_NICE", int),
    "LEDGER_JOB_RETRIES": ("JOB_RETRIES", int),
    "LEDGER_JOB_TIMEOUT": ("JOB_TIMEOUT", int),
    "LEDGER_QUEUE_LARGE_TOKENS": ("QUEUE_LARGE_TOKENS", int),
    "LEDGER_GRAPH_SEMANTIC": ("GRAPH_SEMANTIC", _bool),
    "LEDGER_SSE_PER_CLIENT": ("SSE_PER_CLIENT", int),
    "LEDGER_REQUEST_SECONDS": ("REQUEST_SECONDS", float),
    "LEDGER_JOB_SECONDS": ("JOB_SECONDS", float),
    "LEDGER_REQUEST_CPU_SECONDS": ("REQUEST_CPU_SECONDS", float),
    "LEDGER_JOB_CPU_SECONDS": ("JOB_CPU_SECONDS", float),
    "LEDGER_WORK_MEMORY_MB": ("WORK_MEMORY_MB", float),
    "LEDGER_SEND_STALL_SECONDS": ("SEND_STALL_SECONDS", float),
    "LEDGER_BUFFER_TOTAL_MB": ("BUFFER_TOTAL_MB", float),
    "LEDGER_STATIC_DIR": ("STATIC_DIR", str),
    "LEDGER_MANIFEST": ("MANIFEST_PATH", str),
    "LEDGER_AUDIT_LOG": ("AUDIT_LOG", str),
}

_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(?:(\d+)\s*s|(second|minute|hour|day))\s*$")


def parse_rate(spec: str | None) -> tuple[int, int] | None:
    """``"120/minute"`` or ``"5/10s"`` -> (requests, window seconds); ``None`` when off.

    >>> parse_rate("120/minute"), parse_rate("5/10s"), parse_rate("off")
    ((120, 60), (5, 10), None)
    """
    if spec is None or str(spec).strip().lower() in ("", "0", "off", "none"):
        return None
    m = _RATE.match(str(spec))
    if not m or int(m.group(1)) <= 0 or (m.group(2) and int(m.group(2)) <= 0):
        raise ValueError(f"LEDGER_RATE_LIMIT must look like '120/minute' or '5/10s', not {spec!r}")
    return int(m.group(1)), int(m.group(2)) if m.group(2) else _UNITS[m.group(3)]


def key_fingerprint(secret: str) -> str:
    """A short, stable, non-reversible name for a key, for logs, counters, owners and the audit log.

    >>> key_fingerprint("k1")
    'key:6ab9f1eb8f7d'
    """
    import hashlib

    return "key:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()[:12]


_GROUP_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def parse_groups(spec: str | Mapping[str, Any] | None, keys: list[str]) -> dict[str, str]:
    """``LEDGER_KEY_GROUPS`` -> {key fingerprint: ``group:NAME``}: the keys of one group own their
    documents together (a team shares by configuration, never by knowing an id).

    ``spec`` is ``NAME=MEMBER,MEMBER;NAME=...``, each member a key of ``LEDGER_API_KEYS`` or its
    fingerprint (``key:6ab9f1eb8f7d``, as the access log names it), or a mapping {NAME: [MEMBER, ...]}.

    :raise ValueError: a bad name, a member that is no configured key, or a key in two groups.

    >>> parse_groups("team=key:6ab9f1eb8f7d,0123456789abcdef", ["k1", "0123456789abcdef"])
    {'key:6ab9f1eb8f7d': 'group:team', 'key:9f9f5111f7b2': 'group:team'}
    """
    if not spec:
        return {}
    pairs: list[tuple[str, list[str]]] = []
    if isinstance(spec, str):
        for part in filter(None, (p.strip() for p in spec.split(";"))):
            name, sep, listed = part.partition("=")
            if not sep:
                raise ValueError(f"LEDGER_KEY_GROUPS: {name[:40]!r} is not NAME=KEY,KEY")
            pairs.append((name.strip(), [m.strip() for m in re.split(r"[,\s]+", listed) if m.strip()]))
    else:
        pairs = [(str(k), [str(m) for m in v]) for k, v in spec.items()]
    known = {key_fingerprint(k): k for k in keys}
    out: dict[str, str] = {}
    for name, members in pairs:
        if not _GROUP_NAME.match(name):
            raise ValueError(f"LEDGER_KEY_GROUPS: a group's name is 1-64 letters, digits, '.', '_' or '-', not {name[:40]!r}")
        for i, member in enumerate(members, 1):
            fp = key_fingerprint(member) if member in keys else (
                member if member.startswith("key:") else f"key:{member}")
            if fp not in known:  # never echo a member: it may be a key
                raise ValueError(f"LEDGER_KEY_GROUPS: member {i} of group {name!r} is no key of LEDGER_API_KEYS "
                                 "(give the key or its fingerprint key:xxxxxxxxxxxx)")
            if fp in out and out[fp] != f"group:{name}":
                raise ValueError(f"LEDGER_KEY_GROUPS: member {i} of group {name!r} is in another group too")
            out[fp] = f"group:{name}"
    return out


def load_config(test_config: Mapping[str, Any] | None = None,
                environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Defaults < environment < ``test_config``, with derived settings filled in.

    :raise ValueError: a setting that cannot be used (caught at start-up, not per request).
    """
    environ = os.environ if environ is None else environ
    cfg = dict(DEFAULTS)
    for var, (key, parse) in ENVIRONMENT.items():
        if var in environ:
            try:
                cfg[key] = parse(environ[var])
            except ValueError:
                raise ValueError(f"{var}={environ[var]!r} is not a valid value") from None
    cfg.update(test_config or {})
    cfg["API_KEYS"] = _list(cfg["API_KEYS"])
    for i, key in enumerate(cfg["API_KEYS"], 1):
        if len(key) < MIN_KEY_LENGTH:  # never echo the key itself
            raise ValueError(
                f"LEDGER_API_KEYS: key {i} of {len(cfg['API_KEYS'])} has {len(key)} characters; a key needs at "
                f"least {MIN_KEY_LENGTH} (make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')")
    cfg["GROUPS"] = parse_groups(cfg["KEY_GROUPS"], cfg["API_KEYS"])
    cfg["CORS_ORIGINS"] = _list(cfg["CORS_ORIGINS"])
    cfg["GRAPH_SEMANTIC"] = _bool(cfg["GRAPH_SEMANTIC"])
    cfg["RATE"] = parse_rate(cfg["RATE_LIMIT"])
    cfg["AUTH_FAILURES"] = parse_rate(cfg["AUTH_FAIL_LIMIT"])
    cfg["JOBS"] = str(cfg["JOBS"]).strip().lower()
    if cfg["JOBS"] not in ("auto", "threads", "processes", "queue"):
        raise ValueError(f"LEDGER_JOBS must be auto, threads, processes or queue, not {cfg['JOBS']!r}")
    if min(int(cfg["JOB_PROCESSES"]), int(cfg["MODEL_JOBS"]), int(cfg["MODEL_JOBS_PER_KEY"])) < 1:
        raise ValueError("LEDGER_JOB_PROCESSES, LEDGER_MODEL_JOBS and LEDGER_MODEL_JOBS_PER_KEY must be at least 1")
    if float(cfg["MAX_UPLOAD_MB"]) <= 0 or int(cfg["TTL_SECONDS"]) <= 0:
        raise ValueError("LEDGER_MAX_UPLOAD_MB and LEDGER_TTL_SECONDS must be positive")
    if not 0 <= int(cfg["TRUST_PROXY"]) <= 8:
        raise ValueError("LEDGER_TRUST_PROXY: the number of proxies in front of the server, 0 (none) to 8")
    if int(cfg["MAX_FINDINGS"]) <= 0 or float(cfg["QUOTA_MB"]) < 0 or int(cfg["SSE_PER_CLIENT"]) <= 0:
        raise ValueError("LEDGER_MAX_FINDINGS and LEDGER_SSE_PER_CLIENT must be positive, "
                         "LEDGER_QUOTA_MB 0 (off) or more")
    if int(cfg["JOB_THREADS"]) < 1 or int(cfg["EDIT_THREADS"]) < 1:
        raise ValueError("LEDGER_JOB_THREADS and LEDGER_EDIT_THREADS must be at least 1")
    if (min(float(cfg["REQUEST_SECONDS"]), float(cfg["JOB_SECONDS"]), float(cfg["WORK_MEMORY_MB"]),
            float(cfg["REQUEST_CPU_SECONDS"]), float(cfg["JOB_CPU_SECONDS"])) < 0
            or float(cfg["SEND_STALL_SECONDS"]) <= 0 or float(cfg["BUFFER_TOTAL_MB"]) < 0):
        raise ValueError("LEDGER_SEND_STALL_SECONDS must be positive, LEDGER_REQUEST_SECONDS, LEDGER_JOB_SECONDS, "
                         "LEDGER_REQUEST_CPU_SECONDS, LEDGER_JOB_CPU_SECONDS, LEDGER_WORK_MEMORY_MB and "
                         "LEDGER_BUFFER_TOTAL_MB 0 (none) or more")
    cfg["MAX_CONTENT_LENGTH"] = int(float(cfg["MAX_UPLOAD_MB"]) * 1024 * 1024)
    cfg["AUDIT_LOG"] = cfg["AUDIT_LOG"] or os.path.join(cfg["DATA_DIR"], "audit.jsonl")
    return cfg
