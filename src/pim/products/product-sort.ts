// `sort` on GET /api/products (beyond the spec): one key, `-` for descending. Each key is served by an index of
// (organization_id, column, id), so a page of 100,000 products is an index walk, not a sort of the whole catalogue.
import { sql, type SQL } from 'drizzle-orm';

export const SORT_KEYS = ['id', 'name', 'sku', 'price', 'stock', 'status', 'updated_at'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface ProductSort {
  key: SortKey;
  descending: boolean;
}

/** The query parameter's pattern: a key, optionally after `-`. */
export const SORT_PATTERN = `^-?(${SORT_KEYS.join('|')})$`;

export const DEFAULT_SORT: ProductSort = { key: 'id', descending: false };

/** `-price` → {key: 'price', descending: true}; the schema already refused anything else. */
export function parseSort(raw: string | undefined): ProductSort {
  if (!raw) return DEFAULT_SORT;
  const descending = raw.startsWith('-');
  return { key: (descending ? raw.slice(1) : raw) as SortKey, descending };
}

/**
 * ORDER BY over `products p`: the column, then the id (ties in a stable order across pages), both in one direction so
 * that the index is walked forwards or backwards. SKUs are unique in an organization, so the SKU alone is the order.
 * Descending puts products without a price first (PostgreSQL's NULLS FIRST for DESC, the index's backward order).
 */
export function sortOrder(sort: ProductSort): SQL {
  const dir = sql.raw(sort.descending ? 'DESC' : 'ASC');
  if (sort.key === 'id') return sql`p.id ${dir}`;
  if (sort.key === 'sku') return sql`p.sku ${dir}`;
  return sql`${sql.raw(`p.${sort.key}`)} ${dir}, p.id ${dir}`;
}
