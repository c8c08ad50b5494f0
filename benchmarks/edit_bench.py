"""A battery of real edits on the development standards, judged by headless LibreOffice.

Each case is an edit a user asks for on a real standard (``DEVSET/rfc/*.A.docx`` and ``.odt``):
renames of defined terms, of acronyms and of terms with an irregular plural; deletions and moves
of sections, figures and tables; a value change; a retitle; and ``--fix KIND`` for every check
that has fixable findings. The cases run through the orchestration the command line uses
(:func:`addin_backend.service.edits.edit_file`, :func:`addin_backend.service.fixes.fix_file`), each
result is written, and one LibreOffice (its own ``-env:UserInstallation`` profile, through
``tests/libreoffice.py``) reads every original and every result after Accept All and Reject All.

The judge is independent of the engine: it reads what LibreOffice shows, not LEDGER's model.

- ``reject``: Reject All gives the original paragraphs;
- ``members``: every package member the writer has no reason to touch is byte-identical;
- ``terms`` (renames): after Accept All, every form of the old term that remains (its own
  listing: the words with spaces or hyphens between them, any case, plural "s"/"es", the
  irregular plural, possessive) is reported by an ``old_term``/``old_term_kept`` finding;
- ``refs`` (deletes and moves): every "Section N", "Figure N" and "Table N" the accepted text
  cites exists in the accepted document (headings by LibreOffice's list labels, captions by their
  number), apart from those the original already missed and those the edit reported;
- ``fix``: a fix changes no media type, URI, code line, or dictionary word split or joined.

``--quick`` runs a few cases on one standard (the test in ``tests/benchmarks/``); ``--doc``
writes the table into ``docs/benchmarks.md`` between the ``edit-bench`` markers.

Run: ``python -m benchmarks.edit_bench --devset ../shared/devset [--quick] [--doc docs/benchmarks.md]``
"""
from __future__ import annotations

import argparse
import copy
import difflib
import json
import re
import sys
import tempfile
import time
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Case", "make_cases", "run_case", "judge", "table", "old_forms", "main"]

KINDS = ("rename_term", "rename_acronym", "rename_irregular", "delete_section", "move_section", "delete_figure",
         "move_figure", "delete_table", "change_value", "retitle", "fix")

#: Members a tracked-change write may rewrite; every other member must keep its bytes.
WRITABLE = re.compile(r"^(?:word/(?:document|comments\w*|people|settings|footnotes|endnotes)\.xml|word/_rels/document\.xml\.rels"
                      r"|\[Content_Types\]\.xml|content\.xml|styles\.xml|META-INF/manifest\.xml|meta\.xml|settings\.xml"
                      r"|docProps/(?:app|core)\.xml)$")


@dataclass
class Case:
    kind: str
    path: str
    instruction: str = ""  # an edit's instruction; for ``fix``: the finding kind
    old: str = ""  # renames: the old term
    new: str = ""
    plural: str = ""  # the old term's irregular plural
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{Path(self.path).name}: {self.instruction}"


# --- choosing the cases ----------------------------------------------------------------------

_TAILS = ("marker", "tally", "ledger", "token", "record")


def _new_term(old: str, text: str) -> str:
    """A new term for ``old`` that neither contains it nor occurs in the document."""
    words = old.split()
    low = text.lower()
    for tail in _TAILS:
        cand = " ".join(words[:-1] + [tail]) if len(words) > 1 else f"{old[:1]}{tail}"
        if cand.lower() not in low and old.lower() not in cand.lower():
            return cand
    return old + " qq"


def _terms(doc, text: str, n: int) -> list[str]:
    """Defined terms in lower case used five times or more, most used first."""
    from addin_backend.graph.definitions import definition_registry

    seen: Counter = Counter()
    for entries in definition_registry(doc.units).values():
        for _o, _u, d in entries:
            t = d.term.strip()
            # lower-case words, the last may be an acronym ("connection ID", "target URI")
            if d.kind == "acronym" or not re.fullmatch(r"[a-z][a-z\- ]{3,40}(?:[a-z]|[A-Z]{2,5})", t) or " " not in t:
                continue
            seen[t] = len(re.findall(r"(?<![\w-])" + re.escape(t) + r"(?![\w-])", text, re.I))
    return [t for t, c in seen.most_common() if c >= 5][:n]


def _acronyms(doc, n: int) -> list[str]:
    from addin_backend.checks.terminology import find_acronyms

    found = [(len(i.uses), t) for t, i in find_acronyms(doc).items() if i.definitions and len(i.uses) >= 5 and t.isalpha()]
    return [t for _c, t in sorted(found, reverse=True)[:n]]


def _irregular(text: str, n: int) -> list[tuple[str, str]]:
    """Two-word phrases ending in a consonant and "y" whose "-ies" plural the document also writes."""
    singular = Counter(re.findall(r"(?<![\w-])([a-z]{3,} [a-z]{2,}[^aeiouy\W]y)(?![\w-])", text))
    out = []
    for s, c in singular.most_common():
        plural = s[:-1] + "ies"
        if c >= 2 and len(re.findall(r"(?<![\w-])" + re.escape(plural) + r"(?![\w-])", text)) >= 2:
            out.append((s, plural))
    return out[:n]


def _numbered(doc, kind: str, word: str) -> list[str]:
    labels = [u.label for u in doc.units if u.kind == kind and u.label and u.label.startswith(word + " ")
              and u.meta.get("absent_in") != "accepted"]
    return [lab for lab in labels if re.fullmatch(word + r" (?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)", lab)]


def _value(text: str) -> tuple[str, str] | None:
    for m in re.finditer(r"(?<![\w.,])(\d{1,3}) (milliseconds|seconds|bytes|octets|minutes)(?![\w-])", text):
        n = int(m.group(1))
        return m.group(0), f"{n + 1} {m.group(2)}"
    return None


#: Edits reported as failing on these standards, run by name on every battery: (standard, old, new).
REGRESSIONS = [("rfc9000", "connection ID", "connection identifier")]  # issue 21: "connection IDs" left unreported


def make_cases(devset: Path, *, quick: bool = False, only: list[str] | None = None) -> list[Case]:
    """The battery's cases over the standards of ``devset/rfc`` (``quick``: one standard, a few);
    ``devset`` may also be a folder of standards itself (the ones kept apart)."""
    from adapters import read_path

    folder = devset / "rfc" if (devset / "rfc").is_dir() else devset
    # the smaller standards first, each as .docx then .odt
    paths = sorted([*folder.glob("*.A.docx"), *folder.glob("*.A.odt")],
                   key=lambda p: (len(p.read_bytes()) if p.suffix == ".docx" else len(p.with_suffix(".docx").read_bytes()),
                                  p.suffix != ".docx"))
    if only:  # standards (rfc9000) or files (rfc8446.A.odt: its twin's cases are made, then left out)
        paths = [p for p in paths if p.name.split(".")[0] in {o.split(".")[0] for o in only}]
    if quick:
        paths = [p for p in paths if p.name == "rfc9002.A.docx"][:1]
    out: list[Case] = []
    for path in paths:
        twin = path.with_suffix(".docx")
        if path.suffix == ".odt" and any(c.path == str(twin) for c in out):
            # the .odt shows the .docx's text paragraph for paragraph: the same edits, on the other format
            out.extend(Case(c.kind, str(path), c.instruction, c.old, c.new, c.plural) for c in out if c.path == str(twin))
            continue
        doc = read_path(str(path))
        text = "\n".join(u.text for u in doc.units if u.text)
        p = str(path)
        for std, old, new in REGRESSIONS:
            if path.name.startswith(std + ".") and not quick:
                out.append(Case("rename_term", p, f'Rename "{old}" to "{new}" everywhere', old, new))
        for t in _terms(doc, text, 1 if quick else 2):
            new = _new_term(t, text)
            out.append(Case("rename_term", p, f'Rename "{t}" to "{new}" everywhere', t, new))
        for a in _acronyms(doc, 0 if quick else 1):
            new = a + "X"
            out.append(Case("rename_acronym", p, f'Rename "{a}" to "{new}" everywhere', a, new))
        for s, plural in _irregular(text, 1):
            new = _new_term(s, text)
            out.append(Case("rename_irregular", p, f'Rename "{s}" to "{new}" everywhere', s, new, plural))
        sections = _numbered(doc, "section", "Section")
        nested = [lab for lab in sections if lab.count(".") == 1]
        if nested:
            mid = nested[len(nested) // 2]
            nxt = nested[len(nested) // 2 + 1] if len(nested) > len(nested) // 2 + 1 else None
            out.append(Case("delete_section", p, f"Delete {mid}"))
            if nxt and nxt.rsplit(".", 1)[0] == mid.rsplit(".", 1)[0] and not quick:
                out.append(Case("move_section", p, f"Move {mid} after {nxt}"))
        figures = _numbered(doc, "caption", "Figure")
        if len(figures) >= 2 and not quick:
            out.append(Case("delete_figure", p, f"Delete {figures[0]}"))
            if not quick:
                out.append(Case("move_figure", p, f"Move {figures[0]} after {figures[1]}"))
        tables = _numbered(doc, "caption", "Table")
        if tables and not quick:
            out.append(Case("delete_table", p, f"Delete {tables[0]}"))
        value = _value(text)
        if value and not quick:
            out.append(Case("change_value", p, f'Change "{value[0]}" to "{value[1]}"'))
        if sections and not quick:
            out.append(Case("retitle", p, f'Set the title of {sections[min(3, len(sections) - 1)]} to "Renamed Heading"'))
        out.extend(_fix_cases(doc, p, quick))
    wanted = set(only or ())
    if any("." in o for o in wanted):
        out = [c for c in out if Path(c.path).name in wanted or Path(c.path).name.split(".")[0] in wanted]
    return out


def _fix_cases(doc, path: str, quick: bool) -> list[Case]:
    from addin_backend.checks.document import check_document

    kinds = sorted({f.kind for f in check_document(doc) if any(pl.replacement is not None for pl in f.places)})
    if kinds and not quick:
        kinds.append("all")  # ledger check --fix all
    if quick:
        kinds = [k for k in kinds if k == "acronym_unused"][:1] or kinds[:1]
    return [Case("fix", path, k) for k in kinds]


# --- running ---------------------------------------------------------------------------------

_DOCS: dict[str, Any] = {}


def run_case(case: Case, out_dir: Path, *, semantic: bool = False) -> None:
    """Run ``case`` through the service the CLI calls and write its result under ``out_dir``."""
    from adapters import read_path
    from addin_backend.service.edits import edit_file
    from addin_backend.service.fixes import fix_file

    if case.path not in _DOCS:
        _DOCS.clear()
        _DOCS[case.path] = read_path(case.path)
    doc = copy.deepcopy(_DOCS[case.path])
    suffix = Path(case.path).suffix
    out = out_dir / f"case{len(list(out_dir.iterdir())):04d}{suffix}"
    t0 = time.perf_counter()
    try:
        if case.kind == "fix":
            report = fix_file(case.path, doc, kinds=case.instruction, output=str(out))
        else:
            report = edit_file(case.path, doc, instruction=case.instruction, output=str(out), semantic=semantic)
        case.result = {"output": str(out), "seconds": round(time.perf_counter() - t0, 2),
                       "operations": len(report.get("operations", [])) + len(report.get("propagated", [])),
                       "findings": report.get("findings", [])}
    except Exception as exc:  # the battery reports a refused edit as a failure with its reason
        case.result = {"error": f"{type(exc).__name__}: {str(exc)[:200]}", "seconds": round(time.perf_counter() - t0, 2)}


# --- judging ---------------------------------------------------------------------------------

def old_forms(term: str, plural: str = "") -> re.Pattern[str]:
    """Every form of ``term`` a reader would take for it: any case, spaces or hyphens between its
    words, a plural "s"/"es" (also after an acronym: "IDs"), an irregular ``plural``, a
    possessive.

    >>> rx = old_forms("connection ID")
    >>> [m.group() for m in rx.finditer("Connection IDs, the connection-ID's value, connection identifiers")]
    ['Connection IDs', "connection-ID's"]
    >>> [m.group() for m in old_forms("retry policy", "retry policies").finditer("Retry Policies and a retry policy")]
    ['Retry Policies', 'retry policy']
    >>> [m.group() for m in old_forms("ack-eliciting packets").finditer("an ack-eliciting packet, ack-eliciting packets")]
    ['ack-eliciting packet', 'ack-eliciting packets']
    >>> [m.group() for m in old_forms("MLS").finditer("MLS clients, MLSs, the mls working group")]
    ['MLS', 'MLSs']
    """
    parts = term.split()
    if len(parts[-1]) > 3 and parts[-1].endswith("s") and not parts[-1].endswith("ss"):
        parts[-1] = parts[-1][:-1]  # a plural term: its singular is a form of it too ("packets" -> "packet")
    words = [re.escape(w) for w in parts]
    body = r"[\s\-\u2010\u2011]+".join(words)
    alts = [body + r"(?:es|s)?"]
    if plural:
        alts.insert(0, r"[\s\-\u2010\u2011]+".join(re.escape(w) for w in plural.split()))
    pattern = r"(?<![\w\-])(?:" + "|".join(alts) + r")(?:['\u2019]s?)?(?![\w\-])"
    if re.fullmatch(r"[A-Z][A-Z0-9]+", term):  # an acronym: its capitals are the form ("mls" in a URI is none)
        return re.compile(pattern)
    return re.compile(pattern, re.I)


_MEDIA = re.compile(r"(?<![\w/])(?:application|audio|font|image|message|model|multipart|text|video)/[\w.+\-]+", re.I)
_URI = re.compile(r"[a-z][a-z0-9+.\-]*://\S+|<[^<>\s]+>|\b[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+", re.I)
_CODE_STYLE = re.compile(r"(?i)code|source|preformat|verbatim|artwork|listing|plain ?text")


def _dictionary() -> frozenset[str]:
    words: set[str] = set()
    for p in ("/usr/share/dict/american-english", "/usr/share/dict/british-english"):
        try:
            words.update(w.lower() for w in Path(p).read_text(encoding="utf-8").split("\n") if w)
        except OSError:
            pass
    return frozenset(words)


def _changes(old: str, new: str) -> list[tuple[int, int, str]]:
    """Changed spans of ``old`` (start, end) with what replaced them, word by word."""
    ta = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\w+|[^\w\s]|\s+", old)]
    tb = [m.group() for m in re.finditer(r"\w+|[^\w\s]|\s+", new)]
    sm = difflib.SequenceMatcher(None, [t[2] for t in ta], tb, autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        s = ta[i1][0] if i1 < len(ta) else len(old)
        e = ta[i2 - 1][1] if i2 > i1 else s
        out.append((s, e, "".join(tb[j1:j2])))
    return out


def _fix_damage(orig: list[dict], accepted: list[str], dictionary: frozenset[str]) -> list[str]:
    """What a fix broke: a change inside a media type, a URI or a code line, or a dictionary word
    split or joined."""
    out = []
    if len(orig) != len(accepted):
        return [f"paragraph count {len(orig)} -> {len(accepted)}"]
    for p, new in zip(orig, accepted):
        old = p["text"]
        if old == new:
            continue
        if _CODE_STYLE.search(p.get("style") or ""):
            out.append(f"code line changed: {old[:60]!r}")
            continue
        guarded = [m.span() for rx in (_MEDIA, _URI) for m in rx.finditer(old)]
        for s, e, repl in _changes(old, new):
            if any(a < max(e, s + 1) and s < b for a, b in guarded):
                out.append(f"name changed: {old[max(0, s - 20):e + 20]!r} -> {repl!r}")
            ws, we = s, e  # the whole words around the change
            while ws > 0 and old[ws - 1].isalpha():
                ws -= 1
            while we < len(old) and old[we].isalpha():
                we += 1
            word, region = old[ws:we], old[ws:s] + repl + old[e:we]
            if (word.isalpha() and word.lower() in dictionary and region != word
                    and re.sub(r"[\s\-\u2010\u2011]", "", region) == word):
                out.append(f"dictionary word split: {word!r} -> {region!r}")
    return out


def _caption(p: dict) -> tuple[str, str] | None:
    """``(word, number)`` when the paragraph is a caption: "Figure 3: Title", or a label alone
    ("Table 2", as RFCs caption their tables), or a caption-styled paragraph that starts with one.

    >>> _caption({"text": "Table 2"}), _caption({"text": "Figure 3: Flow"}), _caption({"text": "Figure 3 shows"})
    (('Table', '2'), ('Figure', '3'), None)
    """
    m = re.match(r"^(Figure|Table) (\d+)\b(\s*:|\s*$)?", p["text"])
    if m and (m.group(3) is not None or "caption" in (p.get("style") or "").lower()):
        return m.group(1), m.group(2)
    return None


def _refs(paras: list[dict]) -> set[str]:
    """The "Section N", "Figure N", "Table N" that the paragraphs cite and that do not exist."""
    labels = {(p.get("label") or "").strip().rstrip(".") for p in paras if p.get("outline")}
    labels = {lab.replace("Appendix ", "") for lab in labels if lab}
    captions: dict[str, set[str]] = {"Figure": set(), "Table": set()}
    for p in paras:
        cap = _caption(p)
        if cap:
            captions[cap[0]].add(cap[1])
    missing = set()
    for p in paras:
        text = p["text"]
        for m in re.finditer(r"\b(Section|Appendix|Figure|Table)s? ([A-Z]?\d*(?:\.\d+)*)(?![\w.]*\s+of\s+\[)(?!\.\d)", text):
            word, num = m.group(1), m.group(2).rstrip(".")
            if not num or re.search(r"\bof\s*\[", text[m.end():m.end() + 6]) or text[m.end():m.end() + 4] == " of ":
                continue
            if word in ("Figure", "Table"):
                if not _caption(p) and num.isdigit() and num not in captions[word]:
                    missing.add(f"{word} {num}")
            elif num not in labels:
                missing.add(f"Section {num}")
    return missing


def _relationships(xml: bytes) -> set[tuple[str, ...]]:
    return {tuple(re.findall(r'(Id|Type|Target)="([^"]*)"', m)) for m in re.findall(r"<Relationship\b([^>]*)/?>", xml.decode("utf-8"))}


def _members(original: str, output: str) -> list[str]:
    """The members the write should have left alone and did not: a changed or lost member, or a
    relationships part that lost one of its relationships (adding one, for the custom properties
    that carry LEDGER's metadata, is allowed)."""
    with zipfile.ZipFile(original) as a, zipfile.ZipFile(output) as b:
        names_b = set(b.namelist())
        out = []
        for n in a.namelist():
            if WRITABLE.match(n):
                continue
            if n not in names_b:
                out.append(n + " (lost)")
            elif a.read(n) != b.read(n):
                if n.endswith(".rels") and _relationships(a.read(n)) <= _relationships(b.read(n)):
                    continue
                out.append(n)
        return out


_REPORTED = ("old_term", "old_term_kept")


def reported_places(findings: list[dict]) -> int:
    """How many places the rename's findings report: an ``old_term_kept`` note stands for every
    place it lists (one note per reason), an ``old_term`` finding for its one place.

    >>> reported_places([{"kind": "old_term_kept", "places": [{}, {}, {}]}, {"kind": "old_term"}, {"kind": "x"}])
    4
    """
    return sum(max(1, len(f.get("places") or ())) for f in findings if f.get("kind") in _REPORTED)
_REF_KINDS = ("reference_to_deleted", "broken_reference", "missing_target", "stale_field", "broken_field")


def judge(cases: list[Case], *, timeout: int = 3000) -> None:
    """Probe every original and every written result in one LibreOffice; set each case's
    ``result["checks"]`` (name -> ``None`` when it holds, else why not) and ``result["ok"]``."""
    from tests.libreoffice import probe

    originals = sorted({c.path for c in cases})
    outputs = [c.result["output"] for c in cases if "output" in c.result]
    # Every view is read after LibreOffice updates the fields, as a reader sees it: LibreOffice
    # imports a caption's SEQ field with a tracked change in its cached result (as Word writes one)
    # as one string of both the deleted and the inserted digits ("Figure 21"), until it counts the
    # numbers itself. An original has no tracked change: its accepted view is its text.
    ops = ("accepted_updated", "rejected_updated")
    seen = {r["file"]: r for r in probe(originals + outputs, ops=ops, timeout=timeout)}
    for p in originals:
        seen[str(Path(p).resolve())]["paragraphs"] = seen[str(Path(p).resolve())].get("accepted_updated", [])
    dictionary = _dictionary()
    base_refs = {p: _refs(seen[str(Path(p).resolve())].get("paragraphs", [])) for p in originals}
    for c in cases:
        checks: dict[str, str | None] = {}
        if "error" in c.result:
            c.result.update(checks={"edit": c.result["error"]}, ok=False)
            continue
        orig = seen[str(Path(c.path).resolve())].get("paragraphs", [])
        got = seen.get(str(Path(c.result["output"]).resolve()), {})
        if "error" in got:
            c.result.update(checks={"libreoffice": got["error"]}, ok=False)
            continue
        accepted = got.get("accepted_updated", [])
        acc_text = [p["text"] for p in accepted]
        rejected = [p["text"] for p in got.get("rejected_updated", [])]
        want = [p["text"] for p in orig]
        if [t.rstrip() for t in rejected] != [t.rstrip() for t in want]:
            first = next((i for i, (a, b) in enumerate(zip(rejected, want)) if a.rstrip() != b.rstrip()),
                         min(len(rejected), len(want)))
            checks["reject"] = f"paragraph {first} differs ({len(rejected)} vs {len(want)} paragraphs)"
        else:
            checks["reject"] = None
        changed = _members(c.path, c.result["output"])
        checks["members"] = f"changed: {', '.join(changed[:4])}" if changed else None
        findings = c.result.get("findings", [])
        if c.kind.startswith("rename"):
            rx = old_forms(c.old, c.plural)
            left = [(i, m.group()) for i, t in enumerate(acc_text) for m in rx.finditer(t)
                    if not _CODE_STYLE.search(accepted[i].get("style") or "")]
            reported = reported_places(findings)
            c.result["left"] = len(left)
            c.result["reported"] = reported
            checks["terms"] = (f"{len(left)} form(s) left, {reported} reported: "
                               f"{', '.join(sorted({w for _i, w in left})[:4])}" if len(left) > reported else None)
        if c.kind.startswith(("delete", "move")):
            missing = _refs(accepted) - base_refs[c.path]
            reported = sum(1 for f in findings if f.get("kind") in _REF_KINDS)
            checks["refs"] = (f"{len(missing)} citation(s) of missing targets, {reported} reported: "
                              f"{', '.join(sorted(missing)[:4])}" if len(missing) > reported else None)
        if c.kind == "fix":
            damage = _fix_damage(orig, acc_text, dictionary)
            c.result["damage"] = damage[:10]
            checks["fix"] = "; ".join(damage[:3]) if damage else None
            if not c.result.get("operations"):
                checks["fix"] = checks["fix"] or None
        c.result["checks"] = checks
        c.result["ok"] = all(v is None for v in checks.values())


def rejudge_terms(cases: list[Case], *, timeout: int = 3000) -> None:
    """Judge the renames of earlier runs again (their written results, their reported counts)
    with the current :func:`old_forms`, in one LibreOffice."""
    from tests.libreoffice import probe

    renames = [c for c in cases if c.kind.startswith("rename") and "output" in c.result]
    if not renames:
        return
    seen = {r["file"]: r for r in probe([c.result["output"] for c in renames], ops=("accepted_updated",), timeout=timeout)}
    for c in renames:
        accepted = seen.get(str(Path(c.result["output"]).resolve()), {}).get("accepted_updated", [])
        rx = old_forms(c.old, c.plural)
        left = [m.group() for p in accepted if not _CODE_STYLE.search(p.get("style") or "") for m in rx.finditer(p["text"])]
        reported = int(c.result.get("reported", 0))
        checks = dict(c.result.get("checks", {}))
        checks["terms"] = (f"{len(left)} form(s) left, {reported} reported: {', '.join(sorted(set(left))[:4])}"
                           if len(left) > reported else None)
        c.result.update(checks=checks, left=len(left), ok=all(v is None for v in checks.values()))


def table(cases: list[Case]) -> str:
    """The Markdown table: one row per kind of edit, and the failing cases with why."""
    rows = ["| kind of edit | cases | pass | rate | reject-all = original | members intact | forms reported | references | fix harmless |",
            "|---|---|---|---|---|---|---|---|---|"]
    for kind in KINDS:
        cs = [c for c in cases if c.kind == kind]
        if not cs:
            continue
        ok = sum(1 for c in cs if c.result.get("ok"))

        def col(name: str) -> str:
            relevant = [c for c in cs if name in c.result.get("checks", {})]
            if not relevant:
                return "-"
            return f"{sum(1 for c in relevant if c.result['checks'][name] is None)}/{len(relevant)}"
        rows.append(f"| {kind} | {len(cs)} | {ok} | {100 * ok / len(cs):.0f}% | {col('reject')} | {col('members')} | "
                    f"{col('terms')} | {col('refs')} | {col('fix')} |")
    total = sum(1 for c in cases if c.result.get("ok"))
    rows.append(f"| **all** | {len(cases)} | {total} | {100 * total / max(1, len(cases)):.0f}% | | | | | |")
    fails = [c for c in cases if not c.result.get("ok")]
    if fails:
        rows.append("")
        rows.append("Failing cases:")
        rows.append("")
        for c in fails:
            why = "; ".join(f"{k}: {v}" for k, v in c.result.get("checks", {}).items() if v)
            rows.append(f"- `{c.name}` ({c.kind}): {why}")
    return "\n".join(rows) + "\n"


def _case_of(r: dict[str, Any]) -> Case:
    keys = ("kind", "path", "instruction", "old", "new", "plural")
    return Case(str(r["kind"]), str(r["path"]), str(r.get("instruction", "")), str(r.get("old", "")),
                str(r.get("new", "")), str(r.get("plural", "")), result={k: v for k, v in r.items() if k not in keys})


def _write_json(path: Path, cases: list[Case]) -> None:
    path.write_text(json.dumps([{"kind": c.kind, "path": c.path, "instruction": c.instruction, "old": c.old, "new": c.new,
                                 "plural": c.plural,
                                 **{k: v for k, v in c.result.items() if k != "findings"}} for c in cases], indent=1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--devset", default="../shared/devset", type=Path)
    ap.add_argument("--quick", action="store_true", help="a few cases on one standard")
    ap.add_argument("--out", type=Path, default=None, help="where the results are written (default: a temp dir)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--doc", type=Path, default=None, help="write the table into this Markdown file")
    ap.add_argument("--semantic", action="store_true", help="build the semantic graph stages too (slower)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many cases")
    ap.add_argument("--kinds", default="", help="only these kinds of edit (comma-separated)")
    ap.add_argument("--only", default="", help="only these standards or files (comma-separated: rfc9000,rfc8446.A.odt)")
    ap.add_argument("--rejudge-terms", action="store_true", help="with --from-json: judge the renames again")
    ap.add_argument("--from-json", type=Path, nargs="*", default=None,
                    help="no run: the table of earlier runs' JSON results (several runs' files are merged)")
    args = ap.parse_args(argv)
    if not (args.devset / "rfc").is_dir() and not list(args.devset.glob("*.A.docx")):
        print(f"no development set at {args.devset}", file=sys.stderr)
        return 2
    if args.from_json is not None:
        done = [_case_of(r) for f in args.from_json for r in json.loads(f.read_text())]
        if args.rejudge_terms:
            rejudge_terms(done)
            if args.json:
                _write_json(args.json, done)
        text = table(done)
        print(text)
        if args.doc:
            from benchmarks.doc_block import replace_block

            replace_block(args.doc, "edit-bench", f"`make bench-edits` ({len(done)} edits on the development standards, "
                          f"judged in LibreOffice):\n\n" + text, "Edits on real standards")
        return 0
    t0 = time.perf_counter()
    cases = make_cases(args.devset, quick=args.quick, only=[x for x in args.only.split(",") if x])
    if args.kinds:
        cases = [c for c in cases if c.kind in args.kinds.split(",")]
    if args.limit:
        cases = cases[:args.limit]
    out_dir = args.out or Path(tempfile.mkdtemp(prefix="ledger-edit-bench-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"{len(cases)} cases", flush=True)
    done = []
    for path in dict.fromkeys(c.path for c in cases):  # one standard at a time, judged as it is done
        group = [c for c in cases if c.path == path]
        for c in group:
            run_case(c, out_dir, semantic=args.semantic)
            print(f"[{len(done) + group.index(c) + 1}/{len(cases)}] {c.kind:16} {c.result.get('seconds', 0):6.1f}s "
                  f"{c.name[:100]}" + (f"  ERROR {c.result['error']}" if "error" in c.result else ""), flush=True)
        judge(group)
        done.extend(group)
        print(f"judged {Path(path).name}: {sum(1 for c in group if c.result.get('ok'))}/{len(group)} pass", flush=True)
        if args.json:
            _write_json(args.json, done)
    text = table(done)
    print(text)
    print(f"{len(done)} cases in {time.perf_counter() - t0:.0f} s; results in {out_dir}")
    if args.doc:
        from benchmarks.doc_block import replace_block

        cmd = "make bench-edits" if not args.quick else "python -m benchmarks.edit_bench --quick"
        replace_block(args.doc, "edit-bench", f"`{cmd}` ({len(cases)} edits on the development standards, "
                      f"judged in LibreOffice):\n\n" + text, "Edits on real standards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
