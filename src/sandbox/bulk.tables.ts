// A sandbox store's bulk operations and the staged uploads that carry their variables.
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { storeId } from './store.tables.js';

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/** Files posted to a store's staged-upload target (stagedUploadsCreate): bulk mutation variables as JSONL. */
export const sandboxStagedUploads = pgTable(
  'sandbox_staged_uploads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** The `key` form parameter and the stagedUploadPath handed to bulkOperationRunMutation. */
    path: text('path').notNull(),
    /** Null until the file is posted. */
    content: text('content'),
    createdAt: ts('created_at'),
  },
  (t) => [uniqueIndex('sandbox_staged_uploads_path_uq').on(t.path)],
);

/** Bulk operations (bulkOperationRunMutation, bulkOperationRunQuery) and their result files. */
export const sandboxBulkOperations = pgTable(
  'sandbox_bulk_operations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** Shopify's BulkOperationStatus: CREATED, RUNNING, COMPLETED, FAILED, CANCELING, CANCELED, EXPIRED. */
    status: text('status').notNull().default('CREATED'),
    /** Shopify's BulkOperationErrorCode when FAILED. */
    errorCode: text('error_code'),
    /** Shopify's BulkOperationType: MUTATION (bulkOperationRunMutation) or QUERY (bulkOperationRunQuery). */
    type: text('type').notNull().default('MUTATION'),
    /** The operation's document: the mutation run per line, or the bulk query. */
    mutation: text('mutation').notNull(),
    /** The staged file of a mutation's variables; empty for a query. */
    stagedUploadPath: text('staged_upload_path').notNull(),
    objectCount: integer('object_count').notNull().default(0),
    rootObjectCount: integer('root_object_count').notNull().default(0),
    /** The result JSONL, served at the operation's `url` once COMPLETED. */
    result: text('result'),
    createdAt: ts('created_at'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('sandbox_bulk_operations_store_idx').on(t.storeId, t.id)],
);
