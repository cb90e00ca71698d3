// The product list as a workbench (pim/workbench/): the bulk changes kept for their undo, and the saved views of the
// list. A saved view hangs off the API key whose console session saved it (pim → admin, like console_sessions): each
// sign-in key is one user of the console, and a deleted key's views go with it.
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations } from '../db/tenancy.js';
import { apiKeys } from '../admin/admin.tables.js';

const orgId = () =>
  integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

/**
 * One bulk change of products (POST /api/products/bulk): what it did and, per product it changed, the values before it
 * (`previous`), so that POST /api/products/bulk/{id}/undo puts them back once (`undone_at`).
 */
export const productBulkChanges = pgTable(
  'product_bulk_changes',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    action: text('action').notNull(),
    value: jsonb('value'),
    productCount: integer('product_count').notNull(),
    previous: jsonb('previous').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('product_bulk_changes_org_idx').on(t.organizationId, t.id)],
);

/** A saved view of the product list: its filters, columns and sort, by name, for one API key (one console user). */
export const productViews = pgTable(
  'product_views',
  {
    id: serial('id').primaryKey(),
    organizationId: orgId(),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    filters: jsonb('filters').notNull(),
    columns: text('columns').array().notNull(),
    sort: text('sort'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_views_org_key_name_uq').on(t.organizationId, t.apiKeyId, t.name)],
);
