import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../../scripts/testing/browser.ts";
import { pdfImages, pdfText } from "../../../scripts/testing/pdf_text.ts";
import { makeInspection, makeJob } from "../../../db/factories.ts";
import { files, inspection_photos, inspection_signatures } from "../../../db/schema/mod.ts";
import { imageInfo } from "../../../api/lib/image.ts";
import { MAX_PHOTO_BYTES, MAX_PHOTO_SIDE } from "../../../api/pt/inspections/photo_schemas.ts";
import { UNREADABLE_IMAGE } from "../../lib/image_resize.ts";
import type { Page } from "playwright-core";

/** A 4000 x 3000 camera-sized JPEG of coloured noise (so it stays heavy), made by the browser itself. */
async function cameraPhoto(page: Page): Promise<Buffer> {
  const b64 = await page.evaluate(async () => {
    const c = document.createElement("canvas");
    c.width = 4000;
    c.height = 3000;
    const g = c.getContext("2d")!;
    for (let y = 0; y < 3000; y += 6) {
      for (let x = 0; x < 4000; x += 6) {
        g.fillStyle = `rgb(${(x * 7 + y * 3) % 256},${Math.random() * 255},${(y * 5) % 256})`;
        g.fillRect(x, y, 6, 6);
      }
    }
    const blob = await new Promise<Blob>((r) => c.toBlob((b) => r(b!), "image/jpeg", 0.95));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  });
  return Buffer.from(b64, "base64");
}

browserTest(
  "inspection photos - a job-admin adds a camera-sized photo (resized first), signs by mouse and by finger, and prints the report",
  () =>
    withBrowser(async ({ env, page, signIn }) => {
      const job = await makeJob(env.tenant.db);
      const inspection = await makeInspection(env.tenant.db, { job_id: job.id, serial_number: "SN-CAM" });
      await signIn(undefined, undefined, `/pt/inspection?job_id=${job.id}`);
      const photo = await cameraPhoto(page);
      assert.ok(photo.length > MAX_PHOTO_BYTES, `the original is heavy: ${photo.length} bytes`);

      const table = page.getByRole("table", { name: "Inspections" });
      await table.getByRole("row", { name: /SN-CAM/ }).getByRole("button", { name: "Expand row" }).click();
      await table.getByRole("button", { name: "Photos and signature" }).click();
      const dialog = page.getByRole("dialog", { name: "Photos and signature: SN-CAM" });
      await dialog.getByText("No photos yet.").waitFor();
      const input = dialog.getByLabel("Add photo");
      assert.equal(await input.getAttribute("capture"), "environment");
      assert.equal(await input.getAttribute("accept"), "image/*");

      // Not a picture: a clear message, nothing sent.
      await input.setInputFiles({
        name: "notes.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from("not a photo"),
      });
      await dialog.getByRole("alert").getByText(UNREADABLE_IMAGE).waitFor();

      await dialog.getByRole("textbox", { name: "Caption (optional)" }).fill("Seat pitting");
      await input.setInputFiles({ name: "IMG_0001.jpg", mimeType: "image/jpeg", buffer: photo });
      await page.getByRole("status").getByText("Photo added").waitFor({ timeout: 30000 });
      await dialog.getByRole("img", { name: "Seat pitting" }).waitFor();
      await dialog.getByRole("heading", { name: "Photos (1 of 12)" }).waitFor();
      assert.equal(await dialog.getByRole("alert").count(), 0, "the earlier error is gone");
      const [stored] = await env.tenant.db.select({ data: files.data, content_type: files.content_type })
        .from(inspection_photos).innerJoin(files, eq(files.id, inspection_photos.file_id));
      const info = imageInfo(new Uint8Array(stored.data))!;
      assert.equal(info.type, "image/jpeg");
      assert.ok(stored.data.length <= MAX_PHOTO_BYTES, `stored ${stored.data.length} bytes`);
      assert.deepEqual([info.width, info.height], [MAX_PHOTO_SIDE, 1200]);

      // The signature: drawn with the mouse, Clear and Save reachable as buttons.
      const save = dialog.getByRole("button", { name: "Save signature" });
      assert.equal(await save.isDisabled(), true, "nothing drawn yet");
      const pad = dialog.getByRole("img", { name: /Sign in the box/ });
      await pad.scrollIntoViewIfNeeded();
      const box = (await pad.boundingBox())!;
      await page.mouse.move(box.x + 30, box.y + 120);
      await page.mouse.down();
      for (let i = 1; i <= 20; i++) {
        await page.mouse.move(box.x + 30 + i * 15, box.y + 120 - Math.sin(i / 3) * 50);
      }
      await page.mouse.up();
      await dialog.getByRole("button", { name: "Clear" }).focus();
      await page.keyboard.press("Tab");
      assert.equal(
        await save.evaluate((el) => el === document.activeElement),
        true,
      );
      await page.keyboard.press("Enter");
      await page.getByRole("status").getByText("Signature saved").waitFor();
      await dialog.getByText(/Signed by .+ on \d\d-\d\d-\d{4} \d\d:\d\d/).waitFor();
      const signature = await env.tenant.db.select({ data: files.data, width: inspection_signatures.width })
        .from(inspection_signatures).innerJoin(files, eq(files.id, inspection_signatures.file_id)).get();
      assert.equal(imageInfo(new Uint8Array(signature!.data))?.type, "image/png");

      // A finger works too (real touch events, through the pointer events the pad listens to).
      await dialog.getByRole("button", { name: "Sign again" }).click();
      const again = dialog.getByRole("button", { name: "Save signature" });
      assert.equal(await again.isDisabled(), true);
      const touchBox = (await pad.boundingBox())!;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 1 });
      const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
        cdp.send("Input.dispatchTouchEvent", {
          type,
          touchPoints: type === "touchEnd" ? [] : [{ x: touchBox.x + x, y: touchBox.y + y }],
        });
      await touch("touchStart", 40, 60);
      for (let i = 1; i <= 10; i++) await touch("touchMove", 40 + i * 20, 60 + i * 5);
      await touch("touchEnd", 0, 0);
      await again.click();
      await page.getByRole("status").getByText("Signature saved").last().waitFor();
      await dialog.getByRole("button", { name: "Sign again" }).waitFor();
      const signed = await env.tenant.db.select({ file_id: inspection_signatures.file_id }).from(
        inspection_signatures,
      );
      assert.equal(signed.length, 1);

      // The report carries both.
      const res = await env.request(`/api/pt/inspections/${inspection.id}/report`, {
        token: await env.login(),
      });
      const pdf = new Uint8Array(await res.arrayBuffer());
      const images = (await pdfImages(pdf)).filter((i) => i.type === "image");
      assert.deepEqual(images.map((i) => [i.width, i.height]), [[1600, 1200], [
        signature!.width,
        images[1].height,
      ]]);
      assert.match(pdfText(pdf), /1\. Seat pitting/);
      assert.match(pdfText(pdf), /Signed by /);

      // Removing the photo asks first.
      await dialog.getByRole("button", { name: "Remove photo 1" }).click();
      await dialog.getByRole("group", { name: "Remove photo 1?" }).getByRole("button", { name: "Remove" })
        .click();
      await page.getByRole("status").getByText("Photo removed").waitFor();
      await dialog.getByText("No photos yet.").waitFor();
      assert.equal((await env.tenant.db.select().from(inspection_photos)).length, 0);
    }),
);
