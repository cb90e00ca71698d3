// The PIM's catalogue tables: every row carries organization_id, directly or through its product, for tenant isolation.
// The PIM's other tables are catalogue-files.tables.ts (imports coming in) and session.tables.ts (the console's
// sign-in). Only the PIM's repositories read or write them; another module asks the PIM (docs/architecture.md, "Tables
// and their owners").
import { sql, type SQL } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations } from '../db/tenancy.js';

const orgId = () =>
  integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** Money and other decimals: numeric(19,4), read back as strings with 4 places. */
const money = (name: string) => numeric(name, { precision: 19, scale: 4 });

export const brands = pgTable(
  'brands',
  { id: serial('id').primaryKey(), organizationId: orgId(), name: text('name').notNull(), createdAt: createdAt() },
  (t) => [uniqueIndex('brands_org_name_uq').on(t.organizationId, t.name)],
);

export const suppliers = pgTable(
  'suppliers',
  { id: serial('id').primaryKey(), organizationId: orgId(), name: text('name').notNull(), createdAt: createdAt() },
  (t) => [uniqueIndex('suppliers_org_name_uq').on(t.organizationId, t.name)],
);

export const vatRates = pgTable(
  'vat_rates',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    name: text('name').notNull(),
    rate: numeric('rate', { precision: 7, scale: 4 }).notNull(),
    countryCode: text('country_code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vat_rates_org_name_country_uq').on(t.organizationId, t.name, t.countryCode)],
);

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    parentId: integer('parent_id').references((): any => categories.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    description: text('description'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('categories_org_parent_idx').on(t.organizationId, t.parentId, t.position)],
);

/**
 * What a Shopify variant holds beyond the spec's fields (docs/shopify-fidelity.md), on a product without variants and on
 * each variant. Null is "not set in the PIM": the push leaves the shop's own value (or Shopify's default on create).
 */
const sellingColumns = () => ({
  /** Free text (UPC, ISBN, an internal code): the GTIN check stays on `ean`. */
  barcode: text('barcode'),
  /** The compare-at price as given, when it is not the regular price of a sale (that one is `price` above `sale_price`). */
  compareAtPrice: money('compare_at_price'),
  /** The unit `weight` is in: g, kg, lb or oz; null is kilograms. */
  weightUnit: text('weight_unit'),
  inventoryPolicy: text('inventory_policy'),
  inventoryTracked: boolean('inventory_tracked'),
  taxable: boolean('taxable'),
  requiresShipping: boolean('requires_shipping'),
});

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    sku: text('sku').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    shortDescription: text('short_description'),
    productType: text('product_type').notNull().default('simple'),
    price: money('price'),
    salePrice: money('sale_price'),
    costPrice: money('cost_price'),
    currency: text('currency').notNull().default('EUR'),
    status: text('status').notNull().default('draft'),
    stock: integer('stock').notNull().default(0),
    ean: text('ean'),
    vatRateId: integer('vat_rate_id').references(() => vatRates.id, { onDelete: 'set null' }),
    brandId: integer('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    supplierId: integer('supplier_id').references(() => suppliers.id, { onDelete: 'set null' }),
    publishingChannels: text('publishing_channels').array().notNull().default(sql`'{}'::text[]`),
    productCondition: text('product_condition').notNull().default('new'),
    attributes: jsonb('attributes').notNull().default(sql`'{}'::jsonb`),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    giftCard: boolean('gift_card').notNull().default(false),
    /** A Shopify Standard Product Taxonomy category: its id (`aa-1-13-8`) or its full name, as given. */
    taxonomyCategory: text('taxonomy_category'),
    weight: money('weight'),
    ...sellingColumns(),
    /** The merchant's product type in the storefront (Shopify's `productType`, a CSV's `Type`): free text, apart from the structural `product_type`. */
    storefrontType: text('storefront_type'),
    /** The SKU was made by the PIM (a file gave none, or another product had it): never written to a shop. */
    skuGenerated: boolean('sku_generated').notNull().default(false),
    /** One lower-cased text over name, description and SKU, so a single GIN trigram index serves search. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`lower(${products.name} || ' ' || coalesce(${products.description}, '') || ' ' || ${products.sku})`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('products_org_sku_uq').on(t.organizationId, t.sku),
    uniqueIndex('products_org_slug_uq').on(t.organizationId, t.slug),
    index('products_org_id_idx').on(t.organizationId, t.id),
    index('products_org_updated_idx').on(t.organizationId, t.updatedAt, t.id),
    uniqueIndex('products_org_ean_uq').on(t.organizationId, t.ean),
    index('products_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // The list's sort keys (products/product-sort.ts): each a walk of its index, forwards or backwards.
    index('products_org_name_idx').on(t.organizationId, t.name, t.id),
    index('products_org_price_idx').on(t.organizationId, t.price, t.id),
    index('products_org_stock_idx').on(t.organizationId, t.stock, t.id),
    index('products_org_status_idx').on(t.organizationId, t.status, t.id),
  ],
);

export const productTranslations = pgTable(
  'product_translations',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    name: text('name'),
    description: text('description'),
    shortDescription: text('short_description'),
    /** The translated `seo_title` / `seo_description` attributes (the storefront's SEO fields in that locale). */
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.locale] })],
);

export const productCategories = pgTable(
  'product_categories',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.productId, t.categoryId] }), index('product_categories_category_idx').on(t.categoryId)],
);

export const variants = pgTable(
  'variants',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    name: text('name').notNull(),
    price: money('price'),
    salePrice: money('sale_price'),
    cost: money('cost'),
    weight: money('weight'),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    stockStatus: text('stock_status').notNull().default('out_of_stock'),
    isEnabled: boolean('is_enabled').notNull().default(true),
    position: integer('position').notNull().default(0),
    image: text('image'),
    attributes: jsonb('attributes').notNull().default(sql`'[]'::jsonb`),
    ...sellingColumns(),
    /** The SKU was made by the PIM (a file gave none, or another product had it): never written to a shop. */
    skuGenerated: boolean('sku_generated').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('variants_org_sku_uq').on(t.organizationId, t.sku), index('variants_product_idx').on(t.productId, t.position, t.id)],
);

export const channels = pgTable(
  'channels',
  {
    organizationId: orgId(),
    value: text('value').notNull(),
    label: text('label').notNull(),
    description: text('description').notNull().default(''),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.value] })],
);

/** Product attribute definitions; a product's `attributes` object is keyed by `code` and validated against them. */
export const productAttributes = pgTable(
  'product_attributes',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    /** Allowed values of select and multiselect attributes; empty for the other types. */
    options: text('options').array().notNull().default(sql`'{}'::text[]`),
    isRequired: boolean('is_required').notNull().default(false),
    /** The publishing channels a product on that channel needs a value of this attribute for (completeness); all of them when is_required. */
    requiredChannels: text('required_channels').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The storefront metafield the attribute is, `namespace.key` (`custom.material`, `mm-google-shopping.gender`): set
     * when a Shopify file's metafield or Google Shopping column made it; the export writes it back to that column.
     */
    metafield: text('metafield'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('product_attributes_org_code_uq').on(t.organizationId, t.code),
    uniqueIndex('product_attributes_org_metafield_uq').on(t.organizationId, t.metafield),
  ],
);

export const warehouses = pgTable(
  'warehouses',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    countryCode: text('country_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('warehouses_org_code_uq').on(t.organizationId, t.code)],
);

/** Stock per product and warehouse; a product with rows here has `products.stock` = their sum (kept in the same transaction). */
export const productStock = pgTable(
  'product_stock',
  {
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    warehouseId: integer('warehouse_id')
      .notNull()
      .references(() => warehouses.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.warehouseId] }), index('product_stock_warehouse_idx').on(t.warehouseId)],
);

/**
 * Stock per variant and warehouse; a variant with rows here has `variants.stock_quantity` = their sum, and its product's
 * `stock` is the sum of its variants' (both kept in the transaction that writes a level). A product with variants has no
 * `product_stock` rows of its own: its per-warehouse view sums these.
 */
export const variantStock = pgTable(
  'variant_stock',
  {
    variantId: integer('variant_id')
      .notNull()
      .references(() => variants.id, { onDelete: 'cascade' }),
    warehouseId: integer('warehouse_id')
      .notNull()
      .references(() => warehouses.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.variantId, t.warehouseId] }), index('variant_stock_warehouse_idx').on(t.warehouseId)],
);

/**
 * Image search's multi-index hashing: the 64-bit pHash cut into four 16-bit chunks, each behind an expression index.
 * Two hashes within Hamming distance d differ in at most floor(d / 4) bits of at least one chunk (pigeonhole), so a
 * search looks up the chunk values within that radius of the query's and checks the exact distance of those rows only.
 * The repository must write the same expression for PostgreSQL to use the index.
 */
export const PHASH_CHUNK_SHIFTS = [48, 32, 16, 0] as const;
export const phashChunk = (column: string, shift: number): SQL => sql.raw(`((${column} >> ${shift}) & 65535)`);

/**
 * A product's images. The file lives in the media storage under `storage_key` (content-addressed); `sha256` keeps one
 * product from holding the same image twice; `phash` is the 64-bit perceptual hash (signed int8) used by image search.
 */
export const productMedia = pgTable(
  'product_media',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    sourceUrl: text('source_url'),
    altText: text('alt_text'),
    position: integer('position').notNull().default(0),
    mimeType: text('mime_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    phash: bigint('phash', { mode: 'bigint' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('product_media_product_sha_uq').on(t.productId, t.sha256),
    index('product_media_product_idx').on(t.productId, t.position, t.id),
    index('product_media_org_idx').on(t.organizationId, t.id),
    // Deleting a media asks whether any other row still uses its file.
    index('product_media_storage_key_idx').on(t.storageKey),
    ...PHASH_CHUNK_SHIFTS.map((shift, i) => index(`product_media_phash_chunk${i}_idx`).on(t.organizationId, phashChunk('phash', shift))),
  ],
);
