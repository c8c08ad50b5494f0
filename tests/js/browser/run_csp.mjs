// The pages' Content-Security-Policy in headless Debian chromium (playwright-core): the task pane
// is served by the real LEDGER server on loopback with its own headers, office.js is the scripted
// host (office-shim.js) answered at Office.js's own URL, and the page's HTML, as the server sent it,
// gets an inline script, an inline event handler and a style attribute injected, as an attacker's
// stored markup would. Prints one JSON result: what ran, what the browser reported as violations,
// and the state the pane reached.
//
// Usage: node run_csp.mjs CONFIG.json  ({url, host, page, chromium?})
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const shim = readFileSync(join(here, "office-shim.js"), "utf8");
const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
const INJECTED = '<script>window.__injected = "inline script ran";</script>'
  + '<img src="data:," onerror="window.__handler = \'inline handler ran\'">'
  + '<p id="styled" style="color: rgb(255, 0, 0)">x</p>';
const out = { policy: null, violations: [], refused: [], pageErrors: [] };

const profile = mkdtempSync(join(tmpdir(), "ledger-chromium-csp-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: cfg.chromium || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"],
});
try {
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith(OFFICE_JS)) return route.fulfill({ status: 200, contentType: "text/javascript", body: shim });
    if (url === `${cfg.url}${cfg.page}`) {
      const res = await route.fetch();  // the server's own answer, headers and all
      out.policy = res.headers()["content-security-policy"] ?? null;
      const body = (await res.text()).replace("</body>", `${INJECTED}</body>`);
      return route.fulfill({ response: res, body });
    }
    if (url.startsWith(cfg.url) || url.startsWith("data:")) return route.continue();
    out.refused.push(url);
    return route.abort();
  });
  await context.addInitScript(({ host }) => {
    window.__LEDGER_HOST__ = host;
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(
      { directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample }));
  }, { host: cfg.host });
  const page = context.pages()[0] || (await context.newPage());
  page.on("pageerror", (e) => out.pageErrors.push(String(e)));
  await page.goto(`${cfg.url}${cfg.page}`);
  if (cfg.waitState) {
    await page.waitForFunction((ps) => ps.includes(document.body.dataset.state), cfg.waitState, { timeout: 120000 });
  } else {
    await page.waitForLoadState("load");
  }
  await page.waitForTimeout(300);  // violation events are queued
  Object.assign(out, await page.evaluate(() => ({
    injected: window.__injected ?? null,
    handler: window.__handler ?? null,
    styledColor: getComputedStyle(document.getElementById("styled")).color,
    violations: window.__violations,
    state: document.body.dataset.state ?? null,
    officeReady: typeof window.Office === "object",
  })));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
