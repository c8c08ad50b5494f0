"""Stage 3 of the reader: the parsed WordprocessingML (:class:`DocxBody`) -> neutral units.

Decides each unit's kind (section, title, caption, list_item, equation, figure, table,
paragraph, footnote, endnote), renders list and heading numbers in document order, nests
units under the innermost open section, links captions with their figures and tables,
resolves field targets through bookmarks, and collects revisions and comments.
"""
from __future__ import annotations

import re
from typing import Any

from ..labels import caption_label, leading_label, section_label, seq_label
from ..model import Anchor, Document, Field, IdMaker, Revision, Unit
from .numbering import ListCounters
from .fields import SeqCounters
from .crossrefs import attach_bookmarks, collect_comments, link_captions, resolve_targets
from .parse import Block, DocxBody, Paragraph, Table, TrackedChange
from .textmap import ACCEPTED, BOTH, REJECTED, join_segments

__all__ = ["to_units"]

_EQ_NUMBER = re.compile(r"\(\s*(\d+(?:[.\-]\d+)*[a-z]?)\s*\)\s*$")
_EQ_ONLY_NUMBER = re.compile(r"^[\s\u2028]*(?:\(\s*\d+(?:[.\-]\d+)*[a-z]?\s*\))?[\s\u2028]*$")
_NOTE_LABEL = {"footnote": "Footnote", "endnote": "Endnote"}


def _revision_of(change: TrackedChange, text: str) -> dict[str, Any]:
    return {"id": change.id, "kind": change.kind, "author": change.author, "date": change.date, "text": text}


class _Converter:
    def __init__(self, body: DocxBody) -> None:
        self.body = body
        self.ctx = body.context
        self.styles = self.ctx.styles
        self.counters = ListCounters(self.ctx.numbering, self.styles.numbering_style_num)
        self.seq = SeqCounters()
        self.ids = IdMaker()
        self.units: list[Unit] = []
        self.sections: list[tuple[int, str]] = []
        self.revisions: list[dict[str, Any]] = []
        self.notes_cited: list[tuple[str, str, str]] = []  # (kind, id, citing unit id)
        self.bm_events: list[tuple[int, tuple]] = []  # (unit index, event) in document order
        self.c_events: list[tuple[int, tuple]] = []
        self.note_fields: list[tuple[Field, str, str]] = []

    # helpers -------------------------------------------------------------------------------

    def _parent(self) -> str | None:
        return self.sections[-1][1] if self.sections else None

    def _add(self, unit_kwargs: dict[str, Any], paragraphs: list[Paragraph], base_offsets: list[int | None]) -> Unit:
        kind = unit_kwargs["kind"]
        text = unit_kwargs["text"]
        rejected = unit_kwargs.pop("rejected_text", None)
        uid = self.ids(kind, text or rejected or "")
        unit = Unit(id=uid, order=len(self.units), rejected_text=rejected if rejected != text else None, **unit_kwargs)
        self.units.append(unit)
        index = len(self.units) - 1
        for para, base in zip(paragraphs, base_offsets):
            self._collect(unit, index, para, base)
        return unit

    def _collect(self, unit: Unit, index: int, para: Paragraph, base: int | None) -> None:
        """Fields, bookmarks, notes, comments and revisions of one paragraph onto its unit."""
        scan = para.scan
        shown = base is not None
        off = base or 0
        if shown:
            for rec in scan.fields:
                unit.fields.append(Field(rec.kind, rec.code, rec.target, None, rec.result, rec.start + off, rec.end + off))
        for ev in scan.events:
            kind = ev[0]
            if kind == "note":
                _, nkind, nid, start, end = ev
                if shown and nid is not None and (nkind, nid) in self.body.notes:
                    if not any(k == nkind and i == nid for k, i, _ in self.notes_cited):
                        self.notes_cited.append((nkind, nid, unit.id))
                    f = Field("note", f"{nkind}Reference", nid, None, self.ctx.note_marks.get((nkind, nid), ""), start + off, end + off)
                    unit.fields.append(f)
                    self.note_fields.append((f, nkind, nid))
            elif kind in ("bm_start", "bm_end"):
                self.bm_events.append((index, (kind, para.part, *ev[1:-1], ev[-1] + off)))
            else:
                self.c_events.append((index, (kind, ev[1], ev[2] + off)))
        for rkind, el, text in scan.revisions:
            self.revisions.append({**_revision_of(TrackedChange.of(rkind, el), text), "unit": unit.id})
        if scan.mark_change is not None:
            self.revisions.append({**_revision_of(para.mark_change, "\n"), "unit": unit.id})
        if scan.ppr_change is not None:
            self.revisions.append({**_revision_of(TrackedChange.of("paragraph_format_change", scan.ppr_change), ""), "unit": unit.id})

    # numbering -----------------------------------------------------------------------------

    def _number(self, para: Paragraph) -> tuple[str, str, int] | None:
        """Advance the list counters for a paragraph: ``(label, number, ilvl)`` or None."""
        scan = para.scan
        style = self.styles.para(scan.style_id)
        num_id = scan.num_id if scan.num_id is not None else style.num_id
        if not num_id or num_id == "0":
            return None
        if scan.num_id is not None:
            ilvl = scan.ilvl if scan.ilvl is not None else 0
        elif scan.ilvl is not None:
            ilvl = scan.ilvl
        else:
            ilvl = style.ilvl  # None: the level whose w:pStyle names the style
        return self.counters.next_label(num_id, ilvl, style.chain)

    # blocks --------------------------------------------------------------------------------

    def blocks(self, blocks: list[Block], where: str) -> None:
        i = 0
        n = len(blocks)
        while i < n:
            b = blocks[i]
            if isinstance(b, Table):
                self.table(b, where)
                i += 1
                continue
            group = [b]
            while _chains(group[-1]) and i + len(group) < n and isinstance(blocks[i + len(group)], Paragraph):
                group.append(blocks[i + len(group)])
            self.paragraphs(group, where)
            i += len(group)

    def paragraphs(self, group: list[Paragraph], where: str) -> None:
        items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in group]
        text = "".join([s.text for s in join_segments(items, ACCEPTED)])
        rejected = "".join([s.text for s in join_segments(items, REJECTED)])
        bases = _bases(group)
        # merged paragraphs keep the properties of the last one, whose mark survives
        scan = group[-1].scan
        meta: dict[str, Any] = {}
        if len(group) == 1 and scan.mark_views not in (BOTH, 0):
            other = REJECTED if scan.mark_views == ACCEPTED else ACCEPTED
            if not scan.text(other):
                meta["absent_in"] = "rejected" if other == REJECTED else "accepted"
        if where == "textbox":
            meta["container"] = "textbox"
        if scan.section_break:
            meta["section_break"] = True
        numbered = [self._number(p) for p in group][-1]
        style = self.styles.para(scan.style_id)
        outline = scan.outline if scan.outline is not None else style.outline_level
        if outline is not None and not 0 <= outline <= 8:
            outline = None
        seqs = [f for p in group for f in p.scan.fields if f.kind == "seq"]
        seq_numbers: list[tuple[Any, str]] = []
        for f in seqs:
            computed = self.seq.next(f.parsed) if f.parsed is not None else 0
            seq_numbers.append((f, f.result.strip() or str(computed)))
        kwargs: dict[str, Any] = {
            "kind": "paragraph",
            "text": text,
            "rejected_text": rejected,
            "style": style.name,
            "parent": self._parent(),
            "anchor": self._anchor(group),
            "meta": meta,
        }
        if numbered is not None:
            meta["list_label"] = numbered[0]
        math = [m for p in group for m in p.scan.math]
        figures = [(p, k, obj, views, alt) for p in group for k, obj, views, alt in _figures(p)]
        stripped = text.strip()
        if math and where in ("body", "textbox") and (any(m[1] for m in math) or _only_math(group)):
            kwargs["kind"] = "equation"
            number = None
            eq_seq = next((n for f, n in seq_numbers), None)
            if eq_seq:
                number = eq_seq
            else:
                m = _EQ_NUMBER.search(text)
                if m:
                    number = m.group(1)
            if number:
                kwargs["number"] = number
                kwargs["label"] = f"Equation ({number})"
        elif where == "body" and outline is not None and stripped:
            level = outline + 1
            kwargs.update(kind="section", title=stripped, level=level)
            if numbered is not None and numbered[1]:
                kwargs["number"] = numbered[1]
                kwargs["label"] = section_label(numbered[1])
            while self.sections and self.sections[-1][0] >= level:
                self.sections.pop()
            kwargs["parent"] = self._parent()
            self.seq.heading(level)
        elif where == "body" and style.role == "title" and stripped:
            kwargs.update(kind="title", title=stripped)
        elif stripped and (style.role == "caption" or seq_numbers):
            kwargs["kind"] = "caption"
            if seq_numbers:
                f, number = seq_numbers[0]
                kwargs["label"] = seq_label(f.target or "", number)
                kwargs["number"] = number
            else:
                found = caption_label(text)
                if found:
                    kwargs["label"], kwargs["number"] = found
        elif numbered is not None and numbered[0]:
            kwargs.update(kind="list_item", label=numbered[0], number=numbered[0], level=numbered[2] + 1)
        else:
            found = leading_label(text) if stripped else None
            if found:
                kwargs["label"], kwargs["number"] = found
        if figures and not stripped and kwargs["kind"] == "paragraph":
            unit = None  # a paragraph that only holds pictures is its figures
        else:
            unit = self._add(kwargs, group, bases)
            if unit.kind == "section":
                self.sections.append((unit.level or 1, unit.id))
        for idx, (p, _k, obj, views, alt) in enumerate(figures):
            fmeta: dict[str, Any] = {}
            if where == "textbox":
                fmeta["container"] = "textbox"
            if not views & ACCEPTED:
                fmeta["absent_in"] = "accepted"
            elif not views & REJECTED:
                fmeta["absent_in"] = "rejected"
            fkw = {
                "kind": "figure",
                "text": alt,
                "style": style.name,
                "parent": self._parent(),
                "anchor": Anchor(p.part, f"{p.path}/d{_figure_index(p, obj)}"),
                "meta": fmeta,
            }
            holder = unit is None and idx == 0  # the figure carries its paragraph's fields and marks
            self._add(fkw, group if holder else [], bases if holder else [])
        for p in group:
            for tb in p.textboxes:
                self.blocks(tb, "textbox")

    def table(self, table: Table, where: str) -> None:
        paras = table.paragraphs
        items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in paras]
        text = "".join([s.text for s in join_segments(items, ACCEPTED)])
        rejected = "".join([s.text for s in join_segments(items, REJECTED)])
        for p in paras:
            self._number(p)
        meta: dict[str, Any] = {"cells": _cell_grid(table)}
        if table.floating:
            meta["floating"] = True
        if any(_nested_floating(table)):
            meta["has_floating"] = True  # a floating table nested in a cell
        if where == "textbox":
            meta["container"] = "textbox"
        if paras and all(not (p.presence & ACCEPTED) for p in paras):
            meta["absent_in"] = "accepted"
        elif paras and all(not (p.presence & REJECTED) for p in paras):
            meta["absent_in"] = "rejected"
        kwargs = {
            "kind": "table",
            "text": text,
            "rejected_text": rejected,
            "parent": self._parent(),
            "anchor": Anchor(table.part, table.path),
            "meta": meta,
        }
        unit = self._add(kwargs, paras, _bases(paras))
        for row in _all_rows(table):
            if row.change is not None:
                self.revisions.append({**_revision_of(row.change, ""), "unit": unit.id})
        for p in paras:
            for tb in p.textboxes:
                self.blocks(tb, "textbox")

    def _anchor(self, group: list[Paragraph]) -> Anchor:
        first = group[0]
        if len(group) == 1:
            path = first.path
        else:
            prefix, _, a = first.path.rpartition("/")
            b = group[-1].path.rpartition("/")[2]
            path = f"{prefix}/{a}-{b}" if prefix else f"{a}-{b}"
        extra = (("open_fields", first.scan.open_fields),) if first.scan.open_fields else ()
        return Anchor(first.part, path, extra)

    # notes ---------------------------------------------------------------------------------

    def notes(self) -> None:
        done: set[tuple[str, str]] = set()
        i = 0
        while i < len(self.notes_cited):
            kind, nid, citing = self.notes_cited[i]
            i += 1
            if (kind, nid) in done:
                continue
            done.add((kind, nid))
            note = self.body.notes[(kind, nid)]
            paras: list[Paragraph] = []
            for b in note.blocks:
                paras.extend(b.paragraphs if isinstance(b, Table) else [b])
            items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in paras]
            text = "".join([s.text for s in join_segments(items, ACCEPTED)])
            rejected = "".join([s.text for s in join_segments(items, REJECTED)])
            for p in paras:
                self._number(p)
            mark = self.ctx.note_marks.get((kind, nid), "")
            kwargs = {
                "kind": kind,
                "text": text,
                "rejected_text": rejected,
                "label": f"{_NOTE_LABEL[kind]} {mark}" if mark else None,
                "number": mark or None,
                "parent": citing,
                "anchor": Anchor(note.part, f"#{nid}"),
                "meta": {},
            }
            unit = self._add(kwargs, paras, _bases(paras))
            for f, fk, fid in self.note_fields:
                if fk == kind and fid == nid:
                    f.target_unit = unit.id

def _chains(p: Paragraph) -> bool:
    """A tracked paragraph-mark change merges this paragraph with the next in one view."""
    mark = p.scan.mark_views
    if mark == BOTH:
        return False
    if mark == 0:  # a drop cap: always part of the next paragraph
        return True
    other = REJECTED if mark == ACCEPTED else ACCEPTED
    return bool(p.scan.text(other))


def _bases(paras: list[Paragraph]) -> list[int | None]:
    """Each paragraph's start offset in the joined accepted text (None when not shown)."""
    out: list[int | None] = []
    pos = 0
    prev: Paragraph | None = None
    for p in paras:
        if not p.presence & ACCEPTED:
            out.append(None)
            continue
        if prev is not None and prev.scan.mark_views & ACCEPTED:
            pos += 1
        out.append(pos)
        pos += p.scan.acc_len
        prev = p
    return out


def _figures(p: Paragraph):
    for kind, obj, views, alt in p.scan.objects:
        if kind == "figure":
            yield kind, obj, views, alt


def _figure_index(p: Paragraph, obj) -> int:
    n = 0
    for kind, o, _v, _a in p.scan.objects:
        if kind == "figure":
            if o is obj:
                return n
            n += 1
    return n


def _only_math(group: list[Paragraph]) -> bool:
    """Inline math alone on its line (with at most an equation number) reads as display math."""
    rest = "".join(s.text for p in group for s in p.scan.segments if s.kind != "math" and s.views & ACCEPTED)
    return bool(_EQ_ONLY_NUMBER.match(rest))


def _all_rows(table: Table):
    for row in table.rows:
        yield row
        for cell in row.cells:
            for b in cell.blocks:
                if isinstance(b, Table):
                    yield from _all_rows(b)


def _nested_floating(table: Table):
    for row in table.rows:
        for cell in row.cells:
            for b in cell.blocks:
                if isinstance(b, Table):
                    yield b.floating
                    yield from _nested_floating(b)


def _cell_text(cell) -> str:
    paras: list[Paragraph] = []
    for b in cell.blocks:
        if isinstance(b, Table):
            for row in _all_rows(b):
                for c in row.cells:
                    paras.extend(x for x in c.blocks if isinstance(x, Paragraph))
        else:
            paras.append(b)
    items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in paras]
    return "".join([s.text for s in join_segments(items, ACCEPTED)])


def _cell_grid(table: Table) -> list[list[str]]:
    """Rows of cell texts (accepted view), aligned on the table grid.

    ``w:gridBefore``/``w:gridAfter`` and ``w:gridSpan`` add empty strings so that columns line
    up; a cell that continues a vertical merge is an empty string. Deleted rows are left out.
    """
    grid: list[list[str]] = []
    for row in table.rows:
        if not row.views & ACCEPTED:
            continue
        cells = [""] * row.grid_before
        for cell in row.cells:
            cells.append("" if cell.merged else _cell_text(cell))
            cells.extend([""] * (cell.span - 1))
        cells.extend([""] * row.grid_after)
        grid.append(cells)
    return grid


def comment_texts(body: DocxBody) -> dict[str, tuple[str | None, str | None, str]]:
    """Each comment's author, date and text (its paragraphs, accepted view)."""
    out = {}
    for cid, cdef in body.comments.items():
        paras: list[Paragraph] = []
        for b in cdef.blocks:
            paras.extend(b.paragraphs if isinstance(b, Table) else [b])
        items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in paras]
        out[cid] = (cdef.author, cdef.date, "".join([s.text for s in join_segments(items, ACCEPTED)]))
    return out


def to_units(body: DocxBody) -> Document:
    """Convert the parsed body into a :class:`~adapters.model.Document`."""
    conv = _Converter(body)
    conv.blocks(body.blocks, "body")
    conv.notes()
    starts = attach_bookmarks(conv.units, conv.bm_events)
    resolve_targets(conv.units, starts)
    link_captions(conv.units)
    comments = collect_comments(conv.units, conv.c_events, comment_texts(body))
    revisions = []
    for n, r in enumerate(conv.revisions):
        rid = r["id"] if r["id"] is not None else f"r{n}"
        revisions.append(Revision(rid, r["kind"], r["author"], r["date"], r["text"], r["unit"]))
    for i, u in enumerate(conv.units):
        u.order = i
    return Document(
        format="docx",
        units=conv.units,
        revisions=revisions,
        comments=comments,
        warnings=list(body.warnings),
        meta={"main_part": body.context.main_part, "strict": body.context.strict},
    )
