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
from typing import Any, Callable, Protocol, Sequence, TypeVar

from adapters.label_grammar import canonical_label
from adapters.model import Delete, Document, Edit, InsertAfter, Move, Replace, SetText, Unit
from addin_backend.errors import InstructionNotUnderstoodError, InvalidRequestError, UnknownUnitError

from ..graph.label_index import unit_keys
from .operations import expand_rename, now_iso, scope_ids, validate_edits
from .renaming import NAME_POLICIES, AcronymRename, TermPlace, acronym_renames, kept_note
from .proposal import Proposal
from .resolve import LABEL_RX, REF_RX, last_of, resolve_ref
from .tree import body_units, enclosing_section, section_level, subtree
from .values import find_value, parse_value
from adapters.vocabulary import TEXT_KINDS

__all__ = ["GRAMMAR", "QUOTED", "Rule", "propose", "quoted", "says_everywhere", "title_span", "understood"]

E = TypeVar("E", Replace, SetText, InsertAfter, Delete, Move)


class Groups(Protocol):
    """What a rule's handler reads of its match: named groups (a ``re.Match`` or an :class:`_Alias`)."""

    def __getitem__(self, key: str) -> Any: ...

    def groupdict(self) -> dict[str, Any]: ...

#: A quoted string in an instruction, in any of the four pairs people type: "…", “…”, '…' and ‘…’
#: (a single quote may also be opened by ’ or closed by ', as autocorrect leaves them). A quote does
#: not open right after a letter or digit, so the apostrophe of "don't" or "user's" opens none;
#: inside double quotes an apostrophe is text ("user's key"). No groups: the grammar below embeds
#: the pattern in named groups of its own. The one definition of a quoted string, for the rules
#: and for the LLM engine's repair (:mod:`.llm_operations`).
QUOTED = re.compile(
    r"(?<!\w)(?:\"[^\"]+\"|\u201c[^\u201c\u201d]+\u201d|['\u2018\u2019][^'\u2018\u2019]+['\u2018\u2019])")


def quoted(text: str) -> list[str]:
    r"""The strings ``text`` quotes (:data:`QUOTED`), without their quotes, in order: the terms an
    instruction names exactly, whatever quotes it was typed with.

    >>> quoted("Don't rename \u201cconnection ID\u201d to 'connection identifier' in the user's guide")
    ['connection ID', 'connection identifier']
    >>> quoted('Replace "user\'s key" with \u2018client key\u2019')
    ["user's key", 'client key']
    """
    return [m.group()[1:-1] for m in QUOTED.finditer(text)]


_Q = rf"(?:{QUOTED.pattern}|.+?)"
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
_SEP = r"\s*(?::|,|\u2014|\s-\s|\s+(?:saying|reading|that\s+says|which\s+says|with\s+the\s+text)\s*:?)\s*"
_TEXT_OPEN = {"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"'}


@dataclass(frozen=True)
class Rule:
    """One line of the grammar: a pattern, what it does, an example, and the handler."""

    action: str
    pattern: re.Pattern[str]
    example: str
    handler: Callable[["_Ctx", Groups], Proposal]


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

    def edit(self, e: E) -> E:
        """The operation stamped as the rules engine's: the author, the date, the instruction."""
        return dc_replace(e, author=self.author, date=self.date, reason=self.instruction, source="rules")

    def done(self, edits: Sequence[Edit], targets: list[Unit] | list[str], explanation: str, warnings=()) -> Proposal:
        ids = [t if isinstance(t, str) else t.id for t in targets]
        return Proposal(
            edits=validate_edits(self.doc, edits), targets=list(dict.fromkeys(ids)), explanation=explanation,
            engine="rules", instruction=self.instruction, warnings=list(warnings), names=self.names,
        )


def _unquote(s: str) -> str:
    s = s.strip()  # the quote characters of QUOTED (curly doubles are straightened by _clean first)
    if len(s) >= 2 and s[0] in "\"'\u2018\u2019\u201c" and s[-1] in "\"'\u2018\u2019\u201d":
        return s[1:-1]
    return s


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
    return _change(c, _unquote(m["old"]), _unquote(m["new"]), scope, where, subject=m.groupdict().get("subject") or "")


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
        gone.extend(u for u in subtree(c.doc, g.id) if u not in gone)
    edits = [c.edit(Delete(unit=u.id, before=u.text)) for u in gone]
    more = [u for u in gone if u not in group]
    if more and all(u.kind == "caption" for u in more):
        extra = " with its caption"
    else:
        extra = f" with the {len(more)} unit(s) it contains" if more else ""
    return c.done(edits, group, f"Delete {_group_name(c.doc, group)}{extra}.")


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
        lead = re.match(r"\s*(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+(?=\S)", text) if unit.number else None
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


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


_CHANGE = r"change|update|modify|alter|amend|adjust|switch|increase|decrease|raise|lower|extend|reduce|shorten"
# The verbs are English; a delete is also understood in the languages the label words cover
# ("Lösche Abschnitt 3", "Supprimer l'annexe B" is not: only "Supprime Annexe B").
_DELETE = (r"delete|remove|drop|strike(?:\s+out)?|cut|erase|l(?:\u00f6|oe)sche(?:n)?|entferne(?:n)?|streiche(?:n)?"
           r"|supprime(?:r|z)?|efface(?:r|z)?|elimina(?:r)?|borra(?:r)?|suprime|suprimir")

#: The grammar, in the order rules are tried; the help text for unparsed instructions comes from it.
GRAMMAR: list[Rule] = [
    Rule("retitle a section or caption", _rx(
        rf"^(?:set|change|update|make|rename|alter)\s+the\s+(?P<what>title|heading|name|caption)\s+(?:of|for)\s+(?P<ref>{REF_RX})\s+(?:to|as|into)\s*:?\s*(?P<new>.+?){_END}"),
        "Set the title of Section 2 to 'Methods'", _h_title),
    Rule("retitle a section", _rx(
        rf"^(?:retitle|rename)\s+(?P<ref>{LABEL_RX}|this\s+section|the\s+current\s+section)\s+(?:to|as)\s*:?\s*(?P<new>.+?){_END}"),
        "Rename Section 3 to 'Results'", _h_title),
    Rule("rewrite a unit", _rx(
        rf"^(?:(?:replace|set|change)\s+the\s+(?:whole\s+)?(?:text|content|contents|wording)\s+of\s+(?P<ref>{REF_RX})\s+(?:with|to)|rewrite\s+(?P<ref2>{REF_RX})\s+(?:as|to\s+read))\s*:?\s*(?P<new>.+?)\s*$"),
        "Replace the text of the paragraph starting with 'Fees' with: Fees are waived.",
        lambda c, m: _h_set_text(c, _Alias(m, ref=m["ref"] or m["ref2"]))),
    Rule("replace or delete the selection", _rx(
        rf"^(?:(?:replace|change)\s+(?:the\s+selection|the\s+selected\s+text|the\s+highlighted\s+text|this|it)\s+(?:with|to|into|by)\s+(?P<new>.+?)|(?:{_DELETE})\s+(?:the\s+selection|the\s+selected\s+text|the\s+highlighted\s+text)){_END}"),
        "Replace the selection with 'net 45'", _h_selection),
    Rule("change a value", _rx(
        rf"^(?:{_CHANGE})\s+(?:the\s+)?(?P<subject>.+?)\s+from\s+(?P<old>{_Q})\s+to\s+(?P<new>{_Q}){_SCOPE}{_END}"),
        "Change the retention period from 30 days to 45 days", _h_replace),
    Rule("rename a term", _rx(
        rf"^rename\s+(?:the\s+)?(?:(?:term|word|name|phrase|concept|product)\s+)?(?P<old>{_Q})\s+(?:to|as|into|->|\u2192)\s+(?P<new>{_Q}){_SCOPE}{_NAMES}{_END}"),
        "Rename 'widget' to 'gadget' everywhere", _h_rename),
    Rule("replace a term", _rx(
        rf"^replace\s+(?:all\s+|every\s+|each\s+)?(?:(?:occurrences?|instances?|mentions?|uses?)\s+of\s+)?(?P<old>{_Q})\s+(?:with|by)\s+(?P<new>{_Q}){_SCOPE}{_END}"),
        "Replace 'Supplier' with 'Vendor' in Section 3", _h_replace),
    Rule("replace a term", _rx(
        rf"^(?:substitute\s+(?P<new>{_Q})\s+for|use\s+(?P<new2>{_Q})\s+instead\s+of)\s+(?P<old>{_Q}){_SCOPE}{_END}"),
        "Use 'Vendor' instead of 'Supplier'", lambda c, m: _h_replace(c, _Alias(m, new=m["new"] or m["new2"]))),
    Rule("change a value or term", _rx(
        rf"^(?:{_CHANGE}|turn)\s+(?:all\s+|every\s+|each\s+)?(?P<old>{_Q})\s+(?:to|into)\s+(?P<new>{_Q}){_SCOPE}{_END}"),
        "Change 30 days to 45 days", _h_replace),
    Rule("delete a phrase", _rx(
        rf"^(?:{_DELETE})\s+(?:the\s+)?(?:(?:word|words|phrase|text|sentence|term)\s+)?(?P<q>{QUOTED.pattern}){_FROM_SCOPE}{_END}"),
        "Remove 'strictly' from Section 2", _h_delete_text),
    Rule("delete a unit", _rx(
        rf"^(?:{_DELETE})\s+(?:the\s+(?:whole|entire)\s+)?(?P<ref>{REF_RX})(?:\s+(?:entirely|completely|and\s+its\s+(?:content|contents|subsections)))?{_END}"),
        "Delete Figure 2  /  Delete the paragraph starting with 'In summary'", _h_delete),
    Rule("move a unit", _rx(
        rf"^move\s+(?P<ref>{REF_RX})\s+(?P<where>before|after|above|below|ahead\s+of|in\s+front\s+of|to\s+(?:just\s+)?(?:before|after)|to\s+the\s+(?:end|bottom|start|beginning|top)\s+of)\s+(?P<dest>{REF_RX}|the\s+(?:whole\s+|entire\s+)?document){_END}"),
        "Move Section 4 before Section 3  /  Move Figure 3 after Figure 1", _h_move),
    Rule("insert a unit", _rx(
        rf"^(?:insert|add|append|put)\s+(?:(?:a|an|the|one|another)\s+)?(?:new\s+)?(?:(?P<kind>{_KIND})\s+)?(?P<where>before|after|above|below|(?:at|to)\s+the\s+(?:end|bottom|start|beginning|top)\s+of|to)\s+(?P<ref>{REF_RX}){_SEP}(?P<text>.+?)\s*$"),
        "Insert after Section 2.1: <text>  /  Add a paragraph before Table 1: <text>", _h_insert),
    Rule("insert a unit", _rx(
        rf"^(?:insert|add|append|put)\s+(?:(?:a|an|the)\s+)?(?:new\s+)?(?:(?P<kind>{_KIND})\s+)?(?P<text>{QUOTED.pattern})\s+(?P<where>before|after|above|below|(?:at|to)\s+the\s+(?:end|bottom|start|beginning|top)\s+of|to)\s+(?P<ref>{REF_RX}){_END}"),
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
    s = instruction.strip()
    for k, v in _TEXT_OPEN.items():
        s = s.replace(k, v)
    s = re.sub(r"^(?:please|kindly|(?:could|can|would)\s+you(?:\s+please)?)\s+", "", s, flags=re.IGNORECASE)
    s = re.sub(r"[\s,]+please[.!]?$", "", s, flags=re.IGNORECASE)
    return s


_LEAD_SCOPE = re.compile(rf"^(?:in|within|throughout)\s+(?P<lead>{REF_RX})\s*,\s*(?P<rest>.+)$", re.IGNORECASE | re.DOTALL)


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

    :raise InstructionNotUnderstoodError: the grammar does not cover the instruction; the message
        lists what it understands.
    :raise UnknownUnitError: a named unit the document does not have (the message lists those it has).
    :raise InvalidRequestError: an ambiguous reference or an impossible edit.
    """
    if not isinstance(instruction, str) or not instruction.strip():
        raise InstructionNotUnderstoodError("the instruction is empty", understood=understood())
    text = _clean(instruction)
    if names not in NAME_POLICIES:
        raise InvalidRequestError(f"names must be one of {', '.join(NAME_POLICIES)}, not {names!r}")
    ctx = _Ctx(doc, instruction.strip(), author, now_iso(), target, selection, names)
    lead = _LEAD_SCOPE.match(text)
    for candidate, lead_ref in ((lead["rest"], lead["lead"]), (text, None)) if lead else ((text, None),):
        for rule in GRAMMAR:
            m = rule.pattern.match(candidate)
            if m is None:
                continue
            if lead_ref is not None:
                if "scope" not in rule.pattern.groupindex or m["scope"] or m["everywhere"]:
                    continue
                return rule.handler(ctx, _Alias(m, scope=lead_ref))
            return rule.handler(ctx, m)
    lines = "\n".join(f"  - {r['action']}: {r['example']}" for r in understood())
    raise InstructionNotUnderstoodError(
        f"the rules engine cannot parse {instruction.strip()!r}. It understands:\n{lines}\n{_NAMING}",
        understood=understood(),
    )
