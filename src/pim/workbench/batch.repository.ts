// The only place with SQL for the bulk-edit grid's batch: many products, each with its own changes, in one statement.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import type { BatchRowInput } from './bulk.schemas.js';

/** Each batch field, its column and the cast of its JSON text. */
const FIELDS: [field: string, column: string, cast: string][] = [
  ['name', 'name', 'text'],
  ['price', 'price', 'numeric'],
  ['sale_price', 'sale_price', 'numeric'],
  ['compare_at_price', 'compare_at_price', 'numeric'],
  ['stock', 'stock', 'int'],
  ['status', 'status', 'text'],
];

export class BatchRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): BatchRepository {
    return new BatchRepository(tx);
  }

  /** The organization's products among `ids`, locked, with whether each has stock per warehouse. */
  async lockProducts(organizationId: number, ids: number[]): Promise<Map<number, { hasLevels: boolean; hasVariants: boolean }>> {
    const result = await this.db.execute(sql`
      SELECT p.id, EXISTS (SELECT 1 FROM product_stock s WHERE s.product_id = p.id) AS has_levels,
             EXISTS (SELECT 1 FROM variants v WHERE v.product_id = p.id) AS has_variants FROM products p
      WHERE p.organization_id = ${organizationId} AND p.id = ANY(${`{${ids.join(',')}}`}::int[]) ORDER BY p.id FOR UPDATE`);
    return new Map(
      rowsOf<{ id: number; has_levels: boolean; has_variants: boolean }>(result).map((r) => [r.id, { hasLevels: r.has_levels, hasVariants: r.has_variants }]),
    );
  }

  /** Writes every row's fields (a field a row leaves out keeps its value) in one UPDATE; answers the ids written. */
  async update(organizationId: number, rows: BatchRowInput[]): Promise<number[]> {
    const sets = FIELDS.map(
      ([field, column, cast]) => sql`${sql.raw(column)} = CASE WHEN r.j ? ${field} THEN (r.j ->> ${field})::${sql.raw(cast)} ELSE p.${sql.raw(column)} END`,
    );
    const result = await this.db.execute(sql`
      UPDATE products p SET ${sql.join(sets, sql`, `)}, updated_at = now()
      FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS r(j)
      WHERE p.organization_id = ${organizationId} AND p.id = (r.j ->> 'id')::int
      RETURNING p.id`);
    return rowsOf<{ id: number }>(result)
      .map((r) => r.id)
      .sort((a, b) => a - b);
  }
}
