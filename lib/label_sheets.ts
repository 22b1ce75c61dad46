/**
 * The label stock a QR label PDF is laid out for (issue 13), in PDF points (1/72 inch). Each sheet is a
 * grid of `columns` x `rows` labels of `label` size, the first one's top-left corner at (`left`, `top`),
 * the next one `pitch` further. Pure: the server lays out the PDF and the dialog offers the names.
 */
export interface LabelSheet {
  name: string;
  page: [width: number, height: number];
  columns: number;
  rows: number;
  label: [width: number, height: number];
  left: number;
  top: number;
  pitch: [x: number, y: number];
}

const INCH = 72;
const MM = 72 / 25.4;

export const LABEL_SHEETS = {
  // Avery 5160 / 8160: US Letter, 2-5/8" x 1", 3 across, 10 down.
  "avery-5160": {
    name: "Avery 5160 (30 per Letter sheet, 2.625 x 1 in)",
    page: [8.5 * INCH, 11 * INCH],
    columns: 3,
    rows: 10,
    label: [2.625 * INCH, 1 * INCH],
    left: 0.1875 * INCH,
    top: 0.5 * INCH,
    pitch: [2.75 * INCH, 1 * INCH],
  },
  // Avery L7160: A4, 63.5 x 38.1 mm, 3 across, 7 down.
  "avery-l7160": {
    name: "Avery L7160 (21 per A4 sheet, 63.5 x 38.1 mm)",
    page: [210 * MM, 297 * MM],
    columns: 3,
    rows: 7,
    label: [63.5 * MM, 38.1 * MM],
    left: 7.2 * MM,
    top: 15.15 * MM,
    pitch: [66 * MM, 38.1 * MM],
  },
  // A thermal label printer's roll: each label is its own page.
  "thermal-2x1": {
    name: "Thermal 2 x 1 in (one label per page)",
    page: [2 * INCH, 1 * INCH],
    columns: 1,
    rows: 1,
    label: [2 * INCH, 1 * INCH],
    left: 0,
    top: 0,
    pitch: [2 * INCH, 1 * INCH],
  },
} as const satisfies Record<string, LabelSheet>;

export type LabelSheetId = keyof typeof LABEL_SHEETS;
export const LABEL_SHEET_IDS = Object.keys(LABEL_SHEETS) as [LabelSheetId, ...LabelSheetId[]];
export const DEFAULT_LABEL_SHEET: LabelSheetId = "avery-5160";

/** The most labels one PDF holds (34 Letter sheets of Avery 5160). */
export const MAX_LABELS = 1000;
