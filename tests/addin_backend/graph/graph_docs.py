"""Hand-built Documents for the graph tests: a technical paper, a contract and a standard.

Units are given as specs (dicts with a local ``key``); :func:`build` turns a spec list into a
real :class:`Document` with content-hash ids, exactly as a reader would, so tests can edit the
specs and rebuild (the incremental tests do).
"""
from __future__ import annotations

import copy
from typing import Any

from adapters.model import Document, Field, IdMaker, Unit

Spec = dict[str, Any]


def build(specs: list[Spec], fmt: str = "docx") -> tuple[Document, dict[str, str]]:
    """The Document of ``specs`` and the map from spec keys to unit ids."""
    make = IdMaker()
    ids: dict[str, str] = {}
    for s in specs:
        ids[s["key"]] = make(s["kind"], s["text"])
    units = []
    for order, s in enumerate(specs):
        fields = []
        for kind, target_key, shown in s.get("fields", ()):
            start = s["text"].index(shown)
            fields.append(
                Field(
                    kind=kind,
                    code=f" REF {target_key} \\h ",
                    target=f"_Ref_{target_key}",
                    target_unit=ids.get(target_key),
                    result=shown,
                    start=start,
                    end=start + len(shown),
                )
            )
        meta = {}
        if "cited_by" in s:
            meta["cited_by"] = ids[s["cited_by"]]
        units.append(
            Unit(
                id=ids[s["key"]],
                kind=s["kind"],
                text=s["text"],
                order=order,
                label=s.get("label"),
                number=s.get("number"),
                title=s.get("title"),
                parent=ids.get(s["parent"]) if s.get("parent") else None,
                level=s.get("level"),
                fields=fields,
                meta=meta,
            )
        )
    return Document(format=fmt, units=units, path=f"{fmt}-test"), ids


def _u(key, kind, text, parent=None, **kw) -> Spec:
    d = {"key": key, "kind": kind, "text": text, "parent": parent}
    d.update(kw)
    return d


def _sec(key, number, title, parent=None, level=1, label=None, **kw) -> Spec:
    return _u(key, "section", title, parent, number=number, title=title, level=level,
              label=label or (f"Section {number}" if number else None), **kw)


PAPER: list[Spec] = [
    _u("title", "title", "Dependency Graphs for Consistent Document Editing"),
    _sec("s1", "1", "Introduction"),
    _u("p1", "paragraph", "Long documents are hard to edit consistently. We propose a dependency-aware "
       "editing approach that builds a graph over document units. Section 2 describes the graph and "
       "Section 3 evaluates it.", "s1"),
    _u("p2", "paragraph", "This approach keeps cross-references intact. The Large Language Model (LLM) "
       "only sees the context it needs, as Figure 1 shows.", "s1", fields=[("ref", "fig1", "Figure 1")]),
    _u("fig1", "figure", "", "s1", label="Figure 1"),
    _u("cap1", "caption", "Figure 1: Overview of the editing pipeline from upload to tracked changes.", "fig1",
       label="Figure 1"),
    _sec("s2", "2", "Method"),
    _sec("s21", "2.1", "Graph Construction", "s2", level=2),
    _u("p3", "paragraph", "We define the dependency graph as a directed multigraph whose nodes are document "
       "units. Each edge carries a type and a score, as given by Equation (1).", "s21"),
    _u("eq1", "equation", "score(u, v) = w_t \u00b7 sim(u, v)", "s21", label="Equation (1)"),
    _u("p4", "paragraph", "The dependency graph is built in a single pass over the units. The LLM never "
       "reads the whole document.", "s21"),
    _sec("s22", "2.2", "Retrieval", "s2", level=2),
    _u("p5", "paragraph", "Retrieval walks from the edited unit along typed edges (see Section 2.1 and "
       "Fig. 1). Table 1 lists the edge priorities.", "s22"),
    _u("tbl1", "table", "Edge type | Priority\nREFERENCES | 100\nDEPENDS | 50\nRELATED | 10", "s22",
       label="Table 1"),
    _u("cap2", "caption", "Table 1: Edge priorities used by retrieval.", "tbl1", label="Table 1"),
    _sec("s3", "3", "Evaluation"),
    _u("p6", "paragraph", "We evaluate on 1,900 editing cases and report the results in Table 1.", "s3"),
    _u("fn1", "footnote", "The benchmark and its ground truth are public.", "p6"),
    _u("p7", "paragraph", "Consistency improves from 56% to 76% across six models. These results hold "
       "for Sections 2.1-2.2 alike, but Section 3 of [RFC9110] and (Smith et al., 2020, Table 4) are "
       "external. Figure 7 does not exist.", "s3"),
]


CONTRACT: list[Spec] = [
    _u("title", "title", "Master Services Agreement"),
    _u("p0", "paragraph", 'This Master Services Agreement (hereinafter the "Agreement") is made between '
       'Acme Corp. (the "Supplier") and Beta LLC (the "Customer").'),
    _sec("a1", "1", "Definitions", label="Article 1"),
    _u("li1", "list_item", '"Confidential Information" means any non-public information disclosed by '
       "either party.", "a1"),
    _u("li2", "list_item", '"Services" means the hosting services described in Article 3.', "a1"),
    _u("li3", "list_item", "The Service Level Agreement (SLA) sets the availability targets.", "a1"),
    _sec("a2", "2", "Term", label="Article 2"),
    _u("p21", "paragraph", "This Agreement starts on the signature date and lasts two years unless "
       "terminated under Article 5.", "a2"),
    _sec("a3", "3", "Services", label="Article 3"),
    _u("p31", "paragraph", "The Supplier shall provide the Services in accordance with the SLA.", "a3"),
    _sec("a4", "4", "Confidentiality", label="Article 4"),
    _u("p41", "paragraph", "The Customer shall keep all Confidential Information secret for five years.",
       "a4"),
    _sec("a5", "5", "Termination", label="Article 5"),
    _u("p51", "paragraph", "Either party may terminate on thirty days notice. Articles 3 and 4 survive "
       "termination, and Article 9 applies thereafter.", "a5"),
    _u("fn1", "footnote", "Notices must be given in writing.", None, cited_by="p51"),
]


STANDARD: list[Spec] = [
    _u("title", "title", "Secure Transfer Protocol \u2014 Specification"),
    _sec("c1", None, "1 Scope", label=None),
    _u("p11", "paragraph", "This document specifies the Secure Transfer Protocol (STP). It does not "
       "replace the HTTP semantics defined in Section 3 of [RFC9110].", "c1"),
    _sec("c2", None, "2 Normative references", label=None),
    _u("p21", "paragraph", '[RFC9110] Fielding, R., "HTTP Semantics", STD 97, RFC 9110, June 2022.', "c2"),
    _sec("c3", None, "3 Terms and definitions", label=None),
    _u("p31", "paragraph", '"Session" means a sequence of STP messages between two endpoints.', "c3"),
    _sec("c4", None, "4 Protocol", label=None),
    _sec("c41", None, "4.1 Handshake", "c4", level=2, label=None),
    _u("p411", "paragraph", "A Session starts with a handshake, as specified in Clause 5.2 and Annex A. "
       "The message layout is given in Table B.1.", "c41"),
    _sec("c42", None, "4.2 Transfer", "c4", level=2, label=None),
    _u("p421", "paragraph", "Messages are framed as shown in Figure A.2; see 4.1 for the handshake. "
       "See also 5.2.1 and Clause 7.", "c42"),
    _sec("c5", None, "5 Security", label=None),
    _sec("c52", None, "5.2 Key exchange", "c5", level=2, label=None),
    _u("p521", "paragraph", "Keys are exchanged with ECDHE. RFC 8446, Section 4.2 defines the key share "
       "extension, and ISO/IEC 27001 Annex A lists controls.", "c52"),
    _sec("annexA", None, "Annex A (informative) Examples", label=None),
    _u("figA2", "figure", "", "annexA", label="Figure A.2"),
    _u("capA2", "caption", "Figure A.2 \u2014 Message framing", "figA2", label="Figure A.2"),
    _sec("annexB", "B", "Message layout", label="Appendix B"),
    _u("tblB1", "table", "Field | Size\nType | 1\nLength | 3", "annexB", label="Table B.1"),
    _u("capB1", "caption", "Table B.1 \u2014 Field sizes", "tblB1", label="Table B.1"),
]


def paper():
    return build(copy.deepcopy(PAPER))


def contract():
    return build(copy.deepcopy(CONTRACT))


def standard():
    return build(copy.deepcopy(STANDARD), fmt="odt")


def edges(G, type_, ids):
    """``{(source key, target key): evidence}`` for the edges of one type, in spec keys."""
    back = {v: k for k, v in ids.items()}
    back["document"] = "document"
    return {
        (back[u], back[v]): d["evidence"]
        for u, v, k, d in G.edges(keys=True, data=True)
        if k == type_
    }
