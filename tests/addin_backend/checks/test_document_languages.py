"""``ledger check`` in German, French and Spanish: Unicode words, and English-only rules kept
to English text.

Hand-built documents give one realistic sentence per rule; the real documents are Debian's
translated manual pages (dpkg, man-db, xz-utils, apt ship them) converted by pandoc as a
user would convert them, once tagged with their language and once with pandoc's default
``en-US`` (the tag many templates carry whatever the text).
"""
from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest

import adapters
from adapters import words
from addin_backend.checks.document import check_document
from addin_backend.language.detect import is_english, unit_language
from addin_backend.checks.style.hyphenation import variant_findings
from addin_backend.checks.terminology import acronym_findings, find_acronyms

from ..edits.docs import make_doc


def _doc(rows, language=None):
    doc = make_doc(rows)
    if language:
        doc.meta["language"] = language
    return doc


# --- hand-built documents ---------------------------------------------------------------------

def test_german_words_are_not_cut_at_sharp_s_or_umlauts():
    doc = _doc([
        ("p1", "paragraph", "Er schließt die Datei, bevor er sie erschließt. Die Erschließung dauert.", None),
        ("p2", "paragraph", "Die Datei wird nach dem Entpacken geprüft. Nachdem sie geprüft ist, und er zustimmt, "
                            "wird sie unter /etc abgelegt; wie der Administrator es wünscht, wieder und wieder.", None),
    ], "de-DE")
    assert variant_findings(doc) == []


def test_spanish_word_joins_are_english_only():
    doc = _doc([
        ("p1", "paragraph", "La ciudad es grande y las ciudades vecinas crecen en torno al río.", None),
        ("p2", "paragraph", "El entorno es verde; sin embargo, la ciudad es ruidosa.", None),
    ])  # untagged: the words tell Spanish
    assert [unit_language(u, doc) for u in doc.units] == ["es", "es"]
    assert variant_findings(doc) == []


def test_hyphenated_and_closed_forms_are_compared_in_every_language():
    doc = _doc([
        ("p1", "paragraph", "Senden Sie eine E-Mail an den Support. Die E-Mail wird sofort beantwortet.", None),
        ("p2", "paragraph", "Jede Email wird archiviert, und die Befehlszeilen-Option ist dokumentiert.", None),
        ("p3", "paragraph", "Die Befehlszeilenoption --force überschreibt die Datei, wenn sie nicht gesperrt ist.", None),
    ], "de")
    got = [(f.evidence, f.suggestion) for f in variant_findings(doc)]
    assert got == [("Befehlszeilenoption", "befehlszeilen-option"), ("Email", "e-mail")]
    for f in variant_findings(doc):
        text = doc.unit(f.unit).text
        assert (f.start, f.end) in words.spans(text)  # the finding is a whole word


def test_an_english_paragraph_in_a_french_document_keeps_the_english_rules():
    doc = _doc([
        ("p1", "paragraph", "Le fichier de configuration est lu au démarrage, parce que le service en a besoin.", None),
        ("p2", "paragraph", "Par ce moyen, le service démarre plus vite et il ne lit pas les autres fichiers.", None),
        ("p3", "paragraph", "The data set is loaded at start-up and the dataset is then kept in memory for the service.", None),
    ], "fr")
    assert [unit_language(u, doc) for u in doc.units] == ["fr", "fr", "en"]
    got = [f.message for f in variant_findings(doc)]
    assert got == ["one term spelled 2 ways: 'data set' (1), 'dataset' (1); the usual form is 'data set'"]


def test_soft_hyphens_and_non_breaking_hyphens():
    doc = _doc([
        ("p1", "paragraph", "Die Daten\u00adbank wird gesichert, bevor die Datenbank aktualisiert wird.", None),
        ("p2", "paragraph", "Die E\u2011Mail wird gesendet, und die E-Mail wird protokolliert.", None),
    ], "de")
    assert variant_findings(doc) == []  # one spelling each, however Word stores it


def test_acronyms_known_to_readers_of_the_language():
    doc = _doc([
        ("p1", "paragraph", "Die UNO und die USA haben mit der EU verhandelt; die NATO war nicht beteiligt.", None),
        ("p2", "paragraph", "Das Gesetz gilt seit 2020 auch für die PKW der Behörde und die EDV der Stadt.", None),
        ("p3", "paragraph", "Der Vertrag mit dem UK wurde neu verhandelt, und die BKA-Statistik liegt vor.", None),
    ], "de")
    got = [(f.kind, f.evidence) for f in acronym_findings(doc)]
    assert got == [("undefined_acronym", "UK")]  # "UK" is what English readers know, not German ones


def test_the_name_of_a_cited_statute_needs_no_expansion():
    """"§ 823 Abs. 1 BGB", "Art. 6 Abs. 1 lit. b DSGVO": the abbreviation names the law a citation
    cites, as "RFC" names the series of "RFC 9000"; an abbreviation no citation names is still
    reported, and so is one written before a statute's part rather than after it."""
    doc = _doc([
        ("p1", "paragraph", "Die Haftung richtet sich nach § 823 Abs. 1 Satz 2 BGB; die Verarbeitung ist nach "
                            "Art. 6 Abs. 1 lit. b DSGVO zulässig.", None),
        ("p2", "paragraph", "Jeder Vorfall wird an das KVZ gemeldet, das nach der ZPO Art. 4 prüft.", None),
    ], "de")
    got = sorted(f.evidence for f in acronym_findings(doc) if f.kind == "undefined_acronym")
    assert got == ["KVZ", "ZPO"]


def test_a_german_expansion_inflected_is_the_same_expansion():
    doc = _doc([
        ("p1", "paragraph", "Es gelten die Allgemeinen Geschäftsbedingungen (AGB) der Firma.", None),
        ("p2", "paragraph", "Die Allgemeine Geschäftsbedingung (AGB) wird jährlich geprüft.", None),
    ], "de")
    kinds = [f.kind for f in acronym_findings(doc)]
    assert "acronym_redefined" not in kinds


def test_words_in_capitals_are_not_acronyms():
    doc = _doc([
        ("h1", "section", "SINOPSIS", None, None, None, "Heading 1", None, 1),
        ("p1", "paragraph", "Las opciones se describen en la sección SINOPSIS de esta página.", None),
        ("h2", "section", "BEISPIELE", None, None, None, "Heading 1", None, 1),
        ("p2", "paragraph", "Es gibt KEINE HAFTUNG für Schäden, die durch das Programm entstehen.", None),
        ("p2b", "paragraph", "Es werden keine Daten an Dritte gesendet.", None),
        ("p3", "paragraph", "Traduction française par Ariel VARDI et Philippe BATAILLER, 2002.", None),
        ("p4", "paragraph", "Jede Zeile beginnt mit YYYY-MM-DD HH:MM:SS, und APT::Get::Assume-Yes ist eine Option.", None),
        ("p5", "paragraph", "Der Dienst nutzt das WAL, um Daten zu sichern.", None),
    ])
    assert [f.evidence for f in acronym_findings(doc)] == ["WAL"]
    assert not {"SINOPSIS", "BEISPIELE", "HAFTUNG", "VARDI", "BATAILLER", "HH", "MM", "SS", "APT"} & set(find_acronyms(doc))


# --- real documents ---------------------------------------------------------------------------

MAN = Path("/usr/share/man")
#: Translated manual pages of packages every Debian system has (dpkg, apt, man-db) and xz-utils.
PAGES = [("de", "man1/dpkg.1.gz"), ("de", "man1/xz.1.gz"), ("de", "man5/apt.conf.5.gz"),
         ("fr", "man1/dpkg.1.gz"), ("fr", "man1/xz.1.gz"), ("fr", "man1/man.1.gz"),
         ("es", "man1/man.1.gz"), ("es", "man5/apt_preferences.5.gz"), ("es", "man8/apt-cache.8.gz")]


@pytest.fixture(scope="module")
def manuals(tmp_path_factory) -> dict[tuple[str, str, str], Path]:
    if not shutil.which("pandoc"):
        pytest.skip("pandoc is missing (`make test` installs it)")
    have = [(lang, page) for lang, page in PAGES if (MAN / lang / page).exists()]
    if not have:
        pytest.skip("no translated manual pages under /usr/share/man")
    out = tmp_path_factory.mktemp("manuals")
    paths = {}
    for lang, page in have:
        roff = gzip.decompress((MAN / lang / page).read_bytes())
        for fmt in ("docx", "odt"):
            path = out / f"{lang}.{Path(page).stem}.{fmt}"
            subprocess.run(["pandoc", "-f", "man", "-t", fmt, "-M", f"lang={lang}", "-o", str(path)], input=roff,
                           check=True, timeout=120)
            paths[(lang, page, fmt)] = path
    return paths


def _cases(manuals):
    for (lang, page, fmt), path in sorted(manuals.items()):
        for tag in (None, "en-US"):
            doc = adapters.read_path(str(path))
            if tag:
                doc.meta["language"] = tag  # what pandoc writes without -M lang
                for u in doc.units:
                    u.meta.pop("lang", None)
            yield lang, f"{lang}/{page}.{fmt} tagged {tag or lang}", doc


def _two_word_forms(message: str) -> list[str]:
    return [form for form in message.split("'")[1::2] if " " in form]


def test_manual_pages_get_no_english_only_findings(manuals):
    """No two-word variant ("und er" / "under") outside English paragraphs, and every
    variant's parts are whole words of the text."""
    for lang, name, doc in _cases(manuals):
        findings = check_document(doc)
        for f in findings:
            if f.kind != "variant_spelling":
                continue
            text = doc.unit(f.unit).text
            spans = words.spans(text)
            assert any(s == f.start for s, _ in spans) and any(e == f.end for _, e in spans), (name, f.evidence)
            for part in f.evidence.split():
                assert part in words.words(text), (name, f.evidence)
            for form in _two_word_forms(f.message):
                # noted in English paragraphs only (the pages keep some untranslated)
                where = [u for u in doc.units if form in " ".join(w.lower() for w in words.words(u.text))]
                assert where and any(is_english(u, doc) for u in where), (name, f.message)


def test_manual_pages_are_read_in_their_language(manuals):
    for lang, name, doc in _cases(manuals):
        langs = [unit_language(u, doc) for u in doc.units if len(u.text.split()) >= 3]
        assert langs.count(lang) >= 0.7 * len(langs), (name, {x: langs.count(x) for x in set(langs)})


def test_manual_page_acronyms_are_whole_capital_words(manuals):
    for lang, name, doc in _cases(manuals):
        for f in check_document(doc):
            if f.kind != "undefined_acronym":
                continue
            text = doc.unit(f.unit).text
            before, after = text[f.start - 1 : f.start], text[f.end : f.end + 1]
            assert not (before and words.is_word_char(before)) and not (after and words.is_word_char(after)), (name, f.evidence)
            low = f.evidence.lower()
            # not a word the page writes in ordinary case (a heading's "BEISPIELE", "Beispiele")
            assert not low.isalpha() or not any(w.lower() == low and not w.isupper() and w != f.evidence for u in doc.units for w in words.words(u.text)), (name, f.evidence)
