// A shop's access token as the storefront calls need it. A static token (a legacy custom app) is sent as stored. An
// expiring one (client credentials, about 24 h; an install's expiring offline token, 1 h with a refresh token) is kept
// in memory while it is fresh, so a call costs no extra I/O, and renewed shortly before it expires, or once after the
// shop refuses it with a 401.
//
// One renewal per shop at a time across every worker and process: a lease on the shop's row (renewal_owner,
// renewal_until), like the product write lease, since no database connection may be held across the call to Shopify
// (PGlite has one session, and the sandbox answering that call shares it). Whoever holds the lease asks Shopify and
// stores the new pair (sealed) before anyone uses it — since 2026-08-28 the old refresh token stays valid until the new
// access token is first used (shopify.dev changelog "More resilient refreshes for expiring offline access tokens"), so
// a crash between the answer and the write can be retried with the old one. The others wait for the row to change.
// A refusal (a revoked refresh token, a wrong secret, an uninstalled app) marks the shop "reauthorization required"
// and every call fails at once with that error, never a retry storm; an unreachable token endpoint is `unavailable`,
// which the job's retry policy handles.
import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../../lib/secret-box.js';
import { StorefrontAuthError, type AccessGrant, type StorefrontAuthorization } from '../../storefront/port/authorization.js';
import { StorefrontError } from '../../storefront/port/errors.js';
import type { StorefrontShop, ShopTokenSource } from '../../storefront/port/shop.js';
import type { ShopAuthRepository } from './shop-auth.repository.js';
import type { SealedGrant, ShopAuthRow } from './shop-columns.js';

/** How long the renewal lease lasts: longer than a token request may take (10 s), short enough for a dead holder. */
const RENEWAL_LEASE_MS = 20_000;
/** How long a caller waits for another's renewal before giving up (`unavailable`). */
const RENEWAL_WAIT_MS = RENEWAL_LEASE_MS + 10_000;
/** Renew this long before expiry at most (a 24 h or 1 h token); a shorter token renews at a tenth of its life before. */
const MAX_MARGIN_MS = 5 * 60_000;

interface Cached {
  token: string;
  expiresAt: number;
  /** How early to renew: a tenth of the token's life, at most MAX_MARGIN_MS. */
  marginMs: number;
}

export interface ShopTokensDeps {
  repo: ShopAuthRepository;
  box: SecretBox;
  auth: StorefrontAuthorization;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => number;
}

export class ShopTokens {
  private readonly cache = new Map<number, Cached>();
  private readonly inFlight = new Map<number, Promise<string>>();
  private readonly now: () => number;

  constructor(private readonly deps: ShopTokensDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The storefront side of an integration, its token opened (and a token source when it expires); null if unknown. */
  async forIntegration(integrationId: number): Promise<StorefrontShop | null> {
    const row = await this.deps.repo.findByIntegration(integrationId);
    return row ? this.shopOf(row) : null;
  }

  /** A shop as the storefront calls take it. */
  shopOf(row: ShopAuthRow): StorefrontShop {
    const accessToken = row.accessTokenEncrypted ? this.deps.box.open(row.accessTokenEncrypted) : '';
    const shop: StorefrontShop = { domain: row.domain, apiBaseUrl: row.apiBaseUrl, accessToken };
    if (row.authStatus === 'reauthorization_required') return { ...shop, tokens: this.refusedSource(row) };
    if (row.authMethod === 'access_token' || row.accessTokenExpiresAt === null) return shop;
    this.remember(row.id, accessToken, row.accessTokenExpiresAt, row.tokenRenewedAt ?? row.createdAt);
    return { ...shop, tokens: this.sourceOf(row.id) };
  }

  /** The seal of a grant as the repository stores it. */
  seal(grant: AccessGrant): SealedGrant {
    return {
      accessTokenEncrypted: this.deps.box.seal(grant.accessToken),
      accessTokenExpiresAt: grant.expiresAt,
      refreshTokenEncrypted: grant.refreshToken === null ? null : this.deps.box.seal(grant.refreshToken),
      refreshTokenExpiresAt: grant.refreshTokenExpiresAt,
      grantedScopes: grant.scopes.length > 0 ? grant.scopes : null,
    };
  }

  private sourceOf(shopId: number): ShopTokenSource {
    return {
      current: async () => {
        const cached = this.cache.get(shopId);
        if (cached && cached.expiresAt - this.now() > cached.marginMs) return cached.token;
        return this.renew(shopId, cached?.token ?? null);
      },
      renewAfterRefusal: (stale) => this.renew(shopId, stale),
    };
  }

  private refusedSource(row: ShopAuthRow): ShopTokenSource {
    const refused = () => Promise.reject(reauthorizationRequired(row.domain, row.authError));
    return { current: refused, renewAfterRefusal: refused };
  }

  private remember(shopId: number, token: string, expiresAt: Date, issuedAt: Date): void {
    const known = this.cache.get(shopId);
    if (known?.token === token) return;
    const life = Math.max(0, expiresAt.getTime() - issuedAt.getTime());
    this.cache.set(shopId, { token, expiresAt: expiresAt.getTime(), marginMs: Math.min(MAX_MARGIN_MS, life / 10) });
  }

  /** One renewal per shop in this process; across processes, the lease. Resolves with a token that is not `stale`. */
  private renew(shopId: number, stale: string | null): Promise<string> {
    let pending = this.inFlight.get(shopId);
    if (!pending) {
      pending = this.renewUnderLease(shopId, stale).finally(() => this.inFlight.delete(shopId));
      this.inFlight.set(shopId, pending);
    }
    return pending;
  }

  private async renewUnderLease(shopId: number, stale: string | null): Promise<string> {
    const owner = randomUUID();
    const deadline = this.now() + RENEWAL_WAIT_MS;
    for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
      const row = await this.deps.repo.acquireRenewal(shopId, owner, RENEWAL_LEASE_MS);
      if (row) return this.renewHeld(row, owner, stale);
      // Another process is renewing: its result lands on the row.
      const seen = await this.deps.repo.find(shopId);
      if (!seen) throw new StorefrontError('unauthorized', `Shop ${shopId} was removed`);
      if (seen.authStatus === 'reauthorization_required') throw reauthorizationRequired(seen.domain, seen.authError);
      const usable = this.usableToken(seen, stale);
      if (usable) return usable;
      if (this.now() + delay > deadline) throw new StorefrontError('unavailable', `${seen.domain}: another process's token renewal did not finish in time`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** The row's token when another renewal already replaced `stale` with one that is still fresh. */
  private usableToken(row: ShopAuthRow, stale: string | null): string | null {
    if (!row.accessTokenEncrypted || row.accessTokenExpiresAt === null) return null;
    const token = this.deps.box.open(row.accessTokenEncrypted);
    if (token === stale) return null;
    this.remember(row.id, token, row.accessTokenExpiresAt, row.tokenRenewedAt ?? row.createdAt);
    const cached = this.cache.get(row.id)!;
    return cached.expiresAt - this.now() > cached.marginMs ? token : null;
  }

  private async renewHeld(row: ShopAuthRow, owner: string, stale: string | null): Promise<string> {
    const { repo, auth, box } = this.deps;
    try {
      if (row.authStatus === 'reauthorization_required') throw reauthorizationRequired(row.domain, row.authError);
      const usable = this.usableToken(row, stale);
      if (usable) {
        await repo.releaseRenewal(row.id, owner);
        return usable;
      }
      if (row.clientId === null || row.clientSecretEncrypted === null) {
        throw await this.refuse(row, 'the shop has no app credentials to renew its token with');
      }
      const app = { clientId: row.clientId, clientSecret: box.open(row.clientSecretEncrypted) };
      const address = { domain: row.domain, apiBaseUrl: row.apiBaseUrl };
      let grant: AccessGrant;
      try {
        if (row.authMethod === 'client_credentials') grant = await auth.clientCredentials(address, app);
        else if (row.refreshTokenEncrypted !== null) grant = await auth.refresh(address, app, box.open(row.refreshTokenEncrypted));
        else throw new StorefrontAuthError('refused', 'the token expired and there is no refresh token');
      } catch (err) {
        if (err instanceof StorefrontAuthError && err.kind === 'refused') throw await this.refuse(row, err.message);
        if (err instanceof StorefrontAuthError) throw new StorefrontError('unavailable', err.message);
        throw err;
      }
      // A client credentials token keeps no refresh token; an expiring offline token's refresh token rotates.
      if (!(await repo.saveRenewal(row.id, owner, this.seal(grant)))) {
        throw new StorefrontError('unavailable', `${row.domain}: the token renewal's lease ran out before its result was stored`);
      }
      if (grant.expiresAt) this.remember(row.id, grant.accessToken, grant.expiresAt, new Date(this.now()));
      this.deps.log?.info({ shop: row.domain, expiresAt: grant.expiresAt?.toISOString() ?? null }, 'shop access token renewed');
      return grant.accessToken;
    } catch (err) {
      await repo.releaseRenewal(row.id, owner).catch(() => undefined);
      throw err;
    }
  }

  private async refuse(row: ShopAuthRow, reason: string): Promise<StorefrontError> {
    await this.deps.repo.markReauthorizationRequired(row.id, reason);
    this.cache.delete(row.id);
    this.deps.log?.warn({ shop: row.domain, reason }, 'shop access token could not be renewed: reauthorization required');
    return reauthorizationRequired(row.domain, reason);
  }
}

/** The error every call of a shop gets once its token cannot be renewed. */
export function reauthorizationRequired(domain: string, reason: string | null): StorefrontError {
  return new StorefrontError(
    'unauthorized',
    `${domain} needs reauthorization: ${reason ?? 'its access token could not be renewed'}. Install the app on the store again, or connect it with new app credentials`,
  );
}
