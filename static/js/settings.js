// The pane's settings (backend URL, API key, author, slice size), kept in the browser's storage.

export const STORAGE_KEY = "ledger.settings.v1";

export const DEFAULTS = { backendUrl: "", apiKey: "", author: "", sliceKiB: 64 };

/** Settings from ``storage`` (localStorage in the pane) over the defaults; a broken entry is
 * ignored rather than breaking the pane. */
export function loadSettings(storage) {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    return { ...DEFAULTS, ...(raw ? JSON.parse(raw) : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Checks and stores settings; returns ``{settings, errors}`` (nothing stored when errors). */
export function saveSettings(storage, values) {
  const s = { ...DEFAULTS, ...values };
  const errors = {};
  s.backendUrl = String(s.backendUrl || "").trim().replace(/\/+$/, "");
  if (s.backendUrl && !/^https?:\/\/[^\s/]+/.test(s.backendUrl)) errors.backendUrl = "Enter a URL such as https://ledger.example.org, or leave it empty for this page's server.";
  s.apiKey = String(s.apiKey || "").trim();
  s.author = String(s.author || "").trim().slice(0, 80);
  const kib = Number(s.sliceKiB);
  if (!Number.isFinite(kib) || kib < 4 || kib > 4096) errors.sliceKiB = "Use a slice size between 4 and 4096 KiB.";
  s.sliceKiB = Math.round(kib);
  if (!Object.keys(errors).length) storage?.setItem(STORAGE_KEY, JSON.stringify(s));
  return { settings: s, errors };
}

/** The Office account's display name where the host tells it (``Office.context.displayName``,
 * an Outlook-style ``userProfile``); Word tells none to add-ins without single sign-on, so the
 * pane then records "LEDGER" unless the user sets a name. */
export function officeAuthor(Office) {
  const c = Office?.context;
  const name = c?.displayName || c?.userProfile?.displayName || c?.mailbox?.userProfile?.displayName || "";
  return String(name).trim().slice(0, 80);
}

/** The backend's base URL: the setting, or the origin that served the pane. */
export function backendBase(settings, location) {
  return settings.backendUrl || (location ? location.origin : "");
}
