// The Check tab: findings grouped by kind, "Fix all" on a group and "Fix this" on a finding that
// has something to write. A fix is never applied from here: the server answers a proposal
// (POST /api/v1/documents/{id}/check/fix), the pane shows it in the preview, and the user applies
// it there as any other proposal (Apply: tracked changes in Word, a revision on the server).

import { SEVERITIES } from "./vocabulary.js";
import { el } from "./dom.js";

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
  broken_reference: "References to labels that do not exist", missing_target: "References to missing figures or tables",
  broken_field: "Reference fields that point nowhere", reference_to_deleted: "References to deleted parts",
  broken_link: "Links to bookmarks that do not exist", stale_reference: "References whose number names another part",
  reference_retargeted: "References that now point elsewhere", stale_field: "Reference fields showing an old number",
  numbering_gap: "Gaps in numbering", numbering_duplicate: "Numbers used twice", numbering_mismatch: "Numbers out of sequence",
  numbering_not_recomputed: "Numbering left as it was", propagation_skipped: "Follow-on changes not made", old_term: "Old term left",
  listed_statement_removed: "Table rows listing a removed statement", statement_not_listed: "New statements missing from their table",
  old_term_kept: "Old term kept on purpose", expansion_mismatch: "Spelled-out forms that no longer fit", same_value: "Other statements of a changed value",
  semantic_drift: "Passages that drifted in meaning", dangling_anaphor: "References such as 'this approach' left without their subject",
  write_mismatch: "Changes written differently than planned", review_record_ignored: "Review records not used",
  unrelated_document: "A different document", half_decided_change: "Changes decided half-way (old and new words kept or dropped together)",
};

/** A finding kind in words: its title, else the kind's words without underscores. */
export function kindTitle(kind) {
  const k = String(kind ?? "");
  return KIND_TITLES[k] || (k.charAt(0).toUpperCase() + k.slice(1)).replace(/_/g, " ");
}

const SEV = { error: "!", warning: "!", info: "i" };
const RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i]));  // most severe first


/** Findings grouped by kind, most severe group first: ``[{kind, title, findings, fixable}]``. */
export function groupFindings(findings) {
  const groups = new Map();
  for (const f of findings) {
    if (!groups.has(f.kind)) groups.set(f.kind, []);
    groups.get(f.kind).push(f);
  }
  return [...groups.entries()]
    .map(([kind, list]) => ({ kind, title: kindTitle(kind), findings: list,
                              fixable: list.filter((f) => f.fixable && f.id && !f.resolved).map((f) => f.id) }))
    .sort((a, b) => Math.min(...a.findings.map((f) => RANK[f.severity] ?? 2)) - Math.min(...b.findings.map((f) => RANK[f.severity] ?? 2)));
}

/** What a fix writes, in a few words: "e-mail → email" (first places). */
export function fixSummary(f) {
  const places = (f.places || []).filter((p) => p.replacement != null && p.replacement !== p.text);
  const shown = [...new Set(places.map((p) => `${p.text || "∅"} → ${p.replacement || "∅"}`))].slice(0, 2).join(", ");
  return places.length ? `${shown}${places.length > 2 ? ` (${places.length} places)` : ""}` : "";
}

/** The findings a filter keeps: ``severity`` ("" for any) and ``query`` (words that must all
 * occur, in any case, in the message, the group's title or what the fix writes). */
export function filterFindings(findings, { severity = "", query = "" } = {}) {
  const words = String(query).toLowerCase().split(/\s+/).filter(Boolean);
  return (findings || []).filter((f) => {
    if (severity && f.severity !== severity) return false;
    if (!words.length) return true;
    const hay = `${f.message || ""} ${kindTitle(f.kind)} ${fixSummary(f)} ${f.evidence || ""}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** A finding as the same finding on another upload of the document: its id when the unit's text
 * is unchanged, else its kind, rule, evidence and the words of its places (unit ids change with
 * a unit's text; the words a finding is about do not). */
function findingKey(f) {
  // the words at its places and what a fix writes there; the evidence and the message may quote
  // the words around them, which the change itself may have rewritten
  const places = (f.places || []).map((p) => `${p.text ?? ""}→${p.replacement ?? ""}`).sort().join("|");
  return `${f.kind}|${f.rule ?? ""}|${places || f.evidence || f.message || ""}`;
}

/** The check after a change, against the check before it: the findings of ``after``, then those
 * of ``before`` that ``after`` no longer has, marked ``resolved`` (the change resolved them). */
export function diffFindings(before, after) {
  const ids = new Set((after || []).map((f) => f.id).filter(Boolean));
  const keys = new Set((after || []).map(findingKey));
  const resolved = (before || []).filter((f) => !(f.id && ids.has(f.id)) && !keys.has(findingKey(f))).map((f) => ({ ...f, resolved: true, fixable: false }));
  return [...(after || []), ...resolved];
}

/** How many findings a group shows before "Show more". */
export const GROUP_PAGE = 50;

function findingItem(f, { onPick, onFix, say }) {
  const summary = fixSummary(f);
  const message = say(f.message);
  const more = el("div", { class: "finding-more", hidden: true },
    el("p", {}, message),
    summary ? el("p", { class: "muted small" }, `Fix: ${summary}`) : null,
    el("div", { class: "row end" },
      onPick && f.unit ? el("button", { class: "btn small", type: "button", "data-goto": f.unit, onclick: () => onPick(f.unit) }, "Go to") : null,
      onFix && f.fixable && f.id
        ? el("button", { class: "btn small primary", type: "button", "data-fix": f.id, onclick: () => onFix([f.id], "Fix this") }, "Fix this")
        : null));
  const line = el("button", { class: "finding-line", type: "button", "aria-expanded": "false",
                              onclick: () => {
                                more.hidden = !more.hidden;
                                line.setAttribute("aria-expanded", String(!more.hidden));
                                if (!more.hidden && onPick && f.unit) onPick(f.unit);
                              } },
    el("span", { class: `sev ${f.severity || "info"}`, title: f.severity, "aria-label": f.severity }, SEV[f.severity] || "i"),
    el("span", { class: "finding-text" }, summary ? `${summary} — ${message}` : message),
    f.resolved ? el("span", { class: "resolved-tag" }, "✓ resolved") : null);
  return el("li", { class: `finding${f.resolved ? " resolved" : ""}`, "data-unit": f.unit ?? "", "data-finding": f.id ?? "", "data-kind": f.kind,
                    "data-resolved": f.resolved ? "true" : null, title: f.resolved ? "Your last change resolved this finding" : null }, line, more);
}

/** Renders the Check tab's list into ``root``: one collapsible group per kind (title, count,
 * "Fix all"), one line per finding that expands to the whole message, "Go to" and "Fix
 * this". ``onFix(ids, label)`` previews fixes (null: the server has no fix route);
 * ``onPick(unit)`` jumps to a finding's place; ``say(text)`` turns ids into words; ``open``:
 * the kinds shown expanded (default: the first group). */
export function renderCheck(root, findings, { onPick = null, onFix = null, say = (t) => t, open = null } = {}) {
  // what the last change resolved comes first, in a group of its own, open
  const resolved = (findings || []).filter((f) => f.resolved);
  const groups = groupFindings((findings || []).filter((f) => !f.resolved));
  if (resolved.length) {
    groups.unshift({ kind: "resolved", title: "Resolved by your last change", findings: resolved, fixable: [] });
    open = new Set([...(open || []), "resolved"]);
  }
  const items = groups.map((g, gi) => {
    const expanded = open ? open.has(g.kind) : gi === 0;
    const list = el("ul", { class: "group-items", hidden: !expanded });
    let shown = 0;
    const more = el("li", { class: "show-more", hidden: true },
      el("button", { class: "btn small", type: "button", "data-more": g.kind, onclick: () => page() }, "Show more"));
    const page = () => {
      const next = g.findings.slice(shown, shown + GROUP_PAGE).map((f) => findingItem(f, { onPick, onFix, say }));
      shown += next.length;
      list.append(...next);
      more.hidden = shown >= g.findings.length;
      const btn = more.children?.[0];
      if (!more.hidden && btn) btn.textContent = `Show ${Math.min(GROUP_PAGE, g.findings.length - shown)} more of ${g.findings.length - shown}`;
      list.append(more);
    };
    page();
    const toggle = el("button", { class: "group-toggle", type: "button", "aria-expanded": String(expanded),
                                  onclick: () => { list.hidden = !list.hidden; toggle.setAttribute("aria-expanded", String(!list.hidden)); } },
      el("span", { class: "chev", "aria-hidden": "true" }),
      el("span", { class: "group-title", title: g.kind }, g.title),
      el("span", { class: "count" }, String(g.findings.length)));
    return el("li", { class: "check-group", "data-kind": g.kind },
      el("div", { class: "group-head" }, toggle,
        onFix && g.fixable.length
          ? el("button", { class: "btn small", type: "button", "data-fix-all": g.kind,
                           onclick: () => onFix(g.fixable, `Fix all: ${g.title}`) }, `Fix all (${g.fixable.length})`)
          : null),
      list);
  });
  if (!items.length) items.push(el("li", { class: "empty" }, "No problems found."));
  root.replaceChildren(...items);
  return groups;
}
