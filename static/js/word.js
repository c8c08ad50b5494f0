// The Word side: find paragraphs and words through search(), apply a plan with change tracking
// on, select a unit, read the selection. Every function takes the Word namespace as an
// argument (the real one in Word, office-addin-mock or the scripted host in tests).
import { escapeSearch, lines, normalizeText, paragraphProbe } from "./textplan.js";
import { indexUnits, planOperations } from "./plan.js";

const SEARCH = { matchCase: true };

function trackAll(Word) {
  return Word.ChangeTrackingMode?.trackAll ?? "TrackAll";
}

function wordError(err) {
  const code = err?.code || err?.name || "Error";
  return `Word refused the change (${code}): ${err?.message || err}`;
}

/** Finds the paragraph of each target (search its probe, keep the hits whose paragraph text
 * equals the target's, take the one of the target's rank). Two syncs for any number.
 * Returns ``{paragraphs: Map key -> Word.Paragraph, failures: [...]}``. */
export async function locateParagraphs(context, targets) {
  const list = [...targets];
  const searches = list.map((t) => {
    if (!t.probe) return null;
    const hits = context.document.body.search(escapeSearch(t.probe), SEARCH);
    hits.load("items");
    return hits;
  });
  await context.sync();
  const candidates = searches.map((hits) => (hits ? hits.items.map((r) => {
    const p = r.paragraphs.getFirst();
    p.load("text");
    return p;
  }) : []));
  await context.sync();
  const paragraphs = new Map();
  const failures = [];
  list.forEach((t, i) => {
    const want = normalizeText(t.text);
    const matches = candidates[i].filter((p) => normalizeText(p.text) === want);
    if (matches.length > t.rank) {
      paragraphs.set(t.key, matches[t.rank]);
    } else {
      failures.push({ unit: t.unit, reason: `the paragraph "${t.text.slice(0, 60)}" is not in the document as LEDGER read it (changed since the upload?)` });
    }
  });
  return { paragraphs, failures };
}

/** Finds the Word range of each ``edit`` step inside its paragraph and checks that Word sees
 * the searched words as often as LEDGER does (so the n-th hit is the right one). */
async function locateRanges(context, steps, paragraphs) {
  const pending = steps.map((s) => {
    const para = paragraphs.get(s.target);
    if (s.kind === "start") return { s, para };
    const parts = Array.isArray(s.search) ? s.search : [s.search];
    const hits = parts.map((q) => {
      const h = para.search(escapeSearch(q), SEARCH);
      h.load("items");
      return h;
    });
    return { s, para, hits };
  });
  await context.sync();
  const failures = [];
  const expanded = [];
  for (const p of pending) {
    if (!p.hits) continue;
    const counts = Array.isArray(p.s.count) ? p.s.count : [p.s.count];
    const occ = Array.isArray(p.s.occurrence) ? p.s.occurrence : [p.s.occurrence];
    const ok = p.hits.every((h, i) => h.items.length === counts[i]);
    if (!ok) {
      const q = Array.isArray(p.s.search) ? p.s.search[0] : p.s.search;
      failures.push({ op: p.s.op, reason: `Word finds "${q.slice(0, 40)}" ${p.hits[0].items.length} time(s) in the paragraph, LEDGER ${counts[0]}` });
      continue;
    }
    p.range = p.hits[0].items[occ[0]];
    if (p.hits.length === 2) {
      p.range = p.range.expandTo(p.hits[1].items[occ[1]]);
      p.range.load("text");
      expanded.push(p);
    }
  }
  if (expanded.length) {
    await context.sync();
    for (const p of expanded) {
      if (normalizeText(p.range.text) !== normalizeText(p.s.old)) {
        failures.push({ op: p.s.op, reason: "the long passage to change reads differently in Word" });
      }
    }
  }
  return { located: pending, failures };
}

/** Whether the host offers a WordApi requirement set (``1.4``: comments, ``1.6``: tracked
 * changes one by one); false outside Office. */
export function supports(Office, version) {
  return !!Office?.context?.requirements?.isSetSupported?.("WordApi", version);
}

/** Adds each operation's ``comment`` (the server's text: what changed and why) to the first
 * range that operation changed; one comment per operation. Word writes an add-in's comments
 * under the signed-in account (and has no initials for them), so the text says who wrote it:
 * "LEDGER: …". */
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

/** Applies ``ops`` (ROUTES.md Operations) to the open document as tracked changes.
 *
 * Change tracking is switched to ``trackAll`` first; then every paragraph and every word
 * range is found before anything changes, so a plan that cannot be placed changes nothing.
 * With ``comments`` (WordApi 1.4) each operation's ``comment`` becomes a Word comment on the
 * words it changed (before a deletion, on the words it deletes).
 * Returns ``{applied: n, comments: n, failures: []}`` or ``{applied: 0, failures: [{op, reason}]}``. */
export async function applyOperations(Word, ops, units = [], { comments = false } = {}) {
  const plan = planOperations(ops, units);
  if (plan.problems.length) return { applied: 0, failures: plan.problems };
  if (!plan.steps.length) return { applied: 0, failures: [] };
  try {
    return await Word.run(async (context) => {
      context.document.changeTrackingMode = trackAll(Word);
      await context.sync();
      const { paragraphs, failures } = await locateParagraphs(context, plan.targets.values());
      if (failures.length) return { applied: 0, failures };
      const edits = plan.steps.filter((s) => s.type === "edit");
      const { located, failures: f2 } = await locateRanges(context, edits, paragraphs);
      if (f2.length) return { applied: 0, failures: f2 };
      const notes = commenter(comments ? ops : []);
      // Later words first inside a paragraph, so the ranges found stay where they were.
      located.sort((a, b) => (a.s.target === b.s.target ? b.s.start - a.s.start : 0));
      for (const { s, para, range } of located) {
        if (s.kind === "start") notes.add(s.op, para.insertText(s.text, "Start"));
        else if (s.kind === "insert") notes.add(s.op, range.insertText(s.text, s.location));
        else if (s.text === "") { notes.add(s.op, range); range.delete(); }
        else notes.add(s.op, range.insertText(s.text, "Replace"));
      }
      for (const s of plan.steps) {
        if (s.type === "insert_paragraph") {
          let anchor = paragraphs.get(s.target);
          for (const text of s.lines) {
            anchor = anchor.insertParagraph(text, "After");
            if (s.style) anchor.style = s.style;
            notes.add(s.op, anchor.getRange?.());
          }
        } else if (s.type === "delete_paragraph") {
          s.targets.forEach((k) => { notes.add(s.op, paragraphs.get(k).getRange?.()); paragraphs.get(k).delete(); });
        } else if (s.type === "move") {
          let anchor = paragraphs.get(s.dest);
          if (s.location === "After") {
            for (const text of s.lines) { anchor = anchor.insertParagraph(text, "After"); notes.add(s.op, anchor.getRange?.()); }
          } else {
            for (const text of s.lines) notes.add(s.op, anchor.insertParagraph(text, "Before").getRange?.());
          }
          s.targets.forEach((k) => paragraphs.get(k).delete());
        }
      }
      await context.sync();
      return { applied: plan.steps.length, ...(comments ? { comments: notes.count } : {}), failures: [] };
    });
  } catch (err) {
    return { applied: 0, failures: [{ op: null, reason: wordError(err) }] };
  }
}

/** Replaces the body with a whole document (base64 .docx) as a last resort: tracking is off
 * for the insertion itself so that only the file's own tracked changes show, then on again. */
export async function replaceWithFile(Word, base64) {
  return Word.run(async (context) => {
    context.document.changeTrackingMode = Word.ChangeTrackingMode?.off ?? "Off";
    context.document.body.insertFileFromBase64(base64, "Replace");
    context.document.changeTrackingMode = trackAll(Word);
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

/** Selects (and so scrolls to) the first paragraph of a unit; false when it is not found. */
export async function selectUnit(Word, unit, units = []) {
  const index = indexUnits(units.length ? units : [unit]);
  const ls = lines(unit.text ?? "");
  const li = Math.max(0, ls.findIndex((l) => l.text.trim()));
  const text = ls[li]?.text ?? "";
  const t = { key: unit.id, unit: unit.id, text, probe: paragraphProbe(text),
              rank: index.rank.get(`${unit.id}#${li}`) ?? 0 };
  return Word.run(async (context) => {
    const { paragraphs } = await locateParagraphs(context, [t]);
    const p = paragraphs.get(unit.id);
    if (!p) return false;
    p.select();
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
