// The shop's variants an adoption found that the PIM product lacks: sent back beside the PIM's where they fit, the push
// refused where they do not (productSet deletes the variants it is not sent).
import type { KnownStorefrontProduct, MerchantVariant } from '../port/known-product.js';
import { sameValue } from './product-options.js';
import type { VariantInput } from './product-set-input.js';

const skuKey = (sku: string | null | undefined) => (sku ?? '').trim().toLowerCase();

/** The merchant's variant (KnownStorefrontProduct.merchantVariants) with this SKU, compared as the adoption compares them. */
export function merchantVariantOfSku(known: KnownStorefrontProduct, sku: string): MerchantVariant | undefined {
  const key = skuKey(sku);
  return key ? known.merchantVariants?.find((m) => skuKey(m.sku) === key) : undefined;
}

/** A merchant's variant as a warning or an error names it: its SKU and option values. */
function variantLabel(m: MerchantVariant): string {
  const options = m.options.map((o) => `${o.name}: ${o.value}`).join(', ');
  return `${m.sku ? `'${m.sku}'` : m.id}${options ? ` (${options})` : ''}`;
}

const listed = (all: MerchantVariant[]) => {
  const shown = all.slice(0, 10).map(variantLabel).join(', ');
  return all.length > 10 ? `${shown} and ${all.length - 10} more` : shown;
};

export function keptVariantsWarning(kept: MerchantVariant[]): string {
  return `variants: the shop's ${kept.length === 1 ? 'variant' : `${kept.length} variants`} ${listed(kept)}, which the PIM product does not have, ${kept.length === 1 ? 'was' : 'were'} kept as ${kept.length === 1 ? 'it is' : 'they are'}: add ${kept.length === 1 ? 'it' : 'them'} to the PIM product (same SKU) to sync ${kept.length === 1 ? 'it' : 'them'} from there, or delete ${kept.length === 1 ? 'it' : 'them'} in Shopify`;
}

/**
 * The shop's variants an adoption found that the PIM product does not have (known.merchantVariants). productSet deletes
 * the variants it is not sent, so those that fit beside the PIM's (the same option names, a combination of values of
 * their own) are sent back by id with their option values only (the rest stays as it is: "Any omitted fields will
 * remain unchanged", Mutation.productSet), their values added to the options. One that does not fit (other options,
 * e.g. the PIM product has no variants, or the combination of a PIM variant) cannot be kept: the product is refused,
 * naming it, rather than losing a sellable variant without a word. A variant a PIM variant took over (its SKU) is gone
 * from the list.
 */
export function keepMerchantVariants(
  known: KnownStorefrontProduct,
  pim: VariantInput[],
  options: { name: string; values: string[] }[],
): { kept: MerchantVariant[]; inputs: VariantInput[]; refused: string[] } {
  const out = { kept: [] as MerchantVariant[], inputs: [] as VariantInput[], refused: [] as string[] };
  const candidates = (known.merchantVariants ?? []).filter((m) => !pim.some((v) => v.id === m.id));
  if (candidates.length === 0) return out;
  const norm = (s: string) => s.trim().toLowerCase();
  const combo = (values: { optionName: string; name: string }[]) =>
    values
      .map((o) => `${norm(o.optionName)}\u0000${norm(o.name)}`)
      .sort()
      .join('\u0001');
  const combos = new Set(pim.map((v) => combo(v.optionValues)));
  const names = options.map((o) => norm(o.name)).sort();
  const misfits: MerchantVariant[] = [];
  for (const m of candidates) {
    const fits =
      m.options.length === options.length &&
      m.options
        .map((o) => norm(o.name))
        .sort()
        .every((n, i) => n === names[i]);
    const optionValues = fits
      ? options.map((o) => {
          const value = m.options.find((x) => norm(x.name) === norm(o.name))!.value;
          return { optionName: o.name, name: o.values.find((x) => sameValue(x, value)) ?? value };
        })
      : [];
    if (!fits || combos.has(combo(optionValues))) {
      misfits.push(m);
      continue;
    }
    combos.add(combo(optionValues));
    for (const v of optionValues) {
      const option = options.find((o) => o.name === v.optionName)!;
      if (!option.values.some((x) => sameValue(x, v.name))) option.values.push(v.name);
    }
    out.kept.push(m);
    out.inputs.push({ id: m.id, optionValues, inventoryItem: {} });
  }
  if (misfits.length > 0) {
    const shape = options.map((o) => o.name).join(', ');
    out.refused.push(
      `variants: the shop's ${misfits.length === 1 ? 'variant' : 'variants'} ${listed(misfits)} ${misfits.length === 1 ? 'is' : 'are'} not in the PIM product and cannot be kept beside its variants (options: ${shape}): a push would delete ${misfits.length === 1 ? 'it' : 'them'}. Add ${misfits.length === 1 ? 'it' : 'them'} to the PIM product (same SKU), or delete ${misfits.length === 1 ? 'it' : 'them'} in Shopify`,
    );
  }
  return out;
}
