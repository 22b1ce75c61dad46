/**
 * A serial's page and what a QR label encodes (issue 13): `<origin>/serials/<serial>`, so any phone
 * camera opens it (decision 025), at the scheme and host the tenant is reached at (decision 047). Pure and small: the tables' serial links load it with the page; reading a
 * scan back is lib/scanned_serial.ts.
 */

/** The longest serial number the app stores (the inventory and inspection schemas' bound). */
export const MAX_SERIAL = 200;

/** Where serial pages live. */
export const SERIAL_PREFIX = "/serials/";

/** The serial's page, as a link inside the app. */
export const serialPath = (serial: string): string => `${SERIAL_PREFIX}${encodeURIComponent(serial)}`;

/** What a label's QR code encodes for a serial printed by the tenant reached at `origin` (`https://host`). */
export const serialUrl = (origin: string, serial: string): string => `${origin}${serialPath(serial)}`;
