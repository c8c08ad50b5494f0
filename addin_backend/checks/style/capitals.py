"""Capitalisation of a phrase: "Message Body" inside a sentence where the document writes
"message body".

A candidate is a run of two to four capitalised words inside a sentence (not at its start, not
after a colon or an opening quote) that the document also writes in lower case. Not reported:

- defined terms written capitalised where they are defined (a capitalised defined term is
  intended: "the Agreement", "Initial packets"), and acronym expansions ("Transport Layer
  Security (TLS)");
- the titles of the document's headings and captions where a sentence cites them ("see the
  Security Considerations section", "Section 6 (Message Body)"); elsewhere a heading's title
  case is no licence ("an optional Message Body" beside the document's "message body" is
  reported);
- a run opening with a capitalised article ("as The Book": a title or a name);
- part of a longer capitalised name (the run is taken whole, and so is a title joined by small
  words: "Illegal Value for Header Field", and a capitalised enumeration: "Composure, Coaching,
  and Commitment Management tools"), quoted titles;
- a phrase the document writes as a protocol element's name ("the Key Phase bit", "the Retry
  Count field", "a Registry Key object"): its other capitalised uses name the same element ("the
  value of the Key Phase");
- the name of what a section defines, capitalised more than once: the title of a heading
  ("Threat Actor"), also without its kind ("Network Traffic" of "Network Traffic Object"); a
  heading's title cited after its typed number ("according to 4.4.2 Unacknowledged Packets");
- captions (titles, often in title case), also typed as paragraphs ("Figure 3-29 – Protection
  Schemes"), and German (every noun is capitalised).

Only the capitalised form is reported, where the lower-case form is more common (and written
twice or more): lower case is always ordinary English, while a capitalised majority is
a name the document uses ("Application Data" packets and new application data). The style
sheet's exceptions silence a phrase.
"""
from __future__ import annotations

import re

from adapters import words as _words

from adapters.labels import typed_caption_label

from ...findings import Finding, Place
from ...graph.definitions import definition_registry
from .prose import Prose, make_finding
from .sheet import StyleSheet

__all__ = ["capitalisation_findings"]

_ARTICLES = frozenset("The A An Der Die Das Le La Les El Los Las Il Lo Gli".split())
_NO_CAPITALS_RULE = frozenset({"de", "lb"})
_OPENERS = ".!?:;\u2022\"'\u201c\u201e\u00ab(\u2018[\n\t"


def _capitalised(w: str) -> bool:
    return len(w) >= 2 and w.isalpha() and w[0].isupper() and w[1:].islower()


_TITLE_GLUE = frozenset("of for the and in on to with a an at by from or de".split())


def _in_title(text: str, toks: list[tuple[int, int, str]], i: int, j: int) -> bool:
    """Whether the run ``toks[i..j]`` is part of a title-case name joined by small words
    ("Illegal Value for Header Field", "Department of Veterans Affairs")."""
    def joined(a: int, b: int) -> bool:
        return text[toks[a][1]:toks[b][0]] in (" ", "\u00a0")

    # an enumeration of capitalised names: "(Composure, Coaching, and Commitment Management tools"
    k = i - 1
    while k >= 0 and toks[k][2] in ("and", "or") and joined(k, k + 1):
        k -= 1
    if 0 <= k < i and text[toks[k][1]:toks[k][1] + 1] == "," and _capitalised(toks[k][2]):
        before = text[:toks[k][0]].rstrip()
        if before and before[-1] not in ".!?:\n":
            return True
    k = i - 1
    while k >= 0 and toks[k][2].lower() in _TITLE_GLUE and toks[k][2].islower() and joined(k, k + 1):
        k -= 1
    if k < i - 1 and k >= 0 and _capitalised(toks[k][2].split("-")[0]) and joined(k, k + 1):
        before = text[:toks[k][0]].rstrip()
        if before and before[-1] not in ".!?:\n":  # not the word that opens the sentence ("Once a ...")
            return True
    k = j + 1
    while k < len(toks) and toks[k][2] in _TITLE_GLUE and joined(k - 1, k):
        k += 1
    return k > j + 1 and k < len(toks) and joined(k - 1, k) and _capitalised(toks[k][2].split("-")[0])


def _phrases(text: str) -> list[tuple[int, int, list[str]]]:
    """Maximal runs of capitalised words inside sentences: ``(start, end, words)``."""
    toks = [(m.start(), m.end(), m.group()) for m in _words.finditer(text)]
    out = []
    i = 0
    while i < len(toks):
        if not _capitalised(toks[i][2].split("-")[0]):
            i += 1
            continue
        j = i
        while j + 1 < len(toks) and text[toks[j][1]:toks[j + 1][0]] in (" ", "\u00a0") and all(
                _capitalised(x) for x in toks[j + 1][2].split("-")):
            j += 1
        start, end = toks[i][0], toks[j][1]
        words = [t[2] for t in toks[i:j + 1]]
        if _in_title(text, toks, i, j):
            i = j + 1
            continue
        before = text[:start].rstrip(" \u00a0")
        prev_word = toks[i - 1][2] if i else ""
        mid = bool(before) and before[-1] not in _OPENERS and not (prev_word and prev_word[0].isupper() and
                                                                   text[toks[i - 1][1]:start].strip() == "")
        if words[0] in _ARTICLES:
            mid = False  # "Peter Jones as The Book": a capitalised article opens a title or a name
        if mid and 2 <= len(words) <= 4 and all(_capitalised(x) for w in words for x in w.split("-")):
            out.append((start, end, words))
        i = j + 1
    return out


def _excepted(p: Prose) -> tuple[set[str], set[str]]:
    """``(names, titles)``, lower-cased: the phrases that may be capitalised wherever they stand
    and inside a longer capitalised run (defined terms, written so where defined; acronym
    expansions), and the titles of headings and captions, which a sentence may cite as they are
    written ("see the Security Considerations section"), but which are ordinary words elsewhere
    ("an optional Message Body" beside "the message body", where a heading says "Message Body")."""
    out: set[str] = set()
    for key, entries in definition_registry(p.doc.units).items():
        for _o, _uid, d in entries:
            if any(c.isupper() for c in d.term[:1]) or d.kind == "acronym":
                out.add(d.term.lower())
            if d.kind == "acronym" and "(" in d.span:
                span = d.span
                long = span[: span.rfind("(")].strip() if not span.startswith(d.term) else span[len(d.term):].strip(" ()")
                out.add(" ".join(long.lower().split()))
    from ..terminology import find_acronyms

    for info in find_acronyms(p.doc).values():
        for entry in info.definitions:
            out.add(" ".join(entry[2].lower().split()))
    titles: set[str] = set()
    for u in p.units:
        if u.kind in ("section", "title", "caption"):
            title = (u.title or u.text).lower()
            titles.add(" ".join(title.split()))
            titles.add(" ".join(re.sub(r"\s*\([^()]*\)\s*$", "", title).split()))  # "Observable Container (deprecated)"
            for part in title.replace(":", "\n").replace(" - ", "\n").split("\n"):
                titles.add(" ".join(part.split()))
    return out, titles


#: A heading's title cited as one: "the Message Body section", "see Message Body", "Section 6
#: (Message Body)", "in Message Body below".
_CITED_AFTER = re.compile(r"^\s*(?:[)\]]|\(|,\s*(?:below|above)|\s(?:section|sections|subsection|chapter|appendix|clause|"
                          r"part|below|above|heading|of\s+\[|\[))", re.I)


#: What a capitalised name names in a protocol or a data model: "the Packet Number field", "the
#: Key Phase bit", "a Registry Key object".
_NAMED_ELEMENT = re.compile(r"\s(?:fields?|bits?|flags?|frames?|parameters?|extensions?|messages?|registry|registries|"
                            r"objects?)\b")
#: The kind of thing a heading's title may end with where the text names the thing without it:
#: the section "Network Traffic Object" defines what the text calls "Network Traffic".
_KIND_WORDS = frozenset("object objects packet packets field fields flag flags message messages type types "
                        "property properties extension extensions element elements attribute attributes "
                        "record records class classes".split())


def _cites_title(text: str, start: int, end: int) -> bool:
    """Whether the run at ``start:end`` is cited as a heading's title (see :data:`_CITED_AFTER`)."""
    before = text[max(0, start - 30):start]
    return bool(_CITED_AFTER.match(text[end:end + 20]) or re.search(r"(?:\bsee|\bSections?\s+[\dA-Z][\d.]*\s*\(?"
                                                                     r"|\bthe\s+section|[(\[\"\u201c']"
                                                                     r"|(?<![\w.])(?:\d{1,3}|[A-Z])(?:\.\d{1,3})+)\s*$",
                                                                     before, re.I))


def _heading_names(p: Prose) -> set[str]:
    """The titles of the document's headings (lower case), also without a trailing word for the
    kind of thing ("network traffic" of "Network Traffic Object")."""
    out: set[str] = set()
    for u in p.doc.units:
        if u.kind != "section":
            continue
        words = re.sub(r"\s*\([^()]*\)\s*$", "", (u.title or u.text).lower()).split()  # "... (deprecated)"
        while words and not words[0][:1].isalpha():
            words = words[1:]  # a typed number
        if words:
            out.add(" ".join(words))
            if len(words) > 2 and words[-1] in _KIND_WORDS:
                out.add(" ".join(words[:-1]))
    return out


def capitalisation_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Phrases capitalised inside sentences where the document also writes them in lower case."""
    units = [u for u in p.sentences() if p.lang.get(u.id) not in _NO_CAPITALS_RULE and u.kind != "caption"
             and not (typed_caption_label(u.text) and len(u.text.split()) <= 40)]  # a caption typed as a paragraph
    caps: dict[str, list[Place]] = {}
    for u in units:
        text = u.text
        if not any(c.isupper() for c in text[1:]):
            continue
        for s, e, words in _phrases(text):
            key = " ".join(w.lower() for w in words)
            caps.setdefault(key, []).append(Place(u.id, s, e, text[s:e], text[s:e].lower()))
    if not caps:
        return []
    excepted, titles = _excepted(p)
    caps = {k: v for k, v in caps.items() if k not in excepted}
    caps = {k: v for k, v in caps.items() if not any(k in e and len(k) < len(e) and f" {k} " in f" {e} " for e in excepted
                                                      if len(e.split()) <= 8)}
    texts = {u.id: u.text for u in units}
    # the name of what a section defines, capitalised as a name more than once: STIX's "Threat
    # Actor" (its section "Threat Actor"), "Network Traffic" (section "Network Traffic Object")
    heads = _heading_names(p)
    caps = {k: v for k, v in caps.items()
            if not (len(v) >= 2 and (k in heads or (k.endswith("s") and k[:-1] in heads)))}
    caps = {k: [pl for pl in v if not (k in titles and _cites_title(texts[pl.unit], pl.start, pl.end))]
            for k, v in caps.items()}
    # a field's or a flag's name: "the Key Phase bit", "the Packet Number field"; written so once,
    # the name's other capitalised uses name the same element ("the value of the Key Phase")
    caps = {k: v for k, v in caps.items() if not any(_NAMED_ELEMENT.match(texts[pl.unit], pl.end) for pl in v)}
    caps = {k: v for k, v in caps.items() if v}
    if not caps:
        return []
    firsts = {k.split()[0] for k in caps}
    lower: dict[str, list[Place]] = {}
    for u in units:
        text = u.text
        low = text.lower()
        if not any(f in low for f in firsts):
            continue
        toks = [(m.start(), m.end(), m.group()) for m in _words.finditer(text)]
        for i, (s, _e, w) in enumerate(toks):
            if w not in firsts:
                continue  # the lower-case form starts with a lower-case word
            for n in (2, 3, 4):
                if i + n > len(toks):
                    break
                seq = toks[i:i + n]
                if any(text[a[1]:b[0]] not in (" ", "\u00a0") for a, b in zip(seq, seq[1:])):
                    break
                if not all(t[2].islower() for t in seq):
                    break
                key = " ".join(t[2] for t in seq)
                if key in caps:
                    end = seq[-1][1]
                    lower.setdefault(key, []).append(Place(u.id, s, end, text[s:end], None))
    out: list[Finding] = []
    for key, cap_places in sorted(caps.items()):
        low_places = lower.get(key)
        if not low_places:
            continue
        if len(low_places) < 2 or len(low_places) <= len(cap_places):
            continue  # a capitalised name the document also uses as ordinary words ("Application Data")
        if len(cap_places) >= 3 and 5 * len(cap_places) >= 2 * (len(cap_places) + len(low_places)):
            continue  # capitalised on purpose, again and again: a name ("This field consists of Binary Data")
        places, want = cap_places, key
        out.append(make_finding(
            "phrase_capitalisation", "info", places,
            f"'{cap_places[0].text}' is capitalised inside a sentence {len(cap_places)} time(s) and written "
            f"'{key}' {len(low_places)} time(s); the usual form is '{want}'"))
    return out
