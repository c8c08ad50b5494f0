"""The rules engine: the offline default that turns common instructions into edit operations.

No key, no model, no network: a small grammar (the table :data:`GRAMMAR`) of renames, replaces,
value changes, retitles, deletions, moves and insertions over units named by their labels. What
it cannot parse gets :class:`~addin_backend.errors.InstructionNotUnderstoodError`, whose message
lists what it understands, generated from the same table.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from functools import cached_property
from typing import Any, Callable, Protocol, Sequence, TypeVar

from adapters.label_grammar import canonical_label, heading_number
from adapters.model import Delete, Document, Edit, InsertAfter, Move, Replace, SetText, Unit
from adapters.errors import AdapterError
from adapters.quotes import QuoteStyle, quote_style, restyle
from addin_backend.errors import (
    AmbiguousInstructionError,
    InstructionNotUnderstoodError,
    InvalidRequestError,
    LedgerError,
    UnknownUnitError,
)

from ..graph.label_index import unit_keys
from .operations import expand_rename, now_iso, scope_ids, validate_edits
from .renaming import NAME_POLICIES, AcronymRename, TermPlace, acronym_renames, kept_note
from .proposal import Proposal
from .quoting import PLACEHOLDER, QUOTED, Masked, is_quoted, mask, protect, quoted, unquote
from .resolve import LABEL_RX, REF_RX, last_of, resolve_ref
from .terms import check_term
from .tree import body_units, enclosing_section, is_note, section_level, subtree
from .values import find_value, named_value, parse_value
from adapters.vocabulary import TEXT_KINDS

__all__ = ["GRAMMAR", "QUOTED", "Rule", "propose", "quoted", "says_everywhere", "searched_terms", "title_span", "understood"]

E = TypeVar("E", Replace, SetText, InsertAfter, Delete, Move)


class Groups(Protocol):
    """What a rule's handler reads of its match: named groups (a ``re.Match`` or an :class:`_Alias`)."""

    def __getitem__(self, key: str) -> Any: ...

    def groupdict(self) -> dict[str, Any]: ...

#: A term in the grammar: one quoted span (its placeholder: :mod:`.quoting`), else free text, in
#: which a quotation is still one opaque piece ('"SSN" (Stream Sequence Number)'). The grammar
#: reads the instruction with its quotations masked, so no seam is ever found inside one.
_QP = PLACEHOLDER.pattern
_Q = rf"(?:{_QP}|.+?)"
_EVERYWHERE = (
    r"everywhere|globally|document-wide|throughout(?:\s+the\s+(?:whole\s+|entire\s+)?(?:document|text|paper|report|contract|agreement))?"
    r"|in\s+(?:the\s+)?(?:whole|entire)\s+(?:document|text)|in\s+all\s+(?:sections|places)"
    r"|across\s+the\s+(?:whole\s+)?document|in\s+the\s+(?:document|text)"
)


_EVERYWHERE_RX = re.compile(rf"(?<!\w)(?:{_EVERYWHERE}|(?:all|every)\s+(?:occurrences?|instances?|mentions?|uses?)(?:\s+of)?)(?!\w)",
                            re.IGNORECASE)


def says_everywhere(instruction: str) -> bool:
    """Whether an instruction asks for a change everywhere ("throughout the document", "in all
    sections", "every occurrence"), the scope words the rules' grammar reads.

    >>> says_everywhere("Rename the Controller to the Coordinator everywhere")
    True
    >>> says_everywhere("Replace every occurrence of 'shall' with 'must'")
    True
    >>> says_everywhere("Rename the Controller in Section 2 to the Coordinator")
    False
    """
    return bool(_EVERYWHERE_RX.search(instruction))


def _scope_rx(preps: str = "in|within|inside|throughout|under") -> str:
    return rf"(?:\s*,?\s+(?:(?P<everywhere>{_EVERYWHERE})|(?:only\s+)?(?:{preps})\s+(?P<scope>{REF_RX})))?"


_SCOPE = _scope_rx()
#: How a rename treats the term inside names of its own ("Destination Connection ID"): the
#: instruction may say "including names" (rename them too) or "not in names" (keep them all).
_NAMES = (r"(?:\s*,?\s*(?:(?P<names_in>(?:and\s+)?(?:including|also\s+in|even\s+in|in)\s+(?:longer\s+|field\s+)?names)"
          r"|(?P<names_out>(?:but\s+)?(?:not\s+in|except\s+in|excluding|keeping)\s+(?:longer\s+|field\s+)?names)))?")
_FROM_SCOPE = _scope_rx("from|in|within|inside|throughout|under")
_END = r"\s*[.!]?\s*$"
_KIND = r"paragraph|para|sentence|list\s+item|item|bullet(?:\s+point)?|sub-?section|sub-?heading|section|heading|caption"
#: The seam between a unit and a new text or title: "to", "as", "into".
_TO = r"\s+(?:to|as|into)\b"
_SEP = r"\s*(?::|,|\u2014|\s-\s|\s+(?:saying|reading|that\s+says|which\s+says|with\s+the\s+text)\s*:?)\s*"


@dataclass(frozen=True)
class Rule:
    """One line of the grammar: a pattern, what it does, an example, the handler, and its seams:
    the words that separate its parts ("to" between the old and the new term), where an
    instruction with free (unquoted) text could be split elsewhere too (:func:`_readings`).

    ``source`` is the pattern's text (:func:`_rx`); :attr:`pattern` compiles it at its first use:
    the rules are tried in order until one matches, so an instruction compiles only those before
    its own (a rename, the sixth: 0.06 s of the 0.16 s the 14 patterns took at import)."""

    action: str
    source: str
    example: str
    handler: Callable[["_Ctx", Groups], Proposal]
    seams: tuple[str, ...] = ()

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.source, re.IGNORECASE | re.DOTALL)


@dataclass
class _Ctx:
    doc: Document
    instruction: str
    author: str
    date: str
    target: str | None
    selection: str | None
    #: the names choice the request gave (``renaming.NAME_POLICIES``); the instruction's own words win
    names: str = "auto"
    #: the document's quotation marks, counted when a text to write first has one
    quotes: QuoteStyle | None = None

    def edit(self, e: E) -> E:
        """The operation stamped as the rules engine's: the author, the date, the instruction."""
        return dc_replace(e, author=self.author, date=self.date, reason=self.instruction, source="rules")

    def styled(self, text: str) -> str:
        """A text to write, in the document's quotation marks (its majority: curly or straight,
        in its own pairs, :func:`adapters.quotes.restyle`)."""
        if not any(c in text for c in "\"'\u2018\u2019\u201a\u201c\u201d\u201e\u00ab\u00bb"):
            return text
        if self.quotes is None:
            self.quotes = quote_style(u.text for u in self.doc.units)
        return restyle(text, self.quotes)

    def done(self, edits: Sequence[Edit], targets: list[Unit] | list[str], explanation: str, warnings=()) -> Proposal:
        ids = [t if isinstance(t, str) else t.id for t in targets]
        edits = [dc_replace(e, text=self.styled(e.text))
                 if e.op in ("replace", "set_text", "insert_after") and e.text else e for e in edits]
        return Proposal(
            edits=validate_edits(self.doc, edits), targets=list(dict.fromkeys(ids)), explanation=explanation,
            engine="rules", instruction=self.instruction, warnings=list(warnings), names=self.names,
        )


def _unquote(s: str) -> str:
    """A value of the instruction without its quotes (every pair :mod:`.quoting` knows)."""
    return unquote(s)


def _name(doc: Document, unit: Unit) -> str:
    if unit.label:
        return unit.label
    sec = enclosing_section(doc, unit)
    where = f" in {sec.label}" if sec is not None and sec.label and sec is not unit else ""
    start = unit.text[:40].rstrip() + ("\u2026" if len(unit.text) > 40 else "")
    return f"the {unit.kind.replace('_', ' ')}{where} '{start}'" if start else f"a {unit.kind}{where}"


def _group_name(doc: Document, group: list[Unit]) -> str:
    typed = [canonical_label(fam, num) for (fam, num), rank in unit_keys(group[0]) if rank >= 2 and fam == "section"]
    if typed and group[0].kind != "section":  # a clause typed or numbered by a list: "Section 7 'Additional Terms.'"
        start = group[0].text[:40].rstrip() + ("\u2026" if len(group[0].text) > 40 else "")
        rest = f" and the {len(group) - 1} unit(s) of its clause" if len(group) > 1 else ""
        return f"{typed[0]} '{start}'{rest}"
    labels = list(dict.fromkeys(u.label for u in group if u.label))
    return ", ".join(labels) if labels else ", ".join(_name(doc, u) for u in group)


def _places(doc: Document, ids: list[str]) -> str:
    names = list(dict.fromkeys(_name(doc, doc.unit(i)) for i in ids))
    return ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")


def _scope(c: _Ctx, m: Groups) -> tuple[list[str] | None, str]:
    ref = m.groupdict().get("scope") or m.groupdict().get("lead")
    if not ref:
        return None, "throughout the document"
    units = resolve_ref(c.doc, ref, target=c.target)
    return [u.id for u in units], f"in {_group_name(c.doc, units)}"


# --- handlers -------------------------------------------------------------------------------


def _change(c: _Ctx, old: str, new: str, scope: list[str] | None, where: str, subject: str = "", verb: str = "",
            names: str = "auto") -> Proposal:
    ov, nv = parse_value(old), parse_value(new)
    if ov is not None and nv is not None and not verb == "rename":
        return _change_value(c, old, new, ov, nv, scope, where, subject)
    kept: list[TermPlace] = []
    inside: list[TermPlace] = []
    edits = expand_rename(c.doc, old, new, scope, author=c.author, date=c.date, reason=c.instruction, source="rules",
                          names=names, kept=kept, renamed=inside)
    verb = verb or "replace"
    if not edits and not kept:
        return c.done([], scope or [], f"'{old}' does not occur {where}; nothing to {verb}.")
    units = [e.unit for e in edits]
    link = "to" if verb == "rename" else "with"
    return c.done(
        edits, units,
        f"{verb.capitalize()} '{old}' {link} '{new}' {where}: {len(edits)} occurrence(s) in "
        f"{len(set(units))} unit(s) ({_places(c.doc, units) if units else 'none'}).{_kept_note(kept, old, new, inside)}",
    )


def _kept_note(kept: list[TermPlace], old: str = "", new: str = "", renamed: Sequence[TermPlace] = ()) -> str:
    """What the preview says about the occurrences a rename keeps, and the identifiers it renames
    as asked (``renaming.kept_note``: one wording for every engine)."""
    return kept_note(kept, old, new, renamed)


_STOP = {
    "the", "a", "an", "of", "for", "in", "on", "to", "and", "all", "every", "value", "number", "amount",
    "period", "term", "time", "duration", "limit", "date", "deadline", "window", "length", "count",
}


def _change_value(c: _Ctx, old: str, new: str, ov, nv, scope, where: str, subject: str) -> Proposal:
    ids = scope_ids(c.doc, scope)
    found: dict[str, list] = {}
    for u in c.doc.units:
        if (ids is None or u.id in ids) and u.meta.get("absent_in") != "accepted":
            hits = find_value(u.text, ov, nv)
            if hits:
                found[u.id] = hits
    warnings = []
    words = [w[:4].lower() for w in re.findall(r"[A-Za-z]+", subject) if w.lower() not in _STOP and len(w) > 2]
    if words and found:
        score = {uid: sum(bool(re.search(rf"\b{w}", c.doc.unit(uid).text, re.I)) for w in words) for uid in found}
        best = max(score.values())
        about = {uid for uid, n in score.items() if n == best and n > 0}
        if about:
            others = [uid for uid in found if uid not in about]
            if others:
                warnings.append(f"'{old}' also appears in {_places(c.doc, others)}, which is not about the {subject}; left unchanged")
            found = {k: v for k, v in found.items() if k in about}
    edits = [
        c.edit(Replace(unit=uid, start=h.start, end=h.end, text=h.replacement, old=h.text, before=c.doc.unit(uid).text))
        for uid, hits in found.items() for h in hits
    ]
    what = f"the {subject} from {old}" if subject else old
    if not edits:
        return c.done([], scope or [], f"No unit states {old} {where}; nothing changed.", warnings)
    return c.done(
        edits, list(found), f"Change {what} to {new} {where}: {len(edits)} statement(s) in "
        f"{_places(c.doc, list(found))}.", warnings,
    )


def _h_rename(c: _Ctx, m: Groups) -> Proposal:
    scope, where = _scope(c, m)
    g = m.groupdict()
    names = "rename" if g.get("names_in") else "keep" if g.get("names_out") else c.names
    c.names = names  # the proposal says which choice its renames made, for propagation and verification
    old, new = _unquote(m["old"]), _unquote(m["new"])
    check_term(old.strip(), "the term to rename")  # before the acronym's search
    check_term(new.strip(), "the new term")
    acr = acronym_renames(c.doc, old, new)
    if acr is not None:
        return _rename_acronym(c, acr, scope, where, names)
    return _change(c, old, new, scope, where, verb="rename", names=names)


def _rename_acronym(c: _Ctx, acr: AcronymRename, scope: list[str] | None, where: str, names: str) -> Proposal:
    """An acronym renamed with its expansion: one rename per pair, told together."""
    edits: list[Replace] = []
    kept: list[TermPlace] = []
    said = []
    for old, new in acr.pairs:
        got = expand_rename(c.doc, old, new, scope, author=c.author, date=c.date, reason=c.instruction,
                            source="rules", names=names, kept=kept)
        edits.extend(got)
        said.append(f"'{old}' to '{new}' ({len(got)} occurrence(s))")
    if not edits and not kept:
        return c.done([], scope or [], f"{' and '.join(repr(o) for o, _ in acr.pairs)} do(es) not occur {where}; "
                      "nothing to rename.", acr.warnings)
    units = [e.unit for e in edits]
    return c.done(
        edits, units,
        f"Rename {' and '.join(said)} {where}: {len(edits)} occurrence(s) in {len(set(units))} unit(s) "
        f"({_places(c.doc, units) if units else 'none'}).{_kept_note(kept)}", acr.warnings,
    )


def _h_replace(c: _Ctx, m: Groups) -> Proposal:
    scope, where = _scope(c, m)
    old, new, subject = _unquote(m["old"]), _unquote(m["new"]), m.groupdict().get("subject") or ""
    named = None if subject or is_quoted(m["old"]) else named_value(old)
    if named is not None:
        # "Change the date 2025-10-07 to 2025-10-23": the noun says what the value is, the value
        # is what the document states (and the new one may be named the same way)
        subject, old = named
        again = None if is_quoted(m["new"]) else named_value(new)
        if again is not None and again[0].lower() == subject.lower():
            new = again[1]
    return _change(c, old, new, scope, where, subject=subject)


def _h_selection(c: _Ctx, m: Groups) -> Proposal:
    if not c.selection or not c.target:
        raise InvalidRequestError("this instruction acts on the selection; select some text first")
    unit = c.doc.get(c.target)
    if unit is None:
        raise UnknownUnitError(f"no unit has the id {c.target!r} (target)", unit=c.target)
    at = unit.text.find(c.selection)
    if at < 0:
        raise InvalidRequestError(f"the selection {c.selection!r} is not in unit {unit.id}")
    new = _unquote(m["new"]) if m.groupdict().get("new") is not None else ""
    start, end = (at, at + len(c.selection)) if new else _swallow_space(unit.text, at, at + len(c.selection))
    edit = c.edit(Replace(unit=unit.id, start=start, end=end, text=new, old=unit.text[start:end], before=unit.text))
    verb = f"Replace the selection with '{new}'" if new else "Delete the selection"
    return c.done([edit], [unit], f"{verb} in {_name(c.doc, unit)}.")


def _swallow_space(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a deleted span by one adjacent space so no double space is left behind."""
    if end < len(text) and text[end] == " " and (start == 0 or text[start - 1] in " ([\u201c\"'"):
        return start, end + 1
    if start > 0 and text[start - 1] == " ":
        return start - 1, end
    return start, end


def _h_delete_text(c: _Ctx, m: Groups) -> Proposal:
    scope, where = _scope(c, m)
    phrase = _unquote(m["q"])
    ids = scope_ids(c.doc, scope)
    rx = re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)" if phrase[:1].isalnum() else re.escape(phrase))
    edits = []
    for u in c.doc.units:
        if ids is not None and u.id not in ids:
            continue
        for hit in rx.finditer(u.text):
            start, end = _swallow_space(u.text, hit.start(), hit.end())
            edits.append(c.edit(Replace(unit=u.id, start=start, end=end, text="", old=u.text[start:end], before=u.text)))
    if not edits:
        return c.done([], scope or [], f"'{phrase}' does not occur {where}; nothing to delete.")
    units = [e.unit for e in edits]
    return c.done(edits, units, f"Delete '{phrase}' {where}: {len(edits)} occurrence(s) in {_places(c.doc, units)}.")


def _h_delete(c: _Ctx, m: Groups) -> Proposal:
    group = resolve_ref(c.doc, m["ref"], target=c.target)
    gone: list[Unit] = []
    for g in group:
        # a note cited in the block goes with the reference the block's deletion takes along; a
        # header or footer is no part of it (the writers delete neither on its own)
        gone.extend(u for u in subtree(c.doc, g.id) if u not in gone and (u in group or not is_note(u)))
    edits = [c.edit(Delete(unit=u.id, before=u.text)) for u in gone]
    more = [u for u in gone if u not in group]
    if more and all(u.kind == "caption" for u in more):
        extra = " with its caption"
    else:
        extra = f" with the {len(more)} unit(s) it contains" if more else ""
    return c.done(edits, group, f"Delete {_group_name(c.doc, group)}{extra}.")


#: What follows a heading's typed number before its title.
_AFTER_NUMBER = re.compile(r"\.?\s+(?=\S)")


def title_span(unit: Unit) -> tuple[int, int]:
    """Where a heading's title (after its number) or a caption's text (after its label) lies in
    the unit's text: what a retitle replaces.

    >>> title_span(Unit("s", "section", "4.2 Cache Validation", 0, number="4.2", title="Cache Validation"))
    (4, 20)
    >>> title_span(Unit("c", "caption", "Figure 3: The flow", 0))
    (10, 18)
    """
    text = unit.text
    if unit.kind == "section":
        at = text.find(unit.title) if unit.title else -1
        if at >= 0 and unit.title:
            return at, at + len(unit.title)
        typed = heading_number(text) if unit.number else None
        lead = _AFTER_NUMBER.match(text, typed[2]) if typed else None
        return (lead.end() if lead else 0), len(text)
    lead = re.match(rf"\s*{LABEL_RX}\s*[:.\-\u2013\u2014]?\s*", text, re.IGNORECASE)
    return (lead.end() if lead else 0), len(text)


def _h_title(c: _Ctx, m: Groups) -> Proposal:
    group = resolve_ref(c.doc, m["ref"], target=c.target)
    new = _unquote(m["new"])
    what = (m.groupdict().get("what") or "title").lower()
    pool = [u for g in group for u in subtree(c.doc, g.id)]
    unit = next((u for u in pool if u.kind == "section"), None)
    if unit is None or what == "caption":
        unit = next((u for u in pool if u.kind == "caption"), None)
    if unit is None:
        raise InvalidRequestError(f"{m['ref']} has no heading or caption to retitle")
    text = unit.text
    start, end = title_span(unit)
    edit = c.edit(Replace(unit=unit.id, start=start, end=end, text=new, old=text[start:end], before=text))
    kind = "heading" if unit.kind == "section" else "caption"
    return c.done([edit], [unit], f"Set the {kind} of {_name(c.doc, unit)} to '{new}'.")


def _h_set_text(c: _Ctx, m: Groups) -> Proposal:
    group = resolve_ref(c.doc, m["ref"], target=c.target)
    if len(group) != 1:
        raise InvalidRequestError(f"{m['ref']} is {len(group)} units; set the text of one paragraph at a time")
    unit, new = group[0], _unquote(m["new"])
    return c.done([c.edit(SetText(unit=unit.id, text=new, before=unit.text))], [unit], f"Rewrite {_name(c.doc, unit)}.")


def _h_move(c: _Ctx, m: Groups) -> Proposal:
    group = resolve_ref(c.doc, m["ref"], target=c.target)
    where = re.sub(r"\s+", " ", m["where"].lower())
    dest_ref = m["dest"]
    flow = body_units(c.doc)
    if re.fullmatch(r"the (?:whole |entire )?document", dest_ref.strip().lower()):
        dest = [flow[0]] if where in ("to the start of", "to the beginning of", "to the top of") else [flow[-1]]
    else:
        dest = resolve_ref(c.doc, dest_ref, target=c.target)
    moving = {u.id for g in group for u in subtree(c.doc, g.id)}
    if moving & {u.id for u in dest}:
        raise InvalidRequestError(f"cannot move {m['ref']} relative to itself or its own content")
    edits: list[Edit] = []
    before = where in ("before", "above", "ahead of", "in front of", "to before", "to just before")
    if where in ("to the start of", "to the beginning of", "to the top of"):
        first = dest[0]
        kids = [u for u in subtree(c.doc, first.id) if u.id != first.id and u.id not in moving]
        if first.kind == "section" and kids:
            before, dest = True, [kids[0]]
        else:
            before = first is flow[0]
    if before:
        edits.append(c.edit(Move(unit=group[0].id, before_unit=dest[0].id, before=group[0].text)))
    else:
        edits.append(c.edit(Move(unit=group[0].id, after=last_of(c.doc, dest, moving).id, before=group[0].text)))
    for prev, unit in zip(group, group[1:]):
        edits.append(c.edit(Move(unit=unit.id, after=prev.id, before=unit.text)))
    dest_name = "the document" if dest_ref.strip().lower().endswith("document") else dest_ref.strip()
    return c.done(edits, group + dest, f"Move {_group_name(c.doc, group)} {where} {dest_name}.")


_KINDS = {
    "paragraph": "paragraph", "para": "paragraph", "sentence": "sentence", "item": "list_item",
    "list item": "list_item", "bullet": "list_item", "bullet point": "list_item", "section": "section",
    "heading": "section", "subsection": "subsection", "sub-section": "subsection", "subheading": "subsection",
    "sub-heading": "subsection", "caption": "caption",
}


def _h_insert(c: _Ctx, m: Groups) -> Proposal:
    group = resolve_ref(c.doc, m["ref"], target=c.target)
    where = re.sub(r"\s+", " ", m["where"].lower()).replace("to the ", "at the ")
    where = {"above": "before", "below": "after", "to": "at the end of", "at the bottom of": "at the end of",
             "at the top of": "at the start of", "at the beginning of": "at the start of"}.get(where, where)
    kind_word = re.sub(r"\s+", " ", (m.groupdict().get("kind") or "").lower())
    kind = _KINDS.get(kind_word)
    text = _unquote(m["text"].strip())
    first = group[0]
    leafy = first.kind not in ("section", "figure", "table") and len(group) == 1
    if kind == "sentence" or (kind is None and leafy and where in ("at the end of", "at the start of")):
        return _insert_sentence(c, first, text, where)
    flow = body_units(c.doc)
    if where == "before":
        pos = next(i for i, u in enumerate(flow) if u.id == first.id)
        if pos == 0:
            raise InvalidRequestError("cannot insert before the first unit of the document")
        anchor = flow[pos - 1]
    elif where == "at the start of" and first.kind == "section":
        anchor = first
    else:
        anchor = last_of(c.doc, group)
    style = None
    if kind is None:
        kind = first.kind if first.kind in TEXT_KINDS else "paragraph"
    if kind in TEXT_KINDS and first.kind == kind:
        style = first.style
    if kind in ("section", "subsection"):
        sec = first if first.kind == "section" else enclosing_section(c.doc, first)
        level = (section_level(sec) if sec else 1) + (1 if kind == "subsection" else 0)
        kind, style = "section", _heading_style(c.doc, level, sec)
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    edits = [c.edit(InsertAfter(unit=anchor.id, text=ln, kind=kind, style=style, before=anchor.text)) for ln in lines]
    what = f"{len(lines)} {kind.replace('_', ' ')}s" if len(lines) > 1 else f"a {kind.replace('_', ' ')}"
    return c.done(edits, group, f"Insert {what} {where} {_group_name(c.doc, group)}.")


def _heading_style(doc: Document, level: int, near: Unit | None) -> str | None:
    for u in doc.units:
        if u.kind == "section" and u.style and section_level(u) == level:
            return u.style
    if near is not None and near.style and re.search(r"\d", near.style):
        return re.sub(r"\d+", str(level), near.style, count=1)
    return None


def _insert_sentence(c: _Ctx, unit: Unit, text: str, where: str) -> Proposal:
    if unit.kind in ("section", "figure", "table"):
        raise InvalidRequestError(f"a sentence goes into a paragraph, and {_name(c.doc, unit)} is a {unit.kind}")
    body = unit.text
    if where in ("before", "at the start of"):
        edit = c.edit(Replace(unit=unit.id, start=0, end=0, text=text + " ", old="", before=body))
    else:
        sep = "" if not body or body.endswith((" ", "\n")) else " "
        edit = c.edit(Replace(unit=unit.id, start=len(body), end=len(body), text=sep + text, old="", before=body))
    side = "start" if where in ("before", "at the start of") else "end"
    return c.done([edit], [unit], f"Add a sentence at the {side} of {_name(c.doc, unit)}.")


def _rx(pattern: str) -> str:
    """A grammar pattern's text, read case-blind with ``.`` across lines (:attr:`Rule.pattern`)."""
    return pattern


_CHANGE = r"change|update|modify|alter|amend|adjust|switch|increase|decrease|raise|lower|extend|reduce|shorten"
# The verbs are English; a delete is also understood in the languages the label words cover
# ("Lösche Abschnitt 3", "Supprimer l'annexe B" is not: only "Supprime Annexe B").
_DELETE = (r"delete|remove|drop|strike(?:\s+out)?|cut|erase|l(?:\u00f6|oe)sche(?:n)?|entferne(?:n)?|streiche(?:n)?"
           r"|supprime(?:r|z)?|efface(?:r|z)?|elimina(?:r)?|borra(?:r)?|suprime|suprimir")

#: The grammar, in the order rules are tried; the help text for unparsed instructions comes from it.
GRAMMAR: list[Rule] = [
    Rule("retitle a section or caption", _rx(
        rf"^(?:set|change|update|make|rename|alter)\s+the\s+(?P<what>title|heading|name|caption)\s+(?:of|for)\s+(?P<ref>{REF_RX})\s+(?:to|as|into)\s*:?\s*(?P<new>.+?){_END}"),
        "Set the title of Section 2 to 'Methods'", _h_title, seams=(_TO,)),
    Rule("retitle a section", _rx(
        rf"^(?:retitle|rename)\s+(?P<ref>{LABEL_RX}|this\s+section|the\s+current\s+section)\s+(?:to|as)\s*:?\s*(?P<new>.+?){_END}"),
        "Rename Section 3 to 'Results'", _h_title, seams=(_TO,)),
    Rule("rewrite a unit", _rx(
        rf"^(?:(?:replace|set|change)\s+the\s+(?:whole\s+)?(?:text|content|contents|wording)\s+of\s+(?P<ref>{REF_RX})\s+(?:with|to)|rewrite\s+(?P<ref2>{REF_RX})\s+(?:as|to\s+read))\s*:?\s*(?P<new>.+?)\s*$"),
        "Replace the text of the paragraph starting with 'Fees' with: Fees are waived.",
        lambda c, m: _h_set_text(c, _Alias(m, ref=m["ref"] or m["ref2"])), seams=(r"\s+(?:with|to|as)\b",)),
    Rule("replace or delete the selection", _rx(
        rf"^(?:(?:replace|change)\s+(?:the\s+selection|the\s+selected\s+text|the\s+highlighted\s+text|this|it)\s+(?:with|to|into|by)\s+(?P<new>.+?)|(?:{_DELETE})\s+(?:the\s+selection|the\s+selected\s+text|the\s+highlighted\s+text)){_END}"),
        "Replace the selection with 'net 45'", _h_selection),
    Rule("change a value", _rx(
        rf"^(?:{_CHANGE})\s+(?:the\s+)?(?P<subject>.+?)\s+from\s+(?P<old>{_Q})\s+to\s+(?P<new>{_Q}){_SCOPE}{_END}"),
        "Change the retention period from 30 days to 45 days", _h_replace, seams=(r"\s+from\b", r"\s+to\b")),
    Rule("rename a term", _rx(
        rf"^rename\s+(?:the\s+)?(?:(?:term|word|name|phrase|concept|product)\s+)?(?P<old>{_Q})\s+(?:to|as|into|->|\u2192)\s+(?P<new>{_Q}){_SCOPE}{_NAMES}{_END}"),
        "Rename 'widget' to 'gadget' everywhere", _h_rename, seams=(_TO, r"\s*(?:->|\u2192)")),
    Rule("replace a term", _rx(
        rf"^replace\s+(?:all\s+|every\s+|each\s+)?(?:(?:occurrences?|instances?|mentions?|uses?)\s+of\s+)?(?P<old>{_Q})\s+(?:with|by)\s+(?P<new>{_Q}){_SCOPE}{_END}"),
        "Replace 'Supplier' with 'Vendor' in Section 3", _h_replace, seams=(r"\s+(?:with|by)\b",)),
    Rule("replace a term", _rx(
        rf"^(?:substitute\s+(?P<new>{_Q})\s+for|use\s+(?P<new2>{_Q})\s+instead\s+of)\s+(?P<old>{_Q}){_SCOPE}{_END}"),
        "Use 'Vendor' instead of 'Supplier'", lambda c, m: _h_replace(c, _Alias(m, new=m["new"] or m["new2"])),
        seams=(r"\s+for\b", r"\s+instead\s+of\b")),
    Rule("change a value or term", _rx(
        rf"^(?:{_CHANGE}|turn)\s+(?:all\s+|every\s+|each\s+)?(?P<old>{_Q})\s+(?:to|into)\s+(?P<new>{_Q}){_SCOPE}{_END}"),
        "Change 30 days to 45 days", _h_replace, seams=(r"\s+(?:to|into)\b",)),
    Rule("delete a phrase", _rx(
        rf"^(?:{_DELETE})\s+(?:the\s+)?(?:(?:word|words|phrase|text|sentence|term)\s+)?(?P<q>{_QP}){_FROM_SCOPE}{_END}"),
        "Remove 'strictly' from Section 2", _h_delete_text),
    Rule("delete a unit", _rx(
        rf"^(?:{_DELETE})\s+(?:the\s+(?:whole|entire)\s+)?(?P<ref>{REF_RX})(?:\s+(?:entirely|completely|and\s+its\s+(?:content|contents|subsections)))?{_END}"),
        "Delete Figure 2  /  Delete the paragraph starting with 'In summary'", _h_delete),
    Rule("move a unit", _rx(
        rf"^move\s+(?P<ref>{REF_RX})\s+(?P<where>before|after|above|below|ahead\s+of|in\s+front\s+of|to\s+(?:just\s+)?(?:before|after)|to\s+the\s+(?:end|bottom|start|beginning|top)\s+of)\s+(?P<dest>{REF_RX}|the\s+(?:whole\s+|entire\s+)?document){_END}"),
        "Move Section 4 before Section 3  /  Move Figure 3 after Figure 1", _h_move,
        seams=(r"\s+(?:before|after|above|below|ahead\s+of|in\s+front\s+of|to\s+the\s+(?:end|bottom|start|beginning|top)\s+of)\b",)),
    Rule("insert a unit", _rx(
        rf"^(?:insert|add|append|put)\s+(?:(?:a|an|the|one|another)\s+)?(?:new\s+)?(?:(?P<kind>{_KIND})\s+)?(?P<where>before|after|above|below|(?:at|to)\s+the\s+(?:end|bottom|start|beginning|top)\s+of|to)\s+(?P<ref>{REF_RX}){_SEP}(?P<text>.+?)\s*$"),
        "Insert after Section 2.1: <text>  /  Add a paragraph before Table 1: <text>", _h_insert,
        seams=(r"\s*(?::|,|\u2014|\s-\s)|\s+(?:saying|reading|that\s+says|which\s+says|with\s+the\s+text)\b",)),
    Rule("insert a unit", _rx(
        rf"^(?:insert|add|append|put)\s+(?:(?:a|an|the)\s+)?(?:new\s+)?(?:(?P<kind>{_KIND})\s+)?(?P<text>{_QP})\s+(?P<where>before|after|above|below|(?:at|to)\s+the\s+(?:end|bottom|start|beginning|top)\s+of|to)\s+(?P<ref>{REF_RX}){_END}"),
        "Add the sentence 'Fees are final.' to the end of the paragraph starting with 'Fees'", _h_insert),
]


class _Alias:
    """A match with some groups renamed (for rules that spell the same group two ways)."""

    def __init__(self, m: Groups, **over: str | None) -> None:
        self._m, self._over = m, over

    def __getitem__(self, key: str) -> Any:
        return self._over[key] if key in self._over else self._m[key]

    def groupdict(self) -> dict[str, Any]:
        return {**self._m.groupdict(), **self._over}


_NAMING = (
    "Units are named by label (Section 2.1, Figure 2, Table 1, Theorem 2, Appendix A, Equation (3)), "
    "in any word the document's labels are cited with (Clause 7, Sect. 3, \u00a7 4, Annex B, Abschnitt 3), "
    "as 'the paragraph starting with ...' or '... containing ...', 'the first paragraph of Section 2', "
    "'the Methods section', or 'this paragraph' / 'this section' (the unit at the cursor). "
    "Scopes: 'everywhere', 'throughout', 'in Section 3', 'in Table 2'."
)


def understood() -> list[dict[str, str]]:
    """What the rules engine understands, one example per action (for errors and the API)."""
    seen: dict[str, str] = {}
    for rule in GRAMMAR:
        seen.setdefault(rule.action, rule.example)
    return [{"action": a, "example": e} for a, e in seen.items()]


def _clean(instruction: str) -> str:
    """The instruction without the politeness around it ("please", "could you")."""
    s = instruction.strip()
    s = re.sub(r"^(?:please|kindly|(?:could|can|would)\s+you(?:\s+please)?)\s+", "", s, flags=re.IGNORECASE)
    s = re.sub(r"[\s,]+please[.!]?$", "", s, flags=re.IGNORECASE)
    return s


_LEAD_SCOPE = re.compile(rf"^(?:in|within|throughout)\s+(?P<lead>{REF_RX})\s*,\s*(?P<rest>.+)$", re.IGNORECASE | re.DOTALL)


# --- reading an instruction: quotations whole, every reading, the frame never written ---------------

#: Groups whose value is a term or a text the document gets or is searched for (not structure).
_VALUES = ("old", "new", "new2", "text", "q", "subject")


class _Read:
    """A rule's match read through the mask: each group's value with its quotations (and any
    character :func:`.quoting.protect` held back) put back."""

    def __init__(self, m: re.Match[str], masked: Masked, over: dict[str, str | None] | None = None) -> None:
        self.m, self.masked, self.over = m, masked, over or {}

    def __getitem__(self, key: str) -> Any:
        if key in self.over:
            return self.over[key]
        return self.masked.unmask(self.m[key])

    def groupdict(self) -> dict[str, Any]:
        return {**{k: self.masked.unmask(v) for k, v in self.m.groupdict().items()}, **self.over}

    def key(self) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted((k, v) for k, v in self.groupdict().items() if v is not None))


def _inside(span: tuple[int, int], m: re.Match[str]) -> bool:
    """Whether ``span`` lies within one of the match's groups (words of a value or a reference,
    not a seam the match split at)."""
    return any(m.start(g) <= span[0] and span[1] <= m.end(g) for g in m.re.groupindex if m.group(g) is not None)


def _readings(rule: Rule, candidate: str, m: re.Match[str]) -> list[re.Match[str]]:
    """Every way ``rule`` reads ``candidate`` (masked), its first (shortest) reading first.

    A seam word of the rule that stands inside a free part of the first reading ("Rename A to B
    to C": the second "to", inside the new term) could be the seam instead: the rule is matched
    again with the seams before it held back (:func:`.quoting.protect`), once for each. Words in
    quotations are masked and never seams: quote a term to mean it whole.
    """
    found = [m]
    for seam in rule.seams:
        hits = [h.span() for h in re.finditer(seam, candidate, re.IGNORECASE)]
        used = [h for h in hits if not _inside(h, m)]
        if not used:
            continue
        later = [h for h in hits if _inside(h, m) and h[0] > used[0][0]]
        for k in range(len(later)):
            alt = rule.pattern.match(protect(candidate, [used[0], *later[:k]]))
            if alt is not None and _quotes_whole(alt):
                found.append(alt)
    return found


#: Where a reference's own text begins: "the paragraph starting with …", "the section titled …".
_REF_TEXT = re.compile(r"(?:start|begin|open|contain|mention)\w*(?:\s+with)?\s+|(?:titled|called|named|headed)\s+",
                       re.IGNORECASE)


def _quotes_whole(m: re.Match[str]) -> bool:
    """Whether a reading takes each quotation that names a unit whole: the text after "starting
    with" is the quoted span and nothing more, or holds no quotation at all."""
    for g in ("ref", "ref2", "dest"):
        value = m.group(g) if g in m.re.groupindex else None
        at = _REF_TEXT.search(value) if value else None
        if value and at:
            rest = value[at.end():].strip()
            if PLACEHOLDER.search(rest) and not PLACEHOLDER.fullmatch(rest):
                return False
    return True


def _frame(candidate: str, m: re.Match[str], masked: Masked, seams: Sequence[str]) -> list[re.Pattern[str]]:
    """What of the instruction is its own structure (the verb and its connectives, the words that
    name a unit, a scope), as patterns no text the reading writes may contain: every run of two
    words or more, or with a colon, outside the values; and a seam of the rule followed by a colon
    ("with:", "to:"), which introduces a text and never ends one."""
    chars = list(candidate)
    for g in _VALUES:
        if g in m.re.groupindex and m.group(g) is not None:
            for i in range(m.start(g), m.end(g)):
                chars[i] = "\x00"
    bare = re.sub(PLACEHOLDER.pattern, "\x00", "".join(chars))
    out = []
    for piece in (masked.unmask(p) or "" for p in bare.split("\x00")):
        words = piece.split()
        if len(words) >= 2 or (words and ":" in piece):
            out.append(re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE))
    out.extend(re.compile(rf"(?:{seam})\s*:", re.IGNORECASE) for seam in seams)
    return out


def _written(p: Proposal) -> list[str]:
    """The texts a proposal writes into the document (replacements, new texts, inserted units)."""
    return [e.text for e in p.edits if e.op in ("replace", "set_text", "insert_after") and e.text]


def _frame_in(p: Proposal, frame: list[re.Pattern[str]]) -> str | None:
    """The first piece of the instruction's frame that a written text contains, if any."""
    for text in _written(p):
        for rx in frame:
            hit = rx.search(text)
            if hit:
                return hit.group()
    return None


#: A reading's parts in words, in the order a reader says them.
_PART_WORDS = (("ref", "the unit"), ("ref2", "the unit"), ("subject", "the subject"), ("old", "old"),
               ("q", "the phrase"), ("new", "new"), ("new2", "new"), ("text", "the text"), ("dest", "the place"),
               ("scope", "in"))


def _say(rule: Rule, r: _Read) -> str:
    """A reading in words: the action and its parts, each quoted as it would be written."""
    g = r.groupdict()
    parts = [f"{word} {_unquote(g[name])!r}" for name, word in _PART_WORDS if g.get(name)]
    return f"{rule.action}: {', '.join(parts)}"


def _requote(candidate: str, m: re.Match[str], masked: Masked) -> str:
    """The instruction as it reads with this reading's free terms quoted: what to send to mean it."""
    spans = []
    for g in _VALUES:
        if g in m.re.groupindex and m.group(g) is not None and not PLACEHOLDER.search(m.group(g)):
            spans.append((m.start(g), m.end(g)))
    for g in ("ref", "ref2", "dest"):
        if g in m.re.groupindex and m.group(g) is not None:
            at = _REF_TEXT.search(m.group(g))
            rest = m.group(g)[at.end():] if at else ""
            if at and rest and not PLACEHOLDER.search(rest):
                spans.append((m.start(g) + at.end(), m.end(g)))
    out, pos = [], 0
    for start, end in sorted(spans):
        value = masked.unmask(candidate[start:end]) or ""
        q = ('"', '"') if '"' not in value else ("\u201c", "\u201d") if "\u201d" not in value else ("\u00ab", "\u00bb")
        out.append(masked.unmask(candidate[pos:start]) or "")
        out.append(f"{q[0]}{value}{q[1]}")
        pos = end
    out.append(masked.unmask(candidate[pos:]) or "")
    return "".join(out)


def _decide(ctx: _Ctx, rule: Rule, candidate: str, masked: Masked, matches: list[re.Match[str]],
            lead_ref: str | None) -> Proposal:
    """The proposal of the one reading the document allows, or a refusal listing the readings.

    One reading: its proposal, unless a text it writes contains the instruction's own frame. Several
    (free text with a seam word inside): each is tried on the document; those that name nothing
    there, fail, or would write the frame drop out; one left is the answer (with a warning
    naming the others), two or more are :class:`AmbiguousInstructionError` with every reading
    and the instruction quoted to mean it.
    """
    over: dict[str, str | None] | None = {"scope": lead_ref} if lead_ref is not None else None
    reads: list[tuple[re.Match[str], _Read]] = []
    seen: set[tuple[tuple[str, Any], ...]] = set()
    for m in matches:
        r = _Read(m, masked, over)
        if r.key() not in seen:
            seen.add(r.key())
            reads.append((m, r))
    tried: list[tuple[re.Match[str], _Read, Proposal | None, Exception | None]] = []
    for m, r in reads:
        c = dc_replace(ctx)
        try:
            p = rule.handler(c, r)
            hit = _frame_in(p, _frame(candidate, m, masked, rule.seams))
            if hit is not None:
                raise InstructionNotUnderstoodError(
                    f"reading {ctx.instruction!r} as '{_say(rule, r)}' would write the instruction's own words "
                    f"{hit!r} into the document; quote the text to write (\"…\" or '…'): it is then taken whole",
                    understood=understood())
        except (LedgerError, AdapterError) as exc:
            tried.append((m, r, None, exc))
            continue
        tried.append((m, r, p, None))
    if len(tried) == 1:
        _m, _r, p1, exc1 = tried[0]
        if exc1 is not None:
            raise exc1
        assert p1 is not None
        return p1
    possible = [(m, r, p) for m, r, p, exc in tried if p is not None and p.edits]
    if len(possible) == 1:
        m, r, p = possible[0]
        others = "; ".join(_say(rule, r2) for m2, r2, _p, _e in tried if r2 is not r)
        p.warnings.append(f"read as '{_say(rule, r)}'; the instruction can also be read as {others}, which the "
                          "document does not allow")
        return p
    if len(possible) > 1:
        readings = [{"reading": _say(rule, r), "instruction": _requote(candidate, m, masked),
                     "operations": len(p.edits)} for m, r, p in possible]
        listed = "\n".join(f"  {i}. {x['reading']} ({x['operations']} change(s)): {x['instruction']}"
                           for i, x in enumerate(readings, 1))
        raise AmbiguousInstructionError(
            f"{ctx.instruction!r} can be read {len(readings)} ways; quote the terms to say which:\n{listed}",
            readings=readings)
    _m, _r, p0, exc0 = tried[0]  # none the document allows: answer as the first reading does
    if exc0 is not None:
        raise exc0
    assert p0 is not None
    return p0


def searched_terms(instruction: str) -> list[str]:
    """The terms the rule that reads ``instruction`` searches the document for (a rename's or a
    replacement's old term, a deleted phrase), read as :func:`propose` reads it but with no
    document: what a cost estimate counts before any search (issue 33). ``[]`` for anything else.

    >>> searched_terms("Please rename 'widget' to 'gadget' everywhere")
    ['widget']
    >>> searched_terms("Delete Section 3")
    []
    """
    if not isinstance(instruction, str) or not instruction.strip():
        return []
    masked = mask(_clean(instruction))
    lead = _LEAD_SCOPE.match(masked.text)
    candidates = (lead["rest"], masked.text) if lead else (masked.text,)
    for candidate in candidates:
        for rule in GRAMMAR:
            m = rule.pattern.match(candidate)
            if m is not None:
                return [_unquote(masked.unmask(m[g]) or "").strip() for g in ("old", "q")
                        if g in rule.pattern.groupindex and m[g]]
    return []


def propose(
    doc: Document,
    instruction: str,
    *,
    author: str,
    target: str | None = None,
    selection: str | None = None,
    names: str = "auto",
) -> Proposal:
    """Parse one instruction into validated edits on ``doc``.

    ``target`` is the id of the unit at the cursor (for "this paragraph"); ``selection`` the text
    selected in it (for "Replace the selection with ..."). ``names`` is how a rename treats the
    term inside a name of its own (``renaming.NAME_POLICIES``) when the instruction does not say
    ("including names", "not in names").

    Quoted text is taken whole (:mod:`.quoting`: the grammar reads the instruction with its
    quotations masked); an instruction whose free text reads two ways on this document is refused
    with the readings; no text the proposal writes contains the instruction's own frame; the
    texts it writes follow the document's quotation marks (:func:`adapters.quotes.restyle`).

    :raise InstructionNotUnderstoodError: the grammar does not cover the instruction (the message
        lists what it understands), or its only reading would write the instruction's own words.
    :raise AmbiguousInstructionError: two readings or more that the document allows (``readings``).
    :raise UnknownUnitError: a named unit the document does not have (the message lists those it has).
    :raise InvalidRequestError: an ambiguous reference or an impossible edit.
    """
    if not isinstance(instruction, str) or not instruction.strip():
        raise InstructionNotUnderstoodError("the instruction is empty", understood=understood())
    masked = mask(_clean(instruction))
    text = masked.text
    if names not in NAME_POLICIES:
        raise InvalidRequestError(f"names must be one of {', '.join(NAME_POLICIES)}, not {names!r}")
    ctx = _Ctx(doc, instruction.strip(), author, now_iso(), target, selection, names)
    lead = _LEAD_SCOPE.match(text)
    for candidate, lead_ref in ((lead["rest"], masked.unmask(lead["lead"])), (text, None)) if lead else ((text, None),):
        for rule in GRAMMAR:
            m = rule.pattern.match(candidate)
            if m is None:
                continue
            if lead_ref is not None and ("scope" not in rule.pattern.groupindex or m["scope"] or m["everywhere"]):
                continue
            return _decide(ctx, rule, candidate, masked, _readings(rule, candidate, m), lead_ref)
    lines = "\n".join(f"  - {r['action']}: {r['example']}" for r in understood())
    raise InstructionNotUnderstoodError(
        f"the rules engine cannot parse {instruction.strip()!r}. It understands:\n{lines}\n{_NAMING}",
        understood=understood(),
    )
