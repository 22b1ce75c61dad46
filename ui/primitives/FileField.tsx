import { useId, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Icon } from "../components/icons.tsx";

/** A chosen file, read into memory: the JSON upload sends `url` (a data URL). */
export interface ChosenFile {
  name: string;
  type: string;
  size: number;
  url: string;
}

/**
 * Whether a chosen file is a PDF by its first bytes (the `%PDF-` signature), as the server checks: a text
 * file named `fake.pdf` is not one.
 */
export function isPdf(file: ChosenFile): boolean {
  try {
    const start = file.url.indexOf(",") + 1;
    const head = atob(file.url.slice(start, start + 8));
    return head.startsWith("%PDF-");
  } catch {
    return false;
  }
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}

/**
 * A labelled file input (PDF by default) showing the chosen file's name, with a button to clear it.
 * The native input stays in the page (keyboard, screen readers, drag and drop onto it); its button is
 * drawn by the label so it matches the other buttons.
 */
export function FileField({ label, value, onChange, accept = "application/pdf", error, isDisabled }: {
  label: string;
  value: ChosenFile | null;
  onChange: (f: ChosenFile | null) => void;
  accept?: string;
  error?: string;
  isDisabled?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState("");

  const choose = async (file: File | undefined) => {
    setReadError("");
    if (!file) return onChange(null);
    setReading(true);
    try {
      onChange({ name: file.name, type: file.type, size: file.size, url: await readAsDataUrl(file) });
    } catch (e) {
      setReadError((e as Error).message);
      onChange(null);
    } finally {
      setReading(false);
    }
  };
  const message = error || readError;

  return (
    <div className={`field file-field${message ? " is-invalid" : ""}`}>
      <span id={`${id}-label`}>{label}</span>
      <div className="file-control">
        <input
          ref={input}
          id={`${id}-input`}
          className="file-input"
          type="file"
          accept={accept}
          disabled={isDisabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-name${message ? ` ${id}-error` : ""}`}
          aria-invalid={message ? true : undefined}
          onChange={(e) => choose(e.target.files?.[0])}
        />
        <label className="btn" htmlFor={`${id}-input`} aria-hidden="true">
          <Icon name="pdf" size={20} />Choose file
        </label>
        <span className="file-name" id={`${id}-name`}>
          {reading ? "Reading..." : value ? value.name : "No file chosen"}
        </span>
        {value && (
          <Button
            className="icon-btn"
            aria-label={`Remove ${value.name}`}
            isDisabled={isDisabled}
            onPress={() => {
              if (input.current) input.current.value = "";
              onChange(null);
            }}
          >
            <Icon name="close" size={18} />
          </Button>
        )}
      </div>
      {message && <span className="field-error" id={`${id}-error`}>{message}</span>}
    </div>
  );
}
