import { Button } from "react-aria-components";
import { Dialog } from "../primitives/Dialog.tsx";
import type { ConflictRow } from "../lib/conflict.ts";

/**
 * A save refused because someone else changed the record (412, decision 038): the server's sentence and,
 * field by field, the user's value and theirs. "Reload" takes theirs into the form (the user's edits are
 * dropped); "Apply mine on top" keeps their changes, puts the user's over them and saves again. Escape or
 * Cancel goes back to the form as typed.
 */
export function ConflictDialog({ detail, rows, onReload, onApply, onClose }: {
  detail: string;
  rows: ConflictRow[];
  onReload: () => void;
  onApply: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog title="Someone else changed this record" isOpen onClose={onClose} width={600}>
      <p>{detail}</p>
      {rows.length
        ? (
          <div className="conflict-scroll">
            <table className="conflict-table">
              <caption className="sr-only">What changed</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Yours</th>
                  <th scope="col">Theirs</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key} className={r.clash ? "conflict-clash" : undefined}>
                    <th scope="row">{r.label}{r.clash ? " (both changed)" : ""}</th>
                    <td>{r.yours}</td>
                    <td>{r.theirs}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
        : <p>None of the fields of this form differ: their change was elsewhere in the record.</p>}
      <p className="field-hint">
        Apply mine on top keeps their changes and saves yours over them; Reload shows theirs and drops yours.
      </p>
      <div className="dialog-actions conflict-actions">
        <Button className="btn" onPress={onClose}>Cancel</Button>
        <Button className="btn" onPress={onReload}>Reload</Button>
        <Button className="btn btn-primary" onPress={onApply} autoFocus>Apply mine on top</Button>
      </div>
    </Dialog>
  );
}
