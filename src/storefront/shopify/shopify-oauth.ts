// Shopify's OAuth endpoints as the bridge uses them: the authorize URL of an install, the callback's HMAC check, and
// the three ways to an access token at `{shop}/admin/oauth/access_token`.
//
// Written here rather than through @shopify/shopify-api (docs/connect-a-store.md, "Why not @shopify/shopify-api"): its
// calls are hard-wired to `https://{shop}` (the sandbox and test servers live at a per-shop api_base_url), one instance
// holds one app's secret (every sandbox store has its own app), its state cookie is `Secure` (a console on
// http://127.0.0.1 would lose it), and its releases with expiring-token refresh from 14 on need Node 22. What it does
// is small and follows these pages, which are cited beside each rule:
// - authorization code grant: https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant
// - client credentials grant: https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/client-credentials-grant
// - expiring offline tokens: https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/offline-access-tokens
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/crypto.js';
import { StorefrontAuthError, type AccessGrant, type StorefrontApp, type StorefrontAuthorization } from '../port/authorization.js';
import type { StorefrontShop } from '../port/shop.js';
import { missingScopes, SHOPIFY_SCOPES } from './scopes.js';

/** `{apiBaseUrl}` for a sandbox or test shop, else `https://{domain}`: where the shop's admin answers. */
export function adminOrigin(shop: Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>): string {
  return (shop.apiBaseUrl ?? `https://${shop.domain}`).replace(/\/+$/, '');
}

/**
 * The URL an install sends the merchant to: "https://{shop}.myshopify.com/admin/oauth/authorize?client_id=…&scope=…
 * &redirect_uri=…&state=…" (authorization code grant, step 2). No `grant_options[]=per-user`: the bridge works offline,
 * in the background, so it asks for an offline token.
 */
export function authorizeUrl(
  shop: Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>,
  app: Pick<StorefrontApp, 'clientId'>,
  request: { scopes: readonly string[]; redirectUri: string; state: string },
): string {
  const query = new URLSearchParams({ client_id: app.clientId, scope: request.scopes.join(','), redirect_uri: request.redirectUri, state: request.state });
  return `${adminOrigin(shop)}/admin/oauth/authorize?${query.toString()}`;
}

/**
 * The callback's HMAC (authorization code grant, "Verify the installation request"): every query parameter but `hmac`
 * (and the legacy `signature`), sorted by name and joined as a query string, signed with HMAC-SHA256 and the client
 * secret, hex; compared in constant time. Serialized as @shopify/shopify-api does (URLSearchParams), so that both agree.
 */
export function callbackHmacValid(query: Record<string, string>, clientSecret: string): boolean {
  const { hmac, signature: _signature, ...rest } = query;
  if (typeof hmac !== 'string' || !/^[0-9a-f]{64}$/i.test(hmac)) return false;
  const message = new URLSearchParams(
    Object.keys(rest)
      .sort((a, b) => a.localeCompare(b))
      .map((k) => [k, rest[k]] as [string, string]),
  ).toString();
  const expected = createHmac('sha256', clientSecret).update(message).digest('hex');
  return safeEqual(expected, hmac.toLowerCase());
}

/** Seconds of clock drift a session token's `exp` and `nbf` are given (@shopify/shopify-api allows 10). */
const SESSION_TOKEN_LEEWAY_S = 10;

/**
 * A session token of an embedded app (https://shopify.dev/docs/apps/build/authentication-authorization/session-tokens):
 * a JWT signed HS256 with the app's client secret, whose `dest` is the shop (`https://{shop}`), `iss` its admin
 * (`https://{shop}/admin`), `aud` the app's client id, valid between `nbf` and `exp`. Anyone holding one can act in the
 * shop's admin: proof of control of the shop.
 */
export function sessionTokenValid(token: string, app: StorefrontApp, domain: string, nowSeconds: number): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [header, payload, signature] = parts;
  let h: { alg?: unknown };
  let p: { iss?: unknown; dest?: unknown; aud?: unknown; exp?: unknown; nbf?: unknown };
  try {
    h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  if (h?.alg !== 'HS256') return false;
  if (!safeEqual(createHmac('sha256', app.clientSecret).update(`${header}.${payload}`).digest('base64url'), signature)) return false;
  if (typeof p.exp !== 'number' || p.exp + SESSION_TOKEN_LEEWAY_S < nowSeconds) return false;
  if (typeof p.nbf === 'number' && p.nbf - SESSION_TOKEN_LEEWAY_S > nowSeconds) return false;
  return p.aud === app.clientId && p.dest === `https://${domain}` && p.iss === `https://${domain}/admin`;
}

/**
 * A shop's myshopify host name as Shopify sends it (`{name}.myshopify.com`: letters, digits and hyphens), which the
 * callback must check before trusting the rest ("Verify that the shop parameter is a valid shop hostname").
 */
export const MYSHOPIFY_HOST = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export interface ShopifyOAuthOptions {
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  now?: () => Date;
}

/** The token endpoint's three grants, the install's URL and callback check, session tokens, and the scopes needed. */
export class ShopifyOAuth implements StorefrontAuthorization {
  readonly scopes = SHOPIFY_SCOPES;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(options: ShopifyOAuthOptions = {}) {
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.now = options.now ?? (() => new Date());
  }

  isShopHost(domain: string): boolean {
    return MYSHOPIFY_HOST.test(domain);
  }

  authorizeUrl(
    shop: Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>,
    app: Pick<StorefrontApp, 'clientId'>,
    request: { redirectUri: string; state: string },
  ): string {
    return authorizeUrl(shop, app, { ...request, scopes: this.scopes });
  }

  callbackSigned(query: Record<string, string>, app: StorefrontApp): boolean {
    return callbackHmacValid(query, app.clientSecret);
  }

  sessionTokenValid(token: string, app: StorefrontApp, domain: string): boolean {
    return sessionTokenValid(token, app, domain, this.now().getTime() / 1000);
  }

  missingScopes(granted: readonly string[]): string[] {
    return missingScopes(granted, this.scopes);
  }

  /**
   * The install's code for an expiring offline token: `expiring=1` makes it expire (`expires_in`, 3600 s) with a refresh
   * token (offline access tokens, "Expiring offline tokens"), as public apps must from 2027-01-01.
   */
  exchangeCode(shop: Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>, app: StorefrontApp, code: string): Promise<AccessGrant> {
    return this.token(shop, { client_id: app.clientId, client_secret: app.clientSecret, code, expiring: '1' });
  }

  /** Client credentials grant: the app's own id and secret for a token of `expires_in` seconds (about 24 h). */
  clientCredentials(shop: Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>, app: StorefrontApp): Promise<AccessGrant> {
    return this.token(shop, { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.clientSecret });
  }

  /** Refresh: a new access token and a new refresh token, which replaces the old ("Refresh an expiring offline token"). */
  refresh(shop: Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>, app: StorefrontApp, refreshToken: string): Promise<AccessGrant> {
    return this.token(shop, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.clientSecret, refresh_token: refreshToken });
  }

  private async token(shop: Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>, body: Record<string, string>): Promise<AccessGrant> {
    const url = `${adminOrigin(shop)}/admin/oauth/access_token`;
    const asked = this.now().getTime();
    let response: Response;
    let answer: Record<string, unknown>;
    try {
      // The pages show a form body (client credentials) and JSON (code, refresh); Shopify takes both. Form for all.
      response = await this.fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(body).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    } catch (err) {
      throw new StorefrontAuthError('unavailable', `${shop.domain}'s token endpoint could not be reached: ${(err as Error).message}`);
    }
    if (!response.ok) {
      const what = [answer.error, answer.error_description].filter((v) => typeof v === 'string').join(': ') || `HTTP ${response.status}`;
      // 4xx but 429: the shop said no to these credentials; 429 and 5xx: ask again later.
      const kind = response.status >= 400 && response.status < 500 && response.status !== 429 ? 'refused' : 'unavailable';
      throw new StorefrontAuthError(kind, `${shop.domain} refused the token request (${what})`);
    }
    if (typeof answer.access_token !== 'string' || answer.access_token === '') {
      throw new StorefrontAuthError('unavailable', `${shop.domain}'s token endpoint answered without an access_token`);
    }
    const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? new Date(asked + v * 1000) : null);
    return {
      accessToken: answer.access_token,
      scopes:
        typeof answer.scope === 'string'
          ? answer.scope
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [],
      expiresAt: seconds(answer.expires_in),
      refreshToken: typeof answer.refresh_token === 'string' && answer.refresh_token !== '' ? answer.refresh_token : null,
      refreshTokenExpiresAt: seconds(answer.refresh_token_expires_in),
    };
  }
}
