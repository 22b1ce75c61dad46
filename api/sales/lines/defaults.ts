/**
 * The rates a new line takes from its inventory row (the line form, a line saved without them, and a
 * ticket made from a template all use these). Without min-rate logic: the item's rate. With it (new
 * tickets use it by default): the row's minimum rate, else the item's rate (one rental's minimum), and
 * the row's additional-day rate, else the item's rate. A row without rates of its own therefore still
 * gives a priced line: quantity x minimum plus additional days x rate, never $0.00 by default.
 */
export function newLineRates(
  row: { minimum_rate: number | null; additional_day: number | null; rate: number | null },
  minRate: boolean,
): { price: number; minimum_rate: number | null } {
  const rate = row.rate ?? 0;
  return minRate
    ? { price: row.additional_day ?? rate, minimum_rate: row.minimum_rate ?? rate }
    : { price: rate, minimum_rate: null };
}
