"""The writer's XML element helpers."""
from __future__ import annotations

from lxml import etree

from adapters.docx.oxml import NSMAP, qn
from adapters.docx.revision_xml import (
    IdCounter,
    Stamp,
    escape_revision,
    insert_in_order,
    isolate,
    make_ins,
    mark_paragraph,
    mark_row,
    set_track_revisions,
    split_run,
    wrap_in_del,
    PPR_SEQ,
)

_W = NSMAP["w"]


def _el(xml: str):
    return etree.fromstring(f'<root xmlns:w="{_W}">{xml}</root>'.encode())[0]


def _s(el) -> str:
    """Compact rendering without namespaces: tag[text](children)."""
    name = el.tag.rpartition("}")[2]
    inner = "".join(_s(c) for c in el)
    text = f"'{el.text}'" if el.text else ""
    return f"{name}{text}({inner})" if inner else f"{name}{text}"


# --- element helpers ------------------------------------------------------------------------


def test_split_run_copies_the_run_properties_to_the_new_run():
    p = _el('<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>abcdef</w:t><w:tab/><w:t>gh</w:t></w:r></w:p>')
    r = p[0]
    right = split_run(r, r[1], 2)
    assert _s(p) == "p(r(rPr(b)t'ab')r(rPr(b)t'cdef'tabt'gh'))"
    assert right is p[1]
    assert split_run(r, r[1], 2) is None  # at the run's end: nothing to split
    split_run(right, right[2], 1)  # after the tab
    assert _s(p) == "p(r(rPr(b)t'ab')r(rPr(b)t'cdef'tab)r(rPr(b)t'gh'))"


def test_isolate_returns_the_run_holding_exactly_the_span_and_keeps_blanks_visible():
    p = _el('<w:p><w:r><w:t xml:space="preserve">one two three</w:t></w:r></w:p>')
    mid = isolate(p[0][0], 4, 7)
    assert _s(mid) == "r(t'two')" and [_s(r) for r in p] == ["r(t'one ')", "r(t'two')", "r(t' three')"]
    assert p[0][0].get(qn("xml:space")) == "preserve" and p[2][0].get(qn("xml:space")) == "preserve"
    q = _el('<w:p><w:r><w:t>  lead and trail  </w:t></w:r></w:p>')
    mid = isolate(q[0][0], 7, 10)  # raw offsets: "and"
    assert [r[0].text for r in q] == ["lead ", "and", " trail"]


def test_wrap_in_del_groups_adjacent_runs_and_turns_text_into_deleted_text():
    ids = IdCounter({4})
    stamp = Stamp("Ann", "2026-01-01T00:00:00Z", ids)
    p = _el('<w:p><w:r><w:t>a</w:t></w:r><w:r><w:instrText>x</w:instrText></w:r><w:bookmarkStart/><w:r><w:t>b</w:t></w:r></w:p>')
    wrappers = wrap_in_del([p[0], p[1], p[3]], stamp)
    assert _s(p) == "p(del(r(delText'a')r(delInstrText'x'))bookmarkStartdel(r(delText'b')))"
    assert [w.get(qn("w:id")) for w in wrappers] == ["5", "6"]
    assert wrappers[0].get(qn("w:author")) == "Ann" and wrappers[0].get(qn("w:date")) == "2026-01-01T00:00:00Z"


def test_an_insertion_inside_another_insertion_splits_it():
    stamp = Stamp("Bo", None, IdCounter({1}))
    p = _el('<w:p><w:ins w:id="1" w:author="Ann"><w:r><w:t>a</w:t></w:r><w:r><w:t>b</w:t></w:r></w:ins></w:p>')
    ours = make_ins("new", None, stamp)
    p[0][0].addnext(ours)
    escape_revision(ours, stamp)
    assert _s(p) == "p(ins(r(t'a'))ins(r(t'new'))ins(r(t'b')))"
    assert [i.get(qn("w:author")) for i in p] == ["Ann", "Bo", "Ann"]
    assert p[0].get(qn("w:id")) == "1" and p[2].get(qn("w:id")) not in ("1", p[1].get(qn("w:id")))


def test_paragraph_and_row_marks_go_in_schema_order():
    stamp = Stamp("Bo", None, IdCounter(set()))
    p = _el('<w:p><w:pPr><w:pStyle w:val="X"/><w:jc w:val="left"/><w:sectPr/></w:pPr></w:p>')
    mark_paragraph(p, qn("w:del"), stamp)
    assert _s(p) == "p(pPr(pStyle jc rPr(del) sectPr))".replace(" ", "")
    p2 = _el('<w:p><w:pPr><w:rPr><w:ins w:id="9"/><w:b/></w:rPr></w:pPr></w:p>')
    mark_paragraph(p2, qn("w:del"), stamp)
    assert _s(p2) == "p(pPr(rPr(insdelb)))"
    tr = _el('<w:tr><w:tblPrEx/><w:trPr><w:cantSplit/><w:trPrChange/></w:trPr><w:tc/></w:tr>')
    mark_row(tr, qn("w:ins"), stamp)
    assert _s(tr) == "tr(tblPrExtrPr(cantSplitinstrPrChange)tc)"
    bare = _el("<w:tr><w:tc/></w:tr>")
    mark_row(bare, qn("w:del"), stamp)
    assert _s(bare) == "tr(trPr(del)tc)"


def test_insert_in_order_puts_unknown_extension_children_last():
    ppr = _el('<w:pPr><w:jc/></w:pPr>')
    insert_in_order(ppr, etree.Element(qn("w:pStyle")), PPR_SEQ)
    insert_in_order(ppr, etree.Element(qn("w:pPrChange")), PPR_SEQ)
    assert _s(ppr) == "pPr(pStylejcpPrChange)"


def test_track_revisions_is_added_once_in_schema_order():
    s = _el('<w:settings><w:zoom/><w:proofState/><w:doNotTrackMoves/><w:defaultTabStop/></w:settings>')
    assert set_track_revisions(s) is True
    assert _s(s) == "settings(zoomproofStatetrackRevisionsdoNotTrackMovesdefaultTabStop)"
    assert set_track_revisions(s) is False
    empty = _el("<w:settings/>")
    set_track_revisions(empty)
    assert _s(empty) == "settings(trackRevisions)"
