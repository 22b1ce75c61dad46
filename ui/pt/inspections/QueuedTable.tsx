import { useState } from "react";
import { formatDate } from "../../../lib/format.ts";
import type { QueuedRecord } from "../../offline/queue.ts";

function serialsOf(r: QueuedRecord): string {
  const b = r.body;
  if (r.kind === "inspection") return String(b.serial_number ?? "");
  const list = Array.isArray(b.serial_numbers) ? b.serial_numbers.map(String) : [];
  return list.length > 3 ? `${list.slice(0, 3).join(", ")} and ${list.length - 3} more` : list.join(", ");
}

/** A refused record's actions: send again (after the cause is fixed) or discard, asked twice. */
function RefusedActions({ rec, retry, discard }: {
  rec: QueuedRecord;
  retry: (r: QueuedRecord) => void;
  discard: (r: QueuedRecord) => void;
}) {
  const [asking, setAsking] = useState(false);
  if (asking) {
    return (
      <span className="sync-actions">
        Discard this record?
        <button type="button" className="btn btn-danger" onClick={() => discard(rec)}>Discard</button>
        <button type="button" className="btn" onClick={() => setAsking(false)}>Keep</button>
      </span>
    );
  }
  return (
    <span className="sync-actions">
      <button type="button" className="btn" onClick={() => retry(rec)}>Send again</button>
      <button type="button" className="btn" onClick={() => setAsking(true)}>Discard...</button>
    </span>
  );
}

/**
 * The records made on this device that the server has not taken yet, oldest first: each waiting, or
 * refused with the server's message (and field messages) until the user sends it again or discards it.
 * Loaded when there is something to show (page JavaScript budget).
 */
export default function QueuedTable({ records, retry, discard }: {
  records: QueuedRecord[];
  retry: (r: QueuedRecord) => void;
  discard: (r: QueuedRecord) => void;
}) {
  if (!records.length) return null;
  return (
    <section className="sync-queue">
      <h2 id="sync-queue-title">Waiting to sync</h2>
      <div className="table-wrap">
        <table className="data" aria-labelledby="sync-queue-title">
          <thead>
            <tr>
              <th>Serial Number</th>
              <th>Status</th>
              <th>Date</th>
              <th>Batch</th>
              <th>Job Number</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => (
              <tr key={r.seq} className={r.conflict ? "sync-conflict" : undefined}>
                <td>{r.kind === "batch" ? `Batch: ${serialsOf(r)}` : serialsOf(r)}</td>
                <td>
                  {r.conflict
                    ? (
                      <>
                        <strong>Not saved:</strong> {r.conflict.detail}
                        {r.conflict.errors.length > 1 && (
                          <ul>{r.conflict.errors.map((e) => <li key={e.path}>{e.path}: {e.message}</li>)}</ul>
                        )}
                        <RefusedActions rec={r} retry={retry} discard={discard} />
                      </>
                    )
                    : "Waiting to sync"}
                </td>
                <td>{formatDate(String(r.body.date ?? ""))}</td>
                <td>{String(r.body.batch ?? "")}</td>
                <td>{r.jobNumber}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
