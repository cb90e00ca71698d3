// The sandbox's Admin GraphQL endpoint, minus HTTP: find the store, check its token and the request's shape here; the
// GraphQL work (parse and validate against Shopify's real 2026-10 schema, price, charge the bucket, execute, refund)
// lives in sandbox-executor.ts, imported on the first authenticated call so that graphql-js (~11 MB) and the schema
// (~50 MB) stay out of an idle server. Every answer is in Shopify's shapes (never the PIM envelope).
import type { Db } from '../../db/client.js';
import { ADMIN_API_VERSION } from '../shopify/api-version.js';
import { LeakyBuckets } from './leaky-bucket.js';
import type { SandboxStoreService } from './sandbox-store.service.js';

export interface SandboxAnswer {
  status: number;
  body: unknown;
}

export interface SandboxRequest {
  domain: string;
  apiVersion: string;
  accessToken: string | undefined;
  body: unknown;
}

export const UNAUTHORIZED_BODY = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
export const NOT_FOUND_BODY = { errors: 'Not Found' };
const MISSING_QUERY = { errors: { query: 'Required parameter missing or invalid' } };

export interface SandboxGraphqlOptions {
  /** The clock of the cost buckets (tests freeze it). */
  now?: () => number;
}

let executor: Promise<typeof import('./sandbox-executor.js')> | null = null;
const loadExecutor = () => (executor ??= import('./sandbox-executor.js'));

export class SandboxGraphqlService {
  readonly buckets: LeakyBuckets;

  constructor(
    private readonly stores: SandboxStoreService,
    private readonly db: Db,
    options: SandboxGraphqlOptions = {},
  ) {
    this.buckets = new LeakyBuckets(options.now);
  }

  async handle(req: SandboxRequest): Promise<SandboxAnswer> {
    if (req.apiVersion !== ADMIN_API_VERSION) return { status: 404, body: NOT_FOUND_BODY };
    const store = await this.stores.find(req.domain);
    if (!store) return { status: 404, body: NOT_FOUND_BODY };
    if (!this.stores.tokenMatches(store, req.accessToken)) return { status: 401, body: UNAUTHORIZED_BODY };

    const body = req.body as { query?: unknown; variables?: unknown; operationName?: unknown } | null | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.query !== 'string' || body.query.trim() === '') {
      return { status: 400, body: MISSING_QUERY };
    }
    const variables = body.variables ?? {};
    if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
      return { status: 400, body: { errors: { variables: 'Required parameter missing or invalid' } } };
    }
    const operationName = typeof body.operationName === 'string' && body.operationName !== '' ? body.operationName : undefined;
    const { runOperation } = await loadExecutor();
    const answer = await runOperation({
      query: body.query,
      variables: variables as Record<string, unknown>,
      operationName,
      context: { store, db: this.db },
      buckets: this.buckets,
    });
    return { status: 200, body: answer };
  }
}
