"""LEDGER's edit written into the open document: the server's tracked copy, brought in as one undo step.

:func:`apply_served` loads the server's copy without a view, has :mod:`ledger_mirror` make the
open document hold the same tracked changes and comments, and checks the result against the
copy. The whole edit is one entry of Writer's undo stack (one Ctrl+Z takes it back); when the
copy cannot be brought in exactly, the open document is rolled back and left as it was, and the
caller may offer the copy in a window of its own (:func:`open_copy`): the window the user works
in always keeps the user's file.
"""
from __future__ import annotations

import os
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue

import ledger_mirror
from ledger_compare import compare
from ledger_doc import FORMATS

__all__ = ["ApplyError", "apply_served", "load_copy", "open_copy"]


class ApplyError(Exception):
    """The server's changes could not be brought in; the open document is as it was.
    ``offer_copy``: the server's copy itself is fine, and may be opened in a window of its own."""

    def __init__(self, message: str, *, offer_copy: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.offer_copy = offer_copy


def _prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def _temp(data: bytes, suffix: str) -> str:
    fd, path = tempfile.mkstemp(prefix="ledger-tracked-", suffix=suffix)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return path


def load_copy(ctx, data: bytes, fmt: str):
    """The server's copy as a document model without a view (no window, no layout)."""
    filt, _media, suffix = FORMATS[fmt]
    path = _temp(data, suffix)
    try:
        model = ctx.ServiceManager.createInstanceWithContext("com.sun.star.text.TextDocument", ctx)
        model.load((_prop("URL", uno.systemPathToFileUrl(path)), _prop("FilterName", filt), _prop("Hidden", True)))
        return model
    finally:
        os.unlink(path)


def apply_served(ctx, doc, data: bytes, fmt: str, title: str = "LEDGER edit") -> dict:
    """Brings the server's tracked copy ``data`` into ``doc`` as one undo step named ``title``.

    Returns ``{"inserted", "redlines", "comments", "fields"}``. Raises :class:`ApplyError` with the
    document unchanged: read-only, a change the mirror cannot copy, or a result that differs from
    the server's copy (rolled back).
    """
    if doc.isReadonly():
        raise ApplyError("This document is open read-only: LEDGER changed nothing. Open it for editing "
                         "(or save a copy) and run the command again.")
    t0 = time.monotonic()
    served = load_copy(ctx, data, fmt)
    t1 = time.monotonic()
    undo = doc.getUndoManager()
    recording = bool(doc.getPropertyValue("RecordChanges"))
    opened = False
    try:
        doc.lockControllers()  # no layout until the edit is in and checked
        try:
            doc.setPropertyValue("RecordChanges", False)
            undo.enterUndoContext(title)
            opened = True
            try:
                result = ledger_mirror.mirror(ctx, served, doc)
            finally:
                undo.leaveUndoContext()
                doc.setPropertyValue("RecordChanges", recording)
            t2 = time.monotonic()
            check = compare(served, doc)
        finally:
            doc.unlockControllers()
        if check["problems"]:
            _roll_back(undo, title)
            raise ApplyError("LEDGER's changes did not come out in this window exactly as the server wrote them ("
                             + "; ".join(check["problems"]) + "); the document was left as it was.", offer_copy=True)
        result["fields"] = check["fields"]
        result["kept_attributes"] = check["kept_attributes"]
        result["numbers"] = check["numbers"]
        result["seconds"] = {"load": round(t1 - t0, 2), "mirror": round(t2 - t1, 2),
                             "compare": round(time.monotonic() - t2, 2)}
        return result
    except ledger_mirror.Unsupported as exc:
        if opened:
            _roll_back(undo, title)
        raise ApplyError(f"{exc}: LEDGER cannot place this edit in the open document itself.",
                         offer_copy=True) from None
    except ledger_mirror.MirrorError as exc:
        if opened:
            _roll_back(undo, title)
        raise ApplyError(f"The document changed while LEDGER was working ({exc}); nothing was changed. "
                         "Run the command again.") from None
    finally:
        served.close(True)


def _roll_back(undo, title: str) -> None:
    """Undoes the LEDGER step (only when it is the last one: never the user's own work)."""
    try:
        if undo.isUndoPossible() and undo.getCurrentUndoActionTitle() == title:
            undo.undo()
            undo.clearRedo()
    except Exception:
        pass


def open_copy(ctx, data: bytes, fmt: str):
    """The server's tracked copy in a window of its own (the user's window keeps the user's file)."""
    path = _temp(data, FORMATS[fmt][2])
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    return desktop.loadComponentFromURL(uno.systemPathToFileUrl(path), "_blank", 0, ())
