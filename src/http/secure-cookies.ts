// Whether a cookie set on a request gets `Secure` (the console's session cookie, the Shopify install's nonce): when the
// request came over HTTPS (its protocol, through the trusted proxy), or the server's public URL is https.
import type { FastifyRequest } from 'fastify';

/** `secure(req)` for a server whose public URL is `publicUrl`. */
export function secureCookies(publicUrl: string): (req: Pick<FastifyRequest, 'protocol'>) => boolean {
  return (req) => req.protocol === 'https' || publicUrl.startsWith('https:');
}
