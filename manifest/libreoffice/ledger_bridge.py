"""LEDGER bridge for LibreOffice Writer: the UNO component behind the LEDGER menu (Addons.xcu).

``service:org.ledger.Bridge?COMMAND`` opens the document's LEDGER panel (``ledger_panel``) at a
page and starts its work: ``panel`` (the outline), ``edit`` (the instruction), ``check`` (runs
the check), ``review`` (reviews every LEDGER edit the document holds), ``settings``. The panel is
non-modal: Writer stays usable while it is open and while the server works.

The same component answers ``com.sun.star.task.XJob.execute`` with an ``action`` (and JSON
``args``): the panel's own actions, run on LibreOffice's main thread as a click would run them,
and its state as JSON. The headless test driver drives the panel through it.
"""
from __future__ import annotations

import json
import time
import traceback

import uno
import unohelper
from com.sun.star.task import XJob, XJobExecutor

from ledger_client import BridgeError

__all__ = ["LedgerBridge", "run"]

IMPLEMENTATION = "org.ledger.Bridge"
PAGE_OF = {"panel": "outline", "outline": "outline", "edit": "edit", "check": "check", "review": "review",
           "settings": "settings"}


def _current_text_document(ctx, url=None):
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    if url:
        comps = desktop.getComponents().createEnumeration()
        while comps.hasMoreElements():
            c = comps.nextElement()
            if hasattr(c, "getURL") and c.getURL() == url:
                return c
    doc = desktop.getCurrentComponent()
    if doc is not None and doc.supportsService("com.sun.star.text.TextDocument"):
        return doc
    return None


def _message_box(ctx, text):
    toolkit = ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.Toolkit", ctx)
    box = toolkit.createMessageBox(None, uno.Enum("com.sun.star.awt.MessageBoxType", "ERRORBOX"), 1, "LEDGER", text)
    box.execute()


def run(ctx, command):
    """Runs one menu command: the document's panel at its page, with the page's work started."""
    from ledger_panel import panel_for

    doc = _current_text_document(ctx)
    if doc is None:
        _message_box(ctx, "Open a text document (ODT or DOCX) first.")
        return None
    page = PAGE_OF.get(command)
    if page is None:
        _message_box(ctx, f"Unknown LEDGER command {command!r}.")
        return None
    panel = panel_for(ctx, doc)
    panel.show(page)
    if command in ("panel", "outline"):
        panel.outline()
    elif command == "check":
        panel.check()
    elif command == "review":
        panel.review()
    elif command == "edit":
        panel.dialog.get("instruction").setFocus()
    return panel


def automate(ctx, action, args):
    """One panel action for the test driver; returns the panel's state (or the action's answer)."""
    from ledger_panel import panel_for
    from ledger_toolkit import MainThread

    main = MainThread(ctx)
    answered = None
    if action == "wait":  # on this (the caller's) thread: the main thread goes on working
        deadline = time.monotonic() + float(args.get("timeout", 600))
        answered = 0  # how often the main thread ran a call of ours while the command was working
        while time.monotonic() < deadline:
            panel = main.call(lambda: panel_for(ctx, _current_text_document(ctx, args.get("doc")), create=False))
            if panel is None or not panel.working():
                break
            answered += 1
            time.sleep(0.2)
        time.sleep(0.3)  # the callbacks posted last
        action = "state"

    def act():
        doc = _current_text_document(ctx, args.get("doc"))
        if doc is None:
            raise BridgeError("no_document", "Open a text document (ODT or DOCX) first.")
        if action == "menu":
            run(ctx, args["command"])
            return panel_for(ctx, doc).state()
        panel = panel_for(ctx, doc)
        if action == "state":
            return panel.state()
        if action == "open":
            panel.show(args.get("page", "outline"))
        elif action == "capture":
            return {"size": panel.capture(args["path"]), **panel.state()}
        elif action == "select":
            panel.show(args.get("page", panel.page))
            panel.dialog.select_key(args["tree"], args["key"])
        elif action == "filter":
            if "severity" in args:
                panel.dialog.get("severity").selectItemPos(int(args["severity"]), True)
            if "text" in args:
                panel.dialog.get("filter").setText(args["text"])
            panel.render_findings()
        elif action == "preview":
            panel.show("edit")
            panel.preview(args.get("instruction"))
        elif action == "tick":
            panel.tick(args.get("key"), args.get("on"))
        elif action == "settings":
            panel.show("settings")
            panel.set_settings(args.get("values") or {})
        elif action in ("outline", "deps", "check", "fix", "apply", "review", "test_connection", "save_settings",
                        "tick_all", "close"):
            method = getattr(panel, action)
            method(*args.get("call", []))
        elif action == "cursor":
            _put_cursor(doc, args)
        else:
            raise BridgeError("unknown_action", f"Unknown panel action {action!r}.")
        return panel.state() if action != "close" else {"closed": True}

    out = main.call(act)
    if answered is not None and out is not None:
        out["main_thread_answers"] = answered
    return out


def _put_cursor(doc, args):
    """Puts the view cursor in the paragraph that begins with ``args["text"]`` (a user's click),
    selecting ``args["select"]`` characters from ``args["offset"]`` when given."""
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        par = enum.nextElement()
        if par.supportsService("com.sun.star.text.Paragraph") and par.getString().startswith(args["text"]):
            cur = par.getText().createTextCursorByRange(par.getStart())
            cur.goRight(int(args.get("offset", 0)), False)
            cur.goRight(int(args.get("select", 0)), True)
            doc.getCurrentController().select(cur)
            return True
    raise BridgeError("not_found", f"No paragraph begins with {args['text']!r}.")


class LedgerBridge(unohelper.Base, XJobExecutor, XJob):
    """``service:org.ledger.Bridge?COMMAND`` from the menu calls :meth:`trigger` with COMMAND."""

    def __init__(self, ctx):
        self.ctx = ctx

    def trigger(self, command):
        try:
            run(self.ctx, command)
        except Exception as exc:  # the user gets a sentence
            _message_box(self.ctx, f"LEDGER hit an unexpected problem: {type(exc).__name__}: {exc}")

    def execute(self, arguments):
        args = {a.Name: a.Value for a in arguments}
        try:
            payload = json.loads(args.get("args") or "{}")
            out = automate(self.ctx, args.get("action", "state"), payload)
            return json.dumps({"ok": True, **(out or {})}, ensure_ascii=False, default=str)
        except BridgeError as exc:
            return json.dumps({"ok": False, "code": exc.code, "message": exc.message})
        except Exception as exc:
            return json.dumps({"ok": False, "code": "unexpected", "message": f"{type(exc).__name__}: {exc}",
                               "trace": traceback.format_exc()[-3000:]})


g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(LedgerBridge, IMPLEMENTATION, ("com.sun.star.task.Job",))
