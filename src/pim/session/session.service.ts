// Console sessions: signing in with an organization's API key and secret, the cookie's token, and its CSRF token.
// The token is 256 random bits, stored as its SHA-256. The CSRF token is an HMAC of the session token: the page gets it
// from the API (never from a cookie) and sends it back in X-CSRF-Token on every state-changing call, which a page of
// another site cannot do (synchronizer token; the cookie is also SameSite=Strict).
import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual, sha256Hex } from '../../lib/crypto.js';
import type { ConsoleSession } from '../../http/console-session.js';
import type { ApiKeyAuthService } from '../auth/api-key-auth.service.js';
import type { SessionRepository } from './session.repository.js';

export interface SignedIn {
  token: string;
  session: SessionView;
}

export interface SessionView {
  organization: { id: number; name: string };
  csrf_token: string;
  expires_at: string;
}

export class SessionService {
  constructor(
    private readonly auth: ApiKeyAuthService,
    private readonly sessions: SessionRepository,
    private readonly ttlMs: number,
  ) {}

  /** Key and secret checked as GET /api/auth/verify checks them (401 on either, 403 for an inactive organization). */
  async signIn(apiKey: string, apiSecret: string): Promise<SignedIn> {
    const verified = await this.auth.verify(apiKey, apiSecret);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.ttlMs);
    await this.sessions.create({ tokenHash: sha256Hex(token), organizationId: verified.organization.id, apiKeyId: verified.key_id, expiresAt });
    return {
      token,
      session: {
        organization: { id: verified.organization.id, name: verified.organization.name },
        csrf_token: csrfFor(token),
        expires_at: expiresAt.toISOString(),
      },
    };
  }

  /** The live session of this cookie token, or null (unknown, expired, signed out, key revoked, organization inactive). */
  async authenticate(token: string): Promise<(ConsoleSession & { view: SessionView }) | null> {
    const live = await this.sessions.findLive(sha256Hex(token));
    if (!live) return null;
    const accountKeyHashes = await this.auth.sessionKeyHashes(live.organizationId, live.keyId);
    if (!accountKeyHashes) return null;
    return {
      organizationId: live.organizationId,
      keyId: live.keyId,
      accountKeyHashes,
      view: {
        organization: { id: live.organizationId, name: live.organizationName },
        csrf_token: csrfFor(token),
        expires_at: live.expiresAt.toISOString(),
      },
    };
  }

  csrfMatches(token: string, given: string | undefined): boolean {
    return given !== undefined && safeEqual(csrfFor(token), given);
  }

  async signOut(token: string): Promise<void> {
    await this.sessions.delete(sha256Hex(token));
  }
}

function csrfFor(token: string): string {
  return createHmac('sha256', token).update('pimbridge-csrf').digest('base64url');
}
