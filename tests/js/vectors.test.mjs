// The task pane's tokenizer and normaliser against the specifications the server (adapters/words.py,
// adapters/text.py) and the LibreOffice bridge (ledger_client.py) run too: tests/vectors/*.json.
// Offsets in the vectors count code points; JavaScript strings count UTF-16 units.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  codePointCount, hunksForOperation, normalizeText, tokenize, utf16Index, wordDiff, wordSpans, words,
} from "../../static/js/textplan.js";

const load = (name) => JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), "utf8"));
const cpSlice = (s, a, b) => Array.from(s).slice(a, b).join("");

for (const c of load("words.json")) {
  test(`words: ${c.note}`, () => {
    assert.deepEqual(wordSpans(c.text), c.words, JSON.stringify(words(c.text)));
    assert.deepEqual(words(c.text), c.words.map(([a, b]) => cpSlice(c.text, a, b)));
    // the diff's tokens hold the same words, and joined give the text back
    const toks = tokenize(c.text);
    assert.equal(toks.join(""), c.text);
    assert.deepEqual(toks.filter((t) => words(t).length === 1 && words(t)[0] === t), words(c.text));
  });
}

for (const c of load("normalise.json")) {
  test(`normalise: ${c.note}`, () => {
    assert.equal(normalizeText(c.text), c.squash);
  });
}

test("code points and UTF-16 units convert both ways around astral characters", () => {
  const s = "a\u{1D465}b\u{20000}c";
  assert.equal(s.length, 7);
  assert.equal(codePointCount(s), 5);
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((cp) => utf16Index(s, cp)), [0, 1, 3, 4, 6, 7]);
  assert.equal(utf16Index(s, 99), s.length);
});

test("a server replace over astral text is placed by code points", () => {
  // the server counts "𝑥" as one character: "rate" starts at 2 (code points), at 3 in UTF-16
  const before = "\u{1D465} rate 3.5 % applies";
  const op = { op: "replace", before, start: 2, end: 12, text: "rate 3.75 %" };
  const [h] = hunksForOperation(op);
  assert.deepEqual(h, { start: 8, end: 11, text: "3.75" });
  assert.equal(before.slice(h.start, h.end), "3.5");
});

test("a compound, a contraction or a decimal changes as one whole word", () => {
  assert.deepEqual(wordDiff("a 30-day term", "a 60-day term"), [{ start: 2, end: 8, text: "60-day" }]);
  assert.deepEqual(wordDiff("we don't pay", "we can't pay"), [{ start: 3, end: 8, text: "can't" }]);
});
