// The only place with SQL for stock levels per variant and warehouse, the variants' stock_quantity they add up to, and a
// product's stock as the sum of its variants'. One model: a variant with levels has stock_quantity = their sum; a product
// with variants has stock = the sum of its variants' stock_quantity and no levels of its own (stock.repository.ts).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { productStock, variants, variantStock, warehouses } from '../pim.tables.js';
import type { WarehouseStock } from './stock.schemas.js';

/** A variant's status after a new quantity: on backorder stays so, else it follows the quantity (as a PATCH does). */
const rederivedStatus = (quantity: unknown) =>
  sql`CASE WHEN ${variants.stockStatus} = 'on_backorder' THEN ${variants.stockStatus} WHEN ${quantity} > 0 THEN 'in_stock' ELSE 'out_of_stock' END`;

export interface VariantRow {
  id: number;
  sku: string;
  name: string;
  stock_quantity: number;
  stock_status: string;
}

export class VariantStockRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): VariantStockRepository {
    return new VariantStockRepository(tx);
  }

  /** The product's variants (by position, then id) with their stock. */
  variantsOf(productId: number): Promise<VariantRow[]> {
    return this.db
      .select({ id: variants.id, sku: variants.sku, name: variants.name, stock_quantity: variants.stockQuantity, stock_status: variants.stockStatus })
      .from(variants)
      .where(eq(variants.productId, productId))
      .orderBy(asc(variants.position), asc(variants.id));
  }

  /** The variant of this product and organization, locked until the transaction ends; null when there is none. */
  async lockVariant(organizationId: number, productId: number, variantId: number): Promise<VariantRow | null> {
    const [row] = await this.db
      .select({ id: variants.id, sku: variants.sku, name: variants.name, stock_quantity: variants.stockQuantity, stock_status: variants.stockStatus })
      .from(variants)
      .where(and(eq(variants.organizationId, organizationId), eq(variants.productId, productId), eq(variants.id, variantId)))
      .for('update');
    return row ?? null;
  }

  /** The levels of the product's variants, by variant id (each list by warehouse code). */
  async levelsByVariant(productId: number): Promise<Map<number, WarehouseStock[]>> {
    const rows = await this.db
      .select({ variantId: variantStock.variantId, warehouse_id: warehouses.id, code: warehouses.code, name: warehouses.name, quantity: variantStock.quantity })
      .from(variantStock)
      .innerJoin(variants, eq(variants.id, variantStock.variantId))
      .innerJoin(warehouses, eq(warehouses.id, variantStock.warehouseId))
      .where(eq(variants.productId, productId))
      .orderBy(asc(warehouses.code));
    const out = new Map<number, WarehouseStock[]>();
    for (const { variantId, ...level } of rows) out.set(variantId, [...(out.get(variantId) ?? []), level]);
    return out;
  }

  async hasLevels(variantId: number): Promise<boolean> {
    const rows = await this.db.select({ id: variantStock.variantId }).from(variantStock).where(eq(variantStock.variantId, variantId)).limit(1);
    return rows.length > 0;
  }

  async upsertLevel(variantId: number, warehouseId: number, quantity: number): Promise<void> {
    await this.db
      .insert(variantStock)
      .values({ variantId, warehouseId, quantity })
      .onConflictDoUpdate({ target: [variantStock.variantId, variantStock.warehouseId], set: { quantity, updatedAt: sql`now()` } });
  }

  /** The sum of a variant's levels (exact, as a bigint may exceed an int). */
  async levelTotal(variantId: number): Promise<number> {
    const result = await this.db.execute(sql`SELECT coalesce(sum(quantity), 0)::text AS total FROM variant_stock WHERE variant_id = ${variantId}`);
    return Number(rowsOf<{ total: string }>(result)[0].total);
  }

  /** Sets the variant's stock_quantity, its status re-derived unless it is on backorder. */
  async setVariantStock(variantId: number, quantity: number): Promise<void> {
    await this.db
      .update(variants)
      .set({ stockQuantity: quantity, stockStatus: rederivedStatus(quantity), updatedAt: sql`now()` })
      .where(eq(variants.id, variantId));
  }

  /** Does the product have variants? */
  async hasVariants(productId: number): Promise<boolean> {
    const rows = await this.db.select({ id: variants.id }).from(variants).where(eq(variants.productId, productId)).limit(1);
    return rows.length > 0;
  }

  /** The sum of the product's variants' stock_quantity (exact), null when it has no variant. */
  async variantTotal(productId: number): Promise<number | null> {
    const result = await this.db.execute(
      sql`SELECT count(*)::int AS n, coalesce(sum(stock_quantity), 0)::text AS total FROM variants WHERE product_id = ${productId}`,
    );
    const [row] = rowsOf<{ n: number; total: string }>(result);
    return Number(row.n) === 0 ? null : Number(row.total);
  }

  /** The product's own levels' largest quantity (null: it has none). */
  async largestProductLevel(productId: number): Promise<number | null> {
    const [row] = await this.db
      .select({ max: sql<number | null>`max(${productStock.quantity})` })
      .from(productStock)
      .where(eq(productStock.productId, productId));
    return row?.max === null || row?.max === undefined ? null : Number(row.max);
  }

  async deleteProductLevels(productId: number): Promise<void> {
    await this.db.delete(productStock).where(eq(productStock.productId, productId));
  }

  /** Variants holding a level in the warehouse, with their products. */
  async variantsIn(warehouseId: number): Promise<{ variantId: number; productId: number }[]> {
    return this.db
      .select({ variantId: variantStock.variantId, productId: variants.productId })
      .from(variantStock)
      .innerJoin(variants, eq(variants.id, variantStock.variantId))
      .where(eq(variantStock.warehouseId, warehouseId))
      .orderBy(asc(variantStock.variantId));
  }

  /** Sets each variant's stock_quantity to the sum of its remaining levels (0 when none), its status re-derived. */
  async recomputeVariants(variantIds: number[]): Promise<void> {
    if (variantIds.length === 0) return;
    const total = sql`(SELECT coalesce(sum(s.quantity), 0)::int FROM variant_stock s WHERE s.variant_id = "variants"."id")`;
    await this.db
      .update(variants)
      .set({ stockQuantity: total, stockStatus: rederivedStatus(total), updatedAt: sql`now()` })
      .where(inArray(variants.id, variantIds));
  }
}
