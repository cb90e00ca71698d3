// The only place with SQL for connector bearer tokens (stored as SHA-256 hashes, never in clear).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { connectorTokens, integrations } from '../connector.tables.js';
import type { Scope } from '../connector.types.js';

export interface LiveToken {
  id: number;
  integrationId: number;
  scope: Scope;
  tokenHash: string;
  integrationActive: boolean;
}

export interface TokenListing {
  id: number;
  scope: Scope;
  name: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export class TokenRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): TokenRepository {
    return new TokenRepository(tx);
  }

  async create(input: { integrationId: number; tokenHash: string; scope: Scope; name: string | null }): Promise<{ id: number; createdAt: Date }> {
    const [row] = await this.db.insert(connectorTokens).values(input).returning({ id: connectorTokens.id, createdAt: connectorTokens.createdAt });
    return row;
  }

  /** The unrevoked token with this hash, with whether its integration is active. */
  async findLiveByHash(tokenHash: string): Promise<LiveToken | null> {
    const [row] = await this.db
      .select({
        id: connectorTokens.id,
        integrationId: connectorTokens.integrationId,
        scope: connectorTokens.scope,
        tokenHash: connectorTokens.tokenHash,
        integrationActive: integrations.isActive,
      })
      .from(connectorTokens)
      .innerJoin(integrations, eq(integrations.id, connectorTokens.integrationId))
      .where(and(eq(connectorTokens.tokenHash, tokenHash), isNull(connectorTokens.revokedAt)));
    return row ? { ...row, scope: row.scope as Scope } : null;
  }

  /** Records use, at most once a minute per token (a write per request would cost more than the lookup). */
  async touch(id: number): Promise<void> {
    await this.db
      .update(connectorTokens)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(connectorTokens.id, id), sql`(${connectorTokens.lastUsedAt} is null or ${connectorTokens.lastUsedAt} < now() - interval '1 minute')`));
  }

  async listLive(integrationId: number): Promise<TokenListing[]> {
    const rows = await this.db
      .select({
        id: connectorTokens.id,
        scope: connectorTokens.scope,
        name: connectorTokens.name,
        createdAt: connectorTokens.createdAt,
        lastUsedAt: connectorTokens.lastUsedAt,
      })
      .from(connectorTokens)
      .where(and(eq(connectorTokens.integrationId, integrationId), isNull(connectorTokens.revokedAt)))
      .orderBy(asc(connectorTokens.id));
    return rows.map((r) => ({ ...r, scope: r.scope as Scope }));
  }

  /** Revokes one live token of the integration; null when it has no such live token. */
  async revoke(integrationId: number, id: number): Promise<Date | null> {
    const rows = await this.db
      .update(connectorTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(connectorTokens.id, id), eq(connectorTokens.integrationId, integrationId), isNull(connectorTokens.revokedAt)))
      .returning({ revokedAt: connectorTokens.revokedAt });
    return rows[0]?.revokedAt ?? null;
  }

  /** Revokes every live token of the integration; returns how many. */
  async revokeAll(integrationId: number): Promise<number> {
    const rows = await this.db
      .update(connectorTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(connectorTokens.integrationId, integrationId), isNull(connectorTokens.revokedAt)))
      .returning({ id: connectorTokens.id });
    return rows.length;
  }
}
