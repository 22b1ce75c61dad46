/**
 * Pressure Testing demo data: a parts catalogue, jobs for the demo's customer/operator pairs, their
 * inspections, and one batch sharing a generated pressure-test certificate. `large` is the benchmark
 * volume (about 100,000 inspections over 5,000 jobs), written in multi-row inserts inside
 * transactions so it takes seconds, not minutes.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import type { TenantDatabase } from "../db/client.ts";
import {
  type BandColor,
  companies,
  type Company,
  inspections,
  jobs,
  type MpiResult,
  type NewInspection,
  type NewJob,
  type Part,
  parts,
} from "../db/schema/mod.ts";
import { storeFile } from "../api/files/service.ts";
import { drawFields, drawHeading, FONT, FONT_BOLD, type PdfDoc, renderPdf } from "../api/lib/pdf.ts";
import { formatDate } from "../lib/format.ts";

export type DemoSize = "small" | "large";

/** Name, description, manufacturer, and the prefix its serial numbers carry. */
const PARTS = [
  ["2in 1502 Plug Valve", "2in Fig 1502 plug valve, 15K CWP, male x female", "SPM", "PV2"],
  ["3in 1502 Plug Valve", "3in Fig 1502 ULT plug valve, 15K CWP", "FMC", "PV3"],
  ["2in Chiksan Swivel Joint", "2in Fig 1502 long-radius Chiksan, Style 50, 15K", "FMC", "SJ2"],
  ["3in Swivel Joint", "3in Fig 1502 swivel joint, Style 10, 15K", "Weir", "SJ3"],
  ["2in 1502 Hammer Union", "2in Fig 1502 hammer union, 15K, sour service", "Kemper", "HU2"],
  ["2in x 10ft Pup Joint", "2in Fig 1502 integral pup joint, 10 ft, 15K", "SPM", "PJ2"],
  ["2in Dart Check Valve", "2in Fig 1502 dart-style check valve, 15K", "Weir", "CV2"],
  ["3in x 2in 1502 Crossover", "3in Fig 1502 female x 2in Fig 1502 male crossover, 15K", "Kemper", "XO3"],
] as const;

const DISTRICTS = ["Midland", "Odessa", "Pecos", "Carlsbad", "San Angelo", "Kenedy"];
const INSPECTORS = ["Dwayne Carter", "Maria Lopez", "Luis Ortega", "Kyle Brandt"];
const JOB_COMMENTS = [
  "Frac iron recertification on location.",
  "Quarterly band inspection at the yard.",
  "Flowback iron, rig-up inspection before the stage.",
  "Iron returned from the field, cleaned and inspected.",
  "Customer witness on site; all iron tagged and banded.",
];
const NOTES = [
  "Minor pitting on the seat, within limits",
  "Threads cleaned and re-greased",
  "Wing nut lugs worn, monitor",
  "Seal ring replaced",
  "Light erosion at the elbow",
];

/** The same demo every time: a small seeded generator (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof random>;

const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A one-page pressure-test certificate with a chart recorder trace: ramp up, hold, bleed off. */
export function pressureTestCertificate(o: {
  jobNumber: string;
  customer: string;
  date: string;
  serials: string[];
  pressure: number;
}): Promise<Uint8Array> {
  return renderPdf((doc: PdfDoc) => {
    drawHeading(doc, "Pressure Test Certificate", 18);
    drawFields(doc, [
      ["Job Number", o.jobNumber],
      ["Customer", o.customer],
      ["Test Date", formatDate(o.date)],
      ["Test Pressure", `${o.pressure.toLocaleString("en-US")} psi`],
      ["Hold Time", "15 min"],
      ["Test Medium", "Water"],
      ["Chart Recorder", "Barton 202A, S/N CR-5518"],
      ["Result", "PASS - no visible leaks, no pressure drop"],
    ], { columns: 4 });
    drawFields(doc, [["Serial Numbers", o.serials.join(", ")]], { columns: 1 });
    doc.moveDown(0.5);

    const left = doc.page.margins.left + 30;
    const top = doc.y + 10;
    const width = doc.page.width - doc.page.margins.right - left;
    const height = 280;
    const max = Math.ceil((o.pressure * 1.2) / 5000) * 5000;
    doc.lineWidth(0.5).strokeColor("#bbb");
    for (let p = 0; p <= max; p += 2500) {
      const y = top + height - (p / max) * height;
      doc.moveTo(left, y).lineTo(left + width, y).stroke();
      doc.font(FONT).fontSize(7).fillColor("#555").text(String(p), left - 32, y - 3, {
        width: 28,
        align: "right",
        lineBreak: false,
      });
    }
    for (let m = 0; m <= 30; m += 5) {
      const x = left + (m / 30) * width;
      doc.moveTo(x, top).lineTo(x, top + height).stroke();
      doc.font(FONT).fontSize(7).fillColor("#555").text(`${m} min`, x - 15, top + height + 4, {
        width: 30,
        align: "center",
        lineBreak: false,
      });
    }
    doc.lineWidth(1).strokeColor("#333").rect(left, top, width, height).stroke();

    // The trace: up in 5 minutes, held for 15 with a little settling, bled off in 3.
    const at = (min: number, psi: number): [number, number] => [
      left + (min / 30) * width,
      top + height - (psi / max) * height,
    ];
    const trace: [number, number][] = [at(0, 0)];
    for (let m = 0.5; m <= 5; m += 0.5) trace.push(at(m, (o.pressure * m) / 5));
    for (let m = 5.5; m <= 20; m += 0.5) trace.push(at(m, o.pressure - 60 * (1 - Math.exp(-(m - 5) / 4))));
    trace.push(at(21, o.pressure * 0.4), at(23, 0), at(30, 0));
    doc.lineWidth(1.6).strokeColor("#c0392b").moveTo(...trace[0]);
    for (const point of trace.slice(1)) doc.lineTo(...point);
    doc.stroke();

    doc.x = doc.page.margins.left;
    doc.y = top + height + 24;
    doc.font(FONT_BOLD).fontSize(10).fillColor("black").text("Tested by: Dwayne Carter");
    doc.font(FONT).fontSize(9).fillColor("#555").text(
      "Witnessed on location. Chart recorder calibrated within the last 90 days.",
    );
  }, { title: `Pressure Test Certificate ${o.jobNumber}` });
}

export interface SeedPtResult {
  parts: number;
  jobs: number;
  inspections: number;
}

/**
 * The owner's Pressure Testing records. Does nothing when the owner already has jobs (a second run,
 * or a tenant in use), so it never duplicates.
 */
export async function seedPressureTesting(
  db: TenantDatabase,
  owner: Company,
  size: DemoSize,
  log: (line: string) => void = () => {},
): Promise<SeedPtResult | undefined> {
  const has = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.inspection_company_id, owner.id))
    .limit(1).get();
  if (has) return undefined;
  const rnd = random(24017);
  const large = size === "large";
  const jobCount = large ? 5000 : 24;
  const days = large ? 730 : 60;
  const now = Date.now();

  const partners = await db.select().from(companies)
    .where(inArray(companies.company_type, ["customer_company", "operator_company"]));
  const customers = partners.filter((c) => c.company_type === "customer_company");
  const operators = partners.filter((c) => c.company_type === "operator_company");
  if (!customers.length || !operators.length) return undefined;

  // The catalogue: the demo's parts, reusing any of the same name already there.
  const known = await db.select().from(parts).where(eq(parts.inspection_company_id, owner.id));
  const catalogue: (Part & { prefix: string })[] = [];
  for (const [name, description, manufacturer, prefix] of PARTS) {
    const found = known.find((p) => p.name === name) ??
      (await db.insert(parts).values({ name, description, manufacturer, inspection_company_id: owner.id })
        .returning())[0];
    catalogue.push({ ...found, prefix });
  }

  // Jobs, oldest first so job numbers grow with the date; each customer works with a few operators.
  const pairs = customers.flatMap((c, i) =>
    [0, 1].map((k) => [c, operators[(i + k * 3) % operators.length]] as const)
  );
  const jobDays = Array.from({ length: jobCount }, () => rnd.int(0, days - 1)).sort((a, b) => b - a);
  const newJobs: NewJob[] = jobDays.map((ago, i) => {
    const [customer, operator] = rnd.pick(pairs);
    const date = now - ago * DAY;
    return {
      date: isoDay(date),
      job_number: `PT-${24001 + i}`,
      inspection_company_id: owner.id,
      customer_company_id: customer.id,
      operator_company_id: operator.id,
      district: rnd.pick(DISTRICTS),
      inspector: rnd.pick(INSPECTORS),
      uv_serial_number: `UV-${rnd.pick(["3104", "3117", "4420"])}`,
      uv_recalibration_date: isoDay(date - rnd.int(10, 300) * DAY),
      blacklight_reading: `${rnd.int(1100, 2400)} uW/cm2`,
      ut_serial_number: `UT-${rnd.pick(["DMS2-0871", "38DL-1192", "DMS2-1440"])}`,
      ut_recalibration_date: isoDay(date - rnd.int(10, 300) * DAY),
      comments: rnd.pick(JOB_COMMENTS),
    };
  });
  const jobIds: number[] = [];
  for (let i = 0; i < newJobs.length; i += 500) {
    await db.transaction(async (tx) => {
      const rows = await tx.insert(jobs).values(newJobs.slice(i, i + 500)).returning({ id: jobs.id });
      jobIds.push(...rows.map((r) => r.id));
    });
  }
  log(`jobs: ${jobIds.length}`);

  // How many inspections each job gets: small 5-12; large 10-30 in pairs that sum to 40 (100,000 exactly).
  const counts = newJobs.map(() => (large ? 0 : rnd.int(5, 12)));
  for (let i = 0; large && i < counts.length; i += 2) {
    const d = i + 1 < counts.length ? rnd.int(-10, 10) : 0;
    counts[i] = 20 + d;
    if (i + 1 < counts.length) counts[i + 1] = 20 - d;
  }
  const total = counts.reduce((n, c) => n + c, 0);

  // The batch sharing one PDF: the newest job's first serials.
  const batchJob = newJobs.length - 1;
  const batchSize = Math.min(6, counts[batchJob]);
  const fleet = large ? 60_000 : 2_000;
  const batchSerials: string[] = [];
  const rowsOf = (j: number): NewInspection[] => {
    const job = newJobs[j];
    const part = rnd.pick(catalogue);
    const band: BandColor = rnd.pick(["Green", "Yellow", "Blue", "Purple"] as const);
    const pressure = rnd.pick([10000, 15000, 15000]);
    const start = rnd.int(0, fleet - 1);
    const batch = rnd.chance(0.5) ? `B${24001 + j}-${rnd.int(1, 3)}` : "";
    const base = Date.parse(`${job.date}T13:00:00Z`);
    return Array.from({ length: counts[j] }, (_, k) => {
      const p = rnd.chance(0.7) ? part : rnd.pick(catalogue);
      const mpi: MpiResult = rnd.chance(0.03) ? "Fail" : rnd.chance(0.2) ? "Not Required" : "Pass";
      const visual = mpi !== "Fail" && rnd.chance(0.96);
      const wall = 0.28 + rnd.next() * 0.3;
      const serial = `${p.prefix}-${String(100000 + ((start + k * 7) % fleet))}`;
      const inBatch = j === batchJob && k < batchSize;
      if (inBatch) batchSerials.push(serial);
      return {
        job_id: jobIds[j],
        inspection_company_id: owner.id,
        customer_company_id: job.customer_company_id,
        operator_company_id: job.operator_company_id,
        date: job.date,
        serial_number: serial,
        batch: inBatch ? `${job.job_number}-PT` : batch,
        part_id: p.id,
        visual_pass: visual,
        ut_1: round3(wall),
        ut_2: round3(wall + (rnd.next() - 0.5) * 0.02),
        ut_3: round3(wall + (rnd.next() - 0.5) * 0.02),
        pressure,
        band_color: visual ? band : "Red",
        mpi_result: mpi,
        notes: mpi === "Fail"
          ? "Linear indication found by MPI, tagged red and removed from service"
          : !visual
          ? "Failed visual: damaged threads, tagged red"
          : rnd.chance(0.15)
          ? rnd.pick(NOTES)
          : "",
        pressure_test_file_id: null,
        custom: {},
        inspection_time: new Date(base + k * 90_000 + rnd.int(0, 60_000)).toISOString(),
      };
    });
  };

  // Inspections in multi-row inserts of 500, a transaction per tenth of the whole.
  const CHUNK = 500;
  let pending: NewInspection[] = [];
  let written = 0;
  let reported = 0;
  const flush = async () => {
    const rows = pending;
    pending = [];
    await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += CHUNK) {
        await tx.insert(inspections).values(rows.slice(i, i + CHUNK));
      }
    });
    written += rows.length;
    const tenth = Math.floor((written / total) * 10);
    if (tenth > reported) {
      reported = tenth;
      log(`inspections: ${tenth * 10}% (${written}/${total})`);
    }
  };
  for (let j = 0; j < newJobs.length; j++) {
    pending.push(...rowsOf(j));
    if (pending.length >= Math.max(CHUNK, Math.ceil(total / 10))) await flush();
  }
  if (pending.length) await flush();

  // The batch's certificate, stored once and shared by its inspections.
  const job = newJobs[batchJob];
  const customer = customers.find((c) => c.id === job.customer_company_id)!;
  const data = await pressureTestCertificate({
    jobNumber: job.job_number,
    customer: customer.name,
    date: job.date,
    serials: batchSerials,
    pressure: 15000,
  });
  await db.transaction(async (tx) => {
    const fileId = await storeFile(tx, {
      name: `${job.job_number}-pressure-test.pdf`,
      content_type: "application/pdf",
      data,
    });
    await tx.update(inspections).set({ pressure_test_file_id: fileId, pressure: 15000 })
      .where(and(eq(inspections.job_id, jobIds[batchJob]), eq(inspections.batch, `${job.job_number}-PT`)));
  });
  return { parts: catalogue.length, jobs: jobIds.length, inspections: written };
}

/** The first `n` jobs of the owner, newest first: what the demo's Data-Entry user is assigned. */
export async function newestJobs(db: TenantDatabase, ownerId: number, n: number): Promise<number[]> {
  const rows = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.inspection_company_id, ownerId))
    .orderBy(desc(jobs.date), desc(jobs.id)).limit(n);
  return rows.map((r) => r.id);
}
