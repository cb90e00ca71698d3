// The built-in Shopify sandbox's stores, and each store's locations. The sandbox's tables are its own schema, apart
// from production's tables files that drizzle.config.ts lists: the *.tables.ts files of sandbox/, by topic (stores,
// products, bulk operations, publications, collections, translations, webhooks, OAuth), every row hanging off a store.
// Ids of the catalogue are bigserial: they become Shopify GIDs (`gid://shopify/Product/{id}`). Only the sandbox's
// repositories touch these tables, and no production table refers to them. Their migrations are the sandbox's own
// (./migrations, drizzle.sandbox.config.ts), applied only where the sandbox runs (sandbox.module.ts).
import { sql } from 'drizzle-orm';
import { bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/** The built-in Shopify sandbox's stores (a product feature: try Pimbridge without a real shop). */
export const sandboxStores = pgTable(
  'sandbox_stores',
  {
    id: serial('id').primaryKey(),
    domain: text('domain').notNull(),
    name: text('name').notNull(),
    /** SHA-256 of the store's Admin API access token (`shpat_…`), shown once when the store is made. */
    accessTokenHash: text('access_token_hash').notNull(),
    planName: text('plan_name').notNull().default('Basic'),
    currencyCode: text('currency_code').notNull().default('EUR'),
    /** Throttle and fault settings (PATCH /admin/shops/{id}/sandbox); null bucket values follow the plan. */
    bucketSize: integer('bucket_size'),
    restoreRate: integer('restore_rate'),
    errorRate: doublePrecision('error_rate').notNull().default(0),
    timeoutRate: doublePrecision('timeout_rate').notNull().default(0),
    failAfterCommitRate: doublePrecision('fail_after_commit_rate').notNull().default(0),
    latencyMs: integer('latency_ms').notNull().default(0),
    faultSeed: integer('fault_seed').notNull().default(1),
    /**
     * VARIANT_THROTTLE_EXCEEDED past this many variants in the store (Shopify: non-Plus stores past 50,000 variants may
     * create 1,000 a day); null: never.
     */
    variantThrottleLimit: integer('variant_throttle_limit'),
    /** Bumped by each configuration change: a fresh bucket and a re-seeded fault sequence. */
    configVersion: integer('config_version').notNull().default(0),
    createdAt: ts('created_at'),
    /**
     * The store's own app (docs/sandbox/oauth.md): its client id (32 hex) and client secret (`shpss_` + 32 hex). The
     * secret is Shopify's side of it, kept as is: the store signs the OAuth callback's hmac and its webhooks with it.
     */
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    appName: text('app_name').notNull().default('Pimbridge'),
    /** The app's configured access scopes; null: every scope the schema names. */
    appScopes: jsonb('app_scopes').$type<string[]>(),
    /** Scopes taken from every token of the store and from future grants. */
    revokedScopes: jsonb('revoked_scopes').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** The app's allowed redirection URLs; null: `{PUBLIC_URL}/shopify/callback`. */
    redirectUrls: jsonb('redirect_urls').$type<string[]>(),
    /** Expiring offline tokens' lifetime (and client credentials tokens' when set); null: 3600 (86399 for client credentials). */
    tokenLifetimeSeconds: integer('token_lifetime_seconds'),
    /** Refresh tokens' lifetime; null: 7776000 (90 days). */
    refreshTokenLifetimeSeconds: integer('refresh_token_lifetime_seconds'),
    /** Webhooks may go to http:// addresses too (Shopify: https only). */
    allowHttpWebhooks: boolean('allow_http_webhooks').notNull().default(false),
    /** Where the mandatory compliance webhooks go; null: `{PUBLIC_URL}/webhooks/shopify`. */
    complianceUrl: text('compliance_url'),
    /**
     * The media downloader may fetch `originalSource` from loopback, private and link-local addresses too (tests, a
     * local PIM); default false: public addresses only, as Shopify's own servers reach (docs/sandbox/media.md).
     */
    allowPrivateMediaSources: boolean('allow_private_media_sources').notNull().default(false),
  },
  (t) => [uniqueIndex('sandbox_stores_domain_uq').on(t.domain), uniqueIndex('sandbox_stores_client_id_uq').on(t.clientId)],
);

/** The store a row belongs to (its rows go with it). */
export const storeId = () =>
  integer('store_id')
    .notNull()
    .references(() => sandboxStores.id, { onDelete: 'cascade' });

/** A store's locations; every store gets one active "Shop location" (made lazily on first use). */
export const sandboxLocations = pgTable(
  'sandbox_locations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: ts('created_at'),
  },
  (t) => [index('sandbox_locations_store_idx').on(t.storeId, t.id)],
);
