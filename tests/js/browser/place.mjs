// Places a proposal's operations in the scripted Word host fed with a document's own paragraphs
// (tests/clients/word_paragraphs.py), without a browser: the pane's word.js on the shim in node.
// Used by tests/clients/pane_sweep.py to measure, on every document of the development set,
// how many changes land. Usage: node place.mjs IN.json OUT.json
// IN: {paragraphs, units, ops, account?}; OUT: {written, failures, accepted, rejected, seconds}.
import { readFileSync, writeFileSync } from "node:fs";
import { makeHost } from "../host.mjs";
import { applyOperations } from "../../../static/js/word.js";

const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { Word, host, calls } = makeHost(cfg.paragraphs, { account: cfg.account || "Ada", quiet: true });
const t0 = performance.now();
let out;
try {
  const res = await applyOperations(Word, cfg.ops, cfg.units, { comments: true, reviewed: true });
  out = { written: res.written, failures: res.failures, comments: res.comments };
} catch (err) {
  out = { error: String(err?.stack || err) };
}
out.seconds = (performance.now() - t0) / 1000;
out.accepted = host.view("accepted");
out.rejected = host.view("rejected");
out.searches = calls.filter((c) => c.api.endsWith(".search")).length;
out.longest = Math.max(0, ...calls.filter((c) => c.api.endsWith(".search")).map((c) => c.length));
writeFileSync(process.argv[3], JSON.stringify(out));
