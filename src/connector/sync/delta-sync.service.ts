// Automatic delta sync: one poll of one integration asks its PIM for the products changed since the watermark
// (GET /api/products?updated_since=&after_id=, in (updated_at, id) order), queues a sync.product for each product
// whose mapping has not synced that version yet, and moves the watermark past the page — the jobs and the watermark
// in one transaction, so a crash between pages loses nothing and repeats nothing. A PIM that cannot be read fails the
// poll (the watermark stays; the next poll tries again).
import type { Db } from '../../db/client.js';
import { JOB, type JobQueue, type SqlExecutor } from '../../jobs/job-types.js';
import { AdoptionRepository } from '../adopt/adoption.repository.js';
import type { MappingRepository } from '../mappings/mapping.repository.js';
import type { PimChange, PimClient } from '../pim/pim-client.js';
import type { DeltaSyncRepository } from './delta-sync.repository.js';

/** Products per PIM page (the PIM's maximum). */
export const DELTA_PAGE_SIZE = 100;
/** Pages per poll at most: a large backlog is worked off over several polls, each bounded in time. */
export const DELTA_MAX_PAGES = 50;
/**
 * The watermark stays this far behind the present. A PIM write's updated_at is its transaction's start, so a slow
 * transaction can commit a product older than one already seen; products inside the window are queued at once all the
 * same (no delay), but read again by the next poll, which queues only those whose version is still not synced.
 */
export const DELTA_SETTLE_MS = 3_000;

export interface PollResult {
  /** Products changed in the PIM that this poll read. */
  seen: number;
  /** sync.product jobs sent (the queue drops those whose product already has one queued). */
  enqueued: number;
  /** Changes already in the store (the mapping has synced that version or a later one). */
  skipped: number;
  /** The watermark after the poll (null: still unset). */
  watermark: { at: string; id: number } | null;
  /** Set when an adoption of the integration was open: the poll queued nothing from then on and left the watermark there. */
  adopting?: true;
}

export interface DeltaSyncDeps {
  db: Db;
  repo: DeltaSyncRepository;
  integrations: { pimConnectionOf(integrationId: number): Promise<{ baseUrl: string; apiKey: string } | null> };
  pim: Pick<PimClient, 'changedProducts'>;
  mappings: Pick<MappingRepository, 'syncedVersions' | 'with'>;
  queue: Pick<JobQueue, 'sendMany' | 'wake'>;
  /** The transaction's SqlExecutor, so the jobs commit with the watermark (jobs/queue.ts executorOf). */
  executorOf: (tx: Db) => SqlExecutor;
  now?: () => number;
  settleMs?: number;
  pageSize?: number;
  maxPages?: number;
}

export class DeltaSyncService {
  private readonly now: () => number;
  private readonly settleMs: number;
  private readonly pageSize: number;
  private readonly maxPages: number;

  constructor(private readonly deps: DeltaSyncDeps) {
    this.now = deps.now ?? Date.now;
    this.settleMs = deps.settleMs ?? DELTA_SETTLE_MS;
    this.pageSize = deps.pageSize ?? DELTA_PAGE_SIZE;
    this.maxPages = deps.maxPages ?? DELTA_MAX_PAGES;
  }

  /** One poll (the sync.poll job). An inactive or unknown integration polls nothing. Throws PimReadError when the PIM cannot be read. */
  async poll(integrationId: number): Promise<PollResult> {
    const { repo, db } = this.deps;
    const result: PollResult = { seen: 0, enqueued: 0, skipped: 0, watermark: null };
    const state = await repo.state(integrationId);
    if (!state?.isActive) return result;
    const conn = await this.deps.integrations.pimConnectionOf(integrationId);
    if (!conn) return result;
    // An open adoption holds the integration's sync until its links are written: a product it links (or imports into
    // the PIM, import_unmatched) pushed before that would be created in the shop a second time. The changes stay behind
    // the watermark, for the first poll after it.
    const adoptions = new AdoptionRepository(db);
    if (await adoptions.hasOpen(integrationId)) return { ...result, adopting: true };
    // Never polled: start at the connection. Changes before it are the full sync's (POST /api/sync/full).
    let cursor = { at: state.watermarkAt ?? state.createdAt, id: state.watermarkAt ? state.watermarkId : 0 };
    result.watermark = state.watermarkAt ? { at: state.watermarkAt.toISOString(), id: state.watermarkId } : null;

    for (let page = 0; page < this.maxPages; page++) {
      const changes = await this.deps.pim.changedProducts(conn, { since: cursor.at.toISOString(), afterId: cursor.id, limit: this.pageSize });
      if (changes.length === 0) break;
      result.seen += changes.length;
      const synced = await this.deps.mappings.syncedVersions(
        integrationId,
        changes.map((c) => c.id),
      );
      const due = changes.filter((c) => {
        const version = synced.get(c.id);
        return !version || version.getTime() < Date.parse(c.updated_at);
      });
      result.skipped += changes.length - due.length;
      // The watermark passes the settled part of the page only (see DELTA_SETTLE_MS); the list is in time order.
      const settledBefore = this.now() - this.settleMs;
      const settled = lastIndexWhere(changes, (c) => Date.parse(c.updated_at) <= settledBefore);
      const next = settled >= 0 ? { at: new Date(changes[settled].updated_at), id: changes[settled].id } : null;
      const queued = await db.transaction(async (tx) => {
        const t = tx;
        // An adoption started since the poll began: nothing more is queued, the watermark stays.
        if (await adoptions.with(t).hasOpen(integrationId)) return false;
        await this.deps.queue.sendMany(
          JOB.syncProduct,
          due.map((c) => ({ data: { integrationId, pimProductId: c.id, reason: 'delta' as const }, singletonKey: `${integrationId}:${c.id}` })),
          { db: this.deps.executorOf(t) },
        );
        await this.deps.mappings.with(t).markPending(
          integrationId,
          due.map((c) => c.id),
        );
        if (next) await repo.with(t).advanceWatermark(integrationId, next.at, next.id);
        return true;
      });
      if (!queued) {
        result.adopting = true;
        break;
      }
      if (due.length > 0) this.deps.queue.wake?.(JOB.syncProduct);
      result.enqueued += due.length;
      if (next) result.watermark = { at: next.at.toISOString(), id: next.id };
      // A short page is the end; an unsettled product means the rest is newer still: the next poll reads on from here.
      if (changes.length < this.pageSize || settled < changes.length - 1) break;
      cursor = next!;
    }
    return result;
  }
}

function lastIndexWhere(changes: PimChange[], test: (c: PimChange) => boolean): number {
  for (let i = changes.length - 1; i >= 0; i--) if (test(changes[i])) return i;
  return -1;
}
