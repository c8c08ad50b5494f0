// What the user reads when something goes wrong: one sentence per error code of ROUTES.md.

/** Messages by error code (the server's own message is added as detail). */
export const MESSAGES = {
  unreachable: "The LEDGER server does not answer. The pane reconnects by itself as soon as it is back (if it stays away, check its address in Settings).",
  unauthorized: "The LEDGER server refused the API key. Enter a valid key in Settings.",
  rate_limited: "Too many requests for this API key. Wait a moment and try again.",
  too_large: "This is more than the server accepts at once (the document, or the work the edit would take).",
  quota_exceeded: "Your documents on the server use up their storage quota. Close documents you no longer edit, or ask the server's administrator.",
  deadline_exceeded: "The server stopped this work: it took longer than it allows. Try a smaller edit, or a part of the document.",
  zip_bomb: "The document expands to more data than the server accepts.",
  not_a_document: "This is not a Word (.docx) or OpenDocument (.odt) file.",
  unsupported_format: "The server cannot read this document format.",
  encrypted: "The document is password-protected. Remove the password and try again.",
  corrupt: "The document is damaged and could not be read.",
  malformed_xml: "Part of the document is malformed and could not be read.",
  unsafe_xml: "The document contains XML the server refuses for safety.",
  unknown_document: "The server no longer has this document (it expired). It will be uploaded again.",
  unknown_unit: "That part of the document is not in the server's copy; re-read the document.",
  unknown_job: "The server lost track of the analysis; re-read the document.",
  edit_conflict: "The document changed since the preview. Re-read the document and preview again.",
  anchor_mismatch: "The document changed since the preview. Re-read the document and preview again.",
  instruction_not_understood: "LEDGER did not understand the instruction.",
  ambiguous_instruction: "The instruction can be read more than one way. Put the exact words in quotes, or say which one you mean.",
  invalid_edit: "The server refused one of the changes as invalid. Preview the edit again.",
  unknown_proposal: "The preview is no longer on the server. Preview the edit again.",
  unknown_revision: "The server no longer has that applied edit; re-read the document.",
  unknown_style: "The house style sheet is not on the server. Choose it again in Settings.",
  graph_failed: "The server could not finish analysing this document. Re-read the document; if it fails again, the server's log says why.",
  forbidden_origin: "The server does not accept requests from this page's address (LEDGER_CORS_ORIGINS on the server).",
  graph_not_ready: "The dependency graph is still being built.",
  not_found: "This LEDGER server does not offer that feature yet (its API route is missing). Update the server.",
  method_not_allowed: "This LEDGER server does not offer that feature in this version.",
  invalid_request: "The server refused the request as invalid.",
  store_unavailable: "The LEDGER server's storage is unavailable. Try again shortly.",
  engine_unavailable: "The editing engine is unavailable on the server. Try again shortly or choose another engine.",
  internal_error: "The LEDGER server hit an internal error.",
  job_lost: "The server stopped working on this document; re-read the document.",
  timeout: "The server took too long to answer.",
  office_unavailable: "Office is not available: open LEDGER from Word (Home tab > Edit with LEDGER). This page only works inside Word.",
  word_too_old: "This version of Word lacks the change-tracking API (WordApi 1.4). Update Office to apply edits.",
};

/** An error from the server or the network, with a user-facing message. */
export class LedgerError extends Error {
  constructor(code, detail = "", { status = 0, requestId = null, retryAfter = null } = {}) {
    super(describe(code, detail, retryAfter));
    this.name = "LedgerError";
    this.code = code;
    this.detail = detail;
    this.status = status;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

/** One readable sentence (or two) for an error code and the server's message. */
export function describe(code, detail = "", retryAfter = null) {
  let msg = MESSAGES[code] || (detail ? "" : `The server answered with an error (${code}).`);
  if (code === "rate_limited" && retryAfter) msg = `Too many requests for this API key. Try again in ${retryAfter} s.`;
  if (detail && detail !== msg) msg = msg ? `${msg} (${detail})` : detail;
  return msg;
}

/** The LedgerError for a non-2xx response whose body may be the ROUTES.md error JSON. */
export function fromResponse(status, body, headers = {}) {
  const err = body && typeof body === "object" ? body.error : null;
  const code = err?.code || (status === 404 ? "not_found" : status >= 500 ? "internal_error" : "invalid_request");
  const get = (k) => (typeof headers.get === "function" ? headers.get(k) : headers[k]) ?? null;
  return new LedgerError(code, err?.message || "", {
    status, requestId: get("X-Request-Id"), retryAfter: get("Retry-After"),
  });
}

/** Any thrown value as a message for the message bar. */
export function messageOf(err) {
  if (err instanceof LedgerError) return err.message;
  if (err && err.message) return err.message;
  return String(err);
}
