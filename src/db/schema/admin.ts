// Operator-owned tables: tenants and their PIM credentials.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(true),
  /** The currency of products and files that name none (ISO 4217); set once by the organization, never guessed. */
  defaultCurrency: text('default_currency'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

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
