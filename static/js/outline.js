// The Outline tab: a tree of headings with search, collapse and expand, the keyboard of a tree
// (arrows move, Right/Left open and close, Home/End, Enter/Space go to the heading), and the
// heading that holds the cursor marked as current.
import { outlineNumber } from "./labels.js";
import { el } from "./dom.js";

/** The ids an outline search shows: the headings whose number or title holds every word of
 * ``query``, and their ancestors (so a match stays in its place). ``null``: no query. Pure. */
export function outlineMatches(outline, query) {
  const words = String(query || "").toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  const show = new Set();
  const walk = (items, path) => {
    for (const it of items) {
      const hay = `${it.number || ""} ${it.title || it.label || ""}`.toLowerCase();
      if (words.every((w) => hay.includes(w))) { show.add(it.id); path.forEach((p) => show.add(p)); }
      if (it.children?.length) walk(it.children, [...path, it.id]);
    }
  };
  walk(outline || [], []);
  return show;
}

/** The outline node ids from the root down to ``id`` (empty when ``id`` is not a node). Pure. */
export function outlinePath(outline, id) {
  const path = [];
  const walk = (items) => {
    for (const it of items) {
      path.push(it.id);
      if (it.id === id || (it.children?.length && walk(it.children))) return true;
      path.pop();
    }
    return false;
  };
  return walk(outline || []) ? path : [];
}


/** A live outline in ``root``: ``render(outline)``, ``filter(query)``, ``expandAll(on)``,
 * ``setCurrent(id)``; ``onPick(id)`` when a heading is chosen (click, Enter, Space). */
export class OutlineTree {
  constructor(root, onPick) {
    this.root = root;
    this.onPick = onPick;
    this.outline = [];
    this.collapsed = new Set();
    this.query = "";
    this.current = null;
    root.addEventListener("keydown", (e) => this.key(e));
  }

  /** Draws ``outline``; ``keep``: the same document read again (after an Apply or the user's
   * typing), so what the user opened or closed stays so. */
  render(outline, { keep = false } = {}) {
    this.outline = outline || [];
    // a long outline opens at its top level; a short one whole
    const count = (items) => items.reduce((n, it) => n + 1 + count(it.children || []), 0);
    if (keep && this.drawn) {
      const ids = new Set();
      const walk = (items) => items.forEach((it) => { ids.add(it.id); walk(it.children || []); });
      walk(this.outline);
      this.collapsed = new Set([...this.collapsed].filter((id) => ids.has(id)));
    } else if (count(this.outline) > 60) {
      this.collapsed = new Set();
      const close = (items) => items.forEach((it) => { if (it.children?.length) { this.collapsed.add(it.id); close(it.children); } });
      close(this.outline);
    }
    this.drawn = true;
    this.draw();
  }

  draw() {
    const show = outlineMatches(this.outline, this.query);
    const words = this.query.toLowerCase().split(/\s+/).filter(Boolean);
    let first = true;
    const add = (items, level) => {
      const out = [];
      for (const it of items) {
        if (show && !show.has(it.id)) continue;
        const kids = it.children || [];
        const open = show ? true : !this.collapsed.has(it.id);
        const num = outlineNumber(it);
        const title = it.title || it.label || "(untitled)";
        const a = el("a", { role: "treeitem", tabindex: first ? "0" : "-1", "data-unit": it.id, "aria-level": String(level),
                            "aria-expanded": kids.length ? String(open) : null, class: it.id === this.current ? "current" : null,
                            "aria-current": it.id === this.current ? "location" : null,
                            onclick: (e) => { if (e.target.closest(".twisty")) return; this.focus(a); this.onPick(it.id); } },
          el("button", { class: `twisty ${kids.length ? (open ? "open" : "closed") : "leaf"}`, type: "button", tabindex: "-1",
                         "aria-hidden": "true", onclick: () => this.toggle(it.id) }),
          num ? el("span", { class: "num" }, num) : null, num ? " " : null,
          el("span", { class: "ttl" }, ...highlight(title, words)));
        first = false;
        const li = el("li", { role: "none" }, a);
        if (kids.length && open) {
          const ul = el("ul", { role: "group" });
          ul.append(...add(kids, level + 1));
          li.append(ul);
        }
        out.push(li);
      }
      return out;
    };
    this.root.replaceChildren(...add(this.outline, 1));
    return show;
  }

  toggle(id, open = null) {
    const isOpen = !this.collapsed.has(id);
    if (open === null ? isOpen : !open) this.collapsed.add(id); else this.collapsed.delete(id);
    this.draw();
    this.focus(this.root.querySelector(`a[data-unit="${CSS.escape(id)}"]`));
  }

  filter(query) {
    this.query = String(query || "");
    return this.draw();
  }

  expandAll(on) {
    this.collapsed = new Set();
    if (!on) {
      const close = (items) => items.forEach((it) => { if (it.children?.length) { this.collapsed.add(it.id); close(it.children); } });
      close(this.outline);
    }
    this.draw();
  }

  /** Marks the heading ``id`` (the section the cursor is in) current, opening its ancestors. */
  setCurrent(id) {
    this.current = id;
    const path = outlinePath(this.outline, id);
    path.slice(0, -1).forEach((p) => this.collapsed.delete(p));
    this.draw();
    const a = id ? this.root.querySelector(`a[data-unit="${CSS.escape(id)}"]`) : null;
    if (a && this.root.offsetParent) a.scrollIntoView({ block: "nearest" });
    return Boolean(a);
  }

  items() { return [...this.root.querySelectorAll("a[role=treeitem]")]; }

  focus(a) {
    if (!a) return;
    this.items().forEach((x) => x.setAttribute("tabindex", x === a ? "0" : "-1"));
    a.focus();
  }

  key(e) {
    const a = e.target.closest?.("a[role=treeitem]");
    if (!a) return;
    const all = this.items();
    const i = all.indexOf(a);
    const id = a.dataset.unit;
    const expanded = a.getAttribute("aria-expanded");
    let handled = true;
    if (e.key === "ArrowDown") this.focus(all[i + 1]);
    else if (e.key === "ArrowUp") this.focus(all[i - 1]);
    else if (e.key === "Home") this.focus(all[0]);
    else if (e.key === "End") this.focus(all[all.length - 1]);
    else if (e.key === "ArrowRight") {
      if (expanded === "false") this.toggle(id, true); else if (expanded === "true") this.focus(all[i + 1]);
    } else if (e.key === "ArrowLeft") {
      if (expanded === "true") this.toggle(id, false);
      else this.focus(a.closest("ul[role=group]")?.parentElement?.querySelector(":scope > a"));
    } else if (e.key === "Enter" || e.key === " ") this.onPick(id);
    else handled = false;
    if (handled) e.preventDefault();
  }
}

function highlight(text, words) {
  if (!words.length) return [text];
  const low = text.toLowerCase();
  const w = words.find((x) => low.includes(x));
  if (!w) return [text];
  const at = low.indexOf(w);
  return [text.slice(0, at), el("mark", {}, text.slice(at, at + w.length)), text.slice(at + w.length)];
}
