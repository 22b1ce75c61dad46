import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { type AppEnv, ctxOf } from "../../../../api/lib/context.ts";
import { checkIn } from "../../../../api/sales/lines/checkin.ts";
import { ticketLines } from "../../../../api/sales/lines/service.ts";
import { servedOverHttps } from "../../../../api/lib/public_origin.ts";
import { AppError } from "../../../../lib/errors.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { timeZoneOf, toZonedInput } from "../../../../lib/format.ts";
import type { CheckInEntry } from "../../lines/lines.ts";
import { planCheckIn } from "../../lines/lines.ts";
import { checkInByScan } from "../../lines/scan_lines.ts";
import type { Line } from "../../lines/types.ts";
import {
  actionOf,
  CHECK_IN_MODE,
  type CheckInStart,
  entriesFromForm,
  type FormValues,
  serialOf,
  startEntries,
  touched,
} from "../../lines/checkin_form.ts";

/**
 * The check-in form's twin of `POST /api/sales/inventory/check-in` (decision 056): the same service (its
 * permission, validation and transaction), reached by a form-encoded post from a ticket in check-in mode
 * before the page's scripts have come. It answers 303 back to the ticket in check-in mode (Post/Redirect/Get)
 * with the outcome in a short-lived cookie scoped to the ticket's page: the success message, or each
 * refusal at its line with every value as typed. Cross-site posts never get here (api/middleware/csrf.ts).
 */
const FLASH = "checkin_outcome";
/**
 * A cookie stays under 4 KB: about 50 touched lines; past that the values are dropped, the outcome kept
 * (decision 056).
 */
const FLASH_MAX = 3800;

type Flash = {
  n?: string;
  a?: string;
  /** touched entries: id, selected, date, in, remove, sold */
  e?: [number, 0 | 1, string, string, 0 | 1, string][];
  /** refusals at their line: id, message */
  x?: [number, string][];
};

const nowInput = (timeZone: string) => toZonedInput(new Date().toISOString(), timeZone);
const pagePath = (listPath: string, id: number) => `${listPath}/${id}`;

function keep(outcome: CheckInStart): Flash {
  const flash: Flash = {};
  if (outcome.notice) flash.n = outcome.notice;
  if (outcome.alert) flash.a = outcome.alert;
  const e = Object.entries(outcome.entries).filter(([, v]) => touched(v));
  if (e.length) {
    flash.e = e.map((
      [id, v],
    ) => [Number(id), v.selected ? 1 : 0, v.date, v.quantityIn, v.remove ? 1 : 0, v.quantitySold]);
  }
  const x = Object.entries(outcome.errors).filter(([, m]) => m);
  if (x.length) flash.x = x.map(([id, m]) => [Number(id), m]);
  return flash;
}

function back(c: Context<AppEnv>, listPath: string, id: number, outcome: CheckInStart) {
  const path = pagePath(listPath, id);
  // setCookie encodes the value (getCookie decodes it): the size that counts is the encoded one.
  let value = JSON.stringify(keep(outcome));
  if (encodeURIComponent(value).length > FLASH_MAX) {
    const { e: _dropped, ...rest } = keep(outcome);
    rest.a = [rest.a, "The values typed were too many to keep: enter them again."].filter(Boolean).join(" ");
    value = JSON.stringify(rest);
  }
  setCookie(c, FLASH, value, {
    path,
    httpOnly: true,
    sameSite: "Lax",
    secure: servedOverHttps(c),
    maxAge: 120,
  });
  return c.redirect(`${path}?mode=${CHECK_IN_MODE}`, 303);
}

/** The refusal of the service, at the lines it names (paths `quantities_in.3`, `line_items.0`, ...). */
function refusal(e: AppError, ids: number[]): Pick<CheckInStart, "errors" | "alert"> {
  const errors: Record<number, string> = {};
  for (const f of e.errors ?? []) {
    const at = /^[a-z_]+\.(\d+)$/.exec(f.path);
    const id = at ? ids[Number(at[1])] : undefined;
    if (id !== undefined && !errors[id]) errors[id] = f.message;
  }
  const placed = Object.keys(errors).length > 0;
  return {
    errors,
    alert: placed
      ? `Nothing was checked in: ${e.errors!.length === 1 ? "a line needs" : "lines need"} a change.`
      : e.message,
  };
}

/** POST `{list}/{id}/check-in`: a scanned serial's line selected, or the check-in sent; then back, 303. */
export async function postCheckInForm(c: Context<AppEnv>, listPath: string) {
  const ctx = ctxOf(c);
  requireAbility(ctx.user, "sales.read");
  const id = Number(c.req.param("id"));
  const form = await c.req.parseBody({ all: true }).catch(() => {
    throw new AppError("bad_request", "Malformed form.");
  }) as FormValues;
  const { results: lines } = await ticketLines(ctx, { ticket_id: id }) as { results: Line[] };
  const timeZone = timeZoneOf(ctx.user.company.settings);
  const entries = entriesFromForm(form, lines, nowInput(timeZone));

  if (actionOf(form) === "select") {
    const serial = serialOf(form);
    if (!serial) {
      return back(c, listPath, id, {
        entries,
        errors: {},
        alert: "Nothing was sent: scan or type a serial number, or press Submit Check-In.",
      });
    }
    const found = checkInByScan(lines, serial);
    if ("error" in found) return back(c, listPath, id, { entries, errors: {}, alert: found.error });
    entries[found.line.id] = {
      ...entries[found.line.id],
      selected: true,
      quantityIn: String(found.quantity),
    };
    const name = found.line.sales_inventory.serial_number;
    return back(c, listPath, id, {
      entries,
      errors: {},
      notice: `${name}: ${found.quantity} in. Scan the next one, or Submit Check-In.`,
    });
  }

  // The screen's own checks first (the same messages as once hydrated), then the service's, which rule.
  const plan = planCheckIn(id, lines, entries, timeZone);
  if (!plan.ok) {
    const errors = plan.errors ?? {};
    const n = Object.keys(errors).length;
    // Said above the lines too: on a phone the refused line may be screens away.
    const alert = plan.alert ??
      `Nothing was checked in: ${n === 1 ? "a line needs" : `${n} lines need`} a change.`;
    return back(c, listPath, id, { entries, errors, alert });
  }
  try {
    const r = await checkIn(ctx, plan.body);
    return back(c, listPath, id, { entries: {}, errors: {}, notice: r.message });
  } catch (e) {
    // Who may not, or a ticket that is not there, answers as the API does; a refusal comes back to the form.
    if (!(e instanceof AppError) || e.code === "forbidden" || e.code === "unauthorized") throw e;
    if (e.code === "not_found" && !lines.length) throw e;
    return back(c, listPath, id, { entries, ...refusal(e, plan.body.line_items as number[]) });
  }
}

/** The check-in mode a ticket page opens in (`?mode=checkin`), with the last post's outcome; once read, gone. */
export function checkInStart(c: Context<AppEnv>, listPath: string, id: number, lines: Line[]): CheckInStart {
  const timeZone = timeZoneOf(c.get("user")!.company.settings);
  const raw = getCookie(c, FLASH);
  let flash: Flash = {};
  if (raw) {
    deleteCookie(c, FLASH, { path: pagePath(listPath, id) });
    try {
      const parsed = JSON.parse(raw);
      flash = parsed && typeof parsed === "object" ? parsed as Flash : {};
    } catch {
      flash = {};
    }
  }
  const kept: Record<number, CheckInEntry> = {};
  // The cookie comes back from the browser: anything but the shape written is ignored, never a 500.
  const rows = <T>(v: unknown) => (Array.isArray(v) ? v.filter(Array.isArray) : []) as T[];
  for (const [lineId, s, date, qIn, r, sold] of rows<NonNullable<Flash["e"]>[number]>(flash.e)) {
    kept[lineId] = {
      selected: s === 1,
      date: String(date),
      quantityIn: String(qIn),
      remove: r === 1,
      quantitySold: String(sold),
    };
  }
  const known = new Set(lines.map((l) => l.id));
  return {
    entries: startEntries(lines, nowInput(timeZone), kept),
    errors: Object.fromEntries(
      rows<[number, string]>(flash.x).filter(([l, m]) => known.has(l) && typeof m === "string"),
    ),
    ...(typeof flash.n === "string" ? { notice: flash.n } : {}),
    ...(typeof flash.a === "string" ? { alert: flash.a } : {}),
  };
}
