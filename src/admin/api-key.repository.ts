import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiKeys, organizations } from '../db/schema/index.js';

export interface StoredCredential {
  keyId: number;
  organizationId: number;
  organizationName: string;
  organizationActive: boolean;
  secretHash: string;
}

export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  async create(input: { organizationId: number; name: string | null; keyHash: string; secretHash: string }): Promise<number> {
    const [row] = await this.db.insert(apiKeys).values(input).returning({ id: apiKeys.id });
    return row.id;
  }

  /** The live (not revoked) key with this hash, with its organization. */
  async findLiveByHash(keyHash: string): Promise<StoredCredential | null> {
    const [row] = await this.db
      .select({
        keyId: apiKeys.id,
        organizationId: apiKeys.organizationId,
        organizationName: organizations.name,
        organizationActive: organizations.active,
        secretHash: apiKeys.secretHash,
      })
      .from(apiKeys)
      .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
    return row ?? null;
  }

  /** Marks the key revoked; returns its hash (for cache invalidation) or null when there was no live key. */
  async revoke(id: number): Promise<string | null> {
    const [row] = await this.db
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ keyHash: apiKeys.keyHash });
    return row?.keyHash ?? null;
  }
}
