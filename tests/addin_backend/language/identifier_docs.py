"""Test documents written for the identifier layer and the forms engine, as Word would write them
(python-docx, its default template: styles, font table): a specification whose element and
attribute names sit in character styles with a monospace font, with options, camelCase
properties, a program word in capitals, a code paragraph, "manifest file" beside the longer term
"metadata manifest file" (defined in the terminology, with a section of its own); and a Spanish
and a German report.

``spec_docx()`` and the reports return .docx bytes; ``to_odt`` converts one with headless
LibreOffice (the ODT twin a LibreOffice user would save).
"""
from __future__ import annotations

import io
import os
import subprocess
import tempfile

from docx import Document as DocxDocument
from docx.enum.style import WD_STYLE_TYPE
from docx.oxml.ns import qn
from docx.shared import Pt

__all__ = ["spec_docx", "spanish_docx", "german_docx", "to_odt", "SPEC_IDENTIFIERS"]

#: The identifiers written into the specification (each must survive every rename and fix).
SPEC_IDENTIFIERS = [
    "manifest:file-entry", "<manifest:file-entry>", "manifest:initialisation-vector", "table:data-type", "--safe",
    "partialFingerprints", "FILEVERSION", "visualbasic", "DSUM", "result.locations",
]


def _char_style(doc, name: str, font: str | None) -> None:
    st = doc.styles.add_style(name, WD_STYLE_TYPE.CHARACTER)
    if font:
        st.font.name = font
        st.font.size = Pt(10)


def _para(doc, parts: list[tuple[str, str | None]], style: str | None = None):
    """A paragraph of runs: ``(text, None)`` plain, ``(text, "Element")`` in a character style,
    ``(text, "font:Courier New")`` in a directly set font."""
    p = doc.add_paragraph(style=style)
    for text, how in parts:
        r = p.add_run(text)
        if how and how.startswith("font:"):
            r.font.name = how[5:]
        elif how:
            r.style = doc.styles[how]
    return p


def spec_docx() -> bytes:
    doc = DocxDocument()
    _char_style(doc, "Element", "Courier New")  # a name that says nothing: the font says code
    _char_style(doc, "Attribute", "Courier New")
    _char_style(doc, "Code Char", None)  # the name says code, no font of its own
    code = doc.styles.add_style("Code", WD_STYLE_TYPE.PARAGRAPH)
    code.font.name = "Consolas"
    doc.add_heading("Packages", level=1)
    _para(doc, [("A package holds files. Each file entry of a package is described by one ", None),
                ("<manifest:file-entry>", "Element"), (" element; the file entry names the file's media type.", None)])
    h = doc.add_heading("", level=2)
    h.add_run("The ")
    h.add_run("<manifest:file-entry>").style = doc.styles["Element"]
    h.add_run(" element")
    _para(doc, [("The manifest:file-entry element has one file entry per file. File entries are listed in order, "
                 "and a file entry without a media type is an error.", None)])
    _para(doc, [("Every file entry may carry the ", None), ("manifest:initialisation-vector", "Attribute"),
                (" attribute. The initialization of the cipher and each initialization vector follow the "
                 "initialization rules; an initialization never repeats.", None)])
    doc.add_heading("Data types", level=1)
    _para(doc, [("Each cell has a data type. The ", None), ("table:data-type", "Attribute"),
                (" attribute gives the data type of a cell, and the data type decides the display. A data type "
                 "is one of the data types listed below.", None)])
    _para(doc, [("Run the checker with --safe to keep every data type; a datatype that is unknown is kept.", None)])
    _para(doc, [("The property ", None), ("partialFingerprints", "Code Char"),
                (" holds partial fingerprints of each result; see result.locations for the locations.", None)])
    _para(doc, [("The file version is written in the FILEVERSION resource; each file version grows. A language "
                 "named ", None), ("visualbasic", "Code Char"), (" is visual basic, and ", None),
                ("DSUM", "font:Courier New"), (" adds the values of a database column.", None)])
    _para(doc, [('<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>', None)],
           style="Code")
    doc.add_heading("Terms and definitions", level=1)
    _para(doc, [("metadata manifest file", None)])
    _para(doc, [("The manifest file that lists the metadata files of a package.", None)])
    doc.add_heading("Manifest files", level=1)
    for text in (
        "A package has one manifest file. The manifest file lists every file entry.",
        "Signing covers the manifest file; a valid manifest file is required. Each manifest file is stored as XML.",
    ):
        _para(doc, [(text, None)])
    doc.add_heading("Metadata manifest files", level=1)
    for text in (
        "The metadata manifest file is separate from the manifest file. A reader opens the metadata manifest file "
        "after the manifest file.",
        "A metadata manifest file is optional.",
    ):
        _para(doc, [(text, None)])
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def _lang(doc, tag: str) -> None:
    rpr = doc.styles["Normal"].element.get_or_add_rPr()
    lang = rpr.find(qn("w:lang"))
    if lang is None:
        lang = rpr.makeelement(qn("w:lang"), {})
        rpr.append(lang)
    lang.set(qn("w:val"), tag)


def spanish_docx() -> bytes:
    doc = DocxDocument()
    _lang(doc, "es-ES")
    doc.add_heading("Informe sobre los suelos", level=1)
    for text in (
        "El suelo de la parcela es arcilloso. Los suelos de la zona norte son arenosos y los suelos húmedos "
        "retienen el agua.",
        "Cada suelo se analiza dos veces; el análisis del suelo dura un día y la canción del laboratorio es larga.",
        "Las luces del laboratorio se apagan de noche. Suelos y luces se revisan cada mes.",
    ):
        doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def german_docx() -> bytes:
    doc = DocxDocument()
    _lang(doc, "de-DE")
    doc.add_heading("Bericht über die Verträge", level=1)
    for text in (
        "Der Vertrag regelt die Lieferung. Die Laufzeit des Vertrages beträgt zwei Jahre, und jeder Vertrag "
        "wird schriftlich geschlossen.",
        "Die Verträge werden jährlich geprüft; in den Verträgen stehen die Preise. Der Kaufvertrag bleibt "
        "davon unberührt.",
        "Die Dauer des Vertrags ist fest. Aus dem Vertrage folgt nichts weiter.",
    ):
        doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def to_odt(docx: bytes) -> bytes:
    """The document saved as .odt by headless LibreOffice (one profile per call)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.docx")
        with open(src, "wb") as fh:
            fh.write(docx)
        profile = f"file://{tmp}/profile"
        subprocess.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "odt",
                        "--outdir", tmp, src], check=True, capture_output=True, timeout=180)
        with open(os.path.join(tmp, "in.odt"), "rb") as fh:
            return fh.read()
