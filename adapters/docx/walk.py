"""The paragraph walk: one pass over a ``w:p`` that yields its text segments and side facts.

:class:`Walker` keeps complex-field state from paragraph to paragraph (a TOC's result spans
many); :class:`ParagraphScan` is what one paragraph gave: :class:`Segment` pieces for every
view plus fields, bookmarks, note references, comment ranges, objects, math and revisions.
"""
from __future__ import annotations

from typing import Any

from .blocks import choose_alternate, classify_object, int_or
from .fields import parse_instruction
from .styles import EMPTY_STYLES
from .tags import (
    SILENT_TAGS,
    ANCHOR,
    CHAR,
    DROPCAP,
    FLDCHARTYPE,
    FONT_ASCII,
    FONT_HANSI,
    ID,
    INSTR,
    MC_AC,
    M_OMATH,
    M_OMATHPARA,
    NAME,
    R_ID,
    TYPE,
    VAL,
    W_BDO,
    W_BOOKMARKEND,
    W_BOOKMARKSTART,
    W_BR,
    W_COMMENTRANGEEND,
    W_COMMENTRANGESTART,
    W_COMMENTREFERENCE,
    W_CR,
    W_CUSTOMXML,
    W_DEL,
    W_DELINSTRTEXT,
    W_DELTEXT,
    W_DIR,
    W_DRAWING,
    W_ENDNOTEREFERENCE,
    W_FLDCHAR,
    W_FLDSIMPLE,
    W_FOOTNOTEREFERENCE,
    W_FRAMEPR,
    W_HYPERLINK,
    W_ILVL,
    W_INS,
    W_LANG,
    W_INSTRTEXT,
    W_MOVEFROM,
    W_MOVETO,
    W_NOBREAKHYPHEN,
    W_NUMID,
    W_NUMPR,
    W_OBJECT,
    W_OUTLINELVL,
    W_PICT,
    W_PPR,
    W_PPRCHANGE,
    W_PSTYLE,
    W_PTAB,
    W_R,
    W_RPR,
    W_RFONTS,
    W_RPRCHANGE,
    W_RSTYLE,
    W_RUBY,
    W_RUBYBASE,
    W_SDT,
    W_SDTCONTENT,
    W_SECTPR,
    W_SMARTTAG,
    W_SOFTHYPHEN,
    W_SYM,
    W_T,
    W_TAB,
    W_VANISH,
    XML_SPACE,
)
from .scan import FieldRecord, ParagraphScan, Segment
from .views import ACCEPTED, BOTH, REJECTED

__all__ = ["Walker"]

_REVISIONS = {W_INS: ("insertion", ACCEPTED), W_DEL: ("deletion", REJECTED), W_MOVETO: ("move_to", ACCEPTED), W_MOVEFROM: ("move_from", REJECTED)}
_UNWRAP = {W_SMARTTAG, W_CUSTOMXML, W_DIR, W_BDO, W_SDTCONTENT}
_XML_WS = " \t\r\n"
_NOTE_KIND = {W_FOOTNOTEREFERENCE: "footnote", W_ENDNOTEREFERENCE: "endnote"}


def _on(el) -> bool:
    val = el.get(VAL)
    return val is None or val in ("1", "true", "on")


class _Frame:
    __slots__ = ("code", "phase", "start", "seg_start", "el", "fresh", "views")

    def __init__(self, phase: str, el: Any = None, code: str = "", views: int = BOTH) -> None:
        self.code = [code] if code else []
        self.phase = phase
        self.start = 0
        self.seg_start = 0
        self.el = el
        self.fresh = True
        #: the views the field's start shows in: a field wholly deleted (a tracked change of a
        #: field result is the old field deleted, the new one inserted) is no field of the accepted text
        self.views = views


class Walker:
    """Walks paragraphs in document order, keeping complex-field state between them.

    ``context`` (a :class:`~adapters.docx.context.PackageContext`) supplies styles (hidden
    text), note marks and hyperlink targets; without it those come out empty.
    """

    def __init__(self, context: Any = None, warnings: dict[str, int] | None = None) -> None:
        self.ctx = context
        self.styles = context.styles if context is not None else EMPTY_STYLES
        self.note_marks = context.note_marks if context is not None else {}
        self.unknown: dict[str, int] = warnings if warnings is not None else {}
        self.stack: list[_Frame] = []
        self.instr_depth = 0
        #: The part being walked (relationship ids of hyperlinks are per part).
        self.part: str | None = None
        self._scan: ParagraphScan | None = None
        self._views = BOTH
        self._rev: Any = None
        self._para_hidden = False
        self._para_code = False
        self._code = False
        self._acc = 0
        self._lang: str | None = None
        self._para = {
            W_R: self._run,
            W_INS: self._revision,
            W_DEL: self._revision,
            W_MOVETO: self._revision,
            W_MOVEFROM: self._revision,
            W_HYPERLINK: self._hyperlink,
            W_FLDSIMPLE: self._fldsimple,
            W_SDT: self._sdt,
            W_BOOKMARKSTART: self._bookmark_start,
            W_BOOKMARKEND: self._bookmark_end,
            W_COMMENTRANGESTART: self._comment_start,
            W_COMMENTRANGEEND: self._comment_end,
            M_OMATHPARA: self._math,
            M_OMATH: self._math,
            MC_AC: self._alternate,
            W_RUBY: self._ruby,
        }

    # state ---------------------------------------------------------------------------------

    def save_fields(self) -> tuple[list[_Frame], int]:
        saved = (self.stack, self.instr_depth)
        self.stack, self.instr_depth = [], 0
        return saved

    def restore_fields(self, saved: tuple[list[_Frame], int]) -> None:
        self.stack, self.instr_depth = saved

    def open_fields(self, phases: tuple[str, ...]) -> None:
        """Start inside fields left open by earlier paragraphs (``"instr"``/``"result"`` each)."""
        self.stack = [_Frame(ph) for ph in phases]
        self.instr_depth = sum(1 for ph in phases if ph == "instr")

    # paragraph -----------------------------------------------------------------------------

    @property
    def scan(self) -> ParagraphScan:
        """The paragraph being walked (the visitors run only inside :meth:`paragraph` and
        :meth:`object_block`)."""
        if self._scan is None:
            raise AssertionError("no paragraph is being walked")
        return self._scan

    def paragraph(self, p) -> ParagraphScan:
        """Walk one ``w:p``: its segments (all views) and side facts."""
        scan = ParagraphScan(p)
        scan.open_fields = tuple(f.phase for f in self.stack)
        for f in self.stack:
            f.start = 0
            f.seg_start = 0
            f.fresh = False
        self._scan = scan
        self._views = BOTH
        self._rev = None
        self._acc = 0
        ppr = p.find(W_PPR)
        if ppr is not None:
            self._ppr(ppr)
        pstyle = self.styles.para(scan.style_id)
        self._para_hidden = pstyle.vanish
        self._para_code = pstyle.code
        self._children(p)
        for f in self.stack:
            if f.phase == "result" and not self.instr_depth:
                self._record_field(f, partial=True)
        scan.acc_len = self._acc
        self._scan = None
        return scan

    def object_block(self, el) -> ParagraphScan:
        """A picture written directly in the body: an empty paragraph holding it."""
        scan = ParagraphScan(el)
        for kind, obj, alt in classify_object(el):
            scan.objects.append((kind, obj, BOTH, alt))
        return scan

    def _children(self, el) -> None:
        table = self._para
        for ch in el:
            tag = ch.tag
            handler = table.get(tag)
            if handler is not None:
                handler(ch)
            elif tag in _UNWRAP:
                self._children(ch)
            elif tag not in SILENT_TAGS:
                self._unknown(ch)

    def _unknown(self, el) -> None:
        tag = el.tag
        if not isinstance(tag, str):
            return  # comments and processing instructions
        self.unknown[tag] = self.unknown.get(tag, 0) + 1

    # paragraph properties ------------------------------------------------------------------

    def _ppr(self, ppr) -> None:
        scan = self.scan
        for c in ppr:
            tag = c.tag
            if tag == W_PSTYLE:
                scan.style_id = c.get(VAL)
            elif tag == W_NUMPR:
                for n in c:
                    if n.tag == W_NUMID:
                        scan.num_id = n.get(VAL)
                    elif n.tag == W_ILVL:
                        scan.ilvl = int_or(n.get(VAL), 0)
            elif tag == W_OUTLINELVL:
                scan.outline = int_or(c.get(VAL), 9)
            elif tag == W_RPR:
                for m in c:
                    if m.tag == W_INS or m.tag == W_MOVETO:
                        scan.mark_views = ACCEPTED
                        scan.mark_change = ("paragraph_insertion", m)
                    elif m.tag == W_DEL or m.tag == W_MOVEFROM:
                        scan.mark_views = REJECTED
                        scan.mark_change = ("paragraph_deletion", m)
            elif tag == W_PPRCHANGE:
                scan.ppr_change = c
            elif tag == W_SECTPR:
                scan.section_break = True
            elif tag == W_FRAMEPR:
                if c.get(DROPCAP) in ("drop", "margin"):
                    scan.mark_views = 0  # a drop cap is the first letter of the next paragraph

    # runs ----------------------------------------------------------------------------------

    def _run(self, r) -> None:
        hidden = self._para_hidden
        self._lang = None
        self._code = self._para_code
        start = self._acc
        for ch in r:
            tag = ch.tag
            if tag == W_T:
                if not hidden or self.instr_depth:
                    self._t(ch)
            elif tag == W_RPR:
                hidden = self._run_props(ch, r)
            else:
                self._run_child(ch, tag, hidden)
        n = self._acc - start
        if n:
            langs = self.scan.langs
            langs[self._lang] = langs.get(self._lang, 0) + n
            if self._code:
                code = self.scan.code
                if code and code[-1][1] == start:
                    code[-1] = (code[-1][0], self._acc)
                else:
                    code.append((start, self._acc))

    def _run_child(self, ch, tag, hidden: bool) -> None:
        if tag == W_INSTRTEXT or tag == W_DELINSTRTEXT:
            self._instr(ch.text or "")
        elif tag == W_FLDCHAR:
            self._fldchar(ch)
        elif hidden:
            if tag == W_DRAWING or tag == W_PICT or tag == W_OBJECT:
                return
            if tag in _NOTE_KIND:
                self._note(ch, tag, hidden=True)
        elif tag == W_TAB or tag == W_PTAB:
            self._text("\t", ch, "tab")
        elif tag == W_DELTEXT:
            self._t(ch, "deleted", REJECTED)
        elif tag == W_BR:
            if ch.get(TYPE) in (None, "textWrapping"):
                self._text("\u2028", ch, "break")
        elif tag == W_CR:
            self._text("\u2028", ch, "break")
        elif tag == W_SYM:
            code = ch.get(CHAR) or ""
            try:
                self._text(chr(int(code, 16)), ch, "symbol")
            except ValueError:
                pass
        elif tag == W_NOBREAKHYPHEN:
            self._text("\u2011", ch, "hyphen")
        elif tag == W_SOFTHYPHEN:
            self._text("\u00ad", ch, "hyphen")
        elif tag in _NOTE_KIND:
            self._note(ch, tag)
        elif tag == W_COMMENTREFERENCE:
            self.scan.events.append(("c_ref", ch.get(ID), self._acc))
        elif tag == W_DRAWING or tag == W_PICT or tag == W_OBJECT:
            self._objects(ch)
        elif tag == MC_AC:
            branch = choose_alternate(ch)
            if branch is not None:
                for sub in branch:
                    if sub.tag == W_T:
                        self._t(sub)
                    else:
                        self._run_child(sub, sub.tag, hidden)
        elif tag not in SILENT_TAGS:
            self._unknown(ch)

    def _run_props(self, rpr, r) -> bool:
        """Whether the run is hidden; its language goes to ``self._lang``, whether it is code
        (a code character style, a fixed-pitch font: :mod:`adapters.monospace`) to ``self._code``."""
        vanish = None
        rstyle = None
        lang = None
        font = None
        for c in rpr:
            tag = c.tag
            if tag == W_VANISH:
                vanish = _on(c)
            elif tag == W_RSTYLE:
                rstyle = c.get(VAL)
            elif tag == W_LANG:
                lang = c.get(VAL)
            elif tag == W_RFONTS:
                font = c.get(FONT_ASCII) or c.get(FONT_HANSI)
            elif tag == W_RPRCHANGE:
                self.scan.revisions.append(("format_change", c, _run_text(r)))
        self._lang = lang or (self.styles.char_lang(rstyle) if rstyle else None)
        if font is not None:
            self._code = self.styles.font_code(font) or (rstyle is not None and self.styles.char_code(rstyle))
        elif rstyle is not None:
            self._code = self._para_code or self.styles.char_code(rstyle)
        if vanish is not None:
            return vanish
        if rstyle:
            cv = self.styles.char_vanish(rstyle)
            if cv is not None:
                return cv
        return self._para_hidden

    def _t(self, el, kind: str = "text", mask: int = BOTH) -> None:
        """A ``w:t``/``w:delText``: without ``xml:space="preserve"`` Word ignores its edge whitespace."""
        text = el.text
        if not text:
            return
        if (text[0] in _XML_WS or text[-1] in _XML_WS) and el.get(XML_SPACE) != "preserve":
            stripped = text.lstrip(_XML_WS)
            offset = len(text) - len(stripped)
            text = stripped.rstrip(_XML_WS)
            if offset and text:
                self._text(text, el, kind, mask, offset)
                return
        self._text(text, el, kind, mask)

    def _text(self, text: str, el, kind: str, mask: int = BOTH, offset: int = 0) -> None:
        if self.instr_depth:
            self._instr(text)
            return
        views = self._views & mask
        if not views or not text:
            return
        self.scan.segments.append(Segment(text, el, offset, kind, views, len(self.stack) > 0, self._rev))
        if views & ACCEPTED:
            self._acc += len(text)

    def _note(self, ch, tag, hidden: bool = False) -> None:
        kind = _NOTE_KIND[tag]
        nid = ch.get(ID)
        start = self._acc
        if not hidden and not self.instr_depth:
            mark = self.note_marks.get((kind, nid), "")
            if mark:
                self._text(mark, ch, "note")
        self.scan.events.append(("note", kind, nid, start, self._acc))

    # containers ----------------------------------------------------------------------------

    def _revision(self, el) -> None:
        kind, mask = _REVISIONS[el.tag]
        saved_views, saved_rev = self._views, self._rev
        self._views &= mask
        self._rev = el
        segs = self.scan.segments
        first = len(segs)
        self._children(el)
        text = "".join([s.text for s in segs[first:]])
        self.scan.revisions.append((kind, el, text))
        self._views, self._rev = saved_views, saved_rev

    def _sdt(self, el) -> None:
        content = el.find(W_SDTCONTENT)
        if content is not None:
            self._children(content)

    def _ruby(self, el) -> None:
        base = el.find(W_RUBYBASE)
        if base is not None:
            self._children(base)

    def _alternate(self, el) -> None:
        branch = choose_alternate(el)
        if branch is not None:
            self._children(branch)

    def _hyperlink(self, el) -> None:
        anchor = el.get(ANCHOR)
        url = None
        rid = el.get(R_ID)
        if rid and self.ctx is not None:
            url = self.ctx.hyperlink_target(rid, self.part)
        start = self._acc
        segs = self.scan.segments
        first = len(segs)
        self._children(el)
        if self.instr_depth:
            return
        result = "".join([s.text for s in segs[first:] if s.views & ACCEPTED])
        target = f"{url}#{anchor}" if url and anchor else (anchor or url)
        code = " ".join(["HYPERLINK"] + ([f'"{url}"'] if url else []) + ([f'\\l "{anchor}"'] if anchor else []))
        self.scan.fields.append(FieldRecord("hyperlink", code, target, result, start, self._acc, el))

    def _fldsimple(self, el) -> None:
        frame = _Frame("result", el, el.get(INSTR) or "", self._views)
        frame.start = self._acc
        frame.seg_start = len(self.scan.segments)
        self.stack.append(frame)
        self._children(el)
        if frame in self.stack:
            self.stack.remove(frame)
        if not self.instr_depth:
            self._record_field(frame)

    def _fldchar(self, ch) -> None:
        typ = ch.get(FLDCHARTYPE)
        if typ == "begin":
            self.stack.append(_Frame("instr", ch, views=self._views))
            self.instr_depth += 1
        elif typ == "separate":
            if self.stack and self.stack[-1].phase == "instr":
                frame = self.stack[-1]
                frame.phase = "result"
                self.instr_depth -= 1
                frame.start = self._acc
                frame.seg_start = len(self.scan.segments)
        elif typ == "end":
            if not self.stack:
                return
            frame = self.stack.pop()
            if frame.phase == "instr":
                self.instr_depth -= 1
                frame.start = self._acc
                frame.seg_start = len(self.scan.segments)
            if not self.instr_depth:
                self._record_field(frame)

    def _instr(self, text: str) -> None:
        for frame in reversed(self.stack):
            if frame.phase == "instr":
                frame.code.append(text)
                return

    def _record_field(self, frame: _Frame, partial: bool = False) -> None:
        if not frame.views & ACCEPTED:
            return
        code = "".join(frame.code).strip()
        fc = parse_instruction(code)
        segs = self.scan.segments[frame.seg_start:]
        result = "".join([s.text for s in segs if s.views & ACCEPTED])
        rec = FieldRecord(fc.kind, code, fc.target, result, frame.start, self._acc, frame.el, fc)
        self.scan.fields.append(rec)

    # markers -------------------------------------------------------------------------------

    def _bookmark_start(self, el) -> None:
        self.scan.events.append(("bm_start", el.get(ID), el.get(NAME), self._acc))

    def _bookmark_end(self, el) -> None:
        self.scan.events.append(("bm_end", el.get(ID), self._acc))

    def _comment_start(self, el) -> None:
        self.scan.events.append(("c_start", el.get(ID), self._acc))

    def _comment_end(self, el) -> None:
        self.scan.events.append(("c_end", el.get(ID), self._acc))

    # math and objects ----------------------------------------------------------------------

    def _math(self, el) -> None:
        start = self._acc
        from .omml import math_text  # only documents with math pay for it

        text = math_text(el)
        if not self._para_hidden:
            self._text(text, el, "math")
        self.scan.math.append((el, el.tag == M_OMATHPARA, start, self._acc))

    def _objects(self, el) -> None:
        for kind, obj, alt in classify_object(el):
            self.scan.objects.append((kind, obj, self._views, alt))


def _run_text(r) -> str:
    return "".join(t.text or "" for t in r.iter(W_T, W_DELTEXT))
