// What the connector needs from a storefront, whatever the platform. The Shopify adapter (storefront/shopify/) is the
// production end; the built-in sandbox answers the same Admin GraphQL API, so the adapter serves both.
export interface StorefrontShop {
  domain: string;
  /** Overrides `https://{domain}` (the sandbox, test servers). */
  apiBaseUrl: string | null;
  /** The Admin API access token, decrypted. */
  accessToken: string;
}

export interface ShopHealth {
  /** Shopify's GID, e.g. `gid://shopify/Shop/1`. */
  id: string;
  name: string;
  myshopifyDomain: string;
  /** The plan's public display name, e.g. `Basic`. */
  plan: string;
}

/** A storefront call failed; `kind` says why, so callers can tell a revoked token from an outage. */
export class StorefrontError extends Error {
  constructor(
    readonly kind: 'unauthorized' | 'forbidden' | 'unavailable' | 'throttled' | 'invalid_response',
    message: string,
  ) {
    super(message);
    this.name = 'StorefrontError';
  }
}

export interface StorefrontPort {
  /** The shop's identity and plan; throws StorefrontError when the shop cannot be reached or refuses the token. */
  shopHealth(shop: StorefrontShop, options?: { timeoutMs?: number }): Promise<ShopHealth>;
}
