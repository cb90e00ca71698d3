// POST/GET/DELETE /admin/shops: install, list and uninstall storefront shops (admin API: plain JSON, {error} on errors).
import { Type } from '@sinclair/typebox';
import type { App } from '../http/app-type.js';
import { PLATFORMS, type ShopService } from './shop.service.js';

const AdminError = Type.Object({ error: Type.String() });
const errors = { '4xx': AdminError, '5xx': AdminError };
const tags = ['Admin'];
const security = [{ adminToken: [] }];

const Shop = Type.Object({
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

const OrganizationId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const access = {
  access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: "shopify only: a legacy custom app's Admin API access token" })),
  client_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: "shopify only: a Dev Dashboard app's client id (client credentials grant)" }),
  ),
  client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: "shopify only: that app's client secret" })),
};

export function shopRoutes(app: App, shops: ShopService): void {
  app.post(
    '/admin/shops',
    {
      config: { openapi: { errors: [409, 503] } },
      schema: {
        tags,
        security,
        operationId: 'adminCreateShop',
        summary: 'Register a shop for its owner organization',
        description:
          "Platform shopify with a legacy custom app's access_token, or a Dev Dashboard app's client_id and client_secret (exchanged for a token at once, nothing stored if refused); or platform sandbox for a new store in the built-in sandbox, whose token and app credentials are shown once. Only the owner organization's credentials, or proof of control of the shop, can then connect it. Needs the admin token (Authorization: Bearer); errors are {error}: 400 for a bad domain, an unknown organization, missing or refused credentials or the sandbox off, 409 for a domain already registered, 503 when the store's token endpoint cannot be reached.",
        body: Type.Object(
          {
            domain: Type.String({ minLength: 1, maxLength: 253, description: 'e.g. acme.myshopify.com (lower-cased)' }),
            platform: Type.Unsafe<(typeof PLATFORMS)[number]>({ type: 'string', enum: [...PLATFORMS] }),
            organization_id: OrganizationId,
            ...access,
            api_base_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'shopify only: overrides https://{domain}' })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            ...Shop.properties,
            access_token: Type.Optional(Type.String({ description: "sandbox only, shown once: the store's non-expiring token" })),
            client_id: Type.Optional(Type.String({ description: "sandbox only: the store's own app" })),
            client_secret: Type.Optional(Type.String({ description: 'sandbox only, shown once' })),
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return shops.add(req.body);
    },
  );

  app.get(
    '/admin/shops',
    {
      schema: {
        tags,
        security,
        operationId: 'adminListShops',
        summary: 'List shops',
        description:
          'Lists every registered shop with its platform, owner organization and how it authenticates (method, status, token expiry and renewals). Needs the admin token (Authorization: Bearer); errors are {error}.',
        response: { 200: Type.Object({ shops: Type.Array(Shop) }), ...errors },
      },
    },
    async () => ({
      shops: await shops.list(),
    }),
  );

  app.patch(
    '/admin/shops/:id',
    {
      schema: {
        tags,
        security,
        operationId: 'adminUpdateShop',
        summary: "Change a shop's owner or its credentials",
        description:
          "Sets a new owner (organization_id), or a new way in: a legacy access_token, or new client_id and client_secret, which must work before they are stored. Needs the admin token (Authorization: Bearer); errors are {error}: 400 for an empty body, both kinds of credentials or refused ones, 404 for an unknown shop, 503 when the store's token endpoint cannot be reached.",
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        body: Type.Object({ organization_id: Type.Optional(OrganizationId), ...access }, { additionalProperties: false, minProperties: 1 }),
        response: { 200: Shop, ...errors },
      },
    },
    async (req) => shops.update(req.params.id, req.body),
  );

  const rate = (description: string) => Type.Optional(Type.Number({ minimum: 0, maximum: 1, description }));
  const SandboxConfig = Type.Object({
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
  const SandboxSettings = Type.Object(
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
  app.patch(
    '/admin/shops/:id/sandbox',
    {
      schema: {
        tags,
        security,
        operationId: 'adminConfigureSandboxShop',
        summary: "Configure a sandbox shop's store",
        description:
          "Sets the sandbox store's cost bucket and restore rate, injected faults (error, timeout and fail-after-commit rates, latency, seed), variant throttle, locations and app (token lifetimes, scopes, redirect URLs, webhooks, media sources), and answers the effective settings with the store's locations and its app's client_id. Needs the admin token (Authorization: Bearer); errors are {error}: 400 for a shop that is not a sandbox shop or an invalid setting, 404 for an unknown shop.",
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        body: SandboxSettings,
        response: { 200: SandboxConfig, ...errors },
      },
    },
    async (req) => shops.configureSandbox(req.params.id, req.body),
  );

  app.patch(
    '/admin/sandbox/stores/:domain',
    {
      schema: {
        tags,
        security,
        operationId: 'adminConfigureSandboxStore',
        summary: 'Configure a sandbox store by its domain',
        description:
          'Takes the settings of PATCH /admin/shops/{id}/sandbox, for a sandbox store whether it is registered as a shop or not. Needs the admin token (Authorization: Bearer); errors are {error}: 400 when the sandbox is off or for an invalid setting, 404 for an unknown store.',
        params: Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) }),
        body: SandboxSettings,
        response: { 200: Type.Omit(SandboxConfig, ['id']), ...errors },
      },
    },
    async (req) => shops.configureSandboxStore(req.params.domain, req.body),
  );

  app.post(
    '/admin/shops/:id/sandbox/publications',
    {
      config: { openapi: { errors: [409] } },
      schema: {
        tags,
        security,
        operationId: 'adminAddSandboxPublication',
        summary: "Add a publication to a sandbox shop's store",
        description:
          'Adds a publication (sales channel) with the name sent, beside Online Store, Point of Sale and Shop, and answers 201 with its GID. Needs the admin token (Authorization: Bearer); errors are {error}: 400 for a shop that is not a sandbox shop or a blank name, 404 for an unknown shop, 409 for a name already taken.',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        body: Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 255, description: "the publication's catalog title" }) },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ id: Type.String({ description: 'gid://shopify/Publication/N' }), name: Type.String() }), ...errors },
      },
    },
    async (req, reply) => {
      const added = await shops.addSandboxPublication(req.params.id, req.body.name);
      reply.code(201);
      return added;
    },
  );

  app.delete(
    '/admin/shops/:id',
    {
      schema: {
        tags,
        security,
        operationId: 'adminDeleteShop',
        summary: 'Uninstall a shop',
        description:
          'Deletes the shop with its integration, tokens, mappings and sync logs (and its sandbox store), and answers 204. Needs the admin token (Authorization: Bearer); errors are {error}: 404 for an unknown shop.',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      await shops.remove(req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/sandbox/stores',
    {
      config: { openapi: { errors: [409] } },
      schema: {
        tags,
        security,
        operationId: 'adminCreateSandboxStore',
        summary: 'Create a sandbox store that is not registered as a shop',
        description:
          "Creates a sandbox store with its own app, not registered as a shop: a store to connect the way a real one is (install, client credentials or its token). Answers 201 with its API address, its legacy token, and its app's client id and secret (token and secret shown once). Needs the admin token (Authorization: Bearer); errors are {error}: 400 for a bad domain or the sandbox off, 409 for a domain already taken.",
        body: Type.Object(
          { domain: Type.String({ minLength: 1, maxLength: 253, description: 'e.g. my-store.myshopify.com (lower-cased)' }) },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({
            domain: Type.String(),
            api_base_url: Type.String({ description: "where the store's Admin API and OAuth endpoints answer" }),
            access_token: Type.String({ description: "the store's legacy non-expiring token, shown once" }),
            client_id: Type.String({ description: "the store's app" }),
            client_secret: Type.String({ description: 'shown once' }),
          }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const store = await shops.createSandboxStore(req.body.domain);
      reply.code(201);
      return store;
    },
  );
}
