import assert from "node:assert/strict";
import { orientPixels, uprightJpeg } from "./image_orient.ts";
import { ORIENT_BUSY, ORIENT_LIMITS, OrientFailed, orientJpeg } from "./image_orient_check.ts";
import { colourAt, cornerJpeg } from "../../scripts/testing/images.ts";
import { imageInfo } from "./image.ts";
import { AppError } from "../../lib/errors.ts";

/** A 3 x 2 image whose pixels are numbered 1-6 row by row: a b c / d e f. */
const abc = () => ({ width: 3, height: 2, data: new Uint8Array(new Uint32Array([1, 2, 3, 4, 5, 6]).buffer) });
const numbers = (p: { width: number; height: number; data: Uint8Array }) => [
  p.width,
  p.height,
  ...new Uint32Array(p.data.buffer, p.data.byteOffset, p.width * p.height),
];

Deno.test("orientPixels - each EXIF orientation moves the pixels as a viewer shows them", () => {
  // The picture a viewer shows for each tag, given the stored pixels 1 2 3 / 4 5 6 (EXIF 2.32, 4.6.5).
  const shown: Record<number, number[]> = {
    1: [3, 2, 1, 2, 3, 4, 5, 6],
    2: [3, 2, 3, 2, 1, 6, 5, 4], // mirrored left-right
    3: [3, 2, 6, 5, 4, 3, 2, 1], // turned 180
    4: [3, 2, 4, 5, 6, 1, 2, 3], // mirrored top-bottom
    5: [2, 3, 1, 4, 2, 5, 3, 6], // transposed
    6: [2, 3, 4, 1, 5, 2, 6, 3], // turned 90 clockwise
    7: [2, 3, 6, 3, 5, 2, 4, 1], // transversed
    8: [2, 3, 3, 6, 2, 5, 1, 4], // turned 90 counter-clockwise
  };
  for (const [orientation, expected] of Object.entries(shown)) {
    assert.deepEqual(
      numbers(orientPixels(abc(), Number(orientation))),
      expected,
      `orientation ${orientation}`,
    );
  }
  assert.deepEqual(numbers(orientPixels(abc(), 9)), shown[1], "an unknown value leaves the pixels");
});

Deno.test("uprightJpeg - a phone photo tagged 6 comes back upright: sides swapped, the top left corner at the top right", () => {
  const upright = uprightJpeg(cornerJpeg(60, 30, { orientation: 6, gps: true }), 6, 1600);
  assert.deepEqual(imageInfo(upright), { type: "image/jpeg", width: 30, height: 60 });
  assert.equal(colourAt(upright, 25, 4), "green", "the stored top left is shown top right");
  assert.equal(colourAt(upright, 4, 20), "red", "the left half on top");
  assert.equal(colourAt(upright, 15, 50), "blue", "the right half below");
  const text = new TextDecoder("latin1").decode(upright);
  assert.ok(!text.includes("Exif"), "no EXIF (orientation, GPS) in what is stored");
  // 8 turns the other way: the top left corner goes to the bottom left.
  const other = uprightJpeg(cornerJpeg(60, 30), 8, 1600);
  assert.equal(colourAt(other, 4, 55), "green");
});

Deno.test("uprightJpeg - the decoder is bounded by the largest side allowed", () => {
  assert.throws(() => uprightJpeg(cornerJpeg(300, 200), 6, 100), /maxResolutionInMP/);
});

Deno.test("orientJpeg - in a worker: the photo comes back turned; a JPEG it cannot read is refused; a flood is told to wait", async () => {
  const upright = await orientJpeg(cornerJpeg(60, 30, { orientation: 3 }), 3, 1600);
  assert.deepEqual(imageInfo(upright), { type: "image/jpeg", width: 60, height: 30 });
  assert.equal(colourAt(upright, 55, 25), "green", "turned 180: top left to bottom right");
  const broken = cornerJpeg(60, 30);
  broken.fill(0x55, broken.length - 200, broken.length - 2); // the scan's data, damaged
  await assert.rejects(orientJpeg(broken, 6, 1600), OrientFailed);
  const many = Array.from(
    { length: ORIENT_LIMITS.running + ORIENT_LIMITS.waiting + 1 },
    () => orientJpeg(cornerJpeg(60, 30), 6, 1600),
  );
  const settled = await Promise.allSettled(many);
  const refused = settled.filter((s) => s.status === "rejected");
  assert.equal(refused.length, 1);
  const reason = (refused[0] as PromiseRejectedResult).reason;
  assert.ok(reason instanceof AppError && reason.status === 429 && reason.message === ORIENT_BUSY);
});
