// The OpenAPI document at /docs/openapi.json: @fastify/swagger builds it from the routes' schemas; this module adds what
// the schemas cannot say (who may call an operation, the statuses and headers the API layers answer with, bodies read
// by the routes themselves) and keeps out what OpenAPI does not know (ajv's `errorMessage`). Clients, gateways and
// generators read it: test/openapi-document.test.ts lints it with Redocly and compiles a generated client against it.
import type { SwaggerOptions } from '@fastify/swagger';
import { AdminError } from '../../admin/admin.module.js';
import { ConnectorErrorEnvelope } from '../../connector/connector.module.js';
import type { Config } from '../../config.js';
import { OPENAPI_TAGS } from './tags.js';
import type { DocumentedAnswer, RouteDocs } from '../../http/route-docs.js';
import { errorAnswer, type Family, statusesOf } from './statuses.js';

type Json = Record<string, unknown>;
type Operation = Json & { parameters?: Json[]; responses: Record<string, DocumentedAnswer>; requestBody?: Json; security?: Json[] };

/** Where the transform leaves a route's access and docs for the document's last pass (removed there). */
const ROUTE_KEY = 'x-pimbridge-route';
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: "An API key of the organization (issued by the operator's admin API)" },
  apiSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-SECRET',
    description: "The API key's secret: only GET /api/auth/verify and the console's sign-in take it",
  },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'pimbridge_session',
    description: "The console's session cookie (POST /api/session signs in); it stands for the organization's key",
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: "With the session cookie on POST, PUT, PATCH and DELETE: the session's csrf_token (GET /api/session)",
  },
  connectorToken: { type: 'http', scheme: 'bearer', description: 'A connector api_token (read, write or admin scope)' },
  adminToken: { type: 'http', scheme: 'bearer', description: "The operator's ADMIN_TOKEN" },
};

const INTEGRATION_HEADER = {
  name: 'X-Integration-Id',
  in: 'header',
  required: false,
  description: 'With a console session instead of a bearer token: which of the account’s integrations the request acts on',
  schema: { type: 'integer', minimum: 1 },
};

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted: the work continues in the background',
  '204': 'No content',
  '207': 'Partial success: some items failed (see each result)',
  '304': 'Not modified (the ETag matched)',
};

export function openapiOptions(config: Readonly<Config>): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pimbridge',
        version: '0.1.0',
        description:
          'The PIM core API (X-API-KEY; envelope {status: 1|0, data, error}), the connector API (bearer api_token; envelope ' +
          '{status, message, data, code}) and the operator admin API, served at one base URL.',
        license: { name: 'UNLICENSED', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'The operator of this server (see PUBLIC_URL)' },
      },
      servers: [{ url: config.publicUrl, description: 'This server (PUBLIC_URL)' }],
      tags: OPENAPI_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES as never },
    },
    // Shared schemas keep their $id as their component name (Product, Variant…), not def-N.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const docs = (route.config as { openapi?: RouteDocs; access?: string } | undefined) ?? {};
      return { schema: { ...schema, [ROUTE_KEY]: { access: docs.access, docs: docs.openapi } } as never, url };
    },
    transformObject: (documents) => polish((documents as { openapiObject: Json }).openapiObject) as never,
  };
}

/** The document's last pass, over OpenAPI objects: per operation, then the keywords OpenAPI does not know. */
function polish(document: Json): Json {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  // The error envelopes the statuses refer to (the PIM's is a shared schema of the app already).
  const schemas = (document.components as { schemas: Json }).schemas;
  schemas.ConnectorError = ConnectorErrorEnvelope;
  schemas.AdminError = AdminError;
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) polishOperation(path, method, operation);
  }
  return stripUnknownKeywords(document) as Json;
}

function familyOf(path: string, access: string | undefined): Family {
  if (access !== undefined) return access === 'public' ? 'connector-public' : 'connector';
  if (path.startsWith('/admin/')) return 'admin';
  if (path.startsWith('/api/session')) return 'session';
  if (path.startsWith('/api/')) return 'pim';
  return 'public';
}

function polishOperation(path: string, method: string, operation: Operation): void {
  const route = (operation[ROUTE_KEY] ?? {}) as { access?: string; docs?: RouteDocs };
  delete operation[ROUTE_KEY];
  const docs = route.docs ?? {};
  const family = familyOf(path, route.access);
  const write = WRITE_METHODS.has(method);

  for (const parameter of operation.parameters ?? []) {
    // A query parameter with a default may be left out: the server fills it in.
    if (parameter.in === 'query' && (parameter.schema as Json | undefined)?.default !== undefined) delete parameter.required;
    const documented = parameter.in === 'path' ? docs.params?.[parameter.name as string] : undefined;
    if (documented) parameter.schema = documented;
  }
  if (docs.bodyOptional && operation.requestBody) operation.requestBody.required = false;
  if (docs.body) {
    operation.requestBody = {
      required: !docs.bodyOptional,
      content: Object.fromEntries(Object.entries(docs.body).map(([type, schema]) => [type, { schema: localRefs(schema) }])),
    };
  }

  operation.security = securityOf(family, path, method, route.access, operation.security);
  if (family === 'connector' && route.access !== 'account') operation.parameters = [...(operation.parameters ?? []), INTEGRATION_HEADER];

  // Successes: their own words, and the non-JSON answers the route declared; then the errors this operation can get.
  const responses: Record<string, DocumentedAnswer> = {};
  for (const [status, answer] of Object.entries(operation.responses)) {
    if (/^[45]XX$/.test(status)) continue;
    responses[status] = answer.description === 'Default Response' ? { ...answer, description: SUCCESS_DESCRIPTIONS[status] ?? 'OK' } : answer;
  }
  for (const [status, answer] of Object.entries(docs.responses ?? {})) responses[status] = answer;
  for (const status of statusesOf(
    family,
    { write, access: route.access, params: (operation.parameters ?? []).some((p) => p.in === 'path') },
    docs.errors ?? [],
  )) {
    responses[String(status)] ??= errorAnswer(family, status);
  }
  for (const answer of Object.values(responses)) addCommonHeaders(answer, family);
  operation.responses = responses;
}

function securityOf(family: Family, path: string, method: string, access: string | undefined, declared: Json[] | undefined): Json[] {
  const session = WRITE_METHODS.has(method) ? { consoleSession: [], csrfToken: [] } : { consoleSession: [] };
  switch (family) {
    case 'pim':
      return path === '/api/auth/verify' ? [{ apiKey: [], apiSecret: [] }] : [{ apiKey: [] }, session];
    case 'connector':
      return access === 'account' ? [session] : [{ connectorToken: [] }, session];
    case 'admin':
      return [{ adminToken: [] }];
    case 'session':
      // Signing in takes the key and secret in its body; reading and ending a session need its cookie.
      return method === 'post' ? [] : [session];
    default:
      return declared ?? [];
  }
}

function addCommonHeaders(answer: DocumentedAnswer, family: Family): void {
  const headers: NonNullable<DocumentedAnswer['headers']> = {
    'X-Request-Id': { description: 'The request id (the one sent, or a new UUID): quote it when asking about a request', schema: { type: 'string' } },
  };
  if (family === 'pim') {
    headers['X-RateLimit-Limit'] = {
      description: 'Requests allowed in the current window (reads and writes are counted apart, per client IP)',
      schema: { type: 'integer' },
    };
    headers['X-RateLimit-Remaining'] = { description: 'Requests left in the current window', schema: { type: 'integer' } };
  }
  answer.headers = { ...headers, ...answer.headers };
}

/** TypeBox's `$ref: 'Product'` (an $id) as the document's `#/components/schemas/Product`. */
function localRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(localRefs);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && !value.startsWith('#') ? `#/components/schemas/${value}` : localRefs(value),
    ]),
  );
}

/** `errorMessage` (ajv-errors' keyword, which the server's validation messages use) is not JSON Schema: not published. */
function stripUnknownKeywords(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((item) => stripUnknownKeywords(item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, child]) =>
      key === 'errorMessage' && !inProperties ? [] : [[key, stripUnknownKeywords(child, key === 'properties' && !inProperties)]],
    ),
  );
}
