import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFStream } from "pdf-lib";

/**
 * Keys and action types that make a PDF run something (decision 042): JavaScript (`/JS`, a `/Names`
 * `/JavaScript` tree, an action of type `/JavaScript`), launching a program (`/Launch`) and XFA forms, which
 * carry their own scripts. A catalog's `/OpenAction` or any `/AA` (additional actions: on open, on close, on
 * a field's events) runs what it names automatically, so either one naming such an action is found through
 * it.
 */
const SCRIPT_KEYS = new Set(["JS", "JavaScript", "XFA"]);
const SCRIPT_ACTIONS = new Set(["JavaScript", "Launch"]);

/** `/JS` as its key or action type is named in a message. */
const nameOf = (n: PDFName) => n.decodeText();

/**
 * The first script or launch action found in a PDF, named as in the file (`/JS`, `/Launch`), or undefined.
 * Every object of the document is walked with pdf-lib, which reads the objects inside compressed object
 * streams and decodes `#xx` escapes in names (`/J#53` is `/JS`), where a scan of the bytes sees neither.
 * A file pdf-lib cannot read (or finds no catalog in) is scanned as bytes, with the object streams given
 * (`unpacked`) as text: not every file, as the bytes of compressed page content would now and then spell
 * `/JS` by chance.
 */
export async function pdfScript(pdf: Uint8Array, unpacked: Uint8Array[] = []): Promise<string | undefined> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
  } catch {
    return scanBytes([pdf, ...unpacked]);
  }
  // pdf-lib reads junk leniently: without a catalog it found no document, and a viewer may yet salvage one.
  const root = doc.context.trailerInfo.Root;
  if (!root || !(doc.context.lookup(root) instanceof PDFDict)) return scanBytes([pdf, ...unpacked]);
  const roots: PDFObject[] = doc.context.enumerateIndirectObjects().map(([, o]) => o);
  const stack = roots.filter(Boolean);
  let seen = 0;
  while (stack.length) {
    const o = stack.pop()!;
    // A bound on the walk of direct objects: indirect ones are each a root above, never followed.
    if (++seen > 5_000_000) return "too many objects to check";
    const dict = o instanceof PDFStream ? o.dict : o instanceof PDFDict ? o : undefined;
    if (dict) {
      for (const [key, value] of dict.entries()) {
        const k = nameOf(key);
        if (SCRIPT_KEYS.has(k)) return `/${k}`;
        if (k === "S" && value instanceof PDFName && SCRIPT_ACTIONS.has(nameOf(value))) {
          return `/${nameOf(value)}`;
        }
        stack.push(value);
      }
    } else if (o instanceof PDFArray) {
      for (const v of o.asArray()) stack.push(v);
    }
  }
  return undefined;
}

const ESCAPE = /#([0-9A-Fa-f]{2})/g;
const SCRIPT_NAME = /\/(JS|JavaScript|Launch|XFA)(?![A-Za-z0-9])/;

/** The byte scan of a file pdf-lib cannot read: names with `#xx` escapes decoded first. */
function scanBytes(parts: Uint8Array[]): string | undefined {
  for (const part of parts) {
    const text = new TextDecoder("latin1").decode(part)
      .replace(
        /\/[^\s/<>\[\]()%{}]+/g,
        (name) => name.replace(ESCAPE, (_, h) => String.fromCharCode(parseInt(h, 16))),
      );
    const m = SCRIPT_NAME.exec(text);
    if (m) return `/${m[1]}`;
  }
  return undefined;
}
