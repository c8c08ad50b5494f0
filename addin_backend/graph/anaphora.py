"""Anaphora across units ("this approach", "these results", "In this case,"): DEPENDS edges.

Finding: regexes over a unit's sentences are the cheap gate (demonstratives, sentence-initial
pronouns, "that", comparisons, idioms, connectives, "doing so"); spaCy's tagger then reads a
short stretch around each candidate whose words matter (all of a document's stretches in one
``nlp.pipe``, each cached by its text): the tags give where a noun phrase ends, its head noun
and its number, and whether "that" is a determiner. The function words come from the shared
lexicon (:mod:`..language.lexicon`). The anaphors of a text are cached per text.

Resolving: :data:`RESOLVERS`, an ordered list of small named resolvers, each with an example;
the first that settles an anaphor decides. The antecedent is the unit that introduces the
referent, within the anaphor's section and a window of content units (a run of code lines, a
figure with its caption, a list counts as one step). English only: other units are not read.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Literal, Sequence, Union

from adapters.model import Document, Unit

from ..language.detect import is_english
from ..language.forms import singular
from ..language.lexicon import function_words
from ..language.nlp import FACTS, get_lexicon, noun_lemma, tag_texts
from ..outline import CODE_STYLE as _CODE_STYLE  # the one list of code and preformatted styles
from .glossary import is_term_style, term_of_line
from .related import is_reference_entry
from .text import capital_after, forms_pattern, noun_forms, preview, sentences, snippet, word_set

__all__ = ["WINDOW", "REACH", "CONTENT_KINDS", "Anaphor", "Antecedent", "find_anaphors", "anaphors_of",
           "content_units", "resolve_anaphora", "window_after", "RESOLVERS"]

#: How many preceding content units are searched for an antecedent (a run of code lines, a
#: figure or a table with its caption, a list, counts as one).
WINDOW = 8
#: The most units a window may span, however long its runs.
REACH = 200
#: Units that can hold an anaphor or an antecedent (headings, titles and notes cannot).
CONTENT_KINDS = ("paragraph", "list_item", "caption", "figure", "table", "equation")


@dataclass(frozen=True)
class Anaphor:
    """A phrase pointing back: ``kind`` is ``np`` ("these results"), ``pronoun`` ("It ..."),
    ``phrase`` ("all of the above", "doing so"), ``connective`` ("Similarly," opening a unit),
    ``idiom`` ("In this case,"), ``comparative`` ("Another validator" heading a sentence),
    ``comparison`` ("a similar function" inside one) or ``distal`` ("from that request");
    ``head`` is the head noun's lemma; ``first``: in the unit's first sentence."""

    start: int
    end: int
    text: str
    kind: str
    head: str | None
    first: bool
    plural: bool = False
    #: The capitalised phrase after the determiner ("Packet Identifier" in "this Packet
    #: Identifier"): a name the document may define in quotes ("this License"), then no anaphor.
    name: str | None = None


@dataclass(frozen=True)
class Antecedent:
    """A resolved anaphor: ``source`` depends on ``target``."""

    source: str
    target: str
    anaphor: Anaphor
    evidence: str
    score: float


# --- the gate: candidates by regex ---------------------------------------------------------------

_DET = re.compile(
    r"(?<![\w-])(?P<det>this|these|those|such(?:\s+an?)?|the\s+(?:proposed|above|aforementioned|"
    r"above-mentioned|preceding|foregoing|said|resulting|latter|former|described|"
    r"presented|introduced|suggested|outlined))(?=\s+[\"\u201c]?(?:[A-Za-z]|\d+-?[A-Za-z]))",  # "this 128-bit value"
    re.I,
)
_INITIAL = re.compile(r"^[\"'\u201c(]*(?P<p>It|Its|They|Their|This|These|That|Those|Such|The\s+latter|The\s+former)\b")
_EXPLETIVE = re.compile(
    r"^It\s+(?:is|was|has\s+been|will\s+be|would\s+be|can\s+be|could\s+be|may\s+be|might\s+be|"
    r"should\s+be|must\s+be|seems|seemed|appears|appeared|follows|remains|turns\s+out)\b"
    r"(?:,?\s+[\w-]+){0,4}?(?:\s+for\s+[^,.;:!?]{1,60}?)?,?\s+(?:that|to|whether|if|how|why|what)\b"
)
#: A unit opening with a comparison or a condition on what came before ("Similarly, ...",
#: "Otherwise, ..."); "Similarly to X" names its own comparator (the comma is required).
_CONNECTIVE = re.compile(
    r"[\"'\u201c(]*(?P<c>Similarly|Likewise|Conversely|Otherwise|Analogously|Correspondingly|"
    r"In\s+the\s+same\s+way|In\s+contrast|By\s+contrast|If\s+so|If\s+not)\s*,"
)
#: "the above", "the preceding", "the foregoing": what is displayed above (a list, a figure).
_SPATIAL = re.compile(r"^(?:all\s+of\s+)?the\s+(?:above|preceding|foregoing)(?![\w-])", re.I)
#: "Doing so, ...", "When doing so, ...", "To do so, ..." heading a sentence.
_DO_SO = re.compile(
    r"^[\"'\u201c(]*(?:(?:and|but|also|however|instead),?\s+)?(?:(?:when|while|by|in|before|after|without|upon|on|"
    r"for|instead\s+of|rather\s+than)\s+)?(?P<p>doing\s+so|to\s+do\s+so)\b",
    re.I,
)
#: A comparison heading a sentence, after a fronted phrase if any: "Another validator", "In most
#: cases, both validators", "Similar considerations", "As with X, ..."; "Other than X" and
#: "Similar to X" name their own comparator; "the same X" mostly says things are identical.
_COMPARATIVE = re.compile(
    r"^[\"'\u201c(]*(?:[A-Z][^,;:.()]{0,40},\s+|(?:In|For|Under|With|Of)\s+)?(?P<c>[Aa]nother|[Bb]oth|[Oo]ther(?!\s+than\b)|"
    r"[Ss]imilar(?!\s+to\b)|Additional|Further|[Aa]\s+similar|[Aa]s\s+with(?:\s+(?:the|an?))?)"
    r"(?=\s+[\"\u201c]?[A-Za-z])"
)
#: Inside a sentence only "similar" and "as with" compare ("MUST provide a similar function"):
#: there "both", "other" and "additional" mostly speak of the sentence's own things.
_COMPARATIVE_IN = re.compile(
    r"(?<![\w-])(?P<c>(?:a|an)\s+similar|similar|as\s+with(?:\s+(?:the|an?))?)(?=\s+[\"\u201c]?[A-Za-z])",
    re.I,
)
#: The words without which :data:`_COMPARATIVE` and :data:`_COMPARATIVE_IN` cannot match.
_HEAD_WORDS = re.compile(r"other|both|similar|additional|further|as with")
_IN_WORDS = re.compile(r"similar|as with")
#: "above" after what it places: the tagger tells the adverb ("as described above", "the steps
#: above") from the preposition ("the nodes above it").
_ABOVE = re.compile(r"(?<![\w-])above(?![\w-])")
_THAT = re.compile(r"(?<![\w-])that(?=\s+[\"\u201c]?[A-Za-z])", re.I)
_NEXT_WORD = re.compile(r"\s+[\"\u201c]?([A-Za-z][\w\-']*|\d+-?[A-Za-z][\w\-']*)")
_WORD_BEFORE = re.compile(r"([A-Za-z][\w-]*)$")
#: A condition or time clause before an anaphor in its sentence, which it may speak of instead.
_SUBORDINATOR = re.compile(r"\b(?:if|when|whenever|unless|once|while|where|because|since|whether|as\s+soon\s+as)\b", re.I)

#: Heads that point at the document itself or a part of it ("this section", "this Agreement").
_DOC_HEADS = frozenset(
    """section subsection chapter paper work document article agreement standard specification
    paragraph subparagraph sentence report study clause subclause annex appendix part thesis contract
    policy guide manual book letter note memo proposal deed schedule exhibit regulation act code page""".split()
)
#: Of those, the heads that name the document whatever modifies them ("this design document");
#: a modifier before the others names another thing ("this status code", "this key schedule").
_DOC_HEADS_ANYWHERE = frozenset("document specification memo paper thesis agreement contract".split())
#: Heads of idioms ("in this case", "for this reason") right after the determiner or its
#: adjectives; after a noun they make a compound that points back ("this test case").
_IDIOM_HEADS = frozenset(
    """case way time point end purpose reason regard respect context sense extent matter year month
    week day moment date""".split()
)
_SELF_HEADS = _DOC_HEADS | _IDIOM_HEADS
#: With "this"/"these" the present ("at this time"), not a pointer; "that time" points back.
_NOW_HEADS = frozenset("time moment date day week month year".split())
#: "this type of model", "that set of responses": the phrase after "of" is what is meant.
_OF_HEADS = frozenset(
    """type kind sort form class set number amount use combination version variant family group revision edition
    release update draft""".split()
)
#: Words that cannot open a demonstrative's noun phrase ("This is", "These can"): "This" is a pronoun.
_NOT_NP = function_words("auxiliaries", "prepositions", "conjunctions", "relatives")
_PREPOSITIONS = function_words("prepositions")
#: The shared lexicon's function words: never a noun phrase's head.
_CLOSED = function_words()
#: Quantifiers and ordinals inside a noun phrase ("these two approaches"): modifiers, never heads.
_QUANT = frozenset(
    """two three four five six seven eight nine ten several many few more most other first second
    third last final next""".split()
)

_Cand = tuple[int, int, str, int, int, int]  # (start, end, kind, sentence index, sentence start, end)


def _peek(sent: str, m: re.Match[str], group: str | int = "det") -> str | None:
    """What the next word settles of a determiner: ``None`` (no anaphor: "this section", "such
    as", "at this time"), ``"bare"`` ("This is"), ``"idiom"`` ("In this case") or ``"det"`` (tag it)."""
    nxt = _NEXT_WORD.match(sent, m.end(group))
    if not nxt:
        return None
    w = nxt.group(1).lower()
    det = m.group(group).lower()
    if w in _DOC_HEADS or (det.startswith("such") and w in ("as", "that")):
        return None
    idiom = w if w in _IDIOM_HEADS else w[:-1] if w.endswith("s") and w[:-1] in _IDIOM_HEADS else None
    if idiom:
        return None if (det in ("this", "these") and idiom in _NOW_HEADS) or det.startswith("the") else "idiom"
    return "bare" if w in _NOT_NP else "det"


def _that_gate(sent: str, at: int) -> str | None:
    """Where a "that" inside a sentence may be a determiner (the tagger then decides): after a
    short fronted phrase ("Then, that set is ..."): ``"subject"``; after a preposition or a word
    that is no function word ("to that request"): ``"object"``."""
    tail = sent[:at].rstrip()
    if tail.endswith(","):  # after a longer phrase the comma more likely closes an aside
        return "subject" if len(tail.split()) <= 4 else None
    m = _WORD_BEFORE.search(tail)
    if not m:
        return None
    w = m.group(1).lower()
    return "object" if w in _PREPOSITIONS or w not in _CLOSED else None


def _function_word_after(sent: str, end: int) -> bool:
    """Whether a function word follows ``end`` ("that the", "as with the"): no noun phrase
    headed by a noun starts there, so the tagger need not read it."""
    nxt = _NEXT_WORD.match(sent, end)
    return nxt is not None and nxt.group(1).lower() in _CLOSED


def _candidates(text: str) -> list[_Cand]:
    """The regex candidates of a text, before any tagging."""
    out: list[_Cand] = []
    spans = sentences(text)
    c = _CONNECTIVE.match(text, spans[0][0]) if spans else None
    if c:
        out.append((c.start("c"), c.end("c"), "connective", 0, spans[0][0], spans[0][1]))
    low = text.lower()  # the costlier patterns run only where their words occur
    above = "above" in text
    that, heads, compare = "that" in low, _HEAD_WORDS.search(low) is not None, _IN_WORDS.search(low) is not None
    for si, (a, b) in enumerate(spans):
        sent = text[a:b]

        def add(start: int, end: int, kind: str) -> None:
            out.append((a + start, a + end, kind, si, a, b))

        def det(m: re.Match[str], group: str | int, kind: str | None) -> None:
            if kind == "idiom":
                nxt = _NEXT_WORD.match(sent, m.end(group))
                add(m.start(group), nxt.end(1) if nxt else m.end(group), "idiom")
            elif kind:
                add(m.start(group), m.end(group), kind)

        m = _INITIAL.match(sent)
        if m:
            p = m.group("p")
            if p in ("It", "They", "Its", "Their") and si == 0:
                if not (p == "It" and _EXPLETIVE.match(sent[m.start("p"):])):
                    add(m.start("p"), m.end("p"), "pronoun")
            elif p == "That":
                det(m, "p", _peek(sent, m, "p"))
        for d in _DET.finditer(sent):
            kind = _peek(sent, d)
            det(d, "det", "spatial" if kind == "bare" and _SPATIAL.match(d.group("det")) else kind)
        for t in _THAT.finditer(sent) if that else ():
            if t.start() and not (m and m.group("p") == "That" and m.start("p") == t.start()):
                role = _that_gate(sent, t.start())
                if role == "object" and (si > 0 or _SUBORDINATOR.search(sent, 0, t.start())):
                    continue  # "If a packet is lost, ... recover from that loss": the clause before
                if role:
                    kind = _peek(sent, t, 0)
                    if kind == "det" and _function_word_after(sent, t.end()):
                        continue  # "that the", "that it": a conjunction, nothing to tag
                    det(t, 0, "idiom" if kind == "idiom" else f"that-{role}" if kind == "det" else None)
        for ab in _ABOVE.finditer(sent) if above else ():
            add(ab.start(), ab.end(), "above")
        do = _DO_SO.match(sent)
        if do:
            add(do.start("p"), do.end("p"), "manner")
        cm = _COMPARATIVE.match(sent) if heads and _HEAD_WORDS.search(low, a, b) else None
        if cm:
            add(cm.start("c"), cm.end("c"), "comparative")
        for cm2 in _COMPARATIVE_IN.finditer(sent) if compare else ():
            if not (cm and cm2.start() < cm.end()) and not _function_word_after(sent, cm2.end("c")):
                add(cm2.start("c"), cm2.end("c"), "comparative-in")
    return out


# --- the tagger's reading ------------------------------------------------------------------------

#: Penn Treebank tags: nouns, what may stand before a head ("these two cached values"), what
#: opens a predicate, and quotes (a quoted coinage: 'such "timing attacks"').
_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_PLURAL_TAGS = frozenset({"NNS", "NNPS"})
_PRE_HEAD_TAGS = frozenset({"JJ", "JJR", "JJS", "CD", "VBN", "VBG", "AFX"})
_FINITE_TAGS = frozenset({"VBZ", "VBD", "VBP", "MD"})
#: What opens a preposition's object ("above it", "above the root").
_OBJECT_TAGS = _NOUN_TAGS | {"DT", "PDT", "PRP", "PRP$", "CD", "JJ", "JJR", "JJS", "WP", "WDT"}
_QUOTE_TAGS = frozenset({"``", "''"})
#: A word of a noun phrase; a quoted coinage counts ('such "timing attacks"').
_NP_WORD = re.compile(r"[ \t\u00a0]+[\"\u201c]?([A-Za-z0-9][\w'\u2019]*(?:-[\w'\u2019]+)*)")
#: "This usage of the word "private"": a use of a word, whose referent is what the word names.
_OF_WORD = re.compile(r"\s+of\s+the\s+(?:word|term|name|phrase|keyword|verb|noun|adjective)\s+[\"\u201c]([A-Za-z][\w\-]*)[\"\u201d]")
_WORD_USE_HEADS = frozenset("use usage meaning sense definition interpretation reading".split())
#: A cataphor that claims what follows a colon ("the following directives have such an effect:").
_FOLLOWING = re.compile(r"\bthe\s+following\b|\bas\s+follows\b", re.I)
_GERUND = re.compile(r"(?<![\w-])[A-Za-z]+ing(?![\w-])")


@dataclass(frozen=True)
class _Word:
    """A tagged word; a hyphenated compound ("128-bit") is one word with its last part's tag;
    ``possessive``: an "'s" followed it."""

    text: str
    start: int
    end: int
    tag: str
    possessive: bool = False


class _Reader:
    """The tagged words of the stretches of a text that hold a candidate."""

    def __init__(self, text: str, tokens: Iterable[tuple[str, int, str, str]]) -> None:
        words: list[_Word] = []
        for tok, off, _pos, tag in tokens:
            end = off + len(tok)
            if words and off == words[-1].end and (tag in ("HYPH", "POS") or words[-1].tag == "HYPH"):
                w = words[-1]
                words[-1] = (_Word(w.text, w.start, w.end, w.tag, True) if tag == "POS"
                             else _Word(text[w.start:end], w.start, end, tag))
                continue
            words.append(_Word(tok, off, end, tag))
        self.words = words
        self._starts = [w.start for w in words]

    def after(self, offset: int, n: int) -> list[_Word]:
        """The first ``n`` words that start at or after ``offset``."""
        i = bisect_left(self._starts, offset)
        return self.words[i:i + n]

    def before(self, offset: int, n: int) -> list[_Word]:
        """The last ``n`` words that start before ``offset``."""
        i = bisect_left(self._starts, offset)
        return self.words[max(0, i - n):i]

    def tag_at(self, offset: int) -> str | None:
        i = bisect_left(self._starts, offset)
        return self.words[i].tag if i < len(self.words) and self.words[i].start == offset else None

    def plural(self, end: int) -> bool:
        """Whether the word that ends at ``end`` is a plural noun."""
        i = bisect_left(self._starts, end) - 1
        return i >= 0 and self.words[i].end == end and self.words[i].tag in _PLURAL_TAGS

    def finite_after(self, end: int) -> bool:
        """Whether the word after ``end`` opens a predicate ("is", "MAY", "contains")."""
        nxt = [w for w in self.after(end, 2) if w.tag not in _QUOTE_TAGS]
        return bool(nxt) and nxt[0].tag in _FINITE_TAGS

    def misread_noun(self, start: int) -> bool:
        """Whether the word after the "that" at ``start`` is a noun read as a verb: a base form
        after a singular noun and "that" ("either service that request from"), where a relative
        clause's verb would agree with that noun (``VBZ``)."""
        i = bisect_left(self._starts, start)
        if i == 0 or i + 1 >= len(self.words) or self.words[i].start != start:
            return False
        return self.words[i - 1].tag in ("NN", "NNP") and self.words[i + 1].tag in ("VB", "VBP")


_NO_TAGS = _Reader("", ())


def _np_after(
    text: str, reader: _Reader, end: int, *, noun_first: bool = False, depth: int = 0, names: bool = False
) -> tuple[str | None, int, bool] | None:
    """``(head lemma, end, plural)`` of the noun phrase at ``end`` (after a determiner), read off
    the tags: modifiers, then a run of nouns whose last is the head ("these test results").
    ``(None, end, False)``: no noun phrase ("This shows that"), a pronoun use. ``None``: the
    document itself ("this section") or a defined term ("this License": a capitalised head).
    ``noun_first``: the first word is a noun the tagger read as a verb. ``names``: a capitalised
    head is read as any other (the caller tells the document's defined names apart)."""
    head: str | None = None
    head_word, head_end, plural = "", end, False
    opening = True  # the phrase's first content word: "this section", "this key schedule"
    words = [w for w in reader.after(end, 7) if w.tag not in _QUOTE_TAGS]
    if noun_first and words:
        words[0] = _Word(words[0].text, words[0].start, words[0].end, "NN", words[0].possessive)
    for w in words[:6]:
        low = w.text.lower()
        if w.tag not in _NOUN_TAGS:
            if head is None and w.tag in _PRE_HEAD_TAGS:
                # a count keeps the opening ("this second case" is an idiom), an adjective ends it
                opening = opening and (w.tag != "JJ" or low in _QUANT)
                continue
            break
        acronym = w.text.isupper() and len(w.text) > 1  # "TLS", "QUIC": a name, never a plural
        lemma = low if acronym or w.tag not in _PLURAL_TAGS else singular(low) or low
        if (low in _DOC_HEADS_ANYWHERE or lemma in _DOC_HEADS_ANYWHERE
                or (opening and (low in _SELF_HEADS or lemma in _SELF_HEADS))):
            return None
        opening = False
        head, head_word, head_end, plural = lemma, w.text, w.end, w.tag in _PLURAL_TAGS
        if w.possessive:
            break  # "this package's": the possessor
    if head_word[:1].isupper() and not head_word.isupper() and not names:
        return None  # "this License", "such Covered Software": a defined term, named, not pointed at
    if head in _WORD_USE_HEADS and (named := _OF_WORD.match(text, head_end)) is not None:
        return noun_lemma(named.group(1).lower()), named.end(), False
    if head in _OF_HEADS and depth == 0 and (m := re.match(r"\s+of\b", text[head_end:])):
        at = head_end + m.end()
        the = re.match(r"\s+the(?=\s+[A-Z])", text[at:])
        at += the.end() if the else 0
        sub = _np_after(text, reader, at, depth=depth + 1)
        word = _NP_WORD.match(text, at)
        if (sub is None and word and word.group(1)[:1].isupper()) or (sub and sub[0] and text[: sub[1]].split()[-1][:1].isupper()):
            return None  # "this version of QUIC", "of the GNU General Public License": a name's part
        if sub and sub[0]:
            return sub
    return head, head_end, plural


def _placed_above(reader: _Reader, start: int) -> tuple[int, str | None, bool] | None:
    """Where the adverb "above" at ``start`` points back from: ``(start, head lemma, plural)`` of
    the noun phrase it places ("the steps above", "the fields listed above"), or of the participle
    or the "as" before it ("described above", "as above": no head); ``None`` for a preposition
    ("the nodes above it"): read so by the tagger, with an object after it."""
    nxt = reader.after(start + len("above"), 1)
    if reader.tag_at(start) != "RB" and nxt and nxt[0].tag in _OBJECT_TAGS:
        return None
    words = reader.before(start, 6)
    if words and words[-1].text.lower() == "as":
        return words[-1].start, None, False
    participle = words[-1] if words and words[-1].tag == "VBN" else None
    if participle:
        words = words[:-1]
    head = words[-1] if words and words[-1].tag in _NOUN_TAGS else None
    low, plural = (head.text.lower(), head.tag in _PLURAL_TAGS) if head else ("", False)
    for w in reversed(words[:-1]) if head else ():
        if w.tag == "DT" and w.text.lower() in ("the", "these", "those"):
            return w.start, (singular(low) or low) if plural else low, plural
        if w.tag not in _NOUN_TAGS and w.tag not in _PRE_HEAD_TAGS:
            break
    return (participle.start, None, False) if participle else None


def _sentence_initial(text: str, start: int) -> bool:
    head = text[max(0, start - 8):start].rstrip()
    return not text[:start].strip() or bool(re.search(r"[.!?:][\"'\u201d)]*$", head))


def _verb_before(text: str, sent_start: int, start: int, head: str) -> bool:
    """Whether a gerund just before the anaphor names its head ("reusing a cached response ...
    such reuse"): the sentence itself holds what the noun takes up."""
    for m in _GERUND.finditer(text, max(sent_start, start - _CONTEXT), start):
        got = get_lexicon().lemma(m.group(), "verb")
        if got and got[0] == head:
            return True
    return False


def _build(text: str, cands: list[_Cand], reader: _Reader) -> tuple[Anaphor, ...]:
    """The anaphors of a text from its candidates and the tags around them."""
    out: list[Anaphor] = []
    for start, end, kind, si, sent_start, _sent_end in cands:
        first = si == 0
        if kind == "pronoun" or (kind == "bare" and first and _sentence_initial(text, start)):
            out.append(Anaphor(start, end, text[start:end], "pronoun", None, first))
        if kind in ("pronoun", "bare"):
            continue
        if kind == "above":
            placed = _placed_above(reader, start)
            if placed:
                out.append(Anaphor(placed[0], end, text[placed[0]:end], "phrase", placed[1], first, placed[2]))
            continue
        if kind in ("connective", "spatial", "manner"):
            out.append(Anaphor(start, end, text[start:end], "connective" if kind == "connective" else "phrase", None, first))
            continue
        lead = text[sent_start:start]
        if kind == "idiom":
            if first and (all(w.lower() in _CLOSED for w in re.findall(r"\w+", lead)) or (
                    text[start:end].lower().startswith(("this", "these")) and not _SUBORDINATOR.search(lead))):
                # "In this case, ...", "And at that point", "Tag number 55799 is defined for this
                # purpose": what came before, unless a condition before it is what it speaks of
                out.append(Anaphor(start, end, text[start:end], "idiom", None, first))
            elif first and text[start:end].lower().startswith(("that", "those")) and not _SUBORDINATOR.search(lead):
                noun = text[start:end].split()[-1].lower()
                out.append(Anaphor(start, end, text[start:end], "distal", noun_lemma(noun), first))
            continue  # later in the unit, or after the clause it speaks of: the unit's own
        misread = kind.startswith("that-") and reader.misread_noun(start)
        if kind.startswith("that-") and not (misread or reader.tag_at(start) == "DT"):
            continue  # a conjunction ("indicates that caches") or a relative pronoun ("a field that carries")
        got = _np_after(text, reader, end, noun_first=misread, names=True)
        if got is None:
            continue  # "this section": the document itself
        head, end_off, plural = got
        phrase = text[end:end_off].strip()
        last = phrase.split()[-1] if phrase else ""
        name = phrase if last[:1].isupper() and not last.isupper() else None
        if kind != "det":
            if head is None:
                continue
            if kind.startswith("comparative"):
                nxt = _NP_WORD.match(text, end_off)
                if (text[start:end].lower().startswith("both") and not plural) or (nxt and nxt.group(1).lower() in ("and", "or")):
                    continue  # "Both sender and receiver": a coordination, not a pair named before
            else:
                of = re.search(r"\s+of\s", text[end:end_off])  # "that set of responses": "set" agrees with "that"
                if (reader.plural(end + of.start() if of else end_off)
                        or (kind == "that-object" and reader.finite_after(end_off))
                        or (kind == "that-subject" and not reader.finite_after(end_off))):
                    continue  # "indicates that caches store", "ensures that state is kept": a clause
        if head is None:
            if first and _sentence_initial(text, start):
                out.append(Anaphor(start, end, text[start:end], "pronoun", None, first))
            continue
        if _verb_before(text, sent_start, start, head):
            continue
        if text[end_off:end_off + 3].lstrip().startswith(":") and not _FOLLOWING.search(text, sent_start, start):
            continue  # "in one of these ways:": it points at what follows
        if text[end_off:end_off + 1] in ('"', "\u201d") and re.search(r"[\"\u201c]", text[start:end_off]):
            end_off += 1  # the closing quote of a quoted coinage
        what = {"comparative": "comparative", "comparative-in": "comparison", "that-object": "distal"}.get(kind, "np")
        out.append(Anaphor(start, end_off, text[start:end_off], what, head, first, plural, name))
    out.sort(key=lambda a: a.start)
    dedup: list[Anaphor] = []
    for a in out:
        if not (dedup and a.start < dedup[-1].end):
            dedup.append(a)
    return tuple(dedup)


#: The tagger reads around a candidate ``_CONTEXT`` characters after it and ``_LEFT_WORDS``
#: words before: its context reaches four tokens either side (en_core_web_sm's tok2vec), so a
#: longer stretch changes no tag that is read. Pronouns, connectives and idioms need no tags.
_CONTEXT = 64
_LEFT_WORDS = 6
_READ = frozenset({"det", "comparative", "comparative-in", "that-object", "that-subject", "above"})
_WORD_RUN = re.compile(r"\S+")


def _windows(text: str, cands: list[_Cand]) -> list[tuple[int, int]]:
    """The stretches of ``text`` to tag: around each candidate to read, within its sentence, cut
    at spaces, overlapping ones joined."""
    out: list[tuple[int, int]] = []
    for start, end, kind, _si, a, b in sorted(cands):
        if kind not in _READ:
            continue
        words = [m.start() for m in _WORD_RUN.finditer(text, a, start)]
        if len(words) > _LEFT_WORDS:
            a = words[-_LEFT_WORDS]
        if end + _CONTEXT < b:
            k = text.rfind(" ", end, end + _CONTEXT)
            b = end + _CONTEXT if k < 0 else k
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def _readers(cands: dict[str, list[_Cand]]) -> dict[str, _Reader]:
    """A reader per text over its :func:`_windows`; those not tagged before are tagged together
    (one ``nlp.pipe``), each cached by its text."""
    spans = {t: _windows(t, cs) for t, cs in cands.items()}
    todo = [x for x in sorted({t[a:b] for t, sp in spans.items() for a, b in sp}) if FACTS.get("tags", x) is None]
    for sent, tags in zip(todo, tag_texts(todo)):
        FACTS.put("tags", sent, tuple(tags))
    out: dict[str, _Reader] = {}
    for t, sp in spans.items():
        tokens = [(w, a + off, pos, tag) for a, b in sp
                  for w, off, pos, tag in FACTS.memo("tags", t[a:b], lambda s: tuple(tag_texts([s])[0]))]
        out[t] = _Reader(t, tokens) if tokens else _NO_TAGS
    return out


def find_anaphors(texts: Sequence[str]) -> list[tuple[Anaphor, ...]]:
    """The anaphors of each text (cached per text); the texts not seen before are read together."""
    found: dict[str, tuple[Anaphor, ...]] = {}
    todo: dict[str, list[_Cand]] = {}
    for t in texts:
        got = FACTS.get("anaphors", t)
        if got is not None:
            found[t] = got
        elif t not in todo:
            todo[t] = _candidates(t)
    readers = _readers(todo) if todo else {}
    for t, cs in todo.items():
        found[t] = _build(t, cs, readers[t])
        FACTS.put("anaphors", t, found[t])
    return [found[t] for t in texts]


def anaphors_of(text: str) -> tuple[Anaphor, ...]:
    """The anaphors of one text."""
    return find_anaphors([text])[0]


# --- where units stand ---------------------------------------------------------------------------

def content_units(doc: Document) -> list[Unit]:
    """The units that can hold anaphors or antecedents, in document order."""
    return [u for u in doc.units if u.kind in CONTENT_KINDS]


#: Units shown rather than read: a run of them is one step, introduced by the paragraph before it.
_DISPLAY_KINDS = ("caption", "figure", "table", "equation")
#: Heads that name something shown: "the above function" is the nearest displayed block.
_DISPLAY_HEADS = frozenset(
    "example function formula equation expression code pseudocode listing snippet diagram illustration".split()
)


def _displayed(u: Unit) -> bool:
    return u.kind in _DISPLAY_KINDS or (u.kind == "paragraph" and u.style is not None and bool(_CODE_STYLE.search(u.style)))


def _title_head(title: str) -> str | None:
    """The noun heading a document's title, what "this protocol" names (brackets, a subtitle's
    lead and a version set aside).

    >>> _title_head("The Transport Layer Security (TLS) Protocol Version 1.3"), _title_head("QUIC: A Secure Transport")
    ('protocol', 'transport')
    """
    t = re.sub(r"\([^)]*\)", " ", title).split(":")[-1]
    t = re.sub(r"(?i)\s*\b(?:version|v|release|edition)\s*[\d.]+\s*$", "", t.strip())
    words = re.findall(r"[A-Za-z][\w-]*", t)
    return noun_lemma(words[-1]) if words else None


def _term_line(u: Unit) -> bool:
    """A definition list's term line, as the glossary reads one (``structural_definitions``): a
    paragraph in a term style, or a short one ending in a colon ("Packet Number:"), naming a term."""
    t = u.text.strip()
    return u.kind == "paragraph" and len(t) <= (80 if is_term_style(u.style) else 60) and (
        is_term_style(u.style) or t.endswith(":")) and term_of_line(t) is not None


def _name(u: Unit) -> str:
    return u.kind.replace("_", " ")


@dataclass
class _Layout:
    """The content units, the section each sits in, whether each is displayed or a list item,
    and their distance in steps (a run of displayed units or of list items is one)."""

    seq: list[Unit]
    section: list[int]
    display: list[bool]
    listed: list[bool]
    step: list[int]
    subject: str | None = None
    heads: dict[int, Unit] = field(default_factory=dict)  # each section's heading, by number
    #: Whether each unit is a definition list's description, the unit before it its term line.
    entry: list[bool] = field(default_factory=list)

    @classmethod
    def of(cls, doc: Document) -> "_Layout":
        seq: list[Unit] = []
        section: list[int] = []
        heads: dict[int, Unit] = {}
        sec = 0
        for u in doc.units:
            if u.kind in ("section", "title"):
                sec += 1
                if u.kind == "section":
                    heads[sec] = u
            elif u.kind in CONTENT_KINDS:
                seq.append(u)
                section.append(sec)
        display = [_displayed(u) for u in seq]
        listed = [u.kind == "list_item" for u in seq]
        step: list[int] = []
        for k in range(len(seq)):
            same = k > 0 and section[k] == section[k - 1] and (
                (display[k] and display[k - 1]) or (listed[k] and listed[k - 1]))
            step.append((step[-1] if step else 0) + (not same))
        title = next((u.text for u in doc.units if u.kind == "title"), "")
        term = [_term_line(u) for u in seq]
        entry = [k > 0 and term[k - 1] and not term[k] and not display[k] and u.kind == "paragraph"
                 and section[k - 1] == section[k] for k, u in enumerate(seq)]
        return cls(seq, section, display, listed, step, _title_head(title), heads, entry)

    def unit(self, j: int) -> Unit:
        """The content unit at position ``j``, or for ``-k - 1`` the heading of section ``k``."""
        return self.seq[j] if j >= 0 else self.heads[-j - 1]

    def back(self, i: int, window: int, *, cross: bool = False) -> Iterable[int]:
        """The positions before ``i`` within ``window`` steps (and ``REACH`` units), nearest
        first; within ``i``'s section unless ``cross``."""
        for j in range(i - 1, max(-1, i - 1 - REACH), -1):
            if self.step[i] - self.step[j] > window or (not cross and self.section[j] != self.section[i]):
                return
            yield j

    def run(self, j: int) -> range:
        """The run (of displayed units, of list items) that holds ``j``."""
        flags = self.display if self.display[j] else self.listed
        if not flags[j]:
            return range(j, j + 1)
        a = b = j
        while a > 0 and flags[a - 1] and self.section[a - 1] == self.section[j]:
            a -= 1
        while b + 1 < len(self.seq) and flags[b + 1] and self.section[b + 1] == self.section[j]:
            b += 1
        return range(a, b + 1)

    def lead_in(self, j: int) -> int | None:
        """The prose unit right before the run holding ``j`` in its section ("The following
        steps are taken:")."""
        k = self.run(j).start - 1
        if k >= 0 and self.section[k] == self.section[j] and not self.display[k] and not self.listed[k]:
            return k
        return None

    def shown(self, j: int) -> tuple[int, str]:
        """What a displayed block or a list stands for, with the evidence: the paragraph that leads
        into the run holding ``j``, else ``j`` itself."""
        lead = self.lead_in(j)
        what = "list" if self.listed[j] else "display"
        if lead is None:
            return j, f"{what}: {preview(self.seq[j].text, 40)}"
        return lead, f"the {what} after {preview(self.seq[lead].text, 40)}"

    def previous(self, i: int) -> int | None:
        """The previous content unit in ``i``'s section (none: a heading is no antecedent); past a
        displayed block, the paragraph that leads into it."""
        j = i - 1
        if j < 0 or self.section[j] != self.section[i]:
            return None
        lead = self.lead_in(j) if self.display[j] else None
        return j if lead is None else lead


def window_after(doc: Document, starts: Iterable[int], window: int = WINDOW) -> set[str]:
    """The ids of the content units whose anaphora may reach the content units at ``starts``
    (positions in :func:`content_units`): those that must be resolved again when they change."""
    lay = _Layout.of(doc)
    out: set[str] = set()
    for p in starts:
        for k in range(p, min(len(lay.seq), p + REACH + 1)):
            if lay.step[k] - lay.step[p] > window:
                break
            out.add(lay.seq[k].id)
    return out


# --- resolving -----------------------------------------------------------------------------------

class _Facts(dict):
    """Text -> its anaphors, found on demand for texts outside the windows read up front."""

    def __missing__(self, text: str) -> tuple[Anaphor, ...]:
        got = self[text] = anaphors_of(text)
        return got


def resolve_anaphora(
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    window: int = WINDOW,
    progress: Callable[[float], None] | None = None,
) -> list[Antecedent]:
    """Resolve the anaphors of ``units`` (default: every content unit) to earlier units; units
    in another language than English are not read."""
    lay = _Layout.of(doc)
    seq = lay.seq
    pos = {u.id: i for i, u in enumerate(seq)}
    # code lines, figures, tables and captions are shown, not read: they hold no anaphora
    todo = [u for u in (units if units is not None else seq) if u.id in pos and not lay.display[pos[u.id]]]
    own = sorted({u.text for u in todo})
    facts = _Facts(zip(own, find_anaphors(own)))
    # the language is asked only of units with anaphors; a reference entry's words are a title
    todo = [u for u in todo if facts[u.text] and is_english(u, doc) and not is_reference_entry(u)]
    need = {seq[j].text for u in todo for j in lay.back(pos[u.id], window, cross=True) if not lay.display[j]}
    more = sorted(need - facts.keys())
    facts.update(zip(more, find_anaphors(more)))
    # the openings "The X ..." that :func:`_opening_mention` reads, tagged in one batch
    opening = {}
    for u in todo:
        cand = _opening(u.text) if u.text.lstrip("\"'\u201c(").startswith("The") else None
        if cand and any(a.kind == "np" and a.head and forms_pattern(a.head).search(u.text, 0, a.start) for a in facts[u.text]):
            opening[u.text] = cand
    _readers(opening)
    if progress:
        progress(0.8)
    quoted = _quoted_names(doc) if any(a.name for u in todo for a in facts[u.text]) else frozenset()
    out: list[Antecedent] = []
    for u in todo:
        for a in facts[u.text]:
            if a.name is not None and (a.name.lower() in quoted or a.text.lower() in quoted):
                continue  # "this License", "such Covered Software": a term the document defines, named
            got = _resolve_one(u, a, lay, pos[u.id], window, facts)
            if got is not None:
                out.append(Antecedent(u.id, lay.unit(got[0]).id, a, f"{a.text} -> {got[1]}", got[2]))
    return out


def _quoted_names(doc: Document) -> frozenset[str]:
    """The terms the document defines in quotes, lower case ('"Covered Software" means', '"This
    License" refers to'): it asks its reader to read each as a name wherever it is written, after
    "this" or "such" too. A capitalised phrase it does not quote ("this Packet Identifier") points
    back like any other."""
    from .definitions import definition_registry

    return frozenset(k.lower() for k, entries in definition_registry(doc.units).items()
                     if any(d.quoted for _, _, d in entries))


def _plain_occurrences(text: str, head: str, before: int, skip: tuple[Anaphor, ...]) -> Iterator[re.Match[str]]:
    """The uses of ``head`` in ``text[:before]`` that are not part of an anaphor, of an idiom
    ("for example") or of a name ("example.com")."""
    for m in forms_pattern(head).finditer(text, 0, before):
        if any(a.start <= m.start() < a.end for a in skip) or re.match(r"[.@/][A-Za-z]", text[m.end():]) or (
                m.group(0)[:1].isupper() and capital_after(text, m.end()) is not None) or (
                m.group(0).lower() in ("example", "instance") and text[max(0, m.start() - 4):m.start()].lower() == "for "):
            continue
        yield m


def _plain_occurrence(text: str, head: str, before: int, skip: tuple[Anaphor, ...]) -> re.Match[str] | None:
    """The last of :func:`_plain_occurrences`."""
    ms = list(_plain_occurrences(text, head, before, skip))
    return ms[-1] if ms else None


#: A label line before a section's prose ("Position: bit 5 of the Connect Flags"): no prose.
_LABEL_LINE = re.compile(r"[\W\d]*[A-Z][^\s:]*(?:\s+[^\s:]+){0,3}:\s*\S")
#: How many content units may stand between a heading and an anaphor of its subject.
_OPENING_UNITS = 3


def _modifier_of(a: Anaphor) -> str | None:
    """The word before the head in the anaphor's phrase ("status" in "this status code")."""
    words = re.findall(r"[A-Za-z][\w-]*", a.text)
    if len(words) < 3 or words[-2].lower() in _CLOSED or words[-2].lower() in _QUANT:
        return None
    return words[-2] if set(noun_forms(a.head)) & {words[-1].lower()} else None


@lru_cache(maxsize=4096)
def _compound_pattern(modifier: str, head: str) -> re.Pattern[str]:
    alts = "|".join(re.escape(f) for f in sorted(noun_forms(head), key=len, reverse=True))
    return re.compile(rf"(?<![\w-]){re.escape(modifier)}[\s-]+(?:{alts})(?![\w-])", re.I)


#: What introduces a thing: an indefinite article, a number or a quantifier ("an unsigned
#: integer", "several vectors"), or the quotes that coin its name.
_NEW = re.compile(
    r"(?i)(?:(?<![\w-])(?:a|an|one|two|three|four|several|multiple|some|new|various|many)\s+(?:[\w\-\"\u201c\u201d]+\s+){0,2}"
    r"[\"\u201c]?|[\"\u201c])$"
)


def _head_search(a: Anaphor, lay: _Layout, i: int, window: int, facts: _Facts, *, depth: int = 0) -> tuple[int, str] | None:
    """The nearest earlier unit of the section that introduces what the anaphor's noun names, by
    its compound ("this status code") before its head alone; an introducing mention ("several
    vectors") before a given one ("the vector"). Where the compound's only mention is itself an
    anaphor, what that one points to by its words, or its own unit."""
    if a.head is None:
        return None
    forms = set(noun_forms(a.head))
    mod = _modifier_of(a)
    passes: list[re.Pattern[str] | None] = [_compound_pattern(mod, a.head)] if mod else []
    if a.head not in _DOC_HEADS:  # "this header section": not any "Section 4"
        passes.append(None)
    for pat in passes:
        given: tuple[int, re.Match[str]] | None = None  # the nearest mention, when it is a definite one
        for j in lay.back(i, window):
            v = lay.seq[j]
            skip = () if lay.display[j] else facts[v.text]
            if pat is None:
                if not forms & word_set(v.text):
                    continue
                ms = list(_plain_occurrences(v.text, a.head, len(v.text), skip))
                m = next((x for x in reversed(ms) if _NEW.search(v.text, max(0, x.start() - 40), x.start())),
                         ms[-1] if ms else None)
            elif pat.search(v.text) is None:
                continue
            else:
                hits = list(pat.finditer(v.text))
                m = next((x for x in hits if not any(b.start <= x.start() < b.end for b in skip)), None)
                if m is None and depth < 2:  # the compound named only by an anaphor: follow it
                    b = next(b for b in skip if any(b.start <= x.start() < b.end for x in hits))
                    got = _resolve_one(v, b, lay, j, WINDOW, facts, depth=depth + 1)
                    if got is None or got[0] < 0:  # unresolved, or the section's subject
                        return j, f"{b.text} (its own referent)"
                    if got[2] >= 0.7:  # by its words, not by a fallback
                        return got[0], f"{got[1]} (via {b.text})"
            if m and not _NEW.search(v.text, max(0, m.start() - 40), m.start()):
                given = given or (j, m)
            elif m:
                return _mention(lay, j, m)
        if given:
            return _mention(lay, *given)
    return None


def _mention(lay: _Layout, j: int, m: re.Match[str]) -> tuple[int, str]:
    """A mention's unit, or for a caption or code line the paragraph that introduces it."""
    k, what = lay.shown(j) if lay.display[j] else (j, "")
    mention = snippet(lay.seq[j].text, m.start(), m.end())
    return (k, f"{what} ({mention})") if k != j else (j, mention)


def _opening(text: str) -> list[_Cand] | None:
    """The candidate of a unit's opening "The X" (:func:`_opening_mention`), to be tagged."""
    m = re.match(r"[\"'\u201c(]*The(?=\s)", text)
    spans = sentences(text) if m else None
    return [(m.start(), m.end(), "det", 0, spans[0][0], spans[0][1])] if m and spans else None


def _opening_mention(text: str, a: Anaphor) -> bool:
    """Whether the head's only earlier uses in the unit are its opening "The X" before a
    present-tense verb, a given thing taken up from before ("The compression codings do not
    define any parameters. ... any of these compression codings")."""
    cand = _opening(text)
    if cand is None or a.head is None:
        return False
    reader = _readers({text: cand})[text]
    got = _np_after(text, reader, cand[0][1])
    if not got or got[0] != a.head:
        return False
    nxt = reader.after(got[1], 1)
    if not nxt or nxt[0].tag not in ("VBZ", "VBP", "MD") or text[got[1]:nxt[0].start].strip():
        return False
    return _plain_occurrence(text[:a.start], a.head, a.start, ()) is not None and not forms_pattern(a.head).search(
        text, got[1], a.start)


def _displayed_block(a: Anaphor, lay: _Layout, i: int, window: int, facts: _Facts) -> tuple[int, str] | None:
    """The nearest list or displayed block above in the section: one whose lead-in or lines use
    the head noun, or whose lead-in holds a modifier of the anaphor's phrase ("the above
    hypothetical request"), else the nearest of the kind the head names (a function is shown,
    rules are listed). The antecedent is the block's lead-in, else its nearest unit."""
    runs: list[int] = []  # the nearest unit of each run, nearest run first
    for j in lay.back(i, window):
        if (lay.display[j] or lay.listed[j]) and (not runs or j not in lay.run(runs[-1])):
            runs.append(j)
    if not runs:
        return None

    target = lay.shown
    if not a.head:
        return target(runs[0])
    forms = set(noun_forms(a.head))
    for j in runs:
        lead = lay.lead_in(j)
        for k in [*lay.run(j), *([lead] if lead is not None else [])]:
            t = lay.seq[k].text
            if forms & word_set(t) and _plain_occurrence(t, a.head, len(t), () if lay.display[k] else facts[t]):
                return target(j)
    mods = {w.lower() for w in re.findall(r"[A-Za-z][\w-]{3,}", a.text)[:-1]} - _CLOSED - {"above", "preceding", "foregoing"}
    for j in runs:
        lead = lay.lead_in(j)
        if mods and lead is not None and lay.display[j] and mods & word_set(lay.seq[lead].text):
            return target(j)
    fits = [j for j in runs if lay.display[j] == (a.head in _DISPLAY_HEADS)]
    return target(fits[0]) if fits else None


def _item_lead_in(u: Unit, a: Anaphor, lay: _Layout, i: int) -> int | None:
    """For an anaphor opening a list item after items of its list ("It complicates ..." as a
    third disadvantage): the list's lead-in; sibling items are parallel, not antecedents."""
    if u.kind != "list_item" or a.start > 12 or i == 0 or not lay.listed[i - 1] or lay.seq[i - 1].kind != "list_item":
        return None
    return lay.lead_in(i) if lay.section[i - 1] == lay.section[i] else None


#: A resolver's answer: ``(antecedent position, evidence, score)``; ``False``: settled, no
#: antecedent; ``None``: not this resolver's case, the next one reads it.
_Got = Union[tuple[int, str, float], Literal[False], None]


@dataclass(frozen=True)
class _Ctx:
    """What a resolver reads: the anaphor's unit ``u`` at position ``i``, how far back it may
    look, the anaphors of the texts read and how deep a chain of anaphors has been followed."""

    u: Unit
    lay: _Layout
    i: int
    window: int
    facts: _Facts
    depth: int


def _by_document_subject(a: Anaphor, c: _Ctx) -> _Got:
    """"this protocol" in a document titled "The MLS Protocol": the document's own subject, as
    "this document" is; no unit introduces it."""
    if a.head and a.head == c.lay.subject and len(a.text.split()) == 2 and a.text.lower().startswith("this "):
        return False
    return None


def _by_connective(a: Anaphor, c: _Ctx) -> _Got:
    """"Similarly, a response ..." or "Otherwise, ..." opening a unit: the previous content unit
    of the section; "Otherwise," closing a list of cases, the list's lead-in."""
    if a.kind != "connective":
        return None
    lead = _item_lead_in(c.u, a, c.lay, c.i) if a.text.lower().startswith(("otherwise", "if not")) else None
    if lead is not None:
        return lead, f"the list after {preview(c.lay.seq[lead].text, 40)}", 0.6
    j = c.lay.previous(c.i)
    return False if j is None else (j, f"previous {_name(c.lay.seq[j])}", 0.6)


def _by_own_unit(a: Anaphor, c: _Ctx) -> _Got:
    """"nontrivial examples ... these examples": a head the unit already used takes up that
    use: no edge. Unless that use is the unit's opening "The X do ..." (:func:`_opening_mention`)."""
    if not (a.head and _plain_occurrence(c.u.text, a.head, a.start, c.facts[c.u.text])):
        return None
    if a.kind != "np" or not _opening_mention(c.u.text, a):
        return False
    got = _head_search(a, c.lay, c.i, WINDOW, c.facts, depth=c.depth)
    return False if got is None else (got[0], got[1], 0.7)


def _by_entry_term(a: Anaphor, c: _Ctx) -> _Got:
    """"Packet Number:" / "This field is 1 to 4 bytes long.": in a definition list's description
    a noun phrase or a pronoun speaks of the entry's term, however many entries before say the same."""
    if not (c.lay.entry[c.i] and a.kind in ("np", "pronoun", "distal")):
        return None
    return c.i - 1, f"the term {preview(c.lay.seq[c.i - 1].text, 40)}", 0.7


def _by_section_subject(a: Anaphor, c: _Ctx) -> _Got:
    """"Will Topic Type" / "Position: bit 5 ..." / "This is a 2-bit field": a pronoun or "this X"
    in the unit's first sentence with only label lines or displays before it in its section
    speaks of what the heading names (the heading's position is negative: :meth:`_Layout.unit`)."""
    lay, i = c.lay, c.i
    if lay.section[i] not in lay.heads or not a.first or a.kind not in ("np", "pronoun"):
        return None
    before = []
    for j in range(i - 1, -1, -1):
        if lay.section[j] != lay.section[i]:
            break
        before.append(j)
    if len(before) >= _OPENING_UNITS or not all(lay.display[j] or _LABEL_LINE.match(lay.seq[j].text) for j in before):
        return None
    head = lay.heads[lay.section[i]]
    if a.kind == "np" and not a.plural and _plural_heading(head.title or head.text):
        return None  # "This algorithm ..." under "Disadvantages": one thing is not what a plural heading names
    return -lay.section[i] - 1, f"the section's subject: {preview(head.text, 40)}", 0.6


def _head_phrase(title: str) -> str:
    """A heading's words up to its first preposition: where its head noun is ("Request Forgery
    with Client Initial Packets" names a forgery)."""
    words = title.split()
    cut = next((k for k, w in enumerate(words) if k and w.lower() in _PREPOSITIONS), len(words))
    return " ".join(words[:cut])


_LAST_WORD = re.compile(r"(?:^|\s)([^\W\d_][\w\-]*)\W*$")


def _plural_heading(title: str) -> bool:
    """Whether a heading names things in the plural, by the last word before its first
    preposition (:func:`_head_phrase`: "Connect Flags", not "Request Forgery with Client Initial
    Packets"); never for a name that is one hyphenated word ("Start-Input-Timers", a header field)
    or ends in a capital ("QoS"). An anaphor's own number is the tagger's (:attr:`Anaphor.plural`)."""
    m = _LAST_WORD.search(_head_phrase(title).strip())
    if m is None or m.group(1)[-1].isupper() or ("-" in m.group(1) and m.start(1) == 0):
        return False
    return singular(m.group(1).lower()) is not None


def _by_distal(a: Anaphor, c: _Ctx) -> _Got:
    """"from that request", "after that time" inside a sentence: the unit just before, when it
    names the thing; a compound ("within that origin server's namespace") further back."""
    if a.kind != "distal":
        return None
    lay, seq = c.lay, c.lay.seq
    j = lay.previous(c.i)
    if j is None or a.head is None:
        return False
    t = seq[j].text
    m = _plain_occurrence(t, a.head, len(t), ()) if set(noun_forms(a.head)) & word_set(t) else None
    if m is None and (mod := _modifier_of(a)) is not None:
        pat = _compound_pattern(mod, a.head)
        for k in lay.back(c.i, c.window):
            if not lay.display[k] and (m2 := pat.search(seq[k].text)) is not None:
                return k, snippet(seq[k].text, m2.start(), m2.end()), 0.6
    return False if m is None else (j, snippet(t, m.start(), m.end()), 0.6)


def _by_display_above(a: Anaphor, c: _Ctx) -> _Got:
    """"the above rules", "all of the above", "the preceding function", "the steps above": the
    list or displayed block above (:func:`_displayed_block`)."""
    if not ((_SPATIAL.match(a.text) or (a.head and a.text.endswith("above"))) and (a.first or a.head)):
        return None
    got = _displayed_block(a, c.lay, c.i, c.window, c.facts)
    return None if got is None else (got[0], got[1], 0.6)


def _by_example(a: Anaphor, c: _Ctx) -> _Got:
    """"this example": the example just shown (right before, or before one paragraph on it),
    else the one its section is giving."""
    if a.head != "example":
        return None
    lay = c.lay
    for j in lay.back(c.i, 2):
        if lay.display[j]:
            return (*lay.shown(j), 0.7)
    got = _head_search(a, lay, c.i, c.window, c.facts, depth=c.depth)
    return False if got is None else (got[0], got[1], 0.8)


def _by_display_before(a: Anaphor, c: _Ctx) -> _Got:
    """"This header field contains two challenges" opening a unit right after the example it
    speaks of: what was just shown, introduced by the paragraph that leads into it."""
    lay, i = c.lay, c.i
    if not (a.head and a.kind == "np" and a.start == 0 and i > 0 and lay.display[i - 1] and lay.section[i - 1] == lay.section[i]):
        return None
    return (*lay.shown(i - 1), 0.7)


def _by_head_noun(a: Anaphor, c: _Ctx) -> _Got:
    """"this status code" after "The 303 (See Other) status code indicates ...": the nearest
    unit of the section that introduces what the head names (:func:`_head_search`)."""
    got = _head_search(a, c.lay, c.i, c.window, c.facts, depth=c.depth) if a.head else None
    return None if got is None else (got[0], got[1], 0.8)


def _by_thread(a: Anaphor, c: _Ctx) -> _Got:
    """"It is sent when ...", "In this case, ..." in a unit's first sentence with no word to go
    by: the previous content unit of the section; a list item after its siblings, the list's
    lead-in; a pronoun after a list ("... in the following SDOs:" / "Malware" / "This is an open
    vocabulary"), the list's lead-in."""
    if not (a.first and (a.kind in ("pronoun", "phrase", "idiom") or a.head)):
        return None
    lay, i, seq = c.lay, c.i, c.lay.seq
    lead = _item_lead_in(c.u, a, lay, i)
    j = lay.previous(i) if lead is None else None
    if lead is None and j is not None and a.kind == "pronoun" and seq[j].kind == "list_item":
        lead = lay.lead_in(j)
    if lead is not None:
        return lead, f"the list after {preview(seq[lead].text, 40)}", 0.6
    if j is None:
        return False
    what = f"previous {_name(seq[j])}" if j == i - 1 else f"the {_name(seq[j])} leading into the display"
    return j, what, 0.6 if a.kind == "pronoun" else 0.5


#: The resolvers in precedence: the first that settles an anaphor (an antecedent, or none) decides.
RESOLVERS: tuple[tuple[str, Callable[[Anaphor, _Ctx], _Got]], ...] = (
    ("document-subject", _by_document_subject),
    ("connective", _by_connective),
    ("own-unit", _by_own_unit),
    ("entry-term", _by_entry_term),
    ("section-subject", _by_section_subject),
    ("distal", _by_distal),
    ("display-above", _by_display_above),
    ("example", _by_example),
    ("display-before", _by_display_before),
    ("head-noun", _by_head_noun),
    ("thread", _by_thread),
)


def _resolve_one(u: Unit, a: Anaphor, lay: _Layout, i: int, window: int, facts: _Facts, *,
                 depth: int = 0) -> tuple[int, str, float] | None:
    """``(antecedent position, evidence, score)`` for one anaphor: the first of :data:`RESOLVERS`
    that settles it decides."""
    c = _Ctx(u, lay, i, window, facts, depth)
    for _rule, resolve in RESOLVERS:
        got = resolve(a, c)
        if got is not None:
            return got or None
    return None
