// The only place with SQL for image search: the organization's product_media rows whose perceptual hash lies within a
// Hamming distance of the query's, best image per product.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { runPrepared } from '../../db/prepared.js';
import { PHASH_CHUNK_SHIFTS, phashChunk } from '../pim.tables.js';
import { rowsOf } from '../../db/rows.js';
import { chunkLookups } from './multi-index.js';

export interface ImageMatchRow {
  product_id: number;
  media_id: number;
  distance: number;
}

/** An array parameter as one PostgreSQL array literal, so the statement text does not depend on its length. */
const bigintArray = (values: number[]) => sql`${`{${values.join(',')}}`}::bigint[]`;

export class ImageSearchRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): ImageSearchRepository {
    return new ImageSearchRepository(tx);
  }

  /**
   * The products with an image within `maxDistance` of `hash`, each once with its closest image (ties: lowest media
   * id), closest first then by product id; at most `limit` of them, and how many there are in all.
   */
  async search(organizationId: number, hash: bigint, maxDistance: number, limit: number): Promise<{ matches: ImageMatchRow[]; total: number }> {
    const result = await runPrepared(this.db, searchStatement(organizationId, hash, maxDistance, limit));
    const rows = rowsOf<ImageMatchRow & { total: number }>(result);
    return {
      matches: rows.map(({ product_id, media_id, distance }) => ({ product_id, media_id, distance })),
      total: rows[0]?.total ?? 0,
    };
  }
}

/** The search's statement (exported for the test that checks its plan). */
export function searchStatement(organizationId: number, hash: bigint, maxDistance: number, limit: number): SQL {
  const distance = sql`bit_count((m.phash # ${hash.toString()}::bigint)::bit(64))`;
  // Up to distance 15 the four chunk indexes narrow 100,000 rows to about a thousand candidates (multi-index hashing,
  // see multi-index.ts); past it they would return most of the table and one pass over it is cheaper.
  const lookups = chunkLookups(hash, maxDistance);
  const candidates: SQL = lookups
    ? sql`AND (${sql.join(
        PHASH_CHUNK_SHIFTS.map((shift, i) => sql`${phashChunk('m.phash', shift)} = ANY(${bigintArray(lookups[i])})`),
        sql` OR `,
      )})`
    : sql``;
  return sql`
    WITH hits AS (
      SELECT m.product_id, m.id AS media_id, ${distance}::int AS distance
      FROM product_media m
      WHERE m.organization_id = ${organizationId} ${candidates} AND ${distance} <= ${maxDistance}
    ), best AS (
      SELECT DISTINCT ON (product_id) product_id, media_id, distance FROM hits ORDER BY product_id, distance, media_id
    )
    SELECT product_id, media_id, distance, count(*) OVER ()::int AS total
    FROM best ORDER BY distance, product_id LIMIT ${limit}`;
}
