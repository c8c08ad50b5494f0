// The pane's comments (WordApi 1.4 insertComment) and its review list (WordApi 1.6 trackedChanges).
import { test } from "node:test";
import assert from "node:assert/strict";
import { makeHost } from "./host.mjs";
import { applyOperations, resolveTrackedChange, supports, trackedChanges } from "../../static/js/word.js";

const unit = { id: "p-1", kind: "paragraph", order: 0, text: "See Table 2 for the yearly fees." };
const gone = { id: "p-2", kind: "paragraph", order: 1, text: "Table 1 lists the monthly fees." };
const ops = [
  { id: "op-1", op: "delete", unit: "p-2", before: gone.text, comment: "Deleted paragraph 'Table 1 lists…' (instruction: Delete Table 1)" },
  { id: "prop-1", op: "replace", unit: "p-1", start: 10, end: 11, text: "1", old: "2", before: unit.text, source: "op-1",
    comment: "Table 2 → Table 1: Table 1 was deleted (reference; instruction: Delete Table 1)" },
];

test("each operation's comment goes on the words it changes, once, when asked", async () => {
  const { Word, doc, calls } = makeHost([unit.text, gone.text]);
  const out = await applyOperations(Word, ops, [unit, gone], { comments: true });
  assert.deepEqual(out.failures, []);
  assert.equal(out.comments, 2);
  assert.deepEqual(doc.comments.map((c) => [c.text, c.range]), [
    [`LEDGER: ${ops[1].comment}`, "1"],          // on the new word
    [`LEDGER: ${ops[0].comment}`, gone.text],    // on the paragraph, before it is deleted
  ]);
  const i = calls.findIndex((c) => c.api === "range.insertComment" && c.range === gone.text);
  assert.ok(i < calls.findIndex((c) => c.api === "paragraph.delete"));
  const plain = makeHost([unit.text, gone.text]);
  assert.equal((await applyOperations(plain.Word, ops, [unit, gone])).comments, undefined);
  assert.deepEqual(plain.doc.comments, []);
});

test("the tracked changes are matched to their operations and accepted or rejected one by one", async () => {
  const { Word, host } = makeHost([unit.text, gone.text], { account: "Ada" });
  await applyOperations(Word, ops, [unit, gone], { comments: true });
  const changes = await trackedChanges(Word, ops);
  assert.deepEqual(changes.map((c) => [c.type, c.text, c.op, c.author]), [
    ["Deleted", "2", "prop-1", "Ada"], ["Added", "1", "prop-1", "Ada"], ["Deleted", gone.text, "op-1", "Ada"]]);
  assert.equal(changes[2].reason, ops[0].comment);
  assert.equal(await resolveTrackedChange(Word, 2, false), true);
  assert.deepEqual(host.texts(), ["See Table 21 for the yearly fees.", gone.text], "the deletion rejected: the paragraph is back");
  const left = await trackedChanges(Word, ops);
  assert.deepEqual(left.map((c) => c.op), ["prop-1", "prop-1"]);
});

test("requirement sets: comments from WordApi 1.4, the tracked-change list from 1.6", () => {
  const office = (max) => ({ context: { requirements: { isSetSupported: (n, v) => n === "WordApi" && Number(v) <= max } } });
  assert.equal(supports(office(1.4), "1.4"), true);
  assert.equal(supports(office(1.4), "1.6"), false);
  assert.equal(supports(office(1.6), "1.6"), true);
  assert.equal(supports(null, "1.4"), false);
});
