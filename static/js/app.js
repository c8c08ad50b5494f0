// The pane's controller: read and upload the document, follow the analysis, outline, selection
// dependencies, preview, apply, check, graph, settings. Talks to the server through api.js, to
// Word through word.js/file.js, to the page through ui.js; announces each phase as a
// "ledger:status" event on window (progress for scripts and tests).
import { LedgerApi, routeKey } from "./api.js";
import { LedgerError, MESSAGES, messageOf } from "./errors.js";
import { readDocument, sha256Hex, toBase64 } from "./file.js";
import { exclusive, queued } from "./guard.js";
import { dependencies, graphFromUnits, impactItems, preview, unitForParagraph } from "./deps.js";
import { backendBase, loadSettings, officeAuthor, saveSettings } from "./settings.js";
import { WordWriteError, applyOperations, openAsNewDocument, resolveTrackedChanges, selectTrackedChange, selectUnit, selectedParagraph,
         selectedUnit, supports, trackedChanges } from "./word.js";
import * as ui from "./ui.js";
import { diffFindings, filterFindings, renderCheck } from "./checkfix.js";
import { neighbourhood } from "./graph.js";
import { humanize, sectionName, sectionOf, snippet, unitName } from "./labels.js";
import { OutlineTree } from "./outline.js";
import { confirmDecision, renderPreview, renderReviewChanges, renderReviewResult } from "./preview.js";
import { reviewItems } from "./changes.js";
import { EDGE_TYPES, KIND_NAMES } from "./vocabulary.js";

/** Edge types the graph draws at first: CONTAINS (every unit's heading) would hide the rest. */
const GRAPH_TYPES = EDGE_TYPES.filter((t) => t !== "CONTAINS");
/** The most nodes one graph view draws (it says how many it leaves out). */
const GRAPH_MAX = 150;

const ROUTE = {
  graph: routeKey("GET", "/api/v1/documents/{}/graph"),
  impact: routeKey("POST", "/api/v1/documents/{}/impact"),
  proposals: routeKey("POST", "/api/v1/documents/{}/proposals"),
  apply: routeKey("POST", "/api/v1/documents/{}/apply"),
  check: routeKey("GET", "/api/v1/documents/{}/check"),
  fix: routeKey("POST", "/api/v1/documents/{}/check/fix"),
  review: routeKey("POST", "/api/v1/documents/{}/revisions/{}/review"),
};

/** The graph is usable (with REFERENCES, without DEPENDS yet) once the references stage is
 * done: the job has moved past it, or ended. */
export function usable(job) {
  if (job.status === "done" || job.status === "failed") return true;
  if (Array.isArray(job.ready)) return job.ready.includes("graph"); // the server says so (issue-20 job fields)
  const seen = job.stages || [];
  const i = seen.indexOf("references");
  return i !== -1 && (i < seen.length - 1 || (job.stage !== "references" && job.stage != null));
}

/** A graph node's name in a narrow pane: its section's number (or title), then its words. */
function graphName(byId, id) {
  const u = byId.get(id);
  if (!u) return "";
  if (u.kind === "section" || u.kind === "title") return sectionName(u);
  const sec = sectionOf(byId, id);
  const where = sec ? (sec.number || sectionName(sec)) : "";
  return `${where ? `${where} · ` : ""}${u.title || u.text || ""}`;
}

/** Events that do not change the pane's state (body[data-state]). */
const SIDE_EVENTS = new Set(["proposals-ready", "selection", "jump", "checked", "review-listed", "change-resolved", "analysed", "graph-drawn", "growing",
  "outlined", "refreshed", "recovered", "server-lost", "decision-pending", "decision-undone", "opened-copy", "resynced"]);

/** Error codes that mean the server is away (the pane watches for its return). */
const AWAY = new Set(["unreachable", "timeout", "store_unavailable", "internal_error", "job_lost"]);
/** How often the pane asks whether the server is back, in ms (grows to RECOVER_MAX). */
export const RECOVER_EVERY = 1500;
const RECOVER_MAX = 6000;
/** How long after the user's last keystroke the pane reads the document again, in ms. */
const EDIT_SETTLE = 1200;


export class TaskPane {
  constructor({ Office = null, Word = null, storage = null, location = null } = {}) {
    this.Office = Office;
    this.Word = Word;
    this.storage = storage;
    this.location = location;
    this.settings = loadSettings(storage);
    this.doc = null;
    this.sha = null;
    this.units = [];
    this.byId = new Map();
    this.graph = null;
    this.routes = new Set();
    this.proposal = null;
    this.applied = null;
    this.selected = null;
    this.types = [...GRAPH_TYPES];
    this.findings = [];
    this.api = this.makeApi();
    // One upload at a time, and an action that needs the document waits for the one under way;
    // Preview, Apply and Check ignore clicks while they run.
    this.sync = queued(this.sync);
    this.preview = exclusive(this.preview);
    this.apply = exclusive(this.apply);
    this.check = exclusive(this.check);
    this.reviewRound = exclusive(this.reviewRound);
    this.reviewed = null; // the last applied revision: {doc, revision, operations}
    this.proposalMeta = null; // what made the preview on screen: {instruction, fix, target, document, units}
    this.refresh = queued(this.refresh);
  }

  /** The author LEDGER records: the setting, else the Office account's name where Office tells
   * it, else "LEDGER" (Word itself writes its tracked changes under the signed-in account). */
  author() {
    return this.settings.author || officeAuthor(this.Office) || "LEDGER";
  }

  makeApi() {
    return new LedgerApi({ baseUrl: backendBase(this.settings, this.location), apiKey: this.settings.apiKey });
  }

  emit(phase, detail = {}) {
    // a quiet re-read (after an Apply, or the user's typing) leaves the pane's state as it was
    if (!SIDE_EVENTS.has(phase) && !((this.quiet || detail.quiet) && phase !== "error")) document.body.dataset.state = phase;
    window.dispatchEvent(new CustomEvent("ledger:status", { detail: { phase, ...detail } }));
  }

  fail(err, phase = "error") {
    ui.hideProgress();
    ui.showMessage(this.say(messageOf(err)), "error");
    this.emit(phase, { code: err?.code ?? "error", message: messageOf(err) });
    if (AWAY.has(err?.code)) this.watchServer();
  }

  /** The server went away: ask every few seconds whether it is back, and when it is, say so and
   * carry on by itself (read the document again, or start over when it never started). */
  watchServer() {
    if (this.watching) return;
    this.watching = true;
    this.emit("server-lost");
    let wait = RECOVER_EVERY;
    const tick = async () => {
      try {
        await this.api.request("GET", "/api/v1/version");
      } catch {
        wait = Math.min(RECOVER_MAX, Math.round(wait * 1.5));
        this.watchTimer = setTimeout(tick, wait);
        return;
      }
      this.watching = false;
      ui.showMessage("The LEDGER server is back.", "success");
      this.emit("recovered");
      if (!this.started) await this.start(this.officeInfo);
      else await this.refresh();
    };
    this.watchTimer = setTimeout(tick, wait);
  }

  /** A server string in words: unit and operation ids named, bookmarks and finding ids gone. */
  say(text) {
    const ops = this.view?.grouped?.opById || this.reviewGrouped?.opById;
    const byId = this.byId.size ? this.byId : this.reviewById || this.byId;
    return humanize(text, {
      bookmarks: this.bookmarks,
      unitName: (id) => unitName(byId, id, { text: false }) || unitName(this.reviewById || new Map(), id, { text: false }) || null,
      opName: (id) => { const o = ops?.get(id); const sec = o && sectionOf(this.byId, o.unit); return sec ? `the change in ${sectionName(sec)}` : null; },
    });
  }

  has(route) {
    return this.routes.has(ROUTE[route]);
  }

  /** Wires the page and reads the document (when Word is there). */
  async start(officeInfo) {
    if (!this.wired) { this.wire(); this.wired = true; }
    this.officeInfo = officeInfo;
    ui.fillSettings(this.settings, this.author());
    try {
      this.routes = await this.api.routes();
      const v = await this.api.request("GET", "/api/v1/version");
      document.getElementById("server-info").textContent = `Server ${this.api.baseUrl || location.origin}: LEDGER ${v.version}, formats ${v.formats.join(", ")}.`;
    } catch (err) {
      this.fail(err, "offline");
      return;
    }
    if (!this.Word || !officeInfo || officeInfo.host !== this.Office?.HostType?.Word) {
      ["btn-preview", "btn-refresh", "btn-check"].forEach((id) => { document.getElementById(id).disabled = true; });
      this.fail(new LedgerError("office_unavailable"), "no-office");
      return;
    }
    if (this.Office.context?.requirements && !this.Office.context.requirements.isSetSupported("WordApi", "1.4")) {
      ui.showMessage(MESSAGES.word_too_old, "info");
    }
    if (!this.started) {
      this.Office.context.document.addHandlerAsync?.(this.Office.EventType.DocumentSelectionChanged, () => this.onSelection());
      this.watchEdits();
    }
    this.started = true;
    await this.sync();
  }

  wire() {
    const on = (id, ev, fn) => document.getElementById(id).addEventListener(ev, fn);
    document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => {
      ui.selectTab(b.dataset.tab);
      if (b.dataset.tab === "graph") this.drawGraph();
    }));
    // the tab bar's keyboard (Fluent/ARIA tabs): Left and Right move between tabs, Home and End
    document.querySelector(".tabs").addEventListener("keydown", (e) => {
      const tabs = [...document.querySelectorAll(".tabs button")];
      const i = tabs.indexOf(document.activeElement);
      const j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
      if (i === -1 || j === undefined) return;
      e.preventDefault();
      const t = tabs[(j + tabs.length) % tabs.length];
      t.focus();
      t.click();
    });
    this.tree = new OutlineTree(document.getElementById("outline"), (id) => this.jump(id));
    on("outline-search", "input", (e) => this.filterOutline(e.target.value));
    on("btn-outline-expand", "click", () => this.tree.expandAll(true));
    on("btn-outline-collapse", "click", () => this.tree.expandAll(false));
    on("check-search", "input", () => this.showFindings());
    on("check-severity", "change", () => this.showFindings());
    on("graph-section", "change", () => { this.graphFocus = null; this.drawGraph(); });
    on("graph-hops", "change", () => this.drawGraph());
    on("btn-graph-prev", "click", () => this.stepSection(-1));
    on("btn-graph-next", "click", () => this.stepSection(1));
    on("btn-select-all", "click", () => this.view?.setAll(true));
    on("btn-select-none", "click", () => this.view?.setAll(false));
    on("message-close", "click", () => ui.clearMessage());
    // Escape closes what is open: a confirmation, the message, an expanded finding
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && ui.closeTopmost()) e.preventDefault(); });
    on("btn-settings", "click", () => { ui.fillSettings(this.settings); ui.selectTab("settings"); });
    on("btn-settings-close", "click", () => ui.selectTab("edit"));
    on("settings-form", "submit", (e) => { e.preventDefault(); this.saveSettings(); });
    on("btn-refresh", "click", () => this.sync(true));
    on("btn-review", "click", () => this.reviewRound());
    on("btn-preview", "click", () => this.preview());
    on("btn-discard", "click", () => { this.proposal = null; this.view = null; ui.hidePreview(); });
    on("btn-apply", "click", () => this.apply());
    on("btn-fallback", "click", () => this.openCopy());
    on("btn-check", "click", () => this.check());
  }

  async saveSettings() {
    const { settings, errors } = saveSettings(this.storage, ui.readSettingsForm());
    ui.showSettingsErrors(errors);
    if (Object.keys(errors).length) return;
    const moved = backendBase(settings, this.location) !== backendBase(this.settings, this.location) || settings.apiKey !== this.settings.apiKey;
    this.settings = settings;
    this.api = this.makeApi();
    ui.showMessage("Settings saved.", "success");
    ui.selectTab("edit");
    if (moved) { // another server: the document goes there too, and its check starts afresh
      this.doc = null;
      this.sha = null;
      this.checked = false;
      this.findings = [];
      this.showFindings();
    }
    await this.start({ host: this.Office?.HostType?.Word && this.Word ? this.Office.HostType.Word : null });
  }

  /** Reads the document and uploads it when it changed since the last upload (or ``force``).
   * ``quiet``: a re-read after an Apply or the user's typing; the message on screen and the
   * views stay (outline, graph section, Check results), only the progress line shows. */
  async sync(force = false, { quiet = false } = {}) {
    this.quiet = quiet;
    try {
      if (!quiet) ui.clearMessage();
      ui.showProgress("Reading the document…", 0);
      const tRead = Date.now();
      this.emit("reading", { fraction: 0, quiet });
      const bytes = await readDocument(this.Office, {
        sliceSize: this.settings.sliceKiB * 1024,
        onProgress: (done, total) => {
          ui.showProgress("Reading the document…", total ? done / total : 0);
          this.emit("reading", { fraction: total ? done / total : 0, bytes: done, total, quiet });
        },
      });
      const tUpload = Date.now();
      const sha = await sha256Hex(bytes);
      if (!force && this.doc && sha === this.sha) { ui.hideProgress(); this.emit("ready", { unchanged: true }); return false; }
      const name = (this.Office.context.document.url || "").split(/[\\/]/).pop() || "document.docx";
      ui.setDocName(name);
      this.emit("uploading", { fraction: 0, total: bytes.length });
      const doc = await this.api.upload(bytes, name, (sent, total) => {
        ui.showProgress("Uploading…", total ? sent / total : 0);
        this.emit("uploading", { fraction: total ? sent / total : 0, bytes: sent, total });
      });
      const tUploaded = Date.now();
      this.doc = doc;
      this.sha = sha;
      this.applied = null; // a revision belongs to the upload it was applied to, not to this one
      ui.setDocName(`${doc.filename || name} · ${doc.units} units`);
      this.emit("uploaded", { document: doc.id, sha256: doc.sha256, units: doc.units });
      // The outline and the units need no graph: show them at once, then the graph as soon
      // as the references stage has stored it; later stages update what is shown.
      const unitsLoad = this.api.units(doc.id);
      unitsLoad.catch(() => {}); // awaited below; an outline error must not leave it unhandled
      const outline = await this.api.outline(doc.id);
      this.outline = outline.outline;
      this.renderOutline(quiet);
      this.emit("outlined", { document: doc.id, outline: outline.outline.length });
      const units = await unitsLoad;
      this.units = units;
      this.byId = new Map(units.map((u) => [u.id, u]));
      // the document's bookmark names, to say "the paragraph it marks" where a server string names one
      this.bookmarks = new Map(units.flatMap((u) => (u.fields || []).filter((f) => f.target && f.target_unit).map((f) => [f.target, f.target_unit])));
      this.fillSections();
      if (this.selected) this.selected = this.byId.get(this.selected.id) || null;
      this.timing = { read: (tUpload - tRead) / 1000, upload: (tUploaded - tUpload) / 1000, units: (Date.now() - tUploaded) / 1000 };
      const graphed = (async () => {
        const job = await this.api.waitForJob(doc.job, (j) => this.showJob(j, quiet ? "growing" : "analysing"), { until: usable });
        if (this.doc?.id !== doc.id) return;
        await this.loadGraph();
        this.emit("ready", { document: doc.id, outline: outline.outline.length, complete: job.status === "done", quiet });
        if (job.status === "done") this.analysed(job); else this.follow(job, doc.id);
        if (!document.getElementById("tab-graph").hidden) this.drawGraph();
      })();
      // a re-read after an Apply or the user's typing is done once the text is in (outline, Go to,
      // placing the next changes); the graph of the new text follows by itself
      if (quiet) graphed.catch((err) => { if (this.doc?.id === doc.id) this.fail(err); });
      else await graphed;
      return true;
    } catch (err) {
      this.fail(err);
      return false;
    } finally {
      this.quiet = false;
    }
  }

  /** The pane made true again after an Apply or the user's typing: the document read and
   * uploaded again (when it changed), every view kept, and the Check results kept with the
   * findings the change resolved marked. */
  async refresh() {
    const t0 = Date.now();
    const changed = await this.sync(false, { quiet: true });
    if (changed) this.emit("resynced", { seconds: (Date.now() - t0) / 1000, timing: this.timing });
    if (changed && this.checked) await this.check({ keep: true });
    this.emit("refreshed", { changed, seconds: (Date.now() - t0) / 1000, document: this.doc?.id ?? null, ...(changed ? { timing: this.timing } : {}) });
  }

  /** WordApi 1.6: the user's typing (Document.onParagraphChanged/Added/Deleted) makes the
   * pane read the document again once the typing settles; older hosts read it at the next
   * action. The pane's own writes are not the user's. */
  async watchEdits() {
    if (!supports(this.Office, "1.6")) return;
    const settle = () => {
      if (this.writing) return;
      clearTimeout(this.editTimer);
      this.editTimer = setTimeout(() => this.refresh(), EDIT_SETTLE);
    };
    try {
      await this.Word.run(async (context) => {
        for (const ev of ["onParagraphChanged", "onParagraphAdded", "onParagraphDeleted"]) context.document[ev]?.add?.(settle);
        await context.sync();
      });
    } catch { /* the host has no paragraph events: the next action reads the document */ }
  }

  /** The job's progress, naming every stage; ``phase`` "growing" once the pane is usable. */
  showJob(job, phase = "analysing") {
    const stage = ui.STAGE_NAMES[job.stage] || job.stage;
    ui.showProgress(job.status === "done" ? "Analysis done" : `Analysing: ${stage || "…"}`, job.progress ?? 0, job);
    this.emit(phase, { stage: job.stage, stages: job.stages, fraction: job.progress ?? 0, status: job.status });
  }

  /** Follows the rest of the analysis (DEPENDS, RELATED) without holding the pane. */
  async follow(job, docId) {
    document.getElementById("analysis-note").hidden = false;
    const note = (j) => {
      document.getElementById("analysis-note").textContent = (j.ready || []).includes("proposals")
        ? "Related passages are still being found; a proposal made now uses the dependencies found so far."
        : "Dependencies and related passages are still being found; a proposal made now waits for the dependencies.";
    };
    note(job);
    if ((job.ready || []).includes("proposals")) this.emit("proposals-ready", { stage: job.stage });
    try {
      const seen = new Set(job.ready || []);
      const done = await this.api.waitForJob(job, (j) => {
        if (this.doc?.id !== docId) return;
        this.showJob(j, "growing");
        // a later stage stored its edges: show them without waiting for the end
        const fresh = (j.ready || []).filter((r) => !seen.has(r));
        fresh.forEach((r) => seen.add(r));
        note(j);
        if (fresh.includes("proposals")) this.emit("proposals-ready", { stage: j.stage });
        if (fresh.some((r) => r === "depends" || r === "related")) this.refreshGraph(docId);
      });
      if (this.doc?.id !== docId) return;
      await this.loadGraph();
      this.analysed(done);
      if (this.selected) await this.showSelection();
      if (!document.getElementById("tab-graph").hidden) this.drawGraph();
    } catch (err) {
      if (this.doc?.id === docId) this.fail(err);
    }
  }

  async refreshGraph(docId) {
    try {
      await this.loadGraph();
      if (this.doc?.id !== docId) return;
      if (this.selected) await this.showSelection();
      if (!document.getElementById("tab-graph").hidden) this.drawGraph();
    } catch { /* the final graph comes with the job's end */ }
  }

  analysed(job) {
    document.getElementById("analysis-note").hidden = true;
    ui.hideProgress();
    this.emit("analysed", { stages: job.stages, complete: true });
  }

  renderOutline(keep = false) {
    this.tree.render(this.outline || [], { keep });
    const empty = document.getElementById("outline-empty");
    empty.hidden = (this.outline || []).length > 0;
    if (!(this.outline || []).length) empty.textContent = "This document has no headings.";
  }

  filterOutline(query) {
    const shown = this.tree.filter(query);
    const n = shown ? [...shown].length : 0;
    document.getElementById("outline-count").textContent = shown ? `${n} heading${n === 1 ? "" : "s"} shown` : "";
  }

  async loadGraph() {
    this.graphNote = "";
    if (this.has("graph")) {
      try {
        this.graph = await this.api.graph(this.doc.id);
        this.graphNote = this.graph.complete ? "" : "The graph is still growing: dependencies and related passages come last.";
        return;
      } catch (err) {
        if (err.code !== "graph_not_ready") throw err;
        this.graphNote = MESSAGES.graph_not_ready;
      }
    }
    this.graph = graphFromUnits(this.units);
    this.graphNote ||= "Built from the document's headings and reference fields; this server does not serve the full graph.";
  }

  /** Fills the graph tab's section list (every heading, in document order). */
  fillSections() {
    const sel = document.getElementById("graph-section");
    const was = sel.value;
    const secs = this.units.filter((u) => u.kind === "section");
    sel.replaceChildren(...secs.map((u) => {
      const o = document.createElement("option");
      o.value = u.id;
      o.textContent = `${"\u00a0\u00a0".repeat(Math.max(0, (u.level || 1) - 1))}${sectionName(u)}`;
      return o;
    }));
    if (was && secs.some((u) => u.id === was)) sel.value = was; // the section shown stays shown
  }

  stepSection(d) {
    const sel = document.getElementById("graph-section");
    const i = Math.max(0, Math.min(sel.options.length - 1, sel.selectedIndex + d));
    sel.selectedIndex = i;
    this.graphFocus = null;
    this.drawGraph();
  }

  /** The graph around the selected unit, else around the section chosen in the list. */
  drawGraph() {
    if (!this.graph) return;
    const hops = Number(document.getElementById("graph-hops").value || 1);
    const sel = document.getElementById("graph-section");
    let centres;
    let focus;
    if (this.graphFocus && this.byId.has(this.graphFocus)) {
      centres = [this.graphFocus];
      const sec = sectionOf(this.byId, this.graphFocus);
      if (sec && [...sel.options].some((o) => o.value === sec.id)) sel.value = sec.id;
      focus = `Around ${unitName(this.byId, this.graphFocus, { text: false })}`;
    } else {
      const sec = sel.value;
      centres = this.units.filter((u) => u.id === sec || u.parent === sec).map((u) => u.id);
      focus = sec ? `Section ${sectionName(this.byId.get(sec))} and its paragraphs` : "";
    }
    const view = neighbourhood(this.graph, centres, { types: this.types, hops, max: GRAPH_MAX });
    view.nodes = view.nodes.map((n) => ({ ...n, name: graphName(this.byId, n.id) || n.preview || n.label }));
    const count = `Showing ${view.nodes.length} of ${view.total} nodes` + (view.truncated
      ? ` (${view.reached} are within ${hops} hop${hops === 1 ? "" : "s"}; the nearest ${view.nodes.length} are drawn)` : "");
    document.getElementById("graph-focus").textContent = focus;
    ui.renderGraph(this.graph, {
      types: this.types, selected: this.selected?.id, note: this.graphNote, view, count,
      onPick: (id) => { this.graphFocus = id; this.jump(id); this.drawGraph(); },
      onToggle: (t, on) => { this.types = on ? [...this.types, t] : this.types.filter((x) => x !== t); this.drawGraph(); },
    });
    this.emit("graph-drawn", { nodes: view.nodes.length, total: view.total, reached: view.reached, truncated: view.truncated });
  }

  onSelection() {
    clearTimeout(this.selTimer);
    this.selTimer = setTimeout(() => this.showSelection(), 250);
  }

  async showSelection() {
    if (!this.doc || !this.graph) return;
    try {
      let text = await selectedParagraph(this.Word);
      let unit = unitForParagraph(this.units, text);
      if (!unit && text.trim()) {
        // the paragraph reads differently in Word now (tracked changes, typing): by position
        const at = await selectedUnit(this.Word, this.units);
        text = at.text;
        unit = at.unit ? this.byId.get(at.unit) : null;
      }
      this.selected = unit;
      if (!unit) {
        ui.clearDeps(text.trim() ? "This paragraph is new since the document was read; LEDGER reads it again when you stop typing (or click ⟳)." : "Click in a paragraph with text.");
        this.emit("selection", { unit: null });
        return;
      }
      this.graphFocus = unit.id;
      const sec = sectionOf(this.byId, unit.id);
      if (sec) this.tree.setCurrent(sec.id);
      const deps = dependencies(this.graph, this.byId, unit.id);
      let source = this.graph.origin === "units" ? "Edges from headings and reference fields." : "Edges from the dependency graph.";
      if (this.has("impact")) {
        const impact = await this.api.impact(this.doc.id, { unit: unit.id });
        const direct = new Set(deps.dependents.map((d) => d.unit));
        deps.dependents.push(...impactItems(impact, this.byId).filter((i) => !direct.has(i.unit)));
        source = "Edges from the dependency graph, with what an edit here would impact.";
      }
      const named = (i) => ({ ...i, label: unitName(this.byId, i.unit) || i.label });
      deps.references = deps.references.map(named);
      deps.dependents = deps.dependents.map(named);
      if (deps.parent) deps.parent = named(deps.parent);
      ui.renderDeps(deps, unit, KIND_NAMES[unit.kind] || unit.kind, (id) => this.jump(id), source, (t) => this.say(t));
      if (!document.getElementById("tab-graph").hidden) this.drawGraph();
      this.emit("selection", { unit: unit.id, references: deps.references.length, dependents: deps.dependents.length });
    } catch (err) {
      this.fail(err);
    }
  }

  async jump(unitId) {
    // a unit of the upload on screen, else of the one a preview or a review was made on
    const sets = [[this.byId, this.units], [this.proposalMeta?.byId, this.proposalMeta?.units], [this.reviewById, null]];
    const [byId, units] = sets.find(([m]) => m?.has(unitId)) || [null, null];
    const unit = byId?.get(unitId);
    if (!unit) return;
    try {
      const found = await selectUnit(this.Word, unit, units || [...byId.values()]);
      if (!found) ui.showMessage(`"${preview(unit)}" is no longer in the document as Word has it (deleted or rewritten since it was read).`, "info");
      this.emit("jump", { unit: unitId, found });
    } catch (err) {
      this.fail(err);
    }
  }

  /** Instruction -> proposal (after a fresh upload when the document changed). */
  async preview() {
    const instruction = document.getElementById("instruction").value.trim();
    if (!instruction) { ui.showMessage("Type an instruction first, for example: Rename 'supplier' to 'vendor' everywhere.", "info"); return; }
    if (!this.has("proposals")) { this.fail(new LedgerError("not_found", "POST /api/v1/documents/{id}/proposals")); return; }
    await this.sync();
    if (!this.doc) return;
    ui.hidePreview();
    ui.showProgress("Preparing the proposal…", null);
    this.emit("proposing");
    try {
      const body = { instruction, author: this.author() };
      if (document.getElementById("only-selection").checked && this.selected) body.target = this.selected.id;
      this.proposal = await this.api.propose(this.doc.id, body, (job) => ui.showProgress(`Preparing: ${ui.STAGE_NAMES[job.stage] || job.stage || "…"}`, job.progress ?? null, job));
      this.proposalMeta = { instruction, target: body.target ?? null, fix: null, document: this.doc.id, units: this.units, byId: this.byId };
      ui.hideProgress();
      this.showPreview();
      this.emit("preview", { proposal: this.proposal.id, operations: (this.proposal.operations || []).length });
    } catch (err) {
      this.fail(err);
    }
  }

  showPreview() {
    this.view = renderPreview(this.proposal, { author: this.author(), byId: this.proposalMeta?.byId || this.byId, onPick: (id) => this.jump(id),
                                               bookmarks: this.bookmarks });
    document.getElementById("preview").scrollIntoView?.({ block: "start" });
  }

  /** Apply: every kept change that Word can place is placed by position and checked; the server
   * writes exactly those (audit, revision file), then Word writes them with tracking on. The
   * changes that cannot be placed are listed, each with why and its paragraph's words. Then the
   * pane reads the document again, keeping every view. */
  async apply() {
    if (!this.proposal) return;
    const proposal = this.proposal;
    const meta = this.proposalMeta || { units: this.units, document: this.doc?.id };
    const keep = new Set(this.view.kept());
    const ops = (proposal.operations || []).filter((o) => keep.has(o.id));
    const docId = proposal.document || meta.document || this.doc.id;
    ui.clearMessage();
    ui.hideFallback();
    ui.showProgress("Applying…", null);
    this.emit("applying");
    let res = null;
    let stage = "placing";
    this.writing = true;
    try {
      const out = await applyOperations(this.Word, ops, meta.units || this.units, {
        comments: supports(this.Office, "1.4"), lists: supports(this.Office, "1.3"), reviewed: supports(this.Office, "1.4"),
        commit: async (placed) => {
          if (!placed.length) return [];
          stage = "server";
          res = await this.api.apply(docId, { proposal_id: proposal.id, operations: placed, author: this.author(), instruction: proposal.instruction });
          stage = "word";
          return (res.operations || []).map((o) => o.id);
        },
      });
      ui.hideProgress();
      const grouped = this.view.grouped;
      const written = new Set(out.written);
      const skipped = (res?.skipped || []).filter((k) => !written.has(k.id)).map((k) => ({ op: k.id, reason: k.reason, unit: grouped.opById.get(k.id)?.unit ?? null }));
      const left = [...out.failures, ...skipped];
      if (!written.size) {
        ui.showFallback(`No change could be placed in Word, so nothing changed in your document.`, this.notPlaced(left, grouped),
                        supports(this.Office, "1.3") ? "Open the whole edit as a new document" : null);
        this.emit("apply-failed", { failures: left.map((f) => ({ op: f.op, reason: f.reason })) });
        return;
      }
      this.applied = res;
      this.proposal = null; // applied: a further click has nothing to apply
      this.reviewGrouped = grouped;
      this.reviewById = meta.byId || this.byId; // the units the changes were made on (the next upload has others)
      this.reviewInstruction = proposal.instruction || "";
      this.view = null;
      ui.hidePreview();
      const n = written.size;
      ui.showMessage(`${n} change${n === 1 ? "" : "s"} applied as tracked changes${left.length ? `; ${left.length} could not be placed (listed below)` : ""}. `
        + "Review them below or in Word: Review > Accept or Reject.", left.length ? "info" : "success");
      if (left.length) {
        ui.showFallback(`${left.length} change${left.length === 1 ? "" : "s"} could not be placed in Word; the others are in your document.`,
                        this.notPlaced(left, grouped), supports(this.Office, "1.3") ? "Open the whole edit as a new document" : null);
      }
      this.verification = res.findings || [];
      this.reviewed = { doc: docId, revision: res.revision, operations: res.operations, proposal: proposal.id, kept: [...keep] };
      this.resolvedOps = new Set(); // operations the reviewer accepted or rejected in the pane
      this.emit("applied", { applied: out.applied, changes: n, notPlaced: left.length, failures: left.map((f) => ({ op: f.op, reason: f.reason })),
                             revision: res.revision, document: docId, server: this.api.baseUrl || "", comments: out.comments ?? 0 });
      await this.listReview();
      this.writing = false;
      await this.refresh();
    } catch (err) {
      ui.hideProgress();
      if (stage === "server" && (err?.code === "unknown_proposal" || err?.code === "unknown_document")) {
        await this.remakePreview("The server no longer had this preview");
      } else if (stage === "server" && AWAY.has(err?.code)) {
        ui.showMessage(`Apply was interrupted: the server stopped answering before anything was written. Nothing changed in your document; `
          + "Apply again once the server is back (the pane reconnects by itself).", "error");
        this.emit("apply-interrupted", { code: err.code, stage });
        this.watchServer();
      } else if (err instanceof WordWriteError) {
        ui.showMessage(`The server recorded the edit, but Word did not write it: ${err.message}. `
          + "Look at Review > Tracked Changes in Word for what it holds, then read the document again (⟳).", "error");
        this.emit("apply-interrupted", { code: "word", stage });
      } else {
        this.fail(err);
        if (stage === "server") ui.showMessage(`${this.say(messageOf(err))} Nothing changed in your document. Preview again to make a fresh proposal.`, "error");
      }
    } finally {
      this.writing = false;
    }
  }

  /** The changes Apply could not place, one line each: the change in words, where, the words
   * of its paragraph, and why. */
  notPlaced(left, grouped) {
    return left.map((f) => {
      const cid = grouped.changeOf.get(f.op) ?? f.op;
      const op = grouped.opById.get(f.op) || {};
      const g = grouped.groups.find((x) => x.changes.some((c) => c.id === cid));
      const where = op.unit ? unitName(this.proposalMeta?.byId || this.byId, op.unit, { text: false }) : "";
      const words = f.words ? `“${f.words}”` : "";
      return [g ? this.say(g.title) : "A change", where, words].filter(Boolean).join(" · ") + `: ${this.say(f.reason)}`;
    });
  }

  /** The preview on screen belongs to a document the server no longer has (another server in
   * Settings, an expired upload): it is made again on the document as it is now, never
   * answered with ids. */
  async remakePreview(why) {
    const meta = this.proposalMeta;
    this.proposal = null;
    this.view = null;
    ui.hidePreview();
    if (!meta) return;
    await this.sync();
    if (!this.doc) return;
    try {
      ui.showProgress("Making the preview again…", null);
      this.emit("proposing", { remade: true });
      this.proposal = meta.fix
        ? await this.api.fixFindings(this.doc.id, { findings: meta.fix, author: this.author() })
        : await this.api.propose(this.doc.id, { instruction: meta.instruction, author: this.author(), ...(meta.target && this.byId.has(meta.target) ? { target: meta.target } : {}) },
          (job) => ui.showProgress(`Preparing: ${ui.STAGE_NAMES[job.stage] || job.stage || "…"}`, job.progress ?? null, job));
      this.proposalMeta = { ...meta, document: this.doc.id, units: this.units, byId: this.byId };
      ui.hideProgress();
      this.showPreview();
      ui.showMessage(`${why}, so the preview was made again on the document as it is now. Check it, then Apply.`, "info");
      this.emit("preview", { proposal: this.proposal.id, operations: (this.proposal.operations || []).length, remade: true });
    } catch (err) {
      this.fail(err);
    }
  }

  /** The whole edit (every kept change, placed or not) written by the server and opened as a
   * NEW document in Word: the user's document is never replaced. */
  async openCopy() {
    const r = this.reviewed;
    const docId = r?.doc || this.proposalMeta?.document;
    const kept = r?.kept || (this.view ? this.view.kept() : null);
    const proposalId = r?.proposal || this.proposal?.id;
    if (!docId || !proposalId) return;
    try {
      ui.showProgress("Writing the whole edit into a copy…", null);
      const res = await this.api.apply(docId, { proposal_id: proposalId, operations: kept || undefined, author: this.author(), instruction: this.proposalMeta?.instruction });
      const bytes = await this.api.bytes(res.download);
      await openAsNewDocument(this.Word, toBase64(bytes));
      ui.hideProgress();
      ui.showMessage("The whole edit opened as a new document in Word, with its tracked changes; your document is as it was.", "success");
      this.emit("opened-copy", { revision: res.revision, changes: (res.operations || []).length });
    } catch (err) {
      this.fail(err);
    }
  }

  /** LEDGER's pending tracked changes with their reasons (WordApi 1.6), else a pointer to
   * Word's own Review pane. */
  async listReview() {
    if (!this.reviewed) return;
    try {
      const changes = supports(this.Office, "1.6") ? await trackedChanges(this.Word, this.pendingOps()) : null;
      const items = renderReviewChanges(changes, this.reviewGrouped, {
        byId: this.reviewById || this.byId, onDecide: (list, accept, title) => this.decide(list, accept, title), onPick: (it) => this.gotoChange(it),
        say: (t) => this.say(t), instruction: this.reviewInstruction || "" });
      this.emit("review-listed", { changes: changes ? items.length : null, tracked: changes ? changes.filter((c) => c.op).length : null });
    } catch (err) {
      this.fail(err);
    }
  }

  /** The applied operations still waiting in Word: Word's pieces are matched to these only (a
   * resolved "Connection ID" must not take the next change's "ID"). */
  pendingOps() {
    return (this.reviewed?.operations || []).filter((o) => !this.resolvedOps?.has(o.id));
  }

  /** Accepts or rejects review items (each the Word changes of one change of the preview); a
   * decision on many is asked first and waits a few seconds with an Undo (confirmDecision). The
   * items are found again in Word's list when the decision is made, so a change the user made
   * meanwhile does not shift it onto other changes. */
  decide(items, accept, title = "") {
    ui.clearMessage(); // the "applied" message has had its say
    const keys = new Set(items.map((it) => it.key));
    const count = items.length;
    confirmDecision(count, accept, title, () => this.decideNow(keys, accept), {
      onPending: () => this.emit("decision-pending", { items: count, accept }),
      onUndone: () => { ui.showMessage(`Nothing was ${accept ? "accepted" : "rejected"}: the ${count} changes wait for your review.`, "info"); this.emit("decision-undone", { items: count }); },
    });
  }

  async decideNow(keys, accept) {
    try {
      const changes = await trackedChanges(this.Word, this.pendingOps());
      const items = reviewItems(changes, this.reviewGrouped).filter((it) => keys.has(it.key));
      const indices = items.flatMap((it) => it.indices);
      await resolveTrackedChanges(this.Word, indices, accept);
      items.forEach((it) => [...it.ops].forEach((id) => this.resolvedOps?.add(id)));
      this.emit("change-resolved", { items: items.length, changes: indices.length, accept });
      await this.listReview();
    } catch (err) {
      this.fail(err);
    }
  }

  async gotoChange(item) {
    try {
      const found = await selectTrackedChange(this.Word, item.indices[0]);
      if (!found && item.unit) await this.jump(item.unit);
      this.emit("jump", { change: item.key, found });
    } catch (err) {
      this.fail(err);
    }
  }

  /** The review round trip: the document as it is now (after the reviewer's decisions) goes
   * to the server, which says for each operation of the revision whether it was accepted,
   * rejected or is pending, and what the result breaks. */
  async reviewRound() {
    if (!this.reviewed) { ui.showMessage("Apply an edit first: the review compares the document with what LEDGER wrote.", "info"); return; }
    if (!this.has("review")) { this.fail(new LedgerError("not_found", "POST /api/v1/documents/{id}/revisions/{rev}/review")); return; }
    try {
      ui.showProgress("Reading the reviewed document…", 0);
      const bytes = await readDocument(this.Office, { sliceSize: this.settings.sliceKiB * 1024 });
      ui.showProgress("Checking the review…", null);
      const res = await this.api.review(this.reviewed.doc, this.reviewed.revision, bytes);
      ui.hideProgress();
      const placeOf = (o) => { const p = this.reviewGrouped?.opById.get(o.id); return p ? unitName(this.byId, p.unit, { text: false }) : null; };
      const groups = renderReviewResult(res, { onPick: (id) => id && this.jump(id), say: (t) => this.say(t), placeOf, grouped: this.reviewGrouped,
                                                      textOf: (o) => `“${snippet(this.byId.get(o.unit)?.text || "", 48)}”`.replace(/^“”$/, "") });
      ui.renderFindings(document.getElementById("review-findings"), res.new_findings || [], (id) => this.jump(id), false, (t) => this.say(t));
      this.sha = null; // the next action uploads the reviewed document
      this.emit("reviewed", { counts: res.counts, consistent: res.consistent, operations: (res.operations || []).length,
                               items: groups.reduce((n, g) => n + g.items.length, 0), groups: groups.map((g) => g.title) });
    } catch (err) {
      this.fail(err);
    }
  }

  /** Runs the check on the document as it is now. ``keep``: after an Apply or the user's
   * typing, the earlier results stay, marked where the change resolved them. */
  async check({ keep = false } = {}) {
    if (!this.has("check")) { this.fail(new LedgerError("not_found", "GET /api/v1/documents/{id}/check")); return; }
    if (!keep) await this.sync();
    if (!this.doc) return;
    try {
      if (!keep) ui.showProgress("Checking…", null);
      const res = await this.api.check(this.doc.id);
      ui.hideProgress();
      const now = res.findings || [];
      const before = (this.findings || []).filter((f) => !f.resolved);
      this.findings = keep && this.checked ? diffFindings(before, now) : now;
      this.checked = true;
      this.showFindings();
      const resolved = this.findings.filter((f) => f.resolved).length;
      this.emit("checked", { findings: now.length, resolved, kept: keep });
    } catch (err) {
      this.fail(err);
    }
  }

  /** The Check tab's list under its filter: severity and words. */
  showFindings() {
    const severity = document.getElementById("check-severity").value;
    const query = document.getElementById("check-search").value;
    const shown = filterFindings(this.findings, { severity, query });
    renderCheck(document.getElementById("findings"), shown, {
      onPick: (id) => this.jump(id), onFix: this.has("fix") ? (ids, label) => this.fix(ids, label) : null, say: (t) => this.say(t) });
    const open = this.findings.filter((f) => !f.resolved).length;
    const resolved = this.findings.length - open;
    document.getElementById("check-count").textContent = this.findings.length
      ? `Showing ${shown.filter((f) => !f.resolved).length} of ${open} finding${open === 1 ? "" : "s"}${resolved ? ` · ${resolved} resolved by your last change` : ""}` : "";
  }

  /** Check findings -> a proposal shown in the preview; Apply writes it as tracked changes. */
  async fix(ids, label = "Fix") {
    await this.sync();
    if (!this.doc) return;
    ui.hidePreview();
    ui.showProgress("Preparing the fixes…", null);
    this.emit("proposing", { fix: ids.length });
    try {
      this.proposal = await this.api.fixFindings(this.doc.id, { findings: ids, author: this.author() });
      this.proposalMeta = { instruction: label, target: null, fix: ids, document: this.doc.id, units: this.units, byId: this.byId };
      ui.hideProgress();
      ui.selectTab("edit");
      this.showPreview();
      this.emit("preview", { proposal: this.proposal.id, operations: (this.proposal.operations || []).length, fix: label });
    } catch (err) {
      this.fail(err);
    }
  }
}
