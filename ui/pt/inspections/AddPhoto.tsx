import { useId, useRef, useState } from "react";
import { TextField } from "../../primitives/TextField.tsx";
import { Icon } from "../../components/icons.tsx";
import { sendWithProgress } from "../../components/batch_send.ts";
import { ApiError } from "../../lib/api.ts";
import { showSnack } from "../../lib/events.ts";
import { resizeImage } from "../../lib/image_resize.ts";
import {
  CAPTION_FIELD,
  IMAGE_FIELD,
  type InspectionMedia,
  MAX_PHOTO_BYTES,
  MAX_PHOTO_SIDE,
  MAX_PHOTOS,
  PhotoCaption,
} from "../../../api/pt/inspections/photo_schemas.ts";

type Progress = { label: string; percent: number | null };

/**
 * "Add photo": the camera on a phone (`capture`), a file chooser elsewhere. The picture is shrunk to
 * MAX_PHOTO_SIDE px as a JPEG in the browser, then uploaded with the caption typed above it, with
 * progress; a picture that cannot be read or saved says why under the button.
 */
export function AddPhoto({ inspectionId, count, onAdded }: {
  inspectionId: number;
  count: number;
  onAdded: (media: InspectionMedia) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [caption, setCaption] = useState("");
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState("");
  const check = PhotoCaption.safeParse(caption);
  const captionError = check.success ? undefined : check.error.issues[0].message;
  const full = count >= MAX_PHOTOS;
  const disabled = !!progress || full || !!captionError;

  const add = async (file: File | undefined) => {
    if (!file || !check.success) return;
    setError("");
    setProgress({ label: "Preparing the photo...", percent: null });
    try {
      const photo = await resizeImage(file, { maxSide: MAX_PHOTO_SIDE, maxBytes: MAX_PHOTO_BYTES });
      const form = new FormData();
      form.set(IMAGE_FIELD, photo, "photo.jpg");
      form.set(CAPTION_FIELD, check.data);
      const label = "Uploading the photo...";
      const media = await sendWithProgress<InspectionMedia>(
        `/api/pt/inspections/${inspectionId}/photos`,
        form,
        (percent) => setProgress({ label: percent === null ? "Saving..." : label, percent }),
      );
      setCaption("");
      onAdded(media);
      showSnack("success", media.message ?? "Photo added");
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <div className="add-photo">
      <TextField label="Caption (optional)" value={caption} onChange={setCaption} error={captionError} />
      <div className="file-control">
        <input
          ref={input}
          id={id}
          className="file-input"
          type="file"
          accept="image/*"
          capture="environment"
          aria-label="Add photo"
          aria-describedby={`${id}-note`}
          disabled={disabled}
          onChange={(e) => add(e.target.files?.[0])}
        />
        <label
          className="btn btn-primary"
          htmlFor={id}
          aria-hidden="true"
          data-disabled={disabled || undefined}
        >
          <Icon name="camera" size={20} />Add photo
        </label>
        <span id={`${id}-note`} className="field-note">
          {full
            ? `An inspection holds at most ${MAX_PHOTOS} photos.`
            : "Large pictures are made smaller first."}
        </span>
      </div>
      {progress && (
        <div className="batch-progress">
          <progress max={100} value={progress.percent ?? undefined} aria-label={progress.label} />
          <span aria-live="polite">{progress.label}</span>
          {progress.percent !== null && <span aria-hidden="true">{progress.percent}%</span>}
        </div>
      )}
      {error && <p className="alert alert-error" role="alert">{error}</p>}
    </div>
  );
}
