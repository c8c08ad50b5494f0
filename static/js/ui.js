// DOM rendering of the pane: messages, progress, outline, dependency panel, preview, findings,
// graph, settings. Only text nodes for server strings (no HTML injection), except the graph SVG,
// which graph.js escapes.
import { utf16Index, wordDiff } from "./textplan.js";
import { EDGE_COLORS, edgeCounts, graphSvg } from "./graph.js";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

export function showMessage(text, kind = "error") {
  $("message").className = `message ${kind}`;
  $("message-text").textContent = text;
  $("message").hidden = false;
}

export function clearMessage() {
  $("message").hidden = true;
}

export function showProgress(label, fraction = null) {
  $("progress").hidden = false;
  $("progress-text").textContent = label;
  const pct = fraction == null ? null : Math.max(0, Math.min(100, Math.round(fraction * 100)));
  $("progress-pct").textContent = pct == null ? "" : `${pct}%`;
  $("progress-bar").style.width = `${pct ?? 100}%`;
  document.querySelector("#progress .bar").setAttribute("aria-valuenow", String(pct ?? 0));
}

export function hideProgress() {
  $("progress").hidden = true;
}

export function setDocName(text) {
  $("doc-name").textContent = text;
}

export function selectTab(name) {
  document.querySelectorAll(".tabs button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === name)));
  document.querySelectorAll("main > .panel").forEach((p) => { p.hidden = p.id !== `tab-${name}`; });
}

/** The number to show before an outline node's title: the number it shows (``node.number``,
 * the server's one rule for "2.1", "A.1", "Section 3", "Annex B"), unless the title already
 * begins with it, as a heading typed "2. License Grants" or "Annex B Scope" does. */
export function outlineNumber(node) {
  const num = node.number;
  if (!num) return null;
  const esc = num.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const worded = new RegExp(`^\\s*(?:\\p{L}+\\.?\\s+|§\\s*)${esc}(?![\\p{L}\\p{N}])`, "u");
  // a bare letter is the number only when punctuation closes it ("A. Examples", not "A Guide")
  const bare = new RegExp(`^\\s*${esc}${/^\p{L}$/u.test(num) ? "[.:)]" : "(?![\\p{L}\\p{N}])"}`, "u");
  const title = node.title || "";
  return worded.test(title) || bare.test(title) ? null : num;
}

export function renderOutline(outline, onPick) {
  const root = $("outline");
  root.replaceChildren();
  const add = (items, parent) => {
    for (const it of items) {
      const num = outlineNumber(it);
      const a = el("a", { role: "button", tabindex: "0", "data-unit": it.id, onclick: () => onPick(it.id) },
        num ? el("span", { class: "num" }, num) : null, it.title || it.label || "(untitled)");
      const li = el("li", {}, a);
      if (it.children?.length) {
        const ul = el("ul");
        add(it.children, ul);
        li.append(ul);
      }
      parent.append(li);
    }
  };
  add(outline, root);
  $("outline-empty").hidden = outline.length > 0;
  if (!outline.length) $("outline-empty").textContent = "This document has no headings.";
}

function edgeItem(item, onPick) {
  return el("li", { "data-unit": item.unit, onclick: () => onPick(item.unit) },
    el("span", { class: `edge-type ${item.type}` }, item.type),
    el("span", { class: "edge-label" }, item.label),
    item.evidence ? el("span", { class: "edge-evidence" }, item.evidence) : null);
}

export function renderDeps(deps, unit, kindLabel, onPick, source) {
  $("selection-empty").hidden = Boolean(unit);
  $("deps").hidden = !unit;
  if (!unit) return;
  $("deps-kind").textContent = kindLabel;
  $("deps-label").textContent = unit.label || unit.title || "";
  $("deps-preview").textContent = unit.text;
  $("deps-parent").textContent = deps.parent ? `In ${deps.parent.label}` : "";
  const fill = (id, countId, items, empty) => {
    $(countId).textContent = String(items.length);
    $(id).replaceChildren(...(items.length ? items.map((i) => edgeItem(i, onPick)) : [el("li", { class: "empty" }, empty)]));
  };
  fill("deps-refs", "deps-ref-count", deps.references, "It references nothing else.");
  fill("deps-dependents", "deps-dep-count", deps.dependents, "Nothing depends on it.");
  $("deps-source").textContent = source;
}

export function clearDeps(message) {
  $("deps").hidden = true;
  $("selection-empty").hidden = false;
  $("selection-empty").textContent = message;
}

function diffNodes(old, text) {
  const out = [];
  let pos = 0;
  for (const h of wordDiff(old, text)) {
    if (h.start > pos) out.push(old.slice(pos, h.start));
    if (h.end > h.start) out.push(el("del", {}, old.slice(h.start, h.end)));
    if (h.text) out.push(el("ins", {}, h.text));
    pos = h.end;
  }
  if (pos < old.length) out.push(old.slice(pos));
  return out;
}

/** What an operation looks like in the preview: the unit's old text with the change marked. */
export function operationView(op) {
  const before = op.before ?? "";
  if (op.op === "replace") {
    const s = utf16Index(before, op.start ?? 0); // the server counts code points
    const e = utf16Index(before, op.end ?? op.start ?? 0);
    const ctxStart = Math.max(0, before.lastIndexOf(" ", Math.max(0, s - 60)));
    const ctxEnd = before.indexOf(" ", Math.min(before.length, e + 60));
    const head = before.slice(ctxStart, s);
    const tail = before.slice(e, ctxEnd === -1 ? before.length : ctxEnd);
    return [ctxStart > 0 ? "…" : "", head, ...diffNodes(before.slice(s, e), op.text ?? ""), tail, ctxEnd === -1 ? "" : "…"];
  }
  if (op.op === "set_text") return diffNodes(before, op.text ?? "");
  if (op.op === "insert_after") return [el("ins", {}, op.text ?? "")];
  if (op.op === "delete") return [el("del", {}, before)];
  if (op.op === "move") return [`Move this ${op.unit_kind || "unit"} ${op.after ? "after" : "before"} ${op.after_label || op.after || op.before_unit}.`];
  if (op.op === "rename") return [el("del", {}, op.old ?? ""), " → ", el("ins", {}, op.text ?? ""), " everywhere"];
  return [JSON.stringify(op)];
}

export const OP_NAMES = { replace: "Change", set_text: "Rewrite", insert_after: "Insert", delete: "Delete", move: "Move", rename: "Rename" };

export function renderPreview(proposal, author) {
  const ops = proposal.operations || [];
  $("preview").hidden = false;
  $("preview-title").textContent = ops.length ? "Proposed changes" : "Nothing to change";
  const propagated = ops.filter((o) => o.source && o.source !== "rules" && o.source !== "llm").length;
  $("preview-count").textContent = `${ops.length} change${ops.length === 1 ? "" : "s"}${propagated ? `, ${propagated} propagated` : ""}`;
  $("operations").replaceChildren(...ops.map((op, i) => el("li", { class: "op", "data-op": op.id ?? String(i) },
    el("div", { class: "op-head" },
      el("input", { type: "checkbox", checked: "", "aria-label": "Keep this change", "data-keep": op.id ?? String(i) }),
      el("span", { class: "pill" }, OP_NAMES[op.op] || op.op),
      el("span", { class: "unit-label" }, op.unit_label || op.unit || "")),
    el("div", { class: "op-body" }, ...operationView(op)),
    el("div", { class: "op-why" }, el("b", {}, "Why: "), op.reason || "the instruction"))));
  renderFindings($("preview-findings"), proposal.findings || [], null, false);
  $("author-note").textContent = author
    ? `Word shows the tracked changes under your Office account's name; LEDGER records "${author}" as the author.`
    : "Word shows the tracked changes under your Office account's name. Set an author name in Settings for LEDGER's audit log.";
  $("btn-apply").disabled = ops.length === 0;
}

export function keptOperations() {
  return [...document.querySelectorAll("#operations input[data-keep]")].filter((c) => c.checked).map((c) => c.dataset.keep);
}

export function hidePreview() {
  $("preview").hidden = true;
  $("fallback").hidden = true;
}

export function showFallback(text, reasons) {
  $("fallback").hidden = false;
  $("fallback-text").textContent = text;
  $("fallback-reasons").replaceChildren(...reasons.map((r) => el("li", {}, r)));
}

const SEV = { error: "!", warning: "!", info: "i" };

export function renderFindings(root, findings, onPick, showEmpty = true) {
  root.replaceChildren(...findings.map((f) => el("li", { "data-unit": f.unit ?? "", onclick: () => onPick && f.unit && onPick(f.unit) },
    el("span", { class: `sev ${f.severity || "info"}`, title: f.severity }, SEV[f.severity] || "i"),
    el("span", {}, f.message),
    el("span", { class: "code" }, f.code))));
  if (!findings.length && showEmpty) root.append(el("li", { class: "empty" }, "No problems found."));
}

export function renderGraph(graph, { types, selected, note, onPick, onToggle }) {
  const counts = edgeCounts(graph);
  $("graph-legend").replaceChildren(...Object.keys(EDGE_COLORS).map((t) => el("label", {},
    el("input", { type: "checkbox", ...(types.includes(t) ? { checked: "" } : {}), onchange: (e) => onToggle(t, e.target.checked) }),
    el("i", { style: `background:${EDGE_COLORS[t]}` }), `${t.charAt(0)}${t.slice(1).toLowerCase()} ${counts[t] || 0}`)));
  const box = $("graph");
  box.innerHTML = graphSvg(graph, { types, selected, width: Math.max(280, box.clientWidth - 2 || 320) });
  box.querySelectorAll(".node").forEach((n) => n.addEventListener("click", () => onPick(n.dataset.unit)));
  $("graph-note").textContent = note;
}

export function fillSettings(s) {
  $("set-url").value = s.backendUrl;
  $("set-key").value = s.apiKey;
  $("set-author").value = s.author;
  $("set-slice").value = String(s.sliceKiB);
}

export function readSettingsForm() {
  return { backendUrl: $("set-url").value, apiKey: $("set-key").value, author: $("set-author").value, sliceKiB: $("set-slice").value };
}

export function showSettingsErrors(errors) {
  document.querySelectorAll("[data-error-for]").forEach((p) => {
    const msg = errors[p.dataset.errorFor];
    p.textContent = msg || "";
    p.classList.toggle("error", Boolean(msg));
  });
}

export { $ };

const STATUS_NAMES = { accepted: "Accepted", rejected: "Rejected", pending: "Pending" };

/** LEDGER's pending tracked changes (WordApi 1.6) with their reasons and Accept/Reject
 * buttons; ``changes`` null: the host has no such API, Word's own Review pane does it. */
export function renderReviewChanges(changes, onDecide) {
  $("review").hidden = false;
  const mine = (changes || []).filter((c) => c.op);
  $("review-note").textContent = changes == null
    ? "Accept or reject the changes in Word: Review > Tracked Changes (this Word has no tracked-change API for add-ins)."
    : mine.length ? `${mine.length} tracked change${mine.length === 1 ? "" : "s"} by LEDGER waiting for review.`
      : "No tracked change by LEDGER is waiting.";
  $("review-changes").replaceChildren(...mine.map((c) => el("li", { class: "op", "data-change": String(c.index), "data-op": c.op },
    el("div", { class: "op-head" },
      el("span", { class: "pill" }, /add|insert/i.test(String(c.type)) ? "Inserted" : "Deleted"),
      el("span", { class: "unit-label" }, c.text)),
    el("div", { class: "op-why" }, el("b", {}, "Why: "), c.reason || "the instruction"),
    el("div", { class: "row end" },
      el("button", { class: "btn", type: "button", "data-decide": "reject", onclick: () => onDecide(c, false) }, "Reject"),
      el("button", { class: "btn primary", type: "button", "data-decide": "accept", onclick: () => onDecide(c, true) }, "Accept")))));
}

/** The review round trip's answer: each operation's status, and the findings of what it leaves. */
export function renderReviewResult(res, onPick) {
  $("review").hidden = false;
  const c = res.counts || {};
  $("review-summary").textContent = `${c.accepted ?? 0} accepted, ${c.rejected ?? 0} rejected, ${c.pending ?? 0} pending`
    + (res.consistent ? " · the document is consistent." : " · the review leaves problems to fix:");
  $("review-statuses").replaceChildren(...(res.operations || []).map((o) => el("li", { class: `status ${o.status}`, "data-op": o.id, "data-status": o.status },
    el("span", { class: "pill" }, STATUS_NAMES[o.status] || o.status), el("span", {}, o.reason || o.id))));
  renderFindings($("review-findings"), res.new_findings || [], onPick, false);
}
