// Unit tests of the text planning: word-level hunks, Word's 255-character search limit, escaping.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  WORD_SEARCH_LIMIT, escapeSearch, hunksForOperation, locateInLine, normalizeText, occurrences,
  paragraphProbe, searchPrefix, searchSuffix, wordDiff,
} from "../../static/js/textplan.js";

const applyHunks = (a, hunks) => {
  let out = a;
  for (const h of [...hunks].sort((x, y) => y.start - x.start)) out = out.slice(0, h.start) + h.text + out.slice(h.end);
  return out;
};

test("wordDiff touches only the words that differ", () => {
  const a = "Payment is due within 30 days of the invoice date.";
  const b = "Payment is due within 45 days of the invoice date.";
  assert.deepEqual(wordDiff(a, b), [{ start: 22, end: 24, text: "45" }]);
  assert.equal(applyHunks(a, wordDiff(a, b)), b);
});

test("wordDiff: insertions, deletions and several hunks rebuild the new text", () => {
  const cases = [
    ["the fee", "the annual fee"],
    ["see Figure 3 and Table 2.", "see Figure 4 and Table 2, then Table 5."],
    ["Remove this sentence. Keep this one.", "Keep this one."],
    ["", "All new"],
    ["Old text", ""],
  ];
  for (const [a, b] of cases) assert.equal(applyHunks(a, wordDiff(a, b)), b, `${a} -> ${b}`);
  const [ins] = wordDiff("the fee", "the annual fee");
  assert.equal(ins.start, ins.end, "a pure insertion deletes nothing");
  assert.equal(ins.text, "annual ");
});

test("hunksForOperation: a replace diffs inside its span, offsets into before", () => {
  const before = "Section 2 cites Figure 3 twice: Figure 3.";
  const op = { op: "replace", unit: "p-1", before, start: 32, end: 40, text: "Figure 4" };
  assert.deepEqual(hunksForOperation(op), [{ start: 39, end: 40, text: "4" }]);
  const set = { op: "set_text", unit: "p-1", before: "a b c", text: "a x c" };
  assert.deepEqual(hunksForOperation(set), [{ start: 2, end: 3, text: "x" }]);
});

test("escapeSearch spells Word's special characters", () => {
  assert.equal(escapeSearch("a^b\tc\u000bd\u00a0e"), "a^^b^tc^ld^se");
});

test("searchPrefix/searchSuffix never exceed the 255-character limit, escapes counted", () => {
  const long = "x".repeat(300);
  assert.equal(searchPrefix(long).length, WORD_SEARCH_LIMIT);
  assert.equal(searchSuffix(long).length, WORD_SEARCH_LIMIT);
  const carets = "^".repeat(200);
  assert.equal(escapeSearch(searchPrefix(carets)).length, 254, "127 carets escape to 254 characters");
});

test("occurrences are non-overlapping, left to right, like Word's search", () => {
  assert.deepEqual(occurrences("aaaa", "aa"), [0, 2]);
  assert.deepEqual(occurrences("Figure 3, Figure 30", "Figure 3"), [0, 10]);
});

test("locateInLine picks the right occurrence of repeated words", () => {
  const line = "Figure 3 shows it; see Figure 3.";
  const loc = locateInLine(line, { start: 30, end: 31, text: "4" });
  assert.equal(loc.kind, "replace");
  assert.equal(loc.search, "3");
  assert.equal(loc.occurrence, 1);
  assert.equal(loc.count, 2);
});

test("locateInLine splits a passage longer than 255 characters into head and tail searches", () => {
  const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
  const line = `Intro. ${words} Outro.`;
  const loc = locateInLine(line, { start: 7, end: 7 + words.length, text: "short" });
  assert.ok(Array.isArray(loc.search));
  assert.ok(loc.search.every((s) => s.length <= WORD_SEARCH_LIMIT));
  assert.ok(words.startsWith(loc.search[0]) && words.endsWith(loc.search[1]));
  assert.deepEqual(loc.occurrence, [0, 0]);
});

test("locateInLine anchors an insertion on the next word (Before) or the previous one (After)", () => {
  const before = locateInLine("the fee is due", { start: 4, end: 4, text: "annual " });
  assert.deepEqual([before.kind, before.search, before.location], ["insert", "fee", "Before"]);
  const after = locateInLine("the fee", { start: 7, end: 7, text: " is waived" });
  assert.deepEqual([after.kind, after.search, after.location], ["insert", "fee", "After"]);
  assert.equal(locateInLine("", { start: 0, end: 0, text: "x" }).kind, "start");
});

test("paragraphProbe and normalizeText", () => {
  assert.equal(paragraphProbe("   "), null);
  assert.equal(paragraphProbe("y".repeat(400)).length, WORD_SEARCH_LIMIT);
  assert.equal(normalizeText(" a\t b\u000bc\u00a0 "), "a b c");
});

test("Word's characters read as LEDGER's: a manual line break, the non-breaking and optional hyphens, Word's marks", async () => {
  const { fromWord, paragraphKey, escapeSearch, searchable } = await import("../../static/js/textplan.js");
  assert.equal(fromWord("a\u000bb e\u001email opt\u001fional\u0002 pic\u0001"), "a\u2028b e\u2011mail opt\u00adional pic");
  assert.equal(paragraphKey("Line one\u000bline two\u000c"), paragraphKey("Line one\u2028line two"));
  assert.equal(escapeSearch("a\u2028b\u001ec\u001fd^"), "a^lb^~c^-d^^");
  assert.equal(searchable("note\u0002"), false);
  assert.equal(searchable("tab\there\u000b"), true);
});
