// Every answer of the suite against the OpenAPI document (/docs/openapi.json): a hook the harness installs on each app
// it builds. An answer whose status the operation does not declare, whose media type or JSON body does not match the
// declared one, or a request the document calls invalid that the server nevertheless took (2xx), is a mismatch; the
// harness fails the suite on any (harness.close()). Requests are read as sent (the raw query string, not Fastify's
// coerced and defaulted copy), so a parameter the document wrongly calls required is caught too.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: Json }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

/** Compiled checks of one document, shared by every app of the process that serves the same document. */
class DocumentChecks {
  private readonly strict: Ajv2020;
  private readonly coercing: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.strict = makeAjv(false, document);
    this.coercing = makeAjv('array', document);
  }

  operation(path: string, method: string): Operation | undefined {
    return (this.document.paths as Record<string, Record<string, Operation>>)[path]?.[method];
  }

  /** The validator of the schema at a JSON pointer into the document (`#/paths/…/schema`). */
  at(pointer: string, coerce = false): ValidateFunction {
    const key = `${coerce}:${pointer}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = (coerce ? this.coercing : this.strict).compile({ $ref: `openapi.json${pointer}` });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** The validator of an operation's parameters of one kind, as an object of their names. */
  parameters(path: string, method: string, where: 'query' | 'path'): ValidateFunction {
    const key = `params:${where}:${method} ${path}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const parameters = (this.operation(path, method)?.parameters ?? []).filter((p) => p.in === where);
      validate = this.coercing.compile({
        type: 'object',
        properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
        required: parameters.filter((p) => p.required).map((p) => p.name),
      });
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

function makeAjv(coerceTypes: false | 'array', document: Json): Ajv2020 {
  // strict off: the document around the schemas (paths, info…) is not a schema, and OpenAPI adds `example`.
  // The first error is enough to name a mismatch, and stops early (allErrors would walk every item of a long list).
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  return ajv;
}

/**
 * The checks of each set of routes the process has built apps with. Apps with the same routes (the same code) have the
 * same document but for `servers`, which no check reads: building the document once per set (~150 ms) instead of once
 * per app keeps the check's cost down.
 */
const byRoutes = new Map<string, DocumentChecks>();

function checksOf(app: FastifyInstance, routes: string[]): DocumentChecks {
  const key = createHash('sha256').update(routes.join('\n')).digest('hex');
  let checks = byRoutes.get(key);
  if (!checks) {
    checks = new DocumentChecks((app as unknown as { swagger(): Json }).swagger());
    byRoutes.set(key, checks);
  }
  return checks;
}

const pointer = (...parts: string[]) => `#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
const errorsOf = (validate: ValidateFunction) => (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');

export interface OpenApiCheck {
  /** What did not match, one line each. */
  readonly mismatches: string[];
}

/** Installs the check on an app that is not ready yet (its routes are then all covered). */
export function checkAgainstOpenApi(app: FastifyInstance): OpenApiCheck {
  const mismatches: string[] = [];
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(`${route.method} ${route.url}`);
  });
  let checks: DocumentChecks | null | undefined;
  app.addHook('onSend', async (req, reply, payload) => {
    // The document exists only where the full API is served (not on a worker).
    if (checks === undefined) checks = app.hasDecorator('swagger') ? checksOf(app, routes) : null;
    if (checks) {
      const problem = mismatchOf(checks, req, reply, payload);
      if (problem) mismatches.push(`${req.method} ${req.url} → ${reply.statusCode}: ${problem}`);
    }
    return payload;
  });
  return { mismatches };
}

function mismatchOf(checks: DocumentChecks, req: FastifyRequest, reply: FastifyReply, payload: unknown): string | null {
  const route = req.routeOptions.url;
  if (route === undefined || route.includes('*') || req.method === 'HEAD' || req.method === 'OPTIONS') return null;
  const path = route.replace(/:(\w+)/g, '{$1}');
  const method = req.method.toLowerCase();
  const operation = checks.operation(path, method);
  if (!operation) return null; // a route the document leaves out on purpose (hidden: the docs, the console, the sandbox)

  const status = String(reply.statusCode);
  const declaredStatus = [status, `${status[0]}XX`, 'default'].find((s) => operation.responses[s] !== undefined);
  if (!declaredStatus) return `status ${status} is not declared (declared: ${Object.keys(operation.responses).join(', ')})`;
  const declared = operation.responses[declaredStatus];
  const mediaType = String(reply.getHeader('content-type') ?? '')
    .split(';')[0]
    .trim();
  if (declared.content && status !== '304' && status !== '204') {
    const content = declared.content[mediaType];
    if (!content) return `media type '${mediaType}' is not declared (declared: ${Object.keys(declared.content).join(', ')})`;
    if (mediaType === 'application/json' && typeof payload === 'string') {
      const validate = checks.at(pointer('paths', path, method, 'responses', declaredStatus, 'content', mediaType, 'schema'));
      if (!validate(JSON.parse(payload))) return `answer does not match its schema: ${errorsOf(validate)}`;
    }
  } else if (!declared.content && mediaType !== '' && typeof payload === 'string' && payload.length > 0 && status !== '304' && status !== '204') {
    return `answer has a body (${mediaType}) but the document declares none`;
  }
  // 207: the server took the request and refused some of its items, each with its own error.
  return reply.statusCode < 300 && reply.statusCode !== 207 ? requestMismatch(checks, req, path, method, operation) : null;
}

/** A request the server took (2xx) that the document calls invalid. */
function requestMismatch(checks: DocumentChecks, req: FastifyRequest, path: string, method: string, operation: Operation): string | null {
  const search = new URLSearchParams(req.url.split('?')[1] ?? '');
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length === 1 ? values[0] : values;
  }
  const validateQuery = checks.parameters(path, method, 'query');
  if (!validateQuery(query)) return `the server took a query the document refuses: ${errorsOf(validateQuery)}`;
  const validatePath = checks.parameters(path, method, 'path');
  if (!validatePath({ ...(req.params as Json) })) return `the server took path parameters the document refuses: ${errorsOf(validatePath)}`;

  const contentType = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  // Whether bytes came (a route may fill in an absent body itself, so req.body does not tell; an upload may be streamed
  // with neither header).
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined || contentType.startsWith('multipart/');
  // A body the route never reads (a GET's or a DELETE's, whose content has no meaning in HTTP (RFC 9110 9.3.1, 9.3.5)
  // and which the server ignores, or `{}` sent with every request by some clients) is no body.
  const meaningful = req.body !== undefined && req.body !== null && !(typeof req.body === 'object' && Object.keys(req.body).length === 0);
  if (!operation.requestBody)
    return hasBody && meaningful && method !== 'get' && method !== 'delete'
      ? `the server took a body (${contentType || 'no media type'}) the document does not declare`
      : null;
  if (!hasBody) return operation.requestBody.required ? 'the server took a request without the body the document requires' : null;
  if (!operation.requestBody.content[contentType] && !operation.requestBody.content['*/*'])
    return `the server took a body of media type '${contentType}', which the document does not declare`;
  if (contentType !== 'application/json' || !operation.requestBody.content[contentType]) return null;
  const validate = checks.at(pointer('paths', path, method, 'requestBody', 'content', contentType, 'schema'));
  return validate(req.body) ? null : `the server took a body the document refuses: ${errorsOf(validate)}`;
}

/** Fails (throws) when any answer of the app did not match the document: called as the app's harness closes. */
export function assertMatchesDocument(check: OpenApiCheck | undefined): void {
  if (!check || check.mismatches.length === 0) return;
  if (process.env.OPENAPI_MISMATCH_LOG) appendFileSync(process.env.OPENAPI_MISMATCH_LOG, `${check.mismatches.join('\n')}\n`);
  const shown = [...new Set(check.mismatches)];
  throw new Error(`${shown.length} answer(s) do not match the OpenAPI document:\n  ${shown.slice(0, 30).join('\n  ')}`);
}
