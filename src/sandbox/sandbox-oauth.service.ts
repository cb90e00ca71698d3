// The sandbox as Shopify's OAuth server for each store's own app (docs/sandbox/oauth.md has every rule and its page):
// the authorization code grant (consent page, callback with code and hmac, code exchange for an expiring or a
// non-expiring offline token), the client credentials grant, the refresh of expiring offline tokens with rotation, and
// the check of a token on every authenticated call. Sources:
// - AUTH_CODE https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant
// - CLIENT_CREDENTIALS https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/client-credentials-grant
// - OFFLINE https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/offline-access-tokens
// - EXPIRY https://shopify.dev/changelog/offline-access-tokens-now-support-expiry-and-refresh
// - GRACE https://shopify.dev/changelog/more-resilient-refreshes-for-expiring-offline-access-tokens
// - SCOPES https://shopify.dev/docs/api/usage/access-scopes
// - RFC 6749 (OAuth 2.0), where Shopify's pages say nothing: https://datatracker.ietf.org/doc/html/rfc6749
import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual, sha256Hex } from '../lib/crypto.js';
import { everyScope, impliedScopes, withoutRevoked } from './access-scopes.js';
import type { OauthTokenKind, OauthTokenRow, SandboxOauthRepository } from './sandbox-oauth.repository.js';
import type { SandboxStore } from './sandbox-store.repository.js';

/** What a token may do: its scopes (revoked ones taken off) and the set they cover; `covered` null: every field. */
export interface TokenAccess {
  kind: 'legacy' | OauthTokenKind;
  /** The granted handles (currentAppInstallation.accessScopes), computed when asked. */
  scopes(): string[];
  /** impliedScopes of the grant (write implies read); null: unrestricted (the legacy token with nothing revoked). */
  covered: ReadonlySet<string> | null;
}

/** EXPIRY: "expires_in time to live (TTL) of the access token in seconds (3600 seconds)". */
export const EXPIRING_TOKEN_SECONDS = 3600;
/** CLIENT_CREDENTIALS: tokens last about a day; the answer's `expires_in` is 86399. */
export const CLIENT_CREDENTIALS_SECONDS = 86399;
/** Refresh tokens: 90 days (Shopify's `refresh_token_expires_in` is 7776000). */
export const REFRESH_TOKEN_SECONDS = 7_776_000;
/** RFC 6749 §4.1.2: "A maximum authorization code lifetime of 10 minutes is RECOMMENDED"; the sandbox keeps one 60 s. */
export const CODE_SECONDS = 60;
/** How long a consent page's Install and Cancel stay good. */
export const CONSENT_SECONDS = 600;

/** The consent page's cookie: binds its nonce to the browser that asked for the page. */
export const CONSENT_COOKIE = 'sandbox_oauth_consent';

export interface SandboxOauthOptions {
  /** This server's origin (PUBLIC_URL): the default redirect URL is `{ownOrigin}/shopify/callback`. */
  ownOrigin?: string;
  /** The clock tokens, codes and consents expire by (tests move it). */
  now?: () => number;
}

export type TokenAnswer = { status: number; body: Record<string, unknown> };

/** OAuth error bodies as Shopify's token endpoint answers them: `{error, error_description}`. */
function oauthError(status: number, error: string, description: string): TokenAnswer {
  return { status, body: { error, error_description: description } };
}

/**
 * RFC 6749 §5.2 `invalid_client` (Shopify's pages do not show its answer to a wrong client id or secret): 401, the
 * description of Doorkeeper, the OAuth server of Rails apps.
 */
const INVALID_CLIENT = oauthError(
  401,
  'invalid_client',
  'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
);
/** Shopify's answer to a code unknown, used or expired (seen from Shopify and confirmed by its staff; docs/sandbox/oauth.md). */
const CODE_NOT_FOUND = oauthError(400, 'invalid_request', 'The authorization code was not found or was already used');
/** RFC 6749 §5.2 `invalid_grant`: the refresh token is unknown, expired, revoked or was replaced. */
const INVALID_REFRESH = oauthError(400, 'invalid_grant', 'The refresh token is invalid, expired, revoked or was replaced');

const hex32 = () => randomBytes(16).toString('hex');

/** A query string in the order given (URLSearchParams, as @shopify/shopify-api serializes the message it signs). */
function query(entries: [string, string][]): string {
  return new URLSearchParams(entries).toString();
}

export type AuthorizeOutcome = { kind: 'consent'; appName: string; scopes: string[]; nonce: string; binding: string } | { kind: 'error'; message: string };

export type DecisionOutcome = { kind: 'redirect'; location: string } | { kind: 'error'; message: string };

export class SandboxOauthService {
  private readonly now: () => number;
  private readonly ownOrigin: string | null;
  private lastPrune = 0;

  constructor(
    private readonly repo: SandboxOauthRepository,
    options: SandboxOauthOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.ownOrigin = options.ownOrigin ? new URL(options.ownOrigin).origin : null;
  }

  /** The app's allowed redirection URLs: its setting, else `{PUBLIC_URL}/shopify/callback`. */
  redirectUrls(store: SandboxStore): string[] {
    return store.redirectUrls ?? (this.ownOrigin ? [`${this.ownOrigin}/shopify/callback`] : []);
  }

  /** The app's configured scopes (default: every scope the schema names), the revoked ones taken off. */
  appScopes(store: SandboxStore): string[] {
    return withoutRevoked(store.appScopes ?? everyScope(), store.revokedScopes);
  }

  /**
   * The check of a call's X-Shopify-Access-Token: the store's legacy token (every scope), or an OAuth or client
   * credentials token of the store that is neither expired nor revoked. One indexed lookup for an OAuth token; its
   * first use is noted once (GRACE: the refresh token it replaced stops working then).
   */
  async authenticate(store: SandboxStore, token: string | undefined): Promise<TokenAccess | null> {
    if (typeof token !== 'string' || token === '') return null;
    const hash = sha256Hex(token);
    if (safeEqual(hash, store.accessTokenHash)) return legacyAccess(store);
    if (!token.startsWith('shpat_')) return null;
    const row = await this.repo.byAccessHash(hash);
    if (!row || row.storeId !== store.id || row.revokedAt) return null;
    const now = this.now();
    if (row.expiresAt && row.expiresAt.getTime() <= now) return null;
    if (!row.firstUsedAt) await this.repo.markFirstUse(row.id, new Date(now));
    const scopes = withoutRevoked(row.scopes, store.revokedScopes);
    return { kind: row.kind as OauthTokenKind, scopes: () => scopes, covered: impliedScopes(scopes) };
  }

  /** The app was uninstalled: every OAuth and client credentials token of the store stops working (the legacy one stays). */
  revokeApp(store: SandboxStore): Promise<number> {
    return this.repo.revokeAll(store.id, new Date(this.now()));
  }

  /**
   * GET /admin/oauth/authorize (AUTH_CODE, "Ask for permission"): `client_id` must be the store's app, `redirect_uri` one
   * of its allowed URLs ("The redirect_uri is not whitelisted" otherwise), `scope` a comma-separated list of scopes.
   * The answer is the consent page's content: a one-time nonce, bound to the browser by a cookie of its own.
   */
  async authorize(store: SandboxStore, params: Record<string, unknown>): Promise<AuthorizeOutcome> {
    const clientId = typeof params.client_id === 'string' ? params.client_id : '';
    if (!clientId || !safeEqual(clientId, store.clientId)) {
      return { kind: 'error', message: `Could not find Shopify API application with api_key ${clientId}` };
    }
    const redirectUri = typeof params.redirect_uri === 'string' ? params.redirect_uri : '';
    if (!this.redirectAllowed(store, redirectUri)) return { kind: 'error', message: 'The redirect_uri is not whitelisted' };
    const requested = parseScopeList(params.scope);
    const known = new Set(everyScope());
    const unknown = requested.filter((s) => !known.has(s));
    if (unknown.length) return { kind: 'error', message: `Invalid scope: ${unknown.join(', ')}` };
    const state = typeof params.state === 'string' ? params.state : null;
    const nonce = hex32();
    const binding = randomBytes(24).toString('base64url');
    const now = this.now();
    await this.prune(now);
    await this.repo.insertGrant({
      hash: sha256Hex(nonce),
      storeId: store.id,
      kind: 'consent',
      bindingHash: sha256Hex(binding),
      // AUTH_CODE: the grant is exactly the requested scopes (the revoked ones are taken off when the code is made).
      scopes: requested,
      redirectUri,
      state,
      expiresAt: new Date(now + CONSENT_SECONDS * 1000),
    });
    return { kind: 'consent', appName: store.appName, scopes: requested, nonce, binding };
  }

  /**
   * POST /admin/oauth/authorize: the merchant's Install or Cancel, with the page's nonce and the cookie it set (both
   * once). Install redirects to `redirect_uri?code&hmac&host&shop&state&timestamp` (AUTH_CODE, "Step 3: Confirm
   * installation"): `hmac` is the hex HMAC-SHA256, with the client secret, of the other parameters sorted by name and
   * joined as a query string; `host` the base64url (no padding) of `admin.shopify.com/store/{shop name}`; `timestamp`
   * in seconds. Cancel redirects with `error=access_denied` and the state (RFC 6749 §4.1.2.1: Shopify's pages do not
   * say what a declined install does).
   */
  async decide(store: SandboxStore, form: Record<string, unknown>, cookie: string | undefined): Promise<DecisionOutcome> {
    const nonce = typeof form.nonce === 'string' ? form.nonce : '';
    const now = this.now();
    if (!nonce || !cookie) return { kind: 'error', message: 'The consent is missing or has expired: open the install link again' };
    const consent = await this.repo.takeGrant(store.id, 'consent', sha256Hex(nonce), new Date(now));
    if (!consent || consent.expiresAt.getTime() <= now || !consent.bindingHash || !safeEqual(sha256Hex(cookie), consent.bindingHash)) {
      return { kind: 'error', message: 'The consent is missing or has expired: open the install link again' };
    }
    const target = new URL(consent.redirectUri);
    if (form.decision !== 'install') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The merchant declined the installation');
      if (consent.state !== null) target.searchParams.set('state', consent.state);
      return { kind: 'redirect', location: target.toString() };
    }
    const code = hex32();
    await this.repo.insertGrant({
      hash: sha256Hex(code),
      storeId: store.id,
      kind: 'code',
      scopes: withoutRevoked(consent.scopes, store.revokedScopes),
      redirectUri: consent.redirectUri,
      state: consent.state,
      expiresAt: new Date(now + CODE_SECONDS * 1000),
    });
    const shopName = store.domain.replace(/\.myshopify\.com$/, '');
    const params = new Map<string, string>(target.searchParams);
    params.set('code', code);
    params.set('host', Buffer.from(`admin.shopify.com/store/${shopName}`).toString('base64url'));
    params.set('shop', store.domain);
    if (consent.state !== null) params.set('state', consent.state);
    params.set('timestamp', String(Math.floor(now / 1000)));
    params.delete('hmac');
    const sorted = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const hmac = createHmac('sha256', store.clientSecret).update(query(sorted)).digest('hex');
    const signed: [string, string][] = [...sorted, ['hmac', hmac]];
    signed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    target.search = query(signed);
    return { kind: 'redirect', location: target.toString() };
  }

  /**
   * POST /admin/oauth/access_token, JSON or form body: the authorization code (AUTH_CODE "Step 4: Get an access
   * token"; with `expiring=1` an expiring offline token, OFFLINE), `grant_type=client_credentials`
   * (CLIENT_CREDENTIALS) or `grant_type=refresh_token` (OFFLINE, "Refresh an expiring offline token").
   */
  async token(store: SandboxStore, body: Record<string, unknown>): Promise<TokenAnswer> {
    const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : typeof body[k] === 'number' ? String(body[k]) : '');
    const clientId = str('client_id');
    const clientSecret = str('client_secret');
    if (!clientId || !clientSecret) return oauthError(400, 'invalid_request', 'Missing parameter: client_id and client_secret are required');
    if (!safeEqual(clientId, store.clientId) || !safeEqual(clientSecret, store.clientSecret)) return INVALID_CLIENT;
    const grantType = str('grant_type') || (str('code') ? 'authorization_code' : '');
    const now = this.now();
    switch (grantType) {
      case 'authorization_code':
        return this.exchangeCode(store, str('code'), ['1', 'true'].includes(str('expiring')), now);
      case 'client_credentials': {
        // CLIENT_CREDENTIALS: the app's configured scopes; "expires_in" (86399 s; the store's token lifetime when set).
        const scopes = this.appScopes(store);
        const seconds = store.tokenLifetimeSeconds ?? CLIENT_CREDENTIALS_SECONDS;
        const accessToken = await this.issue(store, 'client_credentials', scopes, now, seconds);
        return { status: 200, body: { access_token: accessToken.accessToken, scope: scopes.join(','), expires_in: seconds } };
      }
      case 'refresh_token':
        return this.refresh(store, str('refresh_token'), now);
      case '':
        return oauthError(400, 'invalid_request', 'Missing parameter: code or grant_type');
      default:
        return oauthError(400, 'unsupported_grant_type', `The authorization grant type ${grantType} is not supported`);
    }
  }

  private async exchangeCode(store: SandboxStore, code: string, expiring: boolean, now: number): Promise<TokenAnswer> {
    if (!code) return oauthError(400, 'invalid_request', 'Missing parameter: code');
    // AUTH_CODE: a code is good once; RFC 6749 §4.1.2: short-lived (CODE_SECONDS).
    const grant = await this.repo.takeGrant(store.id, 'code', sha256Hex(code), new Date(now));
    if (!grant || grant.expiresAt.getTime() <= now) return CODE_NOT_FOUND;
    const scopes = withoutRevoked(grant.scopes, store.revokedScopes);
    if (!expiring) {
      // OFFLINE: without `expiring`, a non-expiring offline token: {access_token, scope}.
      const issued = await this.issue(store, 'offline', scopes, now, null);
      return { status: 200, body: { access_token: issued.accessToken, scope: scopes.join(',') } };
    }
    return this.expiringAnswer(store, scopes, now, null, null);
  }

  /**
   * OFFLINE / EXPIRY: a new access token and a new refresh token for a refresh token; GRACE: the one used stays good
   * until the new access token is first used (asked again meanwhile, it gives another pair and the unused one is
   * dropped); after that it is `invalid_grant`. The new pair keeps the grant's scopes.
   */
  private async refresh(store: SandboxStore, refreshToken: string, now: number): Promise<TokenAnswer> {
    if (!refreshToken) return oauthError(400, 'invalid_request', 'Missing parameter: refresh_token');
    const hash = sha256Hex(refreshToken);
    return this.repo.transaction(async (repo) => {
      const found = await repo.byRefreshHash(store.id, hash);
      if (!found) return INVALID_REFRESH;
      const { row, previous } = found;
      const expiry = previous ? row.previousRefreshExpiresAt : row.refreshExpiresAt;
      if (!expiry || expiry.getTime() <= now) return INVALID_REFRESH;
      if (previous) await repo.revoke(row.id, new Date(now));
      else await repo.dropRefresh(row.id);
      return this.expiringAnswer(store, withoutRevoked(row.scopes, store.revokedScopes), now, hash, expiry, repo);
    });
  }

  private async expiringAnswer(
    store: SandboxStore,
    scopes: string[],
    now: number,
    previousRefreshHash: string | null,
    previousRefreshExpiresAt: Date | null,
    repo: SandboxOauthRepository = this.repo,
  ): Promise<TokenAnswer> {
    const seconds = store.tokenLifetimeSeconds ?? EXPIRING_TOKEN_SECONDS;
    const refreshSeconds = store.refreshTokenLifetimeSeconds ?? REFRESH_TOKEN_SECONDS;
    const issued = await this.issue(store, 'expiring', scopes, now, seconds, { refreshSeconds, previousRefreshHash, previousRefreshExpiresAt }, repo);
    return {
      status: 200,
      body: {
        access_token: issued.accessToken,
        scope: scopes.join(','),
        expires_in: seconds,
        refresh_token: issued.refreshToken,
        refresh_token_expires_in: refreshSeconds,
      },
    };
  }

  /** Makes a token: `shpat_` + 32 hex (as Shopify's), a refresh token `shprt_` + 32 hex for an expiring one; stored hashed. */
  private async issue(
    store: SandboxStore,
    kind: OauthTokenKind,
    scopes: string[],
    now: number,
    seconds: number | null,
    refresh?: { refreshSeconds: number; previousRefreshHash: string | null; previousRefreshExpiresAt: Date | null },
    repo: SandboxOauthRepository = this.repo,
  ): Promise<{ accessToken: string; refreshToken: string | null; row: OauthTokenRow }> {
    const accessToken = `shpat_${hex32()}`;
    const refreshToken = refresh ? `shprt_${hex32()}` : null;
    const row = await repo.insertToken({
      storeId: store.id,
      kind,
      accessTokenHash: sha256Hex(accessToken),
      scopes,
      expiresAt: seconds === null ? null : new Date(now + seconds * 1000),
      refreshTokenHash: refreshToken ? sha256Hex(refreshToken) : null,
      refreshExpiresAt: refresh ? new Date(now + refresh.refreshSeconds * 1000) : null,
      previousRefreshHash: refresh?.previousRefreshHash ?? null,
      previousRefreshExpiresAt: refresh?.previousRefreshExpiresAt ?? null,
    });
    return { accessToken, refreshToken, row };
  }

  /** The redirect URI must be one of the app's URLs: the same origin and path (its query may differ). */
  private redirectAllowed(store: SandboxStore, redirectUri: string): boolean {
    let url: URL;
    try {
      url = new URL(redirectUri);
    } catch {
      return false;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    return this.redirectUrls(store).some((allowed) => {
      try {
        const a = new URL(allowed);
        return a.origin === url.origin && a.pathname === url.pathname;
      } catch {
        return false;
      }
    });
  }

  /** Consents and codes an hour past their expiry are deleted, at most once a minute. */
  private async prune(now: number): Promise<void> {
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    await this.repo.pruneGrants(new Date(now - 3_600_000));
  }
}

/** The legacy `shpat_` token: every scope (the revoked ones aside). */
function legacyAccess(store: SandboxStore): TokenAccess {
  if (store.revokedScopes.length === 0) return { kind: 'legacy', scopes: () => everyScope(), covered: null };
  const scopes = withoutRevoked(everyScope(), store.revokedScopes);
  return { kind: 'legacy', scopes: () => scopes, covered: impliedScopes(scopes) };
}

/** `scope=read_products,write_products` (commas, spaces tolerated), each once, in order. */
export function parseScopeList(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return [
    ...new Set(
      value
        .split(/[,\s]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}
