"""Quotation marks and dashes: straight against curly quotes, a hyphen standing for a dash, and
parenthetical dashes written two ways (a closed em dash "a\u2014b" against a spaced en dash
"a \u2013 b").

The document's own majority decides (or the style sheet's ``punctuation.quotes`` and
``punctuation.dash``); the curly marks a fix writes are those the document uses most (German
„…“, French «…», English “…”). Apostrophes count with the quotes: "don't" against "don’t". A
straight mark after a digit is a prime (5' 10", 12") and is left alone; ranges ("1\u20135",
"pages 3-7") are no dashes, nor is an option ("--safe") or the separator of a heading or a
caption ("CONNECT - Connection Request": headings and captions have their own checks).
"""
from __future__ import annotations

import re
from collections import Counter

# the marks, their roles and the document's curly pairs: one definition (adapters.quotes), shared
# with the edits that write text in the document's style
from adapters.quotes import CURLY as _CURLY
from adapters.quotes import QUOTE_CHARS as _QUOTE_CHARS
from adapters.quotes import classify_mark as _classify
from adapters.quotes import curly_marks as _curly_marks
from adapters.quotes import is_open as _is_open

from adapters.labels import typed_caption_label

from ...findings import Finding, Place
from .prose import Prose, make_finding, protected_spans
from .sheet import StyleSheet

__all__ = ["quote_findings", "dash_findings"]

def quote_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Straight and curly quotation marks mixed in one document; apostrophes apart (French
    writes « » with straight apostrophes: two choices, not one)."""
    return [f for family in ("quotes", "apostrophes") for f in _quote_family(p, sheet, family)]


def _quote_family(p: Prose, sheet: StyleSheet, family: str) -> list[Finding]:
    marks: list[tuple[str, int, str, str, str]] = []  # unit, offset, char, role, style
    counts: Counter = Counter()
    for u in p.units:
        text = u.text
        if "'" not in text and '"' not in text and not any(c in text for c in _CURLY):
            continue
        code = _code_marks(text)
        for m in _QUOTE_CHARS.finditer(text):
            i = m.start()
            if i in code:
                continue
            got = _classify(text, i)
            if got is None:
                continue
            role, style = got
            if (role == "apostrophe") != (family == "apostrophes"):
                continue
            marks.append((u.id, i, text[i], role, style))
            counts[style] += 1
            if style == "curly" and role == "double":
                counts[("open" if _is_open(text, i) else "close", text[i])] += 1
    if counts["straight"] == 0 or counts["curly"] == 0:
        if not sheet.quotes or counts["straight" if sheet.quotes == "curly" else "curly"] == 0:
            return []
    want = sheet.quotes or ("curly" if counts["curly"] > counts["straight"] else "straight")
    rule = sheet.rule("punctuation.quotes") if sheet.quotes else None
    curly = _curly_marks(counts)
    texts = {u.id: u.text for u in p.units}
    places: list[Place] = []
    for uid, i, ch, role, style in marks:
        if style == want:
            continue
        text = texts[uid]
        if want == "straight":
            repl = '"' if role == "double" else "'"
        elif role == "apostrophe":
            repl = "\u2019"
        else:
            key = f"{role}_{'open' if _is_open(text, i) else 'close'}"
            repl = curly[key]
        places.append(Place(uid, i, i + 1, ch, repl))
    if not places:
        return []
    other = "straight" if want == "curly" else "curly"
    n_want = counts[want]
    what = "apostrophe(s)" if family == "apostrophes" else "quotation mark(s)"
    msg = (f"{len(places)} {other} {what} in a document that writes {n_want} {want} one(s); the usual style is "
           f"{want}" if not rule else f"{len(places)} {other} {what}; the style sheet asks for {want} ones")
    return [make_finding("quote_style", "info", places, msg, rule=rule)]


#: A literal with its prefix: b'ABI=', h'CAFE', b64'EjRW' (the marks are the literal's syntax).
_LITERAL = re.compile(r"(?<![\w'])[a-z]\d{0,2}(')[^'\s]*(')")


def _code_marks(text: str) -> set[int]:
    """Offsets of straight marks that belong to code, not to the prose's punctuation: those that
    touch an identifier (the quotes of a JSON key: '"version": "2.1.0"') and a literal's
    ('b\'ABI=\'')."""
    out = {m.start(g) for m in _LITERAL.finditer(text) for g in (1, 2)} if "'" in text else set()
    for a, b in protected_spans(text):
        for i in (a - 1, b):
            if 0 <= i < len(text) and text[i] in "'\"":
                out.add(i)
    return out


# --- dashes ------------------------------------------------------------------------------------

#: A hyphen standing for a dash: spaced between words ("the server - which"), or doubled and
#: closed or spaced on both sides ("a--b", "a -- b"); not an option glued to its name ("run it
#: with --safe").
_HYPHEN_DASH = re.compile(r"(?:(?<=[^\W\d_])|(?<=[^\W\d_][,)])) - (?=[^\W\d_(])"
                          r"|(?<=[^\W\d_])--(?!-)(?=[^\W\d_])|(?<=[^\W\d_]) --(?!-) (?=[^\W\d_])")
_EM = re.compile(r"(?:(?<=[^\W\d_])|(?<=[^\W\d_][,)])) ?\u2014 ?(?=[^\W\d_(])")
_EN_SPACED = re.compile(r"(?:(?<=[^\W\d_])|(?<=[^\W\d_][,)])) \u2013 (?=[^\W\d_(])")


def dash_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Hyphens standing for dashes, and em dashes against spaced en dashes."""
    em: list[Place] = []
    en: list[Place] = []
    hyphens: list[Place] = []
    for u in p.units:
        if u.kind in ("table", "section", "title", "caption") or typed_caption_label(u.text):
            continue  # a heading's or a caption's separator ("CONNECT - Connection Request") is its title's style
        text = u.text
        if "-" in text:
            for m in _HYPHEN_DASH.finditer(text):
                # a single letter on either side is a formula or a key ("A - B", "Ctrl - C")
                left = re.search(r"(\w+)\W*$", text[: m.start()])
                right = re.match(r"\W*(\w+)", text[m.end():])
                if (left and len(left.group(1)) < 2) or (right and len(right.group(1)) < 2):
                    continue
                hyphens.append(Place(u.id, m.start(), m.end(), m.group(), ""))
        if "\u2014" in text:
            em.extend(Place(u.id, m.start(), m.end(), m.group(), "") for m in _EM.finditer(text))
        if "\u2013" in text:
            en.extend(Place(u.id, m.start(), m.end(), m.group(), "") for m in _EN_SPACED.finditer(text))
    want = sheet.dash
    rule = sheet.rule("punctuation.dash") if want else None
    if want is None:
        if em or en:
            want = "em" if len(em) >= len(en) else "en"
        else:
            en_us = any(t.lower().startswith("en-us") for t in _tags(p))
            want = "em" if en_us or "en" not in p.languages() else "en"
    dash = "\u2014" if want == "em" else " \u2013 "
    out: list[Finding] = []
    if hyphens:
        places = [Place(x.unit, x.start, x.end, x.text, dash) for x in hyphens]
        out.append(make_finding(
            "dash_style", "info", places,
            f"a hyphen stands for a dash {len(places)} time(s) ('{places[0].text.strip()}'); write "
            f"{'an em dash' if want == 'em' else 'a spaced en dash'} ('{dash.strip()}')", rule=rule))
    minority = en if want == "em" else em
    if minority and (em and en or sheet.dash):
        places = [Place(x.unit, x.start, x.end, x.text, dash) for x in minority]
        kind_have = "spaced en dash" if want == "em" else "em dash"
        n_em, n_en = len(em), len(en)
        out.append(make_finding(
            "dash_style", "info", places,
            f"parenthetical dashes written two ways: {n_em} em dash(es), {n_en} spaced en dash(es); "
            f"the {kind_have}(es) become {'em dashes' if want == 'em' else 'spaced en dashes'}", rule=rule))
    return out


def _tags(p: Prose) -> list[str]:
    tags = [str(p.doc.meta.get("language") or "")]
    return [t for t in tags if t]
