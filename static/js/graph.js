// A picture of the dependency graph that fits a task pane: an arc diagram. Units stand in
// document order down the pane; each typed edge is an arc on the left. Returns SVG text. Pure.

import { EDGE_TYPES } from "./vocabulary.js";
import { EDGE_WORDS } from "./labels.js";

/** A colour per edge type (tests/js/vocabulary.test.mjs: one for each type of the vocabulary). */
export const EDGE_COLORS = { CONTAINS: "#8a8886", REFERENCES: "#0f6cbd", DEPENDS: "#c50f1f", RELATED: "#8764b8" };

const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

/** Which nodes to draw: those on a drawn edge, plus sections, at most ``max`` in order. */
export function visibleNodes(graph, types, max = 80) {
  const edges = (graph.edges || []).filter((e) => types.includes(e.type));
  const on = new Set();
  edges.forEach((e) => { on.add(e.source); on.add(e.target); });
  const nodes = (graph.nodes || [])
    .filter((n) => on.has(n.id) || n.kind === "section" || n.kind === "title")
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .slice(0, max);
  const ids = new Set(nodes.map((n) => n.id));
  return { nodes, edges: edges.filter((e) => ids.has(e.source) && ids.has(e.target)), clipped: (graph.nodes || []).length > nodes.length };
}

/** The part of ``graph`` within ``hops`` edges of ``centres`` (unit ids), over the edge
 * ``types`` chosen, in either direction: ``{nodes, edges, reached, total, truncated}``. At most
 * ``max`` nodes are drawn (the centres first, then the nearest, in document order);
 * ``reached`` says how many the hops reached and ``total`` how many the graph has, so the
 * pane can say "showing X of Y" instead of cutting silently. */
export function neighbourhood(graph, centres, { types = EDGE_TYPES, hops = 1, max = 150 } = {}) {
  const all = graph.nodes || [];
  const byId = new Map(all.map((n) => [n.id, n]));
  const adj = new Map();
  const edges = (graph.edges || []).filter((e) => types.includes(e.type));
  for (const e of edges) {
    if (!adj.has(e.source)) adj.set(e.source, []);
    if (!adj.has(e.target)) adj.set(e.target, []);
    adj.get(e.source).push(e.target);
    adj.get(e.target).push(e.source);
  }
  const dist = new Map();
  let frontier = [...new Set(centres || [])].filter((id) => byId.has(id));
  frontier.forEach((id) => dist.set(id, 0));
  for (let d = 1; d <= hops && frontier.length; d += 1) {
    const next = [];
    for (const id of frontier) {
      for (const m of adj.get(id) || []) {
        if (!dist.has(m) && byId.has(m)) { dist.set(m, d); next.push(m); }
      }
    }
    frontier = next;
  }
  const reached = [...dist.keys()];
  const order = (id) => byId.get(id)?.order ?? 0;
  const kept = reached.sort((a, b) => dist.get(a) - dist.get(b) || order(a) - order(b)).slice(0, max);
  const ids = new Set(kept);
  const nodes = kept.map((id) => byId.get(id)).sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return { nodes, edges: edges.filter((e) => ids.has(e.source) && ids.has(e.target)), reached: reached.length,
           total: all.length, truncated: reached.length > kept.length, distance: dist };
}

/** The SVG for ``graph`` (ROUTES.md graph JSON), ``width`` wide; ``view`` (``{nodes,
 * edges}``, from ``neighbourhood``) is what to draw, else the first nodes on drawn edges. */
export function graphSvg(graph, { types = EDGE_TYPES, width = 320, selected = null, view = null } = {}) {
  const { nodes, edges } = view || visibleNodes(graph, types);
  const row = 22;
  const top = 14;
  const axis = 92;
  const height = Math.max(60, top * 2 + row * Math.max(nodes.length - 1, 0));
  const y = new Map(nodes.map((n, i) => [n.id, top + i * row]));
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Dependency graph">`];
  for (const e of edges) {
    const y1 = y.get(e.source);
    const y2 = y.get(e.target);
    if (y1 === undefined || y2 === undefined || y1 === y2) continue;
    const r = Math.abs(y2 - y1) / 2;
    const bulge = Math.min(axis - 8, 10 + r * 0.9);
    const path = `M ${axis} ${y1} C ${axis - bulge} ${y1}, ${axis - bulge} ${y2}, ${axis} ${y2}`;
    parts.push(`<path d="${path}" fill="none" stroke="${EDGE_COLORS[e.type] || "#605e5c"}" stroke-width="${e.type === "CONTAINS" ? 1 : 1.6}" opacity="${e.type === "CONTAINS" ? 0.5 : 0.85}" data-type="${esc(e.type)}"><title>${esc(EDGE_WORDS[e.type]?.legend || e.type)}: ${esc(e.evidence || "")}</title></path>`);
  }
  for (const n of nodes) {
    const cy = y.get(n.id);
    const sel = n.id === selected;
    const fill = n.kind === "section" || n.kind === "title" ? "#0f6cbd" : "#ffffff";
    const name = n.name || n.preview || n.label || n.id;
    // every node a button for the keyboard (Tab reaches the selected one or the first; arrows the rest)
    const tab = sel || (!selected && n === nodes[0]) ? "0" : "-1";
    parts.push(`<g class="node${sel ? " selected" : ""}" data-unit="${esc(n.id)}" tabindex="${tab}" role="button" aria-label="${esc(name)}">` +
      `<circle cx="${axis}" cy="${cy}" r="${sel ? 6 : 4.5}" fill="${fill}" stroke="#0f6cbd" stroke-width="1.5"/>` +
      `<text x="${axis + 12}" y="${cy + 4}" font-size="11" fill="#242424">${esc(truncate(name, Math.floor((width - axis - 16) / 6.4)))}</text></g>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

function truncate(s, n) {
  s = String(s);
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Edge counts by type, for the legend. */
export function edgeCounts(graph) {
  const out = {};
  for (const e of graph.edges || []) out[e.type] = (out[e.type] || 0) + 1;
  return out;
}
