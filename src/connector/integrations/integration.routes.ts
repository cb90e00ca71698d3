// POST /api/connect (public), PUT /api/integration/update and POST /api/disconnect (admin), and beyond the spec the
// integration's token management: POST/GET /api/tokens, DELETE /api/tokens/{id} (admin).
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-type.js';
import { IGNORED_BODY } from '../../http/route-docs.js';
import { success } from '../connector.envelope.js';
import { bearer, connectorResponses, Timestamp } from '../connector.schemas.js';
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
  connectionRoutes(app, integrations);
  tokenRoutes(app, integrations);
}

/** The integration itself: connect a shop to a PIM account, change its PIM credentials, disconnect. */
function connectionRoutes(app: App, integrations: IntegrationService): void {
  app.post(
    '/api/connect',
    {
      // INVALID_CREDENTIALS 401, SHOP_NOT_FOUND 404, INTEGRATION_EXISTS 409, CONNECTION_FAILED 503 (the spec's table).
      config: { access: 'public', openapi: { errors: [401, 404, 409, 503] } },
      schema: {
        tags: ['Integration'],
        security: [],
        operationId: 'connectShop',
        summary: 'Connect a shop to a PIM account',
        description:
          "Creates the integration between an installed shop and a PIM account once the PIM credentials are checked live, and answers an admin-scope api_token that is shown only once; reconnecting an inactive integration keeps its id and mappings. Public: no token, but only the shop's owner organization can connect it (an embedded app may send its Shopify session token as the bearer to prove control of the shop). Errors: INVALID_JSON, MISSING_FIELD, VALIDATION_FAILED (400), INVALID_CREDENTIALS (401), SHOP_NOT_FOUND (404), INTEGRATION_EXISTS (409), RATE_LIMITED (429), CONNECTION_FAILED (503).",
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
      config: { access: 'admin', validationFailedStatus: 503, openapi: { errors: [503] } },
      // No body at all is "nothing to update" (NO_UPDATES), not a validation error.
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags: ['Integration'],
        security: bearer,
        operationId: 'updateIntegration',
        summary: 'Change the stored PIM connection',
        description:
          'Changes any of pim_base_url, pim_api_key and pim_api_secret; the merged credentials are checked live against the PIM before they are stored. Needs a connector token with the admin scope (or a console session). Errors: INVALID_JSON, NO_UPDATES (400), AUTHENTICATION_FAILED, INVALID_CREDENTIALS (401), INSUFFICIENT_SCOPE (403), and VALIDATION_FAILED as a 503 on this route, for a bad field or credentials that could not be checked.',
        body: UpdateBody,
        response: connectorResponses(Type.Object({ integration_id: Type.Integer(), updated_at: Timestamp })),
      },
    },
    async (req) => success('Integration updated successfully', await integrations.update(req.connector!.integrationId, req.body)),
  );

  app.post(
    '/api/disconnect',
    {
      config: { access: 'admin', openapi: IGNORED_BODY },
      schema: {
        tags: ['Integration'],
        security: bearer,
        operationId: 'disconnectShop',
        summary: 'Deactivate the integration and revoke all its tokens',
        description:
          'Sets the integration inactive and revokes all its tokens, the one used for this call included; connecting the shop again later keeps its mappings. Needs a connector token with the admin scope (or a console session). Errors: AUTHENTICATION_FAILED (401), INSUFFICIENT_SCOPE (403).',
        response: connectorResponses(Type.Object({ integration_id: Type.Integer(), status: Type.Literal('inactive'), disconnected_at: Timestamp })),
      },
    },
    async (req) => success('Integration disconnected successfully', await integrations.disconnect(req.connector!.integrationId)),
  );
}

/** The integration's bearer tokens: issue, list, revoke. */
function tokenRoutes(app: App, integrations: IntegrationService): void {
  app.post(
    '/api/tokens',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['Tokens'],
        security: bearer,
        operationId: 'createToken',
        summary: 'Mint a token of this integration (shown once)',
        description:
          "Creates another bearer token of the caller's integration with the read, write or admin scope (admin ⊃ write ⊃ read) and an optional name; the token itself is only in this answer. Needs a connector token with the admin scope (or a console session). Errors: MISSING_FIELD, VALIDATION_FAILED (400), AUTHENTICATION_FAILED (401), INSUFFICIENT_SCOPE (403).",
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
        tags: ['Tokens'],
        security: bearer,
        operationId: 'listTokens',
        summary: "List the integration's live tokens",
        description:
          "Lists the integration's tokens that are not revoked, with id, scope, name, created_at and last_used_at (written at most once a minute), never the token itself. Needs a connector token with the admin scope (or a console session). Errors: AUTHENTICATION_FAILED (401), INSUFFICIENT_SCOPE (403).",
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
        tags: ['Tokens'],
        security: bearer,
        operationId: 'revokeToken',
        summary: 'Revoke a token of this integration',
        description:
          "Revokes one token of the caller's integration; it stops authenticating at once. Needs a connector token with the admin scope (or a console session). Errors: AUTHENTICATION_FAILED (401), INSUFFICIENT_SCOPE (403), NOT_FOUND (404) for an unknown token or one of another integration.",
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) }),
        response: connectorResponses(Type.Object({ id: Type.Integer(), revoked_at: Timestamp })),
      },
    },
    async (req) => success('Token revoked', await integrations.revokeToken(req.connector!.integrationId, req.params.id)),
  );
}
