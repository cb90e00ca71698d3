// The shop a storefront call goes to, and how it is reached: its address, its token (static or expiring), its health.

export interface StorefrontShop {
  domain: string;
  /** Overrides `https://{domain}` (the sandbox, test servers). */
  apiBaseUrl: string | null;
  /** The Admin API access token, decrypted (the one to send when `tokens` is absent: a token that does not expire). */
  accessToken: string;
  /** An expiring token's source (client credentials, expiring offline tokens): absent for a static token. */
  tokens?: ShopTokenSource;
}

/** Where an expiring access token comes from (connector/shop-auth): the current one, and a renewal after a refusal. */
export interface ShopTokenSource {
  /** The token to send now: the cached one while it is fresh (no I/O), renewed first when it is about to expire. */
  current(): Promise<string>;
  /** The shop refused `stale` (HTTP 401): a renewed token, or a StorefrontError `unauthorized` when none can be had. */
  renewAfterRefusal(stale: string): Promise<string>;
}

export interface ShopHealth {
  /** Shopify's GID, e.g. `gid://shopify/Shop/1`. */
  id: string;
  name: string;
  myshopifyDomain: string;
  /** The plan's public display name, e.g. `Basic`. */
  plan: string;
  /** The shop's currency (ISO 4217), in which it takes prices. */
  currencyCode: string;
  /** The access scopes the app holds on the shop (currentAppInstallation.accessScopes); absent when not answered. */
  scopes?: string[];
}
