// The variants an option matrix asks for: every combination of the options' values (Size S, M, L × Colour Navy, Oat),
// in order (the first option varies slowest, as Shopify's admin lists them), less the combinations the product already
// has. Pure: test/option-matrix.test.ts checks it.

export interface ProductOption {
  name: string;
  values: string[];
}

export type Combination = { attribute_name: string; value: string }[];

/** Shopify's limits on a product: 3 options, 2,048 variants (shopify.dev/docs/api/admin-graphql/latest/input-objects/ProductSetInput). */
export const MAX_OPTIONS = 3;
export const MAX_VARIANTS = 2048;

const fold = (text: string) => text.trim().toLocaleLowerCase();

export function combinations(options: ProductOption[]): Combination[] {
  return options.reduce<Combination[]>(
    (rows, option) => rows.flatMap((row) => option.values.map((value) => [...row, { attribute_name: option.name, value }])),
    [[]],
  );
}

/** The combination's key: its values under the options' names, case and surrounding spaces ignored. */
function keyOf(combination: Combination, names: string[]): string | null {
  const byName = new Map(combination.map((a) => [fold(a.attribute_name), fold(a.value)]));
  const values = names.map((n) => byName.get(fold(n)));
  return values.every((v) => v !== undefined) ? JSON.stringify(values) : null;
}

/** The combinations of `options` that none of `existing` (the variants' attributes) already stands for. */
export function missingCombinations(options: ProductOption[], existing: Combination[]): Combination[] {
  const names = options.map((o) => o.name);
  const have = new Set(existing.map((attributes) => keyOf(attributes, names)));
  have.delete(null); // a variant without every option stands for no combination
  return combinations(options).filter((c) => !have.has(keyOf(c, names)));
}

/** A SKU part of a value: letters and digits upper-cased, anything else a hyphen (`One size` → `ONE-SIZE`). */
const skuPart = (value: string) =>
  value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'X';

/** The SKU the merchant would type: the product's SKU and the values (`TEE-M-NAVY`), at most 64 characters. */
export function combinationSku(productSku: string, combination: Combination): string {
  return [productSku, ...combination.map((a) => skuPart(a.value))].join('-').slice(0, 64).replace(/-+$/, '');
}

/** The variant's name as Shopify's admin shows it: `Tee / M / Navy`, at most 255 characters. */
export function combinationName(productName: string, combination: Combination): string {
  return [productName, ...combination.map((a) => a.value)].join(' / ').slice(0, 255);
}

/** The first of `sku`, `sku-2`, `sku-3`… that `taken` does not hold (compared as the database does: exactly). */
export function freeSku(sku: string, taken: Set<string>): string {
  if (!taken.has(sku)) return sku;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = sku.slice(0, 64 - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
