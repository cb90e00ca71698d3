// How a dry run (product-diff.ts previewChanges) and a drift report (driftChanges) compare the fields FIELD_OWNERSHIP
// marks as compared: where each field's value is in what a push writes or what the shop has, and when two values are
// the same under the field's comparison.
import type { WrittenFields, WrittenVariant } from '../port/known-product.js';
import { FIELD_OWNERSHIP } from './field-ownership.js';
import type { Comparison, OwnedField } from './owned-field.js';

/** A product as compared: what a push writes (WrittenFields) or what the shop has, field by field. */
export type ProductFacts = Omit<WrittenFields, 'variants' | 'images' | 'tags'> & { tags: string[] };

/** How each compared field is found in ProductFacts / WrittenVariant (undefined: the push leaves it out). */
const PRODUCT_VALUES: Record<string, (f: ProductFacts) => unknown> = {
  title: (f) => f.title,
  descriptionHtml: (f) => f.descriptionHtml,
  vendor: (f) => f.vendor,
  productType: (f) => f.productType,
  status: (f) => f.status,
  tags: (f) => f.tags,
  'seo.title': (f) => f.seo?.title,
  'seo.description': (f) => f.seo?.description,
  giftCard: (f) => f.giftCard,
  category: (f) => f.category,
};

const VARIANT_VALUES: Record<string, (v: WrittenVariant) => unknown> = {
  price: (v) => v.price,
  compareAtPrice: (v) => v.compareAtPrice,
  barcode: (v) => v.barcode,
  options: (v) => v.options,
  inventoryPolicy: (v) => v.inventoryPolicy,
  tracked: (v) => v.tracked,
  taxable: (v) => v.taxable,
  requiresShipping: (v) => v.requiresShipping,
  weight: (v) => v.weight,
};

/** The rows a dry run or a drift report compares with a plain value accessor. */
export function comparedFields(mode: 'dryRun' | 'drift', level: 'product' | 'variant'): { field: OwnedField; value: (facts: never) => unknown }[] {
  const values = level === 'product' ? PRODUCT_VALUES : VARIANT_VALUES;
  return FIELD_OWNERSHIP.flatMap((field) =>
    field.level === level && field[mode] !== 'not compared' && values[field.key] ? [{ field, value: values[field.key] as (facts: never) => unknown }] : [],
  );
}

/** Two values the same under a comparison (undefined/null/'' are one "none" for text). */
export function sameUnder(comparison: Comparison, have: unknown, want: unknown): boolean {
  switch (comparison) {
    case 'money': {
      const n = (x: unknown) => (x === null || x === undefined || x === '' ? null : Number(x));
      return n(have) === n(want);
    }
    case 'weight': {
      const w = (x: unknown) => (x && typeof x === 'object' ? (x as { value: number; unit: string }) : null);
      const a = w(have);
      const b = w(want);
      return a === null || b === null ? a === b : a.unit === b.unit && Math.abs(Number(a.value) - Number(b.value)) < 1e-9;
    }
    case 'set':
    case 'ours present': {
      const norm = (t: unknown) => (Array.isArray(t) ? t.map((x) => String(x).trim().toLowerCase()) : []);
      const shop = new Set(norm(have));
      const ours = norm(want);
      if (comparison === 'ours present') return ours.every((t) => shop.has(t));
      return shop.size === new Set(ours).size && ours.every((t) => shop.has(t));
    }
    default: {
      // Lists (a variant's option values): in order, each without case, as Shopify compares option values.
      if (Array.isArray(want) || Array.isArray(have)) {
        const a = Array.isArray(have) ? have : [];
        const b = Array.isArray(want) ? want : [];
        return a.length === b.length && a.every((x, i) => String(x).trim().toLowerCase() === String(b[i]).trim().toLowerCase());
      }
      if (typeof want === 'string' || typeof have === 'string') return String(have ?? '') === String(want ?? '');
      return (have ?? null) === (want ?? null);
    }
  }
}
