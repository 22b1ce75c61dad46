/**
 * The one mapping from a zod check to a form's field messages: the first message of each field, keyed by
 * its path (`rows.0.price`), or by the top-level field alone with `top` (a list's entries shown on the list).
 * Forms show these once a field is touched (`useTouched`), the server's 422 messages first (`useFormSave`).
 */
export interface Checked {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

export function issuesOf(check: Checked, opts: { top?: boolean } = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of check.success ? [] : check.error?.issues ?? []) {
    out[opts.top ? String(i.path[0]) : i.path.map(String).join(".")] ??= i.message;
  }
  return out;
}
