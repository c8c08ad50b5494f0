"""Function words: one lexicon with named subsets (articles, determiners, demonstratives,
possessives, quantifiers, pronouns, relatives, prepositions, conjunctions, auxiliaries, and the
words a title leaves in lower case), per language where the rules have them.

Every rule that skips, glues or lower-cases "small words" asks here (spec:
``tests/vectors/function_words.json``), so a rename's title case, an abbreviation's initials
and a heading check agree on what a small word is. The subsets are closed classes of the
language's grammar, not words met in one document. Articles, prepositions and coordinating
conjunctions, and possessives, are given for the languages whose definitions and names the
rules read (en, de, fr, es, it, nl, pt); the other subsets for English, where the rules that use
them run (``is_english``).
"""
from __future__ import annotations

from functools import lru_cache

__all__ = ["SUBSETS", "LANGUAGES", "function_words", "is_function_word"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ARTICLES = {
    "en": _words("a an the"),
    "de": _words("der die das den dem des ein eine einer eines einem einen"),
    "fr": _words("le la les l' un une des du"),
    "es": _words("el la los las un una unos unas lo"),
    "it": _words("il lo la i gli le l' un uno una"),
    "nl": _words("de het een"),
    "pt": _words("o a os as um uma uns umas"),
}
#: The third person's possessive determiners: whose part "its Article 32" names is the thing
#: named before, not the writer's own text ("our Section 3").
_DE3 = _words("sein seine seinem seinen seiner seines ihr ihre ihrem ihren ihrer ihres")
_FR3 = _words("son sa ses leur leurs")
_ES3 = _words("su sus")
_IT3 = _words("suo sua suoi sue loro")
_NL3 = _words("zijn haar hun")
_PT3 = _words("seu sua seus suas")
#: Prepositions (with their contractions), coordinating conjunctions and possessives of the other
#: languages the definitions and names meet: what an abbreviation's initials skip there ("Gesetz
#: zur ..."), whose part a possessive names.
_OTHER = {
    "de": {"possessives": _words("mein meine meinem meinen meiner meines dein deine deinem deinen deiner deines "
                                  "unser unsere unserem unseren unserer unseres euer eure eurem euren eurer eures") | _DE3,
           "third_possessives": _DE3,
           "prepositions": _words("an auf aus bei bis durch für gegen im in mit nach ohne über um unter von vor "
                                  "zu zum zur am beim vom"),
           "coordinators": _words("und oder aber sowie sondern")},
    "fr": {"possessives": _words("mon ma mes ton ta tes notre nos votre vos") | _FR3, "third_possessives": _FR3,
           "prepositions": _words("à au aux avec chez dans de d' du des en entre par pour sans sous sur vers"),
           "coordinators": _words("et ou mais ni")},
    "es": {"possessives": _words("mi mis tu tus nuestro nuestra nuestros nuestras vuestro vuestra vuestros vuestras")
           | _ES3, "third_possessives": _ES3,
           "prepositions": _words("a al con de del desde en entre hacia hasta para por sin sobre tras"),
           "coordinators": _words("y e o u ni pero")},
    "it": {"possessives": _words("mio mia miei mie tuo tua tuoi tue nostro nostra nostri nostre vostro vostra vostri "
                                  "vostre") | _IT3, "third_possessives": _IT3,
           "prepositions": _words("a al allo alla ai agli alle all' con da dal dallo dalla dai dagli dalle dall' di "
                                  "del dello della dei degli delle dell' in nel nello nella nei negli nelle nell' per "
                                  "su sul sullo sulla sui sugli sulle sull' tra fra"),
           "coordinators": _words("e ed o od ma né")},
    "nl": {"possessives": _words("mijn jouw uw ons onze jullie") | _NL3, "third_possessives": _NL3,
           "prepositions": _words("aan bij door in met na naar om onder op over tot uit van voor"),
           "coordinators": _words("en of maar")},
    "pt": {"possessives": _words("meu minha meus minhas teu tua teus tuas nosso nossa nossos nossas") | _PT3,
           "third_possessives": _PT3,
           "prepositions": _words("a ao aos com de do da dos das em no na nos nas para por pelo pela sem sobre"),
           "coordinators": _words("e ou mas nem")},
}
_EN = {
    "demonstratives": _words("this that these those"),
    "possessives": _words("my your his her its our their"),
    "third_possessives": _words("his her its their"),
    "quantifiers": _words("some any each every no all both either neither"),
    "pronouns": _words("i you he she it we they me him us them"),
    "relatives": _words("which who whom whose that what"),
    "prepositions": _words(
        "about above across after against along among around as at before behind below beneath beside between "
        "beyond by despite down during except for from in inside into like near of off on onto out outside over "
        "past per since than through throughout till to toward towards under underneath until up upon v versus "
        "via vs with within without"),
    "coordinators": _words("and or nor but yet so"),
    "subordinators": _words("if because although though while whereas unless whether"),
    "auxiliaries": _words(
        "be am is are was were been being have has had having do does did will would shall should may might can "
        "could must"),
}

#: The subsets a rule may ask for; ``determiners`` joins articles, demonstratives, possessives and
#: quantifiers, ``conjunctions`` coordinators and subordinators, ``title_minor`` is what a title
#: writes in lower case (articles, coordinating conjunctions and prepositions, as the Chicago
#: Manual of Style has it).
SUBSETS = ("articles", "demonstratives", "possessives", "third_possessives", "quantifiers", "determiners", "pronouns", "relatives",
           "prepositions", "coordinators", "subordinators", "conjunctions", "auxiliaries", "title_minor")
LANGUAGES = tuple(_ARTICLES)


def _subset(name: str, lang: str) -> frozenset[str]:
    if name == "articles":
        return _ARTICLES.get(lang, frozenset())
    if lang != "en":
        return _OTHER.get(lang, {}).get(name, frozenset())
    if name == "determiners":
        return _ARTICLES["en"] | _EN["demonstratives"] | _EN["possessives"] | _EN["quantifiers"]
    if name == "conjunctions":
        return _EN["coordinators"] | _EN["subordinators"]
    if name == "title_minor":
        return _ARTICLES["en"] | _EN["coordinators"] | _EN["prepositions"]
    return _EN[name]


@lru_cache(maxsize=256)
def function_words(*subsets: str, lang: str = "en") -> frozenset[str]:
    """The function words of ``subsets`` (all of :data:`SUBSETS` when none is named) in
    ``lang`` (a language tag; its primary subtag counts), lower case.

    >>> sorted(function_words("articles"))
    ['a', 'an', 'the']
    >>> sorted(function_words("articles", lang="de-AT"))[:3], function_words("auxiliaries", lang="fr")
    (['das', 'dem', 'den'], frozenset())
    >>> {"with", "from", "and", "the", "through"} <= function_words("title_minor") and "that" not in function_words("title_minor")
    True

    :raise ValueError: a subset the lexicon does not have.
    """
    unknown = [s for s in subsets if s not in SUBSETS]
    if unknown:
        raise ValueError(f"no subset {unknown[0]!r} of function words; expected one of {', '.join(SUBSETS)}")
    primary = (lang or "en").split("-")[0].split("_")[0].lower()
    out: set[str] = set()
    for name in subsets or SUBSETS:
        out |= _subset(name, primary)
    return frozenset(out)


def is_function_word(word: str, *subsets: str, lang: str = "en") -> bool:
    """Whether ``word`` (any case, a right single quotation mark as an apostrophe) is one of
    :func:`function_words` ``subsets`` in ``lang``.

    >>> is_function_word("The", "articles"), is_function_word("widget"), is_function_word("Die", "articles", lang="de")
    (True, False, True)
    """
    return word.lower().replace("\u2019", "'") in function_words(*subsets, lang=lang)
