// What the bridge made in a shop for the PIM's rows, per integration: a storefront product for each PIM product pushed
// (with what it knows of it), a custom collection for each PIM category.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { integrations } from './connector.tables.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** PIM product ↔ storefront product, per integration (filled by the push). */
export const productMappings = pgTable(
  'product_mappings',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    pimProductId: integer('pim_product_id').notNull(),
    /** Shopify's numeric ids exceed 2^31: int8, returned as JSON numbers (below 2^53). */
    storefrontProductId: bigint('storefront_product_id', { mode: 'number' }),
    storefrontVariantId: bigint('storefront_variant_id', { mode: 'number' }),
    /** `pending`, `synced` or `error`. */
    syncStatus: text('sync_status').notNull().default('pending'),
    syncError: text('sync_error'),
    metadata: jsonb('metadata').notNull().default(sql`'{}'::jsonb`),
    /** KnownStorefrontProduct (storefront/port/known-product.ts): the storefront ids of the product's variants and images. */
    storefrontState: jsonb('storefront_state').notNull().default(sql`'{}'::jsonb`),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** The PIM product's updated_at of the snapshot last synced: the delta sync skips products not changed since. */
    pimUpdatedAt: timestamp('pim_updated_at', { withTimezone: true, precision: 3 }),
    /**
     * The newest PIM version (updated_at) a productSet wrote to the storefront, whatever came after it: a writer holding
     * an older snapshot leaves the product alone (connector/push/product-lease.ts).
     */
    storefrontVersion: timestamp('storefront_version', { withTimezone: true, precision: 3 }),
    /** The product's write lease: one writer at a time per integration and product, across processes. */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('product_mappings_integration_product_uq').on(t.integrationId, t.pimProductId),
    index('product_mappings_integration_status_idx').on(t.integrationId, t.syncStatus, t.id),
  ],
);

/**
 * The shop collection of each PIM category: a custom collection made by the bridge the first time a product
 * of the category is pushed, renamed with the category and deleted with it. `title` is what the bridge last wrote.
 */
export const categoryCollections = pgTable(
  'category_collections',
  {
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    pimCategoryId: integer('pim_category_id').notNull(),
    /** Shopify's GID, e.g. `gid://shopify/Collection/1`. */
    storefrontCollectionId: text('storefront_collection_id').notNull(),
    title: text('title').notNull(),
    handle: text('handle').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.integrationId, t.pimCategoryId] })],
);
