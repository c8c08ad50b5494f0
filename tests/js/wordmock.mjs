// A Word object model for unit tests, made of office-addin-mock objects: every property must be
// loaded and synced before it is read (as in Word), search() follows Word's rules (255-character
// limit, ^-escapes, no match across paragraphs), and every call is recorded.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { OfficeMockObject } = require("office-addin-mock");

const HOST = "word";

function unescape(q) {
  return q.replace(/\^(\^|t|l|s)/g, (_, c) => ({ "^": "^", t: "\t", l: "\u000b", s: "\u00a0" }[c]));
}

/** ``makeWord(["para 1", "para 2"])`` -> ``{Word, doc, calls}``; ``doc.paragraphs`` holds
 * ``{text, deleted, style}`` and ``doc.revisions`` what was changed with tracking on. */
export function makeWord(texts) {
  const calls = [];
  const doc = { paragraphs: texts.map((text) => ({ text, deleted: false, style: "Normal" })), revisions: [], tracking: "Off",
                comments: [], decided: [] };
  const decided = new Set(); // the revisions a reviewer accepted or rejected
  const created = [];
  const mock = (data) => {
    const m = new OfficeMockObject({ ...data, host: HOST }, HOST);
    created.push(m);
    return m;
  };
  const live = () => doc.paragraphs.filter((p) => !p.deleted);
  const revise = (type, text) => {
    if (doc.tracking !== "TrackAll") throw new Error(`untracked ${type} of "${text}" (changeTrackingMode is ${doc.tracking})`);
    doc.revisions.push({ type, text });
  };
  const comment = (p, start, end) => (text) => {
    calls.push({ api: "range.insertComment", text, range: p.text.slice(start, end) });
    doc.comments.push({ text, range: p.text.slice(start, end), paragraph: p });
    return mock({ content: text });
  };

  function paragraphMock(p) {
    return mock({
      text: p.text,
      style: p.style,
      search: (q, opts) => { calls.push({ api: "paragraph.search", text: q, options: opts }); return searchIn([p], q); },
      insertText: (text, loc) => {
        calls.push({ api: "paragraph.insertText", text, location: loc });
        revise("insertion", text);
        p.text = loc === "Start" ? text + p.text : p.text + text;
      },
      insertParagraph: (text, loc) => {
        calls.push({ api: "paragraph.insertParagraph", text, location: loc });
        revise("paragraph_insertion", text);
        const np = { text, deleted: false, style: p.style };
        const i = doc.paragraphs.indexOf(p);
        doc.paragraphs.splice(loc === "After" ? i + 1 : i, 0, np);
        return paragraphMock(np);
      },
      delete: () => { calls.push({ api: "paragraph.delete", text: p.text }); revise("paragraph_deletion", p.text); p.deleted = true; },
      select: () => calls.push({ api: "paragraph.select", text: p.text }),
      getRange: () => rangeMock(p, 0, p.text.length),
    });
  }

  function rangeMock(p, start, end) {
    const r = mock({
      text: p.text.slice(start, end),
      paragraphs: { getFirst: () => paragraphMock(p) },
      insertText: (text, loc) => {
        calls.push({ api: "range.insertText", text, location: loc, range: p.text.slice(start, end) });
        if (loc === "Replace") {
          revise("deletion", p.text.slice(start, end));
          revise("insertion", text);
          p.text = p.text.slice(0, start) + text + p.text.slice(end);
          return rangeMock(p, start, start + text.length);
        }
        revise("insertion", text);
        const at = loc === "Before" || loc === "Start" ? start : end;
        p.text = p.text.slice(0, at) + text + p.text.slice(at);
        return rangeMock(p, at, at + text.length);
      },
      insertComment: (text) => comment(p, start, end)(text),
      delete: () => {
        calls.push({ api: "range.delete", range: p.text.slice(start, end) });
        revise("deletion", p.text.slice(start, end));
        p.text = p.text.slice(0, start) + p.text.slice(end);
      },
      expandTo: (other) => { calls.push({ api: "range.expandTo" }); return rangeMock(p, start, other._end); },
      select: () => calls.push({ api: "range.select", range: p.text.slice(start, end) }),
    });
    r._end = end;
    return r;
  }

  function searchIn(paras, q) {
    if (q.length > 255) throw Object.assign(new Error("The search string is too long."), { code: "SearchStringInvalidOrTooLong" });
    const needle = unescape(q);
    const items = [];
    for (const p of paras) {
      const hay = p.text.replace(/\n/g, "\u000b");
      let i = hay.indexOf(needle);
      while (i !== -1 && needle) {
        items.push(rangeMock(p, i, i + needle.length));
        i = hay.indexOf(needle, i + needle.length);
      }
    }
    return mock({ items });
  }

  const context = new OfficeMockObject({
    host: HOST,
    document: {
      body: {
        search: (q, opts) => { calls.push({ api: "body.search", text: q, options: opts }); return searchIn(live(), q); },
        insertFileFromBase64: (b64, loc) => { calls.push({ api: "body.insertFileFromBase64", length: b64.length, location: loc }); },
        getTrackedChanges: () => mock({ items: doc.revisions.filter((r) => !decided.has(r)).map((r) => mock({
          type: /insertion/.test(r.type) ? "Added" : "Deleted", text: r.text, author: "Unknown", date: "2026-12-01T00:00:00Z",
          accept: () => { calls.push({ api: "trackedChange.accept", text: r.text }); decided.add(r); doc.decided.push({ ...r, decision: "accept" }); },
          reject: () => { calls.push({ api: "trackedChange.reject", text: r.text }); decided.add(r); doc.decided.push({ ...r, decision: "reject" }); },
        })) }),
      },
      getSelection: () => mock({ paragraphs: { getFirst: () => paragraphMock(live()[doc.selection ?? 0]) } }),
    },
  }, HOST);
  Object.defineProperty(context.document, "changeTrackingMode", {
    get: () => doc.tracking,
    set: (v) => { calls.push({ api: "document.changeTrackingMode", value: v }); doc.tracking = v; },
  });
  const sync = context.sync.bind(context);
  context.sync = async () => {
    calls.push({ api: "context.sync" });
    await sync();
    for (const m of created) await m.sync();
  };
  const Word = {
    ChangeTrackingMode: { off: "Off", trackAll: "TrackAll", trackMineOnly: "TrackMineOnly" },
    run: async (batch) => batch(context),
  };
  return { Word, doc, calls, texts: () => live().map((p) => p.text) };
}
