// The catalogue import's job (catalogue.import, one per upload): the file streamed from its checkpoint, its products
// written in batches. Each batch commits its rows, its failed rows and the checkpoint line in one transaction, so a
// worker that dies mid-file is resumed after the last committed line and no row is written twice. Images named by the
// rows are downloaded after all rows are in (downloads are slow and may fail on their own). The steps: a batch's plan
// (import-plan.ts), its writes (import-write.ts), the images (import-images.ts).
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { readDrafts, CsvFileError } from '../../catalogue-csv/csv-reader.js';
import { shopifyMetafieldColumns } from '../../catalogue-csv/shopify-format.js';
import type { ProductDraft, RowError } from '../../catalogue-csv/draft.js';
import type { Db } from '../../db/client.js';
import { append } from '../../lib/arrays.js';
import { gtinForms, isValidGtin } from '../../lib/gtin.js';
import { GcNudge } from '../../lib/gc-nudge.js';
import { AppError } from '../../http/errors.js';
import type { AttributeDefinition } from '../attributes/attribute.repository.js';
import type { MediaService } from '../media/media.service.js';
import type { CatalogueChanges } from '../changes/catalogue-changes.js';
import { CategoryTree } from './catalogue-snapshot.js';
import type { CatalogueRepository, KeyColumn } from './catalogue.repository.js';
import { keyOf, planProduct, type Outcome, type PlanContext, type ProductPlan } from './import-plan.js';
import { metafieldDefinitions, TypeGuess } from './metafield-attributes.js';
import { downloadImages } from './import-images.js';
import { distinct, writePlans } from './import-write.js';
import type { ImportRepository, ImportRow, Progress } from './import.repository.js';

/** Products per transaction: large enough that a batch's dozen statements are cheap per row, small enough to lock briefly. */
const BATCH_PRODUCTS = 250;
/** Errors per transaction at most (about): a file of a million bad rows is recorded a slice at a time. */
const BATCH_ERRORS = 5_000;
/**
 * A full collection every so many products keeps a long import's resident memory near its live heap (lib/gc-nudge.ts).
 * 1,000 since products carry Shopify's fields: at 2,500 the heap climbed ~100 MB between collections (bench/RESULTS.md,
 * "a Shopify catalogue in and back out"); a collection costs 20-50 ms, 25 of them in a 25,000-product import.
 */
const GC_EVERY_PRODUCTS = 1_000;

export interface ImportJobDeps {
  db: Db;
  imports: ImportRepository;
  catalogue: CatalogueRepository;
  media: MediaService;
  /** Told after each batch that wrote something, as the API tells each write: the delta sync follows an import. */
  changes: Pick<CatalogueChanges, 'raise'>;
}

export class ImportJob {
  private readonly db: Db;
  private readonly imports: ImportRepository;
  private readonly catalogue: CatalogueRepository;
  private readonly media: MediaService;
  private readonly changes: ImportJobDeps['changes'];

  constructor(
    deps: ImportJobDeps,
    /** Where the uploads wait (DATA_DIR/imports). */
    private readonly directory: string,
  ) {
    ({ db: this.db, imports: this.imports, catalogue: this.catalogue, media: this.media, changes: this.changes } = deps);
  }

  /** The job: from the checkpoint to the end of the file, then the images. A retried job goes on where it stopped. */
  async run(importId: string, signal?: AbortSignal): Promise<void> {
    const imp = await this.imports.find(importId);
    if (!imp || imp.state === 'completed' || imp.state === 'failed') return;
    await this.imports.start(importId);
    const file = path.join(this.directory, imp.storage_key);
    try {
      const job = await this.jobState(imp, file);
      // Each item: a product (or, at the end, none) with the file's errors read since the previous one, and its last line.
      let batch: BatchItem[] = [];
      let batchErrors = 0;
      let pending: RowError[] = [];
      let pendingLast = imp.checkpoint_line;
      const gc = new GcNudge(GC_EVERY_PRODUCTS);
      const add = async (item: BatchItem) => {
        batch.push(item);
        batchErrors += item.errors.length;
        if (batch.length >= BATCH_PRODUCTS || batchErrors >= BATCH_ERRORS) {
          await this.commit(job, batch);
          gc.add(batch.length);
          batch = [];
          batchErrors = 0;
        }
      };
      for await (const event of readDrafts(createReadStream(file), { format: imp.format, fromLine: imp.checkpoint_line })) {
        signal?.throwIfAborted();
        if (event.kind === 'errors') {
          for (const e of event.errors) if (e.line > imp.checkpoint_line) pending.push(e);
          pendingLast = event.lastLine;
          // Errors without a product between them (a long run of bad rows) go in on their own, a slice at a time.
          if (pending.length >= BATCH_ERRORS) {
            await add({ draft: null, errors: pending, lastLine: pendingLast });
            pending = [];
          }
        } else if (event.kind === 'draft') {
          await add({ draft: event.draft, errors: pending, lastLine: event.lastLine });
          pending = [];
        }
      }
      if (pending.length > 0) batch.push({ draft: null, errors: pending, lastLine: pendingLast });
      if (batch.length > 0) await this.commit(job, batch);
      if (!imp.dry_run) {
        await downloadImages({ db: this.db, imports: this.imports, media: this.media }, imp, signal);
        await this.told(imp.organization_id);
      }
      await this.imports.finish(importId, 'completed');
    } catch (err) {
      // A file that cannot be read any more (it was checked at upload) ends the import; anything else is retried.
      if (!(err instanceof CsvFileError)) throw err;
      await this.imports.finish(importId, 'failed', err.message);
    }
    // A finished check keeps its file, for "import now" (importChecked); anything else is done with it.
    if (!(imp.dry_run && (await this.imports.find(importId))?.state === 'completed')) await rm(file, { force: true });
  }

  /**
   * What every batch of the job needs of the organization: attribute definitions (with those a Shopify file's metafield
   * columns need, made first: a dry run only imagines them), warehouses, default currency and channels.
   */
  private async jobState(imp: ImportRow, file: string): Promise<JobState> {
    const org = imp.organization_id;
    let definitions = await this.catalogue.attributeDefinitions(org);
    let mapped = await this.catalogue.metafieldAttributes(org);
    if (imp.format === 'shopify') {
      const missing = await missingMetafields(file, new Set(mapped.map((m) => m.metafield)));
      if (missing.length > 0) {
        const made = metafieldDefinitions(missing, new Set(definitions.map((d) => d.code)));
        if (imp.dry_run) {
          definitions = [...definitions, ...made.map((m, i) => ({ id: -1 - i, code: m.code, type: m.type, options: [], isRequired: false }))];
          mapped = [...mapped, ...made];
        } else {
          await this.catalogue.insertMetafieldAttributes(org, made);
          definitions = await this.catalogue.attributeDefinitions(org);
          mapped = await this.catalogue.metafieldAttributes(org);
        }
      }
    }
    // "Default channels": the organization's channels have no such notion, so an active product without channels gets
    // `web` (the online store, what Shopify's Published means), when the organization has that channel.
    const channels = (await this.catalogue.channelValues(org)) ?? ['web', 'mobile'];
    return {
      imp,
      keyColumn: imp.format === 'shopify' ? 'slug' : 'sku',
      definitions,
      metafieldCodes: new Map(mapped.map((m) => [m.metafield, m.code])),
      warehouses: new Map((await this.catalogue.warehouses(org)).map((w) => [w.code, w.id])),
      defaultCurrency: (await this.catalogue.defaultCurrency(org)).currency,
      defaultChannels: channels.includes('web') ? ['web'] : [],
    };
  }

  /** The last try failed: the import ends as failed (what it committed stays) and its file is removed. */
  async giveUp(importId: string): Promise<void> {
    const imp = await this.imports.find(importId);
    if (!imp || imp.state === 'completed' || imp.state === 'failed') return;
    await this.imports.finish(importId, 'failed', `The import stopped after line ${imp.checkpoint_line} and could not go on; the rows before it are imported`);
    await rm(path.join(this.directory, imp.storage_key), { force: true });
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
            sku: keyOf(item.draft!, job.keyColumn),
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
      const { keyColumn } = job;
      const keys = drafts.map((d) => keyOf(d, keyColumn));
      const explicitSlugs = drafts.flatMap((d) => (d.fields.slug ? [d.fields.slug] : []));
      const eans = drafts.flatMap((d) => (d.fields.ean && isValidGtin(d.fields.ean) ? gtinForms(d.fields.ean) : []));
      const tree = new CategoryTree(await catalogue.categories(org));
      // Shopify's files: the SKUs a product or variant may take (the file's, or one made from the Handle) and who has them.
      const variantSkus = drafts.flatMap((d, i) => d.variants.flatMap((v, n) => (keyColumn === 'slug' ? [v.sku, `${keys[i]}-${n + 1}`] : [v.sku])));
      const ctx: PlanContext = {
        keyColumn,
        definitions: job.definitions,
        metafieldCodes: job.metafieldCodes,
        warehouses: job.warehouses,
        tree,
        existing: new Map((await catalogue.snapshotsByKey(org, keys, keyColumn, !imp.dry_run)).map((p) => [keyColumn === 'slug' ? p.slug : p.sku, p])),
        variantOwners: await catalogue.variantOwners(org, distinct(variantSkus), keyColumn),
        eanHolders: await catalogue.holders(org, 'ean', eans, keyColumn),
        slugHolders: await catalogue.holders(org, 'slug', explicitSlugs, keyColumn),
        skuHolders: keyColumn === 'slug' ? await catalogue.holders(org, 'sku', distinct([...drafts.map((d) => d.sku), ...keys]), keyColumn) : new Map(),
        defaultCurrency: job.defaultCurrency,
        defaultChannels: job.defaultChannels,
      };
      const errors = [...parseErrors];
      const plans: ProductPlan[] = [];
      for (const draft of drafts) {
        const { plan, errors: refused } = planProduct(draft, ctx);
        append(errors, refused);
        if (plan) plans.push(plan);
      }
      if (!imp.dry_run) await writePlans({ catalogue, imports: this.imports.with(tx) }, imp, plans, tree);
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
      await this.db.transaction((tx) => record(tx, errors, plans));
      return;
    }
    const wrote = await this.db.transaction(async (tx) => {
      const { errors, plans } = await apply(tx);
      await record(tx, errors, plans);
      return plans.some((p) => p.changed);
    });
    if (wrote) await this.told(imp.organization_id);
  }

  /** The catalogue changed; a lost notification costs only time (the delta sync's poll comes anyway). */
  private async told(organizationId: number): Promise<void> {
    await this.changes.raise(organizationId).catch(() => {});
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
  keyColumn: KeyColumn;
  definitions: AttributeDefinition[];
  metafieldCodes: Map<string, string>;
  warehouses: Map<string, number>;
  defaultCurrency: string;
  defaultChannels: string[];
}

/**
 * The metafield columns of a Shopify file that no attribute is mapped to yet, with what their values look like (the
 * whole file is read for them, once, before its rows are imported; a file without such columns is read to its header).
 */
async function missingMetafields(file: string, mapped: Set<string>): Promise<{ metafield: string; label: string; guess: TypeGuess }[]> {
  let missing: { metafield: string; label: string; guess: TypeGuess }[] = [];
  for await (const event of readDrafts(createReadStream(file), { format: 'shopify' })) {
    if (event.kind === 'header') {
      missing = shopifyMetafieldColumns(event.columns)
        .filter((c) => !mapped.has(c.metafield))
        .map((c) => ({ metafield: c.metafield, label: c.label, guess: new TypeGuess() }));
      if (missing.length === 0) return [];
    } else if (event.kind === 'draft') {
      for (const m of missing) m.guess.add(event.draft.metafields?.[m.metafield] ?? null);
    }
  }
  return missing;
}

/** The batch's counts: every row ends created, updated, unchanged or failed; and the same by product and by variant. */
function progress(plans: ProductPlan[], errors: RowError[], lastLine: number): Progress {
  const none = (): Record<Outcome, number> => ({ created: 0, updated: 0, unchanged: 0 });
  const [rows, products, variants] = [none(), none(), none()];
  for (const plan of plans) {
    for (const outcome of plan.outcomes.values()) rows[outcome]++;
    products[plan.productOutcome]++;
    for (const outcome of plan.variantOutcomes) variants[outcome]++;
  }
  return { checkpointLine: lastLine, ...rows, failed: new Set(errors.map((e) => e.line)).size, products, variants };
}
