// Shopify's global ids (`gid://shopify/{Type}/{n}`) as the sandbox reads them.

/** 12 as a `Product` → `gid://shopify/Product/12`. */
export const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;

/** `gid://shopify/Product/12` → 12 (null for another type or a malformed id). */
export function gidNumber(gid: unknown, type: string): number | null {
  if (typeof gid !== 'string') return null;
  const m = new RegExp(`^gid://shopify/${type}/(\\d{1,15})$`).exec(gid);
  return m ? Number(m[1]) : null;
}

/** Two media ids name the same media (`gid://shopify/MediaImage/7` and `gid://shopify/Media/7` alike). */
export function sameMediaId(a: string, b: string): boolean {
  const n = (x: string) => gidNumber(x, 'MediaImage') ?? gidNumber(x, 'Media');
  return n(a) !== null && n(a) === n(b);
}
