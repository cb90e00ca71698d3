// SQL of the sandbox's inventory mutations: a variant's stock (sandbox_variants.inventory; see inventoryLevels in
// sandbox-inventory.service.ts for its keys) read under a row lock, written back, and the store's idempotency keys.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxIdempotencyKeys, sandboxProducts, sandboxVariants } from './product.tables.js';
import { sandboxLocations } from './store.tables.js';

export class SandboxInventoryRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxInventoryRepository {
    return new SandboxInventoryRepository(tx);
  }

  /** The store's location ids (read in the mutation's own transaction: on PGlite another connection would wait for it). */
  async locationIds(storeId: number): Promise<Set<number>> {
    const rows = await this.db.select({ id: sandboxLocations.id }).from(sandboxLocations).where(eq(sandboxLocations.storeId, storeId));
    return new Set(rows.map((r) => r.id));
  }

  /** The product of each of the store's items (an item's id is its variant's id); items of other stores are absent. */
  async productsOf(storeId: number, itemIds: number[]): Promise<Map<number, number>> {
    if (itemIds.length === 0) return new Map();
    const rows = await this.db
      .select({ id: sandboxVariants.id, productId: sandboxVariants.productId })
      .from(sandboxVariants)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxVariants.productId))
      .where(and(inArray(sandboxVariants.id, itemIds), eq(sandboxProducts.storeId, storeId)));
    return new Map(rows.map((r) => [r.id, r.productId]));
  }

  /** The item's stock by key, locked for this transaction; null when the store has no such item. */
  async lockedStock(storeId: number, itemId: number): Promise<Record<string, number> | null> {
    const rows = await this.db
      .select({ inventory: sandboxVariants.inventory })
      .from(sandboxVariants)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxVariants.productId))
      .where(and(eq(sandboxVariants.id, itemId), eq(sandboxProducts.storeId, storeId)))
      .for('update', { of: sandboxVariants });
    return rows[0]?.inventory ?? null;
  }

  async setStock(itemId: number, inventory: Record<string, number>): Promise<void> {
    await this.db.update(sandboxVariants).set({ inventory, updatedAt: sql`now()` }).where(eq(sandboxVariants.id, itemId));
  }

  /** The answer stored for an idempotency key, with the parameters it was given, or null. */
  async idempotent(storeId: number, key: string): Promise<{ field: string; response: { params: string; payload: unknown } } | null> {
    const [row] = await this.db
      .select()
      .from(sandboxIdempotencyKeys)
      .where(and(eq(sandboxIdempotencyKeys.storeId, storeId), eq(sandboxIdempotencyKeys.key, key)));
    return row ? { field: row.field, response: row.response as { params: string; payload: unknown } } : null;
  }

  async remember(storeId: number, key: string, field: string, params: string, payload: unknown): Promise<void> {
    await this.db.insert(sandboxIdempotencyKeys).values({ storeId, key, field, response: { params, payload } }).onConflictDoNothing();
  }

  /** A transaction-scoped advisory lock (the same keys as the product service's). */
  async lock(key: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
  }
}
