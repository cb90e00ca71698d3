// The access the sandbox store's app got through OAuth: its tokens and the one-time records of the code grant.
import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { storeId } from './store.tables.js';

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/**
 * Access tokens the store's app got through OAuth (authorization code, expiring or not; client credentials; refresh),
 * beside the store's legacy `shpat_` token in sandbox_stores. Tokens are stored as SHA-256 hashes.
 */
export const sandboxOauthTokens = pgTable(
  'sandbox_oauth_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** `offline` (non-expiring), `expiring` (expiring offline, with a refresh token), `client_credentials`. */
    kind: text('kind').notNull(),
    accessTokenHash: text('access_token_hash').notNull(),
    /** The scopes granted (the revoked ones are taken off when the token is used). */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    refreshTokenHash: text('refresh_token_hash'),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }),
    /** The refresh token this one replaced: still valid until this token's access token is first used. */
    previousRefreshHash: text('previous_refresh_hash'),
    previousRefreshExpiresAt: timestamp('previous_refresh_expires_at', { withTimezone: true }),
    firstUsedAt: timestamp('first_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: ts('created_at'),
  },
  (t) => [
    uniqueIndex('sandbox_oauth_tokens_access_uq').on(t.accessTokenHash),
    uniqueIndex('sandbox_oauth_tokens_refresh_uq').on(t.refreshTokenHash),
    index('sandbox_oauth_tokens_previous_refresh_idx').on(t.previousRefreshHash),
    index('sandbox_oauth_tokens_store_idx').on(t.storeId),
  ],
);

/**
 * One-time records of the authorization code grant: `consent` (the nonce an Install or Cancel must bring back, bound
 * to the browser by a cookie, with the request it answers) and `code` (an authorization code, single use, short-lived).
 * Values are SHA-256 hashes.
 */
export const sandboxOauthGrants = pgTable(
  'sandbox_oauth_grants',
  {
    hash: text('hash').primaryKey(),
    storeId: storeId(),
    kind: text('kind').notNull(),
    /** SHA-256 of the consent cookie (consent only). */
    bindingHash: text('binding_hash'),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    redirectUri: text('redirect_uri').notNull(),
    state: text('state'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: ts('created_at'),
  },
  (t) => [index('sandbox_oauth_grants_store_idx').on(t.storeId)],
);
