"""Finding a term in text the way a reader means it: plural forms, case variants, whole words.

A rename of "widget" to "gadget" must also turn "Widgets" into "Gadgets" and "WIDGET'S" into
"GADGET'S", and must leave "widgetry" and "subwidget" alone. The possessive ending stays outside
the match (an apostrophe is a word boundary), so the span of each occurrence is the word itself.
"""
from __future__ import annotations

import re

__all__ = ["case_pattern", "find_term", "pluralize", "recase", "singularize", "term_forms"]

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
    """
    head, _, last = phrase.rpartition(" ")
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
    """
    head, _, last = phrase.rpartition(" ")
    low = last.lower()
    if not last.isalpha() or len(last) < 3:
        return None
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


def _form_regex(form: str) -> str:
    """A form as a regex: runs of spaces match any whitespace, apostrophes match either kind."""
    parts = []
    for piece in re.split(r"(\s+)", form.strip()):
        if not piece:
            continue
        if piece.isspace():
            parts.append(r"\s+")
        else:
            parts.append("".join("['\u2019]" if c in "'\u2019" else re.escape(c) for c in piece))
    return "".join(parts)


def find_term(text: str, old: str, new: str) -> list[tuple[int, int, str]]:
    """Every whole-word occurrence of ``old`` (any form) in ``text``: ``(start, end, replacement)``.

    Matching ignores case unless the old term has irregular capitals (``NASA``, ``iPhone``), so
    that renaming an acronym never touches an ordinary word. Occurrences whose replacement would
    equal them are left out.

    >>> find_term("A widget's widgets; Widgetry. WIDGETS!", "widget", "gadget")
    [(2, 8, 'gadget'), (11, 18, 'gadgets'), (30, 37, 'GADGETS')]
    >>> find_term("US users use us", "US", "EU")
    [(0, 2, 'EU')]
    """
    old = old.strip()
    new = new.strip()
    if not old:
        return []
    forms = term_forms(old, new)
    by_key = {f.lower(): (f, n) for f, n in reversed(forms)}
    alternation = "|".join(_form_regex(f) for f, _ in sorted(forms, key=lambda p: -len(p[0])))
    flags = 0 if case_pattern(old) in ("mixed", "upper") else re.IGNORECASE
    rx = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", flags)
    out = []
    for m in rx.finditer(text):
        occ = m.group(0)
        key = re.sub(r"\s+", " ", occ).replace("\u2019", "'").lower()
        form, new_form = by_key.get(key, forms[0])
        repl = recase(occ, form, new_form)
        if repl != occ:
            out.append((m.start(), m.end(), repl))
    return out
