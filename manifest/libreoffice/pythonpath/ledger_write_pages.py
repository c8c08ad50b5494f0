"""The LEDGER panel's writing pages: an instruction with the cursor and the selection, the preview
of every change with ticks, the apply through the server's tracked copy (one undo step), the
review of every LEDGER edit the document holds, and the settings with a connection test. A mixin
of :class:`ledger_panel.Panel`."""
from __future__ import annotations

import ledger_views as views
from ledger_client import BridgeError, LedgerClient, config_path, load_config, save_config
from ledger_doc import at_cursor, document_bytes, document_format, is_read_only, read_revisions, remember_revision
from ledger_writer import ApplyError, apply_served, open_copy

__all__ = ["WritePages"]

_TICK = {True: "\u2611", False: "\u2610", None: "\u25a3"}  # ☑ ☐ ▣ (some)


class WritePages:
    """Edit (preview, ticks, apply), review and settings."""

    # --- edit: preview and apply -----------------------------------------------------------------

    def preview(self, instruction: str | None = None) -> None:
        if instruction is not None:
            self.dialog.model.getByName("instruction").Text = instruction
        text = (self.dialog.get("instruction").getText() or "").strip()
        if not text:
            self._say("Type an instruction first.")
            return
        if is_read_only(self.doc):
            self._error("This document is open read-only: LEDGER will not change it. Open it for editing first.")
            return
        self.instruction = text
        snap = self._snapshot()

        def upload(progress):
            return self._ensure_uploaded(self._client(), snap, progress)

        def have_units(sd):
            here = at_cursor(self.doc, sd["units"])
            self.last["cursor"] = here
            info = "The instruction goes with the paragraph at the cursor"
            if here.get("target"):
                info += f" ({views.place(sd['by_id'], here['target']) or here.get('label')})"
            if here.get("selection"):
                info += f" and the selection \u201c{views.snippet(here['selection']['text'], 40)}\u201d"
            self._label("cursor_info", info + ".")
            author = self.cfg.get("author") or "LEDGER"

            def work(progress):
                return self._client().propose(sd["id"], text, author, target=here.get("target"),
                                              selection=here.get("selection"), on_progress=progress)

            self._start("LEDGER is planning the changes\u2026", work, self._show_preview)

        self._start("Reading the document\u2026", upload, have_units)

    def _show_preview(self, proposal) -> None:
        self.proposal = proposal
        by_id = self.server_doc["by_id"]
        ops = proposal.get("operations") or []
        self.groups = views.group_operations(ops, by_id)
        self.kept = {o["id"] for o in ops}
        self.by_change, self.general = views.place_findings(proposal.get("findings") or [], self.groups)
        self.render_changes()
        if not ops:
            self._say(proposal.get("explanation") or "LEDGER found nothing to change for this instruction.")
        else:
            self._say(f"{len(ops)} change(s) planned. Untick what you do not want, then apply.")

    def render_changes(self) -> None:
        by_id = self.server_doc["by_id"] if self.server_doc else {}
        rows = []
        for gi, g in enumerate(self.groups):
            state = views.tick_state(g["changes"], self.kept)
            total, _on = views.count_changes(g["changes"], self.kept)
            title = f"{_TICK[{'all': True, 'none': False}.get(state)]} {g['title']} ({total} change{'s' if total != 1 else ''})"
            if g.get("reason"):
                title += f" \u2014 why: {views.snippet(g['reason'], 90)}"
            rows.append((0, title, f"g:{gi}"))
            for c in g["changes"]:
                on = all(o["id"] in self.kept for o in c["ops"])
                line = f"{_TICK[on]} {views.change_line(c['op'], by_id)}"
                if len(c["ops"]) > 1:
                    line += f" (with {len(c['ops']) - 1} part(s) it contains)"
                if not g.get("reason"):
                    line += f" \u2014 why: {views.snippet(c['op'].get('reason'), 80)}"
                rows.append((1, line, f"c:{c['id']}"))
                for f in self.by_change.get(c["id"], []):
                    rows.append((2, f"\u26a0 {views.snippet(f.get('message'), 140)}", f"w:{c['id']}"))
                for p in c["propagated"]:
                    rows.append((2, f"{_TICK[p['id'] in self.kept]} {views.change_line(p, by_id)} \u2014 "
                                    f"{views.snippet(p.get('reason'), 80)}", f"p:{c['id']}:{p['id']}"))
        for item in self.general:
            f = item["finding"]
            times = f" (\u00d7{item['count']})" if item["count"] > 1 else ""
            rows.append((0, f"\u26a0 {views.snippet(f.get('message'), 150)}{times}", "w:general"))
        for w in (self.proposal or {}).get("warnings") or []:
            rows.append((0, f"\u26a0 {views.snippet(w, 150)}", "w:proposal"))
        nodes = self.dialog.fill_tree("changes", rows, views.snippet(self.instruction, 80))
        self.dialog.expand("changes", [n for n, r in zip(nodes, rows) if r[0] == 0 and len(self.groups) <= 12])
        changes = [c for g in self.groups for c in g["changes"]]
        total, on = views.count_changes(changes, self.kept)
        ops = (self.proposal or {}).get("operations") or []
        self._label("changes_count", f"{on} of {total} changes ticked ({len(self.kept)} of {len(ops)} operations), "
                                     f"in {len(self.groups)} group(s).")
        self.last["preview"] = {"groups": len(self.groups), "changes": total, "ticked": on,
                                "operations": len(ops), "kept": len(self.kept),
                                "warnings_beside": sum(len(v) for v in self.by_change.values()),
                                "warnings_general": len(self.general)}

    def _change(self, cid):
        return next((c for g in self.groups for c in g["changes"] if c["id"] == cid), None)

    def tick(self, key: str | None = None, on: bool | None = None) -> None:
        """Ticks or unticks the selected (or given) group, change or propagated change."""
        key = key or self.dialog.selected_key("changes")
        if not key:
            return
        kind, _, rest = str(key).partition(":")
        if kind == "g":
            g = self.groups[int(rest)]
            want = (views.tick_state(g["changes"], self.kept) != "all") if on is None else on
            for c in g["changes"]:
                views.set_change(self.kept, c, want)
        elif kind == "c":
            c = self._change(rest)
            want = (not all(o["id"] in self.kept for o in c["ops"])) if on is None else on
            views.set_change(self.kept, c, want)
        elif kind == "p":
            cid, _, oid = rest.partition(":")
            want = (oid not in self.kept) if on is None else on
            views.set_propagated(self.kept, self._change(cid), oid, want)
        else:
            return
        self.render_changes()
        self.dialog.select_key("changes", key)

    def tick_all(self, on: bool) -> None:
        for g in self.groups:
            for c in g["changes"]:
                views.set_change(self.kept, c, on)
        self.render_changes()

    def apply(self) -> None:
        if not self.proposal or not (self.proposal.get("operations") or []):
            self._say("Preview an instruction first.")
            return
        if is_read_only(self.doc):
            self._error("This document is open read-only: LEDGER will not change it. Open it for editing first.")
            return
        if self.dirty:
            self._error("The document changed since the preview: preview the instruction again, then apply.")
            return
        ops = [o["id"] for o in self.proposal["operations"] if o["id"] in self.kept]
        if not ops:
            self._say("No change is ticked.")
            return
        sd, proposal, instruction = self.server_doc, self.proposal, self.instruction
        author = self.cfg.get("author") or "LEDGER"
        comments = str(self.cfg.get("comments", True)).strip().lower() not in ("0", "false", "off", "no", "")
        fmt = document_format(self.doc)

        def work(progress):
            client = self._client()
            applied = client.apply(sd["id"], proposal["id"], author, instruction, comments=comments, operations=ops)
            progress(0.7, "fetching the tracked copy")
            return applied, client.download(applied["download"])

        def done(res):
            applied, data = res
            self._status("Placing the changes in the document\u2026")
            self.main.post(lambda: self._land(applied, data, fmt, sd, instruction))

        self._start(f"Applying {len(ops)} operation(s)\u2026", work, done)

    def _land(self, applied, data, fmt, sd, instruction) -> None:
        title = f"LEDGER: {views.snippet(instruction, 40)}"
        try:
            result = apply_served(self.ctx, self.doc, data, fmt, title=title)
        except ApplyError as exc:
            self.last["apply"] = {"ok": False, "error": exc.message, "offer_copy": exc.offer_copy}
            if exc.offer_copy and self._ask(exc.message + "\n\nOpen the server's tracked copy in a new window? "
                                             "Your document stays as it is; save the copy under a name of your choice."):
                open_copy(self.ctx, data, fmt)
                self._say("The server's tracked copy is open in a new window; your document is unchanged.")
            else:
                self._error(exc.message)
            return
        remember_revision(self.doc, {"document": sd["id"], "revision": applied.get("revision"),
                                     "instruction": views.snippet(instruction, 80), "url": self.cfg.get("url")})
        self.dirty = True
        findings = applied.get("findings") or []
        self.last["apply"] = {"ok": True, "revision": applied.get("revision"), **result,
                              "operations": len(applied.get("operations") or []), "findings": len(findings)}
        msg = (f"{len(applied.get('operations') or [])} change(s) applied as tracked changes "
               f"({result['redlines']} in Edit \u25b8 Track Changes \u25b8 Manage, {result['comments']} comment(s)). "
               "One Undo takes the whole edit back.")
        if findings:
            msg += f" LEDGER's checks: {len(findings)} finding(s), listed beside the changes."
        self._say(msg)
        self.proposal = dict(self.proposal or {}, findings=findings)
        self.by_change, self.general = views.place_findings(findings, self.groups)
        self.render_changes()

    # --- review ---------------------------------------------------------------------------------

    def review(self) -> None:
        revisions = read_revisions(self.doc)
        if not revisions:
            self._error("This document holds no LEDGER edit to review: edit it with LEDGER first.")
            return
        data, media, _name = document_bytes(self.doc)

        def work(progress):
            client = self._client()
            out = []
            for i, rev in enumerate(revisions):
                progress((i + 0.5) / len(revisions), f"edit {i + 1} of {len(revisions)}")
                title = f"Edit {i + 1}: {views.snippet(rev.get('instruction') or 'LEDGER edit', 50)}"
                try:
                    res = client.review(rev["document"], int(rev["revision"]), data, media)
                    out.append(dict(res, title=title))
                except BridgeError as exc:
                    msg = exc.message
                    if exc.code in ("unknown_document", "unknown_revision"):
                        msg = "the server no longer holds this edit (it keeps documents for a day)"
                    out.append({"title": title, "error": msg})
            return out

        self._start(f"Reviewing {len(revisions)} LEDGER edit(s)\u2026", work, self._show_review)

    def _show_review(self, reviews) -> None:
        rows = [(d, t, None) for d, t in views.review_lines(reviews)]
        nodes = self.dialog.fill_tree("review", rows, f"{len(reviews)} LEDGER edit(s)")
        self.dialog.expand("review", [n for n, r in zip(nodes, rows) if r[0] == 0])
        counts = {}
        for r in reviews:
            for k, v in (r.get("counts") or {}).items():
                counts[k] = counts.get(k, 0) + v
        judged = [r for r in reviews if not r.get("error")]
        consistent = bool(judged) and all(r.get("consistent") for r in judged) and len(judged) == len(reviews)
        problems = [f for r in judged for f in (r.get("new_findings") or [])]
        lines = [", ".join(f"{counts.get(s, 0)} {s}" for s in ("accepted", "rejected", "mixed", "pending")) + "."]
        if consistent:
            lines.append("The document is consistent: no broken reference or stale number.")
        else:
            lines.append("The review leaves problems to fix:" if problems else
                         "LEDGER cannot call the document consistent (see the edits above).")
            lines += [f"\u2022 {views.snippet(f.get('message'), 120)}" for f in problems[:6]]
        self._label("review_verdict", "\n".join(lines))
        self.last["review"] = {"edits": len(reviews), "counts": counts, "consistent": consistent,
                               "problems": len(problems),
                               "statuses": [[o.get("status") for o in r.get("operations") or []] for r in reviews]}
        self._say(f"Reviewed {len(reviews)} LEDGER edit(s).")

    # --- settings ----------------------------------------------------------------------------------

    def _load_settings_fields(self) -> None:
        m = self.dialog.model
        m.getByName("set_url").Text = str(self.cfg.get("url") or "")
        m.getByName("set_api_key").Text = str(self.cfg.get("api_key") or "")
        m.getByName("set_author").Text = str(self.cfg.get("author") or "")
        on = str(self.cfg.get("comments", True)).strip().lower() not in ("0", "false", "off", "no", "")
        m.getByName("set_comments").State = 1 if on else 0
        self._label("settings_result", f"Saved in {config_path()}.")

    def _settings_values(self) -> dict:
        m = self.dialog.model
        return {"url": m.getByName("set_url").Text.strip().rstrip("/"), "api_key": m.getByName("set_api_key").Text.strip(),
                "author": m.getByName("set_author").Text.strip(), "comments": bool(m.getByName("set_comments").State)}

    def set_settings(self, values: dict) -> None:
        m = self.dialog.model
        for key in ("url", "api_key", "author"):
            if key in values:
                m.getByName(f"set_{key}").Text = str(values[key])
        if "comments" in values:
            m.getByName("set_comments").State = 1 if values["comments"] else 0

    def test_connection(self) -> None:
        values = dict(self.cfg, **self._settings_values())

        def work(_progress):
            return LedgerClient(values).version()

        def done(ver):
            text = (f"Connected: {ver.get('name', 'LEDGER')} {ver.get('version', '')} at {values['url']} "
                    f"(formats {', '.join(ver.get('formats') or [])}; store {ver.get('store')}).")
            self.last["connection"] = {"ok": True, "version": ver.get("version")}
            self._label("settings_result", text)
            self._say(text)

        def failed(exc):
            self.last["connection"] = {"ok": False, "code": getattr(exc, "code", None)}
            self._label("settings_result", getattr(exc, "message", str(exc)))

        self._start(f"Testing the connection to {values['url']}\u2026", work, done, on_error=failed)

    def save_settings(self) -> None:
        values = self._settings_values()
        try:
            path = save_config(values)
        except OSError as exc:
            self._error(f"The settings could not be saved: {exc}")
            return
        try:
            self.cfg = load_config()
        except BridgeError as exc:
            self._error(exc.message)
            return
        self._label("settings_result", f"Saved in {path}.")
        self._say(f"Settings saved in {path}.")
