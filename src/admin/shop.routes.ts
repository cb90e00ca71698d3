// /admin/shops: register, list, re-own or change the way in, and uninstall storefront shops (admin API: plain JSON,
// {error} on errors). A sandbox store's own settings are sandbox-shop.routes.ts's.
import { Type } from '@sinclair/typebox';
import type { App } from '../http/app-type.js';
import type { ShopService } from './shop.service.js';
import { NewShop, RegisteredShop, Shop, ShopChange, ShopIdParams } from './shop.schemas.js';
import { errors, security, tags } from './admin.schemas.js';

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
        body: NewShop,
        response: { 201: RegisteredShop, ...errors },
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
        params: ShopIdParams,
        body: ShopChange,
        response: { 200: Shop, ...errors },
      },
    },
    async (req) => shops.update(req.params.id, req.body),
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
        params: ShopIdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      await shops.remove(req.params.id);
      return reply.code(204).send(null);
    },
  );
}
