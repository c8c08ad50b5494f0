// Text planning for the Word apply step: word-level hunks, Word's 255-character search limit,
// search escaping and occurrence counting. Pure functions, no DOM and no Office.js.

/** Word's body/paragraph/range search() refuses strings longer than this. */
export const WORD_SEARCH_LIMIT = 255;

// Unicode's White_Space, spelled out (JavaScript's \s also takes U+FEFF, Python's U+001C..U+001F),
// and the invisible characters readers and editors keep or drop: adapters/text.py.
const WHITE = "\\t\\n\\u000b\\u000c\\r\\u0085 \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const SPACE = new RegExp(`[${WHITE}]+`, "g");
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/g;

/** Text as compared between LEDGER's units and Word's paragraphs (adapters/text.py squash; the
 * specification is tests/vectors/normalise.json): invisible characters (soft hyphen, zero-width
 * space, word joiner, BOM) dropped, NFC, one space for any run of white space (tabs, line
 * breaks, no-break spaces), trimmed. */
export function normalizeText(s) {
  return String(s ?? "").replace(INVISIBLE, "").normalize("NFC").replace(SPACE, " ").replace(/^ | $/g, "");
}

/** A string as Word's search() reads it (no wildcards): ^ is Word's escape character, tabs,
 * manual line breaks, no-break spaces, non-breaking and optional hyphens have ^-codes (Office.js
 * "Use search options in your Word add-in to find text": ^t, ^l, ^s, ^~, ^-, ^^). */
export function escapeSearch(s) {
  return String(s)
    .replace(/\^/g, "^^")
    .replace(/\t/g, "^t")
    .replace(/[\n\u000b\u2028]/g, "^l")
    .replace(/\u00a0/g, "^s")
    .replace(/\u001e/g, "^~")
    .replace(/\u001f/g, "^-");
}

/** Can Word's search() find ``s`` as written? Other control characters (Word's marks for a
 * picture, a note reference, a field's brace) have no search code a plain search can use. */
export function searchable(s) {
  return !/[\u0000-\u0008\u000c-\u001d]/.test(String(s));
}

// Word's characters for what LEDGER's readers write another way (adapters/docx/textmap.py):
// a manual line break is U+000B in Word and U+2028 in LEDGER, a non-breaking hyphen U+001E
// and U+2011, an optional hyphen U+001F and U+00AD; Word's other control characters (a
// picture U+0001, a note reference U+0002, a page break U+000C) LEDGER writes as nothing.
const WORD_CHARS = { "\u000b": "\u2028", "\r": "\u2028", "\u001e": "\u2011", "\u001f": "\u00ad" };
const WORD_DROP = /[\u0000-\u0008\u000c\u000e-\u001d]/g;

/** A paragraph's text as Word's ``Paragraph.text`` gives it, in LEDGER's characters. */
export function fromWord(s) {
  return String(s ?? "").replace(/[\u000b\r\u001e\u001f]/g, (c) => WORD_CHARS[c]).replace(WORD_DROP, "");
}

/** A paragraph's text, Word's or LEDGER's, as the two compare: :func:`fromWord`, then
 * :func:`normalizeText`. */
export function paragraphKey(s) {
  return normalizeText(fromWord(s));
}

/** How long ``s`` is once escaped for Word's search. */
export function searchLength(s) {
  return escapeSearch(s).length;
}

/** The longest prefix of ``s`` whose escaped form fits ``limit`` characters. */
export function searchPrefix(s, limit = WORD_SEARCH_LIMIT) {
  let n = 0;
  let len = 0;
  for (const ch of String(s)) {
    const add = escapeSearch(ch).length;
    if (len + add > limit) break;
    len += add;
    n += ch.length;
  }
  return s.slice(0, n);
}

/** The longest suffix of ``s`` whose escaped form fits ``limit`` characters. */
export function searchSuffix(s, limit = WORD_SEARCH_LIMIT) {
  const chars = Array.from(String(s));
  let len = 0;
  let i = chars.length;
  while (i > 0) {
    const add = escapeSearch(chars[i - 1]).length;
    if (len + add > limit) break;
    len += add;
    i -= 1;
  }
  return chars.slice(i).join("");
}

/** Start offsets of the non-overlapping matches of ``needle`` in ``haystack``, left to right
 * (how Word's search walks a range). */
export function occurrences(haystack, needle) {
  const out = [];
  if (!needle) return out;
  let i = haystack.indexOf(needle);
  while (i !== -1) {
    out.push(i);
    i = haystack.indexOf(needle, i + needle.length);
  }
  return out;
}

// One word, as adapters/words.py defines it (the specification is tests/vectors/words.json, run
// here, in Python and in the LibreOffice bridge): letters, digits, combining marks and "_",
// kept whole across ONE joiner between two word characters -- a hyphen (also U+2010, U+2011),
// an apostrophe (also U+2019), a full stop, the middle dot, the soft hyphen, ZWNJ, ZWJ, the
// Hebrew geresh and gershayim, or a comma between two digits.
const WORD_CHAR = "[\\p{L}\\p{N}\\p{M}_]";
const JOIN = "(?:['\\u2019.\\u00b7\\u00ad\\u200c\\u200d\\u05f3\\u05f4\\u2010\\u2011-]|(?<=\\p{Nd}),(?=\\p{Nd}))";
const WORD_SRC = `${WORD_CHAR}+(?:${JOIN}${WORD_CHAR}+)*`;
const WORD = new RegExp(WORD_SRC, "gu");
const TOKEN = new RegExp(`[${WHITE}]+|${WORD_SRC}|[^${WHITE}]`, "gu");

/** Words, whitespace runs and single other characters, in order (adapters/textdiff.py cuts
 * the server's tracked changes the same way). */
export function tokenize(s) {
  return String(s).match(TOKEN) || [];
}

const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;

/** How many code points ``s.slice(from, to)`` holds (Python's unit for offsets; JavaScript
 * strings count UTF-16 units, two for a character beyond U+FFFF). */
export function codePointCount(s, from = 0, to = s.length) {
  let n = to - from;
  for (let i = from + 1; i < to; i += 1) if (isLow(s.charCodeAt(i)) && isHigh(s.charCodeAt(i - 1))) n -= 1;
  return n;
}

/** The UTF-16 index of code point offset ``cp`` in ``s`` (an offset the server sent). */
export function utf16Index(s, cp) {
  let i = 0;
  for (let k = 0; k < cp && i < s.length; k += 1) {
    i += isHigh(s.charCodeAt(i)) && i + 1 < s.length && isLow(s.charCodeAt(i + 1)) ? 2 : 1;
  }
  return i;
}

/** The ``[start, end]`` of each word of ``s``, in code points as the server counts them. */
export function wordSpans(s) {
  s = String(s);
  const out = [];
  let unit = 0;
  let cp = 0;
  for (const m of s.matchAll(WORD)) {
    cp += codePointCount(s, unit, m.index);
    const start = cp;
    unit = m.index + m[0].length;
    cp += codePointCount(s, m.index, unit);
    out.push([start, cp]);
  }
  return out;
}

/** The words of ``s``, as written. */
export function words(s) {
  return String(s).match(WORD) || [];
}

const MAX_DIFF_CELLS = 4_000_000;

/** Word-level differences between ``a`` and ``b`` as hunks ``{start, end, text}`` over ``a``
 * (``a.slice(start, end)`` becomes ``text``), smallest first-to-last; a longest-common-
 * subsequence over tokens, so unchanged words are never touched. */
export function wordDiff(a, b) {
  a = String(a);
  b = String(b);
  if (a === b) return [];
  const ta = tokenize(a);
  const tb = tokenize(b);
  // Common prefix and suffix first: most edits change a few words in a long paragraph.
  let pre = 0;
  while (pre < ta.length && pre < tb.length && ta[pre] === tb[pre]) pre += 1;
  let suf = 0;
  while (suf < ta.length - pre && suf < tb.length - pre &&
         ta[ta.length - 1 - suf] === tb[tb.length - 1 - suf]) suf += 1;
  const ma = ta.slice(pre, ta.length - suf);
  const mb = tb.slice(pre, tb.length - suf);
  const offA = [0];
  for (const t of ta) offA.push(offA[offA.length - 1] + t.length);
  const base = offA[pre];
  let pairs;
  if (ma.length * mb.length > MAX_DIFF_CELLS) {
    pairs = []; // too big to align word by word: one hunk for the middle
  } else {
    pairs = lcsPairs(ma, mb);
  }
  const hunks = [];
  let ia = 0;
  let ib = 0;
  const localOff = [0];
  for (const t of ma) localOff.push(localOff[localOff.length - 1] + t.length);
  const flush = (ea, eb) => {
    if (ea > ia || eb > ib) {
      hunks.push({ start: base + localOff[ia], end: base + localOff[ea], text: mb.slice(ib, eb).join("") });
    }
  };
  for (const [pa, pb] of pairs) {
    flush(pa, pb);
    ia = pa + 1;
    ib = pb + 1;
  }
  flush(ma.length, mb.length);
  return hunks;
}

function lcsPairs(a, b) {
  const n = a.length;
  const m = b.length;
  const dp = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
    }
  }
  const pairs = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (dp[i + 1][j] >= dp[i][j + 1]) {
      i += 1;
    } else {
      j += 1;
    }
  }
  return pairs;
}

/** A hunk whose old text is only whitespace cannot be searched for reliably: widen it to the
 * word on its left (or right), keeping the result the same. */
export function widenHunk(line, h) {
  const old = line.slice(h.start, h.end);
  if (h.start === h.end || old.trim() !== "") return h; // insertions are anchored, not widened
  // Take the token to the left.
  const left = tokenize(line.slice(0, h.start));
  if (left.length && left[left.length - 1].trim() !== "") {
    const w = left[left.length - 1];
    return { start: h.start - w.length, end: h.end, text: w + h.text };
  }
  const right = tokenize(line.slice(h.end));
  if (right.length && right[0].trim() !== "") {
    const w = right[0];
    return { start: h.start, end: h.end + w.length, text: h.text + w };
  }
  if (left.length >= 2) { // "word<space>" + hunk: take both tokens
    const w = left[left.length - 2] + left[left.length - 1];
    return { start: h.start - w.length, end: h.end, text: w + h.text };
  }
  return h;
}

/** Hunks over ``op.before`` that an operation makes: ``replace`` diffs ``old`` against
 * ``text`` inside its span; ``set_text`` diffs the whole unit. The operation's ``start`` and
 * ``end`` count code points (the server's offsets); the hunks count UTF-16 units, as
 * JavaScript's and Word's strings do. */
export function hunksForOperation(op) {
  const before = String(op.before ?? "");
  if (op.op === "replace") {
    const start = utf16Index(before, op.start ?? 0);
    const end = utf16Index(before, op.end ?? op.start ?? 0);
    const old = before.slice(start, end);
    return wordDiff(old, op.text ?? "").map((h) => ({ start: h.start + start, end: h.end + start, text: h.text }));
  }
  if (op.op === "set_text") return wordDiff(before, op.text ?? "");
  return [];
}

/** Splits ``text`` into its lines with their offsets (a unit made of several paragraphs
 * separates them with "\n"). */
export function lines(text) {
  const out = [];
  let pos = 0;
  for (const t of String(text).split("\n")) {
    out.push({ text: t, start: pos, end: pos + t.length });
    pos += t.length + 1;
  }
  return out;
}

/** How to find, inside one paragraph whose text is ``line``, the range a hunk touches.
 *
 * Returns ``{kind: "replace", search, occurrence, count, text}`` (search may be a
 * ``[head, tail]`` pair for spans over the search limit, then ``occurrence``/``count`` are
 * pairs too), or ``{kind: "insert", search, occurrence, count, location, text}`` where the
 * new text goes ``"After"``/``"Before"`` the anchor, or ``{kind: "start", text}`` for an
 * empty paragraph. ``null`` when the span cannot be pinned down. */
export function locateInLine(line, hunk) {
  const h = widenHunk(line, hunk);
  if (h.end > h.start) {
    const old = line.slice(h.start, h.end);
    if (searchLength(old) <= WORD_SEARCH_LIMIT) {
      const occ = occurrences(line, old);
      const k = occ.indexOf(h.start);
      if (k === -1) return null;
      return { kind: "replace", search: old, occurrence: k, count: occ.length, text: h.text, start: h.start, end: h.end, old };
    }
    const head = searchPrefix(old);
    const tail = searchSuffix(old);
    const oh = occurrences(line, head);
    const ot = occurrences(line, tail);
    const kh = oh.indexOf(h.start);
    const kt = ot.indexOf(h.end - tail.length);
    if (kh === -1 || kt === -1) return null;
    return { kind: "replace", search: [head, tail], occurrence: [kh, kt], count: [oh.length, ot.length],
             text: h.text, start: h.start, end: h.end, old };
  }
  // An insertion: anchor on the word after it ("Before"), or the word before it ("After").
  if (line.length === 0) return { kind: "start", text: h.text, start: 0, end: 0, old: "" };
  const right = tokenize(line.slice(h.start));
  const left = tokenize(line.slice(0, h.start));
  let anchor = null;
  let at = 0;
  let location = "Before";
  if (right.length && right[0].trim()) {
    anchor = right[0];
    at = h.start;
  } else if (left.length) {
    anchor = left[left.length - 1];
    if (!anchor.trim() && left.length >= 2) anchor = left[left.length - 2] + anchor;
    at = h.start - anchor.length;
    location = "After";
  }
  if (!anchor || !anchor.trim() || searchLength(anchor) > WORD_SEARCH_LIMIT) return null;
  const occ = occurrences(line, anchor);
  const k = occ.indexOf(at);
  if (k === -1) return null;
  return { kind: "insert", search: anchor, occurrence: k, count: occ.length, location, text: h.text,
           start: h.start, end: h.start, old: "" };
}

/** The string to search the whole body for to find a paragraph whose text is ``line``: its
 * start, up to the search limit. Empty lines cannot be searched for. */
export function paragraphProbe(line) {
  const l = String(line).replace(/^\s+/, "");
  if (!l.trim()) return null;
  return searchPrefix(l);
}
