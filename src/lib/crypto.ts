// Credentials: random, high-entropy, stored only as SHA-256 hashes and compared in constant time.
// A slow KDF buys nothing for 256-bit random secrets; SHA-256 keeps the per-request check cheap.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random credential of 256 bits, with a readable prefix (`pk_`, `sk_`, …). */
export function randomCredential(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time equality of two strings, whatever their lengths (hashing first equalises them). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

/** Base64 HMAC-SHA256 of `body` with `secret` (Shopify's webhook signature, X-Shopify-Hmac-Sha256). */
export function hmacSha256Base64(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** Whether `signature` is the base64 HMAC-SHA256 of `body` with `secret`, compared in constant time; false when missing. */
export function hmacSha256Matches(secret: string, body: Uint8Array | string, signature: string | undefined): boolean {
  if (typeof signature !== 'string' || signature === '') return false;
  return safeEqual(hmacSha256Base64(secret, body), signature);
}
