"""The language of each unit, which decides the detectors and checks that run on it.

Readers put the tag the document gives (``w:lang``, ``fo:language``) in ``unit.meta["lang"]``
and the document default in ``doc.meta["language"]``. English-only rules (anaphora word lists,
English plurals, variant spellings built from English word joins) ask :func:`is_english`.

:func:`unit_language` decides, in this order:

1. the unit's own tag, when it differs from the document's -- unless the text is in another
   script than the tag's language (Chinese in a run tagged ``en-US``: Word keeps ``w:eastAsia``
   apart). A tag equal to the default is what LibreOffice gives all typed text: it counts as
   the default;
2. the script of the unit's text when it is not Latin (Cyrillic, Greek, Hebrew, Arabic,
   Devanagari, Thai, Hangul, kana, Han, ...);
3. the unit's function words, when they are clear (an English quotation in a German report):
   profiles of en, de, fr, es, it, pt, nl, pl, cs, sv, da, fi, ro, hu and tr;
4. the document's language: its default tag, unless its body text decisively says another (a
   template's tag: pandoc writes ``en-US`` into every file it makes), else the language of its
   body text, detected once per document. Very short units (a heading, a table cell) get this;
5. what little the unit's words suggest, else English.

Mixed-language documents are thus handled paragraph by paragraph. Detection is cached per text
and per document: a few microseconds a unit.
"""
from __future__ import annotations

import re
import weakref
from functools import lru_cache
from typing import Callable, NamedTuple

from adapters.model import Document, Unit
from adapters.words import words

__all__ = ["primary", "unit_language", "is_english", "detect", "guess", "document_language",
           "detected_document_language", "PROFILED"]


def primary(tag: str | None) -> str | None:
    """The primary subtag of a language tag, lower case ("de-DE" -> "de"); ``None`` for none.

    >>> primary("de-DE"), primary("EN_us"), primary(""), primary("zxx")
    ('de', 'en', None, None)
    """
    if not tag:
        return None
    head = tag.replace("_", "-").split("-", 1)[0].strip().lower()
    return head if head and head not in ("zxx", "none", "und", "x") else None


# --- function-word profiles -------------------------------------------------------------------
# The most frequent words of each language. A word in one profile only is evidence for that
# language; a word in several ("de", "la", "en", "die", "is") only supports the language the
# distinct words chose, so that the two best counts stay comparable.
_PROFILES = {
    "en": """the of and to a in is it that for was on are as with be by this not from at or which
        but have an they you he she we his her their has had were been will would can could there
        these those its than if into such should must what who when where how any each other only
        more about after between because does did our your them then shall whether within without
        upon through so no do also may use used""",
    "de": """der die das und ist nicht ein eine einen einem einer eines zu den dem des mit von sich
        auf für im in auch es sie er wird werden wurde wurden sind oder aus bei nach wie kann können
        bis nur noch über dass daß wenn durch diese dieser dieses zum zur hat haben wir ich sein
        seine vom beim um als aber wo unter gegen ohne sowie muss soll keine kein jedoch damit dabei
        sondern zwischen ihre ihren ihrer wieder bereits an so was also""",
    "fr": """le la les de des du un une et est en que qui dans pour pas sur au aux ce cette ces il elle
        ils elles sont se sa son ses leur leurs avec plus ou où être été fait comme mais nous vous on
        lui y peut tout tous toutes très sans aussi entre dont deux même par ne si d' qu' n' s' c' j'
        l' lorsque selon ainsi depuis puis sera était sous chaque autre""",
    "es": """el la los las de del y en que es se un una por con para no al lo como más pero sus su le
        ya muy también fue ha sobre este esta entre cuando son sin hay puede ser está desde todo nos
        durante uno les donde otros qué cómo hasta según tiene están esto eso estos cual cuál sino
        aunque mismo ellos hace debe además entonces ni fueron han siempre mientras sólo solo o""",
    "it": """il di che è e la per un una in del della delle dei degli al alla alle nel nella nei con
        non si da sono questo questa anche come più ma gli ha essere stato lo le può se tra fra ogni
        molto quando dove suo sua loro ancora già cui sulla dalla questi quale perché così tutti
        sia stata hanno viene solo dell' all' nell' dall' sull' un' l' o i""",
    "pt": """o os a as de do da dos das em no na nos nas um uma é e que não com para por se mais como
        mas ao aos pelo pela pelos pelas seu sua seus suas ou ser está são foi também isso este esta
        entre quando muito já há pode sobre onde tem até esse essa isto nosso ainda depois mesmo
        ela eles elas quais outro estão foram deve sem desde""",
    "nl": """de het een van en in is dat op te zijn niet met voor er die als aan ook bij door om of uit
        maar dan wordt worden kan naar wat zich hij zij nog al dit deze geen wel heeft hebben waar
        moet kunnen alleen omdat tussen onder ze u""",
    "pl": """i w z na że się nie to jest do jak o po od za dla przez oraz lub jako są co ale może tak
        być był była było ich jego jej tym tego który która które czy ten ta te""",
    "cs": """je se na že to do jako ale by pro jsou jeho které který která podle nebo
        být bylo také jen už když ještě však mezi může této tento tato""",
    "sv": """och att det som en på är av för med till den har de inte om ett var jag sig men ska kan
        så eller vid från när också efter hur vad alla detta denna dessa sina sin där mycket""",
    "da": """og at det som en på er af for med til den har de ikke om et var jeg sig men skal kan så
        eller ved fra når også efter hvor hvad alle dette denne disse sine der meget hvis""",
    "fi": """ja on ei se että oli ovat tai kun mutta myös kanssa sekä ole joka jotka tämä nämä hän
        niin kuin vain voi jos""",
    "ro": """și în de la a cu pe este care un o nu sau mai din ce se sunt fost acest această pentru
        prin către""",
    "hu": """a az és hogy nem egy is meg van de csak mint már ki el azt ez volt vagy""",
    "tr": """ve bir bu da de için ile olarak olan gibi daha çok ama veya kadar sonra her ne ki şu var
        yok değil""",
}
#: The languages the stopword detector can name.
PROFILED = frozenset(_PROFILES)
_WORD_LANGS: dict[str, tuple[str, ...]] = {}
for _lang, _words in _PROFILES.items():
    for _w in _words.split():
        if _lang not in _WORD_LANGS.get(_w, ()):
            _WORD_LANGS[_w] = _WORD_LANGS.get(_w, ()) + (_lang,)
_EN_TAILS = frozenset(("t", "s", "re", "ve", "ll", "d", "m"))  # don't, it's, they're, we've

# --- scripts ----------------------------------------------------------------------------------
_SCRIPTS = [  # (script, character class, language)
    ("Cyrl", "\u0400-\u052f", "ru"),
    ("Grek", "\u0370-\u03ff\u1f00-\u1fff", "el"),
    ("Armn", "\u0530-\u058f", "hy"),
    ("Hebr", "\u0590-\u05ff", "he"),
    ("Arab", "\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff", "ar"),
    ("Deva", "\u0900-\u097f", "hi"),
    ("Beng", "\u0980-\u09ff", "bn"),
    ("Taml", "\u0b80-\u0bff", "ta"),
    ("Thai", "\u0e00-\u0e7f", "th"),
    ("Geor", "\u10a0-\u10ff", "ka"),
    ("Hang", "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af", "ko"),
    ("Kana", "\u3040-\u30ff", "ja"),
    ("Hani", "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff", "zh"),
]
_SCRIPT_RE = {name: re.compile(f"[{cls}]") for name, cls, _ in _SCRIPTS}
_SCRIPT_LANG = {name: lang for name, _, lang in _SCRIPTS}
_NON_LATIN = re.compile("[" + "".join(cls for _, cls, _ in _SCRIPTS) + "]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
#: The scripts a tagged language is written in (Latin for every language not listed).
_TAG_SCRIPTS = {
    **dict.fromkeys("ru uk bg mk be kk ky tg mn".split(), ("Cyrl",)), "sr": ("Cyrl", "Latn"),
    "el": ("Grek",), "hy": ("Armn",), "he": ("Hebr",), "yi": ("Hebr",),
    **dict.fromkeys("ar fa ur ps ug sd ckb".split(), ("Arab",)),
    **dict.fromkeys("hi mr ne sa".split(), ("Deva",)), "bn": ("Beng",), "as": ("Beng",), "ta": ("Taml",),
    "th": ("Thai",), "ka": ("Geor",), "ko": ("Hang", "Hani"), "ja": ("Kana", "Hani"),
    "zh": ("Hani",), "yue": ("Hani",),
}
_SAMPLE = 2000  # characters of a unit the detector reads


class Guess(NamedTuple):
    """What the text alone says: a language, the script it was read from, and whether the
    evidence is strong enough to overrule a document's default tag."""

    lang: str | None
    script: str  # "Latn" or one of the _SCRIPTS names
    strong: bool


def _script_language(script: str, sample: str) -> str:
    if script == "Cyrl":
        for letters, lang in (("іїєґ", "uk"), ("ђјљњћџ", "sr"), ("ѓќѕ", "mk"), ("ў", "be")):
            if any(c in sample for c in letters):
                return lang
        return "ru" if ("ы" in sample or "э" in sample or "ъ" not in sample) else "bg"
    if script == "Arab":
        if any(c in sample for c in "ٹڈڑںے"):
            return "ur"
        if any(c in sample for c in "پچژگکی"):
            return "fa"
    return _SCRIPT_LANG[script]


@lru_cache(maxsize=1 << 15)
def guess(text: str) -> Guess:
    """The language ``text`` itself shows, from its script or its function words.

    >>> guess("Die Datei wird gelöscht, wenn sie nicht mehr gebraucht wird.")
    Guess(lang='de', script='Latn', strong=True)
    >>> guess("Москва"), guess("Introduction")
    (Guess(lang='ru', script='Cyrl', strong=True), Guess(lang=None, script='Latn', strong=False))
    """
    sample = text[:_SAMPLE]
    if not sample.isascii() and _NON_LATIN.search(sample):
        counts = {name: len(rx.findall(sample)) for name, rx in _SCRIPT_RE.items()}
        if counts["Kana"] and counts["Hani"]:  # Japanese mixes kanji and kana
            counts["Kana"] += counts.pop("Hani")
        if counts.get("Hang") and counts.get("Hani"):
            counts["Hang"] += counts.pop("Hani")
        script, n = max(counts.items(), key=lambda kv: kv[1])
        latin = len(_LATIN.findall(sample))
        if n > latin or (n >= 2 and n == latin):
            return Guess(_script_language(script, sample), script, True)
    distinct: dict[str, int] = {}
    shared: list[tuple[str, ...]] = []
    tokens = words(sample.lower())
    get = _WORD_LANGS.get
    for t in tokens:
        langs = get(t)
        if langs is None and ("'" in t or "\u2019" in t):
            head, _, tail = t.replace("\u2019", "'").partition("'")
            langs = get(head + "'") or (("en",) if tail in _EN_TAILS and head.isascii() else None)
        if langs is None:
            continue
        if len(langs) == 1 and len(t) > 1:  # one letter ("y", "w", "z") may be a variable
            distinct[langs[0]] = distinct.get(langs[0], 0) + 1
        else:
            shared.append(langs)
    if not distinct:
        return Guess(None, "Latn", False)
    ranked = sorted(distinct.items(), key=lambda kv: -kv[1])
    best, b = ranked[0]
    s = ranked[1][1] if len(ranked) > 1 else 0
    support = b + sum(1 for langs in shared if best in langs)
    if support < 2 or b < 2 * s or b == s:
        return Guess(None, "Latn", False)
    strong = (b >= 3 or support >= 3) and b >= 3 * s and support * 5 >= len(tokens)
    return Guess(best, "Latn", strong)


def detect(text: str) -> str | None:
    """The language of ``text`` when its script or function words tell it, else ``None``.

    >>> detect("La ciudad es grande y sus calles son estrechas."), detect("OK")
    ('es', None)
    """
    return guess(text).lang


_NOTHING = Guess(None, "Latn", False)


def _fits(tag: str, script: str) -> bool:
    return script in _TAG_SCRIPTS.get(tag, ("Latn",))


# --- documents --------------------------------------------------------------------------------
_DOC_SAMPLE = 60_000  # characters of body text read to detect a document's language
_DOCS: dict[int, "_DocRecord"] = {}


class DocumentGuess(NamedTuple):
    """What a document's body text says: its main language (``None`` when too little text
    tells) and whether that is decisive enough to overrule the document's default tag."""

    lang: str | None
    decisive: bool


def _forget(key: int) -> None:
    _DOCS.pop(key, None)


def _detect_document(doc: Document) -> DocumentGuess:
    texts = [u.text for u in doc.units if u.text and u.kind not in ("table", "figure", "equation")]
    step = max(1, sum(map(len, texts)) // _DOC_SAMPLE)
    votes: dict[str, int] = {}
    strong: dict[str, int] = {}
    # vote unit by unit, weighted by length, so that one long English appendix does not hide
    # a German body and a line of names in Han characters does not decide alone
    for t in texts[::step]:
        g = guess(t)
        if g.lang is not None:
            votes[g.lang] = votes.get(g.lang, 0) + len(t)
            strong[g.lang] = strong.get(g.lang, 0) + g.strong
    if not votes:
        return DocumentGuess(None, False)
    lang, n = max(votes.items(), key=lambda kv: kv[1])
    total = sum(votes.values())
    if n * 2 < total:
        return DocumentGuess(None, False)
    return DocumentGuess(lang, n * 3 >= total * 2 and strong[lang] >= 3)


class _DocRecord(NamedTuple):
    ref: weakref.ref
    units: int
    raw: object  # doc.meta["language"] as read
    tag: str | None
    found: DocumentGuess
    lang: str | None


def _forgetter(key: int) -> Callable[[object], None]:
    """The weakref callback that drops the record of document ``key`` when it is collected."""
    return lambda _ref: _forget(key)


def _record(doc: Document) -> _DocRecord:
    """The language facts of ``doc``, computed once (again only when its units are added or
    removed or its tag changes)."""
    key = id(doc)
    hit = _DOCS.get(key)
    raw = doc.meta.get("language")
    if hit is not None and hit.ref() is doc and hit.units == len(doc.units) and hit.raw == raw:
        return hit
    tag = primary(raw)
    found = _detect_document(doc)
    lang = tag
    if not tag or (found.decisive and found.lang is not None and found.lang != tag and _overrules(found.lang, tag)):
        lang = found.lang or tag
    rec = _DocRecord(weakref.ref(doc, _forgetter(key)), len(doc.units), raw, tag, found, lang)
    _DOCS[key] = rec
    return rec


def detected_document_language(doc: Document) -> DocumentGuess:
    """What ``doc``'s body text says about its language, read once per document."""
    return _record(doc).found


def document_language(doc: Document) -> str | None:
    """The document's language: its default tag unless its body text decisively says another
    (a template's tag), else what the body text says; ``None`` when neither tells."""
    return _record(doc).lang


def _overrules(lang: str, tag: str) -> bool:
    """Whether text detected as ``lang`` may overrule a tag ``tag``: another script always;
    a Latin-script guess only a tag of a language the detector knows (it cannot tell Slovak
    from Czech) or when it reads English."""
    return not _fits(tag, "Latn") or tag in PROFILED or lang == "en"


def unit_language(unit: Unit, doc: Document | None = None) -> str:
    """The unit's language (primary subtag, lower case): see the module docstring for the order.

    >>> from adapters.model import Unit
    >>> u = Unit(id="p", kind="paragraph", text="Der Vertrag endet, wenn er nicht verlängert wird.", order=0)
    >>> unit_language(u), unit_language(Unit(id="h", kind="section", text="Scope", order=1))
    ('de', 'en')
    """
    g = guess(unit.text) if unit.text else _NOTHING
    raw = unit.meta.get("lang")
    tag = primary(raw) if raw else None
    rec = _record(doc) if doc is not None else None
    if tag and tag != (rec.tag if rec else None):  # a tag inherited from the default says no more
        return g.lang if g.lang and g.script != "Latn" and not _fits(tag, g.script) else tag
    if g.lang and g.script != "Latn":
        return g.lang
    dlang = rec.lang if rec else tag
    if g.strong and g.lang is not None and (dlang is None or _overrules(g.lang, dlang)):
        return g.lang
    return dlang or g.lang or "en"


def is_english(unit: Unit, doc: Document | None = None) -> bool:
    """Whether English-only rules (English word lists, plurals, word joins) apply to ``unit``."""
    return unit_language(unit, doc) == "en"
