"""LEDGER's high-level operations as a small model is asked for them, and the repair of its answer.

A weak model asked for concrete edits writes one for every paragraph it sees, quotes words that
are not there, and runs out of tokens enumerating what it leaves alone. LEDGER does the
consistency work itself (a rename reaches every form of the term, deleting a section renumbers
and flags what cited it), so the model only has to name the operation:

- ``rename`` a term (``old`` -> ``new``) everywhere: one operation, whatever the number of units;
- ``delete`` a unit (a section goes with its content);
- ``retitle`` a heading or caption (``new`` is the title without its number);
- ``rewrite`` a unit (``new`` is its whole new text);
- ``replace`` words in a unit (``old`` copied from it, ``new`` what replaces them);
- ``refuse``, saying why, when none of these does the instruction.

The answer is at most :data:`MAX_OPERATIONS` operations of four short keys, so its output
budget (:func:`output_budget`) is small and known before asking. Units are shown under short
keys (``U1``, ``U2``: a model copies them more reliably than content hashes).

:func:`repair` keeps what can be used without guessing and says what it dropped and why:
an operation naming a unit that is not in the context, a ``replace`` whose old text does not occur
in the unit, one that changes nothing, a repeat. Words that occur several times in the unit are
replaced at every occurrence only when the instruction says "everywhere" (else which one is
meant would be a guess); with "everywhere", replacements of one term become a ``rename``. When
nothing usable is left, the engine refuses with the reasons.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from adapters.model import Delete, Document, Edit, Rename, Replace, SetText, Unit, ancestor_ids
from adapters.text import loose_pattern
from addin_backend.errors import LedgerError

from ..language.detect import unit_language

from .intents import norm_term
from .operations import validate_edits
from .proposal import ContextItem
from .resolve import LABEL_RX
from .rules import quoted, says_everywhere, title_span
from .specs import edit_from_spec
from .terms import find_term
from .tree import subtree

__all__ = [
    "MAX_OPERATIONS",
    "OPERATION_KINDS",
    "Repaired",
    "SYSTEM_PROMPT",
    "build_messages",
    "describe",
    "fit_context",
    "output_budget",
    "operations_schema",
    "parse_operations",
    "prompt_room",
    "repair",
    "salvage",
]

#: The operations a model may name (see the module docstring).
OPERATION_KINDS = ("rename", "delete", "retitle", "rewrite", "replace", "refuse")
#: The most operations one answer holds: enough for an instruction, too few to enumerate a context.
MAX_OPERATIONS = 4
#: Output tokens per operation besides a rewritten text (keys, a unit key, a term or two).
_TOKENS_PER_OPERATION = 40
_MAX_TERM_WORDS = 6


def operations_schema(max_operations: int = MAX_OPERATIONS) -> dict[str, Any]:
    """The JSON schema of an answer: ``{"operations": [{op, unit, old, new}, ...]}``.

    Every key is required and nullable (OpenAI's strict mode); ``maxItems`` bounds the answer
    (llama.cpp and vLLM enforce it while decoding).
    """
    nullable = {"type": ["string", "null"]}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["operations"],
        "properties": {
            "operations": {
                "type": "array",
                "maxItems": max_operations,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["op", "unit", "old", "new"],
                    "properties": {
                        "op": {"type": "string", "enum": list(OPERATION_KINDS)},
                        "unit": nullable,
                        "old": nullable,
                        "new": nullable,
                    },
                },
            }
        },
    }


SYSTEM_PROMPT = f"""You edit a document for a user. Reply with JSON only: \
{{"operations": [...]}}, at most {MAX_OPERATIONS} operations, each {{"op", "unit", "old", "new"}}:
- rename: a term changes everywhere. old = the term, new = the new term, unit = null. One rename \
changes every unit: never repeat it per unit.
- retitle: unit = the key of a heading or caption, new = its new title (without its number).
- rewrite: unit = a key, new = the unit's whole new text.
- replace: unit = a key, old = words copied exactly from that unit, new = the words that replace them.
- delete: unit = a key (a heading goes with its section).
- refuse: none of these does the instruction; new = why.
Name only units that change, each once. Numbering, cross-references and other mentions are updated for you.
Example. Units: [U1] Section 2 heading: 2. Alarms / [U2] paragraph: Alarms go to the operator. \
Instruction: Make the heading of Section 2 say 'Alarm Handling' and call the operator the duty engineer. \
Reply: {{"operations": [{{"op": "retitle", "unit": "U1", "old": null, "new": "Alarm Handling"}}, \
{{"op": "rename", "unit": null, "old": "operator", "new": "duty engineer"}}]}}"""


#: Worked answers shown as earlier turns of the conversation, one per operation a weak model
#: confuses (a 0.5B model shown only the rules above answers every instruction with a rename):
#: their units are invented, so that nothing of the real document is in them.
EXAMPLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("[U1] Section 3 heading: 3. Timers\n[U2] paragraph: A timer fires once.\n"
     "[U3] Section 4 heading: 4. Legacy Modes\n[U4] paragraph: Old peers use legacy modes.\n\n"
     "Instruction: We dropped support for old peers, so take Section 4 out.",
     {"operations": [{"op": "delete", "unit": "U3", "old": None, "new": None}]}),
    ("[U1] Section 3 heading: 3. Timers\n[U2] paragraph: A timer fires once.\n\n"
     "Instruction: Section 3 should be headed 'Timer Rules'.",
     {"operations": [{"op": "retitle", "unit": "U1", "old": None, "new": "Timer Rules"}]}),
    ("[U1] paragraph: A timer fires once.\n[U2] paragraph: Each timer has an owner.\n\n"
     "Instruction: Say alarm instead of timer throughout.",
     {"operations": [{"op": "rename", "unit": None, "old": "timer", "new": "alarm"}]}),
)


def _key_map(context: list[ContextItem]) -> dict[str, str]:
    """Short keys (``U1``...) of the context's units, in context order."""
    return {f"U{i + 1}": item.unit.id for i, item in enumerate(context)}


def _show(key: str, unit: Unit) -> str:
    """``[U3] Section 4.2 heading: 4.2. Title``, ``[U4] paragraph: text`` (how the unit is cited,
    else its kind)."""
    if unit.label:
        head = f"[{key}] {unit.label}" + (" heading" if unit.kind == "section" else "")
    else:
        head = f"[{key}] {'heading' if unit.kind == 'section' else unit.kind}"
    return f"{head}: {unit.text}"


def build_messages(
    doc: Document,
    instruction: str,
    context: list[ContextItem],
    *,
    target: str | None = None,
    selection: str | None = None,
) -> tuple[list[dict[str, str]], dict[str, str]]:
    """The chat messages for one instruction and the short keys they use (key -> unit id)."""
    keys = _key_map(context)
    by_id = {uid: k for k, uid in keys.items()}
    lines = ["Document units:"]
    lines.extend(_show(k, doc.unit(uid)) for k, uid in keys.items())
    lines.append("")
    if target and target in by_id:
        lines.append(f"The cursor is in {by_id[target]}.")
    if selection:
        lines.append(f"Selected text: {json.dumps(selection, ensure_ascii=False)}")
    lines.append(f"Instruction: {instruction.strip()}")
    shown: list[dict[str, str]] = []
    for units, answer in EXAMPLES:  # the same first turns every time: a server's prompt cache keeps them
        shown += [{"role": "user", "content": "Document units:\n" + units},
                  {"role": "assistant", "content": json.dumps(answer)}]
    return [{"role": "system", "content": SYSTEM_PROMPT}, *shown, {"role": "user", "content": "\n".join(lines)}], keys


def output_budget(context: list[ContextItem], count_tokens, cap: int | None) -> int:
    """Output tokens for one answer: :data:`MAX_OPERATIONS` short operations plus a rewrite of
    the longest unit that may be rewritten (the targets, else any unit of the context), with room
    for its words to change; at most ``cap``."""
    targets = [i for i in context if i.reason.startswith("TARGET")] or context
    longest = max((count_tokens(i.unit.text) for i in targets), default=0)
    budget = _TOKENS_PER_OPERATION * MAX_OPERATIONS + int(longest * 1.5)
    return min(budget, cap) if cap else budget


#: A model's tokenizer is not cl100k: its count of the same text runs up to this much higher.
TOKENIZER_SLACK = 1.3


def prompt_room(doc: Document, instruction: str, count_tokens, window: int, answer: int) -> int:
    """The cl100k tokens of units a model window of ``window`` tokens holds beside the prompt's
    fixed part (system prompt, worked examples, instruction) and ``answer`` tokens of reply."""
    messages, _ = build_messages(doc, instruction, [])
    return int((window - answer) / TOKENIZER_SLACK) - sum(count_tokens(m["content"]) + 8 for m in messages)


def fit_context(doc: Document, instruction: str, context: list[ContextItem], count_tokens, window: int | None,
                answer: int) -> list[ContextItem]:
    """The first units of ``context`` (it is ranked: targets first) whose prompt fits a model
    window of ``window`` tokens with ``answer`` tokens left for the reply; all of it when
    ``window`` is ``None``. At least one unit is kept, so that a too-small window still answers."""
    if window is None or not context:
        return context
    room = prompt_room(doc, instruction, count_tokens, window, answer)
    kept: list[ContextItem] = []
    for i, item in enumerate(context):
        room -= count_tokens(_show(f"U{i + 1}", item.unit)) + 1
        if room < 0 and kept:
            break
        kept.append(item)
    return kept


def parse_operations(data: Any) -> list[dict[str, Any]]:
    """The operations of a parsed answer (``{"operations": [...]}``, or a bare list).

    :raise ValueError: not of that shape.
    """
    if isinstance(data, dict) and isinstance(data.get("operations"), list):
        ops = data["operations"]
    elif isinstance(data, list):
        ops = data
    elif isinstance(data, dict) and "op" in data:
        ops = [data]
    else:
        raise ValueError('the reply must be an object {"operations": [...]}')
    if not all(isinstance(op, dict) for op in ops):
        raise ValueError("each operation must be a JSON object")
    return ops


_OPEN = re.compile(r'"operations"\s*:\s*\[')


def salvage(reply: str) -> list[dict[str, Any]]:
    """The complete operations at the start of an answer cut off at its token limit (what the
    model wrote before it ran out, each object whole; nothing after the cut is guessed).

    >>> salvage('```json {"operations": [{"op": "delete", "unit": "U2", "old": null, "new": null}, {"op": "re')
    [{'op': 'delete', 'unit': 'U2', 'old': None, 'new': None}]
    """
    m = _OPEN.search(reply)
    if m is None:
        return []
    decoder, pos = json.JSONDecoder(), m.end()
    out: list[dict[str, Any]] = []
    while True:
        while pos < len(reply) and reply[pos] in " \t\r\n,":
            pos += 1
        try:
            obj, pos = decoder.raw_decode(reply, pos)
        except json.JSONDecodeError:
            return out
        if not isinstance(obj, dict):
            return out
        out.append(obj)


@dataclass
class Repaired:
    """What :func:`repair` kept: concrete-able ``edits``, the ``notes`` on what it dropped or
    changed, and the model's ``refusal`` (its reason) when it refused."""

    edits: list[Edit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refusal: str | None = None
    done: list[str] = field(default_factory=list)


def _text(op: dict[str, Any], key: str) -> str:
    value = op.get(key)
    return value.strip() if isinstance(value, str) else ""


def _unit_of(doc: Document, keys: dict[str, str], ref: str) -> Unit | None:
    """The unit a model's ``unit`` names: a short key (``U3``, ``u3``, ``3``, ``[U3]``) or an id."""
    ref = ref.strip().strip("[]").strip()
    if re.fullmatch(r"\d+", ref):
        ref = f"U{ref}"
    uid = keys.get(ref.upper()) if re.fullmatch(r"[Uu]\d+", ref) else None
    if uid is None and ref in keys.values():
        uid = ref
    return doc.get(uid) if uid else None


def _spans(unit: Unit, old: str) -> list[tuple[int, int]]:
    spans = [(m.start(), m.end()) for m in re.finditer(re.escape(old), unit.text)]
    if not spans:  # as a model quotes: any white space, either kind of quote or dash
        spans = [(m.start(), m.end()) for m in loose_pattern(old).finditer(unit.text)]
    return spans


LABEL_FULL = re.compile(rf"\s*(?:{LABEL_RX})\s*", re.IGNORECASE)


def _is_label_of(unit: Unit, text: str) -> bool:
    """Whether ``text`` is how the unit is cited or was shown ("Section 4.4", "4.4",
    "Section 4.4 heading", "section Section 4.4", "Figure 2")."""
    t = re.sub(r"\s+", " ", text.strip().rstrip(".:").lower())
    forms = {x.lower().rstrip(".") for x in (unit.label, unit.number) if x}
    return t in forms | {f"{f} heading" for f in forms} | {f"{unit.kind} {f}" for f in forms}


def _is_term(text: str) -> bool:
    return bool(text) and len(text.split()) <= _MAX_TERM_WORDS and any(c.isalpha() for c in text) and "\n" not in text


def cited_heading(doc: Document, instruction: str) -> Unit | None:
    """The one heading or caption the instruction cites by its label ("Section 4.8 is obsolete"),
    else ``None`` (none, several, or a label the document lacks)."""
    from .resolve import resolve_ref

    found: dict[str, Unit] = {}
    for m in re.finditer(LABEL_RX, instruction, re.IGNORECASE):
        try:
            units = resolve_ref(doc, m.group())
        except LedgerError:
            continue
        found.update((u.id, u) for u in units if u.kind in ("section", "caption"))
    return next(iter(found.values())) if len(found) == 1 else None


def describe(edits: list[Edit], doc: Document) -> str:
    """One sentence for the user naming what the kept operations do."""
    parts = []
    # a unit deleted with its section is said once, with the section
    deleted = {d.unit: ancestor_ids(doc, d.unit) for d in edits if isinstance(d, Delete)}
    for e in edits:
        unit = doc.get(e.unit) if e.unit else None
        where = (unit.label or unit.id) if unit is not None else ""
        if isinstance(e, Rename):
            parts.append(f"rename '{e.old}' to '{e.text}'")
        elif isinstance(e, Delete):
            if not deleted[e.unit] & deleted.keys():
                inside = sum(1 for above in deleted.values() if e.unit in above)
                parts.append(f"delete {where}" + (f" with the {inside} unit(s) it contains" if inside else ""))
        elif isinstance(e, SetText):
            parts.append(f"rewrite {where}")
        elif isinstance(e, Replace):
            gone = e.before[e.start:e.end] if e.before else ""
            parts.append(f"replace '{gone}' by '{e.text}' in {where}" if gone else f"insert '{e.text}' in {where}")
    parts = list(dict.fromkeys(parts))
    return (parts[0][:1].upper() + "; ".join(parts)[1:] + ".") if parts else ""


def _occurs(doc: Document, term: str, new: str) -> bool:
    """Whether ``term`` occurs in ``doc`` in any of its forms, each unit read in its own language
    (:mod:`addin_backend.language.forms`), as the rename will find it."""
    return any(find_term(u.text, term, new, lang=unit_language(u, doc)) for u in doc.units)


def _said_as(instruction: str, term: str) -> str | None:
    """The term the instruction quotes that ``term`` spells another way (``pre-shared_key`` for
    'pre-shared key': the same letters, other separators or case), else ``None``.

    >>> _said_as("Use 'preshared secret' instead of 'pre-shared key' everywhere", "pre-shared_key")
    'pre-shared key'
    >>> _said_as("Don't keep 'pre-shared key': say 'PSK'", "pre-shared_key")  # the apostrophe opens no quote
    'pre-shared key'
    """
    squash = lambda text: re.sub(r"[\W_]+", "", text).casefold()  # noqa: E731
    return next((q for q in quoted(instruction) if squash(q) == squash(term) and q != term), None)


def repair(
    doc: Document,
    ops: list[dict[str, Any]],
    instruction: str,
    keys: dict[str, str],
    *,
    author: str,
    date: str,
    reason: str = "",
    source: str = "llm",
) -> Repaired:
    """The usable edits in a model's operations (see the module docstring); nothing is guessed.

    Each kept edit is checked against the document and against the edits kept before it (an
    overlapping one is dropped with a note); ``done`` says in words what each kept one does.
    """
    out = Repaired()
    everywhere = says_everywhere(instruction)
    cited = cited_heading(doc, instruction)
    stamp: dict[str, Any] = {"author": author, "date": date, "source": source, "reason": reason}
    seen: set[tuple[str, str, str, str]] = set()
    candidates: list[tuple[int, list[Edit]]] = []

    def drop(i: int, why: str) -> None:
        out.notes.append(f"operation {i + 1} dropped: {why}")

    for i, op in enumerate(ops[: MAX_OPERATIONS * 4]):
        kind, ref, old, new = _text(op, "op").lower(), _text(op, "unit"), _text(op, "old"), _text(op, "new")
        sig = (kind, ref, old, new)
        if sig in seen:
            drop(i, "it repeats an earlier operation")
            continue
        seen.add(sig)
        if kind not in OPERATION_KINDS:
            drop(i, f"unknown operation {kind!r}")
            continue
        if kind == "refuse":
            out.refusal = new or old or "the model declined the instruction"
            continue
        named = _unit_of(doc, keys, ref) if ref else None
        if kind == "rename" and old and named is None:  # the heading named by how it was shown
            named = next((u for u in (doc.get(uid) for uid in keys.values())
                          if u is not None and u.kind in ("section", "caption") and _is_label_of(u, old)), None)
        if kind == "rename" and old and named is not None and named.kind in ("section", "caption") and (
                _is_label_of(named, old) or LABEL_FULL.fullmatch(old) or norm_term(old) == norm_term(named.title or "")
                or norm_term(old) == norm_term(new)) and new and not LABEL_FULL.fullmatch(new):
            # "rename Section 4.4 to ...", or the new title as both terms: a new heading, not a term
            kind, old = "retitle", ""
            out.notes.append(f"operation {i + 1}, a rename of the heading {keys_of(keys, named.id)}, is a retitle")
        if kind in ("delete", "retitle") and cited is not None and (named is None or (
                named.id != cited.id and named.kind in ("section", "caption"))):
            # the model copied the wrong key (or none) for the heading the instruction names
            was = f"named {keys_of(keys, named.id)} ({named.label or named.kind})" if named else "named no unit"
            out.notes.append(f"operation {i + 1} {was}; the instruction names {cited.label}, which was used")
            named = cited
        if kind == "rename":
            if old and LABEL_FULL.fullmatch(old):
                drop(i, f"'{old}' is a label, not a term (LEDGER renumbers labels itself)")
            elif not old or not new or norm_term(old) == norm_term(new):
                drop(i, "a rename needs a term and a different new term")
            else:
                # the instruction's own words win over the model's spelling of them as code
                # ('pre_shared_key' for 'pre-shared key'), even where the code spelling occurs
                # too: there it is another name (rfc8446's "pre_shared_key" extension)
                said = _said_as(instruction, old)
                if said is not None and _occurs(doc, said, new):
                    out.notes.append(f"operation {i + 1}: '{old}' is the instruction's '{said}' spelt as code")
                    old = said
                elif not _occurs(doc, old, new):
                    drop(i, f"'{old}' does not occur in the document")
                    continue
                said_new = _said_as(instruction, new)
                if said_new is not None and norm_term(said_new) != norm_term(old):
                    out.notes.append(f"operation {i + 1}: '{new}' is the instruction's '{said_new}' spelt as code")
                    new = said_new
                candidates.append((i, [Rename(old=old, text=new, unit=None, **stamp)]))
            continue
        unit = named
        if unit is None:
            drop(i, f"{ref or 'no unit'} is not a unit of the context")
            continue
        name = keys_of(keys, unit.id) + (f" ({unit.label})" if unit.label else "")
        if kind == "delete":
            candidates.append((i, [Delete(unit=u.id, before=u.text, **stamp) for u in subtree(doc, unit.id)]))
        elif kind == "retitle":
            if unit.kind not in ("section", "caption") or not new:
                drop(i, f"{name} is a {unit.kind}, not a heading or caption" if new else "a retitle needs the new title")
                continue
            start, end = title_span(unit)
            if unit.text[start:end].strip() == new:
                drop(i, f"{name} already has that title")
                continue
            candidates.append((i, [edit_from_spec(doc, {"op": "replace", "unit": unit.id, "old": None, "start": start,
                                                        "end": end, "text": new}, **stamp)]))
        elif kind == "rewrite":
            if not new:
                drop(i, f"an empty rewrite of {name} (ask for delete to remove a unit)")
            elif new == unit.text.strip():
                drop(i, f"the rewrite of {name} changes nothing")
            else:
                candidates.append((i, [SetText(unit=unit.id, text=new, before=unit.text, **stamp)]))
        else:  # replace
            if not old:
                drop(i, f"a replace in {name} needs the old words")
                continue
            if old == new:
                drop(i, f"the replace in {name} changes nothing")
                continue
            spans = _spans(unit, old)
            if not spans:
                drop(i, f"'{old}' does not occur in {name}")
                continue
            if len(spans) > 1 and not everywhere:
                drop(i, f"'{old}' occurs {len(spans)} times in {name} and the instruction does not say which")
                continue
            candidates.append((i, [
                edit_from_spec(doc, {"op": "replace", "unit": unit.id, "start": s, "end": e, "text": new}, **stamp)
                for s, e in spans
            ]))

    if everywhere:
        candidates = _replaces_as_rename(doc, candidates, out, stamp)
    kept: list[Edit] = []
    for i, edits in candidates:
        try:
            validate_edits(doc, kept + edits)
        except LedgerError as exc:
            drop(i, exc.message)
            continue
        kept.extend(edits)
    out.edits = kept
    return out


def keys_of(keys: dict[str, str], unit_id: str) -> str:
    """The short key a unit was shown under (its id when it was not shown)."""
    return next((k for k, uid in keys.items() if uid == unit_id), unit_id)


def _replaces_as_rename(doc: Document, candidates: list[tuple[int, list[Edit]]], out: Repaired,
                        stamp: dict[str, Any]) -> list[tuple[int, list[Edit]]]:
    """Replacements that all swap one term for another, under an instruction that says
    "everywhere", as one ``rename`` (which reaches the units the model did not list)."""
    reps = [(i, e) for i, es in candidates for e in es if isinstance(e, Replace)]
    if not reps or len(reps) != sum(len(es) for _, es in candidates):
        return candidates
    pairs = {(norm_term(e.before[e.start:e.end] if e.before else ""), norm_term(e.text)) for _, e in reps}
    first = reps[0][1]
    old = first.before[first.start:first.end] if first.before else ""
    if len(pairs) != 1 or not _is_term(old) or not _is_term(first.text):
        return candidates
    out.notes.append(f"the replacements of '{old}' by '{first.text}' became one rename, as the instruction says everywhere")
    return [(reps[0][0], [Rename(old=old, text=first.text, unit=None, **stamp)])]
