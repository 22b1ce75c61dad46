import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { Icon } from "../../components/icons.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { showError, showSnack } from "../../lib/events.ts";
import {
  type InspectionMedia,
  MAX_PHOTOS,
  type PhotoOut,
} from "../../../api/pt/inspections/photo_schemas.ts";
import { AddPhoto } from "./AddPhoto.tsx";
import { SignatureSection } from "./SignatureSection.tsx";

/** One photo with its caption; editors remove it after a second, explicit press. */
function Photo({ photo, n, canEdit, onRemove }: {
  photo: PhotoOut;
  n: number;
  canEdit: boolean;
  onRemove: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const name = `photo ${n}`;
  return (
    <li className="photo">
      <a href={photo.url} target="_blank" rel="noopener">
        <img
          src={photo.url}
          alt={photo.caption || `Photo ${n}`}
          width={photo.width}
          height={photo.height}
          loading="lazy"
        />
      </a>
      <span className="photo-caption">{n}. {photo.caption}</span>
      {canEdit && !confirming && (
        <Button
          className="icon-btn icon-btn-danger"
          aria-label={`Remove ${name}`}
          onPress={() => setConfirming(true)}
        >
          <Icon name="delete" size={20} />
        </Button>
      )}
      {confirming && (
        <span className="photo-confirm" role="group" aria-label={`Remove ${name}?`}>
          <Button
            className="btn btn-danger"
            autoFocus
            isDisabled={busy}
            onPress={async () => {
              setBusy(true);
              await onRemove().finally(() => setBusy(false));
            }}
          >
            Remove
          </Button>
          <Button className="btn" onPress={() => setConfirming(false)} isDisabled={busy}>Keep</Button>
        </span>
      )}
    </li>
  );
}

/**
 * An inspection's photos and signature (max width 800): everyone who sees the inspection sees them;
 * job-admins add and remove photos and sign. Loaded when opened, with the dialog's code (decision 022).
 */
export function PhotosDialog({ inspection, canEdit, onClose }: {
  inspection: { id: number; serial_number: string };
  canEdit: boolean;
  onClose: () => void;
}) {
  const [media, setMedia] = useState<InspectionMedia | null>(null);
  const [loadError, setLoadError] = useState("");
  const path = `/api/pt/inspections/${inspection.id}/photos`;
  useEffect(() => {
    const abort = new AbortController();
    api<InspectionMedia>(path, { signal: abort.signal }).then(setMedia).catch((e) => {
      if (e instanceof ApiError) setLoadError(e.detail);
    });
    return () => abort.abort();
  }, [path]);

  const remove = (photo: PhotoOut) => async () => {
    try {
      const next = await api<InspectionMedia>(`${path}/${photo.id}`, { method: "DELETE" });
      setMedia(next);
      showSnack("success", next.message ?? "Photo removed");
    } catch (e) {
      showError(e);
    }
  };
  const photos = media?.photos ?? [];

  return (
    <Dialog
      title={`Photos and signature: ${inspection.serial_number || `#${inspection.id}`}`}
      isOpen
      onClose={onClose}
      width={800}
    >
      {!media && !loadError && <p role="status" className="field-note">Loading photos...</p>}
      {loadError && <p className="alert alert-error" role="alert">{loadError}</p>}
      {media && (
        <>
          <section className="media-section" aria-labelledby="photos-heading">
            <h3 id="photos-heading">Photos ({photos.length} of {MAX_PHOTOS})</h3>
            {photos.length
              ? (
                <ul className="photo-grid">
                  {photos.map((p, i) => (
                    <Photo key={p.id} photo={p} n={i + 1} canEdit={canEdit} onRemove={remove(p)} />
                  ))}
                </ul>
              )
              : <p className="field-note">No photos yet.</p>}
            {canEdit && <AddPhoto inspectionId={inspection.id} count={photos.length} onAdded={setMedia} />}
          </section>
          <SignatureSection
            inspectionId={inspection.id}
            signature={media.signature}
            canEdit={canEdit}
            onChange={setMedia}
          />
        </>
      )}
      <div className="dialog-actions">
        <Button className="btn" onPress={onClose}>Close</Button>
      </div>
    </Dialog>
  );
}
