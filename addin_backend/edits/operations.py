"""Edit operations: checked against a document, applied to the neutral model, expanded, serialised.

Every engine produces :class:`adapters.model.Edit` objects. :func:`validate_edits` turns what an
engine (or the task pane) proposes into *concrete* edits that writers can apply without thinking:
renames are expanded into one ``replace`` per occurrence, ``before``/``date``/``kind``/``style`` are
filled in, and placements mean "directly after this unit in document order". What it returns is
:class:`Checked`: edits validated for that document, which no later step validates again (an
edit is validated once, from the engine to the writer); :func:`validate_more` adds edits made
later (propagation's) to them, and :func:`apply_more` their text to the document already applied.

- ``insert_after`` puts the new unit right after ``unit``; several inserts with the same anchor
  keep their list order (the second lands after the first);
- ``move`` carries the unit *with its descendants* (a section moves with its content); a move
  ``after`` a section is normalised to after that section's last descendant;
- ``delete`` removes one unit; engines list every descendant they mean to delete.
"""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace as dc_replace
from typing import Any, Callable, Iterable

from adapters.errors import InvalidEditError
from adapters.model import (
    ConcreteEdit, Document, Edit, IdMaker, Rename, Replace, SetText, Unit, descendant_ids, edit_from_json,
)
from addin_backend.errors import EditConflictError, InvalidRequestError

from .specs import EDIT_SCHEMA, INSERTABLE_KINDS, RESPONSE_SCHEMA, edit_from_spec, get_unit, now_iso
from .renaming import TermPlace, term_places
from .terms import check_term
from .tree import is_note, section_level

__all__ = [
    "Checked",
    "EDIT_SCHEMA",
    "INSERTABLE_KINDS",
    "RESPONSE_SCHEMA",
    "apply_to_document",
    "apply_more",
    "edit_from_spec",
    "edits_from_json",
    "edits_to_json",
    "expand_rename",
    "now_iso",
    "with_ids",
    "scope_ids",
    "validate_edits",
    "validate_more",
]


#: What places an edit in a document; :meth:`Checked.map` keeps it.
def _place(e: Edit) -> tuple[Any, ...]:
    return (e.op, e.unit, getattr(e, "start", None), getattr(e, "end", None), getattr(e, "after", None),
            getattr(e, "before_unit", None), e.before)


class Checked(list[Edit]):
    """Edits validated for one document by :func:`validate_edits`: concrete (renames expanded,
    ``before``, ``kind`` and ``style`` filled in) and consistent with each other.

    Validating or applying them again for the same document checks nothing twice, so a plan
    carries them from the engine to the writer validated once. Anything that makes a new list
    of them (a slice, ``+``) is a plain list again and is validated again; a change that keeps
    every edit where it is (its id, source, author, date, reason, the quotation marks of its
    text) goes through :meth:`map`.
    """

    def __init__(self, doc: Document, edits: Iterable[Edit] = ()) -> None:
        super().__init__(edits)
        self.doc = doc

    def map(self, change: Callable[[Edit], Edit]) -> "Checked":
        """``change`` applied to every edit, still checked for the same document.

        :raise ValueError: ``change`` moved an edit (its op, unit, span, destination or ``before``).
        """
        out = [change(e) for e in self]
        moved = next((e for e, c in zip(self, out) if _place(e) != _place(c)), None)
        if moved is not None:
            raise ValueError(f"a change of checked edits moved one ({moved.op} of {moved.unit}): validate it again")
        return Checked(self.doc, out)

    def stamped(self, **values: Any) -> "Checked":
        """Every edit with ``values`` (``author``, ``date``, ``source``, ...) set."""
        return self.map(lambda e: dc_replace(e, **values))


def _checked_for(doc: Document, edits: Iterable[Edit]) -> Checked | None:
    return edits if isinstance(edits, Checked) and edits.doc is doc else None


def edits_to_json(edits: Iterable[Edit]) -> list[dict[str, Any]]:
    """Edits as a JSON-ready list (``None`` and empty fields left out)."""
    return [e.to_json() for e in edits]


def edits_from_json(data: Any) -> list[Edit]:
    """Edits from JSON: a list of edit objects or ``{"edits": [...]}``; each one validated.

    :raise InvalidRequestError: naming the first edit that is malformed.
    """
    if isinstance(data, dict) and "edits" in data:
        data = data["edits"]
    if not isinstance(data, list):
        raise InvalidRequestError("edits must be a JSON list of edit objects")
    out = []
    for i, item in enumerate(data):
        try:
            out.append(edit_from_json(item))
        except InvalidEditError as exc:
            raise InvalidRequestError(f"edit {i + 1}: {exc}", edit=i) from exc
    return out


def scope_ids(doc: Document, scope: str | Iterable[str] | None) -> set[str] | None:
    """The ids of the scope units and all their descendants (``None``: the whole document)."""
    if scope is None:
        return None
    roots = [scope] if isinstance(scope, str) else list(scope)
    out: set[str] = set()
    for rid in roots:
        get_unit(doc, rid, "scope")
        out |= descendant_ids(doc.units, rid)
    return out


def _with_inline(units: list[Unit], ids: set[str]) -> set[str]:
    """``ids`` and the pictures standing among the words of their paragraphs (``meta["inline_in"]``,
    set by the readers): a writer places and moves a paragraph with them, so the model does too.

    >>> us = [Unit("p", "paragraph", "Here is one that links.", 0),
    ...       Unit("f", "figure", "A heart", 1, meta={"inline_in": "p"})]
    >>> sorted(_with_inline(us, {"p"}))
    ['f', 'p']
    """
    return ids | {u.id for u in units if u.meta.get("inline_in") in ids}


def _in_field(unit: Unit, start: int, end: int) -> bool:
    """True when a span touches the shown result of a field that the application regenerates."""
    for f in unit.fields:
        if f.kind != "hyperlink" and f.end > f.start and start < f.end and f.start < end:
            return True
    return False


def expand_rename(
    doc: Document,
    old: str,
    new: str,
    scope: str | Iterable[str] | None = None,
    *,
    author: str = "LEDGER",
    date: str | None = None,
    reason: str = "",
    source: str | None = None,
    names: str = "auto",
    kept: list[TermPlace] | None = None,
    renamed: list[TermPlace] | None = None,
) -> list[Replace]:
    """One ``replace`` edit per occurrence of a term, in every unit (captions, cells, notes too).

    Every form follows the term (plural, possessive, case, hyphenated: see
    :class:`terms.TermMatcher`); partial words never match; the span of each edit is the
    occurrence itself. Text shown by a regenerated field (a cross-reference, a caption number)
    is left to the field. Code lines, quotations, closed compounds and (by ``names``, see
    :mod:`.renaming`) names of their own are kept: each is appended to ``kept`` with why. The
    places renamed inside identifiers (``names="rename"``: "including names") go to ``renamed``.
    """
    if not old or not old.strip():
        raise InvalidRequestError("a rename needs the term to rename")
    if new is None:
        raise InvalidRequestError("a rename needs the new term")
    check_term(old.strip(), "the term to rename")
    check_term(new.strip(), "the new term")
    ids = scope_ids(doc, scope)
    date = date or now_iso()
    reason = reason or f"rename '{old.strip()}' to '{new.strip()}'"
    out: list[Replace] = []
    for place in term_places(doc, old, new, units=ids, names=names):
        unit, o = place.unit, place.occ
        if _in_field(unit, o.start, o.end):
            continue
        if place.kept is not None:
            if kept is not None:
                kept.append(place)
            continue
        if place.identifier is not None and renamed is not None:
            renamed.append(place)
        out.append(
            Replace(
                unit=unit.id, start=o.start, end=o.end, text=o.replacement, old=o.text,
                author=author, date=date, reason=reason, before=unit.text, source=source,
            )
        )
    return out


# --- validation -----------------------------------------------------------------------------


def _typical_style(doc: Document, kind: str) -> str | None:
    styles = Counter(u.style for u in doc.units if u.kind == kind and u.style)
    return styles.most_common(1)[0][0] if styles else None


def _check_style(doc: Document, kind: str, style: str | None, where: str) -> None:
    if not style:
        return
    kinds = {u.kind for u in doc.units if u.style == style}
    if kinds and kind not in kinds:
        raise InvalidRequestError(
            f"{where}: style {style!r} belongs to {', '.join(sorted(kinds))} units, not to a new {kind}"
        )


def _check_one(doc: Document, e: ConcreteEdit, where: str) -> ConcreteEdit:
    unit = get_unit(doc, e.unit)
    if e.before is not None and e.before != unit.text:
        raise EditConflictError(
            f"{where}: unit {unit.id} has changed since the edit was made",
            unit=unit.id, expected=e.before, actual=unit.text,
        )
    if unit.meta.get("absent_in") == "accepted":
        raise InvalidRequestError(f"{where}: unit {unit.id} is deleted (a pending tracked deletion)")
    before = unit.text
    e = dc_replace(e, before=before, date=e.date or now_iso())
    if e.op == "replace":
        if e.end > len(before):
            raise InvalidRequestError(
                f"{where}: span {e.start}..{e.end} runs past the text of unit {unit.id} ({len(before)} characters)"
            )
        if "\n" in before[e.start : e.end] or "\n" in e.text:
            raise InvalidRequestError(f"{where}: a replace stays inside one paragraph (no line breaks)")
    elif e.op == "set_text":
        if e.text.count("\n") != before.count("\n"):
            raise InvalidRequestError(
                f"{where}: set_text must keep the {before.count(chr(10)) + 1} paragraph(s) of unit {unit.id}"
            )
    elif e.op == "insert_after":
        if is_note(unit):
            raise InvalidRequestError(f"{where}: cannot insert a unit after a {unit.kind}")
        if not e.text.strip() or "\n" in e.text:
            raise InvalidRequestError(f"{where}: an inserted unit needs one line of non-empty text")
        kind = e.kind or (unit.kind if unit.kind in INSERTABLE_KINDS else "paragraph")
        if kind not in INSERTABLE_KINDS:
            raise InvalidRequestError(
                f"{where}: cannot insert a {kind} from text; insertable kinds: {', '.join(INSERTABLE_KINDS)}"
            )
        style = e.style if e.style else (unit.style if unit.kind == kind else _typical_style(doc, kind))
        _check_style(doc, kind, style, where)
        anchor = unit
        if kind == "section":  # a new heading must not adopt the anchor section's content
            ids = descendant_ids(doc.units, unit.id)
            anchor = [u for u in doc.units if u.id in ids and not is_note(u)][-1]
        e = dc_replace(e, kind=kind, style=style, unit=anchor.id, before=anchor.text)
    elif e.op == "move":
        if e.after and e.before_unit:
            raise InvalidRequestError(f"{where}: a move gives after or before_unit, not both")
        target = get_unit(doc, e.after or e.before_unit, "move target")
        moving = descendant_ids(doc.units, unit.id)
        if target.id in moving:
            raise InvalidRequestError(f"{where}: cannot move unit {unit.id} into itself or its descendants")
        if is_note(unit) or is_note(target):
            raise InvalidRequestError(f"{where}: notes cannot be moved")
        if e.after:
            ids = descendant_ids(doc.units, target.id) - moving
            last = [u for u in doc.units if u.id in ids and not is_note(u)][-1]
            e = dc_replace(e, after=last.id)
    return e


def _check_together(edits: list[Edit]) -> None:
    deleted: set[str] = set()
    moved: set[str] = set()
    whole: set[str] = set()
    spans: dict[str, list[tuple[int, int]]] = {}
    for e in edits:
        if e.op == "delete":
            if e.unit in deleted:
                raise InvalidRequestError(f"unit {e.unit} is deleted twice")
            deleted.add(e.unit)
        elif e.op == "move":
            if e.unit in moved:
                raise InvalidRequestError(f"unit {e.unit} is moved twice")
            moved.add(e.unit)
        elif e.op == "set_text":
            if e.unit in whole or e.unit in spans:
                raise InvalidRequestError(f"unit {e.unit} gets set_text together with other text edits")
            whole.add(e.unit)
        elif e.op == "replace":
            if e.unit in whole:
                raise InvalidRequestError(f"unit {e.unit} gets set_text together with other text edits")
            spans.setdefault(e.unit, []).append((e.start, e.end))
    for uid, lst in spans.items():
        lst.sort()
        for (a0, a1), (b0, b1) in zip(lst, lst[1:]):
            if b0 < a1 or b0 == a0 == a1 == b1:  # two insertions at one point have no order
                raise InvalidRequestError(f"unit {uid} gets overlapping replacements at {a0}..{a1} and {b0}..{b1}")
    for e in edits:
        hit = e.unit_refs() & deleted
        if hit:
            raise InvalidRequestError(f"an edit ({e.op}) refers to unit {hit.pop()}, which is deleted")


def _each(doc: Document, edits: Iterable[Edit], names: str, first: int = 0) -> tuple[list[Edit], list[str]]:
    """Every edit checked alone (a rename expanded): the concrete edits and the idle ones' notes."""
    out: list[Edit] = []  # concrete: no Rename
    idle: list[str] = []  # edits that change nothing: a rename with no match, a replace by the same text
    for i, e in enumerate(edits, first):
        where = f"edit {i + 1} ({getattr(e, 'op', '?')})"
        if not isinstance(e, Edit):
            raise InvalidRequestError(f"{where}: not an Edit")
        try:
            e.validate()
        except InvalidEditError as exc:
            raise InvalidRequestError(f"{where}: {exc}", edit=i) from exc
        if isinstance(e, Rename):
            renamed = expand_rename(
                doc, e.old, e.text, scope=e.unit, author=e.author, date=e.date, reason=e.reason, source=e.source,
                names=names,
            )
            if not renamed:
                idle.append(f"{where}: {e.old!r} does not occur")
            out.extend(renamed)
        else:
            checked = _check_one(doc, e, where)
            if checked.op == "replace" and (checked.before or "")[checked.start:checked.end] == checked.text:
                idle.append(f"{where}: replaces text by the same text")
                continue
            out.append(checked)
    return out, idle


def validate_edits(doc: Document, edits: Iterable[Edit], *, names: str = "auto") -> Checked:
    """Check edits against a document; return them concrete (see the module docstring), as
    :class:`Checked` for ``doc``: edits already checked for it are returned as they are.

    :raise InvalidRequestError: a malformed edit, a span outside the text, an impossible move or
        insert, or edits that contradict each other.
    :raise UnknownUnitError: an edit naming a unit the document does not have.
    :raise EditConflictError: an edit whose ``before`` is not the unit's current text.
    """
    done = _checked_for(doc, edits)
    if done is not None:
        return done
    out, idle = _each(doc, edits, names)
    if idle and not out:
        # nothing would be written: no empty revision
        raise InvalidRequestError("no edit changes the document (" + "; ".join(idle[:5]) + ")")
    _check_together(out)
    return Checked(doc, out)


def validate_more(doc: Document, checked: Iterable[Edit], more: Iterable[Edit], *, names: str = "auto") -> Checked:
    """``checked`` (validated for ``doc``) followed by ``more``, edits made after them (the ones
    propagation adds): each of ``more`` checked alone, then all of them together; ``checked``
    are not checked again.

    :raise InvalidRequestError, UnknownUnitError, EditConflictError: as :func:`validate_edits`.
    """
    first = validate_edits(doc, checked, names=names)
    extra, _idle = _each(doc, more, names, len(first))
    out = [*first, *extra]
    _check_together(out)
    return Checked(doc, out)


# --- the neutral-model result ---------------------------------------------------------------


def _shift(pos: int, changes: list[tuple[int, int, int]]) -> int:
    delta = 0
    for start, end, new_len in changes:
        if pos >= end:
            delta += new_len - (end - start)
        elif pos > start:
            return start + delta + min(pos - start, new_len)
    return pos + delta


def _apply_text(unit: Unit, edits: list[Replace | SetText]) -> None:
    old = unit.text
    whole = next((e for e in edits if isinstance(e, SetText)), None)
    if whole is not None:  # alone on its unit (_check_together)
        unit.text = whole.text
        changes = [(0, len(old), len(unit.text))]
    else:
        ordered = sorted((e for e in edits if isinstance(e, Replace)), key=lambda e: (e.start, e.end))
        pieces: list[str] = []
        pos, changes = 0, []
        for r in ordered:
            pieces.append(old[pos : r.start])
            pieces.append(r.text)
            pos = r.end
            changes.append((r.start, r.end, len(r.text)))
        pieces.append(old[pos:])
        unit.text = "".join(pieces)
    for f in unit.fields:
        f.start, f.end = _shift(f.start, changes), _shift(f.end, changes)
    for b in unit.bookmarks:
        b.start, b.end = _shift(b.start, changes), _shift(b.end, changes)
    if unit.meta.get("code"):  # the spans written as code move with the text around them
        unit.meta["code"] = [[_shift(a, changes), _shift(b, changes)] for a, b in unit.meta["code"]]
    if unit.title is not None:
        at = old.find(unit.title)
        if at >= 0:
            head, tail = old[:at], old[at + len(unit.title) :]
            if unit.text.startswith(head) and unit.text.endswith(tail) and len(unit.text) >= len(head) + len(tail):
                unit.title = unit.text[len(head) : len(unit.text) - len(tail)]
            else:
                unit.title = unit.text
    unit.meta["edit"] = "changed"


def _parent_at(units: list[Unit], idx: int, root: Unit) -> str | None:
    """The parent a unit placed at ``idx`` gets: the nearest section before it (of a lower level)."""
    level = section_level(root) if root.kind == "section" else None
    for j in range(idx - 1, -1, -1):
        u = units[j]
        if u.kind != "section" or is_note(u):
            continue
        if level is None or section_level(u) < level:
            return u.id
    return None


def apply_to_document(doc: Document, edits: Iterable[Edit]) -> Document:
    """The document as it reads once the edits are accepted, in the neutral model.

    For previews, verification and tests; the original ``doc`` is not changed. Inserted units get
    fresh content ids and ``meta["edit"] = "inserted"``; changed and moved units keep their ids.
    Labels and numbers are not recomputed.
    """
    concrete = validate_edits(doc, edits)  # nothing to do for edits checked for doc
    new = doc.copy()
    units = new.units
    by_id = {u.id: u for u in units}
    text_edits: dict[str, list[Replace | SetText]] = {}
    for e in concrete:
        if isinstance(e, (Replace, SetText)):
            text_edits.setdefault(e.unit, []).append(e)
    for uid, lst in text_edits.items():
        _apply_text(by_id[uid], lst)

    make_id = IdMaker()
    for u in units:
        make_id(u.kind, u.text)
    placed_after: dict[str, str] = {}  # anchor id -> root of the last block placed after it

    def block_end(anchor_id: str) -> int:
        """Directly after the anchor, or after the last block already placed after it."""
        ids = descendant_ids(units, placed_after[anchor_id]) if anchor_id in placed_after else {anchor_id}
        ids = _with_inline(units, ids)
        return max(i for i, u in enumerate(units) if u.id in ids) + 1

    for e in concrete:
        if e.op == "insert_after":
            kind = e.kind or "paragraph"  # _check_one filled it in
            idx = block_end(e.unit)
            uid = make_id(kind, e.text)
            while uid in by_id:
                uid = make_id(kind, e.text)
            level = None
            if kind == "section":
                probe = Unit(id=uid, kind="section", text="", order=0, style=e.style)
                level = section_level(probe) if e.style else _nearest_level(units, idx)
            unit = Unit(
                id=uid, kind=kind, text=e.text, order=0, style=e.style, level=level,
                title=e.text if kind == "section" else None, meta={"edit": "inserted"},
            )
            unit.parent = _parent_at(units, idx, unit)
            units.insert(idx, unit)
            by_id[uid] = unit
            placed_after[e.unit] = uid
        elif e.op == "move":
            root = by_id[e.unit]
            ids = _with_inline(units, descendant_ids(units, root.id))
            if (e.after or e.before_unit) in ids:
                raise InvalidRequestError(
                    f"moving {root.id} next to {e.after or e.before_unit}: after the earlier edits, "
                    f"{e.after or e.before_unit} is part of the block being moved"
                )
            block = [u for u in units if u.id in ids]
            units[:] = [u for u in units if u.id not in ids]
            if e.after:
                idx = block_end(e.after)
                placed_after[e.after] = root.id
            else:
                idx = next(i for i, u in enumerate(units) if u.id == e.before_unit)
            units[idx:idx] = block
            parent = by_id.get(root.parent) if root.parent else None
            if parent is None or parent.kind == "section":
                root.parent = _parent_at(units, idx, root)
            root.meta["edit"] = "moved"
        elif e.op == "delete":
            gone = by_id.pop(e.unit)
            units.remove(gone)
            for u in units:
                if u.parent == gone.id:
                    u.parent = gone.parent
    for i, u in enumerate(units):
        u.order = i
    return new


def apply_more(doc: Document, after: Document, done: Iterable[Edit], more: Iterable[Edit]) -> Document:
    """``after`` (the result of the edits ``done`` on ``doc``, which becomes the result) with the
    text edits ``more`` made on ``doc`` besides them: what :func:`apply_to_document` gives for
    ``done`` and ``more`` together, computed only for the units ``more`` changes (a unit both
    change is written afresh from ``doc`` with the edits of both). ``more`` with an insert, a
    move or a delete is applied with the rest from ``doc``.

    >>> from adapters.model import Unit, Replace
    >>> d = Document("docx", [Unit("a", "paragraph", "See Section 3 and Table 2.", 0)])
    >>> one = [Replace("a", start=12, end=13, text="2", before=d.units[0].text)]
    >>> two = [Replace("a", start=24, end=25, text="1", before=d.units[0].text)]
    >>> apply_more(d, apply_to_document(d, one), one, two).units[0].text
    'See Section 2 and Table 1.'
    """
    done, more = list(done), list(more)
    if not more:
        return after
    if any(not isinstance(e, (Replace, SetText)) for e in more):
        return apply_to_document(doc, validate_more(doc, done, more))
    texts: dict[str, list[Replace | SetText]] = {}
    for e in more:
        texts.setdefault(e.unit, []).append(e)  # type: ignore[arg-type]  # Replace | SetText, checked above
    for e in done:
        if isinstance(e, (Replace, SetText)) and e.unit in texts:
            texts[e.unit].append(e)
    for uid, lst in texts.items():
        src = doc.unit(uid)
        fresh = dc_replace(src, fields=[copy.copy(f) for f in src.fields], meta=dict(src.meta),
                           bookmarks=[copy.copy(b) for b in src.bookmarks])
        _apply_text(fresh, lst)
        target = after.unit(uid)
        target.text, target.fields, target.bookmarks, target.title = fresh.text, fresh.fields, fresh.bookmarks, fresh.title
        if "code" in fresh.meta:
            target.meta["code"] = fresh.meta["code"]
        if target.meta.get("edit") != "moved":
            target.meta["edit"] = "changed"
    return after


def _nearest_level(units: list[Unit], idx: int) -> int:
    for j in range(idx - 1, -1, -1):
        if units[j].kind == "section":
            return section_level(units[j])
    return 1


def with_ids(edits: list[Edit]) -> list[Edit]:
    """Every edit with an id of its own: the N-th edit whose id is missing or repeated gets
    ``op-N`` (the next free ``op-`` id when another edit took that one). An engine leaves ids
    out; a client may repeat one, and a ``rename`` given directly expands into replaces without.

    >>> from adapters.model import Delete
    >>> [e.id for e in with_ids([Delete("a"), Delete("b", id="op-2"), Delete("c")])]
    ['op-1', 'op-2', 'op-3']
    >>> [e.id for e in with_ids([Delete("a"), Delete("b"), Delete("c", id="op-2")])]
    ['op-1', 'op-3', 'op-2']
    >>> [e.id for e in with_ids([Delete("a", id="x"), Delete("b", id="x")])]
    ['op-1', 'op-2']
    """
    counts = Counter(e.id for e in edits if e.id)
    used = set(counts)
    out = []
    for i, e in enumerate(edits):
        if not e.id or counts[e.id] > 1:
            n = i + 1
            while f"op-{n}" in used:
                n += 1
            used.add(f"op-{n}")
            e = dc_replace(e, id=f"op-{n}")
        out.append(e)
    return Checked(edits.doc, out) if isinstance(edits, Checked) else out  # an id moves no edit
