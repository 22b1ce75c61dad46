import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * Test fixtures: real zips built byte by byte, so a test can make one lie (sizes the central
 * directory understates, zip64 markers) or unpack to gigabytes from a few MB. Only tests import this.
 */
export interface ZipSpec {
  name: string;
  /** The entry's bytes, deflated here, or already-deflated data (`deflated`). */
  data?: Uint8Array;
  deflated?: { body: Uint8Array; size: number };
  stored?: boolean;
  /** The uncompressed size both headers declare (default: the true one). */
  declared?: number;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};

/**
 * `mb` MB of zeros as one raw deflate stream of a few KB per MB: a fully flushed block of 1 MB of
 * zeros repeated (each is independent of the ones before), then an empty final block.
 */
export function zerosDeflated(mb: number): { body: Uint8Array; size: number } {
  const block = new Uint8Array(
    deflateRawSync(new Uint8Array(1 << 20), { finishFlush: constants.Z_FULL_FLUSH }),
  );
  const end = new Uint8Array(deflateRawSync(new Uint8Array(0)));
  return { body: concat([...Array.from({ length: mb }, () => block), end]), size: mb << 20 };
}

/** A zip of these entries: local headers and data, central directory, end record (and a zip64 locator). */
export function buildZip(specs: ZipSpec[], opts: { zip64Locator?: boolean } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const s of specs) {
    const name = new TextEncoder().encode(s.name);
    const data = s.data ?? new Uint8Array(0);
    const body = s.deflated?.body ?? (s.stored ? data : new Uint8Array(deflateRawSync(data)));
    const fields = (v: DataView, at: number) => {
      v.setUint16(at, s.stored ? 0 : 8, true);
      v.setUint32(at + 6, s.deflated ? 0 : crc32(data), true);
      v.setUint32(at + 10, body.length, true);
      v.setUint32(at + 14, s.declared ?? s.deflated?.size ?? data.length, true);
      v.setUint16(at + 18, name.length, true);
    };
    const head = new DataView(new ArrayBuffer(30));
    head.setUint32(0, 0x04034b50, true);
    fields(head, 8);
    const dir = new DataView(new ArrayBuffer(46));
    dir.setUint32(0, 0x02014b50, true);
    fields(dir, 10);
    dir.setUint32(42, offset, true);
    parts.push(new Uint8Array(head.buffer), name, body);
    central.push(new Uint8Array(dir.buffer), name);
    offset += 30 + name.length + body.length;
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, specs.length, true);
  end.setUint16(10, specs.length, true);
  end.setUint32(12, central.reduce((n, p) => n + p.length, 0), true);
  end.setUint32(16, offset, true);
  const locator = new Uint8Array(20);
  new DataView(locator.buffer).setUint32(0, 0x07064b50, true);
  return concat([...parts, ...central, ...(opts.zip64Locator ? [locator] : []), new Uint8Array(end.buffer)]);
}

const text = (s: string) => new TextEncoder().encode(s);

/** The smallest xlsx exceljs reads: one sheet, its XML given (or an entry standing in for it). */
export function minimalXlsx(sheet: string | ZipSpec): Uint8Array {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  return buildZip([
    { name: "[Content_Types].xml", data: text("<Types/>") },
    {
      name: "xl/workbook.xml",
      data: text(
        `<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: text(
        `<Relationships><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    typeof sheet === "string"
      ? {
        name: "xl/worksheets/sheet1.xml",
        data: text(`<worksheet ${ns}><sheetData>${sheet}</sheetData></worksheet>`),
      }
      : sheet,
  ]);
}
