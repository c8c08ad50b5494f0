"""The neutral document model: the contract between the adapters and everything above them.

A reader turns a package into a :class:`Document` of :class:`Unit` objects. Layers above the
adapters see only this model; the :class:`Anchor` of a unit is opaque to them and is
interpreted only by the adapter that produced it (to write tracked changes back).
"""
from __future__ import annotations

import copy

import re
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import TYPE_CHECKING, ClassVar, Literal

from .errors import InvalidEditError
from .vocabulary import REVISION_KINDS, UNIT_KINDS, VIEWS
from .vocabulary import OUTSIDE_FLOW_KINDS

try:  # the BLAKE2 builtin alone: ``hashlib`` also loads OpenSSL, a cost every `ledger` start pays
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - other Python implementations
    from hashlib import blake2b

if TYPE_CHECKING:
    from typing import Any, Iterable, Iterator, Self

__all__ = [
    "UNIT_KINDS",
    "ancestor_ids",
    "REVISION_KINDS",
    "VIEWS",
    "Anchor",
    "Bookmark",
    "Comment",
    "ConcreteEdit",
    "Delete",
    "Document",
    "EDIT_FIELDS",
    "EDIT_OPS",
    "EDIT_TYPES",
    "Edit",
    "EditBase",
    "Field",
    "InsertAfter",
    "IdMaker",
    "Move",
    "Note",
    "Rename",
    "Replace",
    "Revision",
    "SetText",
    "Unit",
    "descendant_ids",
    "edit_from_json",
    "make_edit",
    "make_unit_id",
]

_KIND_PREFIX = {
    "section": "sec",
    "paragraph": "p",
    "list_item": "li",
    "caption": "cap",
    "figure": "fig",
    "table": "tbl",
    "equation": "eq",
    "footnote": "fn",
    "endnote": "en",
    "title": "title",
    "header": "hdr",
    "footer": "ftr",
}

_SPACE = re.compile(r"\s+")


def descendant_ids(units: Iterable["Unit"], root_id: str) -> set[str]:
    """The id of a unit and of every unit below it (what a move or a delete carries along)."""
    kids: dict[str | None, list[str]] = {}
    for u in units:
        kids.setdefault(u.parent, []).append(u.id)
    seen, stack = {root_id}, [root_id]
    while stack:
        for c in kids.get(stack.pop(), ()):
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return seen


def ancestor_ids(doc: "Document", unit_id: str | None) -> set[str]:
    """The ids of the units that contain ``unit_id`` (its parent, theirs, up to the top): the
    other direction of :func:`descendant_ids`, for scopes and enclosing sections. A cycle of
    parents (a damaged model) ends the walk instead of looping."""
    out: set[str] = set()
    unit = doc.get(unit_id) if unit_id else None
    while unit is not None and unit.parent and unit.parent not in out:
        out.add(unit.parent)
        unit = doc.get(unit.parent)
    return out


def make_unit_id(kind: str, text: str, occurrence: int = 0) -> str:
    """A unit id from its kind, its text and how many equal units came before it.

    Ids derive from content, not position, so that a re-upload after an edit elsewhere keeps
    the ids (and every cache keyed by them) of the units that did not change.

    >>> make_unit_id("paragraph", "Hello  world") == make_unit_id("paragraph", "Hello world")
    True
    >>> make_unit_id("paragraph", "Hello", 1).endswith("-1")
    True
    """
    norm = _SPACE.sub(" ", text).strip()
    digest = blake2b(f"{kind}\0{norm}".encode("utf-8"), digest_size=5).hexdigest()
    base = f"{_KIND_PREFIX.get(kind, 'u')}-{digest}"
    return base if occurrence == 0 else f"{base}-{occurrence}"


class IdMaker:
    """Hands out unit ids, counting occurrences of equal (kind, text) pairs in document order."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def __call__(self, kind: str, text: str) -> str:
        base = make_unit_id(kind, text)
        n = self._seen.get(base, 0)
        self._seen[base] = n + 1
        return base if n == 0 else f"{base}-{n}"


@dataclass(frozen=True)
class Anchor:
    """Where a unit lives in the package.

    ``part`` is the zip member (``word/document.xml``, ``word/footnotes.xml``, ``content.xml``);
    ``path`` is a locator in the adapter's own notation (for example the indexes of the block
    elements from the part's body), and ``extra`` holds whatever else the adapter needs.
    Only the adapter that made an anchor interprets it.
    """

    part: str
    path: str
    extra: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.extra:
            if k == key:
                return v
        return default

    def to_json(self) -> dict[str, Any]:
        return {"part": self.part, "path": self.path, "extra": [[k, v] for k, v in self.extra]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Anchor":
        """Inverse of :meth:`to_json`; JSON arrays come back as tuples so the anchor stays hashable."""
        return cls(d["part"], d["path"], tuple((k, _tuples(v)) for k, v in d.get("extra", ())))


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples a frozen anchor was built with."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


_ODF_REFERENCES = ("bookmark_ref", "reference_ref", "sequence_ref", "note_ref")
_ODF_FORMAT = re.compile(r'text:reference-format="([^"]*)"')
#: ODF ``text:reference-format`` -> what the result shows (see :attr:`Field.shows`).
_ODF_SHOWS = {
    "number": "number", "number-all-superior": "number", "number-no-superior": "number", "value": "number",
    "category-and-value": "label", "caption": "caption", "text": "text", "chapter": "chapter",
    "page": "page", "direction": "direction",
}


@dataclass
class Field:
    """A field held by a unit: a caption number, a cross-reference, a hyperlink.

    ``kind`` is normalised: ``seq``, ``ref``, ``pageref``, ``noteref``, ``hyperlink`` (DOCX) and
    ``sequence``, ``sequence_ref``, ``bookmark_ref``, ``reference_ref``, ``note_ref`` (ODF);
    anything else is ``other``. ``target`` is the name the field points at (bookmark, reference
    mark, note id, sequence name); ``target_unit`` is the unit that name resolves to.
    ``start``/``end`` are offsets of the field's shown result in the unit's (accepted) text.
    """

    kind: str
    code: str
    target: str | None = None
    target_unit: str | None = None
    result: str = ""
    start: int = 0
    end: int = 0

    @property
    def shows(self) -> str | None:
        """What of its target a reference field's result shows, from its code.

        ``number`` (the target's number: ODF ``number``, ``number-all-superior``,
        ``number-no-superior``, ``value``; Word ``REF \\r``/``\\n``/``\\w``, ``NOTEREF``),
        ``label`` ("Table 1": ODF ``category-and-value``), ``text`` (the bookmarked text, or
        a whole caption: ODF ``text``, Word ``REF`` without a number switch), ``chapter``
        (the number of the heading the target is under), ``caption`` (a caption's text after
        its number), ``page`` and ``direction`` ("above"/"below"); None when unknown.

        >>> Field("bookmark_ref", 'text:bookmark-ref text:ref-name="x" text:reference-format="chapter"').shows
        'chapter'
        >>> [Field("ref", c).shows for c in (r"REF _Ref1 \\r \\h", r"REF _Ref1 \\h", r"REF _Ref1 \\p")]
        ['number', 'text', 'direction']
        """
        kind = self.kind
        if kind in _ODF_REFERENCES:
            m = _ODF_FORMAT.search(self.code)
            return _ODF_SHOWS.get(m.group(1)) if m else None
        if kind == "ref":
            switches = set(re.findall(r"\\([a-zA-Z])", self.code))
            if switches & {"r", "n", "w"}:
                return "number"
            return "direction" if "p" in switches else "text"
        if kind == "pageref":
            return "page"
        if kind == "noteref":
            return "number"
        return None

    @property
    def is_reference(self) -> bool:
        return self.kind in {
            "ref",
            "pageref",
            "noteref",
            "hyperlink",
            "sequence_ref",
            "bookmark_ref",
            "reference_ref",
            "note_ref",
        }


@dataclass
class Bookmark:
    """A named location (``w:bookmarkStart``, ``text:bookmark``, ``text:reference-mark``)."""

    name: str
    start: int = 0
    end: int = 0


@dataclass
class Revision:
    """An existing tracked change found in the input, kept as data."""

    id: str
    kind: str
    author: str | None
    date: str | None
    text: str = ""
    unit: str | None = None


@dataclass
class Comment:
    """A comment found in the input; kept untouched, exposed as metadata of its unit."""

    id: str
    author: str | None
    date: str | None
    text: str
    unit: str | None = None
    anchor_text: str = ""


@dataclass
class Note:
    """A comment a writer adds beside the edits (why a change was made, or what needs a human).

    It is anchored on what the edit with id ``edit`` changed, or, for a finding, on
    ``evidence`` in unit ``unit`` (the occurrence nearest ``start``; the whole unit when the
    evidence is not found). ``parent`` names the note it replies to (a Word thread); a reply
    sits where its parent does. ``author`` is the edit's author; ``initials`` say who wrote
    the text (``LEDGER``).
    """

    id: str
    text: str
    author: str = "LEDGER"
    initials: str = "LEDGER"
    date: str | None = None
    edit: str | None = None
    unit: str | None = None
    start: int | None = None
    evidence: str = ""
    parent: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, "")}


@dataclass
class Unit:
    """One addressable piece of a document, as a reader would cite it.

    ``text`` is what the reader sees with all existing revisions accepted; ``rejected_text`` is
    the text with them rejected (``None`` when the unit has no revisions). A unit made of
    several paragraphs (a table, a text box) separates them with ``\\n``, in reading order.
    A unit that exists in one view only (a paragraph inserted or deleted with tracking on)
    says so with ``meta["absent_in"] = "rejected"`` or ``"accepted"``.
    """

    id: str
    kind: str
    text: str
    order: int
    label: str | None = None
    number: str | None = None
    title: str | None = None
    parent: str | None = None
    style: str | None = None
    level: int | None = None
    anchor: Anchor | None = None
    fields: list[Field] = field(default_factory=list)
    bookmarks: list[Bookmark] = field(default_factory=list)
    rejected_text: str | None = None
    comments: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def refs(self) -> list[dict[str, str]]:
        """The units this one points at through reference fields."""
        out = []
        for f in self.fields:
            if f.is_reference and f.target_unit:
                out.append({"target": f.target_unit, "field": f.kind})
        return out

    def view(self, which: str = "accepted") -> str:
        """The unit's text in the given view (``accepted`` or ``rejected``)."""
        if which == "rejected" and self.rejected_text is not None:
            return self.rejected_text
        return self.text

    def to_json(self, lossless: bool = False) -> dict[str, Any]:
        """The unit as the ``ledger units --json`` contract spells it (plus a few extras).

        ``lossless=True`` adds what :meth:`from_json` needs to rebuild the unit exactly (the
        anchor, bookmark spans); the store uses it, the public contract does not.
        """
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "number": self.number,
            "title": self.title,
            "text": self.text,
            "parent": self.parent,
            "order": self.order,
            "style": self.style,
            "refs": self.refs,
        }
        if self.level is not None:
            out["level"] = self.level
        if self.rejected_text is not None:
            out["rejected_text"] = self.rejected_text
        if self.fields:
            out["fields"] = [asdict(f) for f in self.fields]
        if self.bookmarks:
            out["bookmarks"] = [asdict(b) if lossless else b.name for b in self.bookmarks]
        if self.comments:
            out["comments"] = list(self.comments)
        if self.meta:
            out["meta"] = self.meta
        if lossless and self.anchor is not None:
            out["anchor"] = self.anchor.to_json()
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Unit":
        """A unit from :meth:`to_json` output (exact when it was written with ``lossless=True``).

        >>> u = Unit("p-1", "paragraph", "Hi", 0, anchor=Anchor("word/document.xml", "3"))
        >>> Unit.from_json(u.to_json(lossless=True)) == u
        True
        """
        return cls(
            id=d["id"],
            kind=d["kind"],
            text=d["text"],
            order=d["order"],
            label=d.get("label"),
            number=d.get("number"),
            title=d.get("title"),
            parent=d.get("parent"),
            style=d.get("style"),
            level=d.get("level"),
            anchor=Anchor.from_json(d["anchor"]) if d.get("anchor") else None,
            fields=[Field(**f) for f in d.get("fields", ())],
            bookmarks=[Bookmark(b) if isinstance(b, str) else Bookmark(**b) for b in d.get("bookmarks", ())],
            rejected_text=d.get("rejected_text"),
            comments=list(d.get("comments", ())),
            meta=dict(d.get("meta", {})),
        )


_IMMUTABLE = (str, int, float, bool, type(None))


def _copy_unit(u: Unit) -> Unit:
    """A unit that shares nothing mutable with ``u`` (see :meth:`Document.copy`)."""
    c = copy.copy(u)
    c.fields = [copy.copy(f) for f in u.fields]
    c.bookmarks = [copy.copy(b) for b in u.bookmarks]
    c.comments = list(u.comments)
    c.meta = {k: v if isinstance(v, _IMMUTABLE) else copy.deepcopy(v) for k, v in u.meta.items()}
    return c


@dataclass
class Document:
    """A whole document in the neutral model: units in document order plus side data."""

    format: str
    units: list[Unit] = field(default_factory=list)
    revisions: list[Revision] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    path: str | None = None
    _index: dict[str, Unit] | None = field(default=None, repr=False, compare=False)

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id; ``KeyError`` when there is none."""
        if self._index is None or len(self._index) != len(self.units):
            self._index = {u.id: u for u in self.units}
        return self._index[unit_id]

    def copy(self) -> "Document":
        """A copy that shares nothing mutable with this document (what ``copy.deepcopy`` gives),
        made field by field: the units' fields, bookmarks, comments and meta are copied, the
        frozen anchors and the strings shared. A preview copies the document twice; a deep
        copy of a 100K-token standard took seconds.

        >>> d = Document("docx", [Unit("p", "paragraph", "x", 0, fields=[Field("ref", "REF a", start=0, end=1)])])
        >>> c = d.copy(); c.units[0].fields[0].end = 0; c.units[0].meta["edit"] = "changed"
        >>> d.units[0].fields[0].end, d.units[0].meta, c == d
        (1, {}, False)
        """
        return Document(
            format=self.format, units=[_copy_unit(u) for u in self.units], revisions=copy.deepcopy(self.revisions),
            comments=copy.deepcopy(self.comments), warnings=list(self.warnings), meta=copy.deepcopy(self.meta),
            path=self.path,
        )

    def reindex(self) -> None:
        """Forget the id index, for code that replaced units in place (same count, new objects,
        as a deep copy gives): the next :meth:`unit` rebuilds it."""
        self._index = None

    def get(self, unit_id: str) -> Unit | None:
        try:
            return self.unit(unit_id)
        except KeyError:
            return None

    def children(self, unit_id: str | None) -> list[Unit]:
        """Units whose parent is ``unit_id`` (``None`` for top-level units), in order."""
        return [u for u in self.units if u.parent == unit_id]

    def body(self) -> Iterator[Unit]:
        """Units of the main text flow (notes, headers and footers excluded), in document order."""
        return (u for u in self.units if u.kind not in OUTSIDE_FLOW_KINDS)

    def lines(self, view: str = "accepted", units: Iterable[Unit] | None = None) -> list[str]:
        """The visible text, one paragraph per line."""
        out: list[str] = []
        for u in units if units is not None else self.body():
            if u.meta.get("absent_in") == view:
                continue
            out.extend(u.view(view).split("\n"))
        return out

    def to_json(self, lossless: bool = False) -> dict[str, Any]:
        """The document as JSON; ``lossless=True`` keeps anchors and meta for :meth:`from_json`."""
        out: dict[str, Any] = {
            "path": self.path,
            "format": self.format,
            "units": [u.to_json(lossless) for u in self.units],
            "revisions": [asdict(r) for r in self.revisions],
            "comments": [asdict(c) for c in self.comments],
            "warnings": list(self.warnings),
        }
        if lossless:
            out["meta"] = self.meta
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Document":
        """A document from :meth:`to_json` output (exact when written with ``lossless=True``)."""
        return cls(
            format=d["format"],
            units=[Unit.from_json(u) for u in d.get("units", ())],
            revisions=[Revision(**r) for r in d.get("revisions", ())],
            comments=[Comment(**c) for c in d.get("comments", ())],
            warnings=list(d.get("warnings", ())),
            meta=dict(d.get("meta", {})),
            path=d.get("path"),
        )


# --- operations --------------------------------------------------------------------------------
#
# One dataclass per operation, all on :class:`EditBase` (who, when, why, the unit's text when the
# edit was made, ids); :data:`Edit` is their union, tagged by the class attribute ``op``, so
# ``if e.op == "replace":`` narrows ``e`` to :class:`Replace` for the type checker. The JSON wire
# format is ``{"op": ..., fields...}`` (:meth:`EditBase.to_json`, :func:`edit_from_json`).

#: The fields of an edit's JSON form (any operation), in the order :meth:`EditBase.to_json` writes them.
EDIT_FIELDS = ("op", "unit", "text", "start", "end", "old", "after", "before_unit", "kind", "style",
               "author", "date", "reason", "before", "id", "source")
#: Fields kept in JSON even when empty: an empty ``text`` (a deletion of words) or ``old``.
_KEEP_EMPTY = ("text", "old")


@dataclass(kw_only=True)
class EditBase:
    """What every operation carries besides its own fields.

    ``before`` is the unit's text when the edit was made, so a writer can refuse an edit whose
    unit has changed since; ``reason`` says why (the instruction, or the edge or rule that made
    a propagated edit necessary); ``id`` names the operation (``op-1``, ``prop-2``) and
    ``source`` what produced it (an engine, or the id of the edit a propagated one follows from).
    """

    op: ClassVar[str]
    author: str = "LEDGER"
    date: str | None = None
    reason: str = ""
    before: str | None = None
    id: str | None = None
    source: str | None = None

    def validate(self) -> Self:
        """Raise :class:`InvalidEditError` naming what is inconsistent; return self."""
        return self

    def unit_refs(self) -> set[str]:
        """The units this edit names as where it acts or lands (not the unit a delete removes)."""
        return set()

    def to_json(self) -> dict[str, Any]:
        """``{"op": ..., fields...}`` without empty fields; an empty ``text``/``old`` is kept."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        out: dict[str, Any] = {"op": self.op}
        for k in EDIT_FIELDS[1:]:
            v = values.get(k)
            if v is not None and (v != "" or k in _KEEP_EMPTY):
                out[k] = v
        return out


@dataclass
class Replace(EditBase):
    """Swap ``before[start:end]`` for ``text`` in ``unit``; ``old`` is the text it replaces (shown
    to the user; the span is what counts)."""

    op: ClassVar[Literal["replace"]] = "replace"
    unit: str
    start: int
    end: int
    text: str
    old: str | None = None

    def validate(self) -> Self:
        if self.start < 0 or self.end < self.start:
            raise InvalidEditError(f"replace edit has an invalid span {self.start}..{self.end}")
        if self.before is not None and self.end > len(self.before):
            raise InvalidEditError("replace edit span runs past the unit's text")
        return self

    def unit_refs(self) -> set[str]:
        return {self.unit}


@dataclass
class SetText(EditBase):
    """Give ``unit`` its whole new ``text`` (the writer diffs it word by word)."""

    op: ClassVar[Literal["set_text"]] = "set_text"
    unit: str
    text: str

    def unit_refs(self) -> set[str]:
        return {self.unit}


@dataclass
class InsertAfter(EditBase):
    """Add a new unit with ``text`` after ``unit``; ``kind`` and ``style`` default to those of
    ``unit`` (the backend fills them in before anything is written)."""

    op: ClassVar[Literal["insert_after"]] = "insert_after"
    unit: str
    text: str
    kind: str | None = None
    style: str | None = None

    def validate(self) -> Self:
        if self.kind is not None and self.kind not in UNIT_KINDS:
            raise InvalidEditError(f"unknown unit kind {self.kind!r}")
        return self

    def unit_refs(self) -> set[str]:
        return {self.unit}


@dataclass
class Delete(EditBase):
    """Remove ``unit`` (its descendants are deleted by edits of their own)."""

    op: ClassVar[Literal["delete"]] = "delete"
    unit: str


@dataclass
class Move(EditBase):
    """Put ``unit`` (with its descendants) after ``after``, or before ``before_unit``."""

    op: ClassVar[Literal["move"]] = "move"
    unit: str
    after: str | None = None
    before_unit: str | None = None

    def validate(self) -> Self:
        if not (self.after or self.before_unit):
            raise InvalidEditError("move edit needs after or before_unit")
        return self

    def unit_refs(self) -> set[str]:
        return {self.unit} | {u for u in (self.after, self.before_unit) if u}


@dataclass
class Rename(EditBase):
    """Change the term ``old`` to ``text`` everywhere (below ``unit`` when it is given).

    Document-wide: it is expanded into :class:`Replace` edits, one per occurrence, before
    anything is written.
    """

    op: ClassVar[Literal["rename"]] = "rename"
    old: str
    text: str
    unit: str | None = None

    def unit_refs(self) -> set[str]:
        return {self.unit} if self.unit else set()


#: One change to a document: the structure every engine produces and every writer applies.
Edit = Replace | SetText | InsertAfter | Delete | Move | Rename
#: Operations a writer applies (a :class:`Rename` is expanded first).
ConcreteEdit = Replace | SetText | InsertAfter | Delete | Move

EDIT_TYPES: dict[str, type[Edit]] = {k.op: k for k in (Replace, SetText, InsertAfter, Delete, Move, Rename)}
#: The operations, as the JSON ``op`` names them.
EDIT_OPS = tuple(EDIT_TYPES)
_WIRE_FIELDS = set(EDIT_FIELDS) - {"op"}
_INT_FIELDS = ("start", "end")


def make_edit(op: str, **values: Any) -> Edit:
    """The edit of operation ``op`` with these fields, validated (a builder that picks the op at
    run time; code that knows it calls :class:`Replace` and the others directly).

    Fields of other operations are an error unless they are ``None`` (absent).

    >>> make_edit("delete", unit="p-1", reason="gone")
    Delete(author='LEDGER', date=None, reason='gone', before=None, id=None, source=None, unit='p-1')
    >>> make_edit("delete", unit="p-1", text="x")
    Traceback (most recent call last):
    ...
    adapters.errors.InvalidEditError: a delete edit has no field text
    """
    klass = EDIT_TYPES.get(op) if isinstance(op, str) else None
    if klass is None:
        raise InvalidEditError(f"unknown edit op {op!r}; expected one of {', '.join(EDIT_OPS)}")
    own = {f.name: f for f in fields(klass) if f.init}
    unknown = sorted(set(values) - _WIRE_FIELDS - set(own))
    if unknown:
        raise InvalidEditError(f"unknown edit field(s): {', '.join(unknown)}")
    foreign = sorted(k for k, v in values.items() if k not in own and v is not None)
    if foreign:
        raise InvalidEditError(f"a {op} edit has no field{'s' if len(foreign) > 1 else ''} {', '.join(foreign)}")
    given = {k: v for k, v in values.items() if k in own and v is not None}
    missing = [f.name for f in own.values() if f.name not in given and f.default is MISSING]
    if missing:
        raise InvalidEditError(f"{op} edit needs {', '.join(missing)}")
    for k, v in given.items():
        if k in _INT_FIELDS:
            if not isinstance(v, int) or isinstance(v, bool):
                raise InvalidEditError(f"{op} edit: {k} must be an integer")
        elif not isinstance(v, str):
            raise InvalidEditError(f"{op} edit: {k} must be a string")
    return klass(**given).validate()


def edit_from_json(data: Any) -> Edit:
    """The edit a JSON object spells (``{"op": ..., fields...}``), validated.

    >>> edit_from_json({"op": "replace", "unit": "p-1", "start": 0, "end": 3, "text": "New"}).to_json()
    {'op': 'replace', 'unit': 'p-1', 'text': 'New', 'start': 0, 'end': 3, 'author': 'LEDGER'}

    :raise InvalidEditError: not an object, an unknown op or field, a missing field, a bad value.
    """
    if not isinstance(data, dict):
        raise InvalidEditError("an edit must be a JSON object")
    values = dict(data)
    return make_edit(values.pop("op", None), **values)
