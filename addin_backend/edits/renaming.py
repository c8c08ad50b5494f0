"""Where a rename applies in a document, and where it keeps the old term and why.

:class:`~addin_backend.edits.terms.TermMatcher` finds every form of a term in a text; this
module decides, for a whole document, which of them a rename changes. It keeps, each with the
reason a reviewer is shown:

- **code**: a line in a code or preformatted style, or written wholly as code
  (:func:`~addin_backend.language.identifiers.is_code_line`), quotes identifiers as the program
  writes them;
- **identifiers**: the term inside an identifier of the prose (``<manifest:file-entry>``,
  ``table:data-type``, ``--safe``, ``fileEntry``, a span written in a code or element character
  style: :mod:`addin_backend.language.identifiers`) is the program's name, not the document's
  word; kept unless the rename says "including names" (``names="rename"``, then the preview
  says how many identifiers it renames);
- **longer terms**: "metadata manifest file" is no use of "manifest file" where the document
  uses the longer phrase as a term of its own: it defines it, or gives it a section beside the
  term's own (a phrase it merely writes often, "Retry packet",
  "valid manifest file", is a kind of the term and renamed with it); the preview lists each
  longer term left, why, and the instruction that renames it too (:func:`kept_note`);
- **quotations**: a paragraph in a quotation style quotes another document's words;
- **closed compounds**: "connectionID" written as one word is an identifier more often than
  the term; it is reported, not changed;
- **names of their own** (``names``): the term inside a longer capitalised name ("Destination
  Connection ID" for "connection ID"), or capitalised in running text where the document
  writes the term in lower case ("the Connection ID field"). ``"auto"`` (the default) follows
  the document's own usage: a longer name that the document writes twice or more is a name of
  its own, and a capitalised use mid-sentence is a name when the lower-case term is the more
  common form, and so is a heading, caption or sentence start spelled as such a name when the
  document never writes that spelling in lower case (the section "User-Agent" of the field
  that the prose calls "User-Agent", for "user agent"); ``"rename"`` renames inside names too,
  ``"keep"`` keeps every capitalised use.

The forms of the term are those of each unit's language (:func:`~addin_backend.language.detect.unit_language`,
:mod:`addin_backend.language.forms`: English, Spanish and French plurals, German case and number
endings); a form the engine cannot pair with the new term is kept and reported with its place;
other languages get the exact and case forms.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

import re

from adapters.model import Document, Unit
from adapters.typed_numbers import typed_section
from adapters.vocabulary import NAME_POLICIES as _NAME_POLICIES

from ..budget import check as check_budget
from ..findings import Finding

from ..language.detect import unit_language
from ..language.identifiers import identifier_at, is_code_line, is_code_style
from ..language.lexicon import function_words
from ..outline import QUOTE_STYLE
from .terms import Occurrence, term_matcher, _is_acronym

__all__ = ["NAME_POLICIES", "AcronymRename", "LongerTerm", "TermPlace", "Usage", "acronym_parts", "acronym_renames",
           "expansion_findings", "initials_fit", "kept_note", "name_counts", "term_places", "term_usage",
           "written_acronym", "written_expansion"]

#: What a rename does with the term inside a name of its own (see the module docstring); the
#: vocabulary's, so that every door's schema names the same choices.
NAME_POLICIES = _NAME_POLICIES


@dataclass(frozen=True)
class TermPlace:
    """One occurrence of a renamed term in a unit; ``kept`` says why a rename leaves it (``None``:
    the rename changes it)."""

    unit: Unit
    occ: Occurrence
    kept: str | None = None
    #: the name of its own that the occurrence is kept in ("Destination Connection ID")
    name: str | None = None
    #: the identifier the occurrence lies in ("<manifest:file-entry>"), kept or renamed as asked
    identifier: str | None = None
    #: the longer term of the document's own it is part of ("metadata manifest file")
    longer: str | None = None


@dataclass(frozen=True)
class LongerTerm:
    """A longer phrase ending in the renamed term that the document uses as a term of its own
    ("metadata manifest file" for "manifest file"): how it is written, how often, and why it
    counts as a term."""

    phrase: str
    count: int
    why: str


@dataclass
class Usage:
    """How a document writes a term: the longer capitalised names it stands in (with counts),
    and how often it is written in lower case and capitalised in running text."""

    names: Counter
    lower: int = 0
    capitalised: int = 0
    #: each spelling (lower-cased) written capitalised in running text, and in lower case:
    #: "User-Agent" written capitalised 12 times and never as "user-agent" is a name
    capitalised_as: Counter = field(default_factory=Counter)
    lower_as: Counter = field(default_factory=Counter)
    #: longer terms of the document's own that end in the term, by the lower-cased phrase
    longer: dict = field(default_factory=dict)


def _code(unit: Unit) -> bool:
    """A unit of code: in a code style (any kind), or a paragraph that reads or is written as code."""
    return is_code_style(unit.style) or (unit.kind in ("paragraph", "list_item") and is_code_line(unit))


def _occurrences(doc: Document, unit: Unit, old: str, new: str) -> list[Occurrence]:
    """The term's forms in ``unit``, in the unit's language (:mod:`addin_backend.language.forms`)."""
    check_budget()  # per unit: a rename's pattern search is the long step of its request or job
    return term_matcher(old, new, lang=unit_language(unit, doc)).find(unit.text)


def _live(doc: Document, units: Iterable[str] | None) -> list[Unit]:
    ids = set(units) if units is not None else None
    return [u for u in doc.units if (ids is None or u.id in ids) and u.meta.get("absent_in") != "accepted"]


_LAST_USAGE: list = []  # (doc, its unit texts, old, new, usage): a preview reads it three times


def term_usage(doc: Document, old: str, new: str = "") -> Usage:
    """How ``doc`` writes ``old`` (what the ``"auto"`` name policy follows)."""
    texts = [u.text for u in doc.units]
    for d, t, o, n, usage in _LAST_USAGE:
        if d is doc and o == old and n == new and t == texts:
            return usage
    usage = _usage(doc, old, new)
    _LAST_USAGE[:] = [(doc, texts, old, new, usage)] + _LAST_USAGE[:3]
    return usage


def _usage(doc: Document, old: str, new: str) -> Usage:
    usage = Usage(Counter())
    before: dict[str, list[tuple[str, Unit, Occurrence]]] = {}
    for u in _live(doc, None):
        if _code(u):
            continue
        for o in _occurrences(doc, u, old, new or old):
            if identifier_at(u, o.start, o.end, doc) is not None:
                continue  # a program's name says nothing of how the prose writes the term
            mod = _modifier(u.text, o.start)
            if mod is not None:
                before.setdefault(mod.lower(), []).append((mod, u, o))
            if o.name:
                usage.names[o.name] += 1
            elif o.capitalised:
                usage.capitalised += 1
                usage.capitalised_as[o.text.lower()] += 1
            elif o.text[:1].islower():
                usage.lower += 1
                usage.lower_as[o.text.lower()] += 1
    usage.longer = _longer_terms(doc, old, before)
    return usage


_MODIFIER = re.compile(r"([^\W\d_][\w'\u2019\-]*)[ \u00a0]+$")
#: Words in front of a term that only determine or count it ("the manifest file", "each
#: manifest file"): no longer term begins with them.
_DETERMINERS = frozenset(
    "a an the this that these those each every any all no some its their our your his her my other another "
    "such both either neither same one two three several many few more most much first last next previous "
    "given following above below new old and or of in on at by for to from with as is are be".split()
)


def _modifier(text: str, start: int) -> str | None:
    """The word written right before ``start`` that may begin a longer term ("metadata" in
    "the metadata manifest file"), or ``None`` (a determiner, a number, nothing)."""
    m = _MODIFIER.search(text, max(0, start - 60), start)
    if m is None or m.group(1).lower() in _DETERMINERS:
        return None
    return m.group(1)


def _longer_terms(doc: Document, old: str, before: dict[str, list[tuple[str, Unit, Occurrence]]]) -> dict:
    """The longer phrases ending in the term that ``doc`` uses as terms of their own, by what
    the document itself says: it defines the phrase (its definition registry: definition
    sentences, term lines, glossaries, terminology headings), or gives it a section beside the
    term's own section (the headings "Manifest File" and "Metadata Manifest Files": two
    artefacts; not "Issuing Connection IDs", a section about the term). A phrase it only writes
    often ("Retry packet", "valid manifest file") is a kind of the term, renamed with it; one it
    capitalises as a name is the name policy's (:func:`_kept`). Never a list of phrases."""
    out: dict[str, LongerTerm] = {}
    if not before:
        return out
    defined = _defined_terms(doc)
    titles = _section_titles(doc)
    term_titled = _titled(titles, old)
    for key, uses in before.items():
        written = Counter(f"{mod} {o.text}" for mod, _u, o in uses)
        phrase = written.most_common(1)[0][0]
        whys = []
        if any(_lemma_key(f"{mod} {o.text}", u, doc) in defined for mod, u, o in uses):
            whys.append("the document defines it")
        if term_titled and not _verb_form(uses[0][0]) and any(_titled(titles, f"{mod} {o.text}") for mod, _u, o in uses):
            whys.append("it has a section of its own beside the term's")
        if whys:
            out[key] = LongerTerm(phrase, len(uses), "; ".join(whys))
    return out


def _verb_form(word: str) -> bool:
    """A modifier that is a verb's inflected form and no noun ("Issuing", "Negotiating"): a
    heading "Issuing Connection IDs" is about the term, not a term of its own."""
    from ..language.nlp import word_classes

    classes = word_classes(word.lower())
    verb = classes.get("verb")
    return bool(verb and verb[1]) and ("noun" not in classes or word.lower().endswith("ing"))


def _lemma_key(phrase: str, unit: Unit, doc: Document) -> str:
    """A phrase's comparison key in its unit's language (its singular, one space, lower case)."""
    from ..language.forms import lemma

    return _norm(lemma(phrase, unit_language(unit, doc)))


def _section_titles(doc: Document) -> frozenset[str]:
    """The titles of the document's sections (their numbers left off), in comparison form."""
    from ..language.forms import lemma

    out = set()
    for u in doc.units:
        if u.kind == "section" and (u.title or u.text):
            typed = typed_section(u.title or u.text)
            title = typed[2] if typed else (u.title or u.text).strip()
            out.add(_norm(lemma(title)))
    return frozenset(out)


def _titled(titles: frozenset[str], phrase: str) -> bool:
    from ..language.forms import lemma

    return _norm(lemma(phrase)) in titles


def _defined_terms(doc: Document) -> frozenset[str]:
    """The terms ``doc`` defines (its definition registry: sentences, term lines, glossaries),
    in comparison form. Read off the defined terms' index (:func:`..graph.term_index.term_definers`):
    a graph loaded from the command line's cache brings it, so a second rename builds no registry."""
    from ..graph.term_index import term_definers
    from ..language.forms import lemma

    try:
        return frozenset(_norm(lemma(k)) for k in term_definers(doc))
    except Exception:  # the registry is a refinement here: without it, usage decides
        return frozenset()


def _in_name(text: str, occ: Occurrence, names: Iterable[str]) -> str | None:
    """The name of ``names`` written around ``occ`` in ``text`` (its plural too), if any."""
    for name in names:
        at = text.find(name, max(0, occ.end - len(name) - 1))
        while 0 <= at <= occ.start:
            end = at + len(name)
            if occ.end <= end + 1 and (end == len(text) or not text[end].isalnum() or text[end:end + 1] == "s"):
                return name
            at = text.find(name, at + 1)
    return None


def _name_writes(names: str) -> int:
    """How often the document must write a spelling as a name for the policy to keep it there:
    once when every capitalised use is kept (``"keep"``), else twice."""
    return 1 if names == "keep" else 2


def _kept(doc: Document, unit: Unit, occ: Occurrence, old: str, names: str, usage: Usage,
          ident: str | None = None) -> tuple[str | None, str | None]:
    """Why a rename keeps ``occ`` (``None``: it does not) and the name it is kept in."""
    if _code(unit):
        return "code: a code line is kept as the program writes it", None
    if unit.style and QUOTE_STYLE.search(unit.style):
        return "a quotation: another document's words are kept as written", None
    if ident is not None and names != "rename":
        if len(ident) > 60 or any(c in ident for c in "\n\u2028\t"):  # a block of code written inline
            return ("an identifier: inside code the document writes in a code style, kept as the program "
                    "reads it (rename 'including names' to change it)"), None
        return (f"an identifier: '{ident}' is a name the program reads, not the document's word "
                "(rename 'including names' to change it)"), None
    if occ.closed:
        return f"written as one word ('{occ.text}'): an identifier or a closed compound, changed only by hand", None
    if occ.unpaired:
        if occ.form == "unknown":
            return (f"'{occ.text}' is a form of '{old}' that the forms of its language cannot pair with the new "
                    "term: reword it by hand"), None
        role = "plural" if occ.plural else occ.form if occ.form != "singular" else "singular"
        return (f"the new term has no {role} to write for '{occ.text}': reword it by hand"), None
    if names == "rename":
        return None, None
    mod = _modifier(unit.text, occ.start) if usage.longer else None
    if mod is not None and mod.lower() in usage.longer and not occ.name:
        lt = usage.longer[mod.lower()]
        return (f"part of the longer term '{lt.phrase}', a term of the document's own ({lt.why}): rename it "
                "on its own if it should change too"), None
    fixed = sorted((n for n, c in usage.names.items() if c >= _name_writes(names)), key=len, reverse=True)
    name = _in_name(unit.text, occ, fixed) if occ.text[:1].isupper() else None
    if name is not None:
        return (f"part of the name '{name}', which the document writes {usage.names[name]} time(s) as a "
                "name of its own (rename 'including names' to change it)"), name
    if not occ.capitalised:
        spelled = usage.capitalised_as[occ.text.lower()]
        if occ.text[:1].isupper() and spelled >= _name_writes(names) and not usage.lower_as[occ.text.lower()]:
            # a heading, caption or sentence start written as the document writes a name of its
            # own: the section "User-Agent" of the field that the prose calls "User-Agent"
            return (f"'{occ.text}' is written as a name: the document capitalises it {spelled} time(s) in "
                    "running text and never writes it in lower case (rename 'including names' to change it)"), occ.text
        return None, None
    if names == "keep" or usage.lower > usage.capitalised + sum(usage.names.values()):
        return (f"'{occ.text}' is capitalised as a name here, where the document writes '{old}' for the term "
                "(rename 'including names' to change it)"), occ.text
    return None, None


def term_places(doc: Document, old: str, new: str, *, units: Iterable[str] | None = None, names: str = "auto",
                usage: Usage | None = None) -> list[TermPlace]:
    """Every occurrence of ``old`` (any form) in ``doc`` (or in ``units``), in document order, each
    with why a rename keeps it, if it does (see the module docstring). Occurrences that the new
    term would leave as they are (the same form) are left out.

    ``usage`` is how the document writes the term (:func:`term_usage`), for the ``"auto"``
    policy; by default it is read from ``doc`` (verification passes the document before the edit).

    >>> doc = Document("docx", [Unit("p1", "paragraph", "Each connection ID is new. The Destination Connection ID field "
    ...                       "follows the Source Connection ID field.", 0),
    ...                 Unit("p2", "paragraph", "Connection IDs change; a Destination Connection ID too.", 1)])
    >>> [(p.occ.text, p.occ.replacement, bool(p.kept)) for p in term_places(doc, "connection ID", "connection identifier")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('connection ID', 'connection identifier', False), ('Connection ID', 'Connection Identifier', True),
     ('Connection ID', 'Connection Identifier', False), ('Connection IDs', 'Connection identifiers', False),
     ('Connection ID', 'Connection Identifier', True)]
    """
    if names not in NAME_POLICIES:
        raise ValueError(f"names must be one of {', '.join(NAME_POLICIES)}, not {names!r}")
    if usage is None and names != "rename":
        usage = term_usage(doc, old, new)
    usage = usage or Usage(Counter())
    out = []
    for u in _live(doc, units):
        for o in _occurrences(doc, u, old, new):
            if o.replacement != o.text or o.unpaired:
                found = identifier_at(u, o.start, o.end, doc)
                ident = found.text if found is not None else None
                kept, name = _kept(doc, u, o, old.strip(), names, usage, ident)
                mod = _modifier(u.text, o.start) if usage.longer and kept and "longer term" in kept else None
                longer = usage.longer[mod.lower()].phrase if mod is not None else None
                out.append(TermPlace(u, o, kept, name, ident, longer))
    return out


def kept_note(kept: list[TermPlace], old: str = "", new: str = "", renamed: Iterable[TermPlace] = ()) -> str:
    """What the preview says about the occurrences a rename keeps (names of their own and how
    to rename them too, identifiers, longer terms and the instruction that renames each, code
    lines, quotations, closed compounds, forms without a pair) and about identifiers it renames
    as asked (``renamed``: places inside identifiers that "including names" reached)."""
    parts = []
    inside = [p for p in renamed if p.identifier]
    said = (f" Renamed inside {len(inside)} identifier(s) as asked ('including names'): "
            f"{name_counts(Counter(p.identifier for p in inside))}.") if inside else ""
    if not kept:
        return said
    names = Counter(p.name for p in kept if p.name)
    idents = Counter(p.identifier if len(p.identifier) <= 60 else p.identifier[:40].split("\u2028")[0] + "\u2026"
                     for p in kept if p.identifier and p.kept and p.kept.startswith("an identifier"))
    longer = Counter(p.longer for p in kept if p.longer)
    code = sum(1 for p in kept if p.kept and p.kept.startswith("code"))
    quoted = sum(1 for p in kept if p.kept and p.kept.startswith("a quotation"))
    closed = sum(1 for p in kept if p.occ.closed)
    unknown = sum(1 for p in kept if p.occ.unpaired and p.occ.form == "unknown")
    unpaired = sum(1 for p in kept if p.occ.unpaired and p.occ.form != "unknown")
    if names:
        parts.append(f"{sum(names.values())} in names of their own, as the document uses them: {name_counts(names)} "
                     "(say 'including names' to rename them too)")
    if idents:
        parts.append(f"{sum(idents.values())} inside identifiers, which programs read as written: {name_counts(idents)} "
                     "(say 'including names' to rename them too)")
    for phrase, n in longer.most_common():
        why = next(p.kept for p in kept if p.longer == phrase) or ""
        reason = why[why.find("(") + 1: why.rfind(")")] if "(" in why else ""
        offer = f"Rename \"{phrase}\" to \"{_longer_new(phrase, old, new)}\"" if old and new else ""
        parts.append(f"{n} in the longer term '{phrase}' ({reason})" + (f"; to rename it too: {offer}" if offer else ""))
    if code:
        parts.append(f"{code} in code lines")
    if quoted:
        parts.append(f"{quoted} in quotations")
    if closed:
        parts.append(f"{closed} written as one word")
    if unknown:
        parts.append(f"{unknown} in forms the new term has no pair for in the document's language")
    if unpaired:
        parts.append(f"{unpaired} in a number the new term has no form for")
    return said + f" Kept {len(kept)}: " + "; ".join(parts) + "."


def _longer_new(phrase: str, old: str, new: str) -> str:
    """The longer term with the renamed term replaced ("metadata manifest file" ->
    "metadata manifest document")."""
    got = term_matcher(old, new).find(phrase)
    if not got:
        return phrase
    o = got[-1]
    return phrase[:o.start] + o.replacement + phrase[o.end:]


def name_counts(counts: Counter, limit: int = 4) -> str:
    """"'Destination Connection ID' (40), 'Source Connection ID' (31) and 2 more"."""
    items = [f"'{n}' ({c})" for n, c in counts.most_common(limit)]
    more = len(counts) - limit
    return ", ".join(items) + (f" and {more} more" if more > 0 else "")



# --- acronyms and their expansions -----------------------------------------------------------

#: Words an expansion may give no initial for, and a title leaves in lower case (the lexicon's).
_SMALL_WORDS = function_words("title_minor")
_LONG_WORD = re.compile(r"[^\W\d_][\w'\u2019]*(?:-[^\W\d_][\w'\u2019]*)*")


def initials_fit(acronym: str, expansion: str) -> bool:
    """Whether ``expansion`` spells ``acronym``: its letters in order, each word of the expansion
    starting one of them (small words and later parts of a hyphenated word may give none), and a
    word may give more than its first letter ("Probe Timeout (PTO)", "Write-Ahead Log (WAL)").

    >>> initials_fit("TSN", "Transmission Sequence Number"), initials_fit("SSN", "Transmission Sequence Number")
    (True, False)
    >>> initials_fit("PMTU", "Path Maximum Transmission Unit"), initials_fit("WAL", "Write-Ahead Log")
    (True, True)
    >>> initials_fit("PTO", "Probe Timeout"), initials_fit("TO", "Probe Timeout"), initials_fit("PT", "Probe Timeout Value")
    (True, False, False)
    """
    letters = "".join(c for c in acronym if c.isalpha()).lower()
    parts: list[tuple[str, bool]] = []  # (part, must start a letter)
    for w in _LONG_WORD.findall(expansion):
        for i, p in enumerate(x for x in w.split("-") if x):
            parts.append((p.lower(), i == 0 and w.lower() not in _SMALL_WORDS))
    if not letters or not parts:
        return False

    def fits(li: int, pi: int) -> bool:
        if pi == len(parts):
            return li == len(letters)
        part, must = parts[pi]
        if not must and fits(li, pi + 1):
            return True
        if li == len(letters) or part[0] != letters[li]:
            return False
        # this part gives its first letter and maybe more of its own, in order
        ends = [li + 1]
        k, at = li + 1, 1
        while k < len(letters):
            at = part.find(letters[k], at)
            if at < 0:
                break
            k, at = k + 1, at + 1
            ends.append(k)
        return any(fits(e, pi + 1) for e in ends)

    return fits(0, 0)


def _long_before(text: str, at: int, acronym: str) -> tuple[int, str] | None:
    """The expansion written before ``at`` whose initials spell ``acronym`` ("Transmission Sequence
    Number (TSN)"), as ``(start, text)``."""
    words = list(_LONG_WORD.finditer(text, max(0, at - 200), at))
    for k in range(1, min(len(words), len(acronym) + 4) + 1):
        first = words[-k]
        span = text[first.start():at].rstrip(" (\u00a0")
        if initials_fit(acronym, span):
            return first.start(), span
    return None


def expansion_findings(after: Document, old: str, new: str) -> list[Finding]:
    """After renaming ``old`` to ``new``: an acronym whose written expansion no longer fits it.

    Renaming the acronym "TSN" to "SSN" leaves "Transmission Sequence Number (SSN)"; renaming the
    term "transmission sequence number" to "stream sequence number" leaves "Stream Sequence Number
    (TSN)". Both are told to the reviewer (``expansion_mismatch``), with the expansion's place.
    """
    old, new = old.strip(), new.strip()
    out: list[Finding] = []
    if _is_acronym(old) and _is_acronym(new):
        paren = re.compile(rf"\(\s*{re.escape(new)}s?\s*\)")
        for u in after.units:
            for m in paren.finditer(u.text):
                got = _long_before(u.text, m.start(), old)
                if got is None or initials_fit(new, got[1]):
                    continue
                start, long = got
                out.append(Finding(
                    "expansion_mismatch", "warning", u.id,
                    f"'{long} ({old})' now reads '{long} ({new})': the expansion spells {old}, not {new}; "
                    f"rename the expansion too, or write what {new} stands for",
                    u.text[start:m.end()], [], start, m.end(),
                ))
    elif " " in old and not _is_acronym(new):
        paren = re.compile(r"\s*\(\s*([A-Z][A-Za-z0-9]*[A-Z0-9])s?\s*\)")
        for u in after.units:
            for o in term_matcher(new, old).find(u.text):
                after_term = paren.match(u.text, o.end)
                if after_term is None:
                    continue
                acr = after_term.group(1)
                if initials_fit(acr, old) and not initials_fit(acr, o.text):
                    out.append(Finding(
                        "expansion_mismatch", "warning", u.id,
                        f"'{o.text} ({acr})': the acronym {acr} stood for '{old}' and does not fit '{new}'; "
                        f"rename the acronym too, or keep the old expansion",
                        u.text[o.start:after_term.end()], [], o.start, after_term.end(),
                    ))
    return out


# --- an acronym renamed with its expansion ---------------------------------------------------

_PAIR = re.compile(r"^(?P<a>[^()]+?)\s*\(\s*(?P<b>[^()]+?)\s*\)$")
_QUOTES = "\"'\u2018\u2019\u201c\u201d"


def _strip_quotes(s: str) -> str:
    s = s.strip()
    while len(s) >= 2 and s[0] in _QUOTES and s[-1] in _QUOTES:
        s = s[1:-1].strip()
    return s.strip(_QUOTES).strip()


def acronym_parts(term: str) -> tuple[str | None, str | None]:
    """``(acronym, expansion)`` of a term as a rename names it: "Transmission Sequence Number
    (TSN)" and "TSN (Transmission Sequence Number)" give both, "TSN" the acronym only, a phrase
    the expansion only; anything else gives ``(None, None)``.

    >>> acronym_parts("Transmission Sequence Number (TSN)"), acronym_parts('"SSN" (Stream Sequence Number)')
    (('TSN', 'Transmission Sequence Number'), ('SSN', 'Stream Sequence Number'))
    >>> acronym_parts("TSN"), acronym_parts("probe timeout"), acronym_parts("widget")
    (('TSN', None), (None, 'probe timeout'), (None, None))
    """
    t = _strip_quotes(term)
    m = _PAIR.match(t)
    if m:
        a, b = _strip_quotes(m["a"]), _strip_quotes(m["b"])
        for acr, long in ((b, a), (a, b)):
            if _is_acronym(acr) and len(_LONG_WORD.findall(long)) >= 2 and not _is_acronym(long):
                return acr, long
        return None, None
    if _is_acronym(t):
        return t, None
    if len(_LONG_WORD.findall(t)) >= 2:
        return None, t
    return None, None


def written_expansion(doc: Document, acronym: str) -> str | None:
    """The expansion ``doc`` writes for ``acronym`` ("Transmission Sequence Number (TSN)"), the
    most common if it writes several; ``None`` if it never spells the acronym out."""
    paren = re.compile(rf"\(\s*{re.escape(acronym)}s?\s*\)")
    seen: Counter = Counter()
    for u in _live(doc, None):
        for m in paren.finditer(u.text):
            got = _long_before(u.text, m.start(), acronym)
            if got is not None:
                seen[got[1]] += 1
    return seen.most_common(1)[0][0] if seen else None


def written_acronym(doc: Document, expansion: str) -> str | None:
    """The acronym ``doc`` writes after ``expansion`` ("... Number (TSN)") whose initials fit it."""
    paren = re.compile(r"\s*\(\s*([A-Z][A-Za-z0-9]*[A-Z0-9])s?\s*\)")
    seen: Counter = Counter()
    for u in _live(doc, None):
        for o in term_matcher(expansion, expansion).find(u.text):
            m = paren.match(u.text, o.end)
            if m and initials_fit(m.group(1), expansion):
                seen[m.group(1)] += 1
    return seen.most_common(1)[0][0] if seen else None


def _case_like(new: str, old: str) -> str:
    """``new`` in the case style of ``old``: title case ("Stream Sequence Number") where the
    document writes the expansion in title case, lower case where it writes it in lower case;
    words with capitals of their own ("QUIC", "iPhone") stay as written."""
    old_words = _LONG_WORD.findall(old)
    plain = [w for w in old_words if w.lower() not in _SMALL_WORDS]
    def simple(w: str) -> bool:
        return w[1:] == w[1:].lower()
    if plain and all(w[:1].isupper() and simple(w) for w in plain):
        return _LONG_WORD.sub(lambda m: m[0] if m[0].lower() in _SMALL_WORDS or not simple(m[0])
                              else m[0][:1].upper() + m[0][1:], new)
    if old_words and all(w.islower() for w in old_words):
        return _LONG_WORD.sub(lambda m: m[0].lower() if m[0][:1].isupper() and simple(m[0]) else m[0], new)
    return new


@dataclass
class AcronymRename:
    """The renames an acronym rename makes (``pairs``: old, new; the acronym's first) and what
    the preview tells the reviewer about the expansion (``warnings``)."""

    pairs: list[tuple[str, str]]
    warnings: list[str]


def acronym_renames(doc: Document, old: str, new: str) -> AcronymRename | None:
    """How a rename carries an acronym's expansion; ``None``: an ordinary rename of ``old``.

    The rule: the expansion follows only where the user gave the new one. ``"TSN (Transmission
    Sequence Number)" -> "SSN (Stream Sequence Number)"`` renames both; ``"TSN" -> "SSN (Stream
    Sequence Number)"`` renames "TSN" and the expansion the document writes for it. A rename
    that gives only the new acronym (or only the new expansion) renames that one, and
    verification warns where the written expansion no longer fits
    (:func:`expansion_findings`): an expansion is never made up from letters, nor an acronym
    from initials.

    >>> doc = Document("docx", [Unit("p", "paragraph", "The Transmission Sequence Number (TSN) grows; each TSN is new.", 0)])
    >>> acronym_renames(doc, "TSN", "SSN (Stream Sequence Number)").pairs
    [('TSN', 'SSN'), ('Transmission Sequence Number', 'Stream Sequence Number')]
    >>> acronym_renames(doc, "TSN", "SSN") is None
    True
    """
    oa, ol = acronym_parts(old)
    na, nl = acronym_parts(new)
    if not (na and nl):
        if oa and ol and (na or nl):  # "TSN (Transmission ...)" -> "SSN": rename what was given
            return AcronymRename([(oa, na)] if na else [(ol, nl or ol)], [])
        return None
    warnings = []
    if not initials_fit(na, nl):
        warnings.append(f"'{na}' does not spell '{nl}': the new acronym and expansion were renamed as given")
    if oa is None and ol is not None:
        oa = written_acronym(doc, ol)
    if oa is not None:
        written = written_expansion(doc, oa)
        if written is not None and (ol is None or _norm(written) == _norm(ol)):
            ol = written
    pairs = []
    if oa is not None:
        pairs.append((oa, na))
    if ol is not None:
        pairs.append((ol, _case_like(nl, ol)))
    elif oa is not None:
        warnings.append(f"the document never spells out {oa}, so '{nl}' is not written anywhere")
    return AcronymRename(pairs, warnings) if pairs else None


def _norm(s: str) -> str:
    """A phrase's comparison key for expansions: one space, lower case, hyphens as spaces."""
    return re.sub(r"[\s\-]+", " ", s.strip()).lower()
