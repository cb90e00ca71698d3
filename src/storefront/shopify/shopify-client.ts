// The Admin GraphQL API 2026-10 through Shopify's own client, for every user of a shop (the product upserts, the bulk
// paths, webhooks, collections): the transport (fetch, timeouts, token renewal), the per-shop throttle and budgets,
// the metrics, and what is read once per shop and kept (locations, publications, locales, currency and limits; the
// identifier mode and metafield definitions in metafield-definitions.ts). A shop's `apiBaseUrl` (the sandbox, test servers) replaces
// `https://{domain}`: the client only knows https origins, so `customFetchApi` rewrites each URL it is given (origin
// and path prefix) before calling fetch. A caller that may give up passes its AbortSignal to each call.
import { createAdminApiClient } from '@shopify/admin-api-client';
import { agentFetch, keepAliveAgents } from '../../lib/keep-alive.js';
import type { ShopifyRecorder } from '../../lib/metrics.js';
import { TtlCache } from '../../lib/ttl-cache.js';
import { StorefrontError } from '../port/errors.js';
import type { AttributeMetafieldSpec, StorefrontPublication, SyncPlacement } from '../port/placement.js';
import type { ShopHealth, StorefrontShop } from '../port/shop.js';
import { ADMIN_API_VERSION } from './api-version.js';
import type { ShopMetafieldDefinition } from './attribute-metafields.js';
import { answerFailure, connectionMultiplier, type GraphqlAnswer, responseFailure, rewriteUrl, transportFailure } from './graphql-answer.js';
import type { Call } from './inventory-sync.js';
import { type IdentifierMode, MetafieldDefinitions } from './metafield-definitions.js';
import {
  Locations as LocationsQuery,
  Publications as PublicationsQuery,
  ShopHealth as ShopHealthQuery,
  ShopLocales as ShopLocalesQuery,
  type LocationsData,
  type PublicationsData,
  type ShopHealthData,
  type ShopLocalesData,
} from './operations.js';
import type { ShopCurrency, ShopLimits } from './preflight.js';
import type { ShopLocation } from './product-set-input.js';
import type { SharedBudget } from './shared-budget.js';
import { readQueryCost, ShopBudgets } from './shop-budget.js';
import { DEFAULT_RETRY_POLICY, ShopThrottle, systemClock, type ObserveStatus, type RetryPolicy, type ThrottleClock } from './throttle.js';
import type { ShopLocale } from './translation-sync.js';

export interface ShopifyClientOptions {
  /** Per-call timeout unless the caller gives one (default 5 s). */
  timeoutMs?: number;
  /** The fetch used for every call (tests, proxies); default a keep-alive fetch over node:http (lib/keep-alive.ts). */
  fetch?: typeof fetch;
  /** Where observed throttle statuses go (the metrics' view of each shop's bucket). */
  budgets?: ShopBudgets;
  /** Clock, sleep and jitter of the throttle and retries (tests inject a fake). */
  clock?: ThrottleClock;
  retry?: Partial<RetryPolicy>;
  /** Deadline of a bulk file's upload or a bulk result's download (default 120 s). */
  bulkTransferTimeoutMs?: number;
  /** Where cost spent, throttle waits and THROTTLED answers are counted, per shop. */
  metrics?: ShopifyRecorder;
  /** Every process's shared estimate of each shop's budget (shared-budget.ts); without it, this process paces alone. */
  sharedBudget?: SharedBudget;
  /** Told once per outage of the shared budget (the process paces on its own meanwhile). */
  onSharedBudgetFailure?: (err: unknown) => void;
}

/** What pre-flight checks against the shop (ShopifyClient.rules). */
export interface ShopRules {
  limits?: ShopLimits;
  currency?: ShopCurrency;
}

export interface CallOptions {
  /** False for a call that may have been applied although it failed (a mutation the caller retries after a look). */
  retryUnavailable?: boolean;
  /** The caller's; once it fired no call starts, and one under way is given up. */
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** A shop's locations, publications, limits and currency are read again after this long. */
const SHOP_CACHE_MS = 5 * 60_000;

export class ShopifyClient {
  readonly budgets: ShopBudgets;
  readonly throttle: ShopThrottle;
  /** Deadline of one bulk upload or result download. */
  readonly transferTimeoutMs: number;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly metrics?: ShopifyRecorder;
  /** Per shop domain (a failed read is not cached). */
  private readonly locationCache = new TtlCache<ShopLocation[]>(SHOP_CACHE_MS);
  private readonly publicationCache = new TtlCache<StorefrontPublication[]>(SHOP_CACHE_MS);
  /** The shop's enabled locales (translation-sync.ts). */
  private readonly localeCache = new TtlCache<ShopLocale[]>(SHOP_CACHE_MS);
  private readonly currencyCache = new TtlCache<string>(SHOP_CACHE_MS);
  /** The shop's resource limits as last read (ShopHealth). */
  private readonly knownLimits = new Map<string, ShopLimits>();
  /** Our identifier metafield and the attribute metafields' definitions, per shop. */
  private readonly definitions = new MetafieldDefinitions(this);

  constructor(options: ShopifyClientOptions = {}) {
    this.metrics = options.metrics;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.transferTimeoutMs = options.bulkTransferTimeoutMs ?? 120_000;
    this.fetchImpl = options.fetch ?? agentFetch(keepAliveAgents());
    this.budgets = options.budgets ?? new ShopBudgets();
    this.throttle = new ShopThrottle(
      options.clock ?? systemClock,
      { ...DEFAULT_RETRY_POLICY, ...options.retry },
      this.metrics && ((domain, ms) => this.metrics!.throttleWait(domain, ms)),
      options.sharedBudget,
      options.onSharedBudgetFailure,
    );
  }

  /** One call under the shop's throttle and the retry policy; none starts once the caller's signal fired. */
  call<T>(shop: StorefrontShop, document: string, variables: Record<string, unknown>, expectedCost: number, options: CallOptions = {}): Promise<T> {
    const { signal, retryUnavailable = true } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return this.throttle.run(shop.domain, expectedCost, (observe) => this.request<T>(shop, document, variables, { observe, signal }), { retryUnavailable });
  }

  /** One shop's calls as a Call (the steps in their own modules take one), under the caller's signal. */
  caller(shop: StorefrontShop, signal?: AbortSignal): Call {
    return (document, variables, cost) => this.call(shop, document, variables, cost, { signal });
  }

  /**
   * One GraphQL call; every failure becomes a StorefrontError whose kind says why. An expiring token comes from the shop's
   * token source (cached while fresh, so no extra call); a 401 on one renews it once and sends the call again.
   */
  async request<T>(
    shop: StorefrontShop,
    document: string,
    variables?: Record<string, unknown>,
    options: { timeoutMs?: number; observe?: ObserveStatus; signal?: AbortSignal } = {},
  ): Promise<T> {
    const sending = { ...options, timeoutMs: options.timeoutMs ?? this.timeoutMs };
    if (!shop.tokens) return this.send<T>(shop, shop.accessToken, document, variables, sending);
    const token = await shop.tokens.current();
    try {
      return await this.send<T>(shop, token, document, variables, sending);
    } catch (err) {
      if (!(err instanceof StorefrontError) || err.kind !== 'unauthorized') throw err;
      const renewed = await shop.tokens.renewAfterRefusal(token);
      return this.send<T>(shop, renewed, document, variables, sending);
    }
  }

  private async send<T>(
    shop: StorefrontShop,
    accessToken: string,
    document: string,
    variables: Record<string, unknown> | undefined,
    options: { timeoutMs: number; observe?: ObserveStatus; signal?: AbortSignal },
  ): Promise<T> {
    const { timeoutMs, observe, signal: caller } = options;
    const signal = caller ? AbortSignal.any([AbortSignal.timeout(timeoutMs), caller]) : AbortSignal.timeout(timeoutMs);
    const client = createAdminApiClient({
      storeDomain: shop.domain,
      apiVersion: ADMIN_API_VERSION,
      accessToken,
      customFetchApi: (url, init) => this.fetchImpl(rewriteUrl(url, shop), init as RequestInit),
      // Without a logger the client prints a console warning for a version newer than its built-in list.
      logger: () => {},
    });

    let answer: GraphqlAnswer<T>;
    try {
      const response = await client.fetch(document, { variables, signal });
      const failure = responseFailure(response, shop.domain);
      if (failure?.kind === 'throttled') this.metrics?.throttled(shop.domain);
      if (failure) {
        await response.body?.cancel().catch(() => {});
        throw failure;
      }
      answer = (await response.json()) as GraphqlAnswer<T>;
    } catch (err) {
      throw transportFailure(err, shop.domain, timeoutMs, caller, signal);
    }

    this.recordCost(shop, answer, observe);
    const failure = answerFailure(answer, shop.domain);
    if (failure instanceof StorefrontError && failure.kind === 'throttled') this.metrics?.throttled(shop.domain);
    if (failure) throw failure;
    return answer.data as T;
  }

  /** The answer's cost and the shop's bucket as it says: to the metrics, the budgets, and the throttle. */
  private recordCost(shop: StorefrontShop, answer: GraphqlAnswer<unknown>, observe?: ObserveStatus): void {
    const cost = readQueryCost(answer?.extensions);
    if (!cost) return;
    if (cost.actualQueryCost !== null) this.metrics?.queryCost(shop.domain, cost.actualQueryCost);
    this.budgets.record(shop.domain, cost.throttleStatus);
    if (observe) observe(cost.throttleStatus, cost.actualQueryCost ?? undefined);
    else this.throttle.observe(shop.domain, cost.throttleStatus);
  }

  /** Every node of a connection, 50 a page (at most 20 pages). */
  async allPages<T, N>(
    shop: StorefrontShop,
    document: string,
    cost: number,
    connectionOf: (data: T) => { nodes: N[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } },
    signal?: AbortSignal,
  ): Promise<N[]> {
    const out: N[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const connection = connectionOf(await this.call<T>(shop, document, { first: 50, after }, cost, { signal }));
      out.push(...connection.nodes);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    return out;
  }

  /** The shop's health; its currency and limits are kept for pre-flight (rules). */
  async shopHealth(shop: StorefrontShop, options: { timeoutMs?: number } = {}): Promise<ShopHealth> {
    const data = await this.request<ShopHealthData>(shop, ShopHealthQuery, undefined, { timeoutMs: options.timeoutMs });
    const s = data.shop;
    if (!s || typeof s.id !== 'string' || typeof s.name !== 'string' || typeof s.plan?.publicDisplayName !== 'string') {
      throw new StorefrontError('invalid_response', 'Shopify answered ShopHealth without the shop fields');
    }
    const scopes = data.currentAppInstallation?.accessScopes;
    const health = {
      id: s.id,
      name: s.name,
      myshopifyDomain: s.myshopifyDomain,
      plan: s.plan.publicDisplayName,
      currencyCode: s.currencyCode,
      ...(Array.isArray(scopes) && { scopes: scopes.map((x) => x.handle).filter((h): h is string => typeof h === 'string') }),
    };
    this.currencyCache.set(shop.domain, Promise.resolve(s.currencyCode));
    if (s.resourceLimits) this.knownLimits.set(shop.domain, s.resourceLimits);
    return health;
  }

  /** The shop's locations, read once per shop (all pages) and cached for a few minutes. */
  async locations(shop: StorefrontShop, options: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<ShopLocation[]> {
    if (options.fresh) this.locationCache.delete(shop.domain);
    return this.locationCache.get(shop.domain, () =>
      this.allPages<LocationsData, ShopLocation>(shop, LocationsQuery, 2 + 1 * connectionMultiplier(50), (d) => d.locations, options.signal),
    );
  }

  /** The shop's publications, titled by their catalogs; read once per shop (all pages) and cached for a few minutes. */
  async publications(shop: StorefrontShop, options: { fresh?: boolean } = {}): Promise<StorefrontPublication[]> {
    if (options.fresh) this.publicationCache.delete(shop.domain);
    return this.publicationCache.get(shop.domain, async () =>
      (
        await this.allPages<PublicationsData, PublicationsData['publications']['nodes'][number]>(
          shop,
          PublicationsQuery,
          2 + 2 * connectionMultiplier(50),
          (d) => d.publications,
        )
      ).map((n) => ({ id: n.id, name: n.catalog?.title ?? n.id })),
    );
  }

  /** The shop's enabled locales, read once per shop and cached for a few minutes (shopLocales: 1 point). */
  shopLocales(shop: StorefrontShop, signal?: AbortSignal): Promise<ShopLocale[]> {
    return this.localeCache.get(shop.domain, async () =>
      (await this.call<ShopLocalesData>(shop, ShopLocalesQuery, {}, 1, { signal })).shopLocales.map((l) => ({ locale: l.locale, primary: l.primary })),
    );
  }

  /**
   * What pre-flight checks against the shop: its currency (ShopHealth, read once per shop and cached for a few minutes)
   * unless prices are converted elsewhere, and its limits when known (read with the currency or by a health check).
   */
  async rules(shop: StorefrontShop, placement: SyncPlacement, signal?: AbortSignal): Promise<ShopRules> {
    if (placement.pricesConvertedElsewhere) return { limits: this.knownLimits.get(shop.domain) };
    const currencyCode = await this.currencyCache.get(shop.domain, async () => {
      const data = await this.call<ShopHealthData>(shop, ShopHealthQuery, {}, 4, { signal });
      if (data.shop?.resourceLimits) this.knownLimits.set(shop.domain, data.shop.resourceLimits);
      return data.shop?.currencyCode ?? '';
    });
    return { limits: this.knownLimits.get(shop.domain), currency: { currencyCode, pricesConvertedElsewhere: false } };
  }

  /** How a product without a mapping is found again on this shop: decided once per shop (MetafieldDefinitions). */
  identifierMode(shop: StorefrontShop, signal?: AbortSignal): Promise<IdentifierMode> {
    return this.definitions.identifierMode(shop, signal);
  }

  /** The shop's definitions of these attribute metafields, the missing ones created (MetafieldDefinitions). */
  attributeDefinitions(shop: StorefrontShop, specs: AttributeMetafieldSpec[], signal?: AbortSignal): Promise<Map<string, ShopMetafieldDefinition>> {
    return this.definitions.attributeDefinitions(shop, specs, signal);
  }
}
