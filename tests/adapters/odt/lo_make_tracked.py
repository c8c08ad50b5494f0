"""Make .odt files with tracked changes by editing in a real, headless LibreOffice (UNO).

Usage (Debian's python3 with python3-uno): python3 lo_make_tracked.py PROFILE_DIR OUT_DIR

Each scenario types some paragraphs with change tracking off, switches it on, edits as a user
would (new paragraphs, deleted paragraphs, merged and split paragraphs, replaced words,
formatting, edits in a table and a footnote) and saves ``OUT_DIR/<scenario>.odt``. The module
imports UNO only inside ``main`` so that collecting it under pytest is harmless.
"""
from __future__ import annotations

import os
import sys

BASE = [
    "Alpha one is the first paragraph.",
    "Bravo two follows it.",
    "Charlie three will be deleted.",
    "Delta four merges",
    "with Echo five.",
    "Foxtrot six is split here and continues.",
    "Golf seven ends the text.",
]


def _prop(uno_mod, name, value):
    from com.sun.star.beans import PropertyValue

    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def _uno_probe():
    """tests/uno_probe.py (start and stop a headless LibreOffice), imported by path."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import uno_probe

    return uno_probe


def _start(profile):
    proc, _ctx, desktop = _uno_probe().start_office(profile)
    return proc, desktop


def _paragraphs(text):
    out = []
    enum = text.createEnumeration()
    while enum.hasMoreElements():
        el = enum.nextElement()
        if el.supportsService("com.sun.star.text.Paragraph"):
            out.append(el)
    return out


def _type(text, lines):
    from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

    cur = text.createTextCursor()
    cur.gotoEnd(False)
    for i, line in enumerate(lines):
        text.insertString(cur, line, False)
        if i < len(lines) - 1:
            text.insertControlCharacter(cur, PARAGRAPH_BREAK, False)
    return cur


def _select(text, para, start, length):
    cur = text.createTextCursorByRange(para.getStart())
    cur.goRight(start, False)
    cur.goRight(length, True)
    return cur


def _author(doc, name):
    # the redline author is the user name of the profile; set it through the configuration
    pass


def scenario_paragraphs(doc):
    """New, deleted, merged and split paragraphs; a word replaced; a word made bold."""
    from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

    text = doc.getText()
    _type(text, BASE)
    doc.setPropertyValue("RecordChanges", True)
    paras = _paragraphs(text)
    # a new paragraph after Alpha
    cur = text.createTextCursorByRange(paras[0].getEnd())
    text.insertControlCharacter(cur, PARAGRAPH_BREAK, False)
    text.insertString(cur, "A new paragraph was inserted.", False)
    paras = _paragraphs(text)
    # replace "follows" by "comes after" in Bravo
    cur = _select(text, paras[2], len("Bravo two "), len("follows"))
    cur.setString("comes after")
    # delete Charlie with its paragraph mark
    paras = _paragraphs(text)
    cur = text.createTextCursorByRange(paras[3].getStart())
    cur.gotoNextParagraph(True)
    cur.setString("")
    # merge Delta and Echo: delete the paragraph mark between them
    paras = _paragraphs(text)
    delta = next(p for p in paras if p.getString().startswith("Delta"))
    cur = text.createTextCursorByRange(delta.getEnd())
    cur.goRight(1, True)
    cur.setString("")
    # split Foxtrot with a new paragraph mark
    paras = _paragraphs(text)
    fox = next(p for p in paras if p.getString().startswith("Foxtrot"))
    cur = text.createTextCursorByRange(fox.getStart())
    cur.goRight(len("Foxtrot six is split here"), False)
    text.insertControlCharacter(cur, PARAGRAPH_BREAK, False)
    # bold "seven" in Golf
    paras = _paragraphs(text)
    golf = next(p for p in paras if p.getString().startswith("Golf"))
    cur = _select(text, golf, len("Golf "), len("seven"))
    cur.setPropertyValue("CharWeight", 150.0)


def scenario_across(doc):
    """A deletion from the middle of one paragraph into the next; an insertion with a break."""
    from com.sun.star.text.ControlCharacter import PARAGRAPH_BREAK

    text = doc.getText()
    _type(text, BASE)
    doc.setPropertyValue("RecordChanges", True)
    paras = _paragraphs(text)
    cur = text.createTextCursorByRange(paras[0].getStart())
    cur.goRight(len("Alpha one is the"), False)
    cur.gotoNextParagraph(True)
    cur.goRight(len("Bravo two"), True)
    cur.setString("")
    paras = _paragraphs(text)
    delta = next(p for p in paras if p.getString().startswith("Delta"))
    cur = text.createTextCursorByRange(delta.getStart())
    cur.goRight(len("Delta"), False)
    text.insertString(cur, " (typed", False)
    text.insertControlCharacter(cur, PARAGRAPH_BREAK, False)
    text.insertString(cur, "on two lines)", False)
    # delete the last two paragraphs entirely (with the mark before them)
    paras = _paragraphs(text)
    fox = next(p for p in paras if p.getString().startswith("Foxtrot"))
    cur = text.createTextCursorByRange(fox.getStart())
    cur.goLeft(1, False)
    cur.gotoEnd(True)
    cur.setString("")


def scenario_table_note(doc):
    """Edits inside a table cell and inside a footnote."""
    text = doc.getText()
    _type(text, ["Before the table.", "After the table, with a note"])
    paras = _paragraphs(text)
    table = doc.createInstance("com.sun.star.text.TextTable")
    table.initialize(2, 2)
    tcur = text.createTextCursorByRange(paras[0].getEnd())
    text.insertTextContent(tcur, table, False)
    for name, value in (("A1", "Name"), ("B1", "Value"), ("A2", "alpha"), ("B2", "one hundred")):
        table.getCellByName(name).setString(value)
    note = doc.createInstance("com.sun.star.text.Footnote")
    end = text.createTextCursor()
    end.gotoEnd(False)
    text.insertTextContent(end, note, False)
    note.setString("The note text is short.")
    doc.setPropertyValue("RecordChanges", True)
    cell = table.getCellByName("B2")
    ccur = cell.createTextCursor()
    ccur.gotoStart(False)
    ccur.goRight(len("one "), True)
    ccur.setString("two ")
    ncur = note.createTextCursor()
    ncur.gotoEnd(False)
    note.insertString(ncur, " Now it is longer.", False)
    ncur = note.createTextCursor()
    ncur.goRight(len("The "), False)
    ncur.goRight(len("note "), True)
    ncur.setString("")


SCENARIOS = {
    "lo_paragraphs": scenario_paragraphs,
    "lo_across": scenario_across,
    "lo_table_note": scenario_table_note,
}


def main(argv):
    import uno

    profile, out_dir = argv[1], argv[2]
    proc, desktop = _start(profile)
    try:
        for name, fn in SCENARIOS.items():
            doc = desktop.loadComponentFromURL("private:factory/swriter", "_blank", 0,
                                               (_prop(uno, "Hidden", True),))
            fn(doc)
            url = uno.systemPathToFileUrl(os.path.abspath(os.path.join(out_dir, name + ".odt")))
            doc.storeToURL(url, (_prop(uno, "FilterName", "writer8"),))
            doc.close(True)
            sys.stdout.write(name + "\n")
    finally:
        _uno_probe().stop_office(proc, desktop)


if __name__ == "__main__":
    main(sys.argv)
