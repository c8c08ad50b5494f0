"""A short coverage-guided fuzz of every target (``FUZZ_SECONDS`` each, 15 by default; ``make fuzz``
runs a long one), and the defects fuzzing found, each as a regression test."""
from __future__ import annotations

import io
import os
import shutil
import zipfile

import pytest

from adapters.errors import CorruptDocumentError
from adapters.model import Replace
from addin_backend.errors import InvalidRequestError
from tests.conftest import corpus_file

from .seeds import seed_paths


def test_a_short_fuzz_of_every_target_finds_no_crash(capsys, output_dir):
    """Repeatable (``--seed 1``): the same seeds and mutations on every machine, so the suite does
    not pass or fail by chance; ``make fuzz`` explores anew. A crash's input is kept in
    test-output/fuzz/TARGET-crashes (replay it with ``python -m tests.fuzz.main TARGET FILE``),
    and the failure shows libFuzzer's report."""
    pytest.importorskip("atheris")
    if not seed_paths():
        pytest.skip("no corpus to seed the fuzzer")
    from .run import main

    keep = output_dir / "fuzz"
    shutil.rmtree(keep, ignore_errors=True)
    from .targets import SHORT_TARGETS

    status = main(["--seconds", os.environ.get("FUZZ_SECONDS", "15"), "--keep", str(keep), "--seed", "1",
                   "--targets", ",".join(SHORT_TARGETS)])
    captured = capsys.readouterr()
    print(captured.out)
    last = captured.out.strip().splitlines()[-1]
    assert last.startswith("fuzz: 4 targets,") and last.endswith(" 0 crashes"), captured.out + captured.err
    assert status == 0


def test_a_member_whose_header_offset_is_damaged_is_corrupt_not_a_value_error():
    """Found by the package target: zipfile's "negative seek value" escaped as a ValueError (a 500)."""
    from adapters.package import open_package

    pkg = open_package(corpus_file("zen_of_python.docx").read_bytes())
    name = "word/styles.xml"
    pkg._names[name].header_offset = -1470
    with pytest.raises(CorruptDocumentError):
        pkg.read(name)


def test_two_insertions_at_one_point_of_a_unit_are_refused_as_contradictory():
    """Found by the writers target: the order of two insertions at one offset is undefined (the
    .docx writer refused them with a bare adapter error, the .odt writer wrote one order)."""
    from adapters import read
    from addin_backend.edits.operations import validate_edits

    doc = read(corpus_file("zen_of_python.docx").read_bytes())
    unit = next(u for u in doc.units if u.text.strip())
    edits = [Replace(unit.id, text=t, start=1, end=1, author="A", date="2026-01-01T00:00:00Z")
             for t in ("x", "y")]
    with pytest.raises(InvalidRequestError, match="overlapping"):
        validate_edits(doc, edits)


def test_the_upload_target_takes_the_documented_input_layout():
    from .targets import upload_input

    data = upload_input(b"PK\x03\x04", kind=3, filename=b"a.docx")
    assert data[:2] == bytes([3, 6]) and data[2:8] == b"a.docx" and data[8:] == b"PK\x03\x04"
    assert zipfile.is_zipfile(io.BytesIO(corpus_file("zen_of_python.docx").read_bytes()))


def test_an_insertion_after_a_field_a_replace_keeps_lands_after_the_replacement():
    """Found by the writers target: in a paragraph of three fields ("1", "2", "3": two variables
    and their sum), replacing "23" with "… 3.5" keeps the field "3" and writes ".5" after it; an
    insertion right after the replaced span was taken for a new result of the field (it sat at
    the field's edge) and landed before ".5"."""
    from adapters import read

    from .operations import concrete, round_trip

    data = corpus_file("expression.odt").read_bytes()
    doc = read(data)
    unit = next(u for u in doc.units if u.text == "123")
    edits = concrete(doc, [Replace(unit.id, text="— γάμμα", start=3, end=3, author="A", date="2026-01-02T03:04:05Z"),
                           Replace(unit.id, text="γάμμα naïve 3.5", start=1, end=3, author="A",
                                   date="2026-01-02T03:04:05Z")])
    assert edits is not None
    round_trip(data, doc, edits)  # raises when accept-all differs from the edited model


def test_a_rejected_deletion_shows_no_whitespace_word_ignored():
    """Found by the writers target: a paragraph opening with a run of two spaces in a ``w:t``
    without ``xml:space="preserve"`` (Word shows none) gained them when its deletion was
    rejected: the deleted text was marked to preserve them."""
    from adapters import read
    from adapters.model import Delete

    from .operations import concrete, round_trip

    data = corpus_file("normalize.docx").read_bytes()
    doc = read(data)
    twins = [u.id for u in doc.units if u.text == "These are different fonts."]
    assert len(twins) == 2
    edits = concrete(doc, [Delete(uid, author="A", date="2026-01-02T03:04:05Z") for uid in twins])
    assert edits is not None
    round_trip(data, doc, edits)  # raises when reject-all differs from the original


def test_a_paragraph_inserted_after_one_with_an_inline_picture_follows_the_picture():
    """Found by the writers target: the picture among a paragraph's words is a figure unit after
    the paragraph; the writer puts a new paragraph after the whole paragraph, picture included,
    while the model put it between the paragraph and its picture (a write_mismatch). The readers
    now say which paragraph a picture stands in (``meta["inline_in"]``)."""
    from adapters import read
    from adapters.model import InsertAfter

    from .operations import concrete, round_trip

    data = corpus_file("inline_images.docx").read_bytes()
    doc = read(data)
    picture = next(u for u in doc.units if u.kind == "figure" and u.meta.get("inline_in"))
    edits = concrete(doc, [InsertAfter(picture.meta["inline_in"], text="A new paragraph.", kind="paragraph",
                                       author="A", date="2026-01-02T03:04:05Z")])
    assert edits is not None
    round_trip(data, doc, edits)  # raises when accept-all differs from the edited model


@pytest.mark.parametrize("insert_first", [True, False])
def test_an_insertion_where_a_replace_starts_stands_before_it_in_either_order(insert_first):
    """The model puts an insertion before a replace that starts at the same point, whatever order
    the edits come in; the ODT writer followed the edits' order there."""
    from adapters import read

    from .operations import concrete, round_trip

    data = corpus_file("base_md_text.odt").read_bytes()
    doc = read(data)
    unit = next(u for u in doc.units if u.kind == "paragraph" and len(u.text) > 30 and not u.fields
                and u.text[20:24].isalpha())
    word = unit.text[20:24]  # the replace keeps the word: its own insertion stands at the same point
    edits = [Replace(unit.id, text="Beta", start=20, end=20, author="A", date="2026-01-02T03:04:05Z"),
             Replace(unit.id, text="don't é " + word, start=20, end=24, author="A", date="2026-01-02T03:04:05Z")]
    concrete_edits = concrete(doc, edits if insert_first else edits[::-1])
    assert concrete_edits is not None
    round_trip(data, doc, concrete_edits)  # raises when accept-all differs from the edited model


@pytest.mark.parametrize("insert_first", [True, False])
def test_docx_an_insertion_where_a_replace_that_keeps_its_first_word_starts(insert_first):
    """The DOCX twin of the case above (hardening.md): the replace's own insertion and the other
    edit's insertion stand at one point; the writer refused it with "overlapping text edits"."""
    from adapters import read

    from .operations import concrete, round_trip

    data = corpus_file("inline_formatting.docx").read_bytes()
    doc = read(data)
    unit = next(u for u in doc.units if u.kind == "paragraph" and len(u.text) > 30 and not u.fields
                and u.text[20:24].isalpha())
    word = unit.text[20:24]
    edits = [Replace(unit.id, text="Beta", start=20, end=20, author="A", date="2026-01-02T03:04:05Z"),
             Replace(unit.id, text="don't é " + word, start=20, end=24, author="A", date="2026-01-02T03:04:05Z")]
    concrete_edits = concrete(doc, edits if insert_first else edits[::-1])
    assert concrete_edits is not None
    round_trip(data, doc, concrete_edits)  # raised "overlapping text edits" before the fix
