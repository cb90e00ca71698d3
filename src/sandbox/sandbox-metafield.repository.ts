// SQL for the sandbox's metafields: each product's metafields and the store's metafield definitions (which type a
// namespace and key must have, whether its values are unique). The product search by metafield value is
// product-filter.ts's.
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxMetafieldDefinitions, sandboxProductMetafields } from './product.tables.js';

export type MetafieldRow = typeof sandboxProductMetafields.$inferSelect;
export type DefinitionRow = typeof sandboxMetafieldDefinitions.$inferSelect;

export class SandboxMetafieldRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxMetafieldRepository {
    return new SandboxMetafieldRepository(tx);
  }

  async metafields(productId: number): Promise<MetafieldRow[]> {
    return this.db.select().from(sandboxProductMetafields).where(eq(sandboxProductMetafields.productId, productId)).orderBy(asc(sandboxProductMetafields.id));
  }

  /** Every metafield of these products, by product and id. */
  async metafieldsOfProducts(productIds: number[]): Promise<MetafieldRow[]> {
    if (productIds.length === 0) return [];
    return this.db
      .select()
      .from(sandboxProductMetafields)
      .where(inArray(sandboxProductMetafields.productId, productIds))
      .orderBy(asc(sandboxProductMetafields.productId), asc(sandboxProductMetafields.id));
  }

  /** Replaces the product's metafields (by namespace and key: an unchanged key keeps its id). */
  async replaceMetafields(
    storeId: number,
    productId: number,
    fields: { namespace: string; key: string; type: string; value: string }[],
    isNew = false,
  ): Promise<void> {
    const wanted = [...new Map(fields.map((f) => [`${f.namespace}\u0000${f.key}`, f])).values()];
    if (!isNew)
      await this.db.execute(sql`
      delete from sandbox_product_metafields m where m.product_id = ${productId}
        and not exists (select 1 from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as x(namespace text, key text) where x.namespace = m.namespace and x.key = m.key)`);
    if (wanted.length) {
      await this.db
        .insert(sandboxProductMetafields)
        .values(wanted.map((f) => ({ storeId, productId, ...f })))
        .onConflictDoUpdate({
          target: [sandboxProductMetafields.productId, sandboxProductMetafields.namespace, sandboxProductMetafields.key],
          set: { type: sql`excluded.type`, value: sql`excluded.value`, updatedAt: sql`now()` },
        });
    }
  }

  /** Whether any product of the store has a metafield with this namespace and key. */
  async hasMetafields(storeId: number, namespace: string, key: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxProductMetafields.id })
      .from(sandboxProductMetafields)
      .where(and(eq(sandboxProductMetafields.storeId, storeId), eq(sandboxProductMetafields.namespace, namespace), eq(sandboxProductMetafields.key, key)))
      .limit(1);
    return row !== undefined;
  }

  /** Another product of the store holding this metafield value. */
  async metafieldValueTaken(storeId: number, namespace: string, key: string, value: string, exceptProductId: number | null): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxProductMetafields.id })
      .from(sandboxProductMetafields)
      .where(
        and(
          eq(sandboxProductMetafields.storeId, storeId),
          eq(sandboxProductMetafields.namespace, namespace),
          eq(sandboxProductMetafields.key, key),
          eq(sandboxProductMetafields.value, value),
          exceptProductId === null ? undefined : ne(sandboxProductMetafields.productId, exceptProductId),
        ),
      )
      .limit(1);
    return !!row;
  }

  async definition(storeId: number, ownerType: string, namespace: string, key: string): Promise<DefinitionRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxMetafieldDefinitions)
      .where(
        and(
          eq(sandboxMetafieldDefinitions.storeId, storeId),
          eq(sandboxMetafieldDefinitions.ownerType, ownerType),
          eq(sandboxMetafieldDefinitions.namespace, namespace),
          eq(sandboxMetafieldDefinitions.key, key),
        ),
      );
    return row ?? null;
  }

  async definitions(storeId: number, ownerType: string): Promise<DefinitionRow[]> {
    return this.db
      .select()
      .from(sandboxMetafieldDefinitions)
      .where(and(eq(sandboxMetafieldDefinitions.storeId, storeId), eq(sandboxMetafieldDefinitions.ownerType, ownerType)));
  }

  /** A new definition; null when (owner type, namespace, key) is taken. */
  async insertDefinition(values: Omit<DefinitionRow, 'id' | 'createdAt'>): Promise<DefinitionRow | null> {
    const rows = await this.db.insert(sandboxMetafieldDefinitions).values(values).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }
}
