// Drift reports (POST /api/drift, GET /api/drift): which products of the integration's shop no longer hold what the
// bridge last wrote there. The shop is read with one bulk query (the adoption's catalogue read), each mapping's
// storefront_state.written (recorded by every push, sync.product and bulk full sync, in the write of the mapping) is
// compared with the shop product field by field (storefront/shopify/product-diff.ts), and the products on one side
// only are listed: a mapping whose shop product is gone, and a shop product carrying our `pimbridge.pim_product_id`
// metafield that no mapping names. Nothing is written to the shop. `start` records the report and its catalogue.drift
// job in one transaction; `run` (the job) records the bulk query before waiting on it, so a restarted job follows it.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { JOB, type CatalogueDriftJob, type JobQueue, type SqlExecutor } from '../../jobs/job-types.js';
import type { DriftChange, StorefrontCatalogueProduct, StorefrontCatalogueReader } from '../../storefront/port/catalogue.js';
import { tokenRefused } from '../../storefront/port/errors.js';
import type { WrittenFields } from '../../storefront/port/known-product.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import { ConnectorError } from '../connector.errors.js';
import { CatalogueReadFailed, readShopCatalogue } from '../storefront-operations.js';
import { clip } from '../push/push-results.js';
import type { DriftCounts, DriftItemRow, DriftKind, DriftReportRow, DriftRepository } from './drift.repository.js';

export interface DriftOptions {
  pollMs: { first: number; max: number };
  /** A read that failed as a whole is started again this many times in all before the report fails. */
  readAttempts: number;
  /** How long a start refused because the shop runs as many bulk queries as it allows is retried within one job. */
  busyRetryMs: number;
}

export const DEFAULT_DRIFT_OPTIONS: DriftOptions = { pollMs: { first: 500, max: 5_000 }, readAttempts: 3, busyRetryMs: 120_000 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface DriftItem {
  kind: DriftKind;
  pim_product_id: number | null;
  storefront_product_id: number | null;
  handle: string | null;
  title: string | null;
  /** `changed`: the fields that differ; empty for the other kinds. */
  fields: { field: string; storefront: unknown; written: unknown }[];
}

export interface DriftView {
  id: string;
  state: DriftReportRow['state'];
  counts: DriftCounts | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export type DriftStart = { started: true; report: DriftView } | { started: false; report: DriftView };

export interface DriftDeps {
  db: Db;
  repo: DriftRepository;
  queue: JobQueue;
  txExecutor: (tx: Db) => SqlExecutor;
  integrations: { storefrontShopOf(integrationId: number): Promise<StorefrontShop | null> };
  storefront: StorefrontCatalogueReader;
  /** The integration's jobs queued or running: none left means an open report can never end. */
  liveJobs?: (integrationId: number) => Promise<number>;
  now?: () => Date;
}

class DriftFailure extends Error {}

type DriftPageQuery = { limit: number; offset: number; kind?: DriftKind };
type DriftReportPage = DriftView & { items: DriftItem[]; pagination: { total: number; limit: number; offset: number; has_more: boolean } };

export class DriftService {
  readonly options: Readonly<DriftOptions>;
  private readonly now: () => Date;

  constructor(
    private readonly deps: DriftDeps,
    options: Partial<DriftOptions> = {},
  ) {
    this.options = { ...DEFAULT_DRIFT_OPTIONS, ...options };
    this.now = deps.now ?? (() => new Date());
  }

  /** Starts a report unless one is queued or running for the integration (that one is answered). */
  async start(integrationId: number): Promise<DriftStart> {
    const { db, repo, queue, txExecutor, liveJobs } = this.deps;
    const stale = await repo.findOpen(integrationId);
    if (stale && liveJobs && (await liveJobs(integrationId)) === 0) await repo.fail(stale.id, 'Interrupted: no job was left to finish it', this.now());
    const result = await db.transaction(async (tx) => {
      const r = repo.with(tx);
      const integration = await r.lockIntegration(integrationId);
      if (!integration?.active) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
      const open = await r.findOpen(integrationId);
      if (open) return { started: false as const, report: view(open) };
      const id = randomUUID();
      const row = await r.create(id, integrationId, this.now());
      await queue.send(JOB.catalogueDrift, { integrationId, reportId: id }, { id, db: txExecutor(tx) });
      return { started: true as const, report: view(row) };
    });
    if (result.started) queue.wake?.(JOB.catalogueDrift);
    return result;
  }

  /** The newest report and a page of its items; null when the shop has none yet. */
  async latest(integrationId: number, page: DriftPageQuery): Promise<DriftReportPage | null> {
    const row = await this.deps.repo.latest(integrationId);
    return row ? this.page(row, page) : null;
  }

  /** A report and a page of its items; another integration's or an unknown one is NOT_FOUND. */
  async report(integrationId: number, id: string, page: DriftPageQuery): Promise<DriftReportPage> {
    const row = UUID.test(id) ? await this.deps.repo.find(id.toLowerCase(), integrationId) : null;
    if (!row) throw new ConnectorError('NOT_FOUND', `Drift report ${id} not found`);
    return this.page(row, page);
  }

  private async page(row: DriftReportRow, page: DriftPageQuery): Promise<DriftReportPage> {
    const { repo } = this.deps;
    const { rows, total } = await repo.items(row.id, page.kind, page.limit, page.offset);
    return {
      ...view(row),
      items: rows.map((r) => ({
        kind: r.kind,
        pim_product_id: r.pimProductId,
        storefront_product_id: r.storefrontProductId === null ? null : Number(r.storefrontProductId),
        handle: r.handle,
        title: r.title,
        fields: Array.isArray(r.fields) ? (r.fields as DriftItem['fields']) : [],
      })),
      pagination: { total, limit: page.limit, offset: page.offset, has_more: page.offset + rows.length < total },
    };
  }

  /** The catalogue.drift handler: reads the shop, compares, stores the items; a throw lets the queue retry. */
  async run(job: CatalogueDriftJob, signal?: AbortSignal): Promise<void> {
    const { repo } = this.deps;
    const found = await repo.find(job.reportId, job.integrationId);
    if (!found || (found.state !== 'queued' && found.state !== 'running')) return;
    const shop = await this.deps.integrations.storefrontShopOf(found.integrationId);
    if (!shop) return repo.fail(found.id, 'The integration was disconnected', this.now());
    const row = await repo.markRunning(found.id, this.now());
    if (!row) return;
    try {
      const products = await this.readShop(row, shop, signal);
      const mapped = await repo.mappedProducts(row.integrationId);
      const compare = this.deps.storefront.compareWritten?.bind(this.deps.storefront);
      if (!compare) throw new DriftFailure('This storefront cannot report drift');
      const { counts, items } = compareDrift(mapped, products, compare);
      await repo.complete(row.id, counts, items, this.now());
    } catch (err) {
      if (err instanceof DriftFailure) return repo.fail(row.id, clip(err.message), this.now());
      throw err;
    }
  }

  async runFailed(job: CatalogueDriftJob, reason: string): Promise<void> {
    await this.deps.repo.fail(job.reportId, clip(reason), this.now());
  }

  /** The shop's products, from its bulk query (started, or the recorded one followed). */
  private readShop(row: DriftReportRow, shop: StorefrontShop, signal?: AbortSignal): Promise<StorefrontCatalogueProduct[]> {
    return this.refusal(() =>
      readShopCatalogue({
        storefront: this.deps.storefront,
        shop,
        operationId: row.operationId,
        saveOperation: (operationId) => this.deps.repo.setOperation(row.id, operationId, this.now()),
        attempts: this.options.readAttempts,
        pollMs: this.options.pollMs,
        busyRetryMs: this.options.busyRetryMs,
        signal,
      }),
    );
  }

  private async refusal<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (tokenRefused(err)) throw new DriftFailure(`The storefront refused the shop's access token: ${err.message}`);
      if (err instanceof CatalogueReadFailed) throw new DriftFailure(err.message);
      throw err;
    }
  }
}

/**
 * The comparison, pure: mappings (with what the bridge last wrote) against the shop's products. Items in report order:
 * changed, then missing_in_shop (both by PIM id), then orphan_in_shop (by storefront id).
 */
export function compareDrift(
  rows: { pimProductId: number; storefrontProductId: number | null; state: unknown; metadata?: unknown }[],
  shopProducts: StorefrontCatalogueProduct[],
  compare: (product: StorefrontCatalogueProduct, written: WrittenFields, mediaIds: Record<string, string>) => DriftChange[],
): { counts: DriftCounts; items: DriftItemRow[] } {
  const byNumericId = new Map(shopProducts.map((p) => [p.numericId, p]));
  // A mapping whose product a products/delete webhook reported gone keeps that product's id in its metadata only.
  const mapped = rows.flatMap((m) => {
    if (m.storefrontProductId !== null) return [{ ...m, storefrontProductId: Number(m.storefrontProductId) }];
    const gone = Number((m.metadata as { deleted_in_shop?: { storefront_product_id?: unknown } } | null)?.deleted_in_shop?.storefront_product_id);
    return Number.isSafeInteger(gone) && gone > 0 ? [{ ...m, storefrontProductId: gone, state: {} }] : [];
  });
  const mappedIds = new Set(mapped.filter((m) => byNumericId.has(m.storefrontProductId)).map((m) => m.storefrontProductId));
  const mappedPim = new Set(mapped.map((m) => m.pimProductId));
  const changed: DriftItemRow[] = [];
  const missing: DriftItemRow[] = [];
  let compared = 0;
  let notCompared = 0;
  for (const m of mapped) {
    const shop = byNumericId.get(Number(m.storefrontProductId));
    const state = (m.state ?? {}) as { written?: WrittenFields; mediaIds?: Record<string, string> };
    const meta = (m.metadata ?? {}) as { storefront_handle?: unknown; storefront_title?: unknown };
    if (!shop) {
      missing.push({
        kind: 'missing_in_shop',
        pimProductId: m.pimProductId,
        storefrontProductId: Number(m.storefrontProductId),
        handle: typeof meta.storefront_handle === 'string' ? meta.storefront_handle : null,
        title: typeof meta.storefront_title === 'string' ? meta.storefront_title : null,
        fields: [],
      });
      continue;
    }
    if (!state.written || typeof state.written !== 'object') {
      notCompared++;
      continue;
    }
    compared++;
    const fields = compare(shop, state.written, state.mediaIds ?? {});
    if (fields.length > 0)
      changed.push({ kind: 'changed', pimProductId: m.pimProductId, storefrontProductId: shop.numericId, handle: shop.handle, title: shop.title, fields });
  }
  // Ours (the metafield) but named by no mapping: a product a push made whose mapping was lost, or a copy.
  const orphans: DriftItemRow[] = shopProducts
    .filter((p) => p.pimProductId !== null && !mappedIds.has(p.numericId))
    .sort((a, b) => a.numericId - b.numericId)
    .map((p) => ({
      kind: 'orphan_in_shop' as const,
      pimProductId: p.pimProductId,
      storefrontProductId: p.numericId,
      handle: p.handle,
      title: p.title,
      fields: mappedPim.has(p.pimProductId!) ? [{ field: 'pimbridge.pim_product_id', storefront: String(p.pimProductId), written: null }] : [],
    }));
  return {
    counts: {
      mapped: mapped.length,
      compared,
      not_compared: notCompared,
      shop_products: shopProducts.length,
      changed: changed.length,
      missing_in_shop: missing.length,
      orphan_in_shop: orphans.length,
    },
    items: [...changed, ...missing, ...orphans],
  };
}

function view(row: DriftReportRow): DriftView {
  return {
    id: row.id,
    state: row.state,
    counts: row.counts,
    error: row.error,
    created_at: row.createdAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
  };
}
