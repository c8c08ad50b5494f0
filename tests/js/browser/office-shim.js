// A scripted Office/Word host for the browser test, served in place of office.js. It holds the
// document as paragraphs plus its real .docx/.odt bytes (window.__LEDGER_HOST__, set by the test
// before any page script), enforces load()/sync() like Word, applies search()'s 255-character
// limit, and records every Word API call in window.__wordCalls.
(function () {
  "use strict";
  const cfg = window.__LEDGER_HOST__ || { paragraphs: [], fileBase64: "", url: "document.docx" };
  const calls = (window.__wordCalls = []);
  const record = (c) => calls.push(JSON.parse(JSON.stringify(c)));
  const doc = {
    paragraphs: cfg.paragraphs.map((p) => ({ text: typeof p === "string" ? p : p.text, style: p.style || "Normal", deleted: false })),
    revisions: [],
    comments: [],
    tracking: "Off",
    selection: 0,
  };
  window.__wordDoc = doc;
  let bytes = Uint8Array.from(atob(cfg.fileBase64 || ""), (c) => c.charCodeAt(0));
  const handlers = [];
  const live = () => doc.paragraphs.filter((p) => !p.deleted);

  const where = new WeakMap(); // revision -> the paragraph it is in (for TrackedChange.getRange)
  function revise(type, text, p) {
    if (doc.tracking !== "TrackAll") record({ api: "UNTRACKED", type, text });
    const r = { type, text, tracked: doc.tracking === "TrackAll" };
    if (p) where.set(r, p);
    doc.revisions.push(r);
  }

  const decided = new Map(); // revision -> "accepted" | "rejected" (WordApi 1.6 review)
  window.__wordDecisions = () => doc.revisions.filter((r) => decided.has(r)).map((r) => ({ ...r, decision: decided.get(r) }));

  function insertComment(p, s, e, text) {
    record({ api: "range.insertComment", text, range: p.text.slice(s, e), tracking: doc.tracking });
    doc.comments.push({ text, range: p.text.slice(s, e), author: cfg.account || "Unknown" });
  }

  class ClientObject {
    constructor(ctx) { this._ctx = ctx; this._loaded = new Set(); this._pending = new Set(); }
    load(props) {
      const list = typeof props === "string" ? props.split(",") : Array.isArray(props) ? props : Object.keys(props || {});
      list.forEach((p) => this._pending.add(p.trim().split("/")[0]));
      this._ctx._track(this);
      return this;
    }
    _sync() { this._pending.forEach((p) => this._loaded.add(p)); this._pending.clear(); }
    _need(p) {
      if (!this._loaded.has(p)) throw new Error(`PropertyNotLoaded: load("${p}") and context.sync() before reading it`);
    }
  }

  class Collection extends ClientObject {
    constructor(ctx, items, error) { super(ctx); this._items = items; this._error = error; if (error) ctx._fail(error); }
    get items() { this._need("items"); return this._items; }
  }

  function unescapeSearch(q) {
    return q.replace(/\^(\^|t|l|s)/g, (_, c) => ({ "^": "^", t: "\t", l: "\u000b", s: "\u00a0" }[c]));
  }

  function search(ctx, paras, q, options, api) {
    record({ api, text: q, length: q.length, options });
    if (q.length > 255) {
      return new Collection(ctx, [], Object.assign(new Error("The search string is too long (SearchStringInvalidOrTooLong)."), { code: "SearchStringInvalidOrTooLong" }));
    }
    const needle = unescapeSearch(q);
    const items = [];
    const cs = options && options.matchCase;
    for (const p of paras) {
      const hay = cs ? p.text : p.text.toLowerCase();
      const n = cs ? needle : needle.toLowerCase();
      let i = n ? hay.indexOf(n) : -1;
      while (i !== -1) {
        items.push(new Range(ctx, p, i, i + n.length));
        i = hay.indexOf(n, i + n.length);
      }
    }
    return new Collection(ctx, items);
  }

  class Paragraph extends ClientObject {
    constructor(ctx, p) { super(ctx); this._p = p; }
    get text() { this._need("text"); return this._p.text; }
    get style() { this._need("style"); return this._p.style; }
    set style(v) { record({ api: "paragraph.style", value: v }); this._p.style = v; }
    search(q, o) { return search(this._ctx, [this._p], q, o, "paragraph.search"); }
    select() { record({ api: "paragraph.select", paragraph: this._p.text }); doc.selection = live().indexOf(this._p); }
    insertText(text, loc) {
      record({ api: "paragraph.insertText", text, location: loc, tracking: doc.tracking });
      revise("insertion", text, this._p);
      this._p.text = loc === "Start" ? text + this._p.text : this._p.text + text;
      return new Range(this._ctx, this._p, 0, 0);
    }
    insertParagraph(text, loc) {
      record({ api: "paragraph.insertParagraph", text, location: loc, tracking: doc.tracking });
      const np = { text, style: this._p.style, deleted: false };
      revise("paragraph_insertion", text, np);
      const i = doc.paragraphs.indexOf(this._p);
      doc.paragraphs.splice(loc === "After" ? i + 1 : i, 0, np);
      return new Paragraph(this._ctx, np);
    }
    delete() { record({ api: "paragraph.delete", paragraph: this._p.text, tracking: doc.tracking }); revise("paragraph_deletion", this._p.text, this._p); this._p.deleted = true; }
    getRange() { return new Range(this._ctx, this._p, 0, this._p.text.length); }
  }

  // WordApi 1.6: the tracked changes of the body, accepted or rejected one by one
  class TrackedChange extends ClientObject {
    constructor(ctx, r) { super(ctx); this._r = r; }
    get type() { this._need("type"); return /insertion/.test(this._r.type) ? "Added" : "Deleted"; }
    get text() { this._need("text"); return this._r.text; }
    get author() { this._need("author"); return cfg.account || "Unknown"; }
    get date() { this._need("date"); return "2026-12-01T00:00:00.000Z"; }
    accept() { record({ api: "trackedChange.accept", text: this._r.text }); decided.set(this._r, "accepted"); }
    reject() { record({ api: "trackedChange.reject", text: this._r.text }); decided.set(this._r, "rejected"); }
    getRange() {
      record({ api: "trackedChange.getRange", text: this._r.text });
      const p = where.get(this._r) || live()[0];
      const at = Math.max(0, p.text.indexOf(this._r.text));
      return new Range(this._ctx, p, at, at + (p.text.indexOf(this._r.text) >= 0 ? this._r.text.length : 0));
    }
  }

  class Range extends ClientObject {
    constructor(ctx, p, start, end) { super(ctx); this._p = p; this._s = start; this._e = end; }
    get text() { this._need("text"); return this._p.text.slice(this._s, this._e); }
    get paragraphs() { const ctx = this._ctx; const p = this._p; return { getFirst: () => new Paragraph(ctx, p) }; }
    expandTo(other) { record({ api: "range.expandTo" }); return new Range(this._ctx, this._p, this._s, other._e); }
    select() { record({ api: "range.select", range: this._p.text.slice(this._s, this._e) }); }
    insertText(text, loc) {
      const old = this._p.text.slice(this._s, this._e);
      record({ api: "range.insertText", text, location: loc, range: old, tracking: doc.tracking });
      if (loc === "Replace") {
        if (old) revise("deletion", old, this._p);
        if (text) revise("insertion", text, this._p);
        this._p.text = this._p.text.slice(0, this._s) + text + this._p.text.slice(this._e);
        return new Range(this._ctx, this._p, this._s, this._s + text.length);
      }
      revise("insertion", text, this._p);
      const at = loc === "Before" || loc === "Start" ? this._s : this._e;
      this._p.text = this._p.text.slice(0, at) + text + this._p.text.slice(at);
      return new Range(this._ctx, this._p, at, at + text.length);
    }
    insertComment(text) { insertComment(this._p, this._s, this._e, text); return {}; }
    delete() {
      const old = this._p.text.slice(this._s, this._e);
      record({ api: "range.delete", range: old, tracking: doc.tracking });
      revise("deletion", old, this._p);
      this._p.text = this._p.text.slice(0, this._s) + this._p.text.slice(this._e);
    }
  }

  class RequestContext {
    constructor() {
      this._tracked = new Set();
      this._errors = [];
      const ctx = this;
      this.document = {
        get changeTrackingMode() { return doc.tracking; },
        set changeTrackingMode(v) { record({ api: "document.changeTrackingMode", value: v }); doc.tracking = v; },
        body: {
          search: (q, o) => search(ctx, live(), q, o, "body.search"),
          insertFileFromBase64: (b64, loc) => { record({ api: "body.insertFileFromBase64", length: b64.length, location: loc, tracking: doc.tracking }); },
          getTrackedChanges: () => {
            if (!(Number(cfg.wordApi || 1.4) >= 1.6)) throw new Error("ApiNotFound: getTrackedChanges needs WordApi 1.6");
            record({ api: "body.getTrackedChanges" });
            return new Collection(ctx, doc.revisions.filter((r) => r.tracked && !decided.has(r)).map((r) => new TrackedChange(ctx, r)));
          },
        },
        getSelection: () => new Range(ctx, live()[doc.selection] || live()[0], 0, 0),
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
      requirements: { isSetSupported: (name, v) => name === "WordApi" && Number(v) <= Number(cfg.wordApi || 1.4) },
      document: {
        url: cfg.url,
        getFileAsync: (type, options, cb) => {
          if (typeof options === "function") { cb = options; options = {}; }
          const sliceSize = (options && options.sliceSize) || 4 * 1024 * 1024;
          record({ api: "getFileAsync", type, sliceSize });
          const count = Math.max(1, Math.ceil(bytes.length / sliceSize));
          const file = {
            size: bytes.length,
            sliceCount: count,
            getSliceAsync: (i, done) => {
              record({ api: "getSliceAsync", index: i });
              const data = Array.from(bytes.subarray(i * sliceSize, Math.min(bytes.length, (i + 1) * sliceSize)));
              setTimeout(() => done(ok({ data, index: i, size: data.length })), 2);
            },
            closeAsync: (done) => { record({ api: "file.closeAsync" }); if (done) setTimeout(() => done(ok()), 1); },
          };
          setTimeout(() => cb(ok(file)), 2);
        },
        addHandlerAsync: (type, handler, cb) => {
          record({ api: "addHandlerAsync", type });
          handlers.push({ type, handler });
          if (cb) cb(ok());
        },
      },
    },
  };

  /** The test moves the cursor: select paragraph ``i`` and fire DocumentSelectionChanged. */
  window.__ledgerHost = {
    select(i) {
      doc.selection = i;
      handlers.filter((h) => h.type === "documentSelectionChanged").forEach((h) => h.handler({ type: "documentSelectionChanged" }));
    },
    texts: () => live().map((p) => p.text),
    /** What getFileAsync returns from now on: the document as the reviewer left it. */
    setFile(base64) { bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)); },
    comments: () => doc.comments,
  };
})();
