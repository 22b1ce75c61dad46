import { useEffect, useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../../components/FormDialog.tsx";
import { TextField } from "../../../primitives/TextField.tsx";
import { Checkbox } from "../../../primitives/Checkbox.tsx";
import { api } from "../../../lib/api.ts";
import { showError } from "../../../lib/events.ts";
import { formatDateTime } from "../../../../lib/format.ts";
import type { DialogProps, TicketDetail } from "./types.ts";

type Rejection = TicketDetail["rejections"][number];

export const COMMENT_REQUIRED = "Comment is required";
export const MARK_RESOLVED = "Mark it resolved to submit.";
export const APPROVERS_ONLY = "Only a user with approval authority can reject a ticket awaiting approval.";

/** The ticket's rejections, newest first: time (UTC), Resolved, Comment, Created By. */
function RejectionsTable({ rows }: { rows: Rejection[] }) {
  return (
    <div className="table-wrap" style={{ marginBottom: 12 }}>
      <table className="data" aria-label="Rejections">
        <thead>
          <tr>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Resolved</th>
            <th scope="col">Comment</th>
            <th scope="col">Created By</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td className="empty" colSpan={4}>No rejections yet</td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={r.id}>
              <td style={{ whiteSpace: "nowrap" }}>{formatDateTime(r.created_at, "UTC")}</td>
              <td>{r.resolved ? "Yes" : "No"}</td>
              <td style={{ whiteSpace: "pre-wrap" }}>{r.comment}</td>
              <td>{r.created_by.name}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Reject (RFA) and the Rejection Notice (RFB). In RFA an approver rejects with a comment: resolved
 * keeps the ticket awaiting approval (back to /sales/approval), unresolved sends it back to RFB
 * (/sales/ready-for-billing); the server answers where to go. In RFB the notice records the
 * resolution: submit only once Resolved is checked, then the dialog closes. Resolved starts as the
 * latest rejection's.
 */
export function RejectionDialog({ ticket, can, onClose, onDone, navigate }: DialogProps) {
  const rfa = ticket.status === "RFA";
  const [rows, setRows] = useState<Rejection[]>(ticket.rejections);
  const [comment, setComment] = useState("");
  const [resolved, setResolved] = useState<boolean>(ticket.rejections[0]?.resolved ?? false);
  const { busy, errors, setErrors, save } = useFormSave();
  const { touch, setTouched, shownFrom, revealAll } = useTouched();

  useEffect(() => {
    const ac = new AbortController();
    api<{ results: Rejection[] }>("/api/sales/rejections", {
      query: { ticket_id: ticket.id },
      signal: ac.signal,
    })
      .then((res) => setRows(res.results))
      .catch((e) => {
        if ((e as Error).name !== "AbortError") showError(e);
      });
    return () => ac.abort();
  }, [ticket.id]);

  const issues: Record<string, string | undefined> = {
    comment: rfa && !comment.trim() ? COMMENT_REQUIRED : undefined,
    resolved: !rfa && !resolved ? MARK_RESOLVED : undefined,
  };
  const allowed = !rfa || can.approve;
  const valid = allowed && !issues.comment && !issues.resolved;
  const shown = shownFrom(errors, issues);

  const submit = () => {
    if (!valid) {
      setTouched({ comment: true, resolved: true });
      return;
    }
    save(
      () =>
        api<{ redirect: string; message: string }>("/api/sales/rejections", {
          method: "POST",
          json: { ticket_id: ticket.id, comment: comment.trim(), resolved },
        }),
      (message, res) => (rfa ? navigate(res.redirect, message) : onDone(message)),
    );
  };

  return (
    <FormDialog
      title={rfa ? "Reject" : "Rejection Notice"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Submit"
      onInvalidSubmit={revealAll}
      canSubmit={valid}
      busy={busy}
    >
      <RejectionsTable rows={rows} />
      {rfa && !can.approve && <p role="note">{APPROVERS_ONLY}</p>}
      <TextField
        label="Comment"
        multiline
        value={comment}
        onChange={(v) => {
          setComment(v);
          touch("comment");
          setErrors({});
        }}
        onBlur={() => touch("comment")}
        error={shown("comment")}
        isRequired={rfa}
        isDisabled={!allowed}
        autoFocus={allowed}
      />
      <Checkbox
        isSelected={resolved}
        onChange={(v) => {
          setResolved(v);
          touch("resolved");
          setErrors({});
        }}
        isDisabled={!allowed}
      >
        Resolved
      </Checkbox>
      {(errors.resolved || issues.resolved) && (
        <p className="field-error">{errors.resolved || issues.resolved}</p>
      )}
    </FormDialog>
  );
}
