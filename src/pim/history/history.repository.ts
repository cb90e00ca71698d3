// The only place with SQL for a product's history (product_changes): recording a write's changes in the writer's
// transaction, one INSERT for any number of products, and reading them back newest first. What a snapshot holds is
// history-snapshot.ts; how two are compared, history-diff.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { isoUtcMs } from '../sql.js';
import { diffSnapshots, type FieldChange } from './history-diff.js';
import { type Snapshot, snapshotOf } from './history-snapshot.js';

export const ACTOR_KINDS = ['api_key', 'console', 'import', 'adoption'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Who wrote: the kind, the API key it came with (trusted) and a label it gave (an import's file name), when known. */
export interface Actor {
  kind: ActorKind;
  keyId: number | null;
  label: string | null;
}

export type ChangeAction = 'created' | 'updated' | 'restored';

export interface ChangeRow {
  id: number;
  product_id: number;
  created_at: string;
  actor_kind: ActorKind;
  actor_key_id: number | null;
  actor_label: string | null;
  action: ChangeAction;
  changes: FieldChange[];
  restored_from: number | null;
}

export class HistoryRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): HistoryRepository {
    return new HistoryRepository(tx);
  }

  /** The products' snapshots now, their rows locked until the transaction ends (a batch writer's "before"). */
  async snapshots(organizationId: number, ids: number[]): Promise<Map<number, Snapshot>> {
    if (ids.length === 0) return new Map();
    const result = await this.db.execute(sql`
      SELECT p.id, ${snapshotOf('p')} AS snapshot FROM products p
      WHERE p.organization_id = ${organizationId} AND p.id = ANY(${`{${ids.join(',')}}`}::int[]) FOR UPDATE OF p`);
    return new Map(rowsOf<{ id: number; snapshot: Snapshot }>(result).map((r) => [r.id, r.snapshot]));
  }

  /** The product's snapshot now, its row locked until the transaction ends; null when there is no such product. */
  async snapshot(organizationId: number, productId: number): Promise<Snapshot | null> {
    return (await this.snapshots(organizationId, [productId])).get(productId) ?? null;
  }

  /**
   * Runs `write` in this repository's transaction and records what it changed in the product: its "before" is read
   * first, so the caller locks the product before (in the order its other locks need). Nothing is recorded when there
   * is no such product.
   */
  async recording<T>(organizationId: number, productId: number, actor: Actor, write: () => Promise<T>): Promise<T> {
    const before = await this.snapshot(organizationId, productId);
    const result = await write();
    if (before !== null) await this.record(organizationId, [{ productId, before }], actor);
    return result;
  }

  /**
   * Records what the transaction changed in these products: each one's snapshot now against its `before` (none: the
   * product is new, and what it was given is listed), compared here (history-diff.ts) and written in one INSERT. A
   * product in which nothing changed gets no row.
   */
  async record(
    organizationId: number,
    entries: { productId: number; before: Snapshot | null }[],
    actor: Actor,
    options: { action?: ChangeAction; restoredFrom?: number } = {},
  ): Promise<void> {
    if (entries.length === 0) return;
    const after = await this.snapshots(
      organizationId,
      entries.map((e) => e.productId),
    );
    const rows = entries.flatMap(({ productId, before }) => {
      const snapshot = after.get(productId);
      const changes = snapshot === undefined ? [] : diffSnapshots(before, snapshot);
      if (changes.length === 0) return [];
      return [{ product_id: productId, action: before === null ? 'created' : (options.action ?? 'updated'), changes, snapshot }];
    });
    if (rows.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO product_changes (organization_id, product_id, actor_kind, actor_key_id, actor_label, action, changes, snapshot, restored_from)
      SELECT ${organizationId}, r.product_id, ${actor.kind}, ${actor.keyId}, ${actor.label}, r.action, r.changes, r.snapshot, ${options.restoredFrom ?? null}::bigint
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(product_id int, action text, changes jsonb, snapshot jsonb)`);
  }

  /**
   * Records changes the caller worked out itself (a translation's texts, named `name@de`), with the product's snapshot
   * now; nothing when the list is empty.
   */
  async recordChanges(organizationId: number, productId: number, actor: Actor, changes: FieldChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO product_changes (organization_id, product_id, actor_kind, actor_key_id, actor_label, action, changes, snapshot)
      SELECT p.organization_id, p.id, ${actor.kind}, ${actor.keyId}, ${actor.label}, 'updated', ${JSON.stringify(changes)}::jsonb, ${snapshotOf('p')}
      FROM products p WHERE p.organization_id = ${organizationId} AND p.id = ${productId}`);
  }

  /** A page of the product's changes, newest first, and how many it has. */
  async list(organizationId: number, productId: number, page: { limit: number; offset: number }): Promise<{ changes: ChangeRow[]; total: number }> {
    const result = await this.db.execute(sql`
      SELECT c.id::int AS id, c.product_id, ${isoUtcMs('c.created_at')} AS created_at, c.actor_kind, c.actor_key_id, c.actor_label, c.action,
             c.changes, c.restored_from::int AS restored_from, count(*) OVER ()::int AS total
      FROM product_changes c
      WHERE c.organization_id = ${organizationId} AND c.product_id = ${productId}
      ORDER BY c.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`);
    const rows = rowsOf<ChangeRow & { total: number }>(result);
    const total = rows[0]?.total ?? (page.offset === 0 ? 0 : await this.count(organizationId, productId));
    return { changes: rows.map(({ total: _total, ...row }) => row), total };
  }

  /** One change of the product with the snapshot it left, or null (none such in the organization). */
  async find(organizationId: number, productId: number, changeId: number): Promise<{ id: number; snapshot: Snapshot } | null> {
    const result = await this.db.execute(sql`
      SELECT c.id::int AS id, c.snapshot FROM product_changes c
      WHERE c.organization_id = ${organizationId} AND c.product_id = ${productId} AND c.id = ${changeId}`);
    return rowsOf<{ id: number; snapshot: Snapshot }>(result)[0] ?? null;
  }

  private async count(organizationId: number, productId: number): Promise<number> {
    const result = await this.db.execute(
      sql`SELECT count(*)::int AS n FROM product_changes WHERE organization_id = ${organizationId} AND product_id = ${productId}`,
    );
    return rowsOf<{ n: number }>(result)[0].n;
  }
}
