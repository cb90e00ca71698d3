// A sandbox store's custom collections: their metafields and the products they hold.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { storeId } from './store.tables.js';
import { productId } from './product.tables.js';

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/**
 * A store's custom (manual) collections: collectionCreate with no condition sources. Smart collections (conditions) are
 * not kept: the sandbox refuses `sources` with conditions (a custom collection's membership is its selections).
 */
export const sandboxCollections = pgTable(
  'sandbox_collections',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    title: text('title').notNull(),
    /** Unique per store: generated from the title, with `-1`, `-2`, … when taken (CollectionCreateInput.handle). */
    handle: text('handle').notNull(),
    descriptionHtml: text('description_html').notNull().default(''),
    /** CollectionSortOrder, e.g. MANUAL, BEST_SELLING. */
    sortOrder: text('sort_order').notNull().default('BEST_SELLING'),
    templateSuffix: text('template_suffix'),
    seo: jsonb('seo').$type<{ title: string | null; description: string | null }>().notNull().default(sql`'{"title":null,"description":null}'::jsonb`),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [uniqueIndex('sandbox_collections_store_handle_uq').on(t.storeId, t.handle), index('sandbox_collections_store_id_idx').on(t.storeId, t.id)],
);

/** A collection's metafields (CollectionCreateInput.metafields), as sandbox_product_metafields are a product's. */
export const sandboxCollectionMetafields = pgTable(
  'sandbox_collection_metafields',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    collectionId: bigint('collection_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxCollections.id, { onDelete: 'cascade' }),
    storeId: storeId(),
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    type: text('type').notNull(),
    value: text('value').notNull(),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [
    uniqueIndex('sandbox_collection_metafields_collection_key_uq').on(t.collectionId, t.namespace, t.key),
    index('sandbox_collection_metafields_lookup_idx').on(t.storeId, t.namespace, t.key, t.value),
  ],
);

/** Which products a custom collection holds (its manual selections), in the collection's order. */
export const sandboxCollectionProducts = pgTable(
  'sandbox_collection_products',
  {
    collectionId: bigint('collection_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxCollections.id, { onDelete: 'cascade' }),
    productId: productId(),
    position: integer('position').notNull(),
    createdAt: ts('created_at'),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.productId] }), index('sandbox_collection_products_product_idx').on(t.productId)],
);
