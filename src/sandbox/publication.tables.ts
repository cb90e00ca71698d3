// A sandbox store's publications (sales channels) and which products and collections are published on each.
import { bigint, bigserial, boolean, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { storeId } from './store.tables.js';
import { productId } from './product.tables.js';
import { sandboxCollections } from './collection.tables.js';

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/**
 * A store's publications (sales channels' catalogues): every store gets Online Store, Point of Sale and Shop; tests and
 * the admin API may add more. A product reaches a channel only by a row in sandbox_product_publications.
 */
export const sandboxPublications = pgTable(
  'sandbox_publications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** The catalog's title (Publication.name is deprecated in 2026-10). */
    name: text('name').notNull(),
    autoPublish: boolean('auto_publish').notNull().default(false),
    createdAt: ts('created_at'),
  },
  (t) => [uniqueIndex('sandbox_publications_store_name_uq').on(t.storeId, t.name)],
);

export const sandboxProductPublications = pgTable(
  'sandbox_product_publications',
  {
    productId: productId(),
    publicationId: bigint('publication_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxPublications.id, { onDelete: 'cascade' }),
    publishedAt: ts('published_at'),
  },
  (t) => [primaryKey({ columns: [t.productId, t.publicationId] })],
);

/** Where a collection is published (publishablePublish of a Collection), as sandbox_product_publications for products. */
export const sandboxCollectionPublications = pgTable(
  'sandbox_collection_publications',
  {
    collectionId: bigint('collection_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxCollections.id, { onDelete: 'cascade' }),
    publicationId: bigint('publication_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxPublications.id, { onDelete: 'cascade' }),
    publishedAt: ts('published_at'),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.publicationId] })],
);
