// The only place with SQL for stock levels per warehouse, the products.stock they add up to, and barcode lookups.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { products, productStock, warehouses } from '../pim.tables.js';
import { rowsOf } from '../../db/rows.js';
import type { WarehouseStock } from './stock.schemas.js';

export class StockRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): StockRepository {
    return new StockRepository(tx);
  }

  /**
   * A product's levels by warehouse, ordered by warehouse code: its own, or for a product with variants the sum of its
   * variants' levels per warehouse (a product has one kind or the other, never both).
   */
  async levels(productId: number): Promise<WarehouseStock[]> {
    const result = await this.db.execute(sql`
      SELECT w.id AS warehouse_id, w.code, w.name, sum(l.quantity)::int AS quantity
      FROM (SELECT s.warehouse_id, s.quantity FROM product_stock s WHERE s.product_id = ${productId}
            UNION ALL
            SELECT vs.warehouse_id, vs.quantity FROM variant_stock vs JOIN variants v ON v.id = vs.variant_id WHERE v.product_id = ${productId}) l
      JOIN warehouses w ON w.id = l.warehouse_id
      GROUP BY w.id, w.code, w.name
      ORDER BY w.code`);
    return rowsOf<WarehouseStock>(result).map((r) => ({ ...r, quantity: Number(r.quantity) }));
  }

  async hasLevels(productId: number): Promise<boolean> {
    const rows = await this.db.select({ productId: productStock.productId }).from(productStock).where(eq(productStock.productId, productId)).limit(1);
    return rows.length > 0;
  }

  /** products.stock (null when the organization has no such product). */
  async productStock(organizationId: number, productId: number): Promise<number | null> {
    const [row] = await this.db
      .select({ stock: products.stock })
      .from(products)
      .where(and(eq(products.organizationId, organizationId), eq(products.id, productId)));
    return row?.stock ?? null;
  }

  /** Locks the warehouse against deletion until the transaction ends; false when the organization has no such warehouse. */
  async shareWarehouse(organizationId: number, warehouseId: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: warehouses.id })
      .from(warehouses)
      .where(and(eq(warehouses.organizationId, organizationId), eq(warehouses.id, warehouseId)))
      .for('share');
    return rows.length > 0;
  }

  /** Locks product rows (in id order, so concurrent writers cannot deadlock); returns the ids found in the organization. */
  async lockProducts(organizationId: number, productIds: number[]): Promise<number[]> {
    if (productIds.length === 0) return [];
    const rows = await this.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.organizationId, organizationId), inArray(products.id, productIds)))
      .orderBy(asc(products.id))
      .for('update');
    return rows.map((r) => r.id);
  }

  async upsertLevel(productId: number, warehouseId: number, quantity: number): Promise<void> {
    await this.db
      .insert(productStock)
      .values({ productId, warehouseId, quantity })
      .onConflictDoUpdate({ target: [productStock.productId, productStock.warehouseId], set: { quantity, updatedAt: sql`now()` } });
  }

  /** The sum of a product's levels (exact, as a bigint may exceed an int). */
  async levelTotal(productId: number): Promise<number> {
    const result = await this.db.execute(sql`SELECT coalesce(sum(quantity), 0)::text AS total FROM product_stock WHERE product_id = ${productId}`);
    return Number(rowsOf<{ total: string }>(result)[0].total);
  }

  async setProductStock(productId: number, stock: number): Promise<void> {
    await this.db.update(products).set({ stock, updatedAt: sql`now()` }).where(eq(products.id, productId));
  }

  /** Products holding a level in the warehouse. */
  async productsIn(warehouseId: number): Promise<number[]> {
    const rows = await this.db
      .select({ productId: productStock.productId })
      .from(productStock)
      .where(eq(productStock.warehouseId, warehouseId))
      .orderBy(asc(productStock.productId));
    return rows.map((r) => r.productId);
  }

  /**
   * Sets each product's stock to what the model says (the sum of its variants' stock_quantity when it has variants, else
   * of its remaining levels; 0 when none remain) and bumps updated_at.
   */
  async recompute(productIds: number[]): Promise<void> {
    if (productIds.length === 0) return;
    await this.db
      .update(products)
      .set({
        // Qualified by hand: drizzle writes a column of the updated table without its table's name.
        stock: sql`(CASE WHEN EXISTS (SELECT 1 FROM variants v WHERE v.product_id = "products"."id")
          THEN (SELECT coalesce(sum(v.stock_quantity), 0) FROM variants v WHERE v.product_id = "products"."id")
          ELSE (SELECT coalesce(sum(s.quantity), 0) FROM product_stock s WHERE s.product_id = "products"."id") END)::int`,
        updatedAt: sql`now()`,
      })
      .where(inArray(products.id, productIds));
  }

  /**
   * The product whose EAN is one of `forms` (the spellings of one GTIN), through the unique (organization_id, ean)
   * index; the exact spelling wins, then the lowest id.
   */
  async productIdByGtin(organizationId: number, forms: string[], exact: string): Promise<number | null> {
    const [row] = await this.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.organizationId, organizationId), inArray(products.ean, forms)))
      .orderBy(sql`${products.ean} = ${exact} DESC`, asc(products.id))
      .limit(1);
    return row?.id ?? null;
  }
}
