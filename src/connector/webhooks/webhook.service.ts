// Shopify webhooks (docs/sync.md, "Webhooks"): the bridge subscribes each shop to PRODUCTS_UPDATE, PRODUCTS_DELETE,
// INVENTORY_LEVELS_UPDATE and APP_UNINSTALLED at PUBLIC_URL + /webhooks/shopify, and acts on what arrives there.
//
// Every delivery is verified before anything else: X-Shopify-Hmac-Sha256 must be the base64 HMAC-SHA256 of the raw
// body with the app's client secret, compared in constant time ("compute HMAC-SHA256 of the raw request body using
// your app's client secret as the key, then compare it to the decoded header value. Reject any delivery where the
// signatures don't match", https://shopify.dev/docs/apps/build/webhooks/verify-deliveries). Then, nothing changing on
// a refusal: a bad or missing signature, or a shop not installed here, is 401; an unknown topic, no webhook id, or a
// body that is not JSON is 400. A delivery whose X-Shopify-Webhook-Id was recorded already is answered 200 and not
// acted on (the same page: the delivery ID "you can use to detect duplicates").
//
// What each topic does (small writes, done before answering, so a failure makes Shopify retry):
// - products/delete: the mappings of that product become `error` with the reason, storefront ids cleared and
//   `metadata.deleted_in_shop` set; the next push creates it again unless recreate_deleted_products is false;
// - products/update: the fields the last push wrote (title, handle, variant SKUs) are compared with the shop's; each
//   difference is a drift_events row (our own writes fire products/update too, and match);
// - inventory_levels/update: recorded only (the bridge moves quantities by the PIM's change; counts the shop changes
//   are the shop's own);
// - app/uninstalled: the integration is deactivated and its tokens revoked (the disconnect's own logic).
import type { Db } from '../../db/client.js';
import { hmacSha256Matches } from '../../lib/crypto.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { StorefrontError, StorefrontValidationError } from '../../storefront/port/errors.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import { STOREFRONT_WEBHOOK_TOPICS, type StorefrontWebhooks, type StorefrontWebhookSubscription } from '../../storefront/port/webhooks.js';
import { ConnectorError } from '../connector.errors.js';
import { ymdHis } from '../timestamps.js';
import type { IntegrationRepository } from '../integrations/integration.repository.js';
import { parseSettings } from '../integrations/integration-settings.js';
import type { MappingRepository, MappingRow } from '../mappings/mapping.repository.js';
import type { DriftEventInput, WebhookRepository } from './webhook.repository.js';

/** Our webhook route, under PUBLIC_URL. */
export const WEBHOOK_PATH = '/webhooks/shopify';

/**
 * The mandatory compliance topics every app distributed to merchants must answer
 * (https://shopify.dev/docs/apps/build/compliance/privacy-law-compliance): Pimbridge keeps no customer data, so the two
 * customer topics are acknowledged with nothing to report or erase; shop/redact (48 hours after an uninstall) erases
 * everything kept of the shop.
 */
export const COMPLIANCE_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact'] as const;

/** X-Shopify-Topic values we act on. */
export const WEBHOOK_TOPICS = ['products/update', 'products/delete', 'inventory_levels/update', 'app/uninstalled', ...COMPLIANCE_TOPICS] as const;
type Topic = (typeof WEBHOOK_TOPICS)[number];

export interface WebhookHeaders {
  hmac?: string;
  topic?: string;
  shopDomain?: string;
  webhookId?: string;
  /** X-Shopify-Triggered-At: when Shopify triggered the delivery (retries keep it). */
  triggeredAt?: string;
}

export interface WebhookServiceDeps {
  db: Db;
  repo: WebhookRepository;
  mappings: MappingRepository;
  integrations: IntegrationRepository;
  /** The storefront side of an integration (its token opened), for subscribing. */
  shopOf: (integrationId: number) => Promise<StorefrontShop | null>;
  /** The disconnect's logic (deactivate, revoke tokens), run on app/uninstalled. */
  disconnect: (integrationId: number) => Promise<unknown>;
  /** Opens a shop's sealed app secret (ENCRYPTION_KEY). */
  box: SecretBox;
  storefront: StorefrontWebhooks;
  log?: { warn(obj: object, msg: string): void };
  now?: () => Date;
}

export interface WebhookOptions {
  /**
   * The Pimbridge app's client secret (SHOPIFY_API_SECRET, or one derived from ENCRYPTION_KEY): the secret of shops that
   * keep no app secret of their own (a legacy custom app's token). A shop with its own app is verified with that app's.
   */
  secret: string;
  /** A delivery triggered longer ago than this is refused (WEBHOOK_MAX_AGE_SECONDS). */
  maxAgeSeconds?: number;
  /** PUBLIC_URL + WEBHOOK_PATH. */
  callbackUrl: string;
  /** Whether shops of platform `shopify` are subscribed (only with SHOPIFY_API_SECRET: else their signatures cannot be checked). */
  subscribeShopifyShops: boolean;
}

export type SubscribeOutcome =
  | { status: 'subscribed'; callback_url: string; subscriptions: { id: string; topic: string; uri: string }[]; created: number; deleted: number }
  | { status: 'skipped'; callback_url: string; reason: string };

export class WebhookService {
  private readonly now: () => Date;

  constructor(
    private readonly deps: WebhookServiceDeps,
    private readonly options: WebhookOptions,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  get callbackUrl(): string {
    return this.options.callbackUrl;
  }

  /** Subscribes the integration's shop (idempotent). Throws ConnectorError CONNECTION_FAILED when the shop cannot be reached. */
  async subscribe(integrationId: number): Promise<SubscribeOutcome> {
    const shopKind = await this.deps.repo.platformOf(integrationId);
    if (shopKind?.platform === 'shopify' && !shopKind.ownSecret && !this.options.subscribeShopifyShops) {
      return { status: 'skipped', callback_url: this.callbackUrl, reason: 'SHOPIFY_API_SECRET is not set: Shopify webhooks could not be verified' };
    }
    const shop = await this.deps.shopOf(integrationId);
    if (!shop) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
    try {
      const r = await this.deps.storefront.ensureWebhookSubscriptions(shop, this.callbackUrl, STOREFRONT_WEBHOOK_TOPICS);
      return {
        status: 'subscribed',
        callback_url: this.callbackUrl,
        subscriptions: r.subscriptions.map(view),
        created: r.created.length,
        deleted: r.deleted.length,
      };
    } catch (err) {
      if (err instanceof StorefrontError || err instanceof StorefrontValidationError)
        throw new ConnectorError('CONNECTION_FAILED', `The shop's webhooks could not be set up: ${err.message}`);
      throw err;
    }
  }

  /** After connect: subscribe, and never fail the connect for it (GET/POST /api/integration/webhooks show and retry it). */
  async subscribeAfterConnect(integrationId: number): Promise<void> {
    try {
      await this.subscribe(integrationId);
    } catch (err) {
      this.deps.log?.warn({ err, integrationId }, 'webhook subscription at connect failed');
    }
  }

  /** GET /api/drift/events: what webhooks recorded of the merchant's edits to fields the bridge owns, newest first. */
  async driftEvents(integrationId: number, page: { limit: number; offset: number; pimProductId?: number }) {
    const { items, total } = await this.deps.repo.driftPage(integrationId, page);
    return {
      events: items.map((e) => ({
        id: e.id,
        pim_product_id: e.pimProductId,
        storefront_product_id: e.storefrontProductId,
        field: e.field,
        written: e.expected,
        storefront: e.actual,
        source: e.source,
        detected_at: ymdHis(e.detectedAt)!,
      })),
      pagination: { total, limit: page.limit, offset: page.offset },
    };
  }

  /** GET /api/integration/webhooks: the shop's subscriptions read live, and the setting. */
  async view(integrationId: number) {
    const shop = await this.deps.shopOf(integrationId);
    if (!shop) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
    let subscriptions: StorefrontWebhookSubscription[];
    try {
      subscriptions = await this.deps.storefront.webhookSubscriptions(shop);
    } catch (err) {
      if (err instanceof StorefrontError) throw new ConnectorError('CONNECTION_FAILED', `The shop could not be read: ${err.message}`);
      throw err;
    }
    const ours = new Set<string>(STOREFRONT_WEBHOOK_TOPICS);
    return {
      callback_url: this.callbackUrl,
      topics: STOREFRONT_WEBHOOK_TOPICS.map((topic) => ({ topic, subscribed: subscriptions.some((s) => s.topic === topic && s.uri === this.callbackUrl) })),
      subscriptions: subscriptions.filter((s) => ours.has(s.topic)).map(view),
      recreate_deleted_products: await this.recreateDeleted(integrationId),
    };
  }

  async recreateDeleted(integrationId: number): Promise<boolean> {
    return parseSettings(await this.deps.integrations.settings(integrationId)).recreate_deleted_products !== false;
  }

  async setRecreateDeleted(integrationId: number, value: boolean): Promise<void> {
    // Written over the stored jsonb, so the keys other settings keep there stay as they are.
    const stored = await this.deps.integrations.settings(integrationId);
    const base = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
    await this.deps.integrations.saveSettings(integrationId, { ...base, recreate_deleted_products: value });
  }

  /**
   * One delivery: verified, de-duplicated, acted on. Throws ConnectorError (401/400) for a refused one.
   *
   * Verified with the secret of the app installed on the shop the delivery names (X-Shopify-Shop-Domain), so that a body
   * signed for one shop is refused for another; a shop unknown here and a wrong signature get the same answer. Then its
   * X-Shopify-Triggered-At must be recent (WEBHOOK_MAX_AGE_SECONDS; Shopify sends it on every delivery, retries keep it).
   */
  async receive(headers: WebhookHeaders, raw: Buffer): Promise<{ outcome: string; duplicate: boolean }> {
    const domain = (headers.shopDomain ?? '').trim().toLowerCase();
    const shop = domain ? await this.deps.repo.shopByDomain(domain) : null;
    const secret = shop ? (shop.clientSecretEncrypted ? this.deps.box.open(shop.clientSecretEncrypted) : this.options.secret) : null;
    if (!shop || !secret || !hmacSha256Matches(secret, raw, headers.hmac))
      throw new ConnectorError(
        'AUTHENTICATION_FAILED',
        'The webhook signature (X-Shopify-Hmac-Sha256) is missing or wrong for this shop (X-Shopify-Shop-Domain)',
      );
    this.checkTriggeredAt(headers.triggeredAt);
    const topic = headers.topic?.trim().toLowerCase();
    if (!topic || !(WEBHOOK_TOPICS as readonly string[]).includes(topic))
      throw new ConnectorError('VALIDATION_FAILED', `Unknown webhook topic ${topic ? `'${topic.slice(0, 64)}'` : '(none)'}`);
    const webhookId = headers.webhookId?.trim();
    if (!webhookId || webhookId.length > 255) throw new ConnectorError('MISSING_FIELD', 'X-Shopify-Webhook-Id is required');
    let payload: Record<string, unknown>;
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SyntaxError('not an object');
      payload = parsed as Record<string, unknown>;
    } catch {
      throw new ConnectorError('INVALID_JSON', 'The webhook body is not a JSON object');
    }
    if (await this.deps.repo.seen(webhookId)) return { outcome: 'duplicate', duplicate: true };

    const at = this.now();
    if ((COMPLIANCE_TOPICS as readonly string[]).includes(topic)) {
      // The customer topics: nothing kept of customers, nothing to send or erase. shop/redact: the shop erased first
      // (a failure before recording lets Shopify's retry do it again), the delivery recorded without its integration.
      const outcome = topic === 'shop/redact' ? 'shop_erased' : 'no_customer_data';
      if (topic === 'shop/redact') await this.deps.repo.eraseShop(shop.shopId);
      const fresh = await this.deps.repo.record({ webhookId, shopDomain: domain, topic, integrationId: null, outcome, at });
      return { outcome, duplicate: !fresh };
    }
    const integrationId = shop.isActive ? shop.integrationId : null;
    const record = (repo: WebhookRepository, outcome: string) => repo.record({ webhookId, shopDomain: domain, topic, integrationId, outcome, at });
    if (integrationId === null) {
      const fresh = await record(this.deps.repo, 'ignored');
      return { outcome: 'ignored', duplicate: !fresh };
    }
    if (topic === 'app/uninstalled') {
      // Disconnect first (idempotent): a failure before recording lets Shopify's retry do it again.
      await this.deps.disconnect(integrationId);
      const fresh = await record(this.deps.repo, 'deactivated');
      return { outcome: 'deactivated', duplicate: !fresh };
    }
    const outcome = await this.deps.db
      .transaction(async (tx) => {
        const repo = this.deps.repo.with(tx);
        const mappings = this.deps.mappings.with(tx);
        const result = await this.act(topic as Topic, payload, integrationId, webhookId, at, repo, mappings);
        // The id is recorded with the action, in one transaction: a repeat (even a concurrent one) acts once.
        if (!(await record(repo, result))) throw new Duplicate();
        return result;
      })
      .catch((err) => {
        if (err instanceof Duplicate) return 'duplicate';
        throw err;
      });
    if (Math.random() < 0.01) await this.deps.repo.prune(at).catch(() => undefined);
    return { outcome, duplicate: outcome === 'duplicate' };
  }

  private checkTriggeredAt(value: string | undefined): void {
    const at = value ? Date.parse(value) : NaN;
    if (Number.isNaN(at)) throw new ConnectorError('AUTHENTICATION_FAILED', 'X-Shopify-Triggered-At is missing or not a time');
    const age = this.now().getTime() - at;
    const maxAgeMs = (this.options.maxAgeSeconds ?? 49 * 3600) * 1000;
    if (age > maxAgeMs || age < -FUTURE_TOLERANCE_MS)
      throw new ConnectorError(
        'AUTHENTICATION_FAILED',
        `The delivery was triggered at ${new Date(at).toISOString()}, outside the accepted window: refused as a replay`,
      );
  }

  private async act(
    topic: Topic,
    payload: Record<string, unknown>,
    integrationId: number,
    webhookId: string,
    at: Date,
    repo: WebhookRepository,
    mappings: MappingRepository,
  ): Promise<string> {
    if (topic === 'inventory_levels/update') return 'recorded';
    const productId = numericId(payload.id);
    if (productId === null) return 'no_product_id';
    if (topic === 'products/delete') {
      const marked = await mappings.markDeletedInShop(integrationId, productId, at, webhookId);
      return marked.length > 0 ? 'mapping_deleted' : 'not_mapped';
    }
    const mapping = await mappings.findByStorefrontProduct(integrationId, productId);
    if (!mapping) return 'not_mapped';
    const drift = driftOf(mapping, payload).map(
      (d): DriftEventInput => ({
        integrationId,
        pimProductId: mapping.pimProductId,
        storefrontProductId: productId,
        ...d,
        source: `webhook:${topic}`,
        webhookId,
        detectedAt: at,
      }),
    );
    await repo.insertDrift(drift);
    return drift.length > 0 ? 'drift' : 'no_drift';
  }
}

class Duplicate extends Error {}

/** A delivery whose trigger time is in the future by more than this is refused too (clocks drift a little). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

const view = (s: StorefrontWebhookSubscription) => ({ id: s.id, topic: s.topic, uri: s.uri });

function numericId(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * The owned fields whose shop value differs from what the last push wrote (the mapping's metadata and storefront
 * state): title, handle, and the variants' SKUs (by variant id). A field the payload lacks is not compared.
 */
export function driftOf(mapping: MappingRow, payload: Record<string, unknown>): { field: string; expected: string | null; actual: string | null }[] {
  const out: { field: string; expected: string | null; actual: string | null }[] = [];
  const meta = (mapping.metadata ?? {}) as { storefront_title?: unknown; storefront_handle?: unknown };
  for (const [field, expected] of [
    ['title', meta.storefront_title],
    ['handle', meta.storefront_handle],
  ] as const) {
    const actual = payload[field];
    if (typeof expected === 'string' && typeof actual === 'string' && actual !== expected) out.push({ field, expected, actual });
  }
  const state = (mapping.storefrontState ?? {}) as { variantIds?: Record<string, unknown> };
  const variants = Array.isArray(payload.variants) ? (payload.variants as { id?: unknown; sku?: unknown }[]) : null;
  if (variants && state.variantIds && typeof state.variantIds === 'object') {
    const skuById = new Map(variants.map((v) => [String(v.id), typeof v.sku === 'string' ? v.sku : '']));
    for (const [sku, gid] of Object.entries(state.variantIds)) {
      const id = typeof gid === 'string' ? /(\d+)$/.exec(gid)?.[1] : undefined;
      const actual = id === undefined ? undefined : skuById.get(id);
      if (actual !== undefined && actual !== sku) out.push({ field: 'variant_sku', expected: sku, actual });
    }
  }
  return out;
}
