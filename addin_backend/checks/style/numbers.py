"""Numbers written two ways in one document.

- ``number_style``: a count of the same thing written as digits and as words ("5 times" /
  "five times", "5 seconds" / "five minutes"). Where both occur, the house rules choose: one to
  nine in words, 10 and above in digits (the sheet's ``numbers.spell_out_below``), counts of a
  unit of measure and percentages in digits (``numbers.unit_numerals``); a number that opens a
  sentence or follows a label ("Section 3", "step 2", "version 1") is left alone. English units
  only (the number words are English).
- ``percent_style``: "10 percent", "10 per cent", "10%" and "10 %" (the last is the rule in
  French and German, so the space before "%" is compared within one language only).
- ``thousands_separator``: "10,000" against "10000" (numbers of five digits or more; four-digit
  numbers only when the document separates others); only numbers that count or measure (a word
  in lower case or a unit follows: "16384 bytes"), so years, identifiers ("RFC 9000", "port
  8443"), house and section numbers ("6900 N. Pecos Rd.", "18 U.S.C. 2701"), versions and code
  are left alone. The separator is the language's
  (English ",", German "." or a thin space, French a space).
- ``unit_spacing``: "10 ms" against "10ms" for units of measure written as symbols.

The majority decides, or the style sheet (``numbers.percent``, ``thousands``, ``unit_space``).
"""
from __future__ import annotations

import re
from collections import Counter

from ...findings import Finding, Place
from .prose import Prose, make_finding
from .sheet import StyleSheet

__all__ = ["number_findings", "NUMBER_WORDS"]

NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
                "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_DIGIT_WORD = {v: k for k, v in NUMBER_WORDS.items()}
#: Words after which a number is a label or a value, not a count.
_LABELS = frozenset("""section sections chapter chapter appendix figure figures table tables step steps phase
    level levels version versions type types page pages line lines item items rule rules note notes part parts
    article articles clause clauses paragraph paragraphs annex example examples option options case cases
    number no round rounds stage stages layer tier class grade room floor exercise question questions
    rfc rfcs std bcp http tls ipv draft iso revision rev bit bits byte bytes value values code codes
    offset index id port ports window day days week weeks month months year years per every each last first
    next length size
    """.split())
_WORD_ALT = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_COUNT = re.compile(r"(?<![\w.,\-/:#$\u20ac\u00a3])(?P<n>\d{1,3}|" + _WORD_ALT + r")"
                    r"(?P<gap>[ \u00a0])(?P<noun>(?-i:[a-z]{3,}))(?![\w\-])", re.I)
_NOT_NOUNS = frozenset("""of or and to in on at by for is are was were be been the a an more less than
    other others another such that which who whom whose these those this there here if when where
    while with without per each every any all some many much most least further additional out up down
    after before over under about around between among through into onto from as so not only also very
    can could may might must shall should will would do does did has have had point kilo mega
    hundred thousand million billion trillion dozen half third quarter fifth way ways""".split())
#: Units of measure written as words, by the kind of quantity they measure: "five seconds" and
#: "5 minutes" are one kind (time), and house style writes every count of a unit in digits.
_UNIT_KINDS = {
    "time": "ms millisecond milliseconds microsecond microseconds nanosecond nanoseconds second seconds sec secs "
            "minute minutes hour hours",
    "data": "kb mb gb tb kib mib gib kilobyte kilobytes megabyte megabytes gigabyte gigabytes",
    "percentage": "percent",
    "length": "metre metres meter meters kilometre kilometres kilometer kilometers centimetre centimetres "
              "millimetre millimetres inch inches foot feet mile miles",
    "mass": "gram grams kilogram kilograms pound pounds",
}
_UNIT_OF = {w: kind for kind, ws in _UNIT_KINDS.items() for w in ws.split()}
_UNIT_WORDS = frozenset(_UNIT_OF)
#: Bits, bytes and octets are counted as things as often as measured ("the least significant
#: two bits", "a 2-byte field"): a document's own choice, not compared.
_COUNTED_UNITS = frozenset("bit bits byte bytes octet octets".split())


def _sentence_start(text: str, at: int) -> bool:
    before = text[:at].rstrip(" \u00a0\t(\"'\u201c")
    return not before or before[-1] in ".!?:;\n\u2022"


def _prev_word(text: str, at: int) -> str:
    m = re.search(r"([^\W\d_]+)\W*$", text[max(0, at - 40):at])
    return m.group(1).lower() if m else ""


_NAME_BEFORE = re.compile(r"(?<![\w\-])([A-Z][\w\-]*)[ \u00a0]$")


def _after_name(text: str, at: int) -> bool:
    """A number right after a name or an abbreviation is that name's number, not a count: "QoS 2
    messages" are messages of QoS level 2, "Version 3 clients" (the name not opening the sentence).

    >>> _after_name("For QoS 1 and QoS 2 messages", 8), _after_name("It sends 2 messages", 9)
    (True, False)
    >>> _after_name("Send 2 messages", 5)
    False
    """
    m = _NAME_BEFORE.search(text, max(0, at - 40), at)
    if not m:
        return False
    word = m.group(1)
    return any(c.isupper() for c in word[1:]) or not _sentence_start(text, m.start())


def _counts(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Counts of one kind of thing written in digits and in words ("5 times" / "five times").

    Where both forms occur, the house rules say which place to change: one to nine in words,
    10 and above in digits (``numbers.spell_out_below``), a count of a unit of measure or a
    percentage always in digits (``numbers.unit_numerals``, "5 seconds" / "five minutes" are
    one kind: time). A number that opens a sentence stays in words.
    """
    limit = sheet.spell_out_below if sheet.spell_out_below is not None else 10
    unit_numerals = sheet.unit_numerals if sheet.unit_numerals is not None else True
    seen: dict[str, dict[str, list[tuple[str, int, int, str, int, bool]]]] = {}
    for u in p.sentences():
        if not p.english(u):
            continue
        text = u.text
        for m in _COUNT.finditer(text):
            n, noun = m.group("n"), m.group("noun")
            if not n.isdigit() and n.lower() not in NUMBER_WORDS:
                continue
            value = int(n) if n.isdigit() else NUMBER_WORDS[n.lower()]
            unit = noun in _UNIT_WORDS
            if noun in _NOT_NOUNS or noun in _COUNTED_UNITS or _sentence_start(text, m.start()):
                continue
            if n.isdigit() and (_prev_word(text, m.start()) in _LABELS or _after_name(text, m.start())):
                continue
            if not n.isdigit() and n[0].isupper():
                continue
            if not unit and value != 1 and not noun.endswith("s"):
                continue  # "two phase commit", "5 digit code": a compound, not a count
            if not unit and value == 1 and noun.endswith("s") and not noun.endswith("ss"):
                continue
            tail = text[m.end("noun"):m.end("noun") + 2]
            if tail.startswith(("-", "_")):
                continue
            if unit:
                key = "unit:" + _UNIT_OF[noun]
            else:
                key = noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun
            form = "digits" if n.isdigit() else "words"
            seen.setdefault(key, {}).setdefault(form, []).append((u.id, m.start("n"), m.end("n"), n, value, unit))
    out: list[Finding] = []
    rule = sheet.rule("numbers.spell_out_below") if sheet.spell_out_below is not None else None
    for key, forms in sorted(seen.items()):
        if len(forms) < 2:
            continue
        digits, words = forms["digits"], forms["words"]
        places = []
        for uid, s, e, t, v, unit in digits + words:
            want = "digits" if (unit and unit_numerals) or v >= limit else "words"
            if want == ("digits" if t.isdigit() else "words"):
                continue
            if want == "words" and v not in _DIGIT_WORD:
                continue
            places.append(Place(uid, s, e, t, _DIGIT_WORD[v] if want == "words" else str(v)))
        if not places:
            continue
        unit_kind = key.startswith("unit:")
        what = f"{key[5:]} (units of measure)" if unit_kind else f"'{key}'"
        house = ("counts of a unit are written in digits" if unit_kind and unit_numerals else
                 f"numbers below {limit} are written in words, {limit} and above in digits")
        out.append(make_finding(
            "number_style", "info", sorted(places, key=lambda pl: (pl.unit, pl.start)),
            f"counts of {what} are written in digits ({len(digits)}) and in words ({len(words)}); "
            f"the house rule: {house}", rule=rule if not unit_kind else (sheet.rule("numbers.unit_numerals")
                                                                        if sheet.unit_numerals is not None else None)))
    return out


# --- percentages ---------------------------------------------------------------------------------

_PERCENT = re.compile(r"(?<![\w.,])(?P<n>\d+(?:[.,]\d+)?)(?P<sign>(?P<sp>[ \u00a0\u202f]?)%|[ \u00a0](?P<word>percent|per cent)\b)")


def _percents(p: Prose, sheet: StyleSheet) -> list[Finding]:
    by_lang: dict[str, list[tuple[str, int, int, str, str]]] = {}
    for u in p.units:
        if "%" not in u.text and "cent" not in u.text:
            continue
        for m in _PERCENT.finditer(u.text):
            if m.group("word"):
                if not p.english(u):
                    continue
                form = m.group("word")
            else:
                form = "%" if not m.group("sp") else " %"
            by_lang.setdefault(p.lang[u.id], []).append((u.id, m.start("sign"), m.end("sign"), m.group("sign"), form))
    out: list[Finding] = []
    for lang, items in sorted(by_lang.items()):
        c = Counter(form for *_, form in items)
        want = sheet.percent if lang == "en" and sheet.percent else None
        rule = sheet.rule("numbers.percent") if want else None
        if want is None:
            if len(c) < 2:
                continue
            want = max(c, key=lambda f: (c[f], f == "%"))
        space = next((t[:-1] for *_, t, f in items if f == " %"), "\u00a0")
        text_of = {"%": "%", " %": space + "%", "percent": " percent", "per cent": " per cent"}
        wrong = [x for x in items if x[4] != want]
        if not wrong:
            continue
        places = [Place(uid, s, e, t, text_of[want]) for uid, s, e, t, _f in wrong]
        listing = ", ".join(f"'{f.strip() or f}' ({n})" for f, n in c.most_common())
        out.append(make_finding("percent_style", "info", places,
                                f"percentages written {len(c)} ways: {listing}; the usual form is '{want.strip()}'"
                                if not rule else f"percentages written as '{want}', which the style sheet asks for",
                                rule=rule))
    return out


# --- thousands separators ------------------------------------------------------------------------

_SEPARATORS = {"en": ",", "de": ".", "nl": ".", "es": ".", "it": ".", "pt": ".", "da": ".", "fr": "\u202f",
               "sv": "\u202f", "fi": "\u202f", "pl": "\u202f", "cs": "\u202f", "ru": "\u202f", "nb": "\u202f"}
_NUM = re.compile(r"(?<![\w.,:/\-#$@\u00a0\u202f'\"\u201d\u2019)\]§])(?:\d{1,3}(?:(?P<sep>[,.\u00a0\u202f'])\d{3})(?:(?P=sep)\d{3})*|\d{4,})"
                  r"(?![\w\-/:@]|[.,]\d)")
_ID_BEFORE = re.compile(r"(?:\b(?:RFC|STD|BCP|ISO|IEC|EN|DIN|IEEE|ANSI|FIPS|SP|port|ports|No\.?|Nr\.?|number|id|code"
                        r"|version|year|years|ca\.?)|(?-i:[A-Z]{2,})|#)\s*$",
                        re.I)


#: What follows a number that counts or measures: a word in lower case ("16384 bytes"), a unit.
_QUANTITY_AFTER = re.compile(r"[ \u00a0](?:[a-z\u00b5\u00b0]|[KMGT]i?B\b|[kMG]Hz\b)")


#: Words a quantity follows ("a limit of 16384 bytes", "up to 65536 bytes"); after any other word
#: a number labels what the word names ("stream 4000000", "Nevada 89086").
_BEFORE_QUANTITY = frozenset("""of to than about at by for with from in into up over under least most is are was
    were be been has have had and or nor but approximately roughly nearly almost exactly only just some all
    the a an every each first last next another additional extra maximum minimum max min limit total
    around below above between within without uses use using send sends sent receive receives holds""".split())


def _quantity_before(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    if not before or before[-1] in "(,:;=<>~\u2264\u2265\u2248\n":
        return True
    m = re.search(r"([^\W\d_]+)$", before)
    return m is not None and m.group(1).lower() in _BEFORE_QUANTITY


def _is_year(digits: str) -> bool:
    return len(digits) == 4 and 1500 <= int(digits) <= 2199


def _thousands(p: Prose, sheet: StyleSheet) -> list[Finding]:
    by_lang: dict[str, list[tuple[str, int, int, str, str]]] = {}
    for u in p.sentences():
        text = u.text
        if not any(c.isdigit() for c in text):
            continue
        lang = p.lang[u.id]
        sep_char = _SEPARATORS.get(lang)
        if sep_char is None:
            continue
        for m in _NUM.finditer(text):
            raw = m.group()
            sep = m.group("sep")
            if sep is not None and sep != sep_char and not (sep_char == "\u202f" and sep in "\u00a0 "):
                continue  # "1.000" in English is a decimal or a version
            digits = re.sub(r"\D", "", raw)
            if sep is None and (_is_year(digits) or _ID_BEFORE.search(text[max(0, m.start() - 12):m.start()])):
                continue
            if sep is None and digits.startswith("0"):
                continue
            if sep is None and not (_QUANTITY_AFTER.match(text, m.end()) and _quantity_before(text, m.start())):
                continue  # "6900 N. Pecos Rd.", "Nevada 89086", "stream 4000000": a label, not a quantity
            by_lang.setdefault(lang, []).append((u.id, m.start(), m.end(), raw, "sep" if sep else "none"))
    out: list[Finding] = []
    for lang, items in sorted(by_lang.items()):
        sep_char = _SEPARATORS[lang]
        grouped = [x for x in items if x[4] == "sep"]
        plain = [x for x in items if x[4] == "none"]
        want = None
        if sheet.thousands is not None and lang == "en":
            want = "none" if sheet.thousands == "none" else "sep"
            sep_char = sheet.thousands if sheet.thousands != "none" else sep_char
        elif grouped and plain:
            # four-digit numbers count only where the document groups one ("1,200" beside "1200")
            four = any(len(re.sub(r"\D", "", g[3])) == 4 for g in grouped)
            comparable = [x for x in plain if four or len(x[3]) >= 5]
            if comparable:
                want = "sep" if len(grouped) >= len(comparable) else "none"
        if want is None:
            continue
        if want == "sep":
            four = sheet.thousands is not None or any(len(re.sub(r"\D", "", g[3])) == 4 for g in grouped)
            wrong = [x for x in plain if len(x[3]) >= 5 or four]
            places = [Place(uid, s, e, t, _group(t, sep_char)) for uid, s, e, t, _ in wrong]
        else:
            places = [Place(uid, s, e, t, re.sub(r"\D", "", t)) for uid, s, e, t, _ in grouped]
        if not places:
            continue
        rule = sheet.rule("numbers.thousands") if sheet.thousands is not None and lang == "en" else None
        out.append(make_finding(
            "thousands_separator", "info", places,
            f"large numbers written with a thousands separator ({len(grouped)}) and without ({len(plain)}); "
            f"the usual form is {'with' if want == 'sep' else 'without'}", rule=rule))
    return out


def _group(digits: str, sep: str) -> str:
    """``"16384"`` -> ``"16,384"``.

    >>> _group("1234567", ",")
    '1,234,567'
    """
    d = re.sub(r"\D", "", digits)
    head = len(d) % 3 or 3
    return d[:head] + "".join(sep + d[i:i + 3] for i in range(head, len(d), 3))


# --- units ---------------------------------------------------------------------------------------

_UNITS = ("ms|µs|μs|ns|ps|kB|KB|MB|GB|TB|PB|KiB|MiB|GiB|TiB|kbps|Kbps|Mbps|Gbps|kbit/s|Mbit/s|Gbit/s|bps|Hz|kHz|MHz|GHz"
          "|km|cm|mm|µm|nm|kg|mg|mL|ml|°C|°F|kW|MW|GW|kWh|MWh|mAh|dB|dBm|px")
_UNIT = re.compile(rf"(?<![\w.,])(?P<n>\d+(?:[.,]\d+)?)(?P<gap>[ \u00a0\u202f]?)(?P<unit>{_UNITS})(?![\w/])")


def _units(p: Prose, sheet: StyleSheet) -> list[Finding]:
    spaced: list[tuple[str, int, int, str]] = []
    closed: list[tuple[str, int, int, str]] = []
    for u in p.units:
        text = u.text
        if not any(c.isdigit() for c in text):
            continue
        for m in _UNIT.finditer(text):
            if text[m.end("unit"):m.end("unit") + 1] == "-" or text[m.start() - 1:m.start()] == "-":
                continue  # "a 10-ms timer", "5-10ms": a compound
            item = (u.id, m.end("n"), m.start("unit"), m.group("gap"))
            (spaced if m.group("gap") else closed).append(item)
    want = None
    if sheet.unit_space is not None:
        want = sheet.unit_space
    elif spaced and closed:
        want = len(spaced) >= len(closed)
    if want is None:
        return []
    if want:
        space = Counter(g for *_, g in spaced).most_common(1)[0][0] if spaced else " "
        places = [Place(uid, s, e, "", space) for uid, s, e, _ in closed]
    else:
        places = [Place(uid, s, e, g, "") for uid, s, e, g in spaced]
    if not places:
        return []
    rule = sheet.rule("numbers.unit_space") if sheet.unit_space is not None else None
    return [make_finding(
        "unit_spacing", "info", places,
        f"units of measure written with a space ({len(spaced)}) and without ({len(closed)}); the usual form is "
        f"{'with' if want else 'without'} a space", evidence=_unit_evidence(p, places[0]), rule=rule)]


def _unit_evidence(p: Prose, place: Place) -> str:
    """The number and its unit around an empty place ("10ms")."""
    text = p.doc.unit(place.unit).text
    start = place.start
    while start > 0 and (text[start - 1].isdigit() or text[start - 1] in ".,"):
        start -= 1
    end = place.end
    while end < len(text) and not text[end].isspace() and text[end] not in ",;)":
        end += 1
    return text[start:end]


def number_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Counts, percentages, thousands separators and units written two ways."""
    return _counts(p, sheet) + _percents(p, sheet) + _thousands(p, sheet) + _units(p, sheet)
