// The Check tab: findings grouped by kind, "Fix all" per group and "Fix this" per fixable finding.
import { test } from "node:test";
import assert from "node:assert/strict";
import { filterFindings, fixSummary, groupFindings, renderCheck } from "../../static/js/checkfix.js";

const findings = [
  { id: "f-1", kind: "variant_spelling", code: "variant_spelling", severity: "warning", unit: "p-1", fixable: true,
    message: "one term spelled 2 ways: 'email' (3), 'e-mail' (1); the usual form is 'email'",
    places: [{ unit: "p-1", start: 4, end: 10, text: "e-mail", replacement: "email" }] },
  { id: "f-2", kind: "undefined_acronym", code: "undefined_acronym", severity: "warning", unit: "p-2", fixable: false,
    message: "QoS is used 3 time(s) in 1 unit(s) but never spelled out", places: [{ unit: "p-2", start: 0, end: 3, text: "QoS" }] },
  { id: "f-3", kind: "variant_spelling", code: "variant_spelling", severity: "info", unit: "p-3", fixable: true,
    message: "one term spelled 2 ways", places: [{ unit: "p-3", start: 0, end: 9, text: "data set", replacement: "dataset" }] },
  { id: "f-4", kind: "broken_reference", code: "broken_reference", severity: "error", unit: "p-4", message: "'Section 9' refers to Section 9" },
];

test("findings group by kind, most severe group first, with the ids a Fix all sends", () => {
  const groups = groupFindings(findings);
  assert.deepEqual(groups.map((g) => [g.kind, g.findings.length, g.fixable]), [
    ["broken_reference", 1, []], ["variant_spelling", 2, ["f-1", "f-3"]], ["undefined_acronym", 1, []]]);
  assert.equal(groups[1].title, "Hyphenation and spacing");
  assert.equal(fixSummary(findings[0]), "e-mail → email");
  assert.equal(fixSummary(findings[1]), "");
});

// A small stand-in for the page's DOM: enough for el(), events and replaceChildren.
function fakeDom() {
  const make = (tag) => ({
    tag, attrs: {}, children: [], listeners: {},
    setAttribute(k, v) { this.attrs[k] = v; },
    addEventListener(ev, fn) { this.listeners[ev] = fn; },
    append(...c) { this.children.push(...c); },
    replaceChildren(...c) { this.children = c; },
  });
  globalThis.document = { createElement: make };
  return make("ul");
}

test("one group per kind with its count, one line per finding; Fix this and Fix all call onFix with finding ids; no buttons without the fix route", () => {
  const root = fakeDom();
  const asked = [];
  renderCheck(root, findings, { onFix: (ids, label) => asked.push([ids, label]) });
  assert.equal(root.children.length, 3); // three kinds
  const lines = [];
  const buttons = [];
  const walk = (n) => {
    if (n && n.tag === "button") buttons.push(n);
    if (n && n.attrs?.class === "finding") lines.push(n);
    (n?.children || []).forEach((c) => typeof c === "object" && walk(c));
  };
  root.children.forEach(walk);
  assert.equal(lines.length, findings.length);
  const fixes = buttons.filter((b) => b.attrs["data-fix"] || b.attrs["data-fix-all"]);
  assert.deepEqual(fixes.map((b) => b.attrs["data-fix"] || `all:${b.attrs["data-fix-all"]}`), ["all:variant_spelling", "f-1", "f-3"]);
  fixes.forEach((b) => b.listeners.click({ target: { closest: () => b } }));
  assert.deepEqual(asked, [[["f-1", "f-3"], "Fix all: Hyphenation and spacing"], [["f-1"], "Fix this"], [["f-3"], "Fix this"]]);
  const bare = fakeDom();
  renderCheck(bare, findings, { onFix: null });
  const none = [];
  const walk2 = (n) => { if (n && n.tag === "button" && (n.attrs["data-fix"] || n.attrs["data-fix-all"])) none.push(n); (n?.children || []).forEach((c) => typeof c === "object" && walk2(c)); };
  bare.children.forEach(walk2);
  assert.equal(none.length, 0);
  delete globalThis.document;
});

test("the filter keeps findings of one severity and with every word asked for", () => {
  assert.deepEqual(filterFindings(findings, { severity: "warning" }).map((f) => f.id), ["f-1", "f-2"]);
  assert.deepEqual(filterFindings(findings, { query: "e-mail EMAIL" }).map((f) => f.id), ["f-1"]);
  assert.deepEqual(filterFindings(findings, { query: "abbreviations" }).map((f) => f.id), ["f-2"]); // the group's title
  assert.equal(filterFindings(findings, {}).length, 4);
});

test("after a change, the check keeps its findings and marks those the change resolved, not those it only moved", async () => {
  const { diffFindings } = await import("../../static/js/checkfix.js");
  const before = [
    { id: "f-1", kind: "list_punctuation", evidence: "baseline item", places: [{ unit: "li-1", text: ",", replacement: "." }] },
    { id: "f-2", kind: "spelling_variety", evidence: "colour", places: [{ unit: "p-1", text: "colour", replacement: "color" }] },
    { id: "f-3", kind: "dash_style", message: "a hyphen stands for a dash" },
  ];
  const after = [
    // the same finding on the renamed item (another unit id, other evidence): not resolved
    { id: "f-9", kind: "list_punctuation", evidence: "reference run item", places: [{ unit: "li-7", text: ",", replacement: "." }] },
    { id: "f-3", kind: "dash_style", message: "a hyphen stands for a dash" },
  ];
  const out = diffFindings(before, after);
  assert.deepEqual(out.map((f) => [f.id, Boolean(f.resolved)]), [["f-9", false], ["f-3", false], ["f-2", true]]);
  assert.equal(out.find((f) => f.resolved).fixable, false);
});
