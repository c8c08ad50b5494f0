// Reading the open document as bytes: Office's getFileAsync(Compressed) in slices, with progress.

/** Default slice size: 64 KiB (Office allows up to 4 MiB; smaller slices give finer progress). */
export const DEFAULT_SLICE = 64 * 1024;

function call(fn) {
  return new Promise((resolve, reject) => {
    fn((result) => {
      if (result && result.status === "failed") {
        const e = result.error || {};
        reject(new Error(`Word could not hand over the document (${e.code ?? "?"}: ${e.message ?? "unknown error"})`));
      } else {
        resolve(result ? result.value : undefined);
      }
    });
  });
}

/** The whole document as a Uint8Array (a .docx: Word's ``Compressed`` file type).
 *
 * ``onProgress(done, total)`` is called after each slice with byte counts. The file handle is
 * always closed, since Word allows one open file per add-in. */
export async function readDocument(Office, { sliceSize = DEFAULT_SLICE, onProgress = () => {} } = {}) {
  const doc = Office.context.document;
  const file = await call((cb) => doc.getFileAsync(Office.FileType.Compressed, { sliceSize }, cb));
  try {
    const total = file.size;
    const out = new Uint8Array(total);
    let offset = 0;
    onProgress(0, total);
    for (let i = 0; i < file.sliceCount; i += 1) {
      const slice = await call((cb) => file.getSliceAsync(i, cb));
      const data = slice.data;
      if (offset + data.length > total) throw new Error("Word handed over more bytes than the file has");
      out.set(data instanceof Uint8Array ? data : Uint8Array.from(data), offset);
      offset += data.length;
      onProgress(offset, total);
    }
    if (offset !== total) throw new Error(`Word handed over ${offset} of ${total} bytes`);
    return out;
  } finally {
    await new Promise((resolve) => file.closeAsync(() => resolve()));
  }
}

/** Hex SHA-256 of bytes (to tell whether the document changed since the last upload). */
export async function sha256Hex(bytes) {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Bytes -> base64 (for insertFileFromBase64), in chunks to stay under argument limits. */
export function toBase64(bytes) {
  let s = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) s += String.fromCharCode(...bytes.subarray(i, i + step));
  return globalThis.btoa(s);
}
