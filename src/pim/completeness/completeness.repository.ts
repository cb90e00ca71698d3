// The only place with SQL for completeness: a page of products' facts, their translations, the organization's
// languages and the attributes some channel requires, in one statement (never one query per product).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import type { CompletenessFacts, RequiredAttribute } from './completeness.js';

export interface CompletenessRows {
  languages: string[];
  definitions: RequiredAttribute[];
  products: CompletenessFacts[];
}

interface Row extends CompletenessFacts {
  languages: string[];
  definitions: RequiredAttribute[];
}

export class CompletenessRepository {
  constructor(private readonly db: Db) {}

  /** The facts of the organization's products among `ids` (others are left out), by id. */
  async facts(organizationId: number, ids: number[]): Promise<CompletenessRows> {
    if (ids.length === 0) return { languages: [], definitions: [], products: [] };
    const result = await this.db.execute(sql`
      WITH definitions AS (
        SELECT coalesce(json_agg(json_build_object('id', a.id, 'code', a.code, 'name', a.name, 'is_required', a.is_required,
                 'required_channels', a.required_channels) ORDER BY a.code), '[]'::json) AS list
        FROM product_attributes a
        WHERE a.organization_id = ${organizationId} AND (a.is_required OR cardinality(a.required_channels) > 0)
      )
      SELECT p.id, p.publishing_channels AS channels, p.attributes,
        coalesce(btrim(p.description), '') <> '' AS has_description,
        coalesce((
          SELECT json_agg(json_build_object('locale', t.locale, 'name', coalesce(btrim(t.name), '') <> '',
                   'description', coalesce(btrim(t.description), '') <> ''))
          FROM product_translations t WHERE t.product_id = p.id AND t.locale = ANY(o.languages)
        ), '[]'::json) AS translations,
        o.languages, d.list AS definitions
      FROM organizations o
      JOIN products p ON p.organization_id = o.id AND p.id = ANY(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[])
      CROSS JOIN definitions d
      WHERE o.id = ${organizationId}
      ORDER BY p.id`);
    const rows = rowsOf<Row>(result);
    if (rows.length === 0) return { languages: [], definitions: [], products: [] };
    return {
      languages: rows[0].languages,
      definitions: rows[0].definitions,
      products: rows.map(({ languages: _l, definitions: _d, ...facts }) => facts),
    };
  }
}
