import assert from "node:assert/strict";
import { EncryptJWT } from "jose";
import { SessionSigner } from "./token.ts";

const SECRET = "token-test-secret-token-test-secret-0123";

Deno.test("tokens - the memory of verified tokens is bounded by count and bytes; a long token is never kept", async () => {
  const signer = new SessionSigner(SECRET, 12);
  for (let i = 0; i < 10_050; i++) {
    const token = await signer.sign({ sub: i, tid: 1, ver: 1, sid: crypto.randomUUID() });
    assert.ok(await signer.verify(token));
  }
  const { tokens, bytes } = signer.verifiedLoad;
  assert.equal(tokens, 10_000);
  assert.ok(bytes <= 8 << 20, `${bytes} bytes`);
  const long = await signer.sign({ sub: 1, tid: 1, ver: 1, sid: "x".repeat(3000) });
  assert.ok(await signer.verify(long), "a long token is still checked");
  assert.deepEqual(signer.verifiedLoad, { tokens, bytes }, "but not kept");
});

Deno.test("tokens - a device cookie must carry an expiry, and is one of this server's", async () => {
  const signer = new SessionSigner(SECRET, 12);
  const claims = { tid: 1, email: "someone@acme.test", did: "d1" };
  assert.deepEqual(await signer.verifyDevice(await signer.signDevice(claims)), claims);
  assert.equal(
    await signer.verifyDevice(await new SessionSigner(SECRET + "x", 12).signDevice(claims)),
    undefined,
  );
  // Encrypted with the right key (derived as the signer does), but without `exp`.
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(SECRET), "HKDF", false, [
    "deriveKey",
  ]);
  const key = await crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(),
      info: new TextEncoder().encode("device cookie v2"),
    },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt"],
  );
  const forever = await new EncryptJWT({ typ: "device", ...claims }).setProtectedHeader({
    alg: "dir",
    enc: "A256GCM",
  })
    .setIssuedAt().encrypt(key);
  assert.equal(await signer.verifyDevice(forever), undefined);
  const expiring = await new EncryptJWT({ typ: "device", ...claims })
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" }).setIssuedAt().setExpirationTime("1d").encrypt(key);
  assert.deepEqual(await signer.verifyDevice(expiring), claims, "the same with an expiry is accepted");
});
