"""Document-wide terminology checks: acronyms (undefined, defined twice, used before their
definition) and one term spelled several ways ("data set" / "dataset" / "data-set").

Acronym definitions are those the DEPENDS detector reads (Schwartz-Hearst "Service Level
Agreement (SLA)" and "SLA (Service Level Agreement)"), plus glossary lines ("SLA: Service Level
Agreement", "SLA - ...", a table row "SLA<tab>Service Level Agreement") whose words' initials
spell the acronym. An acronym is a token of 2-10 capitals and digits with at least two capitals
(a plural "s" allowed), not a hexadecimal number. Not reported as undefined: abbreviations
readers of the document's language know without an expansion (:func:`known_acronym`:
:data:`INTERNATIONAL_ACRONYMS`, with the standards bodies, and a short list per language, with
organisations known by their abbreviation and time zones), roman numerals, words written in
capitals that the document also writes in ordinary case, tokens in text written in capitals (a
shouted heading is not an acronym list), and what a reader needs no expansion for:
designations ("RFC 9000"), names the document introduces or uses as names ("the FIN bit", a
registry's "CRYPTO"), explanations a definition detector does not read ("SP (space)") and
versions of known or defined abbreviations ("IPv6"): :mod:`.style.abbreviations`.

The checks work on Unicode words (:mod:`adapters.words`) in every language. What is English
only runs on English units (:func:`~addin_backend.language.detect.is_english`): a term written as two
words ("data set") against its closed form, the English function words that never form such a
term, the English plural of an expansion. Hyphenated against closed forms ("E-Mail" /
"Email", "Befehlszeilen-Option" / "Befehlszeilenoption") are compared in every language.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable

from adapters import words as _words
from adapters.model import Document, Unit

from ..edits.terms import pluralize, singularize
from ..findings import Finding, Place
from ..graph.definitions import find_definitions
from ..graph.mentions import find_citations
from ..language.detect import is_english, unit_language
from ..language.nlp import common_words
from .style.abbreviations import designation, glued_prefix, grammar_names, no_expansion_needed, spells, version_base

__all__ = ["KNOWN_ACRONYMS", "INTERNATIONAL_ACRONYMS", "KNOWN_ACRONYMS_BY_LANGUAGE", "known_acronym",
           "acronym_findings", "find_acronyms"]

#: Abbreviations readers know in any language without an expansion (Chicago Manual 10.2 and
#: most technical style guides: "familiar to readers"): computing and file formats, standards
#: bodies, units. Kept short on purpose: domain abbreviations (SLA, WAL) must still be defined.
INTERNATIONAL_ACRONYMS = frozenset(
    """
    AI API ASCII CD CPU CSS CSV DNA DNS DVD FTP GPS GPU GUI HTML HTTP HTTPS ID IDE IP IT JPEG JPG JSON
    LAN LED MP3 OK OS PC PDF PHP PIN PNG RAM ROM SMS SQL SSH SSL TCP TLS TV UDP UI URL URI USB UTC GMT
    UTF UX VPN WAN XML YAML ZIP ISO IEC IEEE ANSI ASTM NIST W3C DIN EU NATO USA
    IETF IANA IESG IAB IRTF ITU ETSI ECMA 3GPP CEN CENELEC CERN UNESCO UNICEF FIFA OECD
    QUIC LP VHS FIXME
    KB MB GB TB PB KW MW GW KWH MWH GWH KV MV HZ KHZ MHZ GHZ DB KIB MIB GIB TIB PIB KBPS MBPS GBPS DBM
    WIFI PHD LATEX TEX NAN
    """.split()
)

#: What readers of one language know besides (country and organisation names as that language
#: abbreviates them, everyday abbreviations, the labels of notes written in capitals).
KNOWN_ACRONYMS_BY_LANGUAGE = {
    "en": frozenset(
        """
        CEO CFO CTO FAQ GDP HR NASA UK UN US AM PM BC AD CV DIY FYI NB PS PTO RSVP TBD TBA TODO NA VAT VS CC BCC
        BBC CNN FBI CIA IMF WTO OPEC EST EDT CST CDT MST MDT PST PDT BST
        MUST SHALL SHOULD MAY NOT REQUIRED RECOMMENDED OPTIONAL NOTE WARNING CAUTION IMPORTANT
        """.split()
    ),
    "de": frozenset("BRD DDR UNO GB AG KG GMBH EDV PKW LKW MWST USW HINWEIS ACHTUNG WARNUNG VORSICHT WICHTIG".split()),
    "fr": frozenset("ONU UE OTAN TVA PME SA SARL NB PS RAS ATTENTION REMARQUE NOTE AVERTISSEMENT IMPORTANT".split()),
    "es": frozenset("ONU UE OTAN EEUU IVA PYME SA SL NOTA AVISO ADVERTENCIA IMPORTANTE".split()),
    "it": frozenset("ONU UE IVA SPA SRL NB NOTA ATTENZIONE AVVISO IMPORTANTE".split()),
    "pt": frozenset("ONU UE OTAN EUA IVA LTDA SA NOTA AVISO ATENCAO IMPORTANTE".split()),
    "nl": frozenset("VN BTW BV NV NB LET OP OPMERKING WAARSCHUWING BELANGRIJK".split()),
}

#: The abbreviations an English reader knows (the international ones and the English list).
KNOWN_ACRONYMS = INTERNATIONAL_ACRONYMS | KNOWN_ACRONYMS_BY_LANGUAGE["en"]


def known_acronym(term: str, languages: "set[str] | frozenset[str]" = frozenset({"en"})) -> bool:
    """Whether readers of any of ``languages`` know ``term`` without an expansion.

    >>> known_acronym("UK"), known_acronym("UK", {"de"}), known_acronym("PDF", {"fr"}), known_acronym("ONU", {"fr"})
    (True, False, True, True)
    """
    t = term.upper()
    return t in INTERNATIONAL_ACRONYMS or any(t in KNOWN_ACRONYMS_BY_LANGUAGE.get(lang, ()) for lang in languages)


# not inside a path or a format: "APT::Get", "Origin::URSPRUNG", "HH:MM:SS", "YYYY-MM-DD"
_ACRONYM = re.compile(r"(?<![\w\-&/.])(?<!::)(?<![A-Z]:)(?P<core>[A-Z][A-Z0-9&]*[A-Z0-9])(?P<plural>s?)(?![\w\-])(?!::)(?!:[A-Z])")
#: An abbreviation in mixed case: "QoS", "DoS", "PhD" (as many capitals as small letters or
#: more), "IPsec", "IPv6" (capitals, then a short tail). Not a name ("GitHub", "McAfee") nor a
#: word in camel case ("ClientHello").
_MIXED = re.compile(r"(?<![\w\-&/.])(?P<core>[A-Z](?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]{1,7})(?P<plural>)(?![\w\-])(?!::)")


def _mixed_abbreviation(core: str) -> bool:
    """
    Not a word with a letter before it, a name ("ETag", "XPath").

    >>> [_mixed_abbreviation(w) for w in ("QoS", "IPsec", "DDoS", "IPv6", "GitHub", "McAfee", "ClientHello", "SLAs")]
    [True, True, True, True, False, False, False, False]
    >>> [_mixed_abbreviation(w) for w in ("ETag", "XPath", "CoAP")]
    [False, False, True]
    """
    upper = sum(c.isupper() for c in core)
    lower = sum(c.islower() for c in core)
    if upper < 2 or len(core) > 8 or not core[0].isupper() or re.fullmatch(r"[A-Z0-9&]+(?:s|es|ed|ing|er)", core):
        return False  # "SLAs", "XORed": an abbreviation in capitals, inflected
    word = re.fullmatch(r"[A-Z]{1,2}([A-Z][a-z]{2,})", core)
    if word:
        from .style.prose import known_word

        if known_word(word.group(1)):
            return False
    if upper >= lower and not re.search(r"[a-z]{3}", core):
        return True
    return bool(re.fullmatch(r"[A-Z]{2,}[a-z]{1,3}\d*|[A-Z]{2,}v\d+", core))


_ROMAN = re.compile(r"^(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")
_GLOSSARY = re.compile(r"^\s*(?P<short>[A-Z][A-Za-z0-9&]{1,9})\s*(?::|=|\t|\u2013|\u2014|-{1,2}|\s+(?:means|bedeutet|signifie|significa|betekent)\s)\s*(?P<long>[^\n]+)$")
#: Words an acronym's initials may skip, in the languages of the word lists.
_SMALL = frozenset(
    """of and the for in on to a an by with from or
    der die das des dem den und für von zu zur zum im mit
    de du des la le les l d et pour en à au aux sur par
    del el los las y para por con
    di della delle dei e per il lo
    do da dos das e em para com
    van het een en voor op met""".split()
)


def _is_acronym(core: str) -> bool:
    """2-10 characters, two capitals or more, not a roman numeral, not an identifier such as
    "RFC9110" or "ISO27001" (three digits or more), not a hexadecimal number ("D7FF", "E000").

    >>> [_is_acronym(t) for t in ("SLA", "MD5", "D7FF", "XIV", "RFC9110", "E4X")]
    [True, True, False, False, False, True]
    """
    return (2 <= len(core) <= 10 and sum(c.isupper() for c in core) >= 2 and not _ROMAN.match(core)
            and sum(c.isdigit() for c in core) < 3 and not _HEX.fullmatch(core) and not _SERIAL.search(core))


_HEX = re.compile(r"(?=[0-9A-F]*\d)[0-9A-F]{3,}")
#: A zero-padded serial number ends an id, not an abbreviation: a document stage "CSD02", "CS03",
#: a note "EN05".
_SERIAL = re.compile(r"[A-Z]0\d$")


def _emphasis(token: str, lower_words: set[str], common: frozenset[str]) -> bool:
    """A word in capitals rather than an acronym: an English word of four letters or more
    ("ANYONE", "FIGURES", a protocol constant "PADDING"), or a word the document also writes in
    lower case ("ALL", "END")."""
    low = token.lower()
    if not low.isalpha():
        return False
    if low in lower_words or (len(low) >= 4 and (low in common or low.rstrip("s") in common)):
        return True
    if len(low) >= 5:
        from ..language.nlp import word_classes

        return bool(word_classes(low))
    return False


def _shouting(text: str, heading: bool = False) -> bool:
    """Text written in capitals: most of twelve letters or more, or a whole heading of five
    letters or more ("SINOPSIS", "BEISPIELE": a man page's section names in any language)."""
    upper = sum(map(str.isupper, text))
    if upper < 5:
        return False
    letters = sum(map(str.isalpha, text))
    if heading and upper >= letters:
        return True
    return letters >= 12 and upper / letters > 0.6


def _initials_match(short: str, long: str) -> str | None:
    """The expansion in ``long`` whose words start with the letters of ``short``, skipping small
    words ("Organisation des Nations Unies" for ONU) and elided articles ("l'Union"), and an
    owner's name before it ("IEP - FIRST (Forum of Incident Response ...) Information Exchange
    Policy"); ``None`` when there is none.

    >>> _initials_match("IEP", "FIRST (Forum of Incident Response and Security Teams) Information Exchange Policy")
    'Information Exchange Policy'
    >>> _initials_match("IEP", "Internet Policy") is None
    True
    """
    if _initials_from(short, long):
        return long
    rest = re.sub(r"\([^()]*\)", " ", long).split()
    for k in range(1, min(3, len(rest))):
        if _initials_from(short, " ".join(rest[k:])):
            return " ".join(rest[k:])
    return None


def _initials_from(short: str, long: str) -> bool:
    ws = [w.replace("\u2019", "'").rsplit("'", 1)[-1] for w in _words.words(long) if w[0].isalpha()]
    ws = [w for w in ws[: len(short) + 4] if w]
    letters = "".join(c for c in short if c.isalpha()).lower()
    initials = "".join(w[0].lower() for w in ws if w.lower() not in _SMALL)
    parts = "".join(p[0].lower() for w in ws if w.lower() not in _SMALL for p in w.split("-") if p)
    return initials.startswith(letters) or parts.startswith(letters)


def _expansion(span: str, short: str) -> str:
    """The long form out of a definition span: "Write-Ahead Log (WAL)" -> "Write-Ahead Log"."""
    if span.startswith(short):  # "SLA (Service Level Agreement)"
        inner = span[len(short):].strip()
        return inner.strip("()").strip()
    return span[: span.rfind("(")].strip() if "(" in span else span


def _norm(expansion: str) -> str:
    """The form two English expansions compare by: lower case, hyphens as spaces, the last
    word's plural "s" dropped."""
    words = _expansion_words(expansion)
    if words and words[-1].endswith("ies") and len(words[-1]) > 4:
        words[-1] = words[-1][:-3] + "y"  # "authorities" / "authority"
    elif words and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def _expansion_words(expansion: str) -> list[str]:
    """The words of an expansion, lower case, without quotes ("Associated Data\"")."""
    return re.sub(r"[\-\u2010-\u2015\"\u201c\u201d]", " ", expansion.lower()).split()


def _same_expansion(a: str, b: str, english: bool, term: str = "") -> bool:
    """Whether two expansions of an acronym are one. Other languages than English inflect
    every word ("Allgemeine Geschäftsbedingung" / "Allgemeinen Geschäftsbedingungen"): there
    each pair of words may differ in their last three letters. In any language one is the
    other where an abbreviation in it stands for words of the other ("Datagram TLS" /
    "Datagram Transport Layer Security", "HTTP version 2"), or where one adds words after the
    other that the abbreviation's letters do not need: the kind of thing it is ("Acknowledgement
    message" for ACK, "... Markup Language Specification" for SSML; not "Transport Layer" /
    "Transport Layer Security" for TLS).

    >>> _same_expansion("Allgemeinen Geschäftsbedingungen", "Allgemeine Geschäftsbedingung", False)
    True
    >>> _same_expansion("Technische Universität", "Technischer Überwachungsverein", False)
    False
    >>> _same_expansion("Datagram TLS", "Datagram Transport Layer Security", True, "DTLS")
    True
    >>> _same_expansion("Acknowledgement", "Acknowledgement message", True, "ACK")
    True
    >>> _same_expansion("Transport Layer", "Transport Layer Security", True, "TLS")
    False
    """
    a, b = _unabbreviated(a, b), _unabbreviated(b, a)
    if english and _norm(a) == _norm(b):
        return True
    wa, wb = _expansion_words(a), _expansion_words(b)
    short, long = sorted((wa, wb), key=len)
    if term and short and len(long) > len(short) and _same_words(long[:len(short)], short, english):
        extra = long[len(short)]
        if extra[:1] != term[-1:].lower():
            return True
    if english:
        return False
    return _same_words(wa, wb, english)


def _same_words(wa: list[str], wb: list[str], english: bool) -> bool:
    """Word by word the same (English: as written; other languages: but the endings)."""
    if english:
        return _norm(" ".join(wa)) == _norm(" ".join(wb))
    if len(wa) != len(wb):
        return False
    for x, y in zip(wa, wb):
        common = len(os.path.commonprefix([x, y]))
        if common < min(len(x), len(y)) - 3 or common < min(4, len(x), len(y)):
            return False
    return True


def _unabbreviated(a: str, b: str) -> str:
    """``a`` with each abbreviation in it that the initials of words of ``b`` spell written as
    those words: "HTTP version 2" against "Hypertext Transfer Protocol version 2"."""
    if not re.search(r"\b[A-Z]{2,}\b", a):
        return a
    wb = b.split()
    out = []
    for w in a.split():
        core = w.strip(",.;()")
        if len(core) >= 2 and core.isupper() and core.isalpha():
            runs = ((i, j) for i in range(len(wb)) if wb[i][:1].upper() == core[0]
                    for j in range(i + 1, min(len(wb), i + len(core)) + 1))
            hit = next(((i, j) for i, j in runs if spells(core, " ".join(wb[i:j]))
                        and sum(x[:1].isupper() for x in wb[i:j]) == j - i), None)
            if hit:
                w = " ".join(wb[hit[0]:hit[1]])
        out.append(w)
    return " ".join(out)


@dataclass
class AcronymInfo:
    """Where one acronym is defined and used."""

    term: str
    definitions: list[tuple[int, str, str, int, int]] = field(default_factory=list)  # order, unit, long, start, end
    glossary: set[str] = field(default_factory=set)  # units whose definition is a glossary line
    uses: list[tuple[int, str, int, int]] = field(default_factory=list)  # order, unit, start, end
    designations: int = 0  # uses as a series name with a number ("RFC 9000"), not in ``uses``


_LAST_FOUND: list = []  # the last document's acronyms: the checks that need them share one reading
#: What an abbreviation is written with: not a glob of constants ("the address family (AF_*)").
_WORD_TERM = re.compile(r"[^\W_][\w&\-./]*(?<![_*])")


def find_acronyms(doc: Document) -> dict[str, AcronymInfo]:
    """Every acronym of ``doc`` with its definitions and uses, in document order."""
    key = (id(doc), tuple((u.id, u.text) for u in doc.units))
    if _LAST_FOUND and _LAST_FOUND[0][0] == key and _LAST_FOUND[0][1] is doc:
        return _LAST_FOUND[0][2]
    out = _find_acronyms(doc)
    _LAST_FOUND[:] = [(key, doc, out)]
    return out


def _find_acronyms(doc: Document) -> dict[str, AcronymInfo]:
    from .style.prose import prose

    out: dict[str, AcronymInfo] = {}
    # prose only: code and ASCII-art legends ("CH", "SH"), reference entries ("DOI", "ACM") and
    # the names in acknowledgements ("ACLU", "NCC Group") abbreviate nothing the reader must learn
    credits = _credit_sections(doc)
    units = [u for u in prose(doc).units if u.id not in credits and u.parent not in credits and not _affiliation(u)]
    for u in units:
        for d in find_definitions(u.text):
            if d.kind == "acronym" and not _glued(u.text, d) and _WORD_TERM.fullmatch(d.term):
                out.setdefault(d.term, AcronymInfo(d.term)).definitions.append(
                    (u.order, u.id, _expansion(d.span, d.term), d.start, d.end))
        for m in _CAMEL_DEF.finditer(u.text):
            short, long = m.group("short"), m.group("long")
            caps = "".join(c for c in long if c.isupper())
            if short not in out or not any(d[1] == u.id for d in out[short].definitions):
                if caps == short or (caps.startswith(short) and len(short) >= 2):
                    out.setdefault(short, AcronymInfo(short)).definitions.append(
                        (u.order, u.id, long, m.start(), m.end()))
        for line_start, line in _lines(u.text):
            g = _GLOSSARY.match(line)
            expansion = _initials_match(g.group("short"), g.group("long")) if g and _is_acronym(g.group("short")) else None
            if g and expansion:
                short = g.group("short")
                info = out.setdefault(short, AcronymInfo(short))
                if all(x[1] != u.id for x in info.definitions):
                    long = re.split(r"[.;(]", expansion)[0].strip()
                    info.definitions.append((u.order, u.id, long, line_start + g.start("short"), line_start + g.end()))
                    info.glossary.add(u.id)
    english = {u.id: is_english(u, doc) for u in units}
    lower_words = _ordinary_words(units, english)
    common = common_words()
    shouted = {u.id for u in units if _shouting(u.text, u.kind in ("section", "title"))}
    # a heading of one word in capitals names its section ("see the section SINOPSIS")
    names = {u.text.strip() for u in units if u.id in shouted and u.kind in ("section", "title")}
    # a name the text writes capitalised inside a sentence and never in lower case ("network
    # scanning tools (e.g., Nmap)"): the same name in capitals ("e.g., NMAP") is that name
    named_words = {w.lower() for u in units for w in _TITLED.findall(u.text)} - lower_words
    defined: dict[str, list[tuple[int, int]]] = {}
    for info in out.values():
        for _o, uid, _l, s, e in info.definitions:
            defined.setdefault(uid, []).append((s, e))
    for u in units:
        if u.id in shouted:
            continue
        defined_here = defined.get(u.id, ())
        matches = list(_ACRONYM.finditer(u.text))
        emphatic = _emphatic(u.text, matches, lower_words, common)
        if any(c.islower() for c in u.text):
            matches += [m for m in _MIXED.finditer(u.text) if _mixed_abbreviation(m.group("core"))]
        for m in matches:
            core = m.group("core")
            if not _is_acronym(core) or any(s <= m.start() < e for s, e in defined_here) or u.text[m.start() - 1 : m.start()] == "[":
                continue
            if not (core in out and out[core].definitions) and (
                    _emphasis(core + m.group("plural"), lower_words, common) or core in names or m.start() in emphatic
                    or (core.isupper() and core.lower() in named_words)
                    or (not english[u.id] and _surname(u.text, m.start(), core))):
                continue
            if glued_prefix(u.text, m.start(), m.end()):
                continue  # the "EC" of "(EC)DHE"
            info = out.setdefault(core, AcronymInfo(core))
            if designation(u.text, m.end()) or _names_cited_statute(u.text, m.start(), core):
                info.designations += 1
                continue
            info.uses.append((u.order, u.id, m.start(), m.end()))
    return out


def _names_cited_statute(text: str, start: int, core: str) -> bool:
    """Whether the abbreviation at ``start`` is the name of a statute a citation before it cites
    ("§ 823 Abs. 1 BGB", "Art. 6 DSGVO"): a designation of that work, as "RFC" is of "RFC 9000",
    which its readers know without an expansion."""
    return any(m.external == core and m.end <= start for m in find_citations(text))


_CREDITS = re.compile(r"^\W*(?:[\d.]+\s*)?(?:acknowledge?ments?|contributors?|authors?(?:'|\u2019)? addresses|authors|credits|"
                      r"danksagung(?:en)?|remerciements|agradecimientos|ringraziamenti)\W*$", re.I)


_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")


def _affiliation(u: Unit) -> bool:
    """A line naming people with their e-mail addresses and employers ("Davide Lenzarini
    (davide.lenzarini@u-blox.com), u-blox AG"): names, not abbreviations to spell out."""
    return len(u.text) <= 300 and bool(_EMAIL.search(u.text)) and u.kind in ("paragraph", "list_item")


def _credit_sections(doc: Document) -> set[str]:
    """Sections that thank or list people (their affiliations are names, not abbreviations)."""
    out: set[str] = set()
    for u in doc.units:
        if u.kind == "section" and (u.parent in out or _CREDITS.match((u.title or u.text).strip())):
            out.add(u.id)
    return out


def _emphatic(text: str, matches: list[re.Match[str]], lower_words: set[str], common: frozenset[str]) -> set[int]:
    """Where a phrase is written in capitals ("Es gibt KEINE HAFTUNG", "NO WARRANTY WHATSOEVER"):
    the starts of its words of five letters or more, when one of its words is an ordinary word
    in capitals, and of all its words when two are (a name in capitals: "CJK IDEOGRAPH
    EXTENSION B"). Works without a word list of the language."""
    out: set[int] = set()
    run: list[re.Match[str]] = []
    for m in [*matches, None]:
        if m is not None and run and text[run[-1].end() : m.start()] in (" ", "\u00a0"):
            run.append(m)
            continue
        ordinary = sum(_emphasis(r.group(0), lower_words, common) for r in run) if len(run) > 1 else 0
        if ordinary >= 2:  # a name written in capitals: "CJK IDEOGRAPH EXTENSION B", "ZERO WIDTH NO-BREAK SPACE"
            out.update(r.start() for r in run)
        elif ordinary:
            out.update(r.start() for r in run if len(r.group(0)) >= 5 and r.group(0).isalpha())
        run = [m] if m is not None else []
    return out


def _surname(text: str, start: int, core: str) -> bool:
    """A family name in capitals after a given name ("Ariel VARDI", "Jean DUPONT"), as French,
    Italian and Spanish documents write authors; asked for units not in English only."""
    prev = _PREV_WORD.search(text, 0, start)
    if prev is None or not core.isalpha() or len(core) < 4:
        return False
    name = prev.group(1)
    return name[0].isupper() and name[1:].islower()


_PREV_WORD = re.compile(r"(?<![\w\-])([^\W\d_][^\W\d_]+) $")


def _ordinary_words(units: list[Unit], english: dict[str, bool]) -> set[str]:
    """The words the document writes in ordinary case, lower-cased: a token in capitals that
    is one of them ("ALL", "NICHT") is emphasis, not an acronym. In English only lower-case
    words count ("It" starts a sentence, "IT" is a department); other languages capitalise
    nouns ("Beispiele", "OPTIONEN" / "Optionen"), so a capitalised word counts there. A word
    is a run of letters between non-word characters ("www.iana.org" writes "iana")."""
    out = {w for w in set(_ORDINARY.findall("\n".join(u.text for u in units if english[u.id]))) if w.islower()}
    other = "\n".join(u.text for u in units if not english[u.id])
    for w in set(_ORDINARY.findall(other)):
        if w.islower() or (w[0].isupper() and w[1:].islower()):
            out.add(w.lower())
    return out


_ORDINARY = re.compile(r"(?<!\w)[^\W\d_]{2,}(?!\w)")
#: A word capitalised inside a sentence ("tools (e.g., Nmap)", "such as Wireshark").
_TITLED = re.compile(r"(?<=[a-z,;(] )(?:e\.g\.,? )?([A-Z][a-z]{2,})(?![\w\-])")


def _lines(text: str):
    pos = 0
    for line in text.split("\n"):
        yield pos, line
        pos += len(line) + 1


def _use_places(doc: Document, uses: list[tuple[int, str, int, int]]) -> list[Place]:
    return [Place(uid, s, e, doc.unit(uid).text[s:e]) for _o, uid, s, e in uses]


def _long_short(span: str, short: str) -> re.Match[str] | None:
    """A definition written "Long (SHORT)", its groups ``long`` and ``short`` (as written, in its
    number: "URIs")."""
    return re.fullmatch(r"(?P<long>.+?)\s*\(\s*(?P<short>" + re.escape(short) + r"s?)\s*\)", span, re.S)


def _long_first(span: str, short: str) -> str | None:
    """The expansion of a definition written "Long (SHORT)", else ``None``."""
    m = _long_short(span, short)
    return m.group("long") if m else None


def _short_written(span: str, short: str) -> str:
    """The abbreviation as a definition "Long (SHORT)" writes it, in its number: a second
    "Uniform Resource Identifiers (URIs)" becomes "URIs", not "URI"."""
    m = _long_short(span, short)
    return m.group("short") if m else short


def _spelled_out(use: str, span: str, long: str, short: str) -> str:
    """The definition written at an earlier use ``use`` of ``short`` ("URIs" -> "Uniform Resource
    Identifiers (URIs)"), the expansion of ``span`` in the use's number."""
    plural_use = use == short + "s"
    plural_long = _short_written(span, short) == short + "s"
    if plural_use and not plural_long:
        long = pluralize(long) or long
    elif plural_long and not plural_use:
        long = singularize(long) or long
    return f"{long} ({use})"


def acronym_findings(doc: Document, known: "frozenset[str] | set[str]" = frozenset()) -> list[Finding]:
    """Abbreviations used and never defined, used before the definition, defined twice (or
    differently), defined and never used, and written in several cases ("IPsec" / "IPSec").
    ``known`` are abbreviations the house style sheet lets go undefined. Each finding lists its
    places; those a fix can rewrite carry the replacement (a second definition becomes the
    abbreviation, an early use gets the definition, an unused one loses its parentheses)."""
    from .style.prose import make_finding

    out: list[Finding] = []
    kinds = {u.id: u.kind for u in doc.units}
    language: dict[str, str] = {}
    known_upper = {k.upper() for k in known}

    def lang(uid: str) -> str:
        if uid not in language:
            language[uid] = unit_language(doc.unit(uid), doc)
        return language[uid]

    found = find_acronyms(doc)
    out.extend(_case_findings(doc, found))
    # the title page and front matter name the document and its committee; the text spells out
    front_end = next((u.order for u in doc.units if u.kind == "section"), -1)
    explained = _needs_no_expansion(doc, found, known_upper, lang)
    rules = grammar_names(doc) if found else set()
    if rules:  # a list of a grammar's rules glosses them all ("ALPHA (letters), ..., DQUOTE (double quote)")
        glossed = re.compile(r"(?<![\w\-])(" + "|".join(map(re.escape, sorted(rules, key=len, reverse=True))) + r") \(")
        listing: dict[str, bool] = {}
        for t, i in found.items():
            for d in i.definitions:
                if d[1] not in listing:
                    listing[d[1]] = len(set(glossed.findall(doc.unit(d[1]).text))) >= 2
        rules |= {t for t, i in found.items() if i.definitions and all(listing[d[1]] for d in i.definitions)}
    for term, info in sorted(found.items()):
        if term in rules:
            continue  # a rule of the document's grammar ("SP", "DQUOTE"): a name, glossed in prose, not an abbreviation
        uses = [x for x in info.uses if kinds.get(x[1]) not in ("title",)]
        if not info.definitions:
            if not uses or term in explained:
                continue
            units = list(dict.fromkeys(x[1] for x in uses))
            out.append(make_finding("undefined_acronym", "warning", _use_places(doc, uses),
                                    f"{term} is used {len(uses)} time(s) in {len(units)} unit(s) but never spelled out",
                                    evidence=term))
            continue
        info.definitions.sort(key=lambda d: (d[0], d[3]))
        first = info.definitions[0]
        english = all(lang(d[1]) == "en" for d in info.definitions)
        forms: list[tuple[int, str, str, int, int]] = []  # one definition per distinct expansion
        for d in info.definitions:
            if not any(_same_expansion(d[2], f[2], english, term) for f in forms):
                forms.append(d)
        inline = [d for d in info.definitions if d[1] not in info.glossary]  # a glossary may repeat
        if len(forms) > 1:
            d2 = forms[1]
            places = [Place(d2[1], d2[3], d2[4], doc.unit(d2[1]).text[d2[3]:d2[4]])]
            out.append(make_finding("acronym_redefined", "warning", places,
                                    f"{term} is spelled out as '{first[2]}' and as '{d2[2]}'",
                                    evidence=term, related=[d[1] for d in info.definitions]))
        elif len(inline) > 1:
            places = []
            for d in inline[1:]:
                span = doc.unit(d[1]).text[d[3]:d[4]]
                long = _long_first(span, term)
                places.append(Place(d[1], d[3], d[4], span, _short_written(span, term) if long else None))
            out.append(make_finding("acronym_defined_twice", "info", places,
                                    f"{term} ('{first[2]}') is spelled out {len(info.definitions)} times",
                                    evidence=term, related=[first[1]]))
        early = [x for x in uses if x[0] < first[0] and kinds.get(x[1]) != "section" and x[0] > front_end]
        if early:
            order, uid, s, e = early[0]
            span = doc.unit(first[1]).text[first[3]:first[4]]
            long = _long_first(span, term) if first[1] not in info.glossary else None
            use = doc.unit(uid).text[s:e]
            places = [Place(uid, s, e, use, _spelled_out(use, span, long, term) if long else None)]
            if long:
                places.append(Place(first[1], first[3], first[4], span, _short_written(span, term)))
            out.append(make_finding("acronym_before_definition", "warning", places,
                                    f"{term} is used here, before it is spelled out ('{first[2]}')",
                                    evidence=term, related=[first[1]]))
        if not uses and inline and len(forms) == 1 and not _written_elsewhere(doc, term, inline[0]):
            d = inline[0]
            span = doc.unit(d[1]).text[d[3]:d[4]]
            long = _long_first(span, term)
            out.append(make_finding("acronym_unused", "info", [Place(d[1], d[3], d[4], span, long)],
                                    f"{term} ('{first[2]}') is spelled out but never used afterwards; "
                                    f"the abbreviation can go", evidence=term))
    return out


def _needs_no_expansion(doc: Document, found: dict[str, AcronymInfo], known_upper: set[str],
                        lang: Callable[[str], str]) -> set[str]:
    """The abbreviations without a definition that a reader needs no expansion for: known to
    readers of the units' languages or the house style sheet, a known or defined abbreviation
    with a version ("IPv6", "MRCPv1" where MRCPv2 is defined), a series name written with its
    number in half of its uses or more ("RFC 9000"), and the names and explanations
    :func:`~addin_backend.checks.style.abbreviations.no_expansion_needed` reads."""
    from .style.prose import prose

    out: set[str] = set()
    defined_bases = {version_base(t) or t for t, i in found.items() if i.definitions}
    candidates: dict[str, list[str]] = {}
    for term, info in found.items():
        if info.definitions or not info.uses:
            continue
        langs = {lang(x[1]) for x in info.uses}
        base = version_base(term)
        if (known_acronym(term, langs) or term.upper() in known_upper or 2 * info.designations >= len(info.uses)
                or (base is not None and (known_acronym(base, langs) or base in defined_bases))):
            out.add(term)
        else:
            candidates[term] = [x[1] for x in info.uses]
    if candidates:
        cited = _cited_expansions(doc)
        families = _numbered_families(found)
        parts = _identifier_parts(doc, candidates)
        for term in list(candidates):
            base = version_base(term)
            if term in cited or (base is not None and base in cited) or term in families or term in parts:
                out.add(term)
                del candidates[term]
    if candidates:
        p = prose(doc)
        out |= set(no_expansion_needed(doc, p.units, candidates, p.english, common_words()))
    # a plural of a name or of a defined abbreviation: "ETags" where "ETag" is a name
    out |= {t for t, i in found.items() if not i.definitions and t.endswith("s")
            and (t[:-1] in out or (t[:-1] in found and found[t[:-1]].definitions))}
    return out


def _cited_expansions(doc: Document) -> set[str]:
    """The abbreviations that the titles of the works the document cites spell out: its
    reference list names "A Universally Unique IDentifier (UUID) URN Namespace", so UUID is
    defined by a cited standard, and the citation tells the reader where."""
    from ..graph.related import is_reference_entry, reference_list_sections

    lists = reference_list_sections(doc)
    out: set[str] = set()
    for u in doc.units:
        if u.kind in ("paragraph", "list_item") and "(" in u.text and is_reference_entry(u, u.parent in lists):
            out.update(d.term for d in find_definitions(u.text) if d.kind == "acronym")
    return out


def _identifier_parts(doc: Document, candidates: dict[str, list[str]]) -> set[str]:
    """The candidates the document also writes as the name part of a prefixed constant: "AF_IPX
    Specifies the IPX address family" names the value the constant stands for (an enumeration's
    names); not a part among many ("AES" of "TLS_AES_128_GCM_SHA256" is still an abbreviation)."""
    pat = re.compile(r"(?<![\w])[A-Z][A-Z0-9]*_(?P<name>[A-Z][A-Z0-9]*)(?![\w])")
    names: set[str] = set()
    for u in doc.units:
        if "_" in u.text:
            names.update(m.group("name") for m in pat.finditer(u.text))
    return {t for t in candidates if t in names}


def _numbered_families(found: dict[str, AcronymInfo]) -> set[str]:
    """Numbered members of a family of names: "MD2" and "MD5", "SHA1" and "SHA2" are the names
    of hash functions in a series, as "AR0", "AR1" label secrets (the family's name alone, if
    the document writes it, still needs its expansion)."""
    members: dict[str, set[str]] = {}
    for term in found:
        m = re.fullmatch(r"([A-Z]{2,})-?(\d+)", term)
        if m:
            members.setdefault(m.group(1), set()).add(term)
    return {t for ts in members.values() if len(ts) >= 2 for t in ts}


#: "CH (ClientHello)", "HRR (HelloRetryRequest)": an abbreviation of a name in camel case, whose
#: capitals spell it.
_CAMEL_DEF = re.compile(r"(?<![\w\-])(?P<short>[A-Z][A-Z0-9]{1,9}) \((?P<long>[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+)\)")


def _glued(text: str, d) -> bool:
    """A parenthesis glued to a word is no definition: "(EC)DHE" names ECDHE and DHE at once."""
    after = text[d.end:d.end + 1]
    return (d.span.endswith(")") and after.isalpha()) or (d.span.startswith(d.term) and text[d.start - 1:d.start] == ")")


def _written_elsewhere(doc: Document, term: str, d: tuple[int, str, str, int, int]) -> bool:
    """Whether ``term`` occurs outside its definition as a whole token, joined by hyphens or not
    ("F-RTO algorithm", "HKDF-Expand"), which the use pattern of plain capitals does not read."""
    pat = re.compile(r"(?<![\w])" + re.escape(term) + r"s?(?!\w)")
    for u in doc.units:
        if term not in u.text:
            continue
        for m in pat.finditer(u.text):
            if not (u.id == d[1] and d[3] <= m.start() < d[4]):
                return True
    return False


def _case_findings(doc: Document, found: dict[str, AcronymInfo]) -> list[Finding]:
    """One abbreviation written in several cases: "IPsec" / "IPSec" / "IPSEC". The form of its
    definition wins, else the most frequent."""
    from .style.prose import make_finding

    groups: dict[str, list[str]] = {}
    for term in found:
        groups.setdefault(term.upper(), []).append(term)
    out = []
    for _key, terms in sorted(groups.items()):
        if len(terms) < 2:
            continue
        counts = {t: len(found[t].uses) + len(found[t].definitions) for t in terms}
        defined = [t for t in terms if found[t].definitions]
        target = defined[0] if len(defined) == 1 else max(terms, key=lambda t: (counts[t], t != t.upper()))
        places = [Place(uid, s, e, doc.unit(uid).text[s:e], target)
                  for t in terms if t != target for _o, uid, s, e in found[t].uses]
        if not places:
            continue
        listing = ", ".join(f"'{t}' ({counts[t]})" for t in sorted(terms, key=lambda t: -counts[t]))
        out.append(make_finding("acronym_case", "warning", places,
                                f"one abbreviation written {len(terms)} ways: {listing}; the usual form is '{target}'"
                                + (" (as defined)" if len(defined) == 1 else ""), evidence=places[0].text))
    return out


# --- variant spellings: addin_backend/checks/style/hyphenation.py ---------------------------------------
