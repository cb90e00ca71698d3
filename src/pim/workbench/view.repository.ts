// The only place with SQL for the saved views of the product list.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { isoUtc } from '../sql.js';
import type { ViewBodyInput, ViewView } from './view.schemas.js';

const COLUMNS = sql`id, name, filters, columns, sort, ${isoUtc('updated_at')} AS updated_at`;

export class ViewRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: number, keyId: number): Promise<ViewView[]> {
    const result = await this.db.execute(sql`
      SELECT ${COLUMNS} FROM product_views WHERE organization_id = ${organizationId} AND api_key_id = ${keyId} ORDER BY lower(name), id`);
    return rowsOf<ViewView>(result);
  }

  /** Saves the view under its name: a new one, or the one of that name replaced. */
  async save(organizationId: number, keyId: number, view: ViewBodyInput): Promise<ViewView> {
    const columns = `{${view.columns.join(',')}}`;
    const result = await this.db.execute(sql`
      INSERT INTO product_views (organization_id, api_key_id, name, filters, columns, sort)
      VALUES (${organizationId}, ${keyId}, ${view.name}, ${JSON.stringify(view.filters)}::jsonb, ${columns}::text[], ${view.sort ?? null})
      ON CONFLICT (organization_id, api_key_id, name)
      DO UPDATE SET filters = excluded.filters, columns = excluded.columns, sort = excluded.sort, updated_at = now()
      RETURNING ${COLUMNS}`);
    return rowsOf<ViewView>(result)[0];
  }

  async delete(organizationId: number, keyId: number, id: number): Promise<boolean> {
    const result = await this.db.execute(sql`
      DELETE FROM product_views WHERE organization_id = ${organizationId} AND api_key_id = ${keyId} AND id = ${id} RETURNING id`);
    return rowsOf(result).length > 0;
  }
}
