"""Stage three of the ODT reader: parsed blocks -> units of the neutral model.

Decisions made here (and only here):

* A heading (``text:h``) is a ``section`` unit; a paragraph in the ``Title`` style a
  ``title``; a paragraph holding a ``text:sequence`` (or in a caption style and opening with
  a typed label) a ``caption``; a list paragraph a ``list_item``; the rest ``paragraph``
  units (labelled when they open with "Theorem 2." and the like).
* Paragraphs blank in both views are not units (their numbers still count), unless the
  document has nothing else: then its blank paragraphs are its units.
* A table is one ``table`` unit: its cell paragraphs row by row, joined by ``"\\n"``.
* Images and charts are ``figure`` units (their alt text as text), formulas ``equation``
  units; the paragraphs of text boxes are units of their own. Objects come after the
  paragraph that anchors them, except pictures at its very start (and a caption's own
  picture), which come just before it.
* Generated indexes (tables of contents, illustration indexes) are not units: the word
  processor regenerates their text. Their entries are listed in ``Document.meta["indexes"]``.
* Notes become ``footnote``/``endnote`` units after all body units, in citation order; the
  citing paragraph keeps the citation mark, not the note text.
* A unit's ``parent`` is the innermost open section, except for a caption (its figure or
  table) and a note (the unit that cites it).
"""
from __future__ import annotations

import re
from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING, Any, Sequence

from ..labels import caption_label, leading_label, section_number_and_label, seq_label
from ..typed_numbers import apply_typed_numbers
from ..lang import known, majority
from ..model import Anchor, Bookmark, Comment, Document, IdMaker, Unit
from .body import Body, Frame, Index, Note, Paragraph, Table
from .changes import rejected_lines
from .fields import FieldIndex, make_field, mark_events
from .margins import read_margins
from .objects import formula_text, object_kind
from .odfxml import prefixed, qn
from .numbering import Numbering
from .parse import paragraph_frames
from .revisions import ChangeLog
from .textmap import block_paragraphs, element_path, rejected_segments, relative_path

if TYPE_CHECKING:  # pragma: no cover
    from .context import OdtContext

__all__ = ["to_units"]

_SEQUENCE = qn("text:sequence")
_NAME = qn("text:name")
_STYLE_NAME = qn("text:style-name")
_HREF = qn("xlink:href")
_CAPTION_STYLES = {"caption", "figure", "table", "illustration", "drawing", "text"}
_EQ_NUMBER = re.compile(r"^\s*\(?\s*(\d+(?:[.\-]\d+)*)\s*\)?\s*$")
_MARKS = ("bookmark", "bookmark-start", "reference-mark", "reference-mark-start")


_P, _H = qn("text:p"), qn("text:h")
_CHANGED_REGION = qn("text:changed-region")
_TABLE = qn("table:table")
_TEXT_ID = qn("text:id")


def _in_change_table(el: Any) -> bool:
    """Whether an element is deleted content (it sits in the tracked-changes table)."""
    return any(a.tag == _CHANGED_REGION for a in el.iterancestors())


def _deleted_table(para: Any) -> Any:
    """The outermost table of the tracked-changes table that a deleted paragraph sits in."""
    if para is None:
        return None
    out = None
    for a in para.iterancestors():
        if a.tag == _TABLE:
            out = a
        elif a.tag == _CHANGED_REGION:
            return out
    return None


def _change_id_of(el: Any) -> str | None:
    """The id of the changed region an element of the tracked-changes table belongs to."""
    region = next((a for a in el.iterancestors() if a.tag == _CHANGED_REGION), None)
    return region.get(_TEXT_ID) if region is not None else None


def _blank(s: str | None) -> bool:
    return s is None or not s.strip()


class _Converter:
    def __init__(self, ctx: "OdtContext", keep_blank: bool = False) -> None:
        self.ctx = ctx
        self.keep_blank = keep_blank
        self.doc = Document(format="odt", meta=dict(ctx.meta))
        self.ids = IdMaker()
        self.numbering = Numbering(ctx.styles)
        self.changes = ChangeLog(ctx)
        self.index = FieldIndex()
        self.sections: list[Unit] = []
        self.notes: list[tuple[Note, Unit | None]] = []
        self.captions: list[Unit] = []  # captions still looking for their figure or table
        self._formula: dict[str, bool] = {}
        self._para_lang: dict[str | None, str | None] = {}  # paragraph style -> its language

    # -- units --------------------------------------------------------------------------------

    def add(self, kind: str, text: str, anchor: Anchor, **kw: Any) -> Unit:
        unit = Unit(id=self.ids(kind, text), kind=kind, text=text, order=len(self.doc.units), anchor=anchor, **kw)
        if unit.parent is None and kind not in ("footnote", "endnote", "title", "section", "header", "footer"):
            unit.parent = self.sections[-1].id if self.sections else None
        self.doc.units.append(unit)
        return unit

    def anchor(self, path: tuple[int, ...], el: Any, **extra: Any) -> Anchor:
        items = [("tag", prefixed(el.tag))] + sorted(extra.items())
        return Anchor(part="content.xml", path=element_path(path), extra=tuple(items))

    def held_by(self, unit: Unit, paras: list[Paragraph]) -> None:
        """Fields, marks, changes and comments of paragraphs whose text ``unit`` holds."""
        base = 0
        styles = self.ctx.styles
        for p in paras:
            text = p.text
            if text and styles.code("paragraph", p.style):  # a paragraph written as code
                unit.meta.setdefault("code", []).append([base, base + len(text)])
            for ev in p.events:
                if ev.kind == "field":
                    unit.fields.append(make_field(ev, text, base))
                    self.index.note_field(unit, ev)
                elif ev.kind == "link":
                    unit.fields.append(make_field(ev, text, base, link=True))
                elif ev.kind == "code":
                    unit.meta.setdefault("code", []).append([ev.start + base, min(ev.end, len(text)) + base])
            for mark, is_ref in mark_events(p.events, len(text)):
                unit.bookmarks.append(Bookmark(mark.name, mark.start + base, mark.end + base))
                (self.index.refmarks if is_ref else self.index.bookmarks).setdefault(mark.name, unit.id)
            self.changes.paragraph(p, unit)
            self.comments(p, unit)
            base += len(text) + 1

    # -- blocks and flows ---------------------------------------------------------------------

    def blocks(self, blocks: list) -> None:
        run: list[Paragraph] = []
        for b in blocks:
            if isinstance(b, Paragraph):
                run.append(b)
                continue
            if run:
                self.flow(run)
                run = []
            if isinstance(b, Table):
                self.table(b)
            elif isinstance(b, Frame):
                self.frame(b)
            elif isinstance(b, Index):
                self.generated_index(b)
        if run:
            self.flow(run)

    def _start_inserted(self, p: Paragraph) -> bool:
        kinds = self.ctx.change_kinds
        return any(kinds.get(c) == "insertion" for c in p.open_at_start)

    def _rejected(self, paras: list[Paragraph]):
        return rejected_lines([(self._start_inserted(p), rejected_segments(p, self.ctx)) for p in paras])

    def _rejected_text(self, paras: list[Paragraph], text: str) -> str | None:
        if not self.ctx.changes:
            return None
        rejected = "\n".join(line.text for line in self._rejected(paras)[0])
        return None if rejected == text else rejected

    def flow(self, paras: list[Paragraph]) -> None:
        """Make the units of a flow of paragraphs (the body, a text box), in order.

        With tracked changes, each paragraph gets the rejected-view lines it owns, and lines
        made only of deleted text become units of their own, placed where they were.
        """
        if not self.ctx.changes:
            for p in paras:
                self.paragraph(p, None, False)
            return
        lines, starts = self._rejected(paras)
        owned: dict[int, list[str]] = {}
        first: dict[int, int] = {}
        gone = self._deleted_pictures(lines)
        gone_of: dict[int, list[Frame]] = {}
        for k, line in enumerate(lines):
            if line.owner is not None:
                owned.setdefault(line.owner, []).append(line.text)
                first.setdefault(line.owner, k)
                gone_of.setdefault(line.owner, []).extend(gone.get(k, ()))
        tables = {k: t for k, line in enumerate(lines) if line.owner is None
                  for t in [_deleted_table(line.para)] if t is not None}
        orphans = [k for k, line in enumerate(lines)
                   if line.owner is None and (not _blank(line.text) or k in gone or k in tables)]
        j = 0
        for i, p in enumerate(paras):
            pos = first.get(i, starts[i])
            while j < len(orphans) and orphans[j] < pos:
                j = self._deleted_lines(lines, orphans, j, gone, tables)
            mine = owned.get(i)
            self.paragraph(p, "\n".join(mine) if mine is not None else "", mine is None, gone_of.get(i, []))
        while j < len(orphans):
            j = self._deleted_lines(lines, orphans, j, gone, tables)

    def _deleted_lines(self, lines: list, orphans: list[int], j: int, gone: dict[int, list[Frame]],
                       tables: dict[int, Any]) -> int:
        """The unit of the deleted line ``orphans[j]``: a paragraph, or a deleted table whole (its
        cells' lines, blank ones too, as the table's text); returns the next orphan's index."""
        k = orphans[j]
        table = tables.get(k)
        if table is None:
            self.deleted_paragraph(lines[k], gone.get(k, []))
            return j + 1
        rows = []
        while j < len(orphans) and tables.get(orphans[j]) is table:
            rows.append(lines[orphans[j]].text)
            j += 1
        path = relative_path(table, self.ctx.office_text)
        self.add("table", "", self.anchor(path, table, view="rejected"), rejected_text="\n".join(rows),
                 meta={"absent_in": "accepted"})
        return j

    def _deleted_pictures(self, lines: list) -> dict[int, list[Frame]]:
        """The pictures and objects of the deleted paragraphs that end each rejected-view line
        (a figure deleted with its paragraph): units of the rejected view only."""
        out: dict[int, list[Frame]] = {}
        for k, line in enumerate(lines):
            para = line.para
            if para is None or not _in_change_table(para):
                continue
            frames = [f for f in paragraph_frames(para, self.ctx, relative_path(para, self.ctx.office_text))
                      if f.kind in ("image", "object")]
            if frames:
                out[k] = frames
        return out

    def _inline_deleted(self, p: Paragraph, gone: list[Frame]) -> list[Frame]:
        """Pictures deleted from a paragraph that stays (a deletion of one paragraph's content
        holding them), and ``gone`` (pictures of deleted paragraphs on its lines), each at the
        offset of the change mark that deleted it."""
        out: list[Frame] = []
        at: dict[str, int] = {}
        for ev in p.events:
            if ev.kind != "change" or ev.name is None:
                continue
            at.setdefault(ev.name, ev.start)
            region = self.ctx.changes.get(ev.name)
            if region is None or region.kind != "deletion" or len(region.content) != 1:
                continue
            el = region.content[0]
            if el.tag in (_P, _H):
                out += [dc_replace(f, offset=ev.start) for f in paragraph_frames(el, self.ctx, relative_path(el, self.ctx.office_text))
                        if f.kind in ("image", "object")]
        for f in gone:
            cid = _change_id_of(f.element)
            out.append(dc_replace(f, offset=at.get(cid, 0) if cid else 0))
        return out

    def deleted_paragraph(self, line, pictures: Sequence[Frame] = ()) -> None:
        """A paragraph that exists in the rejected view only (deleted with tracking on), and
        the pictures that stood in it (at its start: before it, as :meth:`paragraph` has them).

        Its anchor points into the tracked-changes table (``view`` = ``rejected``).
        """
        lead = [f for f in pictures if f.offset == 0]
        self.frames(lead)
        if _blank(line.text):
            return
        node = line.node
        path = relative_path(node, self.ctx.office_text) if node is not None else ()
        anchor = self.anchor(path, node, view="rejected") if node is not None else Anchor("content.xml", "/")
        unit = self.add("paragraph", "", anchor, rejected_text=line.text, meta={"absent_in": "accepted"})
        region = node
        while region is not None and region.getparent() is not None:
            cid = region.get(qn("text:id"))
            if cid in self.ctx.changes:
                self.changes.at(cid, unit)
                break
            region = region.getparent()
        self.frames([f for f in pictures if f not in lead], unit.id)

    # -- paragraphs ---------------------------------------------------------------------------

    def paragraph(self, p: Paragraph, rejected: str | None, absent: bool, gone: Sequence[Frame] = ()) -> None:
        label, cited, list_style, list_meta = self.numbering.label(p)
        text = p.text
        rejected_text = None if rejected is None or rejected == text else rejected
        kind, title, number, ulabel = self.classify(p, text, label, cited)
        shown = p.frames
        if self.ctx.changes:  # pictures deleted with tracking on stand where they were, absent when accepted
            deleted = self._inline_deleted(p, list(gone))
            if deleted:
                shown = sorted(p.frames + deleted, key=lambda f: f.offset)
        pictures = [f for f in shown if f.kind in ("image", "object")]
        others = [f for f in shown if f.kind not in ("image", "object")]
        if pictures and kind == "paragraph" and all(self.is_formula(f) for f in pictures):
            eqnum = self._equation_number(p, text)
            if eqnum is not None or _blank(text):  # an equation paragraph: formulas and a number
                for f in pictures:
                    self.equation(f, eqnum)
                self.changes.paragraph(p, self.doc.units[-1])
                self.comments(p, self.doc.units[-1])
                self.frames(others)
                self.cited(p, self.doc.units[-1])
                return
        keep = self.keep_blank or not (_blank(text) and _blank(rejected_text) and not _has_marks(p))
        if absent and _blank(text):
            keep = self.keep_blank
        # pictures at the start of the paragraph (all of a caption's) come before its unit
        lead = pictures if kind == "caption" else [f for f in pictures if f.offset == 0]
        own: list[Unit] = self.frames(lead)
        unit = None
        if keep:
            meta: dict[str, Any] = dict(list_meta)
            if label:
                meta["list_label"] = label
            lang = self.language([p])
            if lang:
                meta["lang"] = lang
            if list_style:
                meta["list_style"] = list_style
            if p.section:
                meta["section"] = p.section
            if absent:
                meta["absent_in"] = "rejected"
            if self.ctx.styles.hidden("paragraph", p.style) or any(
                ev.kind == "hidden" and ev.start == 0 and ev.end >= len(text) for ev in p.events
            ):
                meta["hidden"] = True
            if p.container is not None:  # a paragraph of a text box (or of a shape)
                meta["text_box"] = True
                if p.container.name:
                    meta["frame"] = p.container.name
            parent = None
            level = list_meta.get("list_level") if kind == "list_item" else None
            if kind == "section":
                level = p.outline_level or 1
                while self.sections and (self.sections[-1].level or 0) >= level:
                    self.sections.pop()
                parent = self.sections[-1].id if self.sections else None
            unit = self.add(
                kind,
                text,
                self.anchor(p.path, p.element),
                label=ulabel,
                number=number,
                title=title,
                style=self.ctx.styles.display_name("paragraph", p.style),
                level=level,
                rejected_text="" if absent and rejected_text is None else rejected_text,
                meta=meta,
                parent=parent,
            )
            if kind == "section":
                self.sections.append(unit)
            self.held_by(unit, [p])
            if kind == "caption":
                if own:
                    self.attach_caption(unit, own[0])
                else:
                    self.captions.append(unit)
        else:
            self.changes.paragraph(p, self.doc.units[-1] if self.doc.units else None)
            self.comments(p, None)
        self.frames([f for f in shown if f not in lead], unit.id if unit is not None else None)
        self.cited(p, unit)

    def classify(
        self, p: Paragraph, text: str, label: str | None, cited: str | None = None
    ) -> tuple[str, str | None, str | None, str | None]:
        """``(kind, title, number, label)`` of a paragraph.

        A heading's number is what references cite ("4.2", "A", "B.1"), as the DOCX reader
        has it; its rendered label ("4.2.", "Appendix A.") is ``meta["list_label"]``.
        """
        styles = self.ctx.styles
        if styles.is_title(p.style):
            return "title", text.strip() or None, None, None
        if p.heading:
            if not cited:
                return "section", text.strip() or None, None, None
            return "section", text.strip() or None, cited, section_number_and_label(label)[1]
        if p.listpos is None:
            seq = next((ev for ev in p.events if ev.kind == "field" and ev.node.tag == _SEQUENCE), None)
            if seq is not None:
                shown = text[seq.start : seq.end].strip()
                if shown:
                    return "caption", None, shown, seq_label(seq.node.get(_NAME) or "", shown, text.strip())
            name = (styles.display_name("paragraph", p.style) or "").lower()
            if name in _CAPTION_STYLES or name.startswith("caption"):
                typed = caption_label(text)
                if typed is not None:
                    return "caption", None, typed[1], typed[0]
        if p.listpos is not None or label:
            return "list_item", None, label, label
        lead = leading_label(text)
        if lead is not None:
            return "paragraph", None, lead[1], lead[0]
        return "paragraph", None, None, None

    def language(self, paras: list[Paragraph]) -> str | None:
        """The language of most characters of the paragraphs: the paragraph's style (through
        its parents, then the default style), or a span's character style where it sets one
        (the innermost span wins)."""
        styles = self.ctx.styles
        cache = self._para_lang
        counts: list[tuple[str | None, int]] = []
        for p in paras:
            try:
                base = cache[p.style]
            except KeyError:
                base = cache[p.style] = styles.language("paragraph", p.style)
            spans = [ev for ev in p.events if ev.kind == "lang"] if p.events else None
            if not spans:
                if len(paras) == 1:
                    return known(base)
                counts.append((base, len(p.text)))
                continue
            n = len(p.text)
            tags = [base] * n
            for ev in sorted(spans, key=lambda e: e.start - e.end):  # outer spans first
                tag = styles.language("text", ev.node.get(_STYLE_NAME))
                tags[ev.start : ev.end] = [tag] * (min(ev.end, n) - ev.start)
            for tag in dict.fromkeys(tags):
                counts.append((tag, tags.count(tag)))
        return majority(counts)

    # -- frames, formulas, captions -----------------------------------------------------------

    def is_formula(self, f: Frame) -> bool:
        if f.kind != "object" or not f.object_part:
            return False
        known = self._formula.get(f.object_part)
        if known is None:
            known = self._formula[f.object_part] = object_kind(self.ctx.package, f.object_part) == "formula"
        return known

    def _equation_number(self, p: Paragraph, text: str) -> str | None:
        for ev in p.events:
            if ev.kind == "field" and ev.node.tag == _SEQUENCE:
                return text[ev.start : ev.end].strip() or None
        m = _EQ_NUMBER.match(text)
        return m.group(1) if m else None

    def frames(self, frames: list[Frame], inline_in: str | None = None) -> list[Unit]:
        out = []
        for f in frames:
            unit = self.frame(f, inline_in)
            if unit is not None:
                out.append(unit)
        return out

    def frame(self, f: Frame, inline_in: str | None = None) -> Unit | None:
        """A figure or equation unit for a picture or object; a text box's units in place.
        ``inline_in``: the paragraph unit whose words the picture stands among (after them)."""
        if self.is_formula(f):
            return self.equation(f, None)
        if f.kind in ("image", "object"):
            meta: dict[str, Any] = {"name": f.name} if f.name else {}
            if inline_in is not None:
                meta["inline_in"] = inline_in
            if f.kind == "image" and f.href:
                meta["image"] = f.href
            if f.kind == "object":
                meta["object"] = f.object_part
                meta["object_kind"] = object_kind(self.ctx.package, f.object_part) if f.object_part else "missing"
            alt = ": ".join(x for x in (f.title, f.desc) if x)
            deleted = _in_change_table(f.element)
            if deleted:  # a picture deleted with tracking on: in the rejected view only
                meta["absent_in"] = "accepted"
            anchor = self.anchor(f.path, f.element, kind="figure", **({"view": "rejected"} if deleted else {}))
            return self.add("figure", "" if deleted else alt, anchor, title=f.title, meta=meta,
                            rejected_text=alt if deleted and alt else None)
        if f.blocks:
            self.blocks(f.blocks)
        return None

    def equation(self, f: Frame, number: str | None) -> Unit:
        text = formula_text(self.ctx.package, f.object_part) if f.object_part else ""
        meta: dict[str, Any] = {"object": f.object_part}
        if f.name:
            meta["name"] = f.name
        label = seq_label("Equation", number) if number else None
        extra = {"kind": "equation"}
        if _in_change_table(f.element):  # a formula deleted with tracking on
            meta["absent_in"] = "accepted"
            extra["view"] = "rejected"
        return self.add("equation", text, self.anchor(f.path, f.element, **extra), label=label, number=number, meta=meta)

    def attach_caption(self, caption: Unit, target: Unit) -> None:
        """The caption's label and number go to its figure or table, which becomes its parent."""
        target.label = caption.label
        target.number = caption.number
        target.meta["caption"] = caption.text
        target.meta["caption_unit"] = caption.id
        caption.parent = target.id
        caption.meta["caption_of"] = target.id

    def link_captions(self) -> None:
        """Captions without a picture of their own: the unit just before (a figure or table of
        the caption's kind), else the unit just after."""
        units = self.doc.units
        for caption in self.captions:
            word = (caption.label or "").split(" ")[0]
            want = {"Table": ("table",), "Figure": ("figure",), "Equation": ("equation",)}.get(word, ("figure", "table"))
            i = caption.order
            for cand in units[i - 1 : i] + units[i + 1 : i + 2]:
                if cand.kind in want and cand.meta.get("caption") is None:
                    self.attach_caption(caption, cand)
                    break

    # -- tables, indexes ----------------------------------------------------------------------

    def _paragraphs(self, el: Any) -> list[Paragraph]:
        para_of = self.index.para_of
        return [para_of[e] for e in block_paragraphs(el) if e in para_of]

    def table(self, t: Table) -> None:
        paras = self._paragraphs(t.element)
        cell_labels = []
        for p in paras:  # list numbers in cells count like everywhere else
            label = self.numbering.label(p)[0]
            if label:
                cell_labels.append([p.text, label])
        text = "\n".join(p.text for p in paras)
        grid, spans = [], []
        for r, row in enumerate(t.rows):
            cells = []
            for c, cell in enumerate(row):
                cells.append("\n".join(p.text for p in self._paragraphs(cell.element)))
                if cell.colspan > 1 or cell.rowspan > 1:
                    spans.append([r, c, cell.rowspan, cell.colspan])
            grid.append(cells)
        meta: dict[str, Any] = {"cells": grid, "rows": len(t.rows), "columns": max((len(r) for r in t.rows), default=0)}
        lang = self.language(paras)
        if lang:
            meta["lang"] = lang
        for key, value in (("header_rows", t.header_rows), ("spans", spans), ("name", t.name),
                           ("section", t.section), ("cell_labels", cell_labels)):
            if value:
                meta[key] = value
        rejected = self._rejected_text(paras, text)
        if any(self.ctx.change_kinds.get(c) == "insertion" for c in t.open_at_start):
            rejected = ""  # a table inserted with tracking on: gone in the rejected view
            meta["absent_in"] = "rejected"
        unit = self.add("table", text, self.anchor(t.path, t.element), rejected_text=rejected, meta=meta)
        self.held_by(unit, paras)
        for p in paras:
            self.frames(p.frames)
        for p in paras:
            self.cited(p, unit)

    def generated_index(self, ix: Index) -> None:
        entries = []
        lines = [b.text for b in ix.blocks if isinstance(b, Paragraph)]  # blank ones too
        for b in ix.blocks:
            if isinstance(b, Paragraph) and not _blank(b.text):
                target = None
                for ev in b.events:
                    href = ev.node.get(_HREF) or "" if ev.kind == "link" else ""
                    if href.startswith("#"):
                        target = href[1:]
                entries.append({"text": b.text, "target": target})
        self.doc.meta.setdefault("indexes", []).append(
            {"kind": ix.kind, "name": ix.name, "path": element_path(ix.path), "entries": entries, "lines": lines}
        )

    # -- notes and comments -------------------------------------------------------------------

    def cited(self, p: Paragraph, unit: Unit | None) -> None:
        for note in p.notes:
            self.notes.append((note, unit or (self.doc.units[-1] if self.doc.units else None)))

    def emit_notes(self) -> None:
        """Footnote and endnote units after the body, in citation order."""
        counters = {"footnote": 0, "endnote": 0}
        for note, citer in self.notes:
            cls = "endnote" if note.note_class == "endnote" else "footnote"
            counters[cls] += 1
            paras = self._paragraphs(note.element)
            text = "\n".join(p.text for p in paras)
            number = note.citation or str(counters[cls])
            meta: dict[str, Any] = {"citation": note.citation}
            if note.id:
                meta["note_id"] = note.id
            lang = self.language(paras)
            if lang:
                meta["lang"] = lang
            unit = self.add(
                cls,
                text,
                self.anchor(note.path, note.element),
                label=f"{'Endnote' if cls == 'endnote' else 'Footnote'} {number}",
                number=number,
                parent=citer.id if citer else None,
                style=self.ctx.styles.display_name("paragraph", paras[0].style) if paras else None,
                rejected_text=self._rejected_text(paras, text),
                meta=meta,
            )
            if note.id:
                self.index.notes[note.id] = unit.id
            self.held_by(unit, paras)
            for p in paras:
                self.frames(p.frames)

    def margins(self) -> None:
        """Headers and footers that show text (:mod:`adapters.odt.margins`), after the notes:
        one unit each, with the fields its paragraphs hold (a page number, a date)."""
        for m in read_margins(self.ctx):
            meta: dict[str, Any] = {"pages": [m.pages], "master_page": m.master_page}
            name = m.kind.capitalize()
            label = name if m.pages == "default" else f"{'First-page' if m.pages == 'first' else 'Even-page'} {m.kind}"
            unit = self.add(m.kind, m.text, m.anchor, label=label, rejected_text=m.rejected, meta=meta)
            base = 0
            for w in m.walks:
                text = "".join(seg.text for seg in w.segments)
                for ev in w.events:
                    if ev.kind in ("field", "link"):
                        unit.fields.append(make_field(ev, text, base, link=ev.kind == "link"))
                base += len(text) + 1

    def comments(self, p: Paragraph, unit: Unit | None) -> None:
        for ann in p.annotations:
            cid = ann.name or f"comment-{len(self.doc.comments) + 1}"
            anchor_text = ""
            if ann.end_offset is not None:
                if ann.end_paragraph is None:
                    anchor_text = p.text[ann.offset : ann.end_offset]
                else:
                    anchor_text = p.text[ann.offset :] + "\n" + ann.end_paragraph.text[: ann.end_offset]
            text = "\n".join(q.text for q in ann.paragraphs)
            self.doc.comments.append(Comment(cid, ann.author, ann.date, text, unit.id if unit else None, anchor_text))
            if unit is not None:
                unit.comments.append(cid)

    # -- the whole document -------------------------------------------------------------------

    def run(self, body: Body) -> Document:
        default = known(self.ctx.styles.default_language())
        if default:  # the default paragraph style's language, else meta.xml's dc:language
            self.doc.meta["language"] = default
        self.index.index_paragraphs(body.blocks)
        self.doc.warnings.extend(body.warnings)
        self.blocks(body.blocks)
        self.emit_notes()
        self.margins()
        self.link_captions()
        self.index.resolve(self.doc)
        for ix in self.doc.meta.get("indexes", []):
            for e in ix["entries"]:
                e["target_unit"] = self.index.bookmarks.get(e["target"]) if e["target"] else None
        apply_typed_numbers(self.doc.units)
        self.doc.revisions.extend(self.changes.revisions())
        return self.doc


def _has_marks(p: Paragraph) -> bool:
    return any(ev.kind in _MARKS for ev in p.events)


def to_units(body: Body, ctx: "OdtContext") -> Document:
    """Convert a parsed body into the neutral :class:`~adapters.model.Document`.

    A document whose paragraphs are all blank is converted again keeping them, so that even
    an empty document has units to anchor edits to.
    """
    doc = _Converter(ctx).run(body)
    if not doc.units and any(isinstance(b, Paragraph) for b in body.blocks):
        doc = _Converter(ctx, keep_blank=True).run(body)
    return doc
