// What a product's history keeps of a product after each change: its own fields (what "restore this version" puts
// back), its images, its stock per warehouse and its variants with theirs, all in one jsonb built in SQL, so a writer
// reads it in its own transaction, for one product or a batch (docs/pim-api.md, "Product history").
import { type SQL, sql } from 'drizzle-orm';
import { SELLING_COLUMNS } from '../products/selling-fields.js';

/** The product's own fields in the API's names and values (decimals as text, ids for references, category_ids sorted). */
export type Snapshot = Record<string, unknown>;

/** The selling fields a product and each variant have (barcode, compare_at_price…). */
const SELLING_FIELDS = Object.keys(SELLING_COLUMNS) as (keyof typeof SELLING_COLUMNS)[];

/** The product's own fields, named as the API and as their columns (decimals read as text, as the API shows them). */
export const SNAPSHOT_FIELDS = [
  'name',
  'sku',
  'slug',
  'description',
  'short_description',
  'product_type',
  'price',
  'sale_price',
  'cost_price',
  'currency',
  'status',
  'stock',
  'ean',
  'brand_id',
  'supplier_id',
  'vat_rate_id',
  'category_ids',
  'publishing_channels',
  'product_condition',
  'attributes',
  'tags',
  'seo_title',
  'seo_description',
  'gift_card',
  'taxonomy_category',
  'weight',
  'storefront_type',
  ...SELLING_FIELDS,
] as const;
const DECIMALS = new Set(['price', 'sale_price', 'cost_price', 'cost', 'weight', 'compare_at_price']);

/** A variant's fields, as the variants API names them (`attributes`: its option values). */
export const VARIANT_FIELDS = [
  'sku',
  'name',
  'price',
  'sale_price',
  'cost',
  'weight',
  'stock_quantity',
  'stock_status',
  'is_enabled',
  'position',
  'image',
  'attributes',
  ...SELLING_FIELDS,
] as const;

/**
 * The snapshot keys beside the product's own fields; not restored (docs/pim-api.md):
 * - `images`: the product's media in order, `[{id, alt_text}]`;
 * - `stock_levels`: its own stock per warehouse code (a product without variants);
 * - `variants`: `{variant id: its fields and its stock_levels}`.
 */
export const COMPANION_FIELDS = ['images', 'stock_levels', 'variants'] as const;

const column = (field: string, a: string) => `${a}.${field}${DECIMALS.has(field) ? '::text' : ''}`;
const object = (pairs: [string, string][]) => `jsonb_build_object(${pairs.map(([k, v]) => `'${k}', ${v}`).join(', ')})`;
const levels = (table: string, owner: string, id: string) =>
  `coalesce((SELECT jsonb_object_agg(w.code, l.quantity) FROM ${table} l JOIN warehouses w ON w.id = l.warehouse_id WHERE l.${owner} = ${id}), '{}'::jsonb)`;

const ownField = (field: string, a: string): string =>
  field === 'category_ids'
    ? `coalesce((SELECT jsonb_agg(pc.category_id ORDER BY pc.category_id) FROM product_categories pc WHERE pc.product_id = ${a}.id), '[]'::jsonb)`
    : column(field, a);

const companions = (a: string): [string, string][] => [
  [
    'images',
    `coalesce((SELECT jsonb_agg(jsonb_build_object('id', m.id, 'alt_text', m.alt_text) ORDER BY m.position, m.id) FROM product_media m WHERE m.product_id = ${a}.id), '[]'::jsonb)`,
  ],
  ['stock_levels', levels('product_stock', 'product_id', `${a}.id`)],
  [
    'variants',
    `coalesce((SELECT jsonb_object_agg(v.id::text, ${object([
      ...VARIANT_FIELDS.map((f): [string, string] => [f, column(f, 'v')]),
      ['stock_levels', levels('variant_stock', 'variant_id', 'v.id')],
    ])}) FROM variants v WHERE v.product_id = ${a}.id), '{}'::jsonb)`,
  ],
];

/** The snapshot of the product row aliased `alias`, as one jsonb. */
export const snapshotOf = (alias: string): SQL => sql.raw(`${object(SNAPSHOT_FIELDS.map((f) => [f, ownField(f, alias)]))} || ${object(companions(alias))}`);
