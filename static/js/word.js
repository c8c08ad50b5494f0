// The Word side: read the document's paragraphs once (body.paragraphs: text, table nesting,
// list strings), place each operation by position (plan.js, align.js), check with search()
// that Word sees the words where the plan puts them, then apply with change tracking on;
// select a unit, read the selection, list and decide tracked changes. Every function takes the
// Word namespace as an argument (the real one in Word, the scripted host in tests).
import { escapeSearch, fromWord, normalizeText, paragraphKey } from "./textplan.js";
import { alignParagraphs, bodyLines, paragraphWords } from "./align.js";
import { planOperations } from "./plan.js";

const SEARCH = { matchCase: true };

function trackAll(Word) {
  return Word.ChangeTrackingMode?.trackAll ?? "TrackAll";
}

/** Whether the host offers a WordApi requirement set (``1.3``: list strings, new documents;
 * ``1.4``: comments; ``1.6``: tracked changes one by one, paragraph events); false outside Office. */
export function supports(Office, version) {
  return !!Office?.context?.requirements?.isSetSupported?.("WordApi", version);
}

/** Word's refusal in words. */
export function wordError(err) {
  const code = err?.code || err?.name || "Error";
  return `Word refused the change (${code}): ${err?.message || err}`;
}

/** The body's paragraphs as Word gives them, read in one go: ``{items, paras}`` where
 * ``paras[i]`` is ``{text, tableNestingLevel, listString}`` (the list number apart from the
 * text: WordApi 1.3 ``listItemOrNullObject.listString``; ``lists`` false for an older host). */
export async function readParagraphs(context, { lists = true } = {}) {
  const ps = context.document.body.paragraphs;
  ps.load(lists ? "items/text,items/tableNestingLevel,items/isListItem" : "items/text");
  await context.sync();
  const items = ps.items;
  let strings = null;
  if (lists && items.some((p) => p.isListItem)) {
    strings = items.map((p) => (p.isListItem ? p.listItemOrNullObject.load("listString") : null));
    await context.sync();
  }
  const paras = items.map((p, i) => ({
    text: p.text,
    tableNestingLevel: lists ? p.tableNestingLevel : 0,
    listString: strings?.[i] && !strings[i].isNullObject ? strings[i].listString : null,
  }));
  return { items, paras };
}

/** Checks every ``edit`` step with search() inside its paragraph: Word must find the words
 * as often as the plan counted them in Word's own text, so the n-th hit is the right one.
 * Returns ``{ranges: Map step -> Word.Range, failures: [{op, reason}]}``. */
async function checkRanges(context, items, steps, { reviewed = false } = {}) {
  const pending = steps.filter((s) => s.type === "edit" && s.kind !== "start").map((s) => {
    const parts = Array.isArray(s.search) ? s.search : [s.search];
    return { s, hits: parts.map((q) => { const h = items[s.para].search(escapeSearch(q), SEARCH); h.load("items"); return h; }) };
  });
  if (pending.length) await context.sync();
  const ranges = new Map();
  const failures = [];
  const expanded = [];
  for (const { s, hits } of pending) {
    const counts = Array.isArray(s.count) ? s.count : [s.count];
    const occ = Array.isArray(s.occurrence) ? s.occurrence : [s.occurrence];
    if (!hits.every((h, i) => h.items.length === counts[i])) {
      const q = Array.isArray(s.search) ? s.search[0] : s.search;
      failures.push({ op: s.op, reason: `Word finds "${q.slice(0, 40)}" ${hits[0].items.length} time(s) in the paragraph where LEDGER counts ${counts[0]}` });
      continue;
    }
    let range = hits[0].items[occ[0]];
    if (hits.length === 2) {
      range = range.expandTo(hits[1].items[occ[1]]);
      range.load("text");
      expanded.push({ s, range });
    }
    ranges.set(s, range);
  }
  // WordApi 1.4 Range.getReviewedText("Current"): the words as they stand, tracked changes taken;
  // a range on words the user deleted with tracking on (still in Paragraph.text) is not the place
  const current = reviewed ? [...ranges].map(([s, r]) => ({ s, now: r.getReviewedText("Current") })) : [];
  if (expanded.length || current.length) await context.sync();
  for (const { s, range } of expanded) {
    if (normalizeText(range.text) !== normalizeText(s.old)) {
      failures.push({ op: s.op, reason: "the long passage to change reads differently in Word" });
      ranges.delete(s);
    }
  }
  const gone = [];
  for (const { s, now } of current) {
    if (!ranges.has(s)) continue;
    const here = paragraphKey(now.value).replace(/ /g, "");
    const want = paragraphKey(s.kind === "insert" ? s.search : s.expect ?? s.old).replace(/ /g, "");
    const ok = s.kind === "insert" ? here.length > 0 && want.includes(here) : here.includes(want);
    if (!ok) {
      const was = String(s.expect ?? s.search).slice(0, 40);
      const reason = here ? `Word has "${fromWord(now.value).slice(0, 40)}" where LEDGER read "${was}" (changed since the document was read)`
        : `"${was}" was deleted in Word since the document was read`;
      gone.push({ s, failure: { op: s.op, reason } });
      ranges.delete(s);
    }
  }
  if (gone.length) {
    // the paragraph's words as they stand now, for the message (its text still holds the deletion)
    const words = gone.map(({ s }) => items[s.para].getRange().getReviewedText("Current"));
    await context.sync();
    gone.forEach(({ failure }, i) => failures.push({ ...failure, words: paragraphWords(words[i].value) }));
  }
  return { ranges, failures };
}

/** Adds each operation's ``comment`` (the server's text: what changed and why) to the first
 * range that operation changed; one comment per operation. Word writes an add-in's comments
 * under the signed-in account, so the text says who wrote it: "LEDGER: …". */
function commenter(ops) {
  const texts = new Map((ops || []).filter((o) => o.comment && o.id).map((o) => [o.id, o.comment]));
  const done = new Set();
  let count = 0;
  return {
    add(opId, range) {
      const text = texts.get(opId);
      if (!text || done.has(opId) || !range?.insertComment) return;
      done.add(opId);
      range.insertComment(`LEDGER: ${text}`);
      count += 1;
    },
    get count() { return count; },
  };
}

/** Writes the placed steps: word changes later-first inside each paragraph, then paragraphs
 * inserted, deleted (a table whole) and moved, each paragraph by its position. */
function write(items, steps, ranges, notes) {
  const edits = steps.filter((s) => s.type === "edit").sort((a, b) => a.para - b.para || b.start - a.start);
  for (const s of edits) {
    const para = items[s.para];
    if (s.kind === "start") { notes.add(s.op, para.insertText(s.text, "Start")); continue; }
    const range = ranges.get(s);
    if (s.kind === "insert") notes.add(s.op, range.insertText(s.text, s.location));
    else if (s.text === "") { notes.add(s.op, range); range.delete(); }
    else notes.add(s.op, range.insertText(s.text, "Replace"));
  }
  for (const s of steps) {
    if (s.type === "insert_paragraph") {
      let anchor = s.table ? items[s.para].parentTableOrNullObject : items[s.para];
      for (const text of s.lines) {
        anchor = anchor.insertParagraph(text, "After");
        if (s.style) anchor.style = s.style;
        notes.add(s.op, anchor.getRange?.());
      }
    } else if (s.type === "delete_paragraph") {
      for (const p of s.paras) { notes.add(s.op, items[p].getRange?.()); items[p].delete(); }
      for (const p of s.tables) { notes.add(s.op, items[p].getRange?.()); items[p].parentTableOrNullObject.delete(); }
    } else if (s.type === "move") {
      let anchor = items[s.dest];
      if (s.location === "After") {
        for (const text of s.lines) { anchor = anchor.insertParagraph(text, "After"); notes.add(s.op, anchor.getRange?.()); }
      } else {
        for (const text of s.lines) notes.add(s.op, anchor.insertParagraph(text, "Before").getRange?.());
      }
      s.paras.forEach((p) => items[p].delete());
    }
  }
}

/** Applies ``ops`` (ROUTES.md Operations) to the open document as tracked changes, every one
 * that can be placed.
 *
 * Change tracking is switched to ``trackAll`` first; the paragraphs are read once and each
 * operation placed by position (``planOperations``); search() checks every word range; an
 * operation is placed whole or not at all. ``commit(placedIds)`` (optional, async) is called
 * before Word changes anything, with the ids that can be placed, and returns the ids to write
 * (the server's apply of exactly those); when it throws, nothing changes in Word and the error
 * goes on. With ``comments`` (WordApi 1.4) each operation's ``comment`` becomes a Word comment
 * on the words it changed. ``lists`` (WordApi 1.3) reads list strings with the paragraphs;
 * ``reviewed`` (WordApi 1.4) checks each range's words as they stand, tracked changes taken.
 * Returns ``{applied: n, written: [op ids], failures: [{op, unit, reason, words}], comments?}``;
 * Word's own refusal while writing throws a ``WordWriteError``. */
export async function applyOperations(Word, ops, units = [], { comments = false, commit = null, lists = true, reviewed = false } = {}) {
  return Word.run(async (context) => {
    context.document.changeTrackingMode = trackAll(Word);
    const { items, paras } = await readParagraphs(context, { lists });
    const plan = planOperations(ops, units, paras);
    const { ranges, failures: checked } = await checkRanges(context, items, plan.steps, { reviewed });
    const failures = [...plan.failures];
    const bad = new Set();
    for (const f of checked) {
      if (bad.has(f.op)) continue;
      bad.add(f.op);
      const s = plan.steps.find((x) => x.op === f.op);
      const op = (ops || []).find((o) => o.id === f.op);
      failures.push({ ...f, unit: op?.unit ?? null, words: f.words ?? (s && s.para != null ? paragraphWords(paras[s.para].text) : "") });
    }
    const placed = (ops || []).map((o) => o.id).filter((id) => plan.placed.has(id) && !bad.has(id));
    const write_ = commit ? new Set(await commit(placed)) : new Set(placed);
    const steps = plan.steps.filter((s) => write_.has(s.op));
    if (!steps.length) return { applied: 0, written: [], failures, ...(comments ? { comments: 0 } : {}) };
    const notes = commenter(comments ? ops : []);
    try {
      write(items, steps, ranges, notes);
      await context.sync();
    } catch (err) {
      throw new WordWriteError(wordError(err), [...write_]);
    }
    return { applied: steps.length, written: [...write_], failures, ...(comments ? { comments: notes.count } : {}) };
  });
}

/** Word refused to write changes the server had already recorded (``written``: their ids). */
export class WordWriteError extends Error {
  constructor(message, written) { super(message); this.name = "WordWriteError"; this.written = written; }
}

/** A copy of the server's tracked file opened as a NEW document (WordApi 1.3
 * ``Application.createDocument``): the user's document is never replaced. */
export async function openAsNewDocument(Word, base64) {
  return Word.run(async (context) => {
    const created = context.application.createDocument(base64);
    created.open();
    await context.sync();
  });
}

/** The text of the paragraph where the selection starts. */
export async function selectedParagraph(Word) {
  return Word.run(async (context) => {
    const p = context.document.getSelection().paragraphs.getFirst();
    p.load("text");
    await context.sync();
    return p.text;
  });
}

/** The unit the cursor is in: the selection's paragraph matched by position among the body's
 * paragraphs (the only one with its text, else the aligned one of those that have it). Returns
 * the unit id or null; ``text`` is the selection paragraph's text. */
export async function selectedUnit(Word, units) {
  return Word.run(async (context) => {
    const sel = context.document.getSelection().paragraphs.getFirst();
    sel.load("text");
    const { paras } = await readParagraphs(context, { lists: false });
    const blines = bodyLines(units);
    const { line } = alignParagraphs(paras.map((p) => p.text), blines);
    const same = paras.map((p, i) => i).filter((i) => paras[i].text === sel.text);
    const hit = same.map((i) => line[i]).find(Boolean);
    return { text: sel.text, unit: hit ? hit.slice(0, hit.lastIndexOf("#")) : null };
  });
}

/** Selects (and so scrolls to) the first paragraph with text of a unit, found by position in
 * the document as Word has it now; false when it is not there. */
export async function selectUnit(Word, unit, units = []) {
  return Word.run(async (context) => {
    const { items, paras } = await readParagraphs(context, { lists: false });
    const { para } = alignParagraphs(paras.map((p) => p.text), bodyLines(units.length ? units : [unit]));
    const texts = String(unit.text ?? "").split("\n");
    const order = [...texts.keys()].sort((a, b) => Number(!texts[a].trim()) - Number(!texts[b].trim()) || a - b);
    const i = order.map((li) => para.get(`${unit.id}#${li}`)).find((p) => p !== undefined);
    if (i === undefined) return false;
    items[i].select();
    await context.sync();
    return true;
  });
}

/** The tracked changes Word holds (WordApi 1.6), each matched to the LEDGER operation it
 * comes from by its words (a deletion's text is the words the operation replaced, an
 * insertion's the words it wrote): ``[{index, type, text, author, date, op, reason}]``;
 * ``op`` is null for a change LEDGER did not make. */
/** Where ``piece`` stands in ``text`` as whole words, -1 when nowhere: "ID" is not the start of
 * "IDs", so Word's piece "ID" goes to the operation that changed "ID", not to the one that
 * changed "IDs" (``loose``: anywhere, for a host that splits inside words). */
export function wordAt(text, piece, loose = false) {
  if (loose) return text.indexOf(piece);
  const word = (ch) => ch != null && /[\p{L}\p{N}]/u.test(ch);
  for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) {
    if (!word(text[at - 1]) && !word(text[at + piece.length])) return at;
  }
  return -1;
}

export async function trackedChanges(Word, ops = []) {
  return Word.run(async (context) => {
    const tc = context.document.body.getTrackedChanges();
    tc.load("items");
    await context.sync();
    tc.items.forEach((c) => c.load("author,date,text,type"));
    await context.sync();
    const norm = (t) => normalizeText(String(t ?? ""));
    // the words an operation removed and wrote (Word's changes are its word-level pieces,
    // "ID" of "connection ID"), consumed in document order: Word lists its changes in
    // document order and the operations come in the order they apply
    const side = (o, added) => norm(added ? (o.op === "delete" ? "" : o.text)
      : (o.old ?? (o.op === "delete" || o.op === "set_text" ? o.before : "")));
    const left = { true: (ops || []).map((o) => side(o, true)), false: (ops || []).map((o) => side(o, false)) };
    const start = { true: 0, false: 0 };
    const take = (added, text) => {
      const rest = left[added];
      for (const loose of [false, true]) {
        for (let i = start[added]; i < rest.length; i += 1) {
          const at = text ? wordAt(rest[i], text, loose) : -1;
          if (at === -1) continue;
          rest[i] = (rest[i].slice(0, at) + rest[i].slice(at + text.length)).trim();
          while (start[added] < rest.length && !rest[start[added]]) start[added] += 1;
          return ops[i];
        }
      }
      return null;
    };
    return tc.items.map((c, index) => {
      const added = /add|insert/i.test(String(c.type));
      const op = take(added, norm(c.text));
      return { index, type: c.type, text: c.text, author: c.author, date: c.date, op: op?.id ?? null,
               reason: op ? (op.comment || op.reason || "") : "" };
    });
  });
}

/** Accepts (``accept`` true) or rejects the ``index``-th tracked change (WordApi 1.6). */
export async function resolveTrackedChange(Word, index, accept) {
  return Word.run(async (context) => {
    const tc = context.document.body.getTrackedChanges();
    tc.load("items");
    await context.sync();
    const change = tc.items[index];
    if (!change) return false;
    if (accept) change.accept(); else change.reject();
    await context.sync();
    return true;
  });
}

/** Accepts (``accept`` true) or rejects the tracked changes at ``indices`` (WordApi 1.6), in
 * one batch, so the indices stay those of the list the pane read. Returns how many it found. */
export async function resolveTrackedChanges(Word, indices, accept) {
  return Word.run(async (context) => {
    const tc = context.document.body.getTrackedChanges();
    tc.load("items");
    await context.sync();
    const found = [...new Set(indices)].map((i) => tc.items[i]).filter(Boolean);
    for (const change of found) { if (accept) change.accept(); else change.reject(); }
    await context.sync();
    return found.length;
  });
}

/** Selects (and so scrolls Word to) the ``index``-th tracked change (WordApi 1.6:
 * ``TrackedChange.getRange``); false when it is gone or the host cannot. */
export async function selectTrackedChange(Word, index) {
  return Word.run(async (context) => {
    const tc = context.document.body.getTrackedChanges();
    tc.load("items");
    await context.sync();
    const change = tc.items[index];
    if (!change?.getRange) return false;
    change.getRange().select();
    await context.sync();
    return true;
  });
}
