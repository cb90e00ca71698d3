// The only place with SQL for bulk changes of products and their undo (pim/workbench/bulk.service.ts has the rules).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { productWhere, type ProductFilters } from '../products/product.repository.js';
import type { BulkAction } from './bulk.schemas.js';

/** A product's value before a change: the column's old value (JSON), or for a category action only the product's id. */
export interface PreviousValue {
  id: number;
  v?: unknown;
}

export interface BulkChangeRow {
  id: number;
  action: BulkAction;
  value: unknown;
  previous: PreviousValue[];
  undone: boolean;
}

/** The column each column action writes, the new value's SQL, and which rows it changes (those not already at it). */
function columnChange(action: BulkAction, value: unknown): { column: string; set: SQL; differs: SQL } {
  switch (action) {
    case 'set_status':
    case 'archive': {
      const status = action === 'archive' ? 'archived' : String(value);
      return { column: 'status', set: sql`${status}`, differs: sql`p.status <> ${status}` };
    }
    case 'set_brand':
      return { column: 'brand_id', set: sql`${value}::int`, differs: sql`p.brand_id IS DISTINCT FROM ${value}::int` };
    case 'add_channel':
      return {
        column: 'publishing_channels',
        set: sql`array_append(p.publishing_channels, ${String(value)}::text)`,
        differs: sql`NOT p.publishing_channels @> ARRAY[${String(value)}::text]`,
      };
    case 'remove_channel':
      return {
        column: 'publishing_channels',
        set: sql`array_remove(p.publishing_channels, ${String(value)}::text)`,
        differs: sql`p.publishing_channels @> ARRAY[${String(value)}::text]`,
      };
    default:
      throw new Error(`not a column action: ${action}`);
  }
}

/** The column each column action writes (and its undo restores). */
const COLUMN_OF: Partial<Record<BulkAction, string>> = {
  set_status: 'status',
  archive: 'status',
  set_brand: 'brand_id',
  add_channel: 'publishing_channels',
  remove_channel: 'publishing_channels',
};

/** The SQL that turns a stored previous value (jsonb `r.v`) back into the column's type. */
function restoredValue(column: string, organizationId: number): SQL {
  if (column === 'status') return sql`r.v #>> '{}'`;
  if (column === 'brand_id') {
    // A brand deleted since the change cannot come back: the product keeps none, as the deletion left it.
    return sql`(SELECT b.id FROM brands b WHERE b.organization_id = ${organizationId} AND b.id = (r.v #>> '{}')::int)`;
  }
  return sql`ARRAY(SELECT jsonb_array_elements_text(r.v))`;
}

const idArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

export class BulkRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): BulkRepository {
    return new BulkRepository(tx);
  }

  /** The products the change is for, locked (at most `limit`; the caller reads one more to tell there were too many). */
  async lockTargets(organizationId: number, filters: ProductFilters, limit: number): Promise<number[]> {
    const result = await this.db.execute(sql`
      SELECT p.id FROM products p WHERE ${productWhere(organizationId, filters)} ORDER BY p.id LIMIT ${limit} FOR UPDATE`);
    return rowsOf<{ id: number }>(result).map((r) => r.id);
  }

  /** A column action over the targets: the rows not already at the value change; answers their previous values. */
  async applyColumn(organizationId: number, ids: number[], action: BulkAction, value: unknown): Promise<PreviousValue[]> {
    const { column, set, differs } = columnChange(action, value);
    const col = sql.raw(column);
    const result = await this.db.execute(sql`
      WITH old AS (
        SELECT p.id, to_jsonb(p.${col}) AS v FROM products p
        WHERE p.organization_id = ${organizationId} AND p.id = ANY(${idArray(ids)}) AND ${differs})
      UPDATE products p SET ${col} = ${set}, updated_at = now() FROM old WHERE p.id = old.id
      RETURNING old.id, old.v`);
    return rowsOf<PreviousValue>(result).sort((a, b) => a.id - b.id);
  }

  /** Puts a column action's previous values back. */
  async restoreColumn(organizationId: number, action: BulkAction, previous: PreviousValue[]): Promise<void> {
    if (previous.length === 0) return;
    if (!COLUMN_OF[action]) throw new Error(`not a column action: ${action}`);
    const column = COLUMN_OF[action] as string;
    await this.db.execute(sql`
      UPDATE products p SET ${sql.raw(column)} = ${restoredValue(column, organizationId)}, updated_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(previous)}::jsonb) AS r(id int, v jsonb)
      WHERE p.id = r.id AND p.organization_id = ${organizationId}`);
  }

  /** Adds the category to the targets (or removes it); answers the products it was added to (removed from). */
  async changeCategory(ids: number[], categoryId: number, add: boolean): Promise<number[]> {
    const result = add
      ? await this.db.execute(sql`
          INSERT INTO product_categories (product_id, category_id) SELECT id, ${categoryId}::int FROM unnest(${idArray(ids)}) AS id
          ON CONFLICT DO NOTHING RETURNING product_id`)
      : await this.db.execute(sql`
          DELETE FROM product_categories WHERE category_id = ${categoryId} AND product_id = ANY(${idArray(ids)}) RETURNING product_id`);
    const changed = rowsOf<{ product_id: number }>(result)
      .map((r) => r.product_id)
      .sort((a, b) => a - b);
    await this.touch(changed);
    return changed;
  }

  /** Undoes a category action: removes what it added, adds back what it removed (if the category still exists). */
  async restoreCategory(organizationId: number, ids: number[], categoryId: number, added: boolean): Promise<void> {
    if (ids.length === 0) return;
    if (added) {
      await this.db.execute(sql`DELETE FROM product_categories WHERE category_id = ${categoryId} AND product_id = ANY(${idArray(ids)})`);
    } else {
      await this.db.execute(sql`
        INSERT INTO product_categories (product_id, category_id)
        SELECT p.id, c.id FROM products p JOIN categories c ON c.id = ${categoryId} AND c.organization_id = ${organizationId}
        WHERE p.organization_id = ${organizationId} AND p.id = ANY(${idArray(ids)})
        ON CONFLICT DO NOTHING`);
    }
    await this.touch(ids);
  }

  private async touch(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.db.execute(sql`UPDATE products SET updated_at = now() WHERE id = ANY(${idArray(ids)})`);
  }

  async insertChange(organizationId: number, action: BulkAction, value: unknown, previous: PreviousValue[]): Promise<number> {
    const result = await this.db.execute(sql`
      INSERT INTO product_bulk_changes (organization_id, action, value, product_count, previous)
      VALUES (${organizationId}, ${action}, ${JSON.stringify(value ?? null)}::jsonb, ${previous.length}, ${JSON.stringify(previous)}::jsonb)
      RETURNING id`);
    return rowsOf<{ id: number }>(result)[0].id;
  }

  /** Forgets the organization's bulk changes made more than `days` days ago: they can no longer be undone. */
  async forgetOlderThan(organizationId: number, days: number): Promise<void> {
    await this.db.execute(sql`
      DELETE FROM product_bulk_changes WHERE organization_id = ${organizationId} AND created_at < now() - make_interval(days => ${days}::int)`);
  }

  /** A bulk change of the organization, locked for its undo; null when none (or forgotten). */
  async lockChange(organizationId: number, id: number): Promise<BulkChangeRow | null> {
    const result = await this.db.execute(sql`
      SELECT id, action, value, previous, undone_at IS NOT NULL AS undone FROM product_bulk_changes
      WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`);
    return rowsOf<BulkChangeRow>(result)[0] ?? null;
  }

  async markUndone(id: number): Promise<void> {
    await this.db.execute(sql`UPDATE product_bulk_changes SET undone_at = now() WHERE id = ${id}`);
  }

  /** Whether the category is the organization's. */
  async categoryExists(organizationId: number, id: number): Promise<boolean> {
    const result = await this.db.execute(sql`SELECT 1 FROM categories WHERE organization_id = ${organizationId} AND id = ${id}`);
    return rowsOf(result).length > 0;
  }

  /** Whether the brand is the organization's. */
  async brandExists(organizationId: number, id: number): Promise<boolean> {
    const result = await this.db.execute(sql`SELECT 1 FROM brands WHERE organization_id = ${organizationId} AND id = ${id}`);
    return rowsOf(result).length > 0;
  }
}
