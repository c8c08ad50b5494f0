"""The DOCX writer on small packages: the WordprocessingML each edit becomes, both views, the rest untouched.

Every ``write_edits`` call also asserts that our accept-all reads as the backend's intended
result and our reject-all as the original (see writerkit). LibreOffice checks of the same
kinds of edit are in test_docx_writer_libreoffice.py.
"""
from __future__ import annotations

import pytest

from adapters import read
from adapters.docx.oxml import qn
from adapters.docx.writer import write
from adapters.errors import AdapterError, AnchorError
from adapters.model import Delete, Rename, Replace
from tests.adapters.docx.docxkit import make_docx, styles_xml
from tests.adapters.docx.writerkit import AUTHOR, DATE, ed, revision_ids, untouched_members_identical, write_edits

W_INS, W_DEL, W_T, W_DELTEXT, W_R, W_P = (qn("w:" + t) for t in ("ins", "del", "t", "delText", "r", "p"))
_ANN = 'w:author="Ann" w:date="2024-05-01T10:00:00Z"'
_SETTINGS = '<w:zoom w:percent="100"/><w:proofState w:spelling="clean"/><w:defaultTabStop w:val="720"/>'


def _p(*runs: str, ppr: str = "") -> str:
    return f"<w:p>{ppr}{''.join(runs)}</w:p>"


def _r(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def _docx(body: str, **parts) -> bytes:
    parts.setdefault("settings", _SETTINGS)
    return make_docx(body, **parts)


def _runs(p) -> list[tuple[str, str, str]]:
    """(wrapper, text, bold?) of each text-bearing run of a paragraph, in order."""
    out = []
    for r in p.iter(W_R):
        text = "".join(t.text or "" for t in r if t.tag in (W_T, W_DELTEXT))
        if not text:
            continue
        parent = r.getparent().tag
        wrapper = "ins" if parent == W_INS else "del" if parent == W_DEL else ""
        bold = "b" if r.find(f"{qn('w:rPr')}/{qn('w:b')}") is not None else ""
        out.append((wrapper, text, bold))
    return out


# --- replace and set_text -----------------------------------------------------------------


def test_replace_inside_one_run_splits_it_and_keeps_its_formatting():
    data = _docx(_p(_r("The quick brown fox.", "<w:i/><w:sz w:val='28'/>")))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=4, end=9, text="slow")])
    p = w.xml().find(f".//{W_P}")
    assert [(wr, t) for wr, t, _b in _runs(p)] == [("", "The "), ("del", "quick"), ("ins", "slow"), ("", " brown fox.")]
    for r in p.iter(W_R):  # every piece keeps the run's formatting
        assert r.find(f"{qn('w:rPr')}/{qn('w:i')}") is not None
        assert r.find(f"{qn('w:rPr')}/{qn('w:sz')}").get(qn("w:val")) == "28"
    for el in p.iter(W_INS, W_DEL):
        assert (el.get(qn("w:author")), el.get(qn("w:date"))) == (AUTHOR, DATE)
    assert w.expected == ["The slow brown fox."]


def test_replace_across_runs_with_different_formatting_deletes_each_piece_with_its_own_formatting():
    data = _docx(_p(_r("Plain start "), _r("bold middle", "<w:b/>"), _r(" plain end")))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=6, end=16, text="opening strong")])
    p = w.xml().find(f".//{W_P}")
    assert _runs(p) == [
        ("", "Plain ", ""), ("del", "start", ""), ("ins", "opening", ""), ("", " ", ""),
        ("del", "bold", "b"), ("ins", "strong", "b"), ("", " middle", "b"), ("", " plain end", ""),
    ]


def test_a_compound_contraction_or_decimal_changes_as_one_whole_word_keeping_each_runs_formatting():
    # adapters.words keeps "30-day", "don't", "3.5" whole, as the task pane and the bridge do
    data = _docx(_p(_r("Give "), _r("30", "<w:b/>"), _r("-day notice; don't pay 3.5 %.")))
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="Give 60-day notice; do not pay 3.75 %.")])
    assert _runs(w.xml().find(f".//{W_P}")) == [
        ("", "Give ", ""), ("del", "30", "b"), ("del", "-day", ""), ("ins", "60-day", "b"), ("", " notice; ", ""),
        ("del", "don't", ""), ("ins", "do not", ""), ("", " pay ", ""), ("del", "3.5", ""), ("ins", "3.75", ""),
        ("", " %.", ""),
    ]
    assert w.expected == ["Give 60-day notice; do not pay 3.75 %."]


def test_set_text_is_a_word_level_diff_not_a_paragraph_rewrite():
    data = _docx(_p(_r("The committee approved the budget on Monday.")))
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="The board approved the new budget on Friday.")])
    dels = ["".join(t.text for t in d.iter(W_DELTEXT)) for d in w.xml().iter(W_DEL)]
    inss = ["".join(t.text for t in i.iter(W_T)) for i in w.xml().iter(W_INS)]
    assert dels == ["committee", "Monday"]
    assert inss == ["board", "new ", "Friday"]
    assert w.expected == ["The board approved the new budget on Friday."]


def test_edge_whitespace_of_a_non_preserved_text_stays_invisible():
    # Word ignores the edge blanks of a w:t without xml:space="preserve"; a split must not show them
    data = _docx('<w:p><w:r><w:t>  alpha beta gamma  </w:t></w:r></w:p>')
    assert read(data).units[0].text == "alpha beta gamma"
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=6, end=10, text="BETA")])
    assert w.expected == ["alpha BETA gamma"]


def test_tabs_breaks_and_symbols_are_deleted_as_their_own_runs_and_inserted_as_elements():
    data = _docx('<w:p><w:r><w:t>one</w:t><w:tab/><w:t xml:space="preserve">two three</w:t><w:br/><w:t>four</w:t></w:r></w:p>')
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=3, end=4, text=" "),
                                     ed("replace", d.units[0].id, start=7, end=8, text="\u2028"),
                                     ed("replace", d.units[0].id, start=13, end=14, text="\t")])
    root = w.xml()
    deleted = [c.tag for d in root.iter(W_DEL) for r in d for c in r if c.tag != qn("w:rPr")]
    inserted = [c.tag for i in root.iter(W_INS) for r in i for c in r if c.tag != qn("w:rPr")]
    assert sorted(deleted) == sorted([qn("w:tab"), W_DELTEXT, qn("w:br")])
    assert sorted(inserted) == sorted([W_T, qn("w:br"), qn("w:tab")])
    assert w.expected == ["one two\u2028three\tfour"]


def test_several_replaces_in_one_unit_keep_their_order():
    data = _docx(_p(_r("red green blue")))
    w = write_edits(data, lambda d: [
        ed("replace", d.units[0].id, start=0, end=3, text="RED"),
        ed("replace", d.units[0].id, start=10, end=14, text="BLUE"),
        ed("replace", d.units[0].id, start=4, end=9, text="GREEN"),
    ])
    assert w.expected == ["RED GREEN BLUE"]


def test_revision_ids_are_fresh_and_above_every_existing_id():
    body = _p('<w:bookmarkStart w:id="41" w:name="x"/>', _r("Some words here."), '<w:bookmarkEnd w:id="41"/>')
    footnotes = '<w:footnote w:id="77"><w:p><w:r><w:t>n</w:t></w:r></w:p></w:footnote>'
    data = _docx(body, footnotes=footnotes)
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="Some other words there.")])
    ids = [int(i) for i in revision_ids(w.xml())]
    assert len(ids) == len(set(ids)) == 3
    assert min(ids) > 77


# --- fields, links, controls --------------------------------------------------------------

_FIELD = (
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> REF _Ref1 \\h </w:instrText></w:r>'
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Figure 2</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
)


def test_words_next_to_a_field_change_without_touching_the_field_structure():
    data = _docx(_p(_r("See "), _FIELD, _r(" for details.")))
    doc = read(data)
    assert doc.units[0].text == "See Figure 2 for details."
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="Look at Figure 2 for more details.")])
    root = w.xml()
    for fc in root.iter(qn("w:fldChar")):
        assert fc.getparent().getparent().tag == W_P  # no fldChar run is wrapped
    assert [c.get(qn("w:fldCharType")) for c in root.iter(qn("w:fldChar"))] == ["begin", "separate", "end"]
    assert root.find(f".//{qn('w:instrText')}") is not None
    assert w.expected == ["Look at Figure 2 for more details."]


def _fld_types(el) -> list[str]:
    return [c.get(qn("w:fldCharType")) for c in el.iter(qn("w:fldChar"))]


def _texts(el, tag) -> str:
    return "".join(t.text or "" for t in el.iter(tag))


def test_a_changed_cached_result_is_the_whole_field_deleted_and_a_new_one_inserted():
    # LibreOffice imports a REF field as one text field: a w:del/w:ins inside its result shows
    # as "23" and is no change it lists; a whole deleted field and a whole inserted one is
    data = _docx(_p(_r("See "), _FIELD, _r(" now.")))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=11, end=12, text="3")])
    p = w.xml().find(f".//{W_P}")
    kids = [k for k in p]
    assert [k.tag for k in kids] == [W_R, W_DEL, W_INS, W_R]
    old, new = kids[1], kids[2]
    assert _fld_types(old) == ["begin", "separate", "end"] and _fld_types(new) == ["begin", "separate", "end"]
    assert _texts(old, qn("w:delInstrText")) == " REF _Ref1 \\h " and old.find(f".//{qn('w:instrText')}") is None
    assert _texts(old, W_DELTEXT) == "Figure 2" and old.find(f".//{W_T}") is None
    assert _texts(new, qn("w:instrText")) == " REF _Ref1 \\h " and _texts(new, W_T) == "Figure 3"
    assert old.get(qn("w:author")) == new.get(qn("w:author")) == AUTHOR
    assert w.expected == ["See Figure 3 now."]
    # read again, the unit holds one field: the deleted one is not in its accepted text
    doc = read(w.out)
    assert [(f.kind, f.target, f.result) for f in doc.units[0].fields] == [("ref", "_Ref1", "Figure 3")]


def test_two_changes_in_one_field_are_one_rewrite_and_the_run_formatting_stays():
    field = _FIELD.replace("<w:r><w:t>Figure 2</w:t></w:r>", '<w:r><w:rPr><w:b/></w:rPr><w:t>Figure 2.1</w:t></w:r>')
    data = _docx(_p(_r("See "), field))
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="See Table 2.4")])
    root = w.xml()
    assert len(root.findall(f".//{W_DEL}")) == 1 and len(root.findall(f".//{W_INS}")) == 1
    new = root.find(f".//{W_INS}")
    result = [r for r in new.iter(W_R) if r.find(W_T) is not None]
    assert [(_texts(r, W_T), r.find(f"{qn('w:rPr')}/{qn('w:b')}") is not None) for r in result] == [("Table 2.4", True)]


def test_a_renumbered_caption_reads_back_with_its_new_number():
    # the deleted SEQ field is no field of the accepted text: it neither counts nor numbers
    caption = styles_xml('<w:style w:type="paragraph" w:styleId="Caption"><w:name w:val="caption"/></w:style>')
    seq = _FIELD.replace("REF _Ref1 \\h", "SEQ Figure \\* ARABIC").replace("Figure 2", "2")
    data = _docx(_p(_r("Figure "), seq, _r(": Flow"), ppr='<w:pPr><w:pStyle w:val="Caption"/></w:pPr>'), styles=caption)
    assert read(data).units[0].label == "Figure 2"
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=7, end=8, text="5")])
    unit = read(w.out).units[0]
    assert (unit.text, unit.label) == ("Figure 5: Flow", "Figure 5")
    assert [(f.kind, f.result) for f in unit.fields] == [("seq", "5")]


def test_a_simple_field_becomes_a_deleted_complex_field_and_an_inserted_one():
    # w:fldSimple cannot stand inside w:del (CT_RunTrackChange holds runs)
    body = _p(_r("Table "), '<w:fldSimple w:instr=" SEQ Table \\* ARABIC "><w:r><w:rPr><w:i/></w:rPr><w:t>1</w:t></w:r></w:fldSimple>',
              _r(": Names"))
    data = _docx(body)
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=6, end=7, text="2")])
    root = w.xml()
    assert root.find(f".//{qn('w:fldSimple')}") is None
    old, new = root.find(f".//{W_DEL}"), root.find(f".//{W_INS}")
    assert old.getnext() is new
    assert _texts(old, qn("w:delInstrText")).strip() == _texts(new, qn("w:instrText")).strip() == "SEQ Table \\* ARABIC"
    assert (_texts(old, W_DELTEXT), _texts(new, W_T)) == ("1", "2")
    assert all(r.find(f"{qn('w:rPr')}/{qn('w:i')}") is not None for r in new.iter(W_R))
    assert w.expected == ["Table 2: Names"]


def test_a_bookmark_inside_a_field_stays_once():
    field = _FIELD.replace("<w:r><w:t>Figure 2</w:t></w:r>",
                           '<w:bookmarkStart w:id="7" w:name="here"/><w:r><w:t>Figure 2</w:t></w:r><w:bookmarkEnd w:id="7"/>')
    data = _docx(_p(_r("See "), field))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=11, end=12, text="3")])
    assert len(w.xml().findall(f".//{qn('w:bookmarkStart')}")) == 1
    assert w.expected == ["See Figure 3"]


def test_a_field_in_a_hyperlink_is_rewritten_inside_the_link_and_a_hyperlink_result_word_by_word():
    ref2 = _FIELD.replace("REF _Ref1", "REF _Ref2 \\r")
    link = f'<w:hyperlink w:anchor="_Ref1">{_r("Section ")}{ref2}</w:hyperlink>'
    hyper = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK \\l "_Ref3" </w:instrText></w:r>'
             '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>see Annex B now</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>')
    data = _docx(_p(_r("A "), link, _r(" and "), hyper))
    assert read(data).units[0].text == "A Section Figure 2 and see Annex B now"
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="A Section Figure 3 and see Annex C now")])
    root = w.xml()
    hl = root.find(f".//{qn('w:hyperlink')}")
    assert [k.tag for k in hl] == [W_R, W_DEL, W_INS]
    # the HYPERLINK field's result is text: only the changed word, inside the result
    assert _fld_types(root)[-3:] == ["begin", "separate", "end"]
    assert [_texts(d, W_DELTEXT) for d in root.iter(W_DEL)][-1] == "B"


def test_a_field_in_the_authors_own_pending_insertion_changes_in_place():
    field = f'<w:ins w:id="50" w:author="{AUTHOR}" w:date="{DATE}">{_FIELD}</w:ins>'
    data = _docx(_p(_r("See "), field))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=11, end=12, text="3")])
    root = w.xml()
    assert root.find(f".//{W_DEL}") is None and len(root.findall(f".//{W_INS}")) == 1
    assert _fld_types(root) == ["begin", "separate", "end"]
    assert w.expected == ["See Figure 3"]


def test_a_field_in_someone_elses_insertion_is_deleted_inside_it_and_ours_stands_beside():
    field = f'<w:ins w:id="50" {_ANN}>{_r("x ")}{_FIELD}{_r(" y")}</w:ins>'
    data = _docx(_p(_r("See "), field))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=13, end=14, text="3")])
    root = w.xml()
    ours = [i for i in root.iter(W_INS) if i.get(qn("w:author")) == AUTHOR]
    assert len(ours) == 1 and ours[0].getparent().tag == W_P
    deleted = root.find(f".//{W_DEL}")
    assert deleted.getparent().get(qn("w:author")) == "Ann"
    assert w.expected == ["See x Figure 3 y"]


def test_hyperlinks_smart_tags_and_content_controls_are_edited_inside_and_a_simple_field_whole():
    body = _p(
        _r("A "), '<w:fldSimple w:instr=" SEQ Table "><w:r><w:t>1</w:t></w:r></w:fldSimple>',
        ' <w:hyperlink r:id="rIdLink"><w:r><w:t xml:space="preserve"> linked words</w:t></w:r></w:hyperlink>',
        '<w:smartTag w:uri="u" w:element="place"><w:r><w:t xml:space="preserve"> in Paris</w:t></w:r></w:smartTag>',
        '<w:sdt><w:sdtPr><w:id w:val="5"/></w:sdtPr><w:sdtContent><w:r><w:t xml:space="preserve"> and boxed</w:t></w:r></w:sdtContent></w:sdt>',
    )
    data = _docx(body)
    assert read(data).units[0].text == "A 1 linked words in Paris and boxed"
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="A 2 joined words in Rome and wrapped")])
    root = w.xml()
    for tag, inside in (("hyperlink", "joined"), ("smartTag", "Rome"), ("sdtContent", "wrapped")):
        el = root.find(f".//{qn('w:' + tag)}")
        assert inside in "".join(t.text for t in el.iter(W_T)), tag
        assert el.find(W_DEL) is not None and el.find(W_INS) is not None, tag
    # the SEQ field's value: the whole field deleted and inserted again (as a complex field)
    assert root.find(f".//{qn('w:fldSimple')}") is None
    assert "SEQ Table" in _texts(root, qn("w:delInstrText")) and "SEQ Table" in _texts(root, qn("w:instrText"))


def test_deleting_a_paragraph_deletes_a_whole_field_but_not_one_that_continues_elsewhere():
    whole = _p(_r("See "), _FIELD)
    begins = _p(_r("Contents "), '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> TOC </w:instrText></w:r>',
                '<w:r><w:fldChar w:fldCharType="separate"/></w:r>', _r("Entry one"))
    ends = _p(_r("Entry two"), '<w:r><w:fldChar w:fldCharType="end"/></w:r>')
    data = _docx(whole + begins + ends + _p(_r("After.")))
    w = write_edits(data, lambda d: [ed("delete", d.units[0].id), ed("delete", d.units[1].id)])
    p0, p1 = w.xml().findall(f".//{W_P}")[:2]
    assert all(fc.getparent().getparent().tag == W_DEL for fc in p0.iter(qn("w:fldChar")))
    assert p0.find(f".//{qn('w:delInstrText')}") is not None
    for fc in p1.iter(qn("w:fldChar")):  # the TOC's begin and separate stay: its end is in the next paragraph
        assert fc.getparent().getparent().tag == W_P
    assert p1.find(f".//{qn('w:instrText')}") is not None


# --- other authors' revisions -------------------------------------------------------------


def test_text_deleted_by_someone_else_is_never_edited():
    body = _p(_r("Keep "), f'<w:del w:id="3" {_ANN}><w:r><w:delText xml:space="preserve">gone </w:delText></w:r></w:del>', _r("this text."))
    data = _docx(body)
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="Hold that text.")])
    ann_del = [d for d in w.xml().iter(W_DEL) if d.get(qn("w:author")) == "Ann"]
    assert len(ann_del) == 1 and "".join(t.text for t in ann_del[0].iter(W_DELTEXT)) == "gone "
    assert ann_del[0].get(qn("w:id")) == "3"
    assert w.original == ["Keep gone this text."] and w.expected == ["Hold that text."]


def test_deleting_inside_someone_elses_insertion_nests_and_inserting_splits_it():
    body = _p(_r("Hello "), f'<w:ins w:id="1" {_ANN}><w:r><w:t xml:space="preserve">big red </w:t></w:r></w:ins>', _r("world"))
    data = _docx(body)
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=10, end=13, text="blue")])
    p = w.xml().find(f".//{W_P}")
    top = [(el.tag, el.get(qn("w:author"))) for el in p]
    assert top == [(W_R, None), (W_INS, "Ann"), (W_INS, AUTHOR), (W_INS, "Ann"), (W_R, None)]
    ann_first = p[1]
    assert ann_first.find(W_DEL).get(qn("w:author")) == AUTHOR  # our deletion nested in her insertion
    assert {p[1].get(qn("w:id")), p[3].get(qn("w:id"))} >= {"1"} and p[1].get(qn("w:id")) != p[3].get(qn("w:id"))
    assert w.original == ["Hello world"] and w.expected == ["Hello big blue world"]


def test_editing_ones_own_pending_insertion_changes_it_in_place():
    mine = f'w:author="{AUTHOR}" w:date="2024-05-01T10:00:00Z"'
    body = _p(_r("Hello "), f'<w:ins w:id="1" {mine}><w:r><w:t xml:space="preserve">big red </w:t></w:r></w:ins>', _r("world"))
    w = write_edits(_docx(body), lambda d: [ed("replace", d.units[0].id, start=10, end=13, text="blue")])
    p = w.xml().find(f".//{W_P}")
    assert [el.tag for el in p] == [W_R, W_INS, W_R]
    assert "".join(t.text for t in p[1].iter(W_T)) == "big blue "
    assert p.find(f".//{W_DEL}") is None


# --- paragraphs ---------------------------------------------------------------------------

_STYLES = styles_xml(
    '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>',
    '<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/></w:style>',
)


def _mark(p) -> str | None:
    rpr = p.find(f"{qn('w:pPr')}/{qn('w:rPr')}")
    if rpr is None:
        return None
    return ",".join(el.tag.rpartition("}")[2] for el in rpr if el.tag in (W_INS, W_DEL, qn("w:moveFrom"), qn("w:moveTo"))) or None


def test_insert_after_adds_a_paragraph_with_the_style_asked_for_and_an_inserted_mark():
    body = _p(_r("Title"), ppr='<w:pPr><w:pStyle w:val="Heading2"/></w:pPr>') + _p(_r("First.")) + _p(_r("Last."))
    data = _docx(body, styles=_STYLES)
    w = write_edits(data, lambda d: [ed("insert_after", d.units[1].id, text="A quoted line.", style="Quote")])
    ps = w.xml().findall(f".//{W_P}")
    new = ps[2]
    assert new.find(f"{qn('w:pPr')}/{qn('w:pStyle')}").get(qn("w:val")) == "Quote"
    assert _runs(new) == [("ins", "A quoted line.", "")]
    assert [_mark(p) for p in ps] == [None, None, "ins", None]
    assert read(w.out).units[2].style == "Quote"


def test_insert_after_copies_the_properties_of_a_paragraph_of_the_same_kind_and_style():
    heading = '<w:pPr><w:pStyle w:val="Heading2"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr><w:rPr><w:b/></w:rPr></w:pPr>'
    body = _p(_r("Intro"), ppr=heading) + _p(_r("Text.")) + _p(_r("More."))
    data = _docx(body, styles=_STYLES)
    w = write_edits(data, lambda d: [ed("insert_after", d.units[1].id, text="Second", kind="section", style="heading 2")])
    new = w.xml().findall(f".//{W_P}")[2]
    assert new.find(f".//{qn('w:numId')}").get(qn("w:val")) == "3"
    assert new.find(f".//{qn('w:sectPr')}") is None
    assert _runs(new) == [("ins", "Second", "b")]  # the mark's run formatting


def test_inserting_after_the_last_paragraph_marks_the_paragraph_before():
    # the last paragraph mark of a body cannot be inserted or deleted on its own
    data = _docx(_p(_r("One.")) + _p(_r("Two.")))
    w = write_edits(data, lambda d: [ed("insert_after", d.units[1].id, text="Three."), ed("insert_after", d.units[1].id, text="Four.")])
    ps = w.xml().findall(f".//{W_P}")
    assert ["".join(t.text for t in p.iter(W_T)) for p in ps] == ["One.", "Two.", "Three.", "Four."]
    assert [_mark(p) for p in ps] == [None, "ins", "ins", None]
    assert w.expected == ["One.", "Two.", "Three.", "Four."]


def test_deleting_a_paragraph_deletes_its_runs_and_its_mark():
    data = _docx(_p(_r("Keep.")) + _p(_r("Drop "), _r("this.", "<w:b/>")) + _p(_r("End.")))
    w = write_edits(data, lambda d: [ed("delete", d.units[1].id)])
    ps = w.xml().findall(f".//{W_P}")
    assert _runs(ps[1]) == [("del", "Drop ", ""), ("del", "this.", "b")]
    assert [_mark(p) for p in ps] == [None, "del", None]
    assert w.expected == ["Keep.", "End."]


def test_deleting_the_last_paragraphs_deletes_the_marks_before_them():
    data = _docx(_p(_r("Keep.")) + _p(_r("Drop one.")) + _p(_r("Drop two.")))
    w = write_edits(data, lambda d: [ed("delete", d.units[2].id), ed("delete", d.units[1].id)])
    assert [_mark(p) for p in w.xml().findall(f".//{W_P}")] == ["del", "del", None]
    assert w.expected == ["Keep."]


def test_a_paragraph_before_a_table_is_deleted_through_the_mark_above_it():
    table = ('<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>'
             '<w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>')
    data = _docx(_p(_r("Keep.")) + _p(_r("Drop.")) + table + _p(_r("After.")))
    w = write_edits(data, lambda d: [ed("delete", d.units[1].id)])
    assert [_mark(p) for p in w.xml().findall(f"{qn('w:body')}/{W_P}")] == ["del", None, None]
    assert w.expected == ["Keep.", "cell", "After."]


def test_deleting_a_table_deletes_every_row_and_run():
    table = ('<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>'
             + "".join(f'<w:tr><w:tc><w:p><w:r><w:t>{a}</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>{b}</w:t></w:r></w:p></w:tc></w:tr>'
                       for a, b in (("a", "b"), ("c", "d"))) + '</w:tbl>')
    data = _docx(_p(_r("Before.")) + table + _p(_r("After.")))
    w = write_edits(data, lambda d: [ed("delete", next(u.id for u in d.units if u.kind == "table"))])
    rows = w.xml().findall(f".//{qn('w:tr')}")
    assert all(r.find(f"{qn('w:trPr')}/{W_DEL}") is not None for r in rows)
    assert w.expected == ["Before.", "After."]


def test_a_table_cell_edit_stays_in_its_cell():
    table = ('<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>'
             '<w:tr><w:tc><w:p><w:r><w:t>Name</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Old value</w:t></w:r></w:p></w:tc></w:tr></w:tbl>')
    data = _docx(table + _p(_r("x")))
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="Name\nNew value")])
    cells = w.xml().findall(f".//{qn('w:tc')}")
    assert cells[0].find(f".//{W_INS}") is None
    assert _runs(cells[1].find(W_P)) == [("del", "Old", ""), ("ins", "New", ""), ("", " value", "")]


def test_move_writes_named_move_ranges_and_keeps_the_source():
    body = _p(_r("One.")) + _p(_r("Two.")) + _p(_r("Three.")) + _p(_r("Four."))
    w = write_edits(_docx(body), lambda d: [ed("move", d.units[0].id, after=d.units[2].id)])
    root = w.xml()
    starts = {el.tag.rpartition("}")[2]: el for el in root.iter(qn("w:moveFromRangeStart"), qn("w:moveToRangeStart"))}
    ends = {el.tag.rpartition("}")[2]: el for el in root.iter(qn("w:moveFromRangeEnd"), qn("w:moveToRangeEnd"))}
    assert starts["moveFromRangeStart"].get(qn("w:name")) == starts["moveToRangeStart"].get(qn("w:name"))
    assert ends["moveFromRangeEnd"].get(qn("w:id")) == starts["moveFromRangeStart"].get(qn("w:id"))
    assert ends["moveToRangeEnd"].get(qn("w:id")) == starts["moveToRangeStart"].get(qn("w:id"))
    ps = root.findall(f".//{W_P}")
    assert [_mark(p) for p in ps] == ["moveFrom", None, None, "moveTo", None]
    assert ps[0].find(qn("w:moveFrom")) is not None and ps[3].find(qn("w:moveTo")) is not None
    assert w.expected == ["Two.", "Three.", "One.", "Four."]
    ids = revision_ids(root)
    assert len(ids) == len(set(ids))


def test_a_moved_section_carries_its_content_and_bookmarks_that_lie_wholly_inside():
    h = '<w:pPr><w:pStyle w:val="Heading2"/></w:pPr>'
    body = (_p(_r("A"), ppr=h) + _p('<w:bookmarkStart w:id="9" w:name="inA"/>', _r("a text"), '<w:bookmarkEnd w:id="9"/>')
            + _p(_r("B"), ppr=h) + _p(_r("b text")))
    w = write_edits(_docx(body, styles=_STYLES), lambda d: [ed("move", d.units[0].id, after=d.units[3].id)])
    assert w.expected == ["B", "b text", "A", "a text"]
    marks = w.xml().findall(f".//{qn('w:bookmarkStart')}")
    assert len(marks) == 1 and marks[0].getparent().find(qn("w:moveTo")) is not None


def test_a_moved_and_edited_unit_becomes_a_deletion_and_an_edited_insertion():
    body = _p(_r("Alpha text.")) + _p(_r("Beta.")) + _p(_r("Gamma."))
    w = write_edits(_docx(body), lambda d: [ed("move", d.units[0].id, after=d.units[1].id),
                                            ed("replace", d.units[0].id, start=0, end=5, text="Omega")])
    root = w.xml()
    assert root.find(f".//{qn('w:moveFrom')}") is None
    ps = root.findall(f".//{W_P}")
    assert _runs(ps[2]) == [("ins", "Omega text.", "")] or [t for _w, t, _b in _runs(ps[2])] == ["Omega", " text."]
    assert w.expected == ["Beta.", "Omega text.", "Gamma."]


# --- notes, text boxes, figures -------------------------------------------------------------


def test_a_footnote_edit_touches_only_the_footnotes_part_and_settings():
    body = _p(_r("Text"), '<w:r><w:footnoteReference w:id="2"/></w:r>', _r(" here."))
    notes = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> A short note.</w:t></w:r></w:p></w:footnote>')
    data = _docx(body, footnotes=notes)
    w = write_edits(data, lambda d: [ed("replace", next(u.id for u in d.units if u.kind == "footnote"), start=3, end=8, text="brief")])
    assert untouched_members_identical(data, w.out, {"word/footnotes.xml", "word/settings.xml"}) == [
        "word/footnotes.xml", "word/settings.xml"]
    assert read(w.out).units[-1].text == " A brief note."
    with pytest.raises(AnchorError, match="footnote"):
        doc = read(data)
        write(data, [Delete(unit=doc.units[-1].id, before=doc.units[-1].text, author="x")], document=doc)


def test_a_figure_alt_text_change_is_a_deleted_and_an_inserted_picture():
    drawing = ('<w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="4" name="P" descr="A red square"/>'
               '<a:graphic><a:graphicData uri="x"><pic:pic/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')
    data = _docx(_p(drawing) + _p(_r("Below.")))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=2, end=5, text="blue")])
    root = w.xml()
    docprs = root.findall(f".//{qn('wp:docPr')}")
    assert [(d.get("id"), d.get("descr")) for d in docprs] == [("4", "A red square"), ("5", "A blue square")]
    assert docprs[0].getparent().getparent().getparent().getparent().tag == W_DEL
    assert docprs[1].getparent().getparent().getparent().getparent().tag == W_INS


# --- settings and the package ---------------------------------------------------------------


def test_track_revisions_goes_into_settings_in_schema_order():
    data = _docx(_p(_r("Words.")))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=0, end=5, text="Terms")])
    settings = w.xml("word/settings.xml")
    assert [el.tag.rpartition("}")[2] for el in settings] == ["zoom", "proofState", "trackRevisions", "defaultTabStop"]
    assert untouched_members_identical(data, w.out, {"word/document.xml", "word/settings.xml"})


def test_settings_already_tracking_are_left_byte_for_byte_and_a_false_value_is_switched_on():
    on = _docx(_p(_r("Words.")), settings='<w:trackRevisions/><w:defaultTabStop w:val="720"/>')
    w = write_edits(on, lambda d: [ed("replace", d.units[0].id, start=0, end=5, text="Terms")])
    assert untouched_members_identical(on, w.out, {"word/document.xml"}) == ["word/document.xml"]
    off = _docx(_p(_r("Words.")), settings='<w:trackRevisions w:val="false"/>')
    w = write_edits(off, lambda d: [ed("replace", d.units[0].id, start=0, end=5, text="Terms")])
    el = w.xml("word/settings.xml").find(qn("w:trackRevisions"))
    assert el is not None and el.get(qn("w:val")) is None


def test_a_package_without_settings_gets_a_settings_part():
    data = make_docx(_p(_r("Words.")))
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=0, end=5, text="Terms")])
    assert w.xml("word/settings.xml").find(qn("w:trackRevisions")) is not None
    rels = w.xml("word/_rels/document.xml.rels")
    assert any(r.get("Type").endswith("/settings") and r.get("Target") == "settings.xml" for r in rels)
    types = w.xml("[Content_Types].xml")
    assert any(o.get("PartName") == "/word/settings.xml" for o in types)
    assert read(w.out).lines() == ["Terms."]


def test_untouched_members_keep_their_compressed_bytes_and_order():
    data = _docx(_p(_r("Words here.")), styles=_STYLES, footnotes='<w:footnote w:id="1"><w:p/></w:footnote>')
    w = write_edits(data, lambda d: [ed("replace", d.units[0].id, start=0, end=5, text="Terms")])
    differ = untouched_members_identical(data, w.out, {"word/document.xml", "word/settings.xml"})
    assert differ == ["word/document.xml", "word/settings.xml"]


def test_the_original_xml_declaration_is_kept():
    w = write_edits(_docx(_p(_r("Words."))), lambda d: [ed("replace", d.units[0].id, start=0, end=5, text="Terms")])
    import zipfile, io

    raw = zipfile.ZipFile(io.BytesIO(w.out)).read("word/document.xml")
    assert raw.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document')


# --- errors ---------------------------------------------------------------------------------


def test_an_edit_whose_unit_changed_since_is_refused_and_nothing_is_written():
    data = _docx(_p(_r("Current text.")))
    doc = read(data)
    stale = Replace(unit=doc.units[0].id, start=0, end=3, text="X", before="Old text.", author="a")
    with pytest.raises(AnchorError, match="has changed since"):
        write(data, [stale], document=doc)
    doc.units[0].text = "Current words."  # a document that is not the reading of these bytes
    with pytest.raises(AnchorError, match="does not match the package"):
        write(data, [Delete(unit=doc.units[0].id, author="a")], document=doc)
    other = read(_docx(_p(_r("Another document."))))
    with pytest.raises(AnchorError):
        write(data, [Delete(unit=other.units[0].id, author="a")])


def test_renames_and_unknown_units_are_refused_with_adapter_errors():
    data = _docx(_p(_r("Text.")))
    with pytest.raises(AdapterError, match="concrete"):
        write(data, [Rename(old="Text", text="Words")])
    with pytest.raises(AnchorError, match="no unit"):
        write(data, [Delete(unit="p-0000000000")])
    with pytest.raises(AdapterError):
        write(b"not a zip", [])


def test_a_change_that_would_delete_a_paragraph_break_or_an_equation_is_refused():
    math = '<m:oMath><m:r><m:t>x=1</m:t></m:r></m:oMath>'
    data = _docx(_p(_r("Value "), math, _r(" holds.")))
    doc = read(data)
    u = doc.units[0]
    with pytest.raises(AnchorError, match="math"):
        write(data, [Replace(unit=u.id, start=0, end=len(u.text), text="gone", before=u.text, author="a")], document=doc)


def test_an_empty_edit_list_returns_the_input_unchanged():
    data = _docx(_p(_r("Text.")))
    assert write(data, []) == data


# --- dispatch, Strict, containers ----------------------------------------------------------


def test_the_adapters_package_dispatches_write_accept_and_reject_on_the_format():
    import adapters

    data = _docx(_p(_r("Words here.")))
    doc = read(data)
    edits = [Replace(unit=doc.units[0].id, start=0, end=5, text="Terms", before=doc.units[0].text, author="A", date=DATE)]
    out = adapters.write(data, edits)
    assert out == write(data, edits, document=doc)
    assert adapters.read(adapters.accept_all(out)).lines() == ["Terms here."]
    assert adapters.read(adapters.reject_all(out)).lines() == ["Words here."]


def test_a_strict_package_is_written_back_in_strict_vocabulary():
    import io
    import zipfile

    from tests.conftest import corpus_file

    data = corpus_file("strict.docx").read_bytes()
    w = write_edits(data, lambda d: [ed("set_text", d.units[0].id, text="Bullet one")])
    raw = zipfile.ZipFile(io.BytesIO(w.out)).read("word/document.xml")
    assert b"http://purl.oclc.org/ooxml/wordprocessingml/main" in raw
    assert b"http://schemas.openxmlformats.org/wordprocessingml/2006/main" not in raw
    assert w.expected[0] == "Bullet one" and read(w.out).meta["strict"] is True


def test_moving_to_the_start_before_a_table_uses_each_paragraphs_own_mark():
    table = ('<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>'
             '<w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>')
    h = '<w:pPr><w:pStyle w:val="Heading2"/></w:pPr>'
    body = (_p(_r("Start"), ppr=h) + _p(_r("Text.")) + _p(_r("Moved"), ppr=h) + _p(_r("Caption")) + table + _p(_r("End."))
            + _p(_r("Tail"), ppr=h))
    w = write_edits(_docx(body, styles=_STYLES), lambda d: [ed("move", d.units[2].id, before_unit=d.units[0].id)])
    assert w.expected == ["Moved", "Caption", "cell", "End.", "Start", "Text.", "Tail"]
    first, second = w.xml().findall(f"{qn('w:body')}/{W_P}")[:2]
    assert (_mark(first), _mark(second)) == ("moveTo", "moveTo")  # no paragraph above: Word's own marks


def test_a_text_box_paragraph_is_inserted_and_deleted_inside_its_text_box():
    box = ('<w:r><w:drawing><wp:anchor><wp:docPr id="3" name="T"/><a:graphic><a:graphicData uri="wps"><wps:wsp><wps:txbx><w:txbxContent>'
           + _p(_r("Box line one.")) + _p(_r("Box line two.")) + '</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>')
    data = _docx(_p(_r("Anchor "), box) + _p(_r("After.")))
    doc = read(data)
    assert [u.text for u in doc.units] == ["Anchor ", "Box line one.", "Box line two.", "After."]
    w = write_edits(data, lambda d: [ed("insert_after", d.units[2].id, text="Box line three."), ed("delete", d.units[1].id)])
    tx = w.xml().find(f".//{qn('w:txbxContent')}")
    assert [_mark(p) for p in tx.findall(W_P)] == ["del", "ins", None]
    assert w.expected == ["Anchor ", "Box line two.", "Box line three.", "After."]


def test_a_bookmark_partly_inside_a_moved_block_stays_at_the_source():
    body = (_p('<w:bookmarkStart w:id="8" w:name="span"/>', _r("One.")) + _p(_r("Two."), '<w:bookmarkEnd w:id="8"/>')
            + _p(_r("Three.")))
    w = write_edits(_docx(body), lambda d: [ed("move", d.units[0].id, after=d.units[2].id)])
    starts = w.xml().findall(f".//{qn('w:bookmarkStart')}")
    assert len(starts) == 1 and starts[0].getparent().find(qn("w:moveFrom")) is not None


def test_malformed_or_overlapping_edits_are_adapter_errors():
    data = _docx(_p(_r("Some text here.")))
    doc = read(data)
    u = doc.units[0]
    with pytest.raises(AdapterError, match="invalid span"):
        write(data, [Replace(unit=u.id, start=5, end=2, text="x", author="a")], document=doc)
    with pytest.raises(AdapterError, match="overlapping"):
        write(data, [Replace(unit=u.id, start=0, end=9, text="A", author="a"),
                     Replace(unit=u.id, start=5, end=14, text="B", author="a")], document=doc)


def test_paragraphs_merged_by_shifted_marks_keep_the_properties_of_the_paragraph_above():
    from adapters.docx.writer import accept_all, reject_all

    h = '<w:pPr><w:pStyle w:val="Heading2"/></w:pPr>'
    data = _docx(_p(_r("Body text.")) + _p(_r("Appendix"), ppr=h), styles=_STYLES)
    w = write_edits(data, lambda d: [ed("delete", d.units[1].id)])
    last = w.xml().findall(f".//{W_P}")[1]
    change = last.find(f"{qn('w:pPr')}/{qn('w:pPrChange')}")
    assert change.get(qn("w:author")) == AUTHOR
    assert change.find(f"{qn('w:pPr')}/{qn('w:pStyle')}").get(qn("w:val")) == "Heading2"
    assert [(u.text, u.style) for u in read(accept_all(w.out)).units] == [("Body text.", "Normal")]
    assert [(u.text, u.style) for u in read(reject_all(w.out)).units] == [("Body text.", "Normal"), ("Appendix", "heading 2")]

    data = _docx(_p(_r("Body text.")), styles=_STYLES)
    w = write_edits(data, lambda d: [ed("insert_after", d.units[0].id, text="Appendix", kind="section", style="heading 2")])
    assert [(u.text, u.style) for u in read(accept_all(w.out)).units] == [("Body text.", "Normal"), ("Appendix", "heading 2")]
    assert [(u.text, u.style) for u in read(reject_all(w.out)).units] == [("Body text.", "Normal")]


def test_deleting_the_only_figure_of_a_paragraph_deletes_the_paragraph_and_a_figure_beside_text_only_itself():
    drawing = ('<w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="4" name="P" descr="A red square"/>'
               '<a:graphic><a:graphicData uri="x"><pic:pic/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>')
    data = _docx(_p(_r("Above.")) + _p(drawing, _r(" ")) + _p(_r("Text "), drawing, _r(" beside.")) + _p(_r("Below.")))
    doc = read(data)
    assert [u.kind for u in doc.units] == ["paragraph", "figure", "paragraph", "figure", "paragraph"]
    w = write_edits(data, lambda d: [ed("delete", d.units[1].id), ed("delete", d.units[3].id)])
    ps = w.xml().findall(f".//{W_P}")
    assert [_mark(p) for p in ps] == [None, "del", None, None]
    assert ps[2].find(f"{W_DEL}/{W_R}/{qn('w:drawing')}") is not None and _runs(ps[2]) == [("", "Text ", ""), ("", " beside.", "")]
    assert w.expected == ["Above.", "Text  beside.", "Below."]


def test_every_reference_field_of_a_generated_spec_renumbered_whole(tmp_path):
    """specgen's Word-like spec: each REF/fldSimple heading reference given another number is one
    deleted and one inserted field, both views read right, and the schemas find nothing new."""
    import json
    import shutil
    import subprocess
    from pathlib import Path

    from benchmarks import specgen

    specgen.generate(tmp_path, units=400, refs=60, seed=5)
    data = (tmp_path / "spec-400-s5.docx").read_bytes()

    def bump(d):
        out = []
        for u in d.units:
            for f in u.fields:
                if f.kind == "ref" and "\\r" in f.code and f.end > f.start:
                    head, _, last = f.result.rpartition(".")
                    out.append(ed("replace", u.id, start=f.start, end=f.end, text=f"{head}.{int(last) + 1}" if head else str(int(last) + 1),
                                  before=u.text))
        return out

    w = write_edits(data, bump)
    root = w.xml()
    whole = [d for d in root.iter(W_DEL) if d.find(f".//{qn('w:delInstrText')}") is not None]
    assert len(whole) == len(w.edits) >= 40
    assert all(d.getnext() is not None and d.getnext().tag == W_INS for d in whole)
    audit = shutil.which("openxml-audit") or str(Path(__file__).parents[3] / ".venv/bin/openxml-audit")
    if Path(audit).exists():
        (tmp_path / "out.docx").write_bytes(w.out)
        run = subprocess.run([audit, str(tmp_path / "out.docx"), "--output", "json"], capture_output=True, text=True, timeout=300)
        report = json.loads(run.stdout)
        assert [e for item in (report if isinstance(report, list) else [report]) for e in item.get("errors", [])] == []
