// The preview of a proposal and the review of an applied revision, per operation: a group per
// kind of change (collapsed when long), a card per change with the propagated changes under
// it, ticks per change, group and all whose counts follow, warnings beside the change they
// concern; the review folds Word's tracked changes into the same changes, each with Go to,
// Accept and Reject, per group and for all.
import { changeOpIds, changePlace, countChanges, groupOperations, groupReason, opNamer, placeFindings, reviewItems, reviewResultGroups,
         reviewText, setChange, setGroups, setPropagated, tickState } from "./changes.js";
import { humanize, snippet, unitName } from "./labels.js";
import { utf16Index } from "./textplan.js";
import { OP_NAMES, closeConfirm, confirmBar, operationView, undoBar } from "./ui.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
/** Changes drawn per page of a group; the rest behind "Show more". */
export const PAGE = 25;


const SEV = { error: "!", warning: "!", info: "i" };
const sevIcon = (s) => el("span", { class: `sev ${s || "info"}`, title: s, "aria-label": s }, SEV[s] || "i");

/** A collapsible group: head (optional tick, chevron, title, count), items drawn a page at a
 * time. ``drawItem(x)`` makes one item's node. */
function groupNode({ key, title, items, open, drawItem, tick = null, extra = null, attrs = {}, why = null }) {
  const list = el("ul", { class: "group-items", hidden: !open });
  let shown = 0;
  const moreBtn = el("button", { class: "btn small", type: "button", onclick: () => page() });
  const more = el("li", { class: "show-more" }, moreBtn);
  const page = () => {
    more.remove();
    const next = items.slice(shown, shown + PAGE);
    shown += next.length;
    list.append(...next.map(drawItem));
    if (shown < items.length) {
      moreBtn.textContent = `Show ${Math.min(PAGE, items.length - shown)} more of ${items.length - shown}`;
      list.append(more);
    }
  };
  const count = el("span", { class: "count" });
  const toggle = el("button", { class: "group-toggle", type: "button", "aria-expanded": String(open),
                                onclick: () => { if (!shown) page(); list.hidden = !list.hidden; toggle.setAttribute("aria-expanded", String(!list.hidden)); } },
    el("span", { class: "chev", "aria-hidden": "true" }), el("span", { class: "group-title", title }, title), count);
  if (open) page();
  const node = el("li", { class: "op-group", "data-group": key, ...attrs }, el("div", { class: "group-head" }, tick, toggle, extra),
    why ? el("div", { class: "group-why" }, el("b", {}, "Why: "), why) : null, list);
  return { node, count, list, reveal: (pred) => {
    while (!items.slice(0, shown).some(pred) && shown < items.length) page();
    list.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
  } };
}

/** Lines of a table (or any multi-line unit) that a rewrite changes, "old → new", instead of
 * the whole flattened text. */
function changedLines(before, after) {
  const a = String(before ?? "").split("\n");
  const b = String(after ?? "").split("\n");
  if (a.length !== b.length) return null;
  const out = [];
  a.forEach((l, i) => { if (l !== b[i]) out.push([l, b[i]]); });
  return out;
}

function changeBody(change, byId) {
  const op = change.op;
  if (op.op === "delete") {
    const rest = change.ops.length - 1;
    const u = byId.get(op.unit);
    const head = u && (u.kind === "section" || u.kind === "title")
      ? el("del", {}, snippet(op.before, 120)) : el("del", {}, snippet(op.before, 160));
    if (!rest) return [head];
    const kinds = new Map();
    change.ops.slice(1).forEach((o) => { const k = o.unit_kind || byId.get(o.unit)?.kind || "unit"; kinds.set(k, (kinds.get(k) || 0) + 1); });
    const what = [...kinds].map(([k, n]) => `${n} ${k.replace("_", " ")}${n === 1 ? "" : "s"}`).join(", ");
    return [head, el("p", { class: "contained" }, `and what it contains (${what}), deleted with it as one change`)];
  }
  if ((op.op === "set_text") && String(op.before ?? "").includes("\n")) {
    const lines = changedLines(op.before, op.text);
    if (lines) {
      return [el("ul", { class: "contained" }, ...lines.slice(0, 8).map(([a, b]) => el("li", {}, el("del", {}, snippet(a, 60)), " → ", el("ins", {}, snippet(b, 60)))),
        lines.length > 8 ? el("li", {}, `and ${lines.length - 8} more cells`) : null)];
    }
  }
  return operationView(op);
}

/** The preview: ``proposal`` as groups of changes with ticks. Returns a controller with
 * ``kept()`` (the operation ids Apply keeps, in the proposal's order), ``setAll(on)`` and
 * ``reveal(opId)``. ``onPick(unit)`` jumps to a unit in Word. */
/** The server's note that the proposal was made before the analysis ended (``partial`` names
 * the edge types it did not use; the server adds its words for it as the last warning). */
function partialNote(proposal, i, all) {
  return Array.isArray(proposal.partial) && proposal.partial.length > 0 && i === all.length - 1;
}

export function renderPreview(proposal, { author = "", byId = new Map(), onPick = () => {}, bookmarks = null } = {}) {
  const ops = proposal.operations || [];
  const grouped = groupOperations(ops, byId);
  const { groups, opById, changeOf } = grouped;
  const kept = new Set(ops.map((o) => o.id));
  const nameUnit = (id) => unitName(byId, id, { text: false }) || null;
  const say = (t) => humanize(t, { opName: opNamer(opById, byId), unitName: nameUnit, bookmarks });
  const { byChange, general } = placeFindings(proposal.findings || [], groups);
  const allChanges = groups.flatMap((g) => g.changes);
  const counters = [];
  const cards = new Map(); // change id -> {box, props: Map}

  $("preview").hidden = false;
  document.body.classList.add("has-actions");
  $("preview-title").textContent = ops.length ? "Proposed changes" : "Nothing to change";
  const expl = $("preview-explanation");
  expl.textContent = say(proposal.explanation || "");
  expl.hidden = !proposal.explanation;
  expl.className = "explanation";
  expl.onclick = () => expl.classList.toggle("open");
  expl.title = "Click to read it all";
  const finding = (f) => el("li", { "data-unit": f.unit ?? "", onclick: () => f.unit && onPick(f.unit) },
    sevIcon(f.severity), el("span", {}, say(f.message), f.unit ? el("span", { class: "muted" }, ` · ${nameUnit(f.unit) || ""}`) : null));
  // a warning once, with its places (each a link to the place), however many changes it concerns
  const placesOf = (units) => {
    // one link per place name ("18.2 Transport Parameters · Paragraph (3)"), to its first paragraph
    const byName = new Map();
    for (const u of units) {
      const name = nameUnit(u) || "a paragraph";
      if (!byName.has(name)) byName.set(name, { unit: u, n: 0 });
      byName.get(name).n += 1;
    }
    const list = [...byName];
    const shown = list.slice(0, 6).map(([name, { unit, n }], i) => [i ? ", " : "",
      el("a", { class: "link", href: "#", onclick: (e) => { e.preventDefault(); e.stopPropagation(); onPick(unit); } }, n > 1 ? `${name} (${n})` : name)]).flat();
    return list.length ? [" — in ", ...shown, list.length > 6 ? ` and ${list.length - 6} more` : ""] : [];
  };
  const generalItem = ({ finding: f, count, units }) => el("li", { "data-unit": f.unit ?? "", "data-count": String(count) },
    sevIcon(f.severity), el("span", {}, say(f.message), count > 1 ? ` (${count} places)` : "", ...placesOf(units)));
  const warnings = new Map();
  (proposal.warnings || []).forEach((w, i, all) => {
    const k = say(w);
    if (!warnings.has(k)) warnings.set(k, { text: k, count: 0, partial: false });
    warnings.get(k).count += 1;
    warnings.get(k).partial ||= partialNote(proposal, i, all);
  });
  $("preview-findings").replaceChildren(...general.map(generalItem),
    ...[...warnings.values()].map((w) => el("li", { class: w.partial ? "partial" : null, "data-count": String(w.count) },
      sevIcon("warning"), el("span", {}, w.text, w.count > 1 ? ` (${w.count} times)` : ""))));

  const update = () => {
    const all = countChanges(allChanges, kept);
    $("preview-count").textContent = `${all.total} change${all.total === 1 ? "" : "s"}`;
    $("preview-kept").textContent = `${all.kept} of ${all.total} selected`;
    $("btn-apply").disabled = all.kept === 0;
    $("btn-apply").textContent = all.kept === all.total ? "Apply as tracked changes" : `Apply ${all.kept}`;
    for (const c of counters) c();
  };
  const tickBox = (changes, attrs) => {
    const box = el("input", { type: "checkbox", ...attrs });
    const sync = () => { const s = tickState(changes, kept); box.checked = s !== "none"; box.indeterminate = s === "some"; };
    counters.push(sync);
    sync();
    return box;
  };

  const common = new Map(groups.map((g) => [g.key, groupReason(g)]));
  const groupOf = new Map(groups.flatMap((g) => g.changes.map((c) => [c.id, g.key])));
  const drawChange = (change) => {
    const box = tickBox([change], { "aria-label": "Keep this change", "data-keep": change.id });
    box.addEventListener("change", () => { setChange(kept, change, box.checked); update(); });
    const reason = say(change.op.reason || "");
    // the reason is said once on its group when all its changes share it
    const shared = common.get(groupOf.get(change.id)) != null;
    const why = reason && !shared && reason !== proposal.instruction ? el("div", { class: "op-why" }, el("b", {}, "Why: "), reason) : null;
    const props = change.propagated.map((p) => {
      const pb = el("input", { type: "checkbox", "aria-label": "Keep this propagated change", "data-prop": p.id, ...(kept.has(p.id) ? { checked: "" } : {}) });
      counters.push(() => { pb.checked = kept.has(p.id); });
      pb.addEventListener("change", () => { setPropagated(kept, change, p.id, pb.checked); update(); });
      return el("li", { "data-op": p.id },
        pb, el("span", { onclick: () => onPick(p.unit) }, el("b", {}, changePlace({ op: p }, byId)), " ", ...operationView(p)),
        el("span", { class: "why" }, say(p.reason || "")));
    });
    const notes = (byChange.get(change.id) || []).map((f) => finding(f));
    return el("li", { class: "op", "data-op": change.id, "data-change": change.id },
      el("div", { class: "op-head" }, box, el("span", { class: "pill" }, OP_NAMES[change.op.op] || change.op.op),
        el("span", { class: "place", title: "Go to it in the document", onclick: () => onPick(change.op.unit) }, changePlace(change, byId))),
      el("div", { class: "op-body" }, ...changeBody(change, byId)),
      why,
      props.length ? el("ul", { class: "propagated", "aria-label": "Propagated changes" }, ...props) : null,
      notes.length ? el("ul", { class: "op-findings" }, ...notes) : null);
  };

  const nodes = new Map();
  const few = groups.length <= 3;
  $("operations").replaceChildren(...groups.map((g) => {
    const count = () => { const c = countChanges(g.changes, kept); return `${c.kept} of ${c.total}`; };
    const tick = tickBox(g.changes, { "aria-label": "Keep every change of this group", "data-group-keep": g.key });
    tick.addEventListener("change", () => { setGroups(kept, [g], tick.checked); update(); });
    const warn = g.changes.reduce((n, c) => n + (byChange.get(c.id)?.length || 0), 0);
    const reason = common.get(g.key);
    const gn = groupNode({ key: g.key, title: say(g.title), items: g.changes, open: few && g.changes.length <= PAGE, drawItem: drawChange, tick,
                           why: reason && say(reason) !== proposal.instruction ? say(reason) : null,
                           extra: warn ? el("span", { class: "sev warning", title: `${warn} warning${warn === 1 ? "" : "s"}` }, "!") : null });
    counters.push(() => { gn.count.textContent = count(); });
    nodes.set(g.key, { g, gn });
    return gn.node;
  }));
  $("author-note").textContent = `Word shows the tracked changes under your Office account's name; LEDGER records "${author || "LEDGER"}" as the author (Settings).`;
  update();
  return {
    grouped,
    kept: () => ops.map((o) => o.id).filter((id) => kept.has(id)),
    setAll(on) { setGroups(kept, groups, on); update(); },
    /** Opens the group of ``opId``'s change, draws it and scrolls it into view. */
    reveal(opId) {
      const cid = changeOf.get(opId);
      for (const { g, gn } of nodes.values()) {
        if (!g.changes.some((c) => c.id === cid)) continue;
        gn.reveal((c) => c.id === cid);
        const card = gn.list.querySelector(`[data-change="${CSS.escape(cid)}"]`);
        card?.classList.add("focus");
        card?.scrollIntoView({ block: "center" });
        return card;
      }
      return null;
    },
    changeOpIds,
    cards,
  };
}

/** A change in its paragraph, in one line: a few words before, the words removed and written,
 * a few words after (issue 29: "digital → electronic" five times in a row told nothing apart). */
export function contextView(op, around = 40) {
  if (!op) return [];
  const before = String(op.before ?? "");
  if (op.op === "replace" && before) {
    const s = utf16Index(before, op.start ?? 0);
    const e = utf16Index(before, op.end ?? op.start ?? 0);
    const from = Math.max(0, before.lastIndexOf(" ", Math.max(0, s - around)) + 1);
    const to = before.indexOf(" ", Math.min(before.length, e + around));
    const head = before.slice(from, s);
    const tail = before.slice(e, to === -1 ? before.length : to);
    return [from > 0 ? "…" : "", head, before.slice(s, e) ? el("del", {}, before.slice(s, e)) : null,
            op.text ? el("ins", {}, op.text) : null, tail, to === -1 ? "" : "…"].filter((x) => x !== null && x !== "");
  }
  if (op.op === "delete") return [el("del", {}, snippet(before, around * 2))];
  if (op.op === "insert_after") return [el("ins", {}, snippet(op.text, around * 2))];
  return [snippet(before, around * 2)];
}

/** The review list: Word's tracked changes by LEDGER folded into the preview's changes, one
 * item per change with a line of its paragraph, grouped as the preview was, the reason once per
 * group. ``changes`` null: the host has no API for it. ``onDecide(items, accept, title)``. */
export function renderReviewChanges(changes, grouped, { byId = new Map(), onDecide, onPick, say = humanize, instruction = "" } = {}) {
  $("review").hidden = false;
  $("review-changes").hidden = false;
  $("review-summary").textContent = "";
  $("review-statuses").replaceChildren();
  if (changes == null) {
    $("review-note").textContent = "Accept or reject the changes in Word: Review > Tracked Changes (this Word has no tracked-change API for add-ins).";
    $("review-note").hidden = false;
    $("review-all").hidden = true;
    $("review-changes").replaceChildren();
    return [];
  }
  const items = reviewItems(changes, grouped);
  $("review-note").textContent = items.length ? "" : "No tracked change by LEDGER is waiting.";
  $("review-note").hidden = Boolean(items.length);
  $("review-all").hidden = !items.length;
  $("review-count").textContent = `${items.length} change${items.length === 1 ? "" : "s"} waiting for review`;
  $("btn-accept-all").onclick = () => onDecide(items, true, "");
  $("btn-reject-all").onclick = () => onDecide(items, false, "");
  const byGroup = new Map();
  for (const it of items) {
    const k = it.group ?? "other";
    if (!byGroup.has(k)) byGroup.set(k, []);
    byGroup.get(k).push(it);
  }
  const groupsByKey = new Map(grouped.groups.map((g) => [g.key, g]));
  const opOf = (it) => grouped.opById.get(it.key) || grouped.opById.get([...it.ops][0]);
  const why = (it) => say(opOf(it)?.comment || opOf(it)?.reason || "");
  const drawItem = (it) => {
    const op = opOf(it);
    const place = changePlace({ op: { unit: it.unit } }, byId) || "In the document";
    return el("li", { class: "op review-item", "data-change": it.key, "data-op": [...it.ops][0], title: why(it) },
      el("div", { class: "review-line" },
        el("button", { class: "place link", type: "button", title: "Go to it in the document", "data-decide": "goto", onclick: () => onPick(it) }, place),
        el("span", { class: "decide" },
          el("button", { class: "btn small", type: "button", "data-decide": "reject", "aria-label": `Reject: ${reviewText(it)}`, onclick: () => onDecide([it], false, "") }, "Reject"),
          el("button", { class: "btn small primary", type: "button", "data-decide": "accept", "aria-label": `Accept: ${reviewText(it)}`, onclick: () => onDecide([it], true, "") }, "Accept"))),
      el("div", { class: "review-context op-body", "data-text": reviewText(it) }, ...(op ? contextView(op, 32) : [reviewText(it)])));
  };
  const few = byGroup.size <= 3;
  $("review-changes").replaceChildren(...[...byGroup].map(([k, list]) => {
    const g = groupsByKey.get(k);
    const title = g ? say(g.title) : "Other changes";
    const reason = g ? groupReason(g) : null;
    const node = groupNode({
      key: k, title, items: list, open: few && list.length <= PAGE, drawItem, why: reason && reason !== instruction ? say(reason) : null,
      extra: el("span", { class: "decide" },
        el("button", { class: "btn small", type: "button", "data-decide-group": "reject", onclick: () => onDecide(list, false, title) }, `Reject ${list.length}`),
        el("button", { class: "btn small", type: "button", "data-decide-group": "accept", onclick: () => onDecide(list, true, title) }, `Accept ${list.length}`)),
    });
    node.count.textContent = String(list.length);
    return node.node;
  }));
  return items;
}

/** Asks before a decision on many changes, then waits a few seconds with an Undo before it is
 * made (Word has no undo an add-in can call); a decision on one change is made at once.
 * ``decide()`` makes it; returns nothing. */
export function confirmDecision(count, accept, title, decide, { onPending = () => {}, onUndone = () => {} } = {}) {
  if (count <= 1) { decide(); return; }
  const verb = accept ? "Accept" : "Reject";
  const what = `${count} changes${title ? ` of “${title}”` : ""}`;
  closeConfirm();
  confirmBar(`${verb} ${what}? Word will ${accept ? "keep" : "undo"} them in your document.`, () => {
    onPending();
    undoBar(`${accept ? "Accepting" : "Rejecting"} ${what}`, decide, onUndone);
  }, `${verb} ${count}`);
}

const STATUS_NAMES = { accepted: "Accepted", rejected: "Rejected", pending: "Pending" };

/** The review round trip's answer: a summary line, then the server's operations grouped as
 * the preview was (``reviewResultGroups``), each item its status, place (``where``) and the
 * follow-on changes under it; long groups collapsed and drawn a page at a time. ``textOf(op)``:
 * the start of the changed paragraph, telling apart the many changes of one section. */
export function renderReviewResult(res, { onPick = () => {}, say = humanize, placeOf = () => null, textOf = () => "", grouped = null } = {}) {
  $("review").hidden = false;
  // the answer takes the list's place: the same groups are not shown twice (issue 29)
  $("review-changes").hidden = true;
  $("review-all").hidden = true;
  $("review-note").hidden = true;
  const c = res.counts || {};
  $("review-summary").textContent = `${c.accepted ?? 0} accepted, ${c.rejected ?? 0} rejected, ${c.pending ?? 0} pending`
    + (res.consistent ? " · the document is consistent." : " · the review leaves problems to fix:");
  const groups = reviewResultGroups(res.operations, grouped);
  const counted = (k) => Object.entries(k).filter(([, n]) => n).map(([s, n]) => `${n} ${s}`).join(", ");
  const drawItem = ({ op, follows }) => el("li", { class: `status ${op.status}`, "data-op": op.id, "data-status": op.status, title: say(op.reason || "") },
    el("span", { class: "pill" }, STATUS_NAMES[op.status] || op.status),
    el("span", { class: "place", onclick: () => onPick(op.unit) }, say(op.where || placeOf(op) || "In the document")),
    op.summary || textOf(op) ? el("span", { class: "op-body" }, [op.summary ? say(op.summary) : null, textOf(op)].filter(Boolean).join(" · ")) : null,
    follows.length ? el("span", { class: "muted small" }, ` and ${follows.length} follow-on change${follows.length === 1 ? "" : "s"}`) : null);
  const few = groups.length <= 3;
  $("review-statuses").replaceChildren(...groups.map((g) => {
    const node = groupNode({ key: g.key, title: say(g.title), items: g.items, open: few && g.items.length <= PAGE, drawItem,
                             attrs: { class: "op-group review-group" } });
    node.count.textContent = `${g.items.length} · ${counted(g.counts)}`;
    return node.node;
  }));
  return groups;
}
