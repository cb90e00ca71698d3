// Whether a planned product or variant is what is stored already (then the import writes nothing for it).
import { normaliseDecimal, type SellingFields } from '../../catalogue-csv/draft.js';
import type { ProductSnapshot, VariantSnapshot } from './catalogue-snapshot.js';
import type { TargetProduct, TargetVariant } from './plan-types.js';

export function sameVariant(a: VariantSnapshot, b: Omit<TargetVariant, 'line' | 'outcome' | 'id' | 'skuBase'>): boolean {
  return (
    a.sku === b.sku &&
    a.sku_generated === b.sku_generated &&
    sameSelling(a, b) &&
    a.name === b.name &&
    normaliseDecimal(a.price) === b.price &&
    normaliseDecimal(a.sale_price) === b.sale_price &&
    normaliseDecimal(a.cost) === b.cost &&
    normaliseDecimal(a.weight) === b.weight &&
    a.stock_quantity === b.stock_quantity &&
    a.stock_status === b.stock_status &&
    a.is_enabled === b.is_enabled &&
    a.image === b.image &&
    optionsText(a.attributes) === optionsText(b.attributes)
  );
}

/** Option values compared by content: jsonb hands objects back with its own key order. */
export const optionsText = (options: { attribute_name: string; value: string }[]) => JSON.stringify(options.map((o) => [o.attribute_name, o.value]));

/** The selling fields compared (decimals at 4 places). */
function sameSelling(a: SellingFields, b: SellingFields): boolean {
  return (
    a.barcode === b.barcode &&
    normaliseDecimal(a.compare_at_price) === normaliseDecimal(b.compare_at_price) &&
    a.weight_unit === b.weight_unit &&
    a.inventory_policy === b.inventory_policy &&
    a.inventory_tracked === b.inventory_tracked &&
    a.taxable === b.taxable &&
    a.requires_shipping === b.requires_shipping
  );
}

export function sameProduct(a: ProductSnapshot, b: TargetProduct): boolean {
  return (
    a.sku === b.sku &&
    a.sku_generated === b.sku_generated &&
    sameSelling(a, b) &&
    JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
    a.seo_title === b.seo_title &&
    a.seo_description === b.seo_description &&
    a.gift_card === b.gift_card &&
    a.taxonomy_category === b.taxonomy_category &&
    a.storefront_type === b.storefront_type &&
    normaliseDecimal(a.weight) === b.weight &&
    a.stock_quantity === b.stock_quantity &&
    a.slug === b.slug &&
    a.name === b.name &&
    a.description === b.description &&
    a.short_description === b.short_description &&
    a.product_type === b.product_type &&
    normaliseDecimal(a.price) === b.price &&
    normaliseDecimal(a.sale_price) === b.sale_price &&
    normaliseDecimal(a.cost_price) === b.cost_price &&
    a.currency === b.currency &&
    a.status === b.status &&
    a.ean === b.ean &&
    a.brand === b.brand &&
    a.supplier === b.supplier &&
    JSON.stringify(a.publishing_channels) === JSON.stringify(b.publishing_channels) &&
    a.product_condition === b.product_condition &&
    sameValues(a.attributes, b.attributes)
  );
}

/** Same keys with the same values (JSON-equal), whatever the key order. */
export function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  if (keys.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
  return keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

export function sameSet(a: string[], b: string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}
