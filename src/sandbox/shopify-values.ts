// Values the sandbox derives or normalises as Shopify does: a handle from a title, a media's file name from its source,
// Money with two decimals at least.

/** Shopify's handle from a title: lower case, runs of anything but letters and digits become one dash. */
export function handleize(title: string): string {
  const h = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return h.slice(0, 255) || 'product';
}

/** The last path segment of a source URL (`https://x/a/b.jpg?v=1` → `b.jpg`), or `file` when it has none. */
export function sourceFilename(source: string): string {
  try {
    const last = decodeURIComponent(new URL(source).pathname.split('/').pop() ?? '');
    return last.replace(/[^\w.-]+/g, '_').slice(0, 255) || 'file';
  } catch {
    return 'file';
  }
}

/** Shopify answers Money with two decimals at least (`10` → `10.00`, `9.5` → `9.50`, `1.2345` kept). */
export function formatMoney(value: string): string {
  const [int, frac = ''] = value.split('.');
  return `${int}.${frac.padEnd(2, '0')}`;
}
