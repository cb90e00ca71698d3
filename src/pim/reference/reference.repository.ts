// Brands, suppliers and VAT rates: small per-organization lists a Product refers to.
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { brands, products, suppliers, vatRates } from '../pim.tables.js';

export interface NamedRow {
  id: number;
  name: string;
}
export interface VatRateRow extends NamedRow {
  rate: string;
  country_code: string;
}

/** The lists of one shape: each one's table and the products' reference to it. */
const NAMED_LISTS = {
  brand: { table: brands, productColumn: 'brandId' },
  supplier: { table: suppliers, productColumn: 'supplierId' },
} as const;

export type NamedList = keyof typeof NAMED_LISTS;

/** Brands and suppliers share one shape. */
export class NamedListRepository {
  private readonly table: typeof brands | typeof suppliers;
  /** The products' reference to this list. */
  private readonly productColumn: 'brandId' | 'supplierId';

  constructor(
    private readonly db: Db,
    private readonly kind: NamedList,
  ) {
    ({ table: this.table, productColumn: this.productColumn } = NAMED_LISTS[kind]);
  }

  with(tx: Db): NamedListRepository {
    return new NamedListRepository(tx, this.kind);
  }

  list(organizationId: number): Promise<NamedRow[]> {
    return this.db
      .select({ id: this.table.id, name: this.table.name })
      .from(this.table)
      .where(eq(this.table.organizationId, organizationId))
      .orderBy(asc(this.table.name), asc(this.table.id));
  }

  async findByName(organizationId: number, name: string): Promise<NamedRow | null> {
    const [row] = await this.db
      .select({ id: this.table.id, name: this.table.name })
      .from(this.table)
      .where(and(eq(this.table.organizationId, organizationId), eq(this.table.name, name)));
    return row ?? null;
  }

  async insert(organizationId: number, name: string): Promise<NamedRow> {
    const [row] = await this.db.insert(this.table).values({ organizationId, name }).returning({ id: this.table.id, name: this.table.name });
    return row;
  }

  /** Another row of the organization with this name (a rename must not collide). */
  async findOtherByName(organizationId: number, name: string, exceptId: number): Promise<NamedRow | null> {
    const [row] = await this.db
      .select({ id: this.table.id, name: this.table.name })
      .from(this.table)
      .where(and(eq(this.table.organizationId, organizationId), eq(this.table.name, name), ne(this.table.id, exceptId)));
    return row ?? null;
  }

  async rename(organizationId: number, id: number, name: string): Promise<NamedRow | null> {
    const [row] = await this.db
      .update(this.table)
      .set({ name })
      .where(and(eq(this.table.organizationId, organizationId), eq(this.table.id, id)))
      .returning({ id: this.table.id, name: this.table.name });
    return row ?? null;
  }

  /** Moves updated_at of the products that show this row (their brand or supplier object changed), for the delta sync. */
  async touchProducts(organizationId: number, id: number): Promise<void> {
    await this.db
      .update(products)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(products.organizationId, organizationId), eq(products[this.productColumn], id)));
  }
}

const vatView = { id: vatRates.id, name: vatRates.name, rate: vatRates.rate, country_code: vatRates.countryCode };

export class VatRateRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): VatRateRepository {
    return new VatRateRepository(tx);
  }

  list(organizationId: number): Promise<VatRateRow[]> {
    return this.db.select(vatView).from(vatRates).where(eq(vatRates.organizationId, organizationId)).orderBy(asc(vatRates.countryCode), asc(vatRates.name));
  }

  async find(organizationId: number, name: string, countryCode: string): Promise<VatRateRow | null> {
    const [row] = await this.db
      .select(vatView)
      .from(vatRates)
      .where(and(eq(vatRates.organizationId, organizationId), eq(vatRates.name, name), eq(vatRates.countryCode, countryCode)));
    return row ?? null;
  }

  async insert(organizationId: number, input: { name: string; rate: string; country_code: string }): Promise<VatRateRow> {
    const [row] = await this.db
      .insert(vatRates)
      .values({ organizationId, name: input.name, rate: input.rate, countryCode: input.country_code })
      .returning(vatView);
    return row;
  }

  async findOther(organizationId: number, name: string, countryCode: string, exceptId: number): Promise<VatRateRow | null> {
    const [row] = await this.db
      .select(vatView)
      .from(vatRates)
      .where(and(eq(vatRates.organizationId, organizationId), eq(vatRates.name, name), eq(vatRates.countryCode, countryCode), ne(vatRates.id, exceptId)));
    return row ?? null;
  }

  async update(organizationId: number, id: number, input: { name: string; rate: string; country_code: string }): Promise<VatRateRow | null> {
    const [row] = await this.db
      .update(vatRates)
      .set({ name: input.name, rate: input.rate, countryCode: input.country_code })
      .where(and(eq(vatRates.organizationId, organizationId), eq(vatRates.id, id)))
      .returning(vatView);
    return row ?? null;
  }

  async touchProducts(organizationId: number, id: number): Promise<void> {
    await this.db
      .update(products)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(products.organizationId, organizationId), eq(products.vatRateId, id)));
  }
}
