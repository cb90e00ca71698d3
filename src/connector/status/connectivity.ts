// Live connectivity checks behind GET /api/status: the PIM (GET {pim_base_url}/api/auth/verify with the integration's
// credentials, through the connector's PimClient) and the storefront (StorefrontPort.shopHealth), each with a short
// timeout. Results are stored on the integration (pim_status, storefront_status, checked_at; a failure also in
// last_error) and reused for `ttlMs`: the stored checked_at is the cache, so every node and every restart share it, and
// the public status endpoint reads the same row without ever calling out. Concurrent requests for one integration share
// one in-flight check.
import type { SecretBox } from '../../lib/secret-box.js';
import type { PimClient } from '../pim/pim-client.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import type { IntegrationState, StatusRepository } from './status.repository.js';

export type PimStatus = { status: 'connected' } | { status: 'error'; error: string };
export type StorefrontStatus = { status: 'connected'; shop_name: string; shop_id: string; plan: string } | { status: 'error'; error: string };

export interface PimTarget {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

/** The PIM side of the check; resolves when the PIM accepts the credentials, rejects with a reason otherwise. */
export interface PimProbe {
  verify(target: PimTarget, options: { timeoutMs: number }): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The PIM probe over the connector's PimClient (GET {pim_base_url}/api/auth/verify, with its address policy): the
 * client never throws, and bounds the call by the checker's timeout (3 s) rather than its own.
 */
export class PimClientProbe implements PimProbe {
  constructor(private readonly client: Pick<PimClient, 'verifyCredentials'>) {}

  async verify(target: PimTarget, options: { timeoutMs: number }): Promise<void> {
    const result = await this.client.verifyCredentials(target.baseUrl, target.apiKey, target.apiSecret, options);
    if (!result.ok) throw new Error(result.message);
  }
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const reason = (err: unknown) => (err instanceof Error && err.message ? err.message : 'unknown error');

export interface ConnectivityResult {
  pim: PimStatus;
  storefront: StorefrontStatus;
  checkedAt: Date;
}

export interface ConnectivityOptions {
  repository: Pick<StatusRepository, 'checkTarget' | 'saveCheck'>;
  secretBox: SecretBox;
  storefront: StorefrontPort;
  pim: PimProbe;
  /**
   * The shop's access (connector/shop-auth): its token source for expiring tokens, and where the scopes each live check
   * reads are kept. Absent: the stored token is opened as it is.
   */
  shops?: {
    forIntegration(integrationId: number): Promise<StorefrontShop | null>;
    recordScopes(integrationId: number, scopes: string[]): Promise<void>;
  };
  clock?: Clock;
  /** How long a stored check is reused (30 s). */
  ttlMs?: number;
  /** Per-check timeout (3 s). */
  timeoutMs?: number;
}

const isCheck = (value: unknown): value is { status: string } =>
  typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'string';

export class ConnectivityChecker {
  private readonly inFlight = new Map<number, Promise<ConnectivityResult>>();
  private readonly clock: Clock;
  readonly ttlMs: number;
  readonly timeoutMs: number;

  constructor(private readonly options: ConnectivityOptions) {
    this.clock = options.clock ?? systemClock;
    this.ttlMs = options.ttlMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 3_000;
  }

  /** The stored checks when younger than the TTL, else a live check (shared with concurrent callers). */
  async current(state: IntegrationState): Promise<ConnectivityResult> {
    const stored = this.fresh(state);
    if (stored) return stored;
    const running = this.inFlight.get(state.id);
    if (running) return running;
    const check = this.check(state.id).finally(() => this.inFlight.delete(state.id));
    this.inFlight.set(state.id, check);
    return check;
  }

  private async check(integrationId: number): Promise<ConnectivityResult> {
    const target = await this.options.repository.checkTarget(integrationId);
    if (!target) throw new Error(`integration ${integrationId} vanished during its status check`);
    // The caller's snapshot may predate a check that finished since (here or on another node): re-read before calling out.
    const stored = this.fresh(target);
    if (stored) return stored;
    const [pim, storefront] = await Promise.all([this.checkPim(target), this.checkStorefront(integrationId, target)]);
    const checkedAt = this.clock.now();
    const errors = [pim, storefront].flatMap((s) => (s.status === 'error' ? [s.error] : []));
    await this.options.repository.saveCheck(integrationId, {
      pimStatus: pim,
      storefrontStatus: storefront,
      checkedAt,
      error: errors.length > 0 ? errors.join('; ') : null,
    });
    return { pim, storefront, checkedAt };
  }

  private open(sealed: string, what: string): string {
    try {
      return this.options.secretBox.open(sealed);
    } catch {
      throw new Error(`the stored ${what} cannot be decrypted (was ENCRYPTION_KEY changed?)`);
    }
  }

  private fresh(state: StoredCheckState): ConnectivityResult | null {
    const stored = storedChecks(state);
    return stored && this.clock.now().getTime() - stored.checkedAt.getTime() < this.ttlMs ? stored : null;
  }

  private async checkPim(target: { pimBaseUrl: string; pimApiKeyEncrypted: string; pimApiSecretEncrypted: string }): Promise<PimStatus> {
    try {
      const credentials = {
        baseUrl: target.pimBaseUrl,
        apiKey: this.open(target.pimApiKeyEncrypted, 'PIM credentials'),
        apiSecret: this.open(target.pimApiSecretEncrypted, 'PIM credentials'),
      };
      // The outer timeout guards against a probe that ignores its own (+250 ms so the probe's message wins).
      await withTimeout(this.options.pim.verify(credentials, { timeoutMs: this.timeoutMs }), this.timeoutMs + 250);
      return { status: 'connected' };
    } catch (err) {
      return { status: 'error', error: `PIM cannot be reached: ${reason(err)}` };
    }
  }

  private async checkStorefront(
    integrationId: number,
    target: { shopDomain: string; shopApiBaseUrl: string | null; shopAccessTokenEncrypted: string },
  ): Promise<StorefrontStatus> {
    try {
      const shops = this.options.shops;
      const shop = (shops && (await shops.forIntegration(integrationId))) ?? {
        domain: target.shopDomain,
        apiBaseUrl: target.shopApiBaseUrl,
        accessToken: this.open(target.shopAccessTokenEncrypted, 'access token'),
      };
      const health = await withTimeout(this.options.storefront.shopHealth(shop, { timeoutMs: this.timeoutMs }), this.timeoutMs + 250);
      // The granted scopes came with the health check: kept for the status's storefront_access.
      if (shops && health.scopes) await shops.recordScopes(integrationId, health.scopes);
      return { status: 'connected', shop_name: health.name, shop_id: health.id, plan: health.plan };
    } catch (err) {
      return { status: 'error', error: `Storefront cannot be reached: ${reason(err)}` };
    }
  }
}

type StoredCheckState = Pick<IntegrationState, 'pimStatus' | 'storefrontStatus' | 'checkedAt' | 'updatedAt'>;

/**
 * The stored last checks, or null when there are none (never checked), they are malformed, or they predate the
 * integration's last change (update or reconnect: they were made with other credentials or another URL).
 */
export function storedChecks(state: StoredCheckState): ConnectivityResult | null {
  if (!state.checkedAt || !isCheck(state.pimStatus) || !isCheck(state.storefrontStatus)) return null;
  if (state.checkedAt.getTime() < state.updatedAt.getTime()) return null;
  return { pim: state.pimStatus as PimStatus, storefront: state.storefrontStatus as StorefrontStatus, checkedAt: state.checkedAt };
}
