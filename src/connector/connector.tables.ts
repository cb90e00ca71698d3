// The connector's tables of its shops and their integrations: shops where the app is installed (and their access),
// installs in progress, integrations (shop ↔ PIM account) and their bearer tokens. Every other connector row hangs off
// a shop or an integration, in mapping.tables.ts (what the bridge made in the shop), sync.tables.ts (syncs and
// adoptions) and drift.tables.ts (webhooks and drift). Only the connector's repositories read or write them; the admin
// API registers shops through connector/shop-auth/shop-registry.repository.ts (docs/architecture.md, "Tables and their
// owners").
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organizations } from '../db/tenancy.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A storefront where the app is installed (registered through the admin API, or installed through OAuth). Only shops listed here can connect. */
export const shops = pgTable(
  'shops',
  {
    id: serial('id').primaryKey(),
    /** Lower-cased shop domain, e.g. `acme.myshopify.com`. */
    domain: text('domain').notNull(),
    /** `shopify` or `sandbox`. */
    platform: text('platform').notNull(),
    /** Overrides `https://{domain}` (sandbox, test servers); null for a real shop. */
    apiBaseUrl: text('api_base_url'),
    /** The Admin API access token, encrypted with ENCRYPTION_KEY (AES-256-GCM, see lib/secret-box.ts). */
    accessTokenEncrypted: text('access_token_encrypted').notNull(),
    /**
     * The organization that owns the shop (registered it through the admin API, or installed the app): only its PIM
     * credentials, or proof of control of the shop, connect it (connector/shop-auth). Null: an older row no connect
     * could attribute; nobody connects it until the operator names its owner.
     */
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    /**
     * How the access token was obtained (docs/connect-a-store.md): `access_token` (a legacy custom app's static token),
     * `client_credentials` (a Dev Dashboard app on the merchant's own store) or `authorization_code` (the app installed
     * through OAuth, with an expiring offline token and its refresh token).
     */
    authMethod: text('auth_method').notNull().default('access_token'),
    /** The app's client id and its secret (sealed); the secret also verifies the shop's webhooks. */
    clientId: text('client_id'),
    clientSecretEncrypted: text('client_secret_encrypted'),
    /** When the access token expires; null: it does not. */
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true, precision: 3 }),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true, precision: 3 }),
    /** One renewal at a time across processes: the holder's lease (connector/shop-auth/shop-tokens.ts). */
    renewalOwner: text('renewal_owner'),
    renewalUntil: timestamp('renewal_until', { withTimezone: true, precision: 3 }),
    /** When the current access token was obtained (registered, installed or renewed): how long it lives. */
    tokenRenewedAt: timestamp('token_renewed_at', { withTimezone: true }),
    /** Renewals so far (a figure for operators and benchmarks). */
    tokenRenewals: integer('token_renewals').notNull().default(0),
    /** `ok`, or `reauthorization_required` once a renewal failed for good (the merchant must install or register again). */
    authStatus: text('auth_status').notNull().default('ok'),
    authError: text('auth_error'),
    /** The scopes the shop granted, as last read (currentAppInstallation.accessScopes); null: not read yet. */
    grantedScopes: jsonb('granted_scopes').$type<string[]>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('shops_domain_uq').on(t.domain), index('shops_organization_idx').on(t.organizationId)],
);

/**
 * An install in progress (GET /shopify/install → Shopify's consent → GET /shopify/callback): the OAuth `state`, bound
 * to the browser that started it by a cookie nonce, and to the organization that will own the shop. Single use, short-lived.
 */
export const shopInstalls = pgTable('shop_installs', {
  id: serial('id').primaryKey(),
  stateHash: text('state_hash').notNull().unique(),
  browserHash: text('browser_hash').notNull(),
  organizationId: integer('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  domain: text('domain').notNull(),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One shop linked to one PIM account. Deactivated on disconnect, reactivated (same id) on reconnect. */
export const integrations = pgTable(
  'integrations',
  {
    id: serial('id').primaryKey(),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    pimBaseUrl: text('pim_base_url').notNull(),
    /** PIM credentials, encrypted with ENCRYPTION_KEY; never logged, never returned. */
    pimApiKeyEncrypted: text('pim_api_key_encrypted').notNull(),
    pimApiSecretEncrypted: text('pim_api_secret_encrypted').notNull(),
    /**
     * SHA-256 of the PIM API key: which PIM account the integration uses, without opening the sealed key. The console
     * shows an organization the integrations whose key is one of its own. Null on rows from before it existed until
     * the start-up backfill (IntegrationService.fillPimKeyHashes).
     */
    pimKeyHash: text('pim_key_hash'),
    isActive: boolean('is_active').notNull().default(true),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    /** The latest live checks (the spec's pim_status / storefront_status objects) and when they ran: the public status reads these, never calling out. */
    pimStatus: jsonb('pim_status'),
    storefrontStatus: jsonb('storefront_status'),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    /** The latest sync or check error, for the public status's last_error. */
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    /**
     * The delta sync's cursor: the (updated_at, id) of the last PIM product it enqueued, in the PIM's list order for
     * `updated_since` + `after_id`. Null until the first poll, which starts from the integration's creation.
     */
    syncWatermarkAt: timestamp('sync_watermark_at', { withTimezone: true, precision: 3 }),
    syncWatermarkId: integer('sync_watermark_id').notNull().default(0),
    /**
     * How the bridge maps PIM data onto this shop (IntegrationSettings, connector/integrations): PIM channel →
     * publications, warehouse → location, whether prices are converted elsewhere. Empty: the defaults.
     */
    settings: jsonb('settings').notNull().default(sql`'{}'::jsonb`),
    /**
     * The PIM translation locales the shop has not enabled (shopLocales), as the last push that had translations found
     * them: reported once in GET /api/status, not as product errors. Empty: none missing.
     */
    missingLocales: jsonb('missing_locales').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('integrations_shop_uq').on(t.shopId), index('integrations_pim_key_idx').on(t.pimKeyHash)],
);

/** Opaque bearer tokens, stored as SHA-256 hashes. Scopes nest: admin ⊃ write ⊃ read. */
export const connectorTokens = pgTable(
  'connector_tokens',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** `read`, `write` or `admin`. */
    scope: text('scope').notNull(),
    name: text('name'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('connector_tokens_hash_uq').on(t.tokenHash), index('connector_tokens_integration_idx').on(t.integrationId)],
);
