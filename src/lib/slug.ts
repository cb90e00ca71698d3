/** URL-safe slug: lower-case ASCII letters and digits joined by single hyphens. */
// Letters that Unicode decomposition does not reduce to ASCII.
const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th', ð: 'd' };

export function slugify(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[ßæœøłđþð]/g, (c) => SPELLED[c])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/g, '');
  return slug || 'product';
}

/** The first of `base`, `base-2`, `base-3`, … not in `taken`. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
