// A product's options and each variant's option values, as Shopify takes them (a product without variants, or whose
// variants carry no attributes, has the one default option).
import type { PimProductSnapshot } from '../port/pim-product.js';

/** The option and value Shopify gives a product without variants. */
export const DEFAULT_OPTION = 'Title';
export const DEFAULT_VALUE = 'Default Title';

/** Options in order of first appearance over the variants, values in order of first appearance. */
export function productOptions(product: PimProductSnapshot): { name: string; values: string[] }[] {
  if (product.variants.length === 0) return [{ name: DEFAULT_OPTION, values: [DEFAULT_VALUE] }];
  const options = new Map<string, string[]>();
  for (const v of sortedVariants(product)) {
    for (const a of v.attributes) {
      const values = options.get(a.attribute_name) ?? [];
      // Shopify compares option values without case ("S" and "s" are one value): the first spelling is kept.
      if (!values.some((x) => sameValue(x, a.value))) values.push(a.value);
      options.set(a.attribute_name, values);
    }
  }
  if (options.size === 0) {
    // Variants that carry no attributes differ by name: one "Title" option whose values are the variant names.
    const values: string[] = [];
    for (const t of sortedVariants(product).map(variantTitle)) if (!values.some((x) => sameValue(x, t))) values.push(t);
    return [{ name: DEFAULT_OPTION, values }];
  }
  return [...options].map(([name, values]) => ({ name, values }));
}

/** Option values as Shopify compares them: trimmed, case-insensitive. */
export function sameValue(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function variantTitle(v: PimProductSnapshot['variants'][number]): string {
  return v.name?.trim() || v.sku;
}

export function sortedVariants(product: PimProductSnapshot): PimProductSnapshot['variants'] {
  return [...product.variants].sort((a, b) => a.position - b.position || a.id - b.id);
}

/** The option values of one variant, in option order (an attribute it lacks is left out; pre-flight reports it). */
export function variantOptionValues(
  product: PimProductSnapshot,
  v: PimProductSnapshot['variants'][number],
  options = productOptions(product),
): { optionName: string; name: string }[] {
  if (options.length === 1 && options[0].name === DEFAULT_OPTION && !v.attributes.some((a) => a.attribute_name === DEFAULT_OPTION)) {
    const title = variantTitle(v);
    return [{ optionName: DEFAULT_OPTION, name: options[0].values.find((x) => sameValue(x, title)) ?? title }];
  }
  const out: { optionName: string; name: string }[] = [];
  for (const o of options) {
    const a = v.attributes.find((x) => x.attribute_name === o.name);
    if (a) out.push({ optionName: o.name, name: o.values.find((x) => sameValue(x, a.value)) ?? a.value });
  }
  return out;
}
