// An integration's sync work: the log of every sync operation, full syncs (their products and bulk batches), and
// adoptions of a shop's existing catalogue. Each long run's id is its job's, and what it waits on is recorded first, so
// a restarted job resumes it.
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './connector.tables.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** One row per sync operation (a push, a delta or full sync, a failed check). */
export const syncLogs = pgTable(
  'sync_logs',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** e.g. `products.push`. */
    operation: text('operation').notNull(),
    /** `running`, `success`, `partial` or `error`. */
    status: text('status').notNull(),
    recordsProcessed: integer('records_processed').notNull().default(0),
    recordsFailed: integer('records_failed').notNull().default(0),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('sync_logs_integration_started_idx').on(t.integrationId, t.startedAt)],
);

/**
 * A full catalogue sync (POST /api/sync/full). Its id is the id of its `sync.full` job. The fan-out pages the PIM by id
 * and records where it is (`cursor_id`), so a restarted job goes on from there instead of starting again.
 */
export const fullSyncs = pgTable(
  'full_syncs',
  {
    id: uuid('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** `queued`, `running` (fanning out or products in flight), `completed` or `failed`. */
    status: text('status').notNull().default('queued'),
    /** `per_call` (one sync.product job per product) or `bulk` (sync.bulk jobs of bulk mutations); null until known. */
    mode: text('mode'),
    /** Products in the PIM account when the fan-out started. */
    totalProducts: integer('total_products'),
    /** The last PIM product id fanned out (keyset paging by id). */
    cursorId: integer('cursor_id').notNull().default(0),
    fannedOut: boolean('fanned_out').notNull().default(false),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('full_syncs_integration_idx').on(t.integrationId, t.createdAt)],
);

/** One product of a full sync and how it ended; progress is counted from here (idempotent, unlike counters). */
export const fullSyncItems = pgTable(
  'full_sync_items',
  {
    fullSyncId: uuid('full_sync_id')
      .notNull()
      .references(() => fullSyncs.id, { onDelete: 'cascade' }),
    pimProductId: integer('pim_product_id').notNull(),
    /** `queued`, `synced` or `failed`. */
    status: text('status').notNull().default('queued'),
    error: text('error'),
    /** The bulk batch carrying it (bulk mode). */
    batchId: integer('batch_id'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.fullSyncId, t.pimProductId] }), index('full_sync_items_status_idx').on(t.fullSyncId, t.status)],
);

/** A chunk of a bulk-mode full sync: one storefront bulk operation (sync.bulk job). */
export const fullSyncBatches = pgTable(
  'full_sync_batches',
  {
    id: serial('id').primaryKey(),
    fullSyncId: uuid('full_sync_id')
      .notNull()
      .references(() => fullSyncs.id, { onDelete: 'cascade' }),
    productIds: integer('product_ids').array().notNull(),
    /** The storefront's bulk operation (GID), recorded before waiting on it so a restarted job resumes it. */
    operationId: text('operation_id'),
    /** `queued`, `running`, `completed` or `failed`. */
    status: text('status').notNull().default('queued'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('full_sync_batches_sync_idx').on(t.fullSyncId, t.id)],
);

/**
 * Adopting a connected shop's existing catalogue (POST /api/adopt): its products read with one bulk query, matched to
 * the PIM's by SKU, barcode and handle, the matches linked as mappings. Its id is the id of its `catalogue.adopt` job.
 * The storefront's bulk operation and the PIM import it starts are recorded before they are waited on, so a restarted
 * job resumes them instead of starting new ones.
 */
export const adoptions = pgTable(
  'adoptions',
  {
    id: uuid('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** `queued`, `running`, `completed` or `failed`. */
    state: text('state').notNull().default('queued'),
    /** Create PIM products from the shop's unmatched products (through the PIM's import). */
    importUnmatched: boolean('import_unmatched').notNull().default(false),
    /** `reading_shop`, `reading_pim`, `matching`, `importing`; null until it starts. */
    phase: text('phase'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total'),
    /** The storefront's bulk query (GID) and the PIM import (its id), once started. */
    operationId: text('operation_id'),
    importId: text('import_id'),
    shopProducts: integer('shop_products'),
    pimProducts: integer('pim_products'),
    matched: integer('matched'),
    /** Matches by rule: {pim_id, sku, barcode, handle}. */
    matchedBy: jsonb('matched_by'),
    alreadyMapped: integer('already_mapped'),
    unmatchedShop: integer('unmatched_shop'),
    unmatchedPim: integer('unmatched_pim'),
    imported: integer('imported'),
    /** The first unmatched products of each side (capped; the counts above are the totals). */
    unmatchedShopList: jsonb('unmatched_shop_list'),
    unmatchedPimList: jsonb('unmatched_pim_list'),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [index('adoptions_integration_idx').on(t.integrationId, t.createdAt)],
);
