// The Check tab: findings grouped by kind, "Fix all" on a group and "Fix this" on a finding that
// has something to write. A fix is never applied from here: the server answers a proposal
// (POST /api/v1/documents/{id}/check/fix), the pane shows it in the preview, and the user applies
// it there as any other proposal (Apply: tracked changes in Word, a revision on the server).

import { SEVERITIES } from "./vocabulary.js";

/** A kind's title in the pane. */
export const KIND_TITLES = {
  variant_spelling: "Hyphenation and spacing", phrase_capitalisation: "Capitalisation of phrases",
  undefined_acronym: "Abbreviations never spelled out", acronym_before_definition: "Abbreviations used before their definition",
  acronym_defined_twice: "Abbreviations spelled out twice", acronym_redefined: "Abbreviations spelled out two ways",
  acronym_unused: "Abbreviations spelled out, never used", acronym_case: "Abbreviations in several cases",
  spelling_variety: "US and UK spelling", number_style: "Numbers in digits and words", percent_style: "Percentages",
  thousands_separator: "Thousands separators", unit_spacing: "Units of measure", list_punctuation: "List punctuation",
  list_capitalisation: "List capitalisation", caption_style: "Captions", heading_case: "Heading case",
  quote_style: "Quotation marks", dash_style: "Dashes", style_term: "House style: terms", banned_term: "House style: banned terms",
  style_abbreviation: "House style: abbreviations",
};

const SEV = { error: "!", warning: "!", info: "i" };
const RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i]));  // most severe first

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** Findings grouped by kind, most severe group first: ``[{kind, title, findings, fixable}]``. */
export function groupFindings(findings) {
  const groups = new Map();
  for (const f of findings) {
    if (!groups.has(f.kind)) groups.set(f.kind, []);
    groups.get(f.kind).push(f);
  }
  return [...groups.entries()]
    .map(([kind, list]) => ({ kind, title: KIND_TITLES[kind] || kind.replace(/_/g, " "), findings: list,
                              fixable: list.filter((f) => f.fixable && f.id).map((f) => f.id) }))
    .sort((a, b) => Math.min(...a.findings.map((f) => RANK[f.severity] ?? 2)) - Math.min(...b.findings.map((f) => RANK[f.severity] ?? 2)));
}

/** What a fix writes, in a few words: "e-mail → email" (first places). */
export function fixSummary(f) {
  const places = (f.places || []).filter((p) => p.replacement != null && p.replacement !== p.text);
  const shown = [...new Set(places.map((p) => `${p.text || "∅"} → ${p.replacement || "∅"}`))].slice(0, 2).join(", ");
  return places.length ? `${shown}${places.length > 2 ? ` (${places.length} places)` : ""}` : "";
}

/** Renders the Check tab's list into ``root``. ``onFix(ids, label)`` previews fixes (null: the
 * server has no fix route); ``onPick(unit)`` jumps to a finding's place. */
export function renderCheck(root, findings, { onPick = null, onFix = null } = {}) {
  // one <li> per finding (a group's title and its "Fix all" open the group's first item)
  const items = [];
  for (const g of groupFindings(findings)) {
    g.findings.forEach((f, i) => {
      const head = i === 0
        ? el("div", { class: "group", "data-kind": g.kind }, el("strong", {}, `${g.title} (${g.findings.length})`),
            onFix && g.fixable.length
              ? el("button", { class: "btn small", type: "button", "data-fix-all": g.kind,
                               onclick: () => onFix(g.fixable, `Fix all: ${g.title}`) }, "Fix all")
              : null)
        : null;
      const summary = fixSummary(f);
      items.push(el("li", { "data-unit": f.unit ?? "", "data-finding": f.id ?? "", "data-kind": f.kind,
                            onclick: (e) => { if (!e.target.closest("button") && onPick && f.unit) onPick(f.unit); } },
        head,
        el("span", { class: `sev ${f.severity || "info"}`, title: f.severity }, SEV[f.severity] || "i"),
        el("span", {}, f.message, summary ? el("span", { class: "muted small" }, ` — ${summary}`) : null,
           f.rule ? el("span", { class: "code" }, ` ${f.rule}`) : null),
        onFix && f.fixable && f.id
          ? el("button", { class: "btn small", type: "button", "data-fix": f.id, onclick: () => onFix([f.id], "Fix this") }, "Fix this")
          : el("span", { class: "code" }, f.code)));
    });
  }
  if (!items.length) items.push(el("li", { class: "empty" }, "No problems found."));
  root.replaceChildren(...items);
}
