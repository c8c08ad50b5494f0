// Operations (adapters.model.Edit JSON, see ROUTES.md "Operation") -> a plan of Word calls:
// which paragraphs to find, and what to do inside each at word level. Pure, no Office.js.
import { codePointCount, hunksForOperation, lines, locateInLine, normalizeText, occurrences, paragraphProbe } from "./textplan.js";

/** Unit kinds whose structure (a table grid, a picture, an equation object) cannot be
 * deleted, inserted or moved through paragraph text. */
export const STRUCTURED_KINDS = new Set(["table", "figure", "equation"]);

/** Index of units by id, and for each normalised paragraph text the units that hold it in
 * document order, so that a paragraph that occurs twice is told apart by its rank. */
export function indexUnits(units) {
  const byId = new Map();
  const sorted = [...(units || [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const seen = new Map();
  const rank = new Map(); // `${id}#${line}` -> rank among equal lines
  for (const u of sorted) {
    byId.set(u.id, u);
    lines(u.text ?? "").forEach((l, i) => {
      const key = normalizeText(l.text);
      const n = seen.get(key) || 0;
      seen.set(key, n + 1);
      rank.set(`${u.id}#${i}`, n);
    });
  }
  return { byId, rank };
}

function target(unitId, lineIndex, lineText, index) {
  return {
    key: `${unitId}#${lineIndex}`,
    unit: unitId,
    line: lineIndex,
    text: lineText,
    probe: paragraphProbe(lineText),
    rank: index?.rank.get(`${unitId}#${lineIndex}`) ?? 0,
  };
}

function unitText(op, index) {
  if (op.before != null) return String(op.before);
  const u = index?.byId.get(op.unit);
  return u ? String(u.text ?? "") : null;
}

/** The Word plan for a list of operations.
 *
 * Returns ``{targets: Map key -> target, steps: [...], problems: [{op, reason}]}``. A target is
 * one paragraph to find (``probe`` is searched in the body, the hit verified against ``text``,
 * ``rank`` picks among equal paragraphs). Steps are ``edit`` (a located hunk inside a target),
 * ``insert_paragraph``, ``delete_paragraph`` and ``move``. */
export function planOperations(ops, units = []) {
  const index = indexUnits(units);
  const targets = new Map();
  const steps = [];
  const problems = [];
  const want = (unitId, i, text) => {
    const t = target(unitId, i, text, index);
    if (!targets.has(t.key)) targets.set(t.key, t);
    return t.key;
  };
  const unitLines = (unitId, text) => lines(text).map((l, i) => ({ ...l, key: want(unitId, i, l.text) }));
  for (const op of ops || []) {
    const fail = (reason) => problems.push({ op: op.id ?? null, unit: op.unit ?? null, reason });
    const kind = op.unit_kind ?? index.byId.get(op.unit)?.kind;
    if (op.op === "replace" || op.op === "set_text") {
      const before = unitText(op, index);
      if (before == null) { fail("the operation does not carry the unit's text"); continue; }
      if (op.op === "replace" && (op.end ?? 0) > codePointCount(before)) { fail("the span runs past the unit's text"); continue; }
      const ls = lines(before);
      for (const h of hunksForOperation({ ...op, before })) {
        const li = ls.findIndex((l) => h.start >= l.start && h.end <= l.end);
        if (li === -1) { fail("the change spans two paragraphs"); continue; }
        const l = ls[li];
        const loc = locateInLine(l.text, { start: h.start - l.start, end: h.end - l.start, text: h.text });
        if (!loc) { fail(`the words to change cannot be pinned down in "${l.text.slice(0, 60)}"`); continue; }
        const key = want(op.unit, li, l.text);
        if (!targets.get(key).probe) { fail("the paragraph is empty and cannot be searched for"); continue; }
        steps.push({ type: "edit", op: op.id ?? null, target: key, ...loc });
      }
    } else if (op.op === "insert_after") {
      const before = unitText(op, index);
      if (before == null) { fail("the unit to insert after is unknown"); continue; }
      if (STRUCTURED_KINDS.has(kind)) { fail(`cannot insert after a ${kind} through text`); continue; }
      const ls = unitLines(op.unit, before);
      steps.push({ type: "insert_paragraph", op: op.id ?? null, target: ls[ls.length - 1].key,
                   location: "After", lines: String(op.text ?? "").split("\n"), style: op.style ?? null });
    } else if (op.op === "delete") {
      const before = unitText(op, index);
      if (before == null) { fail("the unit to delete is unknown"); continue; }
      if (STRUCTURED_KINDS.has(kind)) { fail(`a ${kind} cannot be deleted through text`); continue; }
      steps.push({ type: "delete_paragraph", op: op.id ?? null, targets: unitLines(op.unit, before).map((l) => l.key) });
    } else if (op.op === "move") {
      const before = unitText(op, index);
      const destId = op.after ?? op.before_unit;
      const dest = index.byId.get(destId);
      if (before == null || !dest) { fail("the unit to move or its destination is unknown"); continue; }
      if (STRUCTURED_KINDS.has(kind) || STRUCTURED_KINDS.has(dest.kind)) { fail("tables, pictures and equations cannot be moved through text"); continue; }
      const src = unitLines(op.unit, before);
      const dl = unitLines(dest.id, dest.text ?? "");
      steps.push({ type: "move", op: op.id ?? null, targets: src.map((l) => l.key), lines: src.map((l) => l.text),
                   dest: op.after ? dl[dl.length - 1].key : dl[0].key, location: op.after ? "After" : "Before" });
    } else if (op.op === "rename") {
      const old = String(op.old ?? "");
      if (!old) { fail("a rename needs the old term"); continue; }
      for (const u of [...index.byId.values()]) {
        lines(u.text ?? "").forEach((l, li) => {
          for (const at of occurrences(l.text, old)) {
            const loc = locateInLine(l.text, { start: at, end: at + old.length, text: op.text ?? "" });
            if (loc) steps.push({ type: "edit", op: op.id ?? null, target: want(u.id, li, l.text), ...loc });
          }
        });
      }
    } else {
      fail(`unknown operation "${op.op}"`);
    }
  }
  return { targets, steps, problems };
}
