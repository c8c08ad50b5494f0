// Where LEDGER's units are among Word's paragraphs (static/js/align.js): by sequence, not by search.
import { test } from "node:test";
import assert from "node:assert/strict";
import { alignParagraphs, bodyLines, offsetMap, similarity } from "../../static/js/align.js";

const units = [
  { id: "s1", kind: "section", order: 0, text: "Introduction" },
  { id: "p1", kind: "paragraph", order: 1, text: "The server keeps a list of clients." },
  { id: "t1", kind: "table", order: 2, text: "Name\nValue\n\n" },
  { id: "p2", kind: "paragraph", order: 3, text: "Note\u2028The list is kept for one hour." },
  { id: "f1", kind: "footnote", order: 4, text: "A footnote is not in the body." },
  { id: "p3", kind: "paragraph", order: 5, text: "The server keeps a list of clients." },
];

test("the lines of the body: a table's cells one each, notes and pictures standing in another paragraph left out", () => {
  const lines = bodyLines([...units, { id: "g1", kind: "figure", order: 6, text: "", meta: { inline_in: "p3" } }]);
  assert.deepEqual(lines.map((l) => l.key), ["s1#0", "p1#0", "t1#0", "t1#1", "t1#2", "t1#3", "p2#0", "p3#0"]);
});

test("paragraphs are matched by sequence: equal texts in order, Word's own paragraphs (a table of contents, empty ones) skipped", () => {
  const word = ["Contents", "Introduction\t1", "", "Introduction", "The server keeps a list of clients.", "Name", "Value", "", "",
                "Note\u000bThe list is kept for one hour.", "The server keeps a list of clients.", ""];
  const { para, line } = alignParagraphs(word, bodyLines(units));
  assert.equal(para.get("s1#0"), 3);
  assert.equal(para.get("p1#0"), 4, "the first of two equal paragraphs is the first");
  assert.equal(para.get("p3#0"), 10, "the second of two equal paragraphs is the second");
  assert.deepEqual([para.get("t1#0"), para.get("t1#1"), para.get("t1#2"), para.get("t1#3")], [5, 6, 7, 8]);
  assert.equal(para.get("p2#0"), 9, "a manual line break is U+000B in Word, U+2028 in LEDGER");
  assert.equal(line[0], null);
  assert.equal(line[1], null);
});

test("a paragraph the user changed since the upload is paired by its place and its words; one they deleted is not found", () => {
  const word = ["Introduction", "The server keeps a long list of known clients.", "Name", "Value", "", "",
                "The server keeps a list of clients."];
  const { para, exact } = alignParagraphs(word, bodyLines(units));
  assert.equal(para.get("p1#0"), 1);
  assert.ok(!exact.has("p1#0"));
  assert.equal(para.get("p2#0"), undefined);
  assert.equal(para.get("p3#0"), 6);
  assert.ok(similarity("The server keeps a list of clients.", "The server keeps a long list of known clients.") >= 0.5);
});

test("inside a paragraph, LEDGER's offsets land on Word's: tracked deletions, line breaks and Word's marks between", () => {
  const ledger = "the connection identifier\u2028is long";
  const word = "the connection IDidentifier\u000bis\u0002 long";
  const map = offsetMap(ledger, word);
  const at = ledger.indexOf("identifier");
  assert.deepEqual(map.span(at, at + 10), { start: 17, end: 27, same: true });
  assert.equal(word.slice(17, 27), "identifier");
  const is = ledger.indexOf("is");
  assert.deepEqual(map.span(is, is + 7), { start: 28, end: 36, same: true }); // "is\u0002 long"
  // an insertion point lands just after the character before it (before the deleted "ID": the
  // text as it stands reads the same either side of a deletion)
  assert.equal(map.span(at, at).start, 15);
  assert.equal(offsetMap("abc", "xyz").span(0, 3).same, false);
});

test("a unit whose lines are one paragraph in Word (a code block with line breaks) is found whole", async () => {
  const { planOperations } = await import("../../static/js/plan.js");
  const code = '{\n  "type": "user-account",\n  "user_id": "1001"\n}';
  const us = [{ id: "h", kind: "section", order: 0, text: "Example" }, { id: "c", kind: "paragraph", order: 1, text: code },
              { id: "n", kind: "paragraph", order: 2, text: "Next." }];
  const word = ["Example", '{\u000b  "type": "user-account",\u000b  "user_id": "1001"\u000b}', "Next."];
  const { para, joined } = alignParagraphs(word, bodyLines(us));
  assert.deepEqual([para.get("c#0"), para.get("c#3")], [1, 1]);
  assert.ok(joined.has("c"));
  const at = code.indexOf("1001");
  const plan = planOperations([{ id: "d", op: "delete", unit: "c", before: code },
                               { id: "r", op: "replace", unit: "c", before: code, start: at, end: at + 4, text: "1002" }], us, word);
  assert.deepEqual(plan.failures, []);
  assert.deepEqual(plan.steps.find((x) => x.op === "d").paras, [1]);
  const edit = plan.steps.find((x) => x.op === "r");
  assert.equal(word[1].slice(edit.start, edit.end), "1001");
});
