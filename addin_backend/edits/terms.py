"""Finding a term in text the way a reader means it: plural forms, case variants, whole words.

A rename of "widget" to "gadget" must also turn "Widgets" into "Gadgets" and "WIDGET'S" into
"GADGET'S", and must leave "widgetry" and "subwidget" alone. The possessive ending stays outside
the match (an apostrophe is a word boundary), so the span of each occurrence is the word itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Occurrence", "TermMatcher", "case_pattern", "find_term", "pluralize", "recase", "singularize", "term_forms",
           "term_matcher"]

_IRREGULAR = {
    "person": "people",
    "child": "children",
    "man": "men",
    "woman": "women",
    "mouse": "mice",
    "criterion": "criteria",
    "phenomenon": "phenomena",
}
_IRREGULAR_BACK = {v: k for k, v in _IRREGULAR.items()}
_ES_ENDINGS = ("ss", "sh", "ch", "x", "z", "us")


def pluralize(phrase: str) -> str | None:
    """The regular English plural of a phrase (its last word), or ``None`` when it has none.

    >>> pluralize("widget"), pluralize("policy"), pluralize("purchase order"), pluralize("class")
    ('widgets', 'policies', 'purchase orders', 'classes')
    >>> pluralize("days") is None, pluralize("v2") is None
    (True, True)
    >>> pluralize("connection ID"), pluralize("target URI"), pluralize("MP3"), pluralize("ISO 9001") is None
    ('connection IDs', 'target URIs', 'MP3s', True)
    """
    head, _, last = phrase.rpartition(" ")
    if _is_acronym(last):  # "connection ID" -> "connection IDs", "MP3" -> "MP3s"
        return f"{head} {last}s" if head else last + "s"
    if not last.isalpha() or len(last) < 2:
        return None
    low = last.lower()
    if low in _IRREGULAR:
        plural = _like(last, _IRREGULAR[low])
    elif low in _IRREGULAR_BACK:
        return None
    elif low.endswith("is") and len(low) > 4:  # analysis -> analyses
        plural = last[:-2] + _keep_case(last, "es")
    elif low.endswith(_ES_ENDINGS):
        plural = last + _keep_case(last, "es")
    elif low.endswith("s"):
        return None  # already plural ("days", "terms")
    elif low.endswith("y") and low[-2] not in "aeiou":
        plural = last[:-1] + _keep_case(last, "ies")
    else:
        plural = last + _keep_case(last, "s")
    return f"{head} {plural}" if head else plural


def singularize(phrase: str) -> str | None:
    """The singular of a regular plural phrase, or ``None`` when it does not look plural.

    >>> singularize("widgets"), singularize("policies"), singularize("classes"), singularize("glass")
    ('widget', 'policy', 'class', None)
    >>> singularize("connection IDs"), singularize("URIs"), singularize("IDS")
    ('connection ID', 'URI', None)
    """
    head, _, last = phrase.rpartition(" ")
    low = last.lower()
    if last.endswith("s") and _is_acronym(last[:-1]):  # "IDs" -> "ID", "URIs" -> "URI"
        return f"{head} {last[:-1]}" if head else last[:-1]
    if not last.isalpha() or len(last) < 3 or (last.isupper() and len(last) <= 4):
        return None  # a short word in capitals is an acronym ("IDS", "AWS"), not a plural
    if low in _IRREGULAR_BACK:
        single = _like(last, _IRREGULAR_BACK[low])
    elif low.endswith("ies") and len(low) > 4:
        single = last[:-3] + _keep_case(last, "y")
    elif low.endswith(tuple(e + "es" for e in _ES_ENDINGS)):
        single = last[:-2]
    elif low.endswith("s") and not low.endswith(("ss", "us", "is")):
        single = last[:-1]
    else:
        return None
    return f"{head} {single}" if head else single


def _is_acronym(word: str) -> bool:
    """An acronym or code-like word whose plural adds a lower-case "s": "ID", "URI", "TSN", "MP3".

    >>> [_is_acronym(w) for w in ("ID", "TSN", "MP3", "I", "Id", "9001", "IDs")]
    [True, True, True, False, False, False, False]
    """
    letters = [c for c in word if c.isalpha()]
    return len(word) >= 2 and bool(letters) and all(c.isupper() for c in letters) and word[-1:].isalnum() \
        and word.isalnum()


def _like(model: str, word: str) -> str:
    """A replacement word in the case of the word it replaces (``Person`` -> ``People``)."""
    if model.isupper():
        return word.upper()
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


def _keep_case(model: str, suffix: str) -> str:
    """A suffix in upper case when the word it extends is all upper case."""
    return suffix.upper() if model.isupper() else suffix


def term_forms(old: str, new: str) -> list[tuple[str, str]]:
    """Pairs (form of the old term, matching form of the new term): as given, plural or singular.

    >>> term_forms("widget", "gadget")
    [('widget', 'gadget'), ('widgets', 'gadgets')]
    >>> term_forms("widgets", "gadgets")
    [('widgets', 'gadgets'), ('widget', 'gadget')]
    >>> term_forms("ISO 9001", "ISO 27001")
    [('ISO 9001', 'ISO 27001')]
    """
    forms = [(old, new)]
    p_old, p_new = pluralize(old), pluralize(new)
    if p_old and p_new:
        forms.append((p_old, p_new))
    elif p_old is None and p_new is None:
        s_old, s_new = singularize(old), singularize(new)
        if s_old and s_new:
            forms.append((s_old, s_new))
    return forms


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
#: Words a title-case line keeps in lower case, and words that end a capitalised name.
_SMALL = frozenset("a an and as at but by for from in into nor of on or per the to via vs with".split())
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
    this occurrence's number (no plural of "ISO 27001"): a form to report, not to replace.
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


class TermMatcher:
    """Every form of one term (``old``) in a text, each paired with the matching form of ``new``.

    Forms: singular and plural (English only; a term ending in an acronym or code takes "s":
    "connection IDs", "URIs"), possessives, any case (lower, sentence start, title case,
    capitals), words joined by spaces, a hyphen or nothing. Sentence starts, title-case lines and
    capitalised names are told apart in English only (German capitalises every noun). Words written with their own
    capitals ("ID", "QUIC", "iPhone") match only as written; other words in any case, so
    "Connection IDs" is a form of "connection ID" and "us" is no form of "US".

    >>> m = TermMatcher("connection ID", "connection identifier")
    >>> [(o.text, o.replacement) for o in m.find("Connection IDs are new; two connection IDs.")]
    [('Connection IDs', 'Connection identifiers'), ('connection IDs', 'connection identifiers')]
    >>> [(o.text, o.replacement) for o in m.find("Issuing Connection IDs")]
    [('Connection IDs', 'Connection Identifiers')]
    >>> [(o.text, o.name) for o in m.find("The Destination Connection ID field")]
    [('Connection ID', 'Destination Connection ID')]
    >>> [(o.text, o.replacement) for o in TermMatcher("origin server", "upstream server").find("origin-server auth")]
    [('origin-server', 'upstream-server')]
    """

    def __init__(self, old: str, new: str, *, english: bool = True) -> None:
        self.old, self.new, self.english = old.strip(), new.strip(), english
        sing_old, plur_old = self.old, pluralize(self.old) if english else None
        old_plural = english and plur_old is None and singularize(self.old) is not None
        if old_plural:  # given in the plural ("ack-eliciting packets"): its singular is a form too
            sing_old, plur_old = singularize(self.old) or self.old, self.old
        # The new term is inflected to the number of each occurrence, whatever number it is given
        # in ("packets" -> "marker" writes "markers" for "packets", "marker" for "packet"). When it
        # has no form in that number ("ISO 27001", a word without a plural), the occurrence is
        # found but not replaced (``unpaired``): verification reports it.
        sing_new: str | None = self.new
        plur_new = pluralize(self.new) if english else None
        if english and plur_new is None:
            s_new = singularize(self.new)
            if s_new is not None:
                sing_new, plur_new = s_new, self.new
            elif old_plural:
                sing_new, plur_new = None, self.new  # the given numbers pair: old plural -> new as given
        self.words, self.seps = _split(sing_old)
        self.fixed = [_irregular(w) for w in self.words]
        self.new_words, self.new_seps = _split(sing_new or plur_new or self.new)
        self.new_singular = sing_new is not None
        self.plural_last = _split(plur_old)[0][-1] if plur_old else None
        self.new_plural_last = _split(plur_new)[0][-1] if plur_new else None
        self.given_words = _split(self.old)[0]
        self.given_lower = all(w.islower() for w, f in zip(self.given_words, self.fixed) if not f)
        self.given_shapes = [_shape(g) for g, f in zip(self.given_words, self.fixed) if not f]
        self.new_fixed = [_irregular(w) for w in self.new_words]
        self.new_upper = [w.isupper() for w in _split(self.new)[0]]
        self.rx = self._compile()

    def _compile(self) -> re.Pattern[str] | None:
        if not self.old:
            return None
        last_forms = [self.words[-1]] + ([self.plural_last] if self.plural_last else [])
        if self.fixed[-1] and self.plural_last and len(self.words) > 1:
            last_forms.append(self.words[-1] + "S")  # "CONNECTION IDS" in a line of capitals
        last = "|".join(_word_rx(w, self.fixed[-1]) for w in sorted(set(last_forms), key=len, reverse=True))
        body = "".join(_word_rx(w, f) + _SEP for w, f in zip(self.words[:-1], self.fixed[:-1])) + f"(?:{last})"
        return re.compile(rf"(?<!\w)(?:{body})(?!\w)")

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

    def _new_form(self, case: str, plural: bool, seps: list[str], closed: bool) -> str:
        words = list(self.new_words)
        if plural and self.new_plural_last:
            words[-1] = self.new_plural_last
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
            seps = _SEP_RX.findall(occ)
            closed = len(seps) < len(self.words) - 1
            occ_words = [occ] if closed else _SEP_RX.split(occ)
            last = occ_words[-1]
            pl = self.plural_last
            plural = pl is not None and not closed and (
                last.lower() == pl.lower() or (self.fixed[-1] and last == self.words[-1] + "S"))
            if closed and pl is not None:
                plural = occ.lower().endswith(pl.lower()) and not occ.lower().endswith(self.words[-1].lower())
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
            repl = self._new_form(case, plural, seps, closed)
            unpaired = (plural and self.new_plural_last is None) or (not plural and not self.new_singular)
            out.append(Occurrence(m.start(), m.end(), occ, repl, plural, closed, capitalised, name, unpaired))
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


_MATCHERS: dict[tuple[str, str, bool], TermMatcher] = {}


def term_matcher(old: str, new: str, *, english: bool = True) -> TermMatcher:
    """The (cached) :class:`TermMatcher` of ``old`` -> ``new``: compiled once per rename, not per unit."""
    key = (old.strip(), new.strip(), english)
    m = _MATCHERS.get(key)
    if m is None:
        if len(_MATCHERS) > 256:
            _MATCHERS.clear()
        m = _MATCHERS[key] = TermMatcher(old, new, english=english)
    return m


def find_term(text: str, old: str, new: str, *, english: bool = True) -> list[tuple[int, int, str]]:
    """Every whole-word occurrence of ``old`` (any form) in ``text``: ``(start, end, replacement)``.

    Matching ignores case but in words that carry their own capitals (``NASA``, ``iPhone``,
    the "ID" of "connection ID"), so that renaming an acronym never touches an ordinary word.
    Occurrences whose replacement would equal them, and closed compounds, are left out.

    >>> find_term("A widget's widgets; Widgetry. WIDGETS!", "widget", "gadget")
    [(2, 8, 'gadget'), (11, 18, 'gadgets'), (30, 37, 'GADGETS')]
    >>> find_term("US users use us", "US", "EU")
    [(0, 2, 'EU')]
    """
    return [(o.start, o.end, o.replacement) for o in term_matcher(old, new, english=english).find(text)
            if o.replacement != o.text and not o.closed and not o.unpaired]
