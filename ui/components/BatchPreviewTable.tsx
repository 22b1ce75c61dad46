import type { ReactNode } from "react";

/**
 * A batch upload's preview (ui/components/BatchUpload.tsx, `preview`): a titled table of what each row will do,
 * scrolled inside the dialog. The pages give the heading's id, the header cells and the rows.
 */
export function BatchPreviewTable(
  { id, title, head, children }: { id: string; title: ReactNode; head: ReactNode; children: ReactNode },
) {
  return (
    <section className="batch-preview" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <div className="table-wrap" style={{ maxHeight: 500 }}>
        <table className="data" aria-labelledby={id}>
          <thead>
            <tr>{head}</tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </section>
  );
}
