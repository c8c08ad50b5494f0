"""Hand-built documents for propagation, verification and checks: numbered figures, tables,
equations, sections and theorems, with mentions, ranges, lists and reference fields."""
from __future__ import annotations

from adapters.model import Delete, Document, Edit, Field

from .docs import make_doc

__all__ = ["report_doc", "standard_doc", "chapter_doc", "field", "delete", "texts"]


def field(doc: Document, uid: str, shown: str, target: str, kind: str = "ref", occurrence: int = 0) -> Field:
    """Add a reference field over ``shown`` (its ``occurrence``-th appearance) in unit ``uid``."""
    text = doc.unit(uid).text
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(shown, start + 1)
    f = Field(kind=kind, code=f"REF _Ref_{target} \\h", target=f"_Ref_{target}", target_unit=target,
              result=shown, start=start, end=start + len(shown))
    doc.unit(uid).fields.append(f)
    return f


def seq(doc: Document, uid: str, number: str, name: str) -> None:
    """Number a caption with a SEQ field over its number."""
    text = doc.unit(uid).text
    start = text.index(number)
    doc.unit(uid).fields.append(Field(kind="seq", code=f"SEQ {name} \\* ARABIC", target=name, result=number,
                                      start=start, end=start + len(number)))


def report_doc() -> Document:
    """Sections 1, 2, 2.1, 3 (automatic numbers), Figures 1-3 (typed captions), Table 1 (SEQ
    field), Equations (1)-(2) (typed), Theorems 1-2, and the mentions that cite them."""
    doc = make_doc([
        ("t", "title", "Ledger Design Report", None, None, None, "Title"),
        ("s1", "section", "Introduction", None, "Section 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", "Figure 1 shows the pipeline and Figures 2-3 the results. Sections 2 and 3 "
         "give details; see Section 2.1 and Fig. 3(b).", "s1"),
        ("f1", "figure", "Pipeline diagram", "s1", "Figure 1", "1"),
        ("c1", "caption", "Figure 1: Pipeline", "s1", "Figure 1", "1", "Caption"),
        ("s2", "section", "Method", None, "Section 2", "2", "Heading 1", None, 1),
        ("p2", "paragraph", "The method in Figure 2 uses Equation (1). Compare Figures 1 and 3.", "s2"),
        ("f2", "figure", "Method sketch", "s2", "Figure 2", "2"),
        ("c2", "caption", "Figure 2: Method", "s2", "Figure 2", "2", "Caption"),
        ("eq1", "equation", "a = b + c\t(1)", "s2", "Equation (1)", "1"),
        ("s21", "section", "Details", "s2", "Section 2.1", "2.1", "Heading 2", None, 2),
        ("p3", "paragraph", "Table 1 lists the settings behind Figures 1-3 and Eq. (2).", "s21"),
        ("eq2", "equation", "d = 2a\t(2)", "s21", "Equation (2)", "2"),
        ("s3", "section", "Results", None, "Section 3", "3", "Heading 1", None, 1),
        ("f3", "figure", "Result chart", "s3", "Figure 3", "3"),
        ("c3", "caption", "Figure 3: Results", "s3", "Figure 3", "3", "Caption"),
        ("c4", "caption", "Table 1: Settings", "s3", "Table 1", "1", "Caption"),
        ("tb1", "table", "Key\tValue\nsize\t30", "s3", "Table 1", "1"),
        ("p4", "paragraph", "As Figure 3 shows, the results hold (Eq. (1) and Section 2).", "s3"),
        ("p5", "paragraph", "Theorem 1. Every ledger balances.", "s3"),
        ("p6", "paragraph", "Theorem 2. Every ledger grows, by Theorem 1.", "s3"),
        ("p7", "paragraph", "Theorem 2 and Equations (1)-(2) close the argument.", "s3"),
    ])
    field(doc, "p4", "Figure 3", "c3")
    seq(doc, "c4", "1", "Table")
    return doc


def standard_doc() -> Document:
    """A standard whose clause numbers are typed into the headings ("4.1 Handshake")."""
    return make_doc([
        ("c1", "section", "1 Scope", None, None, None, "Heading 1", None, 1),
        ("p11", "paragraph", "This clause scopes the protocol; Clause 3 defines the handshake.", "c1"),
        ("c2", "section", "2 Terms", None, None, None, "Heading 1", None, 1),
        ("p21", "paragraph", "Terms are defined here and used in Clauses 3 and 4.", "c2"),
        ("c3", "section", "3 Handshake", None, None, None, "Heading 1", None, 1),
        ("c31", "section", "3.1 Keys", "c3", None, None, "Heading 2", None, 2),
        ("p31", "paragraph", "Keys rotate as specified in 4.1 and 3.1.", "c31"),
        ("c4", "section", "4 Transfer", None, None, None, "Heading 1", None, 1),
        ("c41", "section", "4.1 Framing", "c4", None, None, "Heading 2", None, 2),
        ("p41", "paragraph", "Frames follow Clause 3.1.", "c41"),
    ])


def chapter_doc() -> Document:
    """Figures numbered per chapter (Figure 2.1, 2.2, 3.1)."""
    return make_doc([
        ("s1", "section", "Intro", None, "Section 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", "Figures 2.1 and 2.2 and Figure 3.1 are discussed later.", "s1"),
        ("s2", "section", "Design", None, "Section 2", "2", "Heading 1", None, 1),
        ("c21", "caption", "Figure 2.1: Layout", "s2", "Figure 2.1", "2.1", "Caption"),
        ("c22", "caption", "Figure 2.2: Flow", "s2", "Figure 2.2", "2.2", "Caption"),
        ("s3", "section", "Results", None, "Section 3", "3", "Heading 1", None, 1),
        ("c31", "caption", "Figure 3.1: Speed", "s3", "Figure 3.1", "3.1", "Caption"),
        ("p3", "paragraph", "Figure 3.1 repeats Figure 2.2.", "s3"),
    ])


def delete(doc: Document, *ids: str) -> list[Edit]:
    return [Delete(unit=i, before=doc.unit(i).text) for i in ids]


def texts(doc: Document, ids) -> dict[str, str]:
    return {i: doc.unit(i).text for i in ids}
