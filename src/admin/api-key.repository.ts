import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { organizations } from '../db/tenancy.js';
import { apiKeys } from './admin.tables.js';

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

  /**
   * For a console session standing for key `keyId` of `organizationId` (pim/session): while that key is live, the
   * hashes of every key the organization was issued (revoked ones too), oldest first; null once it is revoked. Read on
   * every console request, never cached, so revoking a key ends its sessions at once on every node.
   */
  async sessionKeyHashes(organizationId: number, keyId: number): Promise<string[] | null> {
    const [row] = await this.db
      .select({ hashes: sql<string[]>`array(select k.key_hash from api_keys k where k.organization_id = ${organizationId} order by k.id)` })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
    return row?.hashes ?? null;
  }

  /** The names of these keys of the organization (revoked ones too), by id; a key without a name is left out. */
  async namesOf(organizationId: number, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: apiKeys.id, name: apiKeys.name })
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, organizationId), inArray(apiKeys.id, ids)));
    return new Map(rows.flatMap((r) => (r.name === null ? [] : [[r.id, r.name] as const])));
  }

  /** SHA-256 of every key the organization was issued, revoked ones too: the integrations of its PIM account use one. */
  async organizationKeyHashes(organizationId: number): Promise<string[]> {
    const rows = await this.db.select({ hash: apiKeys.keyHash }).from(apiKeys).where(eq(apiKeys.organizationId, organizationId));
    return rows.map((r) => r.hash);
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
