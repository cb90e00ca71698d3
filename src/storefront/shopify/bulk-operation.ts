// Starting one bulk operation and waiting for it to end, for every bulk user of the adapter: the bulk upserts and their
// publish (bulk-upsert.ts), the catalogue read of an adoption (catalogue-read.ts) and the search for our products
// (ours-in-bulk.ts). Queries and mutations start alike; the shop runs up to five at once per app from 2026-01
// (https://shopify.dev/changelog/faster-bulk-operations).
import { randomBytes } from 'node:crypto';
import { StorefrontError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';
import {
  BulkOperationRunQuery,
  BulkOperationState,
  bulkTagged,
  RecentBulkQueries,
  type BulkOperationNode,
  type BulkOperationRunQueryData,
  type BulkOperationStateData,
  type RecentBulkMutationsData,
} from './operations.js';
import { userErrorLines } from './preflight.js';
import type { ShopifyClient } from './shopify-client.js';

/** The statuses of a bulk operation that has not finished. */
export const ACTIVE_BULK_STATUSES: ReadonlySet<string> = new Set(['CREATED', 'RUNNING', 'CANCELING']);

/** How to start one bulk operation (a mutation or a query) and recognise it among the shop's recent ones. */
export interface BulkStart<T> {
  what: 'mutation' | 'query';
  /** bulkOperationRunMutation or bulkOperationRunQuery, and its variables. */
  document: string;
  variables: Record<string, unknown>;
  payload(data: T): { bulkOperation: BulkOperationNode | null; userErrors: { field: string[] | null; message: string; code: string | null }[] } | null;
  /** The document the operation runs, under a name no other start uses (bulkTagged). */
  tagged: string;
  /** The shop's recent operations of this type (RecentBulkMutations, RecentBulkQueries). */
  recent: string;
}

/**
 * Starts a bulk operation. Starting is not idempotent: after a failure that may have been applied (a 5xx or timeout),
 * the shop's recent operations tell whether this start went through — one running this very (tagged) document is
 * ours — before it is tried again. A shop running as many operations of the kind as it allows answers
 * OPERATION_IN_PROGRESS or LIMIT_REACHED: a StorefrontError of kind `unavailable` (try again later).
 */
export async function startBulkOperation<T>(client: ShopifyClient, shop: StorefrontShop, start: BulkStart<T>): Promise<string> {
  for (let failures = 0; ; ) {
    let data: T;
    try {
      data = await client.call<T>(shop, start.document, start.variables, 12, { retryUnavailable: false });
    } catch (err) {
      if (!(err instanceof StorefrontError) || err.kind !== 'unavailable') throw err;
      const recent = await client.call<RecentBulkMutationsData>(shop, start.recent, {}, 4);
      const adopted = recent.bulkOperations?.nodes?.find((op) => sameDocument(op.query, start.tagged))?.id;
      if (adopted) return adopted;
      if (++failures >= client.throttle.policy.maxAttempts) throw err;
      await client.throttle.backoff(failures);
      continue;
    }
    const payload = start.payload(data);
    const errors = payload?.userErrors ?? [];
    if (errors.some((e) => e.code === 'OPERATION_IN_PROGRESS' || e.code === 'LIMIT_REACHED'))
      throw new StorefrontError('unavailable', `${shop.domain} is running another bulk ${start.what}: ${errors.map((e) => e.message).join('; ')}`);
    if (errors.length) throw new StorefrontError('invalid_response', `${shop.domain} refused the bulk ${start.what}: ${userErrorLines(errors).join('; ')}`);
    if (!payload?.bulkOperation?.id) throw new StorefrontError('invalid_response', `${shop.domain} started no bulk ${start.what} (no operation in the answer)`);
    return payload.bulkOperation.id;
  }
}

/** Polls a bulk operation a job started and waits for, until it ends (first after 250 ms, then up to every 5 s). */
/** Starts a bulk query of `document` under a name of its own (bulkTagged), so a lost start is recognised as ours. */
export function startBulkQuery(client: ShopifyClient, shop: StorefrontShop, document: string): Promise<string> {
  const query = bulkTagged(document, randomBytes(8).toString('hex'));
  return startBulkOperation<BulkOperationRunQueryData>(client, shop, {
    what: 'query',
    document: BulkOperationRunQuery,
    variables: { query },
    payload: (data) => data.bulkOperationRunQuery,
    tagged: query,
    recent: RecentBulkQueries,
  });
}

export async function bulkOperationEnded(client: ShopifyClient, shop: StorefrontShop, operationId: string): Promise<BulkOperationNode> {
  for (let wait = 250; ; wait = Math.min(wait * 2, 5_000)) {
    const op = (await client.call<BulkOperationStateData>(shop, BulkOperationState, { id: operationId }, 2)).bulkOperation;
    if (!op) return { id: operationId, status: 'FAILED', errorCode: 'NOT_FOUND', createdAt: '', completedAt: null, objectCount: 0, url: null, query: '' };
    if (!ACTIVE_BULK_STATUSES.has(op.status)) return op;
    await new Promise((r) => setTimeout(r, wait));
  }
}

export function sameDocument(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
