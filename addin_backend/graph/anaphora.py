"""Anaphora across units ("this approach", "these results", "as described above"): DEPENDS edges.

Fast regexes find candidate phrases; spaCy (tagger and lemmatizer only) reads just a small
window around each candidate to tell a demonstrative noun phrase from a pronoun and to get the
head noun's lemma. The antecedent is the nearest preceding unit (within a window) that uses the
head noun other than anaphorically; failing that, a phrase in a unit's first sentence falls back
to the previous unit. Anaphors found in a text are cached per text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from adapters.model import Document, Unit

from ..nlp import FACTS, noun_lemma
from .text import forms_pattern, noun_forms, sentences, snippet, word_set

__all__ = [
    "WINDOW",
    "CONTENT_KINDS",
    "Anaphor",
    "Antecedent",
    "find_anaphors",
    "anaphors_of",
    "content_units",
    "resolve_anaphora",
]

#: How many preceding content units are searched for an antecedent.
WINDOW = 8
#: Units that can hold an anaphor or an antecedent (headings, titles and notes cannot).
CONTENT_KINDS = ("paragraph", "list_item", "caption", "figure", "table", "equation")


@dataclass(frozen=True)
class Anaphor:
    """A phrase pointing back: ``kind`` is ``np`` ("these results"), ``pronoun`` ("It ...") or
    ``phrase`` ("as described above"); ``head`` is the head noun's lemma when there is one;
    ``first`` says whether it sits in the unit's first sentence."""

    start: int
    end: int
    text: str
    kind: str
    head: str | None
    first: bool


@dataclass(frozen=True)
class Antecedent:
    """A resolved anaphor: ``source`` depends on ``target``."""

    source: str
    target: str
    anaphor: Anaphor
    evidence: str
    score: float


_DET = re.compile(
    r"(?<![\w-])(?P<det>this|these|those|such(?:\s+an?)?|the\s+(?:proposed|above|aforementioned|"
    r"above-mentioned|preceding|previous|foregoing|said|same|resulting|latter|former|described|"
    r"presented|introduced|suggested|outlined))(?=\s+[A-Za-z])",
    re.I,
)
_INITIAL = re.compile(r"^[\"'\u201c(]*(?P<p>It|They|This|These|That|Those|Such|The\s+latter|The\s+former)\b")
_EXPLETIVE = re.compile(
    r"^It\s+(?:is|was|has\s+been|will\s+be|would\s+be|can\s+be|could\s+be|may\s+be|might\s+be|"
    r"should\s+be|must\s+be|seems|seemed|appears|appeared|follows|remains|turns\s+out)\b"
    r"(?:\s+[\w-]+){0,3}?\s+(?:that|to|whether|if|how|why|what)\b"
)
_PHRASE = re.compile(
    r"\b(?:as\s+)?(?:described|discussed|explained|mentioned|noted|shown|stated|outlined|presented|"
    r"illustrated|specified|defined|introduced|seen|given|detailed|set\s+out|set\s+forth)\s+"
    r"(?:above|earlier|before|previously|in\s+the\s+(?:previous|preceding)\s+(?:section|paragraph|subsection|clause))\b"
    r"|\b(?:see\s+above|aforementioned|previously\s+(?:described|discussed|mentioned|defined|introduced))\b",
    re.I,
)

#: Heads that point at the document itself or at an idiom, not at an earlier unit.
_SELF_HEADS = frozenset(
    """section subsection chapter paper work document article agreement standard specification
    report study clause subclause annex appendix part thesis contract policy guide manual book
    letter note memo proposal deed schedule exhibit regulation directive act code case way time
    point end purpose reason regard respect context sense extent matter year month week day
    moment date page""".split()
)
#: Heads naming a kind of unit: "this table" is the nearest table before the anaphor.
_KIND_HEADS = {"figure": ("figure",), "table": ("table",), "equation": ("equation",), "formula": ("equation",)}
#: Anaphors after a unit's first sentence usually point inside the unit: search less far back.
LATER_WINDOW = 3
_PHRASE_HEAD = re.compile(r"(?i:\b(?:the|this|these|those|that)\s+)(?P<noun>[A-Za-z][\w\-]*)\s+$")
_OF_HEADS = frozenset("type kind sort form class set number amount use combination version variant family group".split())
_NP_POS = {"ADJ", "NOUN", "PROPN", "NUM"}


_NEXT_WORD = re.compile(r"\s+([A-Za-z][\w\-']*)")
#: Words that cannot start the noun phrase of a demonstrative: "This is", "These can", "this of".
_NOT_NP = frozenset(
    """is are was were be been being has have had can could will would may might must should shall
    does do did also not only means allows enables implies requires leads gives makes shows ensures
    includes indicates suggests provides yields reduces increases improves holds applies follows
    in of to for with on by at from into as and or but that which where when if because so""".split()
)


def _peek(sent: str, m: re.Match[str], group: str = "det") -> str | None:
    """Decide a determiner candidate from the next word where the text alone settles it:
    ``None`` (no anaphor: "this section", "such as"), ``"bare"`` (a pronoun use: "This is"),
    else ``"det"`` (the tagger must read it)."""
    nxt = _NEXT_WORD.match(sent, m.end(group))
    if not nxt:
        return None
    w = nxt.group(1).lower()
    if w in _SELF_HEADS or (m.group(group).lower().startswith("such") and w in ("as", "that")):
        return None
    if w in _NOT_NP:
        return "bare"
    return "det"


def _candidates(text: str) -> list[tuple[int, int, str, int]]:
    """``(start, end, kind, sentence index)`` of regex candidates, before any tagging."""
    out: list[tuple[int, int, str, int]] = []
    for si, (a, b) in enumerate(sentences(text)):
        sent = text[a:b]
        m = _INITIAL.match(sent)
        if m:
            p = m.group("p")
            if p in ("It", "They") and si == 0:
                if not (p == "It" and _EXPLETIVE.match(sent[m.start("p") :])):
                    out.append((a + m.start("p"), a + m.end("p"), "pronoun", si))
            elif p == "That":
                kind = _peek(sent, m, "p")
                if kind:
                    out.append((a + m.start("p"), a + m.end("p"), kind, si))
        for d in _DET.finditer(sent):
            kind = _peek(sent, d)
            if kind:
                out.append((a + d.start("det"), a + d.end("det"), kind, si))
        for ph in _PHRASE.finditer(sent):
            out.append((a + ph.start(), a + ph.end(), "phrase", si))
    return out


_WORDS_AFTER = re.compile(r"(?:\W*[\w'\-]+){1,6}")


def _window(text: str, start: int, end: int) -> tuple[int, int]:
    """The candidate, one word before it and up to six after: enough context for the tagger."""
    before = re.search(r"[\w'\-]+\W*$", text[max(0, start - 30) : start])
    lo = start - len(before.group(0)) if before else start
    m = _WORDS_AFTER.match(text, end)
    hi = m.end() if m else end
    return lo, hi


def _head_after(tokens: list[tuple[str, int, str, str]], i: int) -> tuple[str | None, int]:
    """The head noun lemma of the noun phrase starting at token ``i``, and the token after it.

    A phrase holding a self-reference ("this Agreement", "this section") has no head.
    """
    head = None
    head_i = i
    j = i
    seen_noun = False
    while j < len(tokens) and j < i + 5:
        text, _, pos, tag = tokens[j]
        lemma = noun_lemma(text) if pos in ("NOUN", "PROPN") else text.lower()
        if pos in _NP_POS or (not seen_noun and tag in ("VBN", "VBG") and j + 1 < len(tokens) and tokens[j + 1][2] in _NP_POS):
            if pos in ("NOUN", "PROPN"):
                if lemma in _SELF_HEADS or text.lower() in _SELF_HEADS:
                    return None, -1
                head, head_i, seen_noun = lemma, j, True
            j += 1
            continue
        if text == "-" and seen_noun is False and j + 1 < len(tokens):
            j += 1
            continue
        break
    if head in _OF_HEADS and head_i + 2 < len(tokens) and tokens[head_i + 1][0].lower() == "of":
        sub, nxt = _head_after(tokens, head_i + 2)
        if sub:
            return sub, nxt
    return head, (head_i + 1 if head else i)


def _sentence_initial(text: str, start: int) -> bool:
    head = text[max(0, start - 8) : start].rstrip()
    return not text[:start].strip() or bool(re.search(r"[.!?:][\"'\u201d)]*$", head))


def _build(text: str, cands: list[tuple[int, int, str, int]], tagged: dict[tuple[int, int], list]) -> tuple[Anaphor, ...]:
    out: list[Anaphor] = []
    for start, end, kind, si in cands:
        first = si == 0
        if kind == "pronoun":
            out.append(Anaphor(start, end, text[start:end], "pronoun", None, first))
            continue
        if kind == "bare":
            if first and _sentence_initial(text, start):
                out.append(Anaphor(start, end, text[start:end], "pronoun", None, first))
            continue
        if kind == "phrase":
            m = _PHRASE_HEAD.search(text, max(0, start - 40), start)
            head = noun_lemma(m.group("noun")) if m and m.group("noun").lower() not in _SELF_HEADS else None
            s2 = m.start() if head else start
            out.append(Anaphor(s2, end, text[s2:end], "phrase", head, first))
            continue
        toks = tagged.get((start, end), [])
        idx = next((k for k, t in enumerate(toks) if t[1] >= end), None)
        if idx is None:
            continue
        head, after = _head_after(toks, idx)
        if after < 0:
            continue  # "this section", "this Agreement": the document itself
        sentence_initial = _sentence_initial(text, start)
        if head is None:
            if first and sentence_initial:
                out.append(Anaphor(start, end, text[start:end], "pronoun", None, first))
            continue
        if text[end : end + 4].lower().strip() == "as" or head in _SELF_HEADS:
            continue
        end_off = toks[after - 1][1] + len(toks[after - 1][0])
        out.append(Anaphor(start, end_off, text[start:end_off], "np", head, first))
    out.sort(key=lambda a: a.start)
    dedup: list[Anaphor] = []
    for a in out:
        if dedup and a.start < dedup[-1].end:
            continue
        dedup.append(a)
    return tuple(dedup)


def find_anaphors(texts: Sequence[str]) -> list[tuple[Anaphor, ...]]:
    """The anaphors of each text (one batched spaCy pass over the candidate windows of the
    texts not cached yet)."""
    results: dict[str, tuple[Anaphor, ...]] = {}
    pending: dict[str, list[tuple[int, int, str, int]]] = {}
    sentinel = object()
    for t in texts:
        if t in results or t in pending:
            continue
        got = FACTS.get("anaphors", t, sentinel)
        if got is not sentinel:
            results[t] = got
            continue
        cands = _candidates(t)
        if not any(k == "det" for _, _, k, _ in cands):
            results[t] = _build(t, cands, {})
            FACTS.put("anaphors", t, results[t])
        else:
            pending[t] = cands
    if pending:
        jobs: list[tuple[str, int, int, int, int]] = []
        for t, cands in pending.items():
            for start, end, kind, _ in cands:
                if kind == "det":
                    lo, hi = _window(t, start, end)
                    jobs.append((t, start, end, lo, hi))
        from ..nlp import tag_texts

        tagged = tag_texts([t[lo:hi] for t, _, _, lo, hi in jobs])
        per_text: dict[str, dict[tuple[int, int], list]] = {}
        for (t, start, end, lo, _), toks in zip(jobs, tagged):
            per_text.setdefault(t, {})[(start, end)] = [(w, off + lo, p, tg) for w, off, p, tg in toks]
        for t, cands in pending.items():
            results[t] = _build(t, cands, per_text.get(t, {}))
            FACTS.put("anaphors", t, results[t])
    return [results[t] for t in texts]


def anaphors_of(text: str) -> tuple[Anaphor, ...]:
    """The anaphors of one text."""
    return find_anaphors([text])[0]


def content_units(doc: Document) -> list[Unit]:
    """The units that can hold anaphors or antecedents, in document order."""
    return [u for u in doc.units if u.kind in CONTENT_KINDS]


def _plain_occurrence(text: str, head: str, before: int, skip: tuple[Anaphor, ...]) -> re.Match[str] | None:
    """The last use of ``head`` in ``text[:before]`` that is not itself part of an anaphor."""
    last = None
    for m in forms_pattern(head).finditer(text, 0, before):
        if any(a.start <= m.start() < a.end for a in skip):
            continue
        last = m
    return last


def resolve_anaphora(
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    window: int = WINDOW,
    progress: Callable[[float], None] | None = None,
) -> list[Antecedent]:
    """Resolve the anaphors of ``units`` (default: every content unit) to earlier units."""
    seq = content_units(doc)
    pos = {u.id: i for i, u in enumerate(seq)}
    todo = [u for u in (units if units is not None else seq) if u.id in pos]
    need = {u.text for u in todo}
    for u in todo:
        i = pos[u.id]
        need.update(v.text for v in seq[max(0, i - window) : i])
    texts = sorted(need)
    facts = dict(zip(texts, find_anaphors(texts)))
    if progress:
        progress(0.8)
    out: list[Antecedent] = []
    for u in todo:
        i = pos[u.id]
        for a in facts[u.text]:
            out.extend(_resolve_one(u, a, seq, i, window, facts))
    return out


def _resolve_one(u: Unit, a: Anaphor, seq: list[Unit], i: int, window: int, facts) -> list[Antecedent]:
    own = facts[u.text]
    if not a.first:
        window = min(window, LATER_WINDOW)
    if a.head in _KIND_HEADS:
        kinds = _KIND_HEADS[a.head]
        for j in range(i - 1, max(-1, i - 1 - window), -1):
            v = seq[j]
            if v.kind in kinds or (v.kind == "caption" and (v.label or v.text).lower().startswith(a.head)):
                return [Antecedent(u.id, v.id, a, f"{a.text} -> {v.label or v.kind}", 0.7)]
        return []
    if a.head:
        if _plain_occurrence(u.text, a.head, a.start, own):
            return []  # the antecedent is earlier in the same unit
        forms = set(noun_forms(a.head))
        for j in range(i - 1, max(-1, i - 1 - window), -1):
            v = seq[j]
            if not (forms & word_set(v.text)):
                continue
            m = _plain_occurrence(v.text, a.head, len(v.text), facts.get(v.text, ()))
            if m:
                ev = f"{a.text} -> {snippet(v.text, m.start(), m.end())}"
                return [Antecedent(u.id, v.id, a, ev, 0.8)]
    if i > 0 and a.first and (a.kind in ("pronoun", "phrase") or a.head):
        prev = seq[i - 1]
        score = 0.6 if a.kind == "pronoun" else 0.5
        return [Antecedent(u.id, prev.id, a, f"{a.text} -> previous {prev.kind.replace('_', ' ')}", score)]
    return []
