"""Which of LEDGER's operations one view of a reviewed file shows, decided place by place.

A view (the reviewed file's accepted or rejected text, one line per paragraph) is the
original document with some subset of the operations applied. Trying subsets on the whole
document costs a re-application and a diff per try; instead each operation is decided where it
acts. The operations' units are laid out once as *slots* in document order (a unit no operation
touches; a unit whose text operations change; a deleted unit, shown or not; an inserted or a
moved-to unit, shown or not), the untouched units are found in the view by one alignment, and
the stretch of the view between two untouched units is matched against the slots between them:

- exactly, when it can be: slot by slot, each text change read off the line (its old or its
  new words stand between the unchanged words around it), each deletion or insertion by whether
  its line is there; this is linear in the stretch;
- else (a reviewer typed, or a decision at a paragraph mark merged two paragraphs) by the
  closest words, trying the operations of one unit together and keeping the best, within the
  stretch only.

So the cost grows with the size of the changes, not with their number times the document's.
"""
from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from adapters.model import Document, Edit, InsertAfter, Replace, SetText, Unit, descendant_ids

from ..budget import check as check_budget

__all__ = ["ViewMatch", "Layout", "layout", "match_view", "MAX_GROUP", "MIXED"]

#: Operations of one unit tried in every combination up to this many (more: one by one), when
#: a stretch has no exact reading.
MAX_GROUP = 8


@dataclass
class _Slot:
    """One unit's place in document order and what decides how it reads there."""

    unit: Unit
    text_ops: list[Replace | SetText] = field(default_factory=list)  # replace / set_text on the unit
    presence: Edit | None = None  # the delete, insert_after or move that decides whether it shows
    shown_if_applied: bool = True  # insert, move-to: shown when applied; delete, move-from: hidden

    @property
    def fixed(self) -> bool:
        return self.presence is None and not self.text_ops

    def ops(self) -> list[Edit]:
        return ([self.presence] if self.presence is not None else []) + list(self.text_ops)

    def lines(self, applied: set[str]) -> list[str]:
        """The slot's lines with the operations in ``applied`` applied."""
        if self.presence is not None and ((self.presence.id in applied) != self.shown_if_applied):
            return []
        if self.unit.meta.get("absent_in") == "accepted":
            return []
        return _text_with(self.unit.text, [e for e in self.text_ops if e.id in applied]).split("\n")

    def line_count(self) -> int:
        return 0 if self.unit.meta.get("absent_in") == "accepted" else self.unit.text.count("\n") + 1


def _text_with(text: str, ops: Sequence[Replace | SetText]) -> str:
    """``text`` with these replace / set_text operations applied (spans into ``text``)."""
    whole = next((e for e in ops if isinstance(e, SetText)), None)
    if whole is not None:
        return whole.text or ""
    out, pos = [], 0
    for e in sorted((e for e in ops if isinstance(e, Replace)), key=lambda e: (e.start, e.end)):
        out.append(text[pos:e.start])
        out.append(e.text or "")
        pos = e.end or 0
    out.append(text[pos:])
    return "".join(out)


#: Marks an operation id in a parse: its deletion and its insertion were decided differently.
MIXED = "~"
#: A replacement of more word changes than this is not read for half decisions (4 ** n readings).
MAX_HALVES = 3


def _half_readings(old: str, new: str) -> list[str]:
    """How a replacement of ``old`` by ``new`` reads when its tracked changes were decided
    differently. The writer tracks it word by word (:func:`adapters.textdiff.word_changes`): each
    changed stretch is a deletion and an insertion a reviewer decides apart, so each reads as its
    new words, its old words, neither (the deletion accepted, the insertion rejected) or both
    (the other way round); every mix but all-new and all-old.

    >>> _half_readings("Connection ID", "Connection Identifier")
    ['Connection ', 'Connection IDIdentifier']
    """
    from itertools import product

    from adapters.textdiff import word_changes

    hunks = word_changes(old, new)
    if not hunks or len(hunks) > MAX_HALVES:
        return []
    out: list[str] = []
    for states in product(range(4), repeat=len(hunks)):
        pieces, pos = [], 0
        for (a, b, ins), state in zip(hunks, states):
            pieces.append(old[pos:a])
            pieces.append((ins, old[a:b], "", old[a:b] + ins)[state])
            pos = b
        pieces.append(old[pos:])
        reading = "".join(pieces)
        if reading not in (old, new) and reading not in out:
            out.append(reading)
    return out


def _parse_text(text: str, ops: Sequence[Replace | SetText], target: str, mixed: bool = False) -> set[str] | None:
    """Which of ``ops`` (text operations on ``text``) make ``text`` read as ``target``: each
    operation's old or new words between the unchanged text around them; ``None`` when no
    choice does. Linear in the text: one pass, at most four positions alive per operation.

    With ``mixed``, a replacement whose tracked deletion and insertion a reviewer decided
    differently reads too: neither its old nor its new words (the deletion accepted, the
    insertion rejected), or both (the other way round); such an id comes back as
    ``MIXED + id``. A reading without mixed decisions wins where both fit.

    >>> from adapters.model import Replace
    >>> t = "a connection ID and a connection ID"
    >>> ops = [Replace("u", 13, 15, "identifier", id="x"), Replace("u", 33, 35, "identifier", id="y")]
    >>> sorted(_parse_text(t, ops, "a connection identifier and a connection ID"))
    ['x']
    >>> _parse_text(t, ops, "something else") is None
    True
    >>> _parse_text(t, ops, "a connection  and a connection identifier") is None
    True
    >>> sorted(_parse_text(t, ops, "a connection  and a connection identifier", mixed=True))
    ['y', '~x']
    """
    whole = next((e for e in ops if isinstance(e, SetText)), None)
    if whole is not None:
        if target == (whole.text or ""):
            return {whole.id or ""}
        return set() if target == text else None
    spans = sorted((e for e in ops if isinstance(e, Replace)), key=lambda e: (e.start, e.end))
    # states: position in target -> the ids applied so far (the first way found: applied first)
    states: dict[int, frozenset[str]] = {0: frozenset()}
    pos = 0
    for e in spans:
        lead = text[pos:e.start]
        nxt: dict[int, frozenset[str]] = {}
        for at, chosen in states.items():
            if not target.startswith(lead, at):
                continue
            at += len(lead)
            old, new = text[e.start:e.end], e.text or ""
            options = [(new, chosen | {e.id or ""}), (old, chosen)]
            if mixed:
                options += [(piece, chosen | {MIXED + (e.id or "")}) for piece in _half_readings(old, new)]
            for piece, pick in options:
                if target.startswith(piece, at):
                    nxt.setdefault(at + len(piece), pick)
        states, pos = nxt, e.end
        if not states:
            return None
    tail = text[pos:]
    for at, chosen in states.items():
        if target[at:] == tail:
            return set(chosen)
    return None


@dataclass
class Layout:
    """The planned document as slots (see the module docstring), built once for both views."""

    slots: list[_Slot]
    ops: list[Edit]  # the operations with an effect, with ids
    silent: set[str]  # ids of operations that change nothing a view shows
    planned: Document  # the original with every operation applied


def layout(original: Document, ops: Sequence[Edit]) -> Layout:
    """The slots of ``original`` and ``ops`` (each with an id) in document order.

    Inserted and moved-to units are placed where :func:`edits.operations.apply_to_document` puts
    them, after the unit that precedes them there.
    """
    from ..edits.operations import _with_inline, apply_to_document, validate_edits

    ops = [e for e in ops if e.id]
    concrete: list[Edit] = []
    silent: set[str] = set()
    for e in ops:
        try:
            got: list[Edit] = validate_edits(original, [e])
        except Exception:  # an operation that does nothing on its own here
            silent.add(e.id or "")
            continue
        if e.op == "rename":
            from dataclasses import replace as dc_replace

            got = [dc_replace(c, id=e.id) for c in got]
        concrete.extend(got)
    planned = apply_to_document(original, [e for e in ops if e.id not in silent])
    text_ops: dict[str, list[Replace | SetText]] = {}
    deleted: dict[str, Edit] = {}
    moved: dict[str, Edit] = {}
    inserts: list[InsertAfter] = []
    for e in concrete:
        if isinstance(e, (Replace, SetText)):
            text_ops.setdefault(e.unit, []).append(e)
        elif e.op == "delete":
            deleted[e.unit or ""] = e
        elif isinstance(e, InsertAfter):
            inserts.append(e)
        elif e.op == "move":
            for uid in _with_inline(original.units, descendant_ids(original.units, e.unit or "")):
                moved.setdefault(uid, e)
    by_id = {u.id: u for u in original.units}
    # the planned order: each unit that only the plan has (inserted, moved there) goes after the
    # last unit before it that stays in place
    after: dict[str | None, list[_Slot]] = {}
    last: str | None = None
    for u in planned.units:
        if u.meta.get("edit") == "inserted":
            op = next((e for e in inserts if (e.text or "") == u.text and (e.kind or "paragraph") == u.kind), None)
            if op is None:
                continue
            inserts.remove(op)
            after.setdefault(last, []).append(_Slot(u, presence=op, shown_if_applied=True))
        elif u.id in moved:
            after.setdefault(last, []).append(_Slot(by_id[u.id], text_ops.get(u.id, []), moved[u.id], True))
        elif u.id in by_id:
            last = u.id
    slots: list[_Slot] = list(after.get(None, []))
    for u in original.units:
        if u.id in deleted:
            slots.append(_Slot(u, text_ops.get(u.id, []), deleted[u.id], False))
        elif u.id in moved:
            slots.append(_Slot(u, text_ops.get(u.id, []), moved[u.id], False))
        else:
            slots.append(_Slot(u, text_ops.get(u.id, [])))
        slots.extend(after.get(u.id, []))
    with_effect = {e.id for s in slots for e in s.ops()}
    silent |= {e.id or "" for e in ops if e.id not in with_effect}
    return Layout(slots, [e for e in ops if e.id in with_effect], silent, planned)


@dataclass
class ViewMatch:
    """The operations a view shows (``applied``), and whether they reproduce it line for line;
    ``mixed``: the replacements whose deletion and insertion the reviewer decided differently
    (in neither ``applied`` nor left out: their place shows neither the old nor the new words,
    or both)."""

    applied: set[str]
    exact: bool
    mixed: set[str] = field(default_factory=set)


#: A stretch between two anchors is aligned by difflib only up to this many line pairs
#: (``len(a) * len(b)``); a larger one without a line unique to both sides matches nothing.
DIFF_PAIRS = 250_000


def _blocks(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int]]:
    """Matching blocks ``(i, j, n)`` of ``a`` and ``b`` in order, as difflib's, found as patience
    diff finds them: the common head and tail, then the lines that occur once on each side and
    keep their order (a longest increasing run), then the same inside each gap between two.

    difflib alone is quadratic in the lines that repeat (empty paragraphs, a repeated caption):
    8,000 lines, half of them alike, took 3.3 s in one call with no budget read inside. Here the
    budget is read per gap, and difflib only finishes gaps of at most :data:`DIFF_PAIRS` pairs.

    >>> _blocks("a b c x d".split(), "a c y d".split())
    [(0, 0, 1), (2, 1, 1), (4, 3, 1)]
    """
    found: list[tuple[int, int, int]] = []
    todo = [(0, len(a), 0, len(b))]
    while todo:
        check_budget()
        alo, ahi, blo, bhi = todo.pop()
        head = 0
        while alo + head < ahi and blo + head < bhi and a[alo + head] == b[blo + head]:
            head += 1
        if head:
            found.append((alo, blo, head))
            alo, blo = alo + head, blo + head
        tail = 0
        while ahi - tail > alo and bhi - tail > blo and a[ahi - 1 - tail] == b[bhi - 1 - tail]:
            tail += 1
        if tail:
            found.append((ahi - tail, bhi - tail, tail))
            ahi, bhi = ahi - tail, bhi - tail
        if alo == ahi or blo == bhi:
            continue
        anchors = _unique_run(a, alo, ahi, b, blo, bhi)
        if anchors:
            prev_a, prev_b = alo, blo
            for i, j in anchors:
                found.append((i, j, 1))
                todo.append((prev_a, i, prev_b, j))
                prev_a, prev_b = i + 1, j + 1
            todo.append((prev_a, ahi, prev_b, bhi))
        elif (ahi - alo) * (bhi - blo) <= DIFF_PAIRS:
            sm = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
            found.extend((alo + i, blo + j, n) for i, j, n in sm.get_matching_blocks() if n)
    found.sort()
    merged: list[tuple[int, int, int]] = []
    for i, j, n in found:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + n)
        else:
            merged.append((i, j, n))
    return merged


def _unique_run(a: Sequence[str], alo: int, ahi: int, b: Sequence[str], blo: int, bhi: int) -> list[tuple[int, int]]:
    """The lines found once in ``a[alo:ahi]`` and once in ``b[blo:bhi]``, as ``(i, j)`` pairs, the
    longest run of them whose order agrees on both sides."""
    count_a = Counter(a[alo:ahi])
    count_b = Counter(b[blo:bhi])
    where_b = {b[j]: j for j in range(blo, bhi) if count_b[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi) if count_a[a[i]] == 1 and a[i] in where_b]
    if not pairs:
        return []
    # longest increasing run of j (patience sorting): tails[k] ends the best run of length k + 1
    tails: list[int] = []
    back: list[int] = [-1] * len(pairs)
    for k, (_i, j) in enumerate(pairs):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if pairs[tails[mid]][1] < j:
                lo = mid + 1
            else:
                hi = mid
        back[k] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(k)
        else:
            tails[lo] = k
    run = []
    k = tails[-1]
    while k != -1:
        run.append(pairs[k])
        k = back[k]
    return run[::-1]


def _anchors(slots: list[_Slot], target: list[str]) -> list[tuple[int, int, int]]:
    """``(slot index, first target line, end)`` of the untouched units found in the view, in order."""
    lines: list[str] = []
    owner: list[int] = []
    for i, s in enumerate(slots):
        if s.fixed and s.line_count():
            for line in s.lines(set()):
                lines.append(line)
                owner.append(i)
    at: dict[int, list[int]] = {}
    for a, b, n in _blocks(lines, target):
        for k in range(n):
            at.setdefault(owner[a + k], []).append(b + k)
    out = []
    for i, where in sorted(at.items()):
        if len(where) == slots[i].line_count() and where == list(range(where[0], where[0] + len(where))):
            out.append((i, where[0], where[-1] + 1))
    return out


def _exact(slots: list[_Slot], target: list[str]) -> set[str] | None:
    """The applied ids that make ``slots`` read exactly as ``target``, or ``None``."""
    # states after each slot: target position -> (previous position, ids applied by this slot)
    states: dict[int, None] = {0: None}
    trail: list[dict[int, tuple[int, frozenset[str]]]] = []
    for s in slots:
        check_budget()  # per slot: a unit's text parsed at every position still alive
        nxt: dict[int, tuple[int, frozenset[str]]] = {}
        for j in states:
            for applied in ((True, False) if s.presence is not None else (False,)):  # applied first
                shown = s.presence is None or applied == s.shown_if_applied
                base = frozenset({s.presence.id or ""}) if s.presence is not None and applied else frozenset()
                if not shown or not s.line_count():
                    nxt.setdefault(j, (j, base))
                    continue
                n = s.line_count()
                if j + n > len(target):
                    continue
                if s.text_ops:
                    got = _parse_text(s.unit.text, s.text_ops, "\n".join(target[j:j + n]), mixed=True)
                    if got is not None:
                        nxt.setdefault(j + n, (j, base | got))
                elif target[j:j + n] == s.unit.text.split("\n"):
                    nxt.setdefault(j + n, (j, base))
        if not nxt:
            return None
        trail.append(nxt)
        states = dict.fromkeys(nxt)
    if len(target) not in states:
        return None
    picked: set[str] = set()
    j = len(target)
    for step in reversed(trail):
        j, ids = step[j]
        picked |= ids
    return picked


def _matched(a: list[str], b: list[str]) -> int:
    """How many items of ``a`` and ``b`` line up (difflib), the common head and tail counted
    first so that only the stretch that differs is compared.

    >>> _matched("a b c d".split(), "a x c d".split())
    3
    """
    n = min(len(a), len(b))
    head = 0
    while head < n and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    mid_a, mid_b = a[head:len(a) - tail], b[head:len(b) - tail]
    if not mid_a or not mid_b:
        return head + tail
    sm = difflib.SequenceMatcher(None, mid_a, mid_b, autojunk=False)
    return head + tail + sum(m.size for m in sm.get_matching_blocks())


def _closest(slots: list[_Slot], target: list[str]) -> set[str]:
    """The applied ids whose reading of ``slots`` is closest to ``target``: words first (a
    paragraph merged into its neighbour still shows its words), then lines; the operations of
    one unit tried together (up to :data:`MAX_GROUP`), every other decision held, three rounds."""
    target_words = " ".join(target).split()

    def score(applied: set[str]) -> tuple[int, int]:
        lines = [line for s in slots for line in s.lines(applied)]
        have = " ".join(lines).split()
        return (2 * _matched(have, target_words) - len(have) - len(target_words),
                2 * _matched(lines, target) - len(lines) - len(target))

    groups: list[list[str]] = []
    for s in slots:
        ids = [e.id or "" for e in s.ops()]
        if not ids:
            continue
        groups.extend([ids] if len(ids) <= MAX_GROUP else [[i] for i in ids])
    chosen = {i for g in groups for i in g}
    best = score(chosen)
    for _round in range(3):
        changed = False
        for ids in groups:
            rest = chosen - set(ids)
            options = []
            for mask in range(1 << len(ids)):
                check_budget()  # each score aligns the whole stretch (difflib): the review's costly unit
                pick = rest | {i for k, i in enumerate(ids) if not mask >> k & 1}
                options.append((score(pick), -mask.bit_count(), pick))  # ties: keep more operations
            top = max(options, key=lambda o: (o[0], o[1]))
            if top[2] != chosen:
                chosen, best, changed = top[2], top[0], True
        if not changed:
            break
    return chosen


#: A slot's line counts as found (a cut may fall beside it) when its words and the line's share
#: this much (Dice over word counts) in one of its two readings, every operation applied or none.
FOUND = 0.8
#: Target positions kept alive per slot while the stretch is lined up for cuts.
BEAM = 48


def _dice(a: Counter[str], b: Counter[str]) -> float:
    total = sum(a.values()) + sum(b.values())
    return 2 * sum((a & b).values()) / total if total else 1.0


def _cuts(slots: list[_Slot], target: list[str]) -> list[tuple[list[_Slot], list[str]]]:
    """A stretch with no exact reading cut between two slots that each plainly show in their own
    line of the view (:data:`FOUND`), one right after the other.

    A reviewer who typed in every paragraph leaves no untouched unit to cut at, and the closest
    reading of one long stretch aligns all its words once per tried decision: quadratic in the
    stretch, per try. Lined up slot by slot (each slot takes its lines, or none where its presence
    may hide it, or the view has a line of the reviewer's first), each piece is decided alone; the
    uncertain places (merged paragraphs, rewritten ones) stay joined with their neighbours.
    """
    if len(slots) < 2:
        return [(slots, target)]
    seen = [Counter(line.split()) for line in target]
    every = {e.id or "" for s in slots for e in s.ops()}
    readings = [[Counter(" ".join(s.lines(every)).split()), Counter(" ".join(s.lines(set())).split())]
                for s in slots]
    # position in target -> (score, previous position, where this slot's lines start, found)
    states: dict[int, tuple[float, int, int, bool]] = {0: (0.0, -1, 0, False)}
    trail: list[dict[int, tuple[float, int, int, bool]]] = []
    for i, s in enumerate(slots):
        check_budget()
        n = s.line_count()
        nxt: dict[int, tuple[float, int, int, bool]] = {}

        def offer(at: int, entry: tuple[float, int, int, bool]) -> None:
            if at not in nxt or entry[0] > nxt[at][0]:
                nxt[at] = entry

        for j, (score, *_rest) in states.items():
            if s.presence is not None or not n:
                offer(j, (score, j, j, False))
            for skip in (0, 1):  # the view may hold one line the reviewer wrote first
                at = j + skip
                if not n or at + n > len(target):
                    continue
                got: Counter[str] = sum((seen[k] for k in range(at, at + n)), Counter())
                sim = max(_dice(r, got) for r in readings[i])
                offer(at + n, (score + sim - 0.5 * skip, j, at, sim >= FOUND and n > 0))
        if not nxt:
            return [(slots, target)]
        best = sorted(nxt.items(), key=lambda kv: -kv[1][0])[:BEAM]
        states = dict(best)
        trail.append(nxt)
    end = max(states, key=lambda k: (states[k][0], k == len(target)))
    if end != len(target):
        return [(slots, target)]
    placed: list[tuple[int, int, bool]] = []  # per slot: its lines' start and end, found
    j = end
    for step in reversed(trail):
        _score, prev, start, found = step[j]
        placed.append((start, j, found))
        j = prev
    placed.reverse()
    last: dict[str, int] = {}  # an operation with two places (a move) is decided in one piece
    for i, s in enumerate(slots):
        for e in s.ops():
            last[e.id or ""] = i
    reach = 0  # the last slot an operation seen so far still acts in
    pieces: list[tuple[list[_Slot], list[str]]] = []
    first_slot, first_line = 0, 0
    for i in range(len(slots) - 1):
        reach = max([reach] + [last[e.id or ""] for e in slots[i].ops()])
        (_a, end_i, found_i), (start_n, _b, found_n) = placed[i], placed[i + 1]
        if found_i and found_n and end_i == start_n and reach <= i:
            pieces.append((slots[first_slot:i + 1], target[first_line:end_i]))
            first_slot, first_line = i + 1, end_i
    pieces.append((slots[first_slot:], target[first_line:]))
    return pieces


def _stretches(plan: Layout, target: list[str]) -> list[tuple[list[_Slot], list[str]]]:
    """The view cut at the untouched units found in it: ``(slots, target lines)`` per stretch,
    stretches that share an operation (a move's two places) joined."""
    slots = plan.slots
    anchors = _anchors(slots, target)
    cuts: list[tuple[int, int, int, int]] = []  # slot range, target range
    prev_slot, prev_line = -1, 0
    for i, start, end in anchors:
        cuts.append((prev_slot + 1, i, prev_line, start))
        prev_slot, prev_line = i, end
    cuts.append((prev_slot + 1, len(slots), prev_line, len(target)))
    pieces = [(slots[a:b], target[c:d]) for a, b, c, d in cuts if b > a or d > c]
    # join pieces that share an operation
    owner: dict[str, int] = {}
    parent = list(range(len(pieces)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for k, (ss, _t) in enumerate(pieces):
        for s in ss:
            for e in s.ops():
                if e.id in owner:
                    parent[find(k)] = find(owner[e.id or ""])
                else:
                    owner[e.id or ""] = k
    joined: dict[int, tuple[list[_Slot], list[str]]] = {}
    for k, (ss, t) in enumerate(pieces):
        r = find(k)
        if r in joined:
            joined[r][0].extend(ss)
            joined[r][1].extend(t)
        else:
            joined[r] = (list(ss), list(t))
    return list(joined.values())


def match_view(plan: Layout, target: Iterable[str]) -> ViewMatch:
    """The operations of ``plan`` that the view ``target`` (lines of every unit, notes included,
    in order) shows applied, and whether they reproduce it exactly. Operations that change
    nothing visible count as applied."""
    target = list(target)
    applied = set(plan.silent)
    mixed: set[str] = set()
    exact = True
    for slots, lines in _stretches(plan, target):
        check_budget()
        if not any(s.ops() for s in slots):
            exact = exact and lines == [line for s in slots for line in s.lines(set())]
            continue
        got = _exact(slots, lines)
        if got is None:
            exact = False
            got = set()
            for piece, piece_lines in _cuts(slots, lines):
                found = _exact(piece, piece_lines)
                got |= found if found is not None else _closest(piece, piece_lines)
        mixed |= {i[len(MIXED):] for i in got if i.startswith(MIXED)}
        applied |= {i for i in got if not i.startswith(MIXED)}
    return ViewMatch(applied, exact, mixed)
