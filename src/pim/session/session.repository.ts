// The only SQL on console sessions. A session opens nothing once its organization is inactive (the lookup joins it)
// or its key revoked (SessionService asks the admin API's keys on every request, through ApiKeyAuthService), so
// revoking ends sessions at once on every node.
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizations } from '../../db/tenancy.js';
import { consoleSessions } from '../session.tables.js';

/** An unexpired session of an active organization (whether its key is live is the admin API's to say). */
export interface LiveSession {
  organizationId: number;
  organizationName: string;
  keyId: number;
  expiresAt: Date;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  /** A new session; the organization's expired sessions are removed on the way. */
  async create(input: { tokenHash: string; organizationId: number; apiKeyId: number; expiresAt: Date }): Promise<void> {
    await this.db.delete(consoleSessions).where(and(eq(consoleSessions.organizationId, input.organizationId), lte(consoleSessions.expiresAt, sql`now()`)));
    await this.db.insert(consoleSessions).values(input);
  }

  async findLive(tokenHash: string): Promise<LiveSession | null> {
    const [row] = await this.db
      .select({
        organizationId: consoleSessions.organizationId,
        organizationName: organizations.name,
        keyId: consoleSessions.apiKeyId,
        expiresAt: consoleSessions.expiresAt,
      })
      .from(consoleSessions)
      .innerJoin(organizations, and(eq(organizations.id, consoleSessions.organizationId), eq(organizations.active, true)))
      .where(and(eq(consoleSessions.tokenHash, tokenHash), gt(consoleSessions.expiresAt, sql`now()`)));
    return row ?? null;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.delete(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash));
  }
}
