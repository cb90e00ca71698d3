// A product's history: one row per write that changed it (who, when, each field old → new) and the product's own fields
// as they were right after it, which "restore this version" puts back (docs/pim-api.md, "Product history").
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from '../db/tenancy.js';
import { products } from './pim.tables.js';

export const productChanges = pgTable(
  'product_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who: `api_key`, `console`, `import` or `adoption`. */
    actorKind: text('actor_kind').notNull(),
    /** The API key the write came with (a console session's key, an import's starter's); null when none is known. */
    actorKeyId: integer('actor_key_id'),
    /** A label the merchant knows it by: an import's file name; the key's name is read with the history. */
    actorLabel: text('actor_label'),
    /** `created`, `updated` or `restored`. */
    action: text('action').notNull(),
    /** [{field, old, new}] in the API's field names and values. */
    changes: jsonb('changes').notNull().default(sql`'[]'::jsonb`),
    /** The product's own fields right after this change (the API's names and values, `category_ids` among them). */
    snapshot: jsonb('snapshot').notNull(),
    /** For a restore: the change whose version was put back. */
    restoredFrom: bigint('restored_from', { mode: 'number' }),
  },
  (t) => [index('product_changes_product_idx').on(t.organizationId, t.productId, t.id)],
);
