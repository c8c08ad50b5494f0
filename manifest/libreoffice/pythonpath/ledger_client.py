"""The LEDGER bridge's side that knows no UNO: settings, the HTTP client (urllib), error messages,
and the server's definitions of a word and of text normalisation (to find units in the open
document). Runs inside LibreOffice's Python; stdlib only.
"""
from __future__ import annotations

import functools
import json
import os
import re
import socket
import sys
import time
import unicodedata
import urllib.error
import urllib.parse
import urllib.request

__all__ = [
    "BridgeError",
    "CONFIG_KEYS",
    "LedgerClient",
    "MESSAGES",
    "config_path",
    "load_config",
    "save_config",
    "normalize",
    "split_lines",
    "tokenize",
    "word_spans",
]

#: Settings and the environment variables that override the options file.
CONFIG_KEYS = {
    "url": "LEDGER_URL",
    "api_key": "LEDGER_API_KEY",
    "author": "LEDGER_AUTHOR",
    "instruction": "LEDGER_INSTRUCTION",
    "ui": "LEDGER_BRIDGE_UI",
    "report": "LEDGER_BRIDGE_REPORT",
    "ca_file": "LEDGER_CA_FILE",
    "timeout": "LEDGER_TIMEOUT",
    "comments": "LEDGER_COMMENTS",
}
DEFAULTS = {"url": "http://127.0.0.1:8750", "api_key": "", "author": "", "instruction": "", "ui": "dialogs",
            "report": "", "ca_file": "", "timeout": 60, "comments": True}

MESSAGES = {
    "unreachable": "Cannot reach the LEDGER server at {url}. Check the server address ({where}) and that the server is running.",
    "timeout": "The LEDGER server at {url} did not answer in time.",
    "unauthorized": "The LEDGER server refused the API key. Set a valid key ({where}).",
    "rate_limited": "Too many requests for this API key. Try again in a minute.",
    "too_large": "The LEDGER server refused the document: it is larger than the server accepts.",
    "zip_bomb": "The LEDGER server refused the document: it expands to more data than the server accepts.",
    "not_a_document": "The LEDGER server could not read this as a .docx or .odt document.",
    "unsupported_format": "The LEDGER server cannot read this document format; save it as .odt or .docx.",
    "encrypted": "The document is password-protected; remove the password first.",
    "corrupt": "The LEDGER server could not read the document: it looks damaged.",
    "malformed_xml": "The LEDGER server could not read part of the document (malformed XML).",
    "unsafe_xml": "The LEDGER server refused XML in the document for safety.",
    "instruction_not_understood": "LEDGER did not understand the instruction.",
    "edit_conflict": "The document changed while LEDGER was working; run the command again.",
    "anchor_mismatch": "The document changed while LEDGER was working; run the command again.",
    "not_found": "The LEDGER server at {url} does not offer this feature yet (its API route is missing).",
    "method_not_allowed": "The LEDGER server at {url} does not offer this feature in this version.",
    "engine_unavailable": "The editing engine is unavailable on the LEDGER server; try again later.",
    "store_unavailable": "The LEDGER server's storage is unavailable; try again later.",
    "internal_error": "The LEDGER server hit an internal error.",
    "bad_answer": "The LEDGER server answered with something that is not LEDGER's JSON.",
    "job_failed": "The LEDGER server could not finish the work.",
}


class BridgeError(Exception):
    """A problem the user must read: ``code`` (ROUTES.md error codes, plus ``unreachable``,
    ``timeout``, ``bad_answer``) and a whole-sentence message."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def config_path(environ=None) -> str:
    """The options file: ``LEDGER_BRIDGE_CONFIG``, else ~/.config/ledger/bridge.json."""
    environ = os.environ if environ is None else environ
    return environ.get("LEDGER_BRIDGE_CONFIG") or os.path.join(os.path.expanduser("~"), ".config", "ledger", "bridge.json")


def load_config(environ=None) -> dict:
    """Defaults < options file < environment. A broken options file is a BridgeError."""
    environ = os.environ if environ is None else environ
    cfg = dict(DEFAULTS)
    path = config_path(environ)
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError) as exc:
            raise BridgeError("bad_config", f"The LEDGER options file {path} could not be read: {exc}") from None
        if not isinstance(data, dict):
            raise BridgeError("bad_config", f"The LEDGER options file {path} must hold a JSON object.")
        cfg.update({k: v for k, v in data.items() if k in CONFIG_KEYS})
    for key, var in CONFIG_KEYS.items():
        if environ.get(var):
            cfg[key] = environ[var]
    cfg["url"] = str(cfg["url"]).rstrip("/")
    cfg["timeout"] = float(cfg["timeout"] or 60)
    cfg["where"] = f"{path} or LEDGER_URL/LEDGER_API_KEY"
    return cfg


#: The settings the settings dialog edits (the others are for scripts and tests).
USER_KEYS = ("url", "api_key", "author", "comments")


def save_config(values: dict, environ=None) -> str:
    """Writes the settings dialog's values to the options file (other keys in it are kept);
    returns its path. A value the environment overrides still wins when the bridge reads them."""
    path = config_path(environ)
    data = {}
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as fh:
                old = json.load(fh)
            data = old if isinstance(old, dict) else {}
        except (OSError, ValueError):
            data = {}
    for key in USER_KEYS:
        if key in values:
            data[key] = values[key]
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1)
    os.replace(tmp, path)
    return path


class LedgerClient:
    """The routes of ROUTES.md the bridge uses, over urllib, with BridgeError for any failure."""

    def __init__(self, cfg: dict) -> None:
        self.cfg = cfg
        self.url = cfg["url"]
        self.timeout = cfg.get("timeout", 60)
        self._ssl = None
        if cfg.get("ca_file"):
            import ssl

            self._ssl = ssl.create_default_context(cafile=cfg["ca_file"])

    def _message(self, code: str, detail: str = "") -> str:
        base = MESSAGES.get(code, "The LEDGER server refused the request ({code}).")
        msg = base.format(url=self.url, where=self.cfg.get("where", "the LEDGER options file"), code=code)
        return f"{msg} ({detail})" if detail and detail not in msg else msg

    def request(self, method: str, path: str, *, body=None, data: bytes | None = None,
                content_type: str | None = None, raw: bool = False):
        """One request; returns ``(status, JSON or bytes)``; BridgeError on any failure."""
        url = path if path.startswith("http") else self.url + path
        headers = {"Accept": "application/json"}
        if self.cfg.get("api_key"):
            headers["Authorization"] = f"Bearer {self.cfg['api_key']}"
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            content_type = "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout, context=self._ssl) as res:
                payload = res.read()
                status = res.status
        except urllib.error.HTTPError as exc:
            payload = exc.read()
            try:
                err = json.loads(payload.decode("utf-8")).get("error") or {}
            except (ValueError, AttributeError):
                err = {}
            code = err.get("code") or ("not_found" if exc.code == 404 else "internal_error" if exc.code >= 500 else "invalid_request")
            raise BridgeError(code, self._message(code, err.get("message", "")), exc.code) from None
        except (socket.timeout, TimeoutError):
            raise BridgeError("timeout", self._message("timeout")) from None
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise BridgeError("unreachable", self._message("unreachable", str(reason))) from None
        if raw:
            return status, payload
        try:
            return status, json.loads(payload.decode("utf-8")) if payload else None
        except ValueError:
            raise BridgeError("bad_answer", self._message("bad_answer")) from None

    def upload(self, data: bytes, filename: str, media_type: str) -> dict:
        q = urllib.parse.urlencode({"filename": filename})
        return self.request("POST", f"/api/v1/documents?{q}", data=data, content_type=media_type)[1]

    def wait_job(self, job: dict, poll: float = 0.5, limit: float = 900, on_progress=None, until=None) -> dict:
        """Follows a job until it is done (or ``until(job)`` holds); ``on_progress(fraction, stage)``."""
        deadline = time.monotonic() + limit
        while job.get("status") not in ("done", "failed") and not (until and until(job)):
            if on_progress:
                on_progress(float(job.get("progress") or 0.0), job.get("stage") or "")
            if time.monotonic() > deadline:
                raise BridgeError("timeout", self._message("timeout"))
            time.sleep(poll)
            job = self.request("GET", job.get("links", {}).get("self") or f"/api/v1/jobs/{job['id']}")[1]
        if job["status"] == "failed":
            err = job.get("error") or {}
            code = err.get("code") or "job_failed"
            raise BridgeError(code, self._message(code if code in MESSAGES else "job_failed", err.get("message", "")))
        if on_progress:
            on_progress(float(job.get("progress") or 1.0), job.get("stage") or "")
        return job

    def version(self) -> dict:
        """The server's name and version (the connection test: it needs the API key too)."""
        return self.request("GET", "/api/v1/version")[1]

    def propose(self, doc_id: str, instruction: str, author: str, target: str | None = None,
                selection: dict | None = None, on_progress=None) -> dict:
        """A proposal for ``instruction``; ``target`` is the unit at the cursor, ``selection`` the
        selected text (ROUTES.md Selection)."""
        body = {"instruction": instruction}
        if author:
            body["author"] = author
        if target:
            body["target"] = target
        if selection:
            body["selection"] = selection
        status, res = self.request("POST", f"/api/v1/documents/{doc_id}/proposals", body=body)
        if status == 202 and res.get("job"):
            return self.wait_job(res["job"], on_progress=on_progress)["result"]
        return res

    def apply(self, doc_id: str, proposal_id: str, author: str, instruction: str = "", comments: bool = True,
              operations: list | None = None) -> dict:
        """Applies a proposal (only the ``operations`` ids given, when given)."""
        body = {"proposal_id": proposal_id, "author": author}
        if instruction:
            body["instruction"] = instruction
        if not comments:
            body["comments"] = False
        if operations is not None:
            body["operations"] = list(operations)
        return self.request("POST", f"/api/v1/documents/{doc_id}/apply", body=body)[1]

    def outline(self, doc_id: str) -> list:
        return self.request("GET", f"/api/v1/documents/{doc_id}/outline")[1]["outline"]

    def impact(self, doc_id: str, unit: str, job: dict | None = None, on_progress=None, depth: int = 1) -> dict:
        """What a unit cites and what depends on it; waits for the graph while it is being built,
        and, when the answer lacks an edge type it reads (``partial``: the job has not built
        DEPENDS yet, as on a busy server), for that stage, then asks again: the panel shows what
        the paragraph needs, not the part of it that was ready first."""
        path, body = f"/api/v1/documents/{doc_id}/impact", {"unit": unit, "depth": depth}
        for _ in range(3):
            try:
                res = self.request("POST", path, body=body)[1]
            except BridgeError as exc:
                if exc.code != "graph_not_ready" or job is None:
                    raise
                job = self.wait_job(job, on_progress=on_progress, until=lambda j: "impact" in (j.get("ready") or []))
                continue
            lacking = set(res.get("partial") or []) & set(res.get("types") or [])
            if not lacking or job is None:
                return res
            stage = "depends" if "DEPENDS" in lacking else "impact"
            job = self.wait_job(job, on_progress=on_progress, until=lambda j: stage in (j.get("ready") or []))
        return self.request("POST", path, body=body)[1]

    def fix(self, doc_id: str, findings: list | None = None, kinds: list | None = None, author: str = "") -> dict:
        """A proposal that fixes the given findings (ids) or kinds (ROUTES.md check/fix)."""
        body = {}
        if findings:
            body["findings"] = list(findings)
        if kinds:
            body["kinds"] = list(kinds)
        if author:
            body["author"] = author
        return self.request("POST", f"/api/v1/documents/{doc_id}/check/fix", body=body)[1]

    def review(self, doc_id: str, revision: int, data: bytes, media_type: str, on_progress=None) -> dict:
        """What the reviewer did with the revision's operations (ROUTES.md Review); a large review
        is answered 202 with a job whose result is the review."""
        status, res = self.request("POST", f"/api/v1/documents/{doc_id}/revisions/{int(revision)}/review", data=data,
                                   content_type=media_type)
        if status == 202 and res.get("job"):
            return self.wait_job(res["job"], on_progress=on_progress)["result"]
        return res

    def check(self, doc_id: str) -> dict:
        return self.request("GET", f"/api/v1/documents/{doc_id}/check")[1]

    def units(self, doc_id: str) -> list:
        return self.request("GET", f"/api/v1/documents/{doc_id}/units")[1]["units"]

    def download(self, path: str) -> bytes:
        return self.request("GET", path, raw=True)[1]


# The server's definitions, copied (this module cannot import the server's packages): the
# specifications tests/vectors/normalise.json and tests/vectors/words.json keep the copies equal.
# Unicode's White_Space, spelled out (Python's \s also takes U+001C..U+001F), and the invisible
# characters readers and editors keep or drop (adapters/text.py).
_WHITE = "\t\n\u000b\u000c\r\u0085 \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_SPACE = re.compile(f"[{_WHITE}]+")
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u2060\ufeff"))
# A word (adapters/words.py): letters, digits, combining marks and "_", whole across ONE joiner
# between two word characters (hyphen, U+2010/U+2011, apostrophe, U+2019, full stop, middle dot,
# soft hyphen, ZWNJ, ZWJ, geresh, gershayim, or a comma between digits).
_JOIN = "(?:['\u2019.\u00b7\u00ad\u200c\u200d\u05f3\u05f4\u2010\u2011-]|(?<=\\d),(?=\\d))"


def normalize(text: str) -> str:
    """How unit and paragraph texts compare (adapters/text.py ``squash``): invisible characters
    dropped, NFC, one space for any run of white space, trimmed.

    >>> normalize(" Daten\\u00adbank\\u00a0 und\\u000bso ")
    'Datenbank und so'
    """
    t = text or ""
    if not t.isascii():
        t = unicodedata.normalize("NFC", t.translate(_INVISIBLE))
    return _SPACE.sub(" ", t).strip(" ")


def _marks() -> str:
    """The combining marks (general category M) as a class body, from this Python's tables."""
    ranges = []
    for cp in range(sys.maxunicode + 1):
        if unicodedata.category(chr(cp))[0] == "M":
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


@functools.lru_cache(maxsize=1)
def _patterns():
    """``(word, token)`` patterns; built on first use (the marks table takes half a second)."""
    char = f"[\\w{_marks()}]"
    word = f"{char}+(?:{_JOIN}{char}+)*"
    return re.compile(word), re.compile(f"[{_WHITE}]+|{word}|[^{_WHITE}]")


def word_spans(text: str) -> list:
    """``[(start, end)]`` of each word of ``text`` (code points, as the server counts).

    >>> word_spans("a 30-day term, don't")
    [(0, 1), (2, 8), (9, 13), (15, 20)]
    """
    return [m.span() for m in _patterns()[0].finditer(text or "")]


def tokenize(text: str) -> list:
    """Words, runs of white space and single other characters (adapters/textdiff.py's tokens)."""
    return _patterns()[1].findall(text or "")


def split_lines(text: str) -> list:
    """``[(start, end, line)]`` of a unit's text (paragraphs separated by "\\n")."""
    out, pos = [], 0
    for line in (text or "").split("\n"):
        out.append((pos, pos + len(line), line))
        pos += len(line) + 1
    return out
