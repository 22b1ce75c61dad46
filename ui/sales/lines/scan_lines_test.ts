import assert from "node:assert/strict";
import { checkInByScan, linesWithSerial, notOnTicket, outstanding } from "./scan_lines.ts";
import type { Line } from "./types.ts";

type Log = { quantity_in?: number; quantity_sold?: number; remove_quantity?: boolean };
function line(
  id: number,
  serial: string,
  over: Partial<Line> = {},
  log: Log[] = [],
  type = "Serialized",
): Line {
  return {
    id,
    quantity: 3,
    isSold: false,
    sales_inventory: { serial_number: serial, item: { inventory_type: type } },
    inventory_log: log.map((e) => ({
      quantity_in: 0,
      quantity_sold: 0,
      quantity_reclassed: 0,
      remove_quantity: false,
      ...e,
    })),
    ...over,
  } as unknown as Line;
}

Deno.test("scan lines - a scanned serial checks in what is still out of its line, whatever the case", () => {
  const lines = [line(1, "A-1", {}, [{ quantity_in: 1 }, { quantity_sold: 1 }]), line(2, "B-2")];
  assert.equal(outstanding(lines[0]), 1);
  const r = checkInByScan(lines, "a-1");
  assert.ok("line" in r);
  assert.equal(r.line.id, 1);
  assert.equal(r.quantity, 1);
  assert.deepEqual(linesWithSerial(lines, "b-2").map((l) => l.id), [2]);
});

Deno.test("scan lines - serials not on the ticket, charge codes, sold or fully checked-in lines say why", () => {
  const error = (lines: Line[], serial: string) => {
    const r = checkInByScan(lines, serial);
    assert.ok("error" in r, serial);
    return r.error;
  };
  assert.equal(error([line(1, "A-1")], "Z-9"), notOnTicket("Z-9"));
  assert.match(error([line(1, "CC", {}, [], "Charge Code")], "CC"), /charge code/);
  assert.match(error([line(1, "S-1", { isSold: true })], "S-1"), /is sold/);
  assert.match(
    error([line(1, "F-1", {}, [{ quantity_in: 2 }, { quantity_in: 1, remove_quantity: true }])], "F-1"),
    /in full/,
  );
});
