// The address a tenant's users reach it at (company setting `publicBaseUrl`, docs/company-settings.md,
// decision 047): what a QR label encodes in front of a serial's path. Pure: the settings check on save
// and the label routes read the same answer.

type Settings = Record<string, unknown> | null | undefined;

/** The longest base URL accepted: a scheme, a host name of at most 253 characters and a port. */
const MAX_LENGTH = 300;

export const PUBLIC_BASE_URL_MESSAGE =
  "publicBaseUrl must be the address the app is reached at: http:// or https://, a host name and an " +
  "optional port, no path (for example https://pt.example.com)";

/** The origin (`https://host[:port]`) a base URL names, or null when it is not one. */
function originOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (!text || text.length > MAX_LENGTH || !/^https?:\/\//i.test(text) || !URL.canParse(text)) return null;
  const url = new URL(text);
  if (url.username || url.password || url.search || url.hash || url.pathname !== "/") return null;
  if (text.includes("?") || text.includes("#") || !url.hostname) return null;
  return url.origin;
}

/** The tenant's public origin when `publicBaseUrl` is set to a usable one; else null (use the request's). */
export function publicBaseUrlOf(settings: Settings): string | null {
  return originOf(settings?.publicBaseUrl);
}

/** A saved `publicBaseUrl` that is not an http(s) origin, as [field, sentence]; absent, null or "" is fine. */
export function publicBaseUrlProblem(settings: Settings): [field: string, message: string] | null {
  const value = settings?.publicBaseUrl;
  if (value === undefined || value === null || value === "") return null;
  return originOf(value) ? null : ["settings.publicBaseUrl", PUBLIC_BASE_URL_MESSAGE];
}
