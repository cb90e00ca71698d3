// The only place with SQL for product attribute definitions and their use in products.attributes.
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { productAttributes, products } from '../pim.tables.js';
import { isoUtc } from '../sql.js';
import { rowsOf } from '../../db/rows.js';
import type { AttributeType, AttributeView } from './attribute.schemas.js';

export type AttributeColumns = Partial<
  Pick<typeof productAttributes.$inferInsert, 'code' | 'name' | 'type' | 'options' | 'isRequired' | 'requiredChannels' | 'metafield'>
>;

/** What validating a product's values needs of a definition. */
export interface AttributeDefinition {
  id: number;
  code: string;
  type: AttributeType;
  options: string[];
  isRequired: boolean;
}

const view = {
  id: productAttributes.id,
  code: productAttributes.code,
  name: productAttributes.name,
  type: productAttributes.type,
  options: productAttributes.options,
  is_required: productAttributes.isRequired,
  required_channels: productAttributes.requiredChannels,
  metafield: productAttributes.metafield,
  created_at: sql<string>`${isoUtc(sql`${productAttributes.createdAt}`)}`,
  updated_at: sql<string>`${isoUtc(sql`${productAttributes.updatedAt}`)}`,
};

const definition = {
  id: productAttributes.id,
  code: productAttributes.code,
  type: productAttributes.type,
  options: productAttributes.options,
  isRequired: productAttributes.isRequired,
};

export class AttributeRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): AttributeRepository {
    return new AttributeRepository(tx);
  }

  list(organizationId: number): Promise<AttributeView[]> {
    return this.db
      .select(view)
      .from(productAttributes)
      .where(eq(productAttributes.organizationId, organizationId))
      .orderBy(asc(productAttributes.code)) as Promise<AttributeView[]>;
  }

  async find(organizationId: number, id: number): Promise<AttributeView | null> {
    const [row] = await this.db
      .select(view)
      .from(productAttributes)
      .where(and(eq(productAttributes.organizationId, organizationId), eq(productAttributes.id, id)));
    return (row as AttributeView | undefined) ?? null;
  }

  /** The definition, locked against concurrent changes and against product writes that use it (which lock it FOR SHARE). */
  async lock(organizationId: number, id: number): Promise<AttributeDefinition | null> {
    const [row] = await this.db
      .select(definition)
      .from(productAttributes)
      .where(and(eq(productAttributes.organizationId, organizationId), eq(productAttributes.id, id)))
      .for('update');
    return (row as AttributeDefinition | undefined) ?? null;
  }

  /**
   * Definitions of the given codes (and, with `required`, of every required attribute), ordered by id. With `share`
   * the rows are locked FOR SHARE until the transaction ends, so they cannot change under a product write.
   */
  async definitions(organizationId: number, codes: string[], options: { required?: boolean; share?: boolean } = {}): Promise<AttributeDefinition[]> {
    const which = [
      codes.length > 0 ? inArray(productAttributes.code, codes) : undefined,
      options.required ? eq(productAttributes.isRequired, true) : undefined,
    ].filter((c) => c !== undefined);
    if (which.length === 0) return [];
    const query = this.db
      .select(definition)
      .from(productAttributes)
      .where(and(eq(productAttributes.organizationId, organizationId), or(...which)))
      .orderBy(asc(productAttributes.id));
    return (options.share ? await query.for('share') : await query) as AttributeDefinition[];
  }

  async codeHolder(organizationId: number, code: string): Promise<number | null> {
    const [row] = await this.db
      .select({ id: productAttributes.id })
      .from(productAttributes)
      .where(and(eq(productAttributes.organizationId, organizationId), eq(productAttributes.code, code)));
    return row?.id ?? null;
  }

  async insert(organizationId: number, values: Required<AttributeColumns>): Promise<number> {
    const [row] = await this.db
      .insert(productAttributes)
      .values({ ...values, organizationId })
      .returning({ id: productAttributes.id });
    return row.id;
  }

  async update(organizationId: number, id: number, columns: AttributeColumns): Promise<void> {
    await this.db
      .update(productAttributes)
      .set({ ...columns, updatedAt: sql`now()` })
      .where(and(eq(productAttributes.organizationId, organizationId), eq(productAttributes.id, id)));
  }

  async delete(organizationId: number, id: number): Promise<void> {
    await this.db.delete(productAttributes).where(and(eq(productAttributes.organizationId, organizationId), eq(productAttributes.id, id)));
  }

  /** How many products of the organization carry a value for the attribute (archived ones included). */
  async productsUsing(organizationId: number, code: string): Promise<number> {
    const result = await this.db.execute(sql`
      SELECT count(*)::int AS n FROM products p WHERE p.organization_id = ${organizationId} AND p.attributes ? ${code}`);
    return rowsOf<{ n: number }>(result)[0].n;
  }

  /** Of the given options, those that some product's value of the attribute uses (a select value or a multiselect element), with counts. */
  async optionsInUse(organizationId: number, code: string, options: string[]): Promise<{ option: string; products: number }[]> {
    if (options.length === 0) return [];
    const result = await this.db.execute(sql`
      SELECT o.option, count(*)::int AS products
      FROM unnest(ARRAY[${sql.join(
        options.map((o) => sql`${o}`),
        sql`, `,
      )}]::text[]) AS o(option)
      JOIN products p ON p.organization_id = ${organizationId} AND p.attributes ? ${code}
        AND (p.attributes -> ${code} = to_jsonb(o.option) OR p.attributes -> ${code} @> jsonb_build_array(o.option))
      GROUP BY o.option ORDER BY o.option`);
    return rowsOf<{ option: string; products: number }>(result);
  }

  /** Renames the key in every product of the organization that has it; bumps their updated_at. */
  async renameInProducts(organizationId: number, from: string, to: string): Promise<number> {
    const rows = await this.db
      .update(products)
      .set({
        attributes: sql`(${products.attributes} - ${from}::text) || jsonb_build_object(${to}::text, ${products.attributes} -> ${from}::text)`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(products.organizationId, organizationId), sql`${products.attributes} ? ${from}`))
      .returning({ id: products.id });
    return rows.length;
  }
}
