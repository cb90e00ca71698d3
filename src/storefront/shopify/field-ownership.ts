// Every field the bridge writes to a Shopify product, in one table: where its value comes from in the PIM, the input that
// writes it (productSet unless said otherwise), the selection that reads it back, who owns it, what a push does when the
// PIM has no value, and how a dry run (product-diff.ts previewChanges, fed by product-preview.ts's ProductPreviewRead)
// and a drift report (product-diff.ts driftChanges, fed by the catalogue read's CatalogueProducts) compare it. The mapper
// (variant-inputs.ts) takes the create defaults from it; docs/shopify-fidelity.md's "Field ownership" table is generated
// from it (fidelityTable), and test/field-ownership.test.ts checks both that table and that the two reads select every
// compared field's `read` path.
//
// Ownership, in short: the PIM owns what it has a value for; a field the PIM leaves empty (null: "not set in the PIM") is
// left out of the productSet, so the merchant's value in the shop stays ("For all other field types: Updates only the
// included fields. Any omitted fields will remain unchanged", https://shopify.dev/docs/api/admin-graphql/latest/mutations/productSet).
// Lists are replaced by productSet ("deletes existing entries that aren't included in the mutation's input", same page),
// so the merchant's entries are read first and sent back: tags, metafields, collections and media.
import type { WrittenFields, WrittenVariant } from '../storefront.port.js';

/** Who decides a field's value in the shop. */
export type Owner = 'PIM' | 'PIM + merchant' | 'setting';

/** How a dry run or a drift report compares a field (the shop's value against the PIM's, or against what was written). */
export type Comparison =
  /** The same text or value exactly. */
  | 'equal'
  /** The same amount (19.9 = 19.90). */
  | 'money'
  /** The same value and unit. */
  | 'weight'
  /** The same set of tags, without order or case (the merged list a push sends). */
  | 'set'
  /** Every tag the bridge sent is there; the merchant's other tags are not a change. */
  | 'ours present'
  /** The bridge's images, by our file name or known media id, in order; the merchant's media are theirs. */
  | 'our images'
  /** Collections by title (the merchant's custom collections included). */
  | 'by title'
  /** On create only: the product that would be made. */
  | 'on create'
  /** The key variants are matched by (their id when known, else the SKU): a shop variant of neither is one removed. */
  | 'variants by SKU'
  | 'not compared';

export interface OwnedField {
  /** Product fields by their name (`title`, `seo.title`); variant fields too, reported as `variants[SKU].{key}`. */
  key: string;
  level: 'product' | 'variant';
  /** The PIM's source (Product / Variant fields of the PIM API). */
  pim: string;
  /** The input that writes it: a productSet input path, or another mutation. */
  input: string;
  /** The selection that reads it back, from `Product` (`variants.` is the product's variants, `media.` its media). */
  read: string;
  owner: Owner;
  /** What a push does when the PIM has no value. */
  unset: string;
  dryRun: Comparison;
  drift: Comparison;
  /** The end-to-end test that pushes it through the sandbox and reads it back. */
  test: string;
  /** On create, when the PIM has no value: what the bridge sends (the rest are Shopify's own defaults). */
  createDefault?: unknown;
}

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

const UPSERT = 'shopify-upsert';
const FIELDS_E2E = 'shopify-fields-e2e';

export const FIELD_OWNERSHIP: readonly OwnedField[] = [
  // The product.
  {
    key: 'handle',
    level: 'product',
    pim: '`slug`',
    input: 'handle (create only)',
    read: 'handle',
    owner: 'PIM',
    unset: 'the name as a slug',
    dryRun: 'on create',
    drift: 'not compared',
    test: UPSERT,
  },
  {
    key: 'title',
    level: 'product',
    pim: '`name` (trimmed)',
    input: 'title',
    read: 'title',
    owner: 'PIM',
    unset: '(required)',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'descriptionHtml',
    level: 'product',
    pim: '`description`',
    input: 'descriptionHtml',
    read: 'descriptionHtml',
    owner: 'PIM',
    unset: 'left out',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'vendor',
    level: 'product',
    pim: '`brand.name`',
    input: 'vendor',
    read: 'vendor',
    owner: 'PIM',
    unset: 'left out',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'productType',
    level: 'product',
    pim: "`storefront_type`, else the integration's product-type setting (first category's name, or an attribute)",
    input: 'productType',
    read: 'productType',
    owner: 'setting',
    unset: "left out: never blanked, the merchant's type stays",
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'status',
    level: 'product',
    pim: '`status` (active/out_of_stock → ACTIVE, archived → ARCHIVED, else DRAFT)',
    input: 'status',
    read: 'status',
    owner: 'PIM',
    unset: 'DRAFT',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'tags',
    level: 'product',
    pim: '`tags` (categories are collections, not tags)',
    input: "tags (the shop's tags as read, less the PIM tags the last push sent, plus the PIM's)",
    read: 'tags',
    owner: 'PIM + merchant',
    unset: 'only the tags the bridge sent before are removed',
    dryRun: 'set',
    drift: 'ours present',
    test: FIELDS_E2E,
  },
  {
    key: 'seo.title',
    level: 'product',
    pim: '`seo_title`, else the `seo_title` attribute',
    input: 'seo.title',
    read: 'seo.title',
    owner: 'PIM',
    unset: 'left out; cleared only when the bridge wrote it before',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'seo.description',
    level: 'product',
    pim: '`seo_description`, else the `seo_description` attribute',
    input: 'seo.description',
    read: 'seo.description',
    owner: 'PIM',
    unset: 'left out; cleared only when the bridge wrote it before',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'giftCard',
    level: 'product',
    pim: '`gift_card`',
    input: 'giftCard (create only: Shopify refuses a change, GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED)',
    read: 'isGiftCard',
    owner: 'PIM',
    unset: 'false on create',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'category',
    level: 'product',
    pim: '`taxonomy_category`: an id (`aa-1-13-8`) or a full name, looked up with `taxonomy { categories(search:) }`',
    input: 'category (`gid://shopify/TaxonomyCategory/{id}`)',
    read: 'category.id',
    owner: 'PIM',
    unset: 'left out',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'images',
    level: 'product',
    pim: "`images`, then the variants' `image`; alt text `image_alts` (else the name, on upload)",
    input: "files (ours by id or source, then the merchant's media ids as read)",
    read: 'media.image.url',
    owner: 'PIM + merchant',
    unset: 'only media the bridge made are removed',
    dryRun: 'our images',
    drift: 'our images',
    test: FIELDS_E2E,
  },
  {
    key: 'collections',
    level: 'product',
    pim: '`categories[]`',
    input: "collections (the merchant's custom collections as read, plus ours)",
    read: 'collections.title',
    owner: 'PIM + merchant',
    unset: "the bridge's collections left",
    dryRun: 'by title',
    drift: 'not compared',
    test: 'category-collections-e2e',
  },
  {
    key: 'metafields',
    level: 'product',
    pim: '`id` (`pimbridge.pim_product_id`), the PIM tags sent (`pimbridge.pim_tags`), `attributes` (`pimbridge_attr.*`)',
    input: "metafields (the merchant's as read, plus ours)",
    read: 'metafields.value',
    owner: 'PIM + merchant',
    unset: 'an attribute the PIM dropped is removed',
    dryRun: 'not compared',
    drift: 'not compared',
    test: 'attribute-metafields-e2e',
  },
  {
    key: 'publications',
    level: 'product',
    pim: '`publishing_channels`',
    input: 'publishablePublish / publishableUnpublish',
    read: 'publishedOnPublication',
    owner: 'setting',
    unset: 'published nowhere by us',
    dryRun: 'not compared',
    drift: 'not compared',
    test: 'store-rules-e2e',
  },
  {
    key: 'translations',
    level: 'product',
    pim: '`translations` (include=translations)',
    input: 'translationsRegister / translationsRemove',
    read: 'translations',
    owner: 'PIM',
    unset: 'removed only where the bridge registered them',
    dryRun: 'not compared',
    drift: 'not compared',
    test: 'translations-e2e',
  },
  // Each variant (a product without variants: its one variant, from the product's fields).
  {
    key: 'sku',
    level: 'variant',
    pim: "`sku` (the product's for a product without variants); one the PIM made up (`sku_generated`) is never written, only kept as our key",
    input: 'variants.sku, variants.inventoryItem.sku',
    read: 'variants.sku',
    owner: 'PIM',
    unset: '(required)',
    dryRun: 'variants by SKU',
    drift: 'variants by SKU',
    test: FIELDS_E2E,
  },
  {
    key: 'options',
    level: 'variant',
    pim: '`attributes` (option = attribute name)',
    input: 'productOptions, variants.optionValues',
    read: 'variants.selectedOptions.value',
    owner: 'PIM',
    unset: 'Title / Default Title',
    dryRun: 'equal',
    drift: 'equal',
    test: UPSERT,
  },
  {
    key: 'price',
    level: 'variant',
    pim: '`price`, or a lower `sale_price`',
    input: 'variants.price',
    read: 'variants.price',
    owner: 'PIM',
    unset: 'left out',
    dryRun: 'money',
    drift: 'money',
    test: FIELDS_E2E,
  },
  {
    key: 'compareAtPrice',
    level: 'variant',
    pim: 'the regular `price` while on sale, else `compare_at_price` as given',
    input: 'variants.compareAtPrice',
    read: 'variants.compareAtPrice',
    owner: 'PIM',
    unset: 'left out; cleared only when the bridge wrote it before',
    dryRun: 'money',
    drift: 'money',
    test: FIELDS_E2E,
  },
  {
    key: 'barcode',
    level: 'variant',
    pim: "the variant's `barcode`; a product without variants: `barcode`, else `ean`",
    input: 'variants.barcode',
    read: 'variants.barcode',
    owner: 'PIM',
    unset: 'left out',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'inventoryPolicy',
    level: 'variant',
    pim: '`inventory_policy` (deny/continue); a disabled variant: DENY',
    input: 'variants.inventoryPolicy',
    read: 'variants.inventoryPolicy',
    owner: 'PIM',
    unset: 'left out on update; DENY on create',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
    createDefault: 'DENY',
  },
  {
    key: 'tracked',
    level: 'variant',
    pim: '`inventory_tracked`; a disabled variant: true',
    input: 'variants.inventoryItem.tracked',
    read: 'variants.inventoryItem.tracked',
    owner: 'PIM',
    unset: 'left out on update; true on create',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
    createDefault: true,
  },
  {
    key: 'taxable',
    level: 'variant',
    pim: '`taxable`',
    input: 'variants.taxable',
    read: 'variants.taxable',
    owner: 'PIM',
    unset: 'left out (Shopify: true on create)',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'requiresShipping',
    level: 'variant',
    pim: '`requires_shipping`',
    input: 'variants.inventoryItem.requiresShipping',
    read: 'variants.inventoryItem.requiresShipping',
    owner: 'PIM',
    unset: 'left out (Shopify: true on create)',
    dryRun: 'equal',
    drift: 'equal',
    test: FIELDS_E2E,
  },
  {
    key: 'weight',
    level: 'variant',
    pim: '`weight` in `weight_unit` (g/kg/lb/oz → GRAMS/KILOGRAMS/POUNDS/OUNCES; none: kg); a product without variants: its own',
    input: 'variants.inventoryItem.measurement.weight {value, unit}',
    read: 'variants.inventoryItem.measurement.weight.value',
    owner: 'PIM',
    unset: 'left out',
    dryRun: 'weight',
    drift: 'weight',
    test: FIELDS_E2E,
  },
  {
    key: 'cost',
    level: 'variant',
    pim: "`cost`, else the product's `cost_price`",
    input: 'variants.inventoryItem.cost',
    read: 'variants.inventoryItem.unitCost.amount',
    owner: 'PIM',
    unset: 'left out',
    dryRun: 'not compared',
    drift: 'not compared',
    test: 'store-rules-e2e',
  },
  {
    key: 'image',
    level: 'variant',
    pim: '`image`',
    input: 'variants.file (also in files)',
    read: 'variants.media.id',
    owner: 'PIM',
    unset: 'the variant keeps its media',
    dryRun: 'not compared',
    drift: 'not compared',
    test: 'variant-images-e2e',
  },
  {
    key: 'stock',
    level: 'variant',
    pim: "`stock` / `warehouse_stock`, a variant's `stock_quantity`",
    input: "variants.inventoryQuantities (new variants), inventorySetQuantities (moved by the PIM's change)",
    read: 'variants.inventoryItem.inventoryLevels.quantities.quantity',
    owner: 'PIM + merchant',
    unset: 'sales in the shop are kept',
    dryRun: 'not compared',
    drift: 'not compared',
    test: 'store-rules-e2e',
  },
];

/** The rows a dry run or a drift report compares with a plain value accessor. */
export function comparedFields(mode: 'dryRun' | 'drift', level: 'product' | 'variant'): { field: OwnedField; value: (facts: never) => unknown }[] {
  const values = level === 'product' ? PRODUCT_VALUES : VARIANT_VALUES;
  return FIELD_OWNERSHIP.flatMap((field) =>
    field.level === level && field[mode] !== 'not compared' && values[field.key] ? [{ field, value: values[field.key] as (facts: never) => unknown }] : [],
  );
}

/** On create, when the PIM has no value: what the bridge sends for a variant field (FIELD_OWNERSHIP's createDefault). */
export function createDefault<T>(key: string): T {
  const row = FIELD_OWNERSHIP.find((f) => f.level === 'variant' && f.key === key);
  if (!row || row.createDefault === undefined) throw new Error(`no create default for variant field ${key}`);
  return row.createDefault as T;
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

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** docs/shopify-fidelity.md's "Field ownership" table, generated from FIELD_OWNERSHIP. */
export function fidelityTable(): string {
  const lines = [
    '| field | PIM source | written by | read back | owner | PIM has no value | dry run | drift | test |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const f of FIELD_OWNERSHIP) {
    const name = f.level === 'variant' ? `variant \`${f.key}\`` : `\`${f.key}\``;
    lines.push(
      `| ${name} | ${cell(f.pim)} | ${cell(f.input)} | \`${cell(f.read)}\` | ${f.owner} | ${cell(f.unset)} | ${f.dryRun} | ${f.drift} | \`${f.test}\` |`,
    );
  }
  return lines.join('\n');
}
