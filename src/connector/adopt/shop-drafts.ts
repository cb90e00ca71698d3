// A shop product → the PIM product an import makes of it (catalogue-csv/draft.ts), with the rules of the Shopify
// product CSV import (catalogue-csv/shopify-reader.ts): Handle → slug, Title → name, Body (HTML) → description, Vendor →
// brand, Type → storefront_type, category → taxonomy_category, Status → status, tags, SEO, gift card; one variant
// without options → the product's own SKU, prices, barcode, weight and selling settings; several (or real options) →
// the product's SKU is its handle and each variant keeps its SKU, option values, prices, quantity, barcode, weight and
// selling settings. A compare-at price above the price is the regular price and the price the sale price; one at or
// below it is kept as given. Pure: the adoption service decides what to import.
import { defaultVariantName } from '../../catalogue-csv/cells.js';
import type { ProductDraft, ProductFields, SellingFields, VariantDraft } from '../../catalogue-csv/draft.js';
import { isValidGtin } from '../../lib/gtin.js';
import type { StorefrontCatalogueProduct, StorefrontCatalogueVariant } from '../../storefront/port/catalogue.js';

/** Shopify's option and value for a product without variants. */
const DEFAULT_OPTION = 'Title';
const DEFAULT_VALUE = 'Default Title';

/** A decimal string ("19.99"); null when not one. */
function decimal(value: string | null | undefined): string | null {
  const v = value?.trim() ?? '';
  return /^\d{1,15}(\.\d{1,4})?$/.test(v) ? v : null;
}

/** price / sale_price from Shopify's price and compare-at price. */
export function pimPrices(price: string | null | undefined, compareAt: string | null | undefined): { price: string | null; sale_price: string | null } {
  const p = decimal(price);
  const c = decimal(compareAt);
  if (p !== null && c !== null && Number(c) > Number(p)) return { price: c, sale_price: p };
  return { price: p, sale_price: null };
}

const STATUS: Record<string, string> = { ACTIVE: 'active', DRAFT: 'draft', ARCHIVED: 'archived' };
const WEIGHT_UNITS: Record<string, string> = { GRAMS: 'g', KILOGRAMS: 'kg', POUNDS: 'lb', OUNCES: 'oz' };

/** A compare-at price that is not the regular price of a sale: kept as given. */
function compareAtAsGiven(price: string | null | undefined, compareAt: string | null | undefined): string | null {
  const p = decimal(price);
  const c = decimal(compareAt);
  return c !== null && !(p !== null && Number(c) > Number(p)) ? c : null;
}

/** A weight as Shopify gives it (a float) → a decimal of at most 4 places in its unit; null when none. */
function weightOf(v: StorefrontCatalogueVariant): { weight: string | null; weight_unit: string | null } {
  const w = v.weight;
  if (!w || !Number.isFinite(w.value) || w.value <= 0) return { weight: null, weight_unit: null };
  return { weight: String(Number(w.value.toFixed(4))), weight_unit: WEIGHT_UNITS[w.unit] ?? null };
}

/** What the shop's variant holds beyond prices and options; absent settings (not read) stay absent. */
function sellingOf(v: StorefrontCatalogueVariant): Partial<SellingFields> {
  const out: Partial<SellingFields> = {
    barcode: v.barcode?.trim() || null,
    compare_at_price: compareAtAsGiven(v.price, v.compareAtPrice),
  };
  if (v.inventoryPolicy) out.inventory_policy = v.inventoryPolicy.toLowerCase();
  if (v.tracked != null) out.inventory_tracked = v.tracked;
  if (v.taxable != null) out.taxable = v.taxable;
  if (v.requiresShipping != null) out.requires_shipping = v.requiresShipping;
  return out;
}

/** A product without real options: one variant whose only option is Shopify's default (or none). */
export function isSimple(product: StorefrontCatalogueProduct): boolean {
  if (product.variants.length !== 1) return false;
  const options = product.variants[0].options;
  return options.length === 0 || (options.length === 1 && options[0].name === DEFAULT_OPTION && options[0].value === DEFAULT_VALUE);
}

/** The SKU each storefront variant gets in the PIM (its own, or `{handle}-{n}` for one without). */
export function draftSkus(product: StorefrontCatalogueProduct): { productSku: string; variants: { variantId: string; sku: string }[] } {
  if (isSimple(product)) {
    const sku = product.variants[0].sku?.trim() || product.handle;
    return { productSku: sku, variants: [{ variantId: product.variants[0].id, sku }] };
  }
  return {
    productSku: product.handle,
    variants: product.variants.map((v, i) => ({ variantId: v.id, sku: v.sku?.trim() || `${product.handle}-${i + 1}` })),
  };
}

/**
 * The draft of one shop product. `line` is its first row's line in the file (the header is line 1); one row per
 * variant. `currency`: the shop's, in which its prices are (null: the PIM's default).
 */
export function shopProductDraft(product: StorefrontCatalogueProduct, line: number, currency: string | null): ProductDraft {
  const skus = draftSkus(product);
  const simple = isSimple(product);
  const first = product.variants[0];
  const fields: Partial<ProductFields> = {
    name: product.title.trim() || product.handle,
    slug: product.handle,
    description: product.descriptionHtml.trim() === '' ? null : product.descriptionHtml,
    status: STATUS[product.status] ?? 'draft',
    brand: product.vendor.trim() || null,
    storefront_type: product.productType.trim() || null,
    tags: product.tags,
    ...(product.seo ? { seo_title: product.seo.title || null, seo_description: product.seo.description || null } : {}),
    ...(product.giftCard !== undefined ? { gift_card: product.giftCard } : {}),
    ...(product.category !== undefined ? { taxonomy_category: product.category?.id.replace(/^gid:\/\/shopify\/TaxonomyCategory\//, '') ?? null } : {}),
    ...(currency ? { currency } : {}),
  };
  let variants: VariantDraft[] = [];
  if (simple && first) {
    Object.assign(fields, pimPrices(first.price, first.compareAtPrice), sellingOf(first), weightOf(first));
    fields.stock_quantity = Math.max(0, first.inventoryQuantity ?? 0);
    const barcode = first.barcode?.trim();
    if (barcode && isValidGtin(barcode)) fields.ean = barcode;
  } else {
    // The product's price: its cheapest variant's (the variants carry their own).
    const prices = product.variants.map((v) => pimPrices(v.price, v.compareAtPrice)).filter((p) => p.price !== null);
    const cheapest = prices.sort((a, b) => Number(a.sale_price ?? a.price) - Number(b.sale_price ?? b.price))[0];
    if (cheapest) Object.assign(fields, cheapest);
    variants = product.variants.map((v, i) => {
      const { price, sale_price } = pimPrices(v.price, v.compareAtPrice);
      const attributes = v.options
        .filter((o) => !(o.name === DEFAULT_OPTION && o.value === DEFAULT_VALUE))
        .map((o) => ({ attribute_name: o.name, value: o.value }));
      return {
        line: line + i,
        sku: skus.variants[i].sku,
        fields: {
          name: defaultVariantName(skus.variants[i].sku, attributes),
          price,
          sale_price,
          stock_quantity: Math.max(0, v.inventoryQuantity ?? 0),
          attributes,
          ...sellingOf(v),
          ...weightOf(v),
        },
      };
    });
  }
  const media = product.images.filter((m): m is typeof m & { url: string } => !!m.url && /^https?:\/\//i.test(m.url));
  const images = media.map((m) => m.url);
  const imageAlts = media.map((m) => m.alt?.trim() || null);
  const rows = Math.max(1, variants.length);
  return {
    line,
    lines: Array.from({ length: rows }, (_, i) => line + i),
    sku: skus.productSku,
    fields,
    ...(images.length ? { images, imageAlts } : {}),
    variants,
  };
}
