// The dependency panel's data: which unit the selection is in, what it references, what depends
// on it. From the server's graph (ROUTES.md graph JSON), or from the units alone (CONTAINS from
// parents, REFERENCES from reference fields) while the server has no graph route. Pure.
import { lines, normalizeText } from "./textplan.js";
import { EDGE_TYPES, KIND_NAMES } from "./vocabulary.js";

export { EDGE_TYPES };

/** A graph ``{nodes, edges, complete}`` made from units only (the fallback). */
export function graphFromUnits(units) {
  const nodes = units.map((u) => ({ id: u.id, kind: u.kind, label: u.label, order: u.order, parent: u.parent,
                                    preview: preview(u) }));
  const edges = [];
  for (const u of units) {
    if (u.parent) edges.push({ source: u.parent, target: u.id, type: "CONTAINS", evidence: "heading above" });
    const fields = u.fields || [];
    for (const r of u.refs || []) {
      const f = fields.find((x) => x.target_unit === r.target && x.kind === r.field);
      edges.push({ source: u.id, target: r.target, type: "REFERENCES",
                   evidence: f?.result ? `"${f.result}" (${r.field})` : r.field });
    }
  }
  return { nodes, edges, complete: false, origin: "units" };
}

/** A short name for a unit: "Section 2.1 Methods", "1. A list item", "Paragraph: Some text." */
export function preview(u) {
  if (!u) return "";
  const text = u.title || normalizeText(u.text).slice(0, 60);
  if (u.label) return text.startsWith(u.label) ? text : `${u.label} ${text}`;
  return `${KIND_NAMES[u.kind] || u.kind}: ${text}`;
}

/** The unit whose paragraph is ``text`` (a line of the unit, compared normalised), else the
 * unit whose text contains it (at least 12 characters), else null. */
export function unitForParagraph(units, text) {
  const want = normalizeText(text);
  if (!want) return null;
  for (const u of units) {
    if (lines(u.text ?? "").some((l) => normalizeText(l.text) === want)) return u;
  }
  if (want.length >= 12) {
    for (const u of units) if (normalizeText(u.text).includes(want)) return u;
  }
  return null;
}

/** What the panel shows for a unit: ``{unit, parent, references: [...], dependents: [...]}``;
 * each item ``{unit, label, type, evidence}``. CONTAINS edges give the parent only. */
export function dependencies(graph, unitsById, unitId) {
  const name = (id) => preview(unitsById.get(id)) || id;
  const references = [];
  const dependents = [];
  const starts = new Map(); // reference item -> offset of its evidence in the unit's text
  let parent = null;
  for (const e of graph.edges || []) {
    if (e.type === "CONTAINS") {
      if (e.target === unitId) parent = { unit: e.source, label: name(e.source), type: e.type, evidence: e.evidence || "" };
      continue;
    }
    if (e.source === unitId) {
      const item = { unit: e.target, label: name(e.target), type: e.type, evidence: e.evidence || "", score: e.score ?? null };
      starts.set(item, e.start ?? Number.MAX_SAFE_INTEGER);
      references.push(item);
    }
    if (e.target === unitId) dependents.push({ unit: e.source, label: name(e.source), type: e.type, evidence: e.evidence || "", score: e.score ?? null });
  }
  const rank = (a, b) => EDGE_TYPES.indexOf(a.type) - EDGE_TYPES.indexOf(b.type) || (b.score ?? 0) - (a.score ?? 0);
  // What the paragraph references, in the order its evidence appears in the text (the graph
  // lists edges by target); edges without a span keep their place after those with one.
  references.sort((a, b) => EDGE_TYPES.indexOf(a.type) - EDGE_TYPES.indexOf(b.type) || starts.get(a) - starts.get(b)
    || (b.score ?? 0) - (a.score ?? 0));
  dependents.sort(rank);
  return { unit: unitId, parent, references, dependents };
}

/** The impact route's answer as panel items (ROUTES.md: impacted[].via[]). */
export function impactItems(impact, unitsById) {
  return (impact?.impacted || []).map((i) => ({
    unit: i.unit,
    label: i.label || preview(unitsById.get(i.unit)) || i.unit,
    type: i.via?.[0]?.type || "DEPENDS",
    evidence: (i.via || []).map((v) => v.evidence).filter(Boolean).join("; "),
    distance: i.distance ?? null,
    score: i.score ?? null,
  }));
}
