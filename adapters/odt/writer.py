"""The ODT writer: concrete edits -> native tracked changes in the ORIGINAL package.

``write(original, edits)`` parses content.xml once, maps each edit's unit to its paragraphs
through the reader's own anchors and text walk, and writes:

* ``replace`` / ``set_text``: the minimal word-level diff (:mod:`adapters.textdiff`),
  each changed word a ``text:deletion`` + ``text:insertion`` inside its paragraph
  (:mod:`adapters.odt.textedit`), formatting kept on both sides; a ``replace`` inside a
  field's result (a renumbered reference: "Appendix [A -> B]"), or of all of it, deletes the field and inserts
  a copy of it showing the new result, so the field is kept;
* ``insert_after``: a new paragraph (heading, list item) whose text and paragraph break are
  one ``text:insertion``; ``delete``: the paragraph (or table, or note citation) and its
  paragraph mark in one ``text:deletion``; ``move``: a deletion where the unit was and an
  insertion of a copy where it goes (:mod:`adapters.odt.blockedit`).

``notes`` (:class:`~adapters.model.Note`) become comments (:mod:`.comments_xml`): on the change
markers of the regions an edit made (a move: its destination), or on a finding's evidence in
its unit. Only ``content.xml`` changes; every other member is copied byte for byte
(:func:`adapters.repack.rewrite_zip`). The output is read back before it is returned: it must
read as a document, and its rejected view must be the input's. Any failure raises an
:class:`~adapters.errors.AdapterError` and leaves the caller's bytes as they were.

Other authors' tracked changes in the input stay as they are. Text another author deleted
is never edited: a deleted span that contains their deletion point is cut in two around it
(their deletion stays between ours). Text another author inserted may be edited: deleting
it writes LibreOffice's stacked form (our deletion over their insertion) and splits their
region around the edit. A unit whose paragraphs hold another author's change cannot be
deleted or moved (:class:`~adapters.errors.AnchorError`). So, on an input with revisions,
accept-all of the output is the input's accepted view with the edits applied (the unit
texts the edits were made against) and reject-all is the input's rejected view: every
change, theirs and ours, rejected.

Where the neutral model and the package differ: deleting a footnote or endnote removes its
citation mark from the citing paragraph (as a word processor does; ``apply_to_document``
keeps the mark); ``insert_after`` a figure or equation inserts after the paragraph that
holds it; deleting or moving a figure or equation on its own is refused.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from lxml import etree

from ..errors import AdapterError, AnchorError, Stopped, UnsupportedFormatError, guarded
from ..model import ConcreteEdit, Document, Edit, Note, Rename, Replace, SetText, Unit, descendant_ids
from ..package import ODT, open_package
from ..repack import rewrite_zip
from ..textdiff import word_changes
from ..vocabulary import revision_date
from .textedit import atom_spans, field_atoms, replace_in_paragraph, rewritable
from .context import load_context
from .reader import read_package
from .anchors import block_paragraphs, follow
from .revision_xml import detach
from .tracking import Tracker
from .margins import MARGIN_PART, check_margins, in_margin, write_margins

__all__ = ["write", "WRITABLE_OPS"]

#: The operations a writer receives (``rename`` is expanded into ``replace`` edits before).
WRITABLE_OPS = ("replace", "set_text", "insert_after", "delete", "move")


def _now() -> str:
    """A change's ``dc:date``: UTC to the second, without a zone, as LibreOffice writes it."""
    return revision_date(zone=False)


class _Writer:
    """The edits of one write over one parsed content.xml."""

    def __init__(self, ctx: Any, doc: Document, part: str = "content.xml") -> None:
        self.ctx = ctx
        self.doc = doc
        self.part = part  # the part whose units it writes (styles.xml: a header or footer, .margins)
        self.t = Tracker(ctx)
        #: original element -> its copy, for units moved (their text edits go to the copy)
        self.moved: dict[Any, Any] = {}
        #: unit id -> (block element, paragraphs), resolved before the tree changes
        self.located: dict[str, tuple[Any, list[Any]]] = {}
        #: the caller's budget check (``write(check=...)``), called per unit written
        self.deadline: Callable[[], None] | None = None

    def locate(self, edits: Sequence[ConcreteEdit], also: Iterable[str] = ()) -> None:
        """Resolve every unit the edits name (and the units ``also``) while the locators still hold."""
        wanted = list(also)
        for e in edits:
            wanted += [e.unit, *sorted(e.unit_refs() - {e.unit})]
            if e.op == "move":
                wanted += sorted(descendant_ids(self.doc.units, e.unit))
        children: dict = {}  # the tree does not change while the units are located
        for uid in wanted:
            if uid not in self.located:
                unit = self.unit(uid)
                anchor = _anchor(unit)
                el = follow(self.ctx.content, anchor, children)
                paras = [] if anchor.get("kind") in ("figure", "equation") else block_paragraphs(el)
                self.located[uid] = (el, paras)

    @staticmethod
    def now() -> str:
        return _now()

    # -- units to paragraphs ------------------------------------------------------------------

    def unit(self, uid: str | None, what: str = "unit") -> Unit:
        unit = self.doc.get(uid) if uid else None
        if unit is None:
            raise AnchorError(f"the document has no {what} {uid!r}")
        if unit.anchor is None or unit.anchor.part != self.part:
            raise AnchorError(f"unit {uid} has no anchor in {self.part}")
        return unit

    def paragraphs(self, unit: Unit) -> list[Any]:
        """The unit's paragraphs, checked against its text (the bytes must be the ones read)."""
        if unit.meta.get("absent_in") == "accepted":
            raise AnchorError(f"unit {unit.id} is a pending deletion; it cannot be edited")
        if _anchor(unit).get("kind") in ("figure", "equation"):
            raise AnchorError(f"unit {unit.id} is a {unit.kind}; its text is not paragraph text")
        paras = self.located[unit.id][1]
        text = "\n".join("".join(s.text for s in self.t.walk(p).segments) for p in paras)
        if text != unit.text:
            raise AnchorError(f"unit {unit.id} no longer matches the package (its text differs)")
        return [self.moved.get(p, p) for p in paras]

    # -- text edits ---------------------------------------------------------------------------

    def text_edits(self, unit: Unit, edits: list[Replace | SetText]) -> None:
        paras = self.paragraphs(unit)
        texts = ["".join(s.text for s in self.t.walk(p).segments) for p in paras]
        bases, pos = [], 0
        for text in texts:
            bases.append(pos)
            pos += len(text) + 1
        ops: dict[int, list[tuple[int, int, str, Replace | SetText, Any]]] = {}
        for e in edits:
            if e.op == "set_text":
                lines = e.text.split("\n")
                if len(lines) != sum(t.count("\n") + 1 for t in texts):
                    raise AnchorError(f"set_text must keep the {len(paras)} paragraph(s) of unit {unit.id}")
                k = 0
                for i, text in enumerate(texts):
                    n = text.count("\n") + 1
                    new_i = "\n".join(lines[k : k + n])
                    k += n
                    atoms = atom_spans(self.t, paras[i])
                    for a, b, rep in word_changes(text, new_i, atoms=atoms):
                        ops.setdefault(i, []).append((a, b, rep, e, None))
                continue
            start, end = e.start, e.end
            i = max(j for j, base in enumerate(bases) if base <= start)
            a, b = start - bases[i], end - bases[i]
            if b > len(texts[i]):
                raise AnchorError(f"replace {start}..{end} crosses a paragraph boundary of unit {unit.id}")
            fields_here = field_atoms(self.t, paras[i])
            # an insertion at a field's edge goes beside it; only a span inside changes its result
            within = next(((s, f, el) for s, f, el in fields_here
                           if s <= a and b <= f and s < f and (a < b or s < a < f)), None)
            if within is not None and rewritable(within[2]):
                # a new cached result of a field (a renumbered reference): the field is rewritten
                s, f, el = within
                new = texts[i][s:a] + e.text + texts[i][b:f]
                ops.setdefault(i, []).append((s, f, new, e, el))
                continue
            for s, f, _ in fields_here:
                if (s < a < f) or (s < b < f):
                    raise AnchorError(f"replace {start}..{end} of unit {unit.id} cuts into a field or note citation")
            inner = [(s - a, f - a) for s, f, _ in fields_here if a <= s and f <= b]
            for x, y, rep in word_changes(texts[i][a:b], e.text, atoms=inner):
                ops.setdefault(i, []).append((a + x, a + y, rep, e, None))
        copies = set(self.moved.values())
        for i, lst in ops.items():
            tracking = paras[i] not in copies
            # from the end, so that earlier offsets stay valid. Text inserted at a point goes before
            # what an earlier step put there, so at one point the edit whose span comes later in the
            # model's order is written first: a replace's text ("23" -> "… 3.5" keeps the field "3"
            # and puts ".5" after it) then stands before an insertion just after the replaced span
            for a, b, rep, e, field in sorted(lst, key=lambda o: (o[0], o[1], _span(o[3])), reverse=True):
                self.t.owners = (e,)
                replace_in_paragraph(self.t, paras[i], a, b, rep, e.author, e.date or _now(), tracking, field)
                self.t.owners = ()

    # -- all edits ----------------------------------------------------------------------------

    # -- comments -----------------------------------------------------------------------------

    def annotate(self, edits: Sequence[ConcreteEdit], notes: Sequence[Note]) -> int:
        """Write the notes as comments; returns how many were placed."""
        from .comments_xml import Annotator

        an = Annotator(self.ctx.content)
        by_id = {e.id: e for e in edits if e.id}
        for n in notes:
            author, initials = n.author or "LEDGER", n.initials or "LEDGER"
            if n.edit:
                e = by_id.get(n.edit)
                rids = list(self.t.owned.get(id(e), ())) if e is not None else []
                if e is not None and e.op == "move":
                    rids = [r for r in rids if self.ctx.change_kinds.get(r) == "insertion"]
                span = an.markers(self.ctx.office_text, rids)
                if span is not None:
                    an.wrap(*an.elements(n.text, author, initials, n.date), *span)
            elif n.unit and n.unit in self.located:
                self._annotate_unit(an, n, n.unit)
        return an.count

    def _annotate_unit(self, an: Any, n: Note, uid: str) -> None:
        """A comment on a finding's evidence (nearest ``start``) in the unit's paragraphs."""
        from .textedit import _mark_after, _mark_before, _offsets

        paras = [self.moved.get(p, p) for p in self.located[uid][1]]
        texts = ["".join(s.text for s in self.t.walk(p).segments) for p in paras]
        if not paras:
            return
        joined = "\n".join(texts)
        spans = []
        if n.evidence:
            at = joined.find(n.evidence)
            while at >= 0:
                spans.append(at)
                at = joined.find(n.evidence, at + 1)
        start = min(spans, key=lambda x: abs(x - (n.start or 0))) if spans else 0
        i, base = 0, 0
        while i + 1 < len(texts) and base + len(texts[i]) < start:
            base += len(texts[i]) + 1
            i += 1
        p, text = paras[i], texts[i]
        a = start - base
        b = min(len(text), a + len(n.evidence)) if spans else len(text)
        ann, end = an.elements(n.text, n.author or "LEDGER", n.initials or "LEDGER", n.date)
        try:
            if b <= a:
                raise AnchorError("nothing to wrap")
            segs = self.t.walk(p).segments
            mb = _mark_after(p, segs, _offsets(segs), b)
            self.t.touch()
            segs = self.t.walk(p).segments
            ma = _mark_before(p, segs, _offsets(segs), a)
            an.at_milestones(ann, end, ma, mb)
        except AdapterError:
            for m in p.iter("ledger-milestone"):
                detach(m)
                break
            p.insert(0, ann)
            ann.tail, p.text = p.text, None
            p.append(end)
        self.t.touch()

    def apply(self, edits: Sequence[ConcreteEdit]) -> None:
        by_unit: dict[str, list[Replace | SetText]] = {}
        for e in edits:
            if isinstance(e, (Replace, SetText)):
                by_unit.setdefault(e.unit, []).append(e)
        from .blockedit import apply_structure

        self.locate(edits)
        apply_structure(self, [e for e in edits if not isinstance(e, (Replace, SetText))])
        for uid, lst in by_unit.items():
            if self.deadline is not None:
                self.deadline()
            self.text_edits(self.unit(uid), lst)
        self.t.sort_regions()


def _anchor(unit: Unit) -> Any:
    """The anchor of a unit :meth:`_Writer.unit` returned (it returns anchored units only)."""
    if unit.anchor is None:
        raise AnchorError(f"unit {unit.id} has no anchor in content.xml")
    return unit.anchor


def _paragraph_unit(doc: Document, uid: str) -> bool:
    """Whether a unit is text in content.xml (a finding's comment can be placed on it)."""
    unit = doc.get(uid)
    return (unit is not None and unit.anchor is not None and unit.anchor.part == "content.xml"
            and unit.kind not in ("figure", "equation"))


def _concrete(edits: Sequence[Edit]) -> list[ConcreteEdit]:
    """The edits, each an operation the writer applies (renames are expanded before)."""
    out: list[ConcreteEdit] = []
    for e in edits:
        if isinstance(e, Rename):
            raise AnchorError(f"the writer cannot apply a {e.op!r} edit (expand renames first)")
        if not isinstance(e, Edit):
            raise AnchorError("an edit is not an Edit")
        out.append(e)
    return out


def _serialize(root: etree._Element) -> bytes:
    return etree.tostring(root.getroottree(), encoding="UTF-8", xml_declaration=True)


def _rejected_text(doc: Document) -> list[str]:
    """The rejected view's lines with text, frames' contents left out (the reader does not
    mark pictures and text boxes inside inserted text as absent from that view)."""
    body = [u for u in doc.body() if u.kind not in ("figure", "equation") and not u.meta.get("text_box")]
    return [line for line in doc.lines("rejected", body) if line.strip()]


def write(original: bytes, edits: Sequence[Edit], *, document: Document | None = None,
          notes: Sequence[Note] = (), check: Callable[[], None] | None = None) -> bytes:
    """The package with the edits written as tracked changes (and ``notes`` as comments).

    :param original: the .odt bytes the edits were made against.
    :param edits: concrete edits (validated and normalised by the backend); ids are those of
        ``document``, or of the document read from ``original`` when it is ``None``.
    :param check: called before each unit's edits are written (the caller's deadline may raise).
    :raise AnchorError: an edit names a unit that is not in the package, cuts into a field,
        or touches another author's tracked change in a way this writer does not write.
    :raise AdapterError: (a subclass) for a package that cannot be read or written.
    """
    pkg = open_package(original)
    if pkg.format != ODT:
        raise UnsupportedFormatError("the ODT writer needs an .odt package")
    concrete = _concrete(edits)
    if document is None:
        document = read_package(pkg)
    margin = [e for e in concrete if in_margin(document, e)]  # headers and footers: styles.xml
    concrete = [e for e in concrete if not in_margin(document, e)]
    pkg = open_package(original)  # a fresh parse: the writer mutates its tree
    ctx = load_context(pkg)
    w = _Writer(ctx, document)
    w.deadline = guarded(check)
    try:
        w.locate([], also=[n.unit for n in notes if n.unit and not n.edit and _paragraph_unit(document, n.unit)])
        w.apply(concrete)
        placed = w.annotate(concrete, list(notes)) if notes else 0
        # content.xml stays byte for byte when only headers or footers change
        changed = {"content.xml": _serialize(ctx.content)} if concrete or placed or not margin else {}
        if margin:
            changed[MARGIN_PART] = write_margins(ctx, document, margin, _Writer)
    except Stopped as stop:
        raise stop.cause from None
    except AdapterError:
        raise
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # a writer bug on odd input must still be a clear error
        raise AdapterError(f"the edits could not be written ({type(exc).__name__}: {exc})") from exc
    out = rewrite_zip(original, changed)
    _check(out, document)
    return out


def _check(out: bytes, document: Document) -> None:
    """The output must read, and reject-all must give the input's own rejected view."""
    from .. import read

    try:
        again = read(out)
    except AdapterError as exc:
        raise AdapterError(f"internal error: the written package does not read ({exc.message})") from exc
    if _rejected_text(again) != _rejected_text(document):
        raise AdapterError("internal error: the written package's original text differs from the input's")
    check_margins(again, document)


def _span(e: Replace | SetText) -> tuple[int, int]:
    """An edit's span in its unit, as the model orders edits at one point (a ``set_text`` spans
    the whole unit): an insertion before a replace that starts where it stands."""
    return (e.start, e.end) if e.op == "replace" else (0, 0)
