// The SQL of the imports table, its failed rows and its pending images. Reads for a caller are scoped by organization
// (find with organizationId); the job's own reads go by the import's id, which the caller's scoped read checked first.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { CsvFormat, RowError } from '../../catalogue-csv/draft.js';
import { isoUtc } from '../sql.js';
import { rowsOf } from '../../db/rows.js';

export interface ImportRow {
  id: string;
  organization_id: number;
  format: CsvFormat;
  dry_run: boolean;
  state: 'queued' | 'running' | 'completed' | 'failed';
  file_name: string;
  storage_key: string;
  size_bytes: number;
  rows_total: number;
  rows_done: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  checkpoint_line: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface PendingImage {
  id: number;
  product_id: number;
  url: string;
  position: number;
  line: number;
  sku: string;
}

export interface Progress {
  checkpointLine: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

export class ImportRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): ImportRepository {
    return new ImportRepository(tx);
  }

  async insert(row: {
    id: string;
    organizationId: number;
    format: string;
    dryRun: boolean;
    fileName: string;
    storageKey: string;
    sizeBytes: number;
    rowsTotal: number;
  }): Promise<void> {
    await this.db.execute(sql`
      INSERT INTO imports (id, organization_id, format, dry_run, file_name, storage_key, size_bytes, rows_total)
      VALUES (${row.id}, ${row.organizationId}, ${row.format}, ${row.dryRun}, ${row.fileName}, ${row.storageKey}, ${row.sizeBytes}, ${row.rowsTotal})`);
  }

  /** The import, if the organization has it; without `organizationId` (the job), any. */
  async find(id: string, organizationId?: number): Promise<ImportRow | null> {
    const result = await this.db.execute(sql`
      SELECT id, organization_id, format, dry_run, state, file_name, storage_key, size_bytes, rows_total, rows_done, created, updated,
             unchanged, failed, checkpoint_line, error, ${isoUtc('created_at')} AS created_at, ${isoUtc('started_at')} AS started_at,
             ${isoUtc('finished_at')} AS finished_at
      FROM imports WHERE id = ${id} ${organizationId === undefined ? sql`` : sql`AND organization_id = ${organizationId}`}`);
    return rowsOf<ImportRow>(result)[0] ?? null;
  }

  async start(id: string): Promise<void> {
    await this.db.execute(sql`UPDATE imports SET state = 'running', started_at = coalesce(started_at, now()) WHERE id = ${id}`);
  }

  async finish(id: string, state: 'completed' | 'failed', error: string | null = null): Promise<void> {
    await this.db.execute(sql`UPDATE imports SET state = ${state}, error = ${error}, finished_at = now() WHERE id = ${id}`);
  }

  /** Adds a batch's counts and moves the checkpoint; in the batch's transaction, so rows and checkpoint commit together. */
  async advance(id: string, p: Progress): Promise<void> {
    await this.db.execute(sql`
      UPDATE imports SET checkpoint_line = ${p.checkpointLine}, created = created + ${p.created}, updated = updated + ${p.updated},
        unchanged = unchanged + ${p.unchanged}, failed = failed + ${p.failed},
        rows_done = rows_done + ${p.created + p.updated + p.unchanged + p.failed}
      WHERE id = ${id}`);
  }

  async addErrors(id: string, errors: RowError[]): Promise<void> {
    if (errors.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO import_errors (import_id, line, sku, reason)
      SELECT ${id}, x.line, x.sku, x.reason FROM jsonb_to_recordset(${JSON.stringify(errors)}::jsonb) AS x(line int, sku text, reason text)`);
  }

  /** Failed rows in the order they were found (by batch), a page at a time (errors.csv streams them). */
  async errors(id: string, afterId: number, limit: number): Promise<{ id: number; line: number; sku: string | null; reason: string }[]> {
    return rowsOf(
      await this.db.execute(sql`
      SELECT id, line, sku, reason FROM import_errors WHERE import_id = ${id} AND id > ${afterId} ORDER BY id LIMIT ${limit}`),
    );
  }

  async addImages(id: string, images: { productId: number; url: string; position: number; line: number; sku: string }[]): Promise<void> {
    if (images.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO import_images (import_id, product_id, url, position, line, sku)
      SELECT ${id}, x."productId", x.url, x.position, x.line, x.sku
      FROM jsonb_to_recordset(${JSON.stringify(images)}::jsonb) AS x("productId" int, url text, position int, line int, sku text)`);
  }

  async pendingImages(id: string, limit: number): Promise<PendingImage[]> {
    return rowsOf(
      await this.db.execute(sql`
      SELECT id, product_id, url, position, line, sku FROM import_images WHERE import_id = ${id} ORDER BY id LIMIT ${limit}`),
    );
  }

  async imageDone(importId: string, imageId: number): Promise<void> {
    await this.db.execute(sql`DELETE FROM import_images WHERE import_id = ${importId} AND id = ${imageId}`);
  }
}
