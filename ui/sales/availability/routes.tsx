import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../../api/lib/context.ts";
import { rentalAvailability, unitsOfItem } from "../../../api/sales/availability/service.ts";
import { timeZoneOf, today } from "../../../lib/format.ts";
import { renderShellPage } from "../../render.tsx";
import { AvailabilityPage, NoItem } from "./AvailabilityPage.tsx";
import { monthOf, monthRange } from "./month.ts";

/** A positive whole number from the URL, else undefined (the page reads its URL leniently). */
const idParam = (
  v: string | undefined,
) => (v && /^\d{1,9}$/.test(v) && Number(v) > 0 ? Number(v) : undefined);

/**
 * GET /sales/availability?item_id=&business_unit=&month=YYYY-MM&day=YYYY-MM-DD: the owner company's
 * staff (the page guard). The unit defaults to the first that holds the item, the month to this one
 * on the company's clock, the day to today when in the month, else the month's first. An unknown item
 * or unit is the not-found page.
 */
export const availabilityPages = new Hono<AppEnv>()
  .get("/sales/availability", async (c) => {
    const ctx = ctxOf(c);
    const itemId = idParam(c.req.query("item_id"));
    if (!itemId) return renderShellPage(c, "Availability", <NoItem />);
    const now = today(new Date(), timeZoneOf(ctx.user.company.settings));
    const month = monthOf(c.req.query("month"), now);
    const units = await unitsOfItem(ctx, itemId);
    const business_unit = idParam(c.req.query("business_unit")) ?? units[0]?.id;
    if (!business_unit) return renderShellPage(c, "Availability", <NoItem />);
    const data = await rentalAvailability(ctx, { item_id: itemId, business_unit, ...monthRange(month) });
    const asked = c.req.query("day");
    const day = data.days.some((d) => d.date === asked) ? asked! : now.startsWith(month) ? now : data.from;
    return renderShellPage(
      c,
      `Availability: ${data.item.item_number}`,
      <AvailabilityPage data={data} units={units} month={month} day={day} today={now} />,
    );
  });
