"""Existing tracked changes: accepted and rejected views, paragraphs in one view only, revisions."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import adapters
from tests.adapters.odt.odt_build import odt
from tests.conftest import corpus_file, corpus_files
from tests.libreoffice import probe, run_uno_script

MAKER = Path(__file__).with_name("lo_make_tracked.py")


def _region(rid: str, kind: str, content: str = "") -> str:
    info = "<office:change-info><dc:creator>Ann</dc:creator><dc:date>2024-05-01T10:00:00</dc:date></office:change-info>"
    return f'<text:changed-region text:id="{rid}"><text:{kind}>{info}{content}</text:{kind}></text:changed-region>'


def _p(inner: str) -> str:
    return f'<text:p text:style-name="Standard">{inner}</text:p>'


#: Paragraphs inserted, deleted, merged and split, as LibreOffice 7.4 writes them.
ACROSS = (
    "<text:tracked-changes>"
    + _region("c1", "insertion")
    + _region("c2", "deletion", _p("follows"))
    + _region("c3", "insertion")
    + _region("c4", "deletion", _p("Charlie three will be deleted.") + _p(""))
    + _region("c5", "deletion", _p("") + _p(""))
    + _region("c6", "insertion")
    + _region("c7", "format-change")
    + _region("c8", "deletion", _p("<text:s/>and the end.") + _p("Golf seven."))
    + "</text:tracked-changes>"
    + _p('Alpha one.<text:change-start text:change-id="c1"/>')
    + _p('A new paragraph.<text:change-end text:change-id="c1"/>')
    + _p('Bravo two <text:change text:change-id="c2"/><text:change-start text:change-id="c3"/>comes after'
         '<text:change-end text:change-id="c3"/> it.')
    + _p('<text:change text:change-id="c4"/>Delta four merges<text:change text:change-id="c5"/>with Echo five.')
    + _p('Foxtrot six is split<text:change-start text:change-id="c6"/>')
    + _p('<text:change-end text:change-id="c6"/><text:s/>here.')
    + _p('Golf <text:change-start text:change-id="c7"/><text:span>seven</text:span><text:change-end text:change-id="c7"/>'
         ' ends<text:change text:change-id="c8"/>')
)

ACCEPTED = [
    "Alpha one.",
    "A new paragraph.",
    "Bravo two comes after it.",
    "Delta four mergeswith Echo five.",
    "Foxtrot six is split",
    " here.",
    "Golf seven ends",
]
REJECTED = [
    "Alpha one.",
    "Bravo two follows it.",
    "Charlie three will be deleted.",
    "Delta four merges",
    "with Echo five.",
    "Foxtrot six is split here.",
    "Golf seven ends and the end.",
    "Golf seven.",
]


@pytest.fixture(scope="module")
def across(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("across") / "across.odt"
    path.write_bytes(odt(ACROSS))
    return path


def test_corpus_tracked_changes_views_and_revisions():
    doc = adapters.read_path(str(corpus_file("trackedChanges.odt")))
    (u,) = doc.units
    assert (u.text, u.rejected_text) == ("Some text with  and inserted text.", "Some text with deleted text.")
    assert [(r.kind, r.author, r.date, r.text, r.unit) for r in doc.revisions] == [
        ("deletion", "Martin Linnemann", "2015-03-01T18:19:00", "deleted", u.id),
        ("insertion", "Martin Linnemann", "2015-03-01T18:19:00", "and inserted ", u.id),
    ]
    doc = adapters.read_path(str(corpus_file("tracked_changes.odt")))
    (u,) = doc.units
    assert doc.lines("accepted") == ["Bonjour  los bonitos amigos  ça va ?"]
    assert doc.lines("rejected") == ["Bonjour les amis, ça va ?"]
    assert [(r.kind, r.author, r.text) for r in doc.revisions] == [
        ("deletion", "Romain Gauthier", "les"),
        ("insertion", "Hervé Cauwelier", "los bonitos amigos "),
        ("deletion", "David Versmisse", "amis,"),
    ]


def test_paragraphs_inserted_deleted_merged_and_split(across):
    doc = adapters.read_path(str(across))
    assert doc.lines("accepted") == ACCEPTED
    assert doc.lines("rejected") == REJECTED
    view = [(u.text, u.rejected_text, u.meta.get("absent_in")) for u in doc.units]
    assert view == [
        ("Alpha one.", None, None),
        ("A new paragraph.", "", "rejected"),
        ("Bravo two comes after it.", "Bravo two follows it.", None),
        ("", "Charlie three will be deleted.", "accepted"),
        ("Delta four mergeswith Echo five.", "Delta four merges\nwith Echo five.", None),
        ("Foxtrot six is split", "Foxtrot six is split here.", None),
        (" here.", "", "rejected"),
        ("Golf seven ends", "Golf seven ends and the end.", None),
        ("", "Golf seven.", "accepted"),  # deleted with the paragraph break before it
    ]
    charlie = doc.units[3]
    assert charlie.anchor.get("view") == "rejected" and charlie.anchor.path.startswith("/0/")
    revs = {r.id: (r.kind, r.text, doc.unit(r.unit).text if r.unit else None) for r in doc.revisions}
    assert revs == {
        "c1": ("paragraph_insertion", "\nA new paragraph.", "Alpha one."),
        "c2": ("deletion", "follows", "Bravo two comes after it."),
        "c3": ("insertion", "comes after", "Bravo two comes after it."),
        "c4": ("paragraph_deletion", "Charlie three will be deleted.\n", ""),
        "c5": ("paragraph_deletion", "\n", "Delta four mergeswith Echo five."),
        "c6": ("paragraph_insertion", "\n", "Foxtrot six is split"),
        "c7": ("format_change", "", "Golf seven ends"),
        "c8": ("paragraph_deletion", " and the end.\nGolf seven.", "Golf seven ends"),
    }


_LO_KIND = {"Insert": "insertion", "Delete": "deletion", "Format": "format_change", "ParagraphFormat": "format_change"}


def _agree_with_libreoffice(paths: list[Path]) -> int:
    results = probe(paths, ("accepted", "rejected", "redlines"))
    checked = 0
    for path, result in zip(paths, results):
        assert "error" not in result, (path.name, result.get("error"))
        doc = adapters.read_path(str(path))
        for view in ("accepted", "rejected"):
            theirs = [line for par in result[view] for line in par.split("\n") if line.strip()]
            ours = [line for line in doc.lines(view) if line.strip()]
            assert ours == theirs, (path.name, view)
        theirs = Counter((_LO_KIND[r["type"]], r["text"]) for r in result["redlines"])
        ours = Counter((r.kind.replace("paragraph_", ""), r.text if r.kind != "format_change" else None) for r in doc.revisions)
        theirs = Counter({(k, t if k != "format_change" else None): n for (k, t), n in theirs.items()})
        assert ours == theirs, path.name
        checked += 1
    return checked


@pytest.mark.slow
def test_views_and_revisions_equal_libreoffice_on_corpus_and_built_files(across):
    """doc.lines(view) equals LibreOffice after Accept All / Reject All; revision texts too."""
    files = [f for f in corpus_files(".odt") if b"tracked-changes" in _content(f)]
    assert {f.name for f in files} == {"trackedChanges.odt", "tracked_changes.odt"}
    assert _agree_with_libreoffice(files + [across]) == 3


@pytest.mark.slow
def test_views_equal_libreoffice_on_documents_it_edited(tmp_path):
    """LibreOffice edits documents with tracking on (lo_make_tracked.py); we read its files."""
    proc = run_uno_script(MAKER, str(tmp_path), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    made = sorted(tmp_path.glob("*.odt"))
    assert [p.stem for p in made] == ["lo_across", "lo_paragraphs", "lo_table_note"]
    assert _agree_with_libreoffice(made) == 3
    doc = adapters.read_path(str(tmp_path / "lo_table_note.odt"))
    table = next(u for u in doc.units if u.kind == "table")
    note = next(u for u in doc.units if u.kind == "footnote")
    assert (table.text.split("\n")[-1], table.rejected_text.split("\n")[-1]) == ("two hundred", "one hundred")
    assert (note.text, note.rejected_text) == ("The text is short. Now it is longer.", "The note text is short.")


def _content(path: Path) -> bytes:
    import zipfile

    with zipfile.ZipFile(path) as z:
        return z.read("content.xml")
