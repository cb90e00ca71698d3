// POST /api/connect (public), PUT /api/integration/update and POST /api/disconnect (admin), and beyond the spec the
// integration's token management: POST/GET /api/tokens, DELETE /api/tokens/{id} (admin).
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/kernel/app-type.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses, connectorTags as tags, Timestamp } from '../connector.schemas.js';
import { SCOPES } from '../connector.types.js';
import type { IntegrationService } from './integration.service.js';

const Field = (description: string, maxLength = 2048) => Type.String({ minLength: 1, maxLength, description });
const ScopeSchema = Type.Unsafe<(typeof SCOPES)[number]>({ type: 'string', enum: [...SCOPES], description: 'read, write or admin (admin ⊃ write ⊃ read)' });

const ConnectBody = Type.Object(
  {
    shop_domain: Field('the shop where the app is installed, e.g. acme.myshopify.com', 255),
    pim_base_url: Field('base URL of the PIM, http(s), no query'),
    pim_api_key: Field('the PIM API key (X-API-KEY)', 512),
    pim_api_secret: Field('the PIM API secret (X-API-SECRET)', 512),
  },
  { additionalProperties: false },
);

const UpdateBody = Type.Object(
  {
    pim_base_url: Type.Optional(ConnectBody.properties.pim_base_url),
    pim_api_key: Type.Optional(ConnectBody.properties.pim_api_key),
    pim_api_secret: Type.Optional(ConnectBody.properties.pim_api_secret),
  },
  { additionalProperties: false },
);

const TokenView = Type.Object({ id: Type.Integer(), scope: Type.String(), name: Type.Union([Type.String(), Type.Null()]), created_at: Timestamp });

export function integrationRoutes(app: App, integrations: IntegrationService): void {
  app.post(
    '/api/connect',
    {
      config: { access: 'public' },
      schema: {
        tags,
        security: [],
        summary: 'Connect a shop to a PIM account (credentials checked live); issues an admin api_token',
        body: ConnectBody,
        response: connectorResponses(
          Type.Object({ integration_id: Type.Integer(), shop_domain: Type.String(), api_token: Type.String(), created_at: Timestamp }),
        ),
      },
    },
    async (req) => {
      // An embedded app's page proves control of the shop with its Shopify session token (a JWT) as the bearer.
      const bearer = /^bearer +([\w-]+\.[\w-]+\.[\w-]+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const proof = bearer ? { kind: 'session_token' as const, token: bearer } : undefined;
      return success('Integration created successfully', await integrations.connect(req.body, proof));
    },
  );

  app.put(
    '/api/integration/update',
    {
      // The spec's table: VALIDATION_FAILED is 503 here, whether a field failed validation or the credentials could not be.
      config: { access: 'admin', validationFailedStatus: 503 },
      // No body at all is "nothing to update" (NO_UPDATES), not a validation error.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags,
        security: bearer,
        summary: 'Change the stored PIM connection (credentials revalidated)',
        body: UpdateBody,
        response: connectorResponses(Type.Object({ integration_id: Type.Integer(), updated_at: Timestamp })),
      },
    },
    async (req) => success('Integration updated successfully', await integrations.update(req.connector!.integrationId, req.body)),
  );

  app.post(
    '/api/disconnect',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: 'Deactivate the integration and revoke all its tokens',
        response: connectorResponses(Type.Object({ integration_id: Type.Integer(), status: Type.Literal('inactive'), disconnected_at: Timestamp })),
      },
    },
    async (req) => success('Integration disconnected successfully', await integrations.disconnect(req.connector!.integrationId)),
  );

  app.post(
    '/api/tokens',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: 'Mint a token of this integration (shown once)',
        body: Type.Object({ scope: ScopeSchema, name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }, { additionalProperties: false }),
        response: connectorResponses(Type.Object({ ...TokenView.properties, api_token: Type.String() })),
      },
    },
    async (req) =>
      success(
        'Token created: store it now, it is not shown again',
        await integrations.mintToken(req.connector!.integrationId, req.body.scope, req.body.name ?? null),
      ),
  );

  app.get(
    '/api/tokens',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: "The integration's live tokens (never the token itself)",
        response: connectorResponses(
          Type.Object({ tokens: Type.Array(Type.Object({ ...TokenView.properties, last_used_at: Type.Union([Timestamp, Type.Null()]) })) }),
        ),
      },
    },
    async (req) => success('Tokens retrieved successfully', await integrations.listTokens(req.connector!.integrationId)),
  );

  app.delete(
    '/api/tokens/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary: 'Revoke a token of this integration',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        response: connectorResponses(Type.Object({ id: Type.Integer(), revoked_at: Timestamp })),
      },
    },
    async (req) => success('Token revoked', await integrations.revokeToken(req.connector!.integrationId, req.params.id)),
  );
}
