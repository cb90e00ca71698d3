// A shop product → the PIM product an import makes of it (catalogue-csv/draft.ts), with the rules of the Shopify
// product CSV import: Handle → slug, Title → name, Body (HTML) → description, Vendor → brand, Type → category, Status →
// status; one variant without options → the product's own SKU, price and barcode (EAN); several (or real options) →
// the product's SKU is its handle and each variant keeps its SKU, option values, price and quantity. A compare-at price
// above the price is the regular price and the price the sale price. Pure: the adoption service decides what to import.
import { defaultVariantName } from '../../catalogue-csv/ours-format.js';
import type { ProductDraft, ProductFields, VariantDraft } from '../../catalogue-csv/draft.js';
import { isValidGtin } from '../../lib/gtin.js';
import type { StorefrontCatalogueProduct } from '../../storefront/storefront.port.js';

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
    categories: product.productType.trim() ? [[product.productType.trim()]] : [],
    ...(currency ? { currency } : {}),
  };
  let variants: VariantDraft[] = [];
  if (simple && first) {
    Object.assign(fields, pimPrices(first.price, first.compareAtPrice));
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
        },
      };
    });
  }
  const images = product.images.flatMap((m) => (m.url && /^https?:\/\//i.test(m.url) ? [m.url] : []));
  const rows = Math.max(1, variants.length);
  return {
    line,
    lines: Array.from({ length: rows }, (_, i) => line + i),
    sku: skus.productSku,
    fields,
    ...(images.length ? { images } : {}),
    variants,
  };
}
