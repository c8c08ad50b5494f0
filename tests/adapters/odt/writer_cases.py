"""Scenarios for the ODT writer: a document, edits, and the tracked changes they must give.

Each :class:`Case` names its source (a corpus file or a package built with ``odt_build``),
makes its edits from the document it reads (units found by text, as a user would point at
them), validates them with the backend, writes them, and says which tracked changes a
word processor must list: ``(type, author, text)`` as LibreOffice's redline enumeration
reports them, in document order (``Insert`` text of a paragraph insertion starts with the
paragraph break before it; a deleted paragraph ends with its own).

The same cases feed the fast tests (our reader, accept_all, reject_all) and the LibreOffice
tests (one probe over every output).
"""
from __future__ import annotations

import io
import struct
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import adapters
from adapters.model import EDIT_TYPES, Document, Edit, Unit
from adapters.odt.writer import write
from addin_backend.edits.operations import validate_edits
from tests.adapters.odt.odt_build import h, item, lst, lvl, odt, p
from tests.conftest import corpus_file

__all__ = ["Case", "CASES", "unit", "cases", "nonblank", "assert_same_members", "revision_list", "same_redlines"]

Redline = tuple[str, str, "str | None"]


def unit(doc: Document, start: str, kind: str | None = None) -> Unit:
    """The first unit whose text starts with ``start`` (and of ``kind``)."""
    for u in doc.units:
        if u.text.startswith(start) and (kind is None or u.kind == kind) and u.meta.get("absent_in") != "accepted":
            return u
    raise LookupError(f"no unit starts with {start!r}")


@dataclass
class Case:
    name: str
    source: Callable[[], bytes]
    make: Callable[[Document], list[Edit]]
    redlines: list[Redline]
    #: The accepted text when it is not the backend's apply_to_document (see its case).
    accepted: list[str] | None = None
    #: Our reader's list of changes where it differs from LibreOffice's (see the case).
    revisions: list[Redline] | None = None
    #: False where this LibreOffice cannot open the input at all (see the case).
    libreoffice: bool = True
    data: bytes = b""
    doc: Document | None = None
    edits: list[Edit] = field(default_factory=list)
    out: bytes = b""

    def run(self) -> "Case":
        if not self.out:
            self.data = self.source()
            self.doc = adapters.read(self.data)
            self.edits = validate_edits(self.doc, self.make(self.doc))
            self.out = write(self.data, self.edits, document=self.doc)
        return self


def _corpus(name: str) -> Callable[[], bytes]:
    return lambda: corpus_file(name).read_bytes()


def _e(op: str, u: Unit | None = None, author: str = "Ann", **kw) -> Edit:
    return EDIT_TYPES[op](unit=u.id if u is not None else None, author=author, date="2026-03-04T05:06:07", **kw)


def _rep(doc: Document, start: str, old: str, new: str, author: str = "Ann", nth: int = 0) -> Edit:
    u = unit(doc, start)
    at = -1
    for _ in range(nth + 1):
        at = u.text.index(old, at + 1)
    return _e("replace", u, author, start=at, end=at + len(old), text=new)


_NUMBERED = lvl(1) + lvl(2, display=2)
_STYLES = f'<text:list-style style:name="L1">{_NUMBERED}</text:list-style>' + "".join(
    f'<style:style style:name="Heading_20_{n}" style:display-name="Heading {n}" style:family="paragraph" '
    f'style:default-outline-level="{n}"><style:text-properties fo:font-weight="bold"/></style:style>'
    for n in (1, 2)
)
_SPANS = (
    '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>'
    '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>'
)

#: A document of the kinds of units the writer must handle, built like LibreOffice writes them.
STRUCTURE = (
    h("Introduction", 1)
    + p("The first paragraph opens the text.")
    + p("The second paragraph follows it.")
    + lst(item(p("Alpha item")), item(p("Bravo item")), item(p("Charlie item")), style="L1")
    + h("Methods", 1)
    + p("A paragraph of methods.")
    + '<table:table table:name="T1"><table:table-column table:number-columns-repeated="2"/>'
    '<table:table-row><table:table-cell><text:p text:style-name="Standard">Name</text:p></table:table-cell>'
    '<table:table-cell><text:p text:style-name="Standard">Value</text:p></table:table-cell></table:table-row>'
    '<table:table-row><table:table-cell><text:p text:style-name="Standard">alpha</text:p></table:table-cell>'
    '<table:table-cell><text:p text:style-name="Standard">one hundred</text:p></table:table-cell></table:table-row>'
    "</table:table>"
    + p("After the table.")
    + h("Results", 1)
    + p("The results are good.")
    + p("The last paragraph ends the text.")
)


def _structure() -> bytes:
    return odt(STRUCTURE, auto=_SPANS, styles=_STYLES)


def _comments() -> bytes:
    """Two comments: one over words that get replaced, one in a paragraph that gets deleted."""
    def note(name: str, who: str, text: str) -> str:
        return (f'<office:annotation office:name="{name}"><dc:creator>{who}</dc:creator>'
                f'<dc:date>2024-05-01T10:00:00</dc:date><text:p text:style-name="Standard">{text}</text:p></office:annotation>')

    body = (
        p("Before the " + note("c1", "Dee", "Check this.") + 'commented words<office:annotation-end office:name="c1"/> here.')
        + p("A paragraph with a remark" + note("c2", "Eve", "Remove?") + " to delete.")
        + p("The end.")
    )
    return odt(body)


def _other_authors() -> bytes:
    """A paragraph with Bo's insertion and Cy's deletion (LibreOffice's own form)."""
    info = "<office:change-info><dc:creator>{}</dc:creator><dc:date>2024-05-01T10:00:00</dc:date></office:change-info>"
    tracked = (
        "<text:tracked-changes>"
        f'<text:changed-region xml:id="c1" text:id="c1"><text:insertion>{info.format("Bo")}</text:insertion></text:changed-region>'
        f'<text:changed-region xml:id="c2" text:id="c2"><text:deletion>{info.format("Cy")}'
        '<text:p text:style-name="Standard">very </text:p></text:deletion></text:changed-region>'
        "</text:tracked-changes>"
    )
    body = (
        tracked
        + p('Start <text:change-start text:change-id="c1"/>alpha beta gamma <text:change-end text:change-id="c1"/>'
            'and the <text:change text:change-id="c2"/>old end of it.')
        + p("A plain paragraph.")
    )
    return odt(body)


def _region_across_paragraphs() -> bytes:
    """Bo's insertion from the middle of one paragraph to the middle of the third."""
    info = "<office:change-info><dc:creator>Bo</dc:creator><dc:date>2024-05-01T10:00:00</dc:date></office:change-info>"
    tracked = ("<text:tracked-changes>"
               f'<text:changed-region xml:id="c1" text:id="c1"><text:insertion>{info}</text:insertion></text:changed-region>'
               "</text:tracked-changes>")
    return odt(tracked + p('Plain start <text:change-start text:change-id="c1"/>one two three') + p("four five six")
               + p('seven eight <text:change-end text:change-id="c1"/>nine ten') + p("Last one eleven."))



_FRAME = ('<draw:frame draw:name="Pic" text:anchor-type="as-char" svg:width="1cm" svg:height="1cm">'
          '<draw:image xlink:href="Pictures/x.png"/><svg:title>A picture</svg:title></draw:frame>')


def _figures() -> bytes:
    """A picture beside text in one paragraph, and a picture alone in its own."""
    return odt(p(f"Text before {_FRAME} and after.") + p("Between the pictures.")
               + p(_FRAME.replace('"Pic"', '"Pic2"').replace("A picture", "Alone")) + p("Last words."))


def _renamed() -> bytes:
    """STRUCTURE after an earlier rename by Bo ("paragraph" -> "passage" in three paragraphs):
    tracked changes that a later deletion of their paragraphs must keep in reject-all."""
    data = _structure()
    doc = adapters.read(data)
    edits = [_rep(doc, start, "paragraph", "passage", author="Bo")
             for start in ("The first paragraph", "The second paragraph", "A paragraph of methods")]
    return write(data, validate_edits(doc, edits), document=doc)

CASES: list[Case] = [
    Case(
        "replace_in_one_run",
        _corpus("span_style.odt"),
        lambda d: [_rep(d, "Le Père", "moustache", "barbe")],
        [("Delete", "Ann", "moustache"), ("Insert", "Ann", "barbe")],
    ),
    Case(
        "replace_across_runs",
        _corpus("textMixedStyles.odt"),
        lambda d: [_rep(d, "that is both", "italic bold", "plain strong")],
        [("Delete", "Ann", "italic"), ("Insert", "Ann", "plain"), ("Delete", "Ann", "bold"), ("Insert", "Ann", "strong")],
    ),
    Case(
        # a compound, a contraction and a decimal change as whole words (adapters.words), even
        # when a span cuts the compound: each deleted piece keeps its span
        "whole_words_across_a_span",
        lambda: odt(p('Give <text:span text:style-name="T1">30</text:span>-day notice; don\'t pay 3.5 %.'), auto=_SPANS),
        lambda d: [_e("set_text", d.units[0], text="Give 60-day notice; do not pay 3.75 %.")],
        [("Delete", "Ann", "30-day"), ("Insert", "Ann", "60-day"), ("Delete", "Ann", "don't"), ("Insert", "Ann", "do not"),
         ("Delete", "Ann", "3.5"), ("Insert", "Ann", "3.75")],
    ),
    Case(
        "word_next_to_a_field",
        _corpus("referenceToText.odt"),
        lambda d: [_rep(d, "A reference to", "reference", "pointer"),
                   _e("set_text", unit(d, "Some text."), text="Some text, marked.")],
        [("Insert", "Ann", ", marked"), ("Delete", "Ann", "reference"), ("Insert", "Ann", "pointer")],
    ),
    Case(
        "set_text_rewrites_a_sentence",
        _corpus("paragraph.odt"),
        lambda d: [_e("set_text", d.units[0], text="This is the first paragraph, rewritten.")],
        [("Delete", "Ann", "a"), ("Insert", "Ann", "the first"), ("Insert", "Ann", ", rewritten")],
    ),
    Case(
        "insert_delete_move_paragraphs",
        _structure,
        lambda d: [
            _e("insert_after", unit(d, "The first paragraph"), text="A new paragraph after the first."),
            _e("delete", unit(d, "The second paragraph"), author="Bo"),
            _e("move", unit(d, "The results"), before_unit=unit(d, "A paragraph of methods").id),
        ],
        [
            ("Insert", "Ann", "\nA new paragraph after the first."),
            ("Delete", "Bo", "The second paragraph follows it.\n"),
            ("Insert", "Ann", "\nThe results are good."),
            ("Delete", "Ann", "The results are good.\n"),
        ],
    ),
    Case(
        "headings_and_list_items",
        _structure,
        lambda d: [
            _e("insert_after", unit(d, "A paragraph of methods"), text="Design", kind="section", style="Heading 2"),
            _e("insert_after", unit(d, "Alpha item"), text="Alpha two item", kind="list_item"),
            _e("delete", unit(d, "Bravo item")),
            _e("replace", unit(d, "Methods"), start=0, end=7, text="Approach"),
        ],
        [
            ("Insert", "Ann", "\nAlpha two item"),
            ("Delete", "Ann", "Bravo item\n"),
            ("Delete", "Ann", "Methods"),
            ("Insert", "Ann", "Approach"),
            ("Insert", "Ann", "\nDesign"),
        ],
    ),
    Case(
        "move_a_section_to_the_end",
        _structure,
        lambda d: [
            _e("delete", unit(d, "The results are good")),
            _e("move", unit(d, "Introduction"), after=unit(d, "Results").id),
        ],
        [
            ("Delete", "Ann", "Introduction\nThe first paragraph opens the text.\nThe second paragraph follows it.\n"
             "Alpha item\nBravo item\nCharlie item\n"),
            ("Delete", "Ann", "The results are good.\n"),
            ("Insert", "Ann", "\nIntroduction\nThe first paragraph opens the text.\nThe second paragraph follows it.\n"
             "Alpha item\nBravo item\nCharlie item"),
        ],
    ),
    Case(
        "table_cells",
        _structure,
        lambda d: [
            _e("replace", unit(d, "Name", "table"), start=len("Name\nValue\nalpha\none "), end=len("Name\nValue\nalpha\none hundred"), text="thousand"),
            _e("insert_after", unit(d, "Name", "table"), text="A paragraph after the table."),
        ],
        [("Delete", "Ann", "hundred"), ("Insert", "Ann", "thousand"), ("Insert", "Ann", "A paragraph after the table.\n")],
    ),
    Case(
        "delete_a_table",
        _structure,
        lambda d: [_e("delete", unit(d, "Name", "table"))],
        # LibreOffice lists the deletion of a table without its text (no cursor spans a table)
        [("Delete", "Ann", None)],
    ),
    Case(
        "footnote",
        _corpus("footnote.odt"),
        lambda d: [_rep(d, "Footnote text", "text", "body"), _rep(d, "Some text", "with", "carrying")],
        # LibreOffice keeps note text ahead of the body: the note's changes come first
        [("Delete", "Ann", "text"), ("Insert", "Ann", "body"), ("Delete", "Ann", "with"), ("Insert", "Ann", "carrying")],
    ),
    Case(
        "delete_a_footnote",
        _corpus("footnote.odt"),
        lambda d: [_e("delete", unit(d, "Footnote text", "footnote"))],
        [("Delete", "Ann", "1")],
        # The note goes with its citation mark, as in a word processor; the neutral model's
        # apply_to_document removes the footnote unit but keeps the mark in the citing text.
        accepted=["Some text with a footnote."],
    ),
    Case(
        "list_items",
        _corpus("orderedListSimple.odt"),
        lambda d: [_rep(d, "A second", "second", "2nd"), _e("move", unit(d, "Maybe someone"), before_unit=unit(d, "A second").id),
                   _e("delete", unit(d, "Oh noes"))],
        [("Insert", "Ann", "\nMaybe someone"), ("Delete", "Ann", "second"), ("Insert", "Ann", "2nd"),
         ("Delete", "Ann", "Oh noes\n"), ("Delete", "Ann", "Maybe someone\n")],
    ),
    Case(
        "paragraph_inside_a_list",
        _corpus("orderedListSimple.odt"),
        lambda d: [_e("insert_after", unit(d, "A second"), text="A plain paragraph.", kind="paragraph", style="Text body")],
        # the list is cut in two around the new paragraph; the second part continues the numbering
        [("Insert", "Ann", "\nA plain paragraph.")],
    ),
    Case(
        "headings",
        _corpus("headers.odt"),
        lambda d: [_rep(d, "Another header", "header", "heading"),
                   _e("insert_after", unit(d, "Back to Level 1"), text="Closing words.", kind="paragraph", style="Standard")],
        [("Delete", "Ann", "header"), ("Insert", "Ann", "heading"), ("Insert", "Ann", "\nClosing words.")],
    ),
    Case(
        "other_authors_revisions",
        _other_authors,
        lambda d: [_rep(d, "Start", "beta", "BETA"), _rep(d, "Start", "old", "new"), _rep(d, "Start", "the", "a")],
        [
            ("Insert", "Bo", "alpha "),
            ("Delete", "Ann", "beta"),
            ("Insert", "Ann", "BETA"),
            ("Insert", "Bo", " gamma "),
            ("Delete", "Ann", "the"),
            ("Insert", "Ann", "a"),
            ("Delete", "Cy", "very "),
            ("Delete", "Ann", "old"),
            ("Insert", "Ann", "new"),
        ],
    ),
    Case(
        "span_over_another_authors_deletion",
        _other_authors,
        lambda d: [_rep(d, "Start", "and the old", "but")],
        # the deletion is cut around Cy's, which stays as it was
        [("Insert", "Bo", "alpha beta gamma "), ("Delete", "Ann", "and the "), ("Insert", "Ann", "but"),
         ("Delete", "Cy", "very "), ("Delete", "Ann", "old")],
    ),
    Case(
        # edits in each paragraph of a region that spans paragraphs: the region is split around
        # each (the paragraphs after one edit start inside the region's second half)
        "edits_inside_a_region_across_paragraphs",
        _region_across_paragraphs,
        lambda d: [_rep(d, "Plain start", "two", "TWO"), _rep(d, "four", "five", "FIVE"), _rep(d, "seven", "eight", "EIGHT"),
                   _rep(d, "seven", "ten", "TEN"), _rep(d, "Last one", "eleven", "ELEVEN")],
        [("Insert", "Bo", "one "), ("Delete", "Ann", "two"), ("Insert", "Ann", "TWO"), ("Insert", "Bo", " three\nfour "),
         ("Delete", "Ann", "five"), ("Insert", "Ann", "FIVE"), ("Insert", "Bo", " six\nseven "), ("Delete", "Ann", "eight"),
         ("Insert", "Ann", "EIGHT"), ("Insert", "Bo", " "), ("Delete", "Ann", "ten"), ("Insert", "Ann", "TEN"),
         ("Delete", "Ann", "eleven"), ("Insert", "Ann", "ELEVEN")],
    ),
    Case(
        "comments_stay",
        _comments,
        lambda d: [_rep(d, "Before the", "commented", "annotated"), _e("delete", unit(d, "A paragraph with"))],
        [("Delete", "Ann", "commented"), ("Insert", "Ann", "annotated"), ("Delete", "Ann", "A paragraph with a remark to delete.\n")],
        # headless LibreOffice 7.4 here crashes on any office:annotation (the corpus files with
        # comments are in LO_CANNOT_LOAD too): this case is checked by our reader only
        libreoffice=False,
    ),
    Case(
        "move_a_table_and_split_a_link",
        _corpus("md_sample.odt"),
        lambda d: [_e("move", unit(d, "Name", "table"), after=unit(d, "Document Title").id),
                   _rep(d, "Visit Example", "Example Site", "Sample Page")],
        # LibreOffice lists the insertion that holds a table after the others
        [
            ("Delete", "Ann", "Example"), ("Insert", "Ann", "Sample"), ("Delete", "Ann", "Site"), ("Insert", "Ann", "Page"),
            ("Delete", "Ann", None),
            ("Insert", "Ann", "\nName\nAge\nCity\nAlice\n30\nParis\nBob\n25\nLondon\n"),
        ],
        # our reader does not gather the text of table cells into an insertion's text
        revisions=[("Insert", "Ann", "\n"), ("Delete", "Ann", "Example"), ("Insert", "Ann", "Sample"), ("Delete", "Ann", "Site"),
                   ("Insert", "Ann", "Page"), ("Delete", "Ann", "Name\nAge\nCity\nAlice\n30\nParis\nBob\n25\nLondon\n")],
    ),
    Case(
        "delete_every_unit",
        _corpus("headers.odt"),
        lambda d: [_e("delete", u) for u in d.units],
        # one region for the first four paragraphs (into the last), one for the last one's text;
        # LibreOffice shows the two adjacent deletions of one author as one
        [("Delete", "Ann", "A header (Lv 1)\nA paragraph\nAnother header (Lv 2)\nAnother paragraph\nBack to Level 1")],
        revisions=[("Delete", "Ann", "A header (Lv 1)\nA paragraph\nAnother header (Lv 2)\nAnother paragraph\n"),
                   ("Delete", "Ann", "Back to Level 1")],
    ),
    Case(
        # a picture deleted from a paragraph that stays: a deletion of its anchor; one alone in
        # its paragraph goes with the paragraph, as LibreOffice deletes a selected paragraph
        "delete_pictures",
        _figures,
        lambda d: [_e("delete", unit(d, "A picture", "figure")), _e("delete", unit(d, "Alone", "figure"))],
        [("Delete", "Ann", " "), ("Delete", "Ann", "\n")],
        # the picture between two spaces goes with the space before it (the text keeps one);
        # the backend's apply_to_document keeps its paragraph's text as it was
        accepted=["Text before and after.", "Between the pictures.", "Last words."],
    ),
    Case(
        # the formula's paragraph is the document's only one: it stays, and the formula goes alone
        "delete_the_only_paragraph_s_formula",
        _corpus("formula.odt"),
        lambda d: [_e("delete", d.units[0])],
        # LibreOffice: the object shows, Accept All removes it, Reject All keeps it
        [("Delete", "Ann", "")],
    ),
    Case(
        # the paragraph holds Bo's deletion and insertion: its text is deleted around them
        "delete_a_paragraph_that_holds_changes",
        _corpus("trackedChanges.odt"),
        lambda d: [_e("delete", d.units[0])],
        # the only paragraph keeps its mark; Martin's deletion stays his, his insertion is Ann's
        # deletion stacked on it (LibreOffice lists the later change)
        [("Delete", "Ann", "Some text with "), ("Delete", "Martin Linnemann", "deleted"), ("Delete", "Ann", " "),
         ("Delete", "Ann", "and inserted "), ("Delete", "Ann", "text.")],
    ),
    Case(
        # a rename's changes in the deleted paragraphs, two of them adjacent, and one alone
        "delete_renamed_paragraphs",
        _renamed,
        lambda d: [_e("delete", unit(d, "The first")), _e("delete", unit(d, "The second")),
                   _e("delete", unit(d, "A passage of methods"))],
        # Bo's deletions stay his, his insertions are deleted by Ann (stacked); the text around them
        # is Ann's deletion, the paragraph marks in it
        [("Delete", "Ann", "The first "), ("Delete", "Bo", "paragraph"), ("Delete", "Ann", "passage"),
         ("Delete", "Ann", " opens the text.\nThe second "), ("Delete", "Bo", "paragraph"), ("Delete", "Ann", "passage"),
         ("Delete", "Ann", " follows it.\n"), ("Delete", "Ann", "\nA "), ("Delete", "Bo", "paragraph"),
         ("Delete", "Ann", "passage"), ("Delete", "Ann", " of methods.")],
        # our reader lists each paragraph's text and mark apart
        revisions=[("Delete", "Ann", "The first "), ("Delete", "Bo", "paragraph"), ("Delete", "Ann", "passage"),
                   ("Delete", "Ann", " opens the text."), ("Delete", "Ann", "\n"), ("Delete", "Ann", "The second "),
                   ("Delete", "Bo", "paragraph"), ("Delete", "Ann", "passage"), ("Delete", "Ann", " follows it."),
                   ("Delete", "Ann", "\n"), ("Delete", "Ann", "\n"), ("Delete", "Ann", "A "), ("Delete", "Bo", "paragraph"),
                   ("Delete", "Ann", "passage"), ("Delete", "Ann", " of methods.")],
    ),
    Case(
        "pretty_printed_white_space",
        _corpus("issue_28_pretty.odt"),
        lambda d: [_rep(d, "This is an example", "spaces", "blanks"), _rep(d, "This is an example", "example", "case")],
        [("Delete", "Ann", "example"), ("Insert", "Ann", "case"), ("Delete", "Ann", "spaces"), ("Insert", "Ann", "blanks")],
    ),
]


def cases() -> list[Case]:
    """Every case, written (once per test session)."""
    return [c.run() for c in CASES]


def nonblank(lines: list[str]) -> list[str]:
    """Lines with text (blank paragraphs are no units; LibreOffice lists them)."""
    return [line for part in lines for line in part.split("\n") if line.strip()]


def _raw(data: bytes, info: zipfile.ZipInfo) -> bytes:
    """A member's local header, name, extra field and compressed bytes, as stored."""
    head = data[info.header_offset : info.header_offset + 30]
    nlen, xlen = struct.unpack("<HH", head[26:30])
    return data[info.header_offset : info.header_offset + 30 + nlen + xlen + info.compress_size]


def assert_same_members(before: bytes, after: bytes, changed: tuple[str, ...] = ("content.xml",)) -> None:
    """Every member but ``changed`` is stored byte for byte as it was; order, names and the
    STORED ``mimetype`` first are kept."""
    zb, za = zipfile.ZipFile(io.BytesIO(before)), zipfile.ZipFile(io.BytesIO(after))
    ib, ia = zb.infolist(), za.infolist()
    assert [i.filename for i in ia] == [i.filename for i in ib]
    if ib[0].filename == "mimetype":
        assert ia[0].compress_type == zipfile.ZIP_STORED
    assert za.testzip() is None
    for x, y in zip(ib, ia):
        assert y.compress_type == x.compress_type, x.filename
        if x.filename in changed:
            continue
        assert _raw(after, y) == _raw(before, x), x.filename
        fields = ("CRC", "compress_size", "file_size", "date_time", "external_attr", "flag_bits", "create_system", "extra")
        assert [getattr(y, f) for f in fields] == [getattr(x, f) for f in fields], x.filename


def revision_list(doc: Document) -> list[Redline]:
    """A document's tracked changes as ``(type, author, text)``, LibreOffice's names."""
    names = {"insertion": "Insert", "deletion": "Delete", "format_change": "Format"}
    return [(names[r.kind.replace("paragraph_", "")], r.author or "", r.text) for r in doc.revisions]


def same_redlines(got: list[Redline], want: list[Redline], ordered: bool = True) -> bool:
    """Equal lists (or multisets); an expected text of ``None`` matches any text."""
    if not ordered:
        got, want = sorted(got, key=repr), sorted(want, key=repr)
        if Counter((t, a) for t, a, _ in got) != Counter((t, a) for t, a, _ in want):
            return False
        fixed = Counter(x for x in want if x[2] is not None)
        return not (fixed - Counter(got))
    return len(got) == len(want) and all(
        g[:2] == w[:2] and (w[2] is None or g[2] == w[2]) for g, w in zip(got, want)
    )
