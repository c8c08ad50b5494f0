"""A short coverage-guided fuzz of every target (``FUZZ_SECONDS`` each, 15 by default; ``make fuzz``
runs a long one), and the defects fuzzing found, each as a regression test."""
from __future__ import annotations

import io
import os
import zipfile

import pytest

from adapters.errors import CorruptDocumentError
from adapters.model import Replace
from addin_backend.errors import InvalidRequestError
from tests.conftest import corpus_file

from .seeds import seed_paths


def test_a_short_fuzz_of_every_target_finds_no_crash(capsys):
    pytest.importorskip("atheris")
    if not seed_paths():
        pytest.skip("no corpus to seed the fuzzer")
    from .run import main

    status = main(["--seconds", os.environ.get("FUZZ_SECONDS", "15")])
    out = capsys.readouterr().out
    print(out)
    last = out.strip().splitlines()[-1]
    assert last.startswith("fuzz: 4 targets,") and last.endswith(" 0 crashes"), out
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
