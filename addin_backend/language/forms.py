"""The forms of a term in its language: number and case endings, for renames, DEPENDS and checks.

One engine, asked by every user of the concept (``edits/terms.py``'s :class:`TermMatcher`, the
graph's noun forms, the checks' plural expansions), so that they give the same answers; shared
vectors in ``tests/vectors/forms.json``.

- **English**: regular plurals (``-s``, ``-es``, ``-ies``, ``-is`` -> ``-es``), a term that ends in
  an acronym or code takes a lower-case "s" ("connection IDs", "MP3s"), and the irregular plurals
  of the spaCy English lemmatizer's exception table (children, criteria, indices, analyses, ...),
  which also tells a singular that ends in "s" ("series", "status", "analysis") from a plural.
- **Spanish**: ``-s`` after an unstressed vowel, ``-es`` after a consonant, ``z`` -> ``ces``, the
  written accent moved as the stress stays on its syllable (canción -> canciones, examen ->
  exámenes), words in unstressed ``-s``/``-x`` unchanged (la crisis, las crisis); in a phrase the
  head noun (the first word) and the adjectives after it agree (sistema operativo -> sistemas
  operativos), what follows a preposition does not (acuerdo de licencia -> acuerdos de licencia).
- **French**: ``-s``; ``-s``/``-x``/``-z`` unchanged; ``-al`` -> ``-aux``, ``-au``/``-eau``/``-eu``
  -> ``-x`` and the exceptions of ``-ou``/``-ail``, each candidate checked against the French
  word list where it is installed (Debian ``wfrench``: festival -> festivals, not festivaux); the
  head noun and its adjectives agree as in Spanish.
- **German**: the case and number endings of a noun (genitive ``-s``/``-es``, dative plural
  ``-n``) and its plural, proposed by the rules of its ending (``-ung`` -> ``-ungen``, ``-e`` ->
  ``-en``, ``-er``/``-el``/``-en`` unchanged or with umlaut, else umlaut + ``-e``/``-er``, ``-e``,
  ``-er``, ``-en``) and chosen by the German full-form word list (Debian ``wngerman``: Vertrag ->
  Verträge, Vertrag(e)s, Verträgen); a compound takes its last noun's forms (Kaufvertrag ->
  Kaufverträge). Without the list, or where no candidate is attested, a form is unknown.

A form the engine cannot produce is ``None``: the caller reports the place, never guesses.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["FORM_LANGUAGES", "WORD_LISTS", "TermForm", "is_acronym_word", "lemma", "noun_forms", "plural", "singular",
           "term_forms", "word_list"]

#: The languages whose forms the engine knows; any other gets the term as given only.
FORM_LANGUAGES = ("en", "es", "fr", "de")
#: The word lists that attest a candidate (Makefile ``APT_PKGS``): French and German list every
#: inflected form (German drops a noun's capital where a verb form is spelled alike:
#: "vertrag", "berichte"), Spanish its lemmas only (which tells "crisis" from "crisi").
WORD_LISTS = {"fr": "/usr/share/dict/french", "de": "/usr/share/dict/ngerman", "es": "/usr/share/dict/spanish"}


@lru_cache(maxsize=4)
def word_list(lang: str) -> frozenset[str]:
    """The full-form word list of ``lang`` (as written: German nouns capitalised); empty when
    it is not installed."""
    path = WORD_LISTS.get(lang)
    if not path or not os.path.exists(path):
        return frozenset()
    try:
        with open(path, encoding="utf-8") as fh:
            return frozenset(w for w in fh.read().split("\n") if w)
    except (OSError, UnicodeDecodeError):
        return frozenset()


def _attested(word: str, lang: str) -> bool | None:
    """Whether ``lang``'s word list has ``word`` (or, German, its lower-case spelling); ``None``
    when there is no list."""
    words = word_list(lang)
    if not words:
        return None
    return word in words or word.lower() in words


def is_acronym_word(word: str) -> bool:
    """An acronym or code-like word whose plural adds a lower-case "s": "ID", "URI", "TSN", "MP3".

    >>> [is_acronym_word(w) for w in ("ID", "TSN", "MP3", "I", "Id", "9001", "IDs")]
    [True, True, True, False, False, False, False]
    """
    letters = [c for c in word if c.isalpha()]
    return len(word) >= 2 and bool(letters) and all(c.isupper() for c in letters) and word[-1:].isalnum() \
        and word.isalnum()


def _like(model: str, word: str) -> str:
    """A word in the case of the word it stands for (``Person`` -> ``People``)."""
    if model.isupper() and len(model) > 1:
        return word.upper()
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


def _keep_case(model: str, suffix: str) -> str:
    """A suffix in upper case when the word it extends is all upper case."""
    return suffix.upper() if model.isupper() and len(model) > 1 else suffix


# --- English -----------------------------------------------------------------------------------

#: Irregular plurals the lemmatizer's table lacks (it lists "people" as a noun of its own).
_EN_EXTRA = {"person": ("people",), "woman": ("women",)}
_EN_ES = ("ss", "sh", "ch", "x", "z", "us")
#: Nouns whose plural is the singular, in "-s" (the lemmatizer cannot tell them from plurals).
_EN_SAME = frozenset({"series", "species"})


@lru_cache(maxsize=1)
def _en_irregular() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """``(singular -> irregular plurals, irregular plural -> singular)`` from the spaCy English
    lemmatizer's noun exceptions (children, criteria, indices, lives, ...)."""
    forward: dict[str, list[str]] = {k: list(v) for k, v in _EN_EXTRA.items()}
    back: dict[str, str] = {p: s for s, ps in _EN_EXTRA.items() for p in ps}
    try:
        from .wordlists import get_lexicon

        exc = get_lexicon().exc["noun"]
    except Exception:  # no model package: the rules alone
        exc = {}
    for plural_form, lemmas in exc.items():
        if not lemmas or not plural_form.isalpha():
            continue
        lemma = lemmas[-1] if plural_form.endswith("ses") and len(lemmas) > 1 else lemmas[0]
        if lemma == plural_form or not lemma.isalpha():
            continue
        forward.setdefault(lemma, []).append(plural_form)
        back.setdefault(plural_form, lemma)
    return {k: tuple(v) for k, v in forward.items()}, back


def _en_lexicon_says(word: str) -> tuple[str, bool] | None:
    """``(lemma, inflected)`` of ``word`` as a noun in the English lemmatizer's tables; a word
    in "-s" whose stem is a noun reads as that noun's plural, though WordNet lists some plurals
    as nouns of their own ("days", "terms")."""
    try:
        from .wordlists import get_lexicon

        lex = get_lexicon()
    except Exception:
        return None
    if len(word) >= 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")) \
            and word[:-1] in lex.index["noun"]:
        return word[:-1], True
    return lex.lemma(word, "noun")


def _en_regular_plural(last: str) -> str | None:
    low = last.lower()
    if low.endswith("is") and len(low) > 4:  # analysis -> analyses
        return last[:-2] + _keep_case(last, "es")
    if low.endswith(_EN_ES):
        return last + _keep_case(last, "es")
    if low.endswith("s"):
        return None
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return last[:-1] + _keep_case(last, "ies")
    return last + _keep_case(last, "s")


def _en_plurals(last: str) -> list[str]:
    """Every plural of one English word, the one to write first."""
    if is_acronym_word(last):
        return [last + "s"]
    if not last.isalpha() or len(last) < 2:
        return []
    low = last.lower()
    forward, back = _en_irregular()
    if low in back and low not in forward:
        return []  # already an irregular plural ("criteria", "children")
    if low in _EN_SAME:
        return [last]
    if low.endswith("s") and not low.endswith(_EN_ES) and not (low.endswith("is") and len(low) > 4):
        said = _en_lexicon_says(low)
        if not (said and said[0] == low and not said[1]) or low in back:
            return []  # a plural ("days", "terms"), not a singular in -s ("series")
        from .wordlists import dictionary

        regular_s = last + _keep_case(last, "es")  # "gases", "lenses"; "news" has none
        return [regular_s] if regular_s.lower() in dictionary() else []
    regular = _en_regular_plural(last)
    out = [_like(last, p) for p in forward.get(low, ())]
    if regular is not None and regular.lower() not in [o.lower() for o in out] \
            and not _irregular_only(low, regular.lower()):
        if out and all(_doubled(o.lower(), regular.lower()) for o in out):
            out.insert(0, regular)  # "busses" is a spelling of "buses", the dictionaries' plural
        else:
            out.append(regular)  # irregular first, as the table lists it: "indices", then "indexes"
    return out


def _doubled(variant: str, regular: str) -> bool:
    """Whether ``variant`` is ``regular`` with its last consonant doubled ("busses", "buses")."""
    return len(variant) == len(regular) + 1 and variant[-4] == variant[-3] and variant[:-3] + variant[-2:] == regular


def _irregular_only(low: str, regular: str) -> bool:
    """Whether an irregular plural replaces the regular one ("child": no "childs"): the regular
    form is no English word, where the dictionaries say."""
    forward, _back = _en_irregular()
    if low not in forward:
        return False
    from .wordlists import dictionary

    words = dictionary()
    return bool(words) and regular not in words


def _en_singular(last: str) -> str | None:
    if last.endswith("s") and is_acronym_word(last[:-1]):  # "IDs" -> "ID", "URIs" -> "URI"
        return last[:-1]
    if not last.isalpha() or len(last) < 3 or (last.isupper() and len(last) <= 4):
        return None  # a short word in capitals is an acronym ("IDS", "AWS"), not a plural
    low = last.lower()
    if low in _EN_SAME:
        return last
    forward, back = _en_irregular()
    if low in back:
        return _like(last, back[low])
    if low in forward:
        return None  # a singular with an irregular plural ("child")
    if low.endswith("ies") and len(low) > 4:
        single = last[:-3] + _keep_case(last, "y")
    elif low.endswith(tuple(e + "es" for e in _EN_ES)):
        single = last[:-2]
    elif low.endswith("s") and not low.endswith(("ss", "us", "is")):
        said = _en_lexicon_says(low)
        if said and said[0] == low and not said[1]:
            return None  # a singular that ends in "s" ("series", "news")
        if said and said[1] and low.startswith(said[0]) and len(said[0]) >= len(low) - 2:
            single = last[:len(said[0])]  # "gases" -> "gas", as the lemmatizer reads it
        else:
            single = last[:-1]
    else:
        return None
    return single


# --- Spanish -----------------------------------------------------------------------------------

_ES_ACCENT = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú"}
_ES_PLAIN = {v: k for k, v in _ES_ACCENT.items()}
_ES_STRONG = set("aeoáéíóú")
_ES_VOWELS = set("aeiouáéíóúü")
#: Words after which a Spanish or French phrase goes on without agreeing (a complement).
_ROMANCE_BREAK = frozenset(
    "de del da das do dos di en a al para por con sin sobre entre y o e u que du des à au aux pour par "
    "avec sans sur sous entre et ou".split()
)


def _es_nuclei(word: str) -> list[tuple[int, int]]:
    """The vowel nuclei of a Spanish word as ``(start, end)``, a hiatus split in two
    (``"ea"``: two syllables, ``"ia"``: one, ``"ía"``: two)."""
    low = word.lower()
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(low):
        if low[i] not in _ES_VOWELS:
            i += 1
            continue
        j = i
        while j < len(low) and low[j] in _ES_VOWELS:
            j += 1
        start = i
        for k in range(i + 1, j):  # a hiatus: two strong vowels side by side
            if low[k] in _ES_STRONG and low[k - 1] in _ES_STRONG:
                out.append((start, k))
                start = k
        out.append((start, j))
        i = j
    return out


def _es_stress(word: str) -> int:
    """The stressed syllable, counted from the end (1: the last): the written accent, else the
    default (vowel, ``n`` or ``s`` at the end: the second last; else the last)."""
    nuclei = _es_nuclei(word)
    for k, (a, b) in enumerate(nuclei):
        if any(c in _ES_PLAIN for c in word[a:b].lower()):
            return len(nuclei) - k
    if len(nuclei) < 2:
        return 1
    return 2 if word[-1].lower() in "aeiouns" else 1


def _hiatus_accent(word: str) -> int | None:
    """The index of an accented "í"/"ú" beside another vowel (país, reúne): it marks a hiatus
    and stays written whatever the stress rules say."""
    low = word.lower()
    for i, c in enumerate(low):
        if c in "íú" and ((i > 0 and low[i - 1] in _ES_VOWELS) or (i + 1 < len(low) and low[i + 1] in _ES_VOWELS)):
            return i
    return None


def _es_written(word: str, stress: int) -> str:
    """``word`` with its written accent set for ``stress`` (its stressed syllable, counted from
    the end), by the rules."""
    if _hiatus_accent(word) is not None:
        return word
    plain = "".join(_ES_PLAIN.get(c, c) if c.lower() in _ES_PLAIN else c for c in word)
    plain = "".join(_ES_PLAIN.get(c, c) for c in word) if any(c in _ES_PLAIN for c in word.lower()) else word
    nuclei = _es_nuclei(plain)
    default = 2 if plain[-1].lower() in "aeiouns" else 1
    if len(nuclei) < 2 or stress == default:
        return plain
    a, b = nuclei[len(nuclei) - stress]
    part = plain[a:b]
    lowpart = part.lower()
    k = next((i for i, c in enumerate(lowpart) if c in "aeo"), len(lowpart) - 1)
    c = part[k]
    acc = _ES_ACCENT.get(c.lower(), c)
    acc = acc.upper() if c.isupper() else acc
    return plain[:a] + part[:k] + acc + part[k + 1:] + plain[b:]


def _es_plural_word(word: str) -> list[str]:
    low = word.lower()
    if len(low) < 2 or not low.isalpha():
        return []
    last = low[-1]
    if last in "aeiouáéó" and not (last in "íú"):
        return [word + _keep_case(word, "s")]
    if last in "íú":
        return [word + _keep_case(word, "es"), word + _keep_case(word, "s")]
    if last == "z":
        return [word[:-1] + _keep_case(word, "ces")]
    if last in "sx" and len(_es_nuclei(word)) > 1 and _es_stress(word) > 1:
        return [word]  # la crisis, las crisis; el tórax, los tórax
    stress = _es_stress(word)
    return [_es_written(word + _keep_case(word, "es"), stress + 1)]


def _es_singular_word(word: str) -> str | None:
    """The singular whose plural is ``word``: candidates by the rules, the one the Spanish word
    list has (it lists lemmas) where it is installed, else the first."""
    low = word.lower()
    if len(low) < 3 or not low.isalpha() or not low.endswith("s"):
        return None
    cands: list[str] = []
    if low.endswith("ces") and len(low) > 4:
        cands.append(word[:-3] + _keep_case(word, "z"))
    if low.endswith(("íes", "úes")):
        cands.append(word[:-2])
    if low.endswith("es") and len(low) > 3 and low[-3] not in _ES_VOWELS:
        stem = word[:-2]
        cands.append(_es_written(stem, max(1, _es_stress(word) - 1)))
    if low[-2] in _ES_VOWELS:
        cands.append(word[:-1])
    cands.append(word)  # unchanged: la crisis, las crisis
    fitting = [c for c in cands if word in _es_plural_word(c)]
    listed = [c for c in fitting if _attested(c, "es")]
    if listed:
        return listed[0]
    fitting = [c for c in fitting if c != word]
    return fitting[0] if fitting and _attested(fitting[0], "es") is None else (fitting[0] if fitting else None)


# --- French ------------------------------------------------------------------------------------

_FR_AL_S = frozenset("bal carnaval chacal festival récital régal cal val naval fatal final natal banal".split())
_FR_OU_X = frozenset("bijou caillou chou genou hibou joujou pou".split())
_FR_AIL_AUX = frozenset("bail corail émail soupirail travail vantail vitrail".split())
_FR_EU_S = frozenset("pneu bleu émeu landau sarrau".split())
_FR_IRREGULAR = {"œil": "yeux", "oeil": "yeux", "ciel": "cieux", "aïeul": "aïeux"}


def _fr_candidates(word: str) -> list[str]:
    low = word.lower()
    if low in _FR_IRREGULAR:
        return [_like(word, _FR_IRREGULAR[low])]
    if low[-1:] in ("s", "x", "z"):
        return [word]
    if low.endswith("al"):
        first = [word[:-2] + _keep_case(word, "aux"), word + _keep_case(word, "s")]
        return first[::-1] if low in _FR_AL_S else first
    if low.endswith(("au", "eu")):
        first = [word + _keep_case(word, "x"), word + _keep_case(word, "s")]
        return first[::-1] if low in _FR_EU_S else first
    if low.endswith("ou"):
        first = [word + _keep_case(word, "s"), word + _keep_case(word, "x")]
        return first[::-1] if low in _FR_OU_X else first
    if low.endswith("ail"):
        first = [word + _keep_case(word, "s"), word[:-3] + _keep_case(word, "aux")]
        return first[::-1] if low in _FR_AIL_AUX else first
    return [word + _keep_case(word, "s")]


def _fr_plural_word(word: str) -> list[str]:
    if len(word) < 2 or not word.replace("-", "").isalpha():
        return []
    cands = _fr_candidates(word)
    listed = [c for c in cands if _attested(c.lower(), "fr")]
    return [listed[0]] if listed else cands[:1]


def _fr_singular_word(word: str) -> str | None:
    low = word.lower()
    back = {"yeux": "œil", "cieux": "ciel", "aïeux": "aïeul"}
    if low in back:
        return _like(word, back[low])
    cands = []
    if low.endswith("aux"):
        cands += [word[:-3] + _keep_case(word, "al"), word[:-3] + _keep_case(word, "ail")]
    if low.endswith(("eaux", "aux", "eux", "oux")):
        cands.append(word[:-1])
    if low.endswith("s") and len(low) > 2:
        cands.append(word[:-1])
    for c in cands:
        if c.lower() != low and word in _fr_plural_word(c) and (_attested(c.lower(), "fr") is not False):
            return c
    return None


# --- German ------------------------------------------------------------------------------------

_DE_UMLAUT = {"a": "ä", "o": "ö", "u": "ü", "A": "Ä", "O": "Ö", "U": "Ü"}
_DE_EN = ("ung", "heit", "keit", "schaft", "ion", "tät", "ik", "ur", "enz", "anz", "ei")


def _de_umlaut(word: str) -> str | None:
    """The word with its last full vowel umlauted ("Vertrag" -> "Verträg", "Haus" -> "Häus",
    "Mantel" -> "Mäntel": an unstressed ending's "e" is passed), or ``None`` when it has none."""
    for end in ("er", "el", "en"):
        if word.lower().endswith(end) and len(word) > 3:
            head = _de_umlaut(word[:-2])
            return head + word[-2:] if head else None
    low = word.lower()
    for i in range(len(word) - 1, -1, -1):
        c = word[i]
        if c.lower() in "aou":
            if c.lower() == "u" and i > 0 and low[i - 1] in "ae":  # "au" -> "äu", "eu" stays
                if low[i - 1] == "a":
                    return word[:i - 1] + _DE_UMLAUT[word[i - 1]] + word[i:]
                return None
            if c.lower() == "a" and i + 1 < len(word) and low[i + 1] in "ai":  # "aa", "ai": none
                return None
            return word[:i] + _DE_UMLAUT[c] + word[i + 1:]
        if c.lower() in "eiyäöü":
            return None
    return None


def _de_plural_candidates(word: str) -> list[str]:
    low = word.lower()
    uml = _de_umlaut(word)
    if low.endswith(_DE_EN):
        return [word + "en"]
    if low.endswith("in") and len(low) > 4:
        return [word + "nen"]
    if low.endswith("e"):
        return [word + "n"]
    if low.endswith(("chen", "lein", "en")):
        return [word]
    if low.endswith(("er", "el")):  # masculine and neuter: unchanged or umlauted; feminine: -n
        return ([uml] if uml else []) + [word, word + "n"]
    if low.endswith(("um", "us")) and len(low) > 4:
        return [word[:-2] + "en", word + "se" if low.endswith("us") else word + "s"]
    if low[-1:] in "aiouy":
        return [word + "s"]
    # umlauted candidates first: a chance spelling of another word (the dative "Hause") is less
    # likely among them
    return ([uml + "e", uml + "er"] if uml else []) + [word + "e", word + "er", word + "en", word + "s"]


@lru_cache(maxsize=4096)
def _de_noun(word: str) -> dict[str, str] | None:
    """The attested forms of a German noun: ``{"genitive": ..., "plural": ..., "dative plural": ...}``
    (those the word list confirms), or ``None`` when the list has neither the word nor a noun at
    its end."""
    words = word_list("de")
    if not words:
        return None
    def has(w: str) -> bool:
        return w in words or w.lower() in words

    if not has(word):
        for i in range(1, len(word) - 2):  # a compound: the forms of its last noun
            head = word[i:].capitalize()
            if len(head) >= 3 and (head in words or head.lower() in words) and _de_noun(head):
                got = _de_noun(head)
                if got is not None:
                    prefix = word[:i]
                    return {role: prefix + form[0].lower() + form[1:] for role, form in got.items()}
        return None
    out: dict[str, str] = {}
    plural_cands = _de_plural_candidates(word)
    if word.lower().endswith(("er", "el")) and len(word) > 3:
        # "Mantels" says masculine or neuter (plural unchanged or umlauted); without a genitive
        # in -s the noun is feminine and its plural takes -n ("Regeln", "Federn")
        plural_cands = plural_cands[:-1] if has(word + "s") else plural_cands[-1:]
    for p in plural_cands:
        if p == word + "s" and word[-1:].lower() not in "aiouy" and len(plural_cands) > 1:
            continue  # "Berichts" is a genitive, not a plural
        # a plural not in -n/-s has its dative in -n: "Häusern", never "Hausen" (so "Hause" is no plural)
        if has(p) and (p.endswith(("n", "s")) or has(p + "n")):
            out["plural"] = p
            break
    genitive = next((g for g in (word + "es", word + "s") if has(g) and g != out.get("plural")), None)
    if genitive is not None:
        out["genitive"] = genitive
        if genitive.endswith("es") and has(word + "s") and word + "s" != out.get("plural"):
            out["genitive (short)"] = word + "s"
    pl = out.get("plural")
    if pl is not None:  # "den Verträgen"; a plural in -n or -s is its own dative ("den Vereinbarungen")
        out["dative plural"] = pl if pl.endswith(("n", "s")) else pl + "n"
    return out


_DE_STRIP = ("ern", "en", "er", "es", "e", "n", "s")


def _de_unumlaut(word: str) -> str:
    back = {v: k for k, v in _DE_UMLAUT.items()}
    for i in range(len(word) - 1, -1, -1):
        if word[i] in back:
            return word[:i] + back[word[i]] + word[i + 1:]
    return word


@lru_cache(maxsize=4096)
def _de_lemma(word: str) -> str | None:
    """The nominative singular whose forms include ``word`` ("Verträgen" -> "Vertrag",
    "Zentren" -> "Zentrum"), or the word itself: of the candidates, the one whose forms the
    word list has most often as nouns (capitalised), so that a verb's spelling ("abkomm") makes
    no noun; ``None`` when the list confirms none."""
    words = word_list("de")
    cands: list[str] = [word]
    for end in ("",) + _DE_STRIP:
        if end and not word.endswith(end) or len(word) - len(end) < 3:
            continue
        stem = word[: len(word) - len(end)]
        cands += [_de_unumlaut(stem), stem]
        if end == "en":
            cands += [stem + "um", stem + "us"]  # "Zentren", "Rhythmen"
    best, score = None, 0
    for base in dict.fromkeys(cands):
        got = _de_noun(base)
        if not got or (base != word and word not in got.values()):
            continue
        n = sum(2 if f in words else 1 if f.lower() in words else 0 for f in set(got.values()) | {base})
        if n > score:
            best, score = base, n
    return best


# --- one word, one phrase ----------------------------------------------------------------------


def noun_forms(word: str, lang: str = "en") -> dict[str, list[str]]:
    """The forms of one noun by role: ``{"singular": [...], "plural": [...], ...}`` (the form to
    write first). Roles the engine cannot give are missing.

    >>> noun_forms("policy"), noun_forms("child")["plural"], noun_forms("index")["plural"]
    ({'singular': ['policy'], 'plural': ['policies']}, ['children'], ['indices', 'indexes'])
    >>> noun_forms("suelo", "es"), noun_forms("canción", "es")["plural"], noun_forms("luz", "es")["plural"]
    ({'singular': ['suelo'], 'plural': ['suelos']}, ['canciones'], ['luces'])
    """
    out: dict[str, list[str]] = {"singular": [word]}
    if lang == "en":
        p = _en_plurals(word)
    elif lang == "es":
        p = _es_plural_word(word)
    elif lang == "fr":
        p = _fr_plural_word(word)
    elif lang == "de":
        got = _de_noun(word)
        if got is None:
            return out
        for role, form in got.items():
            if role == "genitive (short)":
                out.setdefault("genitive", []).append(form)
            else:
                out.setdefault(role, []).append(form)
        return out
    else:
        p = []
    if p:
        out["plural"] = p
    return out


_SPLIT = re.compile(r"(\s+|[-\u2010\u2011])")


def _split(phrase: str) -> tuple[list[str], list[str]]:
    parts = _SPLIT.split(phrase.strip())
    return parts[0::2], parts[1::2]


def _join(words: list[str], seps: list[str]) -> str:
    return "".join(w + (seps[i] if i < len(seps) else "") for i, w in enumerate(words))


def _agreeing(words: list[str]) -> int:
    """How many words of a Spanish or French phrase agree with its head (the first word and the
    adjectives after it, up to a preposition or article)."""
    n = 1
    for w in words[1:]:
        if w.lower() in _ROMANCE_BREAK or not w.isalpha() or w.isupper():
            break
        n += 1
    return n


def plural(phrase: str, lang: str = "en") -> str | None:
    """The plural of a phrase in ``lang`` (the first form), or ``None`` when it has none or the
    engine cannot give it.

    >>> plural("widget"), plural("policy"), plural("purchase order"), plural("class"), plural("connection ID")
    ('widgets', 'policies', 'purchase orders', 'classes', 'connection IDs')
    >>> plural("days") is None, plural("criteria") is None, plural("series")
    (True, True, 'series')
    >>> plural("sistema operativo", "es"), plural("acuerdo de licencia", "es"), plural("journal", "fr")
    ('sistemas operativos', 'acuerdos de licencia', 'journaux')
    """
    forms = _phrase_forms(phrase, lang)
    got = forms.get("plural")
    return got[0] if got else None


def singular(phrase: str, lang: str = "en") -> str | None:
    """The singular of a plural phrase in ``lang``, or ``None`` when it does not read as one.

    >>> singular("widgets"), singular("policies"), singular("classes"), singular("glass"), singular("IDS")
    ('widget', 'policy', 'class', None, None)
    >>> singular("children"), singular("connection IDs"), singular("canciones", "es"), singular("bateaux", "fr")
    ('child', 'connection ID', 'canción', 'bateau')
    """
    words, seps = _split(phrase)
    if not words or not words[-1]:
        return None
    if lang == "en":
        s = _en_singular(words[-1])
        return _join(words[:-1] + [s], seps) if s else None
    if lang in ("es", "fr"):
        n = _agreeing(words)
        one = _es_singular_word if lang == "es" else _fr_singular_word
        out = []
        for w in words[:n]:
            s = one(w)
            if s is None:
                return None
            out.append(s)
        cand = _join(out + words[n:], seps)
        return cand if plural(cand, lang) == phrase.strip() else None
    return None


def lemma(phrase: str, lang: str = "en") -> str:
    """The base form of a term as written in ``lang``: its singular (German: its nominative
    singular), or the phrase itself when it reads as one.

    >>> lemma("connection IDs"), lemma("suelos", "es"), lemma("journaux", "fr"), lemma("Verträgen", "de")
    ('connection ID', 'suelo', 'journal', 'Vertrag')
    """
    p = phrase.strip()
    if lang == "de":
        words, seps = _split(p)
        base = _de_lemma(words[-1]) if words and words[-1] else None
        return _join(words[:-1] + [base], seps) if base else p
    return singular(p, lang) or p


def _phrase_forms(phrase: str, lang: str) -> dict[str, list[str]]:
    """Every form of a phrase by role (the phrase as given is its "singular")."""
    words, seps = _split(phrase)
    if not words or not words[-1]:
        return {"singular": [phrase]}
    if lang in ("es", "fr"):
        n = _agreeing(words)
        forms = [noun_forms(w, lang).get("plural") for w in words[:n]]
        if any(not f for f in forms):
            return {"singular": [phrase]}
        return {"singular": [phrase],
                "plural": [_join([f[0] for f in forms if f] + words[n:], seps)]}
    by_role = noun_forms(words[-1], lang)
    return {role: [_join(words[:-1] + [f], seps) for f in fs] for role, fs in by_role.items()}


@dataclass(frozen=True)
class TermForm:
    """One form of a renamed term and the new term's form in the same role (``new`` ``None``: the
    engine has no such form of the new term; the place is reported, not rewritten)."""

    role: str
    old: str
    new: str | None


def _is_plural(phrase: str, lang: str) -> bool:
    return plural(phrase, lang) is None and singular(phrase, lang) is not None


def term_forms(old: str, new: str, lang: str = "en") -> list[TermForm]:
    """The forms of ``old`` in ``lang``, each paired with ``new`` in the same role; the given
    number first. A term given in the plural ("packets") has its singular as a form too.

    >>> [(f.role, f.old, f.new) for f in term_forms("widget", "gadget")]
    [('singular', 'widget', 'gadget'), ('plural', 'widgets', 'gadgets')]
    >>> [(f.role, f.old, f.new) for f in term_forms("suelo", "terreno", "es")]
    [('singular', 'suelo', 'terreno'), ('plural', 'suelos', 'terrenos')]
    >>> [(f.role, f.old, f.new) for f in term_forms("ISO 9001", "ISO 27001")]
    [('singular', 'ISO 9001', 'ISO 27001')]
    """
    old, new = old.strip(), new.strip()
    if lang not in FORM_LANGUAGES:
        return [TermForm("singular", old, new)]
    old_plural = _is_plural(old, lang)
    new_plural = _is_plural(new, lang)
    o_sing = singular(old, lang) if old_plural else old
    n_sing = singular(new, lang) if new_plural else new
    o_forms = _phrase_forms(o_sing or old, lang)
    n_forms = _phrase_forms(n_sing, lang) if n_sing else {}
    if new_plural and n_sing is None:
        n_forms = {"plural": [new]}
    elif old_plural and not new_plural and "plural" not in n_forms:
        n_forms = {"plural": [new]}  # a new term with no number ("v2"): the given numbers pair
    out: list[TermForm] = []
    seen: set[str] = set()
    order = ["plural", "singular"] if old_plural else ["singular", "plural"]
    order += [r for r in o_forms if r not in order]
    for role in order:
        for i, form in enumerate(o_forms.get(role, ())):
            if form in seen:
                continue
            seen.add(form)
            mine = n_forms.get(role) or []
            out.append(TermForm(role, form, mine[min(i, len(mine) - 1)] if mine else None))
    if old_plural and not any(f.old == old for f in out):
        out.insert(0, TermForm("plural", old, new if not n_forms.get("plural") else n_forms["plural"][0]))
    # no old form without a number: a term with no plural keeps the given pair alone
    return [f for f in out if f.old]


def strip_accents(word: str) -> str:
    """``word`` without its diacritics (for comparisons that forgive a missing accent)."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
