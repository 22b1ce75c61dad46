import assert from "node:assert/strict";
import { PUBLIC_BASE_URL_MESSAGE, publicBaseUrlOf, publicBaseUrlProblem } from "./public_base_url.ts";

Deno.test("public base url - an http(s) origin is used as the origin; anything else is refused and unused", () => {
  const good: [string, string][] = [
    ["https://pt.example.com", "https://pt.example.com"],
    ["https://PT.example.com/", "https://pt.example.com"],
    [" http://10.0.0.5:8000 ", "http://10.0.0.5:8000"],
    ["https://pt.example.com:443", "https://pt.example.com"],
    ["HTTPS://[::1]:8443", "https://[::1]:8443"],
  ];
  for (const [value, origin] of good) {
    assert.equal(publicBaseUrlOf({ publicBaseUrl: value }), origin, value);
    assert.equal(publicBaseUrlProblem({ publicBaseUrl: value }), null, value);
  }
  const bad = [
    "pt.example.com",
    "//pt.example.com",
    "ftp://pt.example.com",
    "javascript:alert(1)",
    "https://pt.example.com/app",
    "https://pt.example.com/?x=1",
    "https://pt.example.com/#top",
    "https://user:pass@pt.example.com",
    "https://",
    `https://${"a".repeat(300)}.com`,
    true,
    42,
    ["https://pt.example.com"],
  ];
  for (const value of bad) {
    assert.equal(publicBaseUrlOf({ publicBaseUrl: value }), null, String(value));
    assert.deepEqual(
      publicBaseUrlProblem({ publicBaseUrl: value }),
      ["settings.publicBaseUrl", PUBLIC_BASE_URL_MESSAGE],
      String(value),
    );
  }
  for (const settings of [{}, { publicBaseUrl: null }, { publicBaseUrl: "" }, null, undefined]) {
    assert.equal(publicBaseUrlOf(settings), null);
    assert.equal(publicBaseUrlProblem(settings), null);
  }
});
