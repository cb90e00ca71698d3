// An organization's API key pairs: issued (the secret shown once) and revoked.
import { Type } from '@sinclair/typebox';
import type { App } from '../http/app-type.js';
import type { AdminService } from './admin.service.js';
import { errors, IdParams, security, tags } from './admin.schemas.js';

export function apiKeyRoutes(app: App, admin: AdminService): void {
  // The body is optional (`{name?}`): a POST without one is taken as `{}` rather than failing validation.
  app.post(
    '/admin/organizations/:id/api-keys',
    {
      config: { openapi: { bodyOptional: true } },
      preValidation: async (req) => {
        req.body ??= {};
      },
      schema: {
        tags,
        security,
        operationId: 'adminCreateApiKey',
        summary: 'Issue an API key pair (shown once)',
        description:
          'Creates an API key and its secret for the organization (optional name) and answers 201 with both; they are stored only as hashes and never shown again. Needs the admin token (Authorization: Bearer); errors are {error}: 404 for an unknown organization.',
        params: IdParams,
        body: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }, { additionalProperties: false }),
        response: { 201: Type.Object({ id: Type.Integer(), api_key: Type.String(), api_secret: Type.String() }), ...errors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return admin.createApiKey(req.params.id, req.body.name ?? null);
    },
  );

  app.delete(
    '/admin/api-keys/:id',
    {
      schema: {
        tags,
        security,
        operationId: 'adminRevokeApiKey',
        summary: 'Revoke an API key',
        description:
          'Revokes the key at once (on every node) and answers 204. Needs the admin token (Authorization: Bearer); errors are {error}: 404 for an unknown key.',
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      await admin.revokeApiKey(req.params.id);
      return reply.code(204).send(null);
    },
  );
}
