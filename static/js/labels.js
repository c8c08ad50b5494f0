// Words, not ids: how the pane names a unit ("5.1 Connection ID · paragraph"), a section, a
// snippet cut at a word, and how it rewrites the server's strings so that no operation id
// (op-N, prop-N), finding id (f-<hex>), unit id (p-<hex>) or bookmark (_Ref123) reaches the
// user. Pure: no DOM, no Office.js.
import { KIND_NAMES } from "./vocabulary.js";
import { KIND_TITLES } from "./checkfix.js";

const HEADING_KINDS = new Set(["section", "title"]);

/** The number to show before an outline node's or a section's title: the number it shows
 * (``node.number``, the server's one rule for "2.1", "A.1", "Section 3", "Annex B"), unless the
 * title already begins with it, as a heading typed "2. License Grants" or "Annex B Scope" does. */
export function outlineNumber(node) {
  const num = node.number;
  if (!num) return null;
  const esc = num.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const worded = new RegExp(`^\\s*(?:\\p{L}+\\.?\\s+|§\\s*)${esc}(?![\\p{L}\\p{N}])`, "u");
  // a bare letter is the number only when punctuation closes it ("A. Examples", not "A Guide")
  const bare = new RegExp(`^\\s*${esc}${/^\p{L}$/u.test(num) ? "[.:)]" : "(?![\\p{L}\\p{N}])"}`, "u");
  const title = node.title || "";
  return worded.test(title) || bare.test(title) ? null : num;
}

/** ``text`` cut to at most ``max`` characters at a word boundary, "…" when cut. */
export function snippet(text, max = 80) {
  const t = String(text ?? "").replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(" ");
  return `${(sp > max * 0.5 ? cut.slice(0, sp) : cut).replace(/[\s,;:.(–—-]+$/u, "")}…`;
}

/** A section's name: "7.3 Authenticating Connection IDs" (number, then title), "Abstract". */
export function sectionName(u) {
  if (!u) return "";
  const title = u.title || snippet(u.text, 60);
  const num = outlineNumber({ number: u.number, title });
  return num ? `${num} ${title}` : title;
}

/** The nearest heading (section or title) that holds ``id``, the unit itself when it is one. */
export function sectionOf(byId, id) {
  let u = byId.get(id);
  for (let guard = 0; u && guard < 64; guard += 1) {
    if (HEADING_KINDS.has(u.kind)) return u;
    u = u.parent ? byId.get(u.parent) : null;
  }
  return null;
}

/** A label that names something ("Figure 3", "Table 1", "Section 3"), not a list bullet or
 * a bare number ("•", "3.", "a)"). */
export function meaningfulLabel(label) {
  return typeof label === "string" && /\p{L}{2,}/u.test(label) ? label : null;
}

/** Where a unit is and what it is: ``{section: "5.1 Connection ID", what: "Paragraph",
 * text: "The primary function of…"}``; for a heading ``what`` is "Section" and ``section``
 * its own name. */
export function place(byId, id) {
  const u = byId.get(id);
  if (!u) return { section: "", what: "", text: "" };
  const sec = sectionOf(byId, id);
  const kind = KIND_NAMES[u.kind] || u.kind;
  if (HEADING_KINDS.has(u.kind)) return { section: sectionName(u), what: u.kind === "title" ? "Title" : "Section", text: "" };
  return { section: sec ? sectionName(sec) : "", what: meaningfulLabel(u.label) || kind, text: snippet(u.text, 70) };
}

/** One line for a unit: "5.1 Connection ID · Paragraph: The primary function…" (a section:
 * "Section 7.3 Authenticating Connection IDs"). */
export function unitName(byId, id, { text = true } = {}) {
  const p = place(byId, id);
  if (!p.section && !p.what) return "";
  if (p.what === "Section" || p.what === "Title") return `${p.what} ${p.section}`;
  const head = p.section ? `${p.section} · ${p.what}` : p.what;
  return text && p.text ? `${head}: ${p.text}` : head;
}

const OP_ID = /\b(?:op|prop)-\d+\b/g;
const FINDING_ID = /\s*\(?\bf-[0-9a-f]{6,}\b\)?/g;
// Word's and LibreOffice's own bookmark names (_Ref123, _Toc515280522, _Hlk…, Ref_element-manifest%3Amanifest,
// __RefHeading___Toc1234, RefHeading…) and a reference field's kind ("reference_ref")
const BOOKMARK_NAME = String.raw`['"‘“]?(?:_{1,2}(?:Ref|Toc|Hlk|RefHeading)[\w%:.-]*|Ref_[\w%:.-]+|RefHeading[\w%:.-]*)['"’”]?`;
const BOOKMARK = new RegExp(String.raw`\(\s*(?:(?:field|bookmark)\s+)?${BOOKMARK_NAME}\s*\)|(?:(?:field|bookmark)\s+)?${BOOKMARK_NAME}`, "g");
const FIELD_KIND = /\b(?:reference|bookmark|sequence|note|page)_(?:ref|mark|number)\b/g;
const UNIT_ID = /\b(?:p|sec|title|li|cap|fig|tbl|eq|fn|en|list|para)-[0-9a-f]{6,}(?:-\d+)?\b/g;
const CHECK_KIND = /\bcheck ([a-z]+(?:_[a-z]+)+)\b/g;
const KIND_CODE = /\b[a-z]+(?:_[a-z]+)+\b/g;

/** Edge types as a reader says them: what a paragraph relies on, and what relies on it. */
export const EDGE_WORDS = {
  REFERENCES: { out: "cites", in: "cites it", legend: "Citations" },
  DEPENDS: { out: "builds on", in: "builds on it", legend: "Dependencies" },
  RELATED: { out: "similar", in: "similar", legend: "Similar passages" },
  CONTAINS: { out: "in", in: "contains", legend: "Sections" },
};
const EDGE_CODE = /\b(REFERENCES|DEPENDS|RELATED|CONTAINS)\b/g;

/** A server string with ids turned into words: an operation id into ``opName(id)`` (else "a
 * change"), a unit id into ``unitName(id)`` (else "a paragraph"), a reference field's
 * bookmark into "reference field", a finding id dropped. */
export function humanize(text, { opName = null, unitName: nameUnit = null, bookmarks = null } = {}) {
  let s = String(text ?? "");
  if (bookmarks?.size) {
    // the document's own bookmark names: the paragraph they mark
    for (const [name, unit] of bookmarks) {
      if (name.length < 3 || !s.includes(name)) continue;
      const said = (unit && nameUnit?.(unit)) || "the marked paragraph";
      s = s.split(name).join(said);
    }
  }
  s = s.replace(BOOKMARK, (m) => (/^\(/.test(m) ? "(reference field)" : "reference field"));
  s = s.replace(FIELD_KIND, "reference field");
  s = s.replace(CHECK_KIND, (m, k) => (KIND_TITLES[k] ? `check "${KIND_TITLES[k]}"` : m));
  s = s.replace(KIND_CODE, (k) => (KIND_TITLES[k] ? KIND_TITLES[k].toLowerCase() : k));
  // "3 unit(s)" -> "3 units", "1 unit(s)" -> "1 unit"
  s = s.replace(/\b(\d[\d,]*) ([\p{L}-]+)\(s\)/gu, (m, n, w) => `${n} ${w}${n === "1" ? "" : "s"}`).replace(/\(s\)/g, "s");
  s = s.replace(EDGE_CODE, (t, _, at) => (at === 0 ? EDGE_WORDS[t].legend : EDGE_WORDS[t].legend.toLowerCase()));
  s = s.replace(FINDING_ID, "");
  s = s.replace(UNIT_ID, (id) => nameUnit?.(id) || "another paragraph");
  s = s.replace(OP_ID, (id) => opName?.(id) || "another change");
  // "X: X follows from Y" after both ids became the same words: say it once
  s = s.replace(/^([^:]{3,120}): \1 /u, "$1 ");
  return s;
}

/** Does ``text`` still hold an id the user should never read? (tests and the browser test). */
export const RAW_ID = /\b(?:op|prop)-\d+\b|\bf-[0-9a-f]{6,}\b|_(?:Ref|Toc|Hlk)\d+|\bRef_[\w%]+|\b(?:p|sec|cap|tbl|li|fig|eq|fn|en)-[0-9a-f]{10}\b/;
