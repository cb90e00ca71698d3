// The only place with SQL for adoptions (POST /api/adopt): the row that carries an adoption's state, its phase and
// progress, the storefront read and PIM import it waits on, and its result. Reads a caller can reach by id are scoped
// to the integration.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations } from '../connector.tables.js';
import { adoptions, fullSyncs } from '../sync.tables.js';

export type AdoptionState = 'queued' | 'running' | 'completed' | 'failed';
export type AdoptionPhase = 'reading_shop' | 'reading_pim' | 'matching' | 'importing';

export interface AdoptionCounts {
  shopProducts: number;
  pimProducts: number;
  matched: number;
  matchedBy: Record<string, number>;
  alreadyMapped: number;
  unmatchedShop: number;
  unmatchedPim: number;
  imported: number;
}

export interface AdoptionRow {
  id: string;
  integrationId: number;
  state: AdoptionState;
  importUnmatched: boolean;
  phase: AdoptionPhase | null;
  progressDone: number;
  progressTotal: number | null;
  operationId: string | null;
  importId: string | null;
  shopProducts: number | null;
  pimProducts: number | null;
  matched: number | null;
  matchedBy: Record<string, number> | null;
  alreadyMapped: number | null;
  unmatchedShop: number | null;
  unmatchedPim: number | null;
  imported: number | null;
  unmatchedShopList: unknown[] | null;
  unmatchedPimList: unknown[] | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const columns = {
  id: adoptions.id,
  integrationId: adoptions.integrationId,
  state: adoptions.state,
  importUnmatched: adoptions.importUnmatched,
  phase: adoptions.phase,
  progressDone: adoptions.progressDone,
  progressTotal: adoptions.progressTotal,
  operationId: adoptions.operationId,
  importId: adoptions.importId,
  shopProducts: adoptions.shopProducts,
  pimProducts: adoptions.pimProducts,
  matched: adoptions.matched,
  matchedBy: adoptions.matchedBy,
  alreadyMapped: adoptions.alreadyMapped,
  unmatchedShop: adoptions.unmatchedShop,
  unmatchedPim: adoptions.unmatchedPim,
  imported: adoptions.imported,
  unmatchedShopList: adoptions.unmatchedShopList,
  unmatchedPimList: adoptions.unmatchedPimList,
  error: adoptions.error,
  createdAt: adoptions.createdAt,
  startedAt: adoptions.startedAt,
  finishedAt: adoptions.finishedAt,
};

const OPEN = ['queued', 'running'];
const row = (r: unknown) => (r as AdoptionRow | undefined) ?? null;

export class AdoptionRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): AdoptionRepository {
    return new AdoptionRepository(tx);
  }

  /** Locks the integration's row for the rest of the transaction (serialises starts); null when it does not exist. */
  async lockIntegration(integrationId: number): Promise<{ active: boolean } | null> {
    const [r] = await this.db.select({ active: integrations.isActive }).from(integrations).where(eq(integrations.id, integrationId)).for('update');
    return r ?? null;
  }

  /** The integration's adoption that is queued or running, if any. */
  async findOpen(integrationId: number): Promise<AdoptionRow | null> {
    const [r] = await this.db
      .select(columns)
      .from(adoptions)
      .where(and(eq(adoptions.integrationId, integrationId), inArray(adoptions.state, OPEN)))
      .orderBy(asc(adoptions.createdAt))
      .limit(1);
    return row(r);
  }

  /**
   * Whether an adoption of the integration is queued or running: it holds the integration's sync until its links are
   * written (the delta poll queues nothing and sync.product jobs wait, DeltaSyncService.poll, PushService.syncProduct).
   */
  async hasOpen(integrationId: number): Promise<boolean> {
    const [r] = await this.db
      .select({ id: adoptions.id })
      .from(adoptions)
      .where(and(eq(adoptions.integrationId, integrationId), inArray(adoptions.state, OPEN)))
      .limit(1);
    return r !== undefined;
  }

  /** The id of the integration's full sync that is queued or running, if any (an adoption waits for it to end). */
  async openFullSync(integrationId: number): Promise<string | null> {
    const [r] = await this.db
      .select({ id: fullSyncs.id })
      .from(fullSyncs)
      .where(and(eq(fullSyncs.integrationId, integrationId), inArray(fullSyncs.status, OPEN)))
      .limit(1);
    return r?.id ?? null;
  }

  async create(id: string, integrationId: number, importUnmatched: boolean, at: Date): Promise<AdoptionRow> {
    const [r] = await this.db
      .insert(adoptions)
      .values({ id, integrationId, importUnmatched, state: 'queued', createdAt: at, updatedAt: at })
      .returning(columns);
    return row(r)!;
  }

  /** One adoption; with `integrationId`, only when it belongs to that integration. */
  async find(id: string, integrationId?: number): Promise<AdoptionRow | null> {
    const [r] = await this.db
      .select(columns)
      .from(adoptions)
      .where(and(eq(adoptions.id, id), integrationId === undefined ? undefined : eq(adoptions.integrationId, integrationId)));
    return row(r);
  }

  /** queued → running (started_at kept from an earlier start); null when the adoption is not open any more. */
  async markRunning(id: string, at: Date): Promise<AdoptionRow | null> {
    const [r] = await this.db
      .update(adoptions)
      .set({ state: 'running', startedAt: sql`coalesce(${adoptions.startedAt}, ${at.toISOString()}::timestamptz)`, updatedAt: at })
      .where(and(eq(adoptions.id, id), inArray(adoptions.state, OPEN)))
      .returning(columns);
    return row(r);
  }

  /** Where the adoption is: its phase and how far along it (`total` null: not known yet). */
  async setProgress(id: string, phase: AdoptionPhase, done: number, total: number | null, at: Date): Promise<void> {
    await this.db
      .update(adoptions)
      .set({ phase, progressDone: done, progressTotal: total, updatedAt: at })
      .where(and(eq(adoptions.id, id), inArray(adoptions.state, OPEN)));
  }

  /** The storefront's bulk operation reading the shop (null: none, start one). */
  async setOperation(id: string, operationId: string | null, at: Date): Promise<void> {
    await this.db.update(adoptions).set({ operationId, updatedAt: at }).where(eq(adoptions.id, id));
  }

  /** The PIM import of the unmatched products (null: none, start one). */
  async setImport(id: string, importId: string | null, at: Date): Promise<void> {
    await this.db.update(adoptions).set({ importId, updatedAt: at }).where(eq(adoptions.id, id));
  }

  /** The result so far: counts and the capped lists of unmatched products. */
  async saveResult(id: string, counts: AdoptionCounts, lists: { shop: unknown[]; pim: unknown[] }, at: Date): Promise<void> {
    await this.db
      .update(adoptions)
      .set({
        shopProducts: counts.shopProducts,
        pimProducts: counts.pimProducts,
        matched: counts.matched,
        matchedBy: counts.matchedBy,
        alreadyMapped: counts.alreadyMapped,
        unmatchedShop: counts.unmatchedShop,
        unmatchedPim: counts.unmatchedPim,
        imported: counts.imported,
        unmatchedShopList: lists.shop,
        unmatchedPimList: lists.pim,
        updatedAt: at,
      })
      .where(eq(adoptions.id, id));
  }

  /** running → completed; null when it was not running. */
  async complete(id: string, at: Date): Promise<AdoptionRow | null> {
    const [r] = await this.db
      .update(adoptions)
      .set({ state: 'completed', phase: null, finishedAt: at, updatedAt: at })
      .where(and(eq(adoptions.id, id), inArray(adoptions.state, OPEN)))
      .returning(columns);
    return row(r);
  }

  /** An open adoption → failed with its reason; null when it had ended. */
  async fail(id: string, error: string, at: Date): Promise<AdoptionRow | null> {
    const [r] = await this.db
      .update(adoptions)
      .set({ state: 'failed', error, finishedAt: at, updatedAt: at })
      .where(and(eq(adoptions.id, id), inArray(adoptions.state, OPEN)))
      .returning(columns);
    return row(r);
  }
}
