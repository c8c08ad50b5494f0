// A scripted Office/Word host, served in place of office.js in the browser test and loaded into
// node by tests/js/host.mjs for the unit tests: one model of Word for both. It holds the
// document as Word's JavaScript API shows it (window.__LEDGER_HOST__, set before any page
// script: paragraphs made from the file itself by tests/clients/word_paragraphs.py, and the
// file's bytes), and behaves as the Office.js reference documents Word (tests/js/host.test.mjs
// quotes the reference for each behaviour):
//
// - a paragraph's ``text`` holds a manual line break as U+000B, a tab as U+0009, a field's
//   result (never its code), the words of a tracked deletion (Word keeps them, struck through,
//   until the change is accepted), and never its list number: that is ``listItem.listString``;
// - every paragraph of a table cell is one paragraph of ``body.paragraphs``, with its
//   ``tableNestingLevel``; a table is deleted whole through ``parentTable``;
// - search() refuses a string longer than 255 characters and reads ^-codes (^l, ^t, ^s, ^~, ^-,
//   ^^); it finds text inside tracked deletions, as Word's Find does in the markup view;
// - properties are read only after load() and context.sync();
// - with change tracking on, an edit leaves a tracked change: replaced words stay as a deletion
//   before the insertion, a deleted paragraph stays in body.paragraphs with its words deleted.
//
// Every Word API call is recorded in window.__wordCalls; window.__ledgerHost lets a test move
// the cursor, type as the user, and read the accepted and rejected views.
(function () {
  "use strict";
  const cfg = window.__LEDGER_HOST__ || { paragraphs: [], fileBase64: "", url: "document.docx" };
  const calls = (window.__wordCalls = []);
  const record = (c) => { if (!cfg.quiet || !/sync|Word\.run/.test(c.api)) calls.push(JSON.parse(JSON.stringify(c))); };
  const account = cfg.account || "Unknown";
  let revSeq = 0;

  // A paragraph: segments of text, each plain or part of a tracked change {id, type: "ins" | "del",
  // author}; ``mark`` the paragraph mark's own change (a paragraph inserted or deleted whole).
  function makeParagraph(p) {
    const src = typeof p === "string" ? { text: p } : p;
    const segs = src.runs
      ? src.runs.map((r) => ({ text: r.text, rev: r.ins || r.del ? { id: ++revSeq, type: r.ins ? "ins" : "del", author: r.author || "Someone" } : null }))
      : [{ text: src.text ?? "", rev: null }];
    const mark = src.markDeleted ? { id: ++revSeq, type: "del", author: "Someone" } : src.markInserted ? { id: ++revSeq, type: "ins", author: "Someone" } : null;
    return { segs: segs.filter((s) => s.text), style: src.style || "Normal", listString: src.listString ?? null,
             level: src.tableNestingLevel || 0, table: src.table ?? null, tables: src.tables ?? (src.table != null ? [src.table] : []), mark };
  }
  const doc = { paragraphs: (cfg.paragraphs || []).map(makeParagraph), tracking: cfg.tracking || "Off", selection: 0, comments: [], opened: [] };
  window.__wordDoc = doc;
  const textOf = (p) => p.segs.map((s) => s.text).join("");
  let bytes = Uint8Array.from(atob(cfg.fileBase64 || ""), (c) => c.charCodeAt(0));
  // Word saves what it holds: after the pane applied changes through this host, the file it hands
  // over is the server's revision with those same changes (the tests compare the two views), not
  // the bytes it opened with (``saveFromServer``; a test's setFile() wins)
  let saved = null;
  if (cfg.saveFromServer && typeof window.addEventListener === "function") {
    window.addEventListener("ledger:status", (e) => {
      const d = e.detail || {};
      if (d.phase === "applied" && d.document && d.revision != null) {
        saved = `${d.server || ""}/api/v1/documents/${encodeURIComponent(d.document)}/revisions/${encodeURIComponent(d.revision)}/file`;
      }
    });
  }
  async function current() {
    if (!saved) return bytes;
    try {
      const res = await fetch(saved);
      if (res.ok) { bytes = new Uint8Array(await res.arrayBuffer()); saved = null; }
    } catch { /* the server is away: Word still has the document; the next save tries again */ }
    return bytes;
  }
  const handlers = [];
  const decisions = [];
  // WordApi 1.6 Document.onParagraphChanged/Added/Deleted: "Occurs when the user changes paragraphs."
  const paragraphEvents = { onParagraphChanged: [], onParagraphAdded: [], onParagraphDeleted: [] };
  const userChanged = (kind = "onParagraphChanged") => {
    const type = { onParagraphChanged: "paragraphChanged", onParagraphAdded: "paragraphAdded", onParagraphDeleted: "paragraphDeleted" }[kind];
    paragraphEvents[kind].forEach((h) => setTimeout(() => h({ type, source: "Local" }), 0));
  };
  window.__wordDecisions = () => decisions.slice();

  const tracked = () => doc.tracking === "TrackAll" || doc.tracking === "TrackMineOnly";
  const newRev = (type) => ({ id: ++revSeq, type, author: account });

  // --- editing the model (offsets count UTF-16 units of the paragraph's text) ---------------
  /** Splits the segments so that ``at`` falls on a boundary; returns the index of the segment starting there. */
  function cut(p, at) {
    let pos = 0;
    for (let i = 0; i < p.segs.length; i += 1) {
      const s = p.segs[i];
      if (pos === at) return i;
      if (at < pos + s.text.length) {
        p.segs.splice(i, 1, { text: s.text.slice(0, at - pos), rev: s.rev }, { text: s.text.slice(at - pos), rev: s.rev });
        return i + 1;
      }
      pos += s.text.length;
    }
    return p.segs.length;
  }
  /** Removes ``[start, end)``: tracked, the words become a deletion (an insertion of this
   * account's is simply taken out again, as Word does); untracked, they go. */
  function remove(p, start, end, api) {
    if (end <= start) return;
    if (!tracked()) record({ api: "UNTRACKED", type: "deletion", text: textOf(p).slice(start, end), via: api });
    const a = cut(p, start);
    const b = cut(p, end);
    const rev = newRev("del");
    const out = [];
    p.segs.forEach((s, i) => {
      if (i < a || i >= b) { out.push(s); return; }
      if (!tracked() || (s.rev?.type === "ins" && s.rev.author === account)) return;
      out.push(s.rev?.type === "del" ? s : { text: s.text, rev });
    });
    p.segs = out;
  }
  /** Inserts ``text`` at ``at``; returns where it went. */
  function insert(p, at, text, api) {
    if (!text) return at;
    if (!tracked()) record({ api: "UNTRACKED", type: "insertion", text, via: api });
    const i = cut(p, at);
    p.segs.splice(i, 0, { text, rev: tracked() ? newRev("ins") : null });
    return at;
  }

  // --- the client object model: load(), sync(), proxies ----------------------------------------
  class ClientObject {
    constructor(ctx) { this._ctx = ctx; this._loaded = new Set(); this._pending = new Set(); }
    load(props) {
      const list = typeof props === "string" ? props.split(",") : Array.isArray(props) ? props : Object.keys(props || {});
      for (const raw of list) {
        const [head, ...rest] = raw.trim().split("/");
        if (!head) continue;
        this._pending.add(head);
        if (rest.length) this._nav(head)?.load(rest.join("/"));
      }
      this._ctx._track(this);
      return this;
    }
    _nav() { return null; }
    _sync() { this._pending.forEach((p) => this._loaded.add(p)); this._pending.clear(); }
    _need(p) {
      if (!this._loaded.has(p)) throw new Error(`PropertyNotLoaded: load("${p}") and context.sync() before reading ${p}`);
    }
  }

  /** A value the host returns after the next context.sync() (OfficeExtension.ClientResult). */
  class ClientResult {
    constructor(ctx, value) { this._value = value; this._ready = false; ctx._track(this); }
    _sync() { this._ready = true; }
    get value() { if (!this._ready) throw new Error("PropertyNotLoaded: call context.sync() before reading value"); return this._value; }
  }

  class Collection extends ClientObject {
    constructor(ctx, items, error) { super(ctx); this._items = items; if (error) ctx._fail(error); }
    load(props) {
      const list = typeof props === "string" ? props.split(",") : Array.isArray(props) ? props : [];
      for (const raw of list) {
        const t = raw.trim();
        if (!t || t === "items") continue;
        const inner = t.startsWith("items/") ? t.slice(6) : t;
        this._items.forEach((it) => it.load(inner));
      }
      return super.load("items");
    }
    get items() { this._need("items"); return this._items; }
  }

  function unescapeSearch(q) {
    return q.replace(/\^(\^|t|l|s|~|-)/g, (_, c) => ({ "^": "^", t: "\t", l: "\u000b", s: "\u00a0", "~": "\u001e", "-": "\u001f" }[c]));
  }

  function search(ctx, paras, q, options, api) {
    record({ api, text: q, length: q.length, options });
    if (q.length > 255) {
      return new Collection(ctx, [], Object.assign(new Error("The search string is too long: 255 characters at most (InvalidArgument)."),
                                                    { code: "InvalidArgument" }));
    }
    const needle = unescapeSearch(q);
    const items = [];
    const cs = options && options.matchCase;
    for (const p of paras) {
      const text = textOf(p);
      const hay = cs ? text : text.toLowerCase();
      const n = cs ? needle : needle.toLowerCase();
      let i = n ? hay.indexOf(n) : -1;
      while (i !== -1) {
        items.push(new Range(ctx, p, i, i + n.length));
        i = hay.indexOf(n, i + n.length);
      }
    }
    return new Collection(ctx, items);
  }

  const paragraphIndex = (p) => doc.paragraphs.indexOf(p);

  class ListItem extends ClientObject {
    constructor(ctx, p) { super(ctx); this._p = p; }
    get isNullObject() { return this._p.listString == null; }
    get listString() { this._need("listString"); if (this._p.listString == null) throw new Error("ItemNotFound: not a list item"); return this._p.listString; }
  }

  class Table extends ClientObject {
    constructor(ctx, p) { super(ctx); this._p = p; }
    get isNullObject() { return this._p.table == null; }
    _rows() { return doc.paragraphs.filter((q) => this._p.table != null && (q.tables || []).includes(this._p.table)); }
    delete() {
      const rows = this._rows();
      record({ api: "table.delete", paragraphs: rows.length, tracking: doc.tracking });
      for (const q of rows) deleteParagraph(q, "table.delete");
    }
    insertParagraph(text, loc) {
      const rows = this._rows();
      const at = loc === "Before" ? rows[0] : rows[rows.length - 1];
      record({ api: "table.insertParagraph", text, location: loc, tracking: doc.tracking });
      return new Paragraph(this._ctx, newParagraph(at, text, loc, { table: null, tables: [], level: 0 }));
    }
  }

  function newParagraph(beside, text, loc, extra = {}) {
    const np = { segs: [], style: beside.style, listString: null, level: beside.level, table: beside.table, tables: beside.tables, mark: null, ...extra };
    if (!tracked()) record({ api: "UNTRACKED", type: "paragraph", text });
    const rev = tracked() ? newRev("ins") : null;
    if (text) np.segs.push({ text, rev });
    np.mark = rev;
    const i = paragraphIndex(beside);
    doc.paragraphs.splice(loc === "After" ? i + 1 : i, 0, np);
    return np;
  }

  function deleteParagraph(p, api) {
    remove(p, 0, textOf(p).length, api);
    if (!tracked()) { doc.paragraphs.splice(paragraphIndex(p), 1); return; }
    if (p.mark?.type === "ins" && p.mark.author === account && !p.segs.length) { doc.paragraphs.splice(paragraphIndex(p), 1); return; }
    p.mark = newRev("del");
    // one tracked change for the paragraph: its words and its mark
    p.segs.forEach((s) => { if (s.rev?.type === "del" && s.rev.author === account) s.rev = p.mark; });
  }

  class Paragraph extends ClientObject {
    constructor(ctx, p) { super(ctx); this._p = p; }
    _nav(name) {
      if (name === "listItemOrNullObject" || name === "listItem") return this.listItemOrNullObject;
      if (name === "parentTableOrNullObject") return this.parentTableOrNullObject;
      return null;
    }
    get text() { this._need("text"); return textOf(this._p); }
    get style() { this._need("style"); return this._p.style; }
    set style(v) { record({ api: "paragraph.style", value: v }); this._p.style = v; }
    get isListItem() { this._need("isListItem"); return this._p.listString != null; }
    get tableNestingLevel() { this._need("tableNestingLevel"); return this._p.level; }
    get listItemOrNullObject() { return (this._li ||= new ListItem(this._ctx, this._p)); }
    get parentTableOrNullObject() { return (this._tbl ||= new Table(this._ctx, this._p)); }
    search(q, o) { return search(this._ctx, [this._p], q, o, "paragraph.search"); }
    select() { record({ api: "paragraph.select", paragraph: textOf(this._p) }); doc.selection = paragraphIndex(this._p); }
    insertText(text, loc) {
      record({ api: "paragraph.insertText", text, location: loc, tracking: doc.tracking });
      const at = loc === "Start" ? 0 : textOf(this._p).length;
      insert(this._p, at, text, "paragraph.insertText");
      return new Range(this._ctx, this._p, at, at + text.length);
    }
    insertParagraph(text, loc) {
      record({ api: "paragraph.insertParagraph", text, location: loc, tracking: doc.tracking });
      return new Paragraph(this._ctx, newParagraph(this._p, text, loc));
    }
    delete() {
      record({ api: "paragraph.delete", paragraph: textOf(this._p), tracking: doc.tracking });
      deleteParagraph(this._p, "paragraph.delete");
    }
    getRange() { return new Range(this._ctx, this._p, 0, textOf(this._p).length); }
  }

  class ParagraphCollection extends Collection {
    constructor(ctx) { super(ctx, doc.paragraphs.map((p) => new Paragraph(ctx, p))); }
  }

  // WordApi 1.6: the tracked changes of the body in document order, accepted or rejected one by one
  function changes() {
    const out = [];
    doc.paragraphs.forEach((p) => {
      p.segs.forEach((s) => {
        if (!s.rev) return;
        const last = out[out.length - 1];
        if (last && last.rev === s.rev) { last.text += s.text; return; }
        out.push({ rev: s.rev, p, text: s.text });
      });
      if (p.mark && !p.segs.some((s) => s.rev === p.mark)) out.push({ rev: p.mark, p, text: "" });
    });
    return out;
  }
  function decide(rev, accept) {
    const keep = (rev.type === "ins") === accept;
    for (const p of [...doc.paragraphs]) {
      p.segs = p.segs.filter((s) => s.rev !== rev || keep).map((s) => (s.rev === rev ? { text: s.text, rev: null } : s));
      if (p.mark === rev) {
        p.mark = null;
        if (!keep) doc.paragraphs.splice(paragraphIndex(p), 1);
      }
    }
  }
  class TrackedChange extends ClientObject {
    constructor(ctx, c) { super(ctx); this._c = c; }
    get type() { this._need("type"); return this._c.rev.type === "ins" ? "Added" : "Deleted"; }
    get text() { this._need("text"); return this._c.text; }
    get author() { this._need("author"); return this._c.rev.author; }
    get date() { this._need("date"); return "2026-12-01T00:00:00.000Z"; }
    accept() { record({ api: "trackedChange.accept", text: this._c.text }); decisions.push({ type: this._c.rev.type, text: this._c.text, decision: "accepted" }); decide(this._c.rev, true); }
    reject() { record({ api: "trackedChange.reject", text: this._c.text }); decisions.push({ type: this._c.rev.type, text: this._c.text, decision: "rejected" }); decide(this._c.rev, false); }
    getRange() {
      record({ api: "trackedChange.getRange", text: this._c.text });
      const p = this._c.p;
      let pos = 0;
      let start = -1;
      let end = 0;
      for (const s of p.segs) {
        if (s.rev === this._c.rev) { if (start === -1) start = pos; end = pos + s.text.length; }
        pos += s.text.length;
      }
      return new Range(this._ctx, p, Math.max(0, start), Math.max(0, end));
    }
  }

  class Range extends ClientObject {
    constructor(ctx, p, start, end) { super(ctx); this._p = p; this._s = start; this._e = end; }
    get text() { this._need("text"); return textOf(this._p).slice(this._s, this._e); }
    get paragraphs() { const ctx = this._ctx; const p = this._p; return { getFirst: () => new Paragraph(ctx, p) }; }
    expandTo(other) {
      record({ api: "range.expandTo" });
      if (other._p !== this._p) throw new Error("the shim expands ranges inside one paragraph only");
      return new Range(this._ctx, this._p, Math.min(this._s, other._s), Math.max(this._e, other._e));
    }
    select() { record({ api: "range.select", range: textOf(this._p).slice(this._s, this._e) }); doc.selection = paragraphIndex(this._p); }
    insertText(text, loc) {
      const old = textOf(this._p).slice(this._s, this._e);
      record({ api: "range.insertText", text, location: loc, range: old, tracking: doc.tracking });
      if (loc === "Replace") {
        const before = textOf(this._p).length;
        remove(this._p, this._s, this._e, "range.insertText");
        const end = this._e - (before - textOf(this._p).length); // an own insertion taken out shortens the text
        insert(this._p, end, text, "range.insertText");
        return new Range(this._ctx, this._p, end, end + text.length);
      }
      const at = loc === "Before" || loc === "Start" ? this._s : this._e;
      insert(this._p, at, text, "range.insertText");
      return new Range(this._ctx, this._p, at, at + text.length);
    }
    // WordApi 1.4: "Gets reviewed text based on ChangeTrackingVersion selection." ("Current": tracked
    // changes as they stand -- insertions in, deletions out; "Original": the other way round)
    getReviewedText(version = "Current") {
      const drop = version === "Original" ? "ins" : "del";
      let pos = 0;
      let out = "";
      for (const seg of this._p.segs) {
        const a = Math.max(pos, this._s);
        const b = Math.min(pos + seg.text.length, this._e);
        if (b > a && seg.rev?.type !== drop) out += seg.text.slice(a - pos, b - pos);
        pos += seg.text.length;
      }
      return new ClientResult(this._ctx, out);
    }
    insertComment(text) {
      record({ api: "range.insertComment", text, range: textOf(this._p).slice(this._s, this._e), tracking: doc.tracking });
      doc.comments.push({ text, range: textOf(this._p).slice(this._s, this._e), author: account });
      return {};
    }
    delete() {
      record({ api: "range.delete", range: textOf(this._p).slice(this._s, this._e), tracking: doc.tracking });
      remove(this._p, this._s, this._e, "range.delete");
    }
  }

  class RequestContext {
    constructor() {
      this._tracked = new Set();
      this._errors = [];
      const ctx = this;
      let paragraphs = null;
      this.application = {
        // WordApi 1.3: a new document made from a .docx, opened in its own window
        createDocument: (b64) => {
          record({ api: "application.createDocument", length: String(b64 || "").length });
          return { open: () => { record({ api: "documentCreated.open" }); doc.opened.push(String(b64 || "").length); } };
        },
      };
      this.document = {
        get changeTrackingMode() { return doc.tracking; },
        set changeTrackingMode(v) { record({ api: "document.changeTrackingMode", value: v }); doc.tracking = v; },
        body: {
          get paragraphs() { record({ api: "body.paragraphs" }); return (paragraphs ||= new ParagraphCollection(ctx)); },
          search: (q, o) => search(ctx, doc.paragraphs, q, o, "body.search"),
          insertFileFromBase64: (b64, loc) => { record({ api: "body.insertFileFromBase64", length: b64.length, location: loc, tracking: doc.tracking }); },
          getTrackedChanges: () => {
            if (!(Number(cfg.wordApi || 1.4) >= 1.6)) throw new Error("ApiNotFound: getTrackedChanges needs WordApi 1.6");
            record({ api: "body.getTrackedChanges" });
            return new Collection(ctx, changes().map((c) => new TrackedChange(ctx, c)));
          },
        },
        onParagraphChanged: { add: (h) => { record({ api: "document.onParagraphChanged.add" }); paragraphEvents.onParagraphChanged.push(h); } },
        onParagraphAdded: { add: (h) => { paragraphEvents.onParagraphAdded.push(h); } },
        onParagraphDeleted: { add: (h) => { paragraphEvents.onParagraphDeleted.push(h); } },
        getSelection: () => {
          const p = doc.paragraphs[doc.selection] || doc.paragraphs[0];
          return new Range(ctx, p, 0, 0);
        },
      };
    }
    _track(o) { this._tracked.add(o); }
    _fail(e) { this._errors.push(e); }
    async sync() {
      record({ api: "context.sync" });
      await new Promise((r) => setTimeout(r, 1));
      if (this._errors.length) { const e = this._errors.shift(); this._errors = []; throw e; }
      this._tracked.forEach((o) => o._sync());
      this._tracked.clear();
    }
  }

  window.Word = {
    ChangeTrackingMode: { off: "Off", trackAll: "TrackAll", trackMineOnly: "TrackMineOnly" },
    InsertLocation: { replace: "Replace", start: "Start", end: "End", before: "Before", after: "After" },
    run: async (batch) => { record({ api: "Word.run" }); return batch(new RequestContext()); },
  };

  const ok = (value) => ({ status: "succeeded", value });
  window.Office = {
    HostType: { Word: "Word", Excel: "Excel" },
    FileType: { Compressed: "compressed", Pdf: "pdf", Text: "text" },
    EventType: { DocumentSelectionChanged: "documentSelectionChanged" },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    onReady: (cb) => {
      const info = { host: "Word", platform: "OfficeOnline" };
      return new Promise((resolve) => setTimeout(() => { if (cb) cb(info); resolve(info); }, 10));
    },
    context: {
      displayLanguage: "en-US",
      requirements: { isSetSupported: (name, v) => name === "WordApi" && Number(v) <= Number(cfg.wordApi || 1.4) },
      document: {
        url: cfg.url,
        getFileAsync: (type, options, cb) => {
          if (typeof options === "function") { cb = options; options = {}; }
          const sliceSize = (options && options.sliceSize) || 4 * 1024 * 1024;
          record({ api: "getFileAsync", type, sliceSize });
          current().then((b) => {
            const count = Math.max(1, Math.ceil(b.length / sliceSize));
            const file = {
              size: b.length,
              sliceCount: count,
              getSliceAsync: (i, done) => {
                record({ api: "getSliceAsync", index: i });
                const data = Array.from(b.subarray(i * sliceSize, Math.min(b.length, (i + 1) * sliceSize)));
                setTimeout(() => done(ok({ data, index: i, size: data.length })), 2);
              },
              closeAsync: (done) => { record({ api: "file.closeAsync" }); if (done) setTimeout(() => done(ok()), 1); },
            };
            setTimeout(() => cb(ok(file)), 2);
          });
        },
        addHandlerAsync: (type, handler, cb) => {
          record({ api: "addHandlerAsync", type });
          handlers.push({ type, handler });
          if (cb) cb(ok());
        },
      },
    },
  };
  if (cfg.displayName) window.Office.context.displayName = cfg.displayName;

  /** The document in one view: ``"accepted"`` (every tracked change accepted), ``"rejected"``,
   * or ``"markup"`` (what body.paragraphs shows). */
  function view(which) {
    const out = [];
    for (const p of doc.paragraphs) {
      if (which === "accepted" && p.mark?.type === "del") continue;
      if (which === "rejected" && p.mark?.type === "ins") continue;
      const drop = which === "accepted" ? "del" : which === "rejected" ? "ins" : null;
      out.push(p.segs.filter((s) => !drop || s.rev?.type !== drop).map((s) => s.text).join(""));
    }
    return out;
  }

  /** The test's hands on the host: move the cursor, type as the user, read the views. */
  window.__ledgerHost = {
    select(i) {
      doc.selection = i;
      handlers.filter((h) => h.type === "documentSelectionChanged").forEach((h) => h.handler({ type: "documentSelectionChanged" }));
    },
    texts: () => view("markup"),
    view,
    /** The user types ``text`` at ``at`` in paragraph ``i`` (as the user's own words: with tracking on, a change by the account). */
    type(i, at, text) { insert(doc.paragraphs[i], at, text, "user"); userChanged(); },
    /** The user replaces the first ``old`` of paragraph ``i`` with ``text``. */
    retype(i, old, text) {
      const p = doc.paragraphs[i];
      const at = textOf(p).indexOf(old);
      if (at === -1) return false;
      remove(p, at, at + old.length, "user");
      insert(p, at + (tracked() ? old.length : 0), text, "user");
      userChanged();
      return true;
    },
    /** What getFileAsync returns from now on (the document as saved after the user's edits). */
    setFile(base64) { bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)); saved = null; },
    comments: () => doc.comments,
    opened: () => doc.opened.slice(),
    changes: () => changes().map((c) => ({ type: c.rev.type === "ins" ? "Added" : "Deleted", text: c.text, author: c.rev.author })),
  };
})();
