// Requests for the inspection photo and signature tests (API and browser).
import assert from "node:assert/strict";
import type { TestEnv } from "../../../scripts/testing/harness.ts";

/** POST a photo as the browser does: multipart `file` (and `caption` when given). */
export function sendPhoto(
  env: TestEnv,
  token: string,
  id: number,
  part: File | string | null,
  caption?: string,
  host = env.host,
): Promise<Response> {
  const form = new FormData();
  if (part !== null) form.set("file", part);
  if (caption !== undefined) form.set("caption", caption);
  return Promise.resolve(env.app.request(`http://${host}/api/pt/inspections/${id}/photos`, {
    method: "POST",
    headers: { host, authorization: `Bearer ${token}` },
    body: form,
  }));
}

export const imageFile = (bytes: Uint8Array, name = "photo.jpg", type = "image/jpeg") =>
  new File([bytes as BlobPart], name, { type });

// deno-lint-ignore no-explicit-any
export async function answer(res: Response, status: number): Promise<any> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text);
}
