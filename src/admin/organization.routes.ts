// /admin/organizations: create, list, activate or deactivate, and delete organizations (the tenants).
import { Type } from '@sinclair/typebox';
import type { App } from '../http/app-type.js';
import type { AdminService } from './admin.service.js';
import { errors, IdParams, Organization, security, tags } from './admin.schemas.js';

export function organizationRoutes(app: App, admin: AdminService): void {
  app.post(
    '/admin/organizations',
    {
      schema: {
        tags,
        security,
        operationId: 'adminCreateOrganization',
        summary: 'Create an organization',
        description:
          'Creates an active organization with the name sent and answers 201 with it. Needs the admin token (Authorization: Bearer); errors are {error}: 400 for an invalid body, 401 for a wrong token, 429 after too many wrong tokens from one address.',
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false }),
        response: { 201: Organization, ...errors },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return admin.createOrganization(req.body.name);
    },
  );

  app.get(
    '/admin/organizations',
    {
      schema: {
        tags,
        security,
        operationId: 'adminListOrganizations',
        summary: 'List organizations',
        description: 'Lists every organization with its id, name and whether it is active. Needs the admin token (Authorization: Bearer); errors are {error}.',
        response: { 200: Type.Object({ organizations: Type.Array(Organization) }), ...errors },
      },
    },
    async () => ({
      organizations: await admin.listOrganizations(),
    }),
  );

  app.patch(
    '/admin/organizations/:id',
    {
      schema: {
        tags,
        security,
        operationId: 'adminUpdateOrganization',
        summary: 'Activate or deactivate an organization',
        description:
          'Body {active}: a deactivated organization keeps all its data, but its API keys and console sessions are refused (403) at once. Needs the admin token (Authorization: Bearer); errors are {error}: 404 for an unknown organization.',
        params: IdParams,
        body: Type.Object({ active: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: Organization, ...errors },
      },
    },
    async (req) => admin.setOrganizationActive(req.params.id, req.body.active),
  );

  app.delete(
    '/admin/organizations/:id',
    {
      schema: {
        tags,
        security,
        operationId: 'adminDeleteOrganization',
        summary: 'Delete an organization with all its data and media files',
        description:
          'Deletes the organization and everything it owns (products, variants, categories, media, API keys, …) in one transaction, then its media files that no other organization uses; answers 204. Needs the admin token (Authorization: Bearer); errors are {error}: 404 for an unknown organization.',
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      await admin.deleteOrganization(req.params.id);
      return reply.code(204).send(null);
    },
  );
}
