// Where LEDGER's units are in Word: the document's paragraphs as Word gives them (read once,
// body.paragraphs), aligned with the lines of LEDGER's units as two sequences, and inside one
// paragraph the offsets of LEDGER's text mapped onto Word's. Pure: no DOM and no Office.js.
//
// Word and LEDGER write the same text with small differences (a manual line break is U+000B in
// Word, U+2028 in LEDGER; a tracked deletion stays in Word's text until it is accepted; a list
// number is Word's listString, never its text; a field shows its result in both), and the user
// may have typed since the upload: the alignment matches what is equal first, by sequence, and
// pairs what is only similar inside the gaps, so a paragraph is found by where it is, not by a
// search of its words.
import { fromWord, lines, paragraphKey, words } from "./textplan.js";

/** Unit kinds that never stand in the body's paragraphs (Word keeps notes apart). */
const NOT_IN_BODY = new Set(["footnote", "endnote"]);

/** The lines of LEDGER's units in document order, as Word's paragraphs show them: each unit's
 * text split at "\n" (a table's cells, a unit of several paragraphs). A picture that stands
 * inside another paragraph (``meta.inline_in``) and notes are no paragraph of the body.
 * ``[{key, unit, line, text, kind}]``; ``key`` is ``unitId#line``. */
export function bodyLines(units) {
  const out = [];
  const sorted = [...(units || [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  for (const u of sorted) {
    if (NOT_IN_BODY.has(u.kind) || u.meta?.inline_in) continue;
    lines(u.text ?? "").forEach((l, i) => out.push({ key: `${u.id}#${i}`, unit: u.id, line: i, text: l.text, kind: u.kind }));
  }
  return out;
}

/** How alike two paragraphs' words are: shared words over the longer word list (0..1). */
export function similarity(a, b) {
  const wa = words(String(a).toLowerCase());
  const wb = words(String(b).toLowerCase());
  if (!wa.length || !wb.length) return wa.length === wb.length ? 1 : 0;
  const count = new Map();
  for (const w of wa) count.set(w, (count.get(w) || 0) + 1);
  let shared = 0;
  for (const w of wb) {
    const n = count.get(w) || 0;
    if (n) { shared += 1; count.set(w, n - 1); }
  }
  return shared / Math.max(wa.length, wb.length);
}

/** The least similarity for two paragraphs in the same gap of the alignment to be paired. */
export const SIMILAR = 0.5;
const DP_CELLS = 40000;

/** Longest increasing subsequence of ``pairs`` ([a, b], sorted by a) by b: the unique matches
 * that keep their order (patience diff). */
function increasing(pairs) {
  const tails = [];
  const prev = new Array(pairs.length).fill(-1);
  const at = [];
  pairs.forEach(([, b], i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (pairs[tails[mid]][1] < b) lo = mid + 1; else hi = mid; }
    if (lo > 0) prev[i] = tails[lo - 1];
    tails[lo] = i;
    at[lo] = i;
  });
  const out = [];
  for (let i = tails.length ? tails[tails.length - 1] : -1; i !== -1; i = prev[i]) out.push(pairs[i]);
  return out.reverse();
}

/** Aligns Word's paragraphs (``paras``: their texts, or ``{text}``) with LEDGER's lines
 * (``bodyLines``). Returns ``{para: Map key -> paragraph index, line: Array index -> key|null,
 * exact: Set of keys matched on equal text}``. Equal texts are matched in order (unique ones
 * first, then the rest of each gap), and in a gap left between them a line and a paragraph
 * whose words are at least ``SIMILAR`` alike are paired in order too; ``joined``: units whose
 * lines are one paragraph in Word (``joinLines``). */
export function alignParagraphs(paras, bodyLinesList) {
  const wordKeys = paras.map((p) => paragraphKey(typeof p === "string" ? p : p.text));
  const lineKeys = bodyLinesList.map((l) => paragraphKey(l.text));
  const para = new Map();
  const line = new Array(paras.length).fill(null);
  const exact = new Set();
  const match = (i, j, same) => {
    const key = bodyLinesList[j].key;
    para.set(key, i);
    line[i] = key;
    if (same) exact.add(key);
  };

  const gap = (a0, a1, b0, b1) => {
    // equal ends first: most of a document is unchanged
    while (a0 < a1 && b0 < b1 && wordKeys[a0] === lineKeys[b0]) { match(a0, b0, true); a0 += 1; b0 += 1; }
    while (a0 < a1 && b0 < b1 && wordKeys[a1 - 1] === lineKeys[b1 - 1]) { match(a1 - 1, b1 - 1, true); a1 -= 1; b1 -= 1; }
    if (a0 >= a1 || b0 >= b1) return;
    // texts that occur once on each side are anchors, kept in order
    const seenA = new Map();
    const seenB = new Map();
    for (let i = a0; i < a1; i += 1) { if (wordKeys[i]) seenA.set(wordKeys[i], seenA.has(wordKeys[i]) ? -1 : i); }
    for (let j = b0; j < b1; j += 1) { if (lineKeys[j]) seenB.set(lineKeys[j], seenB.has(lineKeys[j]) ? -1 : j); }
    const pairs = [];
    for (const [k, i] of seenA) { const j = seenB.get(k); if (i !== -1 && j !== undefined && j !== -1) pairs.push([i, j]); }
    pairs.sort((x, y) => x[0] - y[0]);
    const anchors = increasing(pairs);
    if (anchors.length) {
      let pa = a0;
      let pb = b0;
      for (const [i, j] of anchors) {
        gap(pa, i, pb, j);
        match(i, j, true);
        pa = i + 1;
        pb = j + 1;
      }
      gap(pa, a1, pb, b1);
      return;
    }
    fill(a0, a1, b0, b1);
  };

  // No unique text left in the gap: the best order-keeping pairing of equal (worth 3) and
  // similar (worth 1 + similarity) paragraphs, by dynamic programming while the gap is small,
  // else equal texts greedily in order.
  const fill = (a0, a1, b0, b1) => {
    const n = a1 - a0;
    const m = b1 - b0;
    if (n * m > DP_CELLS) {
      let j = b0;
      for (let i = a0; i < a1 && j < b1; i += 1) {
        let k = j;
        while (k < b1 && k < j + 50 && lineKeys[k] !== wordKeys[i]) k += 1;
        if (k < b1 && lineKeys[k] === wordKeys[i]) { match(i, k, true); j = k + 1; }
      }
      return;
    }
    const score = (i, j) => {
      if (wordKeys[i] === lineKeys[j]) return 3;
      const s = similarity(wordKeys[i], lineKeys[j]);
      return s >= SIMILAR ? 1 + s : 0;
    };
    const dp = Array.from({ length: n + 1 }, () => new Float64Array(m + 1));
    const sc = Array.from({ length: n }, () => new Float64Array(m));
    for (let i = n - 1; i >= 0; i -= 1) {
      for (let j = m - 1; j >= 0; j -= 1) {
        sc[i][j] = score(a0 + i, b0 + j);
        dp[i][j] = Math.max(dp[i + 1][j], dp[i][j + 1], sc[i][j] ? dp[i + 1][j + 1] + sc[i][j] : 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (sc[i][j] && dp[i][j] === dp[i + 1][j + 1] + sc[i][j]) { match(a0 + i, b0 + j, sc[i][j] === 3); i += 1; j += 1; }
      else if (dp[i + 1][j] >= dp[i][j + 1]) i += 1;
      else j += 1;
    }
  };

  gap(0, paras.length, 0, bodyLinesList.length);
  const joined = joinLines(wordKeys, bodyLinesList, para, line, exact);
  return { para, line, exact, joined };
}

/** A unit whose lines are one paragraph in Word (an .odt code block read with its line breaks
 * as "\n"): when its lines did not all find their own paragraph, and its whole text is a
 * paragraph between its neighbours' paragraphs (free, or taken only by one of its own lines on
 * likeness), every line maps to that one paragraph. Returns the ids of such units (their offsets
 * count in the whole unit text). */
function joinLines(wordKeys, bodyLinesList, para, line, exact) {
  const joined = new Set();
  const byUnit = new Map();
  bodyLinesList.forEach((l, j) => { if (!byUnit.has(l.unit)) byUnit.set(l.unit, []); byUnit.get(l.unit).push(j); });
  for (const [unit, js] of byUnit) {
    if (js.length < 2 || js.every((j) => exact.has(bodyLinesList[j].key))) continue;
    const own = new Set(js.map((j) => bodyLinesList[j].key));
    let lo = -1;
    for (let j = js[0] - 1; j >= 0; j -= 1) { const p = para.get(bodyLinesList[j].key); if (p !== undefined) { lo = p; break; } }
    let hi = wordKeys.length;
    for (let j = js[js.length - 1] + 1; j < bodyLinesList.length; j += 1) { const p = para.get(bodyLinesList[j].key); if (p !== undefined) { hi = p; break; } }
    const want = paragraphKey(js.map((j) => bodyLinesList[j].text).join("\u2028"));
    for (let i = lo + 1; i < hi; i += 1) {
      if ((line[i] !== null && !own.has(line[i])) || wordKeys[i] !== want) continue;
      for (const j of js) {
        const was = para.get(bodyLinesList[j].key);
        if (was !== undefined && line[was] === bodyLinesList[j].key) line[was] = null;
        para.set(bodyLinesList[j].key, i);
        exact.delete(bodyLinesList[j].key);
      }
      line[i] = bodyLinesList[js[0]].key;
      joined.add(unit);
      break;
    }
  }
  return joined;
}

// --- inside one paragraph ----------------------------------------------------------------------

const SPACE_RX = /[\t\n\u000b\u000c\r\u0085 \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const SKIP_RX = /[\u00ad\u200b\u2060\ufeff\u001f\u0000-\u0008\u000c\u000e-\u001d]/;

/** The characters of ``s`` that count when two copies of a paragraph are compared, each with
 * its index in ``s``: white space as one space, invisible characters and Word's marks left out,
 * Word's own characters as LEDGER's. */
function comparable(s) {
  const chars = [];
  const index = [];
  for (let i = 0; i < s.length; i += 1) {
    let c = s[i];
    if (SKIP_RX.test(c)) continue;
    if (SPACE_RX.test(c)) c = " ";
    else if (c === "\u001e") c = "\u2011";
    chars.push(c);
    index.push(i);
  }
  return { chars, index };
}

const MAX_CELLS = 4_000_000;

/** The map from offsets in LEDGER's text of a paragraph (``ledger``) to offsets in Word's text
 * of it (``word``): a longest common subsequence of their comparable characters (equal ends
 * first, so a paragraph with one changed word costs its length). Returns ``null`` when the two
 * differ too much to map (more than MAX_CELLS in the middle). ``map.span(start, end)`` gives
 * ``[start, end]`` in Word's text (UTF-16 offsets both), ``map.same(start, end)`` whether those
 * characters are the same in both. */
export function offsetMap(ledger, word) {
  const A = comparable(String(ledger));
  const B = comparable(String(word));
  const a = A.chars;
  const b = B.chars;
  const toB = new Int32Array(a.length).fill(-1);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) { toB[pre] = pre; pre += 1; }
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) {
    toB[a.length - 1 - suf] = b.length - 1 - suf;
    suf += 1;
  }
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  if (n > 0 && m > 0) {
    if (n * m > MAX_CELLS) return null;
    const dp = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i -= 1) {
      for (let j = m - 1; j >= 0; j -= 1) {
        dp[i][j] = a[pre + i] === b[pre + j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[pre + i] === b[pre + j] && dp[i][j] === dp[i + 1][j + 1] + 1) { toB[pre + i] = pre + j; i += 1; j += 1; }
      else if (dp[i + 1][j] >= dp[i][j + 1]) i += 1;
      else j += 1;
    }
  }
  // LEDGER offset -> index into A (first comparable char at or after it)
  const ledgerText = String(ledger);
  const wordText = String(word);
  const firstAt = (off) => { let k = 0; while (k < A.index.length && A.index[k] < off) k += 1; return k; };
  const wordIndex = (k) => B.index[toB[k]];
  return {
    /** ``[start, end)`` of LEDGER's text -> ``[start, end)`` of Word's: from the first matched
     * character of the span (or, for an empty or unmatched span, the one after the last matched
     * character before it) to the end of its last matched character. */
    span(start, end) {
      const k0 = firstAt(start);
      const k1 = firstAt(end);
      let s = -1;
      let e = -1;
      for (let k = k0; k < k1; k += 1) {
        if (toB[k] === -1) continue;
        if (s === -1) s = wordIndex(k);
        e = wordIndex(k) + 1;
      }
      if (s === -1) {
        // nothing of the span is in Word (an insertion point, or words Word no longer has):
        // just after the matched character before it, else just before the one after it
        let k = k0 - 1;
        while (k >= 0 && toB[k] === -1) k -= 1;
        if (k >= 0) { s = wordIndex(k) + 1; }
        else {
          let q = k1;
          while (q < a.length && toB[q] === -1) q += 1;
          s = q < a.length ? wordIndex(q) : wordText.length;
        }
        e = s;
        if (end > start) return { start: s, end: e, same: false };
      }
      return { start: s, end: e, same: this.same(start, end, s, e) };
    },
    /** Whether LEDGER's ``[start, end)`` and Word's ``[ws, we)`` hold the same comparable text. */
    same(start, end, ws, we) {
      const x = comparable(ledgerText.slice(start, end)).chars.join("");
      const y = comparable(wordText.slice(ws, we)).chars.join("");
      return x === y;
    },
  };
}

/** A paragraph's words for a message: its start, in LEDGER's characters. */
export function paragraphWords(text, max = 70) {
  const t = fromWord(text).replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}
