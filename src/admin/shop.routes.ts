// POST/GET/DELETE /admin/shops: install, list and uninstall storefront shops (admin API: plain JSON, {error} on errors).
import { Type } from '@sinclair/typebox';
import type { App } from '../server/kernel/app-type.js';
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
  created_at: Type.String({ description: 'ISO 8601, UTC' }),
});

export function shopRoutes(app: App, shops: ShopService): void {
  app.post(
    '/admin/shops',
    {
      schema: {
        tags,
        security,
        summary: 'Install a shop: platform shopify with its Admin API access token, or a new sandbox store',
        body: Type.Object(
          {
            domain: Type.String({ minLength: 1, maxLength: 253, description: 'e.g. acme.myshopify.com (lower-cased)' }),
            platform: Type.Unsafe<(typeof PLATFORMS)[number]>({ type: 'string', enum: [...PLATFORMS] }),
            access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'shopify only: the Admin API access token' })),
            api_base_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'shopify only: overrides https://{domain}' })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ ...Shop.properties, access_token: Type.Optional(Type.String({ description: 'sandbox only, shown once' })) }),
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
    { schema: { tags, security, summary: 'List shops', response: { 200: Type.Object({ shops: Type.Array(Shop) }), ...errors } } },
    async () => ({
      shops: await shops.list(),
    }),
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
  });
  app.patch(
    '/admin/shops/:id/sandbox',
    {
      schema: {
        tags,
        security,
        summary: "A sandbox shop's cost bucket, injected faults, variant throttle and locations (for tests and benchmarks)",
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        body: Type.Object(
          {
            bucket_size: Type.Optional(
              Type.Union([Type.Integer({ minimum: 1, maximum: 10_000_000 }), Type.Null()], { description: "points; null: the plan's" }),
            ),
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
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: SandboxConfig, ...errors },
      },
    },
    async (req) => shops.configureSandbox(req.params.id, req.body),
  );

  app.post(
    '/admin/shops/:id/sandbox/publications',
    {
      schema: {
        tags,
        security,
        summary: "Add a publication (sales channel) to a sandbox shop's store, beside Online Store, Point of Sale and Shop",
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
        summary: 'Uninstall a shop (its integration, tokens, mappings and sync logs are deleted with it)',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      await shops.remove(req.params.id);
      return reply.code(204).send(null);
    },
  );
}
