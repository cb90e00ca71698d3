// How a storefront call fails: an outage or a refused token (StorefrontError), the platform's rules (validation), or
// "not now" (deferred). Each kind is a type of its own, so the connector tells them apart without reading messages.

/** A storefront call failed; `kind` says why, so callers can tell a revoked token from an outage. */
export class StorefrontError extends Error {
  constructor(
    readonly kind: 'unauthorized' | 'forbidden' | 'unavailable' | 'throttled' | 'invalid_response',
    message: string,
  ) {
    super(message);
    this.name = 'StorefrontError';
  }

  /** The shop refused our token (revoked, uninstalled, or without a scope the call needs): retrying will not mend it. */
  get tokenRefused(): boolean {
    return this.kind === 'unauthorized' || this.kind === 'forbidden';
  }
}

/** Whether `err` is the shop refusing our token (StorefrontError.tokenRefused). */
export const tokenRefused = (err: unknown): err is StorefrontError => err instanceof StorefrontError && err.tokenRefused;

/** The storefront (or our pre-flight of its rules) refused the product: one readable line per problem. */
export class StorefrontValidationError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
    this.name = 'StorefrontValidationError';
  }
}

/**
 * The storefront will take the product later, not now (Shopify: VARIANT_THROTTLE_EXCEEDED, a store past 50,000 variants
 * creating more than 1,000 a day): the product fails for now and is tried again after `retryAfterSeconds`.
 */
export class StorefrontDeferredError extends Error {
  constructor(
    readonly errors: string[],
    readonly retryAfterSeconds: number,
  ) {
    super(errors.join('; '));
    this.name = 'StorefrontDeferredError';
  }
}
