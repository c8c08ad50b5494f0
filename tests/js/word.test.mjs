// The Word apply step against the scripted host (tests/js/host.mjs: the office-shim the browser
// test serves): paragraphs placed by position, words checked by search within Word's limits,
// every change that can be placed applied with tracking on, the rest listed with why.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyOperations, readParagraphs, selectUnit, selectedParagraph, selectedUnit, wordAt } from "../../static/js/word.js";
import { makeHost } from "./host.mjs";

const P1 = "Payment is due within 30 days of the invoice date.";
const P2 = "Late payments carry interest; see Section 2 for the 30 days.";
const units = [
  { id: "sec-1", kind: "section", order: 0, text: "Terms" },
  { id: "p-1", kind: "paragraph", order: 1, text: P1 },
  { id: "p-2", kind: "paragraph", order: 2, text: P2 },
];
const edits = (calls) => calls.filter((c) => c.api === "range.insertText").map((c) => [c.range, c.text, c.location]);

test("a replace turns tracking on first, then replaces only the changed word", async () => {
  const { Word, calls, host } = makeHost(["Terms", P1, P2]);
  const op = { id: "e1", op: "replace", unit: "p-1", before: P1, start: 22, end: 29, text: "45 days", old: "30 days" };
  const res = await applyOperations(Word, [op], units);
  assert.deepEqual(res, { applied: 1, written: ["e1"], failures: [] });
  const first = calls.findIndex((c) => c.api === "document.changeTrackingMode");
  const edit = calls.findIndex((c) => c.api === "range.insertText");
  assert.ok(first !== -1 && first < edit, "tracking is set before the first edit");
  assert.equal(calls[first].value, "TrackAll");
  assert.deepEqual(edits(calls), [["30", "45", "Replace"]]);
  assert.deepEqual(host.changes().map((c) => [c.type, c.text]), [["Deleted", "30"], ["Added", "45"]]);
  assert.deepEqual(host.view("accepted"), ["Terms", P1.replace("30", "45"), P2]);
  assert.deepEqual(host.view("rejected"), ["Terms", P1, P2]);
  assert.ok(!calls.some((c) => c.api === "UNTRACKED"));
});

test("a paragraph is found by its place, not by a search: the body is read once, equal paragraphs told apart by order", async () => {
  const twice = "The rate is 30 days.";
  const us = [{ id: "a", kind: "paragraph", order: 0, text: twice }, { id: "b", kind: "paragraph", order: 1, text: "Middle." },
              { id: "c", kind: "paragraph", order: 2, text: twice }];
  const { Word, calls, host } = makeHost([twice, "Middle.", twice]);
  const res = await applyOperations(Word, [{ id: "o", op: "replace", unit: "c", before: twice, start: 12, end: 14, text: "45" }], us);
  assert.equal(res.applied, 1);
  assert.deepEqual(host.view("accepted"), [twice, "Middle.", "The rate is 45 days."]);
  assert.equal(calls.filter((c) => c.api === "body.paragraphs").length, 1);
  assert.ok(!calls.some((c) => c.api === "body.search"), "no paragraph is searched for");
  assert.deepEqual(calls.filter((c) => c.api === "paragraph.search").map((c) => c.text), ["30"]);
});

test("a manual line break (U+000B in Word, U+2028 in LEDGER) does not stop a change: issue 29's one Shift+Enter", async () => {
  const ledger = "Informative comment\u2028The Server may disconnect the Client.";
  const { Word, host } = makeHost(["Informative comment\u000bThe Server may disconnect the Client."]);
  const at = ledger.indexOf("Server");
  const res = await applyOperations(Word, [{ id: "o", op: "replace", unit: "p", before: ledger, start: at, end: at + 6, text: "Gateway", old: "Server" }],
                                    [{ id: "p", kind: "paragraph", order: 0, text: ledger }]);
  assert.deepEqual(res.failures, []);
  assert.deepEqual(host.view("accepted"), ["Informative comment\u000bThe Gateway may disconnect the Client."]);
  // a change across the break: Word's search gets ^l for it
  const h2 = makeHost(["first\u000bsecond"]);
  const r2 = await applyOperations(h2.Word, [{ id: "o", op: "replace", unit: "p", before: "first\u2028second", start: 0, end: 12, text: "one two" }],
                                   [{ id: "p", kind: "paragraph", order: 0, text: "first\u2028second" }]);
  assert.deepEqual(r2.failures, []);
  assert.ok(h2.calls.some((c) => c.api === "paragraph.search" && c.text.includes("^l")), JSON.stringify(h2.calls.filter((c) => c.api.endsWith("search"))));
});

test("tracked deletions stay in Word's text: a second edit still lands, beside them", async () => {
  const { Word, host } = makeHost([{ runs: [{ text: "the connection " }, { text: "ID", del: true }, { text: "identifier", ins: true }, { text: " is long" }] }]);
  const ledger = "the connection identifier is long";
  const res = await applyOperations(Word, [{ id: "o", op: "replace", unit: "p", before: ledger, start: 4, end: 14, text: "link", old: "connection" }],
                                    [{ id: "p", kind: "paragraph", order: 0, text: ledger }]);
  assert.deepEqual(res.failures, []);
  assert.deepEqual(host.view("accepted"), ["the link identifier is long"]);
  assert.deepEqual(host.view("rejected"), ["the connection ID is long"]);
});

test("list numbers are apart from the text (listString), and read with the paragraphs", async () => {
  const { Word } = makeHost([{ text: "Overview", listString: "1." }, { text: "Scope of the work", listString: "1.1" }, "Plain text."]);
  const { paras } = await Word.run(async (context) => readParagraphs(context));
  assert.deepEqual(paras.map((p) => [p.text, p.listString]), [["Overview", "1."], ["Scope of the work", "1.1"], ["Plain text.", null]]);
});

test("paragraphs longer than 255 characters: only the words are searched, within the limit", async () => {
  const long = `${"Clause text ".repeat(40)}ends with 30 days.`;
  assert.ok(long.length > 255);
  const { Word, calls, host } = makeHost(["Short", long]);
  const start = long.lastIndexOf("30");
  const res = await applyOperations(Word, [{ id: "o", op: "replace", unit: "p-l", before: long, start, end: start + 2, text: "45" }],
                                    [{ id: "p-l", kind: "paragraph", order: 0, text: long }]);
  assert.equal(res.applied, 1, JSON.stringify(res));
  for (const c of calls.filter((x) => x.api.endsWith(".search"))) assert.ok(c.text.length <= 255, `search of ${c.text.length} chars`);
  assert.equal(host.view("accepted")[1], long.replace("30 days", "45 days"));
});

test("a change of more than 255 characters is found by head and tail searches joined with expandTo", async () => {
  const middle = Array.from({ length: 70 }, (_, i) => `w${i}`).join(" ");
  const p = `Start ${middle} end.`;
  const { Word, calls, host } = makeHost([p]);
  const res = await applyOperations(Word, [{ id: "o", op: "replace", unit: "p-m", before: p, start: 6, end: 6 + middle.length, text: "short" }],
                                    [{ id: "p-m", kind: "paragraph", order: 0, text: p }]);
  assert.equal(res.applied, 1, JSON.stringify(res));
  assert.ok(calls.some((c) => c.api === "range.expandTo"));
  assert.equal(host.view("accepted")[0], "Start short end.");
});

test("set_text is applied as word-level hunks, later words first", async () => {
  const { Word, calls, host } = makeHost([P1]);
  const res = await applyOperations(Word, [{ id: "o", op: "set_text", unit: "p-1", before: P1, text: "Payment is due within 45 days of the receipt date." }], [units[1]]);
  assert.equal(res.applied, 2);
  assert.deepEqual(edits(calls).map(([a, b]) => [a, b]), [["invoice", "receipt"], ["30", "45"]]);
  assert.deepEqual(host.view("accepted"), ["Payment is due within 45 days of the receipt date."]);
});

test("insertions, deletions, new paragraphs and deleted paragraphs; a deleted paragraph stays in Word until accepted", async () => {
  const { Word, host } = makeHost(["Terms", P1, P2]);
  const ops = [
    { id: "a", op: "replace", unit: "p-1", before: P1, start: 0, end: 0, text: "Unless agreed otherwise, " },
    { id: "b", op: "replace", unit: "p-2", before: P2, start: 30, end: 44, text: "" },
    { id: "c", op: "insert_after", unit: "p-2", before: P2, text: "A new closing paragraph." },
    { id: "d", op: "delete", unit: "sec-1", before: "Terms" },
  ];
  const res = await applyOperations(Word, ops, units);
  assert.equal(res.failures.length, 0, JSON.stringify(res));
  assert.deepEqual(host.view("accepted"), [`Unless agreed otherwise, ${P1}`, "Late payments carry interest; for the 30 days.", "A new closing paragraph."]);
  assert.deepEqual(host.view("rejected"), ["Terms", P1, P2]);
  assert.equal(host.texts()[0], "Terms", "the deleted heading is still a paragraph of the body, struck through");
});

test("every change that can be placed is applied; the others are listed with the paragraph's words", async () => {
  // the user rewrote the second paragraph after the upload
  const { Word, host } = makeHost(["Terms", P1, "Late fees are waived."]);
  const ops = [
    { id: "ok", op: "replace", unit: "p-1", before: P1, start: 22, end: 24, text: "45", old: "30" },
    { id: "gone", op: "replace", unit: "p-2", before: P2, start: 52, end: 54, text: "45", old: "30" },
  ];
  const res = await applyOperations(Word, ops, units);
  assert.deepEqual(res.written, ["ok"]);
  assert.equal(res.failures.length, 1);
  assert.equal(res.failures[0].op, "gone");
  assert.match(res.failures[0].reason, /no longer has "30"|not in the document as Word has it/);
  assert.ok(res.failures[0].words.length > 5, res.failures[0].words);
  assert.deepEqual(host.view("accepted"), ["Terms", P1.replace("30", "45"), "Late fees are waived."]);
});

test("the server writes exactly what Word can place, before Word changes anything; a server failure changes nothing", async () => {
  const { Word, host } = makeHost(["Terms", P1, "Something else entirely."]);
  const ops = [
    { id: "ok", op: "replace", unit: "p-1", before: P1, start: 22, end: 24, text: "45", old: "30" },
    { id: "gone", op: "replace", unit: "p-2", before: P2, start: 52, end: 54, text: "45", old: "30" },
  ];
  const seen = [];
  await applyOperations(Word, ops, units, { commit: async (ids) => { seen.push(ids); assert.deepEqual(host.changes(), []); return ids; } });
  assert.deepEqual(seen, [["ok"]]);
  const h2 = makeHost(["Terms", P1, P2]);
  await assert.rejects(applyOperations(h2.Word, ops, units, { commit: async () => { throw Object.assign(new Error("down"), { code: "unreachable" }); } }),
                       (e) => e.code === "unreachable");
  assert.deepEqual(h2.host.changes(), []);
  assert.deepEqual(h2.host.texts(), ["Terms", P1, P2]);
});

test("a table is deleted whole through its parent table; its cells are paragraphs of the body", async () => {
  const cell = (text) => ({ text, tableNestingLevel: 1, table: 7 });
  const { Word, calls, host } = makeHost(["Before", cell("Bits"), cell("Type"), cell("0x00"), cell("Client"), "After"]);
  const us = [{ id: "b", kind: "paragraph", order: 0, text: "Before" }, { id: "t", kind: "table", order: 1, text: "Bits\nType\n0x00\nClient" },
              { id: "a", kind: "paragraph", order: 2, text: "After" }];
  const res = await applyOperations(Word, [{ id: "o", op: "delete", unit: "t", before: "Bits\nType\n0x00\nClient" }], us);
  assert.deepEqual(res.failures, []);
  assert.ok(calls.some((c) => c.api === "table.delete"));
  assert.deepEqual(host.view("accepted"), ["Before", "After"]);
  assert.deepEqual(host.view("rejected"), ["Before", "Bits", "Type", "0x00", "Client", "After"]);
});

test("selection and jump: the selected paragraph's text, and select() on a unit's paragraph by its place", async () => {
  const { Word, calls, doc, host } = makeHost(["Terms", P1, P2]);
  doc.selection = 2;
  assert.equal(await selectedParagraph(Word), P2);
  assert.deepEqual(await selectedUnit(Word, units), { text: P2, unit: "p-2" });
  assert.equal(await selectUnit(Word, units[1], units), true);
  assert.deepEqual(calls.filter((c) => c.api === "paragraph.select").map((c) => c.paragraph), [P1]);
  // after the user rewrote it, Go to still finds it by its place
  host.retype(1, "invoice", "billing");
  assert.equal(await selectUnit(Word, units[1], units), true);
  assert.equal(await selectUnit(Word, { id: "zz", kind: "paragraph", text: "Not there" }, [...units, { id: "zz", kind: "paragraph", order: 9, text: "Not there" }]), false);
});

test("a piece of a tracked change is found as whole words first: 'ID' is not the start of 'IDs'", () => {
  assert.equal(wordAt("connection IDs", "ID"), -1);
  assert.equal(wordAt("IDs and the ID", "ID"), 12);
  assert.equal(wordAt("connection ID", "ID"), 11);
  assert.equal(wordAt("connection IDs", "ID", true), 11); // a host that splits inside words
  assert.equal(wordAt("Table 2", "2"), 6);
});

test("a word the user deleted with tracking on is still in Word's text: the change is not written on the deletion (WordApi 1.4 getReviewedText)", async () => {
  const ledger = "Summarize existing approaches for baseline fingerprinting.";
  const { Word, host } = makeHost([ledger], { tracking: "TrackAll", account: "Ada" });
  host.retype(0, "baseline", "base line"); // Word's text: "…for baselinebase line fingerprinting."
  const at = ledger.indexOf("baseline");
  const op = { id: "o", op: "replace", unit: "p", before: ledger, start: at, end: at + 8, text: "reference run", old: "baseline" };
  const units = [{ id: "p", kind: "paragraph", order: 0, text: ledger }];
  const res = await applyOperations(Word, [op], units, { reviewed: true });
  assert.deepEqual(res.written, []);
  assert.match(res.failures[0].reason, /"baseline" was deleted in Word since the document was read/);
  assert.equal(res.failures[0].words, "Summarize existing approaches for base line fingerprinting.");
  assert.deepEqual(host.view("accepted"), ["Summarize existing approaches for base line fingerprinting."]);
  // beside an earlier tracked change, the words as they stand are the place
  const h2 = makeHost([{ runs: [{ text: "the connection " }, { text: "ID", del: true }, { text: "identifier", ins: true }, { text: " is long" }] }]);
  const l2 = "the connection identifier is long";
  const r2 = await applyOperations(h2.Word, [{ id: "o", op: "replace", unit: "p", before: l2, start: 4, end: 25, text: "link name", old: "connection identifier" }],
                                   [{ id: "p", kind: "paragraph", order: 0, text: l2 }], { reviewed: true });
  assert.deepEqual(r2.failures, []);
  assert.deepEqual(h2.host.view("accepted"), ["the link name is long"]);
});
