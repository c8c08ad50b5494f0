// A proposal as the user reads it: groups of like changes (one rename's 138 replacements, one
// deleted section with what it contains), each change with the propagated changes that follow
// from it, the ticks that say what Apply keeps, and the tracked changes of an applied revision
// folded back into the same changes for review. Pure: no DOM, no Office.js.
import { humanize, place, sectionName, sectionOf, snippet, unitName } from "./labels.js";

const ENGINE_SOURCES = new Set(["rules", "llm", "check", "client", "auto"]);

/** Is ``op`` propagated (its ``source`` is the id of another operation of the proposal)? */
export function isPropagated(op, ids) {
  return Boolean(op.source) && !ENGINE_SOURCES.has(op.source) && ids.has(op.source);
}

const OP_VERBS = { replace: "Change", set_text: "Rewrite", insert_after: "Insert", delete: "Delete", move: "Move", rename: "Rename" };

/** A group per written form: "DATA Chunk → Payload Chunk" and "data chunk → payload chunk" are
 * two groups (issue 29: one title over 125 changes it did not describe), and so are a singular
 * and a plural. */
function groupKey(op) {
  if (op.op === "replace" && op.old != null) return `replace:${String(op.old)}→${String(op.text ?? "")}`;
  if (op.op === "delete" || op.op === "move") return `${op.op}:${op.id}`;
  return `${op.op}:${op.reason || ""}`;
}

function groupTitle(op, byId) {
  if (op.op === "replace" && op.old != null) return `${op.old || "∅"} → ${op.text || "∅"}`;
  const u = byId.get(op.unit);
  if (op.op === "delete") {
    if (u && (u.kind === "section" || u.kind === "title")) return `Delete section ${sectionName(u)}`;
    return `Delete ${unitName(byId, op.unit) || "a paragraph"}`;
  }
  if (op.op === "move") return `Move ${unitName(byId, op.unit, { text: false }) || "a paragraph"}`;
  return `${OP_VERBS[op.op] || op.op}: ${snippet(humanize(op.reason || "the instruction"), 70)}`;
}

/** Is ``id`` inside (a descendant of) one of the units in ``set``? Returns that unit's id. */
function containerIn(byId, id, set) {
  let u = byId.get(id);
  let best = null;
  for (let guard = 0; u && u.parent && guard < 64; guard += 1) {
    if (set.has(u.parent)) best = u.parent;
    u = byId.get(u.parent);
  }
  return best;
}

/** The proposal's operations as ``{groups, changeOf, opById}``.
 *
 * A group ``{key, title, changes}`` gathers the engine's operations that do the same thing
 * (one old → new replacement, one deletion with what it contains); a change ``{id, ops,
 * propagated, units, op}`` is one operation of the engine (``op``), with the deletions of the
 * units it contains merged in (``ops``: a deleted section or table is one change), and the
 * propagated operations that follow from any of them (``propagated``). ``changeOf`` maps
 * every operation id to its change's id. */
export function groupOperations(ops, byId = new Map()) {
  const list = ops || [];
  const ids = new Set(list.map((o) => o.id));
  const opById = new Map(list.map((o) => [o.id, o]));
  const roots = list.filter((o) => !isPropagated(o, ids));
  const deleted = new Map(roots.filter((o) => o.op === "delete").map((o) => [o.unit, o]));
  const changes = new Map();
  const changeOf = new Map();
  const groups = new Map();
  for (const op of roots) {
    const outer = op.op === "delete" ? containerIn(byId, op.unit, deleted) : null;
    if (outer) continue; // merged into the outermost deleted unit's change below
    const change = { id: op.id, op, ops: [op], propagated: [], units: new Set([op.unit]) };
    changes.set(op.id, change);
    changeOf.set(op.id, op.id);
    const key = groupKey(op);
    if (!groups.has(key)) groups.set(key, { key, title: groupTitle(op, byId), changes: [] });
    groups.get(key).changes.push(change);
  }
  for (const op of roots) {
    if (changeOf.has(op.id)) continue;
    const outer = deleted.get(containerIn(byId, op.unit, deleted));
    const change = changes.get(changeOf.get(outer.id) ?? outer.id);
    change.ops.push(op);
    change.units.add(op.unit);
    changeOf.set(op.id, change.id);
  }
  const rootOf = (op) => {
    let o = op;
    for (let guard = 0; o && isPropagated(o, ids) && guard < 64; guard += 1) o = opById.get(o.source);
    return o;
  };
  for (const op of list) {
    if (!isPropagated(op, ids)) continue;
    const change = changes.get(changeOf.get(rootOf(op)?.id));
    if (!change) continue;
    change.propagated.push(op);
    change.units.add(op.unit);
    changeOf.set(op.id, change.id);
  }
  return { groups: [...groups.values()], changeOf, opById };
}

/** The reason every change of a group gives, when they all give the same one (shown once, on
 * the group), else null (each change shows its own). */
export function groupReason(group) {
  const reasons = new Set(group.changes.map((c) => c.op.reason || ""));
  return reasons.size === 1 ? [...reasons][0] || null : null;
}

/** Every operation id of a change: what its tick keeps. */
export function changeOpIds(change) {
  return [...change.ops, ...change.propagated].map((o) => o.id);
}

/** Ticks a change (its own operations and the propagated ones) on or off in ``kept``. */
export function setChange(kept, change, on) {
  for (const id of changeOpIds(change)) { if (on) kept.add(id); else kept.delete(id); }
  return kept;
}

/** Ticks one propagated operation; ticking it keeps the change it follows from too (the
 * server skips a propagated change whose source was left out). */
export function setPropagated(kept, change, opId, on) {
  if (on) { kept.add(opId); change.ops.forEach((o) => kept.add(o.id)); } else kept.delete(opId);
  return kept;
}

/** Ticks every change of a group (or of every group). */
export function setGroups(kept, groups, on) {
  for (const g of groups) for (const c of g.changes) setChange(kept, c, on);
  return kept;
}

/** What the preview counts: a change's own operations count once (a deleted section is one
 * change), each propagated operation once. ``{total, kept}`` for ``changes``. */
export function countChanges(changes, kept) {
  let total = 0;
  let on = 0;
  for (const c of changes) {
    total += 1 + c.propagated.length;
    if (c.ops.every((o) => kept.has(o.id))) on += 1;
    on += c.propagated.filter((o) => kept.has(o.id)).length;
  }
  return { total, kept: on };
}

/** The ``tick`` state of a set of changes: "all", "none" or "some" (an indeterminate box). */
export function tickState(changes, kept) {
  const { total, kept: on } = countChanges(changes, kept);
  return on === 0 ? "none" : on === total ? "all" : "some";
}

/** Where a change is: "5.1 Connection ID · Paragraph" (the section and what the unit is). */
export function changePlace(change, byId) {
  const p = place(byId, change.op.unit);
  if (p.what === "Section" || p.what === "Title") return `${p.what} ${p.section}`;
  // most changes are in paragraphs: the section says where, "Paragraph" says nothing
  return [p.section, p.what === "Paragraph" && p.section ? "" : p.what].filter(Boolean).join(" · ") || change.op.unit_label || "";
}

/** Findings placed beside the change they concern: ``{byChange: Map change id -> [finding],
 * general: [{finding, count}]}``; a finding goes to the change that holds its unit (or, for a
 * finding about a unit no change touches, its ``related`` units); identical general messages
 * count once. */
export function placeFindings(findings, groups) {
  const unitChange = new Map();
  for (const g of groups) for (const c of g.changes) for (const u of c.units) if (!unitChange.has(u)) unitChange.set(u, c.id);
  const byChange = new Map();
  const general = new Map();
  const key = (f) => `${f.severity}|${f.message}`;
  const times = new Map();
  for (const f of findings || []) times.set(key(f), (times.get(key(f)) || 0) + 1);
  for (const f of findings || []) {
    const at = [f.unit, ...(f.related || [])].map((u) => unitChange.get(u)).find(Boolean);
    if (at && times.get(key(f)) === 1) {
      if (!byChange.has(at)) byChange.set(at, []);
      byChange.get(at).push(f);
    } else {
      // a warning said once, with every place it concerns
      const k = key(f);
      if (!general.has(k)) general.set(k, { finding: f, count: 0, units: [] });
      const g = general.get(k);
      g.count += 1;
      if (f.unit && !g.units.includes(f.unit)) g.units.push(f.unit);
    }
  }
  return { byChange, general: [...general.values()] };
}

/** How an operation id reads in a message: "the change in 5.1 Connection ID". */
export function opNamer(opById, byId) {
  return (id) => {
    const op = opById.get(id);
    if (!op) return null;
    const s = sectionOf(byId, op.unit);
    return s ? `the change in ${sectionName(s)}` : "the change it follows from";
  };
}

/** Word's tracked changes of an applied revision (``trackedChanges()``: ``[{index, type,
 * text, op}]``), folded into one review item per change of the preview: ``[{key, group,
 * indices, removed, added, ops, unit}]``. A word change (a deletion and an insertion of one
 * operation) is one item, "ID → identifier"; a deleted section is one item. Changes LEDGER
 * did not make are left out. Items keep the document order of their first tracked change. */
export function reviewItems(changes, grouped) {
  const { changeOf, groups, opById } = grouped;
  const groupOf = new Map();
  for (const g of groups) for (const c of g.changes) groupOf.set(c.id, g.key);
  const items = new Map();
  for (const c of changes || []) {
    if (!c.op) continue;
    const key = changeOf.get(c.op) ?? c.op;
    if (!items.has(key)) {
      const op = opById.get(key) || opById.get(c.op) || {};
      items.set(key, { key, group: groupOf.get(key) ?? null, indices: [], removed: [], added: [], ops: new Set(), unit: op.unit ?? null });
    }
    const it = items.get(key);
    it.indices.push(c.index);
    it.ops.add(c.op);
    (/add|insert/i.test(String(c.type)) ? it.added : it.removed).push(String(c.text ?? ""));
  }
  return [...items.values()];
}

/** One review item in a few words: "ID → identifier", "deleted: …", "inserted: …". */
export function reviewText(item) {
  const rm = snippet(item.removed.join(" "), 60);
  const add = snippet(item.added.join(" "), 60);
  if (rm && add) return `${rm} → ${add}`;
  if (rm) return `Deleted: ${rm}`;
  return `Inserted: ${add}`;
}

/** The server's review of a revision (``POST …/review`` ``operations``), one item per change as
 * the preview showed it: an operation that follows from another (``group`` names its source)
 * sits under that source, and the items are grouped by what they do (``summary``, "ID →
 * identifier"), so 138 renamings read as one group of 138, never more items than operations.
 * With the preview's ``grouped`` (``groupOperations``) an operation goes to its preview group,
 * so "ID → identifier" and "ID → Identifier" stay one group as they were in the preview.
 * Returns ``[{key, title, items: [{op, follows: [op…]}], counts: {accepted, rejected, pending}}]``. */
export function reviewResultGroups(operations, grouped = null) {
  const ops = operations || [];
  const ids = new Set(ops.map((o) => o.id));
  const heads = [];
  const under = new Map();
  for (const o of ops) {
    const g = o.group;
    if (g != null && g !== o.id && ids.has(g)) {
      if (!under.has(g)) under.set(g, []);
      under.get(g).push(o);
    } else heads.push(o);
  }
  const previewGroup = new Map();
  for (const g of grouped?.groups || []) for (const c of g.changes) previewGroup.set(c.id, g);
  const groups = new Map();
  for (const op of heads) {
    const pg = previewGroup.get(grouped?.changeOf?.get(op.id));
    const title = pg?.title || op.summary || op.reason || "Other changes";
    const key = pg ? `g:${pg.key}` : `s:${title}`;
    if (!groups.has(key)) groups.set(key, { key: `r${groups.size}`, title, items: [], counts: { accepted: 0, rejected: 0, pending: 0 } });
    const g = groups.get(key);
    g.items.push({ op, follows: under.get(op.id) || [] });
    g.counts[op.status] = (g.counts[op.status] || 0) + 1;
  }
  return [...groups.values()];
}
