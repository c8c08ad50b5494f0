"""The editors' real changes between two snapshots, as LEDGER operations, and what else they changed.

The units of the older snapshot and the newer one are diffed (kind and text, tables of contents
left out: Word regenerates them). A changed body unit is an editor's change: ``set_text`` where
an old unit pairs with a new one, ``delete`` and ``insert_after`` where one has no partner. What
the editors changed besides is what their change made necessary: a table whose changed words
share an identifier or a number with the body changes (a conformance table's row of a changed
statement) and the text of headers and footers (a date). Tables changed otherwise (a revision
history row) are the editors' own and are left out; so is a whole table inserted or deleted, and an
empty paragraph inserted (no operation writes one).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from .identifiers import pair_paragraphs

__all__ = ["Replay", "replay_operations", "changed_tokens", "consequence_score"]

#: Headers and footers restate the document (its date, its title): what changes there is a consequence.
_MARGINS = ("header", "footer")
_TOKEN = re.compile(r"\[[^\]\s]{3,}\]|\b\w*\d[\w.\-]*\w\b")


@dataclass
class Replay:
    """Operations on the older snapshot's units that write the editors' body changes; the
    consequences to look for (``tables``: changed tables by their unit ids in both snapshots;
    ``margins``: LibreOffice reads headers and footers, the judge compares them); and what was
    left out with why."""

    operations: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    written: list[dict[str, Any]] = field(default_factory=list)  # per operation: the text the newer snapshot has


def _norm(text: str) -> str:
    return " ".join(text.split())


def changed_tokens(old: str, new: str) -> set[str]:
    """Identifiers and numbers in the words a change removed or added.

    >>> sorted(changed_tokens("MUST do it [MQTT-SN-3.17-2] by 08 August 2025", "MUST do it [MQTT-SN-3.17-3] by 09 October 2025"))
    ['08', '09', '[MQTT-SN-3.17-2]', '[MQTT-SN-3.17-3]']
    """
    a, b = old.split(), new.split()
    out: set[str] = set()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            for w in a[i1:i2] + b[j1:j2]:
                out.update(m.group() for m in _TOKEN.finditer(w))
    return out


def replay_operations(a: Any, b: Any, skip_a: set[str] = frozenset(), skip_b: set[str] = frozenset()) -> Replay:
    """The operations on ``a`` (a Document) that write ``b``'s body changes; ``skip_a``/``skip_b``
    are unit ids to leave out (a table of contents' lines, where a reader keeps them as units)."""
    ua = [u for u in a.units if u.id not in skip_a and u.kind not in _MARGINS]
    ub = [u for u in b.units if u.id not in skip_b and u.kind not in _MARGINS]
    ka = [(u.kind, _norm(u.text)) for u in ua]
    kb = [(u.kind, _norm(u.text)) for u in ub]
    out = Replay()
    anchor: str | None = None
    body_tokens: set[str] = set()
    table_changes: list[tuple[Any, Any]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        if op == "equal":
            anchor = ua[i2 - 1].id
            continue
        olds, news = ua[i1:i2], ub[j1:j2]
        pairs = dict(pair_paragraphs([u.text for u in olds], [u.text for u in news])) if olds and news else {}
        partner = {j: i for i, j in pairs.items() if olds[i].kind == news[j].kind}
        paired = set(partner.values())
        gone = iter([i for i in range(len(olds)) if i not in paired] + [len(olds)])
        next_gone = next(gone)

        def delete_before(limit: int) -> None:
            nonlocal next_gone, body_tokens
            while next_gone < limit:
                u = olds[next_gone]
                if u.kind == "table":
                    out.left_out.append(f"table deleted: {u.text[:50]!r}")
                else:
                    out.operations.append({"op": "delete", "unit": u.id})
                    out.written.append({"op": "delete", "old": u.text})
                    body_tokens |= changed_tokens(u.text, "")
                next_gone = next(gone)

        for j, nu in enumerate(news):  # in document order: deletions where they fall, then this unit
            if j in partner:
                delete_before(partner[j])
                ou = olds[partner[j]]
                anchor = ou.id
                if ou.kind == "table":
                    table_changes.append((ou, nu))
                    continue
                out.operations.append({"op": "set_text", "unit": ou.id, "text": nu.text})
                out.written.append({"op": "set_text", "old": ou.text, "new": nu.text})
                body_tokens |= changed_tokens(ou.text, nu.text)
            elif nu.kind == "table":
                out.left_out.append(f"table inserted: {nu.text[:50]!r}")
            elif not nu.text.strip():
                out.left_out.append("empty paragraph inserted")  # layout: no operation writes one
            elif anchor is None:
                out.left_out.append(f"inserted before the first unit: {nu.text[:50]!r}")
            else:
                op_ = {"op": "insert_after", "unit": anchor, "text": nu.text, "kind": nu.kind}
                if nu.style:
                    op_["style"] = nu.style
                out.operations.append(op_)
                out.written.append({"op": "insert_after", "new": nu.text})
                body_tokens |= changed_tokens("", nu.text)
        delete_before(len(olds))
    for ou, nu in table_changes:
        shared = changed_tokens(ou.text, nu.text) & body_tokens
        if shared:
            out.tables.append({"old": ou.id, "new": nu.id, "shared": sorted(shared)[:6]})
        else:
            out.left_out.append(f"table changed on its own (no identifier shared with the body's changes): {ou.text[:40]!r}")
    return out


def consequence_score(before: Sequence[str], after: Sequence[str], got: Sequence[str]) -> tuple[int, int]:
    """(reproduced, expected) for one changed table: each paragraph the editors removed must be
    gone from ``got`` and each they added must be in it (paragraph texts, as LibreOffice shows them).

    >>> consequence_score(["a", "b", "c"], ["a", "c", "d"], ["a", "c"])
    (1, 2)
    """
    from collections import Counter

    b, a, g = Counter(map(_norm, before)), Counter(map(_norm, after)), Counter(map(_norm, got))
    removed, added = b - a, a - b
    ok = sum(min(n, max(0, b[t] - g[t])) for t, n in removed.items()) + sum(min(n, g[t]) for t, n in added.items())
    return ok, sum(removed.values()) + sum(added.values())
