"""The LEDGER panel: a non-modal window beside a Writer document, with what the Word task pane offers.

Pages (one at a time, the dialog's ``Step``): **Outline** (the document's headings, a jump to
each, and the dependencies of the paragraph at the cursor: what it cites and needs, what depends
on it); **Check** (every finding the server returns, grouped by kind with counts, a filter by
severity and words, each with its place and a jump to it, fix one or a group); **Edit** (an
instruction sent with the unit at the cursor and the selection; a preview of every change,
grouped per operation with its reason and the warnings beside the change they concern, ticks per
change and group, then Apply); **Review** (every LEDGER edit the document holds, each change one
item); **Settings** (server, key, author, comments; a connection test; saved to the options file).

Server calls run on a thread and report progress; everything that touches the document or the
window runs on LibreOffice's main thread (``ledger_toolkit.MainThread``), so Writer stays
responsive while the server works. An edit lands as one undo step, through the server's own
tracked copy (:mod:`ledger_writer`).
"""
from __future__ import annotations

import threading
import traceback

import uno
import unohelper
from com.sun.star.util import XModifyListener

from ledger_read_pages import ReadPages
from ledger_client import BridgeError, LedgerClient, load_config
from ledger_doc import document_bytes
from ledger_toolkit import Dialog, MainThread, capture
from ledger_write_pages import WritePages

__all__ = ["PAGES", "Panel", "panel_for"]

PAGES = ("outline", "check", "edit", "review", "settings")
TITLES = {"outline": "Outline", "check": "Check", "edit": "Edit", "review": "Review", "settings": "Settings"}
W, H = 270, 340
_SEVERITY_ITEMS = ("All findings", "Errors", "Warnings", "Notes")

_PANELS = {}


def panel_for(ctx, doc, create: bool = True):
    """The panel of a document (one per document window)."""
    key = _doc_key(doc)
    panel = _PANELS.get(key)
    if panel is None and create:
        panel = Panel(ctx, doc)
        _PANELS[key] = panel
    return panel


def _doc_key(doc):
    try:
        return doc.getPropertyValue("RuntimeUID")
    except Exception:
        return id(doc)


class _Modified(unohelper.Base, XModifyListener):
    def __init__(self, panel):
        self.panel = panel

    def modified(self, _ev):
        self.panel.dirty = True

    def disposing(self, _ev):
        pass


class Panel(ReadPages, WritePages):
    """One LEDGER window for one document; its actions are also what the test driver calls."""

    def __init__(self, ctx, doc):
        self.ctx, self.doc = ctx, doc
        self.main = MainThread(ctx)
        self.cfg = load_config()
        self.quiet = str(self.cfg.get("ui", "dialogs")).lower() == "none"
        self.busy = False
        self.landing = False
        self.dirty = True
        self.page = "outline"
        self.messages = []
        self.status_text = ""
        self.server_doc = None  # {"id", "job", "units", "by_id"}
        self.findings = []
        self.proposal = None
        self.groups = []
        self.kept = set()
        self.instruction = ""
        self.last = {}
        self._modified = _Modified(self)
        doc.addModifyListener(self._modified)
        self._build()

    # --- the window --------------------------------------------------------------------------

    def _build(self):
        d = Dialog(self.ctx, "LEDGER", W, H)
        self.dialog = d
        for i, page in enumerate(PAGES):
            d.add("UnoControlButtonModel", f"tab_{page}", 4 + i * 53, 4, 51, 14, Label=TITLES[page], Toggle=True)
        # outline
        d.add("UnoControlFixedTextModel", "outline_title", 4, 22, 200, 10, step=1, Label="Outline of the document")
        d.add("UnoControlButtonModel", "outline_refresh", 206, 20, 60, 13, step=1, Label="Refresh")
        d.add("tree.TreeControlModel", "outline", 4, 35, 262, 150, step=1)
        d.add("UnoControlFixedTextModel", "deps_title", 4, 190, 200, 10, step=1,
              Label="Dependencies of the paragraph at the cursor")
        d.add("UnoControlButtonModel", "deps_show", 206, 188, 60, 13, step=1, Label="Show")
        d.add("tree.TreeControlModel", "deps", 4, 203, 262, 95, step=1)
        # check
        d.add("UnoControlListBoxModel", "severity", 4, 22, 80, 13, step=2, Dropdown=True,
              StringItemList=_SEVERITY_ITEMS, SelectedItems=(0,))
        d.add("UnoControlEditModel", "filter", 88, 22, 110, 13, step=2, HelpText="Words to filter the findings")
        d.add("UnoControlButtonModel", "check_run", 202, 21, 64, 14, step=2, Label="Check")
        d.add("tree.TreeControlModel", "findings", 4, 39, 262, 200, step=2)
        d.add("UnoControlFixedTextModel", "finding_detail", 4, 242, 262, 36, step=2, MultiLine=True, Label="")
        d.add("UnoControlButtonModel", "fix_one", 4, 281, 86, 14, step=2, Label="Fix this finding")
        d.add("UnoControlButtonModel", "fix_group", 94, 281, 86, 14, step=2, Label="Fix this group")
        d.add("UnoControlButtonModel", "finding_jump", 184, 281, 82, 14, step=2, Label="Show in document")
        # edit
        d.add("UnoControlFixedTextModel", "instruction_title", 4, 22, 262, 10, step=3,
              Label="What should change? (\u201cRename \u2018supplier\u2019 to \u2018vendor\u2019\u201d, \u201cDelete this paragraph\u201d)")
        d.add("UnoControlEditModel", "instruction", 4, 33, 262, 28, step=3, MultiLine=True)
        d.add("UnoControlFixedTextModel", "cursor_info", 4, 64, 196, 18, step=3, MultiLine=True,
              Label="The paragraph at the cursor and the selection go with the instruction.")
        d.add("UnoControlButtonModel", "preview", 204, 64, 62, 14, step=3, Label="Preview")
        d.add("tree.TreeControlModel", "changes", 4, 84, 262, 178, step=3)
        d.add("UnoControlFixedTextModel", "changes_count", 4, 265, 262, 12, step=3, Label="")
        d.add("UnoControlButtonModel", "tick", 4, 281, 60, 14, step=3, Label="Tick / untick")
        d.add("UnoControlButtonModel", "tick_all", 67, 281, 42, 14, step=3, Label="All")
        d.add("UnoControlButtonModel", "tick_none", 112, 281, 42, 14, step=3, Label="None")
        d.add("UnoControlButtonModel", "apply", 170, 281, 96, 14, step=3, Label="Apply ticked changes")
        # review
        d.add("UnoControlFixedTextModel", "review_title", 4, 22, 196, 20, step=4, MultiLine=True,
              Label="Accept or reject LEDGER's changes in Edit \u25b8 Track Changes \u25b8 Manage, then review here.")
        d.add("UnoControlButtonModel", "review_run", 204, 22, 62, 14, step=4, Label="Review")
        d.add("tree.TreeControlModel", "review", 4, 44, 262, 210, step=4)
        d.add("UnoControlFixedTextModel", "review_verdict", 4, 257, 262, 40, step=4, MultiLine=True, Label="")
        # settings
        y = 24
        for name, label in (("url", "Server address"), ("api_key", "API key"), ("author", "Author of the changes")):
            d.add("UnoControlFixedTextModel", f"{name}_label", 4, y + 2, 80, 10, step=5, Label=label)
            extra = {"EchoChar": ord("*")} if name == "api_key" else {}
            d.add("UnoControlEditModel", f"set_{name}", 88, y, 178, 13, step=5, **extra)
            y += 18
        d.add("UnoControlCheckBoxModel", "set_comments", 88, y, 178, 12, step=5,
              Label="A comment on each change saying why")
        y += 18
        d.add("UnoControlButtonModel", "settings_test", 88, y, 86, 14, step=5, Label="Test connection")
        d.add("UnoControlButtonModel", "settings_save", 180, y, 86, 14, step=5, Label="Save")
        d.add("UnoControlFixedTextModel", "settings_result", 4, y + 20, 262, 60, step=5, MultiLine=True, Label="")
        # every page
        d.add("UnoControlFixedTextModel", "status", 4, 300, 262, 20, MultiLine=True, Label="")
        d.add("UnoControlProgressBarModel", "progress", 4, 323, 200, 10, ProgressValueMin=0, ProgressValueMax=1000,
              ProgressValue=0)
        d.add("UnoControlButtonModel", "close", 208, 321, 58, 14, Label="Close")
        parent = None
        try:
            parent = self.doc.getCurrentController().getFrame().getContainerWindow()
        except Exception:
            parent = None
        d.create(parent)
        for page in PAGES:
            d.on(f"tab_{page}", "action", lambda p=page: self.show(p))
        d.on("outline_refresh", "action", self.outline)
        d.on("outline", "select", lambda: self._jump_key(d.selected_key("outline")))
        d.on("deps_show", "action", self.deps)
        d.on("deps", "select", lambda: self._jump_key(d.selected_key("deps")))
        d.on("check_run", "action", self.check)
        d.on("severity", "item", self.render_findings)
        d.on("findings", "select", self._finding_selected)
        d.on("fix_one", "action", lambda: self.fix("one"))
        d.on("fix_group", "action", lambda: self.fix("group"))
        d.on("finding_jump", "action", lambda: self._finding_selected())
        d.on("preview", "action", lambda: self.preview())
        d.on("changes", "double", lambda: self.tick())
        d.on("tick", "action", lambda: self.tick())
        d.on("tick_all", "action", lambda: self.tick_all(True))
        d.on("tick_none", "action", lambda: self.tick_all(False))
        d.on("apply", "action", self.apply)
        d.on("review_run", "action", self.review)
        d.on("settings_test", "action", self.test_connection)
        d.on("settings_save", "action", self.save_settings)
        d.on("close", "action", self.close)
        d.on_close(self.close)
        self._filter_listener()
        self._load_settings_fields()

    def _filter_listener(self):
        from com.sun.star.awt import XTextListener

        panel = self

        class _Text(unohelper.Base, XTextListener):
            def textChanged(self, _ev):
                panel.render_findings()

            def disposing(self, _ev):
                pass

        self._text_listener = _Text()
        self.dialog.get("filter").addTextListener(self._text_listener)

    def show(self, page: str = "outline") -> None:
        self.page = page
        self.dialog.model.Step = PAGES.index(page) + 1
        for p in PAGES:
            self.dialog.model.getByName(f"tab_{p}").State = 1 if p == page else 0
        self.dialog.control.setVisible(True)

    def close(self) -> None:
        try:
            self.doc.removeModifyListener(self._modified)
        except Exception:
            pass
        _PANELS.pop(_doc_key(self.doc), None)
        try:
            self.dialog.control.setVisible(False)
            self.dialog.control.dispose()
        except Exception:
            pass

    def _label(self, name: str, text: str) -> None:
        self.dialog.model.getByName(name).Label = text

    def _status(self, text: str) -> None:
        self.status_text = text
        self._label("status", text)

    def _progress(self, fraction=None, stage: str = "") -> None:
        value = 0 if fraction is None else max(1, min(1000, int(fraction * 1000)))
        self.dialog.model.getByName("progress").ProgressValue = value
        if stage and self.busy:
            base = self.status_text.split(" \u2014 ")[0]
            self._label("status", f"{base} \u2014 {stage}")

    def _box(self, kind: str, text: str, buttons: int = 1) -> int:
        self.messages.append(text)
        if self.quiet:
            answer = str(self.cfg.get("answer", "no")).lower()
            return 2 if buttons != 1 and answer == "yes" else 3 if buttons != 1 else 1
        toolkit = self.ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.Toolkit", self.ctx)
        box = toolkit.createMessageBox(self.dialog.control.getPeer(),
                                       uno.Enum("com.sun.star.awt.MessageBoxType", kind), buttons, "LEDGER", text)
        return box.execute()

    def _say(self, text: str) -> None:
        self._status(text)
        self.messages.append(text)

    def _error(self, text: str) -> None:
        self._status(text)
        self._box("ERRORBOX", text)

    def _ask(self, text: str) -> bool:
        return self._box("QUERYBOX", text, 3) == 2  # BUTTONS_YES_NO; YES

    # --- work off the main thread -------------------------------------------------------------

    def _start(self, label: str, work, done, on_error=None) -> bool:
        """Runs ``work(progress)`` on a thread, then ``done(result)`` on the main thread (or
        ``on_error(exception)`` before the error is shown)."""
        if self.busy:
            self._say("LEDGER is still working on the last command; wait for it to finish.")
            return False
        self.busy = True
        self._status(label)
        self._progress(0.02)

        def progress(fraction, stage=""):
            self.main.post(lambda: self._progress(fraction, stage))

        def run():
            result, error = None, None
            try:
                result = work(progress)
            except Exception as exc:  # shown on the main thread
                error = exc
            self.main.post(lambda: self._finish(done, result, error, on_error))

        threading.Thread(target=run, name="ledger-server", daemon=True).start()
        return True

    def _finish(self, done, result, error, on_error=None) -> None:
        """Ends a command on the main thread: ``busy`` is off (``done`` may start the next stage),
        ``landing`` on until ``done`` returns: bringing an edit in loads a document, and a load
        lets LibreOffice run other posted callbacks meanwhile, which must not read the work as done."""
        self.busy = False
        self.landing = True
        try:
            self._progress(None)
            if error is not None:
                self.dirty = True  # an upload may not have happened: send the document again next time
                if on_error is not None:
                    on_error(error)
            if error is None:
                try:
                    done(result)
                    return
                except Exception as exc:
                    error = exc
            if isinstance(error, BridgeError):
                self._error(error.message)
            else:
                self.last["trace"] = traceback.format_exception(type(error), error, error.__traceback__)[-6:]
                self._error(f"LEDGER hit an unexpected problem: {type(error).__name__}: {error}")
        finally:
            self.landing = False

    def working(self) -> bool:
        """A command still runs: on its thread, or its result is being brought in."""
        return self.busy or self.landing

    def _client(self) -> LedgerClient:
        return LedgerClient(self.cfg)

    def _snapshot(self):
        """The document's bytes when they changed since the last upload (main thread). From here
        on an edit in the window marks the document changed again (the modify listener)."""
        if not self.dirty and self.server_doc is not None:
            return None
        snap = document_bytes(self.doc)
        self.dirty = False
        return snap

    def _ensure_uploaded(self, client, snapshot, progress) -> dict:
        """Uploads the document when it changed (worker thread); the server's units with it."""
        if snapshot is not None:
            data, media, name = snapshot
            progress(0.05, "sending the document")
            meta = client.upload(data, name, media)
            units = []
            offset = 0
            while True:
                page = client.request("GET", f"/api/v1/documents/{meta['id']}/units?offset={offset}&limit=5000")[1]
                units.extend(page["units"])
                offset += len(page["units"])
                if not page["units"] or offset >= page.get("total", offset):
                    break
            self.server_doc = {"id": meta["id"], "job": meta.get("job"), "units": units,
                               "by_id": {u["id"]: u for u in units}, "name": name}
        return self.server_doc

    # --- for the test driver ------------------------------------------------------------------------

    def state(self) -> dict:
        """What the window shows now (trees, labels, counts), as plain data."""
        trees = {name: [list(r) for r in self.dialog.tree_rows(name)] for name in self.dialog.trees}
        titles = {name: self.dialog.tree_title(name) for name in self.dialog.trees}
        labels = {n: self.dialog.model.getByName(n).Label for n in
                  ("status", "finding_detail", "changes_count", "review_verdict", "settings_result", "cursor_info")}
        return {"page": self.page, "busy": self.working(), "trees": trees, "titles": titles, "labels": labels, "messages": list(self.messages),
                "last": self.last, "document": (self.server_doc or {}).get("id"),
                "settings": self._settings_values()}

    def capture(self, path: str):
        return capture(self.dialog, path)
