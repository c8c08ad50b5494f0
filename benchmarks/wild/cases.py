"""The wild battery's edits and how they run: renames (of a term the document also writes inside its
identifiers, and of its defined terms), the deletion of a section, the insertion of a section
before an early numbered one, ``--fix`` of each check kind and ``--fix all``, and the MQTT-SN
editors' changes replayed from one snapshot to the next.

Cases are chosen from what the documents hold (LibreOffice's headings, the identifiers of
:mod:`.identifiers`, the defined terms the edit battery picks), never written for one file. Each
runs through the service functions the command line calls (``edit_file``, ``fix_file``; a replay
through ``plan_operations`` and ``write_operations``, as ``POST /apply`` with a client's
operations), in this process.
"""
from __future__ import annotations

import copy
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from benchmarks.edit_bench import _new_term, _terms

from .headings import lo_headings
from .identifiers import identifiers

__all__ = ["WildCase", "rename_inside_identifiers", "make_cases", "run_case", "NUMBER"]

#: A number as a renumbering writes it: "4.1", "§ 3.2", "Section 5", "Appendix B", "Figure 2-3".
NUMBER = re.compile(r"^\s*(?:§\s*)?(?:(?:Section|Appendix|Annex|Clause|Figure|Table)\s+)?"
                    r"(?:[A-Z]|\d+)(?:[.\-]\d+)*\.?\s*$")


@dataclass
class WildCase:
    """One edit of the battery: ``kind``, the file, the instruction (for ``fix``: the finding kind;
    for ``replay``: the newer snapshot), a rename's terms, and what came of it (``result``)."""

    kind: str
    path: str
    instruction: str = ""
    old: str = ""
    new: str = ""
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{Path(self.path).name}: {self.instruction if self.kind != 'replay' else 'replay to ' + Path(self.instruction).name}"


_ARTICLES = frozenset({"the", "a", "an", "this", "that", "these", "those", "each", "any", "all", "some"})
_STOP = frozenset("this that with from have will been which their there these those when where shall must "
                  "then than also each such into only other more most same some used uses using".split())


def _parts(token: str) -> list[str]:
    """The words of an identifier: ``physicalLocation`` -> physical, location; ``created_by_ref``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", token)
    return [w.lower() for w in re.split(r"[^A-Za-z]+", spaced) if w]


def rename_inside_identifiers(paragraphs: Sequence[dict], code: Sequence[Sequence[int]], min_prose: int = 3) -> str | None:
    """A term the prose uses at least ``min_prose`` times that is also part of an identifier
    ("file entry" of ``manifest:file-entry``, "physical location" of ``physicalLocation``): two
    words where there is one such, else one word; the most used first.

    >>> paras = [{"text": "The physical location is set; a physical location, the physical location."},
    ...          {"text": "See physicalLocation and region.startLine."}]
    >>> rename_inside_identifiers(paras, [])
    'physical location'
    """
    spans: dict[int, list[tuple[int, int]]] = {}
    for i, s, e in code:
        spans.setdefault(i, []).append((s, e))
    inside: Counter = Counter()
    prose: list[str] = []
    for i, p in enumerate(paragraphs):
        if p.get("toc"):
            continue
        text = p["text"]
        for tok in identifiers(text, spans.get(i, ())):
            parts = _parts(tok)
            for k in range(len(parts)):
                inside[parts[k]] += 1
                if k + 1 < len(parts):
                    inside[f"{parts[k]} {parts[k + 1]}"] += 1
        cut = text
        for s, e in sorted(spans.get(i, ()), reverse=True):
            cut = cut[:s] + " " + cut[e:]
        prose.append(cut)
    body = "\n".join(prose)
    best: list[tuple[int, int, str]] = []
    for term in inside:
        words = term.split()
        if any(len(w) < 4 or w in _STOP for w in words):
            continue
        n = len(re.findall(r"(?<![\w\-])" + re.escape(term) + r"s?(?![\w\-])", body))
        if n >= min_prose:
            best.append((len(words), n, term))
    if not best:
        return None
    best.sort(reverse=True)
    return best[0][2]


_TAILS = ("marker", "tally", "token", "record", "entry")


def _new_name(term: str, text: str) -> str:
    """A new name for ``term`` that the document does not use: the edit battery's for a phrase,
    a word of its own for one word ("suppression" -> "marker")."""
    if " " in term:
        return _new_term(term, text)
    low = text.lower()
    return next((t for t in _TAILS if not re.search(rf"\b{t}", low)), term + "x")


def _phrases(text: str, n: int) -> list[str]:
    """Two-word lower-case phrases the text repeats (five times or more), most used first; for a
    document that defines no terms."""
    seen = Counter(m.group(0) for m in re.finditer(r"(?<![\w\-])[a-z]{4,} [a-z]{4,}(?![\w\-])", text))
    return [t for t, c in seen.most_common() if c >= 5 and not set(t.split()) & _STOP][:n]


def _section_ref(h: dict) -> str:
    num = h["number"]
    if num and re.fullmatch(r"[A-Z]", num):
        return f"Appendix {num}"
    if num:
        return f"Section {num}"
    return f"the section titled '{h['text'].strip()}'"


def make_cases(path: str, doc: Any, lo: dict, *, fixes: str = "each", newer: str | None = None) -> list[WildCase]:
    """The cases for one file, from its units ``doc`` and LibreOffice's view of it ``lo``
    (``paragraphs`` with ``code``: :mod:`.uno_wild`'s ``code`` op); ``fixes``: ``each`` kind and
    ``all``, or ``all`` alone; ``newer``: the next snapshot, whose changes are replayed."""
    paras, code = lo.get("code_paragraphs") or lo.get("paragraphs") or [], lo.get("code") or []
    text = "\n".join(u.text for u in doc.units if u.text)
    out: list[WildCase] = []
    term = rename_inside_identifiers(paras, code)
    if term:
        new = _new_name(term, text)
        out.append(WildCase("rename_identifier", path, f'Rename "{term}" to "{new}" everywhere', term, new))
    defined = [t for t in _terms(doc, text, 3) if t.split()[0] not in _ARTICLES][:2] or _phrases(text, 1)
    for t in defined:
        if t != term:
            new = _new_name(t, text)
            out.append(WildCase("rename_term", path, f'Rename "{t}" to "{new}" everywhere', t, new))
    heads = [h for h in lo_headings(paras) if not re.match(r"(?i)appendix|annex", h["text"])]
    top = [h for h in heads if h["level"] == 1]
    second = [h for h in heads if h["level"] == 2]
    if second:
        out.append(WildCase("delete_section", path, f"Delete {_section_ref(second[len(second) // 2])}"))
    if len(top) >= 2:
        early = top[1]
        out.append(WildCase("insert_section", path, f"Add a section before {_section_ref(early)}: Scope of this edition"))
    from addin_backend.checks.document import check_document

    kinds = sorted({f.kind for f in check_document(doc) if f.fixable})
    out.extend(WildCase("fix", path, k) for k in (kinds if fixes == "each" else []) + (["all"] if kinds else []))
    if newer:
        out.append(WildCase("replay", path, newer))
    return out


def _table_ordinal(path: str, doc: Any, unit: str) -> int | None:
    """The ordinal of the top-level body table that ``unit`` holds (the package's own count)."""
    from .links import extract
    from .references import align_links

    links = extract(path)
    al = align_links(doc.units, links)
    return next((p.table for p in links.paragraphs if p.table is not None and al.unit(p.index) == unit), None)


def _number_change(op: dict) -> bool:
    return op.get("op") == "replace" and bool(NUMBER.match(op.get("old") or "")) and bool(NUMBER.match(op.get("text") or "")) \
        and (op.get("old") or "").strip() != (op.get("text") or "").strip()


def run_case(case: WildCase, doc: Any, out_dir: Path, index: int) -> None:
    """Run ``case`` on ``doc`` (the file read once; a copy is edited) and write its output."""
    from addin_backend.service import graphs
    from addin_backend.service.edits import plan_operations, proposal_view, write_operations
    from addin_backend.service.edits import edit_file
    from addin_backend.service.fixes import fix_file

    doc = copy.deepcopy(doc)
    out = out_dir / f"case{index:03d}{Path(case.path).suffix}"
    t0 = time.perf_counter()
    try:
        if case.kind == "fix":
            report = fix_file(case.path, doc, kinds=case.instruction, output=str(out))
        elif case.kind == "replay":
            from adapters import read_path

            from .replay import replay_operations

            newer = read_path(case.instruction)
            rp = replay_operations(doc, newer)
            for t in rp.tables:  # the tables as LibreOffice counts them (top-level body tables, in order)
                t["old_table"], t["new_table"] = _table_ordinal(case.path, doc, t["old"]), _table_ordinal(case.instruction, newer, t["new"])
            G = graphs.build(doc, graphs.scope_for(False))
            plan = plan_operations(doc, G, rp.operations, instruction=f"the editors' changes up to {Path(case.instruction).name}",
                                   author="Editors", semantic=False)
            view = proposal_view(doc, plan, pid=None, doc_id=None, author="Editors", complete=True)
            with open(case.path, "rb") as fh:
                written = write_operations(fh.read(), doc, G, view["operations"], author="Editors", default_source="client",
                                           semantic=False, instruction=view["instruction"], known=plan.findings)
            out.write_bytes(written.data)
            prop = {e.id for e in plan.propagated}
            report = {"operations": [e.to_json() for e in written.operations if e.id not in prop],
                      "propagated": [e.to_json() for e in written.operations if e.id in prop],
                      "findings": [f.to_json() for f in written.findings]}
            case.result["replay"] = {"operations": len(rp.operations), "tables": rp.tables, "left_out": rp.left_out,
                                     "written": rp.written}
        else:
            report = edit_file(case.path, doc, instruction=case.instruction, output=str(out), semantic=False)
        ops, prop = report.get("operations", []), report.get("propagated", [])
        case.result.update({
            "output": str(out), "operations": len(ops) + len(prop), "propagated": len(prop),
            "propagated_units": sorted({o.get("unit") for o in prop if o.get("unit")}),
            "renumbered": [{"old": o.get("old"), "new": o.get("text"), "unit": o.get("unit")}
                           for o in ops + prop if _number_change(o)],
            "findings": report.get("findings", []),
        })
    except Exception as exc:  # a refused edit is a failure of the battery, with its reason
        case.result["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
    finally:
        case.result["seconds"] = round(time.perf_counter() - t0, 2)
