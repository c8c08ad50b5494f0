"""Captions and headings: caption labels written two ways ("Figure 1:" / "Fig. 1." / "FIGURE
1 -"), and headings of one level in title case and in sentence case.

A caption's style is its label word (per family: "Figure", "Fig.", "FIGURE") and the separator
after the number (":", ".", a dash, nothing); the majority of the document decides each, or the
style sheet's ``captions.label``. The number is never touched (it is often a field).

A heading is in title case when its words are capitalised, in sentence case when they are in
lower case after the first; words that decide neither are left out: the first word and the one
after a colon, articles, prepositions and conjunctions (style guides differ on "Between" and
"With"), abbreviations, identifiers, words with digits, and names the document capitalises
inside sentences ("QUIC", "Alice"). A heading with words of both cases is mixed and counts
for neither. English headings only (German capitalises its nouns).
"""
from __future__ import annotations

import re
from collections import Counter

from adapters import words as _words
from adapters.labels import CAPTION_WORDS
from adapters.model import Unit

from ...findings import Finding, Place
from ...outline import typed_heading
from .prose import Prose, known_word, make_finding, word_cases
from .sheet import StyleSheet

__all__ = ["caption_findings", "heading_findings", "heading_case"]

_WORD_ALT = "|".join(re.escape(w) for w in sorted(CAPTION_WORDS, key=len, reverse=True))
_CAPTION = re.compile(rf"^\s*(?P<word>{_WORD_ALT})(?P<gap>\s*)(?P<num>(?:[A-Z]|\d+)(?:[.\-]\d+)*)(?![\w])"
                      rf"(?P<sep>\s*(?:[:.]|[\u2013\u2014]|-(?!\d))?\s*)(?=\S)", re.I)


def _family(word: str) -> str:
    from adapters.labels import seq_label

    return seq_label(word, "1").split()[0].lower()


def _sheet_label(label: str) -> tuple[str, str]:
    """``"Fig. 1:"`` -> ``("Fig.", ":")``."""
    m = re.match(r"^(?P<word>[A-Za-z]+\.?)\s+1\s*(?P<sep>[:.\u2013\u2014-]?)$", label)
    assert m, label
    return m.group("word"), m.group("sep")


def _sep_text(sep: str) -> str:
    s = sep.strip()
    return {"": " ", ":": ": ", ".": ". ", "-": " - ", "\u2013": " \u2013 ", "\u2014": " \u2014 "}[s]


def caption_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Caption labels of one family in several words, and separators of several kinds."""
    caps: list[tuple[Unit, re.Match[str], str]] = []
    for u in p.units:
        if u.kind != "caption" and u.kind != "paragraph":
            continue
        m = _CAPTION.match(u.text)
        if not m or (u.kind == "paragraph" and not m.group("sep").strip()):
            continue  # a paragraph opening "Table 1 shows ..." is no caption
        if m.group("word")[0].islower():
            continue
        caps.append((u, m, _family(m.group("word"))))
    if not caps:
        return []
    out: list[Finding] = []
    rule = sheet.rule("captions.label") if sheet.caption_label else None
    want_word, want_sep = _sheet_label(sheet.caption_label) if sheet.caption_label else (None, None)
    # the label word, per family
    by_family: dict[str, Counter] = {}
    for u, m, fam in caps:
        by_family.setdefault(fam, Counter())[m.group("word")] += 1
    for fam, c in sorted(by_family.items()):
        if want_word is not None and _family(want_word) == fam:
            target = want_word
        elif len(c) > 1:
            target = max(c, key=lambda w: (c[w], len(w)))
        else:
            continue
        places = [Place(u.id, m.start("word"), m.end("word"), m.group("word"), target)
                  for u, m, f in caps if f == fam and m.group("word") != target]
        if places:
            listing = ", ".join(f"'{w}' ({n})" for w, n in c.most_common())
            out.append(make_finding("caption_style", "info", places,
                                    f"{fam} captions are labelled {listing}; the usual label is '{target}'", rule=rule))
    # the separator after the number, across families
    seps = Counter(m.group("sep").strip() for _, m, _ in caps)
    target_sep = want_sep if want_sep is not None else (max(seps, key=lambda s: (seps[s], s == ":")) if len(seps) > 1 else None)
    if target_sep is not None:
        places = [Place(u.id, m.end("num"), m.end("sep"), m.group("sep"), _sep_text(target_sep))
                  for u, m, _ in caps if m.group("sep").strip() != target_sep]
        if places:
            listing = ", ".join(f"'{s or 'a space'}' ({n})" for s, n in seps.most_common())
            out.append(make_finding(
                "caption_style", "info", places,
                f"caption numbers are followed by {listing}; the usual separator is '{target_sep or 'a space'}'",
                evidence=p.doc.unit(places[0].unit).text[:places[0].end + 1].strip(), rule=rule))
    return out


# --- headings ------------------------------------------------------------------------------------

#: Words title case may leave in lower case: articles, prepositions, conjunctions, "to", particles.
MINOR = frozenset("""a an the and but or nor for so yet as at by in of off on per to up via vs v versus with
    from into onto over under upon than that about above across after against along among around before
    behind below beneath beside between beyond during except inside like near out outside past since
    through throughout till toward towards underneath until within without down if when whether while
    not""".split())


def _title_text(u: Unit) -> tuple[str, int]:
    """The heading's title and where it starts in ``u.text`` (a typed number left out)."""
    text = u.text
    typed = typed_heading(text)
    if typed:
        at = text.find(typed[1])
        if at >= 0:
            return typed[1], at
    return text, 0


_QUOTED = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d|<[^>]*>")
_LITERAL = frozenset("\"'\u201c\u201d\u2018\u2019`<>/_.=")


def heading_case(text: str, lower: frozenset[str] | set[str], names: frozenset[str] | set[str],
                 english: bool = True) -> tuple[str, list[tuple[int, int, str]]]:
    """``(case, words)``: ``"title"``, ``"sentence"``, ``"mixed"`` or ``"none"``, and the
    ``(start, end, word)`` of the words that decide it.

    >>> heading_case("Estimating the Round-Trip Time", {"time", "round"}, set())[0]
    'title'
    >>> heading_case("Estimating the round-trip time", {"time", "round"}, set())[0]
    'sentence'
    >>> heading_case("Handshake Packets for QUIC", {"packets"}, {"quic", "handshake"})[0]
    'title'
    >>> heading_case("Deprecation of Userinfo in http(s) URIs", {"deprecation"}, set())  # "http(s)": a name
    ('none', [])
    """
    caps: list[tuple[int, int, str]] = []
    lows: list[tuple[int, int, str]] = []
    first = True
    quoted = [q.span() for q in _QUOTED.finditer(text)]
    for m in _words.finditer(text):
        if any(a <= m.start() < b for a, b in quoted):
            continue
        w = m.group()
        part = w.split("-")[0]
        before = text[:m.start()].rstrip()
        if first or before.endswith((":", "\u2014", "\u2013", " -", "?", "!", ".")) and not before.endswith(".."):
            first = False
            continue
        if not part.isalpha() or len(part) < 2 or w.count("-") >= 2:
            continue  # "grammar-ref-list": an identifier
        if text[m.start() - 1:m.start()] in _LITERAL or text[m.end():m.end() + 1] in _LITERAL or text[m.end():m.end() + 1] == "(":
            continue  # 'Sub-Registry "proto"', "text/grammar", "http(s) URIs": a literal value or a name
        low = part.lower()
        if low in MINOR or (english and not known_word(low)):
            continue  # a minor word, or an identifier ("rttvar")
        if part.islower():
            lows.append((m.start(), m.start() + len(part), part))
        elif part[0].isupper() and part[1:].islower():
            if low in names or low not in lower:
                continue  # a name, or a word never written in lower case: it decides nothing
            caps.append((m.start(), m.start() + len(part), part))
    if caps and lows:
        return "mixed", caps + lows
    if caps:
        return "title", caps
    if lows:
        return "sentence", lows
    return "none", []


def heading_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Headings of one level in title case and in sentence case (English headings)."""
    lower, names = word_cases(p)
    by_level: dict[int, list[tuple[Unit, str, list[tuple[int, int, str]], int]]] = {}
    for u in p.units:
        if u.kind != "section" or not p.english(u) or u.level is None:
            continue
        title, at = _title_text(u)
        case, ws = heading_case(title, lower, names)
        if case in ("title", "sentence"):
            by_level.setdefault(u.level, []).append((u, case, ws, at))
    out: list[Finding] = []
    rule = sheet.rule("headings.case") if sheet.heading_case else None
    for level, items in sorted(by_level.items()):
        c = Counter(case for _, case, _, _ in items)
        want = sheet.heading_case
        if want is None:
            if len(c) < 2:
                continue
            want = max(c, key=lambda k: (c[k], k == "sentence"))
        places = []
        for u, case, ws, at in items:
            if case == want:
                continue
            for s, e, w in ws:
                repl = w.lower() if want == "sentence" else w[0].upper() + w[1:]
                places.append(Place(u.id, at + s, at + e, w, repl))
        if not places:
            continue
        wrong = [u for u, case, _, _ in items if case != want]
        msg = (f"level-{level} headings are in title case ({c['title']}) and in sentence case ({c['sentence']}); "
               f"the usual case is {want} case" if not rule else
               f"{len(wrong)} level-{level} heading(s) are not in {want} case, which the style sheet asks for")
        out.append(make_finding("heading_case", "info", places, msg, evidence=_title_text(wrong[0])[0], rule=rule))
    return out
