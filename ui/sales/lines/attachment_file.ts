import type { ChosenFile } from "../../primitives/FileField.tsx";

/** The multipart field holding a line's PDF (and the form's key for its message). */
export const FILE = "file";

/** A chosen PDF's bytes (FileField reads it as a data URL); the first `chars` of base64 when given. */
function bytesOf(file: ChosenFile, chars?: number): Uint8Array {
  const start = file.url.indexOf(",") + 1;
  const b64 = file.url.slice(start, chars ? start + chars : undefined);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

export { isPdf } from "../../primitives/FileField.tsx";

/** The attachment upload: multipart with a `file` part. */
export function attachmentForm(file: ChosenFile): FormData {
  const form = new FormData();
  form.set(FILE, new Blob([bytesOf(file) as BlobPart], { type: "application/pdf" }), file.name);
  return form;
}
