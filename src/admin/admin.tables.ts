// The admin API's tables: the PIM credentials (API keys) it issues to organizations. The PIM checks keys only through
// admin/api-key.repository.ts (public to it), never by reading this table; its console_sessions refers to it for a
// foreign key (docs/architecture.md, "Tables and their owners").
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from '../db/tenancy.js';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name'),
    /** SHA-256 of the key sent in X-API-KEY; the key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** SHA-256 of the secret that proves possession on /api/auth/verify. */
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_organization_idx').on(t.organizationId).where(sql`${t.revokedAt} is null`)],
);
