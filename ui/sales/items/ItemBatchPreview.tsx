import { BatchPreviewTable } from "../../components/BatchPreviewTable.tsx";
import type { ItemBatchPreview } from "../../../api/sales/items/schemas.ts";

/** What the items upload does, said above the grid: a row with a catalogue's Item Number replaces that item. */
export const ITEM_BATCH_RULE = "A row whose Item Number is already in the catalogue replaces that item's " +
  "fields with the row's (a blank cell clears the field, a column left out keeps it); other rows add new items. " +
  "Upload shows which before anything is saved.";

/** What the upload will do, row by row: a new item, or the stored item it replaces with each change. */
function Preview({ answer }: { answer: ItemBatchPreview }) {
  return (
    <BatchPreviewTable
      id="item-preview-title"
      title={`Check the changes: ${answer.message}`}
      head={
        <>
          <th>Row</th>
          <th>Item Number</th>
          <th>Does</th>
        </>
      }
    >
      {answer.rows.map((r) => (
        <tr key={r.n}>
          <td>{r.n}</td>
          <td>{r.item_number}</td>
          <td>
            {!r.existing ? "New item" : r.changes.length === 0 ? "Replaces the item: no change" : (
              <>
                Replaces the item:
                <ul className="batch-changes">
                  {r.changes.map((c) => (
                    <li key={c.field}>
                      {c.field}: {c.before} &rarr; {c.after}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </td>
        </tr>
      ))}
    </BatchPreviewTable>
  );
}

/** The items upload's preview step (POST /api/sales/items/batch/preview), shown before Save. */
export const ITEM_BATCH_PREVIEW = {
  endpoint: "/api/sales/items/batch/preview",
  render: (answer: unknown) => <Preview answer={answer as ItemBatchPreview} />,
};
