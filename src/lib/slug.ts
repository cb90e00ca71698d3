// Product slugs. A slug is the product's Shopify handle, exactly (docs/shopify-fidelity.md), so it takes what a handle
// takes: "A handle can contain letters, hyphens (`-`), and numbers, but no spaces" (ProductSetInput.handle, Admin
// GraphQL 2026-10, https://shopify.dev/docs/api/admin-graphql/latest/input-objects/ProductSetInput), letters of every
// script since Shopify moved handles to UTF-8 (https://shopify.dev/changelog/certain-properties-are-changing-to-support-a-full-utf-8-character-set),
// and always lower case ("Handles are automatically generated based on the product's title, and are always lowercase",
// https://shopify.dev/docs/api/admin-graphql/2025-10/queries/productByHandle).

/**
 * What a slug is made of: lower-case letters of any script (letters without case, such as CJK, count as lower case),
 * the marks that belong to them, and digits. The product schema's `slug` pattern accepts exactly runs of these joined
 * by single hyphens.
 */
const SLUG_CHAR = '\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}\\p{N}';
const NOT_SLUG = new RegExp(`[^${SLUG_CHAR}]+`, 'gu');
/** Whether a string is a slug: runs of slug characters joined by single hyphens. */
export const SLUG = new RegExp(`^[${SLUG_CHAR}]+(-[${SLUG_CHAR}]+)*$`, 'u');
/** A generated slug's length in characters, leaving room for the `-N` firstFreeSlug adds under the schema's 255. */
export const GENERATED_SLUG_MAX = 200;

/**
 * A slug from a name: lower-cased, letters of every script kept as they are (NFC), anything else one hyphen between
 * words. Compatibility forms fold to their plain letters first (NFKC: full-width `Ｔ` → `t`, `ﬁ` → `fi`).
 */
export function slugify(text: string): string {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFC')
    .replace(NOT_SLUG, '-')
    .replace(/^-+|-+$/g, '');
  // Cut by code points (the schema's maxLength counts them), never inside a surrogate pair.
  const slug = Array.from(words).slice(0, GENERATED_SLUG_MAX).join('').replace(/-+$/g, '');
  return slug || 'product';
}

/** The first of `base`, `base-2`, `base-3`, … not in `taken`. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
