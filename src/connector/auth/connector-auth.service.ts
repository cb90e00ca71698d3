// Bearer-token authentication of the connector, with the authentication rate limit (spec Authentication 4–6, DESIGN):
// every authentication attempt — successful or not — takes one point from the client IP's one-minute window
// (AUTH_RATE_LIMIT). Over the limit, or on any failure, the answer is 401 AUTHENTICATION_FAILED carrying
// X-RateLimit-Remaining and X-RateLimit-Reset (epoch seconds); a success carries neither. Public routes take a point
// from a window of their own instead (CONNECTOR_PUBLIC_RATE_LIMIT; beyond the spec, which limits authentication only):
// over it 429 RATE_LIMITED with Retry-After.
import { safeEqual, sha256Hex } from '../../lib/crypto.js';
import { retryAfterSeconds, type RateLimiter } from '../../lib/rate-limiter.js';
import { ConnectorError } from '../connector.errors.js';
import { scopeAllows, type ConnectorPrincipal, type Scope } from '../connector.types.js';
import type { TokenRepository } from './token.repository.js';

const BEARER = /^Bearer +(\S{1,512})$/i;

export class ConnectorAuthService {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly limiter: RateLimiter,
    private readonly publicLimiter: RateLimiter,
  ) {}

  /** A request to a public route: counted per client IP; refused with 429 over the limit. */
  async admitPublic(ip: string): Promise<void> {
    const decision = await this.publicLimiter.consume(ip);
    if (decision.allowed) return;
    const seconds = retryAfterSeconds(decision);
    throw new ConnectorError('RATE_LIMITED', `Rate limit exceeded: too many requests to public endpoints from this address; try again in ${seconds} s`, 429, {
      'Retry-After': String(seconds),
    });
  }

  async authenticate(authorization: string | undefined, ip: string, required: Scope): Promise<ConnectorPrincipal> {
    const decision = await this.limiter.consume(ip);
    const headers = {
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(Math.ceil((Date.now() + decision.resetMs) / 1000)),
    };
    const fail = (message: string) => new ConnectorError('AUTHENTICATION_FAILED', message, 401, headers);
    if (!decision.allowed) {
      throw fail(`Rate limit exceeded: too many authentication attempts from this address; try again in ${retryAfterSeconds(decision)} s`);
    }
    const token = BEARER.exec(authorization?.trim() ?? '')?.[1];
    if (!token) throw fail('Authentication required: send the api_token as "Authorization: Bearer <api_token>"');
    const hash = sha256Hex(token);
    const stored = await this.tokens.findLiveByHash(hash);
    // The lookup is by hash on a unique index; the comparison below is constant-time all the same.
    if (!stored || !safeEqual(stored.tokenHash, hash)) throw fail('Invalid or revoked API token');
    if (!stored.integrationActive) throw fail('Invalid or revoked API token: the integration is disconnected');
    if (!scopeAllows(stored.scope, required)) {
      throw new ConnectorError('INSUFFICIENT_SCOPE', `This token has the '${stored.scope}' scope; this endpoint needs '${required}'`);
    }
    await this.tokens.touch(stored.id);
    return { integrationId: stored.integrationId, tokenId: stored.id, scope: stored.scope };
  }
}
