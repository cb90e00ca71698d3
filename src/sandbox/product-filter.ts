// The `products(query:)` search of the sandbox as SQL (its terms: handles, title, status, SKU, a metafield's value,
// free text), and the LIKE and numbered-handle matches the products' and collections' repositories share.
import { and, eq, exists, ilike, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxMetafieldDefinitions, sandboxProductMetafields, sandboxProducts, sandboxVariants } from './product.tables.js';

/** A value matched literally by LIKE/ILIKE (its `%`, `_` and `\` escaped). */
export const escapeLike = (s: string) => s.replace(/[%_\\]/g, '\\$&');

/** `column` equal to `base` or to `base-N` (handles made unique with a number, products' and collections' alike). */
export function handleOrNumbered(column: AnyColumn, base: string): SQL {
  return sql`(${column} = ${base} or ${column} ~ ${`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9]+$`})`;
}

/** Filters of `products(query:)`: `handle:x,y`, `title:x`, `status:x`, `sku:x`, a metafield's value, or free text on the title. */
export interface ProductFilter {
  /** Any of these handles. */
  handle?: string[];
  /**
   * `metafields.{namespace}.{key}:{value}`: products with that value. Shopify filters only by a metafield whose
   * definition has filtering enabled; the sandbox has no such switch, so it filters by any metafield that has a PRODUCT
   * definition (and by none without one: the term matches nothing).
   */
  metafield?: { namespace: string; key: string; value: string };
  title?: string;
  status?: string;
  sku?: string;
  text?: string;
}

/** The products of the store `f` selects (sku and metafield terms as subqueries built on `db`). */
export function productFilter(db: Db, storeId: number, f: ProductFilter): SQL | undefined {
  return and(
    eq(sandboxProducts.storeId, storeId),
    f.handle !== undefined ? inArray(sandboxProducts.handle, f.handle.length > 0 ? f.handle : ['']) : undefined,
    f.metafield !== undefined ? withMetafield(db, storeId, f.metafield) : undefined,
    f.title !== undefined ? ilike(sandboxProducts.title, escapeLike(f.title)) : undefined,
    f.status !== undefined ? eq(sandboxProducts.status, f.status.toUpperCase()) : undefined,
    f.text !== undefined ? ilike(sandboxProducts.title, `%${escapeLike(f.text)}%`) : undefined,
    f.sku !== undefined
      ? inArray(sandboxProducts.id, db.select({ id: sandboxVariants.productId }).from(sandboxVariants).where(eq(sandboxVariants.sku, f.sku)))
      : undefined,
  );
}

/** Products of the store carrying this metafield value, where the store has a PRODUCT definition for it. */
function withMetafield(db: Db, storeId: number, m: NonNullable<ProductFilter['metafield']>): SQL {
  const defined = db
    .select({ one: sql`1` })
    .from(sandboxMetafieldDefinitions)
    .where(
      and(
        eq(sandboxMetafieldDefinitions.storeId, storeId),
        eq(sandboxMetafieldDefinitions.ownerType, 'PRODUCT'),
        eq(sandboxMetafieldDefinitions.namespace, m.namespace),
        eq(sandboxMetafieldDefinitions.key, m.key),
      ),
    );
  const carrying = db
    .select({ id: sandboxProductMetafields.productId })
    .from(sandboxProductMetafields)
    .where(
      and(
        eq(sandboxProductMetafields.storeId, storeId),
        eq(sandboxProductMetafields.namespace, m.namespace),
        eq(sandboxProductMetafields.key, m.key),
        eq(sandboxProductMetafields.value, m.value),
      ),
    );
  return and(exists(defined), inArray(sandboxProducts.id, carrying))!;
}
