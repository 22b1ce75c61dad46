import assert from "node:assert/strict";
import { companyLogoSource, logoHeight } from "./company_logo.ts";

const PNG_B64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

Deno.test("company logo - logoSVG holding a PNG is shown as the PNG, not wrapped as SVG (the broken image)", () => {
  for (const value of [`data:image/png;base64,${PNG_B64}`, PNG_B64]) {
    const logo = companyLogoSource({ logoSVG: value })!;
    assert.equal(logo.kind, "png");
    assert.equal(logo.src, `data:image/png;base64,${PNG_B64}`);
    assert.equal(logo.setting, "logoSVG");
  }
});

Deno.test("company logo - SVG markup, an SVG data URL or its base64 are SVG; one rule picks the setting", () => {
  const markup = companyLogoSource({ logoSVG: `  ${SVG}` })!;
  assert.equal(markup.kind, "svg");
  assert.equal(markup.data, SVG);
  assert.ok(markup.src.startsWith("data:image/svg+xml;base64,"));
  assert.equal(atob(markup.src.split(",")[1]), SVG);
  assert.equal(companyLogoSource({ logoSVG: `data:image/svg+xml;base64,${btoa(SVG)}` })!.data, SVG);
  assert.equal(companyLogoSource({ logoSVG: `data:image/svg+xml,${encodeURIComponent(SVG)}` })!.data, SVG);
  assert.equal(companyLogoSource({ logoSVG: btoa(SVG) })!.kind, "svg");
  // logoSVG first (what the screen always showed), then companyLogo, then the sales app's own.
  const png = `data:image/png;base64,${PNG_B64}`;
  assert.equal(companyLogoSource({ logoSVG: SVG, companyLogo: png })!.setting, "logoSVG");
  assert.equal(companyLogoSource({ logoSVG: "", companyLogo: png })!.setting, "companyLogo");
  assert.equal(companyLogoSource({ Sales: { companyLogo: png } })!.setting, "Sales.companyLogo");
  assert.equal(companyLogoSource({ companyLogo: "https://example.com/logo.png" })!.kind, "link");
});

Deno.test("company logo - no logo: blanks, other types, script links; the height from logoSVGHeight", () => {
  for (
    const logoSVG of [
      undefined,
      "",
      "   ",
      42,
      "javascript:alert(1)",
      "just some words",
      "data:text/html,<b>",
    ]
  ) {
    assert.equal(companyLogoSource({ logoSVG }), undefined, String(logoSVG));
  }
  assert.equal(companyLogoSource(null), undefined);
  assert.equal(logoHeight({}), 75);
  assert.equal(logoHeight({ logoSVGHeight: 40 }), 40);
  assert.equal(logoHeight({ logoSVGHeight: "120" }), 120);
  assert.equal(logoHeight({ logoSVGHeight: 5000 }), 200);
  assert.equal(logoHeight({ logoSVGHeight: -3 }), 75);
});
