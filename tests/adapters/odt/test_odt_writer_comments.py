"""The ODT writer's comments: office:annotation ... office:annotation-end around each edit's change."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from adapters import read
from adapters.model import Note, Replace
from adapters.odt.odfxml import qn
from adapters.odt.writer import write
from tests.conftest import CORPUS

TEXT = CORPUS / "odfdo/base_md_text.odt"
AUTHOR, DATE = "Ada Lovelace", "2026-12-01T09:00:00Z"
ANN, END = qn("office:annotation"), qn("office:annotation-end")


def _need(path: Path) -> bytes:
    if not path.exists():
        pytest.skip(f"corpus file {path} is not here")
    return path.read_bytes()


def _content(data: bytes):
    return etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read("content.xml"))


def _renames(doc, old: str, new: str, n: int):
    out = []
    for u in doc.units:
        if old in u.text and len(out) < n:
            i = u.text.index(old)
            out.append(Replace(u.id, text=new, start=i, end=i + len(old), before=u.text,
                            id=f"op-{len(out) + 1}", author=AUTHOR, date=DATE))
    return out


def test_one_annotation_per_note_around_the_change_markers():
    data = _need(TEXT)
    doc = read(data)
    edits = _renames(doc, "paragraph", "passage", 3)
    notes = [Note(f"c-{e.id}", f"'paragraph' → 'passage' ({e.id})", AUTHOR, date=DATE, edit=e.id) for e in edits]
    out = write(data, edits, document=doc, notes=notes)
    root = _content(out)
    anns = list(root.iter(ANN))
    assert [a.findtext(qn("dc:creator")) for a in anns] == [AUTHOR] * 3
    assert {a.findtext(qn("meta:creator-initials")) for a in anns} == {"LEDGER"}
    assert sorted("".join(a.find(qn("text:p")).itertext()) for a in anns) == sorted(n.text for n in notes)
    for a in anns:
        name = a.get(qn("office:name"))
        end = next(e for e in root.iter(END) if e.get(qn("office:name")) == name)
        assert a.getparent() is end.getparent()  # one paragraph: the range is the changed words
        between = []
        node = a.getnext()
        while node is not end:
            between.append(node.tag)
            node = node.getnext()
        assert qn("text:change") in between and qn("text:change-start") in between and qn("text:change-end") in between
    back = read(out)
    assert [c.anchor_text for c in back.comments] == ["passage"] * 3
    plain = read(write(data, edits, document=doc))
    assert back.lines("accepted") == plain.lines("accepted")
    assert back.lines("rejected") == doc.lines("accepted")


def test_a_finding_note_wraps_its_evidence():
    data = _need(TEXT)
    doc = read(data)
    unit = next(u for u in doc.units if "second paragraph" in u.text)
    out = write(data, [], document=doc, notes=[Note("c-f", "To check: this", AUTHOR, unit=unit.id, start=12,
                                                    evidence="second")])
    back = read(out)
    assert [(c.text, c.anchor_text) for c in back.comments] == [("To check: this", "second")]
    assert back.lines() == doc.lines()


def test_existing_annotations_stay(tmp_path):
    data = _need(TEXT)
    doc = read(data)
    first = write(data, _renames(doc, "paragraph", "passage", 1), document=doc,
                  notes=[Note("c-op-1", "first review", AUTHOR, edit="op-1")])
    doc2 = read(first)
    target = next(u for u in doc2.units if "last paragraph" in u.text)
    i = target.text.index("last")
    again = write(first, [Replace(target.id, text="final", start=i, end=i + 4, before=target.text, id="op-1",
                               author="Grace Hopper", date=DATE)],
                  document=doc2, notes=[Note("c-op-1", "second review", "Grace Hopper", edit="op-1")])
    old = [etree.tostring(a) for a in _content(first).iter(ANN)]
    new = [etree.tostring(a) for a in _content(again).iter(ANN)]
    assert set(old) <= set(new) and len(new) == len(old) + 1
