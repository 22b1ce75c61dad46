import assert from "node:assert/strict";
import { imageInfo } from "./image.ts";
import { JPEG_40X30, jpegClaiming, jpegOfBytes, png } from "../../scripts/testing/images.ts";

Deno.test("image - a JPEG and a PNG answer their type and pixel size", () => {
  assert.deepEqual(imageInfo(JPEG_40X30), { type: "image/jpeg", width: 40, height: 30 });
  assert.deepEqual(imageInfo(jpegClaiming(1600, 900)), { type: "image/jpeg", width: 1600, height: 900 });
  assert.deepEqual(imageInfo(png(300, 120)), { type: "image/png", width: 300, height: 120 });
  const heavy = jpegOfBytes(300_000);
  assert.equal(heavy.length, 300_000);
  assert.deepEqual(imageInfo(heavy), { type: "image/jpeg", width: 40, height: 30 });
});

Deno.test("image - lies and damage answer null: a PNG signature on other bytes, cut files, a PDF", () => {
  const signature = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const lie = new Uint8Array([...signature, ...new TextEncoder().encode("%PDF-1.4 not an image at all")]);
  assert.equal(imageInfo(lie), null);
  const realPng = png(20, 20);
  assert.equal(imageInfo(realPng.subarray(0, realPng.length - 12)), null, "no IEND");
  const flipped = realPng.slice();
  flipped[40] ^= 0xff;
  assert.equal(imageInfo(flipped), null, "a chunk's CRC no longer matches");
  assert.equal(imageInfo(JPEG_40X30.subarray(0, 300)), null, "a JPEG cut before its scan");
  assert.equal(imageInfo(JPEG_40X30.subarray(0, JPEG_40X30.length - 2)), null, "no end of image");
  assert.equal(imageInfo(jpegClaiming(0, 30)), null, "no width");
  assert.equal(imageInfo(new TextEncoder().encode("%PDF-1.4\n%%EOF\n")), null);
  assert.equal(imageInfo(new Uint8Array()), null);
  assert.equal(imageInfo(Uint8Array.from([0xff, 0xd8, 0xff])), null);
});
