// DOM rendering of the pane: messages, progress, outline, dependency panel, preview, findings,
// graph, settings. Only text nodes for server strings (no HTML injection), except the graph SVG,
// which graph.js escapes.
import { utf16Index, wordDiff } from "./textplan.js";
import { EDGE_COLORS, edgeCounts, graphSvg } from "./graph.js";
import { EDGE_WORDS, humanize, outlineNumber, snippet } from "./labels.js";
import { el } from "./dom.js";

export { outlineNumber };

const $ = (id) => document.getElementById(id);


/** A sticky message: its first sentence or line shown, the rest (a refusal's help text, the
 * rules engine's list of what it understands) behind "Details". */
export function splitMessage(text, max = 220) {
  const t = String(text ?? "").trim();
  const nl = t.indexOf("\n");
  let cut = nl > 0 ? nl : -1;
  if (cut === -1 && t.length > max) {
    const m = /[.;:](?:\s|$)/g;
    m.lastIndex = 40;
    const hit = m.exec(t);
    cut = hit && hit.index < max ? hit.index + 1 : -1;
    if (cut === -1) { const sp = t.lastIndexOf(" ", max); cut = sp > 40 ? sp : max; }
  }
  if (cut === -1) return { head: t, rest: "" };
  // "Message (detail…": an explanation cut open is joined with a colon instead
  let head = t.slice(0, cut).trim();
  if ((head.match(/\(/g) || []).length > (head.match(/\)/g) || []).length) head = head.replace(/([.!?]?)\s*\((\p{L}?)(?=[^()]*$)/u, (m, stop, c) => (stop ? `${stop} ${c.toUpperCase()}` : `: ${c}`));
  return { head, rest: t.slice(cut).replace(/^[\s(]+/, "").replace(/\)\s*$/, "").trim() };
}

export function showMessage(text, kind = "error") {
  const { head, rest } = splitMessage(humanize(text));
  $("message").className = `message ${kind}`;
  $("message-text").textContent = head;
  $("message-details").textContent = rest;
  $("message-details").hidden = true;
  $("message-more").hidden = !rest;
  $("message-more").setAttribute("aria-expanded", "false");
  $("message-more").onclick = () => {
    const open = $("message-details").hidden;
    $("message-details").hidden = !open;
    $("message-more").setAttribute("aria-expanded", String(open));
    $("message-more").textContent = open ? "Less" : "Details";
  };
  $("message-more").textContent = "Details";
  $("message").hidden = false;
}

export function clearMessage() {
  $("message").hidden = true;
}

/** The graph job's stages as the pane names them, in order. */
export const STAGE_NAMES = { read: "Read", contains: "Sections", references: "References", depends: "Dependencies", check: "Findings", related: "Related", graph: "Waiting for the graph", plan: "Planning" };
export const GRAPH_STAGES = ["read", "contains", "references", "depends", "related"];

/** Every stage of a job, done, current or to come: ``[{name, label, state}]``; the stages are
 * the job's plan, else those its ``stage_log`` names (the server's own list: the check it keeps
 * before the related passages), else ``all``. Pure. */
export function stageList(job, all = GRAPH_STAGES) {
  const seen = job?.stages || [];
  const logged = (job?.stage_log || []).map((e) => e.name);
  const plan = Array.isArray(job?.plan) && job.plan.length ? job.plan : logged.length ? logged : all;
  const names = [...plan, ...seen.filter((s) => !plan.includes(s))];
  const current = job?.status === "done" ? null : job?.stage;
  const log = new Map((job?.stage_log || []).map((e) => [e.name, e.status]));
  return names.map((name) => {
    let state = job?.status === "done" || (seen.includes(name) && name !== current) ? "done" : name === current ? "current" : "todo";
    if (log.get(name) === "done") state = "done";
    else if (log.get(name) === "running") state = "current";
    return { name, label: STAGE_NAMES[name] || name, state };
  });
}

export function showStages(job, all = GRAPH_STAGES) {
  const ol = $("progress-stages");
  if (!job) { ol.hidden = true; return; }
  ol.hidden = false;
  ol.replaceChildren(...stageList(job, all).map((s) => el("li", { class: s.state, "data-stage": s.name }, s.label)));
}

export function showProgress(label, fraction = null, job = undefined) {
  $("progress").hidden = false;
  if (job !== undefined) showStages(job); else $("progress-stages").hidden = true;
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
  document.querySelectorAll(".tabs button").forEach((b) => {
    b.setAttribute("aria-selected", String(b.dataset.tab === name));
    b.setAttribute("tabindex", b.dataset.tab === name || !document.querySelector(`.tabs button[data-tab="${name}"]`) ? "0" : "-1");
  });
  document.querySelectorAll("main > .panel").forEach((p) => { p.hidden = p.id !== `tab-${name}`; });
}

function edgeItem(item, onPick, say, side) {
  const words = EDGE_WORDS[item.type]?.[side] || String(item.type).toLowerCase();
  return el("li", { "data-unit": item.unit, "data-type": item.type, tabindex: "0", role: "link", onclick: () => onPick(item.unit),
                    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(item.unit); } } },
    el("span", { class: `edge-type ${item.type}`, title: EDGE_WORDS[item.type]?.legend || "" }, words),
    el("span", { class: "edge-label" }, item.label),
    item.evidence ? el("span", { class: "edge-evidence" }, snippet(say(item.evidence), 120)) : null);
}

/** How many edges a list of the dependency panel shows before "Show more". */
export const DEPS_PAGE = 8;

function fillEdges(list, items, empty, onPick, say, side) {
  if (!items.length) { list.replaceChildren(el("li", { class: "empty" }, empty)); return; }
  let shown = 0;
  const more = el("li", { class: "show-more" });
  const page = () => {
    more.remove();
    const next = items.slice(shown, shown + (shown ? 25 : DEPS_PAGE));
    shown += next.length;
    list.append(...next.map((i) => edgeItem(i, onPick, say, side)));
    if (shown < items.length) {
      more.replaceChildren(el("button", { class: "btn small", type: "button", "data-more": list.id, onclick: page },
        `Show more (${items.length - shown})`));
      list.append(more);
    }
  };
  list.replaceChildren();
  page();
}

export function renderDeps(deps, unit, kindLabel, onPick, source, say = (t) => t) {
  $("selection-empty").hidden = Boolean(unit);
  $("deps").hidden = !unit;
  if (!unit) return;
  $("deps-kind").textContent = kindLabel;
  $("deps-label").textContent = unit.title || (/\p{L}{2,}/u.test(unit.label || "") ? unit.label : "");
  $("deps-preview").textContent = unit.text;
  $("deps-parent").textContent = deps.parent ? `In ${deps.parent.label}` : "";
  const fill = (id, countId, items, empty, side) => {
    $(countId).textContent = String(items.length);
    fillEdges($(id), items, empty, onPick, say, side);
  };
  fill("deps-refs", "deps-ref-count", deps.references, "It relies on nothing else.", "out");
  fill("deps-dependents", "deps-dep-count", deps.dependents, "Nothing relies on it.", "in");
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

export function hidePreview() {
  $("preview").hidden = true;
  document.body.classList.remove("has-actions");
  closeConfirm();
}

export function hideFallback() {
  $("fallback").hidden = true;
}

/** The changes Apply could not place, one line each; ``button`` the words of the offer to open
 * the whole edit as a new document (null: the host cannot). */
export function showFallback(text, reasons, button = null) {
  $("fallback").hidden = false;
  $("fallback-text").textContent = text;
  $("fallback-reasons").replaceChildren(...reasons.map((r) => el("li", {}, r)));
  $("btn-fallback").hidden = !button;
  if (button) $("btn-fallback").textContent = button;
}

/** A question before a decision on many changes: ``text`` and the button's words ``yes``;
 * ``go()`` runs on Yes, nothing on No or Escape. Focus moves to No, the safe answer. */
export function confirmBar(text, go, yes = "Yes") {
  const bar = $("confirm");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-yes").onclick = () => { closeConfirm(); go(); };
  $("confirm-no").onclick = () => closeConfirm();
  bar.hidden = false;
  $("confirm-no").focus();
}

export function closeConfirm() {
  const bar = $("confirm");
  if (!bar || bar.hidden) return false;
  bar.hidden = true;
  return true;
}

/** A decision that waits ``seconds`` with an Undo before it is made: ``{cancel()}``. ``go()``
 * runs when the time is up, ``undone()`` when the user takes it back. */
export function undoBar(text, go, undone = () => {}, seconds = 6) {
  const bar = $("undo");
  let left = seconds;
  const tick = () => { $("undo-text").textContent = `${text} (${left} s)`; };
  tick();
  bar.hidden = false;
  const timer = setInterval(() => {
    left -= 1;
    if (left > 0) { tick(); return; }
    clearInterval(timer);
    bar.hidden = true;
    go();
  }, 1000);
  const cancel = () => { clearInterval(timer); bar.hidden = true; undone(); };
  $("undo-btn").onclick = cancel;
  $("undo-btn").focus();
  return { cancel, now() { clearInterval(timer); bar.hidden = true; go(); } };
}

/** Escape: closes the topmost thing open (a question, the Undo bar's wait is not closed by it,
 * an expanded finding, the message). Returns whether something closed. */
export function closeTopmost() {
  if (closeConfirm()) return true;
  const open = document.querySelector(".finding-more:not([hidden])");
  if (open) {
    open.hidden = true;
    const line = open.parentElement?.querySelector(".finding-line");
    line?.setAttribute("aria-expanded", "false");
    line?.focus();
    return true;
  }
  const details = $("message-details");
  if (details && !details.hidden) { details.hidden = true; $("message-more").setAttribute("aria-expanded", "false"); $("message-more").textContent = "Details"; return true; }
  if (!$("message").hidden) { clearMessage(); return true; }
  return false;
}

const SEV = { error: "!", warning: "!", info: "i" };

export function renderFindings(root, findings, onPick, showEmpty = true, say = humanize) {
  root.replaceChildren(...findings.map((f) => el("li", { "data-unit": f.unit ?? "", onclick: () => onPick && f.unit && onPick(f.unit) },
    el("span", { class: `sev ${f.severity || "info"}`, title: f.severity }, SEV[f.severity] || "i"),
    el("span", {}, say(f.message)))));
  if (!findings.length && showEmpty) root.append(el("li", { class: "empty" }, "No problems found."));
}

export function renderGraph(graph, { types, selected, note, onPick, onToggle, view = null, count = "" }) {
  const counts = edgeCounts(graph);
  $("graph-legend").replaceChildren(...Object.keys(EDGE_COLORS).map((t) => el("label", { title: t },
    el("input", { type: "checkbox", ...(types.includes(t) ? { checked: "" } : {}), onchange: (e) => onToggle(t, e.target.checked) }),
    el("i", { style: `background:${EDGE_COLORS[t]}` }), `${EDGE_WORDS[t]?.legend || t} ${counts[t] || 0}`)));
  const box = $("graph");
  const hadFocus = box.contains(document.activeElement); // redrawn after a pick: the keyboard stays in the graph
  box.innerHTML = graphSvg(graph, { types, selected, view, width: Math.max(260, box.clientWidth - 2 || 320) });
  // the graph by keyboard: Tab reaches the nodes, arrows move between them, Enter or Space goes there
  const nodes = [...box.querySelectorAll(".node")];
  nodes.forEach((n, i) => {
    n.addEventListener("click", () => onPick(n.dataset.unit));
    n.addEventListener("keydown", (e) => {
      const j = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: nodes.length - 1 }[e.key];
      if (j !== undefined) { e.preventDefault(); nodes[Math.max(0, Math.min(nodes.length - 1, j))].focus(); return; }
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(n.dataset.unit); }
    });
  });
  if (hadFocus) (box.querySelector(".node.selected") || nodes[0])?.focus();
  $("graph-note").textContent = note;
  $("graph-count").textContent = count;
}

export function fillSettings(s, defaultAuthor = "LEDGER") {
  $("set-url").value = s.backendUrl;
  $("set-key").value = s.apiKey;
  $("set-author").value = s.author;
  $("set-author").placeholder = `${defaultAuthor} (when left empty)`;
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

