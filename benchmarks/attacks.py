"""All of issue 33's attacks at once on a default ``ledger serve`` (1 worker x 4 threads) on loopback.

What the issue must show: with four slow-model proposals, a 10,000-character rename, four
1,200-change reviews, a 5,000-occurrence paragraph, a billion-numbered list and a
1,000,000-paragraph upload in flight, ``/healthz`` answers every probe within 1 s and a small
document's graph finishes.

The harness starts the server (its own data folder, two API keys: the attacker's and another
user's) and an OpenAI-compatible model on loopback that takes ``--model-seconds`` (45) per
answer, configured as the proposals' engine. It builds every input itself (python-docx, lxml,
zipfile; no outside document), prepares what the attacks need (the proposals' document and its
graph; the reviews' revision of 1,200 changes and its reviewed files), then launches every attack
in its own thread at once. Meanwhile it probes ``/healthz`` every 0.5 s, samples the workers'
resident memory, and, as the other key, uploads a small document and follows its graph job:
once the attacker's largest document (the rename's 1.05 MB upload) has its graph job running,
the worst moment for another key (issue 33: that graph holds a graph-lane slot for minutes).

It prints each attack's answer (status, error code, seconds to answer; the job it became and how
that ended), the probes answered within 1 s of those sent and the slowest, the small document's
graph (seconds from its upload to ``done``, how long it waited ``queued`` and its own stages'
seconds, against the same small document's graph on the idle server before the attacks), the
server's peak RSS and CPU seconds. ``--json F`` writes the same. Exit status 1 when a probe
failed or took more than 1 s, or the small graph was not ``done`` within ``--graph-bound``
(30 s) of its upload being sent; each attack's answer is
also judged against what it should get now (a job, a refusal with its code, bounded labels: the
``expected`` column), which the slow test asserts.

    nice -n 10 python -m benchmarks.attacks [--json benchmarks/results/attacks.json]
    (reduced, for the test: --model-seconds 3 --rename-doc-kib 40 --review-paragraphs 20
     --occurrences 200 --paragraphs 60000 --no-semantic)

Loopback only; nothing else is contacted.
"""
from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

import requests

from tests.addin_backend.edits.chat_server import ChatServer, Step, completion
from tests.adapters.docx.docxkit import make_docx, paragraphs_docx
from tests.addin_backend.api.test_inner_bounds import BILLIONS
from tests.addin_backend.api.test_inner_bounds import _billion_docx as billion_docx  # lists from the billions, six formats
from tests.servers import LedgerServer, free_port

__all__ = ["main", "run", "Attack"]

ATTACKER = "attacks-key-A-0123456789abcdef"
OTHER = "attacks-key-B-fedcba9876543210"
OCTETS = "application/octet-stream"
PROBE_LIMIT = 1.0  # seconds a /healthz probe may take
#: seconds from the other key's small upload being sent to its graph ``done`` (``--graph-bound``):
#: the small graph on an idle server takes 1-3 s from a cold job process (the ``idle`` figure
#: each run prints); under the attacks a job process must start for it (imports, spaCy,
#: MiniLM: 5-10 s on two loaded cores) and the machine is shared: 30 s is ten times its idle
#: time, and well under a large graph's minutes that it must not wait for.
GRAPH_BOUND = 30.0
#: seconds between two polls of a job: the attacker's ten or so jobs stay under the default rate
#: limit (600 a minute per key), whose 429s would otherwise be read instead of the jobs' ends
POLL_SECONDS = 2.0
#: what the slow model says after its wait: a well-formed answer with nothing to change
MODEL_ANSWER = json.dumps({"explanation": "Nothing to change.", "edits": []})


# --- the inputs -------------------------------------------------------------------------------

def _words(seed: int, count: int) -> list[str]:
    """``count`` made-up lower-case words (letters only), the same for a seed."""
    rnd = random.Random(seed)
    return ["".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(3, 10))) for _ in range(count)]


def big_docx(kib: int, seed: int = 7) -> bytes:
    """A document of about ``kib`` KiB (the .docx file): sentences of made-up words, 12 a paragraph."""
    vocab = _words(seed, 3000)
    rnd = random.Random(seed)
    paragraphs: list[str] = []

    def grow(count: int) -> bytes:
        for _ in range(count):
            paragraphs.append(" ".join(rnd.choice(vocab) for _ in range(12)).capitalize() + ".")
        return make_docx("".join(f"<w:p><w:r><w:t>{p}</w:t></w:r></w:p>" for p in paragraphs))

    data = grow(200)  # then as many more as the compression seen so far says
    while len(data) < kib * 1024:
        data = grow(max(20, int(len(paragraphs) * (kib * 1024 / len(data) - 1)) + 1))
    return data


def long_term(chars: int) -> str:
    """A term of ``chars`` characters made of words, as a pasted passage would be."""
    return (("widget frame " * (chars // 13 + 2))[:chars]).strip().ljust(chars, "x")


def review_docx(paragraphs: int, per: int) -> bytes:
    """``paragraphs`` paragraphs, each naming the widget ``per`` times: a rename of 'widget' makes
    ``paragraphs x per`` changes."""
    return paragraphs_docx([" ".join(f"The widget {i}.{k} sends a frame to the widget server."
                                     for k in range(per // 2)) for i in range(paragraphs)])


def occurrences_docx(n: int) -> bytes:
    """One paragraph naming the widget ``n`` times (a couple of KB compressed)."""
    return make_docx("<w:p><w:r><w:t>" + " ".join(["widget"] * n) + "</w:t></w:r></w:p>")


def many_paragraphs_docx(n: int) -> bytes:
    """``n`` numbered one-run paragraphs: a 1,000,000-paragraph upload is about 2 MB."""
    body = "".join(f"<w:p><w:r><w:t>{i}</w:t></w:r></w:p>" for i in range(n))
    return make_docx(body)


def small_docx(device: str = "widget") -> bytes:
    """Another user's small document, whose graph must finish during the attack. Another
    ``device`` makes another document of the same shape and size: a graph kept by content is not
    the one judged (the idle figure's document and the other key's must differ)."""
    return paragraphs_docx([
        "Scope", f"This note defines the Frame Counter used by every {device}.",
        f"Frame Counter means the number of frames a {device} has sent.",
        f"Each {device} keeps its own Frame Counter, as defined in Section 1.",
        f"A {device} resets the Frame Counter when it restarts.",
        "The server rejects a frame whose Frame Counter went backwards."])


def reviewed_files(revision: bytes) -> dict[str, bytes]:
    """Four ways a reviewer sends the 1,200-change revision back, each with one word typed at the
    end of every paragraph (Track Changes off): all pending, all accepted, all rejected, and
    accepted and rejected in turn."""
    from lxml import etree

    from adapters.docx.oxml import NSMAP

    w = NSMAP["w"]

    def q(tag: str) -> str:
        return f"{{{w}}}{tag}"

    def unwrap(el: Any) -> None:
        parent = el.getparent()
        at = parent.index(el)
        for i, child in enumerate(list(el)):
            parent.insert(at + i, child)
        parent.remove(el)

    def accept(el: Any) -> None:
        (unwrap if el.tag == q("ins") else lambda e: e.getparent().remove(e))(el)

    def reject(el: Any) -> None:
        if el.tag == q("ins"):
            el.getparent().remove(el)
            return
        for t in el.iter(q("delText")):
            t.tag = q("t")
        unwrap(el)

    def variant(decide: Callable[[int, Any], None] | None) -> bytes:
        with zipfile.ZipFile(io.BytesIO(revision)) as src:
            root = etree.fromstring(src.read("word/document.xml"))
            if decide is not None:
                marks = [el for el in root.iter(q("ins"), q("del")) if el.getparent().tag == q("p")]
                for i, el in enumerate(marks):
                    decide(i, el)
            for p in root.iter(q("p")):
                r = etree.SubElement(p, q("r"))
                t = etree.SubElement(r, q("t"))
                t.text = " typed"
                t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
                for info in src.infolist():
                    data = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True) \
                        if info.filename == "word/document.xml" else src.read(info.filename)
                    dst.writestr(info.filename, data)
            return out.getvalue()

    # a replace is a deletion and an insertion side by side: decide both of a pair alike
    return {"pending": variant(None), "accepted": variant(lambda i, el: accept(el)),
            "rejected": variant(lambda i, el: reject(el)),
            "mixed": variant(lambda i, el: (accept if (i // 2) % 2 == 0 else reject)(el))}


# --- talking to the server --------------------------------------------------------------------

@dataclass
class Answer:
    status: int  # 0: no answer (connection error or the client's timeout)
    code: str | None
    seconds: float
    body: Any = None
    size: int = 0


#: the most a client waits for one answer (``--limit`` sets it: the run's length)
CLIENT_TIMEOUT = [900.0]


def call(method: str, url: str, key: str, *, timeout: float | None = None, **kw: Any) -> Answer:
    headers = {"Authorization": f"Bearer {key}", **kw.pop("headers", {})}
    started = time.monotonic()
    try:
        r = requests.request(method, url, headers=headers, timeout=timeout or CLIENT_TIMEOUT[0], **kw)
    except requests.RequestException as exc:
        return Answer(0, f"no answer: {type(exc).__name__}", time.monotonic() - started)
    took = time.monotonic() - started
    try:
        body = r.json()
    except ValueError:
        body = None
    code = body["error"].get("code") if isinstance(body, dict) and isinstance(body.get("error"), dict) else None
    return Answer(r.status_code, code, took, body, len(r.content))


def upload(base: str, key: str, data: bytes, name: str) -> Answer:
    return call("POST", f"{base}/api/v1/documents?filename={name}", key, data=data, headers={"Content-Type": OCTETS})


def follow(base: str, key: str, job_id: str, limit: float, every: float = POLL_SECONDS,
           seen: dict[str, float] | None = None) -> tuple[dict[str, Any] | None, float]:
    """Poll a job every ``every`` seconds until it ends or ``limit`` seconds pass: (its last
    record, seconds followed). ``seen`` gets, by status, the seconds at which it was first read."""
    started = time.monotonic()
    rec: dict[str, Any] | None = None
    last: Answer | None = None
    while time.monotonic() - started < limit:
        a = last = call("GET", f"{base}/api/v1/jobs/{job_id}", key, timeout=30)
        if a.status == 200 and isinstance(a.body, dict):
            rec = a.body
            if seen is not None:
                seen.setdefault(str(rec.get("status")), round(time.monotonic() - started, 2))
            if rec.get("status") in ("done", "failed"):
                break
        elif a.status == 429:
            time.sleep(5)
        time.sleep(every)
    if rec is None and last is not None:  # never read: say why
        rec = {"status": f"unread ({last.status or last.code})"}
    return rec, time.monotonic() - started


def graph_work(rec: dict[str, Any] | None) -> float | None:
    """A graph job's own seconds: the sum of its stages' (``stage_log``), not its wait."""
    stages = (rec or {}).get("stage_log") or []
    secs = [float(st["seconds"]) for st in stages if isinstance(st, dict) and st.get("seconds") is not None]
    return round(sum(secs), 2) if secs else None


def small_graph(base: str, key: str, data: bytes, limit: float) -> dict[str, Any]:
    """Upload the small document as ``key`` and follow its graph closely (every 0.5 s): its
    upload's answer, the graph's end, the seconds from the upload being sent to the graph first
    read ``running`` and ``done``, and the graph's own stages' seconds."""
    sent = time.monotonic()
    up = upload(base, key, data, "small.docx")
    out: dict[str, Any] = {"upload": {"status": up.status, "code": up.code, "seconds": round(up.seconds, 2)}}
    if up.status != 201:
        out["graph"] = "no upload"
        return out
    seen: dict[str, float] = {}
    rec, took = follow(base, key, f"{up.body['id']}-graph", max(5.0, limit), every=0.5, seen=seen)
    out["graph"] = (rec or {}).get("status", "unknown")
    out["graph_code"] = ((rec or {}).get("error") or {}).get("code")
    out["graph_seconds"] = round(took, 2)
    out["since_upload_seconds"] = round(time.monotonic() - sent, 2)
    out["running_seen_at"] = round(up.seconds + seen["running"], 2) if "running" in seen else None
    out["work_seconds"] = graph_work(rec)
    return out


# --- the run ----------------------------------------------------------------------------------

@dataclass
class Attack:
    name: str
    what: str
    status: int = -1  # -1: not answered by the end of the run
    code: str | None = None
    seconds: float = 0.0
    job: str | None = None  # the job's final status (or the last one seen)
    job_code: str | None = None
    job_seconds: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    expected: str = ""  # what it should get now
    ok: bool = False  # it got that

    def answered(self, a: Answer) -> None:
        self.status, self.code, self.seconds = a.status, a.code, round(a.seconds, 2)

    def uploaded(self, up: Answer, **more: Any) -> bool:
        """Record the upload the attack starts with; a refused upload is the attack's answer."""
        self.detail["upload"] = {"status": up.status, "code": up.code, "seconds": round(up.seconds, 2), **more}
        if up.status != 201:
            self.answered(up)
        return up.status == 201

    def ended(self, rec: dict[str, Any] | None, took: float) -> None:
        self.job = (rec or {}).get("status", "unknown")
        self.job_code = ((rec or {}).get("error") or {}).get("code")
        self.job_seconds = round(took, 2)


def _job_ok(a: Attack) -> bool:
    """A job that ended, or still runs within the run's limit, and did not fail with a 500's code."""
    return a.job in ("done", "queued", "running") or (a.job == "failed" and a.job_code not in (None, "internal_error"))


class Probe(threading.Thread):
    """A probe of ``/healthz`` (and one of ``/api/v1/version`` with the other key: a request that
    needs a web thread of the API; and a control: an idle ``python -m http.server`` at the same
    niceness, whose slow answers are the machine's load, not the server's) every ``every``
    seconds on a fixed schedule, each in its own
    thread, so a probe held for ``timeout`` seconds does not thin out the ones after it and the
    counts measure time; the workers' resident memory at each tick."""

    def __init__(self, srv: LedgerServer, control: str, every: float = 0.5, timeout: float = 30.0) -> None:
        super().__init__(name="probe", daemon=True)
        self.srv, self.control, self.every, self.timeout = srv, control, every, timeout
        self.stop = threading.Event()
        self.origin = time.monotonic()
        #: (seconds after the start it was sent, seconds it took, None or why it failed), per path
        self.seen: dict[str, list[tuple[float, float, str | None]]] = {"healthz": [], "api": [], "control": []}
        self.peak_rss_kib = 0
        self._pending: list[threading.Thread] = []

    def _one(self, path: str, url: str, headers: dict[str, str]) -> None:
        sent = time.monotonic()
        why: str | None = None
        try:
            r = requests.get(url, headers=headers, timeout=self.timeout)
            if r.status_code != 200:
                why = str(r.status_code)
        except requests.RequestException as exc:
            why = type(exc).__name__
        self.seen[path].append((round(sent - self.origin, 2), time.monotonic() - sent, why))

    def run(self) -> None:
        tick = 0
        while not self.stop.is_set():
            for path, url, headers in (("healthz", f"{self.srv.url}/healthz", {}),
                                       ("api", f"{self.srv.url}/api/v1/version", {"Authorization": f"Bearer {OTHER}"}),
                                       ("control", self.control, {})):
                t = threading.Thread(target=self._one, args=(path, url, headers), daemon=True, name=f"probe-{path}")
                t.start()
                self._pending.append(t)
            self.peak_rss_kib = max(self.peak_rss_kib, sum(self.srv.rss_kib(jobs=True).values()))
            tick += 1
            self.stop.wait(max(0.0, self.origin + tick * self.every - time.monotonic()))

    def finish(self) -> None:
        self.stop.set()
        self.join(5)
        for t in self._pending:
            t.join(max(0.1, self.timeout + 1))

    def summary(self, path: str) -> dict[str, Any]:
        seen = sorted(self.seen[path])
        lat = [took for _at, took, _why in seen]
        failed = [f"{why} at {at} s after {took:.1f} s" for at, took, why in seen if why]
        slow = [(at, took) for at, took, why in seen if not why and took > PROBE_LIMIT]
        bad = [at for at, took, why in seen if why or took > PROBE_LIMIT]
        return {"probes": len(seen), "answered_within_1s": len(seen) - len(failed) - len(slow),
                "failed": len(failed), "failures": failed[:20], "over_1s": len(slow),
                "max_seconds": round(max(lat, default=0.0), 3),
                "p50_seconds": round(sorted(lat)[len(lat) // 2], 3) if lat else None,
                "first_bad_at": bad[0] if bad else None, "last_bad_at": bad[-1] if bad else None}


def run(args: argparse.Namespace) -> dict[str, Any]:
    started_run = time.monotonic()
    follow_s = float(args.follow)
    CLIENT_TIMEOUT[0] = float(args.limit)
    with tempfile.TemporaryDirectory(prefix="ledger-attacks-") as tmp, ChatServer() as model:
        model.script = [Step(delay=float(args.model_seconds), body=completion(MODEL_ANSWER)) for _ in range(64)]
        env = {"LEDGER_API_KEYS": f"{ATTACKER},{OTHER}", "LEDGER_LLM_ENDPOINT": model.endpoint,
               "LEDGER_LLM_KEY": "model-key", "LEDGER_LLM_MODEL": "gpt-slow"}
        if args.no_semantic:
            env["LEDGER_GRAPH_SEMANTIC"] = "0"
        inputs: dict[str, bytes] = {}
        t0 = time.monotonic()
        inputs["rename_doc"] = big_docx(args.rename_doc_kib)
        inputs["review_doc"] = review_docx(args.review_paragraphs, 4)
        inputs["occurrences"] = occurrences_docx(args.occurrences)
        inputs["billion"] = billion_docx()
        inputs["many"] = many_paragraphs_docx(args.paragraphs)
        inputs["proposal_doc"] = small_docx()
        inputs["small"] = small_docx("sensor")  # not the idle one's bytes: its graph is built, not found
        built_s = time.monotonic() - t0
        with LedgerServer(Path(tmp), workers=args.workers, threads=args.threads, env=env) as srv:
            base = srv.url
            # --- what the attacks need, before they start
            t0 = time.monotonic()
            sent = time.monotonic()
            prep = upload(base, ATTACKER, inputs["proposal_doc"], "proposals.docx")
            if prep.status != 201:
                raise RuntimeError(f"the proposals' document was refused: {prep.status} {prep.body}")
            proposal_doc = prep.body["id"]
            # the same small document on the idle server, its job process started for it: the
            # figure the bound on the other key's small graph is judged against
            prep_graph, _ = follow(base, ATTACKER, f"{proposal_doc}-graph", 600, every=0.5)
            idle_graph = {"graph": (prep_graph or {}).get("status"), "since_upload_seconds":
                          round(time.monotonic() - sent, 2), "work_seconds": graph_work(prep_graph)}
            rv = upload(base, ATTACKER, inputs["review_doc"], "review.docx")
            if rv.status != 201:
                raise RuntimeError(f"the reviews' document was refused: {rv.status} {rv.body}")
            review_doc = rv.body["id"]
            applied = call("POST", f"{base}/api/v1/documents/{review_doc}/apply", ATTACKER, json={
                "author": "Attacker", "operations": [{"op": "rename", "old": "widget", "text": "gadget"}]})
            if applied.status == 202:  # an apply that became a job
                rec, _ = follow(base, ATTACKER, applied.body["job"]["id"], 600)
                result = (rec or {}).get("result") or {}
            elif applied.status == 201:
                result = applied.body
            else:
                raise RuntimeError(f"the reviews' revision was refused: {applied.status} {applied.body}")
            rev = result["revision"]
            revision = requests.get(f"{base}/api/v1/documents/{review_doc}/revisions/{rev}/file",
                                    headers={"Authorization": f"Bearer {ATTACKER}"}, timeout=300).content
            review_inputs = reviewed_files(revision)
            with zipfile.ZipFile(io.BytesIO(revision)) as z:
                changes = z.read("word/document.xml").count(b"<w:ins ")  # a replace: one insertion, one deletion
            prepared_s = time.monotonic() - t0

            attacks: list[Attack] = []
            jobs: list[Callable[[], None]] = []

            def proposal(a: Attack) -> Callable[[], None]:
                def go() -> None:
                    ans = call("POST", f"{base}/api/v1/documents/{proposal_doc}/proposals", ATTACKER, json={
                        "instruction": "Make the tone friendlier", "engine": "llm", "author": "Attacker"})
                    a.answered(ans)
                    if ans.status == 202:
                        a.ended(*follow(base, ATTACKER, ans.body["job"]["id"], follow_s))
                    a.ok = ans.status == 202 and _job_ok(a)
                return go

            for i in range(4):
                attacks.append(Attack(f"slow-model-{i + 1}", f"LLM proposal, model answers after {args.model_seconds:g} s",
                                      expected="202 job (model lane)"))
                jobs.append(proposal(attacks[-1]))

            term = long_term(args.term_chars)
            ren = Attack("rename-term", f"rename a {len(term):,}-character term on a "
                         f"{len(inputs['rename_doc']) / 1e6:.2f} MB .docx (upload, then apply)",
                         expected="400 invalid_request (or 413 too_large by cost)")
            attacks.append(ren)

            big_doc: list[str] = []  # the rename's upload, whose graph is the attacker's largest

            def rename() -> None:
                up = upload(base, ATTACKER, inputs["rename_doc"], "big.docx")
                if not ren.uploaded(up, units=(up.body or {}).get("units")):
                    big_doc.append("")
                    return
                big_doc.append(up.body["id"])
                ans = call("POST", f"{base}/api/v1/documents/{up.body['id']}/apply", ATTACKER, json={
                    "author": "Attacker", "operations": [{"op": "rename", "old": term, "text": "gadget"}]})
                ren.answered(ans)
                ren.ok = (ans.status, ans.code) in ((400, "invalid_request"), (413, "too_large"))
            jobs.append(rename)

            def review(a: Attack, data: bytes) -> Callable[[], None]:
                def go() -> None:
                    ans = call("POST", f"{base}/api/v1/documents/{review_doc}/revisions/{rev}/review", ATTACKER,
                               data=data, headers={"Content-Type": OCTETS})
                    a.answered(ans)
                    if ans.status == 202:
                        rec, took = follow(base, ATTACKER, ans.body["job"]["id"], follow_s)
                        a.ended(rec, took)
                        report = (rec or {}).get("result") or {}
                        a.detail["counts"] = (report.get("review") or report).get("counts")
                    elif ans.status == 200 and isinstance(ans.body, dict):
                        a.detail["counts"] = ans.body.get("counts")
                    a.ok = (ans.status == 200 or (ans.status == 202 and _job_ok(a))
                            or (400 <= ans.status < 500 and ans.code is not None))
                return go

            for name, data in review_inputs.items():
                attacks.append(Attack(f"review-{name}", f"review of {changes:,} changes, {name}, a word typed per paragraph",
                                      expected="200, a job, or a 4xx refusal by cost"))
                jobs.append(review(attacks[-1], data))

            occ = Attack("occurrences", f"one paragraph naming a term {args.occurrences:,} times "
                         f"({len(inputs['occurrences']):,} B), renamed",
                         expected="upload 201; proposal or job, or 413/507 refusal")
            attacks.append(occ)

            def occurrences() -> None:
                up = upload(base, ATTACKER, inputs["occurrences"], "occurrences.docx")
                if not occ.uploaded(up):
                    return
                doc = up.body["id"]
                graph, _ = follow(base, ATTACKER, f"{doc}-graph", follow_s)
                occ.detail["graph"] = (graph or {}).get("status")
                ans = call("POST", f"{base}/api/v1/documents/{doc}/proposals", ATTACKER,
                           json={"instruction": "Rename 'widget' to 'gadget'", "author": "Attacker"})
                occ.answered(ans)
                body = ans.body if isinstance(ans.body, dict) else {}
                if ans.status == 202:
                    rec, took = follow(base, ATTACKER, body["job"]["id"], follow_s)
                    occ.ended(rec, took)
                    body = ((rec or {}).get("result") or {})
                pid = body.get("id") or body.get("proposal_id") or (body.get("proposal") or {}).get("id")
                if pid:
                    got = call("GET", f"{base}/api/v1/documents/{doc}/proposals/{pid}", ATTACKER)
                    occ.detail["proposal_bytes"] = got.size
                    occ.detail["operations"] = len((got.body or {}).get("operations") or [])
                occ.ok = (ans.status == 201 or (ans.status == 202 and _job_ok(occ))
                          or (ans.status in (413, 507) and ans.code is not None))
            jobs.append(occurrences)

            bil = Attack("billion-list", f"lists numbered from {BILLIONS:,} ({len(inputs['billion']):,} B .docx)",
                         expected="201, labels <= 64 characters")
            attacks.append(bil)

            def billion() -> None:
                up = upload(base, ATTACKER, inputs["billion"], "billion.docx")
                bil.answered(up)
                if up.status != 201:
                    return
                units = call("GET", f"{base}/api/v1/documents/{up.body['id']}/units?limit=100", ATTACKER)
                labels = [u.get("label") or "" for u in (units.body or {}).get("units", [])]
                bil.detail["longest_label"] = max(map(len, labels), default=0)
                bil.ok = units.status == 200 and bool(labels) and bil.detail["longest_label"] <= 64
            jobs.append(billion)

            many = Attack("many-paragraphs", f"{args.paragraphs:,} paragraphs in a "
                          f"{len(inputs['many']) / 1e6:.2f} MB .docx", expected="413 too_large")
            attacks.append(many)

            def paragraphs() -> None:
                up = upload(base, ATTACKER, inputs["many"], "many.docx")
                many.answered(up)
                many.ok = up.status == 413 and up.code == "too_large"
            jobs.append(paragraphs)

            # --- all at once, probed; then the other key's small document
            control_port = free_port()
            control = subprocess.Popen([sys.executable, "-m", "http.server", str(control_port), "--bind", "127.0.0.1",
                                        "--directory", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            control_url = f"http://127.0.0.1:{control_port}/"
            for _ in range(100):
                try:
                    requests.get(control_url, timeout=2)
                    break
                except requests.RequestException:
                    time.sleep(0.1)
            probe = Probe(srv, control_url, timeout=args.probe_timeout)
            cpu_before = srv.cpu_seconds(jobs=True)
            rss_before = sum(srv.rss_kib(jobs=True).values())
            probe.start()
            t_attack = time.monotonic()
            threads = [threading.Thread(target=j, daemon=True, name=f"attack-{i}") for i, j in enumerate(jobs)]
            for t in threads:
                t.start()
            time.sleep(args.victim_after)
            # the worst moment for another key: the attacker's largest graph holds a slot
            big_state = "not uploaded"
            waited_from = time.monotonic()
            while time.monotonic() - waited_from < args.big_wait:
                if big_doc:
                    if not big_doc[0]:
                        break
                    big_state = str((call("GET", f"{base}/api/v1/jobs/{big_doc[0]}-graph", ATTACKER, timeout=30).body
                                     or {}).get("status"))
                    if big_state != "queued":
                        break
                time.sleep(0.5)
            t_sent = time.monotonic()
            victim = small_graph(base, OTHER, inputs["small"], min(args.graph_limit, t_attack + args.limit - t_sent))
            victim["attacker_big_graph_when_sent"] = big_state
            victim["sent_at_attack_seconds"] = round(t_sent - t_attack, 1)
            victim["bound_seconds"] = args.graph_bound
            victim["idle"] = idle_graph
            limit = t_attack + args.limit
            for t in threads:
                t.join(max(0.0, limit - time.monotonic()))
            attack_s = time.monotonic() - t_attack
            probe.finish()
            control.terminate()
            control.wait(10)
            if big_doc and big_doc[0]:  # what the attacker's largest graph did in the run
                big = call("GET", f"{base}/api/v1/jobs/{big_doc[0]}-graph", ATTACKER, timeout=30).body or {}
                ren.detail["graph"] = big.get("status")
                ren.detail["graph_work_seconds"] = graph_work(big)
            cpu = srv.cpu_seconds(jobs=True) - cpu_before  # job processes alive at the end
            log = srv.log.read_text(errors="replace")
            log_tail, internal = log[-4000:], log.count("internal_error")
            if args.json:  # the server's log beside the figures: the evidence for each answer
                args.json.parent.mkdir(parents=True, exist_ok=True)
                args.json.with_suffix(".server.log").write_text(log)

    health = probe.summary("healthz")
    result = {
        "server": {"workers": args.workers, "threads": args.threads, "semantic": not args.no_semantic,
                   "model_seconds": args.model_seconds},
        "inputs_bytes": {k: len(v) for k, v in inputs.items()},
        "review_changes": changes,
        "seconds": {"build_inputs": round(built_s, 1), "prepare": round(prepared_s, 1),
                    "attack": round(attack_s, 1), "total": round(time.monotonic() - started_run, 1)},
        "attacks": [asdict(a) for a in attacks],
        "healthz": health,
        "api_probe": probe.summary("api"),
        "control_probe": probe.summary("control"),
        "small_graph": victim,
        "server_peak_rss_mib": round(probe.peak_rss_kib / 1024, 1),
        "server_rss_before_mib": round(rss_before / 1024, 1),
        "server_cpu_seconds": round(cpu, 1),
        "model_calls": len(model.requests),
        "internal_errors_logged": internal,
        "log_tail": log_tail if internal else "",
    }
    victim["within_bound"] = (victim.get("graph") == "done"
                              and float(victim.get("since_upload_seconds", 1e9)) <= args.graph_bound)
    result["passed"] = (health["probes"] > 0 and health["answered_within_1s"] == health["probes"]
                        and victim["within_bound"])
    return result


def table(res: dict[str, Any]) -> str:
    rows = ["| attack | what | answer | s | job | job s | expected | got it |", "|---|---|---|---|---|---|---|---|"]
    for a in res["attacks"]:
        answer = "none" if a["status"] == -1 else f"{a['status']}" + (f" {a['code']}" if a["code"] else "")
        job = (a["job"] or "") + (f" {a['job_code']}" if a["job_code"] else "")
        extra = ", ".join(f"{k} {v}" for k, v in a["detail"].items() if k != "upload")
        rows.append(f"| {a['name']} | {a['what']}{' (' + extra + ')' if extra else ''} | {answer} | {a['seconds']} | "
                    f"{job} | {a['job_seconds'] if a['job_seconds'] is not None else ''} | {a['expected']} | "
                    f"{'yes' if a['ok'] else 'NO'} |")
    g = res["small_graph"]
    rows.append("")
    for name, h in (("/healthz", res["healthz"]), ("/api/v1/version (other key)", res["api_probe"]),
                    ("control (idle http.server, same niceness: the machine's load)", res["control_probe"])):
        rows.append(f"{name}: {h['answered_within_1s']} of {h['probes']} probes answered within 1 s "
                    f"(failed {h['failed']}, over 1 s {h['over_1s']}; p50 {h['p50_seconds']} s, max {h['max_seconds']} s"
                    + (f"; bad from {h['first_bad_at']} s to {h['last_bad_at']} s of the attack" if h["first_bad_at"] is not None else "")
                    + ")")
    idle = g.get("idle") or {}
    rows += [
             f"small document (other key): upload {g.get('upload', {}).get('status')}, graph {g.get('graph')}"
             + (f" {g['graph_code']}" if g.get("graph_code") else "")
             + (f" {g['since_upload_seconds']} s after its upload was sent (upload answered in "
                f"{g['upload']['seconds']} s, first read running at {g.get('running_seen_at')} s, its stages "
                f"{g.get('work_seconds')} s)" if "graph_seconds" in g else "")
             + f"; sent {g.get('sent_at_attack_seconds')} s into the attack, the attacker's largest graph "
               f"{g.get('attacker_big_graph_when_sent')}; bound {g.get('bound_seconds')} s: "
             + ("within" if g.get("within_bound") else "NOT within")
             + f"; the same document on the idle server before: {idle.get('graph')} "
               f"{idle.get('since_upload_seconds')} s after its upload (stages {idle.get('work_seconds')} s)",
             f"server: peak RSS {res['server_peak_rss_mib']} MiB (before {res['server_rss_before_mib']} MiB), "
             f"CPU {res['server_cpu_seconds']} s during the attack; model calls {res['model_calls']}; "
             f"internal_error in the log {res['internal_errors_logged']}",
             f"times: inputs {res['seconds']['build_inputs']} s, preparation {res['seconds']['prepare']} s, "
             f"attack {res['seconds']['attack']} s; reviews of {res['review_changes']:,} changes",
             f"verdict: {'PASS' if res['passed'] else 'FAIL'} (every probe within 1 s and the small graph done "
             f"within {g.get('bound_seconds')} s of its upload)"]
    return "\n".join(rows)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.attacks", description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, default=1, help="ledger serve's default: 1")
    p.add_argument("--threads", type=int, default=4, help="ledger serve's default: 4")
    p.add_argument("--model-seconds", type=float, default=45.0, help="the slow model's wait per answer")
    p.add_argument("--term-chars", type=int, default=10_000)
    p.add_argument("--rename-doc-kib", type=int, default=1024, help="size of the renamed document's .docx")
    p.add_argument("--review-paragraphs", type=int, default=300, help="4 changes each: 300 give 1,200")
    p.add_argument("--occurrences", type=int, default=5_000)
    p.add_argument("--paragraphs", type=int, default=1_000_000, help="paragraphs of the large upload")
    p.add_argument("--no-semantic", action="store_true", help="LEDGER_GRAPH_SEMANTIC=0 (the default server embeds)")
    p.add_argument("--victim-after", type=float, default=2.0, help="seconds after the attacks the small upload starts")
    p.add_argument("--graph-limit", type=float, default=600.0, help="seconds the small graph is followed")
    p.add_argument("--graph-bound", type=float, default=GRAPH_BOUND,
                   help="seconds from the small upload being sent to its graph done, or the run fails")
    p.add_argument("--big-wait", type=float, default=60.0,
                   help="seconds the small upload waits for the attacker's largest graph to run")
    p.add_argument("--follow", type=float, default=300.0, help="seconds each attack's job is followed")
    p.add_argument("--limit", type=float, default=480.0,
                   help="seconds the attack phase may take in all (and a client waits for one answer)")
    p.add_argument("--probe-timeout", type=float, default=30.0, help="seconds a probe waits before it counts as failed")
    p.add_argument("--json", type=Path, help="write the results here")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    res = run(args)
    print(table(res))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(res, indent=1) + "\n")
    return 0 if res["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
