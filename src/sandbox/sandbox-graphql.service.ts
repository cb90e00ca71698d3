// The sandbox's Admin GraphQL endpoint, minus HTTP: find the store, check its token and the request's shape here; the
// GraphQL work (parse and validate against Shopify's real 2026-10 schema, price, charge the bucket, execute, refund)
// lives in sandbox-executor.ts, imported on the first authenticated call so that graphql-js (~11 MB) and the schema
// (~50 MB) stay out of an idle server. Every answer is in Shopify's shapes (never the PIM envelope).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { ADMIN_API_VERSION } from '../storefront/shopify/api-version.js';
import type { SandboxBulkOptions, SandboxBulkService } from './bulk-operation.service.js';
import { LeakyBuckets } from './leaky-bucket.js';
import type { BulkRunners } from './resolvers/types.js';
import type { SandboxInventoryService } from './sandbox-inventory.service.js';
import type { SandboxMediaService } from './sandbox-media.service.js';
import type { SandboxMetafieldRepository } from './sandbox-metafield.repository.js';
import type { SandboxProductRepository } from './sandbox-product.repository.js';
import type { SandboxProductService } from './sandbox-product.service.js';
import type { SandboxMerchantEditService } from './sandbox-merchant-edits.service.js';
import type { SandboxOauthService } from './sandbox-oauth.service.js';
import type { SandboxCollectionService } from './sandbox-collection.service.js';
import type { SandboxTranslationService } from './sandbox-translation.service.js';
import type { SandboxPublicationService } from './sandbox-publication.service.js';
import type { SandboxStoreService } from './sandbox-store.service.js';
import type { SandboxWebhookOptions, SandboxWebhookService } from './sandbox-webhooks.service.js';

export interface SandboxAnswer {
  status: number;
  body: unknown;
  /** A timeout fault: the route holds the request until the client gives up (or `holdMs`, or shutdown), then answers 504. */
  hold?: true;
}

export interface SandboxRequest {
  domain: string;
  apiVersion: string;
  accessToken: string | undefined;
  body: unknown;
  /** `{scheme}://{host}/sandbox/shopify/{domain}` as the client reached it (bulk operations' URLs). */
  baseUrl?: string;
}

export const UNAUTHORIZED_BODY = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
export const NOT_FOUND_BODY = { errors: 'Not Found' };
const MISSING_QUERY = { errors: { query: 'Required parameter missing or invalid' } };

export interface SandboxGraphqlOptions {
  /** The clock of the cost buckets and of OAuth tokens', codes' and consents' expiry (tests freeze or move it). */
  now?: () => number;
  /** How long a timeout fault holds a request whose client never gives up (default 60 s). */
  holdMs?: number;
  /** The bulk runner's settings (upload cap; a pause tests hold a running operation with). */
  bulk?: SandboxBulkOptions;
  /** Webhook delivery (http allowed or not, the retry schedule; sandbox-webhooks.service.ts). */
  webhooks?: Partial<SandboxWebhookOptions>;
}

/** The services the endpoint runs operations with (built by sandbox.module.ts). */
export interface SandboxGraphqlDeps {
  stores: SandboxStoreService;
  db: Db;
  productRepo: SandboxProductRepository;
  metafieldRepo: SandboxMetafieldRepository;
  products: SandboxProductService;
  publications: SandboxPublicationService;
  collections: SandboxCollectionService;
  translations: SandboxTranslationService;
  merchantEdits: SandboxMerchantEditService;
  inventory: SandboxInventoryService;
  media: SandboxMediaService;
  bulk: SandboxBulkService;
  /** Webhook subscriptions and deliveries. */
  webhooks: SandboxWebhookService;
  /** The stores' apps: OAuth grants and the check of every token (sandbox-oauth.service.ts). */
  oauth: SandboxOauthService;
}

export const TIMEOUT_BODY = { errors: 'Gateway Timeout' };

/** Shopify-like bodies of the 5xx faults. */
function errorBody(status: 500 | 502 | 503): unknown {
  if (status === 500) {
    const requestId = randomUUID();
    return {
      errors: [
        {
          message: `Internal error. Looks like something went wrong on our end.\nRequest ID: ${requestId} (include this in support requests).`,
          extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
        },
      ],
    };
  }
  return { errors: status === 502 ? 'Bad Gateway' : 'Service Unavailable' };
}

let executor: Promise<typeof import('./sandbox-executor.js')> | null = null;
const loadExecutor = () => (executor ??= import('./sandbox-executor.js'));

/** The bulk runners, loaded with graphql-js on the first bulk operation (BulkRunners in resolvers/types.ts). */
const bulkRunners: BulkRunners = {
  prepareMutation: async (text) => (await import('./bulk-runner.js')).prepareBulkMutation(text),
  prepareQuery: async (text, groupObjects) => (await import('./bulk-query-runner.js')).prepareBulkQuery(text, groupObjects),
};

export class SandboxGraphqlService {
  readonly buckets: LeakyBuckets;
  readonly holdMs: number;
  readonly stores: SandboxStoreService;
  /** Staged uploads and bulk mutations (their HTTP routes are in bulk.routes.ts). */
  readonly bulk: SandboxBulkService;
  /** The media lifecycle (its file route is in media.routes.ts). */
  readonly media: SandboxMediaService;
  /** Webhook subscriptions and deliveries (the uninstall route is in sandbox.routes.ts). */
  readonly webhooks: SandboxWebhookService;
  /** The stores' apps: OAuth grants and tokens (oauth.routes.ts). */
  readonly oauth: SandboxOauthService;
  private readonly db: Db;
  private readonly productRepo: SandboxProductRepository;
  private readonly metafieldRepo: SandboxMetafieldRepository;
  private readonly products: SandboxProductService;
  private readonly publications: SandboxPublicationService;
  private readonly collections: SandboxCollectionService;
  private readonly translations: SandboxTranslationService;
  private readonly merchantEdits: SandboxMerchantEditService;
  private readonly inventory: SandboxInventoryService;
  /** Requests held by a timeout fault, released on shutdown. */
  private readonly held = new Set<() => void>();

  constructor(deps: SandboxGraphqlDeps, options: Pick<SandboxGraphqlOptions, 'now' | 'holdMs'> = {}) {
    ({
      stores: this.stores,
      db: this.db,
      productRepo: this.productRepo,
      metafieldRepo: this.metafieldRepo,
      products: this.products,
      publications: this.publications,
      collections: this.collections,
      translations: this.translations,
      merchantEdits: this.merchantEdits,
      inventory: this.inventory,
      media: this.media,
      bulk: this.bulk,
      webhooks: this.webhooks,
      oauth: this.oauth,
    } = deps);
    this.buckets = new LeakyBuckets(options.now);
    this.holdMs = options.holdMs ?? 60_000;
  }

  /**
   * Holds a request (timeout fault) until `signal` says the client went away, `holdMs` passed, or the service closes;
   * says which came first (`expired`: the caller answers 504). Never leaves a timer or listener behind.
   */
  hold(
    signal: { once(event: 'close', fn: () => void): unknown; off(event: 'close', fn: () => void): unknown },
    gone = () => false,
  ): Promise<'closed' | 'expired' | 'shutdown'> {
    return new Promise((resolve) => {
      if (gone()) return resolve('closed'); // the client left before the hold began (e.g. during latency_ms)
      const done = (why: 'closed' | 'expired' | 'shutdown') => {
        clearTimeout(timer);
        signal.off('close', closed);
        this.held.delete(release);
        resolve(why);
      };
      const closed = () => done('closed');
      const release = () => done('shutdown');
      const timer = setTimeout(() => done('expired'), this.holdMs);
      signal.once('close', closed);
      this.held.add(release);
    });
  }

  /** Requests currently held by a timeout fault. */
  get heldCount(): number {
    return this.held.size;
  }

  /** Releases every held request (server shutdown). */
  releaseHeld(): void {
    for (const release of [...this.held]) release();
  }

  async handle(req: SandboxRequest): Promise<SandboxAnswer> {
    if (req.apiVersion !== ADMIN_API_VERSION) return { status: 404, body: NOT_FOUND_BODY };
    const store = await this.stores.find(req.domain);
    if (!store) return { status: 404, body: NOT_FOUND_BODY };
    // The legacy token, or an OAuth or client credentials token neither expired nor revoked (sandbox-oauth.service.ts).
    const access = await this.oauth.authenticate(store, req.accessToken);
    if (!access) return { status: 401, body: UNAUTHORIZED_BODY };

    const body = req.body as { query?: unknown; variables?: unknown; operationName?: unknown } | null | undefined;
    if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body.query !== 'string' || body.query.trim() === '') {
      return { status: 400, body: MISSING_QUERY };
    }
    const variables = body.variables ?? {};
    if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
      return { status: 400, body: { errors: { variables: 'Required parameter missing or invalid' } } };
    }
    const operationName = typeof body.operationName === 'string' && body.operationName !== '' ? body.operationName : undefined;

    // Faults come before anything runs: a failed call changed nothing (fail_after_commit aside).
    if (store.latencyMs > 0) await new Promise((r) => setTimeout(r, store.latencyMs));
    const fault = this.stores.drawFault(store);
    if (fault.kind === 'error') return { status: fault.status, body: errorBody(fault.status) };
    if (fault.kind === 'timeout') return { status: 504, body: TIMEOUT_BODY, hold: true };

    const { runOperation } = await loadExecutor();
    const answer = (await runOperation({
      query: body.query,
      variables: variables as Record<string, unknown>,
      operationName,
      context: {
        store,
        db: this.db,
        products: this.products,
        productRepo: this.productRepo,
        metafieldRepo: this.metafieldRepo,
        publications: this.publications,
        collections: this.collections,
        translations: this.translations,
        merchantEdits: this.merchantEdits,
        inventory: this.inventory,
        media: this.media,
        bulk: this.bulk,
        bulkRunners,
        baseUrl: req.baseUrl,
        webhooks: this.webhooks,
        access,
      },
      buckets: this.buckets,
      limits: this.stores.bucketLimits(store),
      bucketKey: `${store.id}:${store.configVersion}`,
    })) as { data?: unknown };
    // "The storefront did it, the answer was lost": the operation ran (and committed), the client sees a 503.
    if (answer.data !== undefined && this.stores.drawFailAfterCommit(store)) return { status: 503, body: errorBody(503) };
    return { status: 200, body: answer };
  }
}
