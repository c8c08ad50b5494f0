"""Defects seeded into copies of a wild document, each at a known paragraph, for the checks to find.

- ``missing_bookmark``: one internal link from body text now names a bookmark nothing carries;
- ``wrong_target``: one internal link whose text names its target heading now points at another;
- ``stale_figure``: a figure (or table) cited by its typed number in prose now carries another
  number in its caption, and the prose still cites the old one;
- ``series_gap``: a typed series (captions "Figure 2-1 … 2-5", else typed headings "3.17.1 …")
  skips a number: from its middle member on, every number is one higher.

Links are changed in the package attribute or field instruction that names them (both formats);
typed numbers in the text of a .docx paragraph (a .odt copy gets the link seeds only). Every other
byte of the package stays. Each seed says which paragraphs a finding must be about.
"""
from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from adapters.docx.oxml import NSMAP as W_NS

from .links import Links, extract

__all__ = ["Seed", "seed_all", "SEEDS"]

SEEDS = ("missing_bookmark", "wrong_target", "stale_figure", "series_gap")

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, remove_blank_text=False)
_W_P, _W_T = f"{{{W_NS['w']}}}p", f"{{{W_NS['w']}}}t"
_CAPTION = re.compile(r"^\s*(Figure|Table)\s+(\d+(?:[-.\u2011]\d+)*)")
_HEADING_NUM = re.compile(r"^\s*(\d+(?:\.\d+)+)\s")


@dataclass
class Seed:
    """A seeded copy: what was seeded, where (``paragraphs``: the texts, after seeding, of the
    paragraphs a finding must be about), and how."""

    kind: str
    path: str
    paragraphs: list[str] = field(default_factory=list)
    what: str = ""


def _write(src: Path, dst: Path, part: str, data: bytes) -> None:
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as b:
        for info in a.infolist():
            b.writestr(info, data if info.filename == part else a.read(info.filename))


def _nth(data: str, needle: str, n: int) -> int:
    pos = -1
    for _ in range(n + 1):
        pos = data.find(needle, pos + 1)
        if pos < 0:
            return -1
    return pos


def _name_spelled(link_kind: str, name: str, docx: bool) -> list[str]:
    """How the package spells a link's target name (what the seed rewrites)."""
    if docx:
        return [f'w:anchor="{name}"'] if link_kind == "hyperlink" else [f"{link_kind} {name}", f'{link_kind} "{name}"']
    return [f'xlink:href="#{name}"'] if link_kind == "a" else [f'text:ref-name="{name}"']


def _relink(src: Path, dst: Path, links: Links, index: int, new_name: str) -> bool:
    """Copy ``src`` to ``dst`` with link number ``index`` naming ``new_name``."""
    ln = links.links[index]
    part = links.paragraphs[ln.source].part
    docx = part.startswith("word/")
    with zipfile.ZipFile(src) as z:
        data = z.read(part).decode("utf-8")
    # the link is the n-th of its kind and name in its part, in document order
    n = sum(1 for k in links.links[:index] if k.kind == ln.kind and k.name == ln.name
            and links.paragraphs[k.source].part == part)
    for spelled in _name_spelled(ln.kind, ln.name, docx):
        pos = _nth(data, spelled, n)
        if pos >= 0:
            new = spelled.replace(ln.name, new_name)
            _write(src, dst, part, (data[:pos] + new + data[pos + len(spelled):]).encode("utf-8"))
            return True
    return False


def _body_links(links: Links) -> list[int]:
    heads = {i for _ln, i in links.resolved()}
    return [i for i, ln in enumerate(links.links)
            if links.paragraphs[ln.source].where == "body" and links.target(ln) in heads and ln.space == "bookmark"
            and links.target(ln) != ln.source]


def _names_target(link_text: str, target_text: str) -> bool:
    """Whether a link's text names its target: the heading's number or its title."""
    t, h = " ".join(link_text.split()), " ".join(target_text.split())
    if len(t) < 3:
        return False
    num = re.match(r"\d+(?:\.\d+)+|[A-Z]\.\d+(?:\.\d+)*", h)
    cites = re.search(r"\b(?:Section|Clause|Appendix|Annex|§)\s*[A-Z]?\d*(?:\.\d+)*\b", t)  # a number only rendered
    return h.startswith(t) or t.startswith(h) or bool(num and num.group() in t.split()) or bool(cites)


def missing_bookmark(src: Path, out: Path, links: Links) -> Seed | None:
    cands = _body_links(links)
    if not cands:
        return None
    i = cands[len(cands) // 2]
    ln = links.links[i]
    dst = out / f"{src.stem}.missing_bookmark{src.suffix}"
    if not _relink(src, dst, links, i, ln.name + "_gone"):
        return None
    return Seed("missing_bookmark", str(dst), [links.paragraphs[ln.source].text],
                f"link '{ln.text[:40]}' to {ln.name} -> {ln.name}_gone")


def wrong_target(src: Path, out: Path, links: Links) -> Seed | None:
    named = [i for i in _body_links(links)
             if _names_target(links.links[i].text, links.paragraphs[links.target(links.links[i]) or 0].text)]
    if not named:
        return None
    i = named[len(named) // 2]
    ln = links.links[i]
    here = links.target(ln)
    # another target that some link (a table of contents' too) names
    others = [k for k, o in enumerate(links.links) if o.space == "bookmark" and links.target(o) not in (None, here)
              and o.name != ln.name]
    if not others:
        return None
    other = links.links[next((k for k in others if k > i), others[0])]
    dst = out / f"{src.stem}.wrong_target{src.suffix}"
    if not _relink(src, dst, links, i, other.name):
        return None
    return Seed("wrong_target", str(dst), [links.paragraphs[ln.source].text],
                f"link '{ln.text[:40]}' now points at '{links.paragraphs[links.target(other) or 0].text[:40]}'")


# --- typed numbers in the text of a .docx -----------------------------------------------------

def _retype(src: Path, dst: Path, changes: dict[int, tuple[str, str]]) -> list[str]:
    """Copy ``src`` with the document.xml paragraphs ``{index: (old, new)}`` changed (the first
    ``old`` in the paragraph's text becomes ``new``); the paragraphs' new texts."""
    with zipfile.ZipFile(src) as z:
        root = etree.fromstring(z.read("word/document.xml"), _PARSER)
    paras = list(root.iter(_W_P))
    texts = []
    for index, (old, new) in changes.items():
        ts = [t for t in paras[index].iter(_W_T)]
        joined = "".join(t.text or "" for t in ts)
        at = joined.find(old)
        if at < 0:
            raise ValueError(f"paragraph {index} has no {old!r}")
        pos = 0
        for t in ts:  # the change goes into the w:t where ``old`` starts; the rest of it leaves its w:t
            s = t.text or ""
            lo, hi = max(at, pos), min(at + len(old), pos + len(s))
            if lo < hi:
                head, tail = s[: lo - pos], s[hi - pos:]
                t.text = head + (new if lo == at else "") + tail
                t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            pos += len(s)
        texts.append("".join(t.text or "" for t in paras[index].iter(_W_T)))
    _write(src, dst, "word/document.xml", etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True))
    return texts


def _doc_paragraph_indexes(links: Links) -> list[int]:
    """The extractor's paragraph numbers of document.xml, in the order ``root.iter(w:p)`` gives."""
    return [p.index for p in links.paragraphs if p.part == "word/document.xml"]


def _captions(links: Links) -> list[tuple[int, str, str]]:
    out = []
    for p in links.paragraphs:
        m = _CAPTION.match(p.text) if p.where == "body" else None
        if m:
            out.append((p.index, m.group(1), m.group(2)))
    return out


def _bump(number: str) -> str:
    """The number one higher in its last part: "2-5" -> "2-6", "3.17.4" -> "3.17.5"."""
    m = re.match(r"^(.*?)(\d+)$", number)
    return f"{m.group(1)}{int(m.group(2)) + 1}" if m else number


def stale_figure(src: Path, out: Path, links: Links) -> Seed | None:
    if src.suffix != ".docx":
        return None
    caps = _captions(links)
    numbers = {(w, n) for _i, w, n in caps}
    body = [p for p in links.paragraphs if p.where == "body" and not _CAPTION.match(p.text)]
    for i, word, num in caps[len(caps) // 3:] + caps[: len(caps) // 3]:
        cite = re.compile(rf"\b{word}\s+{re.escape(num)}(?![\d.\-\u2011])")
        citing = [p for p in body if cite.search(p.text)]
        free = _bump(num)
        while (word, free) in numbers:
            free = _bump(free)
        if not citing:
            continue
        order = _doc_paragraph_indexes(links)
        dst = out / f"{src.stem}.stale_figure{src.suffix}"
        _retype(src, dst, {order.index(i): (f"{word} {num}" if f"{word} {num}" in links.paragraphs[i].text else num, f"{word} {free}")})
        return Seed("stale_figure", str(dst), [p.text for p in citing],
                    f"caption {word} {num} is now {word} {free}; {len(citing)} paragraph(s) still cite {word} {num}")
    return None


def series_gap(src: Path, out: Path, links: Links) -> Seed | None:
    if src.suffix != ".docx":
        return None
    order = _doc_paragraph_indexes(links)
    caps = _captions(links)
    # the longest run of captions numbered within one chapter ("2-1", "2-2", ...), else of typed sibling headings
    runs: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for i, word, num in caps:
        runs.setdefault((word, re.sub(r"\d+$", "", num)), []).append((i, num))
    if not runs:
        for p in links.paragraphs:
            m = _HEADING_NUM.match(p.text) if p.where == "body" else None
            if m:
                runs.setdefault(("", re.sub(r"\d+$", "", m.group(1))), []).append((p.index, m.group(1)))
    best = max(runs.values(), key=len, default=[])
    if len(best) < 3:
        return None
    k = len(best) // 2
    changes = {order.index(i): (num, _bump(num)) for i, num in reversed(best[k:])}
    dst = out / f"{src.stem}.series_gap{src.suffix}"
    texts = _retype(src, dst, changes)
    return Seed("series_gap", str(dst), [links.paragraphs[best[k - 1][0]].text] + texts,
                f"{best[k][1]} … {best[-1][1]} each one higher: {best[k][1]} is missing")


def seed_all(src: str | Path, out: str | Path) -> list[Seed]:
    """Every seed that ``src`` has the material for, written into ``out``."""
    src, out = Path(src), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    links = extract(src)
    made = []
    for make in (missing_bookmark, wrong_target, stale_figure, series_gap):
        s = make(src, out, links)
        if s is not None:
            made.append(s)
    return made
