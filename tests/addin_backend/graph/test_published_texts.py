"""Clause references in published licences, converted by pandoc as a user would convert them.

Debian ships the texts (/usr/share/common-licenses); pandoc's conversion leaves most clause
headings as plain or list-numbered paragraphs and every cross-reference as plain text
("section 10", "Sections 5.1 or 5.2", "subsection 6b"), with references to other works in
the same words ("section 6 of the GNU GPL", "the GNU Affero General Public License, section
13"). Each internal reference must reach its clause; none may be left broken; the external
ones must not become edges.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import adapters
import re

from addin_backend.graph import DEPENDS, FAST_STAGES, REFERENCES, build_graph
from addin_backend.language.forms import lemma

LICENSES = Path("/usr/share/common-licenses")

#: Licence -> the openings of the clauses its text cites (each must be cited, nothing else).
CITED = {
    "GPL-3": {
        "Conveying Verbatim Copies.", "Conveying Modified Source Versions.", "Conveying Non-Source Forms.",
        "Additional Terms.", "Automatic Licensing of Downstream Recipients.", "Patents.",
        "Disclaimer of Warranty.", "Limitation of Liability.",
    },
    "LGPL-3": {"Object Code Incorporating Material from Library Header Files.", "Combined Works."},
    "Apache-2.0": {
        "Definitions.", "Grant of Copyright License.", "Grant of Patent License.", "Redistribution.",
        "Submission of Contributions.", "Trademarks.", "Disclaimer of Warranty.", "Limitation of Liability.",
        "Accepting Warranty or Additional Liability.",
    },
    "MPL-2.0": {
        "2. License Grants and Conditions", "2.1. Grants", "3.1. Distribution of Source Form",
        "3.2. Distribution of Executable Form", "3.3. Distribution of a Larger Work", "3.4. Notices",
        "5.1. The rights granted", "5.2. If You initiate litigation", "10.2. Effect of New Versions",
        "10.3. Modified Versions",
    },
}


@pytest.fixture(scope="module")
def converted(tmp_path_factory) -> Path:
    if not shutil.which("pandoc") or not LICENSES.is_dir():
        pytest.skip("pandoc or Debian's licence texts are missing (`make test` installs pandoc)")
    out = tmp_path_factory.mktemp("licences")
    for name in CITED:
        for fmt in ("docx", "odt"):
            subprocess.run(["pandoc", "-f", "markdown", "-t", fmt, str(LICENSES / name), "-o", str(out / f"{name}.{fmt}")],
                           check=True, timeout=120)
    return out


@pytest.mark.parametrize("fmt", ["docx", "odt"])
@pytest.mark.parametrize("name", sorted(CITED))
def test_every_clause_reference_reaches_its_clause(converted: Path, name: str, fmt: str):
    doc = adapters.read_path(str(converted / f"{name}.{fmt}"))
    G = build_graph(doc, stages=FAST_STAGES)
    assert G.graph["broken_references"] == []
    targets = [doc.unit(t).text for _, t, d in G.edges(data=True) if d["type"] == REFERENCES]
    cited = {want for want in CITED[name] if any(t.startswith(want) for t in targets)}
    assert cited == CITED[name]
    stray = [t[:60] for t in targets if not any(t.startswith(want) for want in CITED[name])]
    assert stray == []  # e.g. "section 6 of the GNU GPL" would reach LGPL's own clause 6


@pytest.mark.parametrize("name", ["MPL-2.0", "Apache-2.0", "GPL-3", "LGPL-3"])
def test_defined_terms_link_each_use_to_its_definition(converted: Path, name: str):
    """Licences define their terms in quotes ("Covered Software" means ...); each use of a
    term depends on the unit that defines it, and a capitalised "this License" is such a term,
    never an anaphor pointing at the nearest paragraph that says "license"."""
    doc = adapters.read_path(str(converted / f"{name}.docx"))
    G = build_graph(doc, stages=(*FAST_STAGES, "depends"))
    deps = [(doc.unit(t).text, d) for _, t, d in G.edges(data=True) if d["type"] == DEPENDS]
    definitions = [(text, d["evidence"]) for text, d in deps if d.get("origin") == "definition"]
    assert len(definitions) >= 10
    for target, evidence in definitions:
        # the use in any of the term's forms ("a System Library" uses "System Libraries")
        used = lemma(re.sub(r"\s+", " ", evidence.split(" -> ")[0]).lower())
        quoted = [lemma(q.lower()) for q in re.findall(r"[\u201c\"]([^\u201d\"]+)[\u201d\"]", target)]
        assert any(used.startswith(q) or q.startswith(used) for q in quoted), (evidence, target[:80])
    anaphors = [d["evidence"] for _, d in deps if d.get("origin") == "anaphora"]
    assert not [e for e in anaphors if re.match(r"(?i:this|these|such)\s+[A-Z][a-z]", e)], anaphors


@pytest.mark.parametrize("fmt", ["docx", "odt"])
def test_deleting_a_list_numbered_clause_renumbers_the_references_after_it(converted: Path, fmt: str):
    """GPL-3's clauses are numbered by a list from 0: "Delete section 7" takes the clause (its
    heading item and its body, up to clause 8); Word and LibreOffice renumber the list, so the
    references to clauses 8-17 move down by one and those to clause 7 are findings."""
    from addin_backend.edits.pipeline import apply_plan, plan_edit

    path = converted / f"GPL-3.{fmt}"
    doc = adapters.read_path(str(path))
    plan = plan_edit(doc, build_graph(doc, stages=FAST_STAGES), "Delete section 7", author="Ana", semantic=False)
    gone = [doc.unit(e.unit).text for e in plan.operations]
    assert gone[0] == "Additional Terms." and len(gone) >= 5
    assert not any(t == "Termination." for t in gone)  # clause 8 stays
    assert sorted((e.old, e.text) for e in plan.propagated) == [("10", "9"), ("10", "9"), ("11", "10"), ("15", "14"), ("16", "15")]
    assert plan.renumbered["Section 8"] == "Section 7" and plan.renumbered["Section 17"] == "Section 16"
    assert sorted(f.kind for f in plan.findings) == ["reference_to_deleted", "reference_to_deleted"]
    applied = apply_plan(path.read_bytes(), doc, plan.edits)
    text = "\n".join(adapters.read(applied.data).lines())
    assert "section 9 makes it unnecessary" in text and "Additional Terms." in "\n".join(adapters.read(applied.data).lines("rejected"))


def test_a_typed_clause_is_named_by_its_number_and_keeps_it(converted: Path):
    """MPL-2.0's sub-clauses are typed ("2.1. Grants"): the number is text, nothing renumbers
    it, so deleting the clause leaves the references to it as findings."""
    from addin_backend.edits.pipeline import plan_edit

    doc = adapters.read_path(str(converted / "MPL-2.0.docx"))
    plan = plan_edit(doc, build_graph(doc, stages=FAST_STAGES), "Delete Section 2.1", author="Ana", semantic=False)
    assert [doc.unit(e.unit).text[:10] for e in plan.operations][0] == "2.1. Grant"
    assert not any(doc.unit(e.unit).text.startswith("2.2.") for e in plan.operations)
    assert plan.propagated == [] and {f.kind for f in plan.findings} == {"broken_reference"}


def _walk(nodes):
    for n in nodes:
        yield n
        yield from _walk(n["children"])


@pytest.mark.parametrize("fmt", ["docx", "odt"])
def test_the_outline_shows_clauses_a_conversion_left_as_text(converted: Path, fmt: str):
    from addin_backend.store.documents import outline

    gpl = outline(adapters.read_path(str(converted / f"GPL-3.{fmt}")))
    assert [(n["kind"], n["number"]) for n in gpl] == [("clause", str(i)) for i in range(18)]
    assert gpl[7]["title"] == "Additional Terms." and gpl[7]["label"] == "Section 7"
    mpl = outline(adapters.read_path(str(converted / f"MPL-2.0.{fmt}")))
    grants = next(n for n in _walk(mpl) if n["kind"] == "section" and n["title"].startswith("2. License Grants"))
    assert [(n["kind"], n["number"], n["title"]) for n in grants["children"]][:3] == [
        ("clause", "2.1", "Grants"), ("clause", "2.2", "Effective Date"), ("clause", "2.3", "Limitations on Grant Scope")]


def test_a_plain_numbered_list_is_not_an_outline():
    from addin_backend.store.documents import outline
    from tests.conftest import corpus_file

    for name in ("lists-compact.docx", "lists_continuing.docx", "orderedListSimple.odt"):
        assert [n for n in _walk(outline(adapters.read_path(str(corpus_file(name))))) if n["kind"] == "clause"] == []
