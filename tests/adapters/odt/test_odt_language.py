"""The language of each unit as ODF styles give it: the paragraph's automatic style, its common
style chain, the default style (``fo:language`` + ``fo:country``), and spans in another
language by characters; the document's default in ``doc.meta["language"]``."""
from __future__ import annotations

import pytest

import adapters
from tests.adapters.odt.odt_build import odt, p
from tests.conftest import corpus_file, corpus_files

STYLES = (
    '<style:default-style style:family="paragraph"><style:text-properties fo:language="de" fo:country="DE" '
    'style:language-asian="zh" style:country-asian="CN"/></style:default-style>'
    '<style:style style:name="Standard" style:family="paragraph"/>'
    '<style:style style:name="Quote" style:family="paragraph" style:parent-style-name="Standard">'
    '<style:text-properties fo:language="en" fo:country="GB"/></style:style>'
    '<style:style style:name="Quote_20_child" style:family="paragraph" style:parent-style-name="Quote"/>'
    '<style:style style:name="Code" style:family="paragraph"><style:text-properties fo:language="zxx" fo:country="none"/></style:style>'
    '<style:style style:name="French" style:family="text"><style:text-properties fo:language="fr" fo:country="FR"/></style:style>'
)
AUTO = (
    '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Standard">'
    '<style:text-properties fo:language="es" fo:country="AR"/></style:style>'
    '<style:style style:name="P2" style:family="paragraph" style:parent-style-name="Quote_20_child"/>'
    '<style:style style:name="T1" style:family="text"><style:text-properties fo:language="en" fo:country="US"/></style:style>'
    '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>'
)


def _span(style: str, text: str) -> str:
    return f'<text:span text:style-name="{style}">{text}</text:span>'


def test_styles_and_spans_decide_by_characters():
    body = "".join([
        p("Die Ergebnisse stehen in Tabelle 2."),
        p("Die Studie nennt es " + _span("T1", "a state-of-the-art ledger for every") + " Fall."),
        p("Quiero decir lo que digo.", "P1"),
        p("Inherited through the quote style.", "P2"),
        p("print(ledger)", "Code"),
        p("Wie man sagt: " + _span("French", "c'est la vie, " + _span("T2", "mon ami")) + "."),
        p("Nur " + _span("T1", "one") + " Wort."),
    ])
    doc = adapters.read(odt(body, AUTO, STYLES))
    assert doc.meta["language"] == "de-DE"
    assert {u.text: u.meta.get("lang") for u in doc.units} == {
        "Die Ergebnisse stehen in Tabelle 2.": "de-DE",  # the default style
        "Die Studie nennt es a state-of-the-art ledger for every Fall.": "en-US",  # most characters
        "Quiero decir lo que digo.": "es-AR",  # the automatic style
        "Inherited through the quote style.": "en-GB",  # the common style's parent
        "print(ledger)": None,  # zxx: no language
        "Wie man sagt: c'est la vie, mon ami.": "fr-FR",  # a bold span inside keeps the French
        "Nur one Wort.": "de-DE",
    }


def test_no_default_style_keeps_the_meta_language():
    doc = adapters.read(odt(p("Plain text.")))
    assert "language" not in doc.meta and "lang" not in doc.units[0].meta


@pytest.mark.parametrize("name, language", [("forms.odt", "es-AR"), ("base_text.odt", "fr-FR"),
                                            ("referenceToText.odt", "de-DE")])
def test_corpus_languages(name, language):
    doc = adapters.read_path(str(corpus_file(name)))
    assert doc.meta["language"] == language
    assert {u.meta.get("lang") for u in doc.units if u.kind not in ("figure", "equation")} == {language}


def test_corpus_folders_are_tagged_as_their_authors_wrote_them():
    """LibreOffice files of pandoc's tests are German, odfdo's French (a few English ones)."""
    seen = {"pandoc": set(), "odfdo": set()}
    for path in corpus_files(".odt"):
        folder = "pandoc" if "pandoc" in path.parts else "odfdo" if "odfdo" in path.parts else None
        if folder:
            seen[folder].add((adapters.read_path(str(path)).meta.get("language") or "")[:2])
    if not any(seen.values()):
        pytest.skip("no corpus")
    assert "de" in seen["pandoc"] and "fr" in seen["odfdo"]
    assert seen["pandoc"] <= {"de", "en", ""} and seen["odfdo"] <= {"fr", "en", "es", "de"}
