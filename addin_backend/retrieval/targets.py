"""Target identification: which units an edit is about.

In order of trust: explicit unit ids; the text the user selected in Word (fuzzy, across
paragraph boundaries); labels the instruction names ("Theorem 2 in Section 3.2"); else the
units most similar in meaning to the instruction. Candidates come back with their scores so a
client can show them and let the user pick.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:  # numpy is imported when matching by meaning runs (a selection needs none)
    import numpy as np

from adapters import words as _words
from adapters.model import Document, Unit, ancestor_ids
from adapters.text import loose

from ..errors import UnknownUnitError

__all__ = ["Candidate", "Targets", "match_selection", "match_labels", "match_semantic", "identify_targets"]

_BREAKS = re.compile(r"[\r\n\v\u2028\u2029\f]+")


@dataclass
class Candidate:
    id: str
    score: float
    how: str  # id / selection / label / semantic
    evidence: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "score": round(self.score, 4), "how": self.how, "evidence": self.evidence}


@dataclass
class Targets:
    ids: list[str]
    how: str
    candidates: list[Candidate]


def _norm(text: str) -> str:
    """A selection and a unit compare as typed and document text do (:func:`adapters.text.loose`):
    a selection may come from a copy whose quotes, dashes or spaces an editor changed."""
    return loose(text)


def _searchable(doc: Document) -> list[tuple[Unit, str]]:
    return [(u, _norm(u.text)) for u in doc.units if u.text.strip()]


def match_selection(doc: Document, selection: str, *, min_score: float = 0.6) -> list[Candidate]:
    """Units covered by a selection, in document order.

    Each selected paragraph is looked up exactly first (a selection may start or end inside a
    paragraph, so a substring counts), then fuzzily (the document may have changed a little
    since the selection was made). A paragraph that several units contain equally goes to the
    one closest to the previous match, which keeps a multi-paragraph selection contiguous.
    """
    pieces = [_norm(p) for p in _BREAKS.split(selection) if p.strip()]
    if not pieces:
        return []
    units = _searchable(doc)
    position = {u.id: i for i, (u, _) in enumerate(units)}
    found: list[Candidate] = []
    last = -1
    for piece in pieces:
        exact = [u for u, text in units if piece in text]
        cand: Candidate | None
        if exact:
            best = min(exact, key=lambda u: (position[u.id] < last, abs(position[u.id] - last)))
            score = len(piece) / max(len(_norm(best.text)), 1)
            cand = Candidate(best.id, min(1.0, 0.9 + 0.1 * score), "selection", piece[:80])
        else:
            cand = _fuzzy(units, piece, min_score)
            if cand is None:
                continue
        if all(c.id != cand.id for c in found):
            found.append(cand)
        last = position[cand.id]
    found.sort(key=lambda c: position[c.id])
    return found


def _fuzzy(units: list[tuple[Unit, str]], piece: str, min_score: float) -> Candidate | None:
    words = set(_words.words(piece))
    if not words:
        return None
    shortlist = sorted(
        units,
        key=lambda ut: -len(words & set(_words.words(ut[1]))) / len(words),
    )[:12]
    best: Candidate | None = None
    for unit, text in shortlist:
        sm = SequenceMatcher(None, piece, text, autojunk=False)
        blocks = [b for b in sm.get_matching_blocks() if b.size]
        if not blocks:
            continue
        match_chars = sum(b.size for b in blocks)
        span = blocks[-1].b + blocks[-1].size - blocks[0].b  # the stretch of the unit it aligns with
        score = match_chars / max(len(piece), span, 1)
        if score >= min_score and (best is None or score > best.score):
            best = Candidate(unit.id, 0.9 * score, "selection", piece[:80])
    return best


def match_labels(doc: Document, instruction: str) -> list[Candidate]:
    """Units whose label the instruction names; "X in Section Y" keeps the X inside Section Y."""
    from ..graph.label_index import build_label_index
    from ..graph.mentions import find_mentions

    index = build_label_index(doc.units)
    hits: list[tuple[str, str]] = []
    for m in find_mentions(instruction):
        for item in m.items:
            target = index.resolve(m.family, item.number)
            if target and all(t != target for t, _ in hits):
                hits.append((target, m.text))
    above = {t: ancestor_ids(doc, t) for t, _ in hits}
    # "Theorem 2 in Section 3.2": drop a mention that merely contains another one.
    return [
        Candidate(t, 1.0, "label", span)
        for t, span in hits
        if not any(t in up for other, up in above.items() if other != t)
    ]


def match_semantic(
    doc: Document, instruction: str, embed: Callable[[Sequence[str]], np.ndarray], k: int = 5
) -> list[Candidate]:
    """The ``k`` units closest in meaning to the instruction (cosine of MiniLM embeddings)."""
    units = [u for u in doc.units if u.text.strip() and u.kind != "section"]
    if not units:
        return []
    import numpy as np

    matrix = embed([u.text for u in units])
    q = embed([instruction])[0]
    scores = matrix @ q
    top = np.argsort(-scores, kind="stable")[:k]
    return [Candidate(units[i].id, float(scores[i]), "semantic") for i in top]


def identify_targets(
    doc: Document,
    *,
    ids: Sequence[str] | None = None,
    selection: str | None = None,
    instruction: str | None = None,
    embed: Callable[[Sequence[str]], np.ndarray] | None = None,
    G=None,
) -> Targets:
    """The edit's target units, by the first method that finds any.

    :raise UnknownUnitError: an id that is not in the document, or nothing matched at all.
    """
    if ids:
        missing = [i for i in ids if doc.get(i) is None]
        if missing:
            raise UnknownUnitError(f"no unit {missing[0]!r} in this document", unit=missing[0])
        return Targets(list(ids), "id", [Candidate(i, 1.0, "id") for i in ids])
    if selection and selection.strip():
        cands = match_selection(doc, selection)
        if cands:
            return Targets([c.id for c in cands], "selection", cands)
        raise UnknownUnitError("the selected text was not found in the document", selection=selection[:80])
    if instruction:
        cands = match_labels(doc, instruction)
        if cands:
            return Targets([c.id for c in cands], "label", cands)
        from .terms import terms_in

        hits = terms_in(doc, G, instruction)
        if hits:
            cands = [Candidate(h.unit, 1.0, "term", h.span) for h in hits]
            return Targets(list(dict.fromkeys(c.id for c in cands)), "term", cands)
        if embed is None:
            from ..language.nlp import embed_texts

            embed = embed_texts
        cands = match_semantic(doc, instruction, embed)
        if cands:
            return Targets([cands[0].id], "semantic", cands)
    raise UnknownUnitError("no target: give a unit id, a selection or an instruction that names a unit")
