// The built-in sandbox's stores through the admin API: a store's throttle, faults, locations and app settings (by its
// shop or its domain), its publications, and stores made without registering a shop.
import { Type } from '@sinclair/typebox';
import type { App } from '../http/app-type.js';
import type { ShopService } from './shop.service.js';
import { errors, security, tags } from './admin.schemas.js';
import { NewPublication, NewSandboxStore, SandboxConfig, SandboxPublication, SandboxSettings, SandboxStoreCreated, ShopIdParams } from './shop.schemas.js';

export function sandboxShopRoutes(app: App, shops: ShopService): void {
  settingsRoutes(app, shops);
  storeRoutes(app, shops);
}

/** A store's throttle, faults, locations and app, by its shop or by its domain. */
function settingsRoutes(app: App, shops: ShopService): void {
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
        params: ShopIdParams,
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
}

/** What a store holds beyond its settings: its publications, and stores made without a shop. */
function storeRoutes(app: App, shops: ShopService): void {
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
        params: ShopIdParams,
        body: NewPublication,
        response: { 201: SandboxPublication, ...errors },
      },
    },
    async (req, reply) => {
      const added = await shops.addSandboxPublication(req.params.id, req.body.name);
      reply.code(201);
      return added;
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
        body: NewSandboxStore,
        response: { 201: SandboxStoreCreated, ...errors },
      },
    },
    async (req, reply) => {
      const store = await shops.createSandboxStore(req.body.domain);
      reply.code(201);
      return store;
    },
  );
}
