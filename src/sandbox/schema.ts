// The built-in Shopify sandbox's tables (its own schema, apart from production's tables files that drizzle.config.ts
// lists): its stores, and each store's catalogue: products, variants, media, locations, product metafields and metafield
// definitions, staged uploads and bulk operations, publications, idempotency keys. Ids of the catalogue are bigserial:
// they become Shopify GIDs (`gid://shopify/Product/{id}`). Only the sandbox's repositories touch these tables, and no
// production table refers to them. Their migrations are the sandbox's own (./migrations, drizzle.sandbox.config.ts),
// applied only where the sandbox runs (sandbox.module.ts).
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Binary column (pg answers a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

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

const storeId = () =>
  integer('store_id')
    .notNull()
    .references(() => sandboxStores.id, { onDelete: 'cascade' });
const productId = () =>
  bigint('product_id', { mode: 'number' })
    .notNull()
    .references(() => sandboxProducts.id, { onDelete: 'cascade' });

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

export const sandboxProducts = pgTable(
  'sandbox_products',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    handle: text('handle').notNull(),
    title: text('title').notNull(),
    descriptionHtml: text('description_html').notNull().default(''),
    vendor: text('vendor').notNull().default(''),
    productType: text('product_type').notNull().default(''),
    /** ACTIVE, ARCHIVED, DRAFT (Shopify's ProductStatus). */
    status: text('status').notNull().default('ACTIVE'),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    seo: jsonb('seo').$type<{ title: string | null; description: string | null }>().notNull().default(sql`'{"title":null,"description":null}'::jsonb`),
    /** [{name, values: [..]}] in position order. */
    options: jsonb('options').$type<{ name: string; values: string[] }[]>().notNull().default(sql`'[]'::jsonb`),
    /** Product.isGiftCard: set on create (ProductSetInput.giftCard), never changed afterwards. */
    giftCard: boolean('gift_card').notNull().default(false),
    /** Product.category: the Standard Product Taxonomy id (`aa-1-13-8`, taxonomy-data.ts), null when none. */
    categoryId: text('category_id'),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [uniqueIndex('sandbox_products_store_handle_uq').on(t.storeId, t.handle), index('sandbox_products_store_id_idx').on(t.storeId, t.id)],
);

export const sandboxVariants = pgTable(
  'sandbox_variants',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: productId(),
    sku: text('sku'),
    /** Decimal strings, as Shopify's Money scalar. */
    price: text('price').notNull().default('0.00'),
    compareAtPrice: text('compare_at_price'),
    barcode: text('barcode'),
    /** [{optionName, name}] in the product's option order. */
    optionValues: jsonb('option_values').$type<{ optionName: string; name: string }[]>().notNull().default(sql`'[]'::jsonb`),
    /**
     * Available quantity by location id. A location is a key exactly when the variant's inventory item is stocked there
     * (has an inventory level): Shopify only takes quantities where the item is stocked.
     */
    inventory: jsonb('inventory').$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    position: integer('position').notNull(),
    /** ProductVariantInventoryPolicy: DENY (the default) or CONTINUE. */
    inventoryPolicy: text('inventory_policy').notNull().default('DENY'),
    /** ProductVariant.taxable ("Whether a tax is charged when the product variant is sold"); true unless sent. */
    taxable: boolean('taxable').notNull().default(true),
    /** The inventory item's fields: InventoryItem.tracked, requiresShipping, unitCost (Decimal string), measurement.weight. */
    tracked: boolean('tracked').notNull().default(true),
    requiresShipping: boolean('requires_shipping').notNull().default(true),
    unitCost: text('unit_cost'),
    weight: jsonb('weight').$type<{ value: number; unit: string } | null>(),
    /**
     * The variant's media (ProductVariantSetInput.file, one of the product's own media): ProductVariant.media answers it.
     * A media the product loses (productSet's `files` replaced) leaves the variant without one.
     */
    mediaId: bigint('media_id', { mode: 'number' }).references((): AnyPgColumn => sandboxMedia.id, { onDelete: 'set null' }),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [index('sandbox_variants_product_idx').on(t.productId, t.position), index('sandbox_variants_media_idx').on(t.mediaId)],
);

export const sandboxMedia = pgTable(
  'sandbox_media',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: productId(),
    originalSource: text('original_source').notNull(),
    alt: text('alt'),
    position: integer('position').notNull(),
    /**
     * Shopify's MediaStatus: UPLOADED when made from originalSource, PROCESSING while the sandbox fetches it, then READY
     * (content and mime_type hold the sandbox's copy) or FAILED (error_code is a MediaErrorCode, error_message the details).
     */
    status: text('status').notNull().default('UPLOADED'),
    content: bytea('content'),
    mimeType: text('mime_type'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /**
     * FileSetInput.filename, else the last segment of originalSource: the last segment of the URL the sandbox answers
     * for the image, as Shopify's CDN URLs end with the file name.
     */
    filename: text('filename'),
    createdAt: ts('created_at'),
  },
  (t) => [index('sandbox_media_product_idx').on(t.productId, t.position)],
);

export const sandboxProductMetafields = pgTable(
  'sandbox_product_metafields',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: productId(),
    /** Denormalised for the customId lookup (store, namespace, key, value). */
    storeId: storeId(),
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    type: text('type').notNull(),
    value: text('value').notNull(),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [
    uniqueIndex('sandbox_product_metafields_product_key_uq').on(t.productId, t.namespace, t.key),
    index('sandbox_product_metafields_lookup_idx').on(t.storeId, t.namespace, t.key, t.value),
  ],
);

export const sandboxMetafieldDefinitions = pgTable(
  'sandbox_metafield_definitions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** Shopify's MetafieldOwnerType, e.g. PRODUCT. */
    ownerType: text('owner_type').notNull(),
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    uniqueValues: boolean('unique_values').notNull().default(false),
    /** MetafieldDefinitionInput.validations as given ({name, value}), e.g. `choices` (values are checked against them). */
    validations: jsonb('validations').$type<{ name: string; value: string }[]>().notNull().default([]),
    createdAt: ts('created_at'),
  },
  (t) => [uniqueIndex('sandbox_metafield_definitions_uq').on(t.storeId, t.ownerType, t.namespace, t.key)],
);

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

/**
 * A store's publications (sales channels' catalogues): every store gets Online Store, Point of Sale and Shop; tests and
 * the admin API may add more. A product reaches a channel only by a row in sandbox_product_publications.
 */
export const sandboxPublications = pgTable(
  'sandbox_publications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** The catalog's title (Publication.name is deprecated in 2026-10). */
    name: text('name').notNull(),
    autoPublish: boolean('auto_publish').notNull().default(false),
    createdAt: ts('created_at'),
  },
  (t) => [uniqueIndex('sandbox_publications_store_name_uq').on(t.storeId, t.name)],
);

export const sandboxProductPublications = pgTable(
  'sandbox_product_publications',
  {
    productId: productId(),
    publicationId: bigint('publication_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxPublications.id, { onDelete: 'cascade' }),
    publishedAt: ts('published_at'),
  },
  (t) => [primaryKey({ columns: [t.productId, t.publicationId] })],
);

/** `@idempotent(key:)` of inventory mutations: a key seen again answers what it answered the first time. */
export const sandboxIdempotencyKeys = pgTable(
  'sandbox_idempotency_keys',
  {
    storeId: storeId(),
    key: text('key').notNull(),
    /** The mutation's root field, e.g. inventorySetQuantities. */
    field: text('field').notNull(),
    response: jsonb('response').notNull(),
    createdAt: ts('created_at'),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.key] })],
);

/** A store's webhook subscriptions (webhookSubscriptionCreate / webhookSubscriptions / webhookSubscriptionDelete). */
export const sandboxWebhookSubscriptions = pgTable(
  'sandbox_webhook_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** WebhookSubscriptionTopic, e.g. PRODUCTS_UPDATE. */
    topic: text('topic').notNull(),
    uri: text('uri').notNull(),
    /** WebhookSubscriptionFormat: JSON (XML is refused). */
    format: text('format').notNull().default('JSON'),
    name: text('name'),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [uniqueIndex('sandbox_webhook_subscriptions_topic_uri_uq').on(t.storeId, t.topic, t.uri)],
);

/** Each webhook the store sent or is retrying: its id (X-Shopify-Webhook-Id), body as signed, and its attempts. */
export const sandboxWebhookDeliveries = pgTable(
  'sandbox_webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** X-Shopify-Webhook-Id (a UUID); the same on every retry of this delivery. */
    webhookId: text('webhook_id').notNull(),
    /** X-Shopify-Event-Id: the event, shared by its deliveries to every subscription. */
    eventId: text('event_id').notNull(),
    topic: text('topic').notNull(),
    uri: text('uri').notNull(),
    body: text('body').notNull(),
    /** `pending` (an attempt is due), `delivered`, `failed` (no retry left). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    triggeredAt: ts('triggered_at'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sandbox_webhook_deliveries_webhook_id_uq').on(t.webhookId), index('sandbox_webhook_deliveries_store_idx').on(t.storeId, t.id)],
);

/**
 * A store's custom (manual) collections: collectionCreate with no condition sources. Smart collections (conditions) are
 * not kept: the sandbox refuses `sources` with conditions (a custom collection's membership is its selections).
 */
export const sandboxCollections = pgTable(
  'sandbox_collections',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    title: text('title').notNull(),
    /** Unique per store: generated from the title, with `-1`, `-2`, … when taken (CollectionCreateInput.handle). */
    handle: text('handle').notNull(),
    descriptionHtml: text('description_html').notNull().default(''),
    /** CollectionSortOrder, e.g. MANUAL, BEST_SELLING. */
    sortOrder: text('sort_order').notNull().default('BEST_SELLING'),
    templateSuffix: text('template_suffix'),
    seo: jsonb('seo').$type<{ title: string | null; description: string | null }>().notNull().default(sql`'{"title":null,"description":null}'::jsonb`),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [uniqueIndex('sandbox_collections_store_handle_uq').on(t.storeId, t.handle), index('sandbox_collections_store_id_idx').on(t.storeId, t.id)],
);

/** A collection's metafields (CollectionCreateInput.metafields), as sandbox_product_metafields are a product's. */
export const sandboxCollectionMetafields = pgTable(
  'sandbox_collection_metafields',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    collectionId: bigint('collection_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxCollections.id, { onDelete: 'cascade' }),
    storeId: storeId(),
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    type: text('type').notNull(),
    value: text('value').notNull(),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [
    uniqueIndex('sandbox_collection_metafields_collection_key_uq').on(t.collectionId, t.namespace, t.key),
    index('sandbox_collection_metafields_lookup_idx').on(t.storeId, t.namespace, t.key, t.value),
  ],
);

/** Which products a custom collection holds (its manual selections), in the collection's order. */
export const sandboxCollectionProducts = pgTable(
  'sandbox_collection_products',
  {
    collectionId: bigint('collection_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxCollections.id, { onDelete: 'cascade' }),
    productId: productId(),
    position: integer('position').notNull(),
    createdAt: ts('created_at'),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.productId] }), index('sandbox_collection_products_product_idx').on(t.productId)],
);

/**
 * A store's locales (shopLocales): one primary (made lazily, `en`), and the alternates enabled by shopLocaleEnable.
 * `published`: shown to buyers (ShopLocale.published).
 */
export const sandboxShopLocales = pgTable(
  'sandbox_shop_locales',
  {
    storeId: storeId(),
    /** An ISO code as Shopify spells it: `de`, `fr-CA`, `pt-BR`. */
    locale: text('locale').notNull(),
    primary: boolean('primary').notNull().default(false),
    published: boolean('published').notNull().default(false),
    createdAt: ts('created_at'),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.locale] })],
);

/**
 * Translations registered with translationsRegister: one value per resource, key and locale, with the digest of the
 * content it translates (outdated when the resource's content digest is another one now).
 */
export const sandboxTranslations = pgTable(
  'sandbox_translations',
  {
    storeId: storeId(),
    /** The translatable resource's GID, e.g. `gid://shopify/Product/1`. */
    resourceId: text('resource_id').notNull(),
    /** A TranslatableContent key, e.g. title, body_html, meta_title, meta_description. */
    key: text('key').notNull(),
    locale: text('locale').notNull(),
    value: text('value').notNull(),
    /** TranslationInput.translatableContentDigest as registered. */
    digest: text('digest').notNull(),
    updatedAt: ts('updated_at'),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.resourceId, t.locale, t.key] })],
);

/** Where a collection is published (publishablePublish of a Collection), as sandbox_product_publications for products. */
export const sandboxCollectionPublications = pgTable(
  'sandbox_collection_publications',
  {
    collectionId: bigint('collection_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxCollections.id, { onDelete: 'cascade' }),
    publicationId: bigint('publication_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxPublications.id, { onDelete: 'cascade' }),
    publishedAt: ts('published_at'),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.publicationId] })],
);

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
