"""Links and typed references that no longer say where they go.

Editors who write by hand type the numbers of what they cite, in prose and in the text of
internal hyperlinks, and Word or LibreOffice never update them. Three findings read what the
document itself holds against what it says:

- ``broken_link``: an internal hyperlink to a bookmark the document does not hold (a heading
  deleted with its bookmark, a link pasted from another document: ``#_heading=h.2bxgwvm``);
- ``stale_reference``, a link's text naming another part than the one it goes to ("C.3 Server
  Congestion" linking to the heading now numbered C.2, "Appendix I" linking to Appendix J),
  a REF field whose cached number is not its target's, a typed reference whose title names
  another section than its number ("see 4.4.2 Unacknowledged Packets" where that section is
  4.4.3), and a typed figure or table number that names another figure than the one the passage
  speaks of ("Labelled Server KA in Figure 3-6" inside section 3.2, CONNACK, whose figure 3-3
  is the CONNACK packet, while Figure 3-6 is REGACK's, in section 3.5).

A fix is offered where the document says which number is right: the link's target when the
link text also names the target's title (or the field shows only its target's number), the
titled section's number, the figure of the passage's own section.
"""
from __future__ import annotations

import re
from collections import Counter

from adapters import words as _words
from adapters.label_grammar import heading_number
from adapters.model import Document, Unit

from ..findings import Finding, Place
from ..graph.label_index import LabelIndex, build_label_index, unit_keys
from ..graph.mentions import Mention, find_mentions
from ..graph.references import is_navigation
from .style.prose import make_finding

__all__ = ["link_findings", "broken_links", "stale_references"]

#: Anchors Word answers without a bookmark: the top of the document.
_BUILT_IN = frozenset({"_top", "_bottom"})
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_CAPTIONED = ("figure", "table")


def link_findings(doc: Document, index: LabelIndex | None = None) -> list[Finding]:
    """Broken internal links and stale references of ``doc`` (see the module's docstring)."""
    index = index or build_label_index(doc.units)
    return broken_links(doc) + stale_references(doc, index)


def _internal(target: str | None) -> bool:
    return bool(target) and not _SCHEME.match(target or "") and not (target or "").startswith(("/", "\\", "."))


def broken_links(doc: Document) -> list[Finding]:
    """Internal hyperlinks whose bookmark the document does not hold, one finding per missing
    bookmark with every link to it (reference fields to a missing bookmark are ``broken_field``
    findings of the graph)."""
    places: dict[str, list[Place]] = {}
    for u in doc.units:
        for f in u.fields:
            if f.kind != "hyperlink" or f.target_unit or not _internal(f.target) or f.target in _BUILT_IN:
                continue
            places.setdefault(f.target or "", []).append(Place(u.id, f.start, f.end, u.text[f.start:f.end]))
    out: list[Finding] = []
    for target, where in places.items():
        shown = where[0].text.strip() or target
        more = f" ({len(where)} links)" if len(where) > 1 else ""
        out.append(make_finding("broken_link", "error", where,
                                f"the link '{shown}' goes to '#{target}', a bookmark the document does not hold{more}",
                                evidence=shown))
    return out


# --- stale references -------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(_words.words(text.lower()))


def _title_of(unit: Unit) -> str:
    """A heading's title without its number."""
    title = (unit.title or unit.text or "").strip()
    typed = heading_number(title)
    return title[typed[2]:].strip() if typed else title


def _family_keys(unit: Unit) -> dict[str, str]:
    """family -> number, from the unit's own labels (its reader label first)."""
    out: dict[str, str] = {}
    for (family, number), _rank in unit_keys(unit):
        out.setdefault(family, number)
    return out


def _shown_label(text: str) -> tuple[str, str, int, int] | None:
    """The label a link's text names: ``(family, number, start, end)`` of the number, from a
    mention ("Appendix I", "Figure 3-6") or a heading number opening it ("C.3 Server Congestion")."""
    for m in find_mentions(text):
        if m.items:
            it = m.items[0]
            if m.literal:
                return m.family, m.literal, it.start, m.items[-1].end
            if len(m.items) == 1:
                return m.family, it.number, it.start, it.end
    typed = heading_number(text)
    if typed:
        start = len(text) - len(text.lstrip())
        return "section", typed[0], start, start + len(typed[0])
    return None


def _names_title(rest: str, title: str) -> bool:
    """Whether the words after a number are the title (or start with it)."""
    a, b = _norm(rest), _norm(title)
    return bool(b) and (a == b or a.startswith(b + " ") or (len(b.split()) >= 2 and b.startswith(a) and len(a) >= 8))


def _link_places(doc: Document, u: Unit) -> list[Finding]:
    out = []
    for f in u.fields:
        if not f.target_unit or not f.is_reference and f.kind != "hyperlink":
            continue
        if f.kind != "hyperlink" and f.shows not in ("number", "label"):
            continue  # a field showing its target's text or page says no number
        try:
            target = doc.unit(f.target_unit)
        except Exception:
            continue
        shown = u.text[f.start:f.end]
        label = _shown_label(shown)
        if label is None:
            continue
        family, number, s, e = label
        keys = _family_keys(target)
        if family not in keys or keys[family] == number:
            continue
        right = keys[family]
        title = _title_of(target) if target.kind == "section" else ""
        fixable = f.kind != "hyperlink" or (title and _names_title(shown[e:], title))
        place = Place(u.id, f.start + s, f.start + e, shown[s:e], right if fixable else None)
        what = "the link" if f.kind == "hyperlink" else "the reference field"
        named = f" '{title}'" if title else ""
        out.append(make_finding("stale_reference", "warning", [place],
                                f"{what} '{shown.strip()}' goes to {target.label or right}{named}, numbered {right}, "
                                f"but its text says {number}", evidence=shown.strip(), related=[target.id]))
    return out


def _section_titles(doc: Document) -> dict[str, list[Unit]]:
    out: dict[str, list[Unit]] = {}
    for u in doc.units:
        if u.kind == "section":
            t = _norm(_title_of(u))
            if len(t) >= 8 or len(t.split()) >= 2:
                out.setdefault(t, []).append(u)
    return out


def _typed_titled(doc: Document, index: LabelIndex, u: Unit, m: Mention, titles: dict[str, list[Unit]],
                  covered: list[tuple[int, int]]) -> Finding | None:
    """A typed section number followed by the title of another section than the one it numbers."""
    if m.family != "section" or len(m.items) != 1 or any(a < m.end and m.start < b for a, b in covered):
        return None
    raw = u.text[m.end:m.end + 160]
    if not raw[:1].isspace() or not raw.lstrip()[:1].isupper():
        return None  # "Section 16. Transport parameters have ...": a sentence goes on, no title follows
    rest = _norm(raw)
    best = max((t for t in titles if rest == t or rest.startswith(t + " ")), key=len, default=None)
    if best is None or len(titles[best]) != 1:
        return None
    titled = titles[best][0]
    number = m.items[0].number
    right = _family_keys(titled).get("section")
    cited = index.resolve("section", number)
    if right is None or right == number or cited == titled.id or titled.id == u.id:
        return None
    it = m.items[0]
    return make_finding("stale_reference", "warning", [Place(u.id, it.start, it.end, u.text[it.start:it.end], right)],
                        f"'{u.text[m.start:m.end]}' is followed by the title of section {right}, "
                        f"'{_title_of(titled)}'", evidence=u.text[m.start:m.end].strip(), related=[titled.id])


def _ancestors(doc: Document, u: Unit) -> list[Unit]:
    out = []
    seen = set()
    while u.parent and u.parent not in seen:
        seen.add(u.parent)
        try:
            u = doc.unit(u.parent)
        except Exception:
            break
        out.append(u)
    return out


class _Captions:
    """The document's captions of one family with their titles' distinctive words."""

    def __init__(self, doc: Document, index: LabelIndex) -> None:
        self.doc = doc
        self.by_key: dict[tuple[str, str], Unit] = {}
        self.key_of: dict[str, tuple[str, str]] = {}
        self.words: dict[str, set[str]] = {}
        for (family, number), ids in index.entries.items():
            if family in _CAPTIONED and ids:
                unit = doc.unit(ids[0])
                if unit.kind in ("figure", "table") and not unit.text.strip():
                    continue
                self.by_key[(family, number)] = unit
                self.key_of.setdefault(unit.id, (family, number))
        counts: Counter[str] = Counter()
        for key, unit in self.by_key.items():
            ws = self._title_words(unit)
            self.words[unit.id] = ws
            counts.update(ws)
        n = len(self.by_key)
        limit = max(2, n // 4)
        self.common = {w for w, c in counts.items() if c > limit}

    @staticmethod
    def _title_words(unit: Unit) -> set[str]:
        text = unit.text
        m = re.match(r"^\s*\S+\s*[\w.\-]+\s*[:.\-\u2010-\u2015\uff0d]?\s*", text)
        title = text[m.end():] if m else text
        return {w for w in _words.words(title.lower()) if len(w) >= 3 and not w.isdigit()}

    def score(self, unit: Unit, context: set[str]) -> int:
        return len((self.words.get(unit.id, set()) - self.common) & context)


def _passage_figure(doc: Document, u: Unit, m: Mention, caps: _Captions) -> Finding | None:
    """A typed figure or table number that names another figure than the one the passage speaks of."""
    if m.family not in _CAPTIONED:
        return None
    number = m.literal if m.literal and (m.family, m.literal) in caps.by_key else m.items[0].number
    if number != m.literal and len(m.items) != 1:
        return None
    cited = caps.by_key.get((m.family, number))
    if cited is None or cited.id == u.id:
        return None
    chain = _ancestors(doc, u)
    sections = [s for s in chain if s.kind == "section" and (s.level or 0) >= 2]
    scope = min(sections, key=lambda s: s.level or 0) if sections else None  # the part below the chapter
    if scope is None or scope.id in {a.id for a in _ancestors(doc, cited)}:
        return None  # the cited figure is in the passage's own section
    context = {w for w in _words.words(u.text.lower()) if len(w) >= 3}
    for s in chain:
        context |= set(_words.words(_title_of(s).lower()))
        if s is scope:
            break
    if caps.score(cited, context):
        return None
    own = [c for c in caps.by_key.values() if c.id not in (cited.id, u.id) and caps.key_of[c.id][0] == m.family
           and scope.id in {a.id for a in _ancestors(doc, c)}]
    scored = sorted(((caps.score(c, context), c) for c in own), key=lambda x: -x[0])
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    best = scored[0][1]
    right = caps.key_of[best.id][1]
    it_start, it_end = m.items[0].start, m.items[-1].end
    title = best.text.strip()
    return make_finding("stale_reference", "warning", [Place(u.id, it_start, it_end, u.text[it_start:it_end], right)],
                        f"'{m.text}' is '{cited.text.strip()[:80]}', in another section; this passage speaks of "
                        f"'{title[:80]}'", evidence=m.text, related=[cited.id, best.id])


def _titled_well(u: Unit, m: Mention, titles: dict[str, list[Unit]], index: LabelIndex) -> bool:
    """Whether a typed section number is followed by its own section's title."""
    raw = u.text[m.end:m.end + 160]
    if len(m.items) != 1 or not raw[:1].isspace():
        return False
    rest = _norm(raw)
    cited = index.resolve("section", m.items[0].number)
    return any((rest == t or rest.startswith(t + " ")) and any(x.id == cited for x in us) for t, us in titles.items())


def stale_references(doc: Document, index: LabelIndex) -> list[Finding]:
    """Links, fields and typed references whose number names another part than they mean.

    A typed number is judged by the title after it only in a document that cites so: where the
    typed references followed by their own section's title are at least as many as those
    followed by another's (a sentence that goes on after "Section 16 Transport parameters
    have..." is no title).
    """
    out: list[Finding] = []
    titled: list[Finding] = []
    well = 0
    titles = _section_titles(doc)
    caps: _Captions | None = None
    for u in doc.units:
        if is_navigation(u) or u.kind == "section":
            continue
        if u.fields:
            out.extend(_link_places(doc, u))
        mentions = find_mentions(u.text)
        if not mentions:
            continue
        covered = [(f.start, f.end) for f in u.fields if f.end > f.start]
        for m in mentions:
            if any(a < m.end and m.start < b for a, b in covered):
                continue  # a link or field: its target decides (above)
            f = _typed_titled(doc, index, u, m, titles, covered)
            if f is not None:
                titled.append(f)
                continue
            if m.family == "section" and titled is not None and _titled_well(u, m, titles, index):
                well += 1
            if m.family in _CAPTIONED:
                caps = caps or _Captions(doc, index)
                f = _passage_figure(doc, u, m, caps)
                if f is not None:
                    out.append(f)
    if titled and well >= len(titled):
        out.extend(titled)
    return _merged(out)


def _merged(findings: list[Finding]) -> list[Finding]:
    """One finding per unit and evidence: a table that links "C.6 Gateway Advertisement" four
    times has one stale link text, in four places."""
    groups: dict[tuple[str | None, str, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.unit, f.evidence, f.message), []).append(f)
    out = []
    for (_u, _e, message), fs in groups.items():
        if len(fs) == 1:
            out.append(fs[0])
            continue
        places = [p for f in fs for p in f.places]
        related = [r for f in fs for r in f.related]
        out.append(make_finding("stale_reference", "warning", places, message, evidence=fs[0].evidence,
                                related=related))
    return out
