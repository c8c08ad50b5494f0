// The scripted Word host (tests/js/browser/office-shim.js, the one the browser test serves in
// place of office.js) loaded into node for the unit tests: one model of Word for both.
import { readFileSync } from "node:fs";

const SHIM = readFileSync(new URL("./browser/office-shim.js", import.meta.url), "utf8");

/** A fresh host: ``paragraphs`` as office-shim.js takes them (strings, or ``{text | runs,
 * listString, tableNestingLevel, table, style}``); ``options`` the rest of its configuration
 * (``wordApi``, ``tracking``, ``account``, ``fileBase64``). Returns ``{Word, Office, host, calls,
 * doc, texts}``. */
export function makeHost(paragraphs, options = {}) {
  const window = { __LEDGER_HOST__: { paragraphs, fileBase64: "", url: "test.docx", wordApi: "1.6", ...options } };
  // in this realm (its arrays compare with ours), with its own ``window``
  new Function("window", "atob", SHIM)(window, (s) => Buffer.from(s, "base64").toString("binary")); // eslint-disable-line no-new-func
  return { Word: window.Word, Office: window.Office, host: window.__ledgerHost, calls: window.__wordCalls, doc: window.__wordDoc,
           texts: () => window.__ledgerHost.texts() };
}
