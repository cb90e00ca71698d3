// The Shopify end of StorefrontPort: Admin GraphQL API 2026-10 through Shopify's own client. A shop's `apiBaseUrl`
// (the sandbox, test servers) replaces `https://{domain}`: the client only knows https origins, so `customFetchApi`
// rewrites each URL it is given (origin and path prefix) before calling fetch.
import { createAdminApiClient } from '@shopify/admin-api-client';
import { StorefrontError, type ShopHealth, type StorefrontPort, type StorefrontShop } from '../storefront.port.js';
import { ADMIN_API_VERSION } from './api-version.js';
import { ShopHealth as ShopHealthQuery, type ShopHealthData } from './operations.js';
import { readQueryCost, ShopBudgets } from './shop-budget.js';

export interface ShopifyAdapterOptions {
  /** Per-call timeout unless the caller gives one (default 5 s). */
  timeoutMs?: number;
  /** The fetch used for every call (tests, proxies); default the global fetch. */
  fetch?: typeof fetch;
  /** Where observed throttle statuses go (shared with issue 5's throttle). */
  budgets?: ShopBudgets;
}

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: unknown;
  extensions?: unknown;
}

const DEFAULT_TIMEOUT_MS = 5_000;

export class ShopifyAdapter implements StorefrontPort {
  readonly budgets: ShopBudgets;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ShopifyAdapterOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? ((...args) => fetch(...args));
    this.budgets = options.budgets ?? new ShopBudgets();
  }

  async shopHealth(shop: StorefrontShop, options: { timeoutMs?: number } = {}): Promise<ShopHealth> {
    const data = await this.request<ShopHealthData>(shop, ShopHealthQuery, undefined, options.timeoutMs);
    const s = data.shop;
    if (!s || typeof s.id !== 'string' || typeof s.name !== 'string' || typeof s.plan?.publicDisplayName !== 'string') {
      throw new StorefrontError('invalid_response', 'Shopify answered ShopHealth without the shop fields');
    }
    return { id: s.id, name: s.name, myshopifyDomain: s.myshopifyDomain, plan: s.plan.publicDisplayName };
  }

  /** One GraphQL call; every failure becomes a StorefrontError whose kind says why. */
  async request<T>(shop: StorefrontShop, document: string, variables?: Record<string, unknown>, timeoutMs = this.timeoutMs): Promise<T> {
    const signal = AbortSignal.timeout(timeoutMs);
    const client = createAdminApiClient({
      storeDomain: shop.domain,
      apiVersion: ADMIN_API_VERSION,
      accessToken: shop.accessToken,
      customFetchApi: (url, init) => this.fetchImpl(rewriteUrl(url, shop), init as RequestInit),
      // Without a logger the client prints a console warning for a version newer than its built-in list.
      logger: () => {},
    });

    let response: Response;
    let answer: GraphqlAnswer<T>;
    try {
      response = await client.fetch(document, { variables, signal });
      const failure = statusFailure(response.status, shop.domain);
      if (failure) {
        await response.body?.cancel().catch(() => {});
        throw failure;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('json')) {
        await response.body?.cancel().catch(() => {});
        throw new StorefrontError('invalid_response', `${shop.domain} answered HTTP ${response.status} with ${type || 'no content type'}, not JSON`);
      }
      answer = (await response.json()) as GraphqlAnswer<T>;
    } catch (err) {
      if (err instanceof StorefrontError) throw err;
      if (signal.aborted) throw new StorefrontError('unavailable', `${shop.domain} did not answer within ${timeoutMs} ms`);
      if (err instanceof SyntaxError) throw new StorefrontError('invalid_response', `${shop.domain} answered with malformed JSON`);
      throw new StorefrontError('unavailable', `${shop.domain} could not be reached: ${(err as Error).message}`);
    }

    const cost = readQueryCost(answer?.extensions);
    if (cost) this.budgets.record(shop.domain, cost.throttleStatus);

    const errors = Array.isArray(answer?.errors) ? (answer.errors as { message?: unknown; extensions?: { code?: unknown } }[]) : [];
    if (errors.some((e) => e?.extensions?.code === 'THROTTLED')) {
      throw new StorefrontError('throttled', `${shop.domain} throttled the call (cost budget exhausted)`);
    }
    if (errors.length > 0 || answer?.errors) {
      const messages = errors.map((e) => String(e?.message ?? 'error')).join('; ') || String(answer.errors);
      throw new StorefrontError('invalid_response', `${shop.domain} answered with GraphQL errors: ${messages}`);
    }
    if (!answer || typeof answer.data !== 'object' || answer.data === null) {
      throw new StorefrontError('invalid_response', `${shop.domain} answered without data`);
    }
    return answer.data;
  }
}

/** `https://{domain}/admin/api/…` → `{apiBaseUrl}/admin/api/…` when the shop has a base URL. */
export function rewriteUrl(url: string, shop: Pick<StorefrontShop, 'apiBaseUrl'>): string {
  if (!shop.apiBaseUrl) return url;
  const given = new URL(url);
  return shop.apiBaseUrl.replace(/\/+$/, '') + given.pathname + given.search;
}

function statusFailure(status: number, domain: string): StorefrontError | null {
  if (status >= 200 && status < 300) return null;
  if (status === 401) return new StorefrontError('unauthorized', `${domain} refused the access token (HTTP 401): revoked or wrong`);
  if (status === 403) return new StorefrontError('forbidden', `${domain} refused the call (HTTP 403): a scope is missing`);
  if (status === 429) return new StorefrontError('throttled', `${domain} throttled the call (HTTP 429)`);
  if (status === 423) return new StorefrontError('unavailable', `${domain} is locked (HTTP 423)`);
  if (status === 404) return new StorefrontError('unavailable', `${domain} was not found (HTTP 404)`);
  if (status >= 500) return new StorefrontError('unavailable', `${domain} is unavailable (HTTP ${status})`);
  return new StorefrontError('invalid_response', `${domain} answered HTTP ${status}`);
}
