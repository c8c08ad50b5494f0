"""Which undefined abbreviations a reader needs no expansion for: names, designations and
explanations that the definition detector does not read as definitions.

An abbreviation used and never defined is worth a finding only where a reader would need its
expansion. :func:`no_expansion_needed` reads the document for the cases where they would not,
each a rule a careful editor states (and each with a case beside it that must still be
reported, in ``tests/addin_backend/checks/test_terminology_abbreviations.py``):

- a **designation**, a series name with its number ("RFC 9000", "BCP 14", "FIPS 186-4",
  "ITU-R TF.460", "36 CFR 1222.32", "room GL 263"): the number, not an expansion, tells the
  reader which document or item it is (:func:`designation`; a version is none: "SAML 2.0"). A
  term written so in half of its uses or more is the name of a series ("updated RFCs");
- a **name the document introduces**: a cell of a table whose row gives a value (a registry's
  "| 0x06 | CRYPTO |", a parameter's "| NSTART | 1 |") or of a grid of codes, also of a table
  drawn with bars in a figure ("| MAXPOLL | 17 | maximum poll exponent |"); the term line of a
  definition list ("ES:" and its description); a rule its grammar defines ("DIGIT1 = %x31-39");
- a **name by its context** (English): a determiner, the name and what it names ("the FIN bit",
  "a CRYPTO frame", "the TE header field", "the PRI method"; not "the ECN field", "ICMP
  messages", "the RTT estimate": those nouns follow real abbreviations as often); a name after a
  protocol's ("a SIP BYE request", "the TCP RST bit"); a word in capitals naming a message ("a
  GET request", unless it also names a protocol: "a SIP server"); methods listed as such
  ("methods other than GET"); a name with its code point or value ("A CRYPTO frame
  (type=0x06)", "PANICT (1000 s)", "NSTART=1"); a limit's name ("MAXPOLL", "TTLMAX"); a label
  after what it labels ("the private key ABCD", "secrets AR1 and AR0", and "AR2" of the same
  family); the members of an enumeration most of whose members are names ("ACK, CRYPTO,
  HANDSHAKE_DONE, and NEW_TOKEN"; "IGNOR, PANIC, ADJ, and STEP"); the name of an ASCII control
  character where the text speaks of characters ("a trailing NUL byte"); a name in quotes with
  where it is defined ('"SP" and "DQUOTE" are defined as in [RFC6690]'); an organisation's name
  ("TKO Software"), a person's initials ("MJ Simpson's"), a region in an address ("Austin, TX."); a
  name the sentence gives ("Labelled DAM in Figure 3-1"); a name followed by the citation of the
  work that defines it ("OSCORE [RFC 8613]", "JSONPath [Goessner 2007]");
- an **explanation** the reader sees: a gloss in parentheses whose letters spell the
  abbreviation in order (the Schwartz-Hearst test, :func:`spells`: "SP (space)", "CTL
  (controls)", "augmented Backus-Naur form (ABNF [RFC5234])", "machine-to-machine (M2M)"), or
  whose words assemble it ("Secure FTP (FTPS)"); a legend ("DCID=Destination Connection ID",
  "GC: GroupContext objects", a cell "BS backspace", a row "| LVL | The security level |", a
  sentence of three glosses or more); capitalised words whose initials spell it ("the Original
  Destination Connection ID" for ODCID); a statement that names it an abbreviation ('often
  abbreviated "H2G2"'). A parenthesised prefix names two forms at once: "(EC)DHE
  (Diffie-Hellman ...)" explains DHE and ECDHE.

A **version** of an abbreviation the reader knows or the document defines ("IPv6", "HTML5",
"MRCPv1" where "MRCPv2" is defined) needs none either (:func:`version_base`), nor does a
**use that is none**: the "EC" of "(EC)DHE", a literal "b64'EjRWeA'" (:func:`glued_prefix`).
The rules read only the units that write a candidate, so the check stays cheap.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, Iterator, Mapping

from adapters.model import Document, Unit

from ...language.initials import spelled_from

__all__ = ["designation", "spells", "version_base", "no_expansion_needed", "glued_prefix", "grammar_names"]

#: A number after a series name: "RFC 9000", "BCP 14", "FIPS 186-4", "TF.460": two digits or more
#: (a version is none: "SAML 2.0" is still an abbreviation to spell out, "ASN.1" a notation's
#: name), not a percentage.
_NUMBER_AFTER = re.compile(r"(?:[ \u00a0]\d{2,}[\d.\-\u2010\u2011]*|\.\d{2,}[\d.]*)(?![\d%])(?![ \u00a0]?(?:%|percent))")


def designation(text: str, end: int) -> bool:
    """Whether the abbreviation ending at ``end`` is a series name followed by its number.

    >>> designation("as described in RFC 2119 and BCP 14", 19), designation("per FIPS 186-4.", 8)
    (True, True)
    >>> designation("defined by ITU-R TF.460 [X]", 19), designation("written in ASN.1", 14)
    (True, False)
    >>> designation("an SLA 99% of the time", 6), designation("the RTT estimate", 7), designation("SAML 2.0", 4)
    (False, False, False)
    """
    return bool(_NUMBER_AFTER.match(text, end))


def glued_prefix(text: str, start: int, end: int) -> bool:
    """No use of an abbreviation: a parenthesised prefix glued to a word ("(EC)DHE" writes ECDHE
    and DHE at once, the "EC" in it is none), the text of a literal glued to its prefix
    ("b64'EjRWeA'", "h'CAFE'", "b'ABI='"), a code point or number after its notation ("U+DFFF",
    "0xFEFF"), a name after a sigil ("$SYS/"), or a literal alone in quotes with its punctuation
    ('"BCC:" recipients').

    >>> glued_prefix("If (EC)DHE key establishment is in use", 4, 6), glued_prefix("or b32'CI2FM6A'.", 7, 14)
    (True, True)
    >>> glued_prefix("between U+D800 and U+DFFF", 21, 25), glued_prefix("$SYS/ topics", 1, 4)
    (True, True)
    >>> glued_prefix('the "BCC:" recipients', 5, 8), glued_prefix("the BCC recipients", 4, 7)
    (True, False)
    """
    if text[start - 1:start] == "(" and text[end:end + 1] == ")" and text[end + 1:end + 2].isalnum():
        return True
    if text[max(0, start - 2):start] in ("U+", "u+", "0x", "0X", "\\x") or text[start - 1:start] in ("$", "%", "#"):
        return True
    q = text[start - 1:start]
    if q in ("'", '"') and text[start - 2:start - 1].isalnum() and re.match(r"[^\w\s'\"]*" + re.escape(q), text[end:end + 4]):
        return True
    close = {"\"": "\"", "\u201c": "\u201d", "'": "'", "\u2018": "\u2019"}.get(q, "")
    return bool(close) and bool(re.match(r"[^\w\s]{0,2}" + re.escape(close), text[end:end + 3])) and (
        start < 2 or not text[start - 2].isalnum())


def spells(short: str, long: str, max_words: int | None = None) -> bool:
    """Whether ``long`` spells ``short``: its letters occur in ``long`` in order, right to left,
    the first at the start of a word (Schwartz and Hearst, "A simple algorithm for identifying
    abbreviation definitions in biomedical text", 2003). Digits and symbols do not count
    ("M2M", "LZ77"); the words may be longer than the letters need, not many more (``max_words``
    allows more where the writer put the gloss in parentheses next to the abbreviation).

    >>> spells("SP", "space"), spells("CTL", "controls"), spells("M2M", "machine-to-machine")
    (True, True, True)
    >>> spells("GC", "GroupContext objects"), spells("BWS", '"bad" whitespace')
    (True, True)
    >>> spells("LVL", "The security level (in bits)"), spells("FTPS", "Secure FTP"), spells("QoS", "the path")
    (True, False, False)
    >>> spells("ALPN", "see [ALPN]"), spells("RTT", "smoothed_rtt"), spells("KEM", "The KEM algorithm")
    (False, False, False)
    """
    s = [c.lower() for c in short if c.isalpha()]
    if not s:
        return False
    long = re.sub(r"\w*_\w*|(?<![\w-])" + re.escape(short) + r"(?![\w-])", " ", long)  # "see [ALPN]", "(smoothed_rtt)"
    words = re.findall(r"[^\W_]+", long)
    if not words or len(words) > (max_words or max(2 * len(s), len(s) + 5)):
        return False
    return spelled_from(s, " ".join(words).lower()) is not None


_VERSION = re.compile(r"^(?P<base>.*?[A-Z].*?)(?:v\d+(?:\.\d+)?|\d+(?:\.\d+)?)$")


def version_base(term: str) -> str | None:
    """The abbreviation a versioned one numbers ("IPv6" -> "IP", "HTML5" -> "HTML"), else ``None``.

    >>> version_base("IPv6"), version_base("HTML5"), version_base("MRCPv1"), version_base("RTT")
    ('IP', 'HTML', 'MRCP', None)
    """
    m = _VERSION.match(term)
    if not m or sum(c.isupper() for c in m.group("base")) < 2:
        return None
    return m.group("base")


# --- names ------------------------------------------------------------------------------------

_TOKEN = r"[A-Z][A-Za-z0-9&]*[A-Z0-9][A-Za-z0-9]*"
#: What a name names, after a determiner: a protocol's element ("the FIN bit", "a CRYPTO frame").
#: Not "message", "value", "field", "codepoint", "header", "option", "request" alone: "ICMP
#: messages", "the HMAC value", "the ECN field", "the ECT codepoint", "an OCSP request" are
#: abbreviations a reader must learn ("the TE header field" names one field).
_ELEMENT = (r"(?:frames?|bits?|flags?|header\s+field\b|methods?|parameters?|constants?|opcodes?|keywords?|"
            r"error\s+codes?|registers?|instructions?|primitives?)\b")
_DETERMINER = r"\b(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Ee]ach|[Ee]very|[Aa]ny|[Nn]o|[Ii]ts|[Tt]heir|[Oo]ne|[Ss]ame)"
_NAMED = re.compile(_DETERMINER + r"\s+(?:" + _TOKEN + r"\s+)?(?P<t>" + _TOKEN + r")s?\s+" + _ELEMENT)
#: A name after a protocol's name and before what it names: "a SIP BYE request", "the TCP FIN bit"
#: (not "an ICMP PTB message": a message type is often an abbreviation, Packet Too Big).
_AFTER_PROTOCOL = re.compile(r"(?<![\w-])" + _TOKEN + r"\s+(?P<t>" + _TOKEN + r")\s+"
                             r"(?:requests?|responses?|segments?|bits?|flags?|methods?|commands?)\b")
#: A name with its code point or value: "CRYPTO frame (type=0x06)", "PANICT (1000 s)", "NSTART=1".
_VALUED = re.compile(r"(?<![\w-])(?P<t>" + _TOKEN + r")(?:\s+[a-z]+)?\s\((?:type\s*=\s*)?(?:0x[0-9A-Fa-f]+|\d[\d.]*(?:\s?[a-z\u00b5]{1,2})?)\)"
                     r"|(?<![\w-])(?P<u>" + _TOKEN + r")\s?=\s?(?:0x[0-9A-Fa-f]+|\d+)\b")
#: A word in capitals naming a message ("a GET request", "a BYE request"): only a word, since
#: "an OCSP request" is an abbreviation a reader must learn.
_WORD_NAMED = re.compile(_DETERMINER + r"\s+(?:" + _TOKEN + r"\s+)?(?P<t>[A-Z]{3,})\s+"
                         r"(?:requests?|responses?|messages?|packets?|commands?|records?)\b")
#: A label after what it labels: "the private key ABCD", "the application ratchet secrets AR1 and
#: AR0", "The labels IGNOR, PANIC, ADJ, and STEP" (the notation of a figure, a formula, a state).
_LABELLED = re.compile(r"\b(?:keys?|secrets?|nodes?|nonces?|points?|vertex|vertices|variables?|labels?|states?|"
                       r"matri(?:x|ces)|vectors?)\s+(?P<t>" + _TOKEN + r")(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?P<v>" + _TOKEN + r"))*(?![\w-])")
#: A name the sentence gives a thing: "Labelled DAM in Figure 3-1", "labelled Server KA", "called
#: RaP", "denoted as SID" (a figure's or a formula's notation, named where it is used).
_GIVEN_NAME = re.compile(r"\b(?:[Ll]abell?ed|[Nn]amed|[Cc]alled|[Mm]arked|[Dd]enoted|[Tt]ermed)\s+(?:as\s+)?"
                         r"(?:[A-Z][a-z]+\s+)?(?P<t>" + _TOKEN + r")(?![\w-])")
#: A name followed by the citation of the work that defines it: "OSCORE [RFC 8613]", "LDAP
#: [RFC4511]", "CBOR Initial Algorithms [RFC 9053]" (the reader follows the citation).
_CITED_AFTER = re.compile(r"(?:\s+[A-Z][\w\-]*){0,3}\s*\[(?P<c>[^\[\]]{2,40})\]")
#: A constant's name whose parts spell an abbreviation: "HKEY_LOCAL_MACHINE" for HKLM.
_CONSTANT = re.compile(r"(?<![\w])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w])")
#: An organisation's name: the abbreviation and the word for what kind of organisation it is
#: ("developed by TKO Software", "NCC Group"); the name identifies it, an expansion would not.
_ORGANISATION = re.compile(r"(?<![\w-])(?P<t>" + _TOKEN + r")[ \u00a0](?:Inc|Ltd|LLC|GmbH|AG|plc|Corp|Corporation|Company|"
                           r"Group|Software|Systems|Technologies|Records|Studios|Pictures|Games|Entertainment|Publishing|"
                           r"Press|Books|Labs|Foundation|Institute|University|College|Society|Association)\b")
#: A name written with a family name: "MJ Simpson's" (a person's initials).
_INITIALS = re.compile(r"(?<![\w-])(?P<t>[A-Z]{2,3})[ \u00a0][A-Z][a-z]+(?:'s|\u2019s)\b")
#: What a protocol's name modifies and a message's name does not: "a SIP server", "the SIP dialog".
_PROTOCOL_NOUN = (r"(?:protocols?|servers?|clients?|sessions?|dialogs?|stacks?|implementations?|endpoints?|"
                  r"prox(?:y|ies)|traffic|URIs?|URLs?|connections?|layers?|peers?|networks?)\b")
#: "methods other than GET", "unsafe request methods (Section 9.2.1) such as PUT, POST, or DELETE".
_METHODS = re.compile(r"\bmethods?\s+(?:\([^)]{0,40}\)\s+)?(?:such\s+as|like|other\s+than|including|except(?:\s+for)?)\s+"
                      r"(?P<e>[A-Z]{3,}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)[A-Z]{3,})*)")
#: The names of the ASCII control characters (ISO 646), where the text speaks of characters:
#: "a trailing NUL byte", "SP, HTAB, VT (%x0B), FF (%x0C), or bare CR".
CONTROL_NAMES = frozenset("NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN "
                          "ETB CAN EM SUB ESC FS GS RS US SP DEL CRLF HTAB".split())
_CHARACTERS = re.compile(r"\b(?:characters?|octets?|bytes?|ASCII|US-ASCII|whitespace|white\s+space|"
                         r"%x[0-9A-Fa-f]{2}|0x[0-9A-Fa-f]{2}|U\+[0-9A-Fa-f]{4})(?!\w)")
#: A name in quotes with where it is defined: '"SP", and "DQUOTE" are defined as in [RFC6690]'.
_QUOTED = re.compile(r"[\"\u201c](?P<t>" + r"[A-Z][A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*" + r")[\"\u201d]")
_DEFINED_IN = re.compile(r"\bdefined\s+(?:as\s+)?(?:in|by)\b")
#: A region's code after a place ("Austin, TX.", "Las Vegas, NV 89086"), as addresses write it.
_REGION = re.compile(r"\b[A-Z][a-z]+,[ \u00a0](?P<t>[A-Z]{2})(?=[ \u00a0]+\d{4,5}\b|\.(?:\s|$)|\s*$)")

_MEMBER = r"[A-Z][A-Za-z0-9_]*[A-Z0-9](?:/[A-Z0-9_]+)?"
_ENUMERATION = re.compile(r"(?<![\w-])" + _MEMBER + r"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)" + _MEMBER + r")+(?![\w-])")
_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")

# --- explanations -----------------------------------------------------------------------------

_GLOSS_AFTER = re.compile(r"(?<![\w-])(?P<t>" + _TOKEN + r")s?\s\((?P<g>[^()]{2,80})\)")
_ABBREVIATING = re.compile(r"\b(?:abbreviat\w*|acronym\w*|initialism\w*|short\s+for|stands\s+for)\b", re.I)
_SMALL = frozenset("of and the for in on to a an by with from or".split())


def _glossed_before(text: str, term: str) -> bool:
    """ "augmented Backus-Naur form (ABNF [RFC5234])", "elliptic curves ((EC)DHE)",
    "Expressions (PCRE/PCRE2)": the words before the parenthesis spell the abbreviation."""
    pat = re.compile(r"\(\s*(?:\([A-Z]+\))?" + re.escape(term) + r"s?\s*(?:\[[^\]]*\]|[,;/][^)]*)?\)")
    for m in pat.finditer(text):
        before = re.split(r"[.;:()\[\]]", text[max(0, m.start() - 160):m.start()])[-1]
        words = before.split()
        n = len([c for c in term if c.isalpha()])
        for k in range(1, min(len(words), n + 5) + 1):  # the shortest window that spells it
            if spells(term, " ".join(words[-k:]), 12) and words[-k][0].lower() == next(c for c in term if c.isalpha()).lower():
                return True
        if _assembles(term, words[-(n + 5):]):
            return True
    return False


def _assembles(term: str, words: list[str]) -> bool:
    """Whether the letters of ``term`` are pieces of ``words`` in any order, each word used
    once: the initials of a run of words, an abbreviation written in it, or the start of a word
    ("Secure FTP (FTPS)", "Security Architecture for the Internet Protocol (IPsec)").

    >>> _assembles("FTPS", "Secure FTP".split()), _assembles("IPsec", "Security Architecture for the Internet Protocol".split())
    (True, True)
    >>> _assembles("SLA", "the path to the server".split())
    False
    """
    want = "".join(c for c in term if c.isalpha()).lower()
    ws = [w.strip("\"'\u201c\u201d,") for w in words]
    ws = [w for w in ws if w and w[0].isalpha()]
    pieces: list[tuple[str, frozenset[int]]] = []
    for i, w in enumerate(ws):
        if w.lower() in _SMALL:
            continue
        if w.isupper() and len(w) >= 2:
            pieces.append((w.lower(), frozenset({i})))
        elif len(w) >= 3:
            pieces.extend((w[:k].lower(), frozenset({i})) for k in range(3, min(len(w), 5) + 1))
        run, used = "", set()
        for j in range(i, len(ws)):  # initials of the capitalised words from i on
            if ws[j].lower() in _SMALL:
                continue
            if not ws[j][0].isupper():
                break
            run += ws[j][0].lower()
            used.add(j)
            pieces.append((run, frozenset(used)))

    def fill(rest: str, taken: frozenset[int]) -> bool:
        if not rest:
            return True
        return any(rest.startswith(p) and not (ix & taken) and fill(rest[len(p):], taken | ix) for p, ix in pieces)

    return len(want) >= 3 and fill(want, frozenset())


def _initials_spell(term: str, text: str) -> bool:
    """Capitalised words whose initials spell ``term`` ("Original Destination Connection ID" for
    ODCID; a word in capitals gives all its letters, small words are skipped)."""
    if not term.isalpha() or len(term) < 3:
        return False  # "MD5" is not "Message Digest", two letters are too easily spelled
    want = term.lower()
    words = list(re.finditer(r"[^\W\d_]\w*", text))
    first = want[:1]
    for i, found in enumerate(words):
        w = found.group(0)
        if w.isupper() or not w[0].isupper() or w[0].lower() != first:
            continue
        got = ""
        for j in range(i, len(words)):
            x = words[j].group(0)
            if j > i and not _JOIN.fullmatch(text[words[j - 1].end():words[j].start()]):
                break  # one phrase: words apart by spaces or hyphens, not "Language Translation/Communication"
            if x.isupper() and len(x) >= 2:
                got += x.lower()
            elif x[0].isupper():
                got += x[0].lower()
            elif x.lower() in _SMALL:
                continue
            else:
                break
            if got == want:
                return True
            if not want.startswith(got):
                break
    return False


_JOIN = re.compile(r"[ \u00a0]{1,2}|-")


def _explained_in(text: str, term: str, english: bool) -> bool:
    """Whether ``text`` explains ``term`` in one of the ways a reader reads as an expansion."""
    for m in _GLOSS_AFTER.finditer(text):
        if m.group("t") == term and spells(term, m.group("g").strip("\"'\u201c\u201d "), 12):
            return True
    if "(" in text and _glossed_before(text, term):
        return True
    t = re.escape(term)
    legend = re.compile(r"(?m)^\s*" + t + r"\s*(?:[:=\u2013\u2014]|--?)\s*(?P<g>[^,;:=()\n]{2,80})"
                        r"|(?<![\w-])" + t + r"\s?=\s?(?P<h>[A-Z][^,;:=()\n]{1,80})")
    n = len([c for c in term if c.isalpha()])
    for m in legend.finditer(text):  # "DCID=Destination Connection ID", "GC: GroupContext objects"
        words = (m.group("g") or m.group("h")).split()
        if any(spells(term, " ".join(words[:k])) for k in range(1, min(len(words), n + 3) + 1)):
            return True
    if _initials_spell(term, text):
        return True
    if english:
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if term in sentence and _ABBREVIATING.search(sentence) and re.search(
                    r"[\"\u201c'\u2018]" + re.escape(term) + r"[\"\u201d'\u2019]|\b" + re.escape(term) + r"\s+(?:is\s+short|stands)\b", sentence):
                return True
    return False


def _legend(text: str) -> set[str]:
    """The abbreviations of a legend sentence, three glosses or more in a row: "ALPHA (letters),
    CR (carriage return), ..., HEXDIG (hexadecimal 0-9/A-F/a-f)": each is explained."""
    found = [m.group("t") for m in _GLOSS_AFTER.finditer(text)]
    return set(found) if len(found) >= 3 else set()


# --- tables -----------------------------------------------------------------------------------

_ASCII_ROW = re.compile(r"^\s*\|(.+)\|\s*$")


def _drawn_rows(u: Unit) -> list[list[str]]:
    """The rows of a table drawn with bars ("| MAXPOLL | 17 | maximum poll exponent |"): three
    cells or more."""
    rows = []
    for line in u.text.split("\n"):
        m = _ASCII_ROW.match(line)
        if m and m.group(1).count("|") >= 2:
            rows.append([c.strip() for c in m.group(1).split("|")])
    return rows


def _tables(units: list[Unit]) -> Iterator[list[list[str]]]:
    """The rows of each table: a table unit's cells, or three rows or more drawn with bars in a
    figure or code block (one unit, or consecutive units of one line each)."""
    drawn: list[list[str]] = []
    for u in units:
        cells = u.meta.get("cells") if u.kind == "table" else None
        if cells:
            yield [[str(c).strip() for c in row] for row in cells if isinstance(row, (list, tuple))]
        rows = _drawn_rows(u) if "|" in u.text and not cells else []
        if rows:
            drawn.extend(rows)
            continue
        if len(drawn) >= 3:
            yield drawn
        drawn = []
    if len(drawn) >= 3:
        yield drawn


#: A cell that gives a value (a registry's code point, a parameter's default): "0x06",
#: "0x02-0x03", "17", "1.5", "2 seconds", "1000 s".
_VALUE_CELL = re.compile(r"(?:0x[0-9A-Fa-f]+|[-+]?\d[\d.,]*)(?:\s*(?:-|\u2013|to)\s*(?:0x[0-9A-Fa-f]+|\d[\d.,]*))?"
                         r"(?:\s*[A-Za-z%\u00b5]{1,8})?")
#: A code in a grid of codes ("| PROC | PROC | DSCRD |"): three of them in a row make a code table.
_CODE_CELL = re.compile(r"[A-Z][A-Z0-9_]{1,9}")
#: A limit's name, as code and specifications name constants: "MAXPOLL", "MINCLOCK", "TTLMAX", "CMIN".
_LIMIT = re.compile(r"(?:MAX|MIN)[A-Z]{2,}[0-9]*|[A-Z]{1,6}(?:MAX|MIN)")
_PREFIXED = re.compile(r"\((?P<a>[A-Z]{1,4})\)(?P<b>[A-Z]{2,8})(?![\w])")
_CELL_TOKEN = re.compile(r"(?<![\w-])" + _TOKEN + r"(?![\w-])")
#: A grammar rule (ABNF, BNF): "DIGIT1 = %x31-39", "OWS = *( SP / HTAB )", "ESC = %x5C".
_CODE_DEFINES = re.compile(r"(?m)^[ \t]*(?P<t>" + _TOKEN + r")[ \t]*(?:=/?|::=)[ \t]*(?=%[xdb]|\"|\*|\(|\[|<|[A-Z][A-Z0-9-]*\b|\d\*)")


#: A rule of a grammar or an assignment of code: "status-line = HTTP-version SP status-code",
#: "OWS = *( SP / HTAB )", "token ::= tchar+", "smoothed_rtt = kInitialRtt".
_RULE_LINE = re.compile(r"(?m)^[ \t]*[A-Za-z][\w\-]*[ \t]*(?:=/?|::=|:=)[ \t]*\S")


def grammar_names(doc: Document) -> set[str]:
    """The abbreviation-like tokens the document's grammar and code write: every token in
    capitals of a code unit that holds a grammar rule or an assignment ("SP", "DQUOTE", "HTAB"
    of ABNF). They are names of rules, not abbreviations: "SP (space)" in prose explains a rule,
    it does not define an abbreviation, and a use before it is no fault.

    >>> d = Document("docx", [Unit("p-1", "paragraph", "Rules use SP (space) and DQUOTE (double quote).", 0),
    ...               Unit("p-2", "paragraph", 'status-line = HTTP-version SP status-code SP DQUOTE %s"HTTP"', 1)])
    >>> sorted(grammar_names(d))
    ['DQUOTE', 'SP']
    """
    from ...graph.related import is_code_line

    out: set[str] = set()
    for u in doc.units:
        if (u.text and u.kind in ("paragraph", "list_item", "figure") and "=" in u.text
                and u.meta.get("absent_in") != "accepted" and _RULE_LINE.search(u.text) and is_code_line(u)):
            # whole tokens only: the "HTTP" of the rule name "HTTP-version" or of the literal %s"HTTP" is no rule
            # (and not a protocol's version "HTTP/1.1", a comment after ";")
            for line in u.text.split("\n"):
                code = line.split(";", 1)[0]
                out.update(m.group(0) for m in re.finditer(r"(?<![\w\-\"'\[/])" + _TOKEN + r"(?![\w\-\"'/])", code))
    return out


def _dictionary_word(low: str) -> bool:
    """A word of the lexicon as written, not an inflected form nor only a common token ("lds")."""
    from ...language.nlp import word_classes

    return any(lemma == low for lemma, _inflected in word_classes(low).values())


# --- the reading ------------------------------------------------------------------------------

def no_expansion_needed(doc: Document, units: list[Unit], candidates: Mapping[str, Iterable[str]],
                        english: Callable[[Unit], bool], common: frozenset[str]) -> dict[str, str]:
    """``term -> why`` for each of ``candidates`` (abbreviations without a definition, each with
    the ids of the units that use it) a reader of ``doc`` needs no expansion for. ``units`` are
    the prose units the check reads, ``english`` tells an English unit, ``common`` are the
    common English words (lower case)."""
    wanted = set(candidates)

    from ...language.nlp import word_classes

    def is_word(token: str, shortest: int = 4) -> bool:  # an ordinary word in capitals: "PANIC", "DELETE"
        low = token.lower()
        return low.isalpha() and len(low) >= shortest and (
            low in common or low.rstrip("s") in common or (len(low) >= 5 and bool(word_classes(low))))

    out: dict[str, str] = {}
    if not wanted:
        return out
    tags: set[str] | None = None

    def cites(inside: str) -> bool:
        """Whether a bracket cites a work: a designation ("RFC 8613") or a tag the document's
        reference list opens an entry with ("[Goessner 2007]", "[NVD]")."""
        nonlocal tags
        if designation(inside, len(inside.split()[0])) or re.fullmatch(r"[A-Z]{2,}[\s\-]?\d{2,}[\w.\-]*", inside):
            return True
        if tags is None:
            from ...graph.related import is_reference_entry, reference_list_sections

            lists = reference_list_sections(doc)
            tags = {m.group(1) for x in doc.units if x.kind in ("paragraph", "list_item") and x.text.lstrip().startswith("[")
                    and is_reference_entry(x, x.parent in lists)
                    for m in re.finditer(r"(?m)^\s*\[([^\[\]]{1,40})\]", x.text)}
        return inside in tags

    def mark(term: str | None, why: str) -> None:
        if term in wanted and term not in out:
            out[term] = why

    live = [u for u in doc.units if u.text and u.meta.get("absent_in") != "accepted"]
    for rows in _tables(live):  # names a table introduces (also a table drawn in a figure)
        coded = [sum(bool(_CODE_CELL.fullmatch(c)) for c in row) >= 3 for row in rows]
        grid = sum(coded[1:]) >= 3  # a grid of codes, below its header row
        for r, row in enumerate(rows):
            registry = any(_VALUE_CELL.fullmatch(c) for c in row) or (grid and coded[r])
            for i, cell in enumerate(row):
                head = cell.split(" ", 1)[0].rstrip(":")
                term = cell if cell in wanted else cell[:-1] if cell[:-1] in wanted and cell.endswith("s") else None
                gloss = row[i + 1] if i + 1 < len(row) else ""
                if term and re.search(r"[a-z]{2}", gloss) and spells(term, " ".join(gloss.split()[:len(term) + 3])):
                    mark(term, "explained in a table")  # "| LVL | The security level (in bits) |"
                elif term and registry:
                    mark(term, "a name in a table")  # "| 0x06 | CRYPTO | Section 19.6 |", "| NSTART | 1 |"
                elif head in wanted and " " in cell and spells(head, cell.split(" ", 1)[1]):
                    mark(head, "explained in a table")
                elif "(" in cell:  # "| version number (VN) |"
                    for m in _CELL_TOKEN.finditer(cell):
                        if m.group(0) in wanted and _explained_in(cell, m.group(0), False):
                            mark(m.group(0), "explained in a table")
    in_prose = {u.id for u in units}
    # one pass finds the units that write a candidate: the rules below read only those
    any_term = re.compile(r"(?<![\w&])(?:" + "|".join(sorted(map(re.escape, wanted), key=len, reverse=True)) + r")s?(?![\w&])")
    for u in live:  # what a grammar defines: "DIGIT1 = %x31-39"
        if (u.id not in in_prose and u.kind in ("paragraph", "figure") and ("=" in u.text or "#" in u.text)
                and any_term.search(u.text)):
            for m in _CODE_DEFINES.finditer(u.text):
                mark(m.group("t"), "a rule its grammar defines")
    from ...graph.glossary import structural_definitions

    def term_line(unit: Unit, term: str, _s: int, _e: int, _how: str, body: str, _t: bool):
        if term in wanted:
            mark(term, "a term of a definition list")
        else:
            for w in term.split():
                if w in wanted and _initials_spell(w, body):
                    mark(w, "spelled out in a definition list")
        return None

    position = {u.id: i for i, u in enumerate(units)}
    seen_in: dict[str, list[Unit]] = {t: [units[position[x]] for x in dict.fromkeys(ids) if x in position]
                                      for t, ids in candidates.items()}
    at = sorted({position[u.id] for us in seen_in.values() for u in us})
    readable = [units[i] for i in at]
    # a term line and what follows it, in their sections: where a definition list can name a candidate
    near = {j for i in at for j in (i, i + 1) if j < len(units)}
    near |= {i for i, u in enumerate(units) if u.kind == "section"}
    structural_definitions([units[j] for j in sorted(near)], term_line)
    token = re.compile(r"(?<![\w&])" + _TOKEN + r"(?![\w&])")
    word_named: set[str] = set()
    for u in readable:
        text = u.text
        eng = english(u)
        for t in _legend(text) & wanted:
            mark(t, "explained in a legend")
        if eng:
            for rx, why in ((_NAMED, "a name by its context"), (_AFTER_PROTOCOL, "a name after a protocol's"),
                            (_VALUED, "a name with its value"), (_REGION, "a region's code in an address")):
                for m in rx.finditer(text):
                    mark(m.group("t") or m.groupdict().get("u"), why)
            for m in _LABELLED.finditer(text):
                for x in re.findall(_TOKEN, m.group(0)):
                    mark(x, "a label")
            for m in _INITIALS.finditer(text):
                mark(m.group("t"), "a person's initials")
            for m in _GIVEN_NAME.finditer(text):
                mark(m.group("t"), "a name the text gives")
            for m in _CONSTANT.finditer(text):  # "HKEY_LOCAL_MACHINE must be used instead of HKLM"
                spelled = " ".join(m.group(0).split("_"))
                for t in wanted - set(out):
                    if t in text and spells(t, spelled):
                        mark(t, "spelled out by a constant's name")
            for m in _ORGANISATION.finditer(text):
                mark(m.group("t"), "an organisation's name")
            for m in _WORD_NAMED.finditer(text):
                if m.group("t") in wanted and is_word(m.group("t"), 3) and _dictionary_word(m.group("t").lower()):
                    word_named.add(m.group("t"))
            for m in _METHODS.finditer(text):
                for x in _SEPARATOR.split(m.group("e")):
                    mark(x, "a method's name")
            if '"' in text or "\u201c" in text:
                for sentence in re.split(r"(?<=[.;])\s+", text):
                    if _DEFINED_IN.search(sentence):
                        for m in _QUOTED.finditer(sentence):
                            mark(m.group("t"), "a name with where it is defined")
        if "[" in text:
            for m in token.finditer(text):
                cited = _CITED_AFTER.match(text, m.end()) if m.group(0) in wanted else None
                if cited and cites(cited.group("c")):
                    mark(m.group(0), "a name with the work that defines it")
        if wanted & CONTROL_NAMES and _CHARACTERS.search(text):
            for m in token.finditer(text):
                if m.group(0) in CONTROL_NAMES:
                    mark(m.group(0), "a control character's name")
    for u in units:  # "(EC)DHE (Diffie-Hellman ...)": explains DHE, and ECDHE with it
        for m in _PREFIXED.finditer(u.text):
            b, ab = m.group("b"), m.group("a") + m.group("b")
            if (b in wanted or ab in wanted) and _explained_in(u.text, b, english(u)):
                mark(b, "explained with its prefix")
                mark(ab, "explained with its prefix")
    for t in wanted:
        if _LIMIT.fullmatch(t):
            mark(t, "a limit's name")
    labels = {t for t, why in out.items() if why == "a label"}
    for t in wanted - set(out):  # "AR2" in the family of the labels "AR0", "AR1"
        family = re.fullmatch(r"([A-Z]+)\d+", t)
        if family and any(re.fullmatch(re.escape(family.group(1)) + r"\d+", x) for x in labels):
            mark(t, "a label")
    for t in word_named:  # "a GET request", unless the word also names a protocol ("a SIP server")
        pat = re.compile(r"(?<![\w-])" + re.escape(t) + r"\s+" + _PROTOCOL_NOUN)
        if not any(pat.search(u.text) for u in seen_in[t]):
            mark(t, "a word in capitals naming a message")
    for t in seen_in:
        if t in out:
            continue
        for u in units:  # also where it is written joined to a name: "RSA ... Scheme (RSASSA-PSS)"
            if t in u.text and _explained_in(u.text, t, english(u)):
                mark(t, "explained where it is used")
                break
    for _ in range(2):  # enumerations whose members are mostly names name the rest too
        for u in readable:
            for m in _ENUMERATION.finditer(u.text):
                members = [x for x in _SEPARATOR.split(m.group(0)) if x]
                names = sum(1 for x in members if "_" in x or out.get(x, "").startswith("a ") or is_word(x))
                if names and 2 * names >= len(members):
                    for x in members:
                        mark(x, "a member of an enumeration of names")
    return out
