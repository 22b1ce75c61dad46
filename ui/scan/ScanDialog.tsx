import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Dialog } from "../primitives/Dialog.tsx";
import { Icon } from "../components/icons.tsx";
import { ApiError } from "../lib/api.ts";
import { serialFromCode } from "../../lib/scanned_serial.ts";
import { CameraView } from "./CameraView.tsx";
import { readyCue, refusalCue } from "./refusal_cue.ts";
import type { ScanProps } from "./ScanButton.tsx";

/** A code read again this soon after it was handled is the same label still in front of the camera. */
const REPEAT_MS = 2500;

/** What the last scan did: `n` counts scans, so a repeat of the same words is announced again. */
type Said = { error: boolean; text: string; n: number };

/**
 * Scan a serial number (issue 13): a USB scanner types the code and Enter into the focused field (typing
 * works the same), or the camera reads a QR label. The code (a label's URL or a serial) becomes a serial
 * for `onScan`; its refusal shows here, in words, with a sound and a buzz where the device has them. A
 * dialog that stays open (adding to a list) says what each scan did and takes the next one.
 *
 * Each Enter takes the field's text as one scan and empties the field at once (issue 32): a scanner types
 * the next code without anyone looking, so nothing of a scan, refused or not, may stay to be joined to the
 * next. Scans that come while one is being handled wait their turn, in order.
 */
export function ScanDialog({ title, hint, onScan, keepOpen, onClose }: ScanProps & { onClose: () => void }) {
  const [text, setText] = useState("");
  const [camera, setCamera] = useState(false);
  const [said, setSaid] = useState<Said | null>(null);
  const waiting = useRef<string[]>([]);
  const working = useRef(false);
  const closed = useRef(false);
  const last = useRef({ code: "", at: 0 });
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  // The field takes a USB scanner's typing: whenever the dialog itself takes the focus (react-aria moves it
  // there after opening, later over another dialog such as the batch form), the field gets it instead.
  useEffect(() => {
    closed.current = false;
    const dialog = input.current?.closest('[role="dialog"]');
    const toField = (e: FocusEvent) => e.target === dialog && input.current?.focus();
    document.addEventListener("focusin", toField);
    input.current?.focus();
    return () => {
      closed.current = true;
      document.removeEventListener("focusin", toField);
    };
  }, []);

  const say = (error: boolean, words: string) => {
    setSaid((s) => ({ error, text: words, n: (s?.n ?? 0) + 1 }));
    if (error) refusalCue();
  };

  /** One scan: its serial to `onScan`, and what came of it said. True when the dialog closes. */
  const handle = async (code: string): Promise<boolean> => {
    const parsed = serialFromCode(code);
    if ("error" in parsed) {
      say(true, parsed.error);
      return false;
    }
    try {
      const reply = await onScan(parsed.serial);
      if (reply && "error" in reply) say(true, reply.error);
      else if (!keepOpen) {
        onClose();
        return true;
      } else say(false, reply?.ok ?? `${parsed.serial} scanned.`);
    } catch (e) {
      say(true, e instanceof ApiError ? e.detail : "The scan could not be used.");
    }
    return false;
  };

  /** Takes a scan in turn: the ones before it are handled first, each once. */
  const take = async (code: string) => {
    waiting.current.push(code);
    if (working.current) return;
    working.current = true;
    try {
      while (waiting.current.length && !closed.current) {
        if (await handle(waiting.current.shift()!)) waiting.current = [];
      }
    } finally {
      working.current = false;
      if (!closed.current) input.current?.focus();
    }
  };
  const fromCamera = (code: string) => {
    const now = Date.now();
    if (working.current || (code === last.current.code && now - last.current.at < REPEAT_MS)) return;
    last.current = { code, at: now };
    void take(code);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The dialog may sit inside another form (the batch form): its submit must not reach that one.
    e.stopPropagation();
    readyCue();
    const code = input.current?.value ?? text;
    setText("");
    if (code.trim()) void take(code);
  };

  // Two live regions, both always there: a refusal is an alert, what a scan did a status. The keyed span is
  // new text at every scan, so the same refusal twice is announced twice.
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
            aria-describedby={`${id}-status ${id}-alert`}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <div className="scan-said">
          <p id={`${id}-status`} role="status" className="field-note">
            {said && !said.error && <span key={said.n}>{said.text}</span>}
          </p>
          <p id={`${id}-alert`} role="alert" className="field-error">
            {said?.error && <span key={said.n}>{said.text}</span>}
          </p>
        </div>
        {camera && <CameraView onCode={fromCamera} />}
        <div className="dialog-actions">
          <Button className="btn" onPress={() => setCamera((on) => !on)}>
            <Icon name="camera" size={18} />
            {camera ? "Stop camera" : "Use camera"}
          </Button>
          <span className="spacer" />
          <Button className="btn" onPress={onClose}>{keepOpen ? "Done" : "Cancel"}</Button>
          <Button type="submit" className="btn btn-primary" isDisabled={!text.trim()}>
            {keepOpen ? "Add" : "Open"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
