"""A field whose cached result changes, as a tracked change: the whole field deleted, a new one inserted.

A change written *inside* a field's result (``w:del``/``w:ins`` between ``separate`` and
``end``) is what Word writes when it updates a field with tracking on, but LibreOffice imports a
REF, PAGEREF, SEQ or DOCPROPERTY field as one atomic text field: it joins both texts into the
field's result ("3.27.123.27.11"), lists no change, and Accept All or Reject All cannot undo
it. ECMA-376 Part 1 has a form both read as one change: the old field wholly inside ``w:del``,
its instruction in ``w:delInstrText`` (§17.16.8, §17.13.5.14), then a new field with the same
instruction (bookmark and switches kept) and the new cached result inside ``w:ins``. Word shows
the old result struck through and the new one inserted; LibreOffice lists a deletion and an
insertion; accept-all keeps the new field, reject-all the old one.

A ``w:fldSimple`` cannot stand in ``w:del`` (CT_RunTrackChange holds runs), so its old and new
forms are written as complex fields with the same instruction and runs.

Only fields whose result is a value are written this way; a field whose result is document
text that LibreOffice imports as text (``HYPERLINK``, ``TOC``, an index) keeps word-level changes
inside its result. Element helpers only: runs, ``w:fldChar``, ``w:fldSimple``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .fields import parse_instruction
from .oxml import qn
from .revision_xml import Stamp, clean_mark_rpr, escape_revision, make_run, wrap_in_del
from .tags import FLDCHARTYPE, INSTR, W_FLDCHAR, W_FLDSIMPLE, W_INS, W_INSTRTEXT, W_R, W_RPR, XML_SPACE

__all__ = ["FieldRuns", "field_runs", "unit_fields", "rewrite_field", "TEXT_RESULT_FIELDS"]

#: Fields whose result is document text, which LibreOffice imports as text: a change stays inside.
TEXT_RESULT_FIELDS = frozenset({"HYPERLINK", "TOC", "TOA", "INDEX", "BIBLIOGRAPHY", "RD", "TA", "TC", "XE"})

#: Markers that may stand between a field's runs (they stay where they are).
_MARKERS = frozenset(
    qn("w:" + t)
    for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "proofErr", "permStart", "permEnd")
)


@dataclass(eq=False)  # identity semantics: holds lxml elements
class FieldRuns:
    """One field as elements: a complex field's runs from ``begin`` to ``end`` (``runs``, with
    ``result`` the runs between ``separate`` and ``end``), or a ``w:fldSimple`` (``simple``)."""

    code: str
    runs: list[Any] = field(default_factory=list)
    result: list[Any] = field(default_factory=list)
    simple: Any = None

    @property
    def name(self) -> str:
        return parse_instruction(self.code).name

    @property
    def value_result(self) -> bool:
        """Whether the result is a value (a number, a date), not text of the document."""
        return self.name not in TEXT_RESULT_FIELDS


def _only(r, tag: str) -> Any:
    """The run's one content child when it is ``tag`` (a structure run), else None."""
    kids = [c for c in r if c.tag != W_RPR]
    return kids[0] if len(kids) == 1 and kids[0].tag == tag else None


def field_runs(el) -> FieldRuns | None:
    """The field that a ``w:fldChar`` begin or a ``w:fldSimple`` starts, when it can be replaced whole.

    None when the field is not one stretch of sibling runs (it spans paragraphs or wrappers,
    another revision stands inside it), its structure runs hold other content, or its result
    holds a field of its own.
    """
    if el.tag == W_FLDSIMPLE:
        kids = [c for c in el if isinstance(c.tag, str)]
        if any(c.tag not in (W_R, *_MARKERS) for c in kids) or any(c.find(W_FLDCHAR) is not None for c in kids if c.tag == W_R):
            return None
        return FieldRuns(el.get(INSTR) or "", [c for c in kids if c.tag == W_R], [c for c in kids if c.tag == W_R], el)
    begin = el.getparent()
    if begin is None or begin.tag != W_R or _only(begin, W_FLDCHAR) is not el or el.get(FLDCHARTYPE) != "begin":
        return None
    runs: list[Any] = []
    result: list[Any] = []
    code: list[str] = []
    depth = 0
    in_result = False
    node: Any = begin
    while node is not None:
        if not isinstance(node.tag, str) or node.tag in _MARKERS:
            node = node.getnext()
            continue
        if node.tag != W_R:
            return None
        chars = [c for c in node if c.tag == W_FLDCHAR]
        if chars:
            if len(chars) != 1 or _only(node, W_FLDCHAR) is None:
                return None
            kind = chars[0].get(FLDCHARTYPE)
            if kind == "begin":
                if in_result:
                    return None  # a field inside the result
                depth += 1
            elif kind == "separate" and depth == 1:
                in_result = True
            elif kind == "end":
                depth -= 1
            runs.append(node)
            if depth == 0:
                return FieldRuns("".join(code).strip(), runs, result)
        else:
            runs.append(node)
            if in_result:
                result.append(node)
            elif depth == 1:
                code.extend(t.text or "" for t in node.iter(W_INSTRTEXT))
        node = node.getnext()
    return None  # no end among the siblings


def unit_fields(paragraphs: list[Any]) -> list[FieldRuns]:
    """Every whole-replaceable field that begins in these ``w:p`` elements."""
    out = []
    for p in paragraphs:
        for el in p.iter(W_FLDCHAR, W_FLDSIMPLE):
            if el.tag == W_FLDCHAR and el.get(FLDCHARTYPE) != "begin":
                continue
            found = field_runs(el)
            if found is not None:
                out.append(found)
    return out


def _structure_run(kind: str, rpr) -> Any:
    r = etree.Element(W_R)
    if rpr is not None:
        r.append(copy.deepcopy(rpr))
    ch = etree.SubElement(r, W_FLDCHAR)
    ch.set(FLDCHARTYPE, kind)
    return r


def _instr_run(code: str, rpr) -> Any:
    r = etree.Element(W_R)
    if rpr is not None:
        r.append(copy.deepcopy(rpr))
    t = etree.SubElement(r, W_INSTRTEXT)
    t.set(XML_SPACE, "preserve")
    t.text = f" {code.strip()} "
    return r


def _result_rpr(f: FieldRuns) -> Any:
    for r in f.result or f.runs:
        rpr = r.find(W_RPR)
        if rpr is not None:
            return clean_mark_rpr(rpr)
    return None


def rewrite_field(f: FieldRuns, new_result: str, stamp: Stamp, own: bool = False) -> None:
    """The field deleted whole and a copy showing ``new_result`` inserted after it.

    ``own``: the field lies in a pending insertion of the same author, whose result is changed
    in place (as Word does when one edits one's own insertion).
    """
    rpr = _result_rpr(f)
    new_run = make_run(new_result, rpr) if new_result else None
    if own:
        for r in f.result:
            r.getparent().remove(r)
        if new_run is not None:
            if f.simple is not None:
                f.simple.append(new_run)
            else:
                f.runs[-(len(f.result) + 2)].addnext(new_run)  # after the separate run
        return
    if f.simple is not None:
        holder = f.simple
        kids = [c for c in holder if isinstance(c.tag, str)]  # runs and markers, in order
        moved = [_structure_run("begin", rpr), _instr_run(f.code, rpr), _structure_run("separate", rpr), *kids,
                 _structure_run("end", rpr)]
        for el in moved:
            holder.addprevious(el)
        holder.getparent().remove(holder)
        old = [el for el in moved if el.tag == W_R]
        new = [_structure_run("begin", rpr), _instr_run(f.code, rpr), _structure_run("separate", rpr)]
        new += [new_run] if new_run is not None else []
        new.append(_structure_run("end", rpr))
    else:
        old = f.runs
        head = [copy.deepcopy(r) for r in f.runs[: f.runs.index(f.result[0])]] if f.result else \
            [copy.deepcopy(r) for r in f.runs[:-1]]
        new = head + ([new_run] if new_run is not None else []) + [copy.deepcopy(f.runs[-1])]
    wrappers = wrap_in_del(old, stamp)
    ins = stamp.element(W_INS)
    for r in new:
        ins.append(r)
    wrappers[-1].addnext(ins)
    escape_revision(ins, stamp)
