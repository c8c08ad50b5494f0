"""What a list of concrete edits means beyond its spans: the renames and value changes in it.

Engines hand over concrete edits (a rename has already become one ``replace`` per occurrence),
so propagation and verification read the intent back from the edits themselves:

- a **rename** is a group of ``replace`` edits that swap one term for another (any case, plural
  or possessive form). A group counts as a rename when it came from a ``rename`` operation, when
  its reason says "rename", when it changes two or more occurrences, or when the old term is one
  the document defines; a single local replacement of an undefined phrase is just an edit.
- a **value change** is a ``replace`` whose old and new texts state quantities ("30" before
  "days" -> "45"); the unit of measure is read from the text around the span when the span
  holds only the number.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import networkx as nx

from adapters.model import Document, Edit

from ..graph.definitions import definition_registry, find_usages
from ..graph.edges import DEPENDS

from ..language.detect import unit_language
from ..language.forms import lemma
from .terms import max_term_chars, singularize
from .values import Value, parse_value

__all__ = ["Rename", "ValueChange", "definers_of", "definition_users", "edit_ids", "norm_term", "renames", "value_changes"]

_MAX_TERM_WORDS = 6
_LABEL_NUMBER = re.compile(r"[A-Za-z]|\d+[a-z]?(?:[.\-]\d+)*|[A-Z](?:[.\-]\d+)+")
_TAIL = re.compile(r"(?P<sep>\s*-?\s*)(?P<tail>%|per\s+cent|[A-Za-z]+)")
_NOT_A_UNIT = frozenset(
    "a an the and or of to in on at by for from with as is are was were be that which this these those "
    "than then after before per each every any no not".split()
)


def edit_ids(edits: Iterable[Edit], prefix: str = "op") -> list[str]:
    """The id of each edit: its own ``id``, else ``"<prefix>-<position>"`` (1-based)."""
    return [e.id or f"{prefix}-{i + 1}" for i, e in enumerate(edits)]


def norm_term(term: str, lang: str = "en") -> str:
    """A term's comparison key: one space, straight apostrophes, lower case, singular (in the
    term's language: ``language.forms.lemma``)."""
    t = re.sub(r"\s+", " ", term.strip()).replace("\u2019", "'")
    if lang != "en":
        return lemma(t, lang).lower()
    return (singularize(t) or singularize(t.lower()) or t).lower()  # as written first: "URIs" is the plural of "URI"


def _group_key(term: str, lang: str = "en") -> str:
    """The key that one rename's edits share: :func:`norm_term` with a hyphen read as a space, as
    every form of a term is found ("field-name" is a form of "field name", and one rename)."""
    return norm_term(term.replace("-", " "), lang)


def _spelling_out(old: str, new: str) -> bool:
    """An abbreviation's definition added or dropped ("URI" <-> "Uniform Resource Identifier
    (URI)"): the same term written out or shortened, not a rename of it."""
    return old.rstrip().endswith(f"({new.strip()})") or new.rstrip().endswith(f"({old.strip()})")


@dataclass
class Rename:
    """A term renamed by some of the edits.

    ``old``/``new`` are the forms the first edit used (``find_term`` derives the others);
    ``edits`` the ids of the edits that make it; ``scope`` the unit ids a ``rename`` operation was
    limited to (``None``: no limit stated); ``explicit`` whether a ``rename`` operation asked for it.
    """

    old: str
    new: str
    edits: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    spans: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    scope: list[str] | None = None
    explicit: bool = False


def _is_term_span(before: str, start: int, end: int) -> bool:
    piece = before[start:end]
    if not piece.strip() or "\n" in piece or not any(c.isalpha() for c in piece):
        return False
    if len(piece) > max_term_chars() or len(piece.split()) > _MAX_TERM_WORDS:
        return False  # a passage, not a term: no rename is inferred (nor searched for)
    if parse_value(piece) is not None or _LABEL_NUMBER.fullmatch(piece):
        return False  # a number, or a label number such as "B" or "A.2" that renumbering changed
    left_ok = start == 0 or not before[start - 1].isalnum()
    right_ok = end == len(before) or not before[end].isalnum()
    return left_ok and right_ok and piece == piece.strip()


def renames(doc: Document, edits: list[Edit], ids: list[str] | None = None,
            raw: Iterable[Edit] = (), defined: Iterable[str] = ()) -> list[Rename]:
    """The renames among concrete ``edits`` (see the module docstring).

    ``raw`` are the edits as proposed (``rename`` operations not yet expanded), ``defined`` the
    keys of terms the document defines (lower case).
    """
    ids = ids or edit_ids(edits)
    asked = {(_group_key(e.old), _group_key(e.text)): e for e in raw if e.op == "rename" and e.old and e.text}
    defined_keys = {_group_key(d) for d in defined}
    groups: dict[tuple[str, str], Rename] = {}
    reasons: dict[tuple[str, str], bool] = {}
    written: defaultdict[tuple[str, str], Counter] = defaultdict(Counter)
    langs: dict[tuple[str, str], str] = {}
    for e, eid in zip(edits, ids):
        if e.op != "replace" or not e.text or e.before is None:
            continue
        if not _is_term_span(e.before, e.start, e.end) or "\n" in e.text:
            continue
        old = e.before[e.start : e.end]
        lang = _language(doc, e.unit)
        key = (_group_key(old, lang), _group_key(e.text, lang))
        if key[0] == key[1] or _spelling_out(old, e.text):
            continue
        r = groups.setdefault(key, Rename(old, e.text))
        langs.setdefault(key, lang)
        written[key][(old, e.text)] += 1
        r.edits.append(eid)
        if e.unit not in r.units:
            r.units.append(e.unit)
        r.spans.setdefault(e.unit, []).append((e.start, e.end))
        reasons[key] = reasons.get(key, False) or e.reason.lower().startswith("rename")
    out = []
    for key, r in groups.items():
        r.old, r.new = _usual_form(written[key], langs.get(key, "en"))
        op = asked.get(key)
        if op is not None:
            r.explicit = True
            r.scope = [op.unit] if op.unit else None
        if op is not None or reasons[key] or len(r.edits) >= 2 or key[0] in defined_keys:
            out.append(r)
    return out


def _language(doc: Document, uid: str) -> str:
    """The language of the unit an edit changes (the forms of a renamed term are its language's)."""
    try:
        return unit_language(doc.unit(uid), doc)
    except Exception:  # a unit the edits insert: the document's language decides elsewhere
        return "en"


def _usual_form(forms: Counter, lang: str = "en") -> tuple[str, str]:
    """The form of a rename to read it back by: the one written most often, singular and in
    lower case first ("connection ID", not the heading's "Connection IDs" nor "CONNECTION ID"),
    so that capitals elsewhere read as what they are (a sentence start, a name); in another
    language its base form ("Vertrag", not "Verträgen")."""
    def rank(item: tuple[tuple[str, str], int]) -> tuple:
        (old, _new), n = item
        inflected = singularize(old) is not None if lang == "en" else lemma(old, lang).lower() != old.lower()
        return (inflected, old.isupper(), not old[:1].islower(), -n)
    return min(forms.items(), key=rank)[0]


@dataclass
class ValueChange:
    """One statement of a value changed by an edit: ``old`` -> ``new`` in ``unit`` at ``start:end``."""

    edit: str
    unit: str
    start: int
    end: int
    old: Value
    new: Value
    text: str


def _with_context(before: str, start: int, end: int, value: Value) -> Value:
    """A bare number ("30") completed by the unit of measure written after it ("30 days")."""
    if value.tail or value.prefix:
        return value
    prefix = before[start - 1] if start > 0 and before[start - 1] in "$\u20ac\u00a3\u00a5" else ""
    m = _TAIL.match(before, end)
    tail = ""
    if m and m.group("tail").lower() not in _NOT_A_UNIT and (m.group("tail") == "%" or m.group("sep")):
        tail = m.group("tail")
    return Value(prefix, value.number, tail)


def value_changes(edits: list[Edit], ids: list[str] | None = None) -> list[ValueChange]:
    """The ``replace`` edits that change a stated quantity (see the module docstring)."""
    ids = ids or edit_ids(edits)
    out = []
    for e, eid in zip(edits, ids):
        if e.op != "replace" or e.before is None or not e.text:
            continue
        old_text = e.before[e.start : e.end]
        ov, nv = parse_value(old_text), parse_value(e.text)
        if ov is None or nv is None:
            continue
        ov = _with_context(e.before, e.start, e.end, ov)
        if not nv.tail and not nv.prefix:
            nv = Value(ov.prefix, nv.number, ov.tail)
        if ov.number == nv.number and ov.tail == nv.tail and ov.prefix == nv.prefix:
            continue
        out.append(ValueChange(eid, e.unit, e.start, e.end, ov, nv, old_text))
    return out


def definers_of(definers: Mapping[str, Sequence[str]], term: str) -> list[str]:
    """The units that define ``term`` (any case, singular or plural), from each defined term's
    definers (:func:`..graph.term_index.term_definers`)."""
    key = norm_term(term)
    return [uid for k, uids in definers.items() if norm_term(k) == key for uid in uids]


def definition_users(doc: Document, G: nx.MultiDiGraph | None, definers: list[str], term_keys: set[str]) -> list[str]:
    """Units that DEPEND on one of ``definers``: the graph's DEPENDS edges when it has them,
    else the uses of the terms (``term_keys``, as :func:`norm_term` gives them) found in the text."""
    out: list[str] = []
    if G is not None and "depends" in G.graph.get("stages", ()):
        for d in definers:
            if d in G:
                out.extend(u for u, _, k in G.in_edges(d, keys=True) if k == DEPENDS)
    else:
        registry = definition_registry(doc.units)
        keys = [k for k in registry if norm_term(k) in term_keys]
        out.extend(use.source for use in find_usages(doc, registry, keys=keys) if use.definer in definers)
    return list(dict.fromkeys(out))
