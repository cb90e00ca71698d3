// Waiting on the storefront's long operations (bulk upserts, catalogue reads), one way for every job that starts one:
// the full sync's batches, the adoption and the drift report. A start the shop refuses because it runs as many bulk
// operations as it allows (StorefrontError `unavailable`) is tried again with back-off for a while; a started operation
// is polled with a growing wait until it ends. A poll that fails is retried by the adapter already, so only several in
// a row give up (the job is then retried by the queue and follows the recorded operation); a refused token never waits.
// The clock is injectable, so tests need not wait it out.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { CatalogueReadState, StorefrontCatalogueProduct, StorefrontCatalogueReader } from '../storefront/port/catalogue.js';
import { StorefrontError } from '../storefront/port/errors.js';
import type { StorefrontShop } from '../storefront/port/shop.js';

/** Consecutive failed polls of one operation (each already retried by the adapter) before the job gives up for now. */
export const POLL_FAILURES = 5;

export interface WaitOptions {
  /** First and longest wait between two polls (×1.5 each time). */
  pollMs: { first: number; max: number };
  /** How long a start refused as busy is tried again. */
  busyRetryMs: number;
  signal?: AbortSignal;
  sleep?: (ms: number) => Promise<unknown>;
}

/** Starts an operation, trying again (1 s, doubling up to 10 s) while the shop is busy, for `busyRetryMs` at most. */
export async function startWhenFree<T>(start: () => Promise<T>, o: Pick<WaitOptions, 'busyRetryMs' | 'signal' | 'sleep'>): Promise<T> {
  const sleep = o.sleep ?? sleepFor;
  const deadline = Date.now() + o.busyRetryMs;
  for (let wait = 1_000; ; wait = Math.min(wait * 2, 10_000)) {
    try {
      return await start();
    } catch (err) {
      if (!(err instanceof StorefrontError) || err.kind !== 'unavailable' || Date.now() + wait > deadline) throw err;
      o.signal?.throwIfAborted();
      await sleep(wait);
    }
  }
}

/**
 * Polls until the state is no longer `running`. `onRunning` sees each running state (progress). A poll that throws
 * something other than a StorefrontError, or the shop refusing our token, ends the wait at once; other failures count
 * as running until POLL_FAILURES in a row.
 */
export async function pollUntilDone<S extends { state: string }>(
  poll: () => Promise<S>,
  o: Pick<WaitOptions, 'pollMs' | 'signal' | 'sleep'> & { onRunning?: (state: S) => Promise<void> | void },
): Promise<Exclude<S, { state: 'running' }>> {
  const sleep = o.sleep ?? sleepFor;
  let failures = 0;
  for (let wait = o.pollMs.first; ; wait = Math.min(Math.round(wait * 1.5), o.pollMs.max)) {
    try {
      const state = await poll();
      failures = 0;
      if (state.state !== 'running') return state as Exclude<S, { state: 'running' }>;
      await o.onRunning?.(state);
    } catch (err) {
      if (!(err instanceof StorefrontError) || err.tokenRefused || ++failures >= POLL_FAILURES) throw err;
    }
    o.signal?.throwIfAborted();
    await sleep(wait);
  }
}

export interface CatalogueReadJob extends WaitOptions {
  storefront: StorefrontCatalogueReader;
  shop: StorefrontShop;
  /** The operation an earlier try of the job started (followed instead of starting another), or null. */
  operationId: string | null;
  /** Records the operation before it is waited on (null: it failed and another is started). */
  saveOperation(operationId: string | null): Promise<void>;
  /** A read that failed as a whole is started again this many times in all. */
  attempts: number;
  /** Objects read so far, while it runs. */
  onProgress?: (objectCount: number) => Promise<void> | void;
}

/**
 * The shop's whole catalogue through its bulk query (the adoption and the drift report): the recorded operation
 * followed, or one started (waiting while the shop is busy) and recorded; a read that failed as a whole is started
 * again, `attempts` times in all, then CatalogueReadFailed says why.
 */
export async function readShopCatalogue(job: CatalogueReadJob): Promise<StorefrontCatalogueProduct[]> {
  let operationId = job.operationId;
  for (let attempt = 1; ; attempt++) {
    if (!operationId) {
      operationId = await startWhenFree(async () => (await job.storefront.startCatalogueRead(job.shop)).operationId, job);
      await job.saveOperation(operationId);
    }
    const id = operationId;
    const state = await pollUntilDone<CatalogueReadState>(() => job.storefront.catalogueReadState(job.shop, id), {
      ...job,
      onRunning: (s) => (s.state === 'running' ? job.onProgress?.(s.objectCount) : undefined),
    });
    if (state.state === 'completed') return state.products;
    await job.saveOperation(null);
    operationId = null;
    if (attempt >= job.attempts) throw new CatalogueReadFailed(state.message);
  }
}

/** A catalogue read that failed as a whole on its last attempt. */
export class CatalogueReadFailed extends Error {
  constructor(readonly reason: string) {
    super(`The shop's products could not be read: ${reason}`);
    this.name = 'CatalogueReadFailed';
  }
}
