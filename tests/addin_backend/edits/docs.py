"""Hand-built documents for the edit engines: a contract with sections, lists, figures, a table, notes.

Test modules import the ``contract`` and ``paper`` fixtures from here (a second conftest.py would
clash with ``tests/conftest.py`` under ``--doctest-modules``).
"""
from __future__ import annotations

import pytest

from adapters.model import Document, Field, Unit

__all__ = ["contract", "contract_doc", "make_doc", "paper", "paper_doc"]


def make_doc(rows: list[tuple], fmt: str = "docx") -> Document:
    """A Document from rows (id, kind, text, parent, label, number, style, title, level)."""
    units = []
    for order, row in enumerate(rows):
        uid, kind, text, parent, *rest = row
        label, number, style, title, level = (list(rest) + [None] * 5)[:5]
        units.append(
            Unit(id=uid, kind=kind, text=text, order=order, parent=parent, label=label, number=number,
                 style=style, title=title if title is not None else (text if kind == "section" else None), level=level)
        )
    return Document(format=fmt, units=units)


def contract_doc() -> Document:
    doc = make_doc([
        ("t", "title", "Widget Service Agreement", None, None, None, "Title"),
        ("s1", "section", "Introduction", None, "Section 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", "This Agreement governs the Ledger service. The Ledger keeps records for thirty (30) days.", "s1", None, None, "Body Text"),
        ("p2", "paragraph", "Each widget is registered. Widgets are billed monthly; a widget\u2019s owner pays. Widgetry is not covered.", "s1", None, None, "Body Text"),
        ("s2", "section", "Retention", None, "Section 2", "2", "Heading 1", None, 1),
        ("p3", "paragraph", "The retention period is 30 days after closure.", "s2", None, None, "Body Text"),
        ("p4", "paragraph", "Payment is due within 30 days of the invoice.", "s2", None, None, "Body Text"),
        ("s21", "section", "Backups", "s2", "Section 2.1", "2.1", "Heading 2", None, 2),
        ("li1", "list_item", "Backups are kept for 30 days.", "s21", None, None, "List Bullet"),
        ("li2", "list_item", "Logs are kept for 90 days.", "s21", None, None, "List Bullet"),
        ("f1", "figure", "", "s21"),
        ("c1", "caption", "Figure 1: The widget pipeline", "s21", "Figure 1", "1", "Caption"),
        ("s3", "section", "Obligations", None, "Section 3", "3", "Heading 1", None, 1),
        ("p5", "paragraph", "The Supplier delivers each WIDGET within 30 days.", "s3", None, None, "Body Text"),
        ("tb1", "table", "Item\tPrice\nBasic widget\t10\nPremium widgets\t20", "s3", "Table 1", "1"),
        ("c2", "caption", "Table 1: Widget prices", "s3", "Table 1", "1", "Caption"),
        ("f2", "figure", "", "s3", "Figure 2", "2"),
        ("c3", "caption", "Figure 2: Widget lifecycle", "f2", "Figure 2", "2", "Caption"),
        ("p8", "paragraph", "Details are in Widget lifecycle above.", "s3", None, None, "Body Text"),
        ("s4", "section", "Termination", None, "Section 4", "4", "Heading 1", None, 1),
        ("p6", "paragraph", "Either party may terminate with thirty days notice.", "s4", None, None, "Body Text"),
        ("sA", "section", "Definitions", None, "Appendix A", "A", "Heading 1", None, 1),
        ("p7", "paragraph", "Ledger means the record system.", "sA", None, None, "Body Text"),
        ("fn1", "footnote", "See the ledger policy for widgets.", None),
    ])
    doc.unit("p8").fields.append(Field(kind="ref", code="REF _Ref1 \\h", target="_Ref1", target_unit="c3",
                                       result="Widget lifecycle", start=15, end=31))
    return doc


def paper_doc() -> Document:
    return make_doc([
        ("ps1", "section", "Results", None, "Section 1", "1", "Heading 1", None, 1),
        ("lem", "paragraph", "Lemma 1. Entries are ordered.", "ps1", "Lemma 1", "1", "Body Text"),
        ("thm", "paragraph", "Theorem 2. Every ledger balances.", "ps1", None, None, "Body Text"),
        ("eq3", "equation", "a + b = c (3)", "ps1", "Equation (3)", "3"),
        ("pp1", "paragraph", "By Equation (3) the sum holds.", "ps1", None, None, "Body Text"),
    ])


@pytest.fixture
def contract() -> Document:
    """A fresh contract per test (tests may change it)."""
    return contract_doc()


@pytest.fixture
def paper() -> Document:
    return paper_doc()
