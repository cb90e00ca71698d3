// Catalogue files coming in: one row per uploaded CSV import, its failed rows, and the images its rows named (downloaded
// after the rows are committed). The job commits rows in batches together with `checkpoint_line`, so a restarted
// worker goes on after the last committed line and never writes a row twice. An image whose download failed waits
// in pending_images, its URL kept, until a later import of its product downloads it.
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from '../db/tenancy.js';
import { products } from './pim.tables.js';

export const imports = pgTable(
  'imports',
  {
    /** = the job's id. */
    id: uuid('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** `ours` or `shopify`. */
    format: text('format').notNull(),
    dryRun: boolean('dry_run').notNull().default(false),
    /** queued → running → completed | failed. */
    state: text('state').notNull().default('queued'),
    fileName: text('file_name').notNull(),
    /** Where the upload is kept (under DATA_DIR/imports) until the import ends. */
    storageKey: text('storage_key').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    rowsTotal: integer('rows_total').notNull(),
    rowsDone: integer('rows_done').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    /** The same outcomes counted by product (a product's own change, or any of its variants') and by variant. */
    productsCreated: integer('products_created').notNull().default(0),
    productsUpdated: integer('products_updated').notNull().default(0),
    productsUnchanged: integer('products_unchanged').notNull().default(0),
    variantsCreated: integer('variants_created').notNull().default(0),
    variantsUpdated: integer('variants_updated').notNull().default(0),
    variantsUnchanged: integer('variants_unchanged').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Images of the imported rows that could not be downloaded (each also an error row; not counted in `failed`). */
    imagesFailed: integer('images_failed').notNull().default(0),
    /** The last file line whose row is committed (1 = the header). */
    checkpointLine: integer('checkpoint_line').notNull().default(1),
    /** Why the whole import failed (a row's failure is in import_errors). */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('imports_org_created_idx').on(t.organizationId, t.createdAt)],
);

export const importErrors = pgTable(
  'import_errors',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    id: serial('id').notNull(),
    line: integer('line').notNull(),
    sku: text('sku'),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.id] }), index('import_errors_line_idx').on(t.importId, t.line)],
);

/** Images named by committed rows, waiting for their download; a row is deleted once its image is attached (or failed). */
export const importImages = pgTable(
  'import_images',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    id: serial('id').notNull(),
    productId: integer('product_id').notNull(),
    url: text('url').notNull(),
    position: integer('position').notNull(),
    line: integer('line').notNull(),
    sku: text('sku').notNull(),
    /** The image's alt text as the file gives it (Shopify's Image Alt Text). */
    altText: text('alt_text'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.id] })],
);

/**
 * Image URLs of imported products whose download failed: the URL stays the product's (exports list it after the stored
 * images, an import of the same URL is no change) and the next import of the product tries it again; deleted once
 * downloaded.
 */
export const pendingImages = pgTable(
  'pending_images',
  {
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Its place in the file's list of the product's images. */
    position: integer('position').notNull(),
    /** The alt text the file gave it, kept for the download that succeeds. */
    altText: text('alt_text'),
    attempts: integer('attempts').notNull().default(1),
    /** Why the last try failed. */
    error: text('error').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.url] })],
);
