import { useEffect, useRef, useState } from "react";
import { ConflictError } from "./api.ts";
import { mineOnTop, theyChangedAny, type Values } from "./conflict.ts";

/** A 412 the form is showing: the form's values filled from the record as it is now, and its version. */
export interface Conflict<S extends object = Values> {
  theirs: S;
  version: number;
  detail: string;
}

/** What `FormDialog` needs to show a conflict and resolve it. */
export interface VersionedForm {
  conflict: Conflict<object> | null;
  base: object;
  v: object;
  labels?: Record<string, string>;
  reload(): void;
  applyMine(): void;
  dismiss(): void;
}

/**
 * An edit form's values with the version of the record they were filled from (decision 038): the form
 * sends `version` (If-Match) with its save, and gives `conflicted` its failures (`useFormSave`). On a 412
 * the form's `init` is applied to the record as it is now (theirs) and the conflict dialog shows, field by
 * field, what differs; "Reload" takes theirs into the form, "Apply mine on top" puts the user's own changes
 * over theirs and saves again with the new version. When nothing the form shows changed (someone ticked
 * Paid, say), the save goes again at once on the new version: nothing of either side is lost.
 * `record` null is a new record: no version, no conflict.
 */
export function useVersioned<R extends { version?: number }, S extends object>(
  record: R | null | undefined,
  init: (r: R | null | undefined) => S,
  opts: { start?: (s: S) => S; labels?: Record<string, string> } = {},
) {
  const [base, setBase] = useState<S>(() => init(record));
  const [v, setV] = useState<S>(() => (opts.start ? opts.start(init(record)) : init(record)));
  const [version, setVersion] = useState(record?.version);
  const [conflict, setConflict] = useState<Conflict<S> | null>(null);
  const [resends, setResends] = useState(0);
  const resend = useRef<() => void>(() => {});
  const retried = useRef(false);
  useEffect(() => {
    if (resends) resend.current();
  }, [resends]);

  const take = (c: Conflict<S>, values: S) => {
    setBase(c.theirs);
    setV(values);
    setVersion(c.version);
    setConflict(null);
  };

  return {
    v,
    setV,
    base,
    /** sent as If-Match: undefined for a new record */
    version: record ? version : undefined,
    conflict,
    labels: opts.labels,
    /** The form's submit, run again after "Apply mine on top" (set on every render). */
    onResend(fn: () => void) {
      resend.current = fn;
    },
    /** Whether `e` is a 412 this form now shows (or resolved by saving again). */
    conflicted(e: unknown): boolean {
      if (!(e instanceof ConflictError) || !record) return false;
      const theirs = init({ ...record, ...e.current } as R);
      const c = { theirs, version: e.current.version, detail: e.detail };
      if (!theyChangedAny(base as Values, theirs as Values) && !retried.current) {
        retried.current = true;
        take(c, mineOnTop(base as Values, v as Values, theirs as Values) as S);
        setResends((n) => n + 1);
        return true;
      }
      setConflict(c);
      return true;
    },
    reload() {
      if (conflict) take(conflict, conflict.theirs);
    },
    applyMine() {
      if (!conflict) return;
      take(conflict, mineOnTop(base as Values, v as Values, conflict.theirs as Values) as S);
      setResends((n) => n + 1);
    },
    dismiss() {
      setConflict(null);
    },
  };
}

export type Versioned<S extends object> = ReturnType<typeof useVersioned<{ version?: number }, S>>;
