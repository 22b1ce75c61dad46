import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { jpegWithExif } from "../../scripts/testing/images.ts";
import { makeInspection, makeJob } from "../../db/factories.ts";
import { files, inspection_photos } from "../../db/schema/mod.ts";
import { imageInfo } from "../../api/lib/image.ts";

/** A 60 x 30 JPEG as the sensor saw it: the left half red, the right half blue, made by the browser. */
async function sensorJpeg(page: Page): Promise<Uint8Array> {
  const b64 = await page.evaluate(async () => {
    const c = document.createElement("canvas");
    c.width = 60;
    c.height = 30;
    const g = c.getContext("2d")!;
    g.fillStyle = "#f00";
    g.fillRect(0, 0, 30, 30);
    g.fillStyle = "#00f";
    g.fillRect(30, 0, 30, 30);
    const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), "image/jpeg", 0.95));
    return btoa(String.fromCharCode(...new Uint8Array(await blob.arrayBuffer())));
  });
  return new Uint8Array(Buffer.from(b64, "base64"));
}

/** The colour (r, g, b) at each point of a stored image, decoded by the browser. */
function coloursAt(page: Page, bytes: Uint8Array, points: [number, number][]): Promise<number[][]> {
  return page.evaluate(async ({ b64, points }) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([data], { type: "image/jpeg" }));
    const c = document.createElement("canvas");
    c.width = bitmap.width;
    c.height = bitmap.height;
    const g = c.getContext("2d")!;
    g.drawImage(bitmap, 0, 0);
    return points.map(([x, y]) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
  }, { b64: Buffer.from(bytes).toString("base64"), points });
}

const isRed = ([r, g, b]: number[]) => r > 200 && g < 60 && b < 60;
const isBlue = ([r, g, b]: number[]) => b > 200 && r < 60 && g < 60;

/**
 * A browser whose createImageBitmap ignores EXIF (as older Firefox and Safari did): the JPEG's APP1
 * segment is cut before the real decoder sees it.
 */
const IGNORES_EXIF = `{
  const decode = globalThis.createImageBitmap;
  globalThis.createImageBitmap = async function (source, ...rest) {
    if (source instanceof Blob) {
      const b = new Uint8Array(await source.arrayBuffer());
      if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff && b[3] === 0xe1) {
        const length = (b[4] << 8) | b[5];
        source = new Blob([b.slice(0, 2), b.slice(4 + length)], { type: source.type });
      }
    }
    return decode.call(this, source, ...rest);
  };
}`;

/** A phone JPEG tagged orientation 6 with GPS, added by Add photo: stored upright without its EXIF. */
const addsUpright = (initScript?: string) =>
  withBrowser(async ({ env, page, signIn }) => {
    if (initScript) await page.addInitScript(initScript);
    const job = await makeJob(env.tenant.db);
    await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "SN-TURN" });
    await signIn(undefined, undefined, `/pt/inspection?job_id=${job.id}`);
    // Orientation 6: the sensor's picture is shown turned 90 degrees clockwise, the red half on top.
    const photo = jpegWithExif(await sensorJpeg(page), { orientation: 6, gps: true });
    assert.ok(new TextDecoder("latin1").decode(photo).includes("Exif"));

    const table = page.getByRole("table", { name: "Inspections" });
    await table.getByRole("row", { name: /SN-TURN/ }).getByRole("button", { name: "Expand row" }).click();
    await table.getByRole("button", { name: "Photos and signature" }).click();
    const dialog = page.getByRole("dialog", { name: "Photos and signature: SN-TURN" });
    await dialog.getByLabel("Add photo").setInputFiles({
      name: "IMG_0002.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from(photo),
    });
    await page.getByRole("status").getByText("Photo added").waitFor({ timeout: 30000 });

    const [stored] = await env.tenant.db.select({ data: files.data }).from(inspection_photos)
      .innerJoin(files, eq(files.id, inspection_photos.file_id));
    const bytes = new Uint8Array(stored.data);
    assert.deepEqual(imageInfo(bytes), { type: "image/jpeg", width: 30, height: 60 }, "stored upright");
    const text = new TextDecoder("latin1").decode(bytes);
    assert.ok(!text.includes("Exif") && !text.includes("GPS"), "no EXIF, no position");
    const [top, bottom] = await coloursAt(page, bytes, [[15, 10], [15, 50]]);
    assert.ok(isRed(top), `red on top, not ${top}`);
    assert.ok(isBlue(bottom), `blue below, not ${bottom}`);
  });

browserTest(
  "inspection photos - a phone photo tagged 'turn 90 degrees' with its GPS position is stored upright, without its EXIF",
  () => addsUpright(),
);

browserTest(
  "inspection photos - where the browser's decoder ignores EXIF orientation, the upload turns the photo itself",
  () => addsUpright(IGNORES_EXIF),
);
