// The only place with SQL for a product's history (product_changes): recording a write's changes in the writer's
// transaction, one INSERT for any number of products, and reading them back newest first.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { isoUtcMs } from '../sql.js';

export const ACTOR_KINDS = ['api_key', 'console', 'import', 'adoption'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Who wrote: the kind, the API key it came with (trusted) and a label it gave (an import's file name), when known. */
export interface Actor {
  kind: ActorKind;
  keyId: number | null;
  label: string | null;
}

export type ChangeAction = 'created' | 'updated' | 'restored';

/** The product's own fields in the API's names and values (decimals as text, ids for references, category_ids sorted). */
export type Snapshot = Record<string, unknown>;

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

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

/** The product's own fields, named as the API and as their columns (decimals read as text, as the API shows them). */
export const SNAPSHOT_FIELDS = [
  'name',
  'sku',
  'slug',
  'description',
  'short_description',
  'product_type',
  'price',
  'sale_price',
  'cost_price',
  'currency',
  'status',
  'stock',
  'ean',
  'brand_id',
  'supplier_id',
  'vat_rate_id',
  'category_ids',
  'publishing_channels',
  'product_condition',
  'attributes',
  'tags',
  'seo_title',
  'seo_description',
  'gift_card',
  'taxonomy_category',
  'weight',
  'storefront_type',
  'barcode',
  'compare_at_price',
  'weight_unit',
  'inventory_policy',
  'inventory_tracked',
  'taxable',
  'requires_shipping',
] as const;
const DECIMALS = new Set(['price', 'sale_price', 'cost_price', 'weight', 'compare_at_price']);

const fieldSql = (field: string, a: string): string =>
  field === 'category_ids'
    ? `coalesce((SELECT jsonb_agg(pc.category_id ORDER BY pc.category_id) FROM product_categories pc WHERE pc.product_id = ${a}.id), '[]'::jsonb)`
    : `${a}.${field}${DECIMALS.has(field) ? '::text' : ''}`;

/** The snapshot of the product row aliased `alias`, as one jsonb. */
export const snapshotOf = (alias: string): SQL => sql.raw(`jsonb_build_object(${SNAPSHOT_FIELDS.map((f) => `'${f}', ${fieldSql(f, alias)}`).join(', ')})`);

/** A created product's fields worth showing: the ones with a value. */
const EMPTY = `('null'::jsonb, '[]'::jsonb, '{}'::jsonb, 'false'::jsonb)`;

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

  /**
   * Records what the transaction changed in these products, in one statement: each one's snapshot now against its
   * `before` (none: the product is new, and its fields with a value are listed). A product whose fields did not change
   * gets no row.
   */
  async record(
    organizationId: number,
    entries: { productId: number; before: Snapshot | null }[],
    actor: Actor,
    options: { action?: ChangeAction; restoredFrom?: number } = {},
  ): Promise<void> {
    if (entries.length === 0) return;
    const before: Record<string, Snapshot> = {};
    for (const e of entries) if (e.before) before[e.productId] = e.before;
    const action = options.action ?? 'updated';
    await this.db.execute(sql`
      INSERT INTO product_changes (organization_id, product_id, actor_kind, actor_key_id, actor_label, action, changes, snapshot, restored_from)
      SELECT p.organization_id, p.id, ${actor.kind}, ${actor.keyId}, ${actor.label},
             CASE WHEN b.value IS NULL THEN 'created' ELSE ${action} END, d.changes, s.snap, ${options.restoredFrom ?? null}::bigint
      FROM products p
      CROSS JOIN LATERAL (SELECT ${snapshotOf('p')} AS snap) s
      LEFT JOIN jsonb_each(${JSON.stringify(before)}::jsonb) b ON b.key = p.id::text
      CROSS JOIN LATERAL (
        SELECT coalesce(jsonb_agg(jsonb_build_object('field', n.key, 'old', coalesce(o.value, 'null'::jsonb), 'new', n.value)), '[]'::jsonb) AS changes
        FROM jsonb_each(s.snap) n LEFT JOIN jsonb_each(b.value) o ON o.key = n.key
        WHERE CASE WHEN b.value IS NULL THEN n.value NOT IN ${sql.raw(EMPTY)} ELSE o.value IS DISTINCT FROM n.value END
      ) d
      WHERE p.organization_id = ${organizationId} AND p.id = ANY(${`{${entries.map((e) => e.productId).join(',')}}`}::int[])
        AND d.changes <> '[]'::jsonb`);
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
