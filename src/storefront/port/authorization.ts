// How the connector gets access to a shop: the app's credentials, the token grants, and the platform's OAuth steps.
import type { StorefrontShop } from './shop.js';

/** An app's credentials on a storefront (Shopify: the Dev Dashboard's client id and secret). */
export interface StorefrontApp {
  clientId: string;
  clientSecret: string;
}

/** What a token request gave: the access token, the scopes granted, and for an expiring token when and how to renew it. */
export interface AccessGrant {
  accessToken: string;
  scopes: string[];
  expiresAt: Date | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
}

/**
 * A token request failed. `refused`: the storefront said no (a wrong secret, a used or expired code or refresh token, an
 * uninstalled app): asking again will not help, the merchant must act. `unavailable`: it could not be asked; try later.
 */
export class StorefrontAuthError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'StorefrontAuthError';
  }
}

type ShopAddress = Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>;

/** How the connector gets access to a shop (Shopify: OAuth; storefront/shopify/shopify-oauth.ts). */
export interface StorefrontAuthorization {
  /** The access scopes the bridge needs, requested at install. */
  readonly scopes: readonly string[];
  /** Whether `domain` is a host name the platform's shops have (Shopify: `{name}.myshopify.com`). */
  isShopHost(domain: string): boolean;
  /** Where an install sends the merchant to consent. */
  authorizeUrl(shop: ShopAddress, app: Pick<StorefrontApp, 'clientId'>, request: { redirectUri: string; state: string }): string;
  /** Whether the install's callback query is signed by the app (its HMAC). */
  callbackSigned(query: Record<string, string>, app: StorefrontApp): boolean;
  /** The install's code for an expiring token. */
  exchangeCode(shop: ShopAddress, app: StorefrontApp, code: string): Promise<AccessGrant>;
  /** A token for the app's own credentials (the merchant's own store). */
  clientCredentials(shop: ShopAddress, app: StorefrontApp): Promise<AccessGrant>;
  /** A new token (and refresh token) for a refresh token. */
  refresh(shop: ShopAddress, app: StorefrontApp, refreshToken: string): Promise<AccessGrant>;
  /** Whether `token` is a session token the app's embedded page got from the shop's admin (proof of control of the shop). */
  sessionTokenValid(token: string, app: StorefrontApp, domain: string): boolean;
  /** The scopes of `scopes` that `granted` lacks. */
  missingScopes(granted: readonly string[]): string[];
}
