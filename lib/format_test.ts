import assert from "node:assert/strict";
import {
  addDays,
  dayOf,
  dayStartUtc,
  formatDate,
  formatDateTime,
  formatListDate,
  formatPercent,
  formatPressure,
  formatUt,
  fromZonedInput,
  hasAtMostDecimals,
  isTimeZone,
  money,
  roundMoney,
  serviceDates,
  timeZoneOf,
  toCents,
  today,
  toZonedInput,
  unitPrice,
  wallClockMinute,
  zonedParts,
} from "./format.ts";

Deno.test("format - money rounds half up on the exact decimal, binary floats included", () => {
  const table: [number, number][] = [
    [1.005, 1.01],
    [2.675, 2.68],
    [0.125, 0.13],
    [49.995, 50],
    [1.004, 1],
    [0.1 + 0.2, 0.3],
    [684.9975, 685],
    [-1.005, -1.01],
    [-0.001, 0],
    [1234567.895, 1234567.9],
    [1458 + 91.125 + 21.87 + 7.29, 1578.29], // 1578.285 held as 1578.28499999...
    [0.0000001, 0],
  ];
  for (const [x, want] of table) assert.equal(roundMoney(x), want, `roundMoney(${x})`);
  assert.equal(toCents(1578.285), 157829);
  assert.ok(Number.isNaN(toCents(Number.NaN)));
});

Deno.test("format - money's fast path rounds as the digits do, near halves included", () => {
  // The rounding through the float's 15-digit decimal alone, as it was before the fast path.
  const digits = (x: number) => {
    const abs = Math.abs(x);
    const m = /^(\d+)(?:\.(\d*))?$/.exec(abs.toPrecision(15));
    const n = !m ? (abs < 1 ? 0 : Math.round(abs * 100)) : (() => {
      const frac = (m[2] ?? "").padEnd(3, "0");
      return Number(m[1]) * 100 + Number(frac.slice(0, 2)) + (frac[2] >= "5" ? 1 : 0);
    })();
    return x < 0 && n !== 0 ? -n : n;
  };
  let seed = 11;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const values: number[] = [];
  for (let i = 0; i < 20000; i++) {
    const scale = 10 ** Math.floor(random() * 9 - 2);
    const q = Math.round(random() * 100), price = Math.round(random() * 1e6) / 1000, pct = random() * 12;
    values.push(
      random() * scale,
      Math.round(random() * 1e7) / 1000, // x.xx5: exact halves of a cent
      q * price * (Math.floor(random() * 30) + 1), // a line's base
      q * price * pct / 100, // a percent of it
      (Math.floor(random() * 1e6) + 0.5) / 100 + (random() - 0.5) * 1e-9, // just off a half
    );
  }
  for (const v of values) {
    assert.equal(toCents(v), digits(v), `toCents(${v})`);
    assert.equal(toCents(-v), digits(-v), `toCents(${-v})`);
  }
});

Deno.test("format - money as $1,234.50 with the same rounding; none is blank", () => {
  assert.equal(money(1458 + 91.125 + 21.87 + 7.29), "$1,578.29");
  // Intl on the float itself says $1,578.28: the bug this module removes.
  assert.equal(
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
      1458 + 91.125 + 21.87 + 7.29,
    ),
    "$1,578.28",
  );
  assert.equal(money(1234567.895), "$1,234,567.90");
  assert.equal(money(0), "$0.00");
  assert.equal(money(-1.005), "-$1.01");
  assert.equal(money(0.5), "$0.50");
  assert.equal(money(null), "");
  assert.equal(money(undefined), "");
});

Deno.test("format - a unit price prints the decimals it holds, 2 to 4; money stays at cents", () => {
  const table: [number, string][] = [
    [0.655, "$0.655"],
    [33.335, "$33.335"],
    [12.3456, "$12.3456"],
    [5, "$5.00"],
    [0.5, "$0.50"],
    [0.12, "$0.12"],
    [1.1, "$1.10"],
    [1234.5678, "$1,234.5678"],
    [1000000, "$1,000,000.00"],
    [-2.125, "-$2.125"],
    [0, "$0.00"],
    // Never stored (refused at input), but printed sensibly: half-up at the fourth decimal.
    [1.00005, "$1.0001"],
  ];
  for (const [x, want] of table) assert.equal(unitPrice(x), want, `unitPrice(${x})`);
  assert.equal(unitPrice(null), "");
  assert.equal(unitPrice(undefined), "");
  assert.equal(money(0.655), "$0.66");
  for (const x of [0.655, 33.335, 12.3456, 5, 0.1 + 0.2 - 0.3 + 0.3, 999999999.9999, -0.0001]) {
    assert.ok(hasAtMostDecimals(x), `${x} has at most 4 decimals`);
  }
  for (const x of [0.65549, 12.34561, 1e-5, Number.NaN]) assert.ok(!hasAtMostDecimals(x), `${x}`);
});

Deno.test("format - calendar dates as stored; instants on the company's clock", () => {
  assert.equal(formatDate("2026-03-04"), "03-04-2026");
  assert.equal(formatDate("2026-03-04T23:30:00Z"), "03-04-2026");
  assert.equal(formatDate(null), "");
  assert.equal(formatDate("2026-03-04", "Asia/Tokyo"), "03-04-2026", "a calendar date has no zone");
  assert.equal(formatDate("2026-03-05T03:00:00Z", "America/Chicago"), "03-04-2026");
  assert.equal(addDays("2026-02-20", 30), "2026-03-22");
  assert.equal(addDays("2026-03-04", 0), "2026-03-04");
  assert.equal(formatDateTime("2026-03-04T23:30:00Z"), "03-04-26 23:30");
  assert.equal(formatDateTime("2026-03-04T23:30:00Z", "America/Chicago"), "03-04-26 17:30");
  assert.equal(formatDateTime("2026-07-04T03:05:00Z", "America/Chicago"), "07-03-26 22:05"); // daylight time
  assert.equal(formatDateTime("2026-03-04T00:00:00Z", "Asia/Kolkata"), "03-04-26 05:30");
  assert.equal(formatDateTime("2026-03-04T23:30:00Z", "Not/AZone"), "03-04-26 23:30");
  assert.equal(formatDateTime("garbage", "UTC"), "garbage");
  // A header, a detail page or a dialog's facts keep the four-digit year, as formatDate does (decision 044).
  assert.equal(formatDateTime("2026-03-04T23:30:00Z", "America/Chicago", "page"), "03-04-2026 17:30");
  assert.equal(formatDateTime("2026-03-04T23:30:00Z", "America/Chicago", "list"), "03-04-26 17:30");
  assert.equal(today(new Date("2026-03-05T03:00:00Z"), "America/Chicago"), "2026-03-04");
});

Deno.test("format - wall-clock parts from a day's kept offset are Intl's own, across daylight-saving changes", () => {
  const formats = new Map<string, Intl.DateTimeFormat>();
  const intl = (t: number, timeZone: string) => {
    const f = formats.get(timeZone) ?? new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, f);
    const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    return {
      year: p.year,
      month: p.month,
      day: p.day,
      hour: p.hour === "24" ? "00" : p.hour,
      minute: p.minute,
    };
  };
  // Half-hour and 45-minute offsets, changes of 30 minutes, a skipped day (Apia 2011), Ramadan's changes.
  const zones = [
    "UTC",
    "America/Chicago",
    "America/St_Johns",
    "Europe/London",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "Pacific/Apia",
    "Africa/Casablanca",
  ];
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (const zone of zones) {
    const instants: number[] = [];
    // Every 10 minutes around each of 2011's and 2026's changes, and instants anywhere in 1970-2099.
    for (let t = Date.UTC(2011, 0, 1); t < Date.UTC(2012, 0, 1); t += 10 * 60_000) instants.push(t);
    for (let t = Date.UTC(2026, 2, 1); t < Date.UTC(2026, 3, 15); t += 7 * 60_000 + 13_000) instants.push(t);
    for (let i = 0; i < 2000; i++) instants.push(Math.floor(random() * 4_102_444_800_000));
    for (const t of instants) {
      const p = intl(t, zone);
      assert.deepEqual(zonedParts(new Date(t), zone), p, `${zone} ${new Date(t).toISOString()}`);
      // The download's date-time cell: the same wall clock, as a UTC clock's milliseconds to the minute.
      const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute);
      assert.equal(
        wallClockMinute(new Date(t).toISOString(), zone),
        wall,
        `${zone} ${new Date(t).toISOString()}`,
      );
    }
  }
  // Outside the kept years, Intl answers.
  assert.deepEqual(zonedParts("1969-12-31T23:59:00Z", "Asia/Kolkata"), intl(-60_000, "Asia/Kolkata"));
  assert.equal(wallClockMinute("1969-12-31T23:59:59Z", "Asia/Kolkata"), Date.UTC(1970, 0, 1, 5, 29));
  assert.equal(wallClockMinute("1969-12-31T23:59:59Z", "UTC"), Date.UTC(1969, 11, 31, 23, 59));
  assert.equal(zonedParts("not a date", "UTC"), null);
  assert.ok(Number.isNaN(wallClockMinute("not a date", "UTC")));
});

Deno.test("format - time zone names are checked with Intl", () => {
  assert.ok(isTimeZone("America/Chicago"));
  assert.ok(isTimeZone("UTC"));
  for (const bad of ["", "Mars/Olympus", "America/Chicago ", 5, null, "x".repeat(65)]) {
    assert.ok(!isTimeZone(bad), String(bad));
  }
  assert.equal(timeZoneOf({ timeZone: "America/Denver" }), "America/Denver");
  assert.equal(timeZoneOf({ timeZone: "nowhere" }), "UTC");
  assert.equal(timeZoneOf(null), "UTC");
});

Deno.test("format - datetime-local values on the company's clock, sent as UTC", () => {
  assert.equal(toZonedInput("2026-03-05T03:30:00Z", "America/Chicago"), "2026-03-04T21:30");
  assert.equal(fromZonedInput("2026-03-04T21:30", "America/Chicago"), "2026-03-05T03:30");
  assert.equal(fromZonedInput("2026-07-04T21:30", "America/Chicago"), "2026-07-05T02:30"); // daylight time
  assert.equal(fromZonedInput("2026-03-04T21:30", "UTC"), "2026-03-04T21:30");
  assert.equal(fromZonedInput("2026-03-04T05:30", "Asia/Kolkata"), "2026-03-04T00:00");
  for (const utc of ["2026-03-08T07:59", "2026-03-08T08:00", "2026-11-01T06:30", "2026-11-01T07:30"]) {
    assert.equal(fromZonedInput(toZonedInput(`${utc}:00Z`, "America/Chicago"), "America/Chicago").length, 16);
  }
  assert.equal(fromZonedInput("2026-03-08T02:30", "America/Chicago"), "2026-03-08T08:30", "skipped hour");
  assert.equal(fromZonedInput("not a time", "UTC"), "");
  assert.equal(toZonedInput(null, "UTC"), "");
});

Deno.test("format - a day on the company's clock as the UTC instants it covers", () => {
  assert.equal(dayStartUtc("2026-03-04", "America/Chicago"), "2026-03-04T06:00");
  assert.equal(dayStartUtc("2026-07-04", "America/Chicago"), "2026-07-04T05:00", "daylight time");
  assert.equal(dayStartUtc("2026-03-04", "Asia/Kolkata"), "2026-03-03T18:30", "east of UTC: the day before");
  assert.equal(dayStartUtc("2026-03-04", "UTC"), "2026-03-04T00:00");
  assert.equal(dayStartUtc("2026-03-04"), "2026-03-04T00:00");
  // Beirut skips 00:00-01:00 on 2026-03-29: the day begins at 01:00, when the 28th ends.
  assert.equal(dayStartUtc("2026-03-29", "Asia/Beirut"), "2026-03-28T22:00");
  // The bound is the stored instants' minute prefix: both stored forms compare as their instants.
  const [from, to] = [
    dayStartUtc("2026-03-04", "America/Chicago"),
    dayStartUtc("2026-03-05", "America/Chicago"),
  ];
  for (const inside of ["2026-03-04T06:00:00Z", "2026-03-04T06:00:00.000Z", "2026-03-05T05:59:59.999Z"]) {
    assert.ok(inside >= from && inside < to, inside);
  }
  for (const outside of ["2026-03-04T05:59:59Z", "2026-03-05T06:00:00Z", "2026-03-05T06:00:00.000Z"]) {
    assert.ok(!(outside >= from && outside < to), outside);
  }
});

Deno.test("format - the day a date filter names: a date as given, an instant's day on the company's clock", () => {
  assert.equal(dayOf("2026-03-04", "Asia/Kolkata"), "2026-03-04");
  assert.equal(dayOf("2026-03-03T18:30:00.000Z", "Asia/Kolkata"), "2026-03-04");
  assert.equal(dayOf("2026-03-04T02:00:00Z", "America/Chicago"), "2026-03-03");
  assert.equal(dayOf("2026-03-04T02:00:00Z"), "2026-03-04");
  assert.equal(dayOf("2026-03-04T00:30:00+05:30", "UTC"), "2026-03-03");
  assert.equal(dayOf("2026-03-04T02:00", "America/Chicago"), "2026-03-04", "no offset: a wall-clock day");
});

Deno.test("format - percents to 3 places, half-up on the exact decimal", () => {
  assert.equal(formatPercent(8.25), "8.250%");
  assert.equal(formatPercent(1.0005), "1.001%"); // toFixed(3) says 1.000: the binary 1.000499...
  assert.equal(formatPercent(0), "0.000%");
  assert.equal(formatPercent(0.0004), "0.000%");
  assert.equal(formatPercent(12.3456), "12.346%");
  assert.equal(formatPercent(-2.5), "-2.500%");
  assert.equal(formatPercent(null), "");
  assert.equal((1.0005).toFixed(3), "1.000");
});

Deno.test("format - UT readings with one number of decimals, pressures in whole psi with separators", () => {
  assert.deepEqual([0.42, 0.426, 0.43, 0.4, 1].map(formatUt), ["0.420", "0.426", "0.430", "0.400", "1.000"]);
  assert.equal(formatUt(0.4265), "0.427", "half-up on the exact decimal");
  assert.equal(formatUt(null), "");
  assert.equal(formatPressure(15000), "15,000 psi");
  assert.equal(formatPressure(9500.5), "9,501 psi");
  assert.equal(formatPressure(0), "0 psi");
  assert.equal(formatPressure(undefined), "");
});

Deno.test("format - service dates: first start to last end, open while a line is out, one date when they agree", () => {
  const day = (v: string) => formatDate(v, "America/Chicago");
  const l = (start_date: string | null, end_date: string | null) => ({ start_date, end_date });
  assert.equal(serviceDates([], day), "");
  assert.equal(serviceDates([l(null, null)], day), "");
  // No line has ended: not "11-02-2026 to 11-02-2026".
  assert.equal(serviceDates([l("2026-11-02T15:00:00Z", null)], day), "From 11-02-2026");
  assert.equal(
    serviceDates([l("2026-11-03T15:00:00Z", null), l("2026-11-02T15:00:00Z", null)], day),
    "From 11-02-2026",
  );
  assert.equal(
    serviceDates([l("2026-11-02T15:00:00Z", "2026-11-05T17:00:00Z"), l("2026-11-03T08:00:00Z", null)], day),
    "11-02-2026 to 11-05-2026",
  );
  assert.equal(
    serviceDates([l("2026-11-02T15:00:00Z", "2026-11-05T17:00:00Z"), l("2026-11-09T08:00:00Z", null)], day),
    "From 11-02-2026",
    "a line still out after the last end leaves the range open",
  );
  assert.equal(serviceDates([l("2026-11-02T15:00:00Z", "2026-11-02T20:00:00Z")], day), "11-02-2026");
});

Deno.test("formatListDate - the sales lists' MM-DD-YY, on the company's clock", () => {
  assert.equal(formatListDate("2026-03-07"), "03-07-26");
  assert.equal(formatListDate("2026-03-05T03:30:00Z", "America/Chicago"), "03-04-26");
  assert.equal(formatListDate(null), "");
});
