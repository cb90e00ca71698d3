// The console's "Connect a Shopify store" (beyond the spec, a console session only): POST /api/shops connects the
// merchant's own store with a Dev Dashboard app's client credentials or a legacy custom app's token; the third way,
// installing the app, is the browser's GET /shopify/install (install.routes.ts). GET /api/shops/{integrationId}/access
// tells how a shop is connected.
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/kernel/app-type.js';
import type { ConsoleAccess } from '../auth/console-access.js';
import { success } from '../connector.envelope.js';
import { ConnectorError } from '../connector.errors.js';
import { connectorResponses, connectorTags as tags, Timestamp } from '../connector.schemas.js';
import type { ShopAccessService } from './shop-access.service.js';
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

export function accountShopRoutes(app: App, deps: { installs: ShopInstallService; access: ShopAccessService; console: ConsoleAccess }): void {
  app.post(
    '/api/shops',
    {
      config: { access: 'account' },
      schema: {
        tags,
        security: [],
        summary:
          "Connect the signed-in organization's own store: a Dev Dashboard app's client id and secret (client credentials grant), or a legacy custom app's access token",
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

  app.get(
    '/api/shops/:integrationId/access',
    {
      config: { access: 'account' },
      schema: {
        tags,
        security: [],
        summary: "How an integration's shop is connected: the way in, its token's expiry, the scopes granted and missing",
        params: Type.Object({ integrationId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        response: connectorResponses(AccessViewSchema),
      },
    },
    async (req) => {
      // Only the session's own integrations: another account's is as unknown as a missing one.
      const mine = (await deps.console.list(req.consoleSession!)).some((i) => i.id === req.params.integrationId);
      const view = mine ? await deps.access.viewForIntegration(req.params.integrationId) : null;
      if (!view) throw new ConnectorError('NOT_FOUND', `Integration ${req.params.integrationId} not found among this organization's integrations`);
      return success('Access retrieved', view);
    },
  );
}
