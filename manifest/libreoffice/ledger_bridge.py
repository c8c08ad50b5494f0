"""LEDGER bridge for LibreOffice Writer: the UNO component behind the LEDGER menu (Addons.xcu).

``service:org.ledger.Bridge?edit`` saves the open document to bytes, asks for an instruction,
sends both to the LEDGER server (upload -> proposals -> apply, ROUTES.md), shows what will
change and applies the operations as tracked changes, each with a comment saying why (config
``comments``, default on); ``?review``, once the reviewer is done, sends the document back and
says which of those changes were accepted, rejected or are pending, and what the result breaks
(the document keeps the revision it came from as the custom property ``LEDGER revision``);
``?check`` lists the server's findings; ``?settings`` says where the settings live. Every outcome is a message box (or, with
``ui: "none"``, only the JSON report written to ``report``), never a traceback.
"""
from __future__ import annotations

import json
import traceback

import uno
import unohelper
from com.sun.star.task import XJobExecutor

from ledger_client import BridgeError, LedgerClient, config_path, load_config
from ledger_writer import FORMATS, apply_operations, document_bytes, load_into_frame

__all__ = ["LedgerBridge", "run"]

IMPLEMENTATION = "org.ledger.Bridge"
TITLE = "LEDGER"


class _Ui:
    """Message boxes and the instruction dialog; with ``ui == "none"`` it only records."""

    def __init__(self, ctx, cfg, doc):
        self.ctx, self.cfg, self.doc = ctx, cfg, doc
        self.quiet = str(cfg.get("ui", "dialogs")).lower() == "none"
        self.messages = []

    def _box(self, kind, text, buttons=1):
        self.messages.append(text)
        if self.quiet:
            return 2 if buttons != 1 else 1  # "Yes"/"OK"
        smgr = self.ctx.ServiceManager
        toolkit = smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", self.ctx)
        parent = self.doc.getCurrentController().getFrame().getContainerWindow() if self.doc else None
        box = toolkit.createMessageBox(parent, uno.Enum("com.sun.star.awt.MessageBoxType", kind), buttons, TITLE, text)
        return box.execute()

    def info(self, text):
        self._box("INFOBOX", text)

    def error(self, text):
        self._box("ERRORBOX", text)

    def confirm(self, text):
        # MessageBoxButtons.BUTTONS_YES_NO = 3; MessageBoxResults.YES = 2
        return self._box("QUERYBOX", text, 3) == 2

    def ask_instruction(self):
        if self.cfg.get("instruction"):
            return self.cfg["instruction"]
        if self.quiet:
            return None
        return _instruction_dialog(self.ctx)


def _instruction_dialog(ctx):
    """A small dialog with one text field; the instruction, or None when cancelled."""
    smgr = ctx.ServiceManager
    model = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlDialogModel", ctx)
    model.Width, model.Height, model.Title = 220, 92, "Edit with LEDGER"
    label = model.createInstance("com.sun.star.awt.UnoControlFixedTextModel")
    label.PositionX, label.PositionY, label.Width, label.Height = 8, 6, 204, 12
    label.Label = "What should change? (e.g. Rename 'supplier' to 'vendor' everywhere)"
    model.insertByName("label", label)
    edit = model.createInstance("com.sun.star.awt.UnoControlEditModel")
    edit.PositionX, edit.PositionY, edit.Width, edit.Height = 8, 20, 204, 44
    edit.MultiLine = True
    model.insertByName("instruction", edit)
    for name, text, x, kind in (("ok", "Preview", 112, 1), ("cancel", "Cancel", 164, 2)):
        b = model.createInstance("com.sun.star.awt.UnoControlButtonModel")
        b.PositionX, b.PositionY, b.Width, b.Height = x, 70, 48, 14
        b.Label = text
        b.PushButtonType = kind  # 1 = OK, 2 = CANCEL
        model.insertByName(name, b)
    dialog = smgr.createInstanceWithContext("com.sun.star.awt.UnoControlDialog", ctx)
    dialog.setModel(model)
    dialog.createPeer(smgr.createInstanceWithContext("com.sun.star.awt.Toolkit", ctx), None)
    ok = dialog.execute() == 1
    text = dialog.getControl("instruction").getText().strip()
    dialog.dispose()
    return text if ok and text else None


def _current_text_document(ctx):
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    doc = desktop.getCurrentComponent()
    if doc is not None and doc.supportsService("com.sun.star.text.TextDocument"):
        return doc
    return None


def _summary(operations, limit=8):
    lines = []
    for op in operations[:limit]:
        where = op.get("unit_label") or op.get("unit") or ""
        if op.get("op") == "replace":
            lines.append(f"\u2022 {where}: \u201c{op.get('old', '')}\u201d \u2192 \u201c{op.get('text', '')}\u201d")
        else:
            lines.append(f"\u2022 {where}: {op.get('op')}")
        if op.get("reason") and op.get("source") not in (None, "rules", "llm"):
            lines.append(f"   why: {op['reason']}")
    if len(operations) > limit:
        lines.append(f"\u2026 and {len(operations) - limit} more")
    return "\n".join(lines)


def _edit(ctx, cfg, ui, doc, report):
    instruction = ui.ask_instruction()
    if not instruction:
        report.update(ok=False, code="cancelled", message="No instruction given; nothing was changed.")
        return
    data, media, name = document_bytes(doc)
    client = LedgerClient(cfg)
    meta = client.upload(data, name, media)
    report["document"] = meta["id"]
    author = cfg.get("author") or "LEDGER"
    proposal = client.propose(meta["id"], instruction, author)
    ops = proposal.get("operations") or []
    if not ops:
        msg = "LEDGER found nothing to change for this instruction."
        report.update(ok=True, applied=0, message=msg)
        ui.info(msg)
        return
    if not ui.confirm(f"Apply these {len(ops)} change(s) as tracked changes?\n\n{_summary(ops)}"):
        report.update(ok=False, code="cancelled", message="Cancelled; nothing was changed.")
        return
    comments = str(cfg.get("comments", True)).strip().lower() not in ("0", "false", "off", "no", "")
    applied = client.apply(meta["id"], proposal["id"], author, instruction, comments=comments)
    units = client.units(meta["id"])
    result = apply_operations(ctx, doc, applied.get("operations") or ops, author, units, comments=comments)
    report.update(revision=applied.get("revision"), failures=result["failures"], comments=result.get("comments", 0))
    if not result["failures"]:
        _remember(doc, meta["id"], applied.get("revision"))
    if result["failures"]:
        data = client.download(applied["download"])
        suffix = FORMATS["docx" if name.lower().endswith(".docx") else "odt"][2]
        load_into_frame(doc, data, suffix)
        msg = (f"{len(result['failures'])} change(s) could not be placed word by word in the open document, so "
               "LEDGER opened the server's copy with the tracked changes in this window. Save it under your file name.")
        report.update(ok=True, applied=len(ops), fallback=True, message=msg)
        ui.info(msg)
        return
    findings = applied.get("findings") or []
    msg = (f"{result['applied']} change(s) applied as tracked changes by {author}. "
           "Review them with Edit > Track Changes > Manage.")
    if findings:
        msg += "\n\nLEDGER's checks:\n" + "\n".join(f"\u2022 {f.get('message')}" for f in findings[:8])
    report.update(ok=True, applied=result["applied"], message=msg, findings=findings)
    ui.info(msg)


_REVISION_PROPERTY = "LEDGER revision"


def _remember(doc, doc_id, revision):
    """Keep ``doc_id:revision`` in the document (a custom property: it survives the save)."""
    props = doc.getDocumentProperties().getUserDefinedProperties()
    value = f"{doc_id}:{revision}"
    if props.getPropertySetInfo().hasPropertyByName(_REVISION_PROPERTY):
        props.setPropertyValue(_REVISION_PROPERTY, value)
    else:
        props.addProperty(_REVISION_PROPERTY, 128, value)  # PropertyAttribute.REMOVABLE


def _review(ctx, cfg, ui, doc, report):
    props = doc.getDocumentProperties().getUserDefinedProperties()
    if not props.getPropertySetInfo().hasPropertyByName(_REVISION_PROPERTY):
        raise BridgeError("no_revision", "This document holds no LEDGER edit to review: edit it with LEDGER first.")
    doc_id, _, rev = str(props.getPropertyValue(_REVISION_PROPERTY)).rpartition(":")
    data, media, _name = document_bytes(doc)
    res = LedgerClient(cfg).review(doc_id, int(rev), data, media)
    counts = res.get("counts") or {}
    lines = [f"{counts.get('accepted', 0)} accepted, {counts.get('rejected', 0)} rejected, "
             f"{counts.get('pending', 0)} pending."]
    lines += [f"\u2022 {o['status']}: {o.get('reason') or o['id']}" for o in (res.get("operations") or [])[:12]]
    problems = res.get("new_findings") or []
    lines.append("The document is consistent." if res.get("consistent") else "The review leaves problems to fix:")
    lines += [f"\u2022 {f.get('message')}" for f in problems[:8]]
    msg = "\n".join(lines)
    report.update(ok=True, review=res, message=msg)
    ui.info(msg)


def _check(ctx, cfg, ui, doc, report):
    data, media, name = document_bytes(doc)
    client = LedgerClient(cfg)
    meta = client.upload(data, name, media)
    findings = client.check(meta["id"]).get("findings") or []
    if findings:
        msg = f"LEDGER found {len(findings)} problem(s):\n" + "\n".join(
            f"\u2022 [{f.get('severity')}] {f.get('message')}" for f in findings[:15])
    else:
        msg = "LEDGER found no broken references, stale numbers or one-sided term changes."
    report.update(ok=True, findings=findings, message=msg)
    ui.info(msg)


def _settings(ctx, cfg, ui, doc, report):
    msg = (f"LEDGER server: {cfg['url']}\nAPI key: {'set' if cfg.get('api_key') else 'none'}\n"
           f"Author: {cfg.get('author') or '(not set: changes are recorded as LEDGER)'}\n\n"
           f"Change them in {config_path()} (JSON: url, api_key, author) or with the environment "
           "variables LEDGER_URL, LEDGER_API_KEY, LEDGER_AUTHOR.")
    report.update(ok=True, message=msg)
    ui.info(msg)


COMMANDS = {"edit": _edit, "review": _review, "check": _check, "settings": _settings}


def run(ctx, command):
    """Runs one menu command; returns the report (also written to ``cfg["report"]`` if set)."""
    report = {"command": command, "ok": False}
    cfg, ui = {}, None
    try:
        cfg = load_config()
        doc = _current_text_document(ctx)
        ui = _Ui(ctx, cfg, doc)
        if command not in COMMANDS:
            raise BridgeError("unknown_command", f"Unknown LEDGER command {command!r}.")
        if doc is None:
            raise BridgeError("no_document", "Open a text document (ODT or DOCX) first.")
        COMMANDS[command](ctx, cfg, ui, doc, report)
    except BridgeError as exc:
        report.update(ok=False, code=exc.code, status=exc.status, message=exc.message)
        if ui is not None:
            ui.error(exc.message)
    except Exception as exc:  # the user gets a sentence, the report the details
        msg = f"LEDGER hit an unexpected problem: {type(exc).__name__}: {exc}"
        report.update(ok=False, code="unexpected", message=msg, trace=traceback.format_exc()[-2000:])
        if ui is not None:
            ui.error(msg)
    if ui is not None:
        report["messages"] = ui.messages
    path = cfg.get("report") if isinstance(cfg, dict) else None
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(report, fh, ensure_ascii=False, indent=1)
    return report


class LedgerBridge(unohelper.Base, XJobExecutor):
    """``service:org.ledger.Bridge?COMMAND`` from the menu calls :meth:`trigger` with COMMAND."""

    def __init__(self, ctx):
        self.ctx = ctx

    def trigger(self, command):
        run(self.ctx, command)


g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(LedgerBridge, IMPLEMENTATION, ("com.sun.star.task.Job",))
