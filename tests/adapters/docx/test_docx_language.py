"""The language of each unit as Word tags it: runs' ``w:lang``, else the paragraph style chain's,
else ``w:docDefaults``; the document's default in ``doc.meta["language"]``."""
from __future__ import annotations

import pytest

from tests.adapters.docx.docxkit import read_body
from tests.conftest import corpus_file

STYLES = (
    '<w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="de-DE" w:eastAsia="zh-CN" w:bidi="ar-SA"/></w:rPr>'
    "</w:rPrDefault></w:docDefaults>"
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/>'
    '<w:rPr><w:lang w:val="en-GB"/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="QuoteChild"><w:name w:val="Quote Child"/><w:basedOn w:val="Quote"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Code"><w:name w:val="Code"/><w:rPr><w:lang w:val="zxx"/></w:rPr></w:style>'
    '<w:style w:type="character" w:styleId="French"><w:name w:val="French"/><w:rPr><w:lang w:val="fr-FR"/></w:rPr></w:style>'
)


def _p(*runs: tuple[str, str], style: str | None = None) -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{ppr}" + "".join(f"<w:r>{rpr}<w:t xml:space=\"preserve\">{t}</w:t></w:r>" for t, rpr in runs) + "</w:p>"


def _langs(doc) -> dict[str, str | None]:
    return {u.text: u.meta.get("lang") for u in doc.units}


def test_runs_styles_and_defaults_decide_by_characters():
    doc = read_body(
        _p(("Die Ergebnisse stehen in Tabelle 2.", ""))
        + _p(("Die Studie nennt es ", ""), ("a state-of-the-art ledger for every ", '<w:rPr><w:lang w:val="en-US"/></w:rPr>'),
             ("Fall.", ""))
        + _p(("To be, or not to be.", ""), style="Quote")
        + _p(("Inherited from the quote style.", ""), style="QuoteChild")
        + _p(("print(ledger)", ""), style="Code")
        + _p(("Comme on dit, ", '<w:rPr><w:rStyle w:val="French"/></w:rPr>'), ("c'est la vie", '<w:rPr><w:rStyle w:val="French"/></w:rPr>'),
             (" – sagt man.", ""))
        + _p(("Ein Lauf nur mit ostasiatischer Sprache.", '<w:rPr><w:lang w:eastAsia="ja-JP"/></w:rPr>')),
        styles=STYLES,
    )
    assert doc.meta["language"] == "de-DE"
    assert _langs(doc) == {
        "Die Ergebnisse stehen in Tabelle 2.": "de-DE",  # w:docDefaults
        "Die Studie nennt es a state-of-the-art ledger for every Fall.": "en-US",  # most characters
        "To be, or not to be.": "en-GB",  # the paragraph style
        "Inherited from the quote style.": "en-GB",  # through w:basedOn
        "print(ledger)": None,  # zxx: no language
        "Comme on dit, c'est la vie – sagt man.": "fr-FR",  # the character style
        "Ein Lauf nur mit ostasiatischer Sprache.": "de-DE",  # w:eastAsia is for other scripts
    }


def test_without_defaults_the_theme_language_is_the_documents():
    doc = read_body(_p(("Plain text.", "")), settings='<w:themeFontLang w:val="sv-SE" w:eastAsia="zh-CN"/>')
    assert doc.meta["language"] == "sv-SE"
    assert "lang" not in doc.units[0].meta  # the unit's own tag is unknown


@pytest.mark.parametrize("name, language", [("nested_anchors_in_header.docx", "ru-RU"), ("pageref.docx", "fr-FR")])
def test_corpus_document_languages(name, language):
    from adapters import read_path

    doc = read_path(str(corpus_file(name)))
    assert doc.meta["language"] == language
    assert {u.meta.get("lang") for u in doc.units if u.kind != "figure"} <= {language, "en-US"}
