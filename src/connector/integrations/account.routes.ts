// GET /api/integrations (beyond the spec, for the console): the integrations whose PIM account is the signed-in
// organization's. A console session only; the other connector routes then take X-Integration-Id.
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { AccessViewSchema } from '../shop-auth/account-shops.routes.js';
import type { ConsoleAccess } from '../auth/console-access.js';
import { success } from '../connector.envelope.js';
import { connectorResponses, Timestamp } from '../connector.schemas.js';

const AccountIntegration = Type.Object({
  id: Type.Integer(),
  shop_domain: Type.String(),
  platform: Type.String({ description: 'shopify, or sandbox (a shop of the built-in sandbox: no Shopify admin)' }),
  is_active: Type.Boolean(),
  last_sync_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
  access: Type.Union([AccessViewSchema, Type.Null()], {
    description: "how the shop is connected (installed app, client credentials, legacy token), its token's expiry, the scopes granted and missing",
  }),
});

export function accountRoutes(app: App, access: ConsoleAccess): void {
  app.get(
    '/api/integrations',
    {
      config: { access: 'account' },
      schema: {
        tags: ['Integration'],
        security: [],
        operationId: 'listIntegrations',
        summary: 'List the integrations of the signed-in organization',
        description:
          "Lists the integrations that use the signed-in organization's PIM account, each with how its shop is connected (method, token expiry, granted and missing scopes). Console session cookie only, no bearer token; the other connector routes then name one of these integrations in X-Integration-Id. Errors: AUTHENTICATION_FAILED (401) without a session.",
        response: connectorResponses(Type.Array(AccountIntegration)),
      },
    },
    async (req) => success('Integrations retrieved', await access.list(req.consoleSession!)),
  );
}
