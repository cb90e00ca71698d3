// A bulk upsert: many products in one storefront operation (StorefrontPort.startBulkUpsert / bulkUpsertState).
import type { KnownStorefrontProduct } from './known-product.js';
import type { PimProductSnapshot } from './pim-product.js';
import type { SyncPlacement } from './placement.js';
import type { ProductUpsertResult } from './upsert-result.js';

export interface BulkUpsertItem {
  product: PimProductSnapshot;
  known: KnownStorefrontProduct;
  placement: SyncPlacement;
}

/** One item of a completed bulk upsert: the same result as upsertProduct, or the storefront's userErrors. */
export type BulkItemOutcome = { ok: true; result: ProductUpsertResult } | { ok: false; errors: string[] };

export type BulkUpsertState =
  | { state: 'running'; objectCount: number }
  | { state: 'completed'; outcomes: BulkItemOutcome[] }
  /** The operation failed or was cancelled as a whole (nothing, or only some lines, applied): run the items again. */
  | { state: 'failed'; message: string };
