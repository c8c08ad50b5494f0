"""Text changes inside a unit as tracked revisions: offsets -> runs through the reader's text walk.

A change ``(start, end, text)`` on a unit's accepted text becomes a ``w:del`` around the runs
that show ``start..end`` (split out of their runs, formatting kept) and a ``w:ins`` with the new
text right after them, formatted like the first deleted run. Changes are applied from the last
to the first, walking the unit again after each one, so earlier offsets stay valid.

Rules: text already deleted by someone else is not in the accepted text and is never touched
(a span around it deletes only the visible text beside it: we skip that part, we do not
refuse); a deletion inside another author's insertion nests the ``w:del`` in their ``w:ins``
(as Word writes it); an insertion inside it splits their ``w:ins`` around ours (both halves
keep author and date); text the same author inserted earlier is changed in place, as Word does.
A change inside the cached result of a field whose result is a value (REF, PAGEREF, NOTEREF,
SEQ...) rewrites the whole field: the old one deleted, a copy with the new result inserted
(:mod:`.fieldedit`), which Word and LibreOffice both show as one change; all changes inside one
field make one rewrite. Otherwise a field's structure (``w:fldChar`` runs, instruction runs,
``w:fldSimple``) is never wrapped: a change of a text result (a HYPERLINK's) stays between
``separate`` and ``end``, and text typed next to a field goes outside it. Pure insertions take
the formatting of the run before them.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import AnchorError
from ..textdiff import Change
from .fieldedit import FieldRuns, rewrite_field, unit_fields
from .revision_xml import XML_SPACE, Stamp, clean_mark_rpr, escape_revision, isolate, make_ins, make_run, wrap_in_del
from .tags import AUTHOR, W_INS, W_MOVETO, W_P, W_PPR, W_R, W_RPR, WP_DOCPR
from .textmap import ACCEPTED, Segment, items_segments

__all__ = ["UnitTarget", "apply_changes", "replace_figure", "span_runs"]

#: White space that Word ignores at the edges of a ``w:t`` without ``xml:space="preserve"``.
_EDGE_WS = (" ", "\t", "\r", "\n")

#: Segment kinds that are a run child a deletion may wrap.
_RUN_KINDS = ("text", "tab", "break", "symbol", "hyphen", "note")


@dataclass(eq=False)  # identity semantics: holds lxml elements
class UnitTarget:
    """Where one unit lives, resolved once before the tree changes."""

    unit_id: str
    part: str
    path: str
    items: list[tuple[Any, int]]
    figure: Any = None
    blocks: list[Any] = field(default_factory=list)
    open_fields: tuple[str, ...] = ()

    def segments(self, context: Any) -> list[Segment]:
        return items_segments(self.items, self.figure, context, "accepted", self.open_fields)

    def text(self, context: Any) -> str:
        return "".join(s.text for s in self.segments(context))


def _positions(segs: list[Segment]) -> list[tuple[Segment, int, int, int]]:
    """``(segment, start, end, paragraph index)`` with offsets in the joined text."""
    out = []
    pos = 0
    para = 0
    for s in segs:
        end = pos + len(s.text)
        out.append((s, pos, end, para))
        if s.kind == "mark":
            para += 1
        pos = end
    return out


def _isolate_segment(s: Segment, lo: int, hi: int) -> Any:
    """The run holding exactly characters ``lo..hi`` of a segment (relative to the segment)."""
    try:
        if s.kind == "text":
            return isolate(s.el, s.offset + lo, s.offset + hi)
        return isolate(s.el)
    except ValueError:
        raise AnchorError(f"text at {s.text!r} sits in a structure the writer cannot split") from None


def _run_rpr(r) -> Any:
    rpr = r.find(W_RPR) if r is not None else None
    return clean_mark_rpr(rpr)


def _own_insertion(el, author: str) -> Any:
    """The enclosing ``w:ins``/``w:moveTo`` of ``el`` (within its paragraph) when ``author`` made it."""
    for anc in el.iterancestors():
        if anc.tag == W_P:
            return None
        if anc.tag in (W_INS, W_MOVETO):
            return anc if anc.get(AUTHOR) == author else None
    return None


def _delete(spans: list[tuple[Segment, int, int]]) -> list[Any]:
    """The runs that show ``spans``, each split out of its run, in document order."""
    for s, _lo, _hi in spans:
        if s.kind == "mark" and s.text:
            raise AnchorError("a text change cannot remove a paragraph break")
        if s.kind not in _RUN_KINDS and s.kind != "mark":
            raise AnchorError(f"the change would delete {s.kind} content ({s.text[:30]!r}), which is not written as a tracked change")
    runs = []
    for s, lo, hi in reversed([x for x in spans if x[0].kind != "mark"]):
        runs.append(_isolate_segment(s, lo, hi))
    runs.reverse()
    return runs


def _remove_run(r) -> None:
    parent = r.getparent()
    parent.remove(r)
    if parent.tag in (W_INS, W_MOVETO) and len(parent) == 0:
        parent.getparent().remove(parent)


def _insert_point(pos: list[tuple[Segment, int, int, int]], at: int, paragraphs: list[Any]) -> tuple[str, Any]:
    """Where pure inserted text goes: ``("after"|"before", run)`` or ``("end", w:p)``.

    The neighbour that is not a field's result wins, so that text typed next to a field never
    lands inside it; inside a result (both neighbours in it) it stays there.
    """
    inside = next((x for x in pos if x[1] < at < x[2] and x[0].kind == "text"), None)
    if inside is not None:  # inside one w:t: split it there
        s, start, _end, _p = inside
        return "after", _isolate_segment(s, 0, at - start)
    para = sum(1 for s, _a, b, _p in pos if s.kind == "mark" and (b < at or (b == at and s.text)))
    prev = next((x for x in reversed(pos) if x[2] == at and x[3] == para and x[0].kind != "mark" and x[0].text), None)
    nxt = next((x for x in pos if x[1] == at and x[3] == para and x[0].kind != "mark" and x[0].text), None)
    choice = None
    if prev is not None and not prev[0].in_field:
        choice = ("after", prev)
    elif nxt is not None and not nxt[0].in_field:
        choice = ("before", nxt)
    elif prev is not None:
        choice = ("after", prev)
    elif nxt is not None:
        choice = ("before", nxt)
    if choice is None:
        if para >= len(paragraphs):
            raise AnchorError("the insertion point is outside the unit")
        return "end", paragraphs[para]
    where, (s, _start, _end, _p) = choice
    if s.kind not in _RUN_KINDS:
        raise AnchorError(f"text cannot be placed next to {s.kind} content here")
    return where, _isolate_segment(s, 0, len(s.text))


def _place(ins, where: str, ref) -> None:
    if where == "after":
        ref.addnext(ins)
    elif where == "before":
        ref.addprevious(ins)
    else:
        ref.append(ins)


def _mark_rpr(p) -> Any:
    ppr = p.find(W_PPR)
    return clean_mark_rpr(ppr.find(W_RPR)) if ppr is not None else None


def apply_changes(target: UnitTarget, changes: list[tuple[Change, Stamp]], context: Any,
                  check: Callable[[], None] | None = None) -> None:
    """Write ``changes`` (offsets into the unit's accepted text, each with its stamp, in the
    model's order: two insertions at one point stand in the text in their order) as revisions.

    Text that the same author inserted earlier (still pending) is changed in place, as Word
    does when one edits one's own insertion: deleted text goes, new text joins the insertion.

    ``check`` is called before each change is written (a deadline may raise there).

    :raise AnchorError: a change would remove a paragraph break or math, or the text cannot
        be placed.
    """
    shown = [p for p, presence in target.items if presence & ACCEPTED]
    rewrites, plain = _field_rewrites(target, changes, context, shown)
    # from the last to the first; ``changes`` come in the model's order, so at one point the
    # later one is written first and an earlier insertion then lands before it
    work: list[tuple[int, int, int, Any]] = [(c[0][0], c[0][1], i, c) for i, c in plain]
    work += [(lo, hi, i, rw) for i, (lo, hi, rw) in enumerate(rewrites, len(changes))]
    # One walk serves every change that ends before what the changes written so far touched
    # (``low``): writing from the last to the first splits runs so that the text before the
    # split stays in the element and at the offsets the walk gave. A change that reaches ``low``
    # (adjacent to, or inside, one written) walks the unit again. 1,000 renames in one paragraph
    # walked it 1,000 times (quadratic); now once.
    pos = _positions(target.segments(context))
    low: int | None = None
    fresh = _offsets_stay([x[0] for x in pos])
    for lo, _end, _i, item in sorted(work, key=lambda w: (w[0], w[1], w[2]), reverse=True):
        if check is not None:  # the one place a long write may be stopped (a deadline)
            check()
        if isinstance(item, _Rewrite):
            item.write()
            low = lo if low is None else min(low, lo)
            continue
        (start, end, text), stamp = item
        if low is not None and (not fresh or end >= low):
            pos = _positions(target.segments(context))
        low = start if low is None else min(low, start)
        spans = [(s, max(start, a) - a, min(end, b) - a) for s, a, b, _p in pos if a < end and start < b]
        runs = _delete(spans) if end > start else []
        own = [r for r in runs if _own_insertion(r, stamp.author) is not None]
        theirs = [r for r in runs if _own_insertion(r, stamp.author) is None]
        rpr = _run_rpr(runs[0]) if runs else None
        wrap_in_del(theirs, stamp)
        if text:
            if runs:
                where, ref = "after", runs[-1] if runs[-1] in own else runs[-1].getparent()
            else:
                where, ref = _insert_point(pos, start, shown)
                rpr = _run_rpr(ref) if ref.tag == W_R else _mark_rpr(ref)
            joins = ref.tag == W_R and _own_insertion(ref, stamp.author) is not None
            new = make_run(text, rpr) if joins else make_ins(text, rpr, stamp)
            _place(new, where, ref)
            if not joins:
                escape_revision(new, stamp)
        for r in own:
            _remove_run(r)


def _offsets_stay(segs: list[Segment]) -> bool:
    """Whether one walk's offsets stay valid before each written change: not when a ``w:t``
    without ``xml:space="preserve"`` starts with white space (splitting it first drops that
    space, which moves every offset of the text left in it)."""
    return not any(s.kind == "text" and s.el.get(XML_SPACE) != "preserve" and (s.el.text or "")[:1] in _EDGE_WS
                   for s in segs)


@dataclass(eq=False)
class _Rewrite:
    """One field to write whole again: its new result and the stamp of the first change in it."""

    field: FieldRuns
    text: str
    stamp: Stamp

    def write(self) -> None:
        first = self.field.simple if self.field.simple is not None else self.field.runs[0]
        rewrite_field(self.field, self.text, self.stamp, _own_insertion(first, self.stamp.author) is not None)


def _field_of(segs: list[Segment], by_run: dict[int, FieldRuns]) -> FieldRuns | None:
    """The one value field whose result shows all of ``segs``, if there is one."""
    found = None
    for s in segs:
        if s.kind not in _RUN_KINDS:
            return None
        f = by_run.get(id(s.el.getparent()))
        if f is None or (found is not None and f is not found):
            return None
        found = f
    return found


def _field_rewrites(target: UnitTarget, changes: list[tuple[Change, Stamp]], context: Any, shown: list[Any],
                    ) -> tuple[list[tuple[int, int, _Rewrite]], list[tuple[int, tuple[Change, Stamp]]]]:
    """Split ``changes`` into whole-field rewrites (``(start, end, rewrite)`` over each field's
    result) and the changes written in place (``(index, change)``)."""
    by_run = {id(r): f for f in unit_fields(shown) if f.value_result for r in f.result}
    plain = list(enumerate(changes))
    if not by_run:
        return [], plain
    pos = [x for x in _positions(target.segments(context)) if x[0].text]
    text = "".join(x[0].text for x in pos)
    grouped: dict[int, tuple[FieldRuns, list[tuple[int, tuple[Change, Stamp]]]]] = {}
    rest = []
    for i, ((start, end, new), stamp) in plain:
        if end > start:
            segs = [s for s, a, b, _p in pos if a < end and start < b]
        else:
            inside = [s for s, a, b, _p in pos if a < start < b]
            around = [s for s, a, b, _p in pos if b == start][-1:] + [s for s, a, b, _p in pos if a == start][:1]
            segs = inside or (around if len(around) == 2 else [])
        f = _field_of(segs, by_run) if segs else None
        if f is None:
            rest.append((i, ((start, end, new), stamp)))
        else:
            grouped.setdefault(id(f), (f, []))[1].append((i, ((start, end, new), stamp)))
    rewrites = []
    for f, members in grouped.values():
        mine = {id(r) for r in f.result}
        span = [(a, b) for s, a, b, _p in pos if id(s.el.getparent()) in mine]
        lo, hi = min(a for a, _b in span), max(b for _a, b in span)
        result = text[lo:hi]
        for _i, ((start, end, new), _stamp) in sorted(members, key=lambda m: (m[1][0][0], m[1][0][1], m[0]), reverse=True):
            result = result[: start - lo] + new + result[end - lo :]
        if result != text[lo:hi]:
            rewrites.append((lo, hi, _Rewrite(f, result, members[0][1][1])))
    return rewrites, rest


def replace_figure(target: UnitTarget, new_alt: str, stamp: Stamp, next_docpr: list[int]) -> None:
    """A figure whose alt text changes: its run deleted and a copy with the new alt text inserted.

    WordprocessingML has no revision for an attribute such as ``wp:docPr/@descr``; Word records
    a changed picture as the old one deleted and the new one inserted, which reviewers accept
    or reject like any other change. The copy gets fresh drawing ids.
    """
    run = next(target.figure.iterancestors(W_R), None)
    segs = target.segments(None)
    if run is None or not segs:
        raise AnchorError("the figure's alt text is held where the writer cannot change it")
    alt_el = segs[0].el
    attr = next((a for a in ("descr", "title", "alt") if alt_el.get(a)), None)
    if attr is None:
        raise AnchorError("the figure's alt text is held where the writer cannot change it")
    new_run = copy.deepcopy(run)
    path = [e for e in run.iter()]
    copied = dict(zip(map(id, path), new_run.iter()))
    copied[id(alt_el)].set(attr, new_alt)
    for pr in new_run.iter(WP_DOCPR):
        pr.set("id", str(next_docpr[0]))
        next_docpr[0] += 1
    wrapper = wrap_in_del([run], stamp)[0]
    ins = stamp.element(W_INS)
    ins.append(new_run)
    wrapper.addnext(ins)
    escape_revision(ins, stamp)


def span_runs(target: UnitTarget, context: Any, start: int, end: int) -> tuple[Any, Any] | None:
    """The first and last run that show ``start..end`` of the unit's accepted text, each split
    out of its run (where a comment on that text is anchored); None when nothing there is a run."""

    def pieces() -> list[tuple[Segment, int, int]]:
        pos = _positions(target.segments(context))
        return [(s, max(start, a) - a, min(end, b) - a) for s, a, b, _p in pos
                if a < end and start < b and s.kind in _RUN_KINDS and s.text]

    found = pieces()
    if not found:
        return None
    last = _isolate_segment(*found[-1])
    first = _isolate_segment(*pieces()[0])
    return first, last
