"""The DOCX writer: concrete edits -> native tracked changes in the ORIGINAL package.

``write(original, edits)`` resolves every unit an edit names through the reader's anchors,
applies the edits to the parsed parts and copies every other zip member byte for byte. How
each operation maps to WordprocessingML:

- ``replace``/``set_text``: the word-level diff (:mod:`adapters.textdiff`) of the unit's text;
  each changed word is a ``w:del`` (runs split at the edit, ``w:delText``) plus a ``w:ins``
  formatted like the deleted run (:mod:`.textedit`). A figure's alt text (no revision exists
  for it in WordprocessingML) is changed in place.
- ``insert_after``: a new ``w:p`` with the properties of a paragraph of the same kind and
  style (the anchor itself when it matches), its run in ``w:ins``, its mark inserted.
- ``delete``: the runs in ``w:del`` and the paragraph mark deleted; a table's rows deleted.
- ``move``: ``w:moveFrom``/``w:moveTo`` with named range markers (:mod:`.moves`); the unit
  moves with its descendants, as ``apply_to_document`` moves it.

``w:trackRevisions`` is turned on in the settings part (a package without one gets one). Every
revision gets a fresh ``w:id`` above all ids of the package, the edit's author and date.
``notes`` (:class:`~adapters.model.Note`) become Word comments (:mod:`.comments_xml`): one on
what an edit changed (the revision elements its stamp made; a move on its destination), or on
a finding's evidence in a unit, replies threaded under their parent; existing comments stay
as they are. On
any error nothing is returned and an :class:`~adapters.errors.AdapterError` says why; the
input bytes are never changed. Parts other than the text parts an edit touches and settings
are copied byte for byte (:func:`adapters.repack.rewrite_zip`).

On an input that already holds tracked changes, accept-all of the output is the input's
accepted view with the edits applied (``apply_to_document(doc, edits)``) and reject-all is the
input's rejected view (``doc.lines("rejected")``): every revision rejected, ours and theirs.
A unit that is moved and edited in one write is written as a deletion plus an inserted,
edited copy (LibreOffice drops a ``w:del`` nested in a ``w:moveTo``).
"""
from __future__ import annotations

import copy
import posixpath
from typing import Any, Callable, Sequence

from lxml import etree

from ..errors import AdapterError, AnchorError, Stopped, UnsupportedFormatError, guarded
from ..model import Anchor, ConcreteEdit, Delete, Document, Edit, InsertAfter, Move, Note, Rename, Unit
from ..package import DOCX, Package, open_package
from ..repack import rewrite_zip
from ..textdiff import Change, line_changes, word_changes
from .blockedit import container_of, delete_paragraph, delete_table, mark_paragraph_groups, new_paragraph
from .blocks import iter_blocks
from .comments_xml import CommentParts, body_anchor, place_range
from .context import load_context, read_rels, rels_part_name
from .moves import MoveResult, move_blocks
from .oxml import NSMAP, load_part, qn, serialize_part
from .margins import pin_references
from .reader import read_package
from .revision_xml import IdCounter, Stamp, clean_mark_rpr, set_track_revisions, used_ids, wrap_in_del
from .tags import W_DEL, W_INS, W_MOVEFROM, W_MOVETO, W_P, W_PPR, W_PSTYLE, W_R, W_RPR, W_SECTPR, W_TBL, W_TRPR, WP_DOCPR, VAL
from .textedit import UnitTarget, apply_changes, replace_figure, span_runs
from .textmap import ACCEPTED, BOTH, Walker, resolve_items
from ..vocabulary import NOTE_KINDS

__all__ = ["write", "accept_all", "reject_all"]

_PPR_DROP = (W_SECTPR, qn("w:pPrChange"), qn("w:framePr"))
_SETTINGS_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"


def accept_all(data: bytes) -> bytes:
    """Every tracked change of a .docx accepted (see :mod:`adapters.docx.resolve`)."""
    from .resolve import accept_all as _accept

    return _accept(data)


def reject_all(data: bytes) -> bytes:
    """Every tracked change of a .docx rejected (see :mod:`adapters.docx.resolve`)."""
    from .resolve import reject_all as _reject

    return _reject(data)


def write(original: bytes, edits: Sequence[Edit], *, document: Document | None = None,
          notes: Sequence[Note] = (), check: Callable[[], None] | None = None) -> bytes:
    """The package with ``edits`` written as tracked changes (and ``notes`` as comments).

    ``edits`` are concrete (validated and normalised by the backend); ``document`` is the
    reader's view of ``original`` (read again when None: unit ids are stable for the same bytes).
    A note on an edit names the edit's ``id``; a note whose edit or unit is not there is left out.
    ``check`` is called before each edit is resolved and each change is written: the caller's
    deadline may raise there (the adapters know no budget; the backend passes its own).

    :raise AnchorError: an edit names a unit whose text no longer matches the package, or a
        change the writer cannot place (a paragraph break, an equation, a field structure).
    :raise AdapterError: the package is not a readable .docx, or the edits are not concrete.
    """
    pkg = open_package(original)
    if pkg.format != DOCX:
        raise UnsupportedFormatError("the DOCX writer was given a package that is not a .docx")
    try:
        return _Writer(pkg, document, guarded(check)).run(list(edits), list(notes))
    except Stopped as stop:
        raise stop.cause from None
    except (AdapterError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # a writer bug on odd input must still be a clear error
        raise AdapterError(f"the edits could not be written ({type(exc).__name__}: {exc})") from exc


def _anchor(unit: Unit) -> Anchor:
    """The anchor of a unit :meth:`_Writer.unit` returned (it returns anchored units only)."""
    if unit.anchor is None:
        raise AnchorError(f"unit {unit.id} has no anchor in this document")
    return unit.anchor


class _Writer:
    def __init__(self, pkg: Package, document: Document | None, deadline: Callable[[], None] | None = None) -> None:
        self.pkg = pkg
        self.deadline = deadline  # the caller's budget check, called per edit and per change
        self.warnings: list[str] = []
        self.ctx = load_context(pkg, self.warnings)
        self.doc = document if document is not None else read_package(pkg)
        others = [pkg.read(n) for n in pkg.names if n.endswith(".xml") and n not in self.ctx.parts]
        self.ids = IdCounter(used_ids(self.ctx.parts.values(), others))
        self.targets: dict[str, UnitTarget] = {}
        self._frozen: dict | None = {}  # container blocks, while the tree is unchanged
        self._checked: set[str] = set()
        self.templates: dict[int, Any] = {}
        self.touched: set[str] = set()
        self.placed_after: dict[str, Any] = {}
        self.inserted: dict[Any, tuple[str, Stamp]] = {}
        self.deleted: dict[Any, tuple[str, Stamp]] = {}
        self.stamps: dict[int, Stamp] = {}  # id(edit) -> its one stamp
        main = self.ctx.root(self.ctx.main_part)
        self.next_docpr = [max([_int(d.get("id")) for d in main.iter(WP_DOCPR)] + [0]) + 1]

    # units ---------------------------------------------------------------------------------

    def unit(self, uid: str | None) -> Unit:
        unit = self.doc.get(uid) if uid else None
        if unit is None or unit.anchor is None:
            raise AnchorError(f"no unit {uid!r} with an anchor in this document")
        return unit

    def target(self, uid: str) -> UnitTarget:
        hit = self.targets.get(uid)
        if hit is None:
            unit = self.unit(uid)
            if self._frozen is None:
                raise AnchorError(f"unit {uid} was not resolved before the document changed")
            anchor = _anchor(unit)
            items, figure, blocks = resolve_items(self.ctx.parts, anchor, self._frozen)
            hit = UnitTarget(uid, anchor.part, anchor.path, items, figure, blocks, tuple(anchor.get("open_fields", ())))
            self.targets[uid] = hit
        return hit

    def check(self, e: ConcreteEdit) -> None:
        unit = self.unit(e.unit)
        if e.before is not None and e.before != unit.text:
            raise AnchorError(f"unit {unit.id} has changed since the edit was made")
        if unit.id not in self._checked:
            if self.target(unit.id).text(self.ctx) != unit.text:
                raise AnchorError(f"unit {unit.id} does not match the package (its text has changed since it was read)")
            self._checked.add(unit.id)

    # the run -------------------------------------------------------------------------------

    def run(self, given: list[Edit], notes: list[Note] | None = None) -> bytes:
        notes = notes or []
        edits: list[ConcreteEdit] = []
        for i, e in enumerate(given):
            if isinstance(e, Rename):
                raise AdapterError(f"the writer takes concrete edits (renames expanded), not {e.op!r}")
            try:
                edits.append(e.validate())
            except AdapterError as exc:
                raise AdapterError(f"edit {i + 1} ({e.op}): {exc}") from None
        for e in edits:  # resolve everything before the tree changes
            if self.deadline is not None:
                self.deadline()
            self.check(e)
            for uid in e.unit_refs():
                self.target(uid)
            if e.op == "move":
                for u in self._subtree(e.unit):
                    self.target(u.id)
            if e.op == "delete":
                for u in self._inside(self.unit(e.unit)):
                    self.target(u.id)
            if e.op == "insert_after":
                self.templates[id(e)] = self._template_paragraph(e)
        for n in notes:
            noted = self.doc.get(n.unit) if n.unit and not n.edit else None
            if noted is not None and noted.anchor is not None:
                self.target(noted.id)
        self._frozen = None
        self.edited = {e.unit for e in edits if e.op in ("replace", "set_text")}
        for e in edits:
            if e.op == "insert_after":
                self._insert(e)
            elif e.op == "move":
                self._move(e)
        deleted_ids = {e.unit for e in edits if e.op == "delete"}
        for e in edits:
            if e.op == "delete":
                self._delete(e, deleted_ids)
        mark_paragraph_groups(self.inserted)
        mark_paragraph_groups(self.deleted)
        self._text_edits(edits)
        self.comments = self._notes(edits, notes) if notes else None
        return self._package(bool(edits))

    def stamp(self, e: ConcreteEdit) -> Stamp:
        """The edit's stamp (one per edit: it keeps the elements the edit made)."""
        st = self.stamps.get(id(e))
        if st is None:
            st = self.stamps[id(e)] = Stamp(e.author or "LEDGER", e.date, self.ids)
        return st

    # text ----------------------------------------------------------------------------------

    def _text_edits(self, edits: list[ConcreteEdit]) -> None:
        per_unit: dict[str, list[tuple[Change, Stamp]]] = {}
        span_of: dict[int, tuple[int, int]] = {}  # id(stamp) -> the span of its edit in the unit
        for e in edits:
            if e.op == "replace":
                before = e.before if e.before is not None else self.unit(e.unit).text
                changes = word_changes(before[e.start : e.end], e.text, e.start)
            elif e.op == "set_text":
                before = e.before if e.before is not None else self.unit(e.unit).text
                if before.count("\n") != e.text.count("\n"):
                    raise AdapterError(f"set_text on unit {e.unit} must keep its number of paragraphs")
                changes = line_changes(before, e.text)
            else:
                continue
            stamp = self.stamp(e)
            span_of[id(stamp)] = (e.start, e.end) if e.op == "replace" else (0, 0)
            per_unit.setdefault(e.unit, []).extend((c, stamp) for c in changes)
        for uid, pending in per_unit.items():
            target = self.targets[uid]
            if not pending:
                continue
            # two insertions at one point are ordered as the model orders their edits (an
            # insertion before a replace that starts there and keeps its first word); only two
            # edits with the same span leave the order undefined
            spans = sorted((c[0], c[1], span_of[id(st)]) for c, st in pending)
            if any(b[0] < a[1] or (b[0] == a[0] == a[1] == b[1] and a[2] == b[2]) for a, b in zip(spans, spans[1:])):
                raise AdapterError(f"unit {uid} gets overlapping text edits")
            pending.sort(key=lambda c: (c[0][0], c[0][1], span_of[id(c[1])]))
            self.touched.add(target.part)
            if target.figure is not None:
                text = self.unit(uid).text
                for (start, end, new), _stamp in sorted(pending, key=lambda c: c[0][0], reverse=True):
                    text = text[:start] + new + text[end:]
                replace_figure(target, text, pending[0][1], self.next_docpr)
            else:
                apply_changes(target, pending, self.ctx, self.deadline)

    # insert --------------------------------------------------------------------------------

    def _insert(self, e: InsertAfter) -> None:
        anchor = self.target(e.unit)
        ref = self.placed_after.get(e.unit)
        if ref is None:
            ref = anchor.blocks[-1]
        if anchor.path.startswith("#"):
            raise AnchorError("a unit cannot be inserted after a footnote or endnote")
        stamp = self.stamp(e)
        ppr, rpr = self._template(e)
        p = new_paragraph(ppr, rpr, e.text or "", stamp)
        ref.addnext(p)
        self.placed_after[e.unit] = p
        self.inserted[p] = (W_INS, stamp)
        self.touched.add(anchor.part)

    def _template_paragraph(self, e: InsertAfter) -> Any:
        """A paragraph of the new unit's kind and style to copy properties from (the anchor
        itself when it matches, else the nearest such paragraph before it, then after it)."""
        anchor = self.unit(e.unit)
        kind = e.kind or anchor.kind
        style = e.style if e.style is not None else anchor.style
        part = _anchor(anchor).part
        units = [u for u in self.doc.units if u.anchor is not None and u.anchor.part == part]
        pos = next((i for i, u in enumerate(units) if u.id == anchor.id), 0)
        order = [units[pos]] + units[:pos][::-1] + units[pos + 1 :]
        for u in order:
            if u.kind != kind or u.style != style or u.kind in ("table", "figure") or u.meta.get("absent_in"):
                continue
            target = self.target(u.id)
            paras = [p for p, presence in target.items if presence == BOTH]
            if target.figure is None and paras and paras[-1].tag == W_P:
                return paras[-1]
        return None

    def _template(self, e: InsertAfter) -> tuple[Any, Any]:
        """Paragraph and mark-run properties for a new unit of ``e.kind``/``e.style``."""
        p = self.templates.get(id(e))
        if p is not None:
            return _clean_ppr(p.find(W_PPR))
        anchor = self.unit(e.unit)
        return self._styled_ppr(e.style if e.style is not None else anchor.style), None

    def _styled_ppr(self, style: str | None) -> Any:
        if not style:
            return None
        sheet = self.ctx.styles
        for sid, info in sheet.styles.items():
            if info.type == "paragraph" and (info.name == style or sid == style):
                if sid == sheet.default_para:
                    return None
                ppr = etree.Element(W_PPR)
                etree.SubElement(ppr, W_PSTYLE).set(VAL, sid)
                return ppr
        return None

    # delete --------------------------------------------------------------------------------

    def _inside(self, unit: Unit) -> list[Unit]:
        """Units anchored inside this unit's paragraphs (its figures and text boxes)."""
        path = _anchor(unit).path
        if "-" in path.rpartition("/")[2]:
            prefix, _, span = path.rpartition("/")
            a, b = (int(x) for x in span.split("-"))
            heads = [f"{prefix}/{k}/" if prefix else f"{k}/" for k in range(a, b + 1)]
        else:
            heads = [path + "/"]
        part = _anchor(unit).part
        return [u for u in self.doc.units if u.anchor is not None and u.anchor.part == part
                and any(u.anchor.path.startswith(h) for h in heads) and u.id != unit.id]

    def _delete(self, e: Delete, deleted_ids: set[str]) -> None:
        target = self.target(e.unit)
        stamp = self.stamp(e)
        self.touched.add(target.part)
        if target.path.startswith("#") and "/" not in target.path:
            raise AnchorError("deleting a whole footnote or endnote is not supported; delete its reference instead")
        if target.figure is not None:
            holder = target.blocks[0]
            holder_path = target.path.rsplit("/d", 1)[0]
            units_there = [u for u in self.doc.units if u.anchor is not None and u.anchor.part == target.part
                           and (u.anchor.path == holder_path or u.anchor.path.startswith((holder_path + "/d", holder_path + "/t")))]
            if all(u.kind == "figure" and u.id in deleted_ids for u in units_there):
                # the paragraph is nothing but these figures: it goes whole (blanks included)
                if holder not in self.deleted and delete_paragraph(holder, stamp):
                    self.deleted[holder] = (W_DEL, stamp)
                return
            run = next(target.figure.iterancestors(W_R), None)
            if run is None:
                raise AnchorError("the figure sits where it cannot be deleted as a tracked change")
            if run.getparent().tag != W_DEL:
                wrap_in_del([run], stamp)
            if not _shows_anything(holder):
                self.deleted[holder] = (W_DEL, stamp)
            return
        if target.blocks and target.blocks[0].tag == W_TBL:
            delete_table(target.blocks[0], stamp)
            return
        inside = self._inside(self.unit(e.unit))
        keep = any(u.id not in deleted_ids for u in inside)
        for p, presence in target.items:
            if presence & ACCEPTED and delete_paragraph(p, stamp, keep_objects=keep):
                self.deleted[p] = (W_DEL, stamp)

    # move ----------------------------------------------------------------------------------

    def _subtree(self, uid: str | None) -> list[Unit]:
        kids: dict[str | None, list[Unit]] = {}
        for u in self.doc.units:
            kids.setdefault(u.parent, []).append(u)
        out, stack = [], [self.unit(uid)]
        while stack:
            u = stack.pop()
            if u.kind in NOTE_KINDS:
                continue
            out.append(u)
            stack.extend(kids.get(u.id, ()))
        return out

    def _move(self, e: Move) -> None:
        root = self.target(e.unit)
        container = container_of(root.blocks[0])
        blocks = list(iter_blocks(container))
        where = {id(b): i for i, b in enumerate(blocks)}
        idx: set[int] = set()
        subtree = self._subtree(e.unit)
        for u in subtree:
            t = self.target(u.id)
            if t.part != root.part:
                continue
            for b in t.blocks:
                hit = next((where[id(a)] for a in [b, *b.iterancestors()] if id(a) in where), None)
                if hit is None:
                    raise AnchorError(f"unit {u.id} does not sit in the container of the unit it moves with")
                idx.add(hit)
        lo, hi = min(idx), max(idx)
        if len(idx) != hi - lo + 1:
            raise AnchorError(f"unit {e.unit} and its descendants are not one stretch of blocks")
        if e.after:
            ref = self.placed_after.get(e.after)
            if ref is None:
                ref = self.target(e.after).blocks[-1]
            place = "after"
        elif e.before_unit:
            ref = self.target(e.before_unit).blocks[0]
            place = "before"
        else:  # pragma: no cover - Move.validate asks for one of the two
            raise AnchorError(f"a move of {e.unit} needs after or before_unit")
        dest = next((a for a in [ref, *ref.iterancestors()] if container_of(a) is container), None)
        if dest is None:
            raise AnchorError("a move stays inside one body, text box or note")
        stamp = self.stamp(e)
        plain = any(u.id in self.edited for u in subtree)
        result = move_blocks(blocks[lo : hi + 1], place, dest, stamp, self.deleted, self.inserted, self.next_docpr, plain)
        self._remap(result)
        if e.after:
            self.placed_after[e.after] = result.copies[-1]
        self.touched.add(root.part)

    def _remap(self, result: MoveResult) -> None:
        """Units inside the moved blocks now live in the copy (later edits go there)."""
        for t in self.targets.values():
            if not any(result.emap.get(id(b)) is not None for b in t.blocks):
                continue
            items: list[tuple[Any, int]] = []
            for p, _presence in t.items:
                new = result.follow(p)
                if new is not None and not any(new is q for q, _ in items):
                    items.append((new, BOTH))
            t.items = items
            t.blocks = [n for n in (result.follow(b) for b in t.blocks) if n is not None]
            if t.figure is not None:
                t.figure = result.emap.get(id(t.figure))

    # comments ------------------------------------------------------------------------------

    def _edit_span(self, e: ConcreteEdit, order: dict[int, tuple[str, int]]) -> tuple[Any, Any] | None:
        """The first and last element the edit changed that a comment can wrap (a move: its
        destination; a change of a paragraph mark only: that paragraph)."""
        st = self.stamps.get(id(e))
        if st is None:
            return None
        wanted = (W_INS, W_MOVETO) if e.op == "move" else (W_INS, W_DEL, W_MOVEFROM, W_MOVETO)
        content, marks = [], []
        for el in st.made:
            where = order.get(id(el))
            if where is None:
                continue  # removed again (text the author had inserted, changed in place)
            parent = el.getparent()
            if el.tag in wanted and parent.tag not in (W_RPR, W_TRPR):
                content.append((where, el))
            elif parent.tag == W_RPR and parent.getparent() is not None and parent.getparent().tag == W_PPR:
                marks.append((where, parent.getparent().getparent()))
        chosen = content or marks
        if not chosen:
            return None
        part = min(chosen, key=lambda c: (c[0][0] != self.ctx.main_part, c[0]))[0][0]
        here = sorted((c for c in chosen if c[0][0] == part), key=lambda c: c[0][1])
        return here[0][1], here[-1][1]

    def _unit_span(self, n: Note) -> tuple[Any, Any] | None:
        """The runs that show a finding's evidence in its unit (nearest ``start``), else the whole unit."""
        target = self.targets.get(n.unit or "")
        if target is None:
            return None
        text = target.text(self.ctx)
        spans = []
        if n.evidence:
            at = text.find(n.evidence)
            while at >= 0:
                spans.append((at, at + len(n.evidence)))
                at = text.find(n.evidence, at + 1)
        start, end = min(spans, key=lambda s: abs(s[0] - (n.start or 0))) if spans else (0, len(text))
        return span_runs(target, self.ctx, start, end) if end > start else None

    def _notes(self, edits: list[ConcreteEdit], notes: list[Note]) -> CommentParts | None:
        parts = sorted(self.touched | {self.targets[n.unit].part for n in notes if n.unit and n.unit in self.targets})
        alive: list[Any] = []
        order: dict[int, tuple[str, int]] = {}
        for part in parts:
            for i, el in enumerate(self.ctx.parts[part].iter()):
                alive.append(el)
                order[id(el)] = (part, i)
        by_id = {e.id: e for e in edits if e.id}
        raw = [self.pkg.read(n) for n in self.pkg.names if n.endswith(".xml")]
        comments = CommentParts(self.pkg, self.ctx, self.ids, raw)
        para_of: dict[str, str] = {}
        placed: list[tuple[Any, Any, str]] = []
        part_of = {id(root): name for name, root in self.ctx.parts.items()}
        moved_to_main = False
        for n in notes:
            if n.edit:
                e = by_id.get(n.edit)
                span = self._edit_span(e, order) if e is not None else None
            else:
                span = self._unit_span(n)
            if span is not None:
                moved = self._in_main_part(span, part_of)
                moved_to_main = moved_to_main or (moved is not None and moved is not span)
                span = moved
            if span is None:
                continue
            cid, para = comments.comment(n.text, n.author or "LEDGER", n.initials or "LEDGER", n.date,
                                         para_of.get(n.parent or ""))
            para_of[n.id] = para
            place_range(span[0], span[1], cid, comments.ref_style)  # now: later splits keep it
            placed.append((span[0], span[1], cid))
        if placed:
            self.touched.update(parts)
        if moved_to_main:
            self.touched.add(self.ctx.main_part)
        return comments if placed else None

    def _in_main_part(self, span: tuple[Any, Any], part_of: dict[int, str]) -> tuple[Any, Any] | None:
        """``span``, or its place in the body when it lies in a note, header or footer part."""
        part = part_of.get(id(span[0].getroottree().getroot()))
        main = self.ctx.main_part
        if part is None or part == main:
            return span
        rids = [r.rid for r in self.ctx.rels.get(main, {}).values() if r.target == part and not r.external]
        return body_anchor(self.ctx.root(main), span[0], rids)

    # package -------------------------------------------------------------------------------

    def _package(self, any_edit: bool) -> bytes:
        changed: dict[str, bytes] = {}
        margins = {m.part for m in self.ctx.margins} & self.touched
        if margins and pin_references(self.ctx.root(self.ctx.main_part), self.ctx.rels[self.ctx.main_part], margins):
            self.touched.add(self.ctx.main_part)  # adapters.docx.margins: LibreOffice sees the change on every page
        for part in sorted(self.touched):
            root = self.ctx.parts[part]
            changed[part] = serialize_part(self.pkg.read(part), root, self.ctx.strict)
        add: list[tuple[str, bytes]] = []
        if any_edit:
            self._settings(changed, add)
        if self.comments is not None:
            self.comments.write(changed, add)
        return rewrite_zip(self.pkg.data, changed, add) if changed or add else self.pkg.data

    def _settings(self, changed: dict[str, bytes], add: list[tuple[str, bytes]]) -> None:
        """``w:trackRevisions`` on; a package without a settings part gets one."""
        main = self.ctx.main_part
        rels = read_rels(self.pkg, main)
        name = next((r.target for r in rels.values() if r.type == "settings" and not r.external), None)
        if name is not None and self.pkg.has(name):
            root = load_part(self.pkg, name)
            if set_track_revisions(root):
                changed[name] = serialize_part(self.pkg.read(name), root, self.ctx.strict)
            return
        folder = posixpath.dirname(main)
        name = posixpath.join(folder, "settings.xml")
        if self.pkg.has(name):
            raise AdapterError(f"the package has a {name!r} that its main part does not name; not touched")
        w = NSMAP["w"]
        add.append((name, f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:settings xmlns:w="{w}"><w:trackRevisions/></w:settings>'.encode()))
        rels_name = rels_part_name(main)
        rel_ns = NSMAP["rel"]
        rels_root = load_part(self.pkg, rels_name) if self.pkg.has(rels_name) else etree.Element(f"{{{rel_ns}}}Relationships", nsmap={None: rel_ns})
        taken = {r.get("Id") for r in rels_root}
        rid = next(f"rIdLedger{i}" for i in range(1, len(taken) + 2) if f"rIdLedger{i}" not in taken)
        etree.SubElement(rels_root, f"{{{rel_ns}}}Relationship", Id=rid, Type=NSMAP["r"] + "/settings", Target="settings.xml")
        data = serialize_part(self.pkg.read(rels_name) if self.pkg.has(rels_name) else b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n', rels_root)
        (changed.__setitem__(rels_name, data) if self.pkg.has(rels_name) else add.append((rels_name, data)))
        ct = self.pkg.xml("[Content_Types].xml")
        ns = etree.QName(ct).namespace
        etree.SubElement(ct, f"{{{ns}}}Override", PartName="/" + name, ContentType=_SETTINGS_CT)
        changed["[Content_Types].xml"] = serialize_part(self.pkg.read("[Content_Types].xml"), ct)


def _int(val: Any) -> int:
    try:
        return int(val)
    except (TypeError, ValueError):
        return 0


def _clean_ppr(ppr) -> tuple[Any, Any]:
    """A template paragraph's properties for a new paragraph, and its mark's run properties."""
    if ppr is None:
        return None, None
    new = copy.deepcopy(ppr)
    for ch in list(new):
        if ch.tag in _PPR_DROP:
            new.remove(ch)
    rpr = new.find(W_RPR)
    mark = clean_mark_rpr(rpr) if rpr is not None else None
    if rpr is not None:
        new.remove(rpr)
        if mark is not None:
            new.append(copy.deepcopy(mark))
    return (new if len(new) else None), mark


def _shows_anything(p) -> bool:
    """Whether a paragraph still shows text or an object in the accepted view."""
    scan = Walker().paragraph(p)
    return bool(scan.text(ACCEPTED)) or any(views & ACCEPTED for _k, _o, views, _a in scan.objects)
