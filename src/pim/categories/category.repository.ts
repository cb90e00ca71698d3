// The only place with SQL for categories and product-category assignment.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { runPrepared } from '../../db/prepared.js';
import { isoUtc } from '../sql.js';
import { rowsOf } from '../../db/rows.js';
import type { CategoryView } from './category.schemas.js';

/**
 * A category as two pieces of its JSON record, rendered by PostgreSQL: `head` holds id, name, description, parent_id
 * and position, `tail` product_count, created_at and updated_at (each a comma-separated list of members without
 * braces). The service adds level, path and children_count, which need the whole tree.
 */
export interface CategoryFragment {
  id: number;
  parent_id: number | null;
  head: string;
  tail: string;
}

/** What a write needs to know about a category. */
export interface CategoryRef {
  id: number;
  parent_id: number | null;
  position: number;
  name: string;
}

/**
 * A timestamptz as a JSON string in the format of isoUtc(): to_json renders the ISO form ("2026-01-02T03:04:05.678901"),
 * cut after the seconds. At 20,000 values per tree read it costs half of to_char.
 */
const isoJson = (column: string) => sql`left(to_json(${sql.raw(column)} at time zone 'UTC')::text, 20) || 'Z"'`;

/** Key space of the per-organization advisory lock that serializes category writes ('CATG'). */
const LOCK_CLASS = 0x43415447;

/** `{1,2,3}`: an int[] literal, sent as one text parameter (pg and PGlite alike). */
const intArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

export class CategoryRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): CategoryRepository {
    return new CategoryRepository(tx);
  }

  private async rows<T>(statement: SQL): Promise<T[]> {
    return rowsOf<T>(await this.db.execute(statement));
  }

  /**
   * Every category of the organization in one statement, ordered by (parent, position, id) with the roots first, as
   * JSON fragments: two strings per row instead of eight values keeps a 10,000-category read cheap in allocations.
   * Products are counted with one grouped pass over the organization's links rather than a probe per category.
   */
  async fragments(organizationId: number): Promise<CategoryFragment[]> {
    const result = await runPrepared(
      this.db,
      sql`
      SELECT c.id, c.parent_id,
             '"id":' || c.id || ',"name":' || to_json(c.name)::text || ',"description":' || coalesce(to_json(c.description)::text, 'null')
               || ',"parent_id":' || coalesce(c.parent_id::text, 'null') || ',"position":' || c.position AS head,
             '"product_count":' || coalesce(pc.n, 0) || ',"created_at":' || ${isoJson('c.created_at')} || ',"updated_at":'
               || ${isoJson('c.updated_at')} AS tail
      FROM categories c
      LEFT JOIN (SELECT l.category_id, count(*) AS n FROM product_categories l JOIN categories o ON o.id = l.category_id
                 WHERE o.organization_id = ${organizationId} GROUP BY l.category_id) pc ON pc.category_id = c.id
      WHERE c.organization_id = ${organizationId}
      ORDER BY c.parent_id NULLS FIRST, c.position, c.id`,
    );
    return rowsOf<CategoryFragment>(result);
  }

  /** Full records of some categories: the path walks up from each one (a few index probes per level). */
  private async records(organizationId: number, condition: SQL): Promise<CategoryView[]> {
    const result = await runPrepared(
      this.db,
      sql`
      WITH RECURSIVE sel AS (SELECT * FROM categories c WHERE c.organization_id = ${organizationId} AND ${condition}),
      up AS (
        SELECT s.id, s.parent_id AS next, ARRAY[s.id] AS path FROM sel s
        UNION ALL
        SELECT up.id, c.parent_id, c.id || up.path FROM up JOIN categories c ON c.id = up.next WHERE NOT c.id = ANY(up.path)
      )
      SELECT s.id, s.name, s.description, s.parent_id, s.position, cardinality(up.path) - 1 AS level, up.path,
             (SELECT count(*)::int FROM categories k WHERE k.organization_id = s.organization_id AND k.parent_id = s.id) AS children_count,
             (SELECT count(*)::int FROM product_categories l WHERE l.category_id = s.id) AS product_count,
             ${isoUtc('s.created_at')} AS created_at, ${isoUtc('s.updated_at')} AS updated_at
      FROM sel s JOIN up ON up.id = s.id AND up.next IS NULL
      ORDER BY s.parent_id NULLS FIRST, s.position, s.id`,
    );
    return rowsOf<CategoryView>(result);
  }

  async find(organizationId: number, id: number): Promise<CategoryView | null> {
    return (await this.records(organizationId, sql`c.id = ${id}`))[0] ?? null;
  }

  /** The categories directly under `parentId` (null: the roots). */
  childrenOf(organizationId: number, parentId: number | null): Promise<CategoryView[]> {
    return this.records(organizationId, parentId === null ? sql`c.parent_id IS NULL` : sql`c.parent_id = ${parentId}`);
  }

  /** Serializes the organization's category writes until the transaction ends (moves, renumbering, cycle checks). */
  async lock(organizationId: number): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, ${organizationId}::int)`);
  }

  async ref(organizationId: number, id: number): Promise<CategoryRef | null> {
    const [row] = await this.rows<CategoryRef>(
      sql`SELECT id, parent_id, position, name FROM categories WHERE organization_id = ${organizationId} AND id = ${id}`,
    );
    return row ?? null;
  }

  /** Ids from the root down to and including `id`. */
  async pathOf(id: number): Promise<number[]> {
    const [row] = await this.rows<{ path: number[] }>(sql`
      WITH RECURSIVE up AS (
        SELECT c.parent_id AS next, ARRAY[c.id] AS path FROM categories c WHERE c.id = ${id}
        UNION ALL
        SELECT c.parent_id, c.id || up.path FROM up JOIN categories c ON c.id = up.next WHERE NOT c.id = ANY(up.path)
      )
      SELECT path FROM up WHERE next IS NULL`);
    return row?.path ?? [];
  }

  /** Levels below `id` in its subtree (0 for a leaf). */
  async subtreeHeight(organizationId: number, id: number): Promise<number> {
    const [row] = await this.rows<{ height: number }>(sql`
      WITH RECURSIVE down AS (
        SELECT c.id, 0 AS depth FROM categories c WHERE c.organization_id = ${organizationId} AND c.parent_id = ${id}
        UNION ALL
        SELECT c.id, down.depth + 1 FROM down JOIN categories c ON c.organization_id = ${organizationId} AND c.parent_id = down.id
        WHERE down.depth < 1000
      )
      SELECT coalesce(max(depth) + 1, 0)::int AS height FROM down`);
    return row.height;
  }

  /** Ids of the categories under `parentId` (null: the roots) in their current order. */
  async siblingIds(organizationId: number, parentId: number | null): Promise<number[]> {
    const rows = await this.rows<{ id: number }>(sql`
      SELECT id FROM categories
      WHERE organization_id = ${organizationId} AND ${parentId === null ? sql`parent_id IS NULL` : sql`parent_id = ${parentId}`}
      ORDER BY position, id`);
    return rows.map((r) => r.id);
  }

  async countChildren(organizationId: number, id: number): Promise<number> {
    const [row] = await this.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM categories WHERE organization_id = ${organizationId} AND parent_id = ${id}`,
    );
    return row.n;
  }

  async insert(organizationId: number, values: { name: string; description: string | null; parentId: number | null; position: number }): Promise<number> {
    const [row] = await this.rows<{ id: number }>(sql`
      INSERT INTO categories (organization_id, parent_id, name, description, position)
      VALUES (${organizationId}, ${values.parentId}, ${values.name}, ${values.description}, ${values.position})
      RETURNING id`);
    return row.id;
  }

  async update(
    organizationId: number,
    id: number,
    values: { name?: string; description?: string | null; parentId?: number | null; position?: number },
  ): Promise<void> {
    const set: SQL[] = [sql`updated_at = now()`];
    if (values.name !== undefined) set.push(sql`name = ${values.name}`);
    if (values.description !== undefined) set.push(sql`description = ${values.description}`);
    if (values.parentId !== undefined) set.push(sql`parent_id = ${values.parentId}`);
    if (values.position !== undefined) set.push(sql`position = ${values.position}`);
    await this.db.execute(sql`UPDATE categories SET ${sql.join(set, sql`, `)} WHERE organization_id = ${organizationId} AND id = ${id}`);
  }

  /** Gives `ids` the positions 0..n-1 in their order; only rows whose position changes are written (and get updated_at). */
  async renumber(organizationId: number, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.execute(sql`
      UPDATE categories c SET position = (v.ord - 1)::int, updated_at = now()
      FROM unnest(${intArray(ids)}) WITH ORDINALITY AS v(id, ord)
      WHERE c.organization_id = ${organizationId} AND c.id = v.id AND c.position <> v.ord - 1`);
  }

  async delete(organizationId: number, id: number): Promise<void> {
    await this.db.execute(sql`DELETE FROM categories WHERE organization_id = ${organizationId} AND id = ${id}`);
  }

  /** Moves updated_at of every product assigned to the category (its `categories` is about to change); returns how many. */
  async touchProductsOf(categoryId: number): Promise<number> {
    const rows = await this.rows<{ id: number }>(sql`
      UPDATE products SET updated_at = now()
      WHERE id IN (SELECT product_id FROM product_categories WHERE category_id = ${categoryId}) RETURNING id`);
    return rows.length;
  }

  /** Which of `ids` are not products of the organization. */
  async unknownProducts(organizationId: number, ids: number[]): Promise<number[]> {
    const rows = await this.rows<{ id: number }>(sql`
      SELECT v.id FROM unnest(${intArray(ids)}) AS v(id)
      WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.organization_id = ${organizationId} AND p.id = v.id)
      ORDER BY v.id`);
    return rows.map((r) => r.id);
  }

  /** Links the products to the category (existing links stay) and moves updated_at of the newly linked ones; returns how many. */
  async assign(categoryId: number, productIds: number[]): Promise<number> {
    const rows = await this.rows<{ id: number }>(sql`
      WITH added AS (
        INSERT INTO product_categories (product_id, category_id)
        SELECT v.id, ${categoryId}::int FROM unnest(${intArray(productIds)}) AS v(id)
        ON CONFLICT DO NOTHING RETURNING product_id
      )
      UPDATE products SET updated_at = now() WHERE id IN (SELECT product_id FROM added) RETURNING id`);
    return rows.length;
  }

  async productCount(categoryId: number): Promise<number> {
    const [row] = await this.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM product_categories WHERE category_id = ${categoryId}`);
    return row.n;
  }
}
