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
  await page.screenshot({ path, fullPage: true });
  out.screenshots.push(path);
};

const text = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent.trim()));

try {
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(OFFICE_JS)) {
      if (cfg.scenario === "no-office") return route.fulfill({ status: 404, body: "" });
      return route.fulfill({ status: 200, contentType: "text/javascript", body: shim });
    }
    if (url.startsWith(cfg.url) || url.startsWith("data:")) return route.continue();
    out.refused.push(url);
    return route.abort();
  });
  await context.addInitScript(({ host, settings }) => {
    window.__LEDGER_HOST__ = host;
    window.__ledgerEvents = [];
    window.addEventListener("ledger:status", (e) => window.__ledgerEvents.push(e.detail));
    if (settings && !localStorage.getItem("ledger.settings.v1")) localStorage.setItem("ledger.settings.v1", JSON.stringify(settings));
  }, { host: cfg.host, settings: cfg.settings });

  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") out.console.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => out.pageErrors.push(String(e)));
  await page.goto(`${cfg.url}/taskpane/`);

  if (cfg.scenario === "no-office") {
    out.state = await waitFor(page, ["no-office", "offline", "error"], 30000);
    out.message = await page.textContent("#message-text");
    await shot(page, "taskpane-no-office.png");
  } else {
    out.state = await waitFor(page, ["ready", "error", "offline", "no-office"]);
    out.message = (await page.isVisible("#message")) ? await page.textContent("#message-text") : null;
    out.docName = await page.textContent("#doc-name");
    out.outline = await text(page, "#outline a");
    if (out.state === "ready" && cfg.selectIndex != null) {
      const n = await page.evaluate(() => window.__ledgerEvents.length);
      await page.evaluate((i) => window.__ledgerHost.select(i), cfg.selectIndex);
      await waitEvent(page, "selection", n);
      out.deps = {
        kind: await page.textContent("#deps-kind"),
        label: await page.textContent("#deps-label"),
        preview: await page.textContent("#deps-preview"),
        references: await page.$$eval("#deps-refs li:not(.empty)", (els) => els.map((li) => ({
          type: li.querySelector(".edge-type")?.textContent, label: li.querySelector(".edge-label")?.textContent,
          evidence: li.querySelector(".edge-evidence")?.textContent ?? "" }))),
        dependents: await page.$$eval("#deps-dependents li:not(.empty)", (els) => els.map((li) => ({
          type: li.querySelector(".edge-type")?.textContent, label: li.querySelector(".edge-label")?.textContent,
          evidence: li.querySelector(".edge-evidence")?.textContent ?? "" }))),
      };
      await shot(page, "taskpane-selection.png");
    }
    if (out.state === "ready") {
      await page.click('.tabs button[data-tab="outline"]');
      await shot(page, "taskpane-outline.png");
      if (out.outline.length) {
        const n = await page.evaluate(() => window.__ledgerEvents.length);
        await page.click("#outline a >> nth=0");
        await waitEvent(page, "jump", n);
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
      const listed = async () => page.$$eval("#review-changes li", (els) => els.map((li) => ({
        op: li.dataset.op, kind: li.querySelector(".pill")?.textContent, text: li.querySelector(".unit-label")?.textContent,
        why: li.querySelector(".op-why")?.textContent })));
      out.reviewList = await listed();
      out.reviewNote = await page.textContent("#review-note");
      await shot(page, "taskpane-review.png");
      for (const decision of cfg.decisions || []) {
        const k = await page.evaluate(() => window.__ledgerEvents.length);
        await page.click(`#review-changes li >> nth=0 >> button[data-decide="${decision}"]`);
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
      out.statuses = await page.$$eval("#review-statuses li", (els) => els.map((li) => ({ op: li.dataset.op, status: li.dataset.status,
        text: li.textContent.trim() })));
      out.reviewSummary = await page.textContent("#review-summary");
      out.comments = await page.evaluate(() => window.__ledgerHost.comments());
      out.message = (await page.isVisible("#message")) ? await page.textContent("#message-text") : null;
      await shot(page, "taskpane-review-result.png");
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
  out.revisions = await page.evaluate(() => (window.__wordDoc ? window.__wordDoc.revisions : []));
} catch (err) {
  out.error = String(err && err.stack ? err.stack : err);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
writeFileSync(join(cfg.outDir, "result.json"), JSON.stringify(out, null, 1));
process.stdout.write(JSON.stringify(out) + "\n");
