// The connector's tables: shops where the app is installed (and their access), installs in progress, integrations
// (shop ↔ PIM account), their bearer tokens, product mappings, sync logs, full syncs, adoptions, webhook deliveries,
// drift and category collections. Every row hangs off a shop or an integration. Only the connector's repositories read
// or write them; the admin API registers shops through connector/shop-auth/shop-registry.repository.ts
// (docs/architecture.md, "Tables and their owners").
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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

/** PIM product ↔ storefront product, per integration (filled by the push). */
export const productMappings = pgTable(
  'product_mappings',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    pimProductId: integer('pim_product_id').notNull(),
    /** Shopify's numeric ids exceed 2^31: int8, returned as JSON numbers (below 2^53). */
    storefrontProductId: bigint('storefront_product_id', { mode: 'number' }),
    storefrontVariantId: bigint('storefront_variant_id', { mode: 'number' }),
    /** `pending`, `synced` or `error`. */
    syncStatus: text('sync_status').notNull().default('pending'),
    syncError: text('sync_error'),
    metadata: jsonb('metadata').notNull().default(sql`'{}'::jsonb`),
    /** KnownStorefrontProduct (storefront/port/known-product.ts): the storefront ids of the product's variants and images. */
    storefrontState: jsonb('storefront_state').notNull().default(sql`'{}'::jsonb`),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** The PIM product's updated_at of the snapshot last synced: the delta sync skips products not changed since. */
    pimUpdatedAt: timestamp('pim_updated_at', { withTimezone: true, precision: 3 }),
    /**
     * The newest PIM version (updated_at) a productSet wrote to the storefront, whatever came after it: a writer holding
     * an older snapshot leaves the product alone (connector/push/product-lease.ts).
     */
    storefrontVersion: timestamp('storefront_version', { withTimezone: true, precision: 3 }),
    /** The product's write lease: one writer at a time per integration and product, across processes. */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('product_mappings_integration_product_uq').on(t.integrationId, t.pimProductId),
    index('product_mappings_integration_status_idx').on(t.integrationId, t.syncStatus, t.id),
  ],
);

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

/**
 * Shopify webhook deliveries the bridge acted on (connector/webhooks/), one row per X-Shopify-Webhook-Id: a delivery
 * whose id is here already is answered 200 and not acted on again. Rows older than 30 days are removed by later
 * deliveries (Shopify retries for 4 hours).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    /** X-Shopify-Webhook-Id. */
    webhookId: text('webhook_id').notNull(),
    shopDomain: text('shop_domain').notNull(),
    /** X-Shopify-Topic, e.g. `products/delete`. */
    topic: text('topic').notNull(),
    /** The active integration of the shop when it arrived; null: none (the delivery was acknowledged and ignored). */
    integrationId: integer('integration_id').references(() => integrations.id, { onDelete: 'cascade' }),
    /** What it did: `mapping_deleted`, `drift`, `no_drift`, `deactivated`, `ignored`, … */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_deliveries_webhook_id_uq').on(t.webhookId), index('webhook_deliveries_received_idx').on(t.receivedAt)],
);

/**
 * Drift: a field the bridge owns changed in the shop (a products/update webhook whose values differ from what the last
 * push wrote). One row per field and delivery; read by the drift report (docs/sync.md, "Webhooks").
 */
export const driftEvents = pgTable(
  'drift_events',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    pimProductId: integer('pim_product_id').notNull(),
    storefrontProductId: bigint('storefront_product_id', { mode: 'number' }).notNull(),
    /** `title`, `handle`, `variant_skus`. */
    field: text('field').notNull(),
    /** What the last push wrote, and what the shop has now (JSON text for lists). */
    expected: text('expected'),
    actual: text('actual'),
    /** `webhook:products/update`. */
    source: text('source').notNull(),
    webhookId: text('webhook_id'),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('drift_events_integration_idx').on(t.integrationId, t.detectedAt)],
);

/**
 * A drift report (POST /api/drift): the shop read with one bulk query and compared with what the bridge last wrote
 * (each mapping's storefront_state.written). Its id is the id of its `catalogue.drift` job; the bulk query is recorded
 * before it is waited on, so a restarted job follows it. The items are in drift_report_items.
 */
export const driftReports = pgTable(
  'drift_reports',
  {
    id: uuid('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** `queued`, `running`, `completed` or `failed`. */
    state: text('state').notNull().default('queued'),
    /** The storefront's bulk query (GID), once started. */
    operationId: text('operation_id'),
    /** Counts once completed: {mapped, compared, not_compared, shop_products, changed, missing_in_shop, orphan_in_shop}. */
    counts: jsonb('counts'),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [index('drift_reports_integration_idx').on(t.integrationId, t.createdAt)],
);

/** One product of a drift report: changed in the shop, gone from the shop, or in the shop only (ours, unmapped). */
export const driftReportItems = pgTable(
  'drift_report_items',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => driftReports.id, { onDelete: 'cascade' }),
    /** Order in the report (by kind, then PIM / storefront id). */
    seq: integer('seq').notNull(),
    /** `changed`, `missing_in_shop` or `orphan_in_shop`. */
    kind: text('kind').notNull(),
    pimProductId: integer('pim_product_id'),
    storefrontProductId: bigint('storefront_product_id', { mode: 'number' }),
    handle: text('handle'),
    title: text('title'),
    /** For `changed`: [{field, storefront, written}]. */
    fields: jsonb('fields'),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.seq] }), index('drift_report_items_kind_idx').on(t.reportId, t.kind, t.seq)],
);

/**
 * The shop collection of each PIM category: a custom collection made by the bridge the first time a product
 * of the category is pushed, renamed with the category and deleted with it. `title` is what the bridge last wrote.
 */
export const categoryCollections = pgTable(
  'category_collections',
  {
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    pimCategoryId: integer('pim_category_id').notNull(),
    /** Shopify's GID, e.g. `gid://shopify/Collection/1`. */
    storefrontCollectionId: text('storefront_collection_id').notNull(),
    title: text('title').notNull(),
    handle: text('handle').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.integrationId, t.pimCategoryId] })],
);
