// What `include=` adds to a product read (product-include.ts parses it), as SQL over the product `p`: its variants, its
// stock by warehouse, its translations; each built in the read's own statement (no query per product).
import { sql } from 'drizzle-orm';
import { SELLING_SQL_PAIRS } from './selling-fields.js';

/** A variant's levels (by warehouse code) as JSON, for the variant `v`: its `warehouse_stock`. */
export const VARIANT_LEVELS_SQL =
  sql.raw(`coalesce((SELECT json_agg(json_build_object('warehouse_id', w.id, 'code', w.code, 'name', w.name, 'quantity', vs.quantity) ORDER BY w.code)
    FROM variant_stock vs JOIN warehouses w ON w.id = vs.warehouse_id WHERE vs.variant_id = v.id), '[]'::json)`);

/** `include=variants`: the product's variants as GET /api/products/{id}/variants lists them (by position, then id). */
export const VARIANTS = sql`coalesce((SELECT json_agg(json_build_object(
      'id', v.id, 'product_id', v.product_id, 'sku', v.sku, 'name', v.name, 'price', v.price::text, 'sale_price', v.sale_price::text,
      'cost', v.cost::text, 'weight', v.weight::text, 'stock_quantity', v.stock_quantity, 'stock_status', v.stock_status,
      'is_enabled', v.is_enabled, 'position', v.position, 'image', v.image, 'attributes', v.attributes,
      ${sql.raw(SELLING_SQL_PAIRS('v'))}, 'warehouse_stock', ${VARIANT_LEVELS_SQL}) ORDER BY v.position, v.id)
    FROM variants v WHERE v.product_id = p.id), '[]'::json) AS variants`;

/**
 * `include=warehouse_stock`: the product's levels as GET /api/products/{id}/stock lists them (by warehouse code): its own,
 * or with variants their levels summed per warehouse.
 */
export const WAREHOUSE_STOCK = sql`coalesce((SELECT json_agg(json_build_object('warehouse_id', w.id, 'code', w.code, 'name', w.name, 'quantity', l.quantity) ORDER BY w.code)
    FROM (SELECT u.warehouse_id, sum(u.quantity)::int AS quantity
          FROM (SELECT s.warehouse_id, s.quantity FROM product_stock s WHERE s.product_id = p.id
                UNION ALL
                SELECT vs.warehouse_id, vs.quantity FROM variant_stock vs JOIN variants pv ON pv.id = vs.variant_id WHERE pv.product_id = p.id) u
          GROUP BY u.warehouse_id) l
    JOIN warehouses w ON w.id = l.warehouse_id), '[]'::json) AS warehouse_stock`;

/**
 * `include=translations`: every translation of the product by locale, each with the fields it has (a null field is left
 * out): `{"de": {"name": …, "seo_title": …}}`, `{}` when it has none.
 */
export const TRANSLATIONS = sql`coalesce((SELECT json_object_agg(t.locale, json_strip_nulls(json_build_object(
      'name', t.name, 'description', t.description, 'short_description', t.short_description,
      'seo_title', t.seo_title, 'seo_description', t.seo_description)) ORDER BY t.locale)
    FROM product_translations t WHERE t.product_id = p.id), '{}'::json) AS translations`;
