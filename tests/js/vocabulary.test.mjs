// The pane's words come from static/js/vocabulary.js (generated from adapters/vocabulary.py;
// tests/test_vocabulary.py checks it is current); its own display maps cover every word.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EDGE_TYPES, EDIT_OPS, KIND_NAMES, SEVERITIES, UNIT_KINDS } from "../../static/js/vocabulary.js";
import { EDGE_COLORS, graphSvg } from "../../static/js/graph.js";
import { EDGE_TYPES as DEPS_EDGE_TYPES, preview } from "../../static/js/deps.js";
import { OP_NAMES } from "../../static/js/ui.js";

test("every edge type has a colour, and the dependency panel ranks the same types", () => {
  assert.deepEqual(Object.keys(EDGE_COLORS).sort(), [...EDGE_TYPES].sort());
  assert.equal(DEPS_EDGE_TYPES, EDGE_TYPES);
});

test("every unit kind has a name, and every operation a verb", () => {
  assert.deepEqual(Object.keys(KIND_NAMES), [...UNIT_KINDS]);
  assert.deepEqual(Object.keys(OP_NAMES).sort(), [...EDIT_OPS].sort());
  assert.equal(preview({ kind: "section", text: "Methods", title: "Methods" }), "Heading: Methods");
  assert.deepEqual([...SEVERITIES], ["error", "warning", "info"]);
});

test("the graph draws all four types by default", () => {
  const graph = { nodes: [{ id: "a", kind: "section", order: 0 }, { id: "b", kind: "paragraph", order: 1 }],
                  edges: EDGE_TYPES.map((type) => ({ source: "a", target: "b", type, evidence: type })) };
  const svg = graphSvg(graph);
  for (const type of EDGE_TYPES) assert.ok(svg.includes(`data-type="${type}"`), type);
});
