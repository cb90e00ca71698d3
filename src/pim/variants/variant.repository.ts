import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { variants } from '../pim.tables.js';
import type { VariantView } from './variant.schemas.js';

export type VariantColumns = Partial<typeof variants.$inferInsert>;

const view = {
  id: variants.id,
  product_id: variants.productId,
  sku: variants.sku,
  name: variants.name,
  price: variants.price,
  sale_price: variants.salePrice,
  cost: variants.cost,
  weight: variants.weight,
  stock_quantity: variants.stockQuantity,
  stock_status: variants.stockStatus,
  is_enabled: variants.isEnabled,
  position: variants.position,
  image: variants.image,
  attributes: variants.attributes,
  barcode: variants.barcode,
  compare_at_price: variants.compareAtPrice,
  weight_unit: variants.weightUnit,
  inventory_policy: variants.inventoryPolicy,
  inventory_tracked: variants.inventoryTracked,
  taxable: variants.taxable,
  requires_shipping: variants.requiresShipping,
  sku_generated: variants.skuGenerated,
  /** Its levels by warehouse code (stock/variant-stock.repository.ts writes them); empty: stock_quantity is set directly. */
  warehouse_stock: sql<
    VariantView['warehouse_stock']
  >`coalesce((SELECT json_agg(json_build_object('warehouse_id', w.id, 'code', w.code, 'name', w.name, 'quantity', vs.quantity) ORDER BY w.code)
    FROM variant_stock vs JOIN warehouses w ON w.id = vs.warehouse_id WHERE vs.variant_id = "variants"."id"), '[]'::json)`,
};

export class VariantRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): VariantRepository {
    return new VariantRepository(tx);
  }

  listByProduct(organizationId: number, productId: number): Promise<VariantView[]> {
    return this.db
      .select(view)
      .from(variants)
      .where(and(eq(variants.organizationId, organizationId), eq(variants.productId, productId)))
      .orderBy(asc(variants.position), asc(variants.id)) as Promise<VariantView[]>;
  }

  async find(organizationId: number, productId: number, id: number): Promise<VariantView | null> {
    const [row] = await this.db
      .select(view)
      .from(variants)
      .where(and(eq(variants.organizationId, organizationId), eq(variants.productId, productId), eq(variants.id, id)));
    return (row as VariantView | undefined) ?? null;
  }

  async nextPosition(productId: number): Promise<number> {
    const [row] = await this.db
      .select({ next: sql<number>`coalesce(max(${variants.position}) + 1, 0)::int` })
      .from(variants)
      .where(eq(variants.productId, productId));
    return row.next;
  }

  async skuHolder(organizationId: number, sku: string): Promise<number | null> {
    const [row] = await this.db
      .select({ id: variants.id })
      .from(variants)
      .where(and(eq(variants.organizationId, organizationId), eq(variants.sku, sku)));
    return row?.id ?? null;
  }

  /** The organization's variant SKUs that begin with `prefix` (the SKUs an option matrix could collide with). */
  async skusStartingWith(organizationId: number, prefix: string): Promise<Set<string>> {
    const rows = await this.db
      .select({ sku: variants.sku })
      .from(variants)
      .where(and(eq(variants.organizationId, organizationId), sql`left(${variants.sku}, ${prefix.length}) = ${prefix}`));
    return new Set(rows.map((r) => r.sku));
  }

  /** Rows in one statement; their ids in the same order. */
  async insertMany(values: (typeof variants.$inferInsert)[]): Promise<number[]> {
    const rows = await this.db.insert(variants).values(values).returning({ id: variants.id });
    return rows.map((r) => r.id);
  }

  async insert(values: typeof variants.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(variants).values(values).returning({ id: variants.id });
    return row.id;
  }

  async update(organizationId: number, productId: number, id: number, columns: VariantColumns): Promise<boolean> {
    const rows = await this.db
      .update(variants)
      .set({ ...columns, updatedAt: sql`now()` })
      .where(and(eq(variants.organizationId, organizationId), eq(variants.productId, productId), eq(variants.id, id)))
      .returning({ id: variants.id });
    return rows.length > 0;
  }

  async delete(organizationId: number, productId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(variants)
      .where(and(eq(variants.organizationId, organizationId), eq(variants.productId, productId), eq(variants.id, id)))
      .returning({ id: variants.id });
    return rows.length > 0;
  }
}
