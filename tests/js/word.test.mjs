// Unit tests of the Word apply step against office-addin-mock objects: tracking first, search at
// word level within Word's 255-character limit, nothing changed when a plan cannot be placed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyOperations, selectUnit, selectedParagraph, wordAt } from "../../static/js/word.js";
import { makeWord } from "./wordmock.mjs";

const P1 = "Payment is due within 30 days of the invoice date.";
const P2 = "Late payments carry interest; see Section 2 for the 30 days.";
const units = [
  { id: "sec-1", kind: "section", order: 0, text: "Terms" },
  { id: "p-1", kind: "paragraph", order: 1, text: P1 },
  { id: "p-2", kind: "paragraph", order: 2, text: P2 },
];

test("a replace turns tracking on first, then replaces only the changed word", async () => {
  const { Word, calls, doc, texts } = makeWord(["Terms", P1, P2]);
  const op = { id: "e1", op: "replace", unit: "p-1", before: P1, start: 22, end: 29, text: "45 days", old: "30 days" };
  const res = await applyOperations(Word, [op], units);
  assert.deepEqual(res, { applied: 1, failures: [] });
  const first = calls.findIndex((c) => c.api === "document.changeTrackingMode");
  const edit = calls.findIndex((c) => c.api === "range.insertText");
  assert.ok(first !== -1 && first < edit, "tracking is set before the first edit");
  assert.equal(calls[first].value, "TrackAll");
  assert.deepEqual(calls[edit], { api: "range.insertText", text: "45", location: "Replace", range: "30" });
  assert.deepEqual(doc.revisions, [{ type: "deletion", text: "30" }, { type: "insertion", text: "45" }]);
  assert.deepEqual(texts(), ["Terms", P1.replace("30", "45"), P2]);
});

test("the paragraph is found by its text, the word by its occurrence in it", async () => {
  const p = "Figure 3 shows the rate; Figure 3 is cited twice.";
  const { Word, texts, calls } = makeWord(["Intro", p]);
  const op = { op: "replace", unit: "p-x", before: p, start: 25, end: 33, text: "Figure 4" };
  const res = await applyOperations(Word, [op], [{ id: "p-x", kind: "paragraph", order: 0, text: p }]);
  assert.equal(res.applied, 1);
  assert.deepEqual(texts(), ["Intro", "Figure 3 shows the rate; Figure 4 is cited twice."]);
  assert.deepEqual(calls.filter((c) => c.api === "paragraph.search").map((c) => c.text), ["3"]);
});

test("paragraphs longer than 255 characters are searched by a prefix and verified", async () => {
  const long = `${"Clause text ".repeat(40)}ends with 30 days.`;
  assert.ok(long.length > 255);
  const { Word, calls, texts } = makeWord(["Short", long]);
  const start = long.lastIndexOf("30");
  const op = { op: "replace", unit: "p-l", before: long, start, end: start + 2, text: "45" };
  const res = await applyOperations(Word, [op], [{ id: "p-l", kind: "paragraph", order: 0, text: long }]);
  assert.equal(res.applied, 1, JSON.stringify(res));
  for (const c of calls.filter((c) => c.api.endsWith(".search"))) assert.ok(c.text.length <= 255, `search of ${c.text.length} chars`);
  assert.equal(texts()[1], long.replace("30 days", "45 days"));
});

test("a change of more than 255 characters is found by head and tail searches joined with expandTo", async () => {
  const middle = Array.from({ length: 70 }, (_, i) => `w${i}`).join(" ");
  const p = `Start ${middle} end.`;
  const { Word, calls, texts } = makeWord([p]);
  const op = { op: "replace", unit: "p-m", before: p, start: 6, end: 6 + middle.length, text: "short" };
  const res = await applyOperations(Word, [op], [{ id: "p-m", kind: "paragraph", order: 0, text: p }]);
  assert.equal(res.applied, 1, JSON.stringify(res));
  assert.ok(calls.some((c) => c.api === "range.expandTo"));
  assert.equal(texts()[0], "Start short end.");
});

test("set_text is applied as word-level hunks, later words first", async () => {
  const { Word, calls, texts } = makeWord([P1]);
  const op = { op: "set_text", unit: "p-1", before: P1, text: "Payment is due within 45 days of the receipt date." };
  const res = await applyOperations(Word, [op], [units[1]]);
  assert.equal(res.applied, 2);
  const edits = calls.filter((c) => c.api === "range.insertText").map((c) => [c.range, c.text]);
  assert.deepEqual(edits, [["invoice", "receipt"], ["30", "45"]]);
  assert.deepEqual(texts(), ["Payment is due within 45 days of the receipt date."]);
});

test("insertions, deletions, new paragraphs and deleted paragraphs", async () => {
  const { Word, texts, doc } = makeWord(["Terms", P1, P2]);
  const ops = [
    { op: "replace", unit: "p-1", before: P1, start: 0, end: 0, text: "Unless agreed otherwise, " },
    { op: "replace", unit: "p-2", before: P2, start: 30, end: 44, text: "" },
    { op: "insert_after", unit: "p-2", before: P2, text: "A new closing paragraph." },
    { op: "delete", unit: "sec-1", before: "Terms" },
  ];
  const res = await applyOperations(Word, ops, units);
  assert.equal(res.failures.length, 0, JSON.stringify(res));
  assert.deepEqual(texts(), [`Unless agreed otherwise, ${P1}`, "Late payments carry interest; for the 30 days.", "A new closing paragraph."]);
  assert.deepEqual(doc.revisions.map((r) => r.type).sort(),
    ["deletion", "insertion", "paragraph_deletion", "paragraph_insertion"]);
});

test("a plan that cannot be placed changes nothing and says why", async () => {
  const { Word, texts, calls } = makeWord(["Terms", "Payment is due within 60 days."]);
  const op = { op: "replace", unit: "p-1", before: P1, start: 22, end: 24, text: "45" };
  const res = await applyOperations(Word, [op], units);
  assert.equal(res.applied, 0);
  assert.match(res.failures[0].reason, /not in the document as LEDGER read it/);
  assert.deepEqual(texts(), ["Terms", "Payment is due within 60 days."]);
  assert.ok(!calls.some((c) => c.api === "range.insertText"));
});

test("a table cannot be deleted through text: reported before Word is touched", async () => {
  const { Word, calls } = makeWord(["a"]);
  const res = await applyOperations(Word, [{ op: "delete", unit: "t", before: "a\nb" }], [{ id: "t", kind: "table", order: 0, text: "a\nb" }]);
  assert.equal(res.applied, 0);
  assert.match(res.failures[0].reason, /table cannot be deleted/);
  assert.equal(calls.length, 0);
});

test("selection and jump: the selected paragraph's text, and select() on a unit's paragraph", async () => {
  const { Word, calls, doc } = makeWord(["Terms", P1, P2]);
  doc.selection = 2;
  assert.equal(await selectedParagraph(Word), P2);
  assert.equal(await selectUnit(Word, units[1], units), true);
  assert.deepEqual(calls.filter((c) => c.api === "paragraph.select"), [{ api: "paragraph.select", text: P1 }]);
  assert.equal(await selectUnit(Word, { id: "zz", kind: "paragraph", text: "Not there" }, []), false);
});

test("a piece of a tracked change is found as whole words first: 'ID' is not the start of 'IDs'", () => {
  assert.equal(wordAt("connection IDs", "ID"), -1);
  assert.equal(wordAt("IDs and the ID", "ID"), 12);
  assert.equal(wordAt("connection ID", "ID"), 11);
  assert.equal(wordAt("connection IDs", "ID", true), 11); // a host that splits inside words
  assert.equal(wordAt("Table 2", "2"), 6);
});
