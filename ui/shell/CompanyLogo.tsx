import { companyLogoSource, logoHeight } from "../../lib/company_logo.ts";

/** The company's logo from its settings (lib/company_logo.ts: `logoSVG`, then `companyLogo`, the rule the PDFs
 * follow too), at `logoSVGHeight` (default 75) but no taller than `fit` (the top bar's 56 px unless a page
 * gives more room). SVG markup is shown as an image, so markup in settings can never run script; a PNG or
 * JPEG kept in `logoSVG` is shown as itself. */
export function CompanyLogo({ settings, name, fit = 56 }: {
  settings: Record<string, unknown>;
  name: string;
  fit?: number;
}) {
  const height = logoHeight(settings);
  const src = companyLogoSource(settings)?.src;
  if (!src) return <span className="company-name" title={name}>{name}</span>;
  return (
    <img
      className="company-logo"
      src={src}
      alt={name}
      style={{ height: Math.min(height, fit), maxHeight: height }}
    />
  );
}
