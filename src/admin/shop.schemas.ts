// The schemas of the shop routes: a shop, its owner and ways in, and a sandbox store's settings and configuration.
import { Type } from '@sinclair/typebox';
import { PLATFORMS } from './shop.service.js';

export const Shop = Type.Object({
  id: Type.Integer(),
  domain: Type.String(),
  platform: Type.String(),
  api_base_url: Type.Union([Type.String(), Type.Null()]),
  organization_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the owner: only its credentials, or proof of control of the shop, connect it' }),
  auth_method: Type.Unsafe<string>({ type: 'string', enum: ['access_token', 'client_credentials', 'authorization_code'] }),
  auth_status: Type.Unsafe<string>({ type: 'string', enum: ['ok', 'reauthorization_required'] }),
  token_expires_at: Type.Union([Type.String({ description: 'ISO 8601, UTC' }), Type.Null()]),
  token_renewals: Type.Integer({ description: 'how many times Pimbridge renewed the expiring token' }),
  created_at: Type.String({ description: 'ISO 8601, UTC' }),
});

export const OrganizationId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const access = {
  access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: "shopify only: a legacy custom app's Admin API access token" })),
  client_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: "shopify only: a Dev Dashboard app's client id (client credentials grant)" }),
  ),
  client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: "shopify only: that app's client secret" })),
};

/** POST /admin/shops: the shop, its platform, its owner and (shopify) its way in. */
export const NewShop = Type.Object(
  {
    domain: Type.String({ minLength: 1, maxLength: 253, description: 'e.g. acme.myshopify.com (lower-cased)' }),
    platform: Type.Unsafe<(typeof PLATFORMS)[number]>({ type: 'string', enum: [...PLATFORMS] }),
    organization_id: OrganizationId,
    ...access,
    api_base_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'shopify only: overrides https://{domain}' })),
  },
  { additionalProperties: false },
);

/** A registered shop, with a new sandbox store's token and app (shown once). */
export const RegisteredShop = Type.Object({
  ...Shop.properties,
  access_token: Type.Optional(Type.String({ description: "sandbox only, shown once: the store's non-expiring token" })),
  client_id: Type.Optional(Type.String({ description: "sandbox only: the store's own app" })),
  client_secret: Type.Optional(Type.String({ description: 'sandbox only, shown once' })),
});

/** PATCH /admin/shops/{id}: a new owner, or a new way in. */
export const ShopChange = Type.Object({ organization_id: Type.Optional(OrganizationId), ...access }, { additionalProperties: false, minProperties: 1 });

/** The id of a shop in the path. */
export const ShopIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) });

const rate = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1, description }));
export const SandboxConfig = Type.Object({
  id: Type.Integer(),
  domain: Type.String(),
  plan: Type.String(),
  bucket_size: Type.Integer(),
  restore_rate: Type.Integer(),
  error_rate: Type.Number(),
  timeout_rate: Type.Number(),
  fail_after_commit_rate: Type.Number(),
  latency_ms: Type.Integer(),
  fault_seed: Type.Integer(),
  variant_throttle_limit: Type.Union([Type.Integer(), Type.Null()]),
  locations: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  // The store's app (docs/sandbox/oauth.md).
  client_id: Type.String(),
  token_lifetime_seconds: Type.Union([Type.Integer(), Type.Null()], { description: 'null: 3600 (expiring offline), 86399 (client credentials)' }),
  refresh_token_lifetime_seconds: Type.Integer(),
  app_scopes: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: every scope' }),
  revoked_scopes: Type.Array(Type.String()),
  redirect_urls: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'null: {PUBLIC_URL}/shopify/callback' }),
  allow_http_webhooks: Type.Boolean(),
  compliance_url: Type.Union([Type.String(), Type.Null()], { description: 'null: {PUBLIC_URL}/webhooks/shopify' }),
  allow_private_media_sources: Type.Boolean(),
});
const scopeList = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z][a-z0-9_]*$' }), { maxItems: 300, description });
const urlList = Type.Array(Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://' }), { maxItems: 50 });
export const SandboxSettings = Type.Object(
  {
    bucket_size: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Null()], { description: "points; null: the plan's" })),
    restore_rate: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Null()], { description: "points per second; null: the plan's" }),
    ),
    error_rate: rate('share of calls answered 500/502/503 before running'),
    timeout_rate: rate('share of calls held until the client gives up, before running'),
    fail_after_commit_rate: rate('share of calls that run (and commit) but answer 503'),
    latency_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
    fault_seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'seeds the fault sequence (reproducible tests)' })),
    variant_throttle_limit: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()], {
        description: 'VARIANT_THROTTLE_EXCEEDED once the store holds this many variants; null: never',
      }),
    ),
    locations: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
        maxItems: 50,
        description: 'location names the store must have (added when missing)',
      }),
    ),
    // The store's app: token lifetimes, scopes, redirect URLs, webhooks (docs/sandbox/oauth.md).
    token_lifetime_seconds: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 31_536_000 }), Type.Null()], {
        description: 'expiring offline and client credentials tokens; null: 3600 and 86399',
      }),
    ),
    refresh_token_lifetime_seconds: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 315_360_000 }), Type.Null()], { description: 'null: 7776000 (90 days)' }),
    ),
    app_scopes: Type.Optional(Type.Union([scopeList("the app's configured scopes (client credentials grants them)"), Type.Null()])),
    revoked_scopes: Type.Optional(scopeList('scopes taken from every token of the store and from future grants')),
    redirect_urls: Type.Optional(Type.Union([urlList, Type.Null()], { description: "the app's allowed redirection URLs" })),
    allow_http_webhooks: Type.Optional(Type.Boolean({ description: 'deliver webhooks to http:// addresses too (Shopify: https only)' })),
    compliance_url: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://' }), Type.Null()], {
        description: 'where the mandatory compliance webhooks go',
      }),
    ),
    allow_private_media_sources: Type.Optional(
      Type.Boolean({
        description: "fetch media originalSource from loopback and private addresses too (tests); default false: public addresses only, as Shopify's servers",
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** POST /admin/shops/{id}/sandbox/publications: a sales channel's publication. */
export const NewPublication = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255, description: "the publication's catalog title" }) },
  { additionalProperties: false },
);

export const SandboxPublication = Type.Object({ id: Type.String({ description: 'gid://shopify/Publication/N' }), name: Type.String() });

/** POST /admin/sandbox/stores: a store not registered as a shop, and what it answers (token and secret shown once). */
export const NewSandboxStore = Type.Object(
  { domain: Type.String({ minLength: 1, maxLength: 253, description: 'e.g. my-store.myshopify.com (lower-cased)' }) },
  { additionalProperties: false },
);

export const SandboxStoreCreated = Type.Object({
  domain: Type.String(),
  api_base_url: Type.String({ description: "where the store's Admin API and OAuth endpoints answer" }),
  access_token: Type.String({ description: "the store's legacy non-expiring token, shown once" }),
  client_id: Type.String({ description: "the store's app" }),
  client_secret: Type.String({ description: 'shown once' }),
});
