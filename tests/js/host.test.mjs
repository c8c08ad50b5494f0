// The scripted Word host (tests/js/browser/office-shim.js) behaves as the Office.js reference
// documents Word: each test quotes the reference (learn.microsoft.com/javascript/api/word, from
// OfficeDev/office-js-docs-reference, and "Use search options in your Word add-in to find text",
// OfficeDev/office-js-docs-pr docs/word/search-option-guidance.md) for the behaviour it holds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { makeHost } from "./host.mjs";

const run = (Word, fn) => Word.run(fn);

test("Word.Body.search: 'The search text. Can be a maximum of 255 characters.'", async () => {
  const { Word } = makeHost(["a".repeat(300)]);
  await run(Word, async (ctx) => {
    const ok = ctx.document.body.search("a".repeat(255), { matchCase: true });
    ok.load("items");
    await ctx.sync();
    assert.equal(ok.items.length, 1);
    const long = ctx.document.body.search("a".repeat(256), { matchCase: true });
    long.load("items");
    await assert.rejects(ctx.sync(), /255 characters/);
  });
});

test("search codes: 'Manual line break ^l', 'Tab mark ^t', 'Nonbreaking space ^s', 'Nonbreaking hyphen ^~', 'Optional hyphen ^-', 'Caret character ^^'", async () => {
  // Word keeps a manual line break as character 11 (Find's "^11 New line", Microsoft KB Q197855):
  // U+000B in Paragraph.text, where LEDGER's readers write U+2028
  const { Word } = makeHost(["one\u000btwo\tthree\u00a0four e\u001email opt\u001fional 2^3"]);
  await run(Word, async (ctx) => {
    const ps = ctx.document.body.paragraphs;
    ps.load("items/text");
    await ctx.sync();
    assert.equal(ps.items[0].text.indexOf("\u000b"), 3, "the manual line break is U+000B in the text");
    const found = ["one^ltwo", "two^tthree", "three^sfour", "e^~mail", "opt^-ional", "2^^3"].map((q) => {
      const r = ps.items[0].search(q, { matchCase: true });
      r.load("items");
      return r;
    });
    await ctx.sync();
    assert.deepEqual(found.map((r) => r.items.length), [1, 1, 1, 1, 1, 1]);
  });
});

test("properties: 'You must call context.sync() before reading the properties.'", async () => {
  const { Word } = makeHost(["Text"]);
  await run(Word, async (ctx) => {
    const p = ctx.document.body.paragraphs;
    p.load("items/text");
    assert.throws(() => p.items, /PropertyNotLoaded/);
    await ctx.sync();
    assert.equal(p.items[0].text, "Text");
    assert.throws(() => p.items[0].style, /PropertyNotLoaded/);
  });
});

test("ListItem.listString: 'Gets the list item bullet, number, or picture as a string.' -- apart from Paragraph.text", async () => {
  const { Word } = makeHost([{ text: "Scope", listString: "1.2" }, "Body text."]);
  await run(Word, async (ctx) => {
    const ps = ctx.document.body.paragraphs;
    ps.load("items/text,items/isListItem");
    await ctx.sync();
    assert.deepEqual(ps.items.map((p) => [p.text, p.isListItem]), [["Scope", true], ["Body text.", false]]);
    const li = ps.items.map((p) => p.listItemOrNullObject.load("listString"));
    await ctx.sync();
    assert.equal(li[0].listString, "1.2");
    assert.equal(li[1].isNullObject, true);
  });
});

test("Paragraph.tableNestingLevel: 'Gets the level of the paragraph's table. It returns 0 if the paragraph isn't in a table.'", async () => {
  const { Word, host } = makeHost(["Before", { text: "cell 1", tableNestingLevel: 1, table: 1 }, { text: "cell 2", tableNestingLevel: 1, table: 1 }, "After"],
                                  { tracking: "TrackAll" });
  await run(Word, async (ctx) => {
    const ps = ctx.document.body.paragraphs;
    ps.load("items/text,items/tableNestingLevel");
    await ctx.sync();
    assert.deepEqual(ps.items.map((p) => p.tableNestingLevel), [0, 1, 1, 0]);
    // Table.delete: "Deletes the entire table."
    ps.items[2].parentTableOrNullObject.delete();
    await ctx.sync();
  });
  assert.deepEqual(host.view("accepted"), ["Before", "After"]);
});

test("fields: Field.showCodes 'false otherwise' -- the text shows 'the field's result data', never the code", async () => {
  // the host is given the text Word shows; word_paragraphs.py writes a field's result, as LEDGER's reader does
  const { Word } = makeHost(["See Section 3.2 for details."]);
  await run(Word, async (ctx) => {
    const hits = ctx.document.body.search("REF _Ref", { matchCase: true });
    hits.load("items");
    await ctx.sync();
    assert.equal(hits.items.length, 0, "no field code in the text");
  });
});

test("change tracking: with ChangeTrackingMode trackAll a replaced word stays as a deletion ('Gets the text of the tracked change.')", async () => {
  const { Word, host } = makeHost(["The old term here."], { account: "Ada" });
  await run(Word, async (ctx) => {
    ctx.document.changeTrackingMode = Word.ChangeTrackingMode.trackAll;
    const r = ctx.document.body.search("old", { matchCase: true });
    r.load("items");
    await ctx.sync();
    r.items[0].insertText("new", "Replace");
    await ctx.sync();
    const ps = ctx.document.body.paragraphs;
    ps.load("items/text");
    const tc = ctx.document.body.getTrackedChanges();
    tc.load("items");
    await ctx.sync();
    assert.equal(ps.items[0].text, "The oldnew term here.", "the deleted word is still in Paragraph.text");
    tc.items.forEach((c) => c.load("type,text,author"));
    await ctx.sync();
    assert.deepEqual(tc.items.map((c) => [c.type, c.text, c.author]), [["Deleted", "old", "Ada"], ["Added", "new", "Ada"]]);
    // Range.getReviewedText (WordApi 1.4): "Gets reviewed text based on ChangeTrackingVersion selection."
    const whole = ps.items[0].getRange();
    const cur = whole.getReviewedText("Current");
    const orig = whole.getReviewedText("Original");
    await ctx.sync();
    assert.deepEqual([cur.value, orig.value], ["The new term here.", "The old term here."]);
    // search finds the deleted words too, as Find does in the markup view
    const again = ctx.document.body.search("old", { matchCase: true });
    again.load("items");
    await ctx.sync();
    assert.equal(again.items.length, 1);
  });
  assert.deepEqual(host.view("accepted"), ["The new term here."]);
  assert.deepEqual(host.view("rejected"), ["The old term here."]);
});

test("Paragraph.delete: 'Deletes the paragraph and its content from the document.' -- tracked, it stays until accepted", async () => {
  const { Word, host } = makeHost(["Keep.", "Gone."], { tracking: "TrackAll" });
  await run(Word, async (ctx) => {
    const ps = ctx.document.body.paragraphs;
    ps.load("items/text");
    await ctx.sync();
    ps.items[1].delete();
    await ctx.sync();
  });
  assert.deepEqual(host.texts(), ["Keep.", "Gone."]);
  assert.deepEqual(host.view("accepted"), ["Keep."]);
  assert.deepEqual(host.changes().map((c) => [c.type, c.text]), [["Deleted", "Gone."]]);
});

test("Application.createDocument (WordApi 1.3) opens a new document: the open one is not touched", async () => {
  const { Word, host, calls } = makeHost(["Mine."]);
  await run(Word, async (ctx) => {
    ctx.application.createDocument("UEsDBA==").open();
    await ctx.sync();
  });
  assert.deepEqual(host.opened(), [8]);
  assert.deepEqual(host.texts(), ["Mine."]);
  assert.ok(!calls.some((c) => c.api === "body.insertFileFromBase64"));
});

test("Document.onParagraphChanged (WordApi 1.6): 'Occurs when the user changes paragraphs.' -- the user's typing, not the add-in's", async () => {
  const { Word, host } = makeHost(["One.", "Two."], { tracking: "TrackAll" });
  const seen = [];
  await run(Word, async (ctx) => {
    ctx.document.onParagraphChanged.add(async (e) => { seen.push(e.type); });
    await ctx.sync();
    const ps = ctx.document.body.paragraphs;
    ps.load("items/text");
    await ctx.sync();
    ps.items[0].insertText(" More.", "End");
    await ctx.sync();
  });
  assert.deepEqual(seen, []);
  host.retype(1, "Two", "Three");
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(seen, ["paragraphChanged"]);
  assert.deepEqual(host.view("accepted"), ["One. More.", "Three."]);
});
