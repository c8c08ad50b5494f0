/** One element builder for every view of the pane: attributes (``on*`` handlers, booleans as
 * present or absent, the rest as strings) and children (nested arrays, strings, nodes; null and undefined skipped). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c != null) e.append(typeof c === "object" ? c : String(c));
  return e;
}
