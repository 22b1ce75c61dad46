import { renderQrLabels } from "../api/lib/qr_labels.ts";
const labels = [{
  serial: "A-VERY-LONG-SERIAL-NUMBER-THAT-WRAPS-1234567890",
  item: "ITEM-NUMBER-LONG-999999",
}, { serial: "SN-1", item: "" }];
for (const id of ["avery-l7160", "thermal-2x1"] as const) {
  Deno.writeFileSync(`/tmp/qr/${id}.pdf`, await renderQrLabels(labels, id, "acme.example.com"));
}
