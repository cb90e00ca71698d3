// The only place with SQL for warehouses (their stock levels: stock/stock.repository.ts).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { warehouses } from '../pim.tables.js';
import { isoUtc } from '../sql.js';
import type { WarehouseView } from './warehouse.schemas.js';

export type WarehouseColumns = Partial<Pick<typeof warehouses.$inferInsert, 'code' | 'name' | 'countryCode'>>;

const view = {
  id: warehouses.id,
  code: warehouses.code,
  name: warehouses.name,
  country_code: warehouses.countryCode,
  created_at: sql<string>`${isoUtc(sql`${warehouses.createdAt}`)}`,
  updated_at: sql<string>`${isoUtc(sql`${warehouses.updatedAt}`)}`,
};

export class WarehouseRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): WarehouseRepository {
    return new WarehouseRepository(tx);
  }

  list(organizationId: number): Promise<WarehouseView[]> {
    return this.db.select(view).from(warehouses).where(eq(warehouses.organizationId, organizationId)).orderBy(asc(warehouses.code));
  }

  async find(organizationId: number, id: number): Promise<WarehouseView | null> {
    const [row] = await this.db
      .select(view)
      .from(warehouses)
      .where(and(eq(warehouses.organizationId, organizationId), eq(warehouses.id, id)));
    return row ?? null;
  }

  /** Locks the warehouse row until the transaction ends; false when the organization has no such warehouse. */
  async lock(organizationId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: warehouses.id })
      .from(warehouses)
      .where(and(eq(warehouses.organizationId, organizationId), eq(warehouses.id, id)))
      .for('update');
    return rows.length > 0;
  }

  async codeHolder(organizationId: number, code: string): Promise<number | null> {
    const [row] = await this.db
      .select({ id: warehouses.id })
      .from(warehouses)
      .where(and(eq(warehouses.organizationId, organizationId), eq(warehouses.code, code)));
    return row?.id ?? null;
  }

  async insert(organizationId: number, values: { code: string; name: string; countryCode: string | null }): Promise<number> {
    const [row] = await this.db
      .insert(warehouses)
      .values({ ...values, organizationId })
      .returning({ id: warehouses.id });
    return row.id;
  }

  /** False when the organization has no such warehouse. */
  async update(organizationId: number, id: number, columns: WarehouseColumns): Promise<boolean> {
    const rows = await this.db
      .update(warehouses)
      .set({ ...columns, updatedAt: sql`now()` })
      .where(and(eq(warehouses.organizationId, organizationId), eq(warehouses.id, id)))
      .returning({ id: warehouses.id });
    return rows.length > 0;
  }

  /** Deletes the warehouse; its stock levels go with it (ON DELETE CASCADE). */
  async delete(organizationId: number, id: number): Promise<void> {
    await this.db.delete(warehouses).where(and(eq(warehouses.organizationId, organizationId), eq(warehouses.id, id)));
  }
}
