import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Dialog } from "../primitives/Dialog.tsx";
import { Icon } from "../components/icons.tsx";
import { ApiError } from "../lib/api.ts";
import { serialFromCode } from "../../lib/scanned_serial.ts";
import { CameraView } from "./CameraView.tsx";
import type { ScanProps } from "./ScanButton.tsx";

/** A code read again this soon after it was handled is the same label still in front of the camera. */
const REPEAT_MS = 2500;

/**
 * Scan a serial number (issue 13): a USB scanner types the code and Enter into the focused field (typing
 * works the same), or the camera reads a QR label. The code (a label's URL or a serial) becomes a serial
 * for `onScan`; its refusal shows here, in words. A dialog that stays open (adding to a list) says what
 * each scan did and takes the next one.
 */
export function ScanDialog({ title, hint, onScan, keepOpen, onClose }: ScanProps & { onClose: () => void }) {
  const [text, setText] = useState("");
  const [camera, setCamera] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const last = useRef({ code: "", at: 0 });
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  // The field takes a USB scanner's typing: whenever the dialog itself takes the focus (react-aria moves it
  // there after opening, later over another dialog such as the batch form), the field gets it instead.
  useEffect(() => {
    const dialog = input.current?.closest('[role="dialog"]');
    const toField = (e: FocusEvent) => e.target === dialog && input.current?.focus();
    document.addEventListener("focusin", toField);
    input.current?.focus();
    return () => document.removeEventListener("focusin", toField);
  }, []);

  const handle = async (code: string) => {
    const parsed = serialFromCode(code);
    if ("error" in parsed) return setMessage({ error: true, text: parsed.error });
    setBusy(true);
    try {
      const reply = await onScan(parsed.serial);
      if (reply && "error" in reply) setMessage({ error: true, text: reply.error });
      else if (!keepOpen) onClose();
      else {
        setMessage({ error: false, text: reply?.ok ?? `${parsed.serial} scanned.` });
        setText("");
      }
    } catch (e) {
      setMessage({ error: true, text: e instanceof ApiError ? e.detail : "The scan could not be used." });
    } finally {
      setBusy(false);
      input.current?.focus();
    }
  };
  const fromCamera = (code: string) => {
    const now = Date.now();
    if (busy || (code === last.current.code && now - last.current.at < REPEAT_MS)) return;
    last.current = { code, at: now };
    void handle(code);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The dialog may sit inside another form (the batch form): its submit must not reach that one.
    e.stopPropagation();
    if (!busy) void handle(text);
  };

  return (
    <Dialog title={title} isOpen onClose={onClose}>
      <form onSubmit={submit} className="scan-form">
        {hint && <p className="field-note lead">{hint}</p>}
        <div className="field">
          <label htmlFor={id}>Serial number or QR code</label>
          <input
            id={id}
            ref={input}
            value={text}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            maxLength={2000}
            aria-describedby={`${id}-status`}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <p
          id={`${id}-status`}
          role={message?.error ? "alert" : "status"}
          className={message?.error ? "field-error" : "field-note"}
        >
          {message?.text ?? ""}
        </p>
        {camera && <CameraView onCode={fromCamera} />}
        <div className="dialog-actions">
          <Button className="btn" onPress={() => setCamera((on) => !on)}>
            <Icon name="camera" size={18} />
            {camera ? "Stop camera" : "Use camera"}
          </Button>
          <span className="spacer" />
          <Button className="btn" onPress={onClose}>{keepOpen ? "Done" : "Cancel"}</Button>
          <Button type="submit" className="btn btn-primary" isDisabled={busy || !text.trim()}>
            {keepOpen ? "Add" : "Open"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
