"""RELATED edges (both directions): units whose texts are unusually similar, by MiniLM embeddings.

Each unit is embedded through a short text, as the paper does: the caption for figures and
tables, the heading plus first sentences for sections (at most :data:`MAX_WORDS` words), and for
paragraphs and list items their opening (at most :data:`PARAGRAPH_WORDS` words). What the stage
costs is the model's word pieces, so the summary's length is its price: a unit's opening says
what it is about, its later sentences add details and examples. A pair becomes RELATED when
its cosine is at least :data:`THRESHOLD` and stands out from what both units share with the rest
of the document (:func:`required_deviations`), and no REFERENCES, DEPENDS or CONTAINS edge (nor
an ancestor chain) already links it; strongest first, at most :data:`CAP` per node.

Some units say nothing by similarity: entries of a reference list (every one is "Author,
"Title", RFC n, DOI, date"), lines of code, grammar or ASCII art (one line of a listing, alike
in shape to the next), and sentences cut from one template that differ in an identifier only
("... syntax: e.g., 'max-age=5'" / "... 'min-fresh=5'"). The first two are not embedded at all
(:func:`unembedded`: cheaper, and each unit's deviations are then measured against the units
it could be paired with, not against hundreds of listing lines it is unlike anyway); a
template pair is embedded, each half may be related to other units, but never paired with the
other (:func:`template_key`); a template filled in :data:`BOILERPLATE` times or more (the
field labels of a registration form) is paired with nothing.

Why relative: all units of one document share its subject and style, which lifts every
pairwise cosine (in the benchmark, paragraphs of one domain section score 0.5-0.8 with each
other). A fixed cosine cut either links whole sections to each other or misses the pairs on a
shared topic; measuring each pair against both units' own similarity distribution (local
scaling, as CSLS does for embedding neighbourhoods) keeps the pairs that stand out. The more
units, the further the most similar of them stands out by chance (about sqrt(2 ln n) standard
deviations for n draws), so the cut is that plus a margin, :data:`RELATIVE`.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from typing import Callable, Iterable, Sequence

import networkx as nx

from adapters.model import Document, Unit

from .edges import CONTAINS, RELATED, add_edge, remove_out_edges
from ..language.identifiers import is_code_line
from .label_index import typed_heading
from .text import sentences
from adapters.vocabulary import FLOAT_KINDS, TEXT_KINDS

__all__ = [
    "THRESHOLD",
    "RELATIVE",
    "MIN_UNITS",
    "SMALL_DOC_THRESHOLD",
    "MAX_WORDS",
    "PARAGRAPH_WORDS",
    "SUMMARY_PIECES",
    "CAP",
    "BOILERPLATE",
    "is_code_line",
    "is_reference_entry",
    "reference_list_sections",
    "unembedded",
    "template_key",
    "unit_summary",
    "fit_pieces",
    "summaries",
    "scored_pairs",
    "required_deviations",
    "similar_pairs",
    "add_related_edges",
    "calibrate_threshold",
]

#: Calibrated on the benchmark's topic clusters (``python -m benchmarks.calibrate_related``:
#: 3.1M candidate pairs, 276 cluster pairs, 15 documents of 5K-100K tokens from three seeds;
#: ``benchmarks/results/related_pr.png``). The paper's cosine 0.7 was set for ada-002, whose
#: unrelated pairs already score ~0.7; MiniLM scores unrelated pairs of one document anywhere
#: from 0.1 to 0.8 and cluster pairs from 0.26 to 0.95, so no cosine cut separates them (0.7:
#: precision 0.01 at recall 0.82; the best, 0.85: 0.48 at 0.44). The relative cut does: with the
#: margin 1.0 precision is 0.93 on paragraph pairs at recall 0.91 (the F1 optimum, 0.92); on all
#: pairs 0.56, because 175 of its 195 "false" pairs join list items, tables or captions that the
#: generator repeats nearly verbatim (93 have cosine >= 0.9), which a reader would call related.
#: THRESHOLD is only a floor that keeps weak pairs out.
THRESHOLD = 0.5
#: The margin, in standard deviations, above the expected maximum deviation sqrt(2 ln n).
RELATIVE = 1.0
#: Below this many embedded units the deviations are too few to measure (a single outlier
#: among n values is at most about sqrt(n) deviations out): use :data:`SMALL_DOC_THRESHOLD`.
MIN_UNITS = 30
#: The cosine cut for small documents: near-paraphrases only.
SMALL_DOC_THRESHOLD = 0.75
#: A template filled in this many times or more (a form's field labels, a clause repeated in
#: every registration) is boilerplate: none of its instances is paired with anything.
BOILERPLATE = 3
#: At most this many RELATED neighbours per unit.
CAP = 5
#: The most words of any summary (a section's heading and first sentences).
MAX_WORDS = 80
#: Words of a paragraph or list item that are embedded: its opening (MiniLM reads up to 256 word
#: pieces, and each costs the same). Measured on the benchmark's paraphrase clusters (synth-10k,
#: RELATED recall against its truth): 40 words (the paper's 30-50 tokens) 0.33, 64 words 0.83,
#: 80 words the same six pairs as 120 (1.0).
PARAGRAPH_WORDS = 80
#: The most word pieces of a summary (what the model reads of it, and what it costs: the model is
#: 96-97% of the stage, ``python -m benchmarks.semantic_profile``); ``None``: no budget beyond
#: :data:`MAX_WORDS`. A longer summary keeps its words that are rarest in the document
#: (:func:`fit_pieces`), so that no unit costs more than this whatever its identifiers split into.
#: Measured per budget (``python -m benchmarks.semantic_profile --budgets 256,96,80,64,48``,
#: docs/benchmarks.md): at 80 the synthetic truth's RELATED pairs are found as without a budget
#: (synth-10k P/R 1.0/1.0, synth-25k 0.692/1.0) and the edges of rfc9000.A.docx and MQTT-SN keep
#: Jaccard 0.87 and 0.95 with those without one (one calibration step moves them 0.73), for 7%
#: and 3% fewer pieces; at 64 synth-10k loses a third of its pairs, at 48 the real documents' edges
#: move past the tolerance. Cutting the opening instead (the first N pieces) loses more: at 48,
#: synth-10k recall 0.5, synth-25k precision 0.5.
SUMMARY_PIECES: int | None = 80
_CITATION = re.compile(r"\s*\[[^\[\]]{1,40}\]|\s*\((?:[A-Z][^()]{0,60}?,?\s+(?:19|20)\d{2}[a-z]?)\)")
_STRUCTURAL = re.compile(r"^(?:In|Throughout)\s+this\s+(?:section|chapter|clause|paper|subsection),?\s*", re.I)


#: Paragraph styles of reference-list entries: Word's "Bibliography", "Bibliography Entry",
#: "References", LibreOffice's "Bibliography 1", "Literaturverzeichnis", "Bibliografía".
_BIB_STYLE = re.compile(r"bibliogra|literatur|referen[cz]|r[ée]f[ée]rences|works\s*cited", re.I)
#: Titles of reference-list sections, optionally qualified ("Normative References").
_BIB_TITLE = re.compile(
    r"(?:(?:normative|informative|cited|further|other|selected|additional)\s+)?"
    r"(?:references?|bibliography|bibliographie|bibliograf[íi]a|bibliografie|literature(?:\s+cited)?"
    r"|literatur(?:verzeichnis)?|literatuur(?:lijst)?|works\s+cited|referencias(?:\s+bibliogr[áa]ficas)?"
    r"|r[ée]f[ée]rences(?:\s+bibliographiques)?|riferimenti(?:\s+bibliografici)?|refer[êe]ncias"
    r"|quellen(?:verzeichnis)?|sources\s+cited)",
    re.I,
)
#: What a reference entry carries besides its authors: a year, a URL, a DOI, a document
#: number or a quoted title.
_BIB_EVIDENCE = re.compile(
    r"\b(?:1[5-9]|20)\d\d[a-z]?\b|https?://|<?www\.|\bdoi\b|\b(?:RFC|ISO|IEEE|ISBN|ISSN)\b"
    r"|[\"\u201c\u201e][^\"\u201c\u201d\u201e]{3,}[\"\u201d\u201c]",
    re.I,
)
#: A reference entry by its shape: a bracketed tag ("[RFC9110] Fielding, R., ...", "[12] ..."),
#: or an author-first entry ("Smith, J. A., and Lee, K. (2019). ...", "Gaiman, Neil (2003). ...").
_BIB_TAG = re.compile(
    r"\s*\[[^\[\]\n]{1,40}\][.:]?(?:\t|\s{2,}|\s+(?="  # the tag, then a tab, or an author, or a title
    r"[A-Z][\w'\u2019\-]+,\s+[A-Z]|(?:[A-Z]\.\s*)+[A-Z][\w'\u2019\-]+(?:,|\s+and\b|\s+&)|[\"\u201c]))"
)
_BIB_AUTHOR = re.compile(
    r"\s*[A-Z\u00c0-\u024f][\w'\u2019\-]+,\s+(?:"
    r"(?:[A-Z]\.\s*(?:-?[A-Z]\.\s*)?)+(?:,|&|and\b|\(|et\b)"  # "Smith, J. A., and ...", "Koh, K., & ..."
    r"|[A-Z][\w'\u2019\-]+(?:\s+[A-Z]\.)*(?:,\s*\w+)?\.?\s*\((?:1[5-9]|20)\d\d[a-z]?\)\.)"  # "Gaiman, Neil (2003)."
)
#: A token that names rather than says: with an underscore, a digit, an inner capital or
#: an operator inside (``max_ack_delay``, ``RFC9110``, ``ClientHello``, ``max-age=5``, ``a.b``).
_IDENT = re.compile(r"\S*(?:_|\d|[a-z][A-Z]|[=:/]\w|\w\.\w|\(\))\S*")
#: A quoted value: straight, curly, guillemets, backticks (not an apostrophe inside a word).
_QUOTED = re.compile(
    r"(?<!\w)'[^'\n]{1,60}'(?!\w)|\"[^\"\n]{1,60}\"|\u201c[^\u201d\n]{1,60}\u201d"
    r"|\u2018[^\u2019\n]{1,60}\u2019(?!\w)|`[^`\n]{1,60}`|\u00ab[^\u00bb\n]{1,60}\u00bb"
    r"|\u201e[^\u201c\u201d\n]{1,60}[\u201c\u201d]"
)


def _section_title(unit: Unit) -> str:
    title = (unit.title or unit.text or "").strip()
    typed = typed_heading(title)
    return (typed[1] if typed else title).strip(" .:")


def reference_list_sections(doc: Document) -> set[str]:
    """Ids of the sections that are reference lists ("References", "7.2. Informative References",
    "Bibliografía", "Literaturverzeichnis") and of the sections inside them."""
    out: set[str] = set()
    for u in doc.units:  # a section comes before the sections it contains
        if u.kind == "section" and (u.parent in out or _BIB_TITLE.fullmatch(_section_title(u))):
            out.add(u.id)
    return out


def is_reference_entry(unit: Unit, in_reference_list: bool = False) -> bool:
    """An entry of a reference list: inside a reference-list section (``in_reference_list``), in
    a bibliography style, or shaped as one (a bracketed tag or an author-first opening, and a
    year, URL, DOI, document number or quoted title).

    >>> is_reference_entry(Unit("p-1", "paragraph",
    ...     '[RFC9111]\tFielding, R., Ed., "HTTP Caching", STD 98, RFC 9111, June 2022.', 0))
    True
    >>> is_reference_entry(Unit("p-2", "paragraph", "[RFC9111] defines how caches store responses.", 1))
    False
    """
    if unit.kind not in TEXT_KINDS:
        return False
    if in_reference_list or (unit.style and _BIB_STYLE.search(unit.style)):
        return True
    text = unit.text
    if len(text) > 600:
        return False
    tag = _BIB_TAG.match(text)  # the evidence after the tag: "[RFC2119]" is no document number
    if tag:
        return bool(_BIB_EVIDENCE.search(text, tag.end()))
    return bool(_BIB_AUTHOR.match(text)) and bool(_BIB_EVIDENCE.search(text))


def unembedded(doc: Document) -> set[str]:
    """Ids of the units RELATED leaves out: reference-list sections and entries, code lines."""
    lists = reference_list_sections(doc)
    out = set(lists)
    for u in doc.units:
        if u.kind not in TEXT_KINDS:
            continue
        if is_reference_entry(u, u.parent in lists) or is_code_line(u):
            out.add(u.id)
    return out


def template_key(text: str) -> str:
    """The text with its identifiers, quoted values and numbers masked (a run of them as one),
    lower-cased: two texts with one key are one template filled in twice, or one text
    repeated, a pair that says nothing.

    >>> a = "This directive uses the token form of the argument syntax: e.g., 'max-age=5'."
    >>> template_key(a) == template_key(a.replace("max-age", "min-fresh"))
    True
    >>> template_key("The client sends a request.") == template_key("The server sends a reply.")
    False
    """
    text = _QUOTED.sub(" \u2022 ", text)
    words: list[str] = []
    for w in text.split():
        w = "\u2022" if _IDENT.fullmatch(w) else w.lower()
        if w != "\u2022" or not words or words[-1] != "\u2022":  # "a@b.c, +1.408" is one value
            words.append(w)
    return " ".join(words)


def _clip(text: str, words: int = MAX_WORDS) -> str:
    w = text.split()
    return " ".join(w[:words])


def _first_sentences(text: str, n: int = 2) -> str:
    text = _CITATION.sub("", text)
    spans = sentences(text)[:n]
    out = " ".join(text[a:b] for a, b in spans) if spans else text
    return _STRUCTURAL.sub("", out).strip()


def _captions(doc: Document) -> dict[str, Unit]:
    """Figure/table/equation id -> its caption (a child caption, or an adjacent one)."""
    out: dict[str, Unit] = {}
    units = doc.units
    for i, u in enumerate(units):
        if u.kind != "caption":
            continue
        if u.parent and doc.get(u.parent) is not None and doc.unit(u.parent).kind in FLOAT_KINDS:
            out.setdefault(u.parent, u)
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(units) and units[j].kind in FLOAT_KINDS and units[j].id not in out:
                if not u.label or not units[j].label or u.label == units[j].label:
                    out[units[j].id] = u
                    break
    return out


def unit_summary(
    unit: Unit,
    doc: Document,
    *,
    captions: dict[str, Unit] | None = None,
    before: str | None = None,
    children: dict[str | None, list[Unit]] | None = None,
    left_out: set[str] | None = None,
) -> str | None:
    """The short text a unit is embedded by, or ``None`` for units not embedded.

    ``before`` is the text of the paragraph preceding the unit (an equation's description);
    ``left_out`` the ids :func:`unembedded` names (computed when not given), which are not
    embedded and do not make a section's summary.
    """
    captions = captions if captions is not None else _captions(doc)
    left_out = left_out if left_out is not None else unembedded(doc)
    kind = unit.kind
    if kind == "title" or unit.id in left_out:
        return None
    if kind == "caption":
        if unit.id in {c.id for c in captions.values()}:
            return None  # embedded as its figure or table
        out = unit.text
    elif kind == "section":
        head = unit.title or unit.text
        body = []
        kids = children.get(unit.id, []) if children is not None else doc.children(unit.id)
        for c in kids:
            if c.kind in TEXT_KINDS and c.text.strip() and c.id not in left_out:
                body.append(_first_sentences(c.text, 2))
                if sum(len(b.split()) for b in body) >= 40:
                    break
        out = f"{head}. {' '.join(body)}" if body else head
    elif kind in FLOAT_KINDS:
        cap = captions.get(unit.id)
        parts = [cap.text if cap else (unit.label or "")]
        if kind == "table":
            parts.append(unit.text.split("\n", 1)[0])
        elif kind == "figure" and not cap:
            parts.append(unit.text)
        elif kind == "equation":
            lead = before or ""
            spans = sentences(lead)
            if spans:
                parts.append(lead[spans[-1][0] : spans[-1][1]])
            parts.append(unit.text)
        out = " ".join(p for p in parts if p)
    else:
        out = _clip(_STRUCTURAL.sub("", _CITATION.sub("", unit.text)).strip(), PARAGRAPH_WORDS)
    out = _clip(" ".join(out.split()), MAX_WORDS)
    return out if len(out.split()) >= 3 else None


def fit_pieces(texts: Sequence[str], budget: int) -> list[str]:
    """Each text within ``budget`` word pieces: a longer one first drops the words it shares with
    other texts, the most common in ``texts`` first (the later of equals first), keeping the rest
    in their order (what it says that the others do not, in the document's own vocabulary, in any
    language); if its own words are still too many, its opening within the budget is kept (a
    script written without spaces is one long word: it is cut, never dropped whole).

    A text within the budget is returned unchanged (its vector is the one it always had); a
    shortened one is another text, so a cache by text never hands out its old vector.

    >>> texts = ["the packet is sent by the client to the server when the timer expires",
    ...          "the server answers", "the client waits"]
    >>> fit_pieces(texts, 10)[0]
    'packet is sent by to when timer expires'
    >>> fit_pieces(texts, 5)[0]
    'packet is sent by to'
    """
    from adapters.words import words

    from ..embeddings.encoders import tokenizer, word_pieces

    sizes = word_pieces(texts)
    over = [i for i, n in enumerate(sizes) if n > budget]
    if not over:
        return list(texts)
    split = {i: words(texts[i]) for i in range(len(texts))}
    df: Counter[str] = Counter()
    for ws in split.values():
        df.update({w.casefold() for w in ws})
    vocab = sorted({w for i in over for w in split[i]})
    cost = dict(zip(vocab, word_pieces(vocab)))
    out = list(texts)
    for i in over:
        ws = split[i]
        total = sum(cost[w] for w in ws)
        dropped: set[int] = set()
        for k in sorted(range(len(ws)), key=lambda k: (-df[ws[k].casefold()], -k)):
            if total <= budget or df[ws[k].casefold()] < 2:
                break
            dropped.add(k)
            total -= cost[ws[k]]
        text = " ".join(w for k, w in enumerate(ws) if k not in dropped) if ws else texts[i]
        pieces = [span for span in tokenizer().encode(text).offsets if span != (0, 0)]
        out[i] = text[: pieces[budget - 1][1]].rstrip() if len(pieces) > budget else text
    return out


def summaries(doc: Document, pieces: int | None = None) -> dict[str, str]:
    """Unit id -> summary, for every unit that is embedded; each within ``pieces`` word pieces
    (default :data:`SUMMARY_PIECES`, see :func:`fit_pieces`)."""
    caps = _captions(doc)
    kids: dict[str | None, list[Unit]] = {}
    for u in doc.units:
        kids.setdefault(u.parent, []).append(u)
    left_out = unembedded(doc)
    out = {}
    before = None
    for u in doc.units:
        s = unit_summary(u, doc, captions=caps, before=before, children=kids, left_out=left_out)
        if s:
            out[u.id] = s
        if u.kind == "paragraph":
            before = u.text
    budget = pieces if pieces is not None else SUMMARY_PIECES
    if budget is not None and out:
        ids = list(out)
        out = dict(zip(ids, fit_pieces([out[i] for i in ids], budget)))
    return out


def _linked(G: nx.MultiDiGraph, a: str, b: str) -> bool:
    for x, y in ((a, b), (b, a)):
        if G.has_edge(x, y):
            if any(k != RELATED for k in G[x][y]):
                return True
    return False


def _containers(G: nx.MultiDiGraph) -> dict[str, str]:
    """Node -> the node that CONTAINS it."""
    return {v: u for u, v, k in G.edges(keys=True) if k == CONTAINS}


def _inside(parent: dict[str, str], n: str, outer: str) -> bool:
    """Whether ``outer`` is an ancestor of ``n`` along CONTAINS."""
    seen = {n}
    cur = parent.get(n)
    while cur is not None and cur not in seen:
        if cur == outer:
            return True
        seen.add(cur)
        cur = parent.get(cur)
    return False


def _row_stats(vecs):
    """Mean and standard deviation of each row's cosines with every other row, without the
    n x n matrix: with S the sum of the rows and C = V^T V, row i's cosines sum to v_i.S and their
    squares to v_i^T C v_i (its own cosine taken out of both), so the cost is n d^2, linear in n."""
    import numpy as np

    v = np.asarray(vecs, dtype=np.float64)
    n = len(v)
    own = np.einsum("ij,ij->i", v, v)
    mu = (v @ v.sum(axis=0) - own) / max(1, n - 1)
    sq = (np.einsum("ij,ij->i", v @ (v.T @ v), v) - own**2) / max(1, n - 1)
    var = sq - mu**2
    return mu, np.sqrt(np.maximum(var, 1e-8))


#: Rows of the similarity matrix computed at a time (each against the rows after it).
_BLOCK = 512


def scored_pairs(
    doc: Document,
    G: nx.MultiDiGraph,
    *,
    floor: float = 0.0,
    min_deviations: float | None = None,
    progress: Callable[[float], None] | None = None,
    summ: dict[str, str] | None = None,
) -> list[tuple[str, str, float, float]]:
    """Every unordered pair ``(a, b, cosine, deviations)`` with cosine >= ``floor`` (and
    deviations >= ``min_deviations``) that no other edge links, that is no template pair and
    holds no boilerplate (:func:`template_key`, :data:`BOILERPLATE`), among the units
    :func:`summaries` embeds (``summ``, when the caller has them), in document order;
    ``deviations`` is how far the cosine stands above the mean similarity of both units, in
    their standard deviations (the smaller of the two).

    Each unit's cut is a cosine (its mean plus ``min_deviations`` deviations, at least
    ``floor``), so a block of rows is compared with the rows after it and only the cells above
    both units' cuts are read: memory stays at one block, and the matrix product is the only
    work per pair.
    """
    import numpy as np

    from ..embeddings.encoders import related_backend
    from ..language.nlp import embed_texts

    summ = summ if summ is not None else summaries(doc)
    ids = [u.id for u in doc.units if u.id in summ]
    if len(ids) < 2:
        return []
    # int8 here: its edges agree with torch's within the calibration's tolerance (embed_bench)
    vecs = embed_texts([summ[i] for i in ids], progress=progress, backend=related_backend())
    mu, sd = _row_stats(vecs)
    cut = np.full(len(ids), floor, dtype=np.float64)
    if min_deviations is not None:
        cut = np.maximum(cut, mu + min_deviations * sd)
    cut32 = cut.astype(np.float32)
    parent = _containers(G)
    keys = {i: template_key(summ[i]) for i in ids}
    repeats = Counter(keys.values())
    boilerplate = {i for i in ids if repeats[keys[i]] >= BOILERPLATE}

    out: list[tuple[str, str, float, float]] = []
    for lo in range(0, len(ids), _BLOCK):
        hi = min(len(ids), lo + _BLOCK)
        sims = vecs[lo:hi] @ vecs[lo:].T  # this block's rows against themselves and every later row
        keep = sims >= np.maximum(cut32[lo:hi, None], cut32[None, lo:])
        rows, cols = np.nonzero(keep)
        for r, c in zip(rows.tolist(), cols.tolist()):
            i, j = lo + r, lo + c
            if j <= i:
                continue
            a, b = ids[i], ids[j]
            if a in boilerplate or b in boilerplate or keys[a] == keys[b]:
                continue
            if _inside(parent, a, b) or _inside(parent, b, a) or _linked(G, a, b):
                continue
            s = float(sims[r, c])
            dev = min((s - mu[i]) / sd[i], (s - mu[j]) / sd[j])
            out.append((a, b, round(s, 4), round(float(dev), 3)))
    return out


def required_deviations(n: int, relative: float = RELATIVE) -> float:
    """How many standard deviations above both units' mean a pair must be among ``n`` units:
    the expected maximum of n chance similarities, sqrt(2 ln n), plus the margin.

    >>> round(required_deviations(100), 2), round(required_deviations(1500), 2)
    (4.03, 4.82)
    """
    return math.sqrt(2 * math.log(max(n, 2))) + relative


def similar_pairs(
    doc: Document,
    G: nx.MultiDiGraph,
    *,
    threshold: float = THRESHOLD,
    relative: float = RELATIVE,
    progress: Callable[[float], None] | None = None,
) -> list[tuple[str, str, float]]:
    """Every unordered pair ``(a, b, cosine)`` that passes both cuts and no other edge links,
    strongest first (ties in document order). In documents of fewer than :data:`MIN_UNITS`
    embedded units the deviation cut (when ``relative > 0``; ``relative <= 0`` turns it off)
    becomes the cosine cut :data:`SMALL_DOC_THRESHOLD`."""
    summ = summaries(doc)
    n = len(summ)
    small = relative > 0 and n < MIN_UNITS
    floor = max(threshold, SMALL_DOC_THRESHOLD) if small else threshold
    needed = required_deviations(n, relative) if relative > 0 and not small else None
    order = {u.id: u.order for u in doc.units}
    scored = scored_pairs(doc, G, floor=floor, min_deviations=needed, progress=progress, summ=summ)
    kept = [(a, b, cos) for a, b, cos, _dev in scored]
    kept.sort(key=lambda p: (-p[2], order[p[0]], order[p[1]]))
    return kept


def add_related_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    *,
    threshold: float = THRESHOLD,
    relative: float = RELATIVE,
    cap: int = CAP,
    progress: Callable[[float], None] | None = None,
) -> int:
    """Replace the RELATED edges of ``G`` with those of ``doc``; returns how many pairs."""
    remove_out_edges(G, list(G.nodes), RELATED)
    degree: dict[str, int] = {}
    n = 0
    for a, b, s in similar_pairs(doc, G, threshold=threshold, relative=relative, progress=progress):
        if degree.get(a, 0) >= cap or degree.get(b, 0) >= cap:
            continue
        ev = f"similar texts (cosine {s:.2f})"
        add_edge(G, a, b, RELATED, ev, s, origin="embedding")
        add_edge(G, b, a, RELATED, ev, s, origin="embedding")
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
        n += 1
    G.graph["related_threshold"] = threshold
    G.graph["related_relative"] = relative
    return n


def calibrate_threshold(
    scores: Sequence[float], labels: Sequence[bool], *, min_precision: float | None = None
) -> dict[str, float]:
    """The threshold that maximises F1 on labelled pairs (``labels[i]``: truly related).

    With ``min_precision`` the best F1 among thresholds reaching that precision. The benchmark's
    ground truth supplies the pairs: score every candidate pair with :func:`scored_pairs` and
    label it from the ground-truth RELATED set.

    >>> calibrate_threshold([0.9, 0.8, 0.55, 0.5, 0.3], [True, True, True, False, False])
    {'threshold': 0.55, 'f1': 1.0, 'precision': 1.0, 'recall': 1.0}
    """
    pairs = sorted(zip(scores, labels), key=lambda p: -p[0])
    total = sum(1 for _, l in pairs if l)
    best = {"threshold": 1.0, "f1": 0.0, "precision": 0.0, "recall": 0.0}
    tp = fp = 0
    for i, (s, lab) in enumerate(pairs):
        tp += bool(lab)
        fp += not lab
        if i + 1 < len(pairs) and pairs[i + 1][0] == s:
            continue
        prec = tp / (tp + fp)
        rec = tp / total if total else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        if min_precision is not None and prec < min_precision:
            continue
        if f1 > best["f1"]:
            best = {"threshold": round(float(s), 4), "f1": round(f1, 4), "precision": round(prec, 4), "recall": round(rec, 4)}
    return best


def related_ids(G: nx.MultiDiGraph, n: str) -> Iterable[str]:
    """The RELATED neighbours of a node."""
    return (v for _, v, k in G.out_edges(n, keys=True) if k == RELATED)
