// The operator API under /admin: plain JSON (no envelope), Bearer ADMIN_TOKEN.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/crypto.js';
import { checkTokenLimited, type RateLimiter } from '../lib/rate-limiter.js';
import type { App } from '../http/app-type.js';
import { AppError, classifyError, UNSUPPORTED_MEDIA_TYPE } from '../http/errors.js';
import type { AdminService } from './admin.service.js';
import { shopRoutes } from './shop.routes.js';
import type { ShopService } from './shop.service.js';

const Organization = Type.Object({ id: Type.Integer(), name: Type.String(), active: Type.Boolean() });
export const AdminError = Type.Object({ error: Type.String() }, { description: 'Error answer of the admin API' });
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, errorMessage: 'must be a positive integer id' }) });
const errors = { '4xx': AdminError, '5xx': AdminError };
const tags = ['Admin'];
const security = [{ adminToken: [] }];

/**
 * A body of a content type the admin API does not take. The wording is the one this API has always answered with,
 * which names the PIM's multipart route (the admin API has none); kept as it is until the answer is changed on purpose.
 */
const ADMIN_UNSUPPORTED_MEDIA_TYPE = `${UNSUPPORTED_MEDIA_TYPE} (multipart/form-data only for POST /api/products/image-search)`;

/** Any error → the admin API's `{error}` with its status; details of a 5xx go to the log only. */
export function sendAdminError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const { statusCode, message, retryAfterSeconds } = classifyError(err, ADMIN_UNSUPPORTED_MEDIA_TYPE);
  if (statusCode >= 500) req.log.error({ err }, 'admin request failed');
  if (retryAfterSeconds !== undefined) reply.header('Retry-After', String(retryAfterSeconds));
  return reply.code(statusCode).send({ error: message });
}

export async function adminPlugin(
  app: App,
  opts: {
    adminToken: string;
    /** Wrong admin tokens per client address (ADMIN_AUTH_RATE_LIMIT a minute); a right token takes no point. */
    limiter: RateLimiter;
    admin: AdminService;
    shops?: ShopService;
  },
): Promise<void> {
  const { admin } = opts;
  app.setErrorHandler(sendAdminError);

  app.addHook('onRequest', async (req) => {
    const token = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const check = await checkTokenLimited(opts.limiter, req.ip, () => token !== undefined && safeEqual(token, opts.adminToken), req.log, 'admin API');
    if (check.ok) return;
    if (check.limited) {
      throw new AppError('rate_limited', `Too many wrong admin tokens from this address: try again in ${check.retryAfterSeconds} s`, check.retryAfterSeconds);
    }
    throw new AppError('unauthorized', 'Missing or invalid admin token');
  });

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

  if (opts.shops) shopRoutes(app, opts.shops);
}
