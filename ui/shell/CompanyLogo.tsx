/** The company's logo from its settings, at `logoSVGHeight` (default 75) but no taller than `fit` (the
 * top bar's 56 px unless a page gives more room). Inline SVG is shown as an image, so markup in
 * settings can never run script. */
export function CompanyLogo({ settings, name, fit = 56 }: {
  settings: Record<string, unknown>;
  name: string;
  fit?: number;
}) {
  const height = Number(settings?.logoSVGHeight) > 0 ? Math.min(Number(settings.logoSVGHeight), 200) : 75;
  const svg = typeof settings?.logoSVG === "string" ? settings.logoSVG : undefined;
  const url = typeof settings?.companyLogo === "string" ? settings.companyLogo : undefined;
  const src = svg
    ? `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(svg)))}`
    : url && /^(https?:\/\/|\/|data:image\/)/.test(url)
    ? url
    : undefined;
  if (!src) return <span className="company-name">{name}</span>;
  return (
    <img
      className="company-logo"
      src={src}
      alt={name}
      style={{ height: Math.min(height, fit), maxHeight: height }}
    />
  );
}
