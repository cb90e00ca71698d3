// The console's "Connect a Shopify store" (beyond the spec, a console session only): POST /api/shops connects the
// merchant's own store with a Dev Dashboard app's client credentials or a legacy custom app's token; the third way,
// installing the app, is the browser's GET /shopify/install (install.routes.ts). How each shop is connected comes with
// GET /api/integrations (`access`) and GET /api/status (`storefront_access`), in AccessViewSchema's shape.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { success } from '../connector.envelope.js';
import { ConnectorError } from '../connector.errors.js';
import { connectorResponses, Timestamp } from '../connector.schemas.js';
import { InstallError, type ShopInstallService } from './shop-install.service.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AccessViewSchema = Type.Object({
  method: Type.Union([Type.Literal('access_token'), Type.Literal('client_credentials'), Type.Literal('authorization_code')]),
  status: Type.Union([Type.Literal('ok'), Type.Literal('reauthorization_required')]),
  error: Nullable(Type.String()),
  token_expires_at: Type.Union([Timestamp, Type.Null()]),
  granted_scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
  missing_scopes: Type.Array(Type.String()),
});

export function accountShopRoutes(app: App, deps: { installs: ShopInstallService }): void {
  app.post(
    '/api/shops',
    {
      config: { access: 'account' },
      schema: {
        tags: ['Integration'],
        security: [],
        operationId: 'connectOwnShop',
        summary: "Connect the signed-in organization's own store",
        description:
          "Registers the organization's own store and connects it, with a Dev Dashboard app's client id and secret (client credentials grant) or a legacy custom app's access token, which must work; a shop already connected keeps its integration. Console session cookie only (with its X-CSRF-Token). Errors: VALIDATION_FAILED (400) for a bad domain, refused credentials, a store that cannot be reached or a shop another organization owns; AUTHENTICATION_FAILED (401) without a session.",
        body: Type.Object(
          {
            domain: Type.String({ minLength: 1, maxLength: 253, description: 'e.g. acme.myshopify.com' }),
            client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
            client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
            access_token: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
          },
          { additionalProperties: false },
        ),
        response: connectorResponses(Type.Object({ integration_id: Type.Integer(), shop_domain: Type.String() })),
      },
    },
    async (req) => {
      try {
        const connected = await deps.installs.connectOwnStore(req.consoleSession!.organizationId, req.body);
        return success('Store connected', { integration_id: connected.integrationId, shop_domain: connected.domain });
      } catch (err) {
        if (err instanceof InstallError) throw new ConnectorError('VALIDATION_FAILED', err.message, 400);
        throw err;
      }
    },
  );
}
