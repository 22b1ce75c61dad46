// Issue 29 point 3 in Pressure Testing (decision 038): two people editing the same job, inspection or part,
// are told when the other saved first: the conflict dialog names the other's field, "Apply mine on top"
// keeps both changes.
import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { browserTest, withBrowser } from "../../scripts/testing/browser.ts";
import { openRowEdit as openEdit, secondUser } from "../../scripts/testing/second_user.ts";
import { makeInspection, makeJob, makePart } from "../../db/factories.ts";
import { inspections, jobs, parts } from "../../db/schema/mod.ts";

browserTest(
  "conflicts - two job-admins edit job PT-9: B's District save is told of A's Comments, applies on top",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const job = await makeJob(db, { job_number: "PT-9", comments: "None", district: "Permian" });
      const a = await env.userWithToken({ name: "Ann Jobs", permissions: ["job-admin"] });
      const b = await env.userWithToken({ name: "Ben Jobs", permissions: ["job-admin"] });
      await signIn(a.user.email, "password123", "/pt/jobs");
      const { other, close } = await secondUser(page, base, b.user.email, "/pt/jobs");
      try {
        const formA = await openEdit(page, "Jobs", "PT-9", "Edit Job");
        const formB = await openEdit(other, "Jobs", "PT-9", "Edit Job");
        await formA.getByRole("textbox", { name: "Comments" }).fill("Frac stack, 15k");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Job updated").waitFor();

        await formB.getByRole("textbox", { name: "District" }).fill("Eagle Ford");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = other.getByRole("dialog", { name: "Someone else changed this record" });
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /Comments\s+None\s+Frac stack, 15k/.test(r)), `Comments named: ${rows}`);
        assert.ok(rows.some((r) => /District\s+Eagle Ford\s+Permian/.test(r)), `District: ${rows}`);
        const stored = async () => (await db.select().from(jobs).where(eq(jobs.id, job.id)).get())!;
        assert.deepEqual(
          [(await stored()).district, (await stored()).comments],
          ["Permian", "Frac stack, 15k"],
          "B's stale save wrote nothing",
        );

        await conflict.getByRole("button", { name: "Apply mine on top" }).click();
        await other.getByRole("status").getByText("Job updated").waitFor();
        await formB.waitFor({ state: "detached" });
        assert.deepEqual(
          [(await stored()).district, (await stored()).comments],
          ["Eagle Ford", "Frac stack, 15k"],
          "both changes kept",
        );
      } finally {
        await close();
      }
    }),
);

browserTest(
  "conflicts - two part-admins edit part PLUG-2: Reload shows the other's Description and drops mine",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const part = await makePart(db, { name: "PLUG-2", description: "2in plug valve", manufacturer: "SPM" });
      const a = await env.userWithToken({ name: "Ann Parts", permissions: ["part-admin"] });
      const b = await env.userWithToken({ name: "Ben Parts", permissions: ["part-admin"] });
      await signIn(a.user.email, "password123", "/pt/parts");
      const { other, close } = await secondUser(page, base, b.user.email, "/pt/parts");
      const stored = async () => (await db.select().from(parts).where(eq(parts.id, part.id)).get())!;
      try {
        const formA = await openEdit(page, "Parts", "PLUG-2", "Edit Part");
        const formB = await openEdit(other, "Parts", "PLUG-2", "Edit Part");
        await formA.getByRole("textbox", { name: "Part Desc." }).fill("2in 1502 plug valve");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Part updated").waitFor();

        await formB.getByRole("textbox", { name: "Manufacturer" }).fill("FMC");
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = other.getByRole("dialog", { name: "Someone else changed this record" });
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(
          rows.some((r) => /Part Desc\.\s+2in plug valve\s+2in 1502 plug valve/.test(r)),
          `Description named: ${rows}`,
        );
        assert.equal((await stored()).manufacturer, "SPM", "B's stale save wrote nothing");

        await conflict.getByRole("button", { name: "Reload" }).click();
        await conflict.waitFor({ state: "detached" });
        assert.equal(
          await formB.getByRole("textbox", { name: "Part Desc." }).inputValue(),
          "2in 1502 plug valve",
        );
        assert.equal(await formB.getByRole("textbox", { name: "Manufacturer" }).inputValue(), "SPM");
        // Saving now goes through on the new version.
        await formB.getByRole("textbox", { name: "Manufacturer" }).fill("Weir");
        await formB.getByRole("button", { name: "Save" }).click();
        await other.getByRole("status").getByText("Part updated").waitFor();
        assert.deepEqual(
          [(await stored()).description, (await stored()).manufacturer],
          ["2in 1502 plug valve", "Weir"],
        );
      } finally {
        await close();
      }
    }),
);

browserTest(
  "conflicts - two job-admins edit inspection SN-77 on the job's page: B's Band Color save is told of A's Notes, applies on top",
  () =>
    withBrowser(async ({ env, page, base, signIn }) => {
      const db = env.tenant.db;
      const job = await makeJob(db, { job_number: "PT-77" });
      const row = await makeInspection(db, { job_id: job.id, serial_number: "SN-77", notes: "first look" });
      const a = await env.userWithToken({ name: "Ann Jobs", permissions: ["job-admin"] });
      const b = await env.userWithToken({ name: "Ben Jobs", permissions: ["job-admin"] });
      const path = `/pt/inspection?job_id=${job.id}`;
      await signIn(a.user.email, "password123", path);
      const { other, close } = await secondUser(page, base, b.user.email, path);
      const stored = async () =>
        (await db.select().from(inspections).where(eq(inspections.id, row.id)).get())!;
      try {
        const formA = await openEdit(page, "Inspections", "SN-77", "Edit Inspection");
        const formB = await openEdit(other, "Inspections", "SN-77", "Edit Inspection");
        await formA.getByRole("textbox", { name: "Notes" }).fill("second look");
        await formA.getByRole("button", { name: "Save" }).click();
        await page.getByRole("status").getByText("Inspection updated").waitFor();

        await formB.getByRole("button", { name: /Band Color/ }).click();
        await other.getByRole("option", { name: "Blue" }).click();
        await formB.getByRole("button", { name: "Save" }).click();
        const conflict = other.getByRole("dialog", { name: "Someone else changed this record" });
        await conflict.waitFor();
        const rows = await conflict.getByRole("row").allInnerTexts();
        assert.ok(rows.some((r) => /Notes\s+first look\s+second look/.test(r)), `Notes named: ${rows}`);
        assert.ok(rows.some((r) => /Band Color\s+Blue\s+none/.test(r)), `Band Color: ${rows}`);
        assert.equal((await stored()).band_color, null, "B's stale save wrote nothing");

        await conflict.getByRole("button", { name: "Apply mine on top" }).click();
        await other.getByRole("status").getByText("Inspection updated").waitFor();
        await formB.waitFor({ state: "detached" });
        const after = await stored();
        assert.deepEqual([after.notes, after.band_color], ["second look", "Blue"], "both changes kept");
      } finally {
        await close();
      }
    }),
);
