import assert from "node:assert/strict";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { documentSettings } from "./document_settings.ts";

Deno.test("document settings - saving checks timeZone with Intl, the address lists and the terms (422 naming the key)", () =>
  withEnv(async (env) => {
    const token = await env.login();
    const [owner] = (await env.json("/api/companies?isOwner=true", { token })).results;
    const save = (settings: Record<string, unknown>, status = 200) =>
      env.json("/api/companies", {
        method: "PATCH",
        token,
        json: { id: owner.id, name: owner.name, company_type: owner.company_type, settings },
        status,
      });
    const bad: [Record<string, unknown>, string][] = [
      [{ timeZone: "Mars/Olympus" }, "settings.timeZone"],
      [{ timeZone: "" }, "settings.timeZone"],
      [{ timeZone: 5 }, "settings.timeZone"],
      [{ sellerAddress: [1, 2] }, "settings.sellerAddress"],
      [{ remitTo: Array(9).fill("line") }, "settings.remitTo"],
      [{ remitTo: ["x".repeat(201)] }, "settings.remitTo"],
      [{ paymentTermsDays: 30.5 }, "settings.paymentTermsDays"],
      [{ paymentTermsDays: -1 }, "settings.paymentTermsDays"],
      [{ paymentTermsDays: "30" }, "settings.paymentTermsDays"],
    ];
    for (const [settings, path] of bad) {
      const res = await save(settings, 422);
      assert.equal(res.errors[0].path, path, JSON.stringify(settings));
      assert.ok(res.errors[0].message.length > 5);
    }
    const good = {
      timeZone: "America/Chicago",
      sellerAddress: ["1200 Industrial Blvd", "Midland, TX 79701"],
      remitTo: "Lone Star Rentals LLC\nPO Box 4410",
      paymentTermsDays: 30,
    };
    const saved = await save(good);
    assert.deepEqual(saved.settings, good);
  }));

Deno.test("document settings - reading never fails: unusable values are absent", () => {
  assert.deepEqual(documentSettings(undefined), {
    address: [],
    remitTo: [],
    termsDays: null,
    timeZone: "UTC",
  });
  assert.deepEqual(
    documentSettings({
      sellerAddress: " A \n\n B ",
      remitTo: ["x", 5],
      paymentTermsDays: 400,
      timeZone: "x",
    }),
    { address: ["A", "B"], remitTo: ["x"], termsDays: null, timeZone: "UTC" },
  );
});
