"""Verification after an edit: what the edited document must still satisfy.

:func:`verify` compares a document before and after a set of edits (the neutral result of
``apply_to_document``) and reports:

- **reference integrity** — every mention and reference field of the edited document resolves;
  a mention that survived the edit still points at the same thing (not, after renumbering, at its
  neighbour); no reference points at a deleted unit; every typed or cached number equals the
  unit's place in its sequence, so each sequence reads 1, 2, 3 without gaps;
- **terminology** — after a rename, every form of the old term left anywhere (plural, case,
  hyphenated, closed, inside a name: :class:`~addin_backend.edits.terms.TermMatcher`): an
  ``old_term`` finding (an error in a unit that depends on the renamed definition), or, where
  the rename keeps it on purpose (code, a quotation, a name of its own), an ``old_term_kept``
  note saying why, with every place; an acronym whose written expansion no longer fits;
- **semantic drift** — the MiniLM cosine of each edited unit to its DEPENDS and RELATED
  neighbours, before and after; a drop of :data:`DRIFT_THRESHOLD` or more is flagged.

No findings is the clean bill.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

import networkx as nx

from adapters.model import Document, Edit, Replace, SetText, Unit

from .anaphora import dangling_anaphora
from ..edits.intents import Rename, definers_of, definition_users, edit_ids, norm_term, renames
from ..edits.renaming import expansion_findings, term_places, term_usage
from ..edits.terms import find_term, term_matcher
from ..findings import Finding, Place
from ..graph.term_index import term_definers
from ..language.detect import unit_language
from ..graph.edges import DEPENDS, RELATED
from ..graph.label_index import LabelIndex, build_label_index, numbers_sections, parse_label
from ..graph.mentions import Resolved, resolve_unit
from ..numbering import Renumbering, label_of, number_span, renumber, shown_entry, shown_number

__all__ = ["DRIFT_THRESHOLD", "DRIFT_FLOOR", "Finding", "after_index", "relabel", "semantic_drift", "unreported_forms",
           "verify"]

#: A drop in cosine similarity (MiniLM) between an edited unit and a DEPENDS/RELATED neighbour
#: that counts as semantic drift. Measured with ``python -m benchmarks.calibrate_drift`` (synthetic
#: 10k + 25k documents, 678 benign and 406 drifting (unit, neighbour) pairs): consistent edits
#: (a term renamed, a value changed, an on-topic sentence added, a sentence deleted) drop the
#: cosine by 0.035 at the 90th percentile and 0.114 at the 99th; rewriting the unit into another
#: section's paragraph drops it by 0.22 at the median. 0.12 sits just above the benign 99th
#: percentile: it flags 1.0% of benign pairs and catches 74% of drifting ones (0.15: 0.9% / 66%;
#: 0.10: 2.1% / 77%).
DRIFT_THRESHOLD = 0.12
#: Pairs that were barely similar before the edit (cosine below this) cannot drift meaningfully.
DRIFT_FLOOR = 0.2

_NOT_REFERENCE_FIELDS = ("hyperlink", "pageref", "noteref", "note_ref")
#: Texts -> an (n, d) array of unit vectors (``nlp.embed_texts``).
Embed = Callable[[Sequence[str]], Any]


def relabel(after: Document, renum: Renumbering) -> Document:
    """A copy of ``after`` whose labels and numbers are those the edit gives its units."""
    out = after.copy()
    for u in out.units:
        got = renum.numbers.get(u.id)
        if got is None:
            if renum.entry_of_unit(u.id) is not None:
                u.label = u.number = None  # its number went with a deleted caption
            continue
        fam, num = got
        entry = renum.entry_of_unit(u.id)
        u.label, u.number = label_of(fam, num, entry.word if entry is not None else None), num
    return out


def after_index(relabelled: Document, renum: Renumbering) -> LabelIndex:
    """The labels of the edited document: numbered units answer only to their new number (a
    stale typed "Figure 2" in a caption that is now Figure 1 must not keep "Fig. 2" resolving)."""
    numbered = {u.id for u in relabelled.units if u.id in renum.numbers or renum.entry_of_unit(u.id)}
    idx = build_label_index(u for u in relabelled.units if u.id not in numbered)
    # what the whole document says of itself: its headings still carry numbers, its "§" is its own
    own = build_label_index(u for u in relabelled.units if u.id in numbered)
    # decided over the whole document: the few renumbered headings alone would say it numbers
    # its sections where most of its headings carry no number (STIX: 4 typed numbers of 300)
    (h, n, c), (h2, n2, c2) = idx.heading_counts, own.heading_counts
    idx.heading_counts = (h + h2, n + n2, c + c2)
    idx.numbered_sections = numbers_sections(idx.heading_counts)
    idx.section_sign = idx.section_sign or own.section_sign
    idx.chapter_families = idx.chapter_families | own.chapter_families
    rank = {"figure": 0, "table": 0, "equation": 0, "section": 0, "caption": 1}
    found: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
    for u in relabelled.units:
        if u.id in renum.numbers:
            found.setdefault(renum.numbers[u.id], []).append((rank.get(u.kind, 2), u.order, u.id))
    for key, lst in found.items():
        idx.entries[key] = [uid for *_, uid in sorted(lst)] + idx.entries.get(key, [])
    return idx


# --- offsets ---------------------------------------------------------------------------------


def _unchanged(before_len: int, edits: list[Replace | SetText]) -> list[tuple[int, int, int]] | None:
    """``(after start, after end, before start)`` of the stretches of a unit no edit touched."""
    spans: list[Replace] = []
    for e in edits:
        if e.op == "set_text":
            return None
        spans.append(e)
    segs = []
    pos_b = pos_a = 0
    for r in sorted(spans, key=lambda r: (r.start, r.end)):
        segs.append((pos_a, pos_a + r.start - pos_b, pos_b))
        pos_a += r.start - pos_b + len(r.text)
        pos_b = r.end
    segs.append((pos_a, pos_a + before_len - pos_b, pos_b))
    return segs


def _intended(before_len: int, edits: list[Replace | SetText]) -> list[tuple[int, int]]:
    """``(after start, after end)`` of the text that the unit's own edits wrote (an instruction's,
    a fix's; not a propagated edit's): a mention whose number lies there names what the edit
    asked for (a ``stale_reference`` fix turning "Figure 3-6" into "Figure 3-3" retargets it on
    purpose), while propagation must keep every mention on its target."""
    out: list[tuple[int, int]] = []
    pos_b = pos_a = 0
    for r in sorted((e for e in edits if isinstance(e, Replace)), key=lambda r: (r.start, r.end)):
        pos_a += r.start - pos_b
        if not (r.id or "").startswith("prop-"):
            out.append((pos_a, pos_a + len(r.text)))
        pos_a += len(r.text)
        pos_b = r.end
    return out


def _back(segs: list[tuple[int, int, int]] | None, start: int, end: int) -> int | None:
    """The before-offset of an after-span that lies in an untouched stretch."""
    for a0, a1, b0 in segs or ():
        if a0 <= start and end <= a1:
            return b0 + start - a0
    return None


# --- reference integrity ---------------------------------------------------------------------


def _entity(renum: Renumbering, unit_id: str) -> str:
    e = renum.entry_of_unit(unit_id)
    return e.carrier if e is not None else unit_id


def _by_mention(resolved: list[Resolved]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for r in resolved:
        out.setdefault(r.mention.start, []).append(r.target)
    return out


def _references(before: Document, after: Document, renum: Renumbering, edits_by_unit: dict[str, list[Replace | SetText]],
                idx_before: LabelIndex, idx_after: LabelIndex) -> list[Finding]:
    out: list[Finding] = []
    alive = {u.id for u in after.units}
    deleted_entities = {e.carrier: e for e in renum.deleted.values()}
    for u in after.units:
        old = before.get(u.id)
        res_after, broken_after = resolve_unit(u, idx_after)
        if old is None:
            res_before: list[Resolved] = []
            broken_before: set[str] = set()
            segs = None
        else:
            res_before, bb = resolve_unit(old, idx_before)
            broken_before = {b.label for b in bb}
            segs = _unchanged(len(old.text), edits_by_unit.get(u.id, []))
        asked = _intended(len(old.text), edits_by_unit.get(u.id, [])) if old is not None and segs else []
        for b in broken_after:
            if b.label in broken_before:
                continue
            key = parse_label(b.label)
            moved = renum.changes.get(key) if key else None
            renamed = renum.label(key[0], moved, key[1]) if key and moved else None
            tail = f" (the former {b.label} is now {renamed})" if renamed else ""
            out.append(Finding("broken_reference", "error", u.id, f"'{b.mention}' names {b.label}, which no unit "
                               f"carries after the edit{tail}", b.mention, [], b.start, b.end, renamed))
        before_targets = _by_mention(res_before)
        after_targets = _by_mention(res_after)
        for start, targets in after_targets.items():
            r = next(x for x in res_after if x.mention.start == start)
            at = _back(segs, start, start + len(r.mention.word or r.mention.text))
            if at is None or at not in before_targets:
                continue
            if any(a < r.mention.end and r.mention.start < b for a, b in asked):
                continue  # the edit itself wrote this mention's new number
            was = {_entity(renum, t) for t in before_targets[at]}
            wrong = [t for t in targets if _entity(renum, t) not in was]
            # a deleted target's number now naming its successor is reported as reference_to_deleted
            if wrong and len(wrong) > len(was & set(deleted_entities)):
                out.append(Finding(
                    "reference_retargeted", "error", u.id,
                    f"'{r.mention.text}' pointed at {', '.join(_labels(before, sorted(was)))} before the edit and "
                    f"now reads as a reference to {_now(before, after, wrong[0])}",
                    r.mention.text, sorted(was | set(wrong)), r.mention.start, r.mention.end,
                ))
        for r in res_before:
            ent = _entity(renum, r.target)
            if ent not in deleted_entities or segs is None:
                continue
            m = r.mention
            for a0, a1, b0 in segs:  # the mention is still there when its word survived the edit
                if b0 <= m.start and m.start + len(m.word or m.text) <= b0 + a1 - a0:
                    start = a0 + m.start - b0
                    now = [t for t in after_targets.get(start, []) if t not in deleted_entities]
                    single = len(m.items) == 1
                    tail = f"; it now reads as a reference to {_now(before, after, now[0])}" if now and single else ""
                    out.append(Finding(
                        "reference_to_deleted", "error", u.id,
                        f"'{m.text}' refers to {deleted_entities[ent].label}, which the edit deletes{tail}",
                        m.text, sorted(deleted_entities[ent].units), start, start + len(m.text),
                    ))
                    break
        out.extend(_field_findings(u, before, renum, alive))
    gone = [(f.unit, f.start or 0, f.end or 0) for f in out if f.kind == "reference_to_deleted"]
    out = [f for f in out if f.kind != "broken_reference" or not any(
        uid == f.unit and s < (f.end or 0) and (f.start or 0) < e for uid, s, e in gone)]
    return _dedupe(out)


def _now(before: Document, after: Document, uid: str) -> str:
    """A target as the edited document labels it, with its label before the edit."""
    new, old = after.get(uid), before.get(uid)
    new_label = new.label if new is not None and new.label else uid
    if old is not None and old.label and old.label != new_label:
        return f"{new_label} (formerly {old.label})"
    return new_label


def _labels(doc: Document, ids: Iterable[str]) -> list[str]:
    return [_label(doc, i) for i in ids]


def _label(doc: Document, uid: str) -> str:
    unit = doc.get(uid)
    return unit.label if unit is not None and unit.label else uid



def _unit_words(u: Unit | None) -> str:
    """A unit as a reader names it: its label, else its kind and first words (never its id)."""
    if u is None:
        return "a unit"
    if u.label:
        return u.label
    words = u.text.split()
    return f"the {u.kind.replace('_', ' ')} '{' '.join(words[:6])}{'…' if len(words) > 6 else ''}'"

def _field_findings(u: Unit, before: Document, renum: Renumbering, alive: set[str]) -> list[Finding]:
    out = []
    for f in u.fields:
        if not f.is_reference or f.kind in _NOT_REFERENCE_FIELDS or not f.target_unit:
            continue
        shown = u.text[f.start : f.end] or f.result
        entry = renum.entry_of_unit(f.target_unit)
        if f.target_unit not in alive or (entry is not None and entry.key in renum.deleted):
            related = sorted(entry.units) if entry is not None else [f.target_unit]
            what = entry.label if entry is not None else _unit_words(before.get(f.target_unit))
            out.append(Finding("reference_to_deleted", "error", u.id,
                               f"the {f.kind} field '{shown}' points at {what}, which the edit deletes",
                               shown, related, f.start, f.end))
            continue
        entry = shown_entry(f, before, renum)  # a chapter, a page... (Field.shows)
        if entry is None or entry.number is None:
            continue
        new = renum.new_number(entry.family, entry.number)
        if new is not None and new != entry.number and number_span(u.text, f.start, f.end, entry.number) \
                and not number_span(u.text, f.start, f.end, new):
            out.append(Finding("stale_field", "warning", u.id,
                               f"the {f.kind} field shows '{shown}' but its target is now {label_of(entry.family, new, entry.word)}",
                               shown, [f.target_unit], f.start, f.end, label_of(entry.family, new, entry.word)))
    return out


def _numbering(before: Document, after: Document, renum: Renumbering) -> list[Finding]:
    """Typed or cached numbers that differ from the unit's place in its sequence, where they
    agreed before the edit (a heading that merely starts with "2020" is not a number)."""
    out = []
    for e in renum.after:
        if e.number is None:
            continue
        for uid in e.units:
            unit = after.get(uid)
            shown = shown_number(unit) if unit is not None else None
            if unit is None or shown is None or shown[0] == e.number:
                continue
            old, was = before.get(uid), renum.entry_of_unit(uid)
            if old is not None and was is not None and (shown_number(old) or ("",))[0] != was.number:
                continue
            out.append(Finding(
                "numbering_mismatch", "warning", uid,
                f"reads {label_of(e.family, shown[0], e.word)} but is {e.label} in document order",
                unit.text[shown[1] : shown[2]], [], shown[1], shown[2], e.number,
            ))
    return out


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple] = set()
    out = []
    for f in findings:
        key = (f.kind, f.unit, f.start, f.end)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


# --- terminology -----------------------------------------------------------------------------


def _terminology(before: Document, after: Document, G: nx.MultiDiGraph | None, edits: list[Edit],
                 names: str = "auto") -> tuple[list[Finding], set[str]]:
    """The terminology findings, and the ids of the edits that make up renames."""
    defined = term_definers(before)  # (the index a kept graph brings: no registry built)
    out: list[Finding] = []
    renaming: set[str] = set()
    for r in renames(before, edits, edit_ids(edits), defined=list(defined)):
        out.extend(_old_term(before, after, G, r, defined, names))
        renaming.update(r.edits)
    return out, renaming


def _old_term(before: Document, after: Document, G: nx.MultiDiGraph | None, r: Rename, defined: dict[str, list[str]],
              names: str = "auto") -> list[Finding]:
    definers = definers_of(defined, r.old)
    renamed_definition = any(d in r.units for d in definers)
    dependents = set(definition_users(before, G, definers, {norm_term(r.old)})) if renamed_definition else set()
    out = []
    kept: dict[str, list[Place]] = {}
    usage = term_usage(before, r.old, r.new)  # the document's own usage decides what is a name
    new_spans: dict[str, list[tuple[int, int]]] = {}
    for place in term_places(after, r.old, r.new, usage=usage, names=names):
        u, o = place.unit, place.occ
        start, end = o.start, o.end
        if u.id not in new_spans:
            new_spans[u.id] = [(s, e) for s, e, _ in find_term(u.text, r.new, r.old, lang=unit_language(u, after))]
        if any(a <= start and end <= b for a, b in new_spans[u.id]):
            continue  # part of the new term ("widget" inside "smart widget")
        if any(f.kind != "hyperlink" and f.end > f.start and f.start < end and start < f.end for f in u.fields):
            continue  # a field's cached result: the application regenerates it
        if place.kept is not None:
            kept.setdefault(place.kept, []).append(Place(u.id, start, end, o.text, o.replacement))
            continue
        if u.id in dependents or (renamed_definition and u.id in definers):
            sev, why = "error", f"it depends on the definition of '{r.old}', which is renamed to '{r.new}'"
        elif u.id in r.units:
            sev, why = "warning", f"the rest of this unit uses '{r.new}'"
        else:
            sev, why = "info", "outside the renamed units"
        out.append(Finding("old_term", sev, u.id, f"'{o.text}' is left after renaming '{r.old}' to "
                           f"'{r.new}' ({why})", o.text, sorted(set(r.units))[:10], start, end, o.replacement))
    for why, places in kept.items():
        first = places[0]
        out.append(Finding(
            "old_term_kept", "info", first.unit,
            f"'{first.text}' is kept after renaming '{r.old}' to '{r.new}' in {len(places)} place(s): {why}",
            first.text, sorted({p.unit for p in places})[:10], first.start, first.end, first.replacement, places=places,
        ))
    out.extend(expansion_findings(after, r.old, r.new))
    return out


def unreported_forms(after: Document, old: str, new: str, findings: Iterable[Finding]) -> list[tuple[str, int, int, str]]:
    """The forms of ``old`` left in ``after`` that no finding reports (``old_term`` or
    ``old_term_kept``, by its span or one of its places): ``(unit, start, end, text)``, each
    unit read in its language's forms (:mod:`addin_backend.language.forms`, as the rename
    found them). Empty is what verification promises after a rename; the edit battery checks it."""
    covered: dict[str, list[tuple[int, int]]] = {}
    for f in findings:
        if f.kind not in ("old_term", "old_term_kept"):
            continue
        if f.unit is not None and f.start is not None and f.end is not None:
            covered.setdefault(f.unit, []).append((f.start, f.end))
        for p in f.places:
            covered.setdefault(p.unit, []).append((p.start, p.end))
    out = []
    for u in after.units:
        if u.meta.get("absent_in") == "accepted":
            continue
        lang = unit_language(u, after)
        new_spans = [(s, e) for s, e, _ in find_term(u.text, new, old, lang=lang)]
        for o in term_matcher(old, new, lang=lang).find(u.text):
            if o.replacement == o.text or any(a <= o.start and o.end <= b for a, b in new_spans):
                continue
            if any(f.kind != "hyperlink" and f.end > f.start and f.start < o.end and o.start < f.end for f in u.fields):
                continue
            if not any(a <= o.start and o.end <= b for a, b in covered.get(u.id, ())):
                out.append((u.id, o.start, o.end, o.text))
    return out


# --- semantic drift --------------------------------------------------------------------------


def _neighbours(G: nx.MultiDiGraph, uid: str) -> list[tuple[str, str]]:
    out: dict[str, str] = {}
    if uid not in G:
        return []
    for _, v, k in G.out_edges(uid, keys=True):
        if k in (DEPENDS, RELATED):
            out.setdefault(v, k)
    for v, _, k in G.in_edges(uid, keys=True):
        if k in (DEPENDS, RELATED):
            out.setdefault(v, k)
    return list(out.items())


def semantic_drift(before: Document, after: Document, G: nx.MultiDiGraph, edited: Iterable[str], *,
                   embed: Embed | None = None, threshold: float = DRIFT_THRESHOLD) -> list[Finding]:
    """Edited units whose cosine to a DEPENDS/RELATED neighbour drops by ``threshold`` or more."""
    pairs: list[tuple[str, str, str]] = []
    for uid in edited:
        if after.get(uid) is None or before.get(uid) is None:
            continue
        for v, kind in _neighbours(G, uid):
            if after.get(v) is not None and before.get(v) is not None and before.unit(v).text.strip():
                pairs.append((uid, v, kind))
    if not pairs:
        return []
    if embed is None:
        from ..language.nlp import embed_texts

        embed = embed_texts
    texts = sorted({before.unit(x).text for p in pairs for x in p[:2]} | {after.unit(x).text for p in pairs for x in p[:2]})
    vecs = embed(texts)
    row = {t: vecs[i] for i, t in enumerate(texts)}
    worst: dict[str, tuple[float, float, float, str, str]] = {}
    flagged: dict[str, list[str]] = {}
    for uid, v, kind in pairs:
        cb = float(row[before.unit(uid).text] @ row[before.unit(v).text])
        ca = float(row[after.unit(uid).text] @ row[after.unit(v).text])
        drop = cb - ca
        if cb >= DRIFT_FLOOR and drop >= threshold:
            flagged.setdefault(uid, []).append(v)
            if uid not in worst or drop > worst[uid][0]:
                worst[uid] = (drop, cb, ca, v, kind)
    out = []
    for uid, (drop, cb, ca, v, kind) in worst.items():
        label = after.unit(v).label or v
        out.append(Finding(
            "semantic_drift", "warning", uid,
            f"the edited text moved away from {label} ({kind}): cosine {cb:.2f} -> {ca:.2f} (drop {drop:.2f} "
            f">= {threshold:.2f}); check that what depends on it still holds",
            after.unit(uid).text[:80], flagged[uid],
        ))
    return out


# --- entry point -----------------------------------------------------------------------------


def verify(before_doc: Document, after_doc: Document, G_before: nx.MultiDiGraph | None, edits: Iterable[Edit], *,
           semantic: bool = True, embed: Embed | None = None, names: str = "auto") -> list[Finding]:
    """Findings about ``after_doc``, the neutral result of ``edits`` (concrete) on ``before_doc``.

    ``G_before`` is the graph of ``before_doc`` (DEPENDS/RELATED neighbours for the drift check
    and the users of a renamed definition); ``semantic=False`` skips the embedding check.
    ``names`` is the renames' choice for a term inside a name of its own (``renaming.NAME_POLICIES``):
    what it kept is an ``old_term_kept`` note, what it should have renamed an ``old_term``.
    An empty list is the clean bill.
    """
    edits = list(edits)
    renum = renumber(before_doc, after_doc)
    relabelled = relabel(after_doc, renum)
    by_unit: dict[str, list[Replace | SetText]] = {}
    for e in edits:
        if isinstance(e, (Replace, SetText)):
            by_unit.setdefault(e.unit, []).append(e)
    findings = _references(before_doc, relabelled, renum, by_unit, build_label_index(before_doc.units),
                           after_index(relabelled, renum))
    findings += _numbering(before_doc, after_doc, renum)
    terms, renaming = _terminology(before_doc, after_doc, G_before, edits, names)
    findings += terms
    deleted = [e.unit for e in edits if e.op == "delete" and e.unit]
    findings += dangling_anaphora(before_doc, after_doc, G_before, [*by_unit, *deleted])
    if semantic and G_before is not None:
        # the instruction's own edits are checked, not propagation's (a unit that only propagation
        # changed is never checked, nor is what propagation adds to an edited unit: a listing's copy
        # of a statement renamed elsewhere); and a unit whose own edits only rename a term does not
        # move in meaning (a term swap drops the cosine by 0.035 at the 90th percentile, see
        # DRIFT_THRESHOLD): the embeddings, before and after, were most of a rename's verification,
        # and a cold rename loaded the embedding model for them alone
        ids = dict(zip(map(id, edits), edit_ids(edits)))
        originals = [uid for uid, lst in by_unit.items()
                     if any(ids[id(e)] not in renaming for e in lst if not (e.id or "").startswith("prop-"))]
        findings += semantic_drift(before_doc, after_doc, G_before, originals, embed=embed)
    return findings
