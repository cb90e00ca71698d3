// The SQL of the imports table, its failed rows and its images waiting for their download, and of pending_images (the
// URLs whose download failed, kept for the next import). Reads for a caller are scoped by organization (find with
// organizationId); the job's own reads go by the import's id, which the caller's scoped read checked first.
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
  images_failed: number;
  products_created: number;
  products_updated: number;
  products_unchanged: number;
  variants_created: number;
  variants_updated: number;
  variants_unchanged: number;
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
  /** The alt text the file gave the image (null: none). */
  alt_text: string | null;
}

export interface Progress {
  checkpointLine: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  products: Record<'created' | 'updated' | 'unchanged', number>;
  variants: Record<'created' | 'updated' | 'unchanged', number>;
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

  /**
   * The stored files of dry runs that finished before `cutoff` (kept for "import now" until then), looking back 30 days
   * from it: older ones were removed by an upload since (a server left without uploads for a month keeps them).
   */
  async checkedFilesBefore(cutoff: Date): Promise<string[]> {
    const rows = rowsOf<{ storage_key: string }>(
      await this.db.execute(sql`
      SELECT storage_key FROM imports WHERE dry_run AND state = 'completed'
        AND finished_at < ${cutoff.toISOString()}::timestamptz AND finished_at >= ${cutoff.toISOString()}::timestamptz - interval '30 days'`),
    );
    return rows.map((r) => r.storage_key);
  }

  /** The import, if the organization has it; without `organizationId` (the job), any. */
  async find(id: string, organizationId?: number): Promise<ImportRow | null> {
    const result = await this.db.execute(sql`
      SELECT id, organization_id, format, dry_run, state, file_name, storage_key, size_bytes, rows_total, rows_done, created, updated,
             unchanged, failed, images_failed, products_created, products_updated, products_unchanged, variants_created,
             variants_updated, variants_unchanged, checkpoint_line, error, ${isoUtc('created_at')} AS created_at, ${isoUtc('started_at')} AS started_at,
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
        products_created = products_created + ${p.products.created}, products_updated = products_updated + ${p.products.updated},
        products_unchanged = products_unchanged + ${p.products.unchanged}, variants_created = variants_created + ${p.variants.created},
        variants_updated = variants_updated + ${p.variants.updated}, variants_unchanged = variants_unchanged + ${p.variants.unchanged},
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

  async addImages(
    id: string,
    images: { productId: number; url: string; position: number; altText?: string | null; line: number; sku: string }[],
  ): Promise<void> {
    if (images.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO import_images (import_id, product_id, url, position, alt_text, line, sku)
      SELECT ${id}, x."productId", x.url, x.position, x."altText", x.line, x.sku
      FROM jsonb_to_recordset(${JSON.stringify(images)}::jsonb) AS x("productId" int, url text, position int, "altText" text, line int, sku text)`);
  }

  /**
   * The URLs still pending for these products (their download failed in an earlier import) join this import's
   * downloads, reported on the product's line of this file.
   */
  async retryPendingImages(id: string, products: { productId: number; line: number; sku: string }[]): Promise<void> {
    if (products.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO import_images (import_id, product_id, url, position, alt_text, line, sku)
      SELECT ${id}, pi.product_id, pi.url, pi.position, pi.alt_text, x.line, x.sku
      FROM jsonb_to_recordset(${JSON.stringify(products)}::jsonb) AS x("productId" int, line int, sku text)
      JOIN pending_images pi ON pi.product_id = x."productId"
      ORDER BY x.line, pi.position, pi.url`);
  }

  async pendingImages(id: string, limit: number): Promise<PendingImage[]> {
    return rowsOf(
      await this.db.execute(sql`
      SELECT id, product_id, url, position, line, sku, alt_text FROM import_images WHERE import_id = ${id} ORDER BY id LIMIT ${limit}`),
    );
  }

  /** The image is attached: no longer waiting, here or for a later import. */
  async imageDone(importId: string, image: PendingImage): Promise<void> {
    await this.db.execute(sql`DELETE FROM import_images WHERE import_id = ${importId} AND id = ${image.id}`);
    await this.db.execute(sql`DELETE FROM pending_images WHERE product_id = ${image.product_id} AND url = ${image.url}`);
  }

  /**
   * The image could not be downloaded: an error row on its product's line, counted in images_failed, and its URL kept
   * in pending_images for the product's next import. One transaction (the caller's), so a retried job neither loses
   * nor doubles it.
   */
  async imageFailed(importId: string, organizationId: number, image: PendingImage, reason: string): Promise<void> {
    await this.addErrors(importId, [{ line: image.line, sku: image.sku, reason }]);
    await this.db.execute(sql`UPDATE imports SET images_failed = images_failed + 1 WHERE id = ${importId}`);
    await this.db.execute(sql`
      INSERT INTO pending_images (organization_id, product_id, url, position, alt_text, error)
      SELECT ${organizationId}, ${image.product_id}, ${image.url}, ${image.position}, ${image.alt_text}, ${reason}
      WHERE EXISTS (SELECT 1 FROM products WHERE id = ${image.product_id} AND organization_id = ${organizationId})
      ON CONFLICT (product_id, url) DO UPDATE
        SET attempts = pending_images.attempts + 1, error = excluded.error, position = excluded.position, alt_text = excluded.alt_text, failed_at = now()`);
    await this.db.execute(sql`DELETE FROM import_images WHERE import_id = ${importId} AND id = ${image.id}`);
  }
}
