// The return gate (company setting `Sales.returnGate`, docs/company-settings.md, decision 027): a
// checked-in Serialized unit waits in Repair until an inspection of its serial passes. Pure: the
// check-in service, the settings check and the ticket screen read the same answer.

/** Why a held unit is in Repair: on its audit row and beside its status in the inventory tables. */
export const AWAITING_INSPECTION = "Awaiting inspection (return gate)";

type Settings = Record<string, unknown> | null | undefined;

function salesOf(settings: Settings): Record<string, unknown> | undefined {
  const sales = settings?.Sales;
  return sales && typeof sales === "object" && !Array.isArray(sales)
    ? sales as Record<string, unknown>
    : undefined;
}

/** The gate is on only when `Sales.returnGate` is exactly true; absent (the default) is off. */
export function returnGateOn(settings: Settings): boolean {
  return salesOf(settings)?.returnGate === true;
}

/** A saved `Sales.returnGate` that is not a yes/no, as [field, sentence]; else null. */
export function returnGateProblem(settings: Settings): [field: string, message: string] | null {
  const value = salesOf(settings)?.returnGate;
  if (value === undefined || value === null || typeof value === "boolean") return null;
  return ["settings.Sales.returnGate", "Must be true or false"];
}
