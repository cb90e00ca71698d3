// Credentials: random, high-entropy, stored only as SHA-256 hashes and compared in constant time.
// A slow KDF buys nothing for 256-bit random secrets; SHA-256 keeps the per-request check cheap.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

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
