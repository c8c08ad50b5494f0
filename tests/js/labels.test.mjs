// Words, not ids: unit names with their section, snippets cut at words, the server's strings
// with ids turned into words; preview groups, ticks and counts; review items; the graph's
// neighbourhood; outline search; stages; message details.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RAW_ID, humanize, place, sectionName, snippet, unitName } from "../../static/js/labels.js";
import { countChanges, groupOperations, placeFindings, reviewItems, reviewResultGroups, reviewText, setChange, setGroups, setPropagated, tickState } from "../../static/js/changes.js";
import { neighbourhood } from "../../static/js/graph.js";
import { outlineMatches, outlinePath } from "../../static/js/outline.js";
import { splitMessage, stageList } from "../../static/js/ui.js";
import { usable } from "../../static/js/app.js";

const UNITS = [
  { id: "sec-aaaaaaaaaa", kind: "section", number: "7", title: "Cryptographic Handshake", parent: null, order: 0, text: "Cryptographic Handshake" },
  { id: "sec-bbbbbbbbbb", kind: "section", number: "7.3", title: "Authenticating Connection IDs", parent: "sec-aaaaaaaaaa", order: 1, text: "Authenticating Connection IDs" },
  { id: "p-1111111111", kind: "paragraph", label: null, parent: "sec-bbbbbbbbbb", order: 2, text: "The choice each endpoint makes about connection IDs during the handshake is authenticated." },
  { id: "li-2222222222", kind: "list_item", label: "•", parent: "sec-bbbbbbbbbb", order: 3, text: "the Source Connection ID field" },
  { id: "fig-3333333333", kind: "figure", label: "Figure 7", parent: "sec-bbbbbbbbbb", order: 4, text: "Client / Server" },
  { id: "sec-cccccccccc", kind: "section", number: "8", title: "Address Validation", parent: null, order: 5, text: "Address Validation" },
  { id: "p-4444444444", kind: "paragraph", parent: "sec-cccccccccc", order: 6, text: "As Figure 8 shows, a connection ID is used." },
  { id: "cap-5555555555", kind: "caption", label: "Figure 9", parent: "sec-cccccccccc", order: 7, text: "Figure 9: Retry" },
];
const byId = new Map(UNITS.map((u) => [u.id, u]));

test("a unit is named by its section (number and title) and what it is, never by a bullet or a bare number", () => {
  assert.equal(sectionName(UNITS[1]), "7.3 Authenticating Connection IDs");
  assert.equal(sectionName({ number: "2", title: "2. Scope" }), "2. Scope");
  assert.deepEqual(place(byId, "li-2222222222"), { section: "7.3 Authenticating Connection IDs", what: "List item", text: "the Source Connection ID field" });
  assert.equal(unitName(byId, "fig-3333333333", { text: false }), "7.3 Authenticating Connection IDs · Figure 7");
  assert.equal(unitName(byId, "sec-bbbbbbbbbb"), "Section 7.3 Authenticating Connection IDs");
  assert.equal(unitName(byId, "nope"), "");
});

test("snippets are cut at a word, never in the middle of one", () => {
  assert.equal(snippet("The choice each endpoint makes about connection IDs", 30), "The choice each endpoint…");
  assert.equal(snippet("short", 30), "short");
  assert.equal(snippet("aaaa bbbb cccc dddd", 12), "aaaa bbbb…");
});

test("server strings lose their ids: operations, units, findings and bookmarks become words", () => {
  const opName = (id) => (id === "op-1" ? "the change in 7.3 Authenticating Connection IDs" : null);
  const nameUnit = (id) => unitName(byId, id, { text: false }) || null;
  const s = humanize("prop-1: prop-1 follows from op-1, which was left out", { opName });
  assert.equal(s, "another change follows from the change in 7.3 Authenticating Connection IDs, which was left out");
  // edge types, finding kinds and bookmark names in words (issue 29: no code word reaches the reader)
  assert.equal(humanize("REFERENCES (field _Ref785445525)"), "Citations (reference field)");
  assert.equal(humanize("check variant_spelling (f-60adf574b6)"), 'check "Hyphenation and spacing"');
  assert.equal(humanize("the edited text moved away from p-4444444444 (DEPENDS)", { unitName: nameUnit }),
    "the edited text moved away from 8 Address Validation · Paragraph (dependencies)");
  assert.equal(humanize("the reference field (Ref_element-manifest%3Amanifest) points nowhere"), "the reference field (reference field) points nowhere");
  assert.equal(humanize("see _Toc515280522 for reference_ref"), "see reference field for reference field");
  assert.equal(humanize("3 unit(s) deleted, 1 paragraph(s) kept"), "3 units deleted, 1 paragraph kept");
  assert.equal(humanize("unit fig-a96537e007-24 is a figure"), "unit another paragraph is a figure");
  const bookmarks = new Map([["manifest-element", "p-4444444444"]]);
  assert.equal(humanize("field to manifest-element: stale number", { unitName: nameUnit, bookmarks }),
    "field to 8 Address Validation · Paragraph: stale number");
  for (const t of [s, humanize("see _Ref12 and f-0123abcd and op-3 in p-1111111111")]) assert.ok(!RAW_ID.test(t), t);
});

const OPS = [
  { id: "op-1", op: "delete", unit: "sec-bbbbbbbbbb", before: "Authenticating Connection IDs", source: "rules", reason: "Delete Section 7.3" },
  { id: "op-2", op: "delete", unit: "p-1111111111", before: UNITS[2].text, source: "rules", reason: "Delete Section 7.3" },
  { id: "op-3", op: "delete", unit: "li-2222222222", before: UNITS[3].text, source: "rules", reason: "Delete Section 7.3" },
  { id: "op-4", op: "delete", unit: "fig-3333333333", before: UNITS[4].text, source: "rules", reason: "Delete Section 7.3" },
  { id: "op-5", op: "replace", unit: "p-4444444444", start: 16, end: 29, old: "connection ID", text: "connection identifier", before: UNITS[6].text, source: "rules" },
  { id: "prop-1", op: "replace", unit: "cap-5555555555", old: "9", text: "8", start: 7, end: 8, before: "Figure 9: Retry", source: "op-4", reason: "numbering: Figure 9 is now Figure 8" },
  { id: "prop-2", op: "replace", unit: "p-4444444444", old: "8", text: "7", start: 10, end: 11, before: UNITS[6].text, source: "prop-1", reason: "REFERENCES: Figure 8 is now Figure 7" },
];

test("a deleted section is one change with what it contains; propagated changes sit under the change they follow from", () => {
  const { groups, changeOf } = groupOperations(OPS, byId);
  assert.deepEqual(groups.map((g) => [g.title, g.changes.length]), [
    ["Delete section 7.3 Authenticating Connection IDs", 1], ["connection ID → connection identifier", 1]]);
  const del = groups[0].changes[0];
  assert.deepEqual(del.ops.map((o) => o.id), ["op-1", "op-2", "op-3", "op-4"]);
  assert.deepEqual(del.propagated.map((o) => o.id), ["prop-1", "prop-2"]); // prop-2 follows prop-1, which follows op-4
  assert.equal(changeOf.get("prop-2"), "op-1");
  const kept = new Set(OPS.map((o) => o.id));
  const all = groups.flatMap((g) => g.changes);
  assert.deepEqual(countChanges(all, kept), { total: 4, kept: 4 }); // one deletion + 2 propagated + one replacement
  setChange(kept, del, false);
  assert.deepEqual(countChanges(all, kept), { total: 4, kept: 1 });
  assert.equal(tickState(all, kept), "some");
  setPropagated(kept, del, "prop-1", true); // keeping a propagated change keeps what it follows from
  assert.ok(kept.has("op-1") && kept.has("op-4") && kept.has("prop-1") && !kept.has("prop-2"));
  setGroups(kept, groups, false);
  assert.equal(kept.size, 0);
  assert.equal(tickState(all, kept), "none");
});

test("findings are placed beside the change whose units they name; the rest count once", () => {
  const { groups } = groupOperations(OPS, byId);
  const f = [
    { severity: "error", unit: "p-4444444444", message: "a" },
    { severity: "warning", unit: "p-9999999999", message: "same" },
    { severity: "warning", unit: "p-8888888888", message: "same" },
    { severity: "warning", unit: "p-7777777777", related: ["cap-5555555555"], message: "b" },
  ];
  const { byChange, general } = placeFindings(f, groups);
  assert.equal(byChange.get("op-1").length, 2); // p-4444 is touched by prop-2 under the deletion first
  assert.deepEqual(general.map((g) => [g.finding.message, g.count]), [["same", 2]]);
});

test("the review folds a word change into one item and never lists more items than changes", () => {
  const grouped = groupOperations(OPS, byId);
  const tracked = [
    { index: 0, type: "Deleted", text: "Authenticating Connection IDs", op: "op-1" },
    { index: 1, type: "Deleted", text: UNITS[2].text, op: "op-2" },
    { index: 2, type: "Deleted", text: "connection ID", op: "op-5" },
    { index: 3, type: "Added", text: "connection identifier", op: "op-5" },
    { index: 4, type: "Deleted", text: "9", op: "prop-1" },
    { index: 5, type: "Added", text: "8", op: "prop-1" },
    { index: 6, type: "Added", text: "someone else's", op: null },
  ];
  const items = reviewItems(tracked, grouped);
  assert.deepEqual(items.map((i) => [i.key, i.indices]), [["op-1", [0, 1, 4, 5]], ["op-5", [2, 3]]]);
  assert.equal(reviewText(items[1]), "connection ID → connection identifier");
  assert.ok(items.length <= countChanges(grouped.groups.flatMap((g) => g.changes), new Set(OPS.map((o) => o.id))).total);
});

test("the graph around a unit: N hops over the chosen edge types, with how many it reached and leaves out", () => {
  const nodes = Array.from({ length: 10 }, (_, i) => ({ id: `n${i}`, order: i }));
  const edges = [
    { source: "n0", target: "n1", type: "REFERENCES" }, { source: "n1", target: "n2", type: "REFERENCES" },
    { source: "n2", target: "n3", type: "DEPENDS" }, { source: "n9", target: "n0", type: "CONTAINS" },
  ];
  const g = { nodes, edges };
  const one = neighbourhood(g, ["n1"], { types: ["REFERENCES"], hops: 1 });
  assert.deepEqual(one.nodes.map((n) => n.id), ["n0", "n1", "n2"]);
  assert.equal(one.total, 10);
  assert.equal(one.edges.length, 2);
  const three = neighbourhood(g, ["n1"], { types: ["REFERENCES", "DEPENDS", "CONTAINS"], hops: 3, max: 4 });
  assert.equal(three.reached, 5);
  assert.ok(three.truncated);
  // the nearest first (the centre, then one hop, then the earliest of two hops), drawn in document order
  assert.deepEqual(three.nodes.map((n) => n.id), ["n0", "n1", "n2", "n3"]);
});

test("outline search keeps the matches and their ancestors; a path leads to a heading", () => {
  const outline = [{ id: "a", number: "1", title: "Overview", children: [{ id: "b", number: "1.1", title: "Document Structure", children: [] }] },
    { id: "c", number: "2", title: "Streams", children: [] }];
  assert.deepEqual([...outlineMatches(outline, "structure")], ["b", "a"]);
  assert.equal(outlineMatches(outline, "  "), null);
  assert.deepEqual(outlinePath(outline, "b"), ["a", "b"]);
  assert.deepEqual(outlinePath(outline, "zz"), []);
});

test("progress names every stage, done, current and to come; the graph is usable after the references stage", () => {
  const job = { status: "running", stage: "depends", stages: ["read", "contains", "references", "depends"] };
  assert.deepEqual(stageList(job).map((s) => `${s.label}:${s.state}`),
    ["Read:done", "Sections:done", "References:done", "Dependencies:current", "Related:todo"]);
  assert.ok(usable(job));
  assert.ok(!usable({ status: "running", stage: "references", stages: ["read", "contains", "references"] }));
  assert.ok(usable({ status: "done", stages: [] }));
  // the server's own word, when it gives it: what the pane may use now, every stage planned
  assert.ok(usable({ status: "running", stage: "references", stages: ["read"], ready: ["outline", "graph"] }));
  assert.ok(!usable({ status: "running", stage: "depends", stages: ["read", "contains", "references", "depends"], ready: ["outline"] }));
  const planned = stageList({ status: "running", stage: "related", stages: ["read"], plan: ["read", "references", "related"],
    stage_log: [{ name: "read", status: "done" }, { name: "references", status: "done" }, { name: "related", status: "running" }] });
  assert.deepEqual(planned.map((s) => s.state), ["done", "done", "current"]);
  // without a plan, the stages the server's log names, in its order: the check before Related
  const logged = stageList({ status: "running", stage: "related", stages: ["read", "depends", "check", "related"],
    stage_log: ["read", "contains", "references", "depends", "check"].map((name) => ({ name, status: "done" }))
      .concat([{ name: "related", status: "running" }]) });
  assert.deepEqual(logged.map((s) => `${s.label}:${s.state}`),
    ["Read:done", "Sections:done", "References:done", "Dependencies:done", "Findings:done", "Related:current"]);
});

test("a long refusal shows its first sentence; the help text waits behind Details", () => {
  const help = "LEDGER did not understand the instruction. The rules engine understands:\n- Rename 'A' to 'B'\n- Delete Section N";
  const { head, rest } = splitMessage(help);
  assert.equal(head, "LEDGER did not understand the instruction. The rules engine understands:");
  assert.ok(rest.startsWith("- Rename"));
  assert.deepEqual(splitMessage("Short."), { head: "Short.", rest: "" });
});

test("the review round trip's operations read as the preview's changes: grouped by what they do, follow-ons under their source", () => {
  const ops = [
    ...Array.from({ length: 5 }, (_, i) => ({ id: `op-${i + 1}`, group: `op-${i + 1}`, summary: "ID → identifier",
                                             where: `Section 5.${i + 1} Connection ID`, status: i < 2 ? "accepted" : "pending" })),
    { id: "op-6", group: "op-6", summary: "Deleted Section 7.3 'Idle Timeout'", where: "Section 7.3 Idle Timeout", status: "rejected" },
    { id: "prop-1", group: "op-6", summary: "Section 7.4 → Section 7.3", where: "Section 2 Overview", status: "rejected" },
    { id: "prop-2", group: "op-6", summary: "Section 7.5 → Section 7.4", where: "Section 8 Security", status: "rejected" },
    { id: "op-9", group: "op-99", summary: "Inserted paragraph 'Note' after Section 1", status: "pending" }, // its source is not in this revision
  ];
  const groups = reviewResultGroups(ops);
  assert.deepEqual(groups.map((g) => [g.title, g.items.length]), [
    ["ID → identifier", 5], ["Deleted Section 7.3 'Idle Timeout'", 1], ["Inserted paragraph 'Note' after Section 1", 1]]);
  assert.deepEqual(groups[0].counts, { accepted: 2, rejected: 0, pending: 3 });
  assert.deepEqual(groups[1].items[0].follows.map((o) => o.id), ["prop-1", "prop-2"]);
  // never more items than operations; every operation once
  const all = groups.flatMap((g) => g.items.flatMap((it) => [it.op.id, ...it.follows.map((o) => o.id)]));
  assert.deepEqual(all.sort(), ops.map((o) => o.id).sort());
  assert.deepEqual(reviewResultGroups(undefined), []);
});

test("with the preview's grouping, the review result keeps the preview's groups: one per written form", () => {
  const byId = new Map([["p-1", { id: "p-1", kind: "paragraph", text: "Connection ID" }], ["p-2", { id: "p-2", kind: "paragraph", text: "the connection ID" }]]);
  const ops = [{ id: "op-1", op: "replace", unit: "p-1", old: "Connection ID", text: "Connection Identifier" },
               { id: "op-2", op: "replace", unit: "p-2", old: "connection ID", text: "connection identifier" }];
  const grouped = groupOperations(ops, byId);
  const res = [{ id: "op-1", group: "op-1", summary: "ID → Identifier", status: "pending" },
               { id: "op-2", group: "op-2", summary: "ID → identifier", status: "accepted" }];
  assert.equal(reviewResultGroups(res).length, 2); // by the server's words alone
  const groups = reviewResultGroups(res, grouped);
  // issue 29: "DATA Chunk → Payload Chunk (126)" held 125 lower-case changes; each form is its own group
  assert.deepEqual(groups.map((g) => [g.title, g.items.length]), [["Connection ID → Connection Identifier", 1], ["connection ID → connection identifier", 1]]);
  assert.deepEqual(groups.map((g) => g.counts), [{ accepted: 0, rejected: 0, pending: 1 }, { accepted: 1, rejected: 0, pending: 0 }]);
});
