"""Propagation: the edits and findings that an edit makes necessary elsewhere in the document.

:func:`propagate` follows the graph from the edited units to what depends on them:

- **renumbering** — deleting, inserting or moving a numbered unit changes the numbers of others
  (:mod:`addin_backend.numbering`); every textual mention ("Figure 3", "Figures 2-4",
  "Sections 2 and 3") gets a ``replace`` of just its number, every reference field a ``replace``
  of the number in its cached result (the writers keep the field), and every caption, heading or
  statement whose number is typed (or a caption field's cached result) is renumbered too;
- **deleted targets** — a reference to a unit the edit deletes is reported as an error and left
  in place, never silently removed;
- **renames** — every form of the old term (case, plural, possessive) in the renamed units and,
  when the definition itself is renamed, in every unit that DEPENDS on the defining unit;
- **values** — another statement of a changed quantity ("thirty (30) days") is listed as a
  finding with its span and the restatement, not changed;
- **listings** — the row of a table that lists a changed statement's identifier (a conformance
  table) is restated, and a row whose statement is gone, or a new statement no row lists, is
  reported (:mod:`addin_backend.edits.listings`);
- **headers and footers** — a date or line of the front matter that an edit changes is restated
  where the page headers and footers repeat it (:mod:`addin_backend.edits.margins`).

Propagated edits never overlap each other or the original edits; each names in ``reason`` the
edge or rule behind it and in ``source`` the id of the edit it came from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import networkx as nx

from adapters.model import Document, Edit, Replace, Unit, descendant_ids

from ..findings import Finding
from ..graph.term_index import term_definers
from ..graph.mentions import Item, Mention, document_names, unit_mentions
from ..numbering import (
    STATEMENT_FAMILIES,
    Entry,
    Renumbering,
    label_of,
    number_span,
    renumber,
    shown_entry,
    shown_number,
    unit_key,
)
from .intents import Rename, definers_of, definition_users, edit_ids, norm_term, renames, value_changes
from .listings import propagate_listings
from .margins import propagate_margins
from .operations import Checked, apply_more, apply_to_document, validate_edits, validate_more
from .renaming import Usage, term_places
from .values import find_value

__all__ = ["Propagation", "propagate"]

_NOT_REFERENCE_FIELDS = ("hyperlink", "pageref", "noteref", "note_ref")
_RANGE_SEP = re.compile(r"\s*[-\u2013\u2014]\s*|\s+(?:to|through|thru)\s+")


@dataclass
class Propagation:
    """What :func:`propagate` found: the edits to add and what a reviewer must look at.

    ``checked`` are the given edits and ``edits`` together, validated once for the document;
    ``after`` the document with both applied (:func:`~.operations.apply_more`), which is what
    verification reads; both ``None`` when nothing was given."""

    edits: list[Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    renumbering: Renumbering | None = None
    checked: Checked | None = None
    after: Document | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "edits": [e.to_json() for e in self.edits],
            "findings": [f.to_json() for f in self.findings],
        }
        if self.renumbering is not None:
            renum = self.renumbering
            out["renumbered"] = {
                label_of(f, old, renum.word(f, old)): label_of(f, new, renum.word(f, old))
                for (f, old), new in renum.changes.items()
            }
        return out


class _Plan:
    """The propagated edits being collected, with the spans every edit already occupies."""

    def __init__(self, doc: Document, edits: list[Edit]) -> None:
        self.doc = doc
        self.spans: dict[str, list[tuple[int, int]]] = {}
        self.blocked: dict[str, str] = {}
        for e in edits:
            if e.op == "replace":
                self.spans.setdefault(e.unit, []).append((e.start, e.end))
            elif e.op == "set_text" or e.op == "delete":
                self.blocked[e.unit] = e.op
        self.edits: list[Edit] = []
        self.findings: list[Finding] = []
        #: who and when the propagated edits are stamped with: those of the first edit
        self.author, self.date = (edits[0].author, edits[0].date) if edits else ("LEDGER", None)

    def taken(self, unit: str, start: int, end: int) -> bool:
        """Whether ``start:end`` touches a span already edited (an insertion point inside a
        replaced span, or two insertions at one point, count as touching)."""
        if unit in self.blocked:
            return True
        for a, b in self.spans.get(unit, ()):
            if start < b and a < end:
                return True
            if (start == end and a < start < b) or (a == b and start < a < end) or (start == end == a == b):
                return True
        return False

    def replace(self, unit: Unit, start: int, end: int, text: str, reason: str, source: str, *, quiet: bool = False) -> bool:
        """Add a propagated replace unless it touches an edit already there (then say so, unless
        ``quiet``: a rename meeting its own occurrences)."""
        if unit.text[start:end] == text:
            return False
        if self.taken(unit.id, start, end):
            if unit.id not in self.blocked and not quiet:
                self.findings.append(Finding(
                    "propagation_skipped", "warning", unit.id,
                    f"could not apply '{text}' here ({reason}): another edit changes this text",
                    unit.text[start:end], [], start, end, text,
                ))
            return False
        self.spans.setdefault(unit.id, []).append((start, end))
        self.edits.append(Replace(
            unit=unit.id, start=start, end=end, text=text, old=unit.text[start:end],
            author=self.author, date=self.date, reason=reason, before=unit.text, source=source,
            id=f"prop-{len(self.edits) + 1}",
        ))
        return True


# --- renumbering -----------------------------------------------------------------------------


def _known(renum: Renumbering) -> set[tuple[str, str]]:
    return {(e.family, e.number) for e in renum.before if e.number is not None}


def _key(family: str, number: str, known: set[tuple[str, str]]) -> tuple[tuple[str, str], str] | None:
    """The entry key an item names, and the suffix it adds ("3b" -> ("figure", "3"), "b")."""
    if (family, number) in known:
        return (family, number), ""
    if re.fullmatch(r"[\d.]+[a-z]", number, re.I) and number[-2].isdigit() and (family, number[:-1]) in known:
        return (family, number[:-1]), number[-1]
    return None


def _natural(num: str) -> tuple:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in num.split("."))


def _contiguous(nums: list[str]) -> bool:
    parts = [n.split(".") for n in nums]
    if len({len(p) for p in parts}) != 1 or len({tuple(p[:-1]) for p in parts}) != 1:
        return False
    last = [p[-1] for p in parts]
    if all(x.isdigit() for x in last):
        vals = sorted(int(x) for x in last)
    elif all(len(x) == 1 and x.isalpha() for x in last):
        vals = sorted(ord(x) for x in last)
    else:
        return False
    return vals == list(range(vals[0], vals[0] + len(vals)))


def _singular_word(word: str) -> str:
    """"Figures" -> "Figure", "Figs." -> "Fig.", "§§" -> "§" (a range that now names one unit).

    >>> [_singular_word(w) for w in ("Figures", "Figs.", "Sections", "§§", "appendices", "Table")]
    ['Figure', 'Fig.', 'Section', '§', 'appendix', 'Table']
    """
    if word == "§§":
        return "§"
    if word.endswith("s.") and len(word) > 3:
        return word[:-2] + "."
    low = word.lower()
    if low.endswith("ices"):
        return word[:-4] + ("IX" if word.isupper() else "ix")
    if low.endswith(("xes", "sses")):
        return word[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return word[:-1]
    return word


def _join(nums: list[str]) -> str:
    return nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " and " + nums[-1]


class _Renumberer:
    def __init__(self, plan: _Plan, renum: Renumbering, after: Document, source_of: dict[str, str]) -> None:
        self.plan, self.renum, self.after = plan, renum, after
        self.known = _known(renum)
        self.source_of = source_of
        self.alive = {u.id for u in after.units}
        self.names = document_names(after.units)
        self.taken_numbers = {(e.family, e.number): e for e in renum.after}

    def source(self, family: str) -> str:
        return self.source_of.get(family) or self.source_of.get("*", "")

    def _deleted(self, unit: Unit, key: tuple[str, str | None], evidence: str, start: int, end: int, how: str) -> None:
        gone = self.renum.deleted[key]
        label = self.renum.label(key[0], key[1] or "?")
        now = self.taken_numbers.get(key)
        tail = (f" (after renumbering, {label} is the former {self.renum.label(now.family, self._old_number(now))})"
                if now is not None else "")
        self.plan.findings.append(Finding(
            "reference_to_deleted", "error", unit.id,
            f"{how} {label}, which the edit deletes; kept for you to resolve{tail}",
            evidence, [u for u in gone.units], start, end,
        ))

    def _old_number(self, after_entry: Entry) -> str:
        for e in self.renum.before:
            if e.carrier == after_entry.carrier:
                return e.number or "?"
        return after_entry.number or "?"

    # text mentions
    def mentions(self, unit: Unit) -> None:
        text = unit.text
        fields = [(f.start, f.end) for f in unit.fields if f.is_reference and f.kind != "hyperlink" and f.end > f.start]
        own = unit_key(unit)
        lead = len(text) - len(text.lstrip())
        for m in unit_mentions(unit, self.names):
            if any(a < m.end and m.start < b for a, b in fields):
                continue  # a reference field covers it
            if own and m.start == lead and any((m.family, i.number) == own for i in m.items):
                continue  # the unit's own label, handled with its number
            items = m.items
            if m.literal and (m.family, m.literal) in self.known:
                items = (Item(m.literal, m.items[0].start, m.items[-1].end),)
            explicit = [i for i in items if i.explicit]
            k = 0
            while k < len(explicit):
                a = explicit[k]
                b = explicit[k + 1] if k + 1 < len(explicit) else None
                if b is not None and _RANGE_SEP.fullmatch(text[a.end : b.start]):
                    members = list(items[items.index(a) : items.index(b) + 1])
                    self._range(unit, m, a, b, members)
                    k += 2
                else:
                    self._single(unit, m, a)
                    k += 1

    def _single(self, unit: Unit, m: Mention, item: Item) -> None:
        got = _key(m.family, item.number, self.known)
        if got is None:
            return
        key, suffix = got
        if key in self.renum.deleted:
            self._deleted(unit, key, m.text, m.start, m.end, f"'{m.text}' refers to")
            return
        new = self.renum.changes.get(key)
        if new is None:
            return
        span = number_span(unit.text, item.start, item.end, key[1])
        if span is None:
            return
        self.plan.replace(unit, *span, new, f"REFERENCES: {self.renum.label(*key)} is now {self.renum.label(key[0], new, key[1])}"
                          f"{' (' + m.text + ')' if suffix else ''}", self.source(key[0]))

    def _range(self, unit: Unit, m: Mention, a: Item, b: Item, members: list[Item]) -> None:
        maybe = [_key(m.family, i.number, self.known) for i in members]
        keys = [k for k in maybe if k is not None]
        if len(keys) != len(maybe):
            return  # a range reaching past the labels that exist: ``ledger check`` reports it
        news: list[str] = []
        for (key, _), item in zip(keys, members):
            if key in self.renum.deleted:
                self._deleted(unit, key, m.text, a.start, b.end, f"the range '{m.text}' includes")
            else:
                news.append(self.renum.changes.get(key, key[1]))
        olds = [k[0][1] for k in keys]
        survivors = [k[0][1] for k in keys if k[0] not in self.renum.deleted]
        if not news or news == survivors == olds:
            return
        news.sort(key=_natural)
        family = m.family
        word = self.renum.word(family, olds[0])
        src = self.source(family)
        contiguous = len(news) > 1 and _contiguous(news)
        if contiguous:
            reason = f"REFERENCES: the range {m.text} now runs from {label_of(family, news[0], word)} to {label_of(family, news[-1], word)}"
        else:
            reason = f"REFERENCES: the range {m.text} now names {', '.join(label_of(family, n, word) for n in news)}"
        if contiguous:
            for item, num in ((a, news[0]), (b, news[-1])):
                span = number_span(unit.text, item.start, item.end, item.number)
                if span is not None:
                    self.plan.replace(unit, *span, num, reason, src)
        else:
            first = number_span(unit.text, a.start, a.end, a.number)
            last = number_span(unit.text, b.start, b.end, b.number)
            if first and last and self.plan.replace(unit, first[0], last[1], _join(news), reason, src) and len(news) == 1:
                word = _singular_word(m.word)
                at = m.start
                if word != m.word and unit.text[at : at + len(m.word)] == m.word:
                    self.plan.replace(unit, at, at + len(m.word), word, reason, src)

    # reference fields
    def fields(self, unit: Unit) -> None:
        for f in unit.fields:
            if not f.is_reference or f.kind in _NOT_REFERENCE_FIELDS or not f.target_unit:
                continue
            shown = unit.text[f.start : f.end] or f.result
            entry = self.renum.entry_of_unit(f.target_unit)
            if f.target_unit not in self.alive or (entry is not None and entry.key in self.renum.deleted):
                if entry is not None:
                    self._deleted(unit, entry.key, shown, f.start, f.end, f"the {f.kind} field '{shown}' points at")
                else:
                    self.plan.findings.append(Finding(
                        "reference_to_deleted", "error", unit.id,
                        f"the {f.kind} field '{shown}' points at a unit the edit deletes; the field is kept",
                        shown, [f.target_unit], f.start, f.end,
                    ))
                continue
            entry = shown_entry(f, self.plan.doc, self.renum)  # a chapter, a page... (Field.shows)
            if entry is None or entry.number is None or entry.key not in self.renum.changes:
                continue
            new = self.renum.changes[(entry.family, entry.number)]
            span = number_span(unit.text, f.start, f.end, entry.number)
            if span is not None:
                self.plan.replace(unit, *span, new, "REFERENCES (reference field): "
                                  f"{entry.label} is now {label_of(entry.family, new, entry.word)}", self.source(entry.family))

    # the numbers the entries show themselves
    def own_numbers(self) -> None:
        for e in self.renum.before:
            new = self.renum.changes.get((e.family, e.number)) if e.number is not None else None
            if new is None:
                continue
            for uid in e.units:
                unit = self.plan.doc.unit(uid)
                shown = shown_number(unit)
                if shown is None or shown[0] != e.number:
                    continue  # numbered automatically: the application renumbers it
                how = "the cached result of its numbering field" if shown[3] == "field" else "its typed number"
                self.plan.replace(unit, shown[1], shown[2], new,
                                  f"numbering: {e.label} is now {label_of(e.family, new, e.word)} ({how})", self.source(e.family))

    def inserted(self) -> None:
        for e in self.renum.after:
            if not e.inserted or e.family == "section":
                continue
            unit = self.after.unit(e.carrier)
            typed = unit_key(unit)
            if typed is not None and typed[1] != e.number:
                self.plan.findings.append(Finding(
                    "numbering_mismatch", "warning", unit.id,
                    f"the inserted {unit.kind} reads {label_of(*typed, e.word)} but will be {e.label} in document order",
                    unit.text[:60], [], None, None, e.label,
                ))


def _sources(doc: Document, edits: list[Edit], ids: list[str], renum: Renumbering) -> tuple[dict[str, str], set[str]]:
    """Family -> the first structural edit that changes numbers of that family ("*": any), and
    the families whose members the edits delete, insert or move."""
    out: dict[str, str] = {}
    touched: set[str] = set()
    for e, eid in zip(edits, ids):
        fams: set[str] = set()
        if e.op == "insert_after":
            if e.kind == "section":
                fams.add("section")
            key = unit_key(Unit("probe", e.kind or "paragraph", e.text, 0))
            if key:
                fams.add(key[0])
        elif e.op == "delete" or e.op == "move":
            below = descendant_ids(doc.units, e.unit) if e.op == "move" else {e.unit}
            fams |= {x.family for x in renum.before if set(x.units) & below}
        else:
            continue
        out.setdefault("*", eid)
        touched |= fams
        for f in fams:
            out.setdefault(f, eid)
    return out, touched


# --- renames and values ----------------------------------------------------------------------


def _in_field(unit: Unit, start: int, end: int) -> bool:
    return any(f.kind != "hyperlink" and f.end > f.start and start < f.end and f.start < end for f in unit.fields)


def _complete_rename(plan: _Plan, doc: Document, G: nx.MultiDiGraph | None, r: Rename, alive: set[str],
                     usage: Usage | None = None, names: str = "auto") -> None:
    forms = {norm_term(r.old)}
    definers = definers_of(term_definers(doc), r.old)
    whole = r.explicit and r.scope is None
    todo: dict[str, str] = {uid: f"rename: another form of '{r.old}' in a renamed unit" for uid in r.units}
    if whole:
        for u in doc.units:
            todo.setdefault(u.id, f"rename: '{r.old}' everywhere")
    if whole or any(d in r.units for d in definers):
        for dep in definition_users(doc, G, definers, forms):
            todo.setdefault(dep, f"DEPENDS: uses '{r.old}', whose definition is renamed to '{r.new}'")
        for u in doc.units:  # cells and captions name the term without the prose around it
            if u.kind in ("table", "caption"):
                todo.setdefault(u.id, f"rename: the renamed defined term '{r.old}' in a {u.kind}")
    renamed = set(r.units)
    shown: dict[str, list[tuple[int, int]]] = {}  # reference fields showing the text of a renamed unit
    for u in doc.units:
        for f in u.fields:
            if f.is_reference and f.kind != "hyperlink" and f.target_unit in renamed and f.end > f.start:
                shown.setdefault(u.id, []).append((f.start, f.end))
                target = doc.get(f.target_unit)
                named = (target.label or f"'{target.title or target.text[:40]}'") if target is not None else "unit"
                todo.setdefault(u.id, f"REFERENCES (field): the cached result shows the renamed {named}")
    src = r.edits[0]
    for place in term_places(doc, r.old, r.new, units=[uid for uid in todo if uid in alive], usage=usage,
                             names=names):
        u, o = place.unit, place.occ
        in_shown = any(a <= o.start and o.end <= b for a, b in shown.get(u.id, ()))
        if "\n" in o.text or (place.kept is not None and not in_shown):
            continue  # what a rename keeps (code, a quotation, a name) verification reports
        if _in_field(u, o.start, o.end) and not in_shown:
            continue  # a field that shows something else regenerates on its own
        plan.replace(u, o.start, o.end, o.replacement, todo[u.id], src, quiet=True)


def _value_findings(plan: _Plan, doc: Document, edits: list[Edit], ids: list[str], alive: set[str]) -> None:
    seen: set[tuple] = set()
    for vc in value_changes(edits, ids):
        if not (vc.old.tail or vc.old.prefix):
            continue  # a bare number: too many false friends to list
        key = (vc.old, vc.new)
        if key in seen:
            continue
        seen.add(key)
        for u in doc.units:
            if u.id not in alive or u.id in plan.blocked:
                continue
            for m in find_value(u.text, vc.old, vc.new):
                if plan.taken(u.id, m.start, m.end):
                    continue  # already changed by the edit or by propagation
                shown = f"{vc.old.prefix}{vc.old.number} {vc.old.tail}".strip()
                plan.findings.append(Finding(
                    "same_value", "warning", u.id,
                    f"states the same quantity as the value changed in {vc.unit} ({shown}); "
                    f"not changed - restate it as '{m.replacement}' if it means the same thing",
                    m.text, [vc.unit], m.start, m.end, m.replacement,
                ))


# --- entry point -----------------------------------------------------------------------------


def propagate(doc: Document, G: nx.MultiDiGraph | None, edits: Iterable[Edit], *, names: str = "auto") -> Propagation:
    """The edits and findings that ``edits`` make necessary elsewhere in ``doc``.

    ``edits`` may be raw (``rename`` operations are expanded by ``validate_edits``) or concrete;
    an edit without ``id`` is called ``op-<position>`` in the ``source`` of what it causes.
    ``G`` is the graph of ``doc`` (DEPENDS edges find the users of a renamed definition; without
    them the definitions are read from the text). ``names`` is the rename's choice for a term
    inside a name of its own (``renaming.NAME_POLICIES``): propagation renames no more than it.

    :raise InvalidRequestError, UnknownUnitError, EditConflictError: as ``validate_edits``.
    """
    raw = list(edits)
    concrete = validate_edits(doc, edits if isinstance(edits, Checked) else raw, names=names)
    ids = edit_ids(concrete)
    plan = _Plan(doc, concrete)
    after = apply_to_document(doc, concrete)
    alive = {u.id for u in after.units}
    renum = renumber(doc, after)

    source_of, touched = _sources(doc, concrete, ids, renum)
    if source_of or renum.changes or renum.deleted:
        r = _Renumberer(plan, renum, after, source_of or {"*": ids[0] if ids else ""})
        r.own_numbers()
        for u in doc.units:
            if u.id not in alive or u.id in plan.blocked:
                continue
            r.fields(u)
            r.mentions(u)
        r.inserted()
        for name, why in renum.unsupported.items():
            fams = set(STATEMENT_FAMILIES) if name == "statement" else {name}
            if fams & touched:
                plan.findings.append(Finding(
                    "numbering_not_recomputed", "info", None, f"the {name} numbers are not recomputed: {why}",
                ))
    registry_keys = list(term_definers(doc))  # (the index a kept graph brings: no registry built)
    for rn in renames(doc, concrete, ids, raw=raw, defined=registry_keys):
        _complete_rename(plan, doc, G, rn, alive, names=names)
    _value_findings(plan, doc, concrete, ids, alive)
    propagate_listings(plan, doc, after, concrete, ids)
    propagate_margins(plan, doc, after, concrete, ids)
    # every propagated edit checked alone and with the rest: a propagation bug must not reach a writer
    checked = validate_more(doc, concrete, plan.edits) if plan.edits else concrete
    more = checked[len(concrete):]
    return Propagation(more, plan.findings, renum, checked, apply_more(doc, after, concrete, more))
