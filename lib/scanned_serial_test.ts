import assert from "node:assert/strict";
import { MAX_SERIAL, serialPath, serialUrl } from "./serial_code.ts";
import { serialFromCode } from "./scanned_serial.ts";

Deno.test("serial code - a label's URL, of any host, gives its serial; other text is the serial", () => {
  assert.equal(serialUrl("https://acme.test", "SN 1/2"), "https://acme.test/serials/SN%201%2F2");
  assert.equal(serialPath("SN 1/2"), "/serials/SN%201%2F2");
  assert.deepEqual(serialFromCode("https://acme.test/serials/SN%201%2F2"), { serial: "SN 1/2" });
  assert.deepEqual(serialFromCode("http://old.example:8080/serials/ab-7?x=1"), { serial: "ab-7" });
  assert.deepEqual(serialFromCode("  SN-1001\r\n"), { serial: "SN-1001" });
  assert.deepEqual(serialFromCode("SN-1001\t"), { serial: "SN-1001" });
});

Deno.test("serial code - blank, foreign, too long or control-character codes say why they are not serials", () => {
  const error = (code: string) => {
    const r = serialFromCode(code);
    assert.ok("error" in r, code);
    return r.error;
  };
  assert.match(error("  "), /Scan a label or type a serial number/);
  assert.match(error("https://example.com/menu"), /not a serial number label/);
  assert.match(error("https://acme.test/serials/"), /not a serial number label/);
  assert.match(error("https://acme.test/serials/%E0%A4%A"), /not a serial number label/);
  assert.match(error("x".repeat(MAX_SERIAL + 1)), /at most 200 characters/);
  assert.match(error("SN\u00071"), /characters a serial number cannot have/);
});
