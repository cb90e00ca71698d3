// CSV imports: the upload is kept on disk and checked (encoding, header, rows) before it is accepted; a job then
// streams it, writing products in batches. Each batch commits its rows, its failed rows and the checkpoint line in
// one transaction, so a worker that dies mid-file is resumed after the last committed line and no row is written twice.
// Images named by the rows are downloaded after all rows are in (downloads are slow and may fail on their own).
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readDrafts, inspectCsv, CsvFileError } from '../../catalogue-csv/csv-reader.js';
import { escapeFormula, stringifyRows } from '../../catalogue-csv/csv-writer.js';
import type { CsvFormat, ProductDraft, RowError } from '../../catalogue-csv/draft.js';
import type { Db } from '../../db/client.js';
import { JOB, type JobQueue } from '../../jobs/job-types.js';
import { executorOf } from '../../jobs/queue.js';
import { gtinForms, isValidGtin } from '../../lib/gtin.js';
import { GcNudge } from '../../lib/gc-nudge.js';
import { slugify } from '../../lib/slug.js';
import { AppError, badRequest, notFound } from '../../server/kernel/errors.js';
import type { AttributeDefinition } from '../attributes/attribute.repository.js';
import type { MediaService } from '../media/media.service.js';
import { CategoryTree } from './catalogue-snapshot.js';
import type { CatalogueRepository, ProductRow } from './catalogue.repository.js';
import { planProduct, type Outcome, type ProductPlan } from './import-plan.js';
import type { ImportRepository, ImportRow, PendingImage, Progress } from './import.repository.js';

/** Products per transaction: large enough that a batch's dozen statements are cheap per row, small enough to lock briefly. */
const BATCH_PRODUCTS = 250;
const ERRORS_PAGE = 1_000;
/** A full collection every so many products keeps a long import's resident memory near its live heap (lib/gc-nudge.ts). */
const GC_EVERY_PRODUCTS = 2_500;
/** Images downloaded at once: below MEDIA_DOWNLOAD_CONCURRENCY's default (8), leaving slots to the API. */
const IMAGES_AT_ONCE = 4;

/** An import as the API shows it: the row without its organization, file location and checkpoint. */
export type ImportView = Omit<ImportRow, 'organization_id' | 'storage_key' | 'checkpoint_line'>;

export interface ImportOptions {
  /** Where uploads wait for their job: DATA_DIR/imports. */
  directory: string;
  /** IMPORT_MAX_BYTES. */
  maxBytes: number;
}

export interface ImportServiceDeps {
  db: Db;
  imports: ImportRepository;
  catalogue: CatalogueRepository;
  media: MediaService;
  queue: JobQueue;
}

export class ImportService {
  private readonly db: Db;
  private readonly imports: ImportRepository;
  private readonly catalogue: CatalogueRepository;
  private readonly media: MediaService;
  private readonly queue: JobQueue;

  constructor(
    deps: ImportServiceDeps,
    private readonly options: ImportOptions,
  ) {
    ({ db: this.db, imports: this.imports, catalogue: this.catalogue, media: this.media, queue: this.queue } = deps);
  }

  /** Keeps the upload, checks it, and queues its job: nothing is written to the catalogue before the file is known good. */
  async create(organizationId: number, upload: { fileName: string; stream: Readable }, request: { format?: CsvFormat; dryRun: boolean }): Promise<ImportView> {
    const id = randomUUID();
    const storageKey = `${id}.csv`;
    const file = path.join(this.options.directory, storageKey);
    await mkdir(this.options.directory, { recursive: true });
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
        createWriteStream(file),
      );
      // @fastify/multipart ends a too-large part early and marks it truncated instead of failing the stream.
      if ((upload.stream as Readable & { truncated?: boolean }).truncated) throw new CsvFileError(`the file is larger than the limit of ${formatBytes(limit)}`);
      const inspected = await inspectCsv(createReadStream(file), { format: request.format, maxBytes: limit });
      // The import and its job exist together or not at all: no import waits for a job that was never sent.
      await this.db.transaction(async (tx) => {
        await this.imports.with(tx as unknown as Db).insert({
          id,
          organizationId,
          format: inspected.format,
          dryRun: request.dryRun,
          fileName: upload.fileName.slice(0, 255),
          storageKey,
          sizeBytes: size,
          rowsTotal: inspected.rows,
        });
        await this.queue.send(JOB.catalogueImport, { importId: id }, { id, db: executorOf(tx as unknown as Db) });
      });
    } catch (err) {
      await rm(file, { force: true });
      if (err instanceof CsvFileError) throw badRequest(`file: ${err.message}`);
      throw err;
    }
    this.queue.wake?.(JOB.catalogueImport);
    return this.get(organizationId, id);
  }

  async get(organizationId: number, id: string): Promise<ImportView> {
    const row = await this.imports.find(id, organizationId);
    if (!row) throw notFound(`Import ${id} not found`);
    return toView(row);
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

  /** The job: from the checkpoint to the end of the file, then the images. A retried job goes on where it stopped. */
  async run(importId: string, signal?: AbortSignal): Promise<void> {
    const imp = await this.imports.find(importId);
    if (!imp || imp.state === 'completed' || imp.state === 'failed') return;
    await this.imports.start(importId);
    const file = path.join(this.options.directory, imp.storage_key);
    try {
      const definitions = await this.catalogue.attributeDefinitions(imp.organization_id);
      const warehouses = new Map((await this.catalogue.warehouses(imp.organization_id)).map((w) => [w.code, w.id]));
      const job = { imp, definitions, warehouses };
      // Each item: a product (or, at the end, none) with the file's errors read since the previous one, and its last line.
      let batch: BatchItem[] = [];
      let pending: RowError[] = [];
      let pendingLast = imp.checkpoint_line;
      const gc = new GcNudge(GC_EVERY_PRODUCTS);
      for await (const event of readDrafts(createReadStream(file), { format: imp.format, fromLine: imp.checkpoint_line })) {
        signal?.throwIfAborted();
        if (event.kind === 'errors') {
          pending.push(...event.errors.filter((e) => e.line > imp.checkpoint_line));
          pendingLast = event.lastLine;
        } else if (event.kind === 'draft') {
          batch.push({ draft: event.draft, errors: pending, lastLine: event.lastLine });
          pending = [];
          if (batch.length >= BATCH_PRODUCTS) {
            await this.commit(job, batch);
            gc.add(batch.length);
            batch = [];
          }
        }
      }
      if (pending.length > 0) batch.push({ draft: null, errors: pending, lastLine: pendingLast });
      if (batch.length > 0) await this.commit(job, batch);
      if (!imp.dry_run) await this.downloadImages(imp, signal);
      await this.imports.finish(importId, 'completed');
    } catch (err) {
      // A file that cannot be read any more (it was checked at upload) ends the import; anything else is retried.
      if (!(err instanceof CsvFileError)) throw err;
      await this.imports.finish(importId, 'failed', err.message);
    }
    await rm(file, { force: true });
  }

  /** The last try failed: the import ends as failed (what it committed stays) and its file is removed. */
  async giveUp(importId: string): Promise<void> {
    const imp = await this.imports.find(importId);
    if (!imp || imp.state === 'completed' || imp.state === 'failed') return;
    await this.imports.finish(importId, 'failed', `The import stopped after line ${imp.checkpoint_line} and could not go on; the rows before it are imported`);
    await rm(path.join(this.options.directory, imp.storage_key), { force: true });
  }

  /**
   * One batch in one transaction. Should the batch fail on something the plan could not see (a concurrent writer
   * took a slug or an EAN in between), each product is tried on its own, so one conflict fails one product. Every
   * item commits with its own errors and ends the checkpoint at its own last line: a resumed run starts after it,
   * so nothing is written, counted or reported twice.
   */
  private async commit(job: JobState, items: BatchItem[]): Promise<void> {
    const drafts = (list: BatchItem[]) => list.flatMap((i) => (i.draft ? [i.draft] : []));
    try {
      await this.commitOnce(
        job,
        drafts(items),
        items.flatMap((i) => i.errors),
        items[items.length - 1].lastLine,
      );
    } catch (err) {
      if (items.length <= 1 || err instanceof AppError) throw err;
      for (const item of items) {
        try {
          await this.commitOnce(job, drafts([item]), item.errors, item.lastLine);
        } catch {
          const failed = (item.draft?.lines ?? []).map((line) => ({
            line,
            sku: item.draft!.sku,
            reason: 'not imported: another change to the catalogue conflicted with it; import the file again',
          }));
          await this.commitOnce(job, [], [...item.errors, ...failed], item.lastLine);
        }
      }
    }
  }

  private async commitOnce(job: JobState, drafts: ProductDraft[], parseErrors: RowError[], lastLine: number): Promise<void> {
    const { imp } = job;
    const apply = async (tx: Db) => {
      const catalogue = this.catalogue.with(tx);
      const org = imp.organization_id;
      const skus = drafts.map((d) => d.sku);
      const explicitSlugs = drafts.flatMap((d) => (d.fields.slug ? [d.fields.slug] : []));
      const eans = drafts.flatMap((d) => (d.fields.ean && isValidGtin(d.fields.ean) ? gtinForms(d.fields.ean) : []));
      const tree = new CategoryTree(await catalogue.categories(org));
      const ctx = {
        definitions: job.definitions,
        warehouses: job.warehouses,
        tree,
        existing: new Map((await catalogue.snapshotsBySku(org, skus, !imp.dry_run)).map((p) => [p.sku, p])),
        variantOwners: await catalogue.variantOwners(
          org,
          drafts.flatMap((d) => d.variants.map((v) => v.sku)),
        ),
        eanHolders: await catalogue.holders(org, 'ean', eans),
        slugHolders: await catalogue.holders(org, 'slug', explicitSlugs),
      };
      const errors = [...parseErrors];
      const plans: ProductPlan[] = [];
      for (const draft of drafts) {
        const { plan, errors: refused } = planProduct(draft, ctx);
        errors.push(...refused);
        if (plan) plans.push(plan);
      }
      if (!imp.dry_run) await this.write(tx, imp, plans, tree);
      return { errors, plans };
    };
    const record = async (tx: Db, errors: RowError[], plans: ProductPlan[]) => {
      const repo = this.imports.with(tx);
      await repo.addErrors(imp.id, errors);
      await repo.advance(imp.id, progress(plans, errors, lastLine));
    };
    if (imp.dry_run) {
      // Read-only: the plan is made outside any lock, and only the import's own counts are written.
      const { errors, plans } = await apply(this.db);
      await this.db.transaction((tx) => record(tx as unknown as Db, errors, plans));
      return;
    }
    await this.db.transaction(async (tx) => {
      const { errors, plans } = await apply(tx as unknown as Db);
      await record(tx as unknown as Db, errors, plans);
    });
  }

  private async write(tx: Db, imp: ImportRow, plans: ProductPlan[], tree: CategoryTree): Promise<void> {
    const catalogue = this.catalogue.with(tx);
    const org = imp.organization_id;
    const changed = plans.filter((p) => p.changed);
    const rewritten = changed.filter((p) => p.productChanged);
    const brands = await catalogue.namedIds('brands', org, distinct(rewritten.map((p) => p.target.brand)));
    const suppliers = await catalogue.namedIds('suppliers', org, distinct(rewritten.map((p) => p.target.supplier)));
    // New products without a slug get one from their name, free among the stored ones and this batch's.
    const unslugged = rewritten.filter((p) => p.target.slug === null);
    const taken = new Set([
      ...(await catalogue.slugsLike(org, distinct(unslugged.map((p) => slugify(p.target.name))))),
      ...plans.flatMap((p) => (p.target.slug ? [p.target.slug] : [])),
    ]);
    const free = freeSlugs(taken);
    for (const p of unslugged) p.target.slug = free(slugify(p.target.name));
    const rows: ProductRow[] = rewritten.map(({ target: { brand, supplier, slug, ...t } }) => ({
      ...t,
      slug: slug!,
      brand_id: brand === null ? null : brands.get(brand)!,
      supplier_id: supplier === null ? null : suppliers.get(supplier)!,
    }));
    const ids = await catalogue.upsertProducts(org, rows);
    const idOf = (p: ProductPlan) => ids.get(p.target.sku) ?? p.existingId!;
    await catalogue.touch(changed.filter((p) => !p.productChanged).map(idOf));

    const assignments: { productId: number; categoryIds: number[] }[] = [];
    for (const p of changed.filter((c) => c.categories !== null)) {
      const categoryIds: number[] = [];
      for (const categoryPath of p.categories!) categoryIds.push(await this.categoryId(catalogue, org, tree, categoryPath));
      assignments.push({ productId: idOf(p), categoryIds: distinct(categoryIds) });
    }
    await catalogue.replaceCategories(assignments);
    await catalogue.setStock(changed.flatMap((p) => p.stock.map((s) => ({ productId: idOf(p), ...s }))));
    await catalogue.upsertTranslations(changed.flatMap((p) => p.translations.map((t) => ({ product_id: idOf(p), ...t }))));
    await catalogue.upsertVariants(
      org,
      changed.flatMap((p) => p.variants.map(({ line: _line, outcome: _outcome, ...v }) => ({ ...v, product_id: idOf(p) }))),
    );
    await this.imports.with(tx).addImages(
      imp.id,
      changed.flatMap((p) => p.newImages.map((i) => ({ productId: idOf(p), url: i.url, position: i.position, line: p.draft.line, sku: p.target.sku }))),
    );
  }

  /** The category at this path, created with its missing ancestors. */
  private async categoryId(catalogue: CatalogueRepository, org: number, tree: CategoryTree, categoryPath: string[]): Promise<number> {
    let parentId: number | null = null;
    for (let depth = 1; depth <= categoryPath.length; depth++) {
      const prefix = categoryPath.slice(0, depth);
      let id = tree.idOf(prefix);
      if (id === undefined) {
        id = await catalogue.insertCategory(org, parentId, prefix[depth - 1]);
        tree.add(id, prefix);
      }
      parentId = id;
    }
    return parentId!;
  }

  /** Downloads the images the committed rows named; a failed one becomes an error row of its product's line. */
  private async downloadImages(imp: ImportRow, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const pending = await this.imports.pendingImages(imp.id, IMAGES_AT_ONCE);
      if (pending.length === 0) return;
      await Promise.all(pending.map((image) => this.downloadImage(imp, image, signal)));
    }
  }

  /** One image; while the process's download slots are all taken (API uploads too), it waits its turn. */
  private async downloadImage(imp: ImportRow, image: PendingImage, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      try {
        await this.media.add(imp.organization_id, image.product_id, { file_url: image.url, position: image.position });
        break;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.kind === 'rate_limited') {
          await sleep((err.retryAfterSeconds ?? 1) * 1000);
          continue;
        }
        await this.imports.addErrors(imp.id, [{ line: image.line, sku: image.sku, reason: `image ${image.url}: ${err.message.replace(/^file_url: /, '')}` }]);
        break;
      }
    }
    await this.imports.imageDone(imp.id, image.id);
  }
}

interface BatchItem {
  draft: ProductDraft | null;
  /** The file's errors on the lines since the previous item (this product's bad rows among them). */
  errors: RowError[];
  lastLine: number;
}

interface JobState {
  imp: ImportRow;
  definitions: AttributeDefinition[];
  warehouses: Map<string, number>;
}

/** The batch's counts: every row ends created, updated, unchanged or failed. */
function progress(plans: ProductPlan[], errors: RowError[], lastLine: number): Progress {
  const counts: Record<Outcome, number> = { created: 0, updated: 0, unchanged: 0 };
  for (const plan of plans) for (const outcome of plan.outcomes.values()) counts[outcome]++;
  return { checkpointLine: lastLine, ...counts, failed: new Set(errors.map((e) => e.line)).size };
}

function toView(row: ImportRow): ImportView {
  const { organization_id: _org, storage_key: _key, checkpoint_line: _line, ...view } = row;
  return view;
}

/**
 * Hands out `base`, `base-2`, `base-3`, … not in `taken`, remembering per base where it stopped: a file of thousands of
 * products with the same name costs one pass, not one scan of the taken set per product.
 */
function freeSlugs(taken: Set<string>): (base: string) => string {
  const next = new Map<string, number>();
  return (base) => {
    let n = next.get(base) ?? 1;
    let slug = n === 1 ? base : `${base}-${n}`;
    while (taken.has(slug)) slug = `${base}-${++n}`;
    next.set(base, n + 1);
    taken.add(slug);
    return slug;
  };
}

const distinct = <T>(values: (T | null)[]): T[] => [...new Set(values.filter((v): v is T => v !== null))];

function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 2 ? `${Math.round(bytes / 1024 ** 2)} MB` : `${Math.round(bytes / 1024)} kB`;
}
