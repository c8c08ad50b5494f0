"""LibreOffice as a reviewer, over UNO (run under Debian's python3 + python3-uno).

Usage: python3 uno_review.py PROFILE_DIR comments FILE...
       python3 uno_review.py PROFILE_DIR review IN OUT PLAN_JSON

``comments`` prints, per file, one JSON object: the comments LibreOffice sees (author,
initials, text, the text they are anchored on) and its redlines. The file is loaded as a
model without a view: LibreOffice's no-GUI build (Debian's ``libreoffice-writer-nogui``) has
no ``.ui`` files and aborts when a view lays out a comment window.

``review`` opens IN in a (hidden) view, and for each tracked change whose paragraph contains a
plan entry's ``para`` text (and, if given, whose own text is ``text``) selects it and runs
``.uno:AcceptTrackedChange`` or ``.uno:RejectTrackedChange`` as the entry's ``decision`` says;
changes no entry names are left as they are. It saves OUT in IN's format and prints
``{"acted": N}``. A view cannot hold comments here (see above): a file with comments is
reviewed from a copy without them (``uno_probe.strip_comments``), so OUT has none.
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _filter(path: str) -> str:
    return "MS Word 2007 XML" if path.endswith(".docx") else "writer8"


def _model(ctx, path: str):
    import uno
    from uno_probe import _prop

    doc = ctx.ServiceManager.createInstanceWithContext("com.sun.star.text.TextDocument", ctx)
    doc.load((_prop("URL", uno.systemPathToFileUrl(os.path.abspath(path))), _prop("FilterName", _filter(path))))
    return doc


def _paragraph_of(rng) -> str:
    """The text of the paragraph a range starts in ("" where LibreOffice gives no cursor)."""
    try:
        cur = rng.getText().createTextCursorByRange(rng.getStart())
        cur.gotoStartOfParagraph(False)
        cur.gotoEndOfParagraph(True)
        return cur.getString()
    except Exception:
        return ""


def comments(ctx, path: str) -> dict:
    doc = _model(ctx, path)
    try:
        out = []
        enum = doc.getTextFields().createEnumeration()
        while enum.hasMoreElements():
            f = enum.nextElement()
            if not f.supportsService("com.sun.star.text.TextField.Annotation"):
                continue
            anchor = f.getAnchor()
            out.append({"author": f.Author, "initials": f.Initials, "text": f.Content,
                        "anchor": anchor.getString(), "paragraph": _paragraph_of(anchor)})
        from uno_probe import redlines

        return {"file": path, "comments": out, "redlines": redlines(doc)}
    finally:
        doc.close(True)


def review(ctx, desktop, src: str, dst: str, plan: list[dict]) -> dict:
    import uno
    from uno_probe import _dispatch, _prop, load_for_dispatch

    doc = load_for_dispatch(ctx, desktop, src)
    acted = 0
    try:
        for _ in range(2000):
            target = None
            enum = doc.getRedlines().createEnumeration()
            while enum.hasMoreElements():
                r = enum.nextElement()
                start, end = r.getPropertyValue("RedlineStart"), r.getPropertyValue("RedlineEnd")
                cur = start.getText().createTextCursorByRange(start)
                cur.gotoRange(end, True)
                para = _paragraph_of(start)
                for entry in plan:
                    if entry["para"] in para and entry.get("text") in (None, cur.getString()) \
                            and entry["decision"] in ("accept", "reject"):
                        target = (cur, entry["decision"])
                        break
                if target:
                    break
            if target is None:
                break
            cur, decision = target
            doc.getCurrentController().select(cur)
            _dispatch(ctx, doc, ".uno:AcceptTrackedChange" if decision == "accept" else ".uno:RejectTrackedChange")
            acted += 1
        doc.storeToURL(uno.systemPathToFileUrl(os.path.abspath(dst)), (_prop("FilterName", _filter(dst)),))
    finally:
        doc.close(True)
    return {"acted": acted}


def main(argv: list[str]) -> None:
    from uno_probe import start_office, stop_office

    profile, command, args = argv[1], argv[2], argv[3:]
    proc, ctx, desktop = start_office(profile)
    try:
        if command == "comments":
            for path in args:
                sys.stdout.write(json.dumps(comments(ctx, path)) + "\n")
        elif command == "review":
            src, dst, plan = args
            sys.stdout.write(json.dumps(review(ctx, desktop, src, dst, json.loads(plan))) + "\n")
        else:
            raise SystemExit(f"unknown command {command}")
        sys.stdout.flush()
    finally:
        stop_office(proc, desktop)


if __name__ == "__main__":
    main(sys.argv)
