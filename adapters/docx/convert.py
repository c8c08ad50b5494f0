"""Stage 3 of the reader: the parsed WordprocessingML (:class:`DocxBody`) -> neutral units.

Decides each unit's kind (section, title, caption, list_item, equation, figure, table,
paragraph, footnote, endnote), renders list and heading numbers in document order, nests
units under the innermost open section, links captions with their figures and tables,
resolves field targets through bookmarks, and collects revisions and comments.
"""
from __future__ import annotations

import re
from typing import Any

from ..lang import known, majority
from ..labels import caption_label, leading_label, section_label, seq_label
from ..model import Anchor, Document, Field, IdMaker, Revision, Unit
from ..typed_numbers import apply_typed_numbers
from .numbering import ListCounters
from .fields import SeqCounters
from .crossrefs import attach_bookmarks, collect_comments, link_captions, resolve_targets
from .indexes import entry_target, index_kind, toc_heading_styles
from .parse import Block, DocxBody, Paragraph, Table, TrackedChange
from .textmap import ACCEPTED, BOTH, REJECTED, join_segments

__all__ = ["to_units"]

_EQ_NUMBER = re.compile(r"\(\s*(\d+(?:[.\-]\d+)*[a-z]?)\s*\)\s*$")
_EQ_ONLY_NUMBER = re.compile(r"^[\s\u2028]*(?:\(\s*\d+(?:[.\-]\d+)*[a-z]?\s*\))?[\s\u2028]*$")
_NOTE_LABEL = {"footnote": "Footnote", "endnote": "Endnote"}
#: How a header or footer is named by the pages it styles (``w:type`` of its references).
_MARGIN_PAGES = {"first": "First-page", "even": "Even-page"}


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
        self._cited: set[tuple[str, str]] = set()
        self.bm_events: list[tuple[int, tuple]] = []  # (unit index, event) in document order
        self.c_events: list[tuple[int, tuple]] = []
        self.note_fields: list[tuple[Field, str, str]] = []
        self.indexes: list[dict[str, Any]] = []  # generated indexes (TOC): Document.meta["indexes"]
        #: styles the TOC fields list as headings ("Appendix,1"): headings without an outline level
        self.toc_levels = toc_heading_styles(b.scan for b in body.blocks if isinstance(b, Paragraph))

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
        limit = len(unit.text) if unit.kind == "figure" else None  # a figure's text is its alt text
        if shown:
            for rec in scan.fields:
                start, end = rec.start + off, rec.end + off
                if limit is not None:
                    start, end = min(start, limit), min(end, limit)
                unit.fields.append(Field(rec.kind, rec.code, rec.target, None, rec.result, start, end))
            if scan.code and limit is None:  # the spans written as code (adapters.monospace)
                unit.meta.setdefault("code", []).extend([s + off, e + off] for s, e in scan.code)
        for ev in scan.events:
            kind = ev[0]
            if kind == "note":
                _, nkind, nid, start, end = ev
                if shown and nid is not None and (nkind, nid) in self.body.notes:
                    if (nkind, nid) not in self._cited:
                        self._cited.add((nkind, nid))
                        self.notes_cited.append((nkind, nid, unit.id))
                    start, end = start + off, end + off
                    if limit is not None:
                        start, end = min(start, limit), min(end, limit)
                    f = Field("note", f"{nkind}Reference", nid, None, self.ctx.note_marks.get((nkind, nid), ""), start, end)
                    unit.fields.append(f)
                    self.note_fields.append((f, nkind, nid))
            elif kind in ("bm_start", "bm_end"):
                self.bm_events.append((index, (kind, para.part, *ev[1:-1], ev[-1] + off)))
            else:
                pos = ev[2] + off
                self.c_events.append((index, (kind, ev[1], pos if limit is None else min(pos, limit))))
        for rkind, el, text in scan.revisions:
            self.revisions.append({**_revision_of(TrackedChange.of(rkind, el), text), "unit": unit.id})
        mark = para.mark_change
        if mark is not None:
            self.revisions.append({**_revision_of(mark, "\n"), "unit": unit.id})
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
        ilvl: int | None
        if scan.num_id is not None:
            ilvl = scan.ilvl if scan.ilvl is not None else 0
        elif scan.ilvl is not None:
            ilvl = scan.ilvl
        else:
            ilvl = style.ilvl  # None: the level whose w:pStyle names the style
        return self.counters.next_label(num_id, ilvl, style.chain)

    def _language(self, paras: list[Paragraph]) -> str | None:
        """The language of most characters: each run's ``w:lang`` (or its character style's),
        else its paragraph style chain's, else the document defaults' (``w:docDefaults``)."""
        styles = self.styles
        counts: list[tuple[str | None, int]] = []
        for p in paras:
            fallback = styles.para(p.scan.style_id).lang or styles.default_lang
            langs = p.scan.langs
            if len(langs) <= 1 and len(paras) == 1:  # the usual case: one language
                return known(next(iter(langs), None) or fallback)
            if not langs:
                counts.append((fallback, 0))
            for tag, n in langs.items():
                counts.append((tag or fallback, n))
        return majority(counts)

    # blocks --------------------------------------------------------------------------------

    def blocks(self, blocks: list[Block], where: str) -> None:
        i = 0
        n = len(blocks)
        # Whether the accepted text so far runs on into the next paragraph: its mark is deleted
        # in the accepted view. Paragraphs and tables deleted whole let it flow past them.
        flowing = False
        while i < n:
            b = blocks[i]
            if isinstance(b, Table):
                self.table(b, where)
                flowing = flowing and all(not (p.presence & ACCEPTED) for p in b.paragraphs)
                i += 1
                continue
            if where == "body" and self._index_line(b):
                flowing = False
                i += 1
                continue
            group = [b]
            while _chains(group[-1]) and i + len(group) < n:
                after = blocks[i + len(group)]
                if not isinstance(after, Paragraph):
                    break
                group.append(after)
            self.paragraphs(group, where, absorbing=flowing)
            if any(p.presence & ACCEPTED and p.scan.acc_len for p in group):
                flowing = not group[-1].scan.mark_views & ACCEPTED
            elif group[-1].scan.mark_views & ACCEPTED:
                flowing = False
            i += len(group)

    def paragraphs(self, group: list[Paragraph], where: str, absorbing: bool = False) -> None:
        """One unit (plus its figures and text boxes) from a paragraph or a merged group."""
        items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in group]
        text = "".join([s.text for s in join_segments(items, ACCEPTED)])
        rejected = "".join([s.text for s in join_segments(items, REJECTED)])
        bases = _bases(group)
        # merged paragraphs keep the properties of the last one, whose mark survives
        scan = group[-1].scan
        style = self.styles.para(scan.style_id)
        numbered = [self._number(p) for p in group][-1]
        meta = _paragraph_meta(group, where)
        if absorbing and not text and rejected:
            # The mark that ends a merge in the accepted view (paragraphs deleted up to a table:
            # Word keeps the last mark and joins the text above into it): no line of its own.
            meta["absent_in"] = "accepted"
        if numbered is not None:
            meta["list_label"] = numbered[0]
        lang = self._language(group)
        if lang:
            meta["lang"] = lang
        kwargs: dict[str, Any] = {
            "kind": "paragraph",
            "text": text,
            "rejected_text": rejected,
            "style": style.name,
            "parent": self._parent(),
            "anchor": self._anchor(group),
            "meta": meta,
        }
        self._decide_kind(kwargs, group, where, numbered)
        figures = [(p, obj, views, alt) for p in group for kind, obj, views, alt in p.scan.objects if kind == "figure"]
        unit = None  # a paragraph that only holds pictures is its figures
        if not figures or text.strip() or kwargs["kind"] != "paragraph":
            unit = self._add(kwargs, group, bases)
            if unit.kind == "section":
                self.sections.append((unit.level or 1, unit.id))
        for idx, (p, obj, views, alt) in enumerate(figures):
            fmeta: dict[str, Any] = {"container": "textbox"} if where == "textbox" else {}
            if unit is not None:  # a picture among a paragraph's words: it moves and stays with them
                fmeta["inline_in"] = unit.id
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

    def _decide_kind(self, kwargs: dict[str, Any], group: list[Paragraph], where: str, numbered) -> None:
        """Kind, label, number, title and level of a paragraph unit (updates ``kwargs``).

        In order: display math is an equation; an outline level makes a section (body only);
        the Title style a title; the Caption style or a SEQ field a caption; a rendered list
        label a list item; a leading "Theorem 2." labels a plain paragraph.
        """
        scan = group[-1].scan
        style = self.styles.para(scan.style_id)
        text = kwargs["text"]
        stripped = text.strip()
        outline = scan.outline if scan.outline is not None else style.outline_level
        if outline is None and style.name and style.name.lower() in self.toc_levels:
            outline = self.toc_levels[style.name.lower()] - 1  # a heading the TOC lists (adapters.docx.indexes)
        if outline is not None and not 0 <= outline <= 8:
            outline = None
        seq_numbers = self._seq_numbers(group)
        math = [m for p in group for m in p.scan.math]
        if math and where in ("body", "textbox") and (any(m[1] for m in math) or _only_math(group)):
            kwargs["kind"] = "equation"
            number = seq_numbers[0][1] if seq_numbers else None
            if number is None:
                m = _EQ_NUMBER.search(_non_math_text(group))
                number = m.group(1) if m else None
            if number:
                kwargs["number"] = number
                kwargs["label"] = f"Equation ({number})"
        elif where == "body" and outline is not None and stripped:
            level = outline + 1
            kwargs.update(kind="section", title=stripped, level=level)
            if numbered is not None and numbered[1]:
                kwargs["number"] = numbered[1]
                kwargs["label"] = section_label(numbered[1], numbered[0])
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
                kwargs["label"] = seq_label(f.target or "", number, stripped)
                kwargs["number"] = number
            else:
                found = caption_label(text)
                if found:
                    kwargs["label"], kwargs["number"] = found
        elif numbered is not None and numbered[0]:
            kwargs.update(kind="list_item", label=numbered[0], number=numbered[0], level=numbered[2] + 1)
        elif stripped:
            found = leading_label(text)
            if found:
                kwargs["label"], kwargs["number"] = found

    def _seq_numbers(self, group: list[Paragraph]) -> list[tuple[Any, str]]:
        """The SEQ fields of a paragraph with the number each shows (its result, else counted)."""
        out: list[tuple[Any, str]] = []
        for p in group:
            for f in p.scan.fields:
                if f.kind == "seq":
                    computed = self.seq.next(f.parsed) if f.parsed is not None else 0
                    out.append((f, f.result.strip() or str(computed)))
        return out

    def table(self, table: Table, where: str) -> None:
        paras = table.paragraphs
        items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in paras]
        text = "".join([s.text for s in join_segments(items, ACCEPTED)])
        rejected = "".join([s.text for s in join_segments(items, REJECTED)])
        for p in paras:
            self._number(p)
        meta: dict[str, Any] = {"cells": _cell_grid(table)}
        lang = self._language(paras)
        if lang:
            meta["lang"] = lang
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

    def _index_line(self, p: Paragraph) -> bool:
        """A line of a generated index (a TOC) is no unit: it joins ``self.indexes``
        (:mod:`adapters.docx.indexes`), as the ODT reader lists ``text:table-of-content``."""
        kind = index_kind(p.scan, self.styles.para(p.scan.style_id).name)
        if kind is None:
            return False
        self._number(p)
        last = self.indexes[-1] if self.indexes else None
        if last is None or last["kind"] != kind or last["_after"] != len(self.units):
            last = {"kind": kind, "name": None, "part": p.part, "path": p.path, "entries": [], "lines": [],
                    "_after": len(self.units)}
            self.indexes.append(last)
        text = p.scan.text()
        last["lines"].append(text)  # every paragraph the index spans, blank ones too
        if text.strip():
            last["entries"].append({"text": text, "target": entry_target(p.scan)})
        return True

    # notes ---------------------------------------------------------------------------------

    def notes(self) -> None:
        """Cited footnotes and endnotes, after the body in citation order; each under its citer."""
        note_units: dict[tuple[str, str], str] = {}
        for kind, nid, citing in self.notes_cited:
            note = self.body.notes[(kind, nid)]
            paras: list[Paragraph] = []
            for b in note.blocks:
                paras.extend(b.paragraphs if isinstance(b, Table) else [b])
            items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in paras]
            for p in paras:
                self._number(p)
            mark = self.ctx.note_marks.get((kind, nid), "")
            kwargs = {
                "kind": kind,
                "text": "".join([s.text for s in join_segments(items, ACCEPTED)]),
                "rejected_text": "".join([s.text for s in join_segments(items, REJECTED)]),
                "label": f"{_NOTE_LABEL[kind]} {mark}" if mark else None,
                "number": mark or None,
                "parent": citing,
                "anchor": Anchor(note.part, f"#{nid}"),
                "meta": {"lang": lang} if (lang := self._language(paras)) else {},
            }
            note_units[(kind, nid)] = self._add(kwargs, paras, _bases(paras)).id
        for f, kind, nid in self.note_fields:
            f.target_unit = note_units.get((kind, nid))

    # headers and footers -------------------------------------------------------------------

    def margins(self) -> None:
        """Headers and footers that show text, after the notes: one unit per part (its
        paragraphs and table cells, as a note), anchored on the whole part."""
        for m in self.body.margins:
            paras: list[Paragraph] = []
            for b in m.blocks:
                paras.extend(b.paragraphs if isinstance(b, Table) else [b])
            items = [(p.el, p.scan.segments, p.scan.mark_views, p.presence) for p in paras]
            text = "".join([s.text for s in join_segments(items, ACCEPTED)])
            rejected = "".join([s.text for s in join_segments(items, REJECTED)])
            if not text.strip() and not rejected.strip():
                continue
            pages = "default" if "default" in m.types else m.types[0]
            name = m.kind.capitalize()
            meta: dict[str, Any] = {"pages": list(m.types)}
            lang = self._language(paras)
            if lang:
                meta["lang"] = lang
            kwargs = {
                "kind": m.kind,
                "text": text,
                "rejected_text": rejected,
                "label": f"{_MARGIN_PAGES[pages]} {m.kind}" if pages in _MARGIN_PAGES else name,
                "style": self.styles.para(paras[0].scan.style_id).name if paras else None,
                "parent": None,
                "anchor": Anchor(m.part, ""),
                "meta": meta,
            }
            self._add(kwargs, paras, _bases(paras))


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


def _paragraph_meta(group: list[Paragraph], where: str) -> dict[str, Any]:
    """``absent_in`` for a paragraph that exists in one view only, plus where it sits."""
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
    return meta


def _figure_index(p: Paragraph, obj) -> int:
    n = 0
    for kind, o, _v, _a in p.scan.objects:
        if kind == "figure":
            if o is obj:
                return n
            n += 1
    return n


def _non_math_text(group: list[Paragraph]) -> str:
    return "".join(s.text for p in group for s in p.scan.segments if s.kind != "math" and s.views & ACCEPTED)


def _only_math(group: list[Paragraph]) -> bool:
    """Inline math alone on its line (with at most an equation number) reads as display math."""
    return bool(_EQ_ONLY_NUMBER.match(_non_math_text(group)))


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
    conv.margins()
    starts = attach_bookmarks(conv.units, conv.bm_events)
    resolve_targets(conv.units, starts)
    apply_typed_numbers(conv.units)
    link_captions(conv.units)
    comments = collect_comments(conv.units, conv.c_events, comment_texts(body))
    revisions = []
    for n, r in enumerate(conv.revisions):
        rid = r["id"] if r["id"] is not None else f"r{n}"
        revisions.append(Revision(rid, r["kind"], r["author"], r["date"], r["text"], r["unit"]))
    for i, u in enumerate(conv.units):
        u.order = i
    meta = _document_meta(body)
    if conv.indexes:
        meta["indexes"] = _indexes(conv.indexes, conv.units, starts)
    return Document(
        format="docx",
        units=conv.units,
        revisions=revisions,
        comments=comments,
        warnings=list(body.warnings),
        meta=meta,
    )


def _indexes(found: list[dict[str, Any]], units: list[Unit], starts: dict[str, int]) -> list[dict[str, Any]]:
    """The generated indexes with each entry's target unit (the unit holding its bookmark)."""
    out = []
    for ix in found:
        entries = [{**e, "target_unit": units[starts[e["target"]]].id if e["target"] in starts else None}
                   for e in ix["entries"]]
        out.append({k: v for k, v in ix.items() if not k.startswith("_")} | {"entries": entries})
    return out


def _document_meta(body: DocxBody) -> dict[str, Any]:
    """The main part, strictness, and the default language (``w:docDefaults``, else the
    settings' ``w:themeFontLang``: the editing language Word made the file in)."""
    ctx = body.context
    meta: dict[str, Any] = {"main_part": ctx.main_part, "strict": ctx.strict}
    lang = known(ctx.styles.default_lang) or known(ctx.theme_lang)
    if lang:
        meta["language"] = lang
    return meta
