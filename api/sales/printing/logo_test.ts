import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { crc32, deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { companies } from "../../../db/schema/mod.ts";
import { makeLine, makeTicket } from "../../../db/factories.ts";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { pdfText } from "../../../scripts/testing/pdf_text.ts";
import { loopGap } from "../../lib/pdf_merge_fixture.ts";
import {
  companyLogoProblem,
  imageHeader,
  LOGO_LIMITS,
  LOGO_NOT_IMAGE,
  LOGO_UNREADABLE,
  logoBytes,
  logoProblem,
  logoTooLarge,
} from "./logo.ts";

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A PNG declaring `width` x `height` (8-bit RGBA unless told: the kind pdfkit unpacks in full) whose
 * pixel data is `raw` deflated, by default what the header promises: all zeros, filter None.
 */
function png(
  width: number,
  height: number,
  o: { raw?: Uint8Array; idat?: Uint8Array; colorType?: number } = {},
) {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, o.colorType ?? 6], 8);
  const idat = o.idat ?? deflateSync(o.raw ?? new Uint8Array(height * (1 + width * 4)));
  return new Uint8Array(Buffer.concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ]));
}

/** The markers of a JPEG up to its frame header: enough to read its size, nothing to decode. */
function jpeg(width: number, height: number, sof = 0xc0): Uint8Array {
  const app0 = [0xff, 0xe0, 0, 16, ...new TextEncoder().encode("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const frame = [0xff, sof, 0, 11, 8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0];
  return new Uint8Array([0xff, 0xd8, ...app0, 0xff, 0xff, ...frame, 0xff, 0xd9]);
}

const dataUrl = (bytes: Uint8Array, type = "png") =>
  `data:image/${type};base64,${Buffer.from(bytes).toString("base64")}`;

Deno.test("logo - the size a PNG or JPEG declares is read from its header, without decoding it", () => {
  assert.deepEqual(imageHeader(png(100000, 100000, { idat: new Uint8Array() })), {
    type: "png",
    width: 100000,
    height: 100000,
  });
  assert.deepEqual(imageHeader(jpeg(640, 200)), { type: "jpeg", width: 640, height: 200 });
  assert.deepEqual(imageHeader(jpeg(65000, 65000, 0xc2)), { type: "jpeg", width: 65000, height: 65000 });
  assert.equal(imageHeader(new TextEncoder().encode("<svg/>")), undefined);
  assert.equal(imageHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2])), undefined, "no frame header");
});

Deno.test("logo - within the limits it is drawn; too large, a bomb behind a modest header or corrupt, not", () => {
  assert.equal(logoProblem(png(1, 1)), undefined);
  assert.equal(logoProblem(png(4096, 1024)), undefined, "4 megapixels, the most allowed");
  assert.equal(logoProblem(jpeg(2000, 800)), undefined);
  assert.equal(logoProblem(png(100000, 100000, { idat: new Uint8Array() })), logoTooLarge());
  assert.equal(logoProblem(png(4096, 4096)), logoTooLarge(), "16 megapixels");
  assert.equal(logoProblem(png(5000, 10)), logoTooLarge(), "a side over 4096");
  assert.equal(logoProblem(jpeg(60000, 60000)), logoTooLarge());
  assert.equal(logoProblem(new Uint8Array(LOGO_LIMITS.maxBytes + 1)), logoTooLarge());
  // 100 x 100 declared, 10 MB of pixel data behind it: png-js would inflate all of it.
  assert.equal(logoProblem(png(100, 100, { raw: new Uint8Array(10_000_000) })), LOGO_UNREADABLE);
  assert.equal(logoProblem(png(10, 10, { idat: new Uint8Array([1, 2, 3, 4]) })), LOGO_UNREADABLE);
  assert.equal(
    logoProblem(png(10, 10, { raw: new Uint8Array(10 * 41).fill(9) })),
    LOGO_UNREADABLE,
    "filter 9",
  );
  assert.equal(logoProblem(png(10, 10, { colorType: 5 })), LOGO_UNREADABLE, "no such colour type");
  assert.equal(logoBytes(dataUrl(png(2, 2)))?.length, png(2, 2).length);
  assert.equal(logoBytes("x".repeat(LOGO_LIMITS.maxBytes * 2)), undefined);
});

Deno.test("logo - saving settings: links and SVG stay allowed; a non-image, oversized or unreadable logo is refused", () => {
  for (
    const ok of [
      undefined,
      "",
      "https://cdn.example/logo.png",
      "/logo.png",
      "data:image/svg+xml;base64,PHN2Zy8+",
    ]
  ) {
    assert.equal(companyLogoProblem(ok), undefined, String(ok));
  }
  assert.equal(companyLogoProblem(dataUrl(png(300, 120))), undefined);
  assert.equal(companyLogoProblem(dataUrl(jpeg(300, 120), "jpeg")), undefined);
  assert.equal(companyLogoProblem("data:text/html;base64,PGgxPg=="), LOGO_NOT_IMAGE);
  assert.equal(companyLogoProblem(42), LOGO_NOT_IMAGE);
  assert.equal(companyLogoProblem(dataUrl(png(100000, 100000, { idat: new Uint8Array() }))), logoTooLarge());
  assert.equal(companyLogoProblem("data:image/png;base64,%%%"), LOGO_UNREADABLE);
});

Deno.test("ticket pdf - a logo declaring 100000 x 100000 or with corrupt pixels is left out; the print answers", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const db = env.tenant.db;
    const ticket = await makeTicket(db, { ticket_number: "T-07007" });
    await makeLine(db, { ticket_id: ticket.id });
    const withLogo = async (companyLogo: string) => {
      await db.update(companies).set({ settings: { companyLogo } }).where(
        eq(companies.id, ticket.company_id),
      );
      const { result: res, gap } = await loopGap(() =>
        env.request(`/api/sales/ticketpdf?ticket_id=${ticket.id}`, { token })
      );
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.equal(res.status, 200);
      assert.ok(pdfText(bytes).includes("T-07007"));
      assert.ok(gap < 1000, `the event loop stalled for ${Math.round(gap)} ms`);
      return new TextDecoder("latin1").decode(bytes).includes("/Subtype /Image");
    };
    // pdfkit unpacked these in a zlib callback: 40 GB asked for, or an unknown row filter, thrown where
    // nothing catches it, ended the process.
    assert.equal(await withLogo(dataUrl(png(100000, 100000, { raw: new Uint8Array(1000) }))), false);
    assert.equal(await withLogo(dataUrl(png(50, 50, { raw: new Uint8Array(50 * 201).fill(7) }))), false);
    assert.equal(await withLogo(dataUrl(png(300, 120))), true, "an honest logo is still drawn");
  }));
