import { Button } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { formatNumber } from "../../../lib/format.ts";
import {
  AVAILABILITY_LABELS,
  type AvailabilityFigures,
  EXCEEDS_MESSAGE,
} from "../../../api/sales/lines/schemas.ts";

/**
 * The availability refusal of a line save (the server's 409 with its five figures): the spec's
 * 'ERROR: Line item quantity exceeds available inventory:', the item it is about, and the figures. Closing it returns to the
 * line form, which keeps what was typed.
 */
export function AvailabilityDialog({ figures, item, onClose }: {
  figures: AvailabilityFigures;
  /** the line's inventory, as the form names it: which item is short */
  item?: string;
  onClose: () => void;
}) {
  return (
    <Dialog title={EXCEEDS_MESSAGE} isOpen onClose={onClose} width={500}>
      {item && <p className="dialog-subject">{item}</p>}
      <div className="row-details">
        <dl aria-label="Availability">
          {AVAILABILITY_LABELS.map(([key, label]) => [
            <dt key={`${key}-label`}>{label}</dt>,
            <dd key={key}>{formatNumber(figures[key])}</dd>,
          ])}
        </dl>
      </div>
      <div className="dialog-actions">
        <Button className="btn btn-primary" onPress={onClose} autoFocus>OK</Button>
      </div>
    </Dialog>
  );
}
