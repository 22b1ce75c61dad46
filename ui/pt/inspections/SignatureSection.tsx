import { useState } from "react";
import { Button } from "react-aria-components";
import { api, ApiError } from "../../lib/api.ts";
import { showSnack } from "../../lib/events.ts";
import { sendWithProgress } from "../../components/batch_send.ts";
import { DateTime } from "../../lib/time_zone.tsx";
import { IMAGE_FIELD, type InspectionMedia } from "../../../api/pt/inspections/photo_schemas.ts";
import { SignaturePad } from "./SignaturePad.tsx";

/**
 * The inspector's signature: the saved one with who signed and when (the company's clock), or the pad
 * to draw it. Editors may sign again (replacing it) or remove it.
 */
export function SignatureSection({ inspectionId, signature, canEdit, onChange }: {
  inspectionId: number;
  signature: InspectionMedia["signature"];
  canEdit: boolean;
  onChange: (media: InspectionMedia) => void;
}) {
  const [signing, setSigning] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const path = `/api/pt/inspections/${inspectionId}/signature`;

  const run = async (call: () => Promise<InspectionMedia>) => {
    setBusy(true);
    setError("");
    try {
      const media = await call();
      setSigning(false);
      onChange(media);
      showSnack("success", media.message ?? "Saved");
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const save = (png: Blob) => {
    const form = new FormData();
    form.set(IMAGE_FIELD, png, "signature.png");
    return run(() => sendWithProgress<InspectionMedia>(path, form, () => {}, "PUT"));
  };
  const remove = () => run(() => api<InspectionMedia>(path, { method: "DELETE" }));

  const showPad = canEdit && (signing || !signature);
  return (
    <section className="media-section" aria-labelledby="signature-heading">
      <h3 id="signature-heading">Inspector's signature</h3>
      {signature && !signing && (
        <figure className="signature-saved">
          <img src={signature.url} alt={`Signature of ${signature.signer_name}`} width={signature.width} />
          <figcaption>
            Signed by <strong>{signature.signer_name}</strong> on{" "}
            <DateTime value={signature.signed_at} place="page" />
          </figcaption>
        </figure>
      )}
      {!signature && !canEdit && <p className="field-note">Not signed.</p>}
      {showPad && (
        <SignaturePad
          busy={busy}
          onSave={save}
          onCancel={signature ? () => setSigning(false) : undefined}
        />
      )}
      {signature && !signing && canEdit && (
        <div className="signature-actions">
          <Button className="btn" onPress={() => setSigning(true)} isDisabled={busy}>Sign again</Button>
          <Button className="btn btn-danger-outline" onPress={remove} isDisabled={busy}>
            Remove signature
          </Button>
        </div>
      )}
      {error && <p className="alert alert-error" role="alert">{error}</p>}
    </section>
  );
}
