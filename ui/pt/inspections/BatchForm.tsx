import { useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { ChipsInput } from "../../primitives/ChipsInput.tsx";
import { type ChosenFile, FileField, isPdf } from "../../primitives/FileField.tsx";
import { api, fieldErrors } from "../../lib/api.ts";
import { setLoading, showError } from "../../lib/events.ts";
import {
  DateInput,
  hasPdfName,
  NO_SERIALS,
  PDF_MESSAGE,
  SerialNumbers,
  splitSerials,
} from "../../../api/pt/inspections/schemas.ts";
import { useToday } from "../../lib/time_zone.tsx";
import { loadParts, type OfflineOwner } from "./InspectionForm.tsx";
import { QUEUED_MESSAGE, sendOrQueue } from "../../offline/queue.ts";
import { ScanButton, type ScanReply } from "../../scan/ScanButton.tsx";

const PDF_PATH = "imageFiles.pressure_test";
const split = (v: string[]) => splitSerials(v) as string[];

/** The batch form's own checks, with the API's messages: serials, date and a real PDF. */
function validate(serials: string[], date: string, file: ChosenFile | null): Record<string, string> {
  const out: Record<string, string> = {};
  const s = SerialNumbers.safeParse(serials);
  if (!s.success) out.serial_numbers = s.error.issues[0]?.message ?? NO_SERIALS;
  const d = DateInput.safeParse(date);
  if (!d.success) out.date = d.error.issues[0].message;
  // A PDF by its name and its first bytes (a text file renamed fake.pdf is refused here, not after Save).
  if (file && (!hasPdfName(file.name) || !isPdf(file))) out[PDF_PATH] = PDF_MESSAGE;
  return out;
}

/**
 * Enter a batch (max width 750): serial numbers as chips or pasted comma-separated text, one part,
 * batch name, date and one pressure-test PDF shared by every serial. The job's existing serials get
 * the batch's part, batch and PDF (the server's rule). Closing the dialog discards the form. With an
 * `offline` owner the batch, its PDF included, is queued on the device when the network is gone.
 */
export function BatchForm({ jobId, offline = null, onClose, onSaved, onQueued = onSaved }: {
  jobId: number;
  offline?: OfflineOwner;
  onClose: () => void;
  onSaved: (message: string) => void;
  onQueued?: (message: string) => void;
}) {
  const [serials, setSerials] = useState<string[]>([]);
  const [part, setPart] = useState<ComboOption | null>(null);
  const [batch, setBatch] = useState("");
  const today = useToday();
  const [date, setDate] = useState(today);
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const errors = validate(serials, date, file);
  const valid = Object.keys(errors).length === 0;
  const shown = (k: string) => serverErrors[k] || (touched[k] ? errors[k] : undefined);
  const touch = (k: string) => {
    setTouched((t) => ({ ...t, [k]: true }));
    setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  };

  const submit = async () => {
    if (!valid) return setTouched({ serial_numbers: true, date: true, [PDF_PATH]: true });
    setBusy(true);
    setLoading(true);
    const body = {
      date,
      serial_numbers: serials,
      batch,
      part_id: part?.id ?? null,
      imageFiles: { pressure_test: file ? { name: file.name, url: file.url } : null },
      job_id: jobId,
    };
    try {
      if (offline) {
        const sent = await sendOrQueue<{ message?: string }>({ kind: "batch", jobId, body, ...offline });
        if (sent.queued) onQueued(QUEUED_MESSAGE);
        else onSaved(sent.answer.message ?? "Success");
      } else {
        const res = await api<{ message?: string }>("/api/pt/inspections/batch", {
          method: "POST",
          json: body,
        });
        onSaved(res.message ?? "Success");
      }
    } catch (e) {
      setServerErrors(fieldErrors(e));
      showError(e);
    } finally {
      setLoading(false);
      setBusy(false);
    }
  };

  // A scanned serial joins the batch's serials (issue 13); the dialog stays open for the next one.
  const scan = (serial: string): ScanReply => {
    if (serials.some((s) => s.toLowerCase() === serial.toLowerCase())) {
      return { error: `${serial} is already in the batch.` };
    }
    const next = split([...serials, serial]);
    setSerials(next);
    touch("serial_numbers");
    return { ok: `Added ${serial}: ${next.length} in the batch.` };
  };

  return (
    <Dialog title="New Batch" isOpen onClose={onClose} width={750}>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <ChipsInput
          label="Serial Numbers"
          value={serials}
          split={split}
          onChange={(v) => {
            setSerials(v);
            touch("serial_numbers");
          }}
          onBlur={() => setTouched((t) => ({ ...t, serial_numbers: true }))}
          error={shown("serial_numbers")}
        />
        <ScanButton
          label="Scan serial numbers"
          title="Scan serial numbers into the batch"
          hint="Scan each unit's QR label (camera or USB scanner) or type its serial number."
          keepOpen
          onScan={scan}
        />
        <div className="form-grid">
          <ComboBox
            label="Part"
            selected={part}
            onChange={(p) => {
              setPart(p);
              touch("part_id");
            }}
            load={loadParts}
            debounceMs={100}
            error={serverErrors.part_id}
          />
          <TextField
            label="Batch"
            value={batch}
            onChange={(x) => {
              setBatch(x);
              touch("batch");
            }}
            error={serverErrors.batch}
          />
          <TextField
            label="Date"
            type="date"
            value={date}
            onChange={(x) => {
              setDate(x);
              touch("date");
            }}
            onBlur={() => touch("date")}
            error={shown("date")}
            isRequired
          />
        </div>
        <FileField
          label="Pressure Test PDF"
          value={file}
          onChange={(f) => {
            setFile(f);
            touch(PDF_PATH);
          }}
          error={shown(PDF_PATH)}
        />
        <div className="dialog-actions">
          <Button className="btn" onPress={onClose}>Cancel</Button>
          <Button type="submit" className="btn btn-primary" isDisabled={busy || !valid}>Save</Button>
        </div>
      </Form>
    </Dialog>
  );
}
