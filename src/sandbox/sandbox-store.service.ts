// The sandbox's stores: made and removed by the admin API (`POST /admin/shops {platform: "sandbox"}`, DELETE), kept in the
// database so they survive a restart. A store's legacy Admin API token looks like Shopify's (`shpat_` + 32 hex), is shown
// once and stored as a SHA-256 hash. Each store has an app of its own (docs/sandbox/oauth.md): a client id (32 hex) and a
// client secret (`shpss_` + 32 hex, kept as is: it is Shopify's side of the secret, the store signs with it).
import { randomBytes } from 'node:crypto';
import { safeEqual, sha256Hex } from '../lib/crypto.js';
import { mulberry32 } from '../lib/prng.js';
import { planLimits, type BucketLimits } from './leaky-bucket.js';
import type { SandboxAppSettings, SandboxSettings, SandboxStore, SandboxStoreRepository } from './sandbox-store.repository.js';

/** What happens to one call before it runs (faults are drawn from the store's seeded sequence). */
export type FaultDraw = { kind: 'none' } | { kind: 'error'; status: 500 | 502 | 503 } | { kind: 'timeout' };

/** A store's effective throttle and fault settings, as the admin API shows them. */
export interface SandboxConfigView {
  domain: string;
  plan: string;
  bucket_size: number;
  restore_rate: number;
  error_rate: number;
  timeout_rate: number;
  fail_after_commit_rate: number;
  latency_ms: number;
  fault_seed: number;
  variant_throttle_limit: number | null;
  /** The store's locations, in the order they were made. */
  locations: { id: string; name: string }[];
  /** The store's app (docs/sandbox/oauth.md): its client id (the secret is given once, by create). */
  client_id: string;
  /** Expiring offline and client credentials tokens' lifetime; null: the defaults (3600 and 86399). */
  token_lifetime_seconds: number | null;
  refresh_token_lifetime_seconds: number;
  /** The app's configured scopes; null: every scope. */
  app_scopes: string[] | null;
  revoked_scopes: string[];
  /** The app's allowed redirection URLs; null: `{PUBLIC_URL}/shopify/callback`. */
  redirect_urls: string[] | null;
  allow_http_webhooks: boolean;
  /** Where compliance webhooks go; null: `{PUBLIC_URL}/webhooks/shopify`. */
  compliance_url: string | null;
  /** Media `originalSource` may be on loopback and private addresses too (tests); default public only, as Shopify. */
  allow_private_media_sources: boolean;
}

export interface SandboxConfigInput {
  bucket_size?: number | null;
  restore_rate?: number | null;
  error_rate?: number;
  timeout_rate?: number;
  fail_after_commit_rate?: number;
  latency_ms?: number;
  fault_seed?: number;
  variant_throttle_limit?: number | null;
  /** Location names the store must have (missing ones are added; none is removed). */
  locations?: string[];
  /** The app's token lifetimes (docs/sandbox/oauth.md); null: the defaults. */
  token_lifetime_seconds?: number | null;
  refresh_token_lifetime_seconds?: number | null;
  /** The app's configured scopes; null: every scope. */
  app_scopes?: string[] | null;
  /** Scopes taken from every token of the store (the legacy one too) and from future grants. */
  revoked_scopes?: string[];
  /** The app's allowed redirection URLs; null: `{PUBLIC_URL}/shopify/callback`. */
  redirect_urls?: string[] | null;
  /** Webhooks to http:// addresses too (Shopify: https only). */
  allow_http_webhooks?: boolean;
  /** Where the mandatory compliance webhooks go; null: `{PUBLIC_URL}/webhooks/shopify`. */
  compliance_url?: string | null;
  /** Fetch media `originalSource` from loopback and private addresses too (tests); default false: public only. */
  allow_private_media_sources?: boolean;
}

/** The default refresh token lifetime (sandbox-oauth.service.ts cites it). */
const DEFAULT_REFRESH_SECONDS = 7_776_000;

export class SandboxStoreService {
  /** Fault sequences by store and configuration version (a new configuration restarts the sequence from its seed). */
  private readonly sequences = new Map<string, () => number>();

  /** Told the store's id when locations were added (the product service's cache of location ids). */
  private readonly locationListeners: ((storeId: number) => void)[] = [];

  constructor(private readonly stores: SandboxStoreRepository) {}

  onLocationsAdded(listener: (storeId: number) => void): void {
    this.locationListeners.push(listener);
  }

  /**
   * Makes the store (or, if one with this domain is left over, issues it a new legacy token) and returns that token,
   * once, with the store's app credentials (a store left over keeps its app).
   */
  async create(domain: string): Promise<{ accessToken: string; clientId: string; clientSecret: string }> {
    const normalized = normalizeDomain(domain);
    const accessToken = `shpat_${randomBytes(16).toString('hex')}`;
    const store = await this.stores.upsert({
      domain: normalized,
      name: shopNameFromDomain(normalized),
      accessTokenHash: sha256Hex(accessToken),
      clientId: randomBytes(16).toString('hex'),
      clientSecret: `shpss_${randomBytes(16).toString('hex')}`,
    });
    return { accessToken, clientId: store.clientId, clientSecret: store.clientSecret };
  }

  /** The store's app: its client id, client secret and name; null for an unknown store. */
  async appOf(domain: string): Promise<{ clientId: string; clientSecret: string; appName: string } | null> {
    const store = await this.stores.findByDomain(normalizeDomain(domain));
    return store ? { clientId: store.clientId, clientSecret: store.clientSecret, appName: store.appName } : null;
  }

  /** Deletes the store and everything in it; removing an unknown store is a no-op. */
  async remove(domain: string): Promise<void> {
    await this.stores.deleteByDomain(normalizeDomain(domain));
  }

  find(domain: string): Promise<SandboxStore | null> {
    return this.stores.findByDomain(normalizeDomain(domain));
  }

  /** True when `token` is the store's token (compared in constant time). */
  tokenMatches(store: SandboxStore, token: string | undefined): boolean {
    return typeof token === 'string' && token.length > 0 && safeEqual(sha256Hex(token), store.accessTokenHash);
  }

  /** The store's cost bucket: its own size and restore rate where set, else its plan's. */
  bucketLimits(store: SandboxStore): BucketLimits {
    const plan = planLimits(store.planName);
    return { maximumAvailable: store.bucketSize ?? plan.maximumAvailable, restoreRate: store.restoreRate ?? plan.restoreRate };
  }

  /** The next number of the store's fault sequence (seeded by fault_seed, restarted by each configuration change). */
  private next(store: SandboxStore): number {
    const key = `${store.id}:${store.configVersion}:${store.faultSeed}`;
    let rng = this.sequences.get(key);
    if (!rng) {
      for (const k of this.sequences.keys()) if (k.startsWith(`${store.id}:`)) this.sequences.delete(k);
      rng = mulberry32(store.faultSeed);
      this.sequences.set(key, rng);
    }
    return rng();
  }

  /** Draws the fault of one call, before it runs: an error (500/502/503) with error_rate, a hang with timeout_rate. */
  drawFault(store: SandboxStore): FaultDraw {
    if (store.errorRate <= 0 && store.timeoutRate <= 0) return { kind: 'none' };
    const r = this.next(store);
    if (r < store.errorRate) {
      const statuses = [500, 502, 503] as const;
      return { kind: 'error', status: statuses[Math.floor(this.next(store) * 3) % 3] };
    }
    if (r < store.errorRate + store.timeoutRate) return { kind: 'timeout' };
    return { kind: 'none' };
  }

  /** Whether a call that ran (and committed) answers 503 anyway, with fail_after_commit_rate. */
  drawFailAfterCommit(store: SandboxStore): boolean {
    return store.failAfterCommitRate > 0 && this.next(store) < store.failAfterCommitRate;
  }

  /** Changes the store's throttle and fault settings; null when it does not exist. */
  async configure(domain: string, input: SandboxConfigInput): Promise<SandboxConfigView | null> {
    const settings: Partial<SandboxSettings> = {};
    if (input.bucket_size !== undefined) settings.bucketSize = input.bucket_size;
    if (input.restore_rate !== undefined) settings.restoreRate = input.restore_rate;
    if (input.error_rate !== undefined) settings.errorRate = input.error_rate;
    if (input.timeout_rate !== undefined) settings.timeoutRate = input.timeout_rate;
    if (input.fail_after_commit_rate !== undefined) settings.failAfterCommitRate = input.fail_after_commit_rate;
    if (input.latency_ms !== undefined) settings.latencyMs = input.latency_ms;
    if (input.fault_seed !== undefined) settings.faultSeed = input.fault_seed;
    if (input.variant_throttle_limit !== undefined) settings.variantThrottleLimit = input.variant_throttle_limit;
    const app: Partial<SandboxAppSettings> = {};
    if (input.token_lifetime_seconds !== undefined) app.tokenLifetimeSeconds = input.token_lifetime_seconds;
    if (input.refresh_token_lifetime_seconds !== undefined) app.refreshTokenLifetimeSeconds = input.refresh_token_lifetime_seconds;
    if (input.app_scopes !== undefined) app.appScopes = input.app_scopes === null ? null : uniqueTrimmed(input.app_scopes);
    if (input.revoked_scopes !== undefined) app.revokedScopes = uniqueTrimmed(input.revoked_scopes);
    if (input.redirect_urls !== undefined) app.redirectUrls = input.redirect_urls === null ? null : uniqueTrimmed(input.redirect_urls);
    if (input.allow_http_webhooks !== undefined) app.allowHttpWebhooks = input.allow_http_webhooks;
    if (input.compliance_url !== undefined) app.complianceUrl = input.compliance_url;
    if (input.allow_private_media_sources !== undefined) app.allowPrivateMediaSources = input.allow_private_media_sources;
    const store = await this.stores.configure(normalizeDomain(domain), settings, app);
    if (!store) return null;
    if (input.locations && (await this.stores.addLocations(store.id, input.locations))) for (const listener of this.locationListeners) listener(store.id);
    return this.configView(store);
  }

  async configView(store: SandboxStore): Promise<SandboxConfigView> {
    const limits = this.bucketLimits(store);
    const locations = (await this.stores.locations(store.id)).map((l) => ({ id: `gid://shopify/Location/${l.id}`, name: l.name }));
    return {
      domain: store.domain,
      plan: store.planName,
      bucket_size: limits.maximumAvailable,
      restore_rate: limits.restoreRate,
      error_rate: store.errorRate,
      timeout_rate: store.timeoutRate,
      fail_after_commit_rate: store.failAfterCommitRate,
      latency_ms: store.latencyMs,
      fault_seed: store.faultSeed,
      variant_throttle_limit: store.variantThrottleLimit,
      locations,
      client_id: store.clientId,
      token_lifetime_seconds: store.tokenLifetimeSeconds,
      refresh_token_lifetime_seconds: store.refreshTokenLifetimeSeconds ?? DEFAULT_REFRESH_SECONDS,
      app_scopes: store.appScopes,
      revoked_scopes: store.revokedScopes,
      redirect_urls: store.redirectUrls,
      allow_http_webhooks: store.allowHttpWebhooks,
      compliance_url: store.complianceUrl,
      allow_private_media_sources: store.allowPrivateMediaSources,
    };
  }

  /** Changes the plan (`Basic`, `Advanced`, `Plus`, …), which sets the cost bucket. Not exposed over HTTP yet. */
  async setPlan(domain: string, planName: string): Promise<boolean> {
    return this.stores.setPlan(normalizeDomain(domain), planName);
  }
}

function uniqueTrimmed(values: string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}

export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase();
}

/** `acme-outdoor.myshopify.com` → `Acme Outdoor`. */
export function shopNameFromDomain(domain: string): string {
  const label = domain.replace(/\.myshopify\.com$/, '').split('.')[0] || domain;
  const words = label.split(/[-_]+/).filter(Boolean);
  return words.length ? words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') : domain;
}
