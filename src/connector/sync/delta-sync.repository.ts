// The only place with SQL for the delta sync's state: which integrations poll, and each one's watermark (the PIM
// (updated_at, id) of the last product whose change was handed to the queue).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations } from '../connector.tables.js';

export interface DeltaState {
  isActive: boolean;
  createdAt: Date;
  /** Null until the first poll moved it. */
  watermarkAt: Date | null;
  watermarkId: number;
}

export class DeltaSyncRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): DeltaSyncRepository {
    return new DeltaSyncRepository(tx);
  }

  async state(integrationId: number): Promise<DeltaState | null> {
    const [row] = await this.db
      .select({
        isActive: integrations.isActive,
        createdAt: integrations.createdAt,
        watermarkAt: integrations.syncWatermarkAt,
        watermarkId: integrations.syncWatermarkId,
      })
      .from(integrations)
      .where(eq(integrations.id, integrationId));
    return row ?? null;
  }

  async activeIntegrationIds(): Promise<number[]> {
    const rows = await this.db.select({ id: integrations.id }).from(integrations).where(eq(integrations.isActive, true)).orderBy(asc(integrations.id));
    return rows.map((r) => r.id);
  }

  /** Moves the watermark forward only: a poll that lost a race with another can never move it back. */
  async advanceWatermark(integrationId: number, at: Date, id: number): Promise<void> {
    await this.db
      .update(integrations)
      .set({ syncWatermarkAt: at, syncWatermarkId: id })
      .where(
        and(
          eq(integrations.id, integrationId),
          sql`(${integrations.syncWatermarkAt} IS NULL OR (${integrations.syncWatermarkAt}, ${integrations.syncWatermarkId}) < (${at.toISOString()}::timestamptz, ${id}::int))`,
        ),
      );
  }
}
