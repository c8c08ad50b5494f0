// Drives the task pane in headless Debian chromium (playwright-core, no downloaded browser):
// the page comes from the real LEDGER server on loopback, office.js is replaced by the scripted
// host (office-shim.js), every other outside request is refused. Prints one JSON result.
//
// Usage: node run_taskpane.mjs CONFIG.json  (written by tests/clients/test_taskpane_browser.py)
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const shim = readFileSync(join(here, "office-shim.js"), "utf8");
const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
const out = { events: [], console: [], pageErrors: [], refused: [], screenshots: [] };

const profile = mkdtempSync(join(tmpdir(), "ledger-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: cfg.chromium || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"], // the fresh --user-data-dir is `profile`
  viewport: { width: cfg.width || 360, height: cfg.height || 900 },
  deviceScaleFactor: 1,
});

async function waitFor(page, phases, timeout = 60000) {
  await page.waitForFunction((ps) => ps.includes(document.body.dataset.state), phases, { timeout });
  return page.evaluate(() => document.body.dataset.state);
}

async function waitEvent(page, phase, after, timeout = 30000) {
  await page.waitForFunction(([p, n]) => window.__ledgerEvents.slice(n).some((e) => e.phase === p), [phase, after], { timeout });
}

const shot = async (page, name) => {
  const path = join(cfg.outDir, name);
  // at real size the viewport is what a user sees (sticky bars included), not a 30,000 px strip
  await page.screenshot({ path, fullPage: !["large", "issue29", "sweep"].includes(cfg.scenario) });
  out.screenshots.push(path);
};

const text = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent.trim()));

try {
  // the server "goes away" for the pane while ``down`` says so (its requests are refused as a dead
  // server's would be); ``downOn`` refuses only the requests that match (an Apply)
  let down = false;
  let downOn = null;
  await context.route("**/*", (route) => {
    const url = route.request().url();
    const ours = url.startsWith(cfg.url) || (cfg.otherServer && url.startsWith(cfg.otherServer));
    if (ours && url.includes("/api/") && (down || (downOn && downOn(route.request())))) return route.abort("connectionrefused");
    if (url.startsWith(OFFICE_JS)) {
      if (cfg.scenario === "no-office") return route.fulfill({ status: 404, body: "" });
      return route.fulfill({ status: 200, contentType: "text/javascript", body: shim });
    }
    if (url.startsWith(cfg.url) || (cfg.otherServer && url.startsWith(cfg.otherServer)) || url.startsWith("data:")) return route.continue();
    out.refused.push(url);
    return route.abort();
  });
  await context.addInitScript(({ host, settings }) => {
    window.__LEDGER_HOST__ = host;
    window.__ledgerEvents = [];
    window.addEventListener("ledger:status", (e) => window.__ledgerEvents.push({ ...e.detail, t: Math.round(performance.now()) }));
    if (settings && !localStorage.getItem("ledger.settings.v1")) localStorage.setItem("ledger.settings.v1", JSON.stringify(settings));
  }, { host: cfg.host, settings: cfg.settings });

  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") out.console.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => out.pageErrors.push(String(e)));
  const opened = Date.now();
  await page.goto(`${cfg.url}/taskpane/`);
  if (cfg.scenario === "large") {
    await page.waitForFunction(() => window.__ledgerEvents?.some((e) => e.phase === "outlined" || e.phase === "error"), null, { timeout: 120000 });
    out.openToOutline = (Date.now() - opened) / 1000;
  }

  if (cfg.scenario === "no-office") {
    out.state = await waitFor(page, ["no-office", "offline", "error"], 30000);
    out.message = await page.textContent("#message-text");
    await shot(page, "taskpane-no-office.png");
  } else {
    out.state = await waitFor(page, ["ready", "error", "offline", "no-office"], 180000);
    out.openToReady = (Date.now() - opened) / 1000;
    out.message = (await page.isVisible("#message")) ? await page.textContent("#message-text") : null;
    out.docName = await page.textContent("#doc-name");
    out.outline = await text(page, "#outline a");
    if (out.state === "ready" && cfg.selectIndex != null && cfg.scenario !== "large") {
      const n = await page.evaluate(() => window.__ledgerEvents.length);
      await page.evaluate((i) => window.__ledgerHost.select(i), cfg.selectIndex);
      await waitEvent(page, "selection", n);
      out.deps = {
        kind: await page.textContent("#deps-kind"),
        label: await page.textContent("#deps-label"),
        preview: await page.textContent("#deps-preview"),
        references: await page.$$eval("#deps-refs li:not(.empty)", (els) => els.map((li) => ({
          type: li.dataset.type, words: li.querySelector(".edge-type")?.textContent, label: li.querySelector(".edge-label")?.textContent,
          evidence: li.querySelector(".edge-evidence")?.textContent ?? "" }))),
        dependents: await page.$$eval("#deps-dependents li:not(.empty)", (els) => els.map((li) => ({
          type: li.dataset.type, words: li.querySelector(".edge-type")?.textContent, label: li.querySelector(".edge-label")?.textContent,
          evidence: li.querySelector(".edge-evidence")?.textContent ?? "" }))),
      };
      await shot(page, "taskpane-selection.png");
    }
    if (out.state === "ready" && cfg.scenario !== "large") {
      await page.click('.tabs button[data-tab="outline"]');
      await shot(page, "taskpane-outline.png");
      if (out.outline.length) {
        const n = await page.evaluate(() => window.__ledgerEvents.length);
        await page.click("#outline a >> nth=0");
        await waitEvent(page, "jump", n);
      }
      if (cfg.selectIndex != null) {
        // Go to moved Word's cursor to the heading; the graph is drawn around the paragraph again
        await page.click('.tabs button[data-tab="edit"]');
        await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
        const n = await page.evaluate(() => window.__ledgerEvents.length);
        await page.evaluate((i) => window.__ledgerHost.select(i), cfg.selectIndex);
        await waitEvent(page, "selection", n);
      }
      await page.click('.tabs button[data-tab="graph"]');
      out.graph = { nodes: await page.$$eval("#graph .node", (els) => els.length),
                    edges: await page.$$eval("#graph path", (els) => els.map((p) => p.dataset.type)),
                    note: await page.textContent("#graph-note") };
      await shot(page, "taskpane-graph.png");
      await page.click('.tabs button[data-tab="edit"]');
    }
    if (out.state === "ready" && cfg.scenario === "apply") {
      await page.fill("#instruction", cfg.instruction);
      const n = await page.evaluate(() => window.__ledgerEvents.length);
      await page.click("#btn-preview");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["preview", "error"].includes(e.phase)), n, { timeout: 60000 });
      out.preview = await page.$$eval("#operations .op", (els) => els.map((li) => ({
        op: li.querySelector(".pill")?.textContent, unit: li.querySelector(".unit-label")?.textContent,
        del: [...li.querySelectorAll("del")].map((d) => d.textContent), ins: [...li.querySelectorAll("ins")].map((d) => d.textContent),
        why: li.querySelector(".op-why")?.textContent })));
      await shot(page, "taskpane-preview.png");
      const m = await page.evaluate(() => window.__ledgerEvents.length);
      // a double click: two clicks on the button before the first one's work is done
      if (cfg.doubleClick) await page.evaluate(() => { const b = document.getElementById("btn-apply"); b.click(); b.click(); });
      else await page.click("#btn-apply");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["applied", "apply-failed", "error"].includes(e.phase)), m, { timeout: 60000 });
      if (cfg.doubleClick) await page.waitForTimeout(1000); // room for a second apply to show itself
      out.message = (await page.isVisible("#message")) ? await page.textContent("#message-text") : null;
      await shot(page, "taskpane-applied.png");
    }
    if (out.state === "ready" && cfg.scenario === "review") {
      // apply with comments (WordApi 1.4), review each change in the pane (1.6), then the round trip
      await page.fill("#instruction", cfg.instruction);
      let n = await page.evaluate(() => window.__ledgerEvents.length);
      await page.click("#btn-preview");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["preview", "error"].includes(e.phase)), n, { timeout: 60000 });
      n = await page.evaluate(() => window.__ledgerEvents.length);
      await page.click("#btn-apply");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["review-listed", "apply-failed", "error"].includes(e.phase)), n, { timeout: 60000 });
      const listed = async () => page.$$eval("#review-changes .review-item", (els) => els.map((li) => ({
        op: li.dataset.op, place: li.querySelector(".place")?.textContent, text: li.querySelector(".review-context")?.dataset.text,
        context: li.querySelector(".review-context")?.textContent, why: li.getAttribute("title") })));
      out.reviewList = await listed();
      out.reviewNote = await page.textContent("#review-note");
      await shot(page, "taskpane-review.png");
      for (const decision of cfg.decisions || []) {
        const k = await page.evaluate(() => window.__ledgerEvents.length);
        await page.click(`#review-changes .review-item >> nth=0 >> button[data-decide="${decision}"]`);
        await page.waitForFunction((j) => window.__ledgerEvents.slice(j).filter((e) => e.phase === "review-listed").length > 0, k, { timeout: 30000 });
      }
      out.reviewListAfter = await listed();
      out.decisions = await page.evaluate(() => window.__wordDecisions());
      // the reviewer saves; the document Word now holds is the server's revision as reviewed
      const uploaded = (await page.evaluate(() => window.__ledgerEvents)).find((e) => e.phase === "uploaded");
      const applied = (await page.evaluate(() => window.__ledgerEvents)).find((e) => e.phase === "applied");
      const file = await fetch(`${cfg.url}/api/v1/documents/${uploaded.document}/revisions/${applied.revision}/file`);
      const b64 = Buffer.from(await file.arrayBuffer()).toString("base64");
      await page.evaluate((b) => window.__ledgerHost.setFile(b), cfg.reviewedBase64 || b64);
      n = await page.evaluate(() => window.__ledgerEvents.length);
      await page.click("#btn-review");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["reviewed", "error"].includes(e.phase)), n, { timeout: 60000 });
      out.statuses = await page.$$eval("#review-statuses li.status", (els) => els.map((li) => ({ op: li.dataset.op, status: li.dataset.status,
        text: li.textContent.trim() })));
      out.reviewSummary = await page.textContent("#review-summary");
      out.comments = await page.evaluate(() => window.__ledgerHost.comments());
      out.message = (await page.isVisible("#message")) ? await page.textContent("#message-text") : null;
      await shot(page, "taskpane-review-result.png");
    }
    if (cfg.scenario === "large") {
      // The pane at the size of a real standard (tests/clients/test_taskpane_browser.py
      // test_pane_at_the_size_of_a_standard): every point measured in the DOM.
      const L = (out.large = { raw: [], times: {} });
      const RAW = /\b(?:op|prop)-\d+\b|\bf-[0-9a-f]{6,}\b|_Ref\d+|\b(?:p|sec|cap|tbl|li|fig)-[0-9a-f]{10}\b/g;
      const rawCheck = async (where) => {
        const found = await page.evaluate((src) => (document.body.innerText.match(new RegExp(src, "g")) || []).slice(0, 5), RAW.source);
        if (found.length) L.raw.push({ where, found });
      };
      const since = async () => page.evaluate(() => window.__ledgerEvents.length);
      const until = async (phases, n, timeout = 120000) => page.waitForFunction(([ps, k]) => window.__ledgerEvents.slice(k).some((e) => ps.includes(e.phase)), [phases, n], { timeout });
      const stuck = async (sel) => page.evaluate((s) => { const r = document.querySelector(s).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, vh: innerHeight }; }, sel);
      const events = async () => page.evaluate(() => window.__ledgerEvents);
      const t0 = (await events()).find((e) => e.phase === "reading") ? 0 : 0;
      const ev = await events();
      L.stagesSeen = [...new Set(ev.filter((e) => e.phase === "analysing").flatMap((e) => e.stages || []))];
      L.outlineCount = await page.$$eval("#outline a", (a) => a.length);
      // sticky chrome: scrolled to the bottom of a long page, the tab bar is still at the top
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      L.chromeAfterScroll = await stuck("#chrome");
      await page.evaluate(() => window.scrollTo(0, 0));

      // Outline: numbers spaced from titles, search, keyboard, collapse
      await page.click('.tabs button[data-tab="outline"]');
      await page.click("#btn-outline-expand");
      L.outlineExpanded = await page.$$eval("#outline a", (a) => a.length);
      L.numGap = await page.$$eval("#outline a", (as) => Math.min(...as.filter((a) => a.querySelector(".num")).map((a) =>
        a.querySelector(".ttl").getBoundingClientRect().left - a.querySelector(".num").getBoundingClientRect().right)));
      L.outlineTexts = (await text(page, "#outline a")).filter((t) => /^\d+(\.\d+)+[A-Za-z]/.test(t)).slice(0, 3);
      await page.click("#btn-outline-collapse");
      L.outlineCollapsed = await page.$$eval("#outline a", (a) => a.length);
      await page.fill("#outline-search", cfg.outlineQuery || "stateless reset");
      L.outlineSearch = await text(page, "#outline a");
      await page.fill("#outline-search", "");
      await page.focus("#outline a >> nth=0");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      L.focusAfterArrows = await page.evaluate(() => document.activeElement?.textContent);
      let n = await since();
      await page.keyboard.press("Enter");
      await until(["jump"], n, 15000);
      L.enterJumped = true;
      n = await since();
      await page.keyboard.press(" ");
      await until(["jump"], n, 15000);
      L.spaceJumped = true;
      await shot(page, "taskpane-outline.png");

      // Edit tab: the cursor in a much-used definition's paragraph
      await page.click('.tabs button[data-tab="edit"]');
      n = await since();
      await page.evaluate((i) => window.__ledgerHost.select(i), cfg.selectIndex);
      await until(["selection"], n, 30000);
      L.selectionEarly = (await events()).slice(n).find((e) => e.phase === "selection");
      // the later stages arrive and the pane updates the panel by itself (a new "selection")
      const analysed = async () => (await events()).some((e) => e.phase === "analysed");
      if (!(await analysed())) {
        const k = await since();
        await until(["analysed"], 0, 400000);
        await until(["selection"], k, 30000);
      }
      const sels = (await events()).filter((e) => e.phase === "selection");
      L.selection = sels[sels.length - 1];
      L.analysedBeforeSelection = L.selectionEarly === L.selection;
      L.instruction = await stuck("#instruction");
      L.depsShown = await page.$$eval("#deps-dependents li:not(.show-more):not(.empty)", (l) => l.length);
      L.depsMore = await page.$$eval("#deps-dependents .show-more button", (b) => b.map((x) => x.textContent));
      L.depsLabels = (await text(page, "#deps-dependents .edge-label")).slice(0, 4);
      L.depsCuts = await page.$$eval("#deps-dependents li[data-unit]", (lis) => lis.map((li) => ({
        label: li.querySelector(".edge-label").textContent, text: window.ledgerPane.byId.get(li.dataset.unit)?.text ?? "" })));
      L.editHeight = await page.evaluate(() => document.body.scrollHeight);
      L.outlineCurrent = await page.$$eval("#outline a.current", (a) => a.map((x) => x.textContent));
      await rawCheck("selection");
      await shot(page, "taskpane-selection.png");

      // Graph: around the selection, "showing X of Y"
      n = await since();
      await page.click('.tabs button[data-tab="graph"]');
      await until(["graph-drawn"], n, 15000);
      L.graphCount = await page.textContent("#graph-count");
      L.graphFocus = await page.textContent("#graph-focus");
      L.graphNodes = await page.$$eval("#graph .node", (x) => x.length);
      L.graphSelected = await page.$$eval("#graph .node.selected", (x) => x.map((g) => g.dataset.unit));
      await rawCheck("graph");
      await shot(page, "taskpane-graph.png");
      n = await since();
      await page.click("#btn-graph-next");
      await until(["graph-drawn"], n, 15000);
      L.graphNext = await page.textContent("#graph-focus");

      // Check: groups with counts, titles wide enough, one-line findings, filter
      await page.click('.tabs button[data-tab="check"]');
      n = await since();
      let t = Date.now();
      await page.click("#btn-check");
      await until(["checked", "error"], n, 120000);
      L.times.check = (Date.now() - t) / 1000;
      L.checkGroups = await page.$$eval(".check-group", (g) => g.map((x) => ({ title: x.querySelector(".group-title").textContent,
        width: x.querySelector(".group-title").getBoundingClientRect().width, count: x.querySelector(".count").textContent })));
      L.findingLines = await page.$$eval(".finding-line", (ls) => ls.filter((l) => l.offsetParent).map((l) => Math.round(l.getBoundingClientRect().height)));
      L.checkCount = await page.textContent("#check-count");
      const firstLine = await page.$(".finding-line");
      if (firstLine) { await firstLine.click(); L.expanded = await page.$$eval(".finding-more:not([hidden])", (x) => x.length); }
      await rawCheck("check");
      await shot(page, "taskpane-check.png");
      await page.selectOption("#check-severity", "error");
      L.checkCountErrors = await page.textContent("#check-count");
      await page.selectOption("#check-severity", "");

      // Preview of a rename of a much-used term
      await page.click('.tabs button[data-tab="edit"]');
      await page.fill("#instruction", cfg.instruction);
      n = await since();
      t = Date.now();
      await page.click("#btn-preview");
      await until(["preview", "error"], n, 180000);
      L.times.preview = (Date.now() - t) / 1000;
      L.previewEvent = (await events()).slice(n).find((e) => ["preview", "error"].includes(e.phase));
      L.previewCount = await page.textContent("#preview-count");
      L.previewKept = await page.textContent("#preview-kept");
      L.previewGroups = await page.$$eval("#operations .op-group", (g) => g.map((x) => ({ title: x.querySelector(".group-title").textContent, count: x.querySelector(".count").textContent })));
      L.previewHeight = await page.evaluate(() => document.body.scrollHeight);
      L.applyAtOpen = await stuck("#btn-apply");
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
      L.applyMid = await stuck("#btn-apply");
      L.chromeMid = await stuck("#chrome");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.click("#btn-select-none");
      L.keptNone = await page.textContent("#preview-kept");
      L.applyDisabledNone = await page.$eval("#btn-apply", (b) => b.disabled);
      await page.click("#btn-select-all");
      if (await page.getAttribute("#operations .op-group .group-toggle >> nth=0", "aria-expanded") === "false") await page.click("#operations .op-group .group-toggle >> nth=0");
      await page.click("#operations .op input[data-keep] >> nth=0");
      L.keptOneOff = await page.textContent("#preview-kept");
      L.groupCountOneOff = await page.textContent("#operations .op-group .count >> nth=0");
      L.cardPlaces = (await text(page, "#operations .op .place")).slice(0, 5);
      await rawCheck("preview");
      await shot(page, "taskpane-preview.png");
      await page.click("#operations .op input[data-keep] >> nth=0");

      // Apply all; the review list: one item per change, grouped, Accept/Reject per item, group, all
      n = await since();
      t = Date.now();
      await page.click("#btn-apply");
      await until(["review-listed", "apply-failed", "error"], n, 180000);
      L.times.apply = (Date.now() - t) / 1000;
      L.applyEvent = (await events()).slice(n).find((e) => ["applied", "apply-failed", "error"].includes(e.phase));
      L.review = (await events()).slice(n).find((e) => e.phase === "review-listed");
      L.reviewCount = await page.textContent("#review-count");
      if (await page.getAttribute("#review-changes .group-toggle >> nth=0", "aria-expanded") === "false") await page.click("#review-changes .group-toggle >> nth=0");
      L.reviewTexts = (await page.$$eval("#review-changes .review-item .review-context", (l) => l.map((x) => x.dataset.text))).slice(0, 3);
      L.reviewPlaces = (await text(page, "#review-changes .review-item .place")).slice(0, 3);
      L.reviewApplyVisible = await stuck("#review-all");
      n = await since();
      await page.click('#review-changes .review-item >> nth=0 >> button[data-decide="goto"]');
      await until(["jump"], n, 15000);
      n = await since();
      await page.click('#review-changes .review-item >> nth=0 >> button[data-decide="accept"]');
      await until(["review-listed"], n, 30000);
      L.reviewAfterOne = (await events()).slice(n).find((e) => e.phase === "review-listed");
      if (await page.getAttribute("#review-changes .group-toggle >> nth=0", "aria-expanded") === "false") await page.click("#review-changes .group-toggle >> nth=0");
      await rawCheck("review");
      await page.evaluate(() => document.getElementById("review").scrollIntoView({ block: "start" }));
      await shot(page, "taskpane-review.png");
      n = await since();
      await page.click("#btn-reject-all");
      await page.click("#confirm-yes"); // a decision on many is asked first, then waits with an Undo
      await until(["review-listed"], n, 60000);
      L.reviewAfterAll = (await events()).slice(n).find((e) => e.phase === "review-listed");
      L.decisions = await page.evaluate(() => window.__wordDecisions().reduce((a, d) => { a[d.decision] = (a[d.decision] || 0) + 1; return a; }, {}));
      // the round trip on the server (the reviewer's file: the revision as written)
      if (cfg.roundTrip) {
        const uploaded = (await events()).find((e) => e.phase === "uploaded");
        const file = await fetch(`${cfg.url}/api/v1/documents/${uploaded.document}/revisions/${L.applyEvent.revision}/file`);
        await page.evaluate((b) => window.__ledgerHost.setFile(b), Buffer.from(await file.arrayBuffer()).toString("base64"));
        n = await since();
        t = Date.now();
        await page.click("#btn-review");
        try {
          await until(["reviewed", "error"], n, cfg.roundTripTimeout || 60000);
          L.times.review = (Date.now() - t) / 1000;
          L.reviewed = (await events()).slice(n).find((e) => ["reviewed", "error"].includes(e.phase));
        } catch { L.times.review = null; }
        // what the pane shows of the server's answer: groups by what the changes do, a place per item
        L.reviewResult = {
          summary: await page.textContent("#review-summary"),
          groups: await page.$$eval("#review-statuses .op-group", (g) => g.map((x) => ({ title: x.querySelector(".group-title").textContent,
                                                                                        count: x.querySelector(".count").textContent }))),
          drawn: await page.$$eval("#review-statuses li.status", (l) => l.length),
        };
        if (await page.getAttribute("#review-statuses .group-toggle >> nth=0", "aria-expanded") === "false") await page.click("#review-statuses .group-toggle >> nth=0");
        L.reviewResult.places = (await text(page, "#review-statuses li.status .place")).slice(0, 3);
        L.reviewResult.statuses = (await text(page, "#review-statuses li.status .pill")).slice(0, 3);
        await page.evaluate(() => document.getElementById("review-summary").scrollIntoView({ block: "start" }));
        await rawCheck("review-result");
        await shot(page, "taskpane-review-result.png");
      }

      // A section deletion: one change with what it contains; a failed Apply shows its error on screen
      await page.fill("#instruction", cfg.deleteInstruction);
      await page.evaluate(() => window.scrollTo(0, 0));
      n = await since();
      await page.click("#btn-preview");
      await until(["preview", "error"], n, 120000);
      L.deleteGroups = await page.$$eval("#operations .op-group", (g) => g.map((x) => ({ title: x.querySelector(".group-title").textContent, count: x.querySelector(".count").textContent })));
      L.deleteCount = await page.textContent("#preview-count");
      L.deleteCards = await page.$$eval("#operations .op[data-change]", (c) => c.length);
      L.deleteWarnings = await page.$$eval("#operations .op-findings li", (c) => c.length);
      L.deleteGeneral = await page.$$eval("#preview-findings li", (c) => c.map((x) => x.textContent.trim()).slice(0, 3));
      await rawCheck("delete-preview");
      await shot(page, "taskpane-preview-delete.png");
      // a refusal: the first sentence, the help behind Details
      await page.fill("#instruction", "Make it better somehow");
      n = await since();
      await page.click("#btn-preview");
      await until(["preview", "error"], n, 60000);
      L.refusal = { text: await page.textContent("#message-text"), more: await page.isVisible("#message-more"),
                    box: await stuck("#message"), details: (await page.textContent("#message-details")).length };
      await rawCheck("refusal");
      // open -> outline and the stages, in seconds from the page's start (the first upload only)
      const all = await events();
      const first = (p) => all.find((e) => e.phase === p)?.t ?? null;
      L.times.marks = Object.fromEntries(["reading", "uploading", "uploaded", "outlined", "ready", "analysed"].map((p) => [p, first(p) / 1000]));
    }
    if (out.state === "ready" && cfg.scenario === "early") {
      // A proposal while the semantic stage still runs: Preview as soon as the job says proposals
      // are ready; the preview says in words what it did not use (the server's ``partial``).
      const E = (out.early = {});
      const all = () => page.evaluate(() => window.__ledgerEvents);
      await page.waitForFunction(() => window.__ledgerEvents.some((e) => ["proposals-ready", "analysed"].includes(e.phase)), null, { timeout: 180000 });
      E.firstSignal = (await all()).find((e) => ["proposals-ready", "analysed"].includes(e.phase)).phase;
      E.note = await page.textContent("#analysis-note");
      await page.fill("#instruction", cfg.instruction);
      const n = (await all()).length;
      const t = Date.now();
      await page.click("#btn-preview");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["preview", "error"].includes(e.phase)), n, { timeout: 180000 });
      E.previewSeconds = (Date.now() - t) / 1000;
      const evs = await all();
      E.preview = evs.slice(n).find((e) => ["preview", "error"].includes(e.phase));
      E.analysedBeforePreview = evs.slice(0, evs.indexOf(E.preview)).some((e) => e.phase === "analysed");
      E.partial = await page.$$eval("#preview-findings li.partial", (l) => l.map((x) => x.textContent.trim()));
      E.count = await page.textContent("#preview-count");
      await shot(page, "taskpane-preview-early.png");
    }
    if (out.state === "ready" && cfg.scenario === "sweep") {
      // Issue 29 on a real document at 350 px: a user's edit after the upload, the whole rename and
      // a section deletion applied with every change landed, nothing of the user's replaced.
      const S = (out.sweep = { steps: [] });
      const since = async () => page.evaluate(() => window.__ledgerEvents.length);
      const until = async (phases, n, timeout = 300000) => page.waitForFunction(([ps, k]) => window.__ledgerEvents.slice(k).some((e) => ps.includes(e.phase)), [phases, n], { timeout });
      const events = async () => page.evaluate(() => window.__ledgerEvents);
      const name = cfg.shotPrefix || "taskpane-sweep";
      if (cfg.typeNote) {
        S.typed = await page.evaluate(([i, note]) => { const before = window.__ledgerHost.texts()[i]; window.__ledgerHost.type(i, before.length, note); return before; }, [cfg.typeNote.index, cfg.typeNote.text]);
      }
      for (const [step, instruction] of [["rename", cfg.instruction], ["delete", cfg.deleteInstruction]]) {
        if (!instruction) continue;
        await page.click('.tabs button[data-tab="edit"]');
        await page.fill("#instruction", instruction);
        let n = await since();
        const t0 = Date.now();
        await page.click("#btn-preview");
        await until(["preview", "error"], n);
        const R = { step, instruction, previewSeconds: (Date.now() - t0) / 1000 };
        R.preview = (await events()).slice(n).find((e) => ["preview", "error"].includes(e.phase));
        R.count = await page.textContent("#preview-count");
        R.groups = await page.$$eval("#operations .op-group", (g) => g.map((x) => ({ title: x.querySelector(".group-title").textContent, count: x.querySelector(".count").textContent })));
        await shot(page, `${name}-${step}-preview.png`);
        if (R.preview.phase === "preview" && R.preview.operations) {
          n = await since();
          const t1 = Date.now();
          await page.click("#btn-apply");
          await until(["applied", "apply-failed", "error", "apply-interrupted"], n);
          R.applySeconds = (Date.now() - t1) / 1000;
          R.applied = (await events()).slice(n).find((e) => ["applied", "apply-failed", "error", "apply-interrupted"].includes(e.phase));
          if (R.applied.phase === "applied") {
            await until(["refreshed"], n, 300000);
            R.refreshed = (await events()).slice(n).find((e) => e.phase === "refreshed");
            R.resynced = (await events()).slice(n).find((e) => e.phase === "resynced") || null;
            const file = await fetch(`${cfg.url}/api/v1/documents/${R.applied.document}/revisions/${R.applied.revision}/file`);
            const path = join(cfg.outDir, `${step}${cfg.suffix || ".docx"}`);
            writeFileSync(path, Buffer.from(await file.arrayBuffer()));
            R.file = path;
          }
          R.message = (await page.isVisible("#message")) ? await page.textContent("#message-text") : null;
          R.notPlaced = await page.$$eval("#fallback-reasons li", (l) => l.map((x) => x.textContent));
          await page.evaluate(() => window.scrollTo(0, 0));
          await shot(page, `${name}-${step}-applied.png`);
        }
        S.steps.push(R);
      }
      S.views = await page.evaluate(() => ({ accepted: window.__ledgerHost.view("accepted"), rejected: window.__ledgerHost.view("rejected") }));
      S.raw = await page.evaluate(() => (document.body.innerText.match(/\b(?:op|prop)-\d+\b|\bf-[0-9a-f]{6,}\b|_(?:Ref|Toc|Hlk)\d+|\bRef_[\w%]+|\b(?:p|sec|cap|tbl|li|fig)-[0-9a-f]{10}\b/g) || []).slice(0, 5));
    }
    if (out.state === "ready" && cfg.scenario === "recover") {
      // the server goes away and comes back: the pane says so, then carries on by itself
      const R = (out.recover = {});
      const n = await page.evaluate(() => window.__ledgerEvents.length);
      down = true;
      await page.click("#btn-refresh");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["error", "offline"].includes(e.phase)), n, { timeout: 60000 });
      R.message = await page.textContent("#message-text");
      const t0 = Date.now();
      await page.waitForTimeout(2000);
      down = false;
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => e.phase === "recovered"), n, { timeout: 30000 });
      R.seconds = (Date.now() - t0) / 1000 - 2;
      R.after = await page.textContent("#message-text");
      R.events = (await page.evaluate(() => window.__ledgerEvents)).slice(n).map((e) => e.phase);
    }
    if (out.state === "ready" && cfg.scenario === "issue29") {
      // The pane off the happy path (issue 29): first use with no setting, a stale preview, groups per
      // written form, review items with context, many decisions confirmed and undoable, Check kept
      // after an Apply, keyboard, the server going away and coming back, an Apply cut by the server.
      const I = (out.issue29 = {});
      const since = async () => page.evaluate(() => window.__ledgerEvents.length);
      const until = async (phases, n, timeout = 120000) => page.waitForFunction(([ps, k]) => window.__ledgerEvents.slice(k).some((e) => ps.includes(e.phase)), [phases, n], { timeout });
      const events = async () => page.evaluate(() => window.__ledgerEvents);
      const last = async (phase, n) => (await events()).slice(n).filter((e) => e.phase === phase).pop();
      const focusStyle = () => page.evaluate(() => { const a = document.activeElement; const cs = getComputedStyle(a); return { tag: a.tagName, type: a.type || null, cls: a.getAttribute("class"), outline: cs.outlineStyle, width: cs.outlineWidth }; });

      let n;
      // first use: no author set; a preview made, then Settings pointed at another server (the preview's
      // server no longer has it): Apply makes the preview again, in words, never with ids
      await page.click('.tabs button[data-tab="edit"]');
      await page.fill("#instruction", cfg.instruction);
      n = await since();
      await page.click("#btn-preview");
      await until(["preview", "error"], n);
      I.authorNote = await page.textContent("#author-note");
      I.groups = await page.$$eval("#operations .op-group", (g) => g.map((x) => ({ title: x.querySelector(".group-title").textContent, count: x.querySelector(".count").textContent,
        why: x.querySelector(":scope > .group-why")?.textContent ?? null, cardWhy: x.querySelectorAll(".op-why").length })));
      I.generalFindings = await page.$$eval("#preview-findings li", (l) => l.map((x) => x.textContent.trim()));
      // keyboard: Tab onto a tick shows a focus ring
      await page.focus("#btn-preview");
      let hops = 0;
      while (hops < 60 && !(await page.evaluate(() => document.activeElement?.type === "checkbox" && !!document.activeElement.closest("#operations")))) {
        await page.keyboard.press("Tab");
        hops += 1;
      }
      I.checkboxFocus = await focusStyle();
      await shot(page, "taskpane-keyboard-focus.png");
      if (cfg.otherServer) {
        await page.click("#btn-settings");
        await page.fill("#set-url", cfg.otherServer);
        n = await since();
        await page.click("#btn-settings-save");
        await until(["ready", "error", "offline"], n, 180000);
        n = await since();
        await page.click("#btn-apply");
        await until(["preview", "error"], n, 180000);
        I.remade = await last("preview", n);
        I.remadeMessage = await page.textContent("#message-text");
        await shot(page, "taskpane-preview-remade.png");
      }
      // Check before the Apply: its results must survive the Apply, marked where the Apply resolved them
      await page.click('.tabs button[data-tab="check"]');
      n = await since();
      await page.click("#btn-check");
      await until(["checked", "error"], n);
      I.checkedBefore = await last("checked", n);
      I.checkGroupTitles = await page.$$eval(".check-group .group-title", (x) => x.map((e) => e.textContent));
      await page.click('.tabs button[data-tab="edit"]');
      // the user retypes a word the rename changes, after the preview: that change can no longer be placed
      if (cfg.retype) I.retyped = await page.evaluate(([i, a, b]) => window.__ledgerHost.retype(i, a, b), [cfg.retype.index, cfg.retype.old, cfg.retype.new]);
      // Apply, with no author set
      n = await since();
      await page.click("#btn-apply");
      await until(["applied", "apply-failed", "error"], n, 180000);
      I.applied = (await events()).slice(n).find((e) => ["applied", "apply-failed", "error"].includes(e.phase));
      I.notPlaced = { shown: await page.isVisible("#fallback"), text: await page.textContent("#fallback-text"),
                      reasons: await page.$$eval("#fallback-reasons li", (l) => l.map((x) => x.textContent)) };
      await page.evaluate(() => document.getElementById("fallback").scrollIntoView({ block: "center" }));
      await shot(page, "taskpane-not-placed.png");
      if (I.notPlaced.shown) {
        const k = await since();
        await page.click("#btn-fallback");
        await until(["opened-copy", "error"], k, 120000);
        I.opened = { event: await last("opened-copy", k), docs: await page.evaluate(() => window.__ledgerHost.opened().length) };
      }
      // the re-read that follows the Apply (a refresh after the user's typing may come first)
      const appliedAt = (await events()).findIndex((e, i) => i >= n && e.phase === "applied");
      // the re-read that uploads the applied text: the one that found the document changed (a
      // re-read after the typing settles may come before or after it on a busy machine, unchanged)
      const refreshes = async () => (await events()).slice(appliedAt + 1).filter((e) => e.phase === "refreshed");
      for (const until_ = Date.now() + 180000; !(await refreshes()).some((e) => e.changed) && Date.now() < until_;) {
        await page.waitForTimeout(250);
      }
      I.refreshed = (await refreshes()).find((e) => e.changed) || (await last("refreshed", appliedAt + 1));
      I.checkedAfter = await last("checked", appliedAt + 1);
      if (await page.getAttribute("#review-changes .group-toggle >> nth=0", "aria-expanded") === "false") await page.click("#review-changes .group-toggle >> nth=0");
      I.reviewContext = await page.$$eval("#review-changes .review-context", (l) => l.slice(0, 3).map((x) => ({ text: x.textContent, del: !!x.querySelector("del"), ins: !!x.querySelector("ins") })));
      I.reviewGroups = await page.$$eval("#review-changes .op-group", (g) => g.map((x) => ({ title: x.querySelector(".group-title").textContent, count: x.querySelector(".count").textContent })));
      await page.evaluate(() => document.getElementById("review").scrollIntoView({ block: "start" }));
      await shot(page, "taskpane-review.png");
      // a decision on many: asked first, then an Undo; undone, nothing changes
      const many = await page.$("#review-changes .op-group [data-decide-group='reject']");
      if (many) {
        await many.click();
        I.confirm = { shown: await page.isVisible("#confirm"), text: await page.textContent("#confirm-text") };
        await shot(page, "taskpane-review-confirm.png");
        await page.keyboard.press("Escape");
        I.escapeClosedConfirm = !(await page.isVisible("#confirm"));
        await many.click();
        await page.click("#confirm-yes");
        I.undoShown = await page.isVisible("#undo");
        await shot(page, "taskpane-review-undo.png");
        n = await since();
        await page.click("#undo-btn");
        await page.waitForTimeout(200);
        I.afterUndo = { resolved: (await events()).slice(n).filter((e) => e.phase === "change-resolved").length, decisions: await page.evaluate(() => window.__wordDecisions().length) };
        await many.click();
        await page.click("#confirm-yes");
        n = await since();
        await until(["change-resolved"], n, 30000);
        I.afterDecision = await last("change-resolved", n);
      }
      // Check tab: the earlier results kept, the resolved ones marked
      await page.click('.tabs button[data-tab="check"]');
      I.checkCount = await page.textContent("#check-count");
      I.resolvedShown = await page.$$eval(".finding[data-resolved='true']", (l) => l.length);
      // a fix applied from the Check tab: the check after it marks what it resolved
      const fixAll = await page.$("button[data-fix-all]");
      if (fixAll) {
        I.fixKind = await fixAll.getAttribute("data-fix-all");
        n = await since();
        await fixAll.click();
        await until(["preview", "error"], n, 120000);
        n = await since();
        await page.click("#btn-apply");
        await until(["applied", "apply-failed", "error"], n, 180000);
        const at = (await events()).findIndex((e, i) => i >= n && e.phase === "applied");
        if (at !== -1) {
          await until(["refreshed"], at + 1, 180000);
          I.fixChecked = await last("checked", at + 1);
        }
        await page.click('.tabs button[data-tab="check"]');
        I.fixCount = await page.textContent("#check-count");
        I.fixResolvedKinds = await page.$$eval(".finding[data-resolved='true']", (l) => l.map((x) => x.dataset.kind));
      }
      await shot(page, "taskpane-check-after-apply.png");
      // Outline and Go to after the Apply and the re-upload
      await page.click('.tabs button[data-tab="outline"]');
      n = await since();
      await page.click("#outline a >> nth=1");
      await until(["jump"], n, 15000);
      I.jumpAfterApply = await last("jump", n);
      // the graph by keyboard
      await page.click('.tabs button[data-tab="graph"]');
      await page.waitForTimeout(300);
      await page.focus("#graph-hops");
      let tabs = 0;
      while (tabs < 40 && !(await page.evaluate(() => document.activeElement?.classList?.contains("node")))) { await page.keyboard.press("Tab"); tabs += 1; }
      I.graphFocus = await focusStyle();
      n = await since();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await until(["jump"], n, 15000).catch(() => {});
      I.graphKeyJump = await last("jump", n);
      await shot(page, "taskpane-graph-keyboard.png");
      // the server goes away: a clear message, then the pane recovers by itself when it is back
      await page.click('.tabs button[data-tab="edit"]');
      down = true;
      n = await since();
      await page.click("#btn-refresh");
      await until(["error", "offline"], n, 60000);
      I.downMessage = await page.textContent("#message-text");
      await shot(page, "taskpane-server-down.png");
      const t0 = Date.now();
      await page.waitForTimeout(2500);
      down = false;
      await until(["recovered"], n, 30000);
      I.recoveredSeconds = (Date.now() - t0) / 1000 - 2.5;
      I.recoveredMessage = await page.textContent("#message-text");
      // an Apply the server cuts: said so, nothing written in Word
      await page.fill("#instruction", cfg.deleteInstruction);
      n = await since();
      await page.click("#btn-preview");
      await until(["preview", "error"], n, 120000);
      const changesBefore = await page.evaluate(() => window.__ledgerHost.changes().length);
      downOn = (req) => req.method() === "POST" && /\/apply$/.test(new URL(req.url()).pathname);
      n = await since();
      await page.click("#btn-apply");
      await until(["apply-interrupted", "error", "applied"], n, 60000);
      I.interrupted = { event: (await events()).slice(n).find((e) => ["apply-interrupted", "error", "applied"].includes(e.phase)), message: await page.textContent("#message-text"),
                        changesBefore, changesAfter: await page.evaluate(() => window.__ledgerHost.changes().length) };
      downOn = null;
      await shot(page, "taskpane-apply-interrupted.png");
      await page.keyboard.press("Escape");
      I.escapeClosedMessage = !(await page.isVisible("#message"));
      I.raw = await page.evaluate(() => (document.body.innerText.match(/\b(?:op|prop)-\d+\b|\bf-[0-9a-f]{6,}\b|_(?:Ref|Toc|Hlk)\d+|\bRef_[\w%]+|\b(?:p|sec|cap|tbl|li|fig)-[0-9a-f]{10}\b|\b[a-z]+_[a-z_]+\b/g) || []).slice(0, 8));
    }
    if (out.state === "ready" && cfg.scenario === "check") {
      await page.click('.tabs button[data-tab="check"]');
      const n = await page.evaluate(() => window.__ledgerEvents.length);
      await page.click("#btn-check");
      await page.waitForFunction((k) => window.__ledgerEvents.slice(k).some((e) => ["checked", "error"].includes(e.phase)), n, { timeout: 60000 });
      out.findings = await page.$$eval("#findings li", (els) => els.map((li) => li.textContent.trim()));
      out.message = (await page.isVisible("#message")) ? await page.textContent("#message-text") : null;
      await shot(page, "taskpane-check.png");
    }
    out.state = await page.evaluate(() => document.body.dataset.state);
  }
  out.events = await page.evaluate(() => window.__ledgerEvents);
  out.calls = await page.evaluate(() => window.__wordCalls || []);
  out.texts = await page.evaluate(() => (window.__ledgerHost ? window.__ledgerHost.texts() : []));
  out.accepted = await page.evaluate(() => (window.__ledgerHost ? window.__ledgerHost.view("accepted") : []));
  out.revisions = await page.evaluate(() => (window.__ledgerHost ? window.__ledgerHost.changes() : []));
} catch (err) {
  out.error = String(err && err.stack ? err.stack : err);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
writeFileSync(join(cfg.outDir, "result.json"), JSON.stringify(out, null, 1));
process.stdout.write(JSON.stringify(out) + "\n");
