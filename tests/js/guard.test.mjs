// The pane's action guards (a double click applies once; a preview during an upload waits for
// it) and document ids in request paths.
import { test } from "node:test";
import assert from "node:assert/strict";
import { exclusive, queued } from "../../static/js/guard.js";
import { LedgerApi } from "../../static/js/api.js";

const tick = () => new Promise((r) => setTimeout(r, 5));

test("exclusive: a second call while the first runs is dropped, a later one runs", async () => {
  let runs = 0;
  const obj = { n: 0, apply: exclusive(async function () { runs += 1; this.n += 1; await tick(); return this.n; }) };
  const [a, b] = await Promise.all([obj.apply(), obj.apply()]);
  assert.deepEqual([a, b, runs], [1, undefined, 1]);
  assert.equal(await obj.apply(), 2);
});

test("exclusive: an error frees the guard", async () => {
  const f = exclusive(async (x) => { await tick(); if (x) throw new Error("boom"); return "ok"; });
  await assert.rejects(f(true), /boom/);
  assert.equal(await f(false), "ok");
});

test("queued: a call made during another waits for it and sees what it did", async () => {
  const log = [];
  const pane = {
    doc: "old",
    sync: queued(async function (name) { log.push(`start ${name}`); await tick(); this.doc = name; log.push(`end ${name}`); }),
  };
  const upload = pane.sync("new");
  const preview = (async () => { await pane.sync("new"); return pane.doc; })();
  assert.equal(await preview, "new");
  await upload;
  assert.deepEqual(log, ["start new", "end new", "start new", "end new"]);
});

test("queued: a failed call does not block the next", async () => {
  const f = queued(async (x) => { await tick(); if (x) throw new Error("down"); return "up"; });
  const a = f(true);
  const b = f(false);
  await assert.rejects(a, /down/);
  assert.equal(await b, "up");
});

test("document ids are one encoded path segment in every route", async () => {
  const urls = [];
  const fetch = async (url) => { urls.push(url); return { ok: true, status: 200, json: async () => ({ units: [], total: 0 }) }; };
  const api = new LedgerApi({ baseUrl: "https://ledger.test", fetch });
  const id = "a/b?c#d";
  await api.document(id); await api.outline(id); await api.units(id); await api.graph(id);
  await api.impact(id, {}); await api.propose(id, {}); await api.apply(id, {}); await api.check(id, 2);
  for (const u of urls) assert.ok(u.startsWith("https://ledger.test/api/v1/documents/a%2Fb%3Fc%23d"), u);
  assert.equal(urls.length, 8);
});
