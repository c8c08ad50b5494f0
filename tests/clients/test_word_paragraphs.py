"""tests/clients/word_paragraphs.py: a document's paragraphs as Word's JavaScript API shows them,
read from small packages written here (every behaviour the scripted Word host relies on)."""
from __future__ import annotations

import io
import zipfile

from .word_paragraphs import accepted, comparable, rejected, word_paragraphs

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _docx(body: str, numbering: str = "", styles: str = "") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("word/document.xml", f'<?xml version="1.0"?><w:document {W}><w:body>{body}</w:body></w:document>')
        if numbering:
            z.writestr("word/numbering.xml", f'<?xml version="1.0"?><w:numbering {W}>{numbering}</w:numbering>')
        if styles:
            z.writestr("word/styles.xml", f'<?xml version="1.0"?><w:styles {W}>{styles}</w:styles>')
    return out.getvalue()


def _text(p: dict) -> str:
    return "".join(r["text"] for r in p["runs"])


NUMBERING = """<w:abstractNum w:abstractNumId="0">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1.%2)"/></w:lvl>
</w:abstractNum><w:num w:numId="3"><w:abstractNumId w:val="0"/></w:num>"""
STYLES = """<w:style w:type="character" w:styleId="Secret"><w:rPr><w:vanish/></w:rPr></w:style>"""


def test_docx_text_as_word_shows_it():
    body = (
        # a manual line break, a tab, a non-breaking and an optional hyphen, a note reference
        '<w:p><w:r><w:t>Informative comment</w:t><w:br/><w:t xml:space="preserve">The </w:t><w:tab/><w:t>e</w:t>'
        '<w:noBreakHyphen/><w:t>mail opt</w:t><w:softHyphen/><w:t>ion</w:t><w:footnoteReference w:id="1"/></w:r></w:p>'
        # a field: its result, never its code; hidden text left out (directly and by a character style)
        '<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:instrText> REF _Ref123 \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        '<w:r><w:t>Section 3.2</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Secret"/></w:rPr><w:t>also hidden</w:t></w:r>'
        '<w:r><w:t>.</w:t></w:r></w:p>'
        # list numbers apart from the text
        '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>First</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>Inner</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr><w:r><w:t>Second</w:t></w:r></w:p>'
        # a table: each cell's paragraph a paragraph of the body
        '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Bits</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Type</w:t></w:r></w:p></w:tc></w:tr></w:tbl>'
        # tracked changes stay in the text, marked
        '<w:p><w:r><w:t xml:space="preserve">the </w:t></w:r><w:del w:id="1" w:author="A"><w:r><w:delText>old</w:delText></w:r></w:del>'
        '<w:ins w:id="2" w:author="A"><w:r><w:t>new</w:t></w:r></w:ins><w:r><w:t xml:space="preserve"> term</w:t></w:r></w:p>'
    )
    data = _docx(body, NUMBERING, STYLES)
    ps = word_paragraphs(data)
    assert [_text(p) for p in ps] == [
        "Informative comment\u000bThe \te\u001email opt\u001fion\u0002", "See Section 3.2.", "First", "Inner", "Second", "Bits", "Type", "the oldnew term"]
    assert [p["listString"] for p in ps[2:5]] == ["1.", "1.a)", "2."]
    assert [p["tableNestingLevel"] for p in ps] == [0, 0, 0, 0, 0, 1, 1, 0]
    assert ps[7]["runs"] == [{"text": "the "}, {"text": "old", "del": True}, {"text": "new", "ins": True}, {"text": " term"}]
    assert accepted(data)[-1] == "the new term" and rejected(data)[-1] == "the old term"
    assert comparable(["a\u000bb\u0002 ", "", "e\u001email"]) == ["a b", "e\u2011mail"]


def test_odt_text_as_word_shows_it():
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"')
    content = (
        f'<?xml version="1.0"?><office:document-content {ns}><office:automatic-styles>'
        '<text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."/>'
        '</text:list-style></office:automatic-styles><office:body><office:text>'
        '<text:h text:outline-level="1">Scope</text:h>'
        '<text:p>One<text:line-break/>two<text:tab/>three<text:s text:c="2"/>four<text:note><text:note-citation>1</text:note-citation>'
        '<text:note-body><text:p>A note.</text:p></text:note-body></text:note></text:p>'
        '<text:list text:style-name="L1"><text:list-item><text:p>Alpha</text:p></text:list-item><text:list-item><text:p>Beta</text:p></text:list-item></text:list>'
        '<table:table><table:table-row><table:table-cell><text:p>Cell</text:p></table:table-cell></table:table-row></table:table>'
        '</office:text></office:body></office:document-content>')
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    ps = word_paragraphs(out.getvalue())
    assert [_text(p) for p in ps] == ["Scope", "One\u000btwo\tthree  four\u0002", "Alpha", "Beta", "Cell"]
    assert [p["listString"] for p in ps] == [None, None, "1.", "2.", None]
    assert [p["tableNestingLevel"] for p in ps] == [0, 0, 0, 0, 1]
