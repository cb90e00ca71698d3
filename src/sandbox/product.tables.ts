// A sandbox store's products: their variants, media, metafields and the store's metafield definitions, and the
// idempotency keys of inventory mutations.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { storeId } from './store.tables.js';

/** Binary column (pg answers a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/** The product a row belongs to (its rows go with it). */
export const productId = () =>
  bigint('product_id', { mode: 'number' })
    .notNull()
    .references(() => sandboxProducts.id, { onDelete: 'cascade' });

export const sandboxProducts = pgTable(
  'sandbox_products',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    handle: text('handle').notNull(),
    title: text('title').notNull(),
    descriptionHtml: text('description_html').notNull().default(''),
    vendor: text('vendor').notNull().default(''),
    productType: text('product_type').notNull().default(''),
    /** ACTIVE, ARCHIVED, DRAFT (Shopify's ProductStatus). */
    status: text('status').notNull().default('ACTIVE'),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    seo: jsonb('seo').$type<{ title: string | null; description: string | null }>().notNull().default(sql`'{"title":null,"description":null}'::jsonb`),
    /** [{name, values: [..]}] in position order. */
    options: jsonb('options').$type<{ name: string; values: string[] }[]>().notNull().default(sql`'[]'::jsonb`),
    /** Product.isGiftCard: set on create (ProductSetInput.giftCard), never changed afterwards. */
    giftCard: boolean('gift_card').notNull().default(false),
    /** Product.category: the Standard Product Taxonomy id (`aa-1-13-8`, taxonomy-data.ts), null when none. */
    categoryId: text('category_id'),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [uniqueIndex('sandbox_products_store_handle_uq').on(t.storeId, t.handle), index('sandbox_products_store_id_idx').on(t.storeId, t.id)],
);

export const sandboxVariants = pgTable(
  'sandbox_variants',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: productId(),
    sku: text('sku'),
    /** Decimal strings, as Shopify's Money scalar. */
    price: text('price').notNull().default('0.00'),
    compareAtPrice: text('compare_at_price'),
    barcode: text('barcode'),
    /** [{optionName, name}] in the product's option order. */
    optionValues: jsonb('option_values').$type<{ optionName: string; name: string }[]>().notNull().default(sql`'[]'::jsonb`),
    /**
     * Available quantity by location id. A location is a key exactly when the variant's inventory item is stocked there
     * (has an inventory level): Shopify only takes quantities where the item is stocked.
     */
    inventory: jsonb('inventory').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    position: integer('position').notNull(),
    /** ProductVariantInventoryPolicy: DENY (the default) or CONTINUE. */
    inventoryPolicy: text('inventory_policy').notNull().default('DENY'),
    /** ProductVariant.taxable ("Whether a tax is charged when the product variant is sold"); true unless sent. */
    taxable: boolean('taxable').notNull().default(true),
    /** The inventory item's fields: InventoryItem.tracked, requiresShipping, unitCost (Decimal string), measurement.weight. */
    tracked: boolean('tracked').notNull().default(true),
    requiresShipping: boolean('requires_shipping').notNull().default(true),
    unitCost: text('unit_cost'),
    weight: jsonb('weight').$type<{ value: number; unit: string } | null>(),
    /**
     * The variant's media (ProductVariantSetInput.file, one of the product's own media): ProductVariant.media answers it.
     * A media the product loses (productSet's `files` replaced) leaves the variant without one.
     */
    mediaId: bigint('media_id', { mode: 'number' }).references((): AnyPgColumn => sandboxMedia.id, { onDelete: 'set null' }),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [index('sandbox_variants_product_idx').on(t.productId, t.position), index('sandbox_variants_media_idx').on(t.mediaId)],
);

export const sandboxMedia = pgTable(
  'sandbox_media',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: productId(),
    originalSource: text('original_source').notNull(),
    alt: text('alt'),
    position: integer('position').notNull(),
    /**
     * Shopify's MediaStatus: UPLOADED when made from originalSource, PROCESSING while the sandbox fetches it, then READY
     * (content and mime_type hold the sandbox's copy) or FAILED (error_code is a MediaErrorCode, error_message the details).
     */
    status: text('status').notNull().default('UPLOADED'),
    content: bytea('content'),
    mimeType: text('mime_type'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /**
     * FileSetInput.filename, else the last segment of originalSource: the last segment of the URL the sandbox answers
     * for the image, as Shopify's CDN URLs end with the file name.
     */
    filename: text('filename'),
    createdAt: ts('created_at'),
  },
  (t) => [index('sandbox_media_product_idx').on(t.productId, t.position)],
);

export const sandboxProductMetafields = pgTable(
  'sandbox_product_metafields',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: productId(),
    /** Denormalised for the customId lookup (store, namespace, key, value). */
    storeId: storeId(),
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    type: text('type').notNull(),
    value: text('value').notNull(),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [
    uniqueIndex('sandbox_product_metafields_product_key_uq').on(t.productId, t.namespace, t.key),
    index('sandbox_product_metafields_lookup_idx').on(t.storeId, t.namespace, t.key, t.value),
  ],
);

export const sandboxMetafieldDefinitions = pgTable(
  'sandbox_metafield_definitions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** Shopify's MetafieldOwnerType, e.g. PRODUCT. */
    ownerType: text('owner_type').notNull(),
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    uniqueValues: boolean('unique_values').notNull().default(false),
    /** MetafieldDefinitionInput.validations as given ({name, value}), e.g. `choices` (values are checked against them). */
    validations: jsonb('validations').$type<{ name: string; value: string }[]>().notNull().default([]),
    createdAt: ts('created_at'),
  },
  (t) => [uniqueIndex('sandbox_metafield_definitions_uq').on(t.storeId, t.ownerType, t.namespace, t.key)],
);

/** `@idempotent(key:)` of inventory mutations: a key seen again answers what it answered the first time. */
export const sandboxIdempotencyKeys = pgTable(
  'sandbox_idempotency_keys',
  {
    storeId: storeId(),
    key: text('key').notNull(),
    /** The mutation's root field, e.g. inventorySetQuantities. */
    field: text('field').notNull(),
    response: jsonb('response').notNull(),
    createdAt: ts('created_at'),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.key] })],
);
