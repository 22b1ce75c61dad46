// The inspections service, one verb per file under service/.
export {
  downloadInspections,
  everyInspection,
  INSPECTION_COLUMNS,
  InspectionListQuery,
  listInspections,
} from "./service/list_inspections.ts";
export { getInspection, type InspectionOut, presentInspection } from "./service/query.ts";
export { deleteInspection, saveInspection } from "./service/save_inspection.ts";
export { type BatchResult, saveBatch } from "./service/save_batch.ts";
export { inspectionReport } from "./service/inspection_report.ts";
export { jobLabels } from "./service/labels.ts";
export { inspectionMedia } from "./service/media.ts";
export { addPhoto, removePhoto } from "./service/photos.ts";
export { removeSignature, saveSignature } from "./service/signature.ts";
