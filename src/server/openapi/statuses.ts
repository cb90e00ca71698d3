// The error statuses an operation can answer, by the API it belongs to: most come from the layers every route of an
// API goes through (authentication, rate limits, the body parser, path ids), the rest from the route (RouteDocs.errors).
// The test harness checks every answer of the suite against the document (test/helpers/openapi-check.ts), so a status
// missing here fails a test rather than a client.
import type { DocumentedAnswer } from '../../http/route-docs.js';

/** Which API an operation belongs to, as far as its errors go. */
export type Family = 'pim' | 'session' | 'connector' | 'connector-public' | 'admin' | 'public';

export interface OperationShape {
  write: boolean;
  /** The connector route's access (read, write, admin, account, public). */
  access?: string;
  /** Whether it has path parameters. */
  params: boolean;
}

const ENVELOPES: Record<Family, { $ref: string }> = {
  pim: { $ref: '#/components/schemas/PimError' },
  session: { $ref: '#/components/schemas/PimError' },
  public: { $ref: '#/components/schemas/PimError' },
  connector: { $ref: '#/components/schemas/ConnectorError' },
  'connector-public': { $ref: '#/components/schemas/ConnectorError' },
  admin: { $ref: '#/components/schemas/AdminError' },
};

const WORDS: Record<number, string> = {
  400: 'Bad request: a parameter or field is missing or invalid (the message names it)',
  401: 'Not authenticated: the credentials are missing, invalid or revoked',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'The request body is too large',
  415: 'Unsupported media type',
  429: 'Rate limit exceeded: retry after Retry-After seconds',
  500: 'Server error (details are in the server log, never in the answer)',
  503: 'A service this request needs is unavailable',
};

const FAMILY_WORDS: Partial<Record<Family, Partial<Record<number, string>>>> = {
  connector: {
    401: 'AUTHENTICATION_FAILED (missing or invalid token, or the per-IP authentication limit), or INVALID_CREDENTIALS',
    403: 'INSUFFICIENT_SCOPE: the token’s scope is too narrow (or a console session’s CSRF token is missing)',
  },
  pim: { 403: "Forbidden: the organization is deactivated, or a console session's write came without its CSRF token" },
};

export function statusesOf(family: Family, op: OperationShape, extra: number[]): number[] {
  // 400 everywhere but the health probes: any request may carry a query or URL the server refuses (a NUL character, a
  // broken percent-encoding), whatever parameters the operation has.
  const statuses = new Set<number>([...extra, ...(family === 'public' && !op.params ? [] : [400])]);
  const add = (...list: number[]) => {
    for (const s of list) statuses.add(s);
  };
  // Bodies are read on every write method (a DELETE's too): too large, or not of a media type the API takes.
  const body = op.write ? [413, 415] : [];
  switch (family) {
    case 'pim':
      // 403: the organization is deactivated, or a console session's write came without its CSRF token.
      add(401, 403, 429, 500, ...body);
      if (op.params) add(404);
      break;
    case 'session':
      add(401, 429, 500, ...body);
      if (op.write) add(403);
      break;
    case 'connector':
      add(401, 500);
      if (op.write || op.access === 'admin') add(403);
      // 404: a path id, or an X-Integration-Id naming no integration of the session's account.
      if (op.params || op.access !== 'account') add(404);
      break;
    case 'connector-public':
      add(429, 500);
      if (op.params) add(404);
      break;
    case 'admin':
      add(401, 429, 500, ...body);
      if (op.params) add(404);
      break;
    case 'public':
      if (op.params) add(404);
      break;
  }
  return [...statuses].sort((a, b) => a - b);
}

export function errorAnswer(family: Family, status: number): DocumentedAnswer {
  const answer: DocumentedAnswer = {
    description: FAMILY_WORDS[family]?.[status] ?? WORDS[status] ?? 'Error',
    content: { 'application/json': { schema: ENVELOPES[family] } },
  };
  if (status === 429) answer.headers = { 'Retry-After': { description: 'Seconds until a retry may succeed', schema: { type: 'integer' } } };
  if (status === 401 && family === 'connector') {
    answer.headers = {
      'X-RateLimit-Remaining': { description: 'Authentication attempts left in this minute for the client IP', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'When the window resets (epoch seconds)', schema: { type: 'integer' } },
    };
  }
  return answer;
}
