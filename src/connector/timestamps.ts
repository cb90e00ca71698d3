// The connector's two timestamp formats, both UTC: `Y-m-d H:i:s` for the enveloped endpoints and ISO 8601 with an
// explicit offset (PHP's `c`, e.g. 2026-11-23T10:00:00+00:00) for the raw status endpoints. null stays null.
type Instant = Date | string | null | undefined;

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** `2026-11-23 10:00:00` (UTC). */
export function ymdHis(value: Instant): string | null {
  if (value === null || value === undefined) return null;
  return toDate(value).toISOString().slice(0, 19).replace('T', ' ');
}

/** `2026-11-23T10:00:00+00:00`. */
export function iso8601(value: Instant): string | null {
  if (value === null || value === undefined) return null;
  return `${toDate(value).toISOString().slice(0, 19)}+00:00`;
}
