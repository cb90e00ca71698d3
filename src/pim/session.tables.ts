// The console's sign-in (pim/session/): its sessions hang off the API key they were opened with, the one reference
// across modules' tables files (pim → admin): a revoked key's sessions end, a deleted key's go with it.
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from '../db/tenancy.js';
import { apiKeys } from '../admin/admin.tables.js';

/**
 * Console sessions: the browser's sign-in with an organization's API key and secret. The cookie carries a random
 * token; only its SHA-256 is stored. A session lives while its key is live and its organization active (checked on
 * every request) and until `expires_at`.
 */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('console_sessions_organization_idx').on(t.organizationId)],
);
