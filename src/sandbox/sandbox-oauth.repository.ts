// SQL for the sandbox's OAuth: the tokens its stores' apps got (sandbox_oauth_tokens) and the one-time consents and
// authorization codes of the authorization code grant (sandbox_oauth_grants). Every token, code and nonce is stored as
// its SHA-256 hash; one indexed lookup finds a token.
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxOauthGrants, sandboxOauthTokens } from './oauth.tables.js';

export type OauthTokenRow = typeof sandboxOauthTokens.$inferSelect;
export type OauthGrantRow = typeof sandboxOauthGrants.$inferSelect;
export type OauthTokenKind = 'offline' | 'expiring' | 'client_credentials';

export class SandboxOauthRepository {
  constructor(private readonly db: Db) {}

  async insertToken(values: {
    storeId: number;
    kind: OauthTokenKind;
    accessTokenHash: string;
    scopes: string[];
    expiresAt: Date | null;
    refreshTokenHash?: string | null;
    refreshExpiresAt?: Date | null;
    previousRefreshHash?: string | null;
    previousRefreshExpiresAt?: Date | null;
  }): Promise<OauthTokenRow> {
    const [row] = await this.db.insert(sandboxOauthTokens).values(values).returning();
    return row;
  }

  /** The token with this access token hash (unique index). */
  async byAccessHash(hash: string): Promise<OauthTokenRow | null> {
    const [row] = await this.db.select().from(sandboxOauthTokens).where(eq(sandboxOauthTokens.accessTokenHash, hash));
    return row ?? null;
  }

  /**
   * The first use of a token's access token: noted once, and the refresh token it replaced stops working (changelog
   * "More resilient refreshes for expiring offline access tokens").
   */
  async markFirstUse(id: number, at: Date): Promise<void> {
    await this.db
      .update(sandboxOauthTokens)
      .set({ firstUsedAt: at, previousRefreshHash: null, previousRefreshExpiresAt: null })
      .where(and(eq(sandboxOauthTokens.id, id), isNull(sandboxOauthTokens.firstUsedAt)));
  }

  /**
   * The unrevoked token of the store whose current refresh token, or whose previous one still in its grace, is `hash`;
   * locked for the rotation (the caller's transaction).
   */
  async byRefreshHash(storeId: number, hash: string): Promise<{ row: OauthTokenRow; previous: boolean } | null> {
    const rows = await this.db
      .select()
      .from(sandboxOauthTokens)
      .where(
        and(
          eq(sandboxOauthTokens.storeId, storeId),
          isNull(sandboxOauthTokens.revokedAt),
          or(eq(sandboxOauthTokens.refreshTokenHash, hash), eq(sandboxOauthTokens.previousRefreshHash, hash)),
        ),
      )
      .for('update');
    const current = rows.find((r) => r.refreshTokenHash === hash);
    if (current) return { row: current, previous: false };
    const previous = rows.find((r) => r.previousRefreshHash === hash);
    return previous ? { row: previous, previous: true } : null;
  }

  /** A token that handed its refresh token on: it has none left (its access token lives on until it expires). */
  async dropRefresh(id: number): Promise<void> {
    await this.db
      .update(sandboxOauthTokens)
      .set({ refreshTokenHash: null, refreshExpiresAt: null, previousRefreshHash: null, previousRefreshExpiresAt: null })
      .where(eq(sandboxOauthTokens.id, id));
  }

  async revoke(id: number, at: Date): Promise<void> {
    await this.db.update(sandboxOauthTokens).set({ revokedAt: at }).where(eq(sandboxOauthTokens.id, id));
  }

  /** Revokes every OAuth and client credentials token of the store (the app was uninstalled); how many. */
  async revokeAll(storeId: number, at: Date): Promise<number> {
    const rows = await this.db
      .update(sandboxOauthTokens)
      .set({ revokedAt: at, refreshTokenHash: null, previousRefreshHash: null })
      .where(and(eq(sandboxOauthTokens.storeId, storeId), isNull(sandboxOauthTokens.revokedAt)))
      .returning({ id: sandboxOauthTokens.id });
    return rows.length;
  }

  async insertGrant(values: {
    hash: string;
    storeId: number;
    kind: 'consent' | 'code';
    bindingHash?: string | null;
    scopes: string[];
    redirectUri: string;
    state: string | null;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.insert(sandboxOauthGrants).values(values);
  }

  /** Takes a consent or code once: the row, marked used, or null when it is unknown or was used already. */
  async takeGrant(storeId: number, kind: 'consent' | 'code', hash: string, at: Date): Promise<OauthGrantRow | null> {
    const [row] = await this.db
      .update(sandboxOauthGrants)
      .set({ usedAt: at })
      .where(
        and(eq(sandboxOauthGrants.hash, hash), eq(sandboxOauthGrants.storeId, storeId), eq(sandboxOauthGrants.kind, kind), isNull(sandboxOauthGrants.usedAt)),
      )
      .returning();
    return row ?? null;
  }

  /** Consents and codes past their life (an hour after expiry, used or not) are deleted now and then. */
  async pruneGrants(before: Date): Promise<void> {
    await this.db.delete(sandboxOauthGrants).where(sql`${sandboxOauthGrants.expiresAt} < ${before.toISOString()}::timestamptz`);
  }

  transaction<T>(fn: (repo: SandboxOauthRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new SandboxOauthRepository(tx)));
  }
}
