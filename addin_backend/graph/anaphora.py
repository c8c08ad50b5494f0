"""Anaphora across units ("this approach", "these results", "as described above"): DEPENDS edges.

Fast regexes find candidate phrases; the words after a determiner are read with the English
lemmatizer's word lists (:func:`addin_backend.nlp.word_classes`: which of noun, verb, adjective
a word can be, and in which form) and number agreement, to tell a demonstrative noun phrase
("this approach works") from a pronoun ("this works") and to get the head noun's lemma; no
tagger runs. The antecedent is the nearest preceding unit (within a window) that uses the head
noun other than anaphorically; failing that, a phrase in a unit's first sentence falls back to
the previous unit. Anaphors found in a text are cached per text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from adapters.model import Document, Unit

from ..nlp import FACTS, noun_lemma, word_classes
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
    r"above-mentioned|preceding|foregoing|said|resulting|latter|former|described|"
    r"presented|introduced|suggested|outlined))(?=\s+[A-Za-z])",
    re.I,
)
_INITIAL = re.compile(r"^[\"'\u201c(]*(?P<p>It|They|This|These|That|Those|Such|The\s+latter|The\s+former)\b")
_EXPLETIVE = re.compile(
    r"^It\s+(?:is|was|has\s+been|will\s+be|would\s+be|can\s+be|could\s+be|may\s+be|might\s+be|"
    r"should\s+be|must\s+be|seems|seemed|appears|appeared|follows|remains|turns\s+out)\b"
    r"(?:,?\s+[\w-]+){0,4}?,?\s+(?:that|to|whether|if|how|why|what)\b"
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
    paragraph subparagraph sentence
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
    else ``"det"`` (the words after it must be read)."""
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


#: Function words (and particles): they end a noun phrase and cannot be its head.
_CLOSED = frozenset(
    """a an the this that these those some any each every all no both either neither such of in on at
    by for with from to into onto upon about over under between among through during without within
    across against along around before after behind below beneath beside besides beyond near since
    than toward towards until unlike via per as like and or but nor so yet because although though
    while whereas if unless when where whether it its they them their we our us he she his her i you
    your one ones itself themselves is are was were be been being am has have had having do does did
    can could will would shall should may might must which who whom whose what not also only just
    even still already often always never usually typically generally then thus therefore hence
    however here there now up down out off away back far much little long soon cannot""".split()
)
#: Words that open a predicate: the noun phrase before them is complete ("this connection pool is").
_PREDICATE = frozenset(
    """is are was were has have had can could will would shall should may might must does do did also
    not only never always often usually still already thus therefore cannot""".split()
)
#: Auxiliaries and modals: after "such X Ys" they show that "Ys" was a plural noun.
_AUX = frozenset(
    "is are was were has have had can could will would shall should may might must cannot do does did".split()
)
#: Quantifiers and ordinals inside a noun phrase ("these two approaches"): modifiers, never heads.
_QUANT = frozenset(
    """two three four five six seven eight nine ten several many few more most other first second
    third last final next""".split()
)
_NP_WORD = re.compile(r"[ \t\u00a0]+([A-Za-z0-9][\w'\u2019]*(?:-[\w'\u2019]+)*)")
_CONTRACTION = re.compile(r"(?i)n['\u2019]t$|['\u2019](?:re|ve|ll|d|m)$")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_SINGULAR_DET = ("this", "that", "such a", "such an")
_PLURAL_DET = ("these", "those")


def _det_number(det: str) -> str | None:
    low = " ".join(det.lower().split())
    return "sg" if low in _SINGULAR_DET else "pl" if low in _PLURAL_DET else None


def _classes(word: str) -> dict[str, tuple[str, bool]]:
    """Word classes of a word; a hyphenated compound is read by its last part ("two-stage",
    "look-ups" -> noun "look-up")."""
    low = word.lower()
    got = word_classes(low)
    if not got and "-" in low:
        prefix, last = low.rsplit("-", 1)
        got = {k: (f"{prefix}-{v[0]}", v[1]) for k, v in word_classes(last).items() if k != "verb"}
    return got


def _verb_form(word: str, cls: dict[str, tuple[str, bool]]) -> str | None:
    """``"s"`` (works), ``"ed"``, ``"ing"``, ``"base"`` for a word that can be a verb, else None."""
    verb = cls.get("verb")
    if not verb:
        return None
    if not verb[1]:
        return "base"
    low = word.lower()
    return "ing" if low.endswith("ing") else "ed" if low.endswith(("ed", "en", "wn", "t")) else "s" if low.endswith("s") else "base"


def _nounish(word: str | None) -> bool:
    if word is None or word.lower() in _CLOSED or _CONTRACTION.search(word):
        return False
    cls = _classes(word)
    return not cls or "noun" in cls or "adj" in cls


_OBJECT_START = frozenset(
    "the a an this these that those its their our your his her my each all some any no every you them us it him me".split()
)


def _object_like(word: str | None) -> bool:
    """Whether ``word`` can open the object of a verb before it ("give permission", "take care")."""
    if word is None:
        return False
    low = word.lower()
    if low in _OBJECT_START:
        return True
    if low in _CLOSED or low in _PREDICATE or _CONTRACTION.search(low):
        return False
    cls = _classes(low)
    return _verb_form(low, cls) != "s" and (not cls or "noun" in cls or "adj" in cls)


def _np_after(text: str, end: int, det: str | None, depth: int = 0) -> tuple[str | None, int] | None:
    """The head noun lemma of the noun phrase that starts at ``end`` (after the determiner
    ``det``) and where it ends.

    ``(None, end)`` when the words after the determiner are not a noun phrase ("This shows
    that", "These include"): a pronoun use. ``None`` when the phrase names the document itself
    ("this section", "this Agreement") or a defined term ("this License", "such Covered
    Software": a capitalised head is a name, not a pointer). Word classes come from the
    lemmatizer's lists, and agreement settles what they leave open: after "this" a verb in -s
    starts the predicate ("this approach works", "this license grants"), after "these" a base
    form does ("these show"); a plural noun ends a compound ("these test results"); with no
    number to agree with, a word that is both noun and verb is the verb when an object follows
    it ("the latter take care").
    """
    det_number = _det_number(det) if det else None
    pronoun_like = bool(det) and det.lower().split()[-1] in ("latter", "former")
    words: list[tuple[str, int, int]] = []
    pos = end
    while len(words) < 6:
        m = _NP_WORD.match(text, pos)
        if not m:
            break
        words.append((m.group(1), m.start(1), m.end(1)))
        pos = m.end()
    head: str | None = None
    head_word = ""
    head_end = end
    plural = False
    for i, (w, a, b) in enumerate(words[:5]):
        low = w.lower()
        nxt = words[i + 1][0] if i + 1 < len(words) else None
        if low == "one" and head is None and _nounish(nxt):
            continue  # "this one structure"; but "this one is"
        if low in _CLOSED or _CONTRACTION.search(low):
            break
        possessive = bool(_POSSESSIVE.search(low)) and len(low) > 2
        if possessive:
            low = _POSSESSIVE.sub("", low)
            b = a + len(low)
        if low in _QUANT or low.isdigit():
            continue
        cls = _classes(low)
        noun = cls.get("noun")
        form = _verb_form(low, cls)
        if head is None:
            if form == "s" and det_number == "sg":
                break  # "This works", "This adds": a verb agreeing with "this"
            if form == "base" and det_number == "pl" and not _nounish(nxt):
                break  # "These show that"
            if pronoun_like and form in ("base", "s") and nxt and (_object_like(nxt) or nxt.lower() in _CLOSED):
                break  # "the latter take care"
            if form in ("ed", "ing") and _nounish(nxt):
                continue  # a participle before the noun: "this cached value", "these training runs"
            if cls and not noun:
                if "adj" in cls:
                    continue  # "this new approach"
                break  # "This improves", "These include"
        else:
            name = w[:1].isupper() and head_word[:1].isupper()
            if not name:
                if form in ("ed", "ing"):
                    break  # the predicate or a modifier clause: "the approach used", "this string using"
                if form == "s":
                    if det_number == "sg" or (det_number is None and not (nxt and nxt.lower() in _AUX)):
                        break  # "this approach works", "such license applies"; but "these test results"
                elif cls and (not noun or "adj" in cls or "adv" in cls):
                    break  # "this License prior to"
                elif form == "base" and det_number != "sg" and _object_like(nxt):
                    break  # "the methods combine the", but "such a patent license to"
        if low in _SELF_HEADS or (noun and noun[0] in _SELF_HEADS):
            return None
        head = noun[0] if noun else noun_lemma(low)
        head_word = w
        plural = bool(noun and noun[1]) or (not cls and w.islower() and re.search(r"[^su]s$", low) is not None)
        head_end = b
        if possessive or (plural and det_number != "sg"):
            break  # "this package's": the possessor; a plural noun ends a compound (after "this" it
            # can only be a modifier: "this data structure", "this sales report")
    if head_word[:1].isupper() and not head_word.isupper():
        return None  # "this License", "such Covered Software": a defined term, named, not pointed at
    if head in _OF_HEADS and depth == 0:
        m = re.match(r"\s+of\b", text[head_end:])
        if m:
            sub = _np_after(text, head_end + m.end(), None, depth + 1)
            if sub and sub[0]:
                return sub
    return head, head_end


_AFTER_PHRASE = re.compile(r"\s*,\s*(?P<det>the|this|these|those|such(?:\s+an?)?|our|its|their)(?=\s)", re.I)


def _sentence_initial(text: str, start: int) -> bool:
    head = text[max(0, start - 8) : start].rstrip()
    return not text[:start].strip() or bool(re.search(r"[.!?:][\"'\u201d)]*$", head))


def _build(text: str, cands: list[tuple[int, int, str, int]]) -> tuple[Anaphor, ...]:
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
            out.append(_phrase(text, start, end, first))
            continue
        got = _np_after(text, end, text[start:end])
        if got is None:
            continue  # "this section", "this Agreement": the document itself
        head, end_off = got
        if head is None:
            if first and _sentence_initial(text, start):
                out.append(Anaphor(start, end, text[start:end], "pronoun", None, first))
            continue
        if text[end : end + 4].lower().strip() == "as" or head in _SELF_HEADS:
            continue
        if text[end_off : end_off + 3].lstrip().startswith(":"):
            continue  # "in one of these ways:": it points at what follows
        if text[start:end_off].isupper():
            continue  # "FUTURE REVISIONS OF THIS LICENSE": a heading in capitals names, it does not point
        out.append(Anaphor(start, end_off, text[start:end_off], "np", head, first))
    out.sort(key=lambda a: a.start)
    dedup: list[Anaphor] = []
    for a in out:
        if dedup and a.start < dedup[-1].end:
            continue
        dedup.append(a)
    return tuple(dedup)


def _phrase(text: str, start: int, end: int, first: bool) -> Anaphor:
    """"the method described above" (the head before), "As described above, the procedure ..."
    (the fronted phrase speaks of the subject that follows it), or a bare "as noted above"."""
    m = _PHRASE_HEAD.search(text, max(0, start - 40), start)
    if m and m.group("noun").lower() not in _SELF_HEADS:
        return Anaphor(m.start(), end, text[m.start() : end], "phrase", noun_lemma(m.group("noun")), first)
    after = _AFTER_PHRASE.match(text, end)
    if after:
        got = _np_after(text, after.end(), after.group("det"))
        if got and got[0]:
            return Anaphor(start, got[1], text[start : got[1]], "phrase", got[0], first)
    return Anaphor(start, end, text[start:end], "phrase", None, first)


def find_anaphors(texts: Sequence[str]) -> list[tuple[Anaphor, ...]]:
    """The anaphors of each text (cached per text)."""
    return [FACTS.memo("anaphors", t, lambda t: _build(t, _candidates(t))) for t in texts]


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
