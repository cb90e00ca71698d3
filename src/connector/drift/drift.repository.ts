// The only place with SQL for drift reports (POST/GET /api/drift): the report row (state, the shop's bulk query it
// waits on, counts) and its items, paged. Reads a caller can reach are scoped to the integration.
import { and, asc, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations } from '../connector.tables.js';
import { driftReportItems, driftReports } from '../drift.tables.js';
import { productMappings } from '../mapping.tables.js';

export type DriftState = 'queued' | 'running' | 'completed' | 'failed';
export const DRIFT_KINDS = ['changed', 'missing_in_shop', 'orphan_in_shop'] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

export interface DriftCounts {
  /** Mappings with a storefront product. */
  mapped: number;
  /** Of those, compared field by field (a push recorded what it wrote). */
  compared: number;
  /** Mapped, in the shop, but no record of what was written (adopted and not pushed since, or pushed before drift reports). */
  not_compared: number;
  shop_products: number;
  changed: number;
  missing_in_shop: number;
  orphan_in_shop: number;
}

export interface DriftReportRow {
  id: string;
  integrationId: number;
  state: DriftState;
  operationId: string | null;
  counts: DriftCounts | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface DriftItemRow {
  kind: DriftKind;
  pimProductId: number | null;
  storefrontProductId: number | null;
  handle: string | null;
  title: string | null;
  fields: unknown;
}

const columns = {
  id: driftReports.id,
  integrationId: driftReports.integrationId,
  state: driftReports.state,
  operationId: driftReports.operationId,
  counts: driftReports.counts,
  error: driftReports.error,
  createdAt: driftReports.createdAt,
  startedAt: driftReports.startedAt,
  finishedAt: driftReports.finishedAt,
};

const OPEN = ['queued', 'running'];
const row = (r: unknown) => (r as DriftReportRow | undefined) ?? null;

export class DriftRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): DriftRepository {
    return new DriftRepository(tx);
  }

  /** Locks the integration's row for the rest of the transaction (serialises starts); null when it does not exist. */
  async lockIntegration(integrationId: number): Promise<{ active: boolean } | null> {
    const [r] = await this.db.select({ active: integrations.isActive }).from(integrations).where(eq(integrations.id, integrationId)).for('update');
    return r ?? null;
  }

  async findOpen(integrationId: number): Promise<DriftReportRow | null> {
    const [r] = await this.db
      .select(columns)
      .from(driftReports)
      .where(and(eq(driftReports.integrationId, integrationId), inArray(driftReports.state, OPEN)))
      .orderBy(asc(driftReports.createdAt))
      .limit(1);
    return row(r);
  }

  async create(id: string, integrationId: number, at: Date): Promise<DriftReportRow> {
    const [r] = await this.db.insert(driftReports).values({ id, integrationId, state: 'queued', createdAt: at, updatedAt: at }).returning(columns);
    return row(r)!;
  }

  /** One report; with `integrationId`, only when it belongs to that integration. */
  async find(id: string, integrationId?: number): Promise<DriftReportRow | null> {
    const [r] = await this.db
      .select(columns)
      .from(driftReports)
      .where(and(eq(driftReports.id, id), integrationId === undefined ? undefined : eq(driftReports.integrationId, integrationId)));
    return row(r);
  }

  /** The integration's newest report. */
  async latest(integrationId: number): Promise<DriftReportRow | null> {
    const [r] = await this.db
      .select(columns)
      .from(driftReports)
      .where(eq(driftReports.integrationId, integrationId))
      .orderBy(desc(driftReports.createdAt), desc(driftReports.id))
      .limit(1);
    return row(r);
  }

  async markRunning(id: string, at: Date): Promise<DriftReportRow | null> {
    const [r] = await this.db
      .update(driftReports)
      .set({ state: 'running', startedAt: sql`coalesce(${driftReports.startedAt}, ${at.toISOString()}::timestamptz)`, updatedAt: at })
      .where(and(eq(driftReports.id, id), inArray(driftReports.state, OPEN)))
      .returning(columns);
    return row(r);
  }

  async setOperation(id: string, operationId: string | null, at: Date): Promise<void> {
    await this.db.update(driftReports).set({ operationId, updatedAt: at }).where(eq(driftReports.id, id));
  }

  /** The items (replacing any an earlier try wrote) and the counts, completing the report, in one transaction. */
  async complete(id: string, counts: DriftCounts, items: DriftItemRow[], at: Date, batch = 1000): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(driftReportItems).where(eq(driftReportItems.reportId, id));
      for (let i = 0; i < items.length; i += batch) {
        await tx.insert(driftReportItems).values(items.slice(i, i + batch).map((it, k) => ({ reportId: id, seq: i + k + 1, ...it })));
      }
      await tx
        .update(driftReports)
        .set({ state: 'completed', counts, finishedAt: at, updatedAt: at })
        .where(and(eq(driftReports.id, id), inArray(driftReports.state, OPEN)));
    });
  }

  async fail(id: string, error: string, at: Date): Promise<void> {
    await this.db
      .update(driftReports)
      .set({ state: 'failed', error, finishedAt: at, updatedAt: at })
      .where(and(eq(driftReports.id, id), inArray(driftReports.state, OPEN)));
  }

  /** A page of a report's items in report order, and the total under the same filter. */
  async items(id: string, kind: DriftKind | undefined, limit: number, offset: number): Promise<{ rows: DriftItemRow[]; total: number }> {
    const where = and(eq(driftReportItems.reportId, id), kind ? eq(driftReportItems.kind, kind) : undefined);
    const rows = await this.db
      .select({
        kind: driftReportItems.kind,
        pimProductId: driftReportItems.pimProductId,
        storefrontProductId: driftReportItems.storefrontProductId,
        handle: driftReportItems.handle,
        title: driftReportItems.title,
        fields: driftReportItems.fields,
      })
      .from(driftReportItems)
      .where(where)
      .orderBy(asc(driftReportItems.seq))
      .limit(limit)
      .offset(offset);
    const [count] = await this.db.select({ n: sql<number>`count(*)::int` }).from(driftReportItems).where(where);
    return { rows: rows as DriftItemRow[], total: Number(count.n) };
  }

  /**
   * The integration's mappings that name a storefront product, with what the bridge last wrote there; also those whose
   * product a products/delete webhook reported gone (their storefront id cleared, `metadata.deleted_in_shop` kept).
   */
  async mappedProducts(integrationId: number): Promise<{ pimProductId: number; storefrontProductId: number | null; state: unknown; metadata: unknown }[]> {
    const rows = await this.db
      .select({
        pimProductId: productMappings.pimProductId,
        storefrontProductId: productMappings.storefrontProductId,
        state: productMappings.storefrontState,
        metadata: productMappings.metadata,
      })
      .from(productMappings)
      .where(
        and(
          eq(productMappings.integrationId, integrationId),
          or(isNotNull(productMappings.storefrontProductId), sql`${productMappings.metadata} ? 'deleted_in_shop'`),
        ),
      )
      .orderBy(asc(productMappings.pimProductId));
    return rows as { pimProductId: number; storefrontProductId: number | null; state: unknown; metadata: unknown }[];
  }
}
