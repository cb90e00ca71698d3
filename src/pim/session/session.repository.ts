// The only SQL on console sessions. A session opens nothing once its key is revoked or its organization inactive:
// the lookup joins both on every request, so revoking ends sessions at once on every node.
import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiKeys, consoleSessions, organizations } from '../../db/schema/index.js';

export interface LiveSession {
  organizationId: number;
  organizationName: string;
  keyId: number;
  expiresAt: Date;
  accountKeyHashes: string[];
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
        accountKeyHashes: sql<string[]>`array(select k.key_hash from api_keys k where k.organization_id = ${consoleSessions.organizationId} order by k.id)`,
      })
      .from(consoleSessions)
      .innerJoin(apiKeys, and(eq(apiKeys.id, consoleSessions.apiKeyId), isNull(apiKeys.revokedAt)))
      .innerJoin(organizations, and(eq(organizations.id, consoleSessions.organizationId), eq(organizations.active, true)))
      .where(and(eq(consoleSessions.tokenHash, tokenHash), gt(consoleSessions.expiresAt, sql`now()`)));
    return row ?? null;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.delete(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash));
  }
}
