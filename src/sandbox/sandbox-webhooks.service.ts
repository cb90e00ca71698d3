// The sandbox's webhooks, as Shopify's: a store keeps its app's subscriptions (webhookSubscriptionCreate,
// webhookSubscriptions, webhookSubscriptionDelete) and, when its data changes, POSTs the topic's JSON to each
// subscription's URI, signed, retrying a delivery that fails; it also sends the app's mandatory compliance webhooks.
// docs/sandbox/webhooks.md and docs/sandbox/oauth.md have the rules and their sources:
// - headers: X-Shopify-Topic, X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the raw body with the app's client secret:
//   each store's own app, docs/sandbox/oauth.md), X-Shopify-Shop-Domain, X-Shopify-Webhook-Id (the same on every
//   retry), X-Shopify-Event-Id, X-Shopify-API-Version, X-Shopify-Triggered-At (the event's time, ISO 8601)
//   (https://shopify.dev/docs/apps/build/webhooks/verify-deliveries,
//   https://shopify.dev/docs/apps/build/webhooks/ignore-duplicates);
// - addresses are HTTPS ("Shopify only delivers webhooks to HTTPS endpoints", schema 2026-10 WebhookSubscriptionInput.uri
//   and https://shopify.dev/docs/apps/build/webhooks/subscribe): http:// only where the store's allow_http_webhooks or
//   the sandbox's `allowHttp` (tests, embedded mode) allows it, refused at subscription and at delivery;
// - a delivery fails when the answer is not 2xx or takes more than 5 s; it is "retried a total of 8 times over 4 hours
//   using an exponential backoff schedule", with "the original payload from the time they were triggered", to "the
//   subscription's address that was configured when the webhook was triggered"
//   (https://shopify.dev/changelog/updates-to-webhook-retry-mechanism). Shopify does not publish the schedule itself:
//   the sandbox waits 56.25 s · 2^(n−1) before retry n (56 s, 1.9 min, … 1 h), eight retries in 4 h; `retryDelaysMs`
//   shortens it (tests).
// Deliveries run in this process (timers), never inside the request that changed the data; a delivery left pending by
// a stopped process is not resumed (the row says so).
import { randomUUID } from 'node:crypto';
import { hmacSha256Base64 } from '../lib/crypto.js';
import { agentFetch } from '../lib/keep-alive.js';
import { checkedAgents, filteredLookup, systemResolver } from '../lib/safe-download.js';
import { anyAddress, publicAddressesOnly } from '../lib/address-policy.js';
import { ADMIN_API_VERSION } from '../storefront/shopify/api-version.js';
import type { SandboxWebhookRepository, WebhookSubscriptionRow } from './sandbox-webhooks.repository.js';

/** The topics the sandbox emits, and their X-Shopify-Topic form. */
export const SANDBOX_WEBHOOK_TOPICS = {
  PRODUCTS_UPDATE: 'products/update',
  PRODUCTS_DELETE: 'products/delete',
  INVENTORY_LEVELS_UPDATE: 'inventory_levels/update',
  APP_UNINSTALLED: 'app/uninstalled',
} as const;

/**
 * The mandatory compliance topics, sent to the app's compliance URL rather than to subscriptions
 * (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance).
 */
export const COMPLIANCE_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;
export type ComplianceTopic = (typeof COMPLIANCE_TOPICS)[number];

/** What a delivery needs of the store: who it is, the secret of its app, whether http:// is allowed. */
export interface WebhookStore {
  id: number;
  domain: string;
  clientSecret: string;
  allowHttpWebhooks: boolean;
}

const HTTP_REFUSED = 'Address protocol http:// is not supported (use https://)';
export type SandboxWebhookTopic = keyof typeof SANDBOX_WEBHOOK_TOPICS;

/** 8 retries over 4 hours, exponential (see above): 56.25 s · 2^(n−1). */
export const SHOPIFY_RETRY_DELAYS_MS = Array.from({ length: 8 }, (_, i) => 56_250 * 2 ** i);
const ATTEMPT_TIMEOUT_MS = 5_000;

export interface SandboxWebhookOptions {
  /**
   * Unused: each store signs with its own app's client secret (docs/sandbox/oauth.md). Kept so that a caller that still
   * passes one compiles.
   */
  secret?: string;
  /** This server's origin (PUBLIC_URL): always reachable, loopback included — it is our own server. */
  ownOrigin?: string;
  /** Deliver to http:// addresses too, in every store (embedded mode, tests); default false: https only, as Shopify. */
  allowHttp?: boolean;
  /** Other destinations on private networks too (CONNECTOR_ALLOW_PRIVATE_NETWORKS); default public addresses only. */
  allowPrivateNetworks?: boolean;
  /** The waits before each retry (default SHOPIFY_RETRY_DELAYS_MS); its length is the number of retries. */
  retryDelaysMs?: number[];
  timeoutMs?: number;
  /** Where deliveries go instead of HTTP (tests). */
  fetch?: typeof fetch;
}

export interface SubscriptionInput {
  uri?: string | null;
  callbackUrl?: string | null;
  format?: string | null;
  name?: string | null;
}

export type SubscriptionResult =
  | { subscription: WebhookSubscriptionRow; userErrors: [] }
  | { subscription: null; userErrors: { field: string[]; message: string }[] };

export class SandboxWebhookService {
  private readonly delays: number[];
  private readonly timeoutMs: number;
  private readonly ownFetch: typeof fetch;
  private readonly otherFetch: typeof fetch;
  private readonly ownOrigin: string | null;
  private readonly allowHttp: boolean;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly repo: SandboxWebhookRepository,
    options: SandboxWebhookOptions,
  ) {
    this.delays = options.retryDelaysMs ?? SHOPIFY_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.ownOrigin = options.ownOrigin ? new URL(options.ownOrigin).origin : null;
    this.allowHttp = options.allowHttp === true;
    const policy = options.allowPrivateNetworks ? anyAddress : publicAddressesOnly;
    this.ownFetch = options.fetch ?? agentFetch(checkedAgents(anyAddress, filteredLookup(anyAddress, systemResolver)));
    this.otherFetch = options.fetch ?? agentFetch(checkedAgents(policy, filteredLookup(policy, systemResolver)));
  }

  /** This server's origin (PUBLIC_URL), when it was given. */
  get origin(): string | null {
    return this.ownOrigin;
  }

  /**
   * webhookSubscriptionCreate. `uri` (or the deprecated `callbackUrl`): an https URL; http only where the store or the
   * sandbox allows it (Shopify takes HTTPS, Pub/Sub and EventBridge). One subscription per topic and address ("Address
   * for this topic has already been taken").
   */
  async create(store: Pick<WebhookStore, 'id' | 'allowHttpWebhooks'>, topic: string, input: SubscriptionInput): Promise<SubscriptionResult> {
    const storeId = store.id;
    const refuse = (field: string[], message: string): SubscriptionResult => ({ subscription: null, userErrors: [{ field, message }] });
    if (input.uri != null && input.callbackUrl != null) return refuse(['webhookSubscription'], 'Only one of uri or callbackUrl (deprecated) can be given.');
    const uri = input.uri ?? input.callbackUrl;
    const field = ['webhookSubscription', input.uri != null ? 'uri' : 'callbackUrl'];
    if (!uri) return refuse(field, "Address can't be blank");
    if (!(topic in SANDBOX_WEBHOOK_TOPICS)) return refuse(['topic'], `The Pimbridge sandbox does not emit ${topic} webhooks`);
    if ((input.format ?? 'JSON') !== 'JSON') return refuse(['webhookSubscription', 'format'], 'The Pimbridge sandbox sends JSON webhooks only');
    const problem = this.addressProblem(uri, store);
    if (problem) return refuse(field, problem);
    const row = await this.repo.insertSubscription({ storeId, topic, uri, format: 'JSON', name: input.name ?? null });
    if (!row) return refuse(field, 'Address for this topic has already been taken');
    return { subscription: row, userErrors: [] };
  }

  list(storeId: number, filter: { topics?: string[] | null; uri?: string | null } = {}): Promise<WebhookSubscriptionRow[]> {
    return this.repo.subscriptions(storeId, filter);
  }

  find(storeId: number, id: number): Promise<WebhookSubscriptionRow | null> {
    return this.repo.subscription(storeId, id);
  }

  delete(storeId: number, id: number): Promise<boolean> {
    return this.repo.deleteSubscription(storeId, id);
  }

  /**
   * The store's data changed: one delivery per subscription of the topic, sent after the caller's transaction (never
   * awaited by the request that changed the data). Returns the webhook ids.
   */
  async emit(store: WebhookStore, topic: SandboxWebhookTopic, payload: unknown): Promise<string[]> {
    if (this.closed) return [];
    const subscriptions = await this.repo.subscriptions(store.id, { topics: [topic] });
    if (subscriptions.length === 0) return [];
    const body = JSON.stringify(payload);
    const eventId = randomUUID();
    const ids: string[] = [];
    for (const s of subscriptions) {
      const webhookId = randomUUID();
      const row = await this.repo.insertDelivery({ storeId: store.id, webhookId, eventId, topic: SANDBOX_WEBHOOK_TOPICS[topic], uri: s.uri, body });
      ids.push(webhookId);
      this.track(this.attempt(row.id, store));
    }
    return ids;
  }

  /**
   * One webhook to one address, outside the subscriptions: a mandatory compliance topic to the app's compliance URL.
   * Signed, retried and recorded like the others; the webhook id, or an error when the address is refused.
   */
  async deliver(store: WebhookStore, topic: ComplianceTopic, uri: string, payload: unknown): Promise<{ webhookId: string } | { error: string }> {
    if (this.closed) return { error: 'The sandbox is stopping' };
    const problem = this.addressProblem(uri, store);
    if (problem) return { error: problem };
    const webhookId = randomUUID();
    const row = await this.repo.insertDelivery({ storeId: store.id, webhookId, eventId: randomUUID(), topic, uri, body: JSON.stringify(payload) });
    this.track(this.attempt(row.id, store));
    return { webhookId };
  }

  /** Waits for the deliveries in flight (tests), not for the retries scheduled. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops: no new attempt, no retry (server shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async attempt(deliveryId: number, store: WebhookStore): Promise<void> {
    if (this.closed) return;
    const d = await this.repo.delivery(deliveryId);
    if (d?.status !== 'pending') return;
    // https only (see the top), checked again at each attempt: the store's setting may have changed since.
    const refused = this.addressProblem(d.uri, store);
    if (refused) {
      await this.repo.finishDelivery(deliveryId, { status: 'failed', attempts: d.attempts, lastError: refused });
      return;
    }
    let error: string | null = null;
    try {
      const url = new URL(d.uri);
      const send = this.ownOrigin === url.origin ? this.ownFetch : this.otherFetch;
      const res = await send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': d.topic,
          // Signed with the store's own app's client secret (docs/sandbox/oauth.md).
          'x-shopify-hmac-sha256': hmacSha256Base64(store.clientSecret, d.body),
          'x-shopify-shop-domain': store.domain,
          'x-shopify-webhook-id': d.webhookId,
          'x-shopify-event-id': d.eventId,
          'x-shopify-api-version': ADMIN_API_VERSION,
          'x-shopify-triggered-at': d.triggeredAt.toISOString(),
        },
        body: d.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await res.body?.cancel().catch(() => {});
      if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
    } catch (err) {
      error = (err as Error).name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : (err as Error).message;
    }
    const attempts = d.attempts + 1;
    if (error === null) {
      await this.repo.finishDelivery(deliveryId, { status: 'delivered', attempts, lastError: null });
      return;
    }
    const retryIn = this.delays[attempts - 1];
    await this.repo.finishDelivery(deliveryId, { status: retryIn === undefined || this.closed ? 'failed' : 'pending', attempts, lastError: error });
    if (retryIn === undefined || this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.attempt(deliveryId, store));
    }, retryIn);
    timer.unref();
    this.timers.add(timer);
  }

  private addressProblem(uri: string, store: Pick<WebhookStore, 'allowHttpWebhooks'>): string | null {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return 'Address is invalid';
    }
    if (url.protocol === 'https:') return null;
    if (url.protocol === 'http:') return this.allowHttp || store.allowHttpWebhooks ? null : HTTP_REFUSED;
    return 'Address is invalid';
  }
}
