export interface TaxSearch {
  search_name?: string;
  search_state?: string;
  search_county?: string;
  search_city?: string;
}

const SEP = " | ";

/**
 * The search box's text as the API's filters (spec): 'State | County | City' searches those fields,
 * anything else searches name, state, county and city at once.
 */
export function splitTaxSearch(text: string | undefined): TaxSearch {
  const t = (text ?? "").trim();
  // Padded, so 'TX |' (the trailing space trimmed away) still counts as a split.
  const padded = ` ${t} `;
  if (!padded.includes(SEP)) return t ? { search_name: t } : {};
  const [state, county, city] = padded.split(SEP).map((s) => s.trim());
  return {
    ...(state ? { search_state: state } : {}),
    ...(county ? { search_county: county } : {}),
    ...(city ? { search_city: city } : {}),
  };
}

/** The search box's text for filters in force (the inverse of splitTaxSearch). */
export function joinTaxSearch(q: TaxSearch): string {
  if (q.search_name) return q.search_name;
  const parts = [q.search_state ?? "", q.search_county ?? "", q.search_city ?? ""];
  while (parts.length && !parts[parts.length - 1]) parts.pop();
  return parts.join(SEP);
}
