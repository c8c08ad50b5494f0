// Entry point: wait for Office.js (or notice that it is missing) and start the pane.
import { TaskPane } from "./app.js";

const OFFICE_WAIT_MS = 8000;

function officeReady() {
  if (!window.Office || typeof window.Office.onReady !== "function") return Promise.resolve(null);
  return Promise.race([
    window.Office.onReady(),
    new Promise((resolve) => setTimeout(() => resolve(null), OFFICE_WAIT_MS)),
  ]);
}

async function main() {
  let storage = null;
  try { storage = window.localStorage; } catch { /* storage blocked: settings last for the session */ }
  const info = await officeReady();
  const pane = new TaskPane({ Office: window.Office ?? null, Word: window.Word ?? null, storage, location: window.location });
  window.ledgerPane = pane;
  await pane.start(info);
}

main();
