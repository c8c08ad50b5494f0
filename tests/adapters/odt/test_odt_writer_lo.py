"""The ODT writer's outputs opened in a real, headless LibreOffice (Python UNO).

For every case of ``writer_cases``: LibreOffice lists exactly the intended tracked changes
(type, author, text, in document order); its Accept All gives the intended edited text
(the backend's ``apply_to_document``); its Reject All gives the input's own rejected text;
and our ``accept_all``/``reject_all`` outputs read in LibreOffice as its own Accept All /
Reject All. Our accept_all/reject_all are also checked on files LibreOffice itself wrote
with change recording on (``lo_make_tracked.py``).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from adapters.odt.resolve import accept_all, reject_all
from addin_backend.edits.operations import apply_to_document
from tests.adapters.odt.writer_cases import cases, nonblank, same_redlines
from tests.libreoffice import probe, require_libreoffice, run_uno_script

pytestmark = pytest.mark.slow

MAKER = Path(__file__).with_name("lo_make_tracked.py")


def _texts(result: dict, op: str) -> list[str]:
    assert "error" not in result, result.get("error")
    if op == "paragraphs":
        return nonblank([p["text"] for p in result["paragraphs"]])
    return nonblank(result[op])


@pytest.fixture(scope="module")
def seen(tmp_path_factory):
    """One LibreOffice run over every output, its input, and our accept/reject of it."""
    require_libreoffice()
    folder = tmp_path_factory.mktemp("writer-lo")
    jobs = []
    written = [c for c in cases() if c.libreoffice]
    for c in written:
        for kind, data in (("out", c.out), ("in", c.data), ("acc", accept_all(c.out)), ("rej", reject_all(c.out))):
            path = folder / f"{c.name}.{kind}.odt"
            path.write_bytes(data)
            jobs.append(path)
    results = iter(probe(jobs, ("paragraphs", "redlines", "accepted", "rejected")))
    return {c.name: (c, {kind: next(results) for kind in ("out", "in", "acc", "rej")}) for c in written}


def test_libreoffice_lists_exactly_the_intended_changes(seen):
    for name, (c, r) in seen.items():
        got = [(x["type"], x["author"], x["text"]) for x in r["out"]["redlines"]]
        assert same_redlines(got, c.redlines), (name, got)


def test_inserted_paragraphs_have_the_given_style_and_list(seen):
    c, r = seen["headings_and_list_items"]
    paras = {p["text"]: p for p in r["out"]["paragraphs"]}
    assert (paras["Design"]["style"], paras["Design"]["outline"]) == ("Heading 2", 2)
    assert [paras[t]["label"] for t in ("Alpha item", "Alpha two item")] == ["1.", "2."]
    c, r = seen["insert_delete_move_paragraphs"]
    paras = {p["text"]: p for p in r["out"]["paragraphs"]}
    assert paras["A new paragraph after the first."]["style"] == "Standard"
    c, r = seen["paragraph_inside_a_list"]
    paras = {p["text"]: p for p in r["out"]["paragraphs"]}
    assert [(paras[t]["label"], paras[t]["style"]) for t in ("A second", "A plain paragraph.", "A third")] == [
        ("2.", "Standard"), ("", "Text body"), ("3.", "Standard")]


def test_libreoffice_accept_all_gives_the_edited_text(seen):
    for name, (c, r) in seen.items():
        intended = nonblank(c.accepted or apply_to_document(c.doc, c.edits).lines())
        assert _texts(r["out"], "accepted") == intended, name


def test_libreoffice_reject_all_gives_the_original_text(seen):
    for name, (c, r) in seen.items():
        assert _texts(r["out"], "rejected") == _texts(r["in"], "rejected"), name


def test_our_accept_all_and_reject_all_agree_with_libreoffice(seen):
    for name, (c, r) in seen.items():
        assert _texts(r["acc"], "paragraphs") == _texts(r["out"], "accepted"), name
        assert _texts(r["rej"], "paragraphs") == _texts(r["out"], "rejected"), name
        assert r["acc"]["redlines"] == [] and r["rej"]["redlines"] == [], name


def test_our_accept_all_and_reject_all_on_files_libreoffice_tracked(tmp_path):
    proc = run_uno_script(MAKER, str(tmp_path), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    made = sorted(tmp_path.glob("lo_*.odt"))
    assert len(made) == 3
    jobs = []
    for path in made:
        data = path.read_bytes()
        for kind, out in (("acc", accept_all(data)), ("rej", reject_all(data))):
            target = tmp_path / f"{path.stem}.{kind}.odt"
            target.write_bytes(out)
            jobs.append(target)
    results = probe(made + jobs, ("paragraphs", "accepted", "rejected"))
    theirs, ours = results[: len(made)], results[len(made) :]
    for i, path in enumerate(made):
        assert _texts(ours[2 * i], "paragraphs") == _texts(theirs[i], "accepted"), path.name
        assert _texts(ours[2 * i + 1], "paragraphs") == _texts(theirs[i], "rejected"), path.name
