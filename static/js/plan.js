// Operations (adapters.model.Edit JSON, see ROUTES.md "Operation") -> a plan of Word calls on
// the paragraphs Word gave (align.js): which paragraph, by position, and what to do in it at
// word level. An operation is placed whole or not at all; the ones that cannot be placed are
// listed, each with why and the words of its paragraph. Pure: no DOM, no Office.js.
import { alignParagraphs, bodyLines, offsetMap, paragraphWords } from "./align.js";
import { codePointCount, hunksForOperation, lines, locateInLine, searchable } from "./textplan.js";

/** Unit kinds that a move cannot carry through paragraph text (a table grid, a picture, an
 * equation object). Deleting them works: a table goes whole, a picture with its paragraph. */
export const STRUCTURED_KINDS = new Set(["table", "figure", "equation"]);

/** Index of units by id. */
export function indexUnits(units) {
  return { byId: new Map((units || []).map((u) => [u.id, u])) };
}

function unitText(op, index) {
  if (op.before != null) return String(op.before);
  const u = index.byId.get(op.unit);
  return u ? String(u.text ?? "") : null;
}

/** The Word plan for ``ops`` on the paragraphs Word gave (``paras``: ``[{text,
 * tableNestingLevel?}]``, body.paragraphs in order) for LEDGER's ``units`` of the same
 * document.
 *
 * Returns ``{steps, failures, placed, alignment}``: ``steps`` are ``edit`` (a range inside
 * paragraph ``para``: what to search there, which hit, how many hits Word must see, Word's own
 * offsets), ``insert_paragraph``, ``delete_paragraph`` (``tables``: paragraphs whose table goes
 * whole) and ``move``; ``failures`` ``[{op, unit, reason, words}]`` one per operation that
 * cannot be placed (``words``: the start of its paragraph); ``placed`` the ids of the others. */
export function planOperations(ops, units, paras) {
  const index = indexUnits(units);
  const texts = paras.map((p) => (typeof p === "string" ? p : String(p.text ?? "")));
  const inTable = paras.map((p) => (typeof p === "string" ? false : (p.tableNestingLevel ?? 0) > 0));
  const blines = bodyLines(units);
  const alignment = alignParagraphs(texts, blines);
  const paraOf = (unitId, li) => alignment.para.get(`${unitId}#${li}`);
  const steps = [];
  const failures = [];
  const placed = new Set();
  const taken = new Map(); // para -> [[start, end]] of Word text already changed by a step

  for (const op of ops || []) {
    const mine = [];
    const unitWords = (text) => paragraphWords(String(text ?? "").split("\n").find((l) => l.trim()) ?? "");
    let failed = null;
    const fail = (reason, words) => { if (!failed) failed = { op: op.id ?? null, unit: op.unit ?? null, reason, words: words ?? unitWords(unitText(op, index)) }; };
    const u = index.byId.get(op.unit);
    const kind = op.unit_kind ?? u?.kind;
    const before = unitText(op, index);
    if (before == null) { fail("LEDGER does not know this part of the document (read the document again)", ""); }
    else if (op.op === "replace" || op.op === "set_text") {
      if (op.op === "replace" && (op.end ?? 0) > codePointCount(before)) fail("the change runs past the end of its paragraph");
      // a unit whose lines are one paragraph in Word is one line here
      const ls = alignment.joined.has(op.unit) ? [{ text: before, start: 0, end: before.length }] : lines(before);
      for (const h of failed ? [] : hunksForOperation({ ...op, before })) {
        const li = ls.findIndex((l) => h.start >= l.start && h.end <= l.end);
        if (li === -1) { fail("the change spans two paragraphs"); break; }
        const l = ls[li];
        const p = paraOf(op.unit, li);
        if (p === undefined) { fail("its paragraph is not in the document as Word has it now (changed or deleted since it was read?)", paragraphWords(l.text)); break; }
        const word = texts[p];
        const map = offsetMap(l.text, word);
        if (!map) { fail("the paragraph reads too differently in Word now", paragraphWords(word)); break; }
        const at = map.span(h.start - l.start, h.end - l.start);
        if (!at.same) {
          fail(`Word's paragraph no longer has "${l.text.slice(h.start - l.start, h.end - l.start)}" where LEDGER read it`, paragraphWords(word));
          break;
        }
        const loc = locateInLine(word, { start: at.start, end: at.end, text: h.text });
        if (!loc) { fail("the words to change cannot be told apart in Word's paragraph", paragraphWords(word)); break; }
        const probe = Array.isArray(loc.search) ? loc.search : loc.kind === "start" ? [] : [loc.search];
        if (!probe.every(searchable)) { fail("the words to change hold a mark Word cannot search for (a picture, a note or a field)", paragraphWords(word)); break; }
        const over = (taken.get(p) || []).some(([s, e]) => loc.start < e && s < loc.end || (loc.start === loc.end && loc.start > s && loc.start < e));
        if (over) { fail("another change of this apply touches the same words", paragraphWords(word)); break; }
        // what Word must show there once its tracked changes are taken as they stand (a word the
        // user deleted with tracking on is still in Word's text, struck through)
        mine.push({ type: "edit", op: op.id ?? null, para: p, ...loc, expect: l.text.slice(h.start - l.start, h.end - l.start) });
      }
    } else if (op.op === "insert_after") {
      const ls = lines(before);
      const p = paraOf(op.unit, ls.length - 1);
      if (p === undefined) fail("the paragraph to insert after is not in the document as Word has it now");
      else mine.push({ type: "insert_paragraph", op: op.id ?? null, para: p, location: "After", table: kind === "table" && inTable[p],
                       lines: String(op.text ?? "").split("\n"), style: op.style ?? null });
    } else if (op.op === "delete") {
      const ls = lines(before);
      const ps = [...new Set(ls.map((_, i) => paraOf(op.unit, i)))];
      if (ps.some((p) => p === undefined)) fail("part of it is not in the document as Word has it now (changed since it was read?)");
      else if (kind === "table") {
        if (!ps.every((p) => inTable[p])) fail("the table is not a table in Word");
        else mine.push({ type: "delete_paragraph", op: op.id ?? null, paras: [], tables: [ps[0]] });
      } else mine.push({ type: "delete_paragraph", op: op.id ?? null, paras: ps, tables: [] });
    } else if (op.op === "move") {
      const destId = op.after ?? op.before_unit;
      const dest = index.byId.get(destId);
      if (!dest) fail("the place to move it to is unknown");
      else if (STRUCTURED_KINDS.has(kind) || STRUCTURED_KINDS.has(dest.kind)) fail("tables, pictures and equations cannot be moved through text");
      else {
        const src = lines(before);
        const ps = src.map((_, i) => paraOf(op.unit, i));
        const dl = lines(dest.text ?? "");
        const d = op.after ? paraOf(dest.id, dl.length - 1) : paraOf(dest.id, 0);
        if (ps.some((p) => p === undefined) || d === undefined) fail("it or its new place is not in the document as Word has it now");
        else mine.push({ type: "move", op: op.id ?? null, paras: ps, lines: src.map((l) => l.text), dest: d, location: op.after ? "After" : "Before" });
      }
    } else {
      fail(`Word cannot apply a "${op.op}" directly: preview it again`);
    }
    if (failed) { failures.push(failed); continue; }
    for (const s of mine) {
      if (s.type === "edit") {
        if (!taken.has(s.para)) taken.set(s.para, []);
        taken.get(s.para).push([s.start, s.end]);
      }
    }
    steps.push(...mine);
    if (op.id != null) placed.add(op.id);
  }
  return { steps, failures, placed, alignment };
}
