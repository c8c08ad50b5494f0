// The LEDGER HTTP API as ROUTES.md describes it: bearer key, JSON errors, upload with progress,
// job polling, proposals (201 or 202 + job), apply, check, graph, impact.
import { LedgerError, fromResponse } from "./errors.js";

export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class LedgerApi {
  /** ``baseUrl``: the server's origin (plus any prefix); ``apiKey``: sent as a bearer token
   * when set. ``fetch``/``XHR``/``wait`` are injectable for tests. */
  constructor({ baseUrl, apiKey = "", fetch = globalThis.fetch?.bind(globalThis), XHR = globalThis.XMLHttpRequest, wait = sleep } = {}) {
    this.baseUrl = String(baseUrl || "").replace(/\/+$/, "");
    this.apiKey = apiKey || "";
    this.fetch = fetch;
    this.XHR = XHR;
    this.wait = wait;
  }

  url(path) {
    return /^https?:\/\//.test(path) ? path : `${this.baseUrl}${path}`;
  }

  headers(extra = {}) {
    const h = { Accept: "application/json", ...extra };
    if (this.apiKey) h.Authorization = `Bearer ${this.apiKey}`;
    return h;
  }

  /** One request; JSON in and out. Network failures become ``unreachable``, error answers
   * the LedgerError of their code. ``raw`` returns the Response (for binary bodies). */
  async request(method, path, { json, raw = false } = {}) {
    const init = { method, headers: this.headers(json === undefined ? {} : { "Content-Type": "application/json" }) };
    if (json !== undefined) init.body = JSON.stringify(json);
    let res;
    try {
      res = await this.fetch(this.url(path), init);
    } catch (err) {
      throw new LedgerError("unreachable", `${this.baseUrl || "this page's server"}: ${err?.message || err}`);
    }
    if (!res.ok) {
      let body = null;
      try { body = await res.json(); } catch { /* not JSON: a proxy's page */ }
      throw fromResponse(res.status, body, res.headers);
    }
    if (raw) return res;
    if (res.status === 204) return null;
    const body = await res.json();
    Object.defineProperty(body, "httpStatus", { value: res.status, enumerable: false });
    return body;
  }

  /** POST the document's bytes; ``onProgress(sent, total)`` while they go out. Resolves to
   * the Document (ROUTES.md), with its graph job. */
  upload(bytes, filename, onProgress = () => {}, contentType = DOCX_TYPE) {
    const path = `/api/v1/documents?filename=${encodeURIComponent(filename || "document.docx")}`;
    if (!this.XHR) {
      onProgress(0, bytes.length);
      return this.fetchUpload(path, bytes, contentType).then((doc) => { onProgress(bytes.length, bytes.length); return doc; });
    }
    return new Promise((resolve, reject) => {
      const xhr = new this.XHR();
      xhr.open("POST", this.url(path));
      for (const [k, v] of Object.entries(this.headers({ "Content-Type": contentType }))) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : bytes.length);
      xhr.onerror = () => reject(new LedgerError("unreachable", this.baseUrl || "this page's server"));
      xhr.ontimeout = () => reject(new LedgerError("timeout"));
      xhr.onload = () => {
        let body = null;
        try { body = JSON.parse(xhr.responseText); } catch { /* keep null */ }
        if (xhr.status >= 200 && xhr.status < 300 && body) {
          onProgress(bytes.length, bytes.length);
          resolve(body);
        } else {
          reject(fromResponse(xhr.status, body, { get: (k) => xhr.getResponseHeader(k) }));
        }
      };
      xhr.send(bytes);
    });
  }

  async fetchUpload(path, bytes, contentType) {
    let res;
    try {
      res = await this.fetch(this.url(path), { method: "POST", headers: this.headers({ "Content-Type": contentType }), body: bytes });
    } catch (err) {
      throw new LedgerError("unreachable", `${this.baseUrl}: ${err?.message || err}`);
    }
    let body = null;
    try { body = await res.json(); } catch { /* keep null */ }
    if (!res.ok || !body) throw fromResponse(res.status, body, res.headers);
    return body;
  }

  /** Polls a job (ROUTES.md Job) until it is done; ``onProgress(job)`` on each answer.
   * A failed job throws its error. ``until(job)``: stop early, with the job as it is, once
   * it says true (the graph is usable before the job ends). (Polling, not EventSource:
   * EventSource cannot send the Authorization header.) */
  async waitForJob(job, onProgress = () => {}, { interval = 700, timeoutMs = 15 * 60 * 1000, until = null } = {}) {
    const deadline = Date.now() + timeoutMs;
    let j = job;
    onProgress(j);
    while (j.status !== "done" && j.status !== "failed" && !(until && until(j))) {
      if (Date.now() > deadline) throw new LedgerError("timeout", "the analysis did not finish");
      await this.wait(interval);
      j = await this.request("GET", j.links?.self || `/api/v1/jobs/${encodeURIComponent(j.id)}`);
      onProgress(j);
    }
    if (j.status === "failed") throw new LedgerError(j.error?.code || "job_lost", j.error?.message || "");
    return j;
  }

  document(id) { return this.request("GET", `/api/v1/documents/${doc(id)}`); }
  outline(id) { return this.request("GET", `/api/v1/documents/${doc(id)}/outline`); }

  /** Every unit, page by page. */
  async units(id, pageSize = 500) {
    const out = [];
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.request("GET", `/api/v1/documents/${doc(id)}/units?offset=${offset}&limit=${pageSize}`);
      out.push(...page.units);
      if (!page.units.length || out.length >= page.total) return out;
    }
  }

  graph(id) { return this.request("GET", `/api/v1/documents/${doc(id)}/graph?format=json`); }
  impact(id, body) { return this.request("POST", `/api/v1/documents/${doc(id)}/impact`, { json: body }); }

  /** A proposal; a 202 answer carries a job whose result is the proposal. */
  async propose(id, body, onProgress = () => {}) {
    const res = await this.request("POST", `/api/v1/documents/${doc(id)}/proposals`, { json: body });
    if (res.httpStatus === 202 && res.job) {
      const job = await this.waitForJob(res.job, onProgress);
      return job.result;
    }
    return res;
  }

  apply(id, body) { return this.request("POST", `/api/v1/documents/${doc(id)}/apply`, { json: body }); }
  check(id, revision = null) {
    return this.request("GET", `/api/v1/documents/${doc(id)}/check${revision != null ? `?revision=${encodeURIComponent(revision)}` : ""}`);
  }

  /** Fixes of check findings as a proposal to preview (``{findings: [ids]}`` or ``{kinds}``). */
  fixFindings(id, body) { return this.request("POST", `/api/v1/documents/${doc(id)}/check/fix`, { json: body }); }

  /** What a reviewer did: the reviewed file's bytes judged against an applied revision
   * (``{operations: [{id, unit, status, reason}], findings, consistent, exact, counts}``); a large
   * review is answered 202 with a job whose result is the review (as a proposal). */
  async review(id, revision, bytes, contentType = DOCX_TYPE, onProgress = () => {}) {
    const path = `/api/v1/documents/${doc(id)}/revisions/${encodeURIComponent(revision)}/review`;
    const res = await this.fetchUpload(path, bytes, contentType);
    if (res && res.job && !res.operations) return (await this.waitForJob(res.job, onProgress)).result;
    return res;
  }

  /** Bytes of a file route (the revision with tracked changes). */
  async bytes(path) {
    const res = await this.request("GET", path, { raw: true });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** The routes the server offers, as ``routeKey`` strings from its OpenAPI document. */
  async routes() {
    const spec = await this.request("GET", "/api/v1/openapi.json");
    const out = new Set();
    for (const [path, ops] of Object.entries(spec.paths || {})) {
      for (const m of Object.keys(ops)) out.add(routeKey(m, path));
    }
    return out;
  }
}

/** A document id as one path segment: ids come from the server, but a path is no place to trust them. */
function doc(id) { return encodeURIComponent(String(id)); }

/** "POST /api/v1/documents/{}/proposals": a route with its parameter names left out, so that
 * ``{id}`` (ROUTES.md) and ``{document_id}`` (OpenAPI) compare equal. */
export function routeKey(method, path) {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, "{}")}`;
}
