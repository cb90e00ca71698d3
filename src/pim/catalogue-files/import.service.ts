// CSV imports as the API sees them: the upload kept on disk and checked (encoding, header, rows) before it is accepted,
// its job queued with it (import-job.ts runs it), its state and refused rows read back, and a finished dry run's file
// imported for real without a second upload.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../lib/private-files.js';
import { inspectCsv, CsvFileError } from '../../catalogue-csv/csv-reader.js';
import { escapeFormula, stringifyRows } from '../../catalogue-csv/csv-writer.js';
import type { CsvFormat } from '../../catalogue-csv/draft.js';
import type { Db } from '../../db/client.js';
import { JOB, type JobQueue } from '../../jobs/job-types.js';
import { executorOf } from '../../jobs/queue.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { ImportRepository, ImportRow } from './import.repository.js';

const ERRORS_PAGE = 1_000;

/** An import as the API shows it: the row without its organization, file location and checkpoint. */
type Counts = Record<'created' | 'updated' | 'unchanged', number>;
type CountColumns = `${'products' | 'variants'}_${keyof Counts}`;
export type ImportView = Omit<ImportRow, 'organization_id' | 'storage_key' | 'checkpoint_line' | CountColumns> & { products: Counts; variants: Counts };

export interface ImportOptions {
  /** Where uploads wait for their job: DATA_DIR/imports. */
  directory: string;
  /** IMPORT_MAX_BYTES. */
  maxBytes: number;
}

export interface ImportServiceDeps {
  db: Db;
  imports: ImportRepository;
  queue: JobQueue;
}

/** How long a finished dry run's file is kept for "import now". */
const KEEP_CHECKED_FILE_MS = 24 * 3600 * 1000;

export class ImportService {
  private readonly db: Db;
  private readonly imports: ImportRepository;
  private readonly queue: JobQueue;

  constructor(
    deps: ImportServiceDeps,
    private readonly options: ImportOptions,
  ) {
    ({ db: this.db, imports: this.imports, queue: this.queue } = deps);
  }

  /** Keeps the upload, checks it, and queues its job: nothing is written to the catalogue before the file is known good. */
  async create(organizationId: number, upload: { fileName: string; stream: Readable }, request: { format?: CsvFormat; dryRun: boolean }): Promise<ImportView> {
    const id = randomUUID();
    const storageKey = `${id}.csv`;
    const file = path.join(this.options.directory, storageKey);
    // Private to the server's user, as all of DATA_DIR (lib/private-files.ts).
    await mkdir(this.options.directory, { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      let size = 0;
      const limit = this.options.maxBytes;
      await pipeline(
        upload.stream,
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            size += chunk.length;
            if (size > limit) done(new CsvFileError(`the file is larger than the limit of ${formatBytes(limit)}`));
            else done(null, chunk);
          },
        }),
        createWriteStream(file, { mode: PRIVATE_FILE_MODE }),
      );
      // @fastify/multipart ends a too-large part early and marks it truncated instead of failing the stream.
      if ((upload.stream as Readable & { truncated?: boolean }).truncated) throw new CsvFileError(`the file is larger than the limit of ${formatBytes(limit)}`);
      const inspected = await inspectCsv(createReadStream(file), { format: request.format, maxBytes: limit });
      await this.queueImport({
        id,
        organizationId,
        format: inspected.format,
        dryRun: request.dryRun,
        fileName: upload.fileName.slice(0, 255),
        storageKey,
        sizeBytes: size,
        rowsTotal: inspected.rows,
      });
    } catch (err) {
      await rm(file, { force: true });
      if (err instanceof CsvFileError) throw badRequest(`file: ${err.message}`);
      throw err;
    }
    this.queue.wake?.(JOB.catalogueImport);
    await this.forgetOldChecks();
    return this.get(organizationId, id);
  }

  /**
   * "Import now" after a dry run: the checked file itself is imported (moved to a new, real import), so the merchant
   * need not pick it again. A check's file is kept for KEEP_CHECKED_FILE_MS; moved once (a second click finds it gone).
   */
  async importChecked(organizationId: number, checkedId: string): Promise<ImportView> {
    const checked = await this.imports.find(checkedId, organizationId);
    if (!checked) throw notFound(`Import ${checkedId} not found`);
    if (!checked.dry_run || checked.state !== 'completed')
      throw badRequest(`Import ${checkedId} is not a finished dry run: only a finished check can be imported`);
    const id = randomUUID();
    const storageKey = `${id}.csv`;
    const from = path.join(this.options.directory, checked.storage_key);
    const to = path.join(this.options.directory, storageKey);
    try {
      await rename(from, to);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
      throw badRequest(`The checked file is no longer kept (it was imported already, or checked over a day ago): upload it again`);
    }
    try {
      await this.queueImport({
        id,
        organizationId,
        format: checked.format,
        dryRun: false,
        fileName: checked.file_name,
        storageKey,
        sizeBytes: checked.size_bytes,
        rowsTotal: checked.rows_total,
      });
    } catch (err) {
      await rename(to, from).catch(() => {});
      throw err;
    }
    this.queue.wake?.(JOB.catalogueImport);
    return this.get(organizationId, id);
  }

  /** The import and its job exist together or not at all: no import waits for a job that was never sent. */
  private async queueImport(row: Parameters<ImportRepository['insert']>[0]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.imports.with(tx).insert(row);
      await this.queue.send(JOB.catalogueImport, { importId: row.id }, { id: row.id, db: executorOf(tx) });
    });
  }

  /** The files of dry runs finished over KEEP_CHECKED_FILE_MS ago go (any organization's: a new upload's housekeeping). */
  private async forgetOldChecks(): Promise<void> {
    for (const key of await this.imports.checkedFilesBefore(new Date(Date.now() - KEEP_CHECKED_FILE_MS))) {
      await rm(path.join(this.options.directory, key), { force: true });
    }
  }

  async get(organizationId: number, id: string): Promise<ImportView> {
    const row = await this.imports.find(id, organizationId);
    if (!row) throw notFound(`Import ${id} not found`);
    return toView(row);
  }

  /** A page of the failed rows, in the order found (the console shows them; errors.csv has them all). */
  async errorPage(organizationId: number, id: string, after: number, limit: number) {
    await this.get(organizationId, id);
    const rows = await this.imports.errors(id, after, limit + 1);
    const page = rows.slice(0, limit);
    return {
      errors: page.map(({ line, sku, reason }) => ({ line, sku, reason })),
      next_after: rows.length > limit ? page[page.length - 1].id : null,
    };
  }

  /** errors.csv: `line,sku,reason`, every failed row in the order found, streamed a page at a time. */
  async *errorsCsv(organizationId: number, id: string): AsyncGenerator<string> {
    await this.get(organizationId, id);
    yield stringifyRows([['line', 'sku', 'reason']]);
    for (let after = 0; ; ) {
      const page = await this.imports.errors(id, after, ERRORS_PAGE);
      if (page.length === 0) return;
      // The SKU and the reason quote the file: escaped like an export's cells, as this file is opened in spreadsheets too.
      yield stringifyRows(page.map((e) => [String(e.line), escapeFormula(e.sku ?? ''), escapeFormula(e.reason)]));
      after = page[page.length - 1].id;
    }
  }
}

function toView(row: ImportRow): ImportView {
  const {
    organization_id: _org,
    storage_key: _key,
    checkpoint_line: _line,
    products_created,
    products_updated,
    products_unchanged,
    variants_created,
    variants_updated,
    variants_unchanged,
    ...view
  } = row;
  return {
    ...view,
    products: { created: products_created, updated: products_updated, unchanged: products_unchanged },
    variants: { created: variants_created, updated: variants_updated, unchanged: variants_unchanged },
  };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 2 ? `${Math.round(bytes / 1024 ** 2)} MB` : `${Math.round(bytes / 1024)} kB`;
}
