"""The rules that read a definition in one text (no document around it): DEPENDS's detectors.

Each rule is data in :data:`RULES`: an id, an example it reads, where it came from and, for the
rules read on spaCy's analysis, a ``Matcher`` pattern over the tagger's tokens. A common English
word is a defined term only when it is quoted, written with a capital as a term, or marked by the
writer ("the term reader refers to"); a quote introduces a term without a defining verb only
when it holds words, not an identifier or a value; a quote in an example only mentions a term.
The results are cached per text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Iterable

from ..language.initials import spelled_from
from ..language.lexicon import function_words
from ..language.nlp import FACTS, common_words, noun_lemma, word_classes
from .text import sentences

__all__ = ["Definition", "Rule", "RULES", "RULE_IDS", "STATEMENTS", "is_statement", "find_definitions", "find_coinages", "is_common_word",
           "term_ok", "acronym_ok", "ident_ok", "is_identifier", "has_function_word", "tag_at", "Q_OPEN", "Q_CLOSE"]


@dataclass(frozen=True)
class Definition:
    """A defined term in a unit's text; ``text[start:end]`` (``span``) is the defining phrase.

    ``quoted``: the term is written in quotes where it is defined. ``how`` says which rule found
    it. The registry fills the document-wide facts: ``topic`` (the term is the document's topic,
    see :func:`definition_registry`), ``scope`` (the id of a section that is about the term:
    uses inside it are the definition itself) and ``linked_from`` (when not ``None``, the only
    units whose uses make DEPENDS edges).
    """

    term: str
    kind: str  # "term" | "acronym" | "notation"
    start: int
    end: int
    span: str
    case_sensitive: bool
    score: float
    quoted: bool = False
    how: str = ""
    topic: bool = False
    scope: str | None = None
    linked_from: frozenset[str] | None = None

    @property
    def key(self) -> str:
        return self.term if self.case_sensitive else self.term.lower()


@dataclass(frozen=True)
class Rule:
    """One definition rule, as data: ``id`` is :attr:`Definition.how` and the ablation key
    (``definition:ID``, :data:`.depends.SWITCHED_OFF`); ``example`` a text it reads, defining
    ``term``; ``origin`` the documents it was written on and where the ablation says it helps
    (``benchmarks.real_bench --ablate``); ``reader`` the function that reads it (``structure``:
    :mod:`.glossary`, the example's lines a term line and its definition, a terminology section's
    heading first for an entry); ``statement``: it defines by statement (a later one redefines the term);
    ``marks``: its word is a term however common; ``producers`` the annotated sets whose misses it
    was written reading (by the commit that added it; docs/benchmarks.md, "Leave one producer
    out"), which ``real_bench --lopo`` scores with it off."""

    id: str
    example: str
    term: str
    origin: str
    reader: str
    statement: bool = False
    marks: bool = False
    producers: tuple[str, ...] = ()
    #: A spaCy ``Matcher`` pattern over the tagger's tokens, for a rule read on the analysis
    #: rather than on characters (:func:`_matches`).
    pattern: tuple[dict, ...] = field(default=(), compare=False)


#: The tagger's tags (Penn Treebank) of a noun phrase's words, and of a clause's finite verb.
_PHRASE_TAGS = ["NN", "NNS", "NNP", "NNPS", "JJ", "JJR", "JJS", "AFX", "RB", "RBR", "RBS", "WRB", "VB", "VBD", "VBG", "VBN",
                "VBP", "VBZ"]
_FINITE = ["VBZ", "VBP", "VBD", "MD"]


#: The definition rules, in the order :func:`find_definitions` tries their readers. The examples
#: are tested (tests/addin_backend/graph/test_definition_rules.py): each reads its term by its rule.
RULES: tuple[Rule, ...] = (
    Rule("means", '"Confidential Information" means any non-public information.', "Confidential Information",
         "contracts (Word), DE/FR/ES forms; helps: independent", "_quoted_terms", statement=True),
    Rule("hereinafter", 'This lease, hereinafter referred to as the "Lease", starts today.', "Lease",
         "contracts (Word), DE/FR/ES forms; fires on no annotated document", "_quoted_terms", statement=True),
    Rule("paren", 'This Agreement (the "Agreement") is made by Acme Corp.', "Agreement", "contracts (Word); helps: devset", "_parens",
         statement=True),
    Rule("named", "The field block is divided into octet sequences, called field block fragments.",
         "field block fragments", "xml2rfc RFCs; helps: devset, independent, wild STIX (pandoc)", "_bare_terms/_quoted_terms",
         producers=("devset",)),
    Rule("naming", "The initial bytes are collectively referred to as the head of the data item.", "head",
         "xml2rfc RFCs; helps: wild MQTT-SN (Word)", "_bare_terms", marks=True, producers=("devset", "independent")),
    Rule("subject", 'A "shared cache" is a cache that stores responses for more than one user.', "shared cache",
         "xml2rfc RFCs; helps: devset, independent", "_quoted_terms", producers=("devset",)),
    Rule("condition", 'A cache is "disconnected" when it cannot contact the origin server.', "disconnected",
         "xml2rfc RFCs; helps: independent", "_quoted_terms", producers=("independent",)),
    Rule("copula", 'Frames of these types are "probing frames".', "probing frames", "xml2rfc RFCs; helps: devset",
         "_quoted_terms", producers=("devset",)),
    Rule("article", 'Each member keeps a "sender ratchet".', "sender ratchet", "xml2rfc RFCs; helps: devset",
         "_quoted_terms", producers=("devset",)),
    Rule("gloss", 'HTTP allows "persistent connections", allowing several requests per connection.',
         "persistent connections", "xml2rfc RFCs; helps: devset, independent", "_quoted_terms",
         producers=("devset",)),
    Rule("verb", 'A client MAY "pipeline" its requests (i.e., send several without waiting).', "pipeline",
         "xml2rfc RFCs; helps: independent", "_quoted_terms", producers=("independent",)),
    Rule("defined", "The dependency graph is defined as a multigraph.", "dependency graph",
         "papers and xml2rfc RFCs; helps: devset", "_paper_terms", statement=True, producers=("devset",)),
    Rule("define", "We define the token budget as the largest context an edit may use.", "token budget",
         "papers (the synthetic paper generator, benchmarks/synth); fires once on the annotated standards, helps none",
         "_paper_terms", statement=True, marks=True),
    Rule("denoted", "The number of units, denoted n, grows linearly.", "n", "papers; fires on no annotated document",
         "_paper_terms", statement=True),
    Rule("term", "In this document, the term epoch refers to a group of commits.", "epoch",
         "xml2rfc RFCs; helps: independent", "_paper_terms", statement=True, marks=True,
         producers=("devset",)),
    Rule("genus", "A limited on-path attacker is an off-path attacker that can observe packets.",
         "limited on-path attacker", "xml2rfc RFCs; helps: devset", "_bare_terms", producers=("devset",)),
    Rule("relational", "The copath of a node is the list of the siblings of its direct path.", "copath",
         "xml2rfc RFCs; helps: devset", "_bare_terms", producers=("devset",)),
    Rule("capitalised", "The Sleep Duration is a four-byte integer time interval measured in seconds.", "Sleep Duration",
         "Word specifications that name their fields and concepts in capitals (written reading wild MQTT-SN's misses)",
         "_bare_terms", producers=("wild: mqtt-sn-2.0-wd-2025-10-23",)),
    Rule("measure", "The final size is the amount of flow control credit consumed by a stream.", "final size",
         "xml2rfc RFCs; helps: devset", "_bare_terms", producers=("devset",)),
    Rule("bare", "Speaker identification is the process of recognising a speaker.", "speaker identification",
         "xml2rfc RFCs; helps: devset", "_bare_terms", producers=("devset",)),
    Rule("acronym", "The Service Level Agreement (SLA) applies.", "SLA",
         "any producer (Schwartz-Hearst); helps: devset, independent, both wild documents", "_parens"),
    Rule("symbol", "The timer granularity (kGranularity) bounds the delay.", "kGranularity",
         "xml2rfc RFCs; helps: devset", "_parens", producers=("devset",)),
    Rule("codename", "A line folded with at least one space or horizontal tab (obs-fold) is obsolete.", "obs-fold",
         "xml2rfc RFCs (kept where the document's code uses the name); helps: independent", "_parens",
         producers=("independent",)),
    Rule("apposition", "The RTT sample, latest_rtt, is the time since the packet was sent.", "latest_rtt",
         "xml2rfc RFCs; helps: devset, independent", "_symbols", producers=("devset",),
         # a one-letter symbol in apposition to a definite noun phrase, the clause's finite verb at
         # most five words after it, no comma, conjunction or other letter between ("The nonce, N,
         # is formed by", "The input plaintext, P, for the AEAD is"; not "In the example, X, Y and Z are")
         pattern=({"LOWER": "the"}, {"TAG": {"IN": _PHRASE_TAGS}, "LOWER": {"NOT_IN": ["the"]}, "OP": "{0,5}"},
                  {"ORTH": ","}, {"TEXT": {"REGEX": "^[B-HJ-Z]$"}}, {"ORTH": ","},
                  {"TAG": {"NOT_IN": [*_FINITE, "HYPH", ",", ".", ":", "CC"]}, "TEXT": {"REGEX": "^(?![A-Z]$)"},
                   "OP": "{0,5}"}, {"TAG": {"IN": _FINITE}})),
    Rule("rule", "The delta-seconds rule specifies a non-negative integer.", "delta-seconds",
         "xml2rfc RFCs (a regex for one sentence, now the tagger's noun and verb); helps: independent", "_tagged_subjects",
         producers=("devset", "independent"),
         # a code name (a grammar's rule, a field) after a sentence's "The", then a noun and the
         # clause's verb: "The delta-seconds rule specifies", "The max_age field holds"
         pattern=({"ORTH": "The"}, {"TEXT": {"REGEX": "^[a-z0-9_-]+$"}, "SPACY": False, "OP": "*"},
                  {"TEXT": {"REGEX": "^[a-z0-9_]+$"}, "SPACY": True},
                  {"TAG": {"IN": ["NN", "NNS"]}, "TEXT": {"REGEX": "^[a-z]+$"}}, {"TAG": {"IN": ["VBZ", "VBP"]}})),
    Rule("symbol-subject", "Hash.length is its output length in bytes.", "Hash.length",
         "xml2rfc RFCs (measured with 'subject' before it was told apart)", "_symbols",
         producers=("devset",)),
    Rule("paren-subject", "The outer frame (outer_frm) is a structure that wraps every record.", "outer frame",
         "xml2rfc RFCs; helps: independent", "_named_subjects", statement=True, producers=("devset", "independent")),
    Rule("coined", 'Tags 2 and 3 extend the model with "bignums" representing integers.', "bignums",
         "xml2rfc RFCs (the registry keeps it where first mentioned); helps: devset, independent", "find_coinages",
         producers=("devset", "independent")),
    Rule("list", "Ack-eliciting packets:\nPackets that elicit an acknowledgement.", "Ack-eliciting packets",
         "definition lists of any producer; helps: devset, independent, wild MQTT-SN (Word)", "structure", statement=True,
         producers=("devset",)),
    Rule("entry", "Terminology\nClient: the party that opens the connection.", "Client",
         "terminology sections of any producer; helps: wild STIX (pandoc)", "structure", statement=True,
         producers=("devset",)),
    Rule("opening", "Side-car Suppressions\nA side-car suppression is one that is persisted to a separate store.",
         "side-car suppression", "a section opening with what its heading names, any producer (written reading "
         "wild SARIF EN06's misses after its blind score)", "structure", statement=True,
         producers=("wild: sarif-en06-result-matching",)),
)
#: The ids of :data:`RULES`: the rules a measurement may switch off (``definition:ID``).
RULE_IDS = frozenset(r.id for r in RULES)


# Quotes: English, German („…“), French and Spanish (« … »), single quotes.
_Q_OPEN = "\"\u201c\u2018'\u201e\u00ab\u2039"
_Q_CLOSE = "\"\u201d\u2019'\u201c\u00bb\u203a"
# (an apostrophe after a letter is a possessive's or a contraction's, no opening quote)
_TERM_Q = rf"[{_Q_OPEN}](?<![^\W_][{_Q_OPEN}])\s?(?P<term>[^\W\d_][^{_Q_CLOSE}\n]{{0,58}}?)\s?[{_Q_CLOSE}]"
_Q_PLAIN = _TERM_Q.replace("?P<term>", "")
_QUOTED = re.compile(_TERM_Q)
_QUOTE_CHARS = frozenset(_Q_OPEN)
# What the words around a quoted phrase say about it (read on short windows, per quote).
_MEANS_AFTER = re.compile(
    r"\s*(?:,\s*)?(?:shall\s+)?(?:(?:specifically|simply|here|only|always|merely|precisely|strictly)\s+)?"
    r"(?:means?|has\s+the\s+meaning|shall\s+have\s+the\s+meaning|"
    r"refers?\s+to|is\s+defined\s+as|includes?|denotes?|bezeichnet|bedeutet|désigne|signifie|significa)\b"
)
_HEREINAFTER_BEFORE = re.compile(
    r"\b(?:hereinafter|hereafter|im\s+Folgenden|nachfolgend|nachstehend|ci-après|en\s+lo\s+sucesivo|en\s+adelante)"
    r"\b,?(?:\s+(?:referred\s+to\s+as|called|known\s+as|the|dénommée?s?|désignée?s?|appelée?s?|"
    r"denominad[oa]s?|llamad[oa]s?|genannt|bezeichnet\s+als|als))*\s*,?\s*"
    r"(?:(?:the|le|la|les|l'|el|los|las|der|die|das)\s*)?$",
    re.I,
)
_PAREN = re.compile(r"\((?P<body>[^()]{1,200})\)")
_PAREN_FILLER = re.compile(
    r"^(?:\s|,|;|and|or|the|a|an|each|collectively|together|individually|jointly|hereinafter|hereafter|"
    r"referred|to|as|called|known|severally|respectively|any|its|their)*$",
    re.I,
)
# Quoted terms as technical prose introduces them. After a naming verb anything quoted is a
# term; after a bare copula the quoted phrase must be several words or follow an article (is
# "true" gives a value, not a term); after an indefinite article the quote must end the phrase
# (a "key_share" extension names a value of something else).
_NAMED_BEFORE = re.compile(
    r"\b(?:called|termed|named|dubbed|(?:also\s+)?known\s+as|referred\s+to\s+as|defined\s+as)\s+(?:(?:a|an|the)\s+)?$",
    re.I,
)
_COPULA_BEFORE = re.compile(r"\b(?:is|are)\s+(?P<art>(?:a|an|the)\s+)?$")
_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|A|An)\s+$")
_LEAD_ARTICLE = re.compile(r"(?:(?:A|An|The)\s+)?$")
# A quoted subject: "The "X" [of Y] is [only] a/the/used ...".
_SUBJECT_AFTER = re.compile(
    r"(?:\s+(?:of|for)\s+(?:(?:a|an|the|any|each|given|every)\s+){0,2}[\w\-]+)?\s+(?:is|are)\s+"
    r"(?:(?:only|also|then|typically|usually|always|often|generally|commonly|primarily|mainly)\s+)?"
    r"(?:a|an|the|any|one|defined|used)\b"
)
#: "X is defined in Section 4.2.3", "(defined in [RFC5234])": a pointer to a definition elsewhere.
_POINTER_AFTER = re.compile(
    r"\s*,?\s+(?:is|are)\s+(?:(?:formally|also|further|fully)\s+)?(?:defined|described|specified|explained|discussed)"
    r"\s+(?:in|by)\s+(?:Sections?\b|Appendix\b|Annex\b|Clause\b|Chapter\b|\[|RFC\s?\d)"
)
# A state defined by its condition: "A cache is "disconnected" when ...", "Request methods are
# considered "safe" if ...". The subject is generic: an indefinite article or a bare plural that
# opens the sentence ("The goodness measure is "confidence" if present" gives a value).
_COND_AFTER = re.compile(r"\s+(?:when|whenever|if|once|while|as\s+long\s+as)\b")
_COND_BEFORE = re.compile(
    r"(?:\b(?:A|An)\s+(?:[\w\-]+\s+){1,4}?(?:is|becomes|(?:satisfies|meets|fulfil?ls|conforms\s+to)(?:\s+the)?)"
    r"|\b(?!(?:The|This|These|Those|Its|Their|Our|Such|All|Some|Both)\b)[A-Z][\w\-]*(?:\s+[\w\-]+){0,3}?s"
    r"\s+(?:are|become))\s+(?:(?:considered|said\s+to\s+be|deemed)\s+)?$"
)
_OR_BETWEEN = re.compile(r"\s*,?\s+or\s+(?:(?:a|an|the)\s+)?$")
_END_AFTER = re.compile(
    r"\s*(?:[,.;:)!?]|$)|\s+(?:and|or|but|that|which|who|whose|is|are|was|were|to|for|in|of|with|from|by|on|"
    r"at|as|where|when|if)\b"
)
_INNER_ARTICLE = re.compile(r"^(?:(?:the|le|la|les|el|los|las|der|die|das)\s+|l['\u2019])(?=[^\W\d_])", re.I)
_CHAIN = re.compile(rf"\s*,?\s+(?:or|and)\s+{_TERM_Q.replace('?P<term>', '')}")


def _chain_end(text: str, at: int) -> str:
    """What follows a coordination of quotes (``"closed" or "half-closed" state``)."""
    while (m := _CHAIN.match(text, at)) is not None:
        at = m.end()
    return text[at : at + 40]


_GLOSS_AFTER = re.compile(
    r"\s+\((?!see\b|e\.g|cf\.|section|figure|table|\d|RFC)(?:i\.e\.|that\s+is|[a-z])"
    # a gloss in apposition: "persistent connections", allowing ...; "version intolerance" in which ...
    r"|,\s+(?:i\.e\.|that\s+is|meaning|allowing|where|wherein|whereby|in\s+which)\b"
    r"|\s+(?:in\s+which|wherein|whereby)\b|\s+(?:--|\u2014)\s+(?:or|i\.e\.|that\s+is)\b"
    # a verb's gloss after its object: MAY "pipeline" its requests (i.e., send ...)
    r"|(?:\s+[\w\-']+){1,3}\s+\((?:i\.e\.|that\s+is)"
)
#: A quoted word after a modal or "to" is a verb ("MAY "pipeline" its requests"): its uses are
#: inflected ("pipelined requests").
_VERB_BEFORE = re.compile(r"\b(?:may|must|should|can|cannot|will|shall|might|could|would|to)\s+(?:not\s+)?$", re.I)
#: An example or a pointer in parentheses mentions a term; it does not introduce it ("(e.g., an
#: "incomplete close" in TLS would leave the response incomplete, as described in Section 9.8)").
_EXAMPLE_PAREN = re.compile(r"\(\s*(?:e\.g\.|for\s+example|for\s+instance|such\s+as|see\b|cf\.)", re.I)


def _in_example(text: str, at: int) -> bool:
    """Whether ``text[at]`` sits inside an open parenthesis of examples or pointers."""
    open_ = text.rfind("(", max(0, at - 200), at)
    return open_ >= 0 and ")" not in text[open_:at] and bool(_EXAMPLE_PAREN.match(text, open_))


def _generic_subject_before(text: str, at: int) -> int | None:
    """Where a generic subject with its copula ("A cache is", "Request methods are considered")
    that opens a sentence ends at ``at``; ``None`` if there is none."""
    lo = max(0, at - 80)
    m = _COND_BEFORE.search(text, lo, at)
    if m is None:
        return None
    rest = text[: m.start()].rstrip()
    return m.start() if not rest or rest[-1] in ".!?:" else None


# Unquoted naming phrases: the name runs to the end of the clause, at most four words.
_NP = r"[A-Za-z][\w\-]*(?:\s+[A-Za-z][\w\-]*){0,3}?"
#: "is known as the anti-amplification limit", "octet sequences, called field block fragments",
#: "are collectively referred to as the head of the data item" (a relational name: the head of
#: whatever data item; the term is "head").
_NAMED_NP = re.compile(
    rf"\b(?:(?:also\s+)?(?:referred\s+to|known)\s+as|(?:(?:is|are)\s+)?(?:called|termed|dubbed))\s+(?P<art>(?:the|a|an)\s+)?"
    rf"(?P<term>{_NP})(?:\s+of\s+(?:(?:the|a|an|each|any)\s+)?[\w\-]+(?:\s+[\w\-]+){{0,2}})?(?=\s*(?:[,.;:)]|$))"
)
_WE_DEFINE = re.compile(
    r"\b(?:[Ww]e\s+(?:formally\s+|now\s+|further\s+|first\s+|also\s+)?define|^\s*Define)\s+"
    r"(?P<term>(?:the\s+|a\s+|an\s+|our\s+)?[\w\-]+(?:\s+[\w\-]+){0,5}?)\s+(?:as|to\s+be)\b"
)
_IS_DEFINED = re.compile(
    r"\s*,?\s+(?:is|are)\s+(?:formally\s+)?defined\s+(?:as|to\s+be|by(?!\s+(?:Sections?\b|Appendix\b|\[|RFC\s?\d)))\b"
    r"|,\s+defined\s+as\b"
)
_DENOTED = re.compile(
    r",?\s+(?:denoted(?:\s+by|\s+as)?|written\s+as)\s+(?:the\s+symbol\s+)?"
    r"(?P<sym>\$[^$]{1,20}\$|[^\s,.;:()]{1,12}(?:\([^\s()]{1,8}\))?)"
)
#: "the term X refers to", 'The verb "generate" is used instead of "send"', 'the keyword "MUST"
#: means': a word named by a noun of words (term, verb, adjective, keyword, ...) and said what it
#: means or how it is used. Unquoted, only "term" names its word ("the term reader refers to").
_META_HINT = re.compile(r"[Tt]he\s+(?:verb|noun|adjective|adverb|word|phrase|keyword|expression|qualifier)\s+[\"\u201c\u2018'\u201e\u00ab\u2039]")
_THE_TERM = re.compile(
    rf"\b[Tt]he\s+(?:(?P<meta>term|verb|noun|adjective|adverb|word|phrase|keyword|expression|qualifier)\s+{_TERM_Q}"
    rf"|term\s+(?P<bare>[\w\-]+(?:\s+[\w\-]+){{0,3}}?))\s*,?\s+(?:refers\s+to|means|denotes|describes|"
    r"is\s+used\b|(?:is|are)\s+(?:to\s+be\s+)?(?:read|understood|interpreted)\s+as)"
)
# Definitional sentences (genus and difference). Each anchors at a sentence start.
_CT = r"(?P<term>[A-Za-z][\w\-]*(?:\s+[A-Za-z][\w\-]*){0,3}?)"
_KIND_NOUN = (
    r"(?:amount|number|set|list|sum|total|size|length|count|duration|time|period|interval|difference|"
    r"ratio|fraction|proportion|sequence|collection|process|procedure|act|method|technique|mechanism|"
    r"practice|ability|capability|part|portion|maximum|minimum|union|intersection|concatenation|"
    r"combination|subset|series|range|degree|extent|state|condition|property|quantity)"
)
_SENT = r"(?:^|(?<=[.!?]\s)|(?<=[.!?][\"')\u201d]\s))"
#: Where a sentence may start: the definitional sentences below are matched there only.
_STARTS = re.compile(rf"{_SENT}[A-Z]")
_GENUS = re.compile(
    rf"(?:A|An)\s+{_CT}\s+is\s+(?:a|an)\s+[\w\-]+(?:\s+[\w\-]+){{0,4}}?\s+"
    r"(?:that|which|who|whose|where|in\s+which|used|consisting|containing|of)\b"
)
_RELATIONAL = re.compile(rf"The\s+{_CT}\s+of\s+(?:a|an|any|each)\s+[\w\- ]{{1,40}}?\s+(?:is|are)\s+(?:the|a|an)\b")
_MEASURE = re.compile(rf"The\s+{_CT}\s+is\s+(?:the|a|an)\s+{_KIND_NOUN}\s+of\b")
_BARE = re.compile(
    rf"(?P<term>[A-Z][a-z][\w\-]*(?:\s+[a-z][\w\-]*){{1,3}}?)\s+(?:is|are)\s+(?:the|a|an)\s+{_KIND_NOUN}\s+"
    r"(?:of|that|by|whereby|in\s+which)\b"
)
#: A name every word of which English capitalises inside a sentence, the subject of "is a": the
#: way a specification introduces its fields and concepts ("The Session Expiry Interval is a").
_CAPITALISED = re.compile(r"(?:The|A|An)\s+(?P<term>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){1,3})\s+is\s+(?:a|an)\s")
_SENTENCE_RULES = ((_GENUS, "genus"), (_RELATIONAL, "relational"), (_CAPITALISED, "capitalised"), (_MEASURE, "measure"),
                   (_BARE, "bare"))
_COPULA_ARTICLE = re.compile(r"\s(?:is|are)\s(?:a|an|the)\s")
# Symbols: code identifiers (dotted, snake_case, camelCase), optionally with an index or
# single-letter arguments (``node_pub[i]``, ``pk(X)``).
_IDENT = r"(?:[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z_][A-Za-z0-9]*)+|[a-z]+[A-Z][A-Za-z0-9]*)"
_IDENT_RE = re.compile(rf"^{_IDENT}$")
#: A grammar's rule name, a lowercase compound ("obs-fold", "int-range"); English has these too
#: ("big-endian", "third-party"), so it names a thing only where the code uses it (the registry).
_CODE_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
_CALL = r"[A-Za-z][\w.]*\([A-Z](?:,\s*[A-Z])*\)"
_APPOSED = re.compile(
    rf"(?<=[A-Za-z]),\s+(?P<sym>{_IDENT}),\s+(?:is|are|was|were|has|have|represents|denotes|holds|contains|"
    r"gives|can|must|should|may|will|indicates|measures)\b"
)
# a cheap test before the identifier rules: camelCase, "a.b", "f(X)" (the punctuation sought first)
_IDENT_HINT = re.compile(r"[.(](?<=\w[.(])(?:(?<=\.)[A-Za-z]|(?<=\()[A-Z][,)])|[a-z][A-Z]")
_SUBJECT_SYM = re.compile(
    rf"(?:{_SENT}|(?<=,\s)(?:and\s+)?|(?<=;\s))(?:[Tt]he\s+(?:value|constant|variable|field|parameter|function|quantity|symbol)\s+)?"
    rf"(?P<sym>{_CALL}|{_IDENT})(?:\[[^\]\s]{{1,20}}\])?\s+(?:is|are|represents|denotes|indicates|means|refers\s+to|"
    r"contains|holds|gives)\b"
)
_ABBREV_IDENT = frozenset("e.g i.e et.al etc.al a.k.a".split())

#: Where a noun phrase read backwards stops, and words no term holds: the lexicon's closed classes
#: (not "I" and "US", letters and acronyms in terms; not articles, which open a phrase), the
#: prepositions that end a subject, and sentence adverbs.
_STOP_BACK = (function_words("auxiliaries", "relatives", "conjunctions", "demonstratives", "possessives", "quantifiers",
                             "pronouns", "prepositions") - {"i", "us", "v", "of"}) | frozenset(
    """when where then here there thus hence therefore also now first second finally formally moreover however
    further furthermore let such not""".split())
_DETERMINERS = function_words("determiners")
#: Conjunctions that open a concession, a reason or a question, where a phrase is not defined.
_SUBORDINATE = function_words("subordinators") - {"if", "while"}
_GENERIC = frozenset("it this that they these those which what here there one ones".split())
_SYMBOL = re.compile(r"^(?:\$.+\$|[A-Za-z](?:_\w+|\^\w+|\d+)?|[\u0370-\u03ff]\w*|\w+\(\w+\)|[A-Za-z]{1,2}\d*)$")
_ROMAN = re.compile(r"^(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$", re.I)


_ARTICLE_AFTER = re.compile(r"(?:a|an|A|An)\s+[a-z]")


def _symbol_ok(sym: str) -> bool:
    """Whether the word after "denoted" is a symbol (``n``, ``λ``, ``T_max``, ``$x_i$``, ``RTT``)."""
    if sym.startswith("$") or sym.lower() in _STOP_BACK:
        return sym.startswith("$")
    return bool(_SYMBOL.match(sym)) or (sym.isupper() and len(sym) <= 6) or not sym.isascii()


def _strip_det(term: str) -> str:
    t = term.strip()
    first, _, rest = t.partition(" ")
    return rest.strip() if rest and first.lower() in _DETERMINERS else t


def _np_before(text: str, end: int, floor: int) -> tuple[str, int] | None:
    """The noun phrase that ends at ``end`` (walking back over words, at most five)."""
    words = list(re.finditer(r"[^\s,;:()\[\]]+", text[floor:end]))
    picked: list[re.Match[str]] = []
    for w in reversed(words):
        tok = w.group(0)
        low = tok.lower().strip(".")
        if text[floor + w.end() : end].strip(" ") and not picked:
            break  # punctuation between the phrase and the cue
        gap = text[floor + w.end() : floor + picked[-1].start()] if picked else ""
        if "," in gap or ";" in gap or ":" in gap:
            break
        if low in _SUBORDINATE:
            return None  # "Although Content-Type is defined as a singleton field": said of a term, not its definition
        if low in _STOP_BACK and not (low == "of" and picked):
            break
        if low == "of" and not picked:
            break
        picked.append(w)
        if len(picked) >= 6:
            break
    if not picked:
        return None
    if picked[-1].group(0).lower() == "of":
        picked.pop()
    if not picked:
        return None
    start = floor + picked[-1].start()
    return text[start:end], start


def _term_ok(term: str) -> bool:
    if any(c in term for c in "={}<>|\\"):
        return False  # a formula or a code fragment in quotes
    low = term.lower()
    if not term or low in _GENERIC or len(term) > 60 or len(term.split()) > 6:
        return False
    return any(c.isalpha() for c in term)


def _sh_long_form(short: str, before: str) -> str | None:
    """Schwartz-Hearst: the shortest tail of ``before`` whose letters spell ``short``, from the
    start of its first word (its letters and digits count)."""
    at = spelled_from([c.lower() for c in short if c.isalnum()], before)
    if at is None:
        return None
    long = before[before.rfind(" ", 0, at) + 1:].strip()
    return long or None


def _reordered_long_form(short: str, words: list[str]) -> str | None:
    """An acronym whose letters are its capitalised words' initials in another order, as an
    acronym agreed between languages may be ("Coordinated Universal Time (UTC)"): the last
    ``len(short)`` words, each capitalised, whose initials are the acronym's letters.

    >>> _reordered_long_form("UTC", "as an instance of Coordinated Universal Time".split())
    'Coordinated Universal Time'
    >>> _reordered_long_form("UTC", "the Universal Time".split()) is None
    True
    """
    n = len(short)
    if n < 3 or not short.isalpha() or not short.isupper() or len(words) < n:
        return None
    tail = words[-n:]
    if not all(w[:1].isupper() and w[1:].islower() for w in tail):
        return None
    if sorted(w[0] for w in tail) != sorted(short) or "".join(w[0] for w in tail) == short:
        return None
    return " ".join(tail)


def _acronym_ok(short: str) -> bool:
    if not 2 <= len(short) <= 10 or " " in short.strip():
        return False
    if not short[0].isalnum() or _ROMAN.match(short) or short.isdigit() or re.fullmatch(r"\d{4}[a-z]?", short):
        return False
    return sum(c.isupper() for c in short) >= 2 or (short[0].isupper() and len(short) <= 4 and any(c.isupper() for c in short[1:]))




_WORD_THEN_SPACE = re.compile(r"[A-Za-z]\s+$")
#: Words that open a phrase pointing at something named before: no acronym's expansion starts so.
_POINTING_WORDS = function_words("articles", "demonstratives", "possessives") | {"such"}
_PREV_SHORT = re.compile(r"(?<![\w-])([A-Z][A-Za-z0-9&\-]{1,9})\s*$")
_ARTICLE_OPENS = re.compile(r"(?:^|[.!?:]\s+)(?:A|An|The)$")


def _spelled_numeral(short: str, text: str, at: int) -> bool:
    """Letters that read as a Roman numeral but spell the initials of the words before them:
    "Initialization Vector (IV)" and "initialization vector (IV)" are acronyms, "(iv)" or
    "Part (II)" a number. A word in lower case counts when it is a content word (no small word
    of the lexicon: "see item v (IV)" spells nothing)."""
    if not (2 <= len(short) <= 4 and short.isupper() and _ROMAN.match(short)):
        return False
    words = re.findall(r"[A-Za-z][\w-]*", text[max(0, at - 80) : at])[-len(short) :]
    return len(words) == len(short) and all(
        w[0].upper() == c and (w[0].isupper() or (len(w) >= 3 and w.lower() not in _STOP_BACK))
        for w, c in zip(words, short))


def _has_function_word(term: str) -> bool:
    return any(w.lower() in _STOP_BACK or w.lower() in ("cannot", "the", "a", "an") for w in term.split())


def _ident_ok(sym: str) -> bool:
    """A code identifier worth a definition: not an abbreviation, one part of two letters or more
    (a function symbol, ``pk(X)``, may be short)."""
    core = sym.split("(")[0]
    if "(" in sym:
        return core.lower() not in _ABBREV_IDENT and bool(core)
    if core.lower() in _ABBREV_IDENT or len(core) < 3:
        return False
    return any(len(p) >= 2 for p in re.split(r"[._]", core))


def _parens(text: str) -> list[Definition]:
    """Parentheses that define: ``(the "Supplier")``, ``Service Level Agreement (SLA)``,
    ``SLA (Service Level Agreement)``, ``timer granularity (kGranularity)``."""
    out: list[Definition] = []
    if "(" not in text:
        return out
    for m in _PAREN.finditer(text):
        body = m.group("body").strip()
        if any(c in body for c in _QUOTE_CHARS):
            quoted = list(_QUOTED.finditer(body))
            if quoted and _PAREN_FILLER.match(_QUOTED.sub(" ", body)):
                for q in quoted:
                    term = q.group("term").strip()
                    if not _acronym_ok(term) and len(term.split()) <= 4 and not _has_function_word(term):
                        # ("SLA") is an acronym, read below; ('leaf node has no children') a message
                        out.append(Definition(term, "term", m.start(), m.end(), m.group(0), True, 0.95, True, "paren"))
        # "(PTO; see Section 6.2)", "(ECN, [RFC3168])": the abbreviation is the first part
        first = re.split(r"\s*;\s*|\s*,\s*(?=see\b|e\.g|cf\.|\[|RFC)", body)[0]
        short = first.strip(_Q_OPEN + _Q_CLOSE).strip()
        if _IDENT_RE.match(short) and _ident_ok(short) and _WORD_THEN_SPACE.search(text, max(0, m.start() - 3), m.start()):
            got = _np_before(text, m.start(), max(0, m.start() - 80))
            start = got[1] if got else m.start()
            out.append(Definition(short, "notation", start, m.end(), text[start : m.end()], True, 0.85, how="symbol"))
            continue
        if (_CODE_NAME.match(short) and short == first.strip()
                and _WORD_THEN_SPACE.search(text, max(0, m.start() - 3), m.start())):
            # "... with at least one space or horizontal tab (obs-fold)": a grammar's name for the
            # thing described; the registry keeps it where the document's code uses the name
            got = _np_before(text, m.start(), max(0, m.start() - 80))
            start = got[1] if got else m.start()
            out.append(Definition(short, "notation", start, m.end(), text[start : m.end()], True, 0.8, how="codename"))
            continue
        if _acronym_ok(short) or _spelled_numeral(short, text, m.start()):
            head = text[max(0, m.start() - 120) : m.start()]
            head = re.split(r"[.;:!?()\[\]]\s", head)[-1].rstrip().rstrip(_Q_CLOSE)
            max_words = min(len(short) + 5, len(short) * 2)
            words = head.split()[-max_words:]
            long = _sh_long_form(short, " ".join(words))
            long = long.strip(_Q_OPEN + _Q_CLOSE) if long else long
            if not (long and long[0].lower() == short[0].lower()):
                long = _reordered_long_form(short, words) or long
            if long and long.split()[0].lower() in _POINTING_WORDS:
                long = None  # "these tags (TT)": a phrase pointing back, no expansion
            if long and len(long) > len(short) and short.lower() not in long.lower().split() and (
                    long[0].lower() == short[0].lower() or long == _reordered_long_form(short, words)):
                where = list(re.finditer(r"\s+".join(map(re.escape, long.split())), text[: m.start()]))
                start = where[-1].start() if where else m.start()
                if short.endswith("s") and short[-2:-1].isupper():
                    short = short[:-1]  # "LLMs": the term is "LLM"; plurals match anyway
                out.append(Definition(short, "acronym", start, m.end(), text[start : m.end()], True, 0.9, how="acronym"))
            continue
        # reverse form "SLA (Service Level Agreement)"
        prev = _PREV_SHORT.search(text, max(0, m.start() - 16), m.start())
        if prev and _acronym_ok(prev.group(1)) and len(body.split()) >= 2 and not _QUOTED.search(body):
            long = _sh_long_form(prev.group(1), body)
            if long and long == body and body[0].lower() == prev.group(1)[0].lower() and (
                    body.split()[0].lower() not in _POINTING_WORDS):
                start = prev.start(1)
                out.append(Definition(prev.group(1), "acronym", start, m.end(), text[start : m.end()], True, 0.9, how="acronym"))
    return out


#: Rules that read a phrase as introduced where it is written (no defining verb): they define
#: only where the term appears for the first time, and only words (not identifiers).
_INTRODUCING = frozenset({"copula", "article", "gloss", "subject", "verb"})
_WORDS_ONLY = re.compile(r"^[^\W\d_]+(?:[ \-][^\W\d_]+)*$")
#: Words naming a version of a thing ("STIX 2.1 Producer", "HTTP 1.1 client"): words, a version
#: number between them; spaces make it a phrase, not an identifier.
_VERSIONED_WORDS = re.compile(r"^[^\W\d_]+(?:[ \-][^\W\d_]+)* \d+(?:\.\d+)* [^\W\d_]+(?:[ \-][^\W\d_]+)*$")


#: Literal values: what they mean is said again for every field that takes them.
_LITERALS = frozenset("true false yes no on off none null nil empty ok".split())


def _introduced_ok(term: str) -> bool:
    """A phrase a quote can introduce without a defining verb: words, not an identifier, a value
    in capitals or one common word ("a "testing" state")."""
    if _VERSIONED_WORDS.match(term):
        return True
    return bool(_WORDS_ONLY.match(term)) and not term.isupper() and not (" " not in term and "-" not in term
                                                                          and term.islower() and is_common_word(term))


def _article_at(lead: str) -> int:
    """Where the article that ends ``lead`` starts (its end when there is none)."""
    m = _LEAD_ARTICLE.search(lead)  # the pattern also matches empty, at the end
    return m.start() if m else len(lead)


def _opens_sentence(text: str, at: int) -> bool:
    """Whether ``text[at:]`` starts a sentence, after an optional article ("A "shared cache" is")."""
    lead = text[max(0, at - 6) : at]
    rest = text[: at - len(lead) + _article_at(lead)].rstrip()
    return not rest or rest[-1] in ".!?:"


def _quoted_terms(text: str) -> list[Definition]:
    """Quoted terms: ``"X" means``, ``hereinafter "X"``, ``called "X"``, ``are "X"``, ``a "X".``,
    ``A "X" is a ...``, ``"X" (a gloss)``, and the second of ``"X" or "Y"``."""
    out: list[Definition] = []
    last_end, last_how = -10, None
    for q in _QUOTED.finditer(text):
        term = q.group("term").strip()
        before = text[max(0, q.start() - 60) : q.start()]
        after = text[q.end() : q.end() + 40]
        how, start, end, score = None, q.start(), q.end(), 0.9
        m = _MEANS_AFTER.match(after)
        if m:
            how, end, score = "means", q.end() + m.end(), 0.95
        elif (m := _HEREINAFTER_BEFORE.search(before)) is not None:
            how, start, score = "hereinafter", q.start() - len(before) + m.start(), 0.95
            term = _INNER_ARTICLE.sub("", term)  # ci-après « le Prestataire »
        elif (m := _NAMED_BEFORE.search(before)) is not None:
            how, start, score = "named", q.start() - len(before) + m.start(), 0.95
        elif last_how and _OR_BETWEEN.fullmatch(text[last_end : q.start()]):
            how, start = last_how, out[-1].start  # called "enum" or "enumerated"
        elif _SUBJECT_AFTER.match(after) and _opens_sentence(text, q.start()) and not _POINTER_AFTER.match(after):
            how = "subject"  # A "shared cache" is a cache that ...; The "authority-form" of X is only used ...
            start = q.start() - len(before) + _article_at(before)
        elif _COND_AFTER.match(after) and (at := _generic_subject_before(text, q.start())) is not None:
            how, start = "condition", at  # A cache is "disconnected" when ...
        elif _END_AFTER.match(_chain_end(text, q.end())):
            m = _COPULA_BEFORE.search(before)
            if m and (m.group("art") or " " in term):
                how, start = "copula", q.start() - len(before) + m.start()
            elif (m := _ARTICLE_BEFORE.search(before)) is not None:
                how, start, score = "article", q.start() - len(before) + m.start(), 0.85
        if how is None and _GLOSS_AFTER.match(after):
            how, score = "gloss", 0.85
            if " " not in term and term.islower() and _VERB_BEFORE.search(before):
                how = "verb"  # a client MAY "pipeline" its requests (i.e., ...)
        if how in _INTRODUCING and _in_example(text, q.start()):
            how = None  # (e.g., an "incomplete close" in TLS ...): a mention, not the introduction
        if how in ("verb", "condition") or (how == "subject" and re.match(r"\s+(?:of|for)\s", after)):
            # marked words, however common; not an identifier ('The "origin" for a given URI is
            # the triple ...': a relational definition)
            ok = bool(_WORDS_ONLY.match(term))
        else:  # a "close_notify" is a quoted name in use, a "closed" state a value
            ok = how not in _INTRODUCING or _introduced_ok(term)
        if not ok or (how is not None and term.lower() in _LITERALS):
            how = None  # "true" means ...: a value's meaning, not a term
        if how is None:
            last_how = None
            continue
        out.append(Definition(term, "term", start, end, text[start:end].strip(), True, score, True, how))
        last_end, last_how = q.end(), how
    return out


#: Quoted words that are a literal's, not a term's: the nouns that introduce a value ("the label
#: "quic key"", "the string "h2"", "the value "IETF"") and the words that quote a text.
_LITERAL_BEFORE = re.compile(
    r"(?i)\b(?:labels?|strings?|values?|keywords?|tokens?|literals?|texts?|characters?|prefix|suffix|names?|"
    r"titled|entitled|reads?|says?|phrases?|words?|messages?|reason|column|"
    r"(?:values?|codes?|levels?|settings?|types?|causes?)\s+of)\s*[,:]?\s*$"
)


#: An indefinite noun phrase whose head the quote names: 'an unsigned integer "argument"'.
_INDEFINITE_BEFORE = re.compile(r"\b(?:a|an|A|An)\s+(?:[\w-]+\s+){0,3}$")
#: A quote in a series ('"URI-reference", "absolute-URI", "authority", and "port"'): names
#: listed, not a term coined.
_SERIES = re.compile(rf"{_Q_PLAIN}\s*,\s*(?:(?:and|or)\s+)?{_Q_PLAIN}\s*,\s*(?:(?:and|or)\s+)?{_Q_PLAIN}")


def _coinages(text: str, own: frozenset[str] | set[str]) -> tuple[Definition, ...]:
    quotes = list(_QUOTED.finditer(text)) if any(c in text for c in _QUOTE_CHARS) else []
    series = [(m.start(), m.end()) for m in _SERIES.finditer(text)] if len(quotes) >= 3 else []
    out: list[Definition] = []
    for q in quotes:
        term = q.group("term").strip()
        if (len(term) < 3 or term in own or term.lower() in own or not _WORDS_ONLY.match(term) or term.isupper()
                or len(term.split()) > 4 or term.lower() in _LITERALS or _has_function_word(term)
                or _in_example(text, q.start()) or _LITERAL_BEFORE.search(text, max(0, q.start() - 30), q.start())
                or text[q.end() : q.end() + 2].lstrip()[:1] == "="
                or any(a <= q.start() < b for a, b in series)):
            continue
        if " " not in term and "-" not in term and _inflected(text, q.start("term"), term):
            continue  # "expires", "closed": a verb's or an adjective's form quoted is a value or a state
        if is_common_word(term) and not (_INDEFINITE_BEFORE.search(text, max(0, q.start() - 50), q.start())
                                          and _END_AFTER.match(text, q.end())):
            continue  # "send", "closed": a common word is coined only as the head of an indefinite phrase
        cs = term[:1].isupper() and _capitalised_as_term_at(text, q.start() + 1)  # "Function Extensions"; not "Bigfloats" opening a sentence
        out.append(Definition(term, "term", q.start(), q.end(), q.group(0), cs, 0.8, True, "coined"))
    return tuple(out)


def _inflected(text: str, start: int, word: str) -> bool:
    """Whether ``word`` at ``text[start]`` is a verb's inflected form or an adjective ("the
    "closed" state", "it "expires""), not a noun ("bignums", "argument"). The lexicon is the
    cheap gate (a word it knows only as a noun, or not at all, is none); the tagger reads the
    words it knows in more than one class, in their context."""
    cls = word_classes(word.lower())
    verb = cls.get("verb")
    if not ((verb and verb[1]) or "adj" in cls):
        return False
    if "noun" not in cls and not (verb and not verb[1]):
        return True
    return _tag_at(text, start) in ("VBD", "VBG", "VBN", "VBZ", "JJ", "JJR", "JJS")


def find_coinages(text: str, defined: Iterable[Definition] | None = None) -> tuple[Definition, ...]:
    """The phrases ``text`` puts in quotes that no rule reads as defined: candidates for a
    coinage, which a document introduces in quotes where it first mentions the phrase and uses
    plainly afterwards ('with "bignums" representing arbitrarily sized integers', '"Bigfloats"
    combine ...'). Only the registry can tell (the first mention is a document's fact); quoted values are left out
    ('the label "quic key"', '"true"', a quote in an example).

    >>> [(d.term, d.how) for d in find_coinages('Tags 2 and 3 extend the model with "bignums" representing integers.')]
    [('bignums', 'coined')]
    >>> find_coinages('The label "quic iv" is used to derive the IV.'), find_coinages('A "shared cache" is a cache that stores.')
    ((), ())

    ``defined``: what :func:`find_definitions` found in ``text``, when the caller has it.
    """
    if not any(c in text for c in _QUOTE_CHARS):
        return ()
    return _coinages(text, {d.key for d in (find_definitions(text) if defined is None else defined)})


def _bare_terms(text: str) -> list[Definition]:
    """Unquoted naming phrases and definitional sentences (case-insensitive terms)."""
    out: list[Definition] = []
    if " as " in text or "called" in text or "termed" in text:
        for m in _NAMED_NP.finditer(text):
            term = m.group("term").strip()
            if not any(w.lower() in _STOP_BACK for w in term.split()):
                cs = _is_symbolish(term) or (term[:1].isupper() and _capitalised_as_term_at(text, m.start("term")))
                # a common noun the phrase names ("referred to as the head") is marked as a term
                how = "naming" if m.group("art") and " " not in term and _tag_at(text, m.start("term")).startswith("NN") \
                    else "named"
                out.append(Definition(term, "term", m.start(), m.end(), m.group(0).strip(), cs, 0.85, how=how))
    if not _COPULA_ARTICLE.search(text):
        return out
    for st in _STARTS.finditer(text):
        for rx, how in _SENTENCE_RULES:
            hit = rx.match(text, st.start())
            if hit is None:
                continue
            term = hit.group("term").strip()
            if any(w.lower() in _STOP_BACK or w.lower() in _DETERMINERS for w in term.split()):
                continue
            if how == "relational":
                term = re.sub(r"\s+[A-Z]$", "", term)  # "The filtered direct path of a leaf node L"
            if how == "bare":
                term = term[0].lower() + term[1:]
            out.append(Definition(term, "term", hit.start(), hit.end(), hit.group(0), how == "capitalised", 0.8, how=how))
            break
    return out


def _is_symbolish(term: str) -> bool:
    return bool(_IDENT_RE.match(term)) or (term.isupper() and len(term) <= 10)


def _symbols(text: str) -> list[Definition]:
    """Code identifiers in apposition (``The RTT sample, latest_rtt, is``) or as a subject
    (``Hash.length is its output length``, ``pk(X) represents``)."""
    out: list[Definition] = []
    if "_" not in text and not _IDENT_HINT.search(text):
        return out
    for m in _APPOSED.finditer(text):
        sym = m.group("sym")
        if _ident_ok(sym):
            got = _np_before(text, m.start(), max(0, m.start() - 80))
            start = got[1] if got else m.start()
            out.append(Definition(sym, "notation", start, m.end(), text[start : m.end()], True, 0.85, how="apposition"))
    for m in _SUBJECT_SYM.finditer(text):
        sym = m.group("sym")
        if _ident_ok(sym) and not _POINTER_AFTER.match(text, m.end("sym")):  # "current_age is defined in Section 4.2.3"
            out.append(Definition(sym, "notation", m.start("sym"), m.end(), text[m.start("sym") : m.end()], True, 0.85,
                                  how="symbol-subject"))
    return out


#: A noun phrase that opens a sentence, named again in parentheses, and said what it is: "The
#: unified header (unified_hdr) is a structure ...", "Response splitting (a.k.a. CRLF injection)
#: is a common technique ...": the phrase is a term of the document from there on, used later
#: without its parenthesis (the name in the parenthesis is read by :func:`_parens`).
_PAREN_SUBJECT = re.compile(
    rf"{_SENT}(?:(?:The|A|An)\s+)?(?P<term>[A-Za-z][\w\-]*(?:\s+[a-z][\w\-]*){{0,3}})\s+"
    r"\((?P<body>[^()]{1,60})\)\s*,?\s+(?:is|are)\s+(?:(?:only|also|simply|typically)\s+)?(?:a|an|the)\s"
)
#: What the parenthesis may not be: a pointer, an example, a number, a citation.
_NOT_ALIAS = re.compile(r"(?i)^\s*(?:see\b|e\.g|i\.e|cf\.|for\s+example|section|figure|table|appendix|\[|\d|RFC)")
_ALIAS_LEAD = re.compile(r"(?i)^\s*(?:a\.k\.a\.?|aka|also\s+(?:known\s+as|called)|or|formerly)\s+")
#: A lower-case code name ("delta-seconds", "max_age") after "The": the gate before the rule's pattern.
_CODE_AFTER_THE = re.compile(r"The [a-z][a-z0-9]*[-_][a-z0-9]")
_CODE_WORD = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+")
_SENTENCE_END = re.compile(r"[.!?][\"')\u201d]?\s$")
#: A capital letter set off by commas (the symbol of an apposition: "The nonce, N, is ...").
_LETTER_BETWEEN_COMMAS = re.compile(r", [B-HJ-Z], ")


@lru_cache(maxsize=8192)
def _tags(text: str) -> list[tuple[str, int, str, str]]:
    from ..language.nlp import tag_texts  # the tagger loads on the first text that needs it

    return tag_texts([text])[0]


#: Six words before a position, and seven from it: the tagger's context (en_core_web_sm reads
#: four tokens either side), so a word is tagged on a short stretch, not its whole unit.
_WORDS_BEFORE = re.compile(r"(?:\S+\s+){0,6}$")
_WORDS_FROM = re.compile(r"(?:\s*\S+){0,7}")


def _tag_at(text: str, start: int) -> str:
    """The tagger's fine tag (Penn Treebank) of the word at ``text[start]``, read in context."""
    a = _WORDS_BEFORE.search(text, max(0, start - 160), start)
    lo = a.start() if a else start
    b = _WORDS_FROM.match(text, start)
    hi = b.end() if b else len(text)
    return next((tag for _, off, _, tag in _tags(text[lo:hi]) if off == start - lo), "")


@lru_cache(maxsize=None)
def _matcher(rule: str):
    """The spaCy ``Matcher`` of a rule's :attr:`Rule.pattern` (built once)."""
    from spacy.matcher import Matcher

    from ..language.nlp import get_spacy

    m = Matcher(get_spacy().vocab)
    m.add(rule, [list(next(r for r in RULES if r.id == rule).pattern)])
    return m


def _matches(rule: str, toks: list[tuple[str, int, str, str]]) -> list[tuple[int, int]]:
    """``(first, end)`` token indices of a rule's pattern in a text's tokens (:func:`_tags`)."""
    from spacy.tokens import Doc

    m = _matcher(rule)
    spaces = [a[1] + len(a[0]) < b[1] for a, b in zip(toks, toks[1:])] + [False]
    doc = Doc(m.vocab, words=[t[0] for t in toks], spaces=spaces, tags=[t[3] for t in toks])
    return [(a, b) for _, a, b in m(doc)]


#: Words a tagged stretch reaches beyond where a match of a rule's pattern may lie, around each
#: place the pattern may match (:func:`_stretches`): the tagger reads four tokens either side of
#: a word (en_core_web_sm's window encoder: 4 layers of 1), a word is one token or more, so a
#: match five words inside a stretch is tagged as in its whole unit; three more to spare.
_EXACT_WORDS = 8
#: How far a match may reach, in words, from its place: the rule's "The", a code name, a noun and
#: a verb (4 words from the "The"); an apposition's "the", five words and a comma before its
#: letter, five words and a verb after it (7 words either side, the token before the "the" too).
_RULE_REACH = (0, 4)
_APPOSITION_REACH = (7, 7)
#: Every match of the apposition pattern holds a comma, a capital letter and a comma, with at
#: most spaces between (tokens lie in the text in order with whitespace alone between them).
_LETTER_IN_COMMAS = re.compile(r",\s*[B-HJ-Z]\s*,")


def _word_start_before(text: str, at: int, words: int) -> int:
    """Where the ``words``-th word before ``at`` starts (0 when there are fewer)."""
    i = at
    for _ in range(words):
        while i > 0 and text[i - 1].isspace():
            i -= 1
        while i > 0 and not text[i - 1].isspace():
            i -= 1
    return i


def _word_end_after(text: str, at: int, words: int) -> int:
    """Where the ``words``-th word from ``at`` ends (the text's end when there are fewer)."""
    i, n = at, len(text)
    for _ in range(words):
        while i < n and text[i].isspace():
            i += 1
        while i < n and not text[i].isspace():
            i += 1
    return i


def _stretches(text: str, places: list[tuple[int, int, tuple[int, int]]]) -> list[tuple[int, int, int, int]]:
    """``(lo, hi, exact_lo, exact_hi)`` of the stretches to tag around ``places`` (``(start, end,
    (words before, words after))``: where a pattern may match and how far a match reaches from
    there), in text order, overlapping ones merged: ``text[lo:hi]`` is tagged, and a match
    within ``exact_lo..exact_hi`` has the tags and tokens it has in the whole text."""
    spans = []
    for start, end, (before, after) in places:
        exact_lo, exact_hi = _word_start_before(text, start, before), _word_end_after(text, end, after)
        spans.append((_word_start_before(text, exact_lo, _EXACT_WORDS), _word_end_after(text, exact_hi, _EXACT_WORDS),
                      exact_lo, exact_hi))
    out: list[list[int]] = []
    for lo, hi, exact_lo, exact_hi in sorted(spans):
        if out and lo <= out[-1][1]:  # overlapping: one stretch (a match is read once)
            last = out[-1]
            last[1], last[2], last[3] = max(last[1], hi), min(last[2], exact_lo), max(last[3], exact_hi)
        else:
            out.append([lo, hi, exact_lo, exact_hi])
    return [(lo, hi, elo, ehi) for lo, hi, elo, ehi in out]


def _tagged_subjects(text: str) -> list[Definition]:
    """Symbols the tagger confirms, read by the token patterns of the ``rule`` and ``apposition``
    rules (:attr:`Rule.pattern`), each in a phrase that opens its sentence.

    Only stretches around the places a pattern may match are tagged (:func:`_stretches`): a long
    unit (a table of every normative statement) is one tagger pass of 11,000 tokens for a few
    places, which alone was an eighth of a cold rename."""
    out: list[Definition] = []
    code = "The " in text and _CODE_AFTER_THE.search(text) is not None
    letter = ", " in text and _LETTER_BETWEEN_COMMAS.search(text) is not None
    if not (code or letter):
        return out
    appositions: list[Definition] = []  # after the rule's, as when the whole unit was read
    places = [(m.start(), m.end(), _RULE_REACH) for m in _CODE_AFTER_THE.finditer(text)] if code else []
    if letter:
        places += [(m.start(), m.end(), _APPOSITION_REACH) for m in _LETTER_IN_COMMAS.finditer(text)]
    for lo, hi, exact_lo, exact_hi in _stretches(text, places):
        toks = [(t, lo + off, pos, tag) for t, off, pos, tag in _tags(text[lo:hi])]

        def exact(j: int, k: int) -> bool:
            return exact_lo <= toks[j][1] and toks[k - 1][1] + len(toks[k - 1][0]) <= exact_hi

        for j, k in _matches("rule", toks) if code else ():
            if not exact(j, k):
                continue
            at, sym = toks[j][1], text[toks[j + 1][1] : toks[k - 3][1] + len(toks[k - 3][0])]
            if _CODE_WORD.fullmatch(sym) and (at == 0 or _SENTENCE_END.search(text, max(0, at - 3), at)):
                end = toks[k - 1][1] + len(toks[k - 1][0])
                out.append(Definition(sym, "notation", at, end, text[at:end], True, 0.85, how="rule"))
        for j, k in _matches("apposition", toks) if letter else ():
            if not exact(j, k):
                continue
            first = lo == 0 and j == 0  # the text's first token
            if toks[j][0] == "The" and (first or toks[j - 1][0] in (".", "!", "?", ":")) or toks[j][0] == "the" and first:
                start, end = toks[j][1], toks[k - 1][1] + len(toks[k - 1][0])
                sym = toks[next(i for i in range(j, k) if toks[i][0] == ",") + 1][0]
                appositions.append(Definition(sym, "notation", start, end, text[start:end], True, 0.8, how="apposition"))
    return out + appositions


# cheap tests before the patterns above, which try every position of a text
_PAREN_THEN_COPULA = re.compile(r"\)\s*,?\s+(?:is|are)\s")


def _named_subjects(text: str) -> list[Definition]:
    """Noun phrases defined with a parenthesis (:data:`_PAREN_SUBJECT`)."""
    out: list[Definition] = []
    if "(" in text and _PAREN_THEN_COPULA.search(text):
        for m in _PAREN_SUBJECT.finditer(text):
            term, body = m.group("term"), m.group("body")
            if _NOT_ALIAS.match(body) or _has_function_word(term) or (" " not in term and is_common_word(term)):
                continue
            short = body.strip()
            if _acronym_ok(short) and _sh_long_form(short, term):
                continue  # "Transport Layer Security (TLS) is": the acronym's expansion, read by _parens
            out.append(Definition(term, "term", m.start("term"), m.end(), text[m.start("term") : m.end()].rstrip(),
                                  False, 0.9, how="paren-subject"))
            alias = _ALIAS_LEAD.sub("", short)
            if alias != short and 1 <= len(alias.split()) <= 4 and not _has_function_word(alias):
                out.append(Definition(alias, "term", m.start("body"), m.end("body"), body, False, 0.85, how="paren-subject"))
    return out


def _paper_terms(text: str) -> list[Definition]:
    out: list[Definition] = []
    if "efine" not in text and "enote" not in text and "written" not in text and "term" not in text \
            and not _META_HINT.search(text):
        return out
    for m in _WE_DEFINE.finditer(text):
        out.append(Definition(_strip_det(m.group("term")), "term", m.start(), m.end(), m.group(0).strip(), False, 0.9,
                              how="define"))
    cues = ("defined" in text or "denoted" in text or "written" in text)
    for a, b in sentences(text) if cues else ():
        sent = text[a:b]
        for m in _IS_DEFINED.finditer(sent):
            if sent[m.end() :].lstrip()[:1] in _QUOTE_CHARS:
                continue  # status codes 'are defined as "heuristically cacheable"': the quote is the term
            got = _np_before(text, a + m.start(), a)
            if not got:
                continue
            phrase, start = got
            term = _strip_det(phrase)
            parts = term.split()
            if len(parts) > 1 and _SYMBOL.match(parts[-1]) and not parts[-1].islower():
                out.append(Definition(parts[-1], "notation", start, a + m.end(), text[start : a + m.end()], True, 0.8,
                                      how="defined"))
                term = " ".join(parts[:-1])
            out.append(Definition(term, "term", start, a + m.end(), text[start : a + m.end()], False, 0.9, how="defined"))
        for m in _DENOTED.finditer(sent):
            sym = m.group("sym").strip("$")
            if not _symbol_ok(m.group("sym")) or _ARTICLE_AFTER.match(sent, m.start("sym")):
                continue  # "written for the engineer", "written as a radio series": words, not symbols
            got = _np_before(text, a + m.start(), a)
            start = got[1] if got else a + m.start()
            out.append(Definition(sym, "notation", start, a + m.end(), text[start : a + m.end()], True, 0.8, how="denoted"))
    for m in _THE_TERM.finditer(text):
        term = (m.group("term") or m.group("bare") or "").strip()
        quoted = bool(m.group("term"))
        out.append(Definition(term, "term", m.start(), m.end(), m.group(0), quoted, 0.9, quoted, how="term"))
    return out


def is_common_word(term: str) -> bool:
    """Whether a one-word term is a common English word (then only quotes, a capital or a
    definition list make it a defined term).

    >>> is_common_word("values"), is_common_word("copath"), is_common_word("token budget")
    (True, False, False)
    """
    if " " in term or "-" in term or not term.isalpha():
        return False
    low = term.lower()
    common = common_words()
    return low in common or noun_lemma(low) in common


def _capitalised_as_term_at(text: str, at: int) -> bool:
    """Whether a capital at ``text[at]`` is a term's, not the sentence's ("the Client")."""
    before = text[:at].rstrip(" \"'(\u201c\u2018")
    return bool(before) and before[-1] not in ".!?:\n" and not _ARTICLE_OPENS.search(before[-8:] if len(before) > 8 else before)


def _capitalised_as_term(d: Definition, text: str) -> bool:
    """A capital that is not the sentence's: "the Client", not "Client" opening a sentence."""
    if not d.term[:1].isupper() or d.term.isupper():
        return d.term.isupper() and len(d.term) >= 2
    at = text.find(d.term, d.start, d.end if d.end > d.start else None)
    return at >= 0 and _capitalised_as_term_at(text, at)


#: Statements that mark their word as a term however common it is (see :data:`RULES`).
_MARKED = frozenset(r.id for r in RULES if r.marks)


def _scan(text: str) -> tuple[Definition, ...]:
    found = (_parens(text) + _symbols(text) + _paper_terms(text) + _bare_terms(text) + _named_subjects(text)
             + _tagged_subjects(text))
    if any(c in text for c in _QUOTE_CHARS):
        found += _quoted_terms(text)
    seen: set[str] = set()
    out = []
    for d in sorted(found, key=lambda d: (d.start, -d.score)):
        if not _term_ok(d.term) or (d.kind != "notation" and len(d.term) < 2) or d.key in seen:
            continue
        if (d.kind == "term" and not d.quoted and d.how not in _MARKED and is_common_word(d.term)
                and not _capitalised_as_term(d, text)):
            continue  # "values are defined to be ...": a common word, not a term
        if d.kind == "term" and not d.quoted and d.term[:1].isupper() and not d.case_sensitive and _capitalised_as_term(d, text):
            d = replace(d, case_sensitive=True)
        seen.add(d.key)
        out.append(d)
    return tuple(out)


def find_definitions(text: str) -> tuple[Definition, ...]:
    """The terms, acronyms and symbols that ``text`` defines (cached per text).

    >>> [(d.term, d.kind) for d in find_definitions('This Service Level Agreement (SLA) is made by '
    ...     'Acme Ltd (hereinafter the "Supplier").')]
    [('SLA', 'acronym'), ('Supplier', 'term')]
    >>> [(d.term, d.span) for d in find_definitions("The dependency graph is defined as a multigraph.")]
    [('dependency graph', 'The dependency graph is defined as')]
    >>> [d.term for d in find_definitions('A packet containing only probing frames is a "probing packet".')]
    ['probing packet']
    """
    return FACTS.memo("definitions", text, _scan)


#: Definitions by statement ("X" means, X is defined as, a definition list): a later one
#: redefines the term. Every other rule (an acronym's expansion, a quoted or named phrase, a
#: definitional sentence) reads an introduction, and a term is introduced once: after its first
#: definition the same phrase is a repeat (see :data:`RULES`).
_STATEMENTS = frozenset(r.id for r in RULES if r.statement)
#: A quoted term as the subject of a defining sentence ('A "shared cache" is a cache that') or
#: defined by its condition ('A cache is "disconnected" when') is a statement too.
_QUOTED_STATEMENTS = frozenset({"subject", "condition"})


def is_statement(d: Definition) -> bool:
    """Whether ``d`` defines by statement (see ``_STATEMENTS``), not by introducing a phrase."""
    return d.how in _STATEMENTS or (d.quoted and d.how in _QUOTED_STATEMENTS)


STATEMENTS = _STATEMENTS
Q_OPEN, Q_CLOSE = _Q_OPEN, _Q_CLOSE
term_ok, acronym_ok, ident_ok, has_function_word, tag_at = _term_ok, _acronym_ok, _ident_ok, _has_function_word, _tag_at


def is_identifier(term: str) -> bool:
    """A code identifier (``latest_rtt``, ``Hash.length``, ``kGranularity``)."""
    return bool(_IDENT_RE.match(term)) and _ident_ok(term)
