"""Finding a term in text the way a reader means it: its forms, case variants, whole words.

A rename of "widget" to "gadget" must also turn "Widgets" into "Gadgets" and "WIDGET'S" into
"GADGET'S", and must leave "widgetry" and "subwidget" alone. The possessive ending stays outside
the match (an apostrophe is a word boundary), so the span of each occurrence is the word itself.
The forms of a term in its language (English plurals, Spanish and French plurals with their
agreeing adjectives, German case and number endings) come from the one forms engine,
:mod:`addin_backend.language.forms`.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

from ..errors import InvalidRequestError
from ..language.forms import FORM_LANGUAGES, TermForm, is_acronym_word, plural, singular
from ..language.forms import term_forms as _language_forms
from ..language.lexicon import function_words

__all__ = ["Occurrence", "TermMatcher", "case_pattern", "check_term", "find_term", "max_term_chars", "pluralize", "recase",
           "singularize", "term_forms", "term_matcher", "DEFAULT_MAX_TERM_CHARS"]

#: The longest term (old or new) a rename takes, in characters (``LEDGER_MAX_TERM_CHARS``). A
#: term is a name for a thing, a few words; the longest defined term of the development set is
#: far below this. Matching a term costs its length times the text's: a 10,000-character term
#: on a 1 MB document held a worker 162 s before this bound.
DEFAULT_MAX_TERM_CHARS = 200


def max_term_chars(environ: dict[str, str] | None = None) -> int:
    """The bound on a rename's terms: ``LEDGER_MAX_TERM_CHARS``, else :data:`DEFAULT_MAX_TERM_CHARS`.

    :raise InvalidRequestError: a value that is not a whole number of 1 or more.

    >>> max_term_chars({}), max_term_chars({"LEDGER_MAX_TERM_CHARS": "80"})
    (200, 80)
    """
    raw = (os.environ if environ is None else environ).get("LEDGER_MAX_TERM_CHARS")
    if raw is None:
        return DEFAULT_MAX_TERM_CHARS
    try:
        n = int(raw)
    except ValueError:
        raise InvalidRequestError(f"LEDGER_MAX_TERM_CHARS={raw!r} is not a whole number of characters") from None
    if n < 1:
        raise InvalidRequestError(f"LEDGER_MAX_TERM_CHARS is {n}; give 1 or more")
    return n


def check_term(term: str, what: str = "the term") -> None:
    """Refuse a rename's term longer than :func:`max_term_chars`, before any search (the one check
    every door's rename passes: the rules engine's instruction, a ``rename`` operation, the LLM's).

    :raise InvalidRequestError: too long (``422 invalid_request``; details give both lengths).

    >>> check_term("connection ID")
    >>> try:
    ...     check_term("x" * 201, "the new term")
    ... except InvalidRequestError as exc:
    ...     print(exc.code, exc.details)
    invalid_request {'term_chars': 201, 'max_term_chars': 200}
    """
    limit = max_term_chars()
    if len(term) > limit:
        raise InvalidRequestError(f"{what} is {len(term):,} characters long; a rename takes terms of at most {limit:,} "
                                  "(LEDGER_MAX_TERM_CHARS): a term is a name, not a passage (edit a passage with "
                                  "a replace)", term_chars=len(term), max_term_chars=limit)


def pluralize(phrase: str, lang: str = "en") -> str | None:
    """The plural of a phrase (:func:`addin_backend.language.forms.plural`), ``None`` when it has none.

    >>> pluralize("widget"), pluralize("policy"), pluralize("purchase order"), pluralize("class")
    ('widgets', 'policies', 'purchase orders', 'classes')
    >>> pluralize("days") is None, pluralize("v2") is None
    (True, True)
    >>> pluralize("connection ID"), pluralize("target URI"), pluralize("MP3"), pluralize("ISO 9001") is None
    ('connection IDs', 'target URIs', 'MP3s', True)
    """
    return plural(phrase, lang)


def singularize(phrase: str, lang: str = "en") -> str | None:
    """The singular of a plural phrase (:func:`addin_backend.language.forms.singular`).

    >>> singularize("widgets"), singularize("policies"), singularize("classes"), singularize("glass")
    ('widget', 'policy', 'class', None)
    >>> singularize("connection IDs"), singularize("URIs"), singularize("IDS")
    ('connection ID', 'URI', None)
    """
    return singular(phrase, lang)


#: An acronym or code-like word whose plural adds a lower-case "s" (the forms engine's test).
_is_acronym = is_acronym_word


def term_forms(old: str, new: str, lang: str = "en") -> list[tuple[str, str]]:
    """Pairs (form of the old term, matching form of the new term): as given, plural or singular
    (the forms the new term has).

    >>> term_forms("widget", "gadget")
    [('widget', 'gadget'), ('widgets', 'gadgets')]
    >>> term_forms("widgets", "gadgets")
    [('widgets', 'gadgets'), ('widget', 'gadget')]
    >>> term_forms("ISO 9001", "ISO 27001")
    [('ISO 9001', 'ISO 27001')]
    """
    return [(f.old, f.new) for f in _language_forms(old, new, lang) if f.new is not None]


def case_pattern(s: str) -> str:
    """``lower``, ``upper``, ``title`` (each word capitalised), ``sentence`` or ``mixed``.

    >>> [case_pattern(s) for s in ("ledger", "LEDGER", "Purchase Order", "Purchase order", "iPhone")]
    ['lower', 'upper', 'title', 'sentence', 'mixed']
    """
    words = [w for w in re.split(r"[\s\-]+", s) if any(c.isalpha() for c in w)]
    if not words:
        return "lower"
    letters = "".join(c for c in s if c.isalpha())
    if letters.islower():
        return "lower"
    if letters.isupper() and len(letters) > 1:
        return "upper"

    def capitalised(w: str) -> bool:
        letters_w = [c for c in w if c.isalpha()]
        return letters_w[0].isupper() and all(c.islower() for c in letters_w[1:])

    if all(capitalised(w) for w in words):
        return "title"
    if capitalised(words[0]) and all("".join(c for c in w if c.isalpha()).islower() for w in words[1:]):
        return "sentence"
    return "mixed"


def _apply_pattern(text: str, pattern: str) -> str:
    if pattern == "lower":
        return text.lower()
    if pattern == "upper":
        return text.upper()
    if pattern == "title":
        return re.sub(r"[A-Za-z][\w']*", lambda m: m.group(0)[0].upper() + m.group(0)[1:].lower(), text)
    if pattern == "sentence":
        low = text.lower()
        return low[:1].upper() + low[1:]
    return text


def recase(occurrence: str, old_form: str, new_form: str) -> str:
    """The new form in the case the occurrence was written in.

    The new term keeps the case it was given for occurrences written like the old term; others
    follow their own pattern (``ledger`` -> ``journal``, ``LEDGER`` -> ``JOURNAL``). A new term with
    irregular capitals (``iPhone``, ``GraphQL``) keeps them, except in an all-capitals context and
    in a lower-case occurrence of a term given capitalised: renaming ``Lorem`` (as a sentence
    begins) to ``ZZLoremZZ`` writes ``zzloremzz`` where the text says ``lorem``, not the given
    capitals in every form. A new term in capitals (an acronym) keeps them everywhere.

    >>> recase("ledger", "Ledger", "Journal"), recase("LEDGER", "Ledger", "Journal")
    ('journal', 'JOURNAL')
    >>> recase("widget", "widget", "Gadget"), recase("Widget", "widget", "gadget")
    ('Gadget', 'Gadget')
    >>> recase("Widget", "widget", "GraphQL"), recase("WIDGET", "widget", "GraphQL")
    ('GraphQL', 'GRAPHQL')
    >>> recase("Lorem", "Lorem", "ZZLoremZZ"), recase("lorem", "Lorem", "ZZLoremZZ"), recase("lorem", "Lorem", "NASA")
    ('ZZLoremZZ', 'zzloremzz', 'NASA')
    """
    occ_p, old_p, new_p = case_pattern(occurrence), case_pattern(old_form), case_pattern(new_form)
    if occ_p == old_p:
        return new_form
    if occ_p == "upper":
        return new_form.upper()
    if new_p == "mixed" and occ_p == "lower" and old_p in ("title", "sentence"):
        return new_form.lower()
    if new_p in ("mixed", "upper"):
        return new_form
    if occ_p == "mixed":
        return new_form
    return _apply_pattern(new_form, occ_p)


# --- every form of a term in a text ------------------------------------------------------------

#: What separates the words of a term as written: spaces (any run, a line break too), a hyphen
#: ("origin-server"), or nothing (the closed compound "originserver", reported, never replaced).
_SEP = r"(?:\s+|[-\u2010\u2011]|)"
_SEP_RX = re.compile(r"\s+|[-\u2010\u2011]")
#: Words a title-case line keeps in lower case (the lexicon's), and words that end a capitalised name.
_SMALL = function_words("title_minor")
_NAME_STOP = frozenset(
    "a an the this that these those each every any all no some its their our your his her my if when "
    "while for in on at by of to and or but as with from into via see use using".split()
)
_CAP_WORD = re.compile(r"[A-Z][a-z][\w'\u2019-]*")
_LEFT_WORD = re.compile(r"([A-Z][a-z][\w'\u2019-]*)[ \u00a0]+$")
_RIGHT_WORD = re.compile(r"(?:['\u2019]s)?[ \u00a0]+([A-Z][a-z][\w'\u2019-]*)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\t\n\u2022])[\s\"'\u201c\u2018(\[]*$")
_LINE_WORDS = re.compile(r"[^\W\d_][\w'\u2019]*")


def _irregular(word: str) -> bool:
    """A word whose capitals are its own (an acronym, "iPhone", "ISO", "9001"): matched as written.

    >>> [_irregular(w) for w in ("connection", "Connection", "ID", "iPhone", "9001", "A")]
    [False, False, True, True, True, False]
    """
    letters = [c for c in word if c.isalpha()]
    if not letters:
        return True
    return any(c.isupper() for c in letters[1:]) or any(not c.isalpha() for c in word if c not in "'\u2019")


def _split(term: str) -> tuple[list[str], list[str]]:
    """A term's words and the separators between them ("origin-server cache" -> 3 words, "-", " ")."""
    parts = re.split(r"(\s+|[-\u2010\u2011])", term.strip())
    return parts[0::2], parts[1::2]


def _shape(word: str) -> str:
    """``lower``, ``cap`` (capitalised), ``upper`` or ``mixed``: how one word is written."""
    if word.islower():
        return "lower"
    if word.isupper():
        return "upper" if len(word) > 1 else "cap"
    return "cap" if word[:1].isupper() and word[1:].islower() else "mixed"


def _word_rx(word: str, fixed: bool) -> str:
    body = "".join("['\u2019]" if c in "'\u2019" else re.escape(c) for c in word)
    return body if fixed else f"(?i:{body})"


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of a term in a text.

    ``text`` is the form as written at ``start:end`` (a possessive "'s" stays outside),
    ``replacement`` the new term in the same form and case. ``closed``: written as one word
    ("originserver"): a form to report, not to replace. ``capitalised``: capitalised in running
    text (not at a sentence start, not in a title-case line) where the term is given in lower
    case: a name perhaps. ``name``: the longer capitalised name the occurrence stands in
    ("Destination Connection ID"), when there is one. ``unpaired``: the new term has no form in
    this occurrence's role (no plural of "ISO 27001", no German genitive known for it), or the
    occurrence is a form of the term the engine cannot pair (``form == "unknown"``): a form to
    report, not to replace. ``form`` is the role ("singular", "plural", "genitive", ...).
    """

    start: int
    end: int
    text: str
    replacement: str
    plural: bool = False
    closed: bool = False
    capitalised: bool = False
    name: str | None = None
    unpaired: bool = False
    form: str = "singular"


def _fold(word: str) -> str:
    """A word without diacritics, in lower case (German umlauts compared as their vowels)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(c) != "Mn")


#: German endings a noun or adjective may take in a phrase (a form to find and report when the
#: forms engine has no pair for it: "öffentlichen Vertrages" of "öffentlicher Vertrag").
_DE_ENDINGS = ("ern", "ens", "em", "en", "er", "es", "e", "n", "s")


def _de_stem(word: str) -> str:
    low = _fold(word)
    for e in ("er", "en", "es", "em", "e"):
        if low.endswith(e) and len(low) - len(e) >= 4:
            return low[: -len(e)]
    return low


class TermMatcher:
    """Every form of one term (``old``) in a text, each paired with the matching form of ``new``.

    Forms (:mod:`addin_backend.language.forms`, in the unit's language ``lang``): singular and
    plural (English: a term ending in an acronym or code takes "s": "connection IDs", "URIs";
    Spanish and French plurals with their agreeing adjectives; German case and number endings),
    possessives, any case (lower, sentence start, title case, capitals), words joined by spaces,
    a hyphen or nothing. In German, another ending of the term's words that the engine cannot
    pair is found too and reported (``form == "unknown"``). Sentence starts, title-case lines
    and capitalised names are told apart in English only (German capitalises every noun).
    Words written with their own capitals ("ID", "QUIC", "iPhone") match only as written; other
    words in any case, so "Connection IDs" is a form of "connection ID" and "us" is no form of "US".

    >>> m = TermMatcher("connection ID", "connection identifier")
    >>> [(o.text, o.replacement) for o in m.find("Connection IDs are new; two connection IDs.")]
    [('Connection IDs', 'Connection identifiers'), ('connection IDs', 'connection identifiers')]
    >>> [(o.text, o.replacement) for o in m.find("Issuing Connection IDs")]
    [('Connection IDs', 'Connection Identifiers')]
    >>> [(o.text, o.name) for o in m.find("The Destination Connection ID field")]
    [('Connection ID', 'Destination Connection ID')]
    >>> [(o.text, o.replacement) for o in TermMatcher("origin server", "upstream server").find("origin-server auth")]
    [('origin-server', 'upstream-server')]
    >>> [(o.text, o.replacement) for o in TermMatcher("suelo", "terreno", lang="es").find("Los suelos y el suelo.")]
    [('suelos', 'terrenos'), ('suelo', 'terreno')]
    """

    def __init__(self, old: str, new: str, *, english: bool = True, lang: str | None = None) -> None:
        self.old, self.new = old.strip(), new.strip()
        self.lang = lang if lang is not None else ("en" if english else None)
        self.english = self.lang == "en"
        forms = _language_forms(self.old, self.new, self.lang) if self.lang in FORM_LANGUAGES else []
        if not forms:
            forms = [TermForm("singular", self.old, self.new)]
        sing = next((f for f in forms if f.role == "singular"), forms[0])
        self.words, self.seps = _split(sing.old)
        self.forms = [f for f in forms if len(_split(f.old)[0]) == len(self.words)]
        self.fixed = [_irregular(w) for w in self.words]
        # The new term is inflected to the role of each occurrence, whatever number it is given in
        # ("packets" -> "marker" writes "markers" for "packets", "marker" for "packet"). When it
        # has no form in that role ("ISO 27001", a word without a plural), the occurrence is
        # found but not replaced (``unpaired``): verification reports it.
        new_sing = sing.new if sing.new is not None else next((f.new for f in self.forms if f.new), self.new)
        self.new_words, self.new_seps = _split(new_sing)
        self.given_words = _split(self.old)[0]
        self.given_lower = all(w.islower() for w, f in zip(self.given_words, self.fixed) if not f)
        self.given_shapes = [_shape(g) for g, f in zip(self.given_words, self.fixed) if not f]
        self.new_fixed = [_irregular(w) for w in self.new_words]
        self.new_upper = [w.isupper() for w in _split(self.new)[0]]
        self.rx = self._compile()
        self.loose = self._compile_loose()

    def _compile(self) -> re.Pattern[str] | None:
        if not self.old:
            return None
        alts = []
        for i, f in enumerate(self.forms):
            words = _split(f.old)[0]
            last = [words[-1]]
            if f.role == "plural" and self.fixed[-1] and len(words) > 1:
                last.append(self.words[-1] + "S")  # "CONNECTION IDS" in a line of capitals
            last_rx = "|".join(_word_rx(w, self.fixed[-1]) for w in sorted(set(last), key=len, reverse=True))
            body = "".join(_word_rx(w, fx) + _SEP for w, fx in zip(words[:-1], self.fixed[:-1])) + f"(?:{last_rx})"
            alts.append((len(f.old), f"(?P<f{i}>{body})"))
        alts.sort(key=lambda a: -a[0])
        return re.compile(rf"(?<!\w)(?:{'|'.join(a for _n, a in alts)})(?!\w)")

    def _compile_loose(self) -> re.Pattern[str] | None:
        """German: any ending of each word of the term (what the forms engine may not pair)."""
        if self.lang != "de" or not self.old or any(self.fixed):
            return None
        ends = "|".join(_DE_ENDINGS)
        body = _SEP.join(f"(?i:{re.escape(_de_stem(w))}(?:{ends})?)" for w in self.words)
        return re.compile(rf"(?<!\w){body}(?!\w)")

    # the case of one occurrence -------------------------------------------------------------

    def _case(self, occ_words: list[str], closed: bool) -> str:
        letters = [c for w in occ_words for c in w if c.isalpha()]
        ordinary = [(w, g) for w, g, f in zip(occ_words, self.words, self.fixed) if not f] if not closed else []
        if closed:
            word = occ_words[0]
            if word.isupper():
                return "upper"
            if word.islower():
                return "lower"
            return "first" if word[:1].isupper() else "mixed"
        if not ordinary:
            return "upper" if occ_words[-1].endswith("S") and len(occ_words) > 1 else "given"
        if all(c.isupper() for c in letters) and any(len(w) > 1 for w, _ in ordinary):
            return "upper"
        if [_shape(w) for w, _ in ordinary] == self.given_shapes:
            return "given"
        if all(w.islower() for w, _ in ordinary):
            return "lower"
        caps = [w[:1].isupper() and (w[1:].islower() or not w[1:]) for w, _ in ordinary]
        if all(caps):
            first_ordinary = next(i for i, f in enumerate(self.fixed) if not f)
            return "first" if len(ordinary) == 1 and first_ordinary == 0 else "title"
        if caps[0] and all(w.islower() for w, _ in ordinary[1:]):
            return "sentence"
        return "mixed"

    def _new_form(self, case: str, new_phrase: str | None, seps: list[str], closed: bool) -> str:
        words = list(self.new_words)
        if new_phrase is not None:
            inflected = _split(new_phrase)[0]
            if len(inflected) == len(words):
                words = inflected
        fixed = self.new_fixed
        if case == "upper":
            out = [w.upper() for w in words]
        elif case in ("given", "mixed"):
            out = words
        else:
            given_caps = not self.given_lower
            out = []
            for i, (w, f) in enumerate(zip(words, fixed)):
                if f:
                    keep = i < len(self.new_upper) and self.new_upper[i]
                    out.append(w.lower() if case == "lower" and given_caps and not keep else w)
                    continue
                w = w.lower()
                if case == "title" and (i == 0 or w not in _SMALL):
                    w = w[:1].upper() + w[1:]
                elif case == "sentence" and i == 0:
                    w = w[:1].upper() + w[1:]
                out.append(w)
        if closed:
            return "".join(out)
        joins = self.new_seps
        if seps and all(_SEP_RX.fullmatch(s) and not s.isspace() for s in seps) and len(words) > 1:
            joins = ["-"] * (len(words) - 1)  # a hyphenated compound stays one
        return "".join(w + (joins[i] if i < len(joins) else "") for i, w in enumerate(out))

    # finding --------------------------------------------------------------------------------

    def find(self, text: str) -> list[Occurrence]:
        """Every occurrence of the term in ``text``, left to right (replacements equal to the
        occurrence included: a caller drops those it need not change)."""
        if self.rx is None:
            return []
        out: list[Occurrence] = []
        title_line: bool | None = None
        for m in self.rx.finditer(text):
            occ = m.group(0)
            form = self.forms[int((m.lastgroup or "f0")[1:])]
            seps = _SEP_RX.findall(occ)
            closed = len(seps) < len(self.words) - 1
            occ_words = [occ] if closed else _SEP_RX.split(occ)
            last = occ_words[-1]
            is_plural = form.role == "plural"
            case = self._case(occ_words, closed)
            if case == "upper" and last.endswith("S") and self.fixed[-1] and not occ.replace(last, "").isupper():
                continue  # "IDS" with the rest in lower case: another acronym
            capitalised, name = False, None
            if case in ("first", "title") and self.given_lower and self.english:  # English capitals
                at_start = bool(_SENTENCE_START.search(text, 0, m.start())) if m.start() else True
                if title_line is None:
                    title_line = _title_line(text, self)
                if title_line:
                    case = "title"
                elif case == "first" and at_start:
                    case = "sentence"
                else:
                    case = "title"
                    capitalised = not at_start or len([f for f in self.fixed if not f]) > 1
                    name = _longer_name(text, m.start(), m.end()) if capitalised else None
            if case == "first":
                case = "title"
            repl = self._new_form(case, form.new, seps, closed)
            out.append(Occurrence(m.start(), m.end(), occ, repl, is_plural, closed, capitalised, name,
                                  form.new is None, form.role))
        if self.loose is not None:
            taken = [(o.start, o.end) for o in out]
            for m in self.loose.finditer(text):
                if any(a < m.end() and m.start() < b for a, b in taken):
                    continue
                out.append(Occurrence(m.start(), m.end(), m.group(), m.group(), False, False, False, None, True,
                                      "unknown"))
            out.sort(key=lambda o: o.start)
        return out


def _title_line(text: str, matcher: TermMatcher) -> bool:
    """Whether ``text`` is a line in title case (a heading, a caption, a table cell): its other
    words of four letters or more are capitalised, or it is a short line of the term alone."""
    if len(text) > 200 or re.search(r"[.!?]\s+\w", text):
        return False
    rest = matcher.rx.sub(" ", text) if matcher.rx is not None else text
    words = [w for w in _LINE_WORDS.findall(rest) if len(w) >= 4 and not w.isupper()]
    if not words:
        return not text.rstrip().endswith((".", "!", "?")) and len(text.split()) <= 8
    return sum(w[0].isupper() for w in words) >= 0.75 * len(words)


def _longer_name(text: str, start: int, end: int) -> str | None:
    """The capitalised name around ``start:end`` ("Destination Connection ID Length"), when the
    capitalised words go on beyond the term."""
    a, b = start, end
    while True:
        m = _LEFT_WORD.search(text, 0, a)
        if m is None or m.group(1).lower() in _NAME_STOP:
            break
        a = m.start(1)
    while True:
        m = _RIGHT_WORD.match(text, b)
        if m is None or m.group(1).lower() in _NAME_STOP:
            break
        b = m.end(1)
    return re.sub(r"\s+", " ", text[a:b]) if (a, b) != (start, end) else None


_MATCHERS: dict[tuple[str, str, str | None], TermMatcher] = {}


def term_matcher(old: str, new: str, *, english: bool = True, lang: str | None = None) -> TermMatcher:
    """The (cached) :class:`TermMatcher` of ``old`` -> ``new`` in ``lang`` (``english``: "en" or
    no forms): compiled once per rename and language, not per unit."""
    lang = lang if lang is not None else ("en" if english else None)
    key = (old.strip(), new.strip(), lang)
    m = _MATCHERS.get(key)
    if m is None:
        if len(_MATCHERS) > 256:
            _MATCHERS.clear()
        m = _MATCHERS[key] = TermMatcher(old, new, english=lang == "en", lang=lang)
    return m


def find_term(text: str, old: str, new: str, *, english: bool = True, lang: str | None = None) -> list[tuple[int, int, str]]:
    """Every whole-word occurrence of ``old`` (any form) in ``text``: ``(start, end, replacement)``.

    Matching ignores case but in words that carry their own capitals (``NASA``, ``iPhone``,
    the "ID" of "connection ID"), so that renaming an acronym never touches an ordinary word.
    Occurrences whose replacement would equal them, and closed compounds, are left out.

    >>> find_term("A widget's widgets; Widgetry. WIDGETS!", "widget", "gadget")
    [(2, 8, 'gadget'), (11, 18, 'gadgets'), (30, 37, 'GADGETS')]
    >>> find_term("US users use us", "US", "EU")
    [(0, 2, 'EU')]
    """
    return [(o.start, o.end, o.replacement) for o in term_matcher(old, new, english=english, lang=lang).find(text)
            if o.replacement != o.text and not o.closed and not o.unpaired]
