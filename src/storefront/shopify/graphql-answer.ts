// What an Admin API answer means, apart from how it was fetched (shopify-client.ts): an HTTP status or GraphQL errors
// become the StorefrontError whose kind says why, so that the throttle and the callers decide on the kind alone.
import { StorefrontDeferredError, StorefrontError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';

export interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: unknown;
  extensions?: unknown;
}

/**
 * A product refused with VARIANT_THROTTLE_EXCEEDED is tried again after this long (Shopify lets such a store create
 * 1,000 variants a day; an hour spreads the retries without a tight loop).
 */
export const VARIANT_THROTTLE_RETRY_SECONDS = 3600;

/** `https://{domain}/admin/api/…` → `{apiBaseUrl}/admin/api/…` when the shop has a base URL. */
export function rewriteUrl(url: string, shop: Pick<StorefrontShop, 'apiBaseUrl'>): string {
  if (!shop.apiBaseUrl) return url;
  const given = new URL(url);
  return shop.apiBaseUrl.replace(/\/+$/, '') + given.pathname + given.search;
}

/** Why a response is not a JSON answer to read (null: it is one). */
export function responseFailure(response: Response, domain: string): StorefrontError | null {
  const failure = statusFailure(response.status, domain);
  if (failure) return failure;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json'))
    return new StorefrontError('invalid_response', `${domain} answered HTTP ${response.status} with ${type || 'no content type'}, not JSON`);
  return null;
}

/**
 * What a call that threw before its answer was read means. The caller gave up (a job past its cap): its reason, not the
 * shop's failure, nothing to retry. `signal` is the call's own (the timeout and the caller's together).
 */
export function transportFailure(err: unknown, domain: string, timeoutMs: number, caller: AbortSignal | undefined, signal: AbortSignal): unknown {
  if (err instanceof StorefrontError) return err;
  if (caller?.aborted) return caller.reason;
  if (signal.aborted) return new StorefrontError('unavailable', `${domain} did not answer within ${timeoutMs} ms`);
  if (err instanceof SyntaxError) return new StorefrontError('invalid_response', `${domain} answered with malformed JSON`);
  return new StorefrontError('unavailable', `${domain} could not be reached: ${(err as Error).message}`);
}

function statusFailure(status: number, domain: string): StorefrontError | null {
  if (status >= 200 && status < 300) return null;
  if (status === 401) return new StorefrontError('unauthorized', `${domain} refused the access token (HTTP 401): revoked or wrong`);
  if (status === 403) return new StorefrontError('forbidden', `${domain} refused the call (HTTP 403): a scope is missing`);
  if (status === 429) return new StorefrontError('throttled', `${domain} throttled the call (HTTP 429)`);
  if (status === 423) return new StorefrontError('unavailable', `${domain} is locked (HTTP 423)`);
  if (status === 404) return new StorefrontError('unavailable', `${domain} was not found (HTTP 404)`);
  if (status >= 500) return new StorefrontError('unavailable', `${domain} is unavailable (HTTP ${status})`);
  return new StorefrontError('invalid_response', `${domain} answered HTTP ${status}`);
}

/** Why a parsed answer is not data to return (null: it is). */
export function answerFailure<T>(answer: GraphqlAnswer<T>, domain: string): StorefrontError | StorefrontDeferredError | null {
  const errors = Array.isArray(answer?.errors) ? (answer.errors as { message?: unknown; extensions?: { code?: unknown } }[]) : [];
  if (errors.some((e) => e?.extensions?.code === 'THROTTLED')) return new StorefrontError('throttled', `${domain} throttled the call (cost budget exhausted)`);
  // Variant creation past the store's daily allowance: not a failure of the call, a product to try again later.
  const variantThrottle = errors.find((e) => e?.extensions?.code === 'VARIANT_THROTTLE_EXCEEDED');
  if (variantThrottle)
    return new StorefrontDeferredError(
      [`${String(variantThrottle.message ?? 'variant creation throttled')} (VARIANT_THROTTLE_EXCEEDED)`],
      VARIANT_THROTTLE_RETRY_SECONDS,
    );
  // A field outside the token's scopes (https://shopify.dev/docs/api/usage/access-scopes): the message names the
  // scope it needs, which the merchant must grant.
  const denied = errors.filter((e) => e?.extensions?.code === 'ACCESS_DENIED');
  if (denied.length > 0) {
    return new StorefrontError(
      'forbidden',
      `${domain} has not granted the access this needs: ${denied.map((e) => String(e?.message ?? 'access denied')).join('; ')}`,
    );
  }
  if (errors.length > 0 || answer?.errors) {
    const messages = errors.map((e) => String(e?.message ?? 'error')).join('; ') || String(answer.errors);
    return new StorefrontError('invalid_response', `${domain} answered with GraphQL errors: ${messages}`);
  }
  if (!answer || typeof answer.data !== 'object' || answer.data === null) return new StorefrontError('invalid_response', `${domain} answered without data`);
  return null;
}

/** floor(2·ln(max(2, n))), n capped at 250: Shopify's connection multiplier (the public fit, see notes). */
export function connectionMultiplier(n: number): number {
  return Math.floor(2 * Math.log(Math.max(2, Math.min(n, 250))));
}
