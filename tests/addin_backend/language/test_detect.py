"""The language of each unit: tags, scripts, function words, the document's language.

Sentences are real ones (Debian's translated manual pages, news-style prose), one per
language; the decision order is that of :mod:`addin_backend.language.detect`.
"""
from __future__ import annotations

import gzip
import shutil
import time
from pathlib import Path

import pytest

from adapters.model import Document, Unit
from addin_backend.language.detect import (
    detect, detected_document_language, document_language, guess, is_english, primary, unit_language,
)

SENTENCES = {
    "en": "The package is removed when no other package depends on it and the option is not set.",
    "de": "Das Paket wird entfernt, wenn kein anderes Paket davon abhängt und die Option nicht gesetzt ist.",
    "fr": "Le paquet est supprimé lorsque aucun autre paquet n'en dépend et que l'option n'est pas définie.",
    "es": "El paquete se elimina cuando ningún otro paquete depende de él y la opción no está activada.",
    "it": "Il pacchetto viene rimosso quando nessun altro pacchetto ne dipende e l'opzione non è impostata.",
    "pt": "O pacote é removido quando nenhum outro pacote depende dele e a opção não está definida.",
    "nl": "Het pakket wordt verwijderd als geen ander pakket ervan afhankelijk is en de optie niet is ingesteld.",
    "pl": "Pakiet jest usuwany, gdy żaden inny pakiet od niego nie zależy i opcja nie jest ustawiona.",
    "sv": "Paketet tas bort när inget annat paket är beroende av det och alternativet inte är satt.",
    "ru": "Пакет удаляется, если от него не зависит ни один другой пакет.",
    "uk": "Пакунок вилучається, якщо від нього не залежить жоден інший пакунок і її не встановлено.",
    "el": "Το πακέτο αφαιρείται όταν κανένα άλλο πακέτο δεν εξαρτάται από αυτό.",
    "he": "החבילה מוסרת כאשר אף חבילה אחרת אינה תלויה בה.",
    "ar": "تتم إزالة الحزمة عندما لا تعتمد عليها أي حزمة أخرى.",
    "fa": "بسته حذف می\u200cشود وقتی هیچ بسته دیگری به آن وابسته نباشد.",
    "hi": "जब कोई अन्य पैकेज इस पर निर्भर नहीं करता तो पैकेज हटा दिया जाता है।",
    "ja": "他のパッケージが依存していない場合、パッケージは削除されます。",
    "zh": "当没有其他软件包依赖它时，该软件包将被删除。",
    "ko": "다른 패키지가 의존하지 않으면 패키지가 제거됩니다.",
}


def unit(text: str, uid: str = "p", lang: str | None = None, kind: str = "paragraph") -> Unit:
    u = Unit(id=uid, kind=kind, text=text, order=0)
    if lang:
        u.meta["lang"] = lang
    return u


def doc_of(*units: Unit, language: str | None = None) -> Document:
    for i, u in enumerate(units):
        u.order = i
    d = Document(format="docx", units=list(units))
    if language:
        d.meta["language"] = language
    return d


@pytest.mark.parametrize("lang", sorted(SENTENCES))
def test_each_language_is_told_by_its_text(lang):
    assert detect(SENTENCES[lang]) == lang
    assert unit_language(unit(SENTENCES[lang])) == lang
    assert is_english(unit(SENTENCES[lang])) == (lang == "en")


def test_primary_subtags():
    assert [primary(t) for t in ("de-DE", "fr_CA", "ES", "zxx", "und", "", None)] == ["de", "fr", "es", None, None, None, None]


def test_the_units_own_tag_wins_over_the_documents():
    d = doc_of(unit(SENTENCES["de"], "a"), unit("Widget Pro 3000", "b", lang="en-GB"), language="de-DE")
    assert unit_language(d.units[1], d) == "en"
    assert unit_language(d.units[0], d) == "de"


def test_a_tag_in_another_script_yields_to_the_text():
    # Word tags the run en-US and keeps the East Asian language in w:eastAsia
    d = doc_of(unit(SENTENCES["zh"], lang="en-US"), language="en-US")
    assert unit_language(d.units[0], d) == "zh"
    assert unit_language(unit(SENTENCES["ja"], lang="en-US")) == "ja"
    assert unit_language(unit(SENTENCES["uk"], lang="uk")) == "uk"  # a tag of the same script stands


def test_a_clear_paragraph_overrules_a_template_tag_a_short_one_does_not():
    d = doc_of(unit(SENTENCES["de"], "a"), unit(SENTENCES["en"], "b"), unit("Übersicht", "c", kind="section"),
               unit("Version 2", "d"), language="de")
    assert [unit_language(u, d) for u in d.units] == ["de", "en", "de", "de"]
    # a tag equal to the default (LibreOffice tags all typed text so) counts as the default
    d.units[1].meta["lang"] = "de-DE"
    assert unit_language(d.units[1], d) == "en"


def test_an_untagged_document_gives_short_units_the_language_of_its_body():
    body = [unit(SENTENCES["de"] + " " + SENTENCES["de"], f"p{i}") for i in range(4)]
    d = doc_of(unit("Beispiele", "h", kind="section"), *body, unit("Siehe auch", "s", kind="section"))
    assert detected_document_language(d).lang == "de"
    assert unit_language(d.units[0], d) == "de" and unit_language(d.units[-1], d) == "de"
    assert not is_english(d.units[0], d)
    assert unit_language(unit("Beispiele")) == "en"  # without its document, nothing tells


def test_a_document_that_says_otherwise_than_its_tag():
    """pandoc writes en-US into every .docx it makes; the body text is German."""
    body = [unit(SENTENCES["de"], f"p{i}") for i in range(5)]
    d = doc_of(unit("Optionen", "h", kind="section"), *body, language="en-US")
    assert document_language(d) == "de"
    assert unit_language(d.units[0], d) == "de"
    # a tag the detector cannot check against stands: Slovak reads much like Czech
    sk = doc_of(*[unit("Balík sa odstráni, keď od neho nezávisí žiadny iný balík a voľba nie je nastavená.", f"p{i}")
                  for i in range(5)], language="sk")
    assert document_language(sk) == "sk" and unit_language(sk.units[0], sk) == "sk"


def test_mixed_documents_paragraph_by_paragraph():
    d = doc_of(*(unit(SENTENCES[lang], lang) for lang in ("de", "en", "fr", "es", "en", "de")))
    assert [unit_language(u, d) for u in d.units] == ["de", "en", "fr", "es", "en", "de"]


def test_the_document_language_follows_added_units():
    d = doc_of(*[unit(SENTENCES["fr"], f"p{i}") for i in range(4)])
    assert document_language(d) == "fr"
    d.units[:] = [unit(SENTENCES["es"], f"q{i}") for i in range(4)]
    d.units.append(unit(SENTENCES["es"], "q9"))
    assert document_language(d) == "es"


def test_names_in_han_and_formulas_in_an_english_text():
    assert guess("山本和彦").lang == "zh"  # an author's name: that unit only
    assert guess("C'.parent_hash = ph(Z') = H(Z', ph=Z'.parent_hash, osth=th(D))").lang is None
    assert guess("x = y + z if w > 0").lang is None  # one-letter words are variables


def test_it_is_cheap():
    texts = [f"{SENTENCES[lang]} ({i})" for i in range(300) for lang in ("en", "de", "fr", "es", "ru", "zh")]
    guess.cache_clear()
    t = time.perf_counter()
    for s in texts:
        guess(s)
    per_unit = (time.perf_counter() - t) / len(texts)
    assert per_unit < 200e-6, per_unit  # microseconds a unit (about 10 on an idle core)


MAN = Path("/usr/share/man")


@pytest.mark.parametrize("lang,page", [("de", "man1/dpkg.1.gz"), ("fr", "man1/dpkg.1.gz"), ("es", "man1/man.1.gz")])
def test_translated_manual_pages_paragraph_by_paragraph(lang, page):
    """Debian's translated manual pages (shipped by dpkg and man-db): of the paragraphs of ten
    words or more that the detector names, most are named right and few English; the rest
    are the pages' untranslated English paragraphs and option lists."""
    path = MAN / lang / page
    if not path.exists() or not shutil.which("pandoc"):
        pytest.skip(f"{path} or pandoc is missing")
    import subprocess

    text = subprocess.run(["pandoc", "-f", "man", "-t", "plain", "--wrap=none"], input=gzip.decompress(path.read_bytes()),
                          capture_output=True, check=True, timeout=120).stdout.decode("utf-8")
    paras = [p for p in text.split("\n\n") if len(p.split()) >= 10]
    named = [detect(p) for p in paras]
    told = [x for x in named if x]
    assert len(told) >= 0.7 * len(paras)
    assert told.count(lang) >= 0.85 * len(told)
