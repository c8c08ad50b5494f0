"""Comments a writer adds (why a change was made): range markers in the text, the comment parts.

Word anchors a comment with ``w:commentRangeStart``/``w:commentRangeEnd`` around the text and
a ``w:commentReference`` run after it; the text lives in the comments part (``w:comment``).
Threads (a reply's parent) and the done state live in ``commentsExtended`` (``w15:commentEx``
keyed by the ``w14:paraId`` of the comment's last paragraph); Word 2016 and later also keep a
durable id per comment in ``commentsIds``. :class:`CommentParts` appends to the parts a package
has (existing comments are never touched) or creates them, with their relationship from the
main part and their content type.

The markers never go where Word would lose them: not inside a revision element (``w:ins``,
``w:del``: another author's rejection would take our marker with it), not inside a simple
field, and not between a complex field's ``begin`` and ``end`` (updating the field rewrites its
result): :func:`place_range` moves them just outside (ECMA-376 Part 1, §17.13.4).

Comments stay in the main part. The schema allows comment markers in notes, headers and
footers, but LibreOffice (7.4) refuses to open a whole file that has a comment there and Word
offers no comments in headers or footers: a comment on what changed in a note is anchored on
the run that cites the note in the body, one on a header or footer on the first paragraph of
the first section that shows it (:func:`body_anchor`).
"""
from __future__ import annotations

import posixpath
import re
from typing import Any, Iterable

from lxml import etree

from ..package import parse_xml
from .oxml import NSMAP, qn, serialize_part
from .blocks import iter_blocks
from .tags import (
    FLDCHARTYPE,
    ID,
    W_BODY,
    W_ENDNOTE,
    W_ENDNOTEREFERENCE,
    W_FOOTNOTE,
    W_FOOTNOTEREFERENCE,
    W_SECTPR,
    W_COMMENTRANGEEND,
    W_COMMENTRANGESTART,
    W_COMMENTREFERENCE,
    W_DEL,
    W_FLDCHAR,
    W_FLDSIMPLE,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_P,
    W_PPR,
    W_R,
    W_RPR,
    W_T,
    XML_SPACE,
)

__all__ = ["W14", "W15", "W16CID", "CommentParts", "place_range", "used_para_ids", "lift", "body_anchor"]

W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
W16CID = "http://schemas.microsoft.com/office/word/2016/wordml/cid"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_MC_IGNORABLE = f"{{{MC}}}Ignorable"
_REL_NS = NSMAP["rel"]
_STRICT_REL = "http://purl.oclc.org/ooxml/officeDocument/relationships"

#: (relationship type, content type, file name, root tag) of each part.
_COMMENTS = ("/comments", "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
             "comments.xml")
_EXTENDED = ("http://schemas.microsoft.com/office/2011/relationships/commentsExtended",
             "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml",
             "commentsExtended.xml")
_IDS = ("http://schemas.microsoft.com/office/2016/09/relationships/commentsIds",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml",
        "commentsIds.xml")

_CLIMB = frozenset({W_INS, W_DEL, W_MOVEFROM, W_MOVETO, W_FLDSIMPLE})
_ID = qn("w:id")
_PARA_ID = re.compile(rb'(?:paraId|durableId)="([0-9A-Fa-f]{1,8})"')
_DECL = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'


def used_para_ids(raw_parts: Iterable[bytes]) -> set[int]:
    """Every ``w14:paraId`` / ``durableId`` value in the raw parts (new ones must differ).

    >>> sorted(used_para_ids([b'<w:p w14:paraId="0000000A"/><x w16cid:durableId="1F"/>']))
    [10, 31]
    """
    out: set[int] = set()
    for raw in raw_parts:
        out.update(int(m.group(1), 16) for m in _PARA_ID.finditer(raw))
    return out


def lift(el) -> Any:
    """``el``, or the outermost revision element or simple field that holds it (in its paragraph)."""
    while el.getparent() is not None and el.getparent().tag in _CLIMB:
        el = el.getparent()
    return el


def _field_runs(p) -> list[tuple[Any, str]]:
    return [(fc.getparent(), fc.get(FLDCHARTYPE)) for fc in p.iter(W_FLDCHAR) if fc.getparent().tag == W_R]


def _outside_fields(p, first, last) -> tuple[Any, Any]:
    """``first``/``last`` moved out of any complex field they sit in (begin .. end, in ``p``).
    A paragraph without a complex field is not indexed (1,001 comments in one paragraph indexed
    it 2,002 times)."""
    runs = _field_runs(p)
    if not runs:
        return first, last
    alive = list(p.iter())  # the proxies stay alive, so their ids stay theirs
    order = {id(el): i for i, el in enumerate(alive)}

    def depth_at(pos: int) -> list[Any]:
        stack: list[Any] = []
        for r, kind in runs:
            if order[id(r)] >= pos:
                break
            if kind == "begin":
                stack.append(r)
            elif kind == "end" and stack:
                stack.pop()
        return stack

    if id(first) in order:
        open_ = depth_at(order[id(first)])
        if open_:
            first = lift(open_[0])
    if id(last) in order:
        end_pos = max(order[id(x)] for x in last.iter())
        stack: list[Any] = []
        for r, kind in runs:
            pos = order[id(r)]
            if pos > end_pos and not stack:
                break
            if kind == "begin":
                stack.append(r)
            elif kind == "end" and stack:
                stack.pop()
                if pos > end_pos and not stack:
                    last = lift(r)
                    break
    return first, last


def _paragraph(el) -> Any:
    return el if el.tag == W_P else next((a for a in el.iterancestors() if a.tag == W_P), None)


def place_range(first, last, cid: str, ref_style: str | None) -> None:
    """Markers of comment ``cid`` around ``first`` .. ``last`` (elements of paragraph content, in
    document order; a ``w:p`` stands for its end), and the reference run after the end."""
    start = etree.Element(W_COMMENTRANGESTART)
    start.set(_ID, cid)
    end = etree.Element(W_COMMENTRANGEEND)
    end.set(_ID, cid)
    ref = etree.Element(W_R)
    if ref_style:
        rpr = etree.SubElement(ref, W_RPR)
        etree.SubElement(rpr, qn("w:rStyle")).set(qn("w:val"), ref_style)
    etree.SubElement(ref, W_COMMENTREFERENCE).set(_ID, cid)
    if first.tag != W_P:
        first = lift(first)
    if last.tag != W_P:
        last = lift(last)
    p_first, p_last = _paragraph(first), _paragraph(last)
    if first.tag != W_P and p_first is not None:
        first, _ = _outside_fields(p_first, first, first)
    if last.tag != W_P and p_last is not None:
        _, last = _outside_fields(p_last, last, last)
    if first.tag == W_P:
        first.append(start)
    else:
        first.addprevious(start)
    if last.tag == W_P:
        last.append(end)
    else:
        last.addnext(end)
    end.addnext(ref)


_NOTE_REFS = {W_FOOTNOTE: W_FOOTNOTEREFERENCE, W_ENDNOTE: W_ENDNOTEREFERENCE}
_R_ID = qn("r:id")
_MARGIN_REFS = (qn("w:headerReference"), qn("w:footerReference"))


def _names_margin(sect, rids: set[str]) -> bool:
    return sect is not None and any(ref.tag in _MARGIN_REFS and ref.get(_R_ID) in rids for ref in sect)


def _whole_paragraph(p) -> tuple[Any, Any]:
    first = next((c for c in p if isinstance(c.tag, str) and c.tag != W_PPR), p)
    return first, p


def body_anchor(main_root, el, margin_rids: Iterable[str] = ()) -> tuple[Any, Any] | None:
    """Where in the main part a comment on ``el`` (content of a notes, header or footer part) goes.

    In a footnote or endnote: the body run that cites it. In a header or footer (whose
    relationship ids from the main part are ``margin_rids``): the first paragraph of the first
    section whose ``w:sectPr`` names it. None when nothing in the body cites or shows it.
    """
    note = next((a for a in (el, *el.iterancestors()) if a.tag in _NOTE_REFS), None)
    if note is not None:
        nid = note.get(ID)
        ref = next((r for r in main_root.iter(_NOTE_REFS[note.tag]) if r.get(ID) == nid), None)
        run = ref.getparent() if ref is not None else None
        return (run, run) if run is not None and run.tag == W_R else None
    rids = set(margin_rids)
    body = main_root.find(W_BODY)
    if not rids or body is None:
        return None
    start = None
    for block in iter_blocks(body):
        if block.tag != W_P:
            continue
        start = block if start is None else start
        ppr = block.find(W_PPR)
        if ppr is not None and ppr.find(W_SECTPR) is not None:
            if _names_margin(ppr.find(W_SECTPR), rids):
                return _whole_paragraph(start)
            start = None
    if start is not None and _names_margin(body.find(W_SECTPR), rids):
        return _whole_paragraph(start)
    return None


class CommentParts:
    """The comment parts of one package being written: new ``w:comment`` elements appended."""

    def __init__(self, pkg: Any, ctx: Any, ids: Any, raw_parts: Iterable[bytes]) -> None:
        self.pkg = pkg
        self.ctx = ctx
        self.ids = ids
        self.strict = bool(ctx.strict)
        self._para = used_para_ids(raw_parts)
        self._next_para = 0x10000000
        styles = getattr(ctx.styles, "styles", {}) or {}
        self.text_style = "CommentText" if "CommentText" in styles else None
        self.ref_style = "CommentReference" if "CommentReference" in styles else None
        self.comments: list[Any] = []  # (w:comment, paraId, parent paraId)
        self.entries: list[tuple[str, str | None]] = []

    def _fresh(self) -> str:
        while self._next_para in self._para:
            self._next_para += 1
        self._para.add(self._next_para)
        value = self._next_para
        self._next_para += 1
        return f"{value:08X}"

    def comment(self, text: str, author: str, initials: str, date: str | None,
                parent_para: str | None = None) -> tuple[str, str]:
        """A new ``w:comment``; returns its ``w:id`` and the paraId of its last paragraph."""
        cid = self.ids()
        el = etree.Element(qn("w:comment"))
        el.set(_ID, cid)
        el.set(qn("w:author"), author)
        if date:
            el.set(qn("w:date"), date)
        el.set(qn("w:initials"), initials)
        lines = text.split("\n") or [""]
        para_id = ""
        for i, line in enumerate(lines):
            p = etree.SubElement(el, W_P)
            para_id = self._fresh()
            p.set(f"{{{W14}}}paraId", para_id)
            p.set(f"{{{W14}}}textId", "77777777")
            if self.text_style:
                ppr = etree.SubElement(p, W_PPR)
                etree.SubElement(ppr, qn("w:pStyle")).set(qn("w:val"), self.text_style)
            if i == 0:
                r = etree.SubElement(p, W_R)
                if self.ref_style:
                    rpr = etree.SubElement(r, W_RPR)
                    etree.SubElement(rpr, qn("w:rStyle")).set(qn("w:val"), self.ref_style)
                etree.SubElement(r, qn("w:annotationRef"))
            if line:
                r = etree.SubElement(p, W_R)
                t = etree.SubElement(r, W_T)
                t.text = line
                t.set(XML_SPACE, "preserve")
        self.comments.append(el)
        self.entries.append((para_id, parent_para))
        return cid, para_id

    # -- the parts -------------------------------------------------------------------------

    def write(self, changed: dict[str, bytes], add: list[tuple[str, bytes]]) -> None:
        """Put the comments into the package: ``changed`` and ``add`` as :func:`rewrite_zip` takes them."""
        if not self.comments:
            return
        main = self.ctx.main_part
        folder = posixpath.dirname(main)
        rels_name = posixpath.join(folder, "_rels", posixpath.basename(main) + ".rels")
        rels = self._xml(rels_name, changed, add)
        if rels is None:
            rels = etree.Element(f"{{{_REL_NS}}}Relationships", nsmap={None: _REL_NS})
        ct = self._xml("[Content_Types].xml", changed, add)
        rel_base = _STRICT_REL if self.strict else NSMAP["r"]

        def part_for(kind: tuple[str, str, str], make) -> tuple[str, Any]:
            rtype = rel_base + kind[0] if kind[0].startswith("/") else kind[0]
            for rel in rels:
                if rel.get("Type") == rtype and rel.get("TargetMode") != "External":
                    target = rel.get("Target") or ""
                    name = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
                    root = self._xml(name, changed, add)
                    if root is not None:
                        return name, root
            name = self._free_name(folder, kind[2], changed, add)
            taken = {r.get("Id") for r in rels}
            rid = next(f"rIdLedger{i}" for i in range(1, len(taken) + 2) if f"rIdLedger{i}" not in taken)
            etree.SubElement(rels, f"{{{_REL_NS}}}Relationship", Id=rid, Type=rtype,
                             Target=posixpath.relpath(name, folder))
            ns = etree.QName(ct).namespace
            etree.SubElement(ct, f"{{{ns}}}Override", PartName="/" + name, ContentType=kind[1])
            return name, make()

        name, root = part_for(_COMMENTS, lambda: etree.Element(qn("w:comments"), nsmap={"w": NSMAP["w"]}))
        root = _with_namespaces(root, {"w14": W14, "mc": MC}, ("w14",))
        for el in self.comments:
            root.append(el)
        self._put(name, root, changed, add, self.strict)
        ename, eroot = part_for(_EXTENDED, lambda: etree.Element(f"{{{W15}}}commentsEx", nsmap={"w15": W15}))
        eroot = _with_namespaces(eroot, {"w15": W15, "mc": MC}, ("w15",))
        for para, parent in self.entries:
            ex = etree.SubElement(eroot, f"{{{W15}}}commentEx")
            ex.set(f"{{{W15}}}paraId", para)
            if parent:
                ex.set(f"{{{W15}}}paraIdParent", parent)
            ex.set(f"{{{W15}}}done", "0")
        self._put(ename, eroot, changed, add, False)
        iname, iroot = part_for(_IDS, lambda: etree.Element(f"{{{W16CID}}}commentsIds", nsmap={"w16cid": W16CID}))
        iroot = _with_namespaces(iroot, {"w16cid": W16CID, "mc": MC}, ("w16cid",))
        for para, _parent in self.entries:
            cid = etree.SubElement(iroot, f"{{{W16CID}}}commentId")
            cid.set(f"{{{W16CID}}}paraId", para)
            cid.set(f"{{{W16CID}}}durableId", self._fresh())
        self._put(iname, iroot, changed, add, False)
        self._put(rels_name, rels, changed, add, False)
        self._put("[Content_Types].xml", ct, changed, add, False)

    def _xml(self, name: str, changed: dict[str, bytes], add: list[tuple[str, bytes]]) -> Any:
        from .oxml import load_part
        from .oxml import to_transitional

        for n, data in add:
            if n == name:
                return parse_xml(to_transitional(data), name)
        if name in changed:
            return parse_xml(to_transitional(changed[name]), name)
        if name in self.ctx.parts:
            return self.ctx.parts[name]
        if self.pkg.has(name):
            return load_part(self.pkg, name)
        return None

    def _free_name(self, folder: str, base: str, changed, add) -> str:
        stem, ext = posixpath.splitext(base)
        for i in range(0, 1000):
            name = posixpath.join(folder, base if i == 0 else f"{stem}{i}{ext}")
            if not self.pkg.has(name) and name not in changed and all(n != name for n, _ in add):
                return name
        raise ValueError("no free part name")  # pragma: no cover

    def _put(self, name: str, root: Any, changed: dict[str, bytes], add: list[tuple[str, bytes]], strict: bool) -> None:
        for i, (n, _data) in enumerate(add):
            if n == name:
                add[i] = (n, serialize_part(_DECL, root, strict))
                return
        if self.pkg.has(name):
            changed[name] = serialize_part(self.pkg.read(name), root, strict)
        else:
            add.append((name, serialize_part(_DECL, root, strict)))


def _with_namespaces(root, extra: dict[str, str], ignorable: tuple[str, ...]) -> Any:
    """``root`` declaring ``extra`` prefixes (a copy when it lacks some: lxml cannot add a
    declaration to an element), with ``ignorable`` prefixes listed in ``mc:Ignorable``."""
    missing = {p: u for p, u in extra.items() if root.nsmap.get(p) != u}
    if missing:
        nsmap = {**root.nsmap, **missing}
        new = etree.Element(root.tag, attrib=dict(root.attrib), nsmap=nsmap)
        new.text = root.text
        for child in list(root):
            new.append(child)
        root = new
    tokens = (root.get(_MC_IGNORABLE) or "").split()
    for p in ignorable:
        if p not in tokens:
            tokens.append(p)
    root.set(_MC_IGNORABLE, " ".join(tokens))
    return root
