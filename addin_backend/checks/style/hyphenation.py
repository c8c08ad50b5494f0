"""Hyphenation and spacing variants: one term written closed, hyphenated and open ("dataset" /
"data-set" / "data set", "E-Mail" / "Email"), against the document's own majority and a word
list of each language.

Hyphenated against closed forms are compared in every language; a term written as two words
("data set") only in English units (joining two words is an English rule: "und er" is not
"under", "en torno" not "entorno"), never from English function words ("may be" / "maybe",
"set up" / "setup" are different words). Words are Unicode words (:mod:`adapters.words`);
every form is whole words of the text, never a piece of a word.

Not compared: a quoted passage (someone else's words, a cited title), and a term whose forms
stand side by side in one sentence (the text speaks about the spelling). Not a term: an
identifier in camel case ("SupportedVersions", "CipherSuite", "UpdateRtt" are
names in the protocol, not "supported versions"), a piece of an e-mail address or a URL
("kazuhooku@..."), a citation tag ("[QUIC-TRANSPORT]"), a function name before "(".

A hyphenated compound before a noun and the open form elsewhere are both right ("a
flow-controlled stream", "the stream is flow controlled", "P is parent-hash valid"): without a
closed form, hyphenated and open forms are compared only before a noun ("a round-trip time" /
"a round trip time"), and names ("Content-Type") only with names; headings and captions (title
case), acronym expansions (names: "Real Time Streaming Protocol (RTSP)") and the hyphenated
names the document's grammar or code uses ("status-code") are left out.

The form a fix writes is a defined term's (as the definition writes it), else the document's
majority, else the word list's (:data:`WORD_LIST`) on a tie. A dictionary word is never split:
where the document's majority is the open or hyphenated form ("user name" 24 times, "username"
twice; "re-sent" and the other word "resent"), the dictionary word is reported without a fix. A
form the word list avoids is reported even when the document writes no other ("on-line": write
"online").
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Callable

from adapters import words as _words
from adapters.model import Document, Unit

from ...edits.terms import recase
from ...findings import Finding, Place
from ...language.detect import is_english
from ...language.wordlists import dictionary_word
from .prose import make_finding, protected_spans

__all__ = ["variant_findings", "WORD_LIST", "FUNCTION_WORDS"]

#: English words that never form a compound worth flagging ("in to" / "into", "may be" /
#: "maybe", "set up" / "setup" are different words, not variant spellings).
FUNCTION_WORDS = frozenset(
    """
    a an the this that these those some any every each no all both either neither one another other
    such what which who whom whose where when why how whatever however wherever
    i me my we us our you your he him his she her it its they them their
    am is are was were be been being do does did have has had can could may might must shall should will would
    and or but nor so yet if then than as of at by for from in into on onto off out over under up down
    to too with without within about above below after before between through during against among
    per via not never ever also just only very more most less least much many few here there now
    back away around along forward aside apart together
    """.split()
)

#: Per language: the avoided form -> the preferred one (as modern style guides and dictionaries
#: write them: AP and Chicago "email", "online", "website"; Duden "E-Mail").
WORD_LIST: dict[str, dict[str, str]] = {
    "en": {"e-mail": "email", "e-mails": "emails", "on-line": "online", "off-line": "offline",
           "web site": "website", "web-site": "website", "web sites": "websites", "data base": "database",
           "data-base": "database", "meta-data": "metadata", "meta data": "metadata", "time-stamp": "timestamp",
           "key-word": "keyword", "web-page": "webpage", "work-flow": "workflow", "life-cycle": "lifecycle"},
    "de": {"email": "E-Mail", "emails": "E-Mails"},
    "nl": {"email": "e-mail", "emails": "e-mails"},
}

_QUOTED = re.compile(r"\"[^\"\n]{1,200}\"|\u201c[^\u201d\n]{1,200}\u201d")
_NOT_TEXT = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|(?:https?|ftp)://\S+|www\.\S+|\[[^\]\s]{2,}\]")


def _letters(word: str) -> bool:
    """Letters only (combining marks included): "sha256", "30-day" and "www.iana.org" are not
    terms spelled two ways."""
    return bool(word) and (word.isalpha() or all(c.isalpha() or unicodedata.category(c)[0] == "M" for c in word))


def _compound(parts: list[str], english: bool) -> bool:
    """A hyphenated word of two parts, letters only, worth comparing with its closed form (in
    English, not one made of function words: "in-to", "set-up")."""
    return (len(parts) == 2 and _letters(parts[0]) and _letters(parts[1])
            and not (english and any(p in FUNCTION_WORDS for p in parts)))


_CAMEL = re.compile(r"[^\W\d_][^\W\d_]*?(?:[a-z][A-Z]|[A-Z]{2}[a-z])")


def _camel(written: str) -> bool:
    """An identifier in camel case: a capital after a small letter ("CipherSuite", "iPhone"), or
    a capital word after capitals ("AEADEncrypted")."""
    if written.islower():  # no capital at all (most words): the pattern needs one
        return False
    return bool(_CAMEL.match(written))


def _inside(spans: list[tuple[int, int]]) -> Callable[[int], bool] | None:
    """A test of whether a position is inside one of ``spans`` (which may overlap), by bisection
    on their starts: a unit's words times its spans were compared one by one (a fifth of the
    hyphenation check on a 5,400-unit specification); ``None`` when there is no span.

    >>> f = _inside([(10, 20), (0, 4), (12, 14)]); [f(i) for i in (0, 3, 4, 9, 10, 19, 20)]
    [True, True, False, False, True, True, False]
    """
    if not spans:
        return None
    spans = sorted(spans)
    starts = [a for a, _b in spans]
    reach = list(accumulate((b for _a, b in spans), max))  # the furthest end of the spans so far

    def inside(pos: int) -> bool:
        i = bisect_right(starts, pos) - 1
        return i >= 0 and reach[i] > pos

    return inside


def _tokens(text: str, english: bool) -> list[tuple[str, int, int]]:
    """The words of ``text`` that may be terms, as ``(plain form, start, end)``; an English
    possessive as its noun ("Hitch Hiker's Guide": "hitch hiker"). Identifiers, e-mail
    addresses, URLs and citation tags are left out."""
    blocked = [m.span() for m in _NOT_TEXT.finditer(text)] if ("@" in text or "//" in text or "www." in text
                                                              or "[" in text) else []
    blocked += protected_spans(text)  # "multipart/byteranges", "index.html", `code`: names, not words
    if '"' in text or "\u201c" in text:
        blocked += [m.span() for m in _QUOTED.finditer(text)]  # quoted words are someone else's
    inside = _inside(blocked)
    out = []
    for m in _words.finditer(text):
        s, e = m.span()
        w = m.group()
        if inside is not None and inside(s):
            continue
        if _camel(w) or ("-" in w and text[e:e + 1] == "("):  # "Transcript-Hash(...)": a function
            continue
        if text[s - 1:s] == "=" or (text[e:e + 1] in ":=" and text[e + 1:e + 2].strip()):
            continue  # "a=resultformat:application/emma+xml": an attribute
        plain = _words.plain(w)
        if english and (plain.endswith("'s")) and len(plain) > 2:
            plain, e = plain[:-2], e - 2
        out.append((plain, s, e))
    return out


@dataclass
class _Occ:
    unit: Unit
    start: int
    end: int
    form: str
    attributive: bool
    plural: bool = False

    @property
    def name(self) -> bool:
        """Written as a name inside a sentence: a later part capitalised ("the Content-Type
        header"); at the start of a line it is a title ("Pre-Class Assignment:")."""
        parts = re.split(r"[\s\-\u2010\u2011]+", self.unit.text[self.start:self.end])
        before = self.unit.text[:self.start].rstrip(" \u00a0\t")
        return bool(before) and before[-1] not in "\n.:;!?" and any(p[:1].isupper() for p in parts[1:])


@dataclass
class _Key:
    occs: list[_Occ] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.occs:
            out[o.form] = out.get(o.form, 0) + 1
        return out


#: The nouns after the name of a literal: "the operating-system value", "the ipv4-addr keyword".
_LITERAL_NOUN = re.compile(r"\s+(?:values?|keywords?|literals?|tokens?|strings?|enumeration\s+values?)\b")


def _attributive(text: str, end: int, toks: list[tuple[str, int, int]], j: int, english: bool) -> bool:
    """Whether the word after a form is what it modifies: a noun ("round-trip time"), an identifier ("zero-length TLSInnerPlaintext"), or a
    suspended compound ("external-PSK and certificate-based handshakes"); not a verb, a function
    word or punctuation ("the byte stream requires", "the round trip is", "is flow controlled.")."""
    if not english or j >= len(toks):
        return False
    nxt, s, _e = toks[j]
    if text[end:s] not in (" ", "\u00a0") or nxt.isdigit():
        return False
    if nxt in ("and", "or") and j + 1 < len(toks) and "-" in toks[j + 1][0]:
        return True
    if nxt in FUNCTION_WORDS or nxt in _CLAUSE_WORDS:
        return False
    written = text[s:s + 1]
    if not _letters(nxt) or written.isupper():
        return True  # an identifier or a name: "zero-length TLSInnerPlaintext", "zero-length Retry Token"
    after = toks[j + 1][0] if j + 1 < len(toks) else ""
    if after in _OBJECTS and _verb(nxt):
        return False  # "the zero length makes it difficult": a verb and its object
    return _modifiable(nxt)


_OBJECTS = frozenset("it the a an this that these those them him her us its their our his".split())


def _verb(word: str) -> bool:
    from ...language.nlp import word_classes

    return "verb" in word_classes(word)


_CLAUSE_WORDS = frozenset("""unless because although though whereas since until except while whether once lest
    rather instead including especially unlike despite""".split())


def _modifiable(word: str) -> bool:
    """A word a compound modifier may stand before: a noun, or a word the lexicon does not know
    (a name)."""
    from ...language.nlp import word_classes

    classes = word_classes(word)
    return not classes or "noun" in classes


def _before_adjective(text: str, end: int, toks: list[tuple[str, int, int]], j: int) -> bool:
    """Whether the hyphenated word ending at ``end`` joins the adjective after it into one
    modifier ("authentication-scheme specific parameters", "connection-ID dependent"): its
    hyphen belongs to the compound, and the open form would change the meaning."""
    if j >= len(toks) or text[end:toks[j][1]] not in (" ", "\u00a0"):
        return False
    nxt = toks[j][0]
    if not nxt.isalpha() or nxt in FUNCTION_WORDS:
        return False
    return nxt.endswith(_ADJECTIVE_TAILS) or nxt in _RELATIONAL


#: Endings of the adjectives that close a compound modifier ("scheme-specific", "host-dependent").
_ADJECTIVE_TAILS = ("specific", "dependent", "independent", "based", "aware", "agnostic", "compliant",
                    "compatible", "sensitive", "insensitive", "related", "oriented", "driven", "safe", "free", "wide")
_RELATIONAL = frozenset("specific dependent independent related".split())


def _defined_forms(doc: Document) -> set[str]:
    """The document's defined terms as their definitions write them (lower case)."""
    from ...graph.definitions import definition_registry

    out = set()
    for entries in definition_registry(doc.units).values():
        for _o, _u, d in entries:
            out.add(_words.plain(d.term).lower())
    return out


def variant_findings(doc: Document, units: list[Unit] | None = None, languages: dict[str, str] | None = None) -> list[Finding]:
    """Terms written hyphenated and closed up ("E-Mail" / "Email"), in every language, and in
    English also as two words ("data set", "data-set", "dataset"); one finding per term, with
    every occurrence of the forms to change."""
    units = units if units is not None else [u for u in doc.units if u.text and u.meta.get("absent_in") != "accepted"]
    closed: dict[str, list[tuple[Unit, int, int]]] = {}
    hyphened: set[str] = set()
    tokens: list[tuple[Unit, bool, list[tuple[str, int, int]]]] = []
    lang: dict[str, str] = {}
    for u in units:
        english = is_english(u, doc) if languages is None else languages.get(u.id) == "en"
        lang[u.id] = "en" if english else (languages or {}).get(u.id, "")
        toks = _tokens(u.text, english)
        tokens.append((u, english, toks))
        for w, start, end in toks:
            if "-" not in w:
                if _letters(w):
                    closed.setdefault(w, []).append((u, start, end))
            elif english and w[0].isalpha() and _compound(parts := w.split("-"), english):
                hyphened.add("".join(parts))
    keys: dict[str, _Key] = {}
    for u, english, toks in tokens:
        text = u.text
        for i, (w, start, end) in enumerate(toks):
            if not w[0].isalpha():
                continue
            if "-" in w:
                parts = w.split("-")
                if english and _before_adjective(text, end, toks, i + 1):
                    continue  # "authentication-scheme specific": one modifier of a compound adjective
                if _LITERAL_NOUN.match(text, end):
                    continue  # "(specified through the operating-system value)": the name of a literal value
                if _compound(parts, english):
                    keys.setdefault("".join(parts), _Key()).occs.append(
                        _Occ(u, start, end, w, _attributive(text, end, toks, i + 1, english)))
                continue
            if not english:  # "und er" / "under", "en torno" / "entorno": joins are English only
                continue
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is None or text[end:nxt[1]] not in (" ", "\u00a0"):
                continue
            a, b = w, nxt[0]
            if len(a) < 2 or len(b) < 2 or a in FUNCTION_WORDS or b in FUNCTION_WORDS or not (a + b in closed or a + b in hyphened):
                continue
            if _letters(a) and _letters(b):
                keys.setdefault(a + b, _Key()).occs.append(
                    _Occ(u, start, nxt[2], f"{a} {b}", _attributive(text, nxt[2], toks, i + 2, english)))
    for key, k in keys.items():
        for u, s, e in closed.get(key, ()):
            k.occs.append(_Occ(u, s, e, key, False))
    for key in [k for k in keys if k.endswith("s") and k[:-1] in keys]:  # "namespaces" with "namespace"
        for o in keys.pop(key).occs:
            o.form, o.plural = _singular(o.form), True
            keys[key[:-1]].occs.append(o)
    code = _code_words(doc) if any(key not in k.counts() for key, k in keys.items()) else set()
    named = _named_words(doc, units) if any(key in k.counts() for key, k in keys.items()) else set()
    for key, k in keys.items():
        if key in named or key + "s" in named:  # "multipart/byteranges": the closed form is a name the document's code and types use
            k.occs = [o for o in k.occs if o.form != key]
    read: list[set[str]] = []

    def defined() -> set[str]:
        # read when a term's forms are ranked: the definition registry (the uses of every term
        # too) was a quarter of a first check, also of documents with no variant at all
        if not read:
            read.append(_defined_forms(doc))
        return read[0]

    expansions: dict[str, list[tuple[int, int]]] | None = None
    fixed_target: dict[str, str] = {}
    out: list[Finding] = []
    for key, k in sorted(keys.items()):
        counts = k.counts()
        if len(counts) < 2 or _side_by_side(k.occs):
            continue
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        closed_form = key in counts
        if closed_form and any(lang.get(o.unit.id) == "en" for o in k.occs if o.form == key) and dictionary_word(key):
            # a dictionary word is never split ("worldwide" is not "world wide"); its open or
            # hyphenated forms may be joined, but not where they are a name ("World Wide Web")
            groups = [[o for o in k.occs if o.form == key
                       or not any(p[:1].isupper() for p in re.split(r"[\s\-]+", o.unit.text[o.start:o.end]))]]
            if len({o.form for o in groups[0]}) < 2:
                continue
            if counts[key] >= max(counts.values()):
                fixed_target[key] = key
            # else the document's majority is the open or hyphenated form ('user name' 24 times,
            # 'username' twice): it is the usual form, and the dictionary word is reported unfixed
        elif closed_form:
            groups = [k.occs]
        elif any(f in code for f in counts):
            continue  # "status-code" is a name in the grammar; "a success status code" is prose
        else:
            # a compound before a noun and one after it are both right; names ("Content-Type")
            # and titles are compared with their like only
            if expansions is None:
                expansions = _expansion_spans(doc)
            occs = [o for o in k.occs if o.unit.kind not in ("section", "title", "caption")
                    and not any(a <= o.start < b for a, b in expansions.get(o.unit.id, ()))]
            groups = [[o for o in occs if o.attributive and o.name == n] for n in (True, False)]
        wrong: list[tuple[_Occ, str]] = []
        target_all = None
        for group in groups:
            gc: dict[str, int] = {}
            for o in group:
                gc[o.form] = gc.get(o.form, 0) + 1
            if len(gc) < 2:
                continue
            target = fixed_target.get(key) or _target(gc, defined(), lang.get(group[0].unit.id, ""))
            target_all = target_all or target
            wrong.extend((o, target) for o in group if o.form != target)
        if not wrong:
            continue
        # the rarest form first: the finding is shown where the exception is
        rank = {f: i for i, (f, _n) in enumerate(ranked)}
        wrong.sort(key=lambda ot: (-rank[ot[0].form], ot[0].unit.order, ot[0].start))
        places = [Place(o.unit.id, o.start, o.end, o.unit.text[o.start:o.end],
                      None if o.form == key and closed_form and key not in fixed_target and dictionary_word(key)
                      else recase(o.unit.text[o.start:o.end], _plural(o.form, o.plural), _plural(target, o.plural)))
                  for o, target in wrong]
        listing = ", ".join(f"'{f}' ({n})" for f, n in ranked)
        usual = target_all or ranked[0][0]
        why = " (the defined term)" if usual in defined() and sum(1 for f in counts if f in defined()) == 1 else ""
        tail = "" if closed_form else " (a hyphen before a noun may be intended)"
        out.append(make_finding("variant_spelling", "warning" if closed_form else "info", places,
                                f"one term spelled {len(counts)} ways: {listing}; the usual form is '{usual}'{why}{tail}",
                                suggestion=usual))
    out.extend(_word_list_findings(tokens, keys, lang))
    return out


def _side_by_side(occs: list[_Occ]) -> bool:
    """Two forms of the term listed side by side: the text speaks about the spelling
    ("Hitch-Hiker's Guide, Hitch Hiker's Guide and Hitchhiker's Guide are used")."""
    by_unit: dict[str, list[_Occ]] = {}
    for o in occs:
        by_unit.setdefault(o.unit.id, []).append(o)
    for lst in by_unit.values():
        lst.sort(key=lambda o: o.start)
        for a, b in zip(lst, lst[1:]):
            if a.form != b.form and _LISTED.match(a.unit.text[a.end:b.start]):
                return True
    return False


#: What joins forms listed side by side: "X's Guide, Y's Guide and Z", "e-mail (or email)".
_LISTED = re.compile(r"^(?:['\u2019]s)?(?:\s+[^\W\d_]+)?\s*[,/;(]?\s*(?:and|or|nor|vs\.?|versus|und|oder|et|ou|o|y)?\s*[\"'\u201c]?$")


def _singular(form: str) -> str:
    return form[:-1] if form.endswith("s") else form


def _plural(form: str, plural: bool) -> str:
    return form + "s" if plural else form


def _expansion_spans(doc: Document) -> dict[str, list[tuple[int, int]]]:
    """Where acronyms are spelled out: a name keeps its own spelling ("Real Time Streaming
    Protocol (RTSP)")."""
    from ..terminology import find_acronyms

    out: dict[str, list[tuple[int, int]]] = {}
    for info in find_acronyms(doc).values():
        for _o, uid, _long, s, e in info.definitions:
            out.setdefault(uid, []).append((s, e))
    return out


def _named_words(doc: Document, units: list[Unit]) -> set[str]:
    """The words (lower case) that the document writes inside names in its prose: media types,
    URIs, file names and identifiers (:func:`~.prose.protected_spans`). Such a closed form
    ("byteranges" of "multipart/byteranges") is a name, not a spelling of "byte ranges"."""
    out: set[str] = set()
    for u in units:
        text = u.text
        if not text or not any(c in text for c in "/:@<`_=."):
            continue
        for a, b in protected_spans(text):
            if a > 0 and text[a - 1:a] in "\"\u201c\u201e\u00ab":
                continue  # a quotation is words, not a name
            out.update(w.lower() for w in _words.words(text[a:b]))
    return out


def _code_words(doc: Document) -> set[str]:
    """The hyphenated names the document's code and grammar lines use ("status-code")."""
    from ...graph.related import is_code_line

    out: set[str] = set()
    for u in doc.units:
        if u.kind in ("paragraph", "list_item") and "-" in u.text and is_code_line(u):
            out.update(w.lower() for w in _words.words(u.text) if "-" in w)
    return out


def _target(counts: dict[str, int], defined: set[str], lang: str) -> str:
    """The form to write: the one defined term among the forms, else the majority, else (a tie)
    the word list's, else the first in alphabetical order."""
    forms = sorted(counts, key=lambda f: (-counts[f], f))
    d = [f for f in forms if f in defined]
    if len(d) == 1:
        return d[0]
    top = [f for f in forms if counts[f] == counts[forms[0]]]
    listed = {v.lower() for v in WORD_LIST.get(lang, {}).values()}
    for f in top:
        if f in listed:
            return f
    return forms[0]


def _word_list_findings(tokens, keys: dict[str, _Key], lang: dict[str, str]) -> list[Finding]:
    """Forms the word list avoids, in a document that writes no other form of the term."""
    places: dict[str, list[Place]] = {}
    prefer: dict[str, str] = {}
    reported = {o.form for k in keys.values() if len(k.counts()) >= 2 for o in k.occs}
    for u, english, toks in tokens:
        avoid = WORD_LIST.get(lang.get(u.id, ""), {})
        if not avoid:
            continue
        text = u.text
        for i, (w, s, e) in enumerate(toks):
            form, end = w, e
            if form not in avoid and english and i + 1 < len(toks) and text[e:toks[i + 1][1]] == " ":
                two = f"{w} {toks[i + 1][0]}"
                if two in avoid:
                    form, end = two, toks[i + 1][2]
            if form not in avoid or form in reported:
                continue
            want = avoid[form]
            written = text[s:end]
            repl = recase(written, form, want) if want.islower() else want
            places.setdefault(form, []).append(Place(u.id, s, end, written, repl))
            prefer[form] = want
    out = []
    for form, pl in sorted(places.items()):
        out.append(make_finding("variant_spelling", "info", pl,
                                f"'{pl[0].text}' ({len(pl)}): the word list writes '{prefer[form]}'", suggestion=prefer[form]))
    return out
