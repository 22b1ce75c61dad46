/**
 * Likely causes of the FAILs seen so far, shown beside each FAIL in docs/performance.md (the budgets stay;
 * a cause is recorded until the fix lands). Matched against the measure's name; first match wins. Edit,
 * then `npm run bench -- --report` rewrites the report from the last run's figures.
 */
const CAUSES: [RegExp, string][] = [];

export function causeOf(measure: string): string | undefined {
  return CAUSES.find(([re]) => re.test(measure))?.[1];
}
