"""The LEDGER panel's reading pages: the outline, the dependencies of the paragraph at the cursor,
and the check (findings grouped with counts, a filter, a jump to each place, a fix of one finding
or a group). A mixin of :class:`ledger_panel.Panel`, which supplies the window and the plumbing
(``_start``, ``_snapshot``, ``_ensure_uploaded``, ``_status``…)."""
from __future__ import annotations

import ledger_views as views
from ledger_doc import at_cursor, jump

__all__ = ["ReadPages"]

_SEVERITY_OF = {1: "error", 2: "warning", 3: "info"}


class ReadPages:
    """Outline, dependencies and check."""

    # --- outline and dependencies -----------------------------------------------------------------

    def outline(self) -> None:
        snap = self._snapshot()

        def work(progress):
            client = self._client()
            sd = self._ensure_uploaded(client, snap, progress)
            progress(0.6, "reading the outline")
            return client.outline(sd["id"])

        def done(outline):
            rows = [(depth, text, f"unit:{uid}") for depth, text, uid in views.outline_lines(outline)]
            nodes = self.dialog.fill_tree("outline", rows, f"{self.server_doc.get('name')}: {len(rows)} headings")
            self.dialog.expand("outline", [n for n, r in zip(nodes, rows) if r[0] == 0])
            self.last["outline"] = len(rows)
            self._say(f"{len(rows)} headings. Click one to go there.")

        self._start("Reading the outline\u2026", work, done)

    def _jump_key(self, key) -> None:
        if not key or not self.server_doc or not str(key).startswith("unit:"):
            return
        _, uid, *rest = str(key).split(":")
        start = int(rest[0]) if rest and rest[0] not in ("", "None") else None
        end = int(rest[1]) if len(rest) > 1 and rest[1] not in ("", "None") else None
        ok = jump(self.doc, self.server_doc["units"], uid, start, end)
        unit = self.server_doc["by_id"].get(uid, {})
        where = views.place(self.server_doc["by_id"], uid) or unit.get("label") or uid
        self.last["jump"] = {"unit": uid, "found": ok, "selected": self._selected_text()}
        self._status(f"Showing {where}." if ok else f"{where} is not in the open document as the server read it.")

    def _selected_text(self) -> str:
        try:
            return self.doc.getCurrentController().getViewCursor().getString()
        except Exception:
            return ""

    def deps(self) -> None:
        snap = self._snapshot()

        def upload(progress):
            return self._ensure_uploaded(self._client(), snap, progress)

        def have_units(sd):
            here = at_cursor(self.doc, sd["units"])
            if not here.get("target"):
                self._say("Put the cursor in a paragraph of the document first.")
                return
            target = here["target"]

            def work(progress):
                return self._client().impact(sd["id"], target, job=sd.get("job"), on_progress=progress)

            self._start("Finding what this paragraph depends on\u2026", work, lambda res: self._show_deps(target, res))

        self._start("Reading the document\u2026", upload, have_units)

    def _show_deps(self, target, res) -> None:
        by_id = self.server_doc["by_id"]
        refs = res.get("references") or []
        hit = res.get("impacted") or []
        rows = [(0, f"This paragraph: {views.place(by_id, target)}", f"unit:{target}"),
                (0, f"It cites or needs ({len(refs)})", None)]
        for r in refs:
            rows.append((1, f"{r.get('type', '').title()}: {r.get('label') or views.place(by_id, r.get('unit'))}"
                            f" \u2014 \u201c{views.snippet(r.get('evidence'), 40)}\u201d", f"unit:{r.get('unit')}"))
        rows.append((0, f"What depends on it ({len(hit)})", None))
        for r in hit:
            via = (r.get("via") or [{}])[0]
            rows.append((1, f"{views.place(by_id, r.get('unit')) or r.get('label')} \u2014 {via.get('type', '').lower()}"
                            f" \u201c{views.snippet(via.get('evidence'), 40)}\u201d", f"unit:{r.get('unit')}"))
        nodes = self.dialog.fill_tree("deps", rows, f"{views.place(by_id, target)}")
        self.dialog.expand("deps", nodes)
        self.last["deps"] = {"target": target, "references": len(refs), "impacted": len(hit)}
        self._say(f"{len(refs)} cited or needed, {len(hit)} depending on it."
                  + (" (The graph is still being built: ask again for the rest.)" if res.get("partial") else ""))

    # --- check ----------------------------------------------------------------------------------

    def check(self) -> None:
        snap = self._snapshot()

        def work(progress):
            client = self._client()
            sd = self._ensure_uploaded(client, snap, progress)
            progress(0.5, "checking")
            return client.check(sd["id"])

        def done(res):
            self.findings = res.get("findings") or []
            self.last["check"] = {"total": len(self.findings), "truncated": res.get("truncated")}
            self.render_findings()
            more = ""
            if res.get("truncated"):
                more = f" (the server lists the {len(self.findings)} most severe of {res['truncated'].get('total')})"
            self._say(f"LEDGER found {len(self.findings)} finding(s){more}." if self.findings else
                      "LEDGER found no broken references, stale numbers or one-sided term changes.")

        self._start("Checking the document\u2026", work, done)

    def _filter(self):
        sel = self.dialog.get("severity").getSelectedItemPos()
        text = self.dialog.get("filter").getText().strip()
        return _SEVERITY_OF.get(sel), text

    def render_findings(self) -> None:
        severity, text = self._filter()
        by_id = self.server_doc["by_id"] if self.server_doc else {}
        groups = views.finding_groups(self.findings, by_id, severity=severity, text=text)
        self.finding_index = {}
        rows = []
        for g in groups:
            rows.append((0, f"{g['title']} ({g['count']})", f"kind:{g['kind']}"))
            for item in g["items"]:
                f = item["finding"]
                idx = self.findings.index(f)
                self.finding_index[f"finding:{idx}"] = f
                sev = {"error": "\u2716", "warning": "\u26a0"}.get(f.get("severity"), "\u2139")
                rows.append((1, f"{sev} {item['where']}: {views.snippet(f.get('message'), 110)}", f"finding:{idx}"))
                places = views.finding_places(f)
                if len(places) > 1:  # every place, each a jump
                    for uid, start, end, text in places:
                        rows.append((2, f"{views.place(by_id, uid)}" + (f": \u201c{views.snippet(text, 50)}\u201d" if text else ""),
                                     f"unit:{uid}:{start}:{end}"))
        shown = sum(g["count"] for g in groups)
        nodes = self.dialog.fill_tree("findings", rows, f"{shown} of {len(self.findings)} findings")
        self.dialog.expand("findings", [n for n, r in zip(nodes, rows) if r[0] == 0])  # each finding in sight
        self.last["findings_shown"] = shown
        self.last["finding_groups"] = [(g["title"], g["count"]) for g in groups]
        self._label("finding_detail", f"{shown} of {len(self.findings)} findings shown in {len(groups)} group(s)."
                    if self.findings else "")

    def _finding_selected(self) -> None:
        key = self.dialog.selected_key("findings")
        if key and str(key).startswith("unit:"):
            self._jump_key(key)
            return
        f = self.finding_index.get(key) if key else None
        if f is None:
            return
        places = views.finding_places(f)
        detail = f.get("message") or ""
        if f.get("suggestion"):
            detail += f"\nSuggestion: {f['suggestion']}"
        if len(places) > 1:
            detail += f"\n{len(places)} places."
        self._label("finding_detail", detail)
        if places:
            uid, start, end, _text = places[0]
            self._jump_key(f"unit:{uid}:{start}:{end}")

    def fix(self, scope: str = "one") -> None:
        key = self.dialog.selected_key("findings")
        if not key or not self.server_doc:
            self._say("Select a finding (or a group) first.")
            return
        if scope == "group" or str(key).startswith("kind:"):
            kind = key.split(":", 1)[1] if str(key).startswith("kind:") else (self.finding_index[key].get("kind"))
            members = [f for f in self.findings if f.get("kind") == kind]
            ids = [f["id"] for f in members if f.get("id") and f.get("fixable", True)]
            body = {"findings": ids} if ids else {"kinds": [kind]}
            label = f"all {len(members)} \u201c{views.kind_title(kind)}\u201d findings"
        else:
            f = self.finding_index[key]
            if not f.get("id") or f.get("fixable") is False:
                self._say("LEDGER has no automatic fix for this finding; edit it by hand or with an instruction.")
                return
            body, label = {"findings": [f["id"]]}, "this finding"
        sd = self.server_doc
        author = self.cfg.get("author") or "LEDGER"

        def work(progress):
            return self._client().fix(sd["id"], author=author, **body)

        def done(proposal):
            self.instruction = f"Fix {label}"
            self.dialog.model.getByName("instruction").Text = self.instruction
            self._show_preview(proposal)
            self.show("edit")

        self._start(f"Preparing the fix of {label}\u2026", work, done)
