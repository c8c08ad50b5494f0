// Unit tests of the pane's logic that needs no Word: reading slices (office-addin-mock Office),
// upload with progress, job polling, proposals with 202, error messages, settings, dependencies, graph.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readDocument, sha256Hex, toBase64 } from "../../static/js/file.js";
import { LedgerApi, routeKey } from "../../static/js/api.js";
import { LedgerError, describe, fromResponse } from "../../static/js/errors.js";
import { backendBase, loadSettings, saveSettings, STORAGE_KEY } from "../../static/js/settings.js";
import { dependencies, graphFromUnits, impactItems, preview, unitForParagraph } from "../../static/js/deps.js";
import { graphSvg, visibleNodes } from "../../static/js/graph.js";

const require = createRequire(import.meta.url);
const { OfficeMockObject } = require("office-addin-mock");

function officeWith(bytes, calls) {
  const office = new OfficeMockObject({
    host: "word",
    context: {
      document: {
        getFileAsync: (type, opts, cb) => {
          calls.push(["getFileAsync", type, opts.sliceSize]);
          const n = Math.ceil(bytes.length / opts.sliceSize);
          cb({ status: "succeeded", value: {
            size: bytes.length, sliceCount: n,
            getSliceAsync: (i, done) => { calls.push(["slice", i]); done({ status: "succeeded", value: { data: Array.from(bytes.subarray(i * opts.sliceSize, (i + 1) * opts.sliceSize)) } }); },
            closeAsync: (done) => { calls.push(["close"]); done({ status: "succeeded" }); },
          } });
        },
      },
    },
  }, "word");
  office.FileType = { Compressed: "compressed" }; // a plain enum in Office.js, not a loadable property
  return office;
}

test("readDocument reads every slice in order, reports progress and closes the file", async () => {
  const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);
  const calls = [];
  const progress = [];
  const out = await readDocument(officeWith(bytes, calls), { sliceSize: 4096, onProgress: (d, t) => progress.push([d, t]) });
  assert.deepEqual(out, bytes);
  assert.deepEqual(calls, [["getFileAsync", "compressed", 4096], ["slice", 0], ["slice", 1], ["slice", 2], ["close"]]);
  assert.deepEqual(progress, [[0, 10000], [4096, 10000], [8192, 10000], [10000, 10000]]);
  assert.equal(await sha256Hex(new TextEncoder().encode("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(toBase64(new TextEncoder().encode("LEDGER")), "TEVER0VS");
});

test("readDocument: a failed slice is an error and the file is still closed", async () => {
  const calls = [];
  const office = { FileType: { Compressed: "compressed" }, context: { document: { getFileAsync: (t, o, cb) => cb({ status: "succeeded", value: {
    size: 10, sliceCount: 1,
    getSliceAsync: (i, done) => done({ status: "failed", error: { code: 5001, message: "Internal error" } }),
    closeAsync: (done) => { calls.push("close"); done({}); } } }) } } };
  await assert.rejects(readDocument(office), /Word could not hand over the document \(5001: Internal error\)/);
  assert.deepEqual(calls, ["close"]);
});

class FakeXHR {
  static last = null;
  constructor() { this.headers = {}; this.upload = {}; FakeXHR.last = this; }
  open(method, url) { this.method = method; this.url = url; }
  setRequestHeader(k, v) { this.headers[k] = v; }
  getResponseHeader(k) { return (this.responseHeaders || {})[k] ?? null; }
  send(body) {
    this.body = body;
    for (const n of [0, body.length / 2, body.length]) this.upload.onprogress({ loaded: n, total: body.length, lengthComputable: true });
    Object.assign(this, FakeXHR.reply);
    this.onload();
  }
}

test("upload sends the bytes with the key and reports progress; an error answer becomes its message", async () => {
  const api = new LedgerApi({ baseUrl: "https://ledger.test/", apiKey: "k1", XHR: FakeXHR });
  FakeXHR.reply = { status: 201, responseText: JSON.stringify({ id: "d1", units: 3 }) };
  const seen = [];
  const doc = await api.upload(new Uint8Array(8), "My report.docx", (s, t) => seen.push([s, t]));
  assert.deepEqual(doc, { id: "d1", units: 3 });
  assert.equal(FakeXHR.last.url, "https://ledger.test/api/v1/documents?filename=My%20report.docx");
  assert.equal(FakeXHR.last.headers.Authorization, "Bearer k1");
  assert.equal(FakeXHR.last.headers["Content-Type"], "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  assert.deepEqual(seen, [[0, 8], [4, 8], [8, 8], [8, 8]]);
  FakeXHR.reply = { status: 413, responseText: JSON.stringify({ error: { code: "too_large", message: "the document is 9 MB; the limit is 1 MB" } }) };
  await assert.rejects(api.upload(new Uint8Array(8), "a.docx"), (e) => e instanceof LedgerError && e.code === "too_large" &&
    e.message === "This is more than the server accepts at once (the document, or the work the edit would take). (the document is 9 MB; the limit is 1 MB)");
});

function fakeFetch(routes, log) {
  return async (url, init = {}) => {
    log.push([init.method || "GET", url, init.body ? JSON.parse(init.body) : undefined]);
    const r = routes.shift();
    if (r instanceof Error) throw r;
    return { ok: r.status < 400, status: r.status, headers: { get: (k) => (r.headers || {})[k] ?? null },
             json: async () => r.body, arrayBuffer: async () => new Uint8Array([1, 2]).buffer };
  };
}

test("waitForJob polls until done; a failed job throws its error", async () => {
  const log = [];
  const running = { id: "d-graph", status: "running", stage: "contains", progress: 0.3, links: { self: "/api/v1/jobs/d-graph" } };
  const api = new LedgerApi({ baseUrl: "http://x", fetch: fakeFetch([{ status: 200, body: { ...running, progress: 0.6 } },
    { status: 200, body: { ...running, status: "done", progress: 1 } }], log), wait: async () => {} });
  const seen = [];
  const job = await api.waitForJob(running, (j) => seen.push(j.progress));
  assert.equal(job.status, "done");
  assert.deepEqual(seen, [0.3, 0.6, 1]);
  assert.deepEqual(log.map((l) => l[1]), ["http://x/api/v1/jobs/d-graph", "http://x/api/v1/jobs/d-graph"]);
  const failing = new LedgerApi({ baseUrl: "http://x", fetch: fakeFetch([{ status: 200, body: { ...running, status: "failed", error: { code: "job_lost", message: "worker died" } } }], []), wait: async () => {} });
  await assert.rejects(failing.waitForJob(running), /The server stopped working on this document; re-read the document. \(worker died\)/);
});

test("propose follows a 202 job to its proposal; unreachable servers and missing routes read clearly", async () => {
  const log = [];
  const proposal = { id: "pr1", operations: [{ op: "replace" }] };
  const api = new LedgerApi({ baseUrl: "http://x", wait: async () => {}, fetch: fakeFetch([
    { status: 202, body: { job: { id: "j", status: "running", links: { self: "/api/v1/jobs/j" } } } },
    { status: 200, body: { id: "j", status: "done", result: proposal } }], log) });
  assert.deepEqual(await api.propose("d1", { instruction: "Rename 'a' to 'b'", author: "Ann" }), proposal);
  assert.deepEqual(log[0], ["POST", "http://x/api/v1/documents/d1/proposals", { instruction: "Rename 'a' to 'b'", author: "Ann" }]);
  const down = new LedgerApi({ baseUrl: "http://127.0.0.1:9", fetch: fakeFetch([new TypeError("Failed to fetch")], []) });
  await assert.rejects(down.outline("d1"), (e) => e.code === "unreachable" &&
    e.message.startsWith("The LEDGER server does not answer. The pane reconnects by itself"));
  const old = new LedgerApi({ baseUrl: "http://x", fetch: fakeFetch([{ status: 404, body: { error: { code: "not_found", message: "no such route" } } }], []) });
  await assert.rejects(old.check("d1"), /does not offer that feature yet/);
  assert.equal(routeKey("post", "/api/v1/documents/{document_id}/proposals"), routeKey("POST", "/api/v1/documents/{id}/proposals"));
});

test("review follows a 202 job to its review, as a proposal does; a small review is answered as it is", async () => {
  const log = [];
  const review = { operations: [{ id: "op-1", status: "accepted" }], counts: { accepted: 1, rejected: 0, pending: 0 } };
  const answers = fakeFetch([
    { status: 202, body: { job: { id: "r", kind: "review", status: "queued", links: { self: "/api/v1/jobs/r" } } } },
    { status: 200, body: { id: "r", status: "done", result: review } },
    { status: 200, body: review }], log);
  // the reviewed file goes as bytes, not JSON
  const fetch = (url, init = {}) => answers(url, { ...init, body: init.body instanceof Uint8Array ? undefined : init.body });
  const api = new LedgerApi({ baseUrl: "http://x", wait: async () => {}, fetch });
  assert.deepEqual(await api.review("d1", 2, new Uint8Array([1, 2])), review);
  assert.deepEqual(log.map((l) => l[1]), ["http://x/api/v1/documents/d1/revisions/2/review", "http://x/api/v1/jobs/r"]);
  assert.deepEqual(await api.review("d1", 2, new Uint8Array([1, 2])), review);
});

test("error messages: rate limits give the wait, unknown codes keep the server's words", () => {
  assert.equal(fromResponse(429, { error: { code: "rate_limited", message: "" } }, { "Retry-After": "7" }).message,
    "Too many requests for this API key. Try again in 7 s.");
  assert.equal(describe("brand_new_code", "something specific"), "something specific");
  assert.equal(fromResponse(502, null).code, "internal_error");
});

test("settings: stored, checked, and the page's origin as the default server", () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.equal(loadSettings(storage).sliceKiB, 64);
  const bad = saveSettings(storage, { backendUrl: "ledger.example.org", sliceKiB: 1 });
  assert.deepEqual(Object.keys(bad.errors).sort(), ["backendUrl", "sliceKiB"]);
  assert.equal(store.size, 0);
  const ok = saveSettings(storage, { backendUrl: "https://ledger.example.org/", apiKey: " k ", author: "Ann", sliceKiB: 16 });
  assert.deepEqual(ok.errors, {});
  assert.deepEqual(JSON.parse(store.get(STORAGE_KEY)), { backendUrl: "https://ledger.example.org", apiKey: "k", author: "Ann", sliceKiB: 16 });
  assert.equal(backendBase(loadSettings(storage), { origin: "https://pane.test" }), "https://ledger.example.org");
  assert.equal(backendBase({ backendUrl: "" }, { origin: "https://pane.test" }), "https://pane.test");
  store.set(STORAGE_KEY, "{broken");
  assert.equal(loadSettings(storage).author, "");
});

const UNITS = [
  { id: "sec-1", kind: "section", label: "Section 1", title: "Methods", text: "Methods", order: 0, parent: null, refs: [] },
  { id: "fig-1", kind: "caption", label: "Figure 1", text: "Figure 1: Growth", order: 1, parent: "sec-1", refs: [] },
  { id: "p-1", kind: "paragraph", label: null, text: "As Figure 1 shows, growth\nis steady.", order: 2, parent: "sec-1",
    refs: [{ target: "fig-1", field: "ref" }], fields: [{ kind: "ref", target_unit: "fig-1", result: "Figure 1" }] },
];

test("dependencies from units: references with evidence, dependents, parent; selection to unit", () => {
  const graph = graphFromUnits(UNITS);
  const byId = new Map(UNITS.map((u) => [u.id, u]));
  assert.equal(unitForParagraph(UNITS, "is  steady."), UNITS[2]);
  assert.equal(unitForParagraph(UNITS, "Not in the document"), null);
  const d = dependencies(graph, byId, "p-1");
  assert.deepEqual(d.references, [{ unit: "fig-1", label: "Figure 1: Growth", type: "REFERENCES", evidence: '"Figure 1" (ref)', score: null }]);
  assert.equal(d.parent.label, "Section 1 Methods");
  assert.deepEqual(dependencies(graph, byId, "fig-1").dependents.map((x) => x.unit), ["p-1"]);
  assert.equal(preview(UNITS[2]), "Paragraph: As Figure 1 shows, growth is steady.");
  const items = impactItems({ impacted: [{ unit: "p-1", via: [{ type: "DEPENDS", from: "fig-1", evidence: "numbers" }], distance: 2 }] }, byId);
  assert.deepEqual(items[0], { unit: "p-1", label: "Paragraph: As Figure 1 shows, growth is steady.", type: "DEPENDS", evidence: "numbers", distance: 2, score: null });
});

test("graph picture: one arc per drawn edge, escaped labels, type filter", () => {
  const graph = graphFromUnits([...UNITS, { id: "p-2", kind: "paragraph", text: "<script>", order: 3, parent: "sec-1", refs: [] }]);
  const svg = graphSvg(graph, { types: ["REFERENCES"] });
  assert.equal((svg.match(/<path /g) || []).length, 1);
  assert.ok(!svg.includes("<script>"));
  const all = visibleNodes(graph, ["CONTAINS", "REFERENCES"]);
  assert.equal(all.edges.length, 4);
  assert.ok(graphSvg(graph, {}).includes("&lt;script&gt;"));
});

test("the outline shows a node's number once: not again before a title that types it", async () => {
  const { outlineNumber } = await import("../../static/js/ui.js");
  const shown = (number, title) => outlineNumber({ number, title });
  assert.equal(shown("2.1", "Scope"), "2.1"); // automatic numbering: the title has no number
  assert.equal(shown("2", "2. License Grants"), null); // typed: the title shows it
  assert.equal(shown("A.1", "A.1 Scope"), null);
  assert.equal(shown("3", "Section 3 Terms"), null);
  assert.equal(shown("B", "Annex B Scope"), null);
  assert.equal(shown("5", "§ 5 Haftung"), null);
  assert.equal(shown("A", "A Guide to Keys"), "A"); // an article, not the appendix's letter
  assert.equal(shown("2", "21 Things"), "2");
  assert.equal(shown(null, "Scope"), null);
});
