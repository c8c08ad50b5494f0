"""Ask a real, headless LibreOffice what the page headers and footers of documents say (run under
Debian's python3 + UNO, as ``uno_probe.py``).

Usage: python3 uno_margins.py PROFILE_DIR FILE ...

Prints one JSON object per file: ``margins`` (each page style's header and footer texts, the
shared, first-page and left-page ones where a page style has its own, as LibreOffice shows them
with their tracked changes included; paragraphs and table cells one a line), ``redlines`` (every
tracked change, with ``where``: ``body`` or the header/footer it sits in, a table's cell where its
table sits), ``accepted`` and ``rejected`` (the margins after Accept
All / Reject All, each on a fresh load). Errors for one file are reported as {"file", "error"}.
"""
from __future__ import annotations

import json
import sys

from uno_probe import _dispatch, _walk, load_for_dispatch, load_any, start_office, stop_office

_TEXTS = (("Header", "HeaderIsOn", ("HeaderText", "HeaderTextFirst", "HeaderTextLeft")),
          ("Footer", "FooterIsOn", ("FooterText", "FooterTextFirst", "FooterTextLeft")))


def margins(doc) -> dict:
    """Page style -> {"HeaderText": "...", ...}: the texts of the headers and footers that are on
    and say something (a style's use is only known once a document is laid out)."""
    out: dict = {}
    styles = doc.getStyleFamilies().getByName("PageStyles")
    for name in styles.getElementNames():
        ps = styles.getByName(name)
        for _what, on, props in _TEXTS:
            if not ps.getPropertyValue(on):
                continue
            for prop in props:
                try:
                    text = ps.getPropertyValue(prop)
                except Exception:
                    continue
                shown = "\n".join(p["text"] for p in _walk(text)) if text is not None else ""
                if shown.strip():  # paragraphs and table cells, as the body probe reads them
                    out.setdefault(name, {})[prop] = shown
    return out


def _where(doc, start) -> str:
    """Where a redline's start sits: ``body``, or ``PAGESTYLE/HeaderText``..."""
    text = start.getText()
    try:  # in a table cell: where its table sits
        table = start.getPropertyValue("TextTable")
        if table is not None:
            text = table.getAnchor().getText()
    except Exception:
        pass
    if text == doc.getText():
        return "body"
    styles = doc.getStyleFamilies().getByName("PageStyles")
    for name in styles.getElementNames():
        ps = styles.getByName(name)
        for _what, on, props in _TEXTS:
            for prop in props:
                try:
                    t = ps.getPropertyValue(prop)
                except Exception:
                    continue
                if t is not None and t == text:
                    return f"{name}/{prop}"
    return "other"


def redlines(doc) -> list:
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        r = enum.nextElement()
        item = {"type": r.getPropertyValue("RedlineType"), "author": r.getPropertyValue("RedlineAuthor")}
        try:
            start = r.getPropertyValue("RedlineStart")
            end = r.getPropertyValue("RedlineEnd")
            cur = start.getText().createTextCursorByRange(start)
            cur.gotoRange(end, True)
            item["text"] = cur.getString()
            item["where"] = _where(doc, start)
        except Exception as exc:  # a redline LibreOffice cannot place
            item["text"], item["where"] = None, f"unplaced: {type(exc).__name__}"
        out.append(item)
    return out


def main(argv) -> None:
    profile = argv[1]
    proc, ctx, desktop = start_office(profile)
    try:
        for path in argv[2:]:
            result: dict = {"file": path}
            try:
                doc = load_any(ctx, desktop, path)
                if doc is None:
                    raise RuntimeError("LibreOffice could not load the file")
                result["margins"] = margins(doc)
                result["redlines"] = redlines(doc)
                doc.close(True)
                for view, cmd in (("accepted", ".uno:AcceptAllTrackedChanges"), ("rejected", ".uno:RejectAllTrackedChanges")):
                    d2 = load_for_dispatch(ctx, desktop, path)
                    _dispatch(ctx, d2, cmd)
                    result[view] = margins(d2)
                    d2.close(True)
            except Exception as exc:  # report and go on with the next file
                result["error"] = f"{type(exc).__name__}: {exc}"
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
    finally:
        stop_office(proc, desktop)


if __name__ == "__main__":
    main(sys.argv)
