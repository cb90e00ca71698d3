// POST/GET/DELETE /admin/shops: install, list and uninstall storefront shops (admin API: plain JSON, {error} on errors).
import { Type } from '@sinclair/typebox';
import type { App } from '../pim/pim.types.js';
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
        response: { 201: Type.Object({ ...Shop.properties, access_token: Type.Optional(Type.String({ description: 'sandbox only, shown once' })) }), ...errors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return shops.add(req.body);
    },
  );

  app.get('/admin/shops', { schema: { tags, security, summary: 'List shops', response: { 200: Type.Object({ shops: Type.Array(Shop) }), ...errors } } }, async () => ({
    shops: await shops.list(),
  }));

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
